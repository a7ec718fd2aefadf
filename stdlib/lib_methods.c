/* lib_methods.c — the tensor functions of LIB_TENSOR_FNS that are plain
 * math: elementwise ops, reductions, shape ops, in-place ops, conversions.
 * Each is reached as a method (x.sum(dim=0)) or as a global (sum(x, dim=0))
 * through lib_tensor.c's dispatch; `self` is the receiving tensor.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/lib_internal.h"

#define LT_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

static bool no_kwargs(AgVM *vm, const char *fname, const AgKwargs *kw) {
  if (kw == NULL || kw->count == 0) return true;
  vm_raise(vm, VM_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", fname, kw->names[0]->chars);
  return false;
}

/* ---- elementwise ---- */

static Value unary(AgVM *vm, Value self, UnaryOp op, const char *name, const AgKwargs *kw) {
  if (!no_kwargs(vm, name, kw)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_unary(op, lib_t(self)));
}


/* round(decimals=0): halves to even; with decimals, round(x * 10^d) / 10^d. */
Value lt_round(LT_ARGS) {
  static const char *const names[] = {"decimals"};
  Value v[1];
  int64_t decimals = 0;
  if (!lib_bind(vm, "round", argc, args, kw, names, 1, v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[0]) && !lib_int(vm, v[0], "decimals", &decimals)) return VM_EXCEPTION;
  lib_sync_line(vm);
  if (decimals == 0) return lib_wrap(vm, ag_unary(UN_ROUND, lib_t(self)));
  if (decimals < -300 || decimals > 300) return vm_raise(vm, VM_ERR_VALUE, "round(): decimals out of range");
  double scale = pow(10.0, (double)decimals);
  Tensor *scaled = ag_binary_scalar(BIN_MUL, lib_t(self), scale);
  Tensor *rounded = scaled ? ag_unary(UN_ROUND, scaled) : NULL;
  tensor_release(scaled);
  Tensor *r = rounded ? ag_binary_scalar(BIN_DIV, rounded, scale) : NULL;
  tensor_release(rounded);
  return lib_wrap(vm, r);
}

/* The one argument after the receiver, given by position or by PyTorch's
 * name for it (`x.add(other=y)`, `matmul(input=a, other=b)`). */
static bool one_arg(AgVM *vm, const char *fname, const char *arg_name, int argc,
                    const Value *args, const AgKwargs *kw, Value *out) {
  const char *const names[] = {arg_name};
  if (!lib_bind(vm, fname, argc, args, kw, names, 1, out)) return false;
  if (!IS_UNDEF(*out)) return true;
  vm_raise(vm, VM_ERR_TYPE, "%s() missing 1 required positional arguments: \"%s\"", fname, arg_name);
  return false;
}

/* other: a tensor, a number or a bool; other_name: PyTorch's name for it. */
static Value binary(AgVM *vm, Value self, BinaryOp op, const char *name, const char *other_name,
                    int argc, const Value *args, const AgKwargs *kw) {
  Value other;
  if (!one_arg(vm, name, other_name, argc, args, kw, &other)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  if (IS_TENSOR(other)) return lib_wrap(vm, ag_binary(op, t, lib_t(other)));
  if (IS_NUMBER(other)) return lib_wrap(vm, ag_binary_scalar(op, t, AS_NUMBER(other)));
  if (IS_BOOL(other) && (op == BIN_SUB || !dtype_is_float(t->dtype))) {
    /* a bool-typed number, as for the operators: bool_t.mul(true) stays bool */
    Tensor *bt = tensor_scalar(DT_BOOL, AS_BOOL(other));
    Tensor *r = bt ? ag_binary(op, t, bt) : NULL;
    tensor_release(bt);
    return r ? lib_wrap(vm, r) : lib_throw_tensor_error(vm);
  }
  if (IS_BOOL(other)) return lib_wrap(vm, ag_binary_scalar(op, t, AS_BOOL(other)));
  return lib_type_error(vm, name, "other", other);
}


static Value done_in_place(AgVM *vm, bool ok, Value self) {
  return ok ? self : lib_throw_tensor_error(vm);
}

/* ---- the fused ops (tensor/fused.c's roundings): add with alpha, addcmul, addcdiv,
 * lerp, out of place or in place (name ending in _) ---- */

/* A number or tensor operand as a tensor (a number in t's dtype); NULL after an error. */
static Tensor *fused_operand_of(AgVM *vm, Value t, Value v, const char *what) {
  if (IS_TENSOR(v)) return tensor_retain(lib_t(v));
  double d;
  if (!lib_number(vm, v, what, &d)) return NULL;
  Tensor *out = tensor_scalar(lib_t(t)->dtype, d);
  if (!out) lib_throw_tensor_error(vm);
  return out;
}

/* add(other, alpha=1), addcmul/addcdiv(tensor1, tensor2, value=1), lerp(end, weight):
 * the second operand and the number; lerp's weight may be a tensor (FUSED_LERP_TENSOR). */
static Value fused_method(AgVM *vm, Value self, FusedOp op, const char *name, bool in_place,
                          int argc, const Value *args, const AgKwargs *kw) {
  static const char *const add_names[] = {"other", "alpha"};
  static const char *const addc_names[] = {"tensor1", "tensor2", "value"};
  static const char *const lerp_names[] = {"end", "weight"};
  bool addc = op == FUSED_ADDCMUL || op == FUSED_ADDCDIV;
  const char *const *names = addc ? addc_names : op == FUSED_LERP ? lerp_names : add_names;
  Value v[3];
  if (!lib_bind(vm, name, argc, args, kw, names, addc ? 3 : 2, v)) return VM_EXCEPTION;
  Value number = addc ? v[2] : v[1];
  Tensor *third = NULL;
  double s = 1;
  if (addc && !IS_TENSOR(v[1])) return lib_type_error(vm, name, names[1], v[1]);
  if (addc) third = lib_t(v[1]);
  if (op == FUSED_LERP && IS_TENSOR(v[1])) {
    op = FUSED_LERP_TENSOR;
    third = lib_t(v[1]);
  } else if (!IS_UNDEF(number) && !lib_number(vm, number, names[addc ? 2 : 1], &s)) {
    return VM_EXCEPTION;
  }
  if (op != FUSED_ADD_SCALED && !IS_TENSOR(v[0])) return lib_type_error(vm, name, names[0], v[0]);
  Tensor *second = fused_operand_of(vm, self, v[0], names[0]);
  if (!second) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  Value out;
  if (in_place) {
    out = done_in_place(vm, ag_fused_(op, t, second, third, s), self);
  } else {
    out = lib_wrap(vm, ag_fused(op, t, second, third, s));
  }
  tensor_release(second);
  return out;
}

static bool has_keyword(const AgKwargs *kw, const char *name) {
  for (int i = 0; kw && i < kw->count; i++)
    if (strcmp(kw->names[i]->chars, name) == 0) return true;
  return false;
}

/* add(other) is the operator's op; add(other, alpha=s) the fused one-rounding form. */
Value lt_add(LT_ARGS) {
  if (!has_keyword(kw, "alpha")) return binary(vm, self, BIN_ADD, "add", "other", argc, args, kw);
  return fused_method(vm, self, FUSED_ADD_SCALED, "add", false, argc, args, kw);
}
Value lt_addcmul(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCMUL, "addcmul", false, argc, args, kw); }
Value lt_addcdiv(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCDIV, "addcdiv", false, argc, args, kw); }
Value lt_lerp(LT_ARGS) { return fused_method(vm, self, FUSED_LERP, "lerp", false, argc, args, kw); }

/* maximum/minimum take tensors (a number becomes a 0-d tensor). */
static Value tensor_binary_fn(AgVM *vm, Value self, BinaryOp op, const char *name, Value other,
                              const AgKwargs *kw) {
  if (!no_kwargs(vm, name, kw)) return VM_EXCEPTION;
  Tensor *o = lib_as_tensor(vm, other, lib_t(self)->dtype, name);
  if (o == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *r = ag_binary(op, lib_t(self), o);
  tensor_release(o);
  return lib_wrap(vm, r);
}

static Value unary_in_place(AgVM *vm, Value self, UnaryOp op, const char *name,
                            const AgKwargs *kw) {
  if (!no_kwargs(vm, name, kw)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return done_in_place(vm, ag_unary_(op, lib_t(self)), self);
}

/* The bindings of ops/elementwise.h's rows (lib_internal.h lists them). */
#define UNARY_BINDING(C, e, name, kernels, result, grad, node, formula, jvp, saves, inplace, bind, ...) \
  UNARY_BINDING_##bind(e, name) UNARY_IN_PLACE_##inplace(e, name)
#define UNARY_BINDING_LF_MGW(e, name)                                                        \
  Value lt_##name(LT_ARGS) { return unary(vm, self, UN_##e, #name, kw); }
#define UNARY_BINDING_LF_MG UNARY_BINDING_LF_MGW
#define UNARY_BINDING_OWN(e, name)
#define UNARY_IN_PLACE_INPLACE(e, name)                                                      \
  Value lt_##name##_(LT_ARGS) { return unary_in_place(vm, self, UN_##e, #name "_", kw); }
#define UNARY_IN_PLACE_NO_INPLACE(e, name)
AG_UNARY_REGISTRY(UNARY_BINDING, 0)

#define BINARY_BINDING(C, e, name, symbol, kernels, result, grad, node, formula, jvp, self, other, res, \
                       other_name, number_form, number_node, number_saves, bind, ...)             \
  BINARY_BINDING_##bind(e, name, other_name)
#define BINARY_BINDING_OPERAND(e, name, other_name)                                          \
  Value lt_##name(LT_ARGS) { return binary(vm, self, BIN_##e, #name, other_name, argc, args, kw); }
#define BINARY_BINDING_TENSORS(e, name, other_name)                                          \
  Value lt_##name(LT_ARGS) { return tensor_binary_fn(vm, self, BIN_##e, #name, args[0], kw); }
#define BINARY_BINDING_OWN(e, name, other_name)
#define BINARY_BINDING_NO_BIND(e, name, other_name)
AG_BINARY_REGISTRY(BINARY_BINDING, 0)

static Value clamp_bounds(AgVM *vm, const char *name, int argc, const Value *args,
                          const AgKwargs *kw, double *lo, double *hi) {
  static const char *const names[] = {"min", "max"};
  Value v[2];
  if (!lib_bind(vm, name, argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  *lo = NAN;
  *hi = NAN;
  if (!IS_UNDEF(v[0]) && !IS_NIL(v[0]) && !lib_number(vm, v[0], "min", lo)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && !IS_NIL(v[1]) && !lib_number(vm, v[1], "max", hi)) return VM_EXCEPTION;
  if (isnan(*lo) && isnan(*hi))
    return vm_throw_error(vm, "torch.clamp: At least one of 'min' or 'max' must not be None");
  return NIL_VAL;
}

/* clamp(min=t, max=t) with a tensor bound: ClampBackward0 (PyTorch's clamp.Tensor). */
static Value clamp_tensors(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw,
                           bool *used) {
  static const char *const names[] = {"min", "max"};
  Value v[2];
  *used = false;
  if (!lib_bind(vm, "clamp", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  bool lo_t = IS_TENSOR(v[0]), hi_t = IS_TENSOR(v[1]);
  if (!lo_t && !hi_t) return NIL_VAL;
  *used = true;
  Tensor *a = lib_t(self), *b[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++) {
    if (IS_UNDEF(v[i]) || IS_NIL(v[i])) continue;
    b[i] = IS_TENSOR(v[i]) ? tensor_retain(lib_t(v[i])) : lib_as_tensor(vm, v[i], a->dtype, "clamp");
    if (b[i] == NULL) {
      tensor_release(b[0]);
      return VM_EXCEPTION;
    }
  }
  lib_sync_line(vm);
  Tensor *r = ag_clamp_tensor(a, b[0], b[1]);
  tensor_release(b[0]);
  tensor_release(b[1]);
  return lib_wrap(vm, r);
}

Value lt_clamp(LT_ARGS) {
  bool used;
  Value r = clamp_tensors(vm, self, argc, args, kw, &used);
  if (used || IS_EXCEPTION(r)) return r;
  double lo, hi;
  if (IS_EXCEPTION(clamp_bounds(vm, "clamp", argc, args, kw, &lo, &hi))) return VM_EXCEPTION;
  lib_sync_line(vm);
  /* clamp(min=) alone is still ClampBackward1 in PyTorch (clamp_min is another op). */
  return lib_wrap(vm, ag_clamp(lib_t(self), lo, hi));
}

/* clamp_min(min) / clamp_max(max) with a number: ClampMinBackward0 / ClampMaxBackward0. */
static Value clamp_one(AgVM *vm, Value self, bool is_min, int argc, const Value *args,
                       const AgKwargs *kw) {
  const char *fname = is_min ? "clamp_min" : "clamp_max";
  const char *const names[] = {is_min ? "min" : "max"};
  Value v;
  double bound;
  if (!lib_bind(vm, fname, argc, args, kw, names, 1, &v)) return VM_EXCEPTION;
  if (!lib_number(vm, v, names[0], &bound)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  return lib_wrap(vm, is_min ? ag_clamp_min(t, bound) : ag_clamp_max(t, bound));
}

Value lt_clamp_min(LT_ARGS) { return clamp_one(vm, self, true, argc, args, kw); }
Value lt_clamp_max(LT_ARGS) { return clamp_one(vm, self, false, argc, args, kw); }

Value lt_masked_fill(LT_ARGS) {
  if (!no_kwargs(vm, "masked_fill", kw)) return VM_EXCEPTION;
  if (!IS_TENSOR(args[0]) || lib_t(args[0])->dtype != DT_BOOL)
    return vm_throw_error(vm, "masked_fill only supports boolean masks");
  bool value_is_tensor = IS_TENSOR(args[1]);
  Tensor *value = value_is_tensor ? tensor_retain(lib_t(args[1]))
                                  : lib_as_tensor(vm, args[1], lib_t(self)->dtype, "masked_fill");
  if (value == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *r = ag_masked_fill(lib_t(self), lib_t(args[0]), value, value_is_tensor);
  tensor_release(value);
  return lib_wrap(vm, r);
}

/* ---- linear algebra ---- */

typedef Tensor *(*MatFn)(Tensor *, Tensor *);

static Value matrix_fn(AgVM *vm, Value self, MatFn fn, const char *name, const char *arg_name,
                       int argc, const Value *args, const AgKwargs *kw) {
  Value other;
  if (!one_arg(vm, name, arg_name, argc, args, kw, &other)) return VM_EXCEPTION;
  if (!IS_TENSOR(other)) return lib_type_error(vm, name, arg_name, other);
  lib_sync_line(vm);
  return lib_wrap(vm, fn(lib_t(self), lib_t(other)));
}

Value lt_matmul(LT_ARGS) { return matrix_fn(vm, self, ag_matmul, "matmul", "other", argc, args, kw); }
Value lt_mm(LT_ARGS) { return matrix_fn(vm, self, ag_mm, "mm", "mat2", argc, args, kw); }
Value lt_bmm(LT_ARGS) { return matrix_fn(vm, self, ag_bmm, "bmm", "mat2", argc, args, kw); }
Value lt_mv(LT_ARGS) { return matrix_fn(vm, self, ag_mv, "mv", "vec", argc, args, kw); }
Value lt_dot(LT_ARGS) { return matrix_fn(vm, self, ag_dot, "dot", "tensor", argc, args, kw); }
Value lt_outer(LT_ARGS) { return matrix_fn(vm, self, ag_outer, "outer", "vec2", argc, args, kw); }

/* ---- reductions ---- */

typedef struct {
  int dims[TENSOR_MAX_DIMS];
  int ndims;
  bool keepdim;
  bool has_dim;
} Reduce;

/* dim=nil, keepdim=false (the names after `names[0]` vary per function). */
static bool reduce_args(AgVM *vm, const char *fname, int argc, const Value *args,
                        const AgKwargs *kw, Reduce *r) {
  static const char *const names[] = {"dim", "keepdim"};
  Value v[2];
  if (!lib_bind(vm, fname, argc, args, kw, names, 2, v)) return false;
  if (!lib_dims(vm, v[0], r->dims, &r->ndims)) return false;
  r->has_dim = r->ndims > 0;
  return lib_flag(vm, v[1], false, &r->keepdim);
}

Value lt_sum(LT_ARGS) {
  Reduce r;
  if (!reduce_args(vm, "sum", argc, args, kw, &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_sum(lib_t(self), r.has_dim ? r.dims : NULL, r.ndims, r.keepdim));
}

Value lt_mean(LT_ARGS) {
  Reduce r;
  if (!reduce_args(vm, "mean", argc, args, kw, &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_mean(lib_t(self), r.has_dim ? r.dims : NULL, r.ndims, r.keepdim));
}

Value lt_logsumexp(LT_ARGS) {
  Reduce r;
  if (!reduce_args(vm, "logsumexp", argc, args, kw, &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_logsumexp(lib_t(self), r.has_dim ? r.dims : NULL, r.ndims, r.keepdim));
}

static bool single_dim(AgVM *vm, const char *fname, const Reduce *r) {
  if (r->ndims <= 1) return true;
  vm_throw_error(vm, "%s(): dim must be a single dimension", fname);
  return false;
}

Value lt_prod(LT_ARGS) {
  Reduce r;
  if (!reduce_args(vm, "prod", argc, args, kw, &r) || !single_dim(vm, "prod", &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_prod(lib_t(self), r.dims[0], r.has_dim, r.keepdim));
}

typedef Tensor *(*ExtremeFn)(Tensor *, int, bool, bool, Tensor **);

/* max(), max(dim=d) -> [values, indices], max(other) -> maximum. */
static Value extreme(AgVM *vm, Value self, ExtremeFn fn, BinaryOp pairwise, const char *fname,
                     int argc, const Value *args, const AgKwargs *kw) {
  if (argc >= 1 && IS_TENSOR(args[0]))
    return tensor_binary_fn(vm, self, pairwise, fname, args[0], kw);
  Reduce r;
  if (!reduce_args(vm, fname, argc, args, kw, &r) || !single_dim(vm, fname, &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  if (!r.has_dim) return lib_wrap(vm, fn(lib_t(self), 0, false, false, NULL));
  Tensor *indices = NULL;
  Tensor *values = fn(lib_t(self), r.dims[0], true, r.keepdim, &indices);
  if (values == NULL) return lib_throw_tensor_error(vm);
  return lib_named_pair(vm, fname, values, indices);
}

Value lt_max(LT_ARGS) { return extreme(vm, self, ag_max, BIN_MAXIMUM, "max", argc, args, kw); }
Value lt_min(LT_ARGS) { return extreme(vm, self, ag_min, BIN_MINIMUM, "min", argc, args, kw); }

typedef Tensor *(*ArgFn)(const Tensor *, int, bool, bool);

static Value arg_extreme(AgVM *vm, Value self, ArgFn fn, const char *fname, int argc,
                         const Value *args, const AgKwargs *kw) {
  Reduce r;
  if (!reduce_args(vm, fname, argc, args, kw, &r) || !single_dim(vm, fname, &r)) return VM_EXCEPTION;
  return lib_wrap(vm, fn(lib_t(self), r.dims[0], r.has_dim, r.keepdim));
}

Value lt_argmax(LT_ARGS) { return arg_extreme(vm, self, tensor_argmax, "argmax", argc, args, kw); }
Value lt_argmin(LT_ARGS) { return arg_extreme(vm, self, tensor_argmin, "argmin", argc, args, kw); }

typedef Tensor *(*SpreadFn)(Tensor *, const int *, int, double, bool);

/* The arguments of std/var/std_mean/var_mean as PyTorch 1.13 takes them:
 * (dim=nil, unbiased=true, keepdim=false), or (dim=nil, *, correction=1,
 * keepdim=false), or (unbiased) alone. */
static bool spread_args(AgVM *vm, const char *fname, int argc, const Value *args, const AgKwargs *kw,
                        Reduce *r, double *correction) {
  static const char *const names[] = {"dim", "unbiased", "keepdim", "correction"};
  Value v[4];
  if (!lib_bind(vm, fname, argc, args, kw, names, 4, v)) return false;
  if (argc == 1 && IS_BOOL(v[0])) { /* var(false): the unbiased flag, as PyTorch's overload */
    v[1] = v[0];
    v[0] = UNDEF_VAL;
  }
  bool unbiased;
  if (!lib_dims(vm, v[0], r->dims, &r->ndims) || !lib_flag(vm, v[1], true, &unbiased) ||
      !lib_flag(vm, v[2], false, &r->keepdim))
    return false;
  *correction = unbiased ? 1 : 0;
  if (IS_UNDEF(v[3]) || IS_NIL(v[3])) return true;
  int64_t c;
  if (!IS_UNDEF(v[1])) {
    vm_raise(vm, VM_ERR_TYPE, "%s(): give unbiased or correction, not both", fname);
    return false;
  }
  if (argc > 3 || !IS_INT(v[3])) {
    vm_raise(vm, VM_ERR_TYPE, "%s(): correction must be an int given by name, not %s", fname,
             vm_type_name(v[3]));
    return false;
  }
  if (!lib_int(vm, v[3], "correction", &c)) return false;
  *correction = (double)c;
  return true;
}

/* std/var(dim=nil, unbiased=true, keepdim=false, *, correction=1). */
static Value spread(AgVM *vm, Value self, SpreadFn fn, const char *fname, int argc,
                    const Value *args, const AgKwargs *kw) {
  Reduce r;
  double correction;
  if (!spread_args(vm, fname, argc, args, kw, &r, &correction)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, fn(lib_t(self), r.ndims ? r.dims : NULL, r.ndims, correction, r.keepdim));
}

Value lt_std(LT_ARGS) { return spread(vm, self, ag_std, "std", argc, args, kw); }
Value lt_var(LT_ARGS) { return spread(vm, self, ag_var, "var", argc, args, kw); }

/* var_mean/std_mean(input, ...): the tuple (var or std, mean), as std/var's arguments. */
static Value spread_mean(AgVM *vm, Value self, bool take_sqrt, const char *fname, int argc,
                         const Value *args, const AgKwargs *kw) {
  Reduce r;
  double correction;
  if (!spread_args(vm, fname, argc, args, kw, &r, &correction)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *mean = NULL;
  Tensor *spread = ag_var_mean(lib_t(self), r.ndims ? r.dims : NULL, r.ndims, correction, r.keepdim,
                               take_sqrt, &mean);
  if (!spread) return lib_throw_tensor_error(vm);
  Value items[2] = {OBJ_VAL(obj_new_tensor(vm, spread)), NIL_VAL};
  vm_push_root(vm, items[0]);
  items[1] = OBJ_VAL(obj_new_tensor(vm, mean));
  vm_push_root(vm, items[1]);
  Value pair = OBJ_VAL(obj_new_tuple(vm, items, 2));
  vm_pop_roots(vm, 2);
  return pair;
}

Value lt_var_mean(LT_ARGS) { return spread_mean(vm, self, false, "var_mean", argc, args, kw); }
Value lt_std_mean(LT_ARGS) { return spread_mean(vm, self, true, "std_mean", argc, args, kw); }

Value lt_norm(LT_ARGS) {
  static const char *const names[] = {"p", "dim", "keepdim"};
  Value v[3];
  Reduce r;
  double p = 2;
  if (!lib_bind(vm, "norm", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[0]) && !IS_NIL(v[0]) && !lib_number(vm, v[0], "p", &p)) return VM_EXCEPTION;
  if (!lib_dims(vm, v[1], r.dims, &r.ndims) || !lib_flag(vm, v[2], false, &r.keepdim))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_norm(lib_t(self), p, r.ndims ? r.dims : NULL, r.ndims, r.keepdim));
}

/* any/all: counts the non-zero elements (no gradient; bool result). */
static Value truth_reduce(AgVM *vm, Value self, bool all, const char *fname, int argc,
                          const Value *args, const AgKwargs *kw) {
  static const char *const names[] = {"dim", "keepdim"};
  Value v[2];
  Reduce r;
  if (!lib_bind(vm, fname, argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!lib_dims(vm, v[0], r.dims, &r.ndims) || !lib_flag(vm, v[1], false, &r.keepdim))
    return VM_EXCEPTION;
  Tensor *t = lib_t(self);
  Tensor *nz = tensor_binary_scalar(BIN_NE, t, 0);
  if (nz == NULL) return lib_throw_tensor_error(vm);
  Tensor *count = tensor_sum(nz, r.ndims ? r.dims : NULL, r.ndims, r.keepdim);
  tensor_release(nz);
  if (count == NULL) return lib_throw_tensor_error(vm);
  double total = count->numel > 0 ? (double)t->numel / (double)count->numel : 0;
  Tensor *res = all ? tensor_binary_scalar(BIN_EQ, count, total)
                    : tensor_binary_scalar(BIN_GT, count, 0);
  tensor_release(count);
  return lib_wrap(vm, res);
}

Value lt_any(LT_ARGS) { return truth_reduce(vm, self, false, "any", argc, args, kw); }
Value lt_all(LT_ARGS) { return truth_reduce(vm, self, true, "all", argc, args, kw); }

/* ---- shapes ---- */

static Value reshape_like(AgVM *vm, Value self, bool view, int argc, const Value *args,
                          const AgKwargs *kw) {
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!no_kwargs(vm, view ? "view" : "reshape", kw)) return VM_EXCEPTION;
  if (!lib_shape(vm, argc, args, &ndim, shape)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  return lib_wrap(vm, view ? ag_view(t, ndim, shape) : ag_reshape(t, ndim, shape));
}

Value lt_reshape(LT_ARGS) { return reshape_like(vm, self, false, argc, args, kw); }
Value lt_view(LT_ARGS) { return reshape_like(vm, self, true, argc, args, kw); }

Value lt_expand(LT_ARGS) {
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!no_kwargs(vm, "expand", kw) || !lib_shape(vm, argc, args, &ndim, shape)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_expand(lib_t(self), ndim, shape));
}

Value lt_expand_as(LT_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "expand_as", "other", args[0]);
  Tensor *o = lib_t(args[0]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_expand(lib_t(self), o->ndim, o->shape));
}

Value lt_view_as(LT_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "view_as", "other", args[0]);
  Tensor *o = lib_t(args[0]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_view(lib_t(self), o->ndim, o->shape));
}

/* narrow(dim, start, length): the slice start:start+length of dim, a view;
 * start may count from the end (and may be a one-element integer tensor). */
Value lt_narrow(LT_ARGS) {
  static const char *const names[] = {"dim", "start", "length"};
  Value v[3];
  int dim;
  int64_t start, length;
  if (!lib_bind(vm, "narrow", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  for (int i = 0; i < 3; i++)
    if (IS_UNDEF(v[i])) return vm_raise(vm, VM_ERR_TYPE, "narrow() missing required argument '%s'", names[i]);
  if (!lib_dim(vm, v[0], &dim) || !lib_int(vm, v[1], "start", &start) ||
      !lib_int(vm, v[2], "length", &length))
    return VM_EXCEPTION;
  Tensor *t = lib_t(self);
  if (t->ndim == 0) return vm_throw_error(vm, "narrow() cannot be applied to a 0-dim tensor.");
  if (dim < -t->ndim || dim >= t->ndim)
    return vm_raise(vm, VM_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                          -t->ndim, t->ndim - 1, dim);
  if (dim < 0) dim += t->ndim;
  int64_t size = t->shape[dim];
  if (start != size) { /* the end itself is a valid start, though not a valid index */
    if (start < -size || start >= size)
      return vm_raise(vm, VM_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                            (long long)-size, (long long)(size - 1), (long long)start);
    if (start < 0) start += size;
  }
  if (length < 0 || start > size - length)
    return vm_throw_error(vm, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                          (long long)start, (long long)length, (long long)size);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_slice(t, dim, start, start + length, 1));
}

Value lt_flatten(LT_ARGS) {
  static const char *const names[] = {"start_dim", "end_dim"};
  Value v[2];
  int start = 0, end = -1;
  if (!lib_bind(vm, "flatten", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[0]) && !lib_dim(vm, v[0], &start)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && !lib_dim(vm, v[1], &end)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_flatten(lib_t(self), start, end));
}

Value lt_squeeze(LT_ARGS) {
  static const char *const names[] = {"dim"};
  Value v[1];
  int dim = 0;
  if (!lib_bind(vm, "squeeze", argc, args, kw, names, 1, v)) return VM_EXCEPTION;
  bool has_dim = !IS_UNDEF(v[0]) && !IS_NIL(v[0]);
  if (has_dim && !lib_dim(vm, v[0], &dim)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_squeeze(lib_t(self), dim, has_dim));
}

static bool one_dim_arg(AgVM *vm, const char *fname, int argc, const Value *args,
                        const AgKwargs *kw, int dflt, bool required, int *dim) {
  static const char *const names[] = {"dim"};
  Value v[1];
  if (!lib_bind(vm, fname, argc, args, kw, names, 1, v)) return false;
  *dim = dflt;
  if (IS_UNDEF(v[0]) || IS_NIL(v[0])) {
    if (!required) return true;
    vm_raise(vm, VM_ERR_TYPE, "%s() missing required argument 'dim'", fname);
    return false;
  }
  return lib_dim(vm, v[0], dim);
}

Value lt_unsqueeze(LT_ARGS) {
  int dim;
  if (!one_dim_arg(vm, "unsqueeze", argc, args, kw, 0, true, &dim)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_unsqueeze(lib_t(self), dim));
}

Value lt_transpose(LT_ARGS) {
  static const char *const names[] = {"dim0", "dim1"};
  Value v[2];
  int d0, d1;
  if (!lib_bind(vm, "transpose", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!lib_dim(vm, v[0], &d0) || !lib_dim(vm, v[1], &d1)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_transpose(lib_t(self), d0, d1));
}

Value lt_permute(LT_ARGS) {
  int64_t dims[TENSOR_MAX_DIMS];
  int perm[TENSOR_MAX_DIMS];
  int n;
  if (!no_kwargs(vm, "permute", kw) || !lib_shape(vm, argc, args, &n, dims)) return VM_EXCEPTION;
  for (int i = 0; i < n; i++) perm[i] = (int)dims[i];
  lib_sync_line(vm);
  return lib_wrap(vm, ag_permute(lib_t(self), perm, n));
}

Value lt_t(LT_ARGS) {
  if (!no_kwargs(vm, "t", kw)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_t(lib_t(self)));
}

static Value pieces(AgVM *vm, int n, Tensor **out) {
  if (n < 0) return lib_throw_tensor_error(vm);
  return lib_tensor_list(vm, out, n);
}

Value lt_split(LT_ARGS) {
  static const char *const names[] = {"split_size_or_sections", "dim"};
  Value v[2];
  int dim = 0;
  if (!lib_bind(vm, "split", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && !lib_dim(vm, v[1], &dim)) return VM_EXCEPTION;
  Tensor **out = NULL;
  if (is_list_or_tuple(v[0])) {
    int64_t sizes[64];
    ObjList *l = AS_LIST(v[0]);
    if (l->count > 64) return vm_throw_error(vm, "split(): at most 64 sections");
    for (int i = 0; i < l->count; i++) {
      if (!lib_int(vm, l->items[i], "a split size", &sizes[i])) return VM_EXCEPTION;
    }
    lib_sync_line(vm);
    int n = ag_split_sizes(lib_t(self), sizes, l->count, dim, &out);
  return pieces(vm, n, out);
  }
  int64_t size;
  if (!lib_int(vm, v[0], "split_size", &size)) return VM_EXCEPTION;
  lib_sync_line(vm);
  int n = ag_split(lib_t(self), size, dim, &out);
  return pieces(vm, n, out);
}

Value lt_chunk(LT_ARGS) {
  static const char *const names[] = {"chunks", "dim"};
  Value v[2];
  int dim = 0;
  int64_t chunks;
  if (!lib_bind(vm, "chunk", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!lib_int(vm, v[0], "chunks", &chunks)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && !lib_dim(vm, v[1], &dim)) return VM_EXCEPTION;
  if (chunks <= 0 || chunks > 1 << 30) return vm_throw_error(vm, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
  Tensor **out = NULL;
  lib_sync_line(vm);
  int n = ag_chunk(lib_t(self), (int)chunks, dim, &out);
  return pieces(vm, n, out);
}

Value lt_unbind(LT_ARGS) {
  int dim;
  if (!one_dim_arg(vm, "unbind", argc, args, kw, 0, false, &dim)) return VM_EXCEPTION;
  Tensor **out = NULL;
  lib_sync_line(vm);
  int n = ag_unbind(lib_t(self), dim, &out);
  return pieces(vm, n, out);
}

static Value softmax_like(AgVM *vm, Value self, bool log, int argc, const Value *args,
                          const AgKwargs *kw) {
  const char *fname = log ? "log_softmax" : "softmax";
  Tensor *t = lib_t(self);
  /* PyTorch's legacy implicit dim when none is given. */
  int dflt = (t->ndim == 0 || t->ndim == 1 || t->ndim == 3) ? 0 : 1;
  int dim;
  if (!one_dim_arg(vm, fname, argc, args, kw, dflt, false, &dim)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, log ? ag_log_softmax(t, dim) : ag_softmax(t, dim));
}

Value lt_softmax(LT_ARGS) { return softmax_like(vm, self, false, argc, args, kw); }
Value lt_log_softmax(LT_ARGS) { return softmax_like(vm, self, true, argc, args, kw); }

/* ---- indexing functions ---- */

static Value index_fn(AgVM *vm, Value self, bool gather, int argc, const Value *args,
                      const AgKwargs *kw) {
  const char *fname = gather ? "gather" : "index_select";
  static const char *const names[] = {"dim", "index"};
  Value v[2];
  int dim;
  if (!lib_bind(vm, fname, argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!lib_dim(vm, v[0], &dim)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "index", v[1]);
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  return lib_wrap(vm, gather ? ag_gather(t, dim, lib_t(v[1])) : ag_index_select(t, dim, lib_t(v[1])));
}

Value lt_index_select(LT_ARGS) { return index_fn(vm, self, false, argc, args, kw); }
Value lt_gather(LT_ARGS) { return index_fn(vm, self, true, argc, args, kw); }

/* ---- in place: each returns the tensor itself ---- */

static Value binary_in_place(AgVM *vm, Value self, BinaryOp op, const char *name, Value other,
                             const AgKwargs *kw) {
  if (!no_kwargs(vm, name, kw)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  if (IS_TENSOR(other)) return done_in_place(vm, ag_binary_(op, t, lib_t(other)), self);
  if (IS_BOOL(other) && (op == BIN_SUB || !dtype_is_float(t->dtype))) { /* as binary() */
    Tensor *bt = tensor_scalar(DT_BOOL, AS_BOOL(other));
    bool ok = bt && ag_binary_(op, t, bt);
    tensor_release(bt);
    return done_in_place(vm, ok, self);
  }
  double s;
  if (!lib_number(vm, other, "other", &s)) return VM_EXCEPTION;
  return done_in_place(vm, ag_binary_scalar_(op, t, s), self);
}

Value lt_add_(LT_ARGS) {
  if (!kw || kw->count == 0) return binary_in_place(vm, self, BIN_ADD, "add_", args[0], kw);
  return fused_method(vm, self, FUSED_ADD_SCALED, "add_", true, argc, args, kw);
}
Value lt_addcmul_(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCMUL, "addcmul_", true, argc, args, kw); }
Value lt_addcdiv_(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCDIV, "addcdiv_", true, argc, args, kw); }
Value lt_lerp_(LT_ARGS) { return fused_method(vm, self, FUSED_LERP, "lerp_", true, argc, args, kw); }
Value lt_sub_(LT_ARGS) { return binary_in_place(vm, self, BIN_SUB, "sub_", args[0], kw); }
Value lt_mul_(LT_ARGS) { return binary_in_place(vm, self, BIN_MUL, "mul_", args[0], kw); }
Value lt_div_(LT_ARGS) { return binary_in_place(vm, self, BIN_DIV, "div_", args[0], kw); }
Value lt_pow_(LT_ARGS) { return binary_in_place(vm, self, BIN_POW, "pow_", args[0], kw); }
Value lt_remainder_(LT_ARGS) { return binary_in_place(vm, self, BIN_MOD, "remainder_", args[0], kw); }
Value lt_floor_divide_(LT_ARGS) {
  return binary_in_place(vm, self, BIN_FLOOR_DIVIDE, "floor_divide_", args[0], kw);
}

Value lt_zero_(LT_ARGS) {
  lib_sync_line(vm);
  return done_in_place(vm, ag_zero_(lib_t(self)), self);
}

Value lt_fill_(LT_ARGS) {
  double v;
  if (!lib_number(vm, args[0], "value", &v)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return done_in_place(vm, ag_fill_(lib_t(self), v), self);
}

Value lt_copy_(LT_ARGS) {
  Tensor *src = lib_as_tensor(vm, args[0], lib_t(self)->dtype, "copy_");
  if (src == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  bool ok = ag_copy_(lib_t(self), src);
  tensor_release(src);
  return done_in_place(vm, ok, self);
}

Value lt_clamp_(LT_ARGS) {
  double lo, hi;
  if (IS_EXCEPTION(clamp_bounds(vm, "clamp_", argc, args, kw, &lo, &hi))) return VM_EXCEPTION;
  lib_sync_line(vm);
  return done_in_place(vm, ag_clamp_(lib_t(self), lo, hi), self);
}

/* normal_(mean=0, std=1, generator=nil) and uniform_(from=0, to=1, generator=nil) */
static bool random_fill_args(AgVM *vm, const char *fname, const char *const *names, double d0,
                             double d1, int argc, const Value *args, const AgKwargs *kw,
                             double *a, double *b, TensorRng **rng) {
  Value v[3];
  if (!lib_bind(vm, fname, argc, args, kw, names, 3, v)) return false;
  *a = d0;
  *b = d1;
  if (!IS_UNDEF(v[0]) && !lib_number(vm, v[0], names[0], a)) return false;
  if (!IS_UNDEF(v[1]) && !lib_number(vm, v[1], names[1], b)) return false;
  return (*rng = lib_rng(vm, v[2], fname)) != NULL;
}

Value lt_normal_(LT_ARGS) {
  static const char *const names[] = {"mean", "std", "generator"};
  double mean, std;
  TensorRng *rng;
  if (!random_fill_args(vm, "normal_", names, 0, 1, argc, args, kw, &mean, &std, &rng))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return done_in_place(vm, ag_normal_(rng, lib_t(self), mean, std), self);
}

Value lt_uniform_(LT_ARGS) {
  static const char *const names[] = {"from", "to", "generator"};
  double lo, hi;
  TensorRng *rng;
  if (!random_fill_args(vm, "uniform_", names, 0, 1, argc, args, kw, &lo, &hi, &rng))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return done_in_place(vm, ag_uniform_(rng, lib_t(self), lo, hi), self);
}

/* ---- conversions and queries ---- */

/* Element i as a script value: an int for integer dtypes, a float for float
 * tensors, a bool for bool ones (as PyTorch's item() and tolist()). */
static Value scalar_value(AgVM *vm, Tensor *t, int64_t i) {
  if (dtype_kind(t->dtype) == DK_INT) return INT_VAL(vm, tensor_get_flat_int(t, i));
  double d = tensor_get_flat(t, i);
  return t->dtype == DT_BOOL ? BOOL_VAL(d != 0) : FLOAT_VAL(d);
}

Value lt_item(LT_ARGS) {
  Tensor *t = lib_t(self);
  if (t->numel != 1) return vm_raise(vm, VM_ERR_VALUE, "only one element tensors can be converted to Python scalars");
  return scalar_value(vm, t, 0);
}

/* Nested lists of dimension d onward, starting at flat element *pos.
 * Ctrl-C stops it (an expanded view may hold 10^18 elements). */
static Value to_list(AgVM *vm, Tensor *t, int d, int64_t *pos) {
  if (d == t->ndim) return scalar_value(vm, t, (*pos)++);
  ObjList *l = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(l));
  for (int64_t i = 0; i < t->shape[d]; i++) {
    if (tensor_interrupt_requested) {
      vm_pop_root(vm);
      return vm_throw_interrupted(vm);
    }
    Value item = to_list(vm, t, d + 1, pos);
    if (IS_EXCEPTION(item)) {
      vm_pop_root(vm);
      return item;
    }
    vm_push_root(vm, item);
    obj_list_append(vm, l, item);
    vm_pop_root(vm);
  }
  vm_pop_root(vm);
  return OBJ_VAL(l);
}

Value lt_tolist(LT_ARGS) {
  int64_t pos = 0;
  return to_list(vm, lib_t(self), 0, &pos);
}

Value lt_numel(LT_ARGS) { return INT_VAL(vm, lib_t(self)->numel); }
Value lt_nelement(LT_ARGS) { return lt_numel(vm, self, argc, args, kw); }
Value lt_dim(LT_ARGS) { return INT_VAL(vm, lib_t(self)->ndim); }

Value lt_size(LT_ARGS) {
  int dim;
  Tensor *t = lib_t(self);
  if (!one_dim_arg(vm, "size", argc, args, kw, 0, false, &dim)) return VM_EXCEPTION;
  if (argc == 0 && (kw == NULL || kw->count == 0)) return lib_shape_list(vm, t->ndim, t->shape);
  int n = t->ndim == 0 ? 1 : t->ndim;
  if (dim < -n || dim >= n)
    return vm_raise(vm, VM_ERR_INDEX, "Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                          -n, n - 1, dim);
  if (t->ndim == 0) return INT_VAL(vm, 1);
  return INT_VAL(vm, t->shape[dim < 0 ? dim + t->ndim : dim]);
}

Value lt_is_contiguous(LT_ARGS) { return BOOL_VAL(tensor_is_contiguous(lib_t(self))); }
Value lt_is_floating_point(LT_ARGS) { return BOOL_VAL(dtype_is_float(lib_t(self)->dtype)); }

Value lt_clone(LT_ARGS) {
  lib_sync_line(vm);
  return lib_wrap(vm, ag_clone(lib_t(self)));
}

Value lt_contiguous(LT_ARGS) {
  lib_sync_line(vm);
  return lib_wrap(vm, ag_contiguous(lib_t(self)));
}

Value lt_detach(LT_ARGS) { return lib_wrap(vm, ag_detach(lib_t(self))); }

Value lt_detach_(LT_ARGS) {
  return ag_detach_(lib_t(self)) ? self : lib_throw_tensor_error(vm);
}

Value lt_requires_grad_(LT_ARGS) {
  static const char *const names[] = {"requires_grad"};
  Value v[1];
  bool flag;
  if (!lib_bind(vm, "requires_grad_", argc, args, kw, names, 1, v)) return VM_EXCEPTION;
  if (!lib_flag(vm, v[0], true, &flag)) return VM_EXCEPTION;
  Tensor *t = lib_t(self);
  if (flag && ag_is_leaf(t) && !dtype_is_float(t->dtype)) /* PyTorch's words on this path */
    return vm_throw_error(vm, "only Tensors of floating point dtype can require gradients");
  if (!ag_set_requires_grad(t, flag)) return lib_throw_tensor_error(vm);
  return self;
}

Value lt_retain_grad(LT_ARGS) {
  if (!ag_retain_grad(lib_t(self))) return lib_throw_tensor_error(vm);
  return NIL_VAL;
}

static Value convert(AgVM *vm, Value self, DType dt) {
  lib_sync_line(vm);
  return lib_wrap(vm, ag_to_dtype(lib_t(self), dt));
}

Value lt_float(LT_ARGS) { return convert(vm, self, DT_FLOAT32); }
Value lt_double(LT_ARGS) { return convert(vm, self, DT_FLOAT64); }
Value lt_long(LT_ARGS) { return convert(vm, self, DT_INT64); }
Value lt_bool(LT_ARGS) { return convert(vm, self, DT_BOOL); }
Value lt_int(LT_ARGS) { return convert(vm, self, DT_INT32); }
Value lt_short(LT_ARGS) { return convert(vm, self, DT_INT16); }
Value lt_char(LT_ARGS) { return convert(vm, self, DT_INT8); }
Value lt_byte(LT_ARGS) { return convert(vm, self, DT_UINT8); }
Value lt_half(LT_ARGS) { return convert(vm, self, DT_FLOAT16); }
Value lt_bfloat16(LT_ARGS) { return convert(vm, self, DT_BFLOAT16); }
Value lt_element_size(LT_ARGS) { return INT_VAL(vm, (int64_t)dtype_size(lib_t(self)->dtype)); }

/* t.to(dtype), t.to("cpu"), t.to("cpu", dtype), t.to(device=, dtype=). */
Value lt_to(LT_ARGS) {
  static const char *const names[] = {"device", "dtype"};
  Value v[2];
  if (!lib_bind(vm, "to", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (lib_is_dtype(vm, v[0]) && IS_UNDEF(v[1])) { /* to(dtype) */
    v[1] = v[0];
    v[0] = UNDEF_VAL;
  }
  if (IS_NIL(v[0]) && IS_UNDEF(v[1])) return vm_raise(vm, VM_ERR_TYPE, "to() expects a dtype or a device, not nil");
  if (!lib_device(vm, v[0])) return VM_EXCEPTION;
  if (IS_UNDEF(v[1]) || IS_NIL(v[1])) return self; /* already on the one device */
  if (!lib_is_dtype(vm, v[1])) return vm_raise(vm, VM_ERR_TYPE, "to() expects a dtype, not %s", vm_type_name(v[1]));
  DType dt = DT_FLOAT32;
  lib_dtype(vm, v[1], &dt);
  return convert(vm, self, dt);
}

/* t.type(): PyTorch's type string ("torch.FloatTensor"); t.type(dtype) or
 * t.type("torch.DoubleTensor"): t converted, as to(dtype). */
Value lt_type(LT_ARGS) {
  static const char *const names[] = {"dtype"};
  Value v[1];
  if (!lib_bind(vm, "type", argc, args, kw, names, 1, v)) return VM_EXCEPTION;
  char name[32];
  if (IS_UNDEF(v[0]) || IS_NIL(v[0])) {
    snprintf(name, sizeof name, "torch.%sTensor", tensor_dtype_torch_name(lib_t(self)->dtype));
    return OBJ_VAL(obj_string(vm, name));
  }
  if (IS_STRING(v[0])) {
    for (int dt = 0; dt < DT_COUNT; dt++) {
      snprintf(name, sizeof name, "torch.%sTensor", tensor_dtype_torch_name((DType)dt));
      if (strcmp(name, AS_CSTRING(v[0])) == 0) return convert(vm, self, (DType)dt);
    }
    return vm_raise(vm, VM_ERR_TYPE, "invalid type: '%s'", AS_CSTRING(v[0]));
  }
  DType dt = DT_FLOAT32;
  if (!lib_dtype(vm, v[0], &dt)) return VM_EXCEPTION;
  return convert(vm, self, dt);
}

Value lt_cpu(LT_ARGS) { return self; }
