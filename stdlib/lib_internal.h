/* lib_internal.h — what the stdlib/lib_*.c files share (not used elsewhere).
 *
 * Tensor functions that are both methods (x.sum(dim=0)) and globals
 * (sum(x, dim=0)) are listed once in LIB_TENSOR_FNS. Each has one
 * implementation `lt_NAME(vm, self, argc, args, kw)` where `self` is the
 * receiving tensor and args are the arguments after it; lib_tensor.c turns
 * the table into the method dispatch table, the bound-method natives and the
 * global functions. A global whose first argument is not a tensor falls back
 * to the VM's own built-in of the same name when the table says WRAP (sum of
 * a list, abs of a number), so the numeric built-ins keep working.
 */
#ifndef AG_LIB_INTERNAL_H
#define AG_LIB_INTERNAL_H

#include "autograd/autograd.h"
#include "stdlib/help.h"
#include "tensor/ops.h"
#include "tensor/random.h"
#include "vm/memory.h"
#include "vm/opcodes.h"
#include "vm/vm.h"
#include "stdlib/py_modules.h"

/* Flags: M method, G global, W global that wraps the VM's built-in. */
#define LF_M 1
#define LF_G 2
#define LF_W 4
#define LF_MG (LF_M | LF_G)
#define LF_MGW (LF_M | LF_G | LF_W)

/* The bindings the registry ops/elementwise.h generates: each unary row's
 * `name` (no argument) and `name_` in place, each binary row's `name(other)`. */
#define LIB_UNARY_FNS(X, e, name, kernels, result, grad, node, formula, jvp, saves, inplace, bind, ...) \
  LIB_BIND_##bind(X, name) LIB_IN_PLACE_##inplace(X, name)
#define LIB_BIND_LF_MGW(X, name) X(name, 0, 0, LF_MGW)
#define LIB_BIND_LF_MG(X, name) X(name, 0, 0, LF_MG)
#define LIB_BIND_OWN(X, name)
#define LIB_IN_PLACE_INPLACE(X, name) X(name##_, 0, 0, LF_M)
#define LIB_IN_PLACE_NO_INPLACE(X, name)
#define LIB_BINARY_FNS(X, e, name, symbol, kernels, result, grad, node, formula, jvp, self, other, res, \
                       other_name, number_form, number_node, number_saves, bind, ...)               \
  LIB_BIND_##bind(X, name)
#define LIB_BIND_OPERAND(X, name) X(name, 1, 1, LF_MG)
#define LIB_BIND_TENSORS(X, name) X(name, 1, 1, LF_MG)
#define LIB_BIND_NO_BIND(X, name)

/* X(name, min_args, max_args, flags): args after the receiver; -1 = any. */
#define LIB_TENSOR_FNS(X)                                                      \
  AG_UNARY_REGISTRY(LIB_UNARY_FNS, X)                                          \
  AG_BINARY_REGISTRY(LIB_BINARY_FNS, X)                                        \
  X(item, 0, 0, LF_M)                                                          \
  X(tolist, 0, 0, LF_M)                                                        \
  X(numpy, 0, 0, LF_M)                                                         \
  X(numel, 0, 0, LF_MG)                                                        \
  X(size, 0, 1, LF_M)                                                          \
  X(dim, 0, 0, LF_M)                                                           \
  X(clone, 0, 0, LF_MG)                                                        \
  X(detach, 0, 0, LF_MG)                                                       \
  X(detach_, 0, 0, LF_M)                                                       \
  X(requires_grad_, 0, 1, LF_M)                                                \
  X(retain_grad, 0, 0, LF_M)                                                   \
  X(register_hook, 1, 1, LF_M)                                                 \
  X(backward, 0, 4, LF_M)                                                      \
  X(float, 0, 0, LF_M)                                                         \
  X(double, 0, 0, LF_M)                                                        \
  X(long, 0, 0, LF_M)                                                          \
  X(int, 0, 0, LF_M)                                                           \
  X(short, 0, 0, LF_M)                                                         \
  X(char, 0, 0, LF_M)                                                          \
  X(byte, 0, 0, LF_M)                                                          \
  X(half, 0, 0, LF_M)                                                          \
  X(bfloat16, 0, 0, LF_M)                                                      \
  X(element_size, 0, 0, LF_M)                                                  \
  X(bool, 0, 0, LF_M)                                                          \
  X(to, 0, 2, LF_M)                                                            \
  X(cpu, 0, 0, LF_M)                                                           \
  X(contiguous, 0, 0, LF_M)                                                    \
  X(is_contiguous, 0, 0, LF_M)                                                 \
  X(is_floating_point, 0, 0, LF_MG)                                            \
  X(sum, 0, 2, LF_MGW)                                                         \
  X(mean, 0, 2, LF_MG)                                                         \
  X(prod, 0, 2, LF_MG)                                                         \
  X(max, 0, 2, LF_MGW)                                                         \
  X(min, 0, 2, LF_MGW)                                                         \
  X(argmax, 0, 2, LF_MG)                                                       \
  X(argmin, 0, 2, LF_MG)                                                       \
  X(std, 0, 3, LF_MG)                                                          \
  X(var, 0, 3, LF_MG)                                                          \
  X(norm, 0, 3, LF_MG)                                                         \
  X(logsumexp, 0, 2, LF_MG)                                                    \
  X(any, 0, 1, LF_M)                                                           \
  X(all, 0, 1, LF_M)                                                           \
  X(reshape, 0, -1, LF_MG)                                                     \
  X(view, 0, -1, LF_M)                                                         \
  X(flatten, 0, 2, LF_MG)                                                      \
  X(squeeze, 0, 1, LF_MG)                                                      \
  X(unsqueeze, 1, 1, LF_MG)                                                    \
  X(transpose, 2, 2, LF_MG)                                                    \
  X(permute, 0, -1, LF_MG)                                                     \
  X(expand, 0, -1, LF_M)                                                       \
  X(expand_as, 1, 1, LF_M)                                                     \
  X(view_as, 1, 1, LF_M)                                                       \
  X(narrow, 0, 3, LF_MG)                                                       \
  X(nelement, 0, 0, LF_M)                                                      \
  X(new_zeros, 0, -1, LF_M)                                                    \
  X(new_ones, 0, -1, LF_M)                                                     \
  X(new_empty, 0, -1, LF_M)                                                    \
  X(new_full, 2, 2, LF_M)                                                      \
  X(new_tensor, 1, 1, LF_M)                                                    \
  X(t, 0, 0, LF_MG)                                                            \
  X(split, 1, 2, LF_MG)                                                        \
  X(chunk, 1, 2, LF_MG)                                                        \
  X(unbind, 0, 1, LF_MG)                                                       \
  X(add_, 1, 2, LF_M)                                                          \
  X(addcmul_, 2, 3, LF_M)                                                      \
  X(addcdiv_, 2, 3, LF_M)                                                      \
  X(lerp_, 2, 2, LF_M)                                                         \
  X(sub_, 1, 1, LF_M)                                                          \
  X(mul_, 1, 1, LF_M)                                                          \
  X(div_, 1, 1, LF_M)                                                          \
  X(pow_, 1, 1, LF_M)                                                          \
  X(remainder_, 1, 1, LF_M)                                                    \
  X(type, 0, 1, LF_M)                                                          \
  X(floor_divide_, 1, 1, LF_M)                                                 \
  X(zero_, 0, 0, LF_M)                                                         \
  X(fill_, 1, 1, LF_M)                                                         \
  X(copy_, 1, 1, LF_M)                                                         \
  X(clamp_, 0, 2, LF_M)                                                        \
  X(normal_, 0, 3, LF_M)                                                       \
  X(uniform_, 0, 3, LF_M)                                                      \
  X(exponential_, 0, 2, LF_M)                                                  \
  X(random_, 0, 3, LF_M)                                                       \
  X(bernoulli_, 0, 2, LF_M)                                                    \
  X(erfinv_, 0, 0, LF_M)                                                       \
  X(bernoulli, 0, 2, LF_MG)                                                    \
  X(multinomial, 1, 3, LF_MG)                                                  \
  X(index_select, 2, 2, LF_MG)                                                 \
  X(gather, 2, 2, LF_MG)                                                       \
  X(round, 0, 1, LF_MGW)                                                       \
  X(clamp, 0, 2, LF_MG)                                                        \
  X(add, 1, 2, LF_MG)                                                          \
  X(addcmul, 2, 3, LF_MG)                                                      \
  X(addcdiv, 2, 3, LF_MG)                                                      \
  X(lerp, 2, 2, LF_MG)                                                         \
  X(matmul, 1, 1, LF_MG)                                                       \
  X(mm, 1, 1, LF_MG)                                                           \
  X(bmm, 1, 1, LF_MG)                                                          \
  X(mv, 1, 1, LF_MG)                                                           \
  X(dot, 1, 1, LF_MG)                                                          \
  X(outer, 1, 1, LF_MG)                                                        \
  X(softmax, 0, 1, LF_MG)                                                      \
  X(log_softmax, 0, 1, LF_MG)                                                  \
  X(masked_fill, 2, 2, LF_MG)                                                  \
  X(masked_fill_, 0, 2, LF_M)                                                  \
  X(scatter, 0, 4, LF_MG)                                                      \
  X(scatter_, 0, 4, LF_M)                                                      \
  X(scatter_add, 0, 3, LF_MG)                                                  \
  X(scatter_add_, 0, 3, LF_M)                                                  \
  X(index_add, 0, 4, LF_MG)                                                    \
  X(index_add_, 0, 4, LF_M)                                                    \
  X(nonzero, 0, 1, LF_MG)                                                      \
  X(unique, 0, 4, LF_MG)                                                       \
  X(bincount, 0, 2, LF_MG)                                                     \
  X(isclose, 0, 4, LF_MG)                                                      \
  X(allclose, 0, 4, LF_MG)                                                     \
  X(sort, 0, 3, LF_MG)                                                         \
  X(argsort, 0, 3, LF_MG)                                                      \
  X(topk, 1, 4, LF_MG)                                                         \
  X(kthvalue, 1, 3, LF_MG)                                                     \
  X(median, 0, 2, LF_MG)                                                       \
  X(mode, 0, 2, LF_MG)                                                         \
  X(flip, 0, -1, LF_MG)                                                        \
  X(tril, 0, 1, LF_MG)                                                         \
  X(triu, 0, 1, LF_MG)                                                         \
  X(cumsum, 0, 1, LF_MG)                                                       \
  X(cumprod, 0, 1, LF_MG)                                                      \
  X(diag, 0, 1, LF_MG)                                                         \
  X(roll, 1, 2, LF_MG)                                                         \
  X(repeat, 0, -1, LF_M)                                                       \
  X(repeat_interleave, 0, 2, LF_MG)                                            \
  X(kron, 1, 1, LF_MG)                                                         \
  X(clamp_min, 1, 1, LF_MG)                                                    \
  X(clamp_max, 1, 1, LF_MG)                                                    \
  X(amax, 0, 2, LF_MG)                                                         \
  X(amin, 0, 2, LF_MG)                                                         \
  X(trace, 0, 0, LF_MG)

typedef Value (*LibTensorImpl)(AgVM *vm, Value self, int argc, const Value *args,
                               const AgKwargs *kw);

typedef enum {
#define LIB_FN_ENUM(name, lo, hi, flags) LT_##name,
  LIB_TENSOR_FNS(LIB_FN_ENUM)
#undef LIB_FN_ENUM
      LT_COUNT
} LibTensorFn;

#define LIB_FN_DECL(name, lo, hi, flags)                                                 \
  Value lt_##name(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw);
LIB_TENSOR_FNS(LIB_FN_DECL)
#undef LIB_FN_DECL

/* Per-VM state (vm->plugins.lib_state). */
typedef struct LibState {
  ObjClass *generator_class;     /* Generator */
  ObjInstance *default_generator; /* what manual_seed seeds */
  ObjString *s_state;            /* a Generator's field holding its TensorRng */
  Table tensor_names;   /* interned name -> NUMBER(id): attributes and methods of tensors */
  Table node_names;     /* likewise for graph nodes */
  ObjNative *methods[LT_COUNT]; /* natives with method arity, for bound methods */
  ObjNative *wrapped[LT_COUNT]; /* the VM's built-in a W global falls back to */
  ObjClass *function_class;   /* Function */
  ObjClass *ctx_class;        /* the ctx of a Function's forward/backward */
  ObjClass *context_classes[4]; /* no_grad, enable_grad, set_grad_enabled, detect_anomaly */
  ObjClass *handle_class;     /* what register_hook returns (remove()) */
  ObjClass *grad_mode_function_class; /* what @no_grad() makes of a function */
  ObjModule *autograd_module;
  ObjString *s_forward, *s_backward, *s_saved_tensors, *s_needs_input_grad, *s_packed_saved;
  ObjString *s_mode, *s_prev, *s_tensor, *s_id;
  /* per VM opcode: the tensor op of that operator (tensor_binary_symbols), or -1 */
  int8_t binary_of_opcode[OP_COUNT];
  bool warned_nonleaf_grad;
  bool warned_create_graph_cycle;
  bool warned_kl_div_mean;
  bool warned_legacy_reduction[3]; /* size_average=/reduce= naming "mean", "sum", "none" */
  bool warned_meshgrid_indexing;
  int traced_backwards; /* --trace-graph's count of backward calls */
} LibState;

static inline LibState *lib_state(AgVM *vm) { return (LibState *)vm->plugins.lib_state; }

/* The script line running now (the innermost frame's), for new graph nodes. */
static inline int lib_current_line(AgVM *vm) {
  if (vm->exec.frame_count == 0) return 0;
  const CallFrame *frame = &vm->exec.frames[vm->exec.frame_count - 1];
  const Chunk *chunk = &frame->closure->function->chunk;
  if (chunk->count == 0) return 0;
  long offset = (long)(frame->ip - chunk->code) - 1;
  if (offset < 0) offset = 0;
  if (offset >= chunk->count) offset = chunk->count - 1;
  return chunk->lines[offset];
}
static inline void lib_sync_line(AgVM *vm) { ag_set_current_line(lib_current_line(vm)); }
/* The script file of the running function, for warnings' "FILE:LINE:". */
static inline const char *lib_current_file(AgVM *vm) {
  if (vm->exec.frame_count > 0) {
    ObjFunction *f = vm->exec.frames[vm->exec.frame_count - 1].closure->function;
    if (f->file != NULL) return f->file->chars;
  }
  return "<input>";
}

static inline Tensor *lib_t(Value v) { return AS_TENSOR_OBJ(v)->tensor; }

/* ---- lib_tensor.c: values <-> tensors ---- */
/* Wraps a new reference (NULL: throws tensor_error()). */
Value lib_wrap(AgVM *vm, Tensor *t);
Value lib_throw_tensor_error(AgVM *vm);
/* Binds positionals then keywords to names[n]; out[i] = UNDEF_VAL when absent. */
bool lib_bind(AgVM *vm, const char *fname, int argc, const Value *args, const AgKwargs *kw,
              const char *const *names, int n, Value *out);
bool lib_int(AgVM *vm, Value v, const char *what, int64_t *out);
bool lib_dim(AgVM *vm, Value v, int *out); /* one dimension number */
/* nil/UNDEF: all dims (ndims 0); a number; a list of numbers. */
bool lib_dims(AgVM *vm, Value v, int *dims, int *ndims);
bool lib_flag(AgVM *vm, Value v, bool dflt, bool *out);
bool lib_number(AgVM *vm, Value v, const char *what, double *out);
/* device= : UNDEF, nil, "cpu" pass; any other device throws. */
bool lib_device(AgVM *vm, Value v);
bool lib_is_device(Value v);
/* dtype= : UNDEF/nil leave *out unchanged. */
bool lib_dtype(AgVM *vm, Value v, DType *out); /* leaves *out when v is nil or absent */
bool lib_is_dtype(AgVM *vm, Value v);
/* A shape given as numbers or as one list (or a tensor's shape). */
bool lib_shape(AgVM *vm, int argc, const Value *args, int *ndim, int64_t *shape);
Value lib_shape_list(AgVM *vm, int ndim, const int64_t *shape);
/* A new list of wrapped tensors (takes the references, frees the array). */
Value lib_tensor_list(AgVM *vm, Tensor **ts, int n); /* a tuple of them (takes ts) */
/* PyTorch's torch.return_types.NAME(values=, indices=) (takes the references) */
Value lib_named_pair(AgVM *vm, const char *name, Tensor *values, Tensor *indices);
/* A tensor operand: a tensor (retained) or a number / bool / nested list
 * (a new tensor of dtype `like`). NULL after throwing. */
Tensor *lib_as_tensor(AgVM *vm, Value v, DType like, const char *what);
/* tensor(data, dtype): NULL after throwing. */
Tensor *lib_tensor_from_value(AgVM *vm, Value data, bool has_dtype, DType dtype);
Value lib_type_error(AgVM *vm, const char *fname, const char *param, Value got);
/* number ** tensor, recorded as PyTorch 1.13 does (PowBackward1). */
Value lib_scalar_pow(AgVM *vm, double base, Tensor *exponent);

/* ---- lib_index.c: the get_index / set_index hooks ---- */
Value lib_get_index(AgVM *vm, Value obj, int n, const Value *index);
Value lib_set_index(AgVM *vm, Value obj, int n, const Value *index, Value v);

/* ---- lib_create.c / lib_methods.c / lib_nnfunc.c / lib_io.c / lib_autograd.c ---- */
void lib_install_tensor(AgVM *vm);
void lib_install_create(AgVM *vm);
void lib_install_nnfunc(AgVM *vm);
/* dropout(input, p, training) and, with_inplace, F.dropout's inplace= (lib_nnfunc.c) */
Value lib_dropout(AgVM *vm, const char *fname, int argc, const Value *args, const AgKwargs *kw,
                  bool with_inplace);
void lib_nn_define(AgVM *vm, ObjModule *module); /* nn's private natives */
void lib_install_conv(AgVM *vm);
void lib_install_scatter(AgVM *vm); /* lib_scatter.c: meshgrid */
/* The globals and natives of the nn.functional module (lib_functional.c). */
void lib_functional_define(AgVM *vm, ObjModule *module);
void lib_install_io(AgVM *vm);
void lib_install_random(AgVM *vm);
/* The state of generator= (the default generator when UNDEF or nil); NULL
 * after throwing when it is not a Generator. */
TensorRng *lib_rng(AgVM *vm, Value generator, const char *fname);
void lib_install_autograd(AgVM *vm);
/* lib_display.c: display(), show_graph() and the plot module's renderer. */
void lib_install_display(AgVM *vm);
/* lib_torch.c: Tensor, is_tensor, from_numpy, set_printoptions */
void lib_install_torch(AgVM *vm);
/* Shows a MIME bundle through vm->host.display (the notebook); false when there
 * is no rich display (a terminal). */
bool lib_display_bundle(AgVM *vm, int count, const char *const *types, const char *const *data,
                        const size_t *lengths);
/* The natives plot.ag draws with (_gnuplot, _write_file, _temp_path,
 * _notebook, _display_image). */
void lib_install_plot_module(AgVM *vm, ObjModule *module);
/* Natives of the autograd module (grad, detect_anomaly, Function, backward). */
void lib_install_autograd_module(AgVM *vm, ObjModule *module);
/* autograd.forward_ad's natives (_make_dual, _unpack_dual, the levels) */
void lib_forward_ad_define(AgVM *vm, ObjModule *module);

/* Attributes of tensors and nodes that live in lib_autograd.c. */
Value lib_node_value(AgVM *vm, GradNode *node); /* nil for NULL; retains */
Value lib_get_grad(AgVM *vm, Value self);
Value lib_set_grad(AgVM *vm, Value self, Value v);
Value lib_node_get_attr(AgVM *vm, Value node, ObjString *name);
Value lib_node_invoke(AgVM *vm, Value node, ObjString *name, int argc, const Value *args,
                      const AgKwargs *kw);
Value lib_node_binary(AgVM *vm, int op, Value a, Value b);
/* "FILE:LINE: UserWarning: msg" on stderr, at the user's line (the innermost
 * frame outside the embedded library), as Python's warnings.warn (lib.c). */
void lib_user_warning(AgVM *vm, const char *msg);
/* Defines `name` in a module's namespace. */
void lib_module_define(AgVM *vm, ObjModule *module, const char *name, Value value);

#endif
