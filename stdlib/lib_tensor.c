/* lib_tensor.c — tensors as language values: the VM's AgTensorHooks
 * (operators, truthiness, indexing, attributes, method calls, len, repr,
 * formatting) and the dispatch of LIB_TENSOR_FNS to methods and globals.
 *
 * Every operation that may record a graph node first tells autograd the
 * script line that runs it (lib_sync_line), so nodes know where they came
 * from.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/lib_internal.h"
#include "tensor/print.h"
#include "vm/internal.h"
#include "vm/opcodes.h"

HELP("Tensor.shape", HELP_TENSOR, 0,
     "t.shape",
     "The size of each dimension, as a list ([] for a scalar).",
     "print(zeros(2, 3).shape)")
HELP("Tensor.ndim", HELP_TENSOR, 0,
     "t.ndim",
     "The number of dimensions.",
     "print(zeros(2, 3).ndim)")
HELP("Tensor.dtype", HELP_TENSOR, 0,
     "t.dtype",
     "The element type: float32, float64, int64 or bool.",
     "print(arange(3).dtype, zeros(1).dtype == float32)")
HELP("Tensor.requires_grad", HELP_TENSOR, 0,
     "t.requires_grad",
     "True when operations on t are recorded for autograd; settable on leaves (float "
     "tensors only).",
     "let w = zeros(2)\n"
     "w.requires_grad = true\n"
     "print(w.requires_grad)")
HELP("Tensor.grad", HELP_TENSOR, 0,
     "t.grad",
     "The gradient accumulated by backward() (leaves only, unless retain_grad() was "
     "called); nil before. May be assigned a tensor of the same shape or nil.",
     "let x = tensor(3.0, requires_grad=true)\n"
     "(x * x).backward()\n"
     "print(x.grad)")
HELP("Tensor.grad_fn", HELP_TENSOR, 0,
     "t.grad_fn",
     "The graph node that produced t (nil for leaves and tensors without history).",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 2).grad_fn)")
HELP("Tensor.is_leaf", HELP_TENSOR, 0,
     "t.is_leaf",
     "True for tensors created by the user rather than by a recorded operation.",
     "let x = ones(2, requires_grad=true)\n"
     "print(x.is_leaf, (x + 1).is_leaf)")
HELP("Tensor.T", HELP_TENSOR, 0,
     "t.T",
     "The tensor with its dimensions reversed (the transpose of a matrix), a view.",
     "print(tensor([[1, 2]]).T)")
HELP("Tensor.data", HELP_TENSOR, 0,
     "t.data",
     "A detached alias of t: the same elements, no history and a version counter of its "
     "own, so changing it in place bypasses autograd's checks (detach() shares t's "
     "counter). t.data = other gives t other's elements (and shape and dtype), keeping "
     "t's requires_grad, as PyTorch's.",
     "let w = ones(2, requires_grad=true)\n"
     "w.data.mul_(2)\n"
     "w.data += 1\n"
     "print(w)")
HELP("Tensor._version", HELP_TENSOR, 0,
     "t._version",
     "The version counter, bumped by every in-place change; autograd uses it to detect "
     "modified saved tensors.",
     "let a = zeros(2)\n"
     "a.add_(1)\n"
     "print(a._version)")
HELP("Tensor.device", HELP_TENSOR, 0,
     "t.device",
     "The string \"cpu\", the one device Ag computes on.",
     "print(ones(2).device)")
HELP("Tensor.is_cuda", HELP_TENSOR, 0,
     "t.is_cuda",
     "false: Ag computes on the CPU only.",
     "print(ones(2).is_cuda)")

/* Attribute ids; method ids follow as LIB_ATTR_COUNT + LibTensorFn. */
#define LIB_TENSOR_ATTRS(X)                                                    \
  X(SHAPE, "shape")                                                            \
  X(NDIM, "ndim")                                                              \
  X(DTYPE, "dtype")                                                            \
  X(REQUIRES_GRAD, "requires_grad")                                            \
  X(GRAD, "grad")                                                              \
  X(GRAD_FN, "grad_fn")                                                        \
  X(IS_LEAF, "is_leaf")                                                        \
  X(RETAINS_GRAD, "retains_grad")                                              \
  X(T_ATTR, "T")                                                               \
  X(DATA, "data")                                                              \
  X(VERSION, "_version")                                                       \
  X(OUTPUT_NR, "output_nr")                                                    \
  X(DEVICE, "device")                                                          \
  X(IS_CUDA, "is_cuda")                                                        \
  X(ITEMSIZE, "itemsize")

typedef enum {
#define ATTR_ENUM(e, n) ATTR_##e,
  LIB_TENSOR_ATTRS(ATTR_ENUM)
#undef ATTR_ENUM
      LIB_ATTR_COUNT
} LibTensorAttr;

static const char *const attr_names[LIB_ATTR_COUNT] = {
#define ATTR_NAME(e, n) n,
    LIB_TENSOR_ATTRS(ATTR_NAME)
#undef ATTR_NAME
};

typedef struct {
  const char *name;
  LibTensorImpl fn;
  int min_args, max_args;
  int flags;
} LibFnDef;

static const LibFnDef fn_defs[LT_COUNT] = {
#define FN_DEF(name, lo, hi, flags) {#name, lt_##name, lo, hi, flags},
    LIB_TENSOR_FNS(FN_DEF)
#undef FN_DEF
};

/* ---- helpers shared by the lib files ---- */

/* A tensor op that stopped for Ctrl-C is an Interrupted error (exit 130),
 * delivered once; other failures raise the class of their kind. */
Value lib_throw_tensor_error(AgVM *vm) {
  /* a script callback the op ran (a saved_tensors_hooks pack hook) raised */
  if (vm->exc.pending) return VM_EXCEPTION;
  if (tensor_interrupt_requested) {
    vm_raise_interrupted(vm);
    return VM_EXCEPTION;
  }
  const char *msg = tensor_error();
  TensorErrorKind tk = tensor_error_kind();
  VmErrorKind kind = tk == TENSOR_ERR_INDEX             ? VM_ERR_INDEX
                     : tk == TENSOR_ERR_NOT_IMPLEMENTED ? VM_ERR_NOT_IMPLEMENTED
                                                        : VM_ERR_RUNTIME;
  return vm_raise(vm, kind, "%s", msg && msg[0] ? msg : "tensor operation failed");
}

Value lib_wrap(AgVM *vm, Tensor *t) {
  if (t == NULL) return lib_throw_tensor_error(vm);
  return OBJ_VAL(obj_new_tensor(vm, t));
}

Value lib_type_error(AgVM *vm, const char *fname, const char *param, Value got) {
  return vm_raise(vm, VM_ERR_TYPE, "%s(): argument '%s' must be Tensor, not %s", fname, param,
                        vm_type_name(got));
}

static int find_exact(const char *name, const char *const *names, int n) {
  for (int i = 0; i < n; i++) {
    if (strcmp(names[i], name) == 0) return i;
  }
  return -1;
}

/* A keyword's parameter, by name or by PyTorch's NumPy spelling of it
 * (python_arg_parser's aliases: axis= is dim=, keepdims= is keepdim=), so
 * every function that takes dim= or keepdim= takes the other spelling too. */
static int find_name(ObjString *name, const char *const *names, int n) {
  int i = find_exact(name->chars, names, n);
  if (i >= 0) return i;
  if (strcmp(name->chars, "axis") == 0) return find_exact("dim", names, n);
  if (strcmp(name->chars, "keepdims") == 0) return find_exact("keepdim", names, n);
  return -1;
}

bool lib_bind(AgVM *vm, const char *fname, int argc, const Value *args, const AgKwargs *kw,
              const char *const *names, int n, Value *out) {
  if (argc > n) {
    vm_raise(vm, VM_ERR_TYPE, "%s() takes at most %d argument%s (%d given)", fname, n, n == 1 ? "" : "s",
                   argc);
    return false;
  }
  for (int i = 0; i < n; i++) out[i] = i < argc ? args[i] : UNDEF_VAL;
  if (kw == NULL) return true;
  for (int k = 0; k < kw->count; k++) {
    int i = find_name(kw->names[k], names, n);
    if (i < 0) {
      vm_raise(vm, VM_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", fname, kw->names[k]->chars);
      return false;
    }
    if (!IS_UNDEF(out[i])) {
      vm_raise(vm, VM_ERR_TYPE, "%s() got multiple values for argument '%s'", fname, names[i]);
      return false;
    }
    out[i] = kw->values[k];
  }
  return true;
}

bool lib_number(AgVM *vm, Value v, const char *what, double *out) {
  if (IS_NUMBER(v)) {
    *out = AS_NUMBER(v);
    return true;
  }
  if (IS_BOOL(v)) {
    *out = AS_BOOL(v) ? 1 : 0;
    return true;
  }
  if (IS_TENSOR(v) && lib_t(v)->numel == 1) {
    *out = tensor_item(lib_t(v));
    return true;
  }
  vm_raise(vm, VM_ERR_TYPE, "%s must be a number, not %s", what, vm_type_name(v));
  return false;
}

/* An int (or a bool, or a one-element integer tensor); a float is an error,
 * as in PyTorch ("argument must be int, not float"). */
bool lib_int(AgVM *vm, Value v, const char *what, int64_t *out) {
  if (IS_INT(v)) {
    *out = AS_INT(v);
  } else if (IS_BOOL(v)) {
    *out = AS_BOOL(v);
  } else if (IS_TENSOR(v) && lib_t(v)->numel == 1 && !dtype_is_float(lib_t(v)->dtype)) {
    *out = tensor_get_flat_int(lib_t(v), 0);
  } else {
    vm_raise(vm, VM_ERR_TYPE, "%s must be an integer, not %s", what, vm_type_name(v));
    return false;
  }
  return true;
}

bool lib_dim(AgVM *vm, Value v, int *out) {
  int64_t d;
  if (!lib_int(vm, v, "dim", &d)) return false;
  if (d < -(1 << 30) || d > (1 << 30)) { /* the ops check the real range */
    vm_raise(vm, VM_ERR_INDEX, "Dimension out of range (got %lld)", (long long)d);
    return false;
  }
  *out = (int)d;
  return true;
}

bool lib_dims(AgVM *vm, Value v, int *dims, int *ndims) {
  *ndims = 0;
  if (IS_UNDEF(v) || IS_NIL(v)) return true;
  if (!is_list_or_tuple(v)) {
    if (!lib_dim(vm, v, &dims[0])) return false;
    *ndims = 1;
    return true;
  }
  ObjList *l = AS_LIST(v);
  if (l->count > TENSOR_MAX_DIMS) {
    vm_throw_error(vm, "too many dimensions: %d", l->count);
    return false;
  }
  for (int i = 0; i < l->count; i++) {
    if (!lib_dim(vm, l->items[i], &dims[i])) return false;
  }
  *ndims = l->count;
  return true;
}

bool lib_flag(AgVM *vm, Value v, bool dflt, bool *out) {
  if (IS_UNDEF(v)) {
    *out = dflt;
    return true;
  }
  int t = vm_truthy(vm, v);
  if (t < 0) return false;
  *out = t != 0;
  return true;
}

/* A dtype value, or the type int, which names int64 where a dtype is
 * expected (ones(2, dtype=int), t.to(int)) as Python's int does in PyTorch. */
bool lib_is_dtype(AgVM *vm, Value v) { return IS_DTYPE(v) || v == vm->core.type_objects[VM_TYPE_INT]; }

bool lib_dtype(AgVM *vm, Value v, DType *out) {
  if (IS_UNDEF(v) || IS_NIL(v)) return true;
  if (!lib_is_dtype(vm, v)) {
    vm_raise(vm, VM_ERR_TYPE, "dtype must be a dtype (float32, float64, int64, bool, int), not %s",
                   vm_type_name(v));
    return false;
  }
  *out = IS_DTYPE(v) ? AS_DTYPE(v)->dtype : DT_INT64;
  return true;
}

/* Ag computes on the CPU only: device="cpu" (or "cpu:0") is accepted
 * wherever PyTorch takes a device, anything else is a clear error. */
bool lib_is_device(Value v) {
  return IS_STRING(v) && (strcmp(AS_CSTRING(v), "cpu") == 0 || strcmp(AS_CSTRING(v), "cpu:0") == 0);
}

bool lib_device(AgVM *vm, Value v) {
  if (IS_UNDEF(v) || IS_NIL(v) || lib_is_device(v)) return true;
  if (IS_STRING(v)) {
    vm_throw_error(vm, "device '%s' is not available: Ag computes on the CPU only (device=\"cpu\")",
                   AS_CSTRING(v));
  } else {
    vm_raise(vm, VM_ERR_TYPE, "device must be a string such as \"cpu\", not %s", vm_type_name(v));
  }
  return false;
}

bool lib_shape(AgVM *vm, int argc, const Value *args, int *ndim, int64_t *shape) {
  const Value *items = args;
  int n = argc;
  if (argc == 1 && is_list_or_tuple(args[0])) {
    items = AS_LIST(args[0])->items;
    n = AS_LIST(args[0])->count;
  }
  if (n > TENSOR_MAX_DIMS) {
    vm_throw_error(vm, "a shape has at most %d dimensions, got %d", TENSOR_MAX_DIMS, n);
    return false;
  }
  for (int i = 0; i < n; i++) {
    if (!lib_int(vm, items[i], "a size", &shape[i])) return false;
  }
  *ndim = n;
  return true;
}

Value lib_shape_list(AgVM *vm, int ndim, const int64_t *shape) {
  ObjList *l = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(l));
  for (int i = 0; i < ndim; i++) obj_list_append(vm, l, INT_VAL(vm, shape[i]));
  vm_pop_root(vm);
  return OBJ_VAL(l);
}

Value lib_tensor_list(AgVM *vm, Tensor **ts, int n) {
  ObjList *l = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(l));
  int i = 0;
  for (; i < n; i++) {
    Value w = OBJ_VAL(obj_new_tensor(vm, ts[i]));
    vm_push_root(vm, w);
    obj_list_append(vm, l, w);
    vm_pop_root(vm);
  }
  free(ts);
  vm_pop_root(vm);
  return vm_list_to_tuple(vm, OBJ_VAL(l)); /* PyTorch's several results are a tuple */
}

/* torch.ag's _named_result(name, values, indices): PyTorch's
 * torch.return_types.NAME, a pair that also has .values and .indices. Takes
 * the references; VM_EXCEPTION after throwing. */
Value lib_named_pair(AgVM *vm, const char *name, Tensor *values, Tensor *indices) {
  Value args[3];
  args[1] = OBJ_VAL(obj_new_tensor(vm, values));
  vm_push_root(vm, args[1]);
  args[2] = OBJ_VAL(obj_new_tensor(vm, indices));
  vm_push_root(vm, args[2]);
  args[0] = OBJ_VAL(obj_string(vm, name));
  vm_push_root(vm, args[0]);
  Value torch = NIL_VAL, make = NIL_VAL;
  table_get(&vm->globals.builtins, OBJ_VAL(obj_string(vm, "torch")), &torch);
  ObjString *member = obj_string(vm, "_named_result");
  vm_push_root(vm, OBJ_VAL(member)); /* loading torch.ag may collect */
  Value r;
  if (IS_MODULE(torch) && vm_module_member(vm, AS_MODULE(torch), member, &make))
    r = vm_call(vm, make, 3, args);
  else
    r = vm->exc.pending ? VM_EXCEPTION : vm_throw_error(vm, "internal error: torch._named_result is missing");
  vm_pop_roots(vm, 4);
  return r;
}

/* ---- tensor(data): nested lists ---- */

typedef struct {
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
} DataShape;

/* The category of a leaf, for the dtype tensor(data) infers as PyTorch:
 * all bools make bool, ints (and bools) int64, any float float32. */
enum { LEAF_NONE = -1, LEAF_BOOL, LEAF_INT, LEAF_FLOAT };

static bool leaf_value(AgVM *vm, Value v, double *out, int *kind) {
  *kind = IS_BOOL(v) ? LEAF_BOOL : IS_INT(v) ? LEAF_INT : LEAF_FLOAT;
  if (IS_NUMBER(v) || IS_BOOL(v)) return lib_number(vm, v, "a tensor element", out);
  if (IS_TENSOR(v) && lib_t(v)->numel == 1) {
    DType dt = lib_t(v)->dtype;
    *out = tensor_item(lib_t(v));
    *kind = dt == DT_BOOL ? LEAF_BOOL : dt == DT_INT64 ? LEAF_INT : LEAF_FLOAT;
    return true;
  }
  if (IS_TENSOR(v)) {
    vm_raise(vm, VM_ERR_VALUE, "only one element tensors can be converted to Python scalars");
  } else {
    vm_raise(vm, VM_ERR_TYPE, "tensor(): invalid data type '%s'", vm_type_name(v));
  }
  return false;
}

static bool infer_shape(AgVM *vm, Value data, DataShape *ds) {
  ds->ndim = 0;
  Value v = data;
  while (is_list_or_tuple(v)) {
    if (ds->ndim == TENSOR_MAX_DIMS) {
      vm_throw_error(vm, "tensor(): too many dimensions (at most %d)", TENSOR_MAX_DIMS);
      return false;
    }
    ObjList *l = AS_LIST(v);
    ds->shape[ds->ndim++] = l->count;
    if (l->count == 0) break;
    v = l->items[0];
  }
  return true;
}

/* Writes the leaves of `v` (at depth d) into t in row-major order. */
static bool fill_from(AgVM *vm, Value v, int d, const DataShape *ds, Tensor *t, int64_t *pos,
                      int *kind) {
  if (d == ds->ndim) {
    double x;
    int k;
    if (is_list_or_tuple(v)) {
      vm_throw_error(vm, "expected a number at dim %d, got a list (ragged nested lists)", d);
      return false;
    }
    if (!leaf_value(vm, v, &x, &k)) return false;
    if (k > *kind) *kind = k;
    if (t != NULL && dtype_kind(t->dtype) == DK_INT && !dtype_value_fits(t->dtype, x, true)) {
      lib_throw_tensor_error(vm); /* tensor([300], dtype=int8), as PyTorch */
      return false;
    }
    if (t != NULL && dtype_kind(t->dtype) == DK_INT && IS_INT(v)) tensor_set_flat_int(t, *pos, AS_INT(v));
    else if (t != NULL) tensor_set_flat(t, *pos, x);
    (*pos)++;
    return true;
  }
  if (!is_list_or_tuple(v)) {
    vm_raise(vm, VM_ERR_VALUE, "expected sequence of length %lld at dim %d (got %s)",
                   (long long)ds->shape[d], d, vm_type_name(v));
    return false;
  }
  ObjList *l = AS_LIST(v);
  if (l->count != ds->shape[d]) {
    vm_raise(vm, VM_ERR_VALUE, "expected sequence of length %lld at dim %d (got %d)",
                   (long long)ds->shape[d], d, l->count);
    return false;
  }
  for (int i = 0; i < l->count; i++) {
    if (!fill_from(vm, l->items[i], d + 1, ds, t, pos, kind)) return false;
  }
  return true;
}

static Tensor *tensor_from_list(AgVM *vm, Value data, bool has_dtype, DType dtype) {
  DataShape ds;
  if (!infer_shape(vm, data, &ds)) return NULL;
  /* A first pass checks the nesting and finds the dtype. */
  int64_t pos = 0;
  int kind = LEAF_NONE;
  if (!fill_from(vm, data, 0, &ds, NULL, &pos, &kind)) return NULL;
  DType dt = has_dtype ? dtype : kind == LEAF_BOOL ? DT_BOOL : kind == LEAF_INT ? DT_INT64 : DT_FLOAT32;
  Tensor *t = tensor_empty(dt, ds.ndim, ds.shape);
  if (t == NULL) {
    lib_throw_tensor_error(vm);
    return NULL;
  }
  pos = 0;
  if (!fill_from(vm, data, 0, &ds, t, &pos, &kind)) { /* a value out of an integer dtype's range */
    tensor_release(t);
    return NULL;
  }
  return t;
}

Tensor *lib_tensor_from_value(AgVM *vm, Value data, bool has_dtype, DType dtype) {
  Tensor *t = NULL;
  if (IS_INT(data) && (!has_dtype || dtype_kind(dtype) == DK_INT)) {
    t = tensor_scalar(has_dtype ? dtype : DT_INT64, 0);
    if (t != NULL) tensor_set_flat_int(t, 0, AS_INT(data));
  } else if (IS_NUMBER(data)) {
    t = tensor_scalar(has_dtype ? dtype : DT_FLOAT32, AS_NUMBER(data));
  } else if (IS_BOOL(data)) {
    t = tensor_scalar(has_dtype ? dtype : DT_BOOL, AS_BOOL(data) ? 1 : 0);
  } else if (IS_TENSOR(data)) {
    Tensor *c = tensor_clone(lib_t(data));
    if (c != NULL && has_dtype && c->dtype != dtype) {
      t = tensor_to_dtype(c, dtype);
      tensor_release(c);
    } else {
      t = c;
    }
  } else if (is_list_or_tuple(data)) {
    return tensor_from_list(vm, data, has_dtype, dtype);
  } else {
    vm_raise(vm, VM_ERR_TYPE, "tensor(): invalid data type '%s'", vm_type_name(data));
    return NULL;
  }
  if (t == NULL) lib_throw_tensor_error(vm);
  return t;
}

static DType float_like(DType dt) { return dtype_is_float(dt) ? dt : DT_FLOAT32; }

Tensor *lib_as_tensor(AgVM *vm, Value v, DType like, const char *what) {
  if (IS_TENSOR(v)) return tensor_retain(lib_t(v));
  if (IS_NUMBER(v) || IS_BOOL(v)) {
    double d = IS_NUMBER(v) ? AS_NUMBER(v) : AS_BOOL(v);
    DType dt = IS_BOOL(v) ? DT_BOOL : tensor_scalar_result_type(IS_FLOAT(v) ? float_like(like) : like, d);
    Tensor *t = tensor_scalar(dt, d);
    if (t == NULL) lib_throw_tensor_error(vm);
    return t;
  }
  if (is_list_or_tuple(v)) return lib_tensor_from_value(vm, v, true, like); /* t[0] = [1, 2] keeps t's dtype */
  lib_type_error(vm, what, "other", v);
  return NULL;
}

/* ---- operators ---- */

/* The operator table comes from tensor/ops.h's symbols, matched once per VM.
 * It maps the elementwise operators only: bitwise ops, `in` and `@` have
 * their own paths in hook_binary. */
static void map_operators(LibState *st) {
  for (int op = 0; op < OP_COUNT; op++) {
    st->binary_of_opcode[op] = -1;
    if (vm_is_bitwise_op(op) || op == OP_IN || op == OP_MATMUL) continue;
    for (int b = 0; b < BIN_COUNT; b++)
      if (tensor_binary_symbols[b] && strcmp(tensor_binary_symbols[b], vm_op_symbol(op)) == 0)
        st->binary_of_opcode[op] = (int8_t)b;
  }
}

static bool is_scalar_operand(Value v) { return IS_NUMBER(v) || IS_BOOL(v); }

/* A Python float raises an int or bool tensor to the default float dtype
 * (PyTorch's promotion by category): the tensor the op then runs on, as a
 * new reference. (A bool tensor in a subtraction stays, for PyTorch's error.) */
static Tensor *promoted_for(int bop, Tensor *t, Value scalar) {
  if (bop == BIN_SUB && t->dtype == DT_BOOL) return tensor_retain(t);
  if (IS_FLOAT(scalar) && !dtype_is_float(t->dtype)) return tensor_to_dtype(t, DT_FLOAT32);
  return tensor_retain(t);
}
static double scalar_of(Value v) { return IS_NUMBER(v) ? AS_NUMBER(v) : (double)AS_BOOL(v); }

/* `x in t`: (t == x).any(), as PyTorch's Tensor.__contains__. */
static Value tensor_contains(AgVM *vm, Value item, Value container) {
  Tensor *t = lib_t(container);
  Tensor *eq = NULL;
  if (IS_TENSOR(item)) eq = tensor_binary(BIN_EQ, t, lib_t(item));
  else if (is_scalar_operand(item)) eq = tensor_binary_scalar(BIN_EQ, t, scalar_of(item));
  else
    return vm_throw_error(vm, "Tensor.__contains__ only supports Tensor or scalar, but you passed in a %s",
                          vm_type_name(item));
  if (eq == NULL) return lib_throw_tensor_error(vm);
  bool found = false;
  for (int64_t i = 0; i < eq->numel && !found; i++) found = tensor_get_flat(eq, i) != 0;
  tensor_release(eq);
  return BOOL_VAL(found);
}

/* 2 ** x: PyTorch 1.13's __rpow__ makes a tensor of the number first, so
 * the node is PowBackward1 (tensor ** tensor), not PowBackward2. */
Value lib_scalar_pow(AgVM *vm, double base, Tensor *exponent) {
  Tensor *b = tensor_scalar(tensor_scalar_result_type(exponent->dtype, base), base);
  if (b == NULL) return lib_throw_tensor_error(vm);
  Tensor *r = ag_binary(BIN_POW, b, exponent);
  tensor_release(b);
  return lib_wrap(vm, r);
}

/* t | u, t & u, t ^ u: PyTorch's bitwise ops, which on bool tensors (masks
 * such as (x > 0) & (x < 1)) are logical or / and / xor (xor of two bools is
 * !=). Ag has them for bool tensors (and true/false) only. */
static Value tensor_bitwise(AgVM *vm, int op, Value a, Value b) {
  Tensor *x = lib_as_tensor(vm, a, DT_BOOL, "bitwise"), *y = x ? lib_as_tensor(vm, b, DT_BOOL, "bitwise") : NULL;
  Value r;
  if (y != NULL && x->dtype == DT_BOOL && y->dtype == DT_BOOL) {
    BinaryOp bop = op == OP_BIT_OR ? BIN_LOGICAL_OR : op == OP_BIT_AND ? BIN_LOGICAL_AND : BIN_NE;
    r = lib_wrap(vm, tensor_binary(bop, x, y));
  } else {
    r = y == NULL ? VM_EXCEPTION
                  : vm_throw_error(vm, "'%s' of tensors needs bool tensors in Ag (masks), not %s and %s",
                                   vm_op_symbol(op), dtype_name(x->dtype), dtype_name(y->dtype));
  }
  tensor_release(x);
  tensor_release(y);
  return r;
}

static Value hook_binary(AgVM *vm, int op, Value a, Value b) {
  int bop = op >= 0 && op < OP_COUNT ? lib_state(vm)->binary_of_opcode[op] : -1;
  if (bop >= 0 && IS_TENSOR(a) && IS_TENSOR(b)) { /* the common case, first */
    lib_sync_line(vm);
    return lib_wrap(vm, ag_binary((BinaryOp)bop, lib_t(a), lib_t(b)));
  }
  if (IS_NODE(a) || IS_NODE(b)) return lib_node_binary(vm, op, a, b);
  if (vm_is_bitwise_op(op)) return tensor_bitwise(vm, op, a, b);
  if (op == OP_IN) return tensor_contains(vm, a, b);
  lib_sync_line(vm);
  bool ta = IS_TENSOR(a), tb = IS_TENSOR(b);
  if (op == OP_MATMUL) {
    if (ta && tb) return lib_wrap(vm, ag_matmul(lib_t(a), lib_t(b)));
  } else {
    /* true/false is a bool-typed number to PyTorch: bool_t + true stays bool,
     * t - true is an error */
    if (bop >= 0 && ((ta && IS_BOOL(b)) || (tb && IS_BOOL(a))) &&
        (bop == BIN_SUB || !dtype_is_float(lib_t(ta ? a : b)->dtype))) {
      Tensor *bt = tensor_scalar(DT_BOOL, scalar_of(ta ? b : a));
      if (bt == NULL) return lib_throw_tensor_error(vm);
      Tensor *r = ta ? ag_binary((BinaryOp)bop, lib_t(a), bt) : ag_binary((BinaryOp)bop, bt, lib_t(b));
      tensor_release(bt);
      return lib_wrap(vm, r);
    }
    if (bop >= 0 && (ta ? is_scalar_operand(b) : tb && is_scalar_operand(a))) {
      Value scalar = ta ? b : a;
      Tensor *t = promoted_for(bop, lib_t(ta ? a : b), scalar);
      if (t == NULL) return lib_throw_tensor_error(vm);
      Value r;
      if (ta) r = lib_wrap(vm, ag_binary_scalar((BinaryOp)bop, t, scalar_of(scalar)));
      else if (bop == BIN_POW) r = lib_scalar_pow(vm, scalar_of(scalar), t);
      else r = lib_wrap(vm, ag_scalar_binary((BinaryOp)bop, scalar_of(scalar), t));
      tensor_release(t);
      return r;
    }
  }
  /* A tensor equals nothing but tensors and numbers (t == nil is false). */
  if (op == OP_EQUAL) return FALSE_VAL;
  if (op == OP_NOT_EQUAL) return TRUE_VAL;
  return vm_raise(vm, VM_ERR_TYPE, "unsupported operand types for %s: '%s' and '%s'", vm_op_symbol(op),
                        vm_type_name(a), vm_type_name(b));
}

/* ~t: logical not of a bool tensor (a mask), bitwise not of an integer one
 * (-t - 1 in two's complement, wrapping in its dtype), as PyTorch's bitwise_not. */
static Value tensor_invert(AgVM *vm, Tensor *t) {
  if (t->dtype == DT_BOOL) return lib_wrap(vm, tensor_unary(UN_LOGICAL_NOT, t));
  if (dtype_kind(t->dtype) != DK_INT)
    return vm_throw_error(vm, "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
  Tensor *neg = tensor_unary(UN_NEG, t);
  Tensor *r = neg ? tensor_binary_scalar(BIN_SUB, neg, 1) : NULL;
  tensor_release(neg);
  return lib_wrap(vm, r);
}

static Value hook_unary(AgVM *vm, int op, Value a) {
  const char *symbol = vm_op_symbol(op);
  if (!IS_TENSOR(a)) return vm_raise(vm, VM_ERR_TYPE, "bad operand type for unary %s: '%s'", symbol, vm_type_name(a));
  lib_sync_line(vm);
  if (op == OP_INVERT) return tensor_invert(vm, lib_t(a));
  return lib_wrap(vm, ag_unary(UN_NEG, lib_t(a)));
}

static int hook_truthy(AgVM *vm, Value v) {
  if (IS_NODE(v)) return 1;
  Tensor *t = lib_t(v);
  if (t->numel == 1) return tensor_item(t) != 0;
  if (t->numel == 0) vm_throw_error(vm, "Boolean value of Tensor with no values is ambiguous");
  else vm_throw_error(vm, "Boolean value of Tensor with more than one value is ambiguous");
  return -1;
}

static bool hook_to_number(AgVM *vm, Value v, double *out) {
  if (!IS_TENSOR(v)) {
    vm_raise(vm, VM_ERR_TYPE, "a graph node is not a number");
    return false;
  }
  Tensor *t = lib_t(v);
  if (t->numel != 1) {
    vm_throw_error(vm, "unsupported format string passed to Tensor.__format__ "
                       "(only one-element tensors take a numeric format)");
    return false;
  }
  *out = tensor_item(t);
  return true;
}

static int64_t hook_length(AgVM *vm, Value v) {
  if (!IS_TENSOR(v)) {
    vm_raise(vm, VM_ERR_TYPE, "object of type 'node' has no len()");
    return -1;
  }
  Tensor *t = lib_t(v);
  if (t->ndim == 0) {
    vm_raise(vm, VM_ERR_TYPE, "len() of a 0-d tensor");
    return -1;
  }
  return t->shape[0];
}

/* PyTorch's repr plus the requires_grad / grad_fn suffix and, for a dual
 * tensor, tangent=REPR (a 0-d tangent: its number, as Python's format()). */
static char *repr_with_suffixes(Tensor *t) {
  char grad_fn[160];
  const char *extras[2];
  int nextras = 0;
  GradNode *fn = ag_grad_fn(t);
  if (fn != NULL) {
    snprintf(grad_fn, sizeof grad_fn, "grad_fn=<%s>", grad_node_name(fn));
    extras[nextras++] = grad_fn;
  } else if (ag_requires_grad(t)) {
    extras[nextras++] = "requires_grad=true";
  }
  Tensor *tangent = ag_fw_tangent(t);
  char *tangent_repr = NULL;
  if (tangent && tangent->ndim == 0) {
    char num[64];
    vm_format_float(tensor_item(tangent), num, sizeof num);
    tangent_repr = malloc(strlen(num) + 9);
    if (tangent_repr) sprintf(tangent_repr, "tangent=%s", num);
  } else if (tangent) {
    char *inner = repr_with_suffixes(tangent);
    tangent_repr = inner ? malloc(strlen(inner) + 9) : NULL;
    if (tangent_repr) sprintf(tangent_repr, "tangent=%s", inner);
    free(inner);
  }
  if (tangent_repr) extras[nextras++] = tangent_repr;
  char *s = tensor_repr(t, extras, nextras);
  free(tangent_repr);
  return s;
}

/* repr: PyTorch's, plus requires_grad / grad_fn / tangent suffixes. */
static Value hook_repr(AgVM *vm, Value v) {
  if (IS_NODE(v)) {
    GradNode *n = AS_NODE_OBJ(v)->node;
    return OBJ_VAL(obj_printf_string(vm, "<%s>", grad_node_name(n)));
  }
  char *s = repr_with_suffixes(lib_t(v));
  if (s == NULL) return lib_throw_tensor_error(vm);
  ObjString *str = AS_TENSOR_OBJ(v)->is_parameter
                       ? obj_printf_string(vm, "Parameter containing:\n%s", s)
                       : obj_copy_string(vm, s, (int)strlen(s));
  free(s);
  return OBJ_VAL(str);
}

/* ---- attributes and methods ---- */

/* x.T is permute(reversed dims) in PyTorch 1.13 (PermuteBackward0), for every rank. */
static Value attr_t(AgVM *vm, Tensor *t) {
  int perm[TENSOR_MAX_DIMS];
  for (int i = 0; i < t->ndim; i++) perm[i] = t->ndim - 1 - i;
  return lib_wrap(vm, ag_permute(t, perm, t->ndim));
}

static Value get_attribute(AgVM *vm, Value self, int id) {
  Tensor *t = lib_t(self);
  switch ((LibTensorAttr)id) {
  case ATTR_SHAPE: return lib_shape_list(vm, t->ndim, t->shape);
  case ATTR_NDIM: return INT_VAL(vm, t->ndim);
  case ATTR_DTYPE: return OBJ_VAL(vm_dtype(vm, t->dtype));
  case ATTR_REQUIRES_GRAD: return BOOL_VAL(ag_requires_grad(t));
  case ATTR_GRAD: return lib_get_grad(vm, self);
  case ATTR_GRAD_FN: return lib_node_value(vm, ag_grad_fn(t));
  case ATTR_IS_LEAF: return BOOL_VAL(ag_is_leaf(t));
  case ATTR_RETAINS_GRAD: return BOOL_VAL(ag_retains_grad(t));
  case ATTR_T_ATTR: lib_sync_line(vm); return attr_t(vm, t);
  case ATTR_DATA: return lib_wrap(vm, tensor_alias_unversioned(t));
  case ATTR_VERSION: return INT_VAL(vm, tensor_version(t));
  case ATTR_OUTPUT_NR: return INT_VAL(vm, ag_output_nr(t));
  case ATTR_DEVICE: return OBJ_VAL(obj_string(vm, "cpu")); /* the one device */
  case ATTR_IS_CUDA: return FALSE_VAL;
  case ATTR_ITEMSIZE: return INT_VAL(vm, (int64_t)dtype_size(t->dtype));
  case LIB_ATTR_COUNT: break;
  }
  return NIL_VAL;
}

static int lookup_id(AgVM *vm, ObjString *name) {
  Value id;
  if (!table_get(&lib_state(vm)->tensor_names, OBJ_VAL(name), &id)) return -1;
  return (int)AS_NUMBER(id);
}

/* AttributeError as PyTorch words it, with the closest attribute or method. */
static Value no_tensor_attribute(AgVM *vm, ObjString *name) {
  VmSuggest s;
  char hint[128];
  vm_suggest_begin(&s, name->chars);
  vm_suggest_add_table(&s, &lib_state(vm)->tensor_names);
  return vm_raise(vm, VM_ERR_ATTRIBUTE, "'Tensor' object has no attribute '%s'%s", name->chars,
                  vm_suggest_hint(&s, hint, sizeof hint));
}

static Value hook_get_attr(AgVM *vm, Value obj, ObjString *name) {
  if (IS_NODE(obj)) return lib_node_get_attr(vm, obj, name);
  int id = lookup_id(vm, name);
  if (id < 0) return no_tensor_attribute(vm, name);
  if (id < LIB_ATTR_COUNT) return get_attribute(vm, obj, id);
  ObjNative *m = lib_state(vm)->methods[id - LIB_ATTR_COUNT];
  return OBJ_VAL(obj_new_bound_method(vm, obj, OBJ_VAL(m)));
}

static Value set_requires_grad(AgVM *vm, Tensor *t, Value v) {
  bool flag;
  if (!lib_flag(vm, v, true, &flag)) return VM_EXCEPTION;
  if (flag && !ag_is_leaf(t)) /* requires_grad_() accepts this; the setter does not */
    return vm_throw_error(vm, "you can only change requires_grad flags of leaf variables.");
  if (!ag_set_requires_grad(t, flag)) return lib_throw_tensor_error(vm);
  return v;
}

/* t.data = src: t's elements become src's (its shape and dtype too); t
 * keeps its history flags, as PyTorch's set_data. */
static Value set_data(AgVM *vm, Tensor *t, Value v) {
  if (!IS_TENSOR(v)) return vm_throw_error(vm, "Variable data has to be a tensor, but got %s", vm_type_name(v));
  Tensor *src = lib_t(v);
  if (ag_requires_grad(t) && !dtype_is_float(src->dtype))
    return vm_throw_error(vm, "data set to a tensor that requires gradients must be floating point or complex dtype");
  return tensor_set_data(t, src) ? v : lib_throw_tensor_error(vm);
}

static Value hook_set_attr(AgVM *vm, Value obj, ObjString *name, Value v) {
  if (IS_NODE(obj)) return vm_raise(vm, VM_ERR_ATTRIBUTE, "cannot set attribute '%s' of a graph node", name->chars);
  int id = lookup_id(vm, name);
  if (id == ATTR_REQUIRES_GRAD) return set_requires_grad(vm, lib_t(obj), v);
  if (id == ATTR_GRAD) return lib_set_grad(vm, obj, v);
  if (id == ATTR_DATA) return set_data(vm, lib_t(obj), v);
  if (id < 0) return no_tensor_attribute(vm, name);
  return vm_raise(vm, VM_ERR_ATTRIBUTE, "attribute '%s' of 'Tensor' objects is not writable", name->chars);
}

/* Keywords may supply required parameters (x.unsqueeze(dim=0)), so the
 * minimum counts them; the natives themselves declare no minimum. */
static bool arity_ok(const LibFnDef *def, int argc, const AgKwargs *kw) {
  int given = argc + (kw != NULL ? kw->count : 0);
  return given >= def->min_args && (def->max_args < 0 || argc <= def->max_args);
}

static Value arity_error(AgVM *vm, const LibFnDef *def, int argc) {
  if (argc < def->min_args)
    return vm_raise(vm, VM_ERR_TYPE, "%s() takes at least %d argument%s (%d given)", def->name,
                          def->min_args, def->min_args == 1 ? "" : "s", argc);
  return vm_raise(vm, VM_ERR_TYPE, "%s() takes at most %d argument%s (%d given)", def->name, def->max_args,
                        def->max_args == 1 ? "" : "s", argc);
}

static Value hook_invoke(AgVM *vm, Value obj, ObjString *name, int argc, const Value *args,
                         const AgKwargs *kw) {
  if (IS_NODE(obj)) return lib_node_invoke(vm, obj, name, argc, args, kw);
  int id = lookup_id(vm, name);
  if (id >= LIB_ATTR_COUNT) {
    const LibFnDef *def = &fn_defs[id - LIB_ATTR_COUNT];
    if (!arity_ok(def, argc, kw)) return arity_error(vm, def, argc);
    return def->fn(vm, obj, argc, args, kw);
  }
  Value callee = hook_get_attr(vm, obj, name);
  if (IS_EXCEPTION(callee)) return callee;
  vm_push_root(vm, callee);
  Value r = vm_call_kw(vm, callee, argc, args, kw);
  vm_pop_root(vm);
  return r;
}

/* The method a OP= b calls on a tensor a (PyTorch's __iadd__ ... call add_ ...),
 * or NULL when op has none. */
static LibTensorImpl inplace_method(int op) {
  switch (op) {
  case OP_ADD: return lt_add_;
  case OP_SUBTRACT: return lt_sub_;
  case OP_MULTIPLY: return lt_mul_;
  case OP_DIVIDE: return lt_div_;
  case OP_MODULO: return lt_remainder_;
  case OP_POWER: return lt_pow_;
  case OP_FLOOR_DIVIDE: return lt_floor_divide_;
  default: return NULL;
  }
}

/* Calls the method directly: no name to intern and look up on every `+=`. */
static Value hook_inplace(AgVM *vm, int op, Value a, Value b) {
  LibTensorImpl method = inplace_method(op);
  return method ? method(vm, a, 1, &b, NULL) : UNDEF_VAL;
}

/* `for row in x`: PyTorch iterates x.unbind(0), so a tensor that requires
 * grad gives rows sharing one UnbindBackward0 node. Any other tensor is
 * iterated in place, row by row (no list of views up front). */
static Value hook_iter(AgVM *vm, Value obj) {
  if (!IS_TENSOR(obj)) return obj;
  Tensor *t = lib_t(obj);
  if (t->ndim == 0) return vm_raise(vm, VM_ERR_TYPE, "iteration over a 0-d tensor");
  if (!ag_is_grad_enabled() || !ag_requires_grad(t)) return obj;
  Tensor **out = NULL;
  lib_sync_line(vm);
  int n = ag_unbind(t, 0, &out);
  if (n < 0) return lib_throw_tensor_error(vm);
  return lib_tensor_list(vm, out, n);
}

static const AgTensorHooks tensor_hooks = {
    .binary = hook_binary,
    .unary = hook_unary,
    .truthy = hook_truthy,
    .get_index = lib_get_index,
    .set_index = lib_set_index,
    .get_attr = hook_get_attr,
    .set_attr = hook_set_attr,
    .invoke = hook_invoke,
    .inplace = hook_inplace,
    .length = hook_length,
    .iter = hook_iter,
    .repr = hook_repr,
    .to_number = hook_to_number,
};

/* ---- globals: sum(x, dim=0) is x.sum(dim=0) ---- */

static Value call_wrapped(AgVM *vm, ObjNative *orig, int argc, const Value *args,
                          const AgKwargs *kw) {
  if (argc < orig->min_args || (orig->max_args >= 0 && argc > orig->max_args))
    return vm_raise(vm, VM_ERR_TYPE, "%s() takes %d to %d arguments (%d given)", orig->name->chars,
                          orig->min_args, orig->max_args, argc);
  if (kw != NULL && kw->count > 0 && !orig->takes_kwargs)
    return vm_raise(vm, VM_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", orig->name->chars,
                          kw->names[0]->chars);
  return orig->fn(vm, NIL_VAL, argc, args, kw);
}

/* The argument counts of global `id`: the tensor and what follows it, or
 * those of the built-in it wraps. */
static void global_arity(AgVM *vm, int id, int *min_out, int *max_out) {
  const LibFnDef *def = &fn_defs[id];
  int min = 1, max = def->max_args < 0 ? -1 : def->max_args + 1;
  ObjNative *orig = lib_state(vm)->wrapped[id];
  if (orig != NULL) {
    if (orig->min_args < min) min = orig->min_args;
    if (max >= 0 && (orig->max_args < 0 || orig->max_args > max)) max = orig->max_args;
  }
  if (min_out != NULL) *min_out = min;
  if (max_out != NULL) *max_out = max;
}

/* The VM's message for a call of global `id` with `given` positional
 * arguments when it takes fewer or more. */
static Value count_error(AgVM *vm, int id, int given) {
  int min, max;
  global_arity(vm, id, &min, &max);
  const char *name = fn_defs[id].name, *were = given == 1 ? "was" : "were";
  if (min == max)
    return vm_raise(vm, VM_ERR_TYPE, "%s() takes %d argument%s but %d %s given", name, min,
                          min == 1 ? "" : "s", given, were);
  if (max < 0)
    return vm_raise(vm, VM_ERR_TYPE, "%s() takes at least %d argument%s but %d %s given", name, min,
                          min == 1 ? "" : "s", given, were);
  return vm_raise(vm, VM_ERR_TYPE, "%s() takes %d to %d arguments but %d %s given", name, min, max,
                        given, were);
}

/* The index of keyword `input` in kw, or -1. */
static int input_keyword(const AgKwargs *kw) {
  if (kw == NULL) return -1;
  for (int k = 0; k < kw->count; k++)
    if (strcmp(kw->names[k]->chars, "input") == 0) return k;
  return -1;
}

/* matmul(input=a, other=b): a global given its tensor as `input=` is called
 * as the method of that tensor with the other keywords. */
static Value dispatch_input_keyword(AgVM *vm, int id, int k, int argc, const Value *args,
                                    const AgKwargs *kw) {
  const LibFnDef *def = &fn_defs[id];
  ObjString *names[16];
  Value values[16];
  if (kw->count > 16) return vm_raise(vm, VM_ERR_TYPE, "%s(): too many keyword arguments", def->name);
  int n = 0;
  for (int i = 0; i < kw->count; i++) {
    if (i == k) continue;
    names[n] = kw->names[i];
    values[n++] = kw->values[i];
  }
  AgKwargs rest = {n, names, values};
  if (!arity_ok(def, argc, &rest)) return arity_error(vm, def, argc);
  return def->fn(vm, kw->values[k], argc, args, &rest);
}

static Value dispatch(AgVM *vm, int id, Value self, int argc, const Value *args,
                      const AgKwargs *kw) {
  const LibFnDef *def = &fn_defs[id];
  int input_k = input_keyword(kw);
  if (!IS_TENSOR(self)) { /* the global */
    if (argc == 0 && input_k >= 0 && IS_TENSOR(kw->values[input_k]))
      return dispatch_input_keyword(vm, id, input_k, argc, args, kw);
    int min, max;
    global_arity(vm, id, &min, &max);
    if (argc < min || (max >= 0 && argc > max)) return count_error(vm, id, argc);
  }
  if (IS_TENSOR(self)) {
    if (!arity_ok(def, argc, kw)) return arity_error(vm, def, argc);
    return def->fn(vm, self, argc, args, kw);
  }
  if (argc > 0 && IS_TENSOR(args[0])) {
    if (!arity_ok(def, argc - 1, kw)) return arity_error(vm, def, argc - 1);
    return def->fn(vm, args[0], argc - 1, args + 1, kw);
  }
  if (id == LT_pow && argc == 2 && IS_NUMBER(args[0]) && IS_TENSOR(args[1])) { /* pow(2, x) */
    lib_sync_line(vm);
    return lib_scalar_pow(vm, AS_NUMBER(args[0]), lib_t(args[1]));
  }
  ObjNative *orig = lib_state(vm)->wrapped[id];
  if (orig != NULL) return call_wrapped(vm, orig, argc, args, kw);
  return lib_type_error(vm, def->name, "input", argc > 0 ? args[0] : NIL_VAL);
}

#define FN_NATIVE(name, lo, hi, flags)                                                      \
  static Value nat_##name(AgVM *vm, Value self, int argc, const Value *args,                \
                          const AgKwargs *kw) {                                             \
    return dispatch(vm, LT_##name, self, argc, args, kw);                                   \
  }
LIB_TENSOR_FNS(FN_NATIVE)
#undef FN_NATIVE

static const AgNativeFn fn_natives[LT_COUNT] = {
#define FN_NATIVE_PTR(name, lo, hi, flags) nat_##name,
    LIB_TENSOR_FNS(FN_NATIVE_PTR)
#undef FN_NATIVE_PTR
};

static void add_name(AgVM *vm, Table *t, const char *name, int id) {
  ObjString *s = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(s));
  table_set(vm, t, OBJ_VAL(s), INT_VAL(vm, id));
  vm_pop_root(vm);
}

static void install_global(AgVM *vm, int id) {
  LibState *st = lib_state(vm);
  const LibFnDef *def = &fn_defs[id];
  Value existing;
  if ((def->flags & LF_W) && table_get(&vm->globals.builtins, OBJ_VAL(obj_string(vm, def->name)), &existing) &&
      IS_NATIVE(existing) && AS_NATIVE(existing)->fn != fn_natives[id]) {
    st->wrapped[id] = AS_NATIVE(existing);
  }
  /* any count for the VM: `matmul(input=a, other=b)` passes no positional
   * argument (dispatch checks the count) */
  vm_define_native(vm, def->name, fn_natives[id], 0, -1, true);
}

void lib_install_tensor(AgVM *vm) {
  LibState *st = lib_state(vm);
  map_operators(st);
  for (int i = 0; i < LIB_ATTR_COUNT; i++) add_name(vm, &st->tensor_names, attr_names[i], i);
  for (int id = 0; id < LT_COUNT; id++) {
    const LibFnDef *def = &fn_defs[id];
    if (def->flags & LF_M) {
      add_name(vm, &st->tensor_names, def->name, LIB_ATTR_COUNT + id);
      st->methods[id] = obj_new_native(vm, def->name, fn_natives[id], 0, def->max_args, true);
    }
    if (def->flags & LF_G) install_global(vm, id);
  }
  vm->plugins.tensor = &tensor_hooks;
}
