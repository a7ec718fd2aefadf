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

HELP("addcmul", HELP_TENSORS, HELP_TENSOR_METHOD,
     "addcmul(t, tensor1, tensor2, value=1) / t.addcmul(...)",
     "t + value * tensor1 * tensor2, all three broadcast, rounding as ATen's kernel "
     "(AddcmulBackward0); addcmul_ is the in-place form.",
     "print(addcmul(zeros(2), tensor([1.0, 2.0]), tensor([3.0, 4.0]), value=0.5))")

Value lt_addcmul(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCMUL, "addcmul", false, argc, args, kw); }

HELP("addcdiv", HELP_TENSORS, HELP_TENSOR_METHOD,
     "addcdiv(t, tensor1, tensor2, value=1) / t.addcdiv(...)",
     "t + value * tensor1 / tensor2, all three broadcast, rounding as ATen's kernel "
     "(AddcdivBackward0); addcdiv_ is the in-place form.",
     "print(addcdiv(ones(2), tensor([1.0, 2.0]), tensor([4.0, 4.0]), value=-1))")

Value lt_addcdiv(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCDIV, "addcdiv", false, argc, args, kw); }

HELP("lerp", HELP_TENSORS, HELP_TENSOR_METHOD,
     "lerp(start, end, weight) / start.lerp(end, weight)",
     "start + weight * (end - start), weight a number or a tensor, in ATen's two forms "
     "(LerpBackward0 for a number, LerpBackward1 for a tensor); lerp_ is the in-place form.",
     "print(lerp(zeros(3), ones(3), tensor([0.0, 0.5, 1.0])))")

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

HELP("clamp", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clamp(t, min=nil, max=nil) / t.clamp(min=, max=)",
     "Limits each element to [min, max]; gradient 0 where clamped (ClampBackward1).",
     "print(tensor([-2.0, 0.5, 3.0]).clamp(min=0, max=1))")

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

HELP("clamp_min", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clamp_min(t, min) / t.clamp_min(min)",
     "clamp(t, min=min) recorded as PyTorch's own op (ClampMinBackward0).",
     "print(tensor([-1.0, 2.0]).clamp_min(0.0))")

Value lt_clamp_min(LT_ARGS) { return clamp_one(vm, self, true, argc, args, kw); }

HELP("clamp_max", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clamp_max(t, max) / t.clamp_max(max)",
     "clamp(t, max=max) recorded as PyTorch's own op (ClampMaxBackward0).",
     "print(tensor([-1.0, 2.0]).clamp_max(0.0))")

Value lt_clamp_max(LT_ARGS) { return clamp_one(vm, self, false, argc, args, kw); }

HELP("masked_fill", HELP_TENSORS, HELP_TENSOR_METHOD,
     "masked_fill(t, mask, value) / t.masked_fill(mask, value)",
     "A copy of t with value where the bool mask (broadcast) is true; value a number or "
     "a 0-d tensor (MaskedFillBackward0, MaskedFillBackward1).",
     "let t = tensor([1.0, 2.0, 3.0])\n"
     "print(t.masked_fill(t > 1, 0))")

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

HELP("matmul", HELP_TENSORS, HELP_TENSOR_METHOD,
     "matmul(a, b) / a.matmul(b) / a @ b",
     "Matrix product with PyTorch's rules: 1-D dot, 2-D mm, matrix-vector, batched with "
     "broadcasting; computed by BLAS.",
     "print(ones(2, 3) @ ones(3, 4))")

Value lt_matmul(LT_ARGS) { return matrix_fn(vm, self, ag_matmul, "matmul", "other", argc, args, kw); }

HELP("mm", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mm(a, b) / a.mm(b)",
     "Product of two 2-D matrices (MmBackward0).",
     "print(eye(2).mm(tensor([[1.0, 2.0], [3.0, 4.0]])))")

Value lt_mm(LT_ARGS) { return matrix_fn(vm, self, ag_mm, "mm", "mat2", argc, args, kw); }

HELP("bmm", HELP_TENSORS, HELP_TENSOR_METHOD,
     "bmm(a, b) / a.bmm(b)",
     "Batched product of [B, n, m] and [B, m, p] tensors (BmmBackward0).",
     "print(bmm(ones(5, 2, 3), ones(5, 3, 4)).shape)")

Value lt_bmm(LT_ARGS) { return matrix_fn(vm, self, ag_bmm, "bmm", "mat2", argc, args, kw); }

HELP("mv", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mv(m, v) / m.mv(v)",
     "Matrix-vector product (MvBackward0).",
     "print(eye(2).mv(tensor([1.0, 2.0])))")

Value lt_mv(LT_ARGS) { return matrix_fn(vm, self, ag_mv, "mv", "vec", argc, args, kw); }

HELP("dot", HELP_TENSORS, HELP_TENSOR_METHOD,
     "dot(a, b) / a.dot(b)",
     "Dot product of two 1-D tensors (DotBackward0).",
     "print(tensor([1.0, 2.0]).dot(tensor([3.0, 4.0])))")

Value lt_dot(LT_ARGS) { return matrix_fn(vm, self, ag_dot, "dot", "tensor", argc, args, kw); }

HELP("outer", HELP_TENSORS, HELP_TENSOR_METHOD,
     "outer(a, b) / a.outer(b)",
     "Outer product of two 1-D tensors.",
     "print(outer(tensor([1.0, 2.0]), tensor([1.0, 0.0])))")

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

HELP("mean", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mean(t, dim=nil, keepdim=false) / t.mean(...)",
     "The mean of all elements, or along dim (MeanBackward0 / MeanBackward1).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).mean())")

Value lt_mean(LT_ARGS) {
  Reduce r;
  if (!reduce_args(vm, "mean", argc, args, kw, &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_mean(lib_t(self), r.has_dim ? r.dims : NULL, r.ndims, r.keepdim));
}

HELP("logsumexp", HELP_TENSORS, HELP_TENSOR_METHOD,
     "logsumexp(t, dim=nil, keepdim=false) / t.logsumexp(...)",
     "log(sum(exp(t))) computed stably.",
     "print(tensor([1.0, 2.0]).logsumexp(dim=0))")

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

HELP("prod", HELP_TENSORS, HELP_TENSOR_METHOD,
     "prod(t, dim=nil, keepdim=false) / t.prod(...)",
     "The product of all elements, or along one dim.",
     "print(tensor([2.0, 3.0]).prod())")

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

HELP("argmax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "argmax(t, dim=nil, keepdim=false) / t.argmax(...)",
     "The index of the largest element (of the flattened tensor, or along dim); int64.",
     "print(tensor([1.0, 5.0, 2.0]).argmax())")

Value lt_argmax(LT_ARGS) { return arg_extreme(vm, self, tensor_argmax, "argmax", argc, args, kw); }

HELP("argmin", HELP_TENSORS, HELP_TENSOR_METHOD,
     "argmin(t, dim=nil, keepdim=false) / t.argmin(...)",
     "The index of the smallest element (flattened, or along dim); int64.",
     "print(tensor([[3.0, 1.0], [0.0, 4.0]]).argmin(dim=1))")

Value lt_argmin(LT_ARGS) { return arg_extreme(vm, self, tensor_argmin, "argmin", argc, args, kw); }

typedef Tensor *(*SpreadFn)(Tensor *, const int *, int, bool, bool);

/* std/var(dim=nil, unbiased=true, keepdim=false), PyTorch 1.13's order. */
static Value spread(AgVM *vm, Value self, SpreadFn fn, const char *fname, int argc,
                    const Value *args, const AgKwargs *kw) {
  static const char *const names[] = {"dim", "unbiased", "keepdim"};
  Value v[3];
  Reduce r;
  bool unbiased;
  if (!lib_bind(vm, fname, argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (!lib_dims(vm, v[0], r.dims, &r.ndims) || !lib_flag(vm, v[1], true, &unbiased) ||
      !lib_flag(vm, v[2], false, &r.keepdim))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, fn(lib_t(self), r.ndims ? r.dims : NULL, r.ndims, unbiased, r.keepdim));
}

HELP("std", HELP_TENSORS, HELP_TENSOR_METHOD,
     "std(t, dim=nil, unbiased=true, keepdim=false) / t.std(...)",
     "Standard deviation (with Bessel's correction unless unbiased=false).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).std())")

Value lt_std(LT_ARGS) { return spread(vm, self, ag_std, "std", argc, args, kw); }

HELP("var", HELP_TENSORS, HELP_TENSOR_METHOD,
     "var(t, dim=nil, unbiased=true, keepdim=false) / t.var(...)",
     "Variance (with Bessel's correction unless unbiased=false).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).var())")

Value lt_var(LT_ARGS) { return spread(vm, self, ag_var, "var", argc, args, kw); }

HELP("norm", HELP_TENSORS, HELP_TENSOR_METHOD,
     "norm(t, p=2, dim=nil, keepdim=false) / t.norm(...)",
     "The p-norm of all elements, or along dim.",
     "print(tensor([3.0, 4.0]).norm())")

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

HELP("reshape", HELP_TENSORS, HELP_TENSOR_METHOD,
     "reshape(t, ...shape) / t.reshape(...shape)",
     "The same elements in a new shape (a view when possible); one dimension may be -1.0",
     "print(arange(6).reshape(2, -1))")

Value lt_reshape(LT_ARGS) { return reshape_like(vm, self, false, argc, args, kw); }

HELP("Tensor.view", HELP_TENSOR, 0,
     "t.view(...shape)",
     "The same storage seen with a new shape (t must be contiguous); -1 infers one size.",
     "print(arange(6).view(3, 2))")

Value lt_view(LT_ARGS) { return reshape_like(vm, self, true, argc, args, kw); }

HELP("Tensor.expand", HELP_TENSOR, 0,
     "t.expand(...shape)",
     "A view repeating dimensions of size 1 to the given shape without copying (-1 keeps "
     "a size).",
     "print(tensor([[1], [2]]).expand(2, 3))")

Value lt_expand(LT_ARGS) {
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!no_kwargs(vm, "expand", kw) || !lib_shape(vm, argc, args, &ndim, shape)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_expand(lib_t(self), ndim, shape));
}

HELP("Tensor.expand_as", HELP_TENSOR, 0,
     "t.expand_as(other)",
     "t expanded to other's shape.",
     "print(tensor([1]).expand_as(zeros(3)))")

Value lt_expand_as(LT_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "expand_as", "other", args[0]);
  Tensor *o = lib_t(args[0]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_expand(lib_t(self), o->ndim, o->shape));
}

HELP("Tensor.view_as", HELP_TENSOR, 0,
     "t.view_as(other)",
     "t.view(other's shape).",
     "print(arange(6).view_as(zeros(2, 3)))")

Value lt_view_as(LT_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "view_as", "other", args[0]);
  Tensor *o = lib_t(args[0]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_view(lib_t(self), o->ndim, o->shape));
}

HELP("narrow", HELP_TENSORS, HELP_TENSOR_METHOD,
     "narrow(t, dim, start, length) / t.narrow(dim, start, length)",
     "The view of elements start .. start + length - 1 along dim (start may count from "
     "the end).",
     "print(arange(6).view(2, 3).narrow(1, 1, 2))")

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

HELP("flatten", HELP_TENSORS, HELP_TENSOR_METHOD,
     "flatten(t, start_dim=0, end_dim=-1) / t.flatten(...)",
     "Merges the dimensions start_dim..end_dim into one.",
     "print(ones(2, 3, 4).flatten(1).shape)")

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

HELP("squeeze", HELP_TENSORS, HELP_TENSOR_METHOD,
     "squeeze(t, dim=nil) / t.squeeze(dim=nil)",
     "Removes dimensions of size 1 (all, or only dim).",
     "print(zeros(1, 3, 1).squeeze().shape)")

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

HELP("unsqueeze", HELP_TENSORS, HELP_TENSOR_METHOD,
     "unsqueeze(t, dim) / t.unsqueeze(dim)",
     "Inserts a dimension of size 1 at dim.",
     "print(zeros(3).unsqueeze(0).shape)")

Value lt_unsqueeze(LT_ARGS) {
  int dim;
  if (!one_dim_arg(vm, "unsqueeze", argc, args, kw, 0, true, &dim)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_unsqueeze(lib_t(self), dim));
}

HELP("transpose", HELP_TENSORS, HELP_TENSOR_METHOD,
     "transpose(t, dim0, dim1) / t.transpose(dim0, dim1)",
     "Swaps two dimensions (a view; TransposeBackward0).",
     "print(zeros(2, 3).transpose(0, 1).shape)")

Value lt_transpose(LT_ARGS) {
  static const char *const names[] = {"dim0", "dim1"};
  Value v[2];
  int d0, d1;
  if (!lib_bind(vm, "transpose", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!lib_dim(vm, v[0], &d0) || !lib_dim(vm, v[1], &d1)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_transpose(lib_t(self), d0, d1));
}

HELP("permute", HELP_TENSORS, HELP_TENSOR_METHOD,
     "permute(t, ...dims) / t.permute(...dims)",
     "Reorders all dimensions (a view).",
     "print(zeros(2, 3, 4).permute(2, 0, 1).shape)")

Value lt_permute(LT_ARGS) {
  int64_t dims[TENSOR_MAX_DIMS];
  int perm[TENSOR_MAX_DIMS];
  int n;
  if (!no_kwargs(vm, "permute", kw) || !lib_shape(vm, argc, args, &n, dims)) return VM_EXCEPTION;
  for (int i = 0; i < n; i++) perm[i] = (int)dims[i];
  lib_sync_line(vm);
  return lib_wrap(vm, ag_permute(lib_t(self), perm, n));
}

HELP("t", HELP_TENSORS, HELP_TENSOR_METHOD,
     "t(m) / m.t()",
     "Transposes a 1-D or 2-D tensor (the same as m.T for 2-D).",
     "print(tensor([[1, 2]]).t())")

Value lt_t(LT_ARGS) {
  if (!no_kwargs(vm, "t", kw)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_t(lib_t(self)));
}

static Value pieces(AgVM *vm, int n, Tensor **out) {
  if (n < 0) return lib_throw_tensor_error(vm);
  return lib_tensor_list(vm, out, n);
}

HELP("split", HELP_TENSORS, HELP_TENSOR_METHOD,
     "split(t, split_size_or_sections, dim=0) / t.split(...)",
     "A list of pieces of t along dim: each of split_size (the last may be smaller), or "
     "of the sizes in a list.",
     "print(arange(5).split(2))")

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

HELP("chunk", HELP_TENSORS, HELP_TENSOR_METHOD,
     "chunk(t, chunks, dim=0) / t.chunk(chunks, dim=0)",
     "A list of (at most) chunks nearly equal pieces along dim.",
     "print(arange(6).chunk(3))")

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

HELP("unbind", HELP_TENSORS, HELP_TENSOR_METHOD,
     "unbind(t, dim=0) / t.unbind(dim=0)",
     "A list of the slices along dim, that dimension removed.",
     "print(tensor([[1, 2], [3, 4]]).unbind())")

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

HELP("softmax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "softmax(t, dim) / t.softmax(dim)",
     "exp(t) normalised to sum 1 along dim (SoftmaxBackward0).",
     "print(softmax(tensor([1.0, 1.0]), 0))")

Value lt_softmax(LT_ARGS) { return softmax_like(vm, self, false, argc, args, kw); }

HELP("log_softmax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "log_softmax(t, dim) / t.log_softmax(dim)",
     "log(softmax(t, dim)) computed stably (LogSoftmaxBackward0).",
     "print(log_softmax(tensor([0.0, 0.0]), 0))")

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

HELP("index_select", HELP_TENSORS, HELP_TENSOR_METHOD,
     "index_select(t, dim, index) / t.index_select(dim, index)",
     "The slices of t along dim at the positions of an int64 index tensor.",
     "print(arange(5).index_select(0, tensor([4, 0], dtype=int64)))")

Value lt_index_select(LT_ARGS) { return index_fn(vm, self, false, argc, args, kw); }

HELP("gather", HELP_TENSORS, HELP_TENSOR_METHOD,
     "gather(t, dim, index) / t.gather(dim, index)",
     "Picks along dim the elements at the positions of index (the shape of index), as "
     "torch.gather.",
     "let t = tensor([[1.0, 2.0], [3.0, 4.0]])\n"
     "print(t.gather(1, tensor([[1], [0]], dtype=int64)))")

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

HELP("Tensor.add_", HELP_TENSOR, 0,
     "t.add_(other, alpha=1)",
     "Adds other (times alpha) into t in place (bumps t._version). With alpha, under "
     "t + alpha * other rounds once (a fused multiply-add), as ATen's kernel and so "
     "PyTorch's optimizers (AddBackward0 keeps alpha when recorded).",
     "let a = zeros(2)\n"
     "a.add_(1)\n"
     "a.add_(tensor([1.0, 2.0]), alpha=0.5)\n"
     "print(a)")

Value lt_add_(LT_ARGS) {
  if (!kw || kw->count == 0) return binary_in_place(vm, self, BIN_ADD, "add_", args[0], kw);
  return fused_method(vm, self, FUSED_ADD_SCALED, "add_", true, argc, args, kw);
}

HELP("Tensor.addcmul_", HELP_TENSOR, 0,
     "t.addcmul_(tensor1, tensor2, value=1)",
     "t += value * tensor1 * tensor2 in place, rounding as ATen's kernel (one fused "
     "multiply-add of value * tensor1 and tensor2); Adam's and RMSprop's running squares "
     "use it (AddcmulBackward0 when recorded).",
     "let a = zeros(2)\n"
     "a.addcmul_(tensor([1.0, 2.0]), tensor([3.0, 4.0]), value=0.5)\n"
     "print(a)")

Value lt_addcmul_(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCMUL, "addcmul_", true, argc, args, kw); }

HELP("Tensor.addcdiv_", HELP_TENSOR, 0,
     "t.addcdiv_(tensor1, tensor2, value=1)",
     "t += value * tensor1 / tensor2 in place, rounding as ATen's kernel ((value * tensor1) "
     "/ tensor2, then the sum); the update of Adam, RMSprop and Adagrad (AddcdivBackward0 "
     "when recorded).",
     "let a = ones(2)\n"
     "a.addcdiv_(tensor([1.0, 2.0]), tensor([4.0, 4.0]), value=-1)\n"
     "print(a)")

Value lt_addcdiv_(LT_ARGS) { return fused_method(vm, self, FUSED_ADDCDIV, "addcdiv_", true, argc, args, kw); }

HELP("Tensor.lerp_", HELP_TENSOR, 0,
     "t.lerp_(end, weight)",
     "t + weight * (end - t) in place, weight a number or a tensor, in ATen's two forms "
     "(below 0.5 from t's side, else from end's, each one fused multiply-add), so the bits "
     "are PyTorch's; recorded as LerpBackward0 (a number) or LerpBackward1.",
     "let a = zeros(2)\n"
     "a.lerp_(tensor([1.0, 2.0]), 0.25)\n"
     "print(a)")

Value lt_lerp_(LT_ARGS) { return fused_method(vm, self, FUSED_LERP, "lerp_", true, argc, args, kw); }

HELP("Tensor.sub_", HELP_TENSOR, 0,
     "t.sub_(other)",
     "Subtracts other from t in place.",
     "let a = ones(2)\n"
     "a.sub_(1)\n"
     "print(a)")

Value lt_sub_(LT_ARGS) { return binary_in_place(vm, self, BIN_SUB, "sub_", args[0], kw); }

HELP("Tensor.mul_", HELP_TENSOR, 0,
     "t.mul_(other)",
     "Multiplies t by other in place.",
     "let a = ones(2)\n"
     "a.mul_(3)\n"
     "print(a)")

Value lt_mul_(LT_ARGS) { return binary_in_place(vm, self, BIN_MUL, "mul_", args[0], kw); }

HELP("Tensor.div_", HELP_TENSOR, 0,
     "t.div_(other)",
     "Divides t by other in place.",
     "let a = ones(2)\n"
     "a.div_(4)\n"
     "print(a)")

Value lt_div_(LT_ARGS) { return binary_in_place(vm, self, BIN_DIV, "div_", args[0], kw); }

HELP("Tensor.pow_", HELP_TENSOR, 0,
     "t.pow_(exponent)",
     "Raises t to exponent in place (what `t **= exponent` calls).",
     "let a = full([2], 3.0)\n"
     "a.pow_(2)\n"
     "print(a)")

Value lt_pow_(LT_ARGS) { return binary_in_place(vm, self, BIN_POW, "pow_", args[0], kw); }

HELP("Tensor.remainder_", HELP_TENSOR, 0,
     "t.remainder_(other)",
     "t % other in place, with the sign of the divisor (what `t %= other` calls).",
     "let a = tensor([5.0, -5.0])\n"
     "a.remainder_(3)\n"
     "print(a)")

Value lt_remainder_(LT_ARGS) { return binary_in_place(vm, self, BIN_MOD, "remainder_", args[0], kw); }

HELP("Tensor.floor_divide_", HELP_TENSOR, 0,
     "t.floor_divide_(other)",
     "t // other in place, rounded toward minus infinity (what `t //= other` calls).",
     "let a = tensor([7.0, -7.0])\n"
     "a.floor_divide_(2)\n"
     "print(a)")

Value lt_floor_divide_(LT_ARGS) {
  return binary_in_place(vm, self, BIN_FLOOR_DIVIDE, "floor_divide_", args[0], kw);
}

HELP("Tensor.zero_", HELP_TENSOR, 0,
     "t.zero_()",
     "Fills t with zeros in place.",
     "print(ones(2).zero_())")

Value lt_zero_(LT_ARGS) {
  lib_sync_line(vm);
  return done_in_place(vm, ag_zero_(lib_t(self)), self);
}

HELP("Tensor.fill_", HELP_TENSOR, 0,
     "t.fill_(value)",
     "Fills t with value in place.",
     "print(zeros(2).fill_(7))")

Value lt_fill_(LT_ARGS) {
  double v;
  if (!lib_number(vm, args[0], "value", &v)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return done_in_place(vm, ag_fill_(lib_t(self), v), self);
}

HELP("Tensor.copy_", HELP_TENSOR, 0,
     "t.copy_(src)",
     "Copies src (broadcast to t's shape) into t in place.",
     "print(zeros(2).copy_(tensor([1.0, 2.0])))")

Value lt_copy_(LT_ARGS) {
  Tensor *src = lib_as_tensor(vm, args[0], lib_t(self)->dtype, "copy_");
  if (src == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  bool ok = ag_copy_(lib_t(self), src);
  tensor_release(src);
  return done_in_place(vm, ok, self);
}

HELP("Tensor.clamp_", HELP_TENSOR, 0,
     "t.clamp_(min=nil, max=nil)",
     "Clamps t in place.",
     "print(tensor([-1.0, 2.0]).clamp_(min=0))")

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

HELP("Tensor.normal_", HELP_TENSOR, 0,
     "t.normal_(mean=0, std=1, generator=nil)",
     "Fills t with normal random numbers in place.",
     "print(zeros(3).normal_().shape)")

Value lt_normal_(LT_ARGS) {
  static const char *const names[] = {"mean", "std", "generator"};
  double mean, std;
  TensorRng *rng;
  if (!random_fill_args(vm, "normal_", names, 0, 1, argc, args, kw, &mean, &std, &rng))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return done_in_place(vm, ag_normal_(rng, lib_t(self), mean, std), self);
}

HELP("Tensor.uniform_", HELP_TENSOR, 0,
     "t.uniform_(from=0, to=1, generator=nil)",
     "Fills t with uniform random numbers in [from, to) in place.",
     "print(zeros(3).uniform_(-1, 1).shape)")

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

HELP("Tensor.item", HELP_TENSOR, 0,
     "t.item()",
     "The value of a one-element tensor as a number (or bool).",
     "print(tensor([2.5]).item())")

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

HELP("Tensor.tolist", HELP_TENSOR, 0,
     "t.tolist()",
     "The elements as (nested) lists of numbers.",
     "print(arange(4).reshape(2, 2).tolist())")

Value lt_tolist(LT_ARGS) {
  int64_t pos = 0;
  return to_list(vm, lib_t(self), 0, &pos);
}

HELP("numel", HELP_TENSORS, HELP_TENSOR_METHOD,
     "numel(t) / t.numel()",
     "The number of elements.",
     "print(zeros(2, 3).numel())")

Value lt_numel(LT_ARGS) { return INT_VAL(vm, lib_t(self)->numel); }

HELP("Tensor.nelement", HELP_TENSOR, 0,
     "t.nelement()",
     "The number of elements (numel).",
     "print(zeros(2, 3).nelement())")

Value lt_nelement(LT_ARGS) { return lt_numel(vm, self, argc, args, kw); }

HELP("Tensor.dim", HELP_TENSOR, 0,
     "t.dim()",
     "The number of dimensions (the same as t.ndim).",
     "print(zeros(2, 3).dim())")

Value lt_dim(LT_ARGS) { return INT_VAL(vm, lib_t(self)->ndim); }

HELP("Tensor.size", HELP_TENSOR, 0,
     "t.size(dim=nil)",
     "The shape as a list, or the size of one dimension.",
     "print(zeros(2, 3).size(), zeros(2, 3).size(-1))")

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

HELP("Tensor.is_contiguous", HELP_TENSOR, 0,
     "t.is_contiguous()",
     "True when the elements are laid out in row-major order without gaps.",
     "print(zeros(2, 3).T.is_contiguous())")

Value lt_is_contiguous(LT_ARGS) { return BOOL_VAL(tensor_is_contiguous(lib_t(self))); }

HELP("is_floating_point", HELP_TENSORS, HELP_TENSOR_METHOD,
     "is_floating_point(t) / t.is_floating_point()",
     "Whether t's dtype is a float dtype (float32, float64).",
     "print(tensor([1.0]).is_floating_point(), is_floating_point(tensor([1])))")

Value lt_is_floating_point(LT_ARGS) { return BOOL_VAL(dtype_is_float(lib_t(self)->dtype)); }

HELP("clone", HELP_TENSORS, HELP_TENSOR_METHOD,
     "clone(t) / t.clone()",
     "A copy with its own storage; gradients flow back to t (CloneBackward0).",
     "let a = ones(2)\n"
     "let b = a.clone()\n"
     "b.add_(1)\n"
     "print(a, b)")

Value lt_clone(LT_ARGS) {
  lib_sync_line(vm);
  return lib_wrap(vm, ag_clone(lib_t(self)));
}

HELP("Tensor.contiguous", HELP_TENSOR, 0,
     "t.contiguous()",
     "t with its elements laid out in row-major order (a copy only when needed).",
     "print(zeros(2, 3).T.contiguous().is_contiguous())")

Value lt_contiguous(LT_ARGS) {
  lib_sync_line(vm);
  return lib_wrap(vm, ag_contiguous(lib_t(self)));
}

HELP("detach", HELP_TENSORS, HELP_TENSOR_METHOD,
     "detach(t) / t.detach()",
     "A tensor sharing t's storage without its history (requires_grad false).",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 2).detach().requires_grad)")

Value lt_detach(LT_ARGS) { return lib_wrap(vm, ag_detach(lib_t(self))); }

HELP("Tensor.detach_", HELP_TENSOR, 0,
     "t.detach_()",
     "Detaches t itself from its history, in place.",
     "let y = ones(2, requires_grad=true) * 2\n"
     "y.detach_()\n"
     "print(y.requires_grad)")

Value lt_detach_(LT_ARGS) {
  return ag_detach_(lib_t(self)) ? self : lib_throw_tensor_error(vm);
}

HELP("Tensor.requires_grad_", HELP_TENSOR, 0,
     "t.requires_grad_(flag=true)",
     "Sets requires_grad in place and returns t.",
     "print(zeros(2).requires_grad_())")

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

HELP("Tensor.retain_grad", HELP_TENSOR, 0,
     "t.retain_grad()",
     "Makes a non-leaf tensor keep its .grad after backward().",
     "let x = ones(2, requires_grad=true)\n"
     "let y = x * 2\n"
     "y.retain_grad()\n"
     "y.sum().backward()\n"
     "print(y.grad)")

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

HELP("Tensor.int", HELP_TENSOR, 0,
     "t.int() / t.short() / t.half() / t.bfloat16()",
     "t converted to int32, int16, float16 or bfloat16 (as t.to(dtype); floats "
     "truncate toward zero, out-of-range integers wrap around).",
     "print(tensor([1.7, -1.7, 70000.0]).int())")

Value lt_int(LT_ARGS) { return convert(vm, self, DT_INT32); }
Value lt_short(LT_ARGS) { return convert(vm, self, DT_INT16); }

HELP("Tensor.char", HELP_TENSOR, 0,
     "t.char()",
     "t converted to int8 (floats truncate toward zero, then wrap: 300.0 is 44).",
     "print(tensor([1.7, -1.7, 300.0]).char())")

Value lt_char(LT_ARGS) { return convert(vm, self, DT_INT8); }

HELP("Tensor.byte", HELP_TENSOR, 0,
     "t.byte()",
     "t converted to uint8 (floats truncate toward zero, then wrap: -1.0 is 255).",
     "print(tensor([1.7, -1.0, 300.0]).byte())")

Value lt_byte(LT_ARGS) { return convert(vm, self, DT_UINT8); }
Value lt_half(LT_ARGS) { return convert(vm, self, DT_FLOAT16); }
Value lt_bfloat16(LT_ARGS) { return convert(vm, self, DT_BFLOAT16); }

HELP("Tensor.element_size", HELP_TENSOR, 0,
     "t.element_size() / t.itemsize",
     "The bytes one element of t takes: 4 for float32, 2 for float16, 1 for int8 ...",
     "print(zeros(2).element_size(), zeros(2, dtype=int8).itemsize)")

Value lt_element_size(LT_ARGS) { return INT_VAL(vm, (int64_t)dtype_size(lib_t(self)->dtype)); }

HELP("Tensor.to", HELP_TENSOR, 0,
     "t.to(dtype) / t.to(\"cpu\", dtype=nil)",
     "A copy converted to dtype (t itself when it already has it). The device \"cpu\" is "
     "the one Ag has: t.to(\"cpu\") is t; another device is an error.",
     "print(arange(3).to(float64))")

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

HELP("Tensor.type", HELP_TENSOR, 0,
     "t.type() / t.type(dtype)",
     "PyTorch's type string of t (\"torch.FloatTensor\", \"torch.LongTensor\", ...); with a "
     "dtype (or such a string), t converted as t.to(dtype).",
     "print(tensor([1.5]).type(), tensor([1.5]).type(int))")

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

HELP("Tensor.cpu", HELP_TENSOR, 0,
     "t.cpu()",
     "t itself: Ag computes on the CPU only (PyTorch's t.cpu(); t.to(\"cpu\") too).",
     "print(ones(2).cpu())")

Value lt_cpu(LT_ARGS) { return self; }
