/* autograd.h — define-by-run automatic differentiation (the `autograd/` component).
 *
 * The design is PyTorch's eager autograd, written as plainly as micrograd:
 *
 *   - Per-tensor state (requires_grad, .grad, grad_fn, hooks, ...) hangs off
 *     Tensor.meta (an AgMeta, private to this component). tensor/ never sees it.
 *   - Every differentiable op (ops.c, the ag_* functions below) calls the
 *     tensor/ op and, when grad mode is on and an input requires grad,
 *     records a GradNode: its kind (one X-macro table of PyTorch 1.13's node
 *     names), its edges to the nodes of its inputs (next_functions), the
 *     values its derivative needs and the script line that ran it.
 *   - Every derivative formula lives in derivatives.c, one entry per kind,
 *     written with the ag_* ops themselves so that a backward run with
 *     create_graph records its own graph (higher-order derivatives).
 *   - The engine (engine.c) counts dependencies from the roots and runs the
 *     nodes from a ready queue (latest node first, as PyTorch), never
 *     recursing on the C stack, so a chain of a million nodes works.
 *
 * No reference cycles: a tensor owns its grad_fn; a node owns the nodes it
 * points to and data-only aliases of the tensors it saved (same storage and
 * version counter, no meta), plus the version they had. A leaf's
 * AccumulateGrad node owns the leaf; the leaf only points back weakly. So the
 * graph is freed as soon as nothing refers to it (refcounts, freed
 * iteratively: dropping a million-node chain does not recurse either).
 *
 * Errors follow tensor/'s convention: NULL / false plus tensor_error().
 * Script-level things (hooks written in Ag, custom Function subclasses)
 * reach the engine as opaque callbacks; a callback that fails returns a
 * failure and the binding keeps its own error object.
 *
 * Thread-local state (as allowed): grad mode, anomaly mode, the current
 * script line, the lines of recent in-place writes, the node/meta free lists
 * and the deferred-release list.
 */
#ifndef AG_AUTOGRAD_H
#define AG_AUTOGRAD_H

#include <stdbool.h>
#include <stdint.h>

#include "ops/activations.h"
#include "tensor/ops.h"
#include "tensor/random.h"
#include "tensor/tensor.h"
#include "autograd/state.h"

typedef struct GradNode GradNode;

/* The node kind of each differentiable row of ops/elementwise.h, as X(node, formula). */
#define AG_UNARY_NODE(X, e, name, kernels, result, grad, node, formula, jvp, ...)                  \
  AG_NODE_IF_##grad(X, node, formula, jvp)
#define AG_BINARY_NODE(X, e, name, symbol, kernels, result, grad, node, formula, jvp, ...)         \
  AG_NODE_IF_##grad(X, node, formula, jvp)
#define AG_NODE_IF_GRAD(X, node, formula, jvp) X(node, formula, jvp)
#define AG_NODE_IF_NO_GRAD(X, node, formula, jvp)
#define AG_NODE_IF_NOT_IMPLEMENTED(X, node, formula, jvp)
/* ... and of each row of ops/activations.h (two for an in-place node of its own) */
#define AG_ACTIVATION_NODE(X, NAME, name, node, formula, inplace, inode, iformula, ...)            \
  X(node, formula, jvp_diagonal) AG_ACT_INPLACE_NODE_##inplace(X, inode, iformula)
#define AG_ACT_INPLACE_NODE_INPLACE_OWN_NODE(X, inode, iformula) X(inode, iformula, jvp_diagonal)
#define AG_ACT_INPLACE_NODE_INPLACE(X, inode, iformula)
#define AG_ACT_INPLACE_NODE_NO_INPLACE(X, inode, iformula)

/* ---- node kinds: X(name, derivative, jvp) ----
 * name: PyTorch 1.13's exact node name; derivative: its formula in
 * derivatives.c (the table there is generated from this list, so every kind
 * has one), ENGINE for the two kinds the engine runs itself; jvp: its
 * forward-mode rule beside the formula (j_NAME in derivatives.c),
 * jvp_transposed (the vjp formula differentiated with respect to its linear
 * grad_output: correct for every formula, about three backwards' cost) or
 * jvp_none (PyTorch's "Trying to use forward AD with ..." error; the reason
 * is no_jvp_kinds[] of tests/unit/test_autograd_ops.c); jvp_diagonal for an
 * elementwise op of one input (its vjp formula applied to the tangent). */
#define AG_NODE_KINDS(X)                                                                           \
  X(AccumulateGrad, ENGINE, jvp_none)                                                              \
  AG_UNARY_REGISTRY(AG_UNARY_NODE, X)  /* the elementwise ops' nodes: ops/elementwise.h */         \
  AG_BINARY_REGISTRY(AG_BINARY_NODE, X)                                                            \
  X(RsubBackward1, d_rsub, jvp_diagonal)                                                           \
  X(MulBackward1, d_mul, jvp_diagonal)         /* ATen's mul(Tensor, Scalar), as C++ code calls it */ \
  X(AddcmulBackward0, d_addcmul, jvp_transposed)                                                   \
  X(AddcdivBackward0, d_addcdiv, jvp_transposed)                                                   \
  X(LerpBackward0, d_lerp, jvp_transposed)       /* lerp with a number weight */                   \
  X(LerpBackward1, d_lerp, jvp_transposed)       /* lerp with a tensor weight */                   \
  X(DivBackward1, d_div_scalar, jvp_diagonal)  /* ATen's div(Tensor, Scalar), as C++ code calls it */ \
  X(ReciprocalBackward0, d_reciprocal, jvp_diagonal)                                               \
  X(PowBackward0, d_pow_scalar, jvp_diagonal)                                                      \
  X(PowBackward2, d_pow_base, jvp_diagonal)                                                        \
  X(RemainderBackward0, d_remainder, jvp_transposed)                                               \
  X(ErfBackward0, d_normal_cdf, jvp_diagonal)                                                      \
  AG_ACTIVATION_REGISTRY(AG_ACTIVATION_NODE, X)  /* ops/activations.h */                          \
  X(ClampBackward0, d_clamp_tensor, jvp_transposed)                                                \
  X(ClampBackward1, d_clamp, jvp_diagonal)                                                         \
  X(ClampMinBackward0, d_clamp, jvp_diagonal)                                                      \
  X(ClampMaxBackward0, d_clamp, jvp_diagonal)                                                      \
  X(WhereBackward0, d_where, j_where)                                                              \
  X(MaskedFillBackward0, d_masked_fill, jvp_transposed)                                            \
  X(MaskedFillBackward1, d_masked_fill, jvp_transposed)                                            \
  X(SumBackward0, d_sum, j_sum)                                                                    \
  X(SumBackward1, d_sum, j_sum)                                                                    \
  X(MeanBackward0, d_mean, j_mean)                                                                 \
  X(MeanBackward1, d_mean, j_mean)                                                                 \
  X(ProdBackward0, d_prod, jvp_transposed)                                                         \
  X(ProdBackward1, d_prod, jvp_transposed)                                                         \
  X(MaxBackward0, d_extreme_dim, jvp_transposed)                                                   \
  X(MaxBackward1, d_extreme_all, jvp_transposed)                                                   \
  X(MinBackward0, d_extreme_dim, jvp_transposed)                                                   \
  X(MinBackward1, d_extreme_all, jvp_transposed)                                                   \
  X(VarBackward0, d_var, jvp_transposed)                                                           \
  X(StdBackward0, d_std, jvp_transposed)                                                           \
  X(NormBackward1, d_norm, jvp_transposed)                                                         \
  X(LogsumexpBackward0, d_logsumexp, jvp_transposed)                                               \
  X(ViewBackward0, d_reshape, j_reshape)                                                           \
  X(AliasBackward0, d_identity, j_identity)                                                        \
  X(Identity, d_identity, j_identity)  /* forward_ad.unpack_dual's primal */                       \
  X(ReshapeAliasBackward0, d_reshape, j_reshape)                                                   \
  X(UnsafeViewBackward0, d_reshape, j_reshape)                                                     \
  X(SqueezeBackward0, d_reshape, j_reshape)                                                        \
  X(SqueezeBackward1, d_reshape, j_reshape)                                                        \
  X(SqueezeBackward3, d_reshape, j_reshape)                                                        \
  X(UnsqueezeBackward0, d_reshape, j_reshape)                                                      \
  X(TransposeBackward0, d_transpose, j_transpose)                                                  \
  X(TBackward0, d_t, j_t)                                                                          \
  X(PermuteBackward0, d_permute, j_permute)                                                        \
  X(ExpandBackward0, d_expand, j_expand)                                                           \
  X(ConstantPadNdBackward0, d_constant_pad, jvp_transposed)                                        \
  X(ReflectionPad1DBackward0, d_mode_pad, jvp_transposed)                                          \
  X(ReflectionPad2DBackward0, d_mode_pad, jvp_transposed)                                          \
  X(ReflectionPad3DBackward0, d_mode_pad, jvp_transposed)                                          \
  X(ReplicationPad1DBackward0, d_mode_pad, jvp_transposed)                                         \
  X(ReplicationPad2DBackward0, d_mode_pad, jvp_transposed)                                         \
  X(ReplicationPad3DBackward0, d_mode_pad, jvp_transposed)                                         \
  X(ReflectionPad1DBackwardBackward0, d_mode_pad_again, jvp_transposed)                            \
  X(ReflectionPad2DBackwardBackward0, d_mode_pad_again, jvp_transposed)                            \
  X(ReflectionPad3DBackwardBackward0, d_mode_pad_again, jvp_transposed)                            \
  X(ReplicationPad1DBackwardBackward0, d_mode_pad_again, jvp_transposed)                           \
  X(ReplicationPad2DBackwardBackward0, d_mode_pad_again, jvp_transposed)                           \
  X(ReplicationPad3DBackwardBackward0, d_mode_pad_again, jvp_transposed)                           \
  X(CatBackward0, d_cat, j_cat)                                                                    \
  X(StackBackward0, d_stack, j_stack)                                                              \
  X(SplitBackward0, d_split, j_split)                                                              \
  X(SplitWithSizesBackward0, d_split, j_split)                                                     \
  X(UnbindBackward0, d_unbind, j_unbind)                                                           \
  X(SelectBackward0, d_index, jvp_transposed)                                                      \
  X(SliceBackward0, d_index, jvp_transposed)                                                       \
  X(IndexBackward0, d_index, jvp_transposed)                                                       \
  X(IndexPutBackward0, d_index_put, jvp_transposed)                                                \
  X(IndexPutImplBackward0, d_index_again, jvp_transposed)      /* zeros with g put at an index: indexing's backward */ \
  X(SelectBackwardBackward0, d_index_again, jvp_transposed)                                        \
  X(SliceBackwardBackward0, d_index_again, jvp_transposed)                                         \
  X(IndexFillBackward0, d_index_fill, jvp_transposed)         /* g with an indexed region zeroed */ \
  X(CopySlices, d_index_put, jvp_transposed)                                                       \
  X(AsStridedBackward0, d_strided_get, jvp_transposed)         /* a view rebuilt from its base's new history */ \
  X(AsStridedScatterBackward0, d_strided_embed, jvp_transposed)  /* zeros with g written into a view's region */ \
  X(IndexSelectBackward0, d_index, jvp_transposed)                                                 \
  X(EmbeddingBackward0, d_index, jvp_transposed)                                                   \
  X(EmbeddingDenseBackward0, d_index_again, jvp_transposed)                                        \
  X(GatherBackward0, d_gather, jvp_transposed)                                                     \
  X(ScatterAddBackward0, d_scatter_add, jvp_transposed)                                            \
  X(ScatterBackward0, d_scatter, jvp_transposed)       /* g with the written places zeroed; src: g gathered */ \
  X(ScatterBackward1, d_scatter, jvp_transposed)                                                   \
  X(IndexAddBackward0, d_index_add, jvp_transposed)                                                \
  X(Unique2Backward0, d_no_derivative, jvp_none)  /* unique: PyTorch has no derivative either */   \
  X(UniqueDimBackward0, d_no_derivative, jvp_none)                                                 \
  X(SortBackward0, d_extreme_dim, jvp_transposed)       /* g scattered back to where each value came from */ \
  X(TopkBackward0, d_extreme_dim, jvp_transposed)                                                  \
  X(KthvalueBackward0, d_extreme_dim, jvp_transposed)                                              \
  X(ModeBackward0, d_extreme_dim, jvp_transposed)                                                  \
  X(MedianBackward0, d_extreme_all, jvp_transposed)                                                \
  X(MedianBackward1, d_extreme_dim, jvp_transposed)                                                \
  X(FlipBackward0, d_flip, jvp_transposed)                                                         \
  X(TrilBackward0, d_tril, jvp_transposed)                                                         \
  X(TriuBackward0, d_triu, jvp_transposed)                                                         \
  X(CumsumBackward0, d_cumsum, jvp_transposed)                                                     \
  X(CumprodBackward0, d_cumprod, jvp_transposed)                                                   \
  X(DiagBackward0, d_diag, jvp_transposed)                                                         \
  X(DiagonalBackward0, d_diagonal, jvp_transposed)                                                 \
  X(DiagonalBackwardBackward0, d_diagonal_embed, jvp_transposed)                                   \
  X(RollBackward0, d_roll, jvp_transposed)                                                         \
  X(RepeatBackward0, d_repeat, jvp_transposed)                                                     \
  X(AmaxBackward0, d_amax, jvp_transposed)             /* shared evenly among the tied elements */ \
  X(AminBackward0, d_amax, jvp_transposed)                                                         \
  X(TraceBackward0, d_trace, jvp_transposed)                                                       \
  X(MmBackward0, d_mm, j_mm)                                                                       \
  X(AddmmBackward0, d_addmm, j_addmm)                                                              \
  X(BmmBackward0, d_bmm, j_bmm)                                                                    \
  X(MvBackward0, d_mv, j_mv)                                                                       \
  X(DotBackward0, d_dot, j_dot)                                                                    \
  X(Im2ColBackward0, d_im2col, jvp_transposed)                                                     \
  X(Col2ImBackward0, d_col2im, jvp_transposed)                                                     \
  X(ConvolutionBackward0, d_convolution, jvp_transposed)                                           \
  X(MaxPool2DWithIndicesBackward0, d_max_pool2d, jvp_transposed)                                   \
  X(MaxPool2DWithIndicesBackwardBackward0, d_max_pool2d_backward, jvp_transposed)                  \
  X(AvgPool2DBackward0, d_avg_pool2d, jvp_transposed)                                              \
  X(AdaptiveAvgPool2DBackward0, d_adaptive_avg_pool2d, jvp_transposed)                             \
  X(AdaptiveAvgPool2DBackwardBackward0, d_adaptive_avg_pool2d_backward, jvp_transposed)            \
  X(NativeBatchNormBackward0, d_native_norm, jvp_transposed)                                       \
  X(NativeLayerNormBackward0, d_native_norm, jvp_transposed)                                       \
  X(NativeGroupNormBackward0, d_native_norm, jvp_transposed)                                       \
  X(SoftmaxBackward0, d_softmax, j_softmax)                                                        \
  X(LogSoftmaxBackward0, d_log_softmax, j_log_softmax)                                             \
  X(MseLossBackward0, d_mse, jvp_transposed)                                                       \
  X(NllLossBackward0, d_nll, jvp_transposed)                                                       \
  X(NllLoss2DBackward0, d_nll, jvp_transposed)                                                     \
  X(BinaryCrossEntropyBackward0, d_bce, jvp_transposed)                                            \
  X(BinaryCrossEntropyWithLogitsBackward0, d_bce_logits, jvp_transposed)                           \
  X(SmoothL1LossBackward0, d_smooth_l1, jvp_transposed)                                            \
  X(HuberLossBackward0, d_huber, jvp_transposed)                                                   \
  X(ToCopyBackward0, d_to_copy, jvp_transposed)                                                    \
  X(CloneBackward0, d_identity, j_identity)                                                        \
  X(CopyBackwards, d_copy, jvp_transposed)                                                         \
  X(FillBackward0, d_zero, jvp_transposed)                                                         \
  X(ZeroBackward0, d_zero, jvp_transposed)                                                         \
  X(UniformBackward0, d_zero, jvp_transposed)                                                      \
  X(NormalBackward0, d_zero, jvp_transposed)                                                       \
  X(NotImplemented, d_not_implemented, jvp_none)  /* an op PyTorch has no derivative for: backward fails */ \
  X(CustomBackward, ENGINE, jvp_none)  /* an Ag Function subclass: prints as <NAMEBackward> */

typedef enum {
#define AG_NODE_ENUM(name, derivative, jvp) AG_NODE_##name,
  AG_NODE_KINDS(AG_NODE_ENUM)
#undef AG_NODE_ENUM
  AG_NODE_COUNT
} AgNodeKind;

/* ---- modes and context (thread-local) ---- */
bool ag_is_grad_enabled(void);
bool ag_set_grad_enabled(bool enabled); /* returns the previous mode */
void ag_set_anomaly(bool enabled, bool check_forward);
bool ag_anomaly_enabled(void);
/* The script line of the op being run: recorded on new nodes and in-place writes. */
void ag_set_current_line(int line);
int ag_current_line(void);

/* ---- per-tensor state ---- */
bool ag_requires_grad(const Tensor *t);
/* Leaves only (PyTorch's errors for non-leaves and non-float dtypes). */
bool ag_set_requires_grad(Tensor *t, bool requires_grad);
bool ag_is_leaf(const Tensor *t);              /* true unless the tensor has a grad_fn */
GradNode *ag_grad_fn(const Tensor *t);          /* borrowed; NULL for leaves */
int ag_output_nr(const Tensor *t);
Tensor *ag_get_grad(const Tensor *t);            /* borrowed; NULL when unset */
/* Assigns .grad (NULL clears); the shape and dtype must match the tensor's. */
bool ag_set_grad(Tensor *t, Tensor *grad);
bool ag_retain_grad(Tensor *t);                  /* no-op on leaves */
bool ag_retains_grad(const Tensor *t);
/* The AccumulateGrad node of a leaf that requires grad, created on demand:
 * a NEW reference (the leaf itself points to it only weakly). NULL otherwise. */
GradNode *ag_grad_accumulator(Tensor *t);
/* The script variable name the binding knows the tensor by (for graphs). */
void ag_set_name(Tensor *t, const char *name);
const char *ag_name(const Tensor *t);            /* NULL when unnamed */

/* Tensor hooks: call() receives the gradient flowing into the tensor and
 * returns NULL to keep it or a new reference that replaces it; it sets
 * *failed (and returns NULL) when the script hook raised. release() frees ctx
 * when the hook goes away. */
typedef struct {
  Tensor *(*call)(void *ctx, Tensor *grad, bool *failed);
  void (*release)(void *ctx);
} AgHookFns;
/* Returns a handle (> 0) for ag_remove_hook, or -1 on error (tensor does not
 * require grad). On a leaf the hook runs before accumulation into .grad; on a
 * non-leaf it is attached to the node that computes the tensor. */
int ag_register_hook(Tensor *t, AgHookFns fns, void *ctx);
bool ag_remove_hook(Tensor *t, int handle);

/* Saved-tensor hooks (PyTorch's autograd.graph.saved_tensors_hooks): while
 * a pair is pushed, every tensor a new node saves for backward is handed to
 * pack(), whose result the node keeps instead of the tensor; the backward
 * gets the tensor back from unpack(packed). pack() sets *failed (returning
 * NULL) when the script hook raised: the tensor is then saved as usual and
 * the op fails. unpack() returns a new reference or NULL with *failed set.
 * release() frees a packed value with its node (or when backward frees the
 * saved values). Only the innermost pair applies, as in PyTorch; pack runs
 * with the hooks off, so its own ops save their tensors plainly. */
typedef struct {
  void *(*pack)(void *ctx, Tensor *t, bool *failed);
  Tensor *(*unpack)(void *packed, bool *failed);
  void (*release)(void *packed);
} AgSavedHookFns;
/* false when out of memory; pop ends the innermost pair and returns its ctx
 * (the caller's to free), NULL when none was pushed. */
bool ag_saved_hooks_push(const AgSavedHookFns *fns, void *ctx);
void *ag_saved_hooks_pop(void);
/* Packs t with the innermost pair, as a node's saving does (a custom
 * Function's saved tensors): the packed value, and *fns the pair's; NULL
 * with *fns NULL when no pair applies, NULL with *failed when pack raised. */
void *ag_saved_hooks_pack(Tensor *t, const AgSavedHookFns **fns, bool *failed);
/* The bytes of the tensors saved by the nodes of the graph behind node (each
 * storage counted once; packed values count nothing), and how many saved
 * tensors that was. */
size_t ag_graph_saved_bytes(GradNode *node, int *count);
/* The bytes of node's own saved tensors, each storage once. */
size_t grad_node_saved_bytes(const GradNode *node);


/* ---- graph nodes ---- */
GradNode *grad_node_retain(GradNode *node);
void grad_node_release(GradNode *node);
AgNodeKind grad_node_kind(const GradNode *node);
const char *grad_node_name(const GradNode *node); /* "MulBackward0", "MyFnBackward" */
const char *ag_node_kind_name(AgNodeKind kind);
uint64_t grad_node_id(const GradNode *node);      /* stable, increasing in creation order */
uint64_t grad_node_last_id(void);                 /* the id of the last node made on this thread */
int grad_node_line(const GradNode *node);         /* script line of the forward op, 0 if unknown */
int grad_node_num_next(const GradNode *node);
/* next_functions[i]: borrowed node (NULL when that input needs no gradient) and its input_nr. */
GradNode *grad_node_next(const GradNode *node, int i, int *input_nr);
Tensor *grad_node_variable(const GradNode *node); /* AccumulateGrad's leaf (borrowed), else NULL */
/* Saved values, for show_saved displays: the i-th saved tensor (borrowed
 * data-only alias; NULL once freed by backward) and its role name. */
int grad_node_num_saved(const GradNode *node);
Tensor *grad_node_saved(const GradNode *node, int i, const char **name);
/* Whether saved value i is held by a saved_tensors_hooks pack hook (then
 * grad_node_saved gives NULL). */
bool grad_node_saved_is_packed(const GradNode *node, int i);
/* A custom Function node's i-th tensor of ctx.saved_tensors (borrowed), NULL
 * past the last or for other nodes. */
const Tensor *grad_node_custom_saved(const GradNode *node, int i);
/* The shape and dtype of the forward output(s) this node differentiates. */
int grad_node_num_outputs(const GradNode *node);
bool grad_node_output_info(const GradNode *node, int i, DType *dtype, int *ndim,
                           const int64_t **shape);
void *grad_node_custom_ctx(const GradNode *node); /* a custom node's ctx, else NULL */

/* ---- custom functions (Ag Function subclasses) ----
 * The binding runs forward() with grad mode off, restores the mode, then
 * calls ag_custom_record with every argument of apply (NULL for
 * non-tensors) and the outputs.
 * backward() receives one gradient per output (zeros where none flowed) and
 * writes at most max_out new references (NULL = no gradient) to out; it
 * returns how many gradients the script returned, or -1 when it raised.
 * release_saved() (may be NULL) drops ctx's saved tensors when a backward
 * without retain_graph frees the graph; release() frees ctx with the node. */
typedef struct {
  int (*backward)(void *ctx, Tensor *const *grads, int ngrads, Tensor **out, int max_out,
                  bool *failed);
  void (*release_saved)(void *ctx);
  void (*release)(void *ctx);
  /* The i-th tensor ctx saved (save_for_backward), borrowed; NULL past the
   * last (for the saved-bytes accounting). May be NULL. */
  const Tensor *(*saved_tensor)(void *ctx, int i);
} AgFunctionFns;
/* needs_input_grad for apply's arguments: the argument is a tensor that
 * requires grad (in any grad mode, as PyTorch). Fills flags[nargs]; returns
 * whether a node is to be recorded (grad mode on and some flag set). */
bool ag_custom_needs_input_grad(Tensor *const *args, int nargs, bool *flags);
/* Records the node "<name>Backward" when some argument needs a gradient
 * (otherwise returns true doing nothing, and ctx is released). On success the
 * node owns ctx. An output that is one of the arguments is replaced by an
 * alias, so that the argument keeps its own history. */
bool ag_custom_record(const char *name, AgFunctionFns fns, void *ctx, Tensor *const *args,
                      int nargs, Tensor **outputs, int noutputs);

/* ---- forward AD (forward.c; PyTorch's torch.autograd.forward_ad) ----
 * One dual level at a time, as PyTorch 1.13. Entering returns the level (0)
 * or -1 with "Nested forward mode AD is not supported at the moment";
 * leaving drops every tangent of the level. ag_make_dual: a view of primal
 * carrying tangent (as is; same shape required, PyTorch's message
 * otherwise). ag_unpack_primal: a view of t without its tangent, with t's
 * history. ag_fw_tangent: t's tangent at the open level (borrowed) or NULL. */
int ag_fw_enter_level(void);
bool ag_fw_exit_level(void);
int ag_fw_level(void); /* the open level, -1 when none */
Tensor *ag_make_dual(Tensor *primal, Tensor *tangent);
Tensor *ag_unpack_primal(Tensor *t);
Tensor *ag_fw_tangent(const Tensor *t);
/* Gives t (an op's output) the tangent, same shape required (a custom
 * Function's jvp()). */
bool ag_fw_attach(Tensor *t, Tensor *tangent);
/* Forward AD on or suspended (a custom Function's forward sees primals);
 * returns the previous state. */
bool ag_fw_set_enabled(bool enabled);

/* ---- the engine ----
 * ag_backward: .backward() for n roots; grad_roots[i] may be NULL for a
 * scalar root (a gradient of 1). inputs (may be NULL) restricts accumulation
 * to those tensors. ag_grad: autograd.grad; fills results[ninputs] with new
 * references (NULL for unused inputs when allow_unused). retain_graph is
 * taken as given: PyTorch's default (retain_graph = create_graph) is the
 * caller's to apply. */
bool ag_backward(Tensor *const *roots, Tensor *const *grad_roots, int n, bool retain_graph,
                 bool create_graph, Tensor *const *inputs, int ninputs);
bool ag_grad(Tensor *const *outputs, Tensor *const *grad_outputs, int noutputs,
             Tensor *const *inputs, int ninputs, bool retain_graph, bool create_graph,
             bool allow_unused, Tensor **results);
/* PyTorch's torch.autograd._is_checkpoint_valid(): false while a node runs
 * in an autograd.grad() or a backward(inputs=...) (which reentrant
 * checkpointing cannot serve), true otherwise. */
bool ag_checkpoint_valid(void);

/* ---- differentiable ops (mirroring tensor/ops.h: same arguments and errors) ----
 * Each returns a new reference or NULL with tensor_error() set. */
Tensor *ag_unary(UnaryOp op, Tensor *a);
Tensor *ag_binary(BinaryOp op, Tensor *a, Tensor *b);
Tensor *ag_binary_scalar(BinaryOp op, Tensor *a, double s); /* a op s */
Tensor *ag_scalar_binary(BinaryOp op, double s, Tensor *a); /* s op a */
Tensor *ag_clamp(Tensor *a, double lo, double hi);          /* NAN: no bound */
/* clamp with tensor bounds (either may be NULL, not both): ClampBackward0,
 * edges [self, min, max]; the result broadcasts all three. */
Tensor *ag_clamp_tensor(Tensor *a, Tensor *lo, Tensor *hi);
Tensor *ag_clamp_min(Tensor *a, double lo);
Tensor *ag_clamp_max(Tensor *a, double hi);
Tensor *ag_where(const Tensor *cond, Tensor *a, Tensor *b);
/* a.masked_fill(mask, value): value is a 0-d tensor; value_is_tensor says whether
 * the script passed a tensor (MaskedFillBackward1, an edge to it) or a number. */
Tensor *ag_masked_fill(Tensor *a, const Tensor *mask, Tensor *value, bool value_is_tensor);

Tensor *ag_sum(Tensor *a, const int *dims, int ndims, bool keepdim); /* dims NULL: all */
Tensor *ag_mean(Tensor *a, const int *dims, int ndims, bool keepdim);
Tensor *ag_prod(Tensor *a, int dim, bool has_dim, bool keepdim);
Tensor *ag_max(Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices);
Tensor *ag_min(Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices);
/* sort/topk along dim (tensor_sort, tensor_topk); *indices gets the int64
 * positions (NULL: not wanted). Recorded as SortBackward0 / TopkBackward0. */
Tensor *ag_sort(Tensor *a, int dim, bool descending, Tensor **indices);
Tensor *ag_topk(Tensor *a, int64_t k, int dim, bool largest, Tensor **indices);
/* The k-th smallest along dim and its index (KthvalueBackward0). */
Tensor *ag_kthvalue(Tensor *a, int64_t k, int dim, bool keepdim, Tensor **indices);
/* The most frequent value along dim and its index (ModeBackward0). */
Tensor *ag_mode(Tensor *a, int dim, bool keepdim, Tensor **indices);
/* median(dim) with its indices (MedianBackward1), or of every element (has_dim false). */
Tensor *ag_median(Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices);
/* flip, tril/triu, cumsum (tensor_flip, ...): FlipBackward0, TrilBackward0,
 * TriuBackward0, CumsumBackward0 (dtype: as tensor_cumsum). */
Tensor *ag_flip(Tensor *a, const int *dims, int ndims);
Tensor *ag_tril(Tensor *a, int64_t diagonal);
Tensor *ag_triu(Tensor *a, int64_t diagonal);
Tensor *ag_cumsum(Tensor *a, int dim, DType dtype);
/* ops_repeat.c: cumprod (CumprodBackward0), diag (DiagBackward0), the
 * diagonal k of dims d1, d2 as a view (DiagonalBackward0) and its backward
 * (DiagonalBackwardBackward0), roll (RollBackward0), repeat
 * (RepeatBackward0); repeat_interleave (int64 repeats, 0-d or 1-d; no dim:
 * flattened; output_size -1: not given) and kron are composites. */
Tensor *ag_cumprod(Tensor *a, int dim, DType dtype);
Tensor *ag_diag(Tensor *a, int64_t k);
Tensor *ag_diagonal(Tensor *a, int64_t k, int d1, int d2);
Tensor *ag_diagonal_embed(Tensor *g, int ndim, const int64_t *shape, int64_t k, int d1, int d2);
Tensor *ag_roll(Tensor *a, const int64_t *shifts, int nshifts, const int *dims, int ndims);
Tensor *ag_repeat(Tensor *a, const int64_t *sizes, int nsizes);
Tensor *ag_repeat_interleave(Tensor *a, const Tensor *repeats, int dim, bool has_dim,
                             int64_t output_size);
Tensor *ag_kron(Tensor *a, Tensor *b);
/* torch.einsum (einsum.c): PyTorch 1.13's equation grammar and its
 * composition of permute, diagonal, sum, mul and bmm, whose nodes it records. */
Tensor *ag_einsum(const char *equation, Tensor *const *operands, int n);
/* amax/amin over dims (ndims 0: all): AmaxBackward0 / AminBackward0. */
Tensor *ag_amax(Tensor *a, const int *dims, int ndims, bool keepdim);
Tensor *ag_amin(Tensor *a, const int *dims, int ndims, bool keepdim);
Tensor *ag_trace(Tensor *a); /* TraceBackward0 */
Tensor *ag_var(Tensor *a, const int *dims, int ndims, bool unbiased, bool keepdim);
Tensor *ag_std(Tensor *a, const int *dims, int ndims, bool unbiased, bool keepdim);
Tensor *ag_norm(Tensor *a, double p, const int *dims, int ndims, bool keepdim);
Tensor *ag_logsumexp(Tensor *a, const int *dims, int ndims, bool keepdim);
/* The un-broadcast helper, differentiable (its backward expands). */
Tensor *ag_sum_to_shape(Tensor *a, int ndim, const int64_t *shape);

Tensor *ag_reshape(Tensor *a, int ndim, const int64_t *shape);
/* ATen's _unsafe_view (UnsafeViewBackward0); a non-contiguous a is copied first. */
Tensor *ag_unsafe_view(Tensor *a, int ndim, const int64_t *shape);
Tensor *ag_view(Tensor *a, int ndim, const int64_t *shape);
Tensor *ag_flatten(Tensor *a, int start_dim, int end_dim);
Tensor *ag_squeeze(Tensor *a, int dim, bool has_dim);
Tensor *ag_unsqueeze(Tensor *a, int dim);
Tensor *ag_transpose(Tensor *a, int d0, int d1);
Tensor *ag_permute(Tensor *a, const int *perm, int n);
Tensor *ag_expand(Tensor *a, int ndim, const int64_t *shape);
Tensor *ag_t(Tensor *a);
Tensor *ag_contiguous(Tensor *a); /* a itself (retained) if contiguous, else CloneBackward0 */
Tensor *ag_cat(Tensor *const *ts, int n, int dim);
Tensor *ag_stack(Tensor *const *ts, int n, int dim);
/* Multi-output: return the count and a malloc'd array of new references in *out. */
int ag_split(Tensor *a, int64_t size, int dim, Tensor ***out);
int ag_split_sizes(Tensor *a, const int64_t *sizes, int nsizes, int dim, Tensor ***out);
int ag_chunk(Tensor *a, int chunks, int dim, Tensor ***out);
int ag_unbind(Tensor *a, int dim, Tensor ***out);

Tensor *ag_select(Tensor *a, int dim, int64_t i);
Tensor *ag_slice(Tensor *a, int dim, int64_t start, int64_t stop, int64_t step);
/* t[items]: SelectBackward0 / SliceBackward0 for one basic item, IndexBackward0 otherwise
 * (a chain of basic items records one node per item, as PyTorch). */
Tensor *ag_index(Tensor *a, const IndexItem *items, int n);
/* t[items] = v in place: CopySlices (basic indexing) or IndexPutBackward0. */
bool ag_index_put_(Tensor *a, const IndexItem *items, int n, Tensor *v);
Tensor *ag_index_select(Tensor *a, int dim, const Tensor *index);
Tensor *ag_gather(Tensor *a, int dim, const Tensor *index);
/* a.scatter(dim, index, src) or, src NULL, with the number value; reduce:
 * the reduce= form (mode ADD or MUL), which PyTorch cannot differentiate. */
Tensor *ag_scatter(Tensor *a, int dim, const Tensor *index, Tensor *src, double value,
                   TensorScatterMode mode, bool reduce);
Tensor *ag_scatter_add(Tensor *a, int dim, const Tensor *index, Tensor *src);
Tensor *ag_index_add(Tensor *a, int dim, const Tensor *index, Tensor *source, double alpha);
/* torch.unique (tensor/count.c); inverse and counts may be NULL. */
Tensor *ag_unique(Tensor *a, int dim, bool has_dim, Tensor **inverse, Tensor **counts);
Tensor *ag_bincount(const Tensor *a, Tensor *weights, int64_t minlength);
/* torch.embedding(weight, indices): the rows of a 2-D weight at int64 indices
 * of any shape (EmbeddingBackward0). */
Tensor *ag_embedding(Tensor *weight, const Tensor *indices);

Tensor *ag_matmul(Tensor *a, Tensor *b);
Tensor *ag_mm(Tensor *a, Tensor *b);
Tensor *ag_bmm(Tensor *a, Tensor *b);
Tensor *ag_mv(Tensor *a, Tensor *v);
Tensor *ag_dot(Tensor *a, Tensor *b);
Tensor *ag_outer(Tensor *a, Tensor *b);
/* bias + a @ b for 2-D a, b (bias broadcast): AddmmBackward0. */
Tensor *ag_addmm(Tensor *bias, Tensor *a, Tensor *b);
/* F.linear as PyTorch 1.13 records it: addmm(bias, x, w.t()) for a 2-D x
 * with a bias (a contiguous 3-D x is flattened around it), otherwise
 * matmul(x, w.t()) plus an in-place add of the bias. bias may be NULL. */
Tensor *ag_linear(Tensor *x, Tensor *w, Tensor *bias);

/* Sliding windows (ops_conv.c): F.unfold and F.fold (Im2ColBackward0,
 * Col2ImBackward0); convolution of x [N, C, H, W] or [N, C, L] (a 1-D
 * window has kernel height 1) with weight [O, C/groups, k...] and bias [O]
 * or NULL (ConvolutionBackward0); pooling over x [C, H, W] or [N, C, H, W]
 * (MaxPool2DWithIndicesBackward0, AvgPool2DBackward0). */
Tensor *ag_im2col(Tensor *x, const TensorWindow *w);
Tensor *ag_col2im(Tensor *cols, int64_t h, int64_t wd, const TensorWindow *w);
Tensor *ag_convolution(Tensor *x, Tensor *weight, Tensor *bias, const TensorWindow *w, int groups);
/* indices may be NULL, else receives the int64 positions y W + x of the maxima */
Tensor *ag_max_pool2d(Tensor *x, const TensorWindow *w, Tensor **indices);
Tensor *ag_avg_pool2d(Tensor *x, const TensorWindow *w, bool count_include_pad,
                      int64_t divisor_override);
/* AdaptiveAvgPool2DBackward0; its backward (AdaptiveAvgPool2DBackwardBackward0). */
Tensor *ag_adaptive_avg_pool2d(Tensor *x, int64_t oh, int64_t ow);
Tensor *ag_adaptive_avg_pool2d_backward(Tensor *g, int64_t h, int64_t wd);

/* Normalisation (ops_norm.c); weight, bias (and the running statistics)
 * may be NULL. batch_norm normalises x [N, C, ...] per channel: with
 * training, by the batch's statistics, updating running_mean/var in place
 * with momentum (unbiased variance); without, by the running statistics.
 * layer_norm: over the last nnorm dims, which must equal `normalized`.
 * group_norm: over groups of C / groups channels of each sample. */
Tensor *ag_batch_norm(Tensor *x, Tensor *running_mean, Tensor *running_var, Tensor *weight,
                      Tensor *bias, bool training, double momentum, double eps);
Tensor *ag_layer_norm(Tensor *x, int nnorm, const int64_t *normalized, Tensor *weight,
                      Tensor *bias, double eps);
Tensor *ag_group_norm(Tensor *x, int64_t groups, Tensor *weight, Tensor *bias, double eps);

/* F.pad, constant mode (ops_shape.c): ConstantPadNdBackward0. */
Tensor *ag_constant_pad(Tensor *a, int npads, const int64_t *pads, double value);
/* F.pad, reflect or replicate mode over the last npads/2 (1 to 3) dims, pads
 * checked by the caller: ReflectionPad2DBackward0, ReplicationPad1DBackward0, ...
 * whose backward records ReflectionPad2DBackwardBackward0, ... */
Tensor *ag_mode_pad(Tensor *a, int npads, const int64_t *pads, bool reflect);
/* F.pad, circular mode (pads checked by the caller): CopySlices, as PyTorch 1.13. */
Tensor *ag_circular_pad(Tensor *a, int npads, const int64_t *pads);

/* The activations with number parameters, one per row of ops/activations.h. */
typedef enum {
#define AG_ACTIVATION_ENUM(C, NAME, ...) AG_ACT_##NAME,
  AG_ACTIVATION_REGISTRY(AG_ACTIVATION_ENUM, 0)
#undef AG_ACTIVATION_ENUM
  AG_ACT_COUNT
} AgActivation;

/* The activation on x with its parameters p (the row's count of them),
 * recorded as the row's node (ops_act.c). */
Tensor *ag_activation(AgActivation a, Tensor *x, const double *p);
/* The same written into x (a row with an in-place form), as PyTorch's
 * leaky_relu_: x's history then ends in the row's in-place node. */
bool ag_activation_(AgActivation a, Tensor *x, const double *p);

Tensor *ag_softmax(Tensor *a, int dim);
Tensor *ag_log_softmax(Tensor *a, int dim);
Tensor *ag_mse_loss(Tensor *a, Tensor *b, Reduction r);
Tensor *ag_l1_loss(Tensor *a, Tensor *b, Reduction r);
/* nll_loss as PyTorch 1.13's nll_loss_nd: input (C), (N, C) or (N, C, d1, ...) with target
 * 0-d, (N) or (N, d1, ...); weight (NULL: none) holds one weight per class; targets equal
 * to ignore_index count for nothing (the mean divides by the kept targets' weights).
 * ag_nll_loss: no weights, ignore_index -100. */
Tensor *ag_nll_loss_weighted(Tensor *logp, const Tensor *target, Tensor *weight,
                             int64_t ignore_index, Reduction r);
Tensor *ag_nll_loss(Tensor *logp, const Tensor *target, Reduction r);
Tensor *ag_cross_entropy(Tensor *logits, const Tensor *target, Reduction r);
/* cross_entropy(weight=, ignore_index=, label_smoothing=): class indices or, for a target
 * of the input's shape, class probabilities (ignore_index unused then). */
Tensor *ag_cross_entropy_with(Tensor *logits, Tensor *target, Tensor *weight,
                              int64_t ignore_index, double label_smoothing, Reduction r);
/* weight (NULL: none) multiplies the per-element loss before the reduction. */
Tensor *ag_binary_cross_entropy(Tensor *p, Tensor *target, Tensor *weight, Reduction r);
/* batchmean: then divided by the first size (r is RED_SUM for PyTorch's "batchmean"). */
Tensor *ag_kl_div(Tensor *input, Tensor *target, Reduction r, bool batchmean, bool log_target);
Tensor *ag_smooth_l1_loss(Tensor *a, Tensor *b, double beta, Reduction r);
Tensor *ag_huber_loss(Tensor *a, Tensor *b, double delta, Reduction r);
/* weight and pos_weight may be NULL; neither gets a gradient (as in PyTorch 1.13). */
Tensor *ag_binary_cross_entropy_with_logits(Tensor *x, Tensor *target, Tensor *weight,
                                            Tensor *pos_weight, Reduction r);
/* training false or p == 0: a itself (retained); else a * mask (MulBackward0, as PyTorch). */
Tensor *ag_dropout(TensorRng *rng, Tensor *a, double p, bool training);

Tensor *ag_to_dtype(Tensor *a, DType dt); /* a itself (retained) when dt is its dtype */
Tensor *ag_clone(Tensor *a);
Tensor *ag_detach(const Tensor *a);        /* shares storage, no history */
bool ag_detach_(Tensor *a);                /* drops a's history in place */

/* ---- in place (each bumps the version counter once) ----
 * On a leaf that requires grad with grad mode on: PyTorch's leaf error (and
 * "a view of a leaf Variable ..." for views of such leaves). On a non-leaf
 * (or when the other operand requires grad) the op is recorded and the
 * tensor's history is rebased onto the new node. A recorded write through a
 * view (of select/slice/transpose/view/...) also rebases the view's base:
 * base.grad_fn becomes CopySlices and the view's AsStridedBackward0, as in
 * PyTorch; other views of that base see the write when next used (their
 * history is regenerated from the base's). Writing through a view of a
 * non-contiguous base is refused. */
bool ag_check_inplace(const Tensor *a); /* the leaf rule alone */
bool ag_binary_(BinaryOp op, Tensor *a, Tensor *b);
/* a.add_(b, alpha=s) / addcmul_(b, c, value=s) / addcdiv_(b, c, value=s): ATen's fused
 * roundings when not recorded (tensor_fused_), recorded ops otherwise; c NULL for add_. */
bool ag_fused_(FusedOp op, Tensor *a, Tensor *b, Tensor *c, double s);
/* The same out of place (the operands broadcast together), recorded as PyTorch's AddBackward0
 * (alpha), AddcmulBackward0, AddcdivBackward0, LerpBackward0 / LerpBackward1. */
Tensor *ag_fused(FusedOp op, Tensor *a, Tensor *b, Tensor *c, double s);
bool ag_binary_scalar_(BinaryOp op, Tensor *a, double s);
bool ag_unary_(UnaryOp op, Tensor *a);
bool ag_clamp_(Tensor *a, double lo, double hi);
bool ag_fill_(Tensor *a, double v);
bool ag_zero_(Tensor *a);
bool ag_copy_(Tensor *dst, Tensor *src);
bool ag_uniform_(TensorRng *rng, Tensor *a, double lo, double hi);
bool ag_normal_(TensorRng *rng, Tensor *a, double mean, double std);
/* The in-place form of an out-of-place op: fn(self_copy, ctx) computes the
 * new value from a copy carrying a's history, which is written into a and
 * becomes its history (scatter_, index_add_, masked_fill_). other: the op's
 * other differentiable input, or NULL. */
typedef Tensor *(*AgOutOfPlace)(Tensor *self, void *ctx);
bool ag_apply_inplace(Tensor *a, Tensor *other, AgOutOfPlace fn, void *ctx);

#endif
