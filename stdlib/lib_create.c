/* lib_create.c — the global functions that make tensors: tensor(), zeros,
 * ones, full, *_like, rand, randn, randint, randperm, arange, linspace, eye,
 * cat, stack, where; and the dtype globals.
 *
 * Every creation function takes dtype= and requires_grad=; a shape is given
 * as numbers or as one list (zeros(2, 3) == zeros([2, 3])).
 */
#include <math.h>
#include <stdlib.h>

#include "stdlib/lib_internal.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

typedef struct {
  DType dtype;
  bool has_dtype;
  bool requires_grad;
  Value size; /* size= (UNDEF when absent): the shape as a keyword */
} Options;

/* dtype=, requires_grad=, device= and, when `sized` (a function whose
 * arguments are a shape), size= among the keywords, and nothing else. */
static bool sized_options(AgVM *vm, const char *fname, const AgKwargs *kw, bool sized, Options *o) {
  static const char *const names[] = {"dtype", "requires_grad", "device", "size"};
  Value v[4];
  o->dtype = DT_FLOAT32;
  o->has_dtype = false;
  if (!lib_bind(vm, fname, 0, NULL, kw, names, sized ? 4 : 3, v) || !lib_device(vm, v[2])) return false;
  if (!IS_UNDEF(v[0]) && !IS_NIL(v[0])) {
    if (!lib_dtype(vm, v[0], &o->dtype)) return false;
    o->has_dtype = true;
  }
  o->size = sized ? v[3] : UNDEF_VAL;
  return lib_flag(vm, v[1], false, &o->requires_grad);
}

static bool options(AgVM *vm, const char *fname, const AgKwargs *kw, Options *o) {
  return sized_options(vm, fname, kw, false, o);
}

/* Wraps a new tensor, making it require grad when asked. */
static Value finish(AgVM *vm, Tensor *t, const Options *o) {
  if (t == NULL) return lib_throw_tensor_error(vm);
  if (o->requires_grad && !dtype_is_float(t->dtype)) { /* torch.tensor's words */
    tensor_release(t);
    return vm_throw_error(vm, "Only Tensors of floating point and complex dtype can require gradients");
  }
  if (o->requires_grad && !ag_set_requires_grad(t, true)) {
    tensor_release(t);
    return lib_throw_tensor_error(vm);
  }
  return OBJ_VAL(obj_new_tensor(vm, t));
}

/* No negative sizes, in PyTorch's words. */
static bool check_shape(AgVM *vm, int ndim, const int64_t *shape) {
  for (int i = 0; i < ndim; i++) {
    if (shape[i] >= 0) continue;
    char buf[256];
    int n = 0;
    for (int j = 0; j < ndim && n < 200; j++)
      n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%lld", j ? ", " : "", (long long)shape[j]);
    vm_throw_error(vm, "Trying to create tensor with negative dimension %lld: [%s]",
                   (long long)shape[i], buf);
    return false;
  }
  return true;
}

static bool creation_shape(AgVM *vm, int argc, const Value *args, int *ndim, int64_t *shape) {
  if (!lib_shape(vm, argc, args, ndim, shape)) return false;
  return check_shape(vm, *ndim, shape);
}

/* The shape from the positional arguments or from size= (not both). */
static bool options_shape(AgVM *vm, const char *fname, const Options *o, int argc, const Value *args,
                          int *ndim, int64_t *shape) {
  if (IS_UNDEF(o->size)) return creation_shape(vm, argc, args, ndim, shape);
  if (argc > 0) {
    vm_raise(vm, VM_ERR_TYPE, "%s() got multiple values for argument 'size'", fname);
    return false;
  }
  return creation_shape(vm, 1, &o->size, ndim, shape);
}

HELP("tensor", HELP_TENSORS, 0,
     "tensor(data, dtype=nil, requires_grad=false, device=\"cpu\")",
     "A new tensor from a number, nested lists or another tensor (copied). Numbers give "
     "float32 and booleans bool unless dtype= says otherwise.",
     "print(tensor([[1, 2], [3, 4]]))\n"
     "print(tensor(3.5, requires_grad=true))")

static Value native_tensor(NATIVE_ARGS) {
  static const char *const names[] = {"data", "dtype", "requires_grad", "device"};
  Value v[4];
  Options o = {DT_FLOAT32, false, false, UNDEF_VAL};
  if (!lib_bind(vm, "tensor", argc, args, kw, names, 4, v) || !lib_device(vm, v[3])) return VM_EXCEPTION;
  if (IS_UNDEF(v[0])) return vm_raise(vm, VM_ERR_TYPE, "tensor() missing required argument 'data'");
  if (!IS_UNDEF(v[1]) && !IS_NIL(v[1])) {
    if (!lib_dtype(vm, v[1], &o.dtype)) return VM_EXCEPTION;
    o.has_dtype = true;
  }
  if (!lib_flag(vm, v[2], false, &o.requires_grad)) return VM_EXCEPTION;
  Tensor *t = lib_tensor_from_value(vm, v[0], o.has_dtype, o.dtype);
  if (t == NULL) return VM_EXCEPTION;
  return finish(vm, t, &o);
}

static Value filled(AgVM *vm, const char *fname, int argc, const Value *args, const AgKwargs *kw,
                    double value) {
  Options o;
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!sized_options(vm, fname, kw, true, &o) || !options_shape(vm, fname, &o, argc, args, &ndim, shape))
    return VM_EXCEPTION;
  return finish(vm, tensor_full(o.dtype, ndim, shape, value), &o);
}

HELP("zeros", HELP_TENSORS, 0,
     "zeros(...shape, dtype=float32, requires_grad=false)",
     "A tensor of zeros; the shape is given as numbers or as one list, or as size= "
     "(zeros, ones, empty, rand, randn and randint take it). Everywhere a function takes "
     "dim= or keepdim=, axis= and keepdims= are accepted too, as PyTorch's NumPy "
     "spellings.",
     "print(zeros(2, 3).shape, zeros([2]))")

static Value native_zeros(NATIVE_ARGS) { return filled(vm, "zeros", argc, args, kw, 0); }

HELP("ones", HELP_TENSORS, 0,
     "ones(...shape, dtype=float32, requires_grad=false)",
     "A tensor of ones; the shape is given as numbers or as one list.",
     "print(ones(2, 2))")

static Value native_ones(NATIVE_ARGS) { return filled(vm, "ones", argc, args, kw, 1); }

HELP("empty", HELP_TENSORS, 0,
     "empty(...shape, dtype=float32, requires_grad=false)",
     "A tensor to be filled, e.g. by uniform_ or normal_ (torch.empty). PyTorch leaves its "
     "elements uninitialised; Ag's are zeros.",
     "print(empty([], dtype=float64).uniform_(-1, 1).shape, empty(2, 3).shape)")

/* PyTorch leaves empty's elements uninitialised; Ag's are zeros, so a
 * program that reads them before writing still behaves the same every run. */
static Value native_empty(NATIVE_ARGS) { return filled(vm, "empty", argc, args, kw, 0); }

HELP("full", HELP_TENSORS, 0,
     "full(shape, value, dtype=nil, requires_grad=false)",
     "A tensor of the given shape filled with value.",
     "print(full([2, 2], 7))")

static Value native_full(NATIVE_ARGS) {
  double value;
  if (!lib_number(vm, args[1], "fill_value", &value)) return VM_EXCEPTION;
  Options o;
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!options(vm, "full", kw, &o) || !creation_shape(vm, 1, args, &ndim, shape)) return VM_EXCEPTION;
  /* the dtype of the fill value, as PyTorch: full([2], 7) is int64 */
  if (!o.has_dtype && IS_BOOL(args[1])) o.dtype = DT_BOOL;
  if (!o.has_dtype && IS_INT(args[1])) o.dtype = DT_INT64;
  return finish(vm, tensor_full(o.dtype, ndim, shape, value), &o);
}

/* zeros_like(t): t's shape and dtype unless dtype= says otherwise. */
static bool like(AgVM *vm, const char *fname, Value t, const AgKwargs *kw, Options *o) {
  if (!IS_TENSOR(t)) {
    lib_type_error(vm, fname, "input", t);
    return false;
  }
  if (!options(vm, fname, kw, o)) return false;
  if (!o->has_dtype) o->dtype = lib_t(t)->dtype;
  return true;
}

static Value filled_like(AgVM *vm, const char *fname, Value t, const AgKwargs *kw, double value) {
  Options o;
  if (!like(vm, fname, t, kw, &o)) return VM_EXCEPTION;
  return finish(vm, tensor_full(o.dtype, lib_t(t)->ndim, lib_t(t)->shape, value), &o);
}

HELP("zeros_like", HELP_TENSORS, 0,
     "zeros_like(t, dtype=nil, requires_grad=false)",
     "Zeros with the shape and dtype of t.",
     "print(zeros_like(ones(2, 3)).shape)")

static Value native_zeros_like(NATIVE_ARGS) { return filled_like(vm, "zeros_like", args[0], kw, 0); }

HELP("ones_like", HELP_TENSORS, 0,
     "ones_like(t, dtype=nil, requires_grad=false)",
     "Ones with the shape and dtype of t.",
     "print(ones_like(zeros(2)))")

static Value native_ones_like(NATIVE_ARGS) { return filled_like(vm, "ones_like", args[0], kw, 1); }

HELP("empty_like", HELP_TENSORS, 0,
     "empty_like(t, dtype=nil, requires_grad=false)",
     "empty with the shape and dtype of t (its elements zeros, see empty).",
     "print(empty_like(ones(2, 3)).shape)")

static Value native_empty_like(NATIVE_ARGS) { return filled_like(vm, "empty_like", args[0], kw, 0); }

HELP("full_like", HELP_TENSORS, 0,
     "full_like(t, value, dtype=nil, requires_grad=false)",
     "A tensor shaped like t filled with value.",
     "print(full_like(zeros(2), 5))")

static Value native_full_like(NATIVE_ARGS) {
  double value;
  if (!lib_number(vm, args[1], "fill_value", &value)) return VM_EXCEPTION;
  return filled_like(vm, "full_like", args[0], kw, value);
}

/* ---- x.new_zeros(...), x.new_tensor(...): x's dtype unless dtype= says otherwise ---- */

static Value new_filled(AgVM *vm, const char *fname, Value self, int argc, const Value *args,
                        const AgKwargs *kw, double value) {
  Options o;
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!sized_options(vm, fname, kw, true, &o) || !options_shape(vm, fname, &o, argc, args, &ndim, shape))
    return VM_EXCEPTION;
  if (!o.has_dtype) o.dtype = lib_t(self)->dtype;
  return finish(vm, tensor_full(o.dtype, ndim, shape, value), &o);
}

HELP("Tensor.new_zeros", HELP_TENSOR, 0,
     "t.new_zeros(...shape, dtype=nil, requires_grad=false)",
     "A new tensor with t's dtype unless dtype= says otherwise (new_tensor copies data, "
     "a tensor detached).",
     "let w = zeros(2, dtype=float64)\n"
     "print(w.new_zeros(2, 3).dtype, w.new_full([2], 7), w.new_tensor([1, 2]))")

Value lt_new_zeros(NATIVE_ARGS) { return new_filled(vm, "new_zeros", self, argc, args, kw, 0); }

HELP("Tensor.new_ones", HELP_TENSOR, 0,
     "t.new_ones(...shape, dtype=nil, requires_grad=false)",
     "Ones with t's dtype unless dtype= says otherwise.",
     "print(zeros(1, dtype=int64).new_ones(2))")

Value lt_new_ones(NATIVE_ARGS) { return new_filled(vm, "new_ones", self, argc, args, kw, 1); }

HELP("Tensor.new_empty", HELP_TENSOR, 0,
     "t.new_empty(...shape, dtype=nil, requires_grad=false)",
     "A tensor to fill with t's dtype (its elements zeros, see empty).",
     "print(zeros(1).new_empty(2, 2).shape)")

Value lt_new_empty(NATIVE_ARGS) { return new_filled(vm, "new_empty", self, argc, args, kw, 0); }

HELP("Tensor.new_full", HELP_TENSOR, 0,
     "t.new_full(shape, value, dtype=nil, requires_grad=false)",
     "A tensor filled with value, in t's dtype unless dtype= says otherwise.",
     "print(zeros(1, dtype=int64).new_full([2], 7.9))")

/* x.new_full(size, fill_value): the fill value converted to x's dtype */
Value lt_new_full(NATIVE_ARGS) {
  double value;
  if (!lib_number(vm, args[1], "fill_value", &value)) return VM_EXCEPTION;
  return new_filled(vm, "new_full", self, 1, args, kw, value);
}

HELP("Tensor.new_tensor", HELP_TENSOR, 0,
     "t.new_tensor(data, dtype=nil, requires_grad=false)",
     "tensor(data) in t's dtype unless dtype= says otherwise (a tensor is copied, detached).",
     "print(zeros(1, dtype=float64).new_tensor([1, 2]))")

/* x.new_tensor(data): a new tensor (a copy, detached, of a tensor) */
Value lt_new_tensor(NATIVE_ARGS) {
  Options o;
  if (!options(vm, "new_tensor", kw, &o)) return VM_EXCEPTION;
  Tensor *t = lib_tensor_from_value(vm, args[0], true, o.has_dtype ? o.dtype : lib_t(self)->dtype);
  return t == NULL ? VM_EXCEPTION : finish(vm, t, &o);
}

/* ---- the legacy constructors LongTensor, FloatTensor, DoubleTensor ---- */

/* LongTensor(data) converts a list (floats truncated), LongTensor(2, 3)
 * makes a tensor of that shape (zeros: Ag has no uninitialised memory),
 * LongTensor() an empty one; a tensor of the same dtype comes back as is. */
static Value legacy_tensor(AgVM *vm, const char *fname, DType dt, int argc, const Value *args,
                           const AgKwargs *kw) {
  static const char *const names[] = {"device"};
  Value v[1];
  if (!lib_bind(vm, fname, 0, NULL, kw, names, 1, v) || !lib_device(vm, v[0])) return VM_EXCEPTION;
  Options o = {dt, true, false, UNDEF_VAL};
  if (argc == 1 && IS_TENSOR(args[0])) {
    if (lib_t(args[0])->dtype == dt) return args[0];
    return vm_throw_error(vm, "%s(): expected a tensor of dtype %s, got %s", fname,
                          tensor_dtype_torch_name(dt), tensor_dtype_torch_name(lib_t(args[0])->dtype));
  }
  if (argc == 1 && IS_LIST(args[0])) {
    Tensor *t = lib_tensor_from_value(vm, args[0], true, dt);
    return t == NULL ? VM_EXCEPTION : finish(vm, t, &o);
  }
  int ndim = 1;
  int64_t shape[TENSOR_MAX_DIMS] = {0};
  if (argc > 0 && !creation_shape(vm, argc, args, &ndim, shape)) return VM_EXCEPTION;
  return finish(vm, tensor_full(dt, ndim, shape, 0), &o);
}

HELP("LongTensor", HELP_TENSORS, 0,
     "LongTensor(data) / LongTensor(...shape) / FloatTensor(...) / DoubleTensor(...)",
     "PyTorch's legacy constructors: a list converts to int64 (floats truncated), float32 "
     "or float64; numbers give a tensor of that shape (zeros: Ag leaves nothing "
     "uninitialised); no argument an empty one; a tensor of the same dtype comes back "
     "as it is.",
     "print(LongTensor([1.7, 2.2]), FloatTensor(2, 3).shape, DoubleTensor().shape)")

static Value native_long_tensor(NATIVE_ARGS) { return legacy_tensor(vm, "LongTensor", DT_INT64, argc, args, kw); }

HELP("FloatTensor", HELP_TENSORS, 0,
     "FloatTensor(data) / FloatTensor(...shape)",
     "LongTensor's float32 twin.",
     "print(FloatTensor([1, 2]), FloatTensor(2).shape)")

static Value native_float_tensor(NATIVE_ARGS) { return legacy_tensor(vm, "FloatTensor", DT_FLOAT32, argc, args, kw); }

HELP("DoubleTensor", HELP_TENSORS, 0,
     "DoubleTensor(data) / DoubleTensor(...shape)",
     "LongTensor's float64 twin.",
     "print(DoubleTensor([[1, 2]]))")

static Value native_double_tensor(NATIVE_ARGS) { return legacy_tensor(vm, "DoubleTensor", DT_FLOAT64, argc, args, kw); }

/* ---- random ---- */

/* dtype=, requires_grad= and generator= of the random creation functions. */
static bool random_options(AgVM *vm, const char *fname, const AgKwargs *kw, bool sized, Options *o,
                           TensorRng **rng) {
  static const char *const names[] = {"dtype", "requires_grad", "generator", "device", "size"};
  Value v[5];
  o->dtype = DT_FLOAT32;
  o->has_dtype = false;
  if (!lib_bind(vm, fname, 0, NULL, kw, names, sized ? 5 : 4, v) || !lib_device(vm, v[3])) return false;
  o->size = sized ? v[4] : UNDEF_VAL;
  if (!IS_UNDEF(v[0]) && !IS_NIL(v[0])) {
    if (!lib_dtype(vm, v[0], &o->dtype)) return false;
    o->has_dtype = true;
  }
  if (!lib_flag(vm, v[1], false, &o->requires_grad)) return false;
  return (*rng = lib_rng(vm, v[2], fname)) != NULL;
}

typedef Tensor *(*RandomFn)(TensorRng *, DType, int, const int64_t *);

static Value random_tensor(AgVM *vm, const char *fname, RandomFn fn, int argc, const Value *args,
                           const AgKwargs *kw) {
  Options o;
  TensorRng *rng;
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!random_options(vm, fname, kw, true, &o, &rng) || !options_shape(vm, fname, &o, argc, args, &ndim, shape))
    return VM_EXCEPTION;
  return finish(vm, fn(rng, o.dtype, ndim, shape), &o);
}

HELP("rand", HELP_TENSORS, 0,
     "rand(...shape, dtype=float32, requires_grad=false, generator=nil)",
     "Uniform random numbers in [0, 1): PyTorch's values for the same seed.",
     "manual_seed(0)\n"
     "print(rand(2).shape)")

static Value native_rand(NATIVE_ARGS) { return random_tensor(vm, "rand", tensor_rand, argc, args, kw); }

HELP("randn", HELP_TENSORS, 0,
     "randn(...shape, dtype=float32, requires_grad=false, generator=nil)",
     "Standard normal random numbers (PyTorch's values for the same seed).",
     "manual_seed(0)\n"
     "let w = randn(3, 2, requires_grad=true)\n"
     "print(w.shape)")

static Value native_randn(NATIVE_ARGS) { return random_tensor(vm, "randn", tensor_randn, argc, args, kw); }

/* rand_like and randn_like draw from the default generator (PyTorch's take no generator=). */
static Value random_like(AgVM *vm, const char *fname, RandomFn fn, Value t, const AgKwargs *kw) {
  Options o;
  if (!like(vm, fname, t, kw, &o)) return VM_EXCEPTION;
  TensorRng *rng = lib_rng(vm, NIL_VAL, fname);
  if (rng == NULL) return VM_EXCEPTION;
  return finish(vm, fn(rng, o.dtype, lib_t(t)->ndim, lib_t(t)->shape), &o);
}

HELP("rand_like", HELP_TENSORS, 0,
     "rand_like(t, dtype=nil, requires_grad=false)",
     "Uniform random numbers shaped like t.",
     "print(rand_like(zeros(2, 2)).shape)")

static Value native_rand_like(NATIVE_ARGS) { return random_like(vm, "rand_like", tensor_rand, args[0], kw); }

HELP("randn_like", HELP_TENSORS, 0,
     "randn_like(t, dtype=nil, requires_grad=false)",
     "Standard normal random numbers shaped like t.",
     "print(randn_like(zeros(3)).shape)")

static Value native_randn_like(NATIVE_ARGS) { return random_like(vm, "randn_like", tensor_randn, args[0], kw); }

HELP("randint", HELP_TENSORS, 0,
     "randint(low, high, shape, dtype=int64, generator=nil)",
     "Random integers in [low, high) of the given shape (a list).",
     "print(randint(0, 10, [4]).dtype)")

/* randint(low, high, shape) or randint(high, shape); the shape may be size=. */
static Value native_randint(NATIVE_ARGS) {
  int64_t low = 0, high;
  Options o;
  TensorRng *rng;
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!random_options(vm, "randint", kw, true, &o, &rng)) return VM_EXCEPTION;
  int nbounds = IS_UNDEF(o.size) ? argc - 1 : argc; /* the arguments before the shape */
  if (nbounds < 1 || nbounds > 2)
    return vm_throw_error(vm, "randint() takes (low, high, size) or (high, size)");
  if (nbounds == 2 && !lib_int(vm, args[0], "low", &low)) return VM_EXCEPTION;
  if (!lib_int(vm, args[nbounds - 1], "high", &high) ||
      !options_shape(vm, "randint", &o, argc - nbounds, args + nbounds, &ndim, shape))
    return VM_EXCEPTION;
  DType dt = o.has_dtype ? o.dtype : DT_INT64;
  return finish(vm, tensor_randint(rng, low, high, dt, ndim, shape), &o);
}

HELP("randperm", HELP_TENSORS, 0,
     "randperm(n, dtype=int64, generator=nil)",
     "A random permutation of 0 .. n-1 (for shuffling a dataset).",
     "print(sorted(randperm(4).tolist()))")

static Value native_randperm(NATIVE_ARGS) {
  int64_t n;
  Options o;
  TensorRng *rng;
  if (!lib_int(vm, args[0], "n", &n) || !random_options(vm, "randperm", kw, false, &o, &rng))
    return VM_EXCEPTION;
  return finish(vm, tensor_randperm(rng, n, o.has_dtype ? o.dtype : DT_INT64), &o);
}

HELP("device", HELP_BUILTINS, 0,
     "device(name)",
     "PyTorch's torch.device: Ag computes on the CPU only, so \"cpu\" is the one device "
     "(returned as is); any other is an error. Tensor functions take device=\"cpu\", and "
     "t.to(\"cpu\"), t.cpu(), module.to(\"cpu\") are the tensor or module itself.",
     "let dev = device(\"cpu\")\n"
     "print(zeros(2, device=dev).device)")

/* device("cpu"): the one device, as PyTorch's torch.device("cpu"). */
static Value native_device(NATIVE_ARGS) { return lib_device(vm, args[0]) ? args[0] : VM_EXCEPTION; }

/* ---- ranges ---- */

HELP("arange", HELP_TENSORS, 0,
     "arange(end) / arange(start, end, step=1, dtype=nil)",
     "Evenly spaced values in [start, end); int64 when all arguments are integral, like "
     "PyTorch.",
     "print(arange(4), arange(0, 1, 0.25))")

static Value native_arange(NATIVE_ARGS) {
  double a[3] = {0, 0, 1};
  for (int i = 0; i < argc; i++) {
    if (!lib_number(vm, args[i], "arange() argument", &a[i])) return VM_EXCEPTION;
  }
  double start = argc == 1 ? 0 : a[0], end = argc == 1 ? a[0] : a[1], step = argc == 3 ? a[2] : 1;
  Options o;
  if (!options(vm, "arange", kw, &o)) return VM_EXCEPTION;
  if (step == 0) return vm_raise(vm, VM_ERR_VALUE, "step must be nonzero");
  if ((step > 0 && end < start) || (step < 0 && end > start))
    return vm_throw_error(vm, "upper bound and larger bound inconsistent with step sign");
  /* int64 when every argument is an int, as PyTorch */
  bool all_ints = true;
  for (int i = 0; i < argc; i++) all_ints = all_ints && (IS_INT(args[i]) || IS_BOOL(args[i]));
  if (!o.has_dtype) o.dtype = all_ints ? DT_INT64 : DT_FLOAT32;
  return finish(vm, tensor_arange(start, end, step, o.dtype), &o);
}

HELP("linspace", HELP_TENSORS, 0,
     "linspace(start, end, steps)",
     "steps evenly spaced values from start to end, both included.",
     "print(linspace(0, 1, 5))")

static Value native_linspace(NATIVE_ARGS) {
  double start, end;
  int64_t steps;
  Options o;
  if (!lib_number(vm, args[0], "start", &start) || !lib_number(vm, args[1], "end", &end) ||
      !lib_int(vm, args[2], "steps", &steps) || !options(vm, "linspace", kw, &o))
    return VM_EXCEPTION;
  if (steps < 0) return vm_throw_error(vm, "number of steps must be non-negative");
  return finish(vm, tensor_linspace(start, end, steps, o.dtype), &o);
}

HELP("eye", HELP_TENSORS, 0,
     "eye(n, m=n, dtype=float32)",
     "The identity matrix (ones on the diagonal).",
     "print(eye(2))")

static Value native_eye(NATIVE_ARGS) {
  int64_t n, m;
  Options o;
  if (!lib_int(vm, args[0], "n", &n) || !options(vm, "eye", kw, &o)) return VM_EXCEPTION;
  m = n;
  if (argc == 2 && !IS_NIL(args[1]) && !lib_int(vm, args[1], "m", &m)) return VM_EXCEPTION;
  if (n < 0 || m < 0) return vm_throw_error(vm, "n must be greater or equal to 0, got %lld", (long long)(n < 0 ? n : m));
  return finish(vm, tensor_eye(n, m, o.dtype), &o);
}

/* ---- joining and selecting ---- */

/* The tensors of a list argument, borrowed; NULL after throwing. */
static Tensor **tensor_items(AgVM *vm, const char *fname, Value list, int *n) {
  if (!is_list_or_tuple(list)) {
    vm_raise(vm, VM_ERR_TYPE, "%s(): argument 'tensors' must be a list of tensors, not %s", fname,
                   vm_type_name(list));
    return NULL;
  }
  ObjList *l = AS_LIST(list);
  if (l->count == 0) {
    vm_throw_error(vm, "%s(): expected a non-empty list of Tensors", fname);
    return NULL;
  }
  Tensor **ts = malloc(sizeof(Tensor *) * (size_t)l->count);
  if (ts == NULL) {
    vm_raise(vm, VM_ERR_MEMORY, "out of memory");
    return NULL;
  }
  for (int i = 0; i < l->count; i++) {
    if (!IS_TENSOR(l->items[i])) {
      free(ts);
      vm_raise(vm, VM_ERR_TYPE, "%s(): expected Tensor as element %d in argument 0, but got %s", fname, i,
                     vm_type_name(l->items[i]));
      return NULL;
    }
    ts[i] = lib_t(l->items[i]);
  }
  *n = l->count;
  return ts;
}

static Value join(AgVM *vm, const char *fname, bool stack, int argc, const Value *args,
                  const AgKwargs *kw) {
  static const char *const names[] = {"tensors", "dim"};
  Value v[2];
  int dim = 0, n;
  if (!lib_bind(vm, fname, argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && !lib_dim(vm, v[1], &dim)) return VM_EXCEPTION;
  Tensor **ts = tensor_items(vm, fname, v[0], &n);
  if (ts == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *r = stack ? ag_stack(ts, n, dim) : ag_cat(ts, n, dim);
  free(ts);
  return lib_wrap(vm, r);
}

HELP("cat", HELP_TENSORS, 0,
     "cat(tensors, dim=0)",
     "Joins a list of tensors along an existing dimension (CatBackward0).",
     "print(cat([ones(2), zeros(1)]))")

static Value native_cat(NATIVE_ARGS) { return join(vm, "cat", false, argc, args, kw); }

HELP("stack", HELP_TENSORS, 0,
     "stack(tensors, dim=0)",
     "Stacks a list of same-shaped tensors along a new dimension (StackBackward0).",
     "print(stack([ones(2), zeros(2)]).shape)")

static Value native_stack(NATIVE_ARGS) { return join(vm, "stack", true, argc, args, kw); }

/* Appends one sublist's labels (ints in [0, 52): A-Z then a-z) to eq. */
static bool einsum_sublist(AgVM *vm, Value list, char *eq, size_t *len) {
  if (!is_list_or_tuple(list)) {
    vm_raise(vm, VM_ERR_TYPE, "einsum(): expected a list of subscripts, got %s", vm_type_name(list));
    return false;
  }
  ObjList *l = AS_LIST(list);
  for (int i = 0; i < l->count; i++) {
    int64_t n;
    if (!lib_int(vm, l->items[i], "a subscript", &n)) return false;
    if (n < 0 || n >= 52) {
      vm_throw_error(vm, "einsum(): subscript in subscript list is not within the valid range "
                         "[0, 52)");
      return false;
    }
    eq[(*len)++] = (char)(n < 26 ? 'A' + n : 'a' + n - 26);
  }
  return true;
}

/* einsum(a, [0, 1], b, [1, 2], [0, 2]): PyTorch's sublist form, each operand
 * followed by its subscripts as ints, the output's last (optional). */
static Value einsum_sublists(AgVM *vm, int argc, const Value *args) {
  int nops = argc / 2;
  size_t cap = 8;
  for (int i = 1; i < argc; i += 2)
    if (is_list_or_tuple(args[i])) cap += (size_t)AS_LIST(args[i])->count + 1;
  if (argc % 2 && is_list_or_tuple(args[argc - 1])) cap += (size_t)AS_LIST(args[argc - 1])->count;
  char *eq = malloc(cap);
  Tensor **ts = malloc(sizeof(Tensor *) * (size_t)(nops ? nops : 1));
  size_t len = 0;
  bool ok = eq && ts;
  if (!ok) vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  for (int i = 0; ok && i < nops; i++) {
    if (!IS_TENSOR(args[2 * i])) {
      vm_raise(vm, VM_ERR_TYPE, "einsum(): expected Tensor as operand %d, but got %s", i,
                     vm_type_name(args[2 * i]));
      ok = false;
      break;
    }
    ts[i] = lib_t(args[2 * i]);
    if (i > 0) eq[len++] = ',';
    ok = einsum_sublist(vm, args[2 * i + 1], eq, &len);
  }
  if (ok && argc % 2) {
    eq[len++] = '-';
    eq[len++] = '>';
    ok = einsum_sublist(vm, args[argc - 1], eq, &len);
  }
  Value result = VM_EXCEPTION;
  if (ok) {
    eq[len] = '\0';
    lib_sync_line(vm);
    result = lib_wrap(vm, ag_einsum(eq, ts, nops));
  }
  free(eq);
  free(ts);
  return result;
}

HELP("einsum", HELP_TENSORS, 0,
     "einsum(equation, a, b, ...) / einsum(equation, [a, b, ...]) / einsum(a, [0, 1], b, [1, 2], [0, 2])",
     "Einstein summation: \"ij,jk->ik\" names each operand's dims with letters (a-z, "
     "A-Z); letters missing after -> are summed over. Without -> the output is the letters "
     "used once, in alphabetical order. A letter repeated in one operand takes a diagonal "
     "(\"ii->i\"); \"...\" stands for dims that broadcast (\"...ij,...jk\"). Computed, "
     "as in PyTorch 1.13, by permute, diagonal, sum, mul and bmm, so the gradient and the "
     "graph's nodes are theirs. The sublist form gives each operand's subscripts as ints "
     "(0-25 for A-Z, 26-51 for a-z), the output's last.",
     "let a = tensor([[1.0, 2.0], [3.0, 4.0]])\n"
     "print(einsum(\"ij,jk->ik\", a, a), einsum(\"ii\", a), einsum(\"ij->j\", a))")

/* einsum(equation, *operands), einsum(equation, [operands]) or the sublist form */
static Value native_einsum(NATIVE_ARGS) {
  if (IS_TENSOR(args[0]) && argc >= 2) return einsum_sublists(vm, argc, args);
  if (!IS_STRING(args[0]))
    return vm_raise(vm, VM_ERR_TYPE, "einsum(): argument 'equation' must be str, not %s",
                          vm_type_name(args[0]));
  if (argc < 2)
    return vm_throw_error(vm, "einsum(): must specify the equation string and at least one "
                              "operand, or at least one operand and its subscripts list");
  Tensor **ts;
  int n = argc - 1;
  if (argc == 2 && is_list_or_tuple(args[1])) {
    ts = tensor_items(vm, "einsum", args[1], &n);
    if (ts == NULL) return VM_EXCEPTION;
  } else {
    ts = malloc(sizeof(Tensor *) * (size_t)n);
    if (ts == NULL) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
    for (int i = 0; i < n; i++) {
      if (!IS_TENSOR(args[1 + i])) {
        free(ts);
        return vm_raise(vm, VM_ERR_TYPE, "einsum(): expected Tensor as operand %d, but got %s", i,
                              vm_type_name(args[1 + i]));
      }
      ts[i] = lib_t(args[1 + i]);
    }
  }
  lib_sync_line(vm);
  Tensor *r = ag_einsum(AS_CSTRING(args[0]), ts, n);
  free(ts);
  return lib_wrap(vm, r);
}

HELP("where", HELP_TENSORS, 0,
     "where(cond, a, b)",
     "Elementwise a where cond is true, else b, broadcasting all three (WhereBackward0).",
     "let x = tensor([-1.0, 2.0])\n"
     "print(where(x > 0, x, zeros_like(x)))")

static Value native_where(NATIVE_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "where", "condition", args[0]);
  Tensor *cond = lib_t(args[0]);
  if (!dtype_is_mask(cond->dtype)) /* uint8: PyTorch 1.13 takes it, deprecated */
    return vm_throw_error(vm, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                          tensor_dtype_torch_name(cond->dtype));
  DType like_dt = IS_TENSOR(args[1]) ? lib_t(args[1])->dtype
                  : IS_TENSOR(args[2]) ? lib_t(args[2])->dtype : DT_FLOAT32;
  Tensor *a = lib_as_tensor(vm, args[1], like_dt, "where");
  if (a == NULL) return VM_EXCEPTION;
  Tensor *b = lib_as_tensor(vm, args[2], like_dt, "where");
  if (b == NULL) {
    tensor_release(a);
    return VM_EXCEPTION;
  }
  lib_sync_line(vm);
  Tensor *r = ag_where(cond, a, b);
  tensor_release(a);
  tensor_release(b);
  return lib_wrap(vm, r);
}

void lib_install_create(AgVM *vm) {
  vm_define_native(vm, "tensor", native_tensor, 1, 3, true);
  vm_define_native(vm, "zeros", native_zeros, 0, -1, true);
  vm_define_native(vm, "ones", native_ones, 0, -1, true);
  vm_define_native(vm, "empty", native_empty, 0, -1, true);
  vm_define_native(vm, "full", native_full, 2, 2, true);
  vm_define_native(vm, "zeros_like", native_zeros_like, 1, 1, true);
  vm_define_native(vm, "ones_like", native_ones_like, 1, 1, true);
  vm_define_native(vm, "empty_like", native_empty_like, 1, 1, true);
  vm_define_native(vm, "full_like", native_full_like, 2, 2, true);
  vm_define_native(vm, "rand", native_rand, 0, -1, true);
  vm_define_native(vm, "randn", native_randn, 0, -1, true);
  vm_define_native(vm, "rand_like", native_rand_like, 1, 1, true);
  vm_define_native(vm, "randn_like", native_randn_like, 1, 1, true);
  vm_define_native(vm, "randint", native_randint, 1, 3, true);
  vm_define_native(vm, "randperm", native_randperm, 1, 1, true);
  vm_define_native(vm, "device", native_device, 1, 1, false);
  vm_define_native(vm, "arange", native_arange, 1, 3, true);
  vm_define_native(vm, "linspace", native_linspace, 3, 3, true);
  vm_define_native(vm, "eye", native_eye, 1, 2, true);
  vm_define_native(vm, "cat", native_cat, 1, 2, true);
  vm_define_native(vm, "stack", native_stack, 1, 2, true);
  vm_define_native(vm, "where", native_where, 3, 3, false);
  vm_define_native(vm, "einsum", native_einsum, 1, -1, false);
  vm_define_native(vm, "LongTensor", native_long_tensor, 0, -1, true);
  vm_define_native(vm, "FloatTensor", native_float_tensor, 0, -1, true);
  vm_define_native(vm, "DoubleTensor", native_double_tensor, 0, -1, true);
  HELP("float32", HELP_BUILTINS, 0,
       "float32",
       "The default dtype: 32-bit float. Also spelled float.",
       "print(zeros(2).dtype == float32)")
  HELP("float64", HELP_BUILTINS, 0,
       "float64",
       "64-bit float dtype (also spelled double); gradcheck works in it.",
       "print(tensor([1, 2], dtype=float64))")
  HELP("int64", HELP_BUILTINS, 0,
       "int64",
       "64-bit integer dtype (also spelled long): labels, indices, arange of integers.",
       "print(arange(3).dtype)")
  HELP("int32", HELP_BUILTINS, 0,
       "int32",
       "32-bit integer dtype (PyTorch's torch.int32, torch.int; t.int() converts). "
       "Arithmetic wraps around on overflow as in PyTorch; sum() and prod() of it give "
       "int64.",
       "print(tensor([2147483647], dtype=int32) + 1)")
  HELP("int16", HELP_BUILTINS, 0,
       "int16",
       "16-bit integer dtype (also spelled short; t.short() converts). uint8 with int8 "
       "promotes to it.",
       "print(tensor([1], dtype=uint8) + tensor([-1], dtype=int8))")
  HELP("short", HELP_BUILTINS, 0,
       "short",
       "Another name for int16; t.short() converts a tensor to int16.",
       "print(tensor([1.7, 300.0]).short())")
  HELP("int8", HELP_BUILTINS, 0,
       "int8",
       "8-bit signed integer dtype (t.char() converts; wraps around: 127 + 1 is -128).",
       "print(tensor([127], dtype=int8) + 1)")
  HELP("uint8", HELP_BUILTINS, 0,
       "uint8",
       "8-bit unsigned integer dtype (t.byte() converts; images' pixels). Indexing with "
       "a uint8 tensor masks, as with a bool one (deprecated in PyTorch).",
       "print(tensor([250], dtype=uint8) + 10)")
  HELP("float16", HELP_BUILTINS, 0,
       "float16",
       "16-bit IEEE float dtype (also spelled half; t.half() converts): 11 significant "
       "bits, largest 65504. Each op computes in float32 and rounds its result to nearest "
       "even, as PyTorch's CPU kernels; it can require gradients.",
       "print(tensor([0.1, 70000.0], dtype=float16))")
  HELP("half", HELP_BUILTINS, 0,
       "half",
       "Another name for float16; t.half() converts a tensor to float16.",
       "print(ones(2).half())")
  HELP("bfloat16", HELP_BUILTINS, 0,
       "bfloat16",
       "Brain float dtype: float32's range with 8 significant bits (t.bfloat16() "
       "converts). Computed in float32 and rounded, as in PyTorch; NumPy files cannot "
       "hold it (.pt files can).",
       "print(tensor([1.0 / 3], dtype=bfloat16))")
  HELP("double", HELP_BUILTINS, HELP_TENSOR_METHOD,
       "double (dtype) / t.double()",
       "Another name for float64; as a method, converts a tensor to float64.",
       "print(ones(2).double())")
  HELP("long", HELP_BUILTINS, HELP_TENSOR_METHOD,
       "long (dtype) / t.long()",
       "Another name for int64; as a method, converts a tensor to int64 (truncating).",
       "print(tensor([1.7, -1.7]).long())")
  /* every dtype by its name, and PyTorch's other names for them (torch.int,
   * int32, is the torch module's: Ag's global int is the function) */
#define DTYPE_GLOBAL(e, name, ...) vm_define_builtin(vm, #name, OBJ_VAL(vm_dtype(vm, DT_##e)));
  AG_DTYPES(DTYPE_GLOBAL)
#undef DTYPE_GLOBAL
  static const struct { const char *name; DType dt; } aliases[] = {
      {"float", DT_FLOAT32}, {"double", DT_FLOAT64}, {"long", DT_INT64},
      {"short", DT_INT16},   {"half", DT_FLOAT16},
  };
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    vm_define_builtin(vm, aliases[i].name, OBJ_VAL(vm_dtype(vm, aliases[i].dt)));
}
