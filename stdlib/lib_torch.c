/* lib_torch.c — PyTorch's names that Ag's tensors lacked: Tensor (the type,
 * for isinstance, and the legacy float32 constructor), is_tensor,
 * set_printoptions, and numpy's bridge (NumPy's arrays are Ag's tensors,
 * stdlib/numpy.ag: from_numpy(a) and t.numpy() give the tensor itself, which
 * shares its storage as PyTorch's bridge does). */
#include <math.h>
#include <string.h>

#include "stdlib/lib_internal.h"
#include "tensor/print.h"

static Value builtin(AgVM *vm, const char *name) {
  Value v = NIL_VAL;
  table_get(&vm->globals.builtins, OBJ_VAL(obj_string(vm, name)), &v);
  return v;
}

HELP("Tensor", HELP_TENSORS, 0,
     "Tensor(data) / Tensor(...sizes)",
     "PyTorch's torch.Tensor: the type of every tensor, for isinstance(x, Tensor), and "
     "the legacy constructor: Tensor([1, 2]) is tensor([1, 2], dtype=float32), "
     "Tensor(2, 3) a float32 tensor of zeros of that shape (PyTorch leaves it "
     "uninitialised).",
     "print(isinstance(zeros(2), Tensor), Tensor([1, 2]))")

/* Tensor(data) is tensor(data, dtype=float32); Tensor(2, 3) or Tensor([2, 3]
 * as sizes) a float32 tensor of zeros of that shape (PyTorch leaves it
 * uninitialised); Tensor() an empty one. */
static Value native_Tensor(NATIVE_ARGS) {
  bool sizes = argc == 0 || IS_INT(args[0]);
  Value dtype = builtin(vm, "float32");
  ObjString *dtype_name = obj_string(vm, "dtype");
  vm_push_root(vm, OBJ_VAL(dtype_name));
  AgKwargs kwargs = {1, &dtype_name, &dtype};
  Value r;
  if (sizes) {
    Value zero = INT_VAL(vm, 0);
    r = vm_call_kw(vm, builtin(vm, "zeros"), argc == 0 ? 1 : argc, argc == 0 ? &zero : args, &kwargs);
  } else if (argc == 1) {
    r = vm_call_kw(vm, builtin(vm, "tensor"), 1, args, &kwargs);
  } else {
    r = vm_throw_error(vm, "Tensor() takes sizes (ints) or one list of data");
  }
  vm_pop_root(vm);
  return r;
}

HELP("is_tensor", HELP_TENSORS, 0,
     "is_tensor(x)",
     "Whether x is a tensor (PyTorch's torch.is_tensor).",
     "print(is_tensor(zeros(1)), is_tensor([1]))")

static Value native_is_tensor(NATIVE_ARGS) { return BOOL_VAL(IS_TENSOR(args[0])); }

/* A NumPy array cannot hold a graph: PyTorch's error for one that would. */
static Value numpy_view(AgVM *vm, Value t) {
  if (ag_requires_grad(lib_t(t)))
    return vm_throw_error(vm, "Can't call numpy() on Tensor that requires grad. "
                              "Use tensor.detach().numpy() instead.");
  return t;
}

HELP("from_numpy", HELP_TENSORS, 0,
     "from_numpy(a)",
     "PyTorch's torch.from_numpy: the tensor that shares a's storage. NumPy's arrays are "
     "Ag's tensors (see numpy), so it is a itself; a tensor that requires grad is "
     "PyTorch's error (an array holds no graph).",
     "let a = np.zeros(2)\n"
     "from_numpy(a)[0] = 1\n"
     "print(a)")

static Value native_from_numpy(NATIVE_ARGS) {
  if (!IS_TENSOR(args[0]))
    return vm_raise(vm, VM_ERR_TYPE, "expected np.ndarray (got %s)", vm_type_name(args[0]));
  return numpy_view(vm, args[0]);
}

static bool option_int(AgVM *vm, Value v, const char *name, int lo, int hi, int *out) {
  if (IS_UNDEF(v) || IS_NIL(v)) return true;
  int64_t n;
  if (!lib_int(vm, v, name, &n)) return false;
  if (n < lo || n > hi) {
    vm_throw_error(vm, "set_printoptions(): %s must be in [%d, %d], got %lld", name, lo, hi, (long long)n);
    return false;
  }
  *out = (int)n;
  return true;
}

/* Applies profile= first ("default", "short", "full"), then the others. */
static bool apply_profile(AgVM *vm, Value profile, TensorPrintOptions *o) {
  if (IS_UNDEF(profile) || IS_NIL(profile)) return true;
  const char *p = IS_STRING(profile) ? AS_CSTRING(profile) : "";
  TensorPrintOptions defaults = TENSOR_PRINT_DEFAULTS;
  if (strcmp(p, "default") == 0) *o = defaults;
  else if (strcmp(p, "short") == 0) o->precision = 2, o->threshold = 1000, o->edgeitems = 2, o->linewidth = 80;
  else if (strcmp(p, "full") == 0) o->precision = 4, o->threshold = INFINITY, o->edgeitems = 3, o->linewidth = 80;
  else {
    vm_throw_error(vm, "set_printoptions(): profile must be \"default\", \"short\" or \"full\"");
    return false;
  }
  return true;
}

HELP("set_printoptions", HELP_TENSORS, 0,
     "set_printoptions(precision=nil, threshold=nil, edgeitems=nil, linewidth=nil, profile=nil, sci_mode=nil)",
     "PyTorch's torch.set_printoptions for every tensor printed after it: digits after "
     "the point (default 4, at most 30), the element count above which a tensor is "
     "summarised with ... (1000; inf for never), the items kept at each end (3), the "
     "line width (80), profile=\"default\", \"short\" or \"full\" (applied first), sci_mode "
     "true/false to force or forbid scientific notation (nil or not given: chosen per "
     "tensor; PyTorch resets it on every call). Another option not given keeps its value.",
     "set_printoptions(precision=2)\n"
     "print(tensor([1.23456]))\n"
     "set_printoptions(profile=\"default\")")

/* set_printoptions(precision=, threshold=, edgeitems=, linewidth=, profile=,
 * sci_mode=): PyTorch's; an option not given keeps its value, but sci_mode,
 * which PyTorch resets to automatic. */
static Value native_set_printoptions(NATIVE_ARGS) {
  static const char *const names[] = {"precision", "threshold", "edgeitems", "linewidth", "profile", "sci_mode"};
  Value v[6];
  if (!lib_bind(vm, "set_printoptions", argc, args, kw, names, 6, v)) return VM_EXCEPTION;
  TensorPrintOptions o = tensor_print_options();
  if (!apply_profile(vm, v[4], &o)) return VM_EXCEPTION;
  if (!option_int(vm, v[0], "precision", 0, 30, &o.precision) ||
      !option_int(vm, v[2], "edgeitems", 0, 1000000, &o.edgeitems) ||
      !option_int(vm, v[3], "linewidth", 1, 1000000, &o.linewidth))
    return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && !IS_NIL(v[1]) && !lib_number(vm, v[1], "threshold", &o.threshold)) return VM_EXCEPTION;
  /* PyTorch sets sci_mode on every call: not given, it is automatic again */
  if (IS_UNDEF(v[5]) || IS_NIL(v[5])) o.sci_mode = -1;
  else if (IS_BOOL(v[5])) o.sci_mode = v[5] == TRUE_VAL;
  else return vm_raise(vm, VM_ERR_VALUE, "set_printoptions(): sci_mode must be true, false or nil");
  tensor_set_print_options(&o);
  return NIL_VAL;
}

HELP("numpy", HELP_BUILTINS, 0,
     "numpy / np",
     "The part of NumPy that PyTorch lessons use (also the global np and import numpy as "
     "np). Its arrays are Ag tensors with NumPy's default dtypes: float64 for floats, "
     "int64 for ints. array(x, dtype=nil) asarray float32 float64 int64 bool_ pi e inf "
     "nan; exp log log2 log10 log1p expm1 sqrt sin cos tan tanh arctan floor ceil abs "
     "sign square (a number for a number); maximum minimum clip dot matmul reshape "
     "transpose concatenate stack; sum mean max min argmax argmin (axis=); zeros ones "
     "empty full eye zeros_like ones_like arange linspace; save(file, a) load(file) (.npy); np.random (NumPy's legacy "
     "RandomState: seed rand randn random random_sample normal uniform, NumPy's numbers "
     "for a seed). from_numpy(a) and t.numpy() share the storage.",
     "np.random.seed(0)\n"
     "print(np.array([1.5, 2]), np.exp(1.0), np.random.rand())")
HELP("Tensor.numpy", HELP_TENSOR, 0,
     "t.numpy()",
     "The NumPy array of t: the tensor itself, since NumPy's arrays are Ag's tensors "
     "(PyTorch's t.numpy() shares the memory too). A tensor that requires grad is "
     "PyTorch's error: call t.detach().numpy().",
     "let t = arange(3)\n"
     "print(t.numpy())")

Value lt_numpy(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  return numpy_view(vm, self);
}

void lib_install_torch(AgVM *vm) {
  vm_define_native(vm, "Tensor", native_Tensor, 0, -1, false);
  vm_define_native(vm, "is_tensor", native_is_tensor, 1, 1, false);
  vm_define_native(vm, "from_numpy", native_from_numpy, 1, 1, false);
  vm_define_native(vm, "set_printoptions", native_set_printoptions, 0, 6, true);
}
