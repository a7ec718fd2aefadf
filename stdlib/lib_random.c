/* lib_random.c — generators and the random functions that are not creation
 * functions: Generator(), manual_seed, seed, initial_seed, get_rng_state,
 * set_rng_state, and the tensor functions bernoulli, bernoulli_, multinomial,
 * exponential_ (rand, randn, randint, randperm live with the other creation
 * functions in lib_create.c; normal_ and uniform_ with the in-place methods).
 *
 * A Generator is an instance of a native class whose one field holds a
 * tensor whose storage is the TensorRng (tensor/random.h): the collector
 * frees the state with the object, and the state never moves. The default
 * generator is one such instance, kept in the library state.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stdlib/lib_internal.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

/* ---- the Generator object ---- */

static bool is_generator(AgVM *vm, Value v) {
  return IS_INSTANCE(v) && AS_INSTANCE(v)->klass == lib_state(vm)->generator_class;
}

#define STATE_WORDS ((int64_t)((sizeof(TensorRng) + 7) / 8))

/* The TensorRng held by generator g; NULL after throwing when a script has
 * replaced the field that holds it (it is an ordinary field). */
static TensorRng *generator_rng(AgVM *vm, Value g) {
  Value t;
  if (!IS_INSTANCE(g) || !table_get(&AS_INSTANCE(g)->fields, OBJ_VAL(lib_state(vm)->s_state), &t) || !IS_TENSOR(t) ||
      lib_t(t)->dtype != DT_INT64 || lib_t(t)->numel != STATE_WORDS || lib_t(t)->offset != 0 ||
      lib_t(t)->storage->nbytes < (size_t)STATE_WORDS * 8 ||
      !rng_is_valid((const TensorRng *)tensor_data(lib_t(t)))) {
    vm_throw_error(vm, "this Generator's state (its _state field) was replaced or overwritten");
    return NULL;
  }
  return (TensorRng *)tensor_data(lib_t(t));
}

/* Gives inst a fresh state seeded with `seed`; false after throwing. */
static bool attach_state(AgVM *vm, ObjInstance *inst, uint64_t seed) {
  int64_t words = STATE_WORDS;
  Tensor *t = tensor_zeros(DT_INT64, 1, &words);
  if (t == NULL) {
    lib_throw_tensor_error(vm);
    return false;
  }
  rng_seed((TensorRng *)tensor_data(t), seed);
  vm_push_root(vm, OBJ_VAL(inst));
  Value tv = OBJ_VAL(obj_new_tensor(vm, t));
  vm_push_root(vm, tv);
  table_set(vm, &inst->fields, OBJ_VAL(lib_state(vm)->s_state), tv);
  vm_pop_roots(vm, 2);
  return true;
}

TensorRng *lib_rng(AgVM *vm, Value generator, const char *fname) {
  LibState *st = lib_state(vm);
  if (IS_UNDEF(generator) || IS_NIL(generator)) return generator_rng(vm, OBJ_VAL(st->default_generator));
  if (!is_generator(vm, generator)) {
    vm_raise(vm, VM_ERR_TYPE, "%s(): argument 'generator' must be Generator, not %s", fname,
                   vm_type_name(generator));
    return NULL;
  }
  return generator_rng(vm, generator);
}

/* A seed as PyTorch reads one: an integer in [-2^63, 2^64), a negative one
 * taken as its 64-bit two's complement. `truncate` is torch.manual_seed's
 * int(seed) (3.7 -> 3); Generator.manual_seed takes ints (and bools) only. */
static bool seed_value(AgVM *vm, Value v, bool truncate, uint64_t *out) {
  if (IS_BOOL(v) || IS_INT(v)) {
    *out = IS_BOOL(v) ? (uint64_t)AS_BOOL(v) : (uint64_t)AS_INT(v);
    return true;
  }
  if (!IS_NUMBER(v) || !truncate) {
    vm_raise(vm, VM_ERR_TYPE, "manual_seed expected a long, but got %s", IS_NUMBER(v) ? "float" : vm_type_name(v));
    return false;
  }
  double d = trunc(AS_NUMBER(v));
  if (isnan(d)) return vm_raise(vm, VM_ERR_VALUE, "cannot convert float NaN to integer"), false;
  if (d < -0x1.0p63 || d >= 0x1.0p64) {
    vm_throw_error(vm, "Overflow when unpacking long");
    return false;
  }
  *out = d < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
  return true;
}

/* A seed as a number: an int, or a float above Ag's largest int (2^63 - 1),
 * where PyTorch's Python int has no Ag equivalent. */
static Value seed_number(AgVM *vm, uint64_t seed) {
  return seed <= (uint64_t)INT64_MAX ? INT_VAL(vm, (int64_t)seed) : FLOAT_VAL((double)seed);
}

/* A fresh seed from the system (PyTorch reads /dev/urandom), cut to 53 bits
 * so that it stays exact wherever a script turns it into a float. */
static uint64_t nondeterministic_seed(void) {
  uint64_t s = 0;
  FILE *f = fopen("/dev/urandom", "rb");
  if (f != NULL) {
    if (fread(&s, sizeof s, 1, f) != 1) s = 0;
    fclose(f);
  }
  if (s == 0) s = (uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)clock();
  return s & ((UINT64_C(1) << 53) - 1);
}

static Value state_tensor(AgVM *vm, const TensorRng *rng) {
  int64_t n = TENSOR_RNG_STATE_BYTES;
  Tensor *t = tensor_empty(DT_INT64, 1, &n);
  if (t == NULL) return lib_throw_tensor_error(vm);
  uint8_t bytes[TENSOR_RNG_STATE_BYTES];
  rng_get_state(rng, bytes);
  int64_t *p = tensor_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = bytes[i];
  return lib_wrap(vm, t);
}

/* set_state(t): the bytes of get_state(), as an integer tensor (Ag has no
 * uint8 dtype: get_state gives int64 values 0..255). */
static Value set_state(AgVM *vm, TensorRng *rng, Value v) {
  if (!IS_TENSOR(v)) return vm_raise(vm, VM_ERR_TYPE, "expected a torch.ByteTensor, but got %s", vm_type_name(v));
  Tensor *t = lib_t(v);
  if (t->dtype != DT_INT64 && t->dtype != DT_BOOL)
    return vm_raise(vm, VM_ERR_TYPE, "RNG state must be a torch.ByteTensor");
  int64_t n = t->numel;
  uint8_t *bytes = malloc((size_t)(n > 0 ? n : 1));
  if (bytes == NULL) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  for (int64_t i = 0; i < n; i++) {
    double b = tensor_get_flat(t, i);
    if (b < 0 || b > 255) {
      free(bytes);
      return vm_raise(vm, VM_ERR_TYPE, "RNG state must be a torch.ByteTensor (values 0..255), got %g at %lld",
                            b, (long long)i);
    }
    bytes[i] = (uint8_t)b;
  }
  bool ok = rng_set_state(rng, bytes, n);
  free(bytes);
  return ok ? NIL_VAL : lib_throw_tensor_error(vm);
}

static Value native_generator_init(NATIVE_ARGS) {
  static const char *const names[] = {"device"};
  Value v[1];
  if (!lib_bind(vm, "Generator", argc, args, kw, names, 1, v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[0]) && !(IS_STRING(v[0]) && strcmp(AS_CSTRING(v[0]), "cpu") == 0))
    return vm_throw_error(vm, "Generator(): Ag's generators are on the cpu device only");
  return attach_state(vm, AS_INSTANCE(self), TENSOR_RNG_DEFAULT_SEED) ? NIL_VAL : VM_EXCEPTION;
}

static Value native_generator_manual_seed(NATIVE_ARGS) {
  uint64_t seed;
  TensorRng *rng = generator_rng(vm, self);
  if (rng == NULL || !seed_value(vm, args[0], false, &seed)) return VM_EXCEPTION;
  rng_seed(rng, seed);
  return self;
}

static Value native_generator_seed(NATIVE_ARGS) {
  TensorRng *rng = generator_rng(vm, self);
  if (rng == NULL) return VM_EXCEPTION;
  uint64_t seed = nondeterministic_seed();
  rng_seed(rng, seed);
  return seed_number(vm, seed);
}

static Value native_generator_initial_seed(NATIVE_ARGS) {
  TensorRng *rng = generator_rng(vm, self);
  return rng == NULL ? VM_EXCEPTION : seed_number(vm, rng->seed);
}

static Value native_generator_get_state(NATIVE_ARGS) {
  TensorRng *rng = generator_rng(vm, self);
  return rng == NULL ? VM_EXCEPTION : state_tensor(vm, rng);
}

static Value native_generator_set_state(NATIVE_ARGS) {
  TensorRng *rng = generator_rng(vm, self);
  if (rng == NULL) return VM_EXCEPTION;
  Value r = set_state(vm, rng, args[0]);
  return IS_EXCEPTION(r) ? r : self;
}

static Value native_generator_repr(NATIVE_ARGS) { return OBJ_VAL(obj_string(vm, "<Generator object>")); }

/* ---- the globals on the default generator ---- */

static Value default_generator(AgVM *vm) { return OBJ_VAL(lib_state(vm)->default_generator); }

HELP("manual_seed", HELP_TENSORS, 0,
     "manual_seed(seed)",
     "Seeds the default generator (and returns it): every random function then draws "
     "what PyTorch 1.13 draws after torch.manual_seed(seed). A negative seed is taken as "
     "its 64-bit two's complement, a fractional one truncated, as PyTorch does.",
     "manual_seed(0)\n"
     "print(randn(3))")

static Value native_manual_seed(NATIVE_ARGS) {
  uint64_t seed;
  TensorRng *rng = generator_rng(vm, default_generator(vm));
  if (rng == NULL || !seed_value(vm, args[0], true, &seed)) return VM_EXCEPTION;
  rng_seed(rng, seed);
  return default_generator(vm);
}

HELP("seed", HELP_TENSORS, 0,
     "seed()",
     "Seeds the default generator from /dev/urandom and returns the seed.",
     "print(seed() >= 0)")

static Value native_seed(NATIVE_ARGS) { return native_generator_seed(vm, default_generator(vm), argc, args, kw); }

HELP("initial_seed", HELP_TENSORS, 0,
     "initial_seed()",
     "The seed the default generator was last seeded with (67280421310721 when the "
     "script set none).",
     "manual_seed(7)\n"
     "print(initial_seed())")

static Value native_initial_seed(NATIVE_ARGS) {
  return native_generator_initial_seed(vm, default_generator(vm), argc, args, kw);
}

HELP("get_rng_state", HELP_TENSORS, 0,
     "get_rng_state()",
     "The default generator's state: PyTorch's 5056 state bytes, as an int64 tensor "
     "(Ag has no uint8 dtype).",
     "let s = get_rng_state()\n"
     "let a = rand(2)\n"
     "set_rng_state(s)\n"
     "print(rand(2) == a)")

static Value native_get_rng_state(NATIVE_ARGS) {
  return native_generator_get_state(vm, default_generator(vm), argc, args, kw);
}

HELP("set_rng_state", HELP_TENSORS, 0,
     "set_rng_state(state)",
     "Restores the default generator from get_rng_state()'s bytes (or PyTorch's).",
     "set_rng_state(get_rng_state())")

static Value native_set_rng_state(NATIVE_ARGS) {
  Value r = native_generator_set_state(vm, default_generator(vm), argc, args, kw);
  return IS_EXCEPTION(r) ? r : NIL_VAL;
}

/* ---- tensor functions ---- */

/* Binds (names..., generator) and returns the generator's state; NULL after throwing. */
static TensorRng *bind_with_generator(AgVM *vm, const char *fname, int argc, const Value *args,
                                      const AgKwargs *kw, const char *const *names, int n, Value *v) {
  if (!lib_bind(vm, fname, argc, args, kw, names, n, v)) return NULL;
  return lib_rng(vm, v[n - 1], fname);
}

static Value in_place_done(AgVM *vm, bool ok, Value self) { return ok ? self : lib_throw_tensor_error(vm); }

/* The fills below write values that do not depend on the old ones and
 * record no history, so they refuse what autograd would have to track
 * (under no_grad anything goes, as in PyTorch). */
static bool check_untracked(AgVM *vm, Tensor *t, const char *fname) {
  if (!ag_requires_grad(t) || !ag_is_grad_enabled()) return true;
  if (ag_is_leaf(t))
    vm_throw_error(vm, "a leaf Variable that requires grad is being used in an in-place operation.");
  else
    vm_throw_error(vm, "%s: writing random values into a tensor that requires grad is not supported", fname);
  return false;
}

HELP("Tensor.bernoulli_", HELP_TENSOR, 0,
     "t.bernoulli_(p=0.5, generator=nil)",
     "Fills t in place with 1 (probability p) or 0.",
     "print(zeros(3).bernoulli_(1.0))")

/* x.bernoulli_(p=0.5, generator=nil) */
Value lt_bernoulli_(NATIVE_ARGS) {
  static const char *const names[] = {"p", "generator"};
  Value v[2];
  TensorRng *rng = bind_with_generator(vm, "bernoulli_", argc, args, kw, names, 2, v);
  if (rng == NULL) return VM_EXCEPTION;
  double p = 0.5;
  if (!IS_UNDEF(v[0]) && !lib_number(vm, v[0], "p", &p)) return VM_EXCEPTION;
  if (!check_untracked(vm, lib_t(self), "bernoulli_")) return VM_EXCEPTION;
  return in_place_done(vm, tensor_bernoulli_(rng, lib_t(self), p), self);
}

HELP("bernoulli", HELP_TENSORS, 0,
     "bernoulli(p, generator=nil) / bernoulli(t, p=0.5)",
     "1 with probability p (each element of the tensor p, or the number p), else 0; "
     "p's dtype and shape.",
     "manual_seed(0)\n"
     "print(bernoulli(full([4], 0.5)))")

/* bernoulli(input, p=nil, generator=nil): 1 with probability input (or p) */
Value lt_bernoulli(NATIVE_ARGS) {
  static const char *const names[] = {"p", "generator"};
  Value v[2];
  TensorRng *rng = bind_with_generator(vm, "bernoulli", argc, args, kw, names, 2, v);
  if (rng == NULL) return VM_EXCEPTION;
  Tensor *x = lib_t(self);
  lib_sync_line(vm);
  if (IS_UNDEF(v[0]) || IS_NIL(v[0])) return lib_wrap(vm, tensor_bernoulli(rng, x));
  double p;
  if (!lib_number(vm, v[0], "p", &p)) return VM_EXCEPTION;
  Tensor *out = tensor_empty(x->dtype, x->ndim, x->shape);
  if (out == NULL) return lib_throw_tensor_error(vm);
  if (!tensor_bernoulli_(rng, out, p)) {
    tensor_release(out);
    return lib_throw_tensor_error(vm);
  }
  return lib_wrap(vm, out);
}

HELP("multinomial", HELP_TENSORS, 0,
     "multinomial(weights, num_samples, replacement=false, generator=nil)",
     "Indices drawn with probability proportional to weights (1-D, or one row per "
     "distribution in 2-D): without replacement each index at most once. int64.",
     "manual_seed(0)\n"
     "print(multinomial(tensor([0.1, 0.7, 0.2]), 5, replacement=true))")

/* multinomial(input, num_samples, replacement=false, generator=nil) */
Value lt_multinomial(NATIVE_ARGS) {
  static const char *const names[] = {"num_samples", "replacement", "generator"};
  Value v[3];
  TensorRng *rng = bind_with_generator(vm, "multinomial", argc, args, kw, names, 3, v);
  if (rng == NULL) return VM_EXCEPTION;
  int64_t n;
  bool replacement;
  if (IS_UNDEF(v[0])) return vm_raise(vm, VM_ERR_TYPE, "multinomial() missing required argument 'num_samples'");
  if (!lib_int(vm, v[0], "num_samples", &n) || !lib_flag(vm, v[1], false, &replacement))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, tensor_multinomial(rng, lib_t(self), n, replacement));
}

/* ---- normal(mean, std, size) ---- */

static bool std_ok(AgVM *vm, double std) {
  if (std >= 0.0) return true;
  vm_throw_error(vm, "normal expects std >= 0.0, but found std %g", std);
  return false;
}

static bool std_tensor_ok(AgVM *vm, const Tensor *std) {
  for (int64_t i = 0; i < std->numel; i++)
    if (!(tensor_get_flat(std, i) >= 0.0)) {
      vm_throw_error(vm, "normal expects all elements of std >= 0.0");
      return false;
    }
  return true;
}

/* normal(mean, std) with a tensor among them, as ATen: a standard normal
 * fill of the (broadcast) shape in mean's dtype (std's when mean is a
 * number), then * std, then + mean; with a number std, normal_(0, std) +
 * mean. */
static Tensor *normal_of_tensors(AgVM *vm, TensorRng *rng, Value mean, Value std) {
  Tensor *m = IS_TENSOR(mean) ? lib_t(mean) : NULL, *sd = IS_TENSOR(std) ? lib_t(std) : NULL;
  double mean_num = 0, std_num = 1;
  if ((!m && !lib_number(vm, mean, "mean", &mean_num)) || (!sd && !lib_number(vm, std, "std", &std_num)))
    return NULL;
  if ((sd && !std_tensor_ok(vm, sd)) || (!sd && !std_ok(vm, std_num))) return NULL;
  const Tensor *like = m ? m : sd;
  int ndim = like->ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  memcpy(shape, like->shape, sizeof shape);
  if (m && sd && !tensor_broadcast_shape(m->ndim, m->shape, sd->ndim, sd->shape, &ndim, shape)) {
    lib_throw_tensor_error(vm);
    return NULL;
  }
  Tensor *out = tensor_empty(like->dtype, ndim, shape);
  bool ok = out && tensor_normal_(rng, out, 0, sd ? 1 : std_num) && (!sd || tensor_binary_(BIN_MUL, out, sd)) &&
            (m ? tensor_binary_(BIN_ADD, out, m) : tensor_binary_scalar_(BIN_ADD, out, mean_num));
  if (!ok) {
    tensor_release(out);
    lib_throw_tensor_error(vm);
    return NULL;
  }
  return out;
}

HELP("normal", HELP_TENSORS, 0,
     "normal(mean, std, size) / normal(mean_t, std=1.0) / normal(mean, std_t) / normal(mean_t, std_t); generator=nil",
     "Normal random numbers, PyTorch's values for the same seed. With numbers mean and std, "
     "a tensor of the given size (dtype=, requires_grad= as zeros); with a tensor mean "
     "and/or std, one sample per element of their (broadcast) shape, in its dtype (the "
     "result records no history).",
     "manual_seed(0)\n"
     "print(normal(0.0, 1.0, [2]), normal(tensor([0.0, 10.0]), 0.1))")

/* normal(mean, std, size, generator=nil, dtype=float32, requires_grad=false):
 * PyTorch's overloads: number mean and std with a size; a tensor mean and/or
 * std (the other a tensor or a number, std 1 by default), no size. */
static Value native_normal(NATIVE_ARGS) {
  static const char *const names[] = {"mean", "std", "size", "generator", "dtype", "requires_grad", "device"};
  Value v[7];
  if (!lib_bind(vm, "normal", argc, args, kw, names, 7, v) || !lib_device(vm, v[6])) return VM_EXCEPTION;
  if (IS_UNDEF(v[0])) return vm_raise(vm, VM_ERR_TYPE, "normal() missing required argument 'mean'");
  TensorRng *rng = lib_rng(vm, v[3], "normal");
  if (rng == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  Value std = IS_UNDEF(v[1]) ? FLOAT_VAL(1.0) : v[1];
  if (IS_TENSOR(v[0]) || IS_TENSOR(std)) {
    if (!IS_UNDEF(v[2]) || !IS_UNDEF(v[4]) || !IS_UNDEF(v[5]))
      return vm_raise(vm, VM_ERR_TYPE, "normal() with a tensor mean or std takes no size=, dtype= or requires_grad=");
    Tensor *out = normal_of_tensors(vm, rng, v[0], std);
    return out ? lib_wrap(vm, out) : VM_EXCEPTION;
  }
  double mean, sd;
  if (!lib_number(vm, v[0], "mean", &mean) || !lib_number(vm, std, "std", &sd)) return VM_EXCEPTION;
  if (IS_UNDEF(v[2]))
    return vm_throw_error(vm, "normal() of a number mean and std needs a size (normal(mean, std, size))");
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  DType dt = DT_FLOAT32;
  bool requires_grad;
  if (!lib_shape(vm, 1, &v[2], &ndim, shape) || !lib_dtype(vm, v[4], &dt) ||
      !lib_flag(vm, v[5], false, &requires_grad) || !std_ok(vm, sd))
    return VM_EXCEPTION;
  Tensor *out = tensor_empty(dt, ndim, shape);
  if (out == NULL || !tensor_normal_(rng, out, mean, sd) || (requires_grad && !ag_set_requires_grad(out, true))) {
    tensor_release(out);
    return lib_throw_tensor_error(vm);
  }
  return lib_wrap(vm, out);
}

HELP("Tensor.exponential_", HELP_TENSOR, 0,
     "t.exponential_(lambd=1, generator=nil)",
     "Fills t in place with exponentially distributed numbers of rate lambd.",
     "print(zeros(3).exponential_().shape)")

/* x.exponential_(lambd=1, generator=nil) */
Value lt_exponential_(NATIVE_ARGS) {
  static const char *const names[] = {"lambd", "generator"};
  Value v[2];
  TensorRng *rng = bind_with_generator(vm, "exponential_", argc, args, kw, names, 2, v);
  if (rng == NULL) return VM_EXCEPTION;
  double lambda = 1.0;
  if (!IS_UNDEF(v[0]) && !lib_number(vm, v[0], "lambd", &lambda)) return VM_EXCEPTION;
  if (!check_untracked(vm, lib_t(self), "exponential_")) return VM_EXCEPTION;
  return in_place_done(vm, tensor_exponential_(rng, lib_t(self), lambda), self);
}

HELP("Tensor.random_", HELP_TENSOR, 0,
     "t.random_(generator=nil) / t.random_(to) / t.random_(from, to)",
     "Fills t in place with integers drawn uniformly from [from, to) (from defaults to "
     "0), or with no bounds from every integer the dtype holds exactly ([0, 2^63) for "
     "int64, [0, 2^24] for float32, [0, 2^53] for float64), drawn as PyTorch draws "
     "them.",
     "manual_seed(0)\n"
     "print(zeros(4, dtype=int64).random_(10))")

/* x.random_(), x.random_(to), x.random_(from, to), each with generator=:
 * integers as ATen draws them (tensor_random_) */
Value lt_random_(NATIVE_ARGS) {
  static const char *const names[] = {"from", "to", "generator"};
  Value v[3];
  TensorRng *rng = bind_with_generator(vm, "random_", argc, args, kw, names, 3, v);
  if (rng == NULL) return VM_EXCEPTION;
  bool bounded = !IS_UNDEF(v[0]) && !IS_NIL(v[0]);
  int64_t from = 0, to = 0;
  if (bounded) {
    Value hi = v[1], lo = v[0];
    if (IS_UNDEF(hi) || IS_NIL(hi)) { /* random_(to) */
      hi = lo;
      lo = INT_VAL(vm, 0);
    }
    if (!lib_int(vm, lo, "from", &from) || !lib_int(vm, hi, "to", &to)) return VM_EXCEPTION;
  }
  if (!check_untracked(vm, lib_t(self), "random_")) return VM_EXCEPTION;
  return in_place_done(vm, tensor_random_(rng, lib_t(self), bounded, from, to), self);
}

HELP("Tensor.erfinv_", HELP_TENSOR, 0,
     "t.erfinv_()",
     "The inverse error function of each element, in place (PyTorch's algorithm; "
     "records no graph).",
     "print(tensor([0.5]).erfinv_())")

/* x.erfinv_(): the inverse error function in place (no graph is recorded) */
Value lt_erfinv_(NATIVE_ARGS) {
  if (kw != NULL && kw->count > 0) return vm_raise(vm, VM_ERR_TYPE, "erfinv_() takes no keyword arguments");
  if (!check_untracked(vm, lib_t(self), "erfinv_")) return VM_EXCEPTION;
  return in_place_done(vm, tensor_erfinv_(lib_t(self)), self);
}

HELP("qr", HELP_TENSORS, 0,
     "qr(a)",
     "[Q, R], the reduced QR factorisation of a 2-D float matrix with rows >= columns "
     "(LAPACK's, so torch.linalg.qr's values); no derivative is recorded.",
     "let [q, r] = qr(tensor([[3.0, 1.0], [4.0, 2.0]]))\n"
     "print(r)")

/* qr(a): [Q, R], the reduced QR factorisation (torch.linalg.qr's values);
 * behind nn.init.orthogonal_. No derivative is recorded. */
static Value native_qr(NATIVE_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "qr", "input", args[0]);
  Tensor *a = lib_t(args[0]);
  if (ag_requires_grad(a) && ag_is_grad_enabled())
    return vm_throw_error(vm, "qr: Ag records no derivative for qr; call it under no_grad() or on a detached tensor");
  Tensor *q, *r;
  if (!tensor_qr(a, &q, &r)) return lib_throw_tensor_error(vm);
  Tensor **both = malloc(2 * sizeof *both);
  if (both == NULL) {
    tensor_release(q);
    tensor_release(r);
    return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  }
  both[0] = q;
  both[1] = r;
  return lib_tensor_list(vm, both, 2);
}

/* ---- installation ---- */

void lib_install_random(AgVM *vm) {
  LibState *st = lib_state(vm);
  st->s_state = obj_string(vm, "_state");
  ObjString *name = obj_string(vm, "Generator");
  vm_push_root(vm, OBJ_VAL(name));
  ObjClass *k = obj_new_class(vm, name);
  vm_pop_root(vm);
  st->generator_class = k;
  vm_add_method(vm, &k->methods, "init", native_generator_init, 0, 1, true);
  Value init;
  table_get(&k->methods, OBJ_VAL(obj_string(vm, "init")), &init);
  k->init = init;
  vm_add_method(vm, &k->methods, "manual_seed", native_generator_manual_seed, 1, 1, false);
  vm_add_method(vm, &k->methods, "seed", native_generator_seed, 0, 0, false);
  vm_add_method(vm, &k->methods, "initial_seed", native_generator_initial_seed, 0, 0, false);
  vm_add_method(vm, &k->methods, "get_state", native_generator_get_state, 0, 0, false);
  vm_add_method(vm, &k->methods, "set_state", native_generator_set_state, 1, 1, false);
  vm_add_method(vm, &k->methods, "repr", native_generator_repr, 0, 0, false); /* str() too */
  HELP("Generator", HELP_TENSORS, 0,
       "Generator(device=\"cpu\")",
       "A random generator of its own (seed 67280421310721), passed as generator= to rand, "
       "randn, randint, randperm, normal_, uniform_, bernoulli, multinomial, exponential_. "
       "Methods manual_seed(s) (returns it), seed(), initial_seed(), get_state(), "
       "set_state(t).",
       "let g = Generator().manual_seed(2147483647)\n"
       "print(randint(0, 27, [3], generator=g))")
  vm_define_builtin(vm, "Generator", OBJ_VAL(k));
  st->default_generator = obj_new_instance(vm, k);
  if (!attach_state(vm, st->default_generator, TENSOR_RNG_DEFAULT_SEED)) abort();
  HELP("default_generator", HELP_TENSORS, 0,
       "default_generator",
       "The Generator that manual_seed seeds and the random functions use by default.",
       "print(default_generator.initial_seed() == initial_seed())")
  vm_define_builtin(vm, "default_generator", OBJ_VAL(st->default_generator));
  vm_define_native(vm, "manual_seed", native_manual_seed, 1, 1, false);
  vm_define_native(vm, "normal", native_normal, 0, 3, true);
  vm_define_native(vm, "seed", native_seed, 0, 0, false);
  vm_define_native(vm, "initial_seed", native_initial_seed, 0, 0, false);
  vm_define_native(vm, "get_rng_state", native_get_rng_state, 0, 0, false);
  vm_define_native(vm, "set_rng_state", native_set_rng_state, 1, 1, false);
  vm_define_native(vm, "qr", native_qr, 1, 1, false);
}
