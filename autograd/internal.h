/* internal.h — the structures shared by the files of autograd/ (not public).
 *
 * AgMeta is the per-tensor state behind Tensor.meta; GradNode is one node of
 * the recorded graph. Both come from the free lists of the current
 * AutogradState (state.h; node.c, meta.c) since a
 * training loop creates and frees millions of them. A node keeps the shape
 * and dtype of each input and output (AgInfo) because most derivative
 * formulas need them after the tensors themselves are gone.
 */
#ifndef AG_AUTOGRAD_INTERNAL_H
#define AG_AUTOGRAD_INTERNAL_H

#include <stddef.h>

#include "autograd/autograd.h"
#include "autograd/state.h"

/* Shape and dtype of a tensor, small shapes inline. */
typedef struct {
  DType dtype;
  int ndim;
  union {
    int64_t small[4];
    int64_t *big; /* ndim > 4: malloc'd */
  } u;
} AgInfo;

static inline const int64_t *info_shape(const AgInfo *i) {
  return i->ndim <= 4 ? i->u.small : i->u.big;
}
static inline int64_t info_numel(const AgInfo *i) {
  int64_t n = 1;
  for (int d = 0; d < i->ndim; d++)
    n *= info_shape(i)[d];
  return n;
}

typedef struct {
  GradNode *node; /* NULL: that input needs no gradient */
  int input_nr;
} AgEdge;

/* What a saved_tensors_hooks pack hook made of a saved value (owned), and
 * the hooks that unpack and release it. */
typedef struct {
  void *value;
  const AgSavedHookFns *fns;
} AgPacked;

/* A value a derivative formula needs, saved without creating a cycle. */
typedef struct {
  Tensor *data;      /* data-only alias; NULL when not saved, packed or freed */
  /* data's storage (its version counter and elements): backward reads a
   * saved value cold, and with the storage's address at hand the two
   * misses overlap (engine.c prefetches both) instead of one waiting on
   * the other */
  Storage *storage;
  AgPacked *packed;  /* what a pack hook made of it, or NULL */
  GradNode *grad_fn; /* the saved tensor's gradient edge (retained), for create_graph */
  int64_t version;   /* the version counter when saved */
  const char *name;  /* "self", "other", "result", ... */
  int output_nr;
  bool is_output; /* an output of this very node (its edge is the node itself) */
  bool requires_grad;
  Tensor *tangent; /* forward AD: the saved tensor's tangent (forward-over-reverse), or NULL */
} AgSaved;

typedef struct AgHook {
  int handle;
  int output_nr; /* hooks on a node: which output's gradient they see */
  bool removed;  /* removed while hooks were running: freed at the next sweep */
  AgHookFns fns;
  void *ctx;
  struct AgHook *next;
} AgHook;

/* Op parameters a formula needs (which fields mean what is per kind). */
typedef struct AgParams {
  double s0, s1;
  int64_t i0, i1, i2;
  int ndims;
  int dims[TENSOR_MAX_DIMS];
  bool keepdim, flag;
  Reduction red;
  IndexItem *items; /* owned; tensor items hold retained aliases */
  int nitems;
  int64_t *geom; /* owned: a view's region in its contiguous base (AgGeom layout) */
  const char *aten; /* NotImplemented: the ATen op its error names */
  /* items when there is a single item (a select or a slice), so that most
   * index nodes allocate nothing more */
  IndexItem item_inline;
} AgParams;

/* A view's region inside its contiguous base, flattened into int64s:
 * [ndim, offset, shape[ndim], stride[ndim]] (what a CopySlices needs). */
typedef struct {
  int ndim;
  int64_t offset;
  const int64_t *shape, *stride;
} AgGeom;

static inline AgGeom geom_of(const int64_t *g) {
  AgGeom r = {(int)g[0], g[1], g + 2, g + 2 + g[0]};
  return r;
}

typedef struct AgForward AgForward;

/* Rarely needed parts of a node, allocated on demand. */
typedef struct {
  AgHook *hooks;   /* tensor hooks of non-leaf outputs */
  Tensor **retain; /* per output: weak pointer to a tensor that retains its grad */
  char *custom_name;
  AgFunctionFns fns;
  void *ctx;
  int nargs; /* custom: arguments of apply; edge i belongs to argument edge_arg[i] */
  int *edge_arg;
  AgForward *fw; /* forward AD: what the node's jvp reads while the op runs (forward.c) */
} AgNodeExtra;

/* A node is one allocation: this header, then its arrays (next and in_info
 * per edge, saved, out_info per output), sized for the node's own counts.
 * Small graphs are memory-bound: a recorded scalar op costs a node and
 * little else, and a graph of 40,000 of them is faulted in and walked cold
 * several times (build, backward, release), so a node holds no room it does
 * not use. Op parameters, which most nodes lack, live in a separate block
 * (node_params; read through node_p). */
struct GradNode {
  int64_t refcount;
  uint64_t id;
  AgNodeKind kind;
  int line;
  int nnext, nsaved, noutputs;
  bool released;  /* saved values freed by a backward without retain_graph */
  bool has_saved; /* PyTorch saves variables here: a second backward fails */
  bool big_info;  /* an info holds a shape block of its own (more than 4 dims) */
  uint8_t size_class; /* its free list (node.c); NODE_UNPOOLED when malloc'd alone, NODE_IN_SLAB flag */
  AgEdge *next;     /* per edge */
  AgInfo *in_info;  /* per edge: shape/dtype of that input */
  AgSaved *saved;
  AgInfo *out_info;
  AgParams *p;      /* NULL until an op sets a parameter */
  Tensor *variable; /* AccumulateGrad: the leaf (strong) */
  AgNodeExtra *extra;
  GradNode *free_next; /* free list / deferred release list */
  /* The engine's task for this node in the backward run numbered run_id
   * (engine.c): a lookup without hashing. */
  uint64_t run_id;
  int task;
};

/* The parameters of n for reading: all zero when the op set none. */
extern const AgParams ag_no_params;
static inline const AgParams *node_p(const GradNode *n) { return n->p ? n->p : &ag_no_params; }
/* The parameters of n for writing, allocated (zeroed) on first use. */
AgParams *node_params(GradNode *n);

typedef struct AgMeta {
  TensorMeta base;
  bool requires_grad;
  bool retains_grad;
  int output_nr;
  Tensor *grad;
  GradNode *grad_fn;     /* owned */
  GradNode *accumulator; /* weak: the AccumulateGrad node owns the tensor */
  AgHook *hooks;         /* leaf hooks */
  char *name;
  Tensor *view_base;    /* owned: the tensor this one is a differentiable view of */
  int64_t view_version; /* storage version when a view's grad_fn was last set */
  Tensor *saved_alias;  /* owned: the data-only alias every node saving this tensor shares */
  Tensor *tangent;      /* owned: forward AD's tangent, valid at dual level tangent_level only */
  uint64_t tangent_level;
} AgMeta;

/* ---- meta.c ---- */
/* Grad mode, read inline on every op (ag_is_grad_enabled is its public face). */
static inline bool grad_enabled(void) { return !ag_state()->grad_disabled; }
static inline AgMeta *meta_of(const Tensor *t) { return (AgMeta *)t->meta; }
/* Whether t (with a meta) is a view whose storage was written since its
 * grad_fn was set, so that ag_view_refresh has work to do: inline, as every
 * op asks it of its view inputs (every element of `for v in x` is a view). */
static inline bool view_is_stale(const Tensor *t) {
  return meta_of(t)->view_base && meta_of(t)->view_version != tensor_version(t);
}
/* ag_requires_grad without a call unless t is a stale view. */
static inline bool requires_grad_of(const Tensor *t) {
  if (!t || !t->meta) return false;
  return view_is_stale(t) ? ag_requires_grad(t) : meta_of(t)->requires_grad;
}
AgMeta *meta_get(Tensor *t); /* creates on demand; NULL when out of memory */
void ag_free_meta_cache(AutogradState *st);
/* Its gradient edge (grad_fn, AccumulateGrad or none), the node a new reference. */
AgEdge tensor_edge_general(Tensor *t);
/* The same, inline for what every recorded op asks of its inputs: a tensor
 * (no stale view) whose node exists already. */
static inline AgEdge tensor_edge(Tensor *t) {
  const AgMeta *m = t ? meta_of(t) : NULL;
  if (m && view_is_stale(t)) return tensor_edge_general(t);
  if (!m || !m->requires_grad) return (AgEdge){NULL, 0};
  GradNode *node = m->grad_fn ? m->grad_fn : m->accumulator;
  if (!node) return tensor_edge_general(t);
  node->refcount++;
  return (AgEdge){node, m->grad_fn ? m->output_nr : 0};
}
void hooks_free(AgHook *h);
/* Runs hooks (for output_nr, or all when output_nr < 0) on *grad; false when one failed. */
bool hooks_run(AgHook **list, int output_nr, Tensor **grad);
int next_hook_handle(void);
void ag_note_inplace_write(Tensor *t); /* remembers the line of a version bump */
int ag_inplace_write_line(const Storage *s, int64_t version); /* 0 if unknown */
bool ag_any_nan(const Tensor *t);
/* "[2, 3]" into buf (truncated to cap). */
void ag_format_shape(char *buf, size_t cap, int ndim, const int64_t *shape);

/* ---- node.c ---- */
/* with_params: room for op parameters in the node itself (node_params then
 * allocates nothing, and the formula finds them in the node's own lines). */
GradNode *node_new(AgNodeKind kind, int nnext, int nsaved, int noutputs, bool with_params);
/* A node's block: the struct, then its edges and their infos, saved
 * values, output infos and (with_params) its parameters. */
static inline size_t node_bytes(int nnext, int nsaved, int noutputs, bool with_params) {
  return sizeof(GradNode) + (size_t)nnext * (sizeof(AgEdge) + sizeof(AgInfo)) +
         (size_t)nsaved * sizeof(AgSaved) + (size_t)noutputs * sizeof(AgInfo) +
         (with_params ? sizeof(AgParams) : 0);
}
/* The node and the aliases it saves (inline: every wrapped result asks). */
static inline size_t node_footprint(const GradNode *n) {
  return node_bytes(n->nnext, n->nsaved, n->noutputs, n->p != NULL) +
         (size_t)n->nsaved * sizeof(Tensor);
}
/* Records t's shape and dtype in one of n's infos (through here only: n
 * then knows whether freeing it must look at them). */
void node_info_set(GradNode *n, AgInfo *info, const Tensor *t);
void node_set_input(GradNode *n, int i, Tensor *t); /* t may be NULL or not require grad */
/* node_set_input for inputs[0..nin) in one call (every recorded op's edges). */
void node_set_inputs(GradNode *n, Tensor *const *inputs, int nin);
void node_save(GradNode *n, int i, const char *name, Tensor *t, bool is_output);
/* Saves t, an output of n, in place of what slot i held (an in-place op's result). */
void node_resave_output(GradNode *n, int i, Tensor *t);
/* Whether the node of a unary op saves its result, its input (ops/elementwise.h's saves column). */
bool ag_unary_saves_result(UnaryOp op);
bool ag_unary_saves_input(UnaryOp op);
/* Whether a op b records a gradient node that saves nothing (AddBackward0,
 * SubBackward0); *kind is the node's kind. */
bool ag_binary_saves_nothing(BinaryOp op, AgNodeKind *kind);
/* Whether a op s (a number) records a gradient node that keeps nothing of a
 * (+ - * / %: at most the number). */
bool ag_binary_scalar_keeps_no_tensor(BinaryOp op);
/* The node a op s records (the rule's number form), its output not yet set. */
GradNode *ag_record_binary_scalar(BinaryOp op, Tensor *a, double s);
/* Makes `out` an output of n (grad_fn, requires_grad). false when out of memory. */
bool node_set_output(GradNode *n, int i, Tensor *out);
/* Drops the builder's reference after the outputs were set. */
void node_finish(GradNode *n);
Tensor *node_unpack_general(GradNode *n, int i); /* new ref, version-checked; NULL + error */
/* A plain backward's read: an unpacked, unmodified value that needs neither
 * history nor a tangent is the saved alias itself, returned borrowed (valid
 * until the node's saved values are released); NULL when node_unpack_general
 * must run. */
static inline Tensor *node_peek(GradNode *n, int i) {
  const AgSaved *s = &n->saved[i];
  if (n->released || s->packed || !s->data || s->storage->version != s->version || s->tangent ||
      (s->requires_grad && grad_enabled()))
    return NULL;
  return s->data;
}
/* False (PyTorch's "backward through the graph a second time") once freed. */
bool node_check_saved(const GradNode *n);
void node_release_saved(GradNode *n);
AgNodeExtra *node_extra(GradNode *n);
/* n with a copy of the index items in its params; NULL (n dropped) when out of memory. */
GradNode *node_with_items(GradNode *n, const IndexItem *items, int nitems);
/* An input has a tangent at the open dual level (forward AD records a node for it). */
bool ag_should_record_tangent(Tensor *const *ts, int n);
/* ag_should_record (any input requires grad and grad mode is on, or forward
 * AD wants a node) is inline below fw_active. */

/* ---- ops.c: recording helpers ---- */
/* A node with an edge to each input (NULL entries: no edge, [nil, 0]). */
GradNode *ag_record_node(AgNodeKind kind, Tensor *const *inputs, int nin, int nsaved, int nout);
/* The same for an op that always sets parameters: they live in the node. */
GradNode *ag_record_node_params(AgNodeKind kind, Tensor *const *inputs, int nin, int nsaved,
                                int nout);
/* Makes out the single output of n and drops the builder's reference; on
 * failure (n NULL included) releases out and returns NULL. */
Tensor *ag_record_finish(GradNode *n, Tensor *out);
/* out itself, or an alias of it when it carries autograd state (an input handed back). */
Tensor *ag_fresh_result(Tensor *out);

/* ---- inplace.c: views ---- */
/* Records that v (the result of a view op of a) views a's base, whether or
 * not the op was recorded, as PyTorch's views always remember their base: an
 * in-place write through v that is recorded then reaches the base. Returns v,
 * or NULL (v released) when out of memory. */
Tensor *ag_mark_view(Tensor *v, Tensor *a);
/* A view whose storage was written since its grad_fn was set (through its
 * base or a sibling view) gets a fresh grad_fn: AsStridedBackward0 of the
 * base's current history, as PyTorch regenerates it. */
bool ag_view_refresh(Tensor *v);
int64_t *ag_view_geometry(const Tensor *v, const Tensor *base);

/* ---- engine.c ---- */
/* A backward is running on this thread: a run started inside it must not
 * walk its graph (a node's task is per run). */
bool ag_engine_running(void);

/* ---- derivatives.c ---- */
/* grads: one per output (never NULL); out: one per edge, filled where needs[i]. */
/* The slots of a binary elementwise node's saved values (ops/elementwise.h). */
enum { SAVED_SELF, SAVED_OTHER, SAVED_RESULT };

typedef bool (*AgDerivFn)(GradNode *n, Tensor *const *grads, Tensor **out, const bool *needs);
extern const AgDerivFn ag_derivatives[AG_NODE_COUNT];
/* A jvp rule: the tangent of output oi (a new reference; NULL + error) from
 * the node's inputs in[] (NULL: a number), their tangents t[] (NULL: zero)
 * and the output itself. It runs with forward AD suspended, so in[] and out
 * are plain tensors there (their own history kept, for reverse-over-forward). */
typedef Tensor *(*AgJvpFn)(GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out);
extern const AgJvpFn ag_jvps[AG_NODE_COUNT];
/* Kinds whose jvp is the generic one: the vjp formula, differentiated with
 * respect to its (linear) grad_output and applied to the tangents. */
Tensor *jvp_transposed(GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out);
/* An elementwise op of one input: the vjp formula applied to the tangent. */
Tensor *jvp_diagonal(GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out);
/* Kinds without a jvp: PyTorch's "Trying to use forward AD with X ..." error. */
Tensor *jvp_none(GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out);

/* ---- forward.c: forward AD (dual levels, tangents) ---- */
/* A dual level is open and forward AD is not suspended (inline: every op asks). */
static inline bool fw_active(void) {
  const AutogradState *st = ag_state();
  return st->fw_open_level != 0 && st->fw_suspended == 0;
}

/* Any input requires grad and grad mode is on (or forward AD wants a node).
 * Inline: every op asks, most of them with grad mode on and forward AD off. */
static inline bool ag_should_record(Tensor *const *ts, int n) {
  if (grad_enabled())
    for (int i = 0; i < n; i++)
      if (requires_grad_of(ts[i])) return true;
  return fw_active() && ag_should_record_tangent(ts, n);
}
/* out is a float tensor, grad mode is on and an input requires grad (inline
 * as ag_should_record). */
static inline bool ag_record_wanted(Tensor *const *inputs, int n, const Tensor *out) {
  return out && dtype_is_float(out->dtype) && ag_should_record(inputs, n);
}
/* t's tangent at the open level (borrowed), or NULL. */
Tensor *fw_tangent(const Tensor *t);
/* Hooks of node.c: an input of n is set; out becomes output i; the builder is done. */
void fw_note_input(GradNode *n, int i, Tensor *t);
void fw_note_output(GradNode *n, int i, Tensor *out);
bool fw_finish(GradNode *n);
void fw_free(AgForward *f);
/* Whether n was recorded for forward AD alone (its output gets no grad_fn). */
bool fw_only(const GradNode *n);
/* The sentinel edge of an input that has a tangent but no gradient edge. */
GradNode *fw_sentinel(void);
/* forward AD suspended (the jvp rules run so); returns the previous count. */
int fw_suspend(int delta);
/* Saved values unpacked without history while a jvp rule runs (forward.c). */
static inline bool fw_plain_saved(void) { return ag_state()->fw_plain_saved; }
bool fw_set_plain_saved(bool plain); /* returns the previous setting */
/* Whether a jvp rule's tangent is to be differentiable (forward.c). */
bool wants_history(const GradNode *n, Tensor *const *in, Tensor *const *t);
/* The tangent of output i of n from its jvp rule (node_set_output calls it). */
bool fw_finish_output(GradNode *n, int i, Tensor *out);
bool ag_fw_set_tangent(Tensor *t, Tensor *tangent);
void ag_fw_free_caches(void);
/* a view of a (AliasBackward0 when recorded) */
Tensor *ag_alias_of(Tensor *a);
/* a view of a recorded as PyTorch's Identity node (unpack_dual's primal) */
Tensor *ag_identity_view(Tensor *a);

/* ---- ops_conv.c ---- */
/* The window a sliding-window node was recorded with. */
TensorWindow ag_window_of(const GradNode *n);
/* g added at indices into zeros shaped as `in` (recorded, differentiable). */
Tensor *ag_max_pool2d_backward(Tensor *g, const Tensor *indices, const AgInfo *in);

/* ---- ops_norm.c ---- */
typedef enum { AG_NORM_BATCH, AG_NORM_LAYER, AG_NORM_GROUP } AgNormKind;
/* How a normalisation views x (see ops_norm.c): statistics over `reduce` of
 * the `stats` view; weight and bias, viewed as `param`, scale the `affine`
 * view; their gradients sum the affine view over `sum`. */
typedef struct {
  int64_t stats[3], affine[3], param[2];
  int nstats, naffine, nparam;
  int reduce[2], nreduce;
  int sum[2], nsum;
} NormLayout;
/* param: the normalised element count (layer), the groups (group), unused (batch). */
void ag_norm_layout(AgNormKind kind, int ndim, const int64_t *shape, int64_t param,
                    NormLayout *l);
Tensor *ag_norm_normalize(Tensor *x, const NormLayout *l, double eps, Tensor *mean, Tensor *var,
                          Tensor **rstd);

/* ---- custom.c ---- */
bool custom_apply(GradNode *n, Tensor *const *grads, Tensor **out, const bool *needs);

/* ---- ops.c internals used by the formulas ---- */
/* A reflect / replicate pad's gradient (ops_shape.c), differentiable. */
Tensor *ag_mode_pad_backward(Tensor *g, const int64_t *in_shape, int npads, const int64_t *pads,
                             bool reflect);
/* items' last item when they are [:, ..., :, last] over the leading dimensions
 * of a tensor of ndim dimensions (what ag_select and ag_slice record); NULL
 * otherwise. */
const IndexItem *ag_dim_item_last(int ndim, const IndexItem *items, int n);
/* zeros of the input's shape with g written (accumulated) at items: the
 * backward of indexing, itself differentiable. */
Tensor *ag_index_backward(Tensor *g, const AgInfo *in, const IndexItem *items, int n,
                          AgNodeKind kind);
/* zeros of shape `in` with src scatter-added along dim at index. */
Tensor *ag_scatter_add_into(const AgInfo *in, int dim, const Tensor *index, Tensor *src);
/* the same, written instead of added when !add (PyTorch's scatter: keeps -0) */
Tensor *ag_scatter_into(const AgInfo *in, int dim, const Tensor *index, Tensor *src, bool add);
/* erf-based normal CDF, differentiable (ErfBackward0). */
Tensor *ag_normal_cdf(Tensor *x);
/* g with the region `items` zeroed (the base's share of index assignment). */
Tensor *ag_index_fill_zero(Tensor *g, const IndexItem *items, int n);
/* The region `geom` of g (shaped as the base) as a new tensor; the base-shaped
 * zeros with g written into the region; g with the region zeroed. All three
 * are differentiable (each one's backward is another of them). */
Tensor *ag_strided_get(Tensor *g, const int64_t *geom);
Tensor *ag_strided_embed(Tensor *g, const AgInfo *base, const int64_t *geom);
Tensor *ag_strided_zero(Tensor *g, const int64_t *geom);
bool ag_anomaly_check_forward(void);
/* dims normalised to 0..ndim-1 (all dims when dims is NULL) into p. */
void params_set_dims(AgParams *p, const int *dims, int ndims, int ndim);

#endif
