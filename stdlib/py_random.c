/* py_random.c — the generators of Python's `random` module and of NumPy's
 * legacy `numpy.random`: CPython 3.11's Mersenne Twister
 * (Modules/_randommodule.c), seeded as CPython seeds it from an int
 * (init_by_array over the 32-bit words of |n|), so that after random.seed(n)
 * every draw equals CPython's; NumPy's RandomState seeds the same generator
 * with init_genrand(n) and draws its doubles the same way. Independent of the
 * tensor generator (manual_seed does not touch them). The transformations
 * (randrange, choice, shuffle, sample, choices, gauss) are Lib/random.py's,
 * written in Ag in stdlib/random.ag on top of the natives here.
 *
 * A generator's state is a PyRandom kept in the storage of an int64 tensor
 * (as the tensor Generator's, lib_random.c): random.Random instances and the
 * module hold one each in a field, the collector frees it with its owner, and
 * every native takes it as its first argument and checks it first. */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stdlib/lib_internal.h"
#include "stdlib/py_modules.h"

#define MT_N 624
#define MT_M 397

typedef struct PyRandom {
  uint32_t mt[MT_N];
  int32_t index;
  int32_t has_gauss; /* NumPy's legacy gauss keeps the pair's second value */
  double gauss;
} PyRandom;

#define STATE_WORDS ((int64_t)((sizeof(PyRandom) + 7) / 8))

static void init_genrand(PyRandom *r, uint32_t s) {
  r->mt[0] = s;
  for (int i = 1; i < MT_N; i++)
    r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
  r->index = MT_N;
  r->has_gauss = 0;
  r->gauss = 0.0;
}

/* The reference mt19937ar init_by_array, as CPython seeds. */
static void init_by_array(PyRandom *r, const uint32_t *key, size_t length) {
  init_genrand(r, 19650218u);
  size_t i = 1, j = 0;
  for (size_t k = MT_N > length ? MT_N : length; k > 0; k--) {
    r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
    i++, j++;
    if (i >= MT_N) r->mt[0] = r->mt[MT_N - 1], i = 1;
    if (j >= length) j = 0;
  }
  for (size_t k = MT_N - 1; k > 0; k--) {
    r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
    i++;
    if (i >= MT_N) r->mt[0] = r->mt[MT_N - 1], i = 1;
  }
  r->mt[0] = 0x80000000u;
}

static uint32_t genrand_uint32(PyRandom *r) {
  static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
  if (r->index >= MT_N) {
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
      uint32_t y = (r->mt[kk] & 0x80000000u) | (r->mt[kk + 1] & 0x7fffffffu);
      r->mt[kk] = r->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
    }
    for (; kk < MT_N - 1; kk++) {
      uint32_t y = (r->mt[kk] & 0x80000000u) | (r->mt[kk + 1] & 0x7fffffffu);
      r->mt[kk] = r->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
    }
    uint32_t y = (r->mt[MT_N - 1] & 0x80000000u) | (r->mt[0] & 0x7fffffffu);
    r->mt[MT_N - 1] = r->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
    r->index = 0;
  }
  uint32_t y = r->mt[r->index++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= (y >> 18);
  return y;
}

/* The key is u in 32-bit words, least significant first ([0] for 0). */
static void seed_u64(PyRandom *r, uint64_t u) {
  uint32_t key[2] = {(uint32_t)u, (uint32_t)(u >> 32)};
  init_by_array(r, key, key[1] != 0 ? 2 : 1);
}

/* seed() / seed(nil): from the operating system's entropy, as CPython (the
 * clock and pid if /dev/urandom cannot be read). */
static void seed_from_os(PyRandom *r) {
  uint32_t key[MT_N];
  bool ok = false;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ok = read(fd, key, sizeof key) == (ssize_t)sizeof key;
    close(fd);
  }
  if (!ok) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    key[0] = (uint32_t)ts.tv_sec, key[1] = (uint32_t)ts.tv_nsec, key[2] = (uint32_t)getpid();
  }
  init_by_array(r, key, ok ? MT_N : 3);
}

/* _new_state(): a generator's state, seeded from the operating system. */
static Value native_new_state(NATIVE_ARGS) {
  int64_t words = STATE_WORDS;
  Tensor *t = tensor_zeros(DT_INT64, 1, &words);
  if (t == NULL) return lib_throw_tensor_error(vm);
  seed_from_os((PyRandom *)tensor_data(t));
  return lib_wrap(vm, t);
}

/* The PyRandom in state v; NULL after throwing when v is not one that
 * _new_state() made (a script can overwrite the field that holds it). */
static PyRandom *state_of(AgVM *vm, Value v) {
  if (IS_TENSOR(v)) {
    Tensor *t = lib_t(v);
    if (t->dtype == DT_INT64 && t->numel == STATE_WORDS && t->offset == 0 &&
        t->storage->nbytes >= (size_t)STATE_WORDS * 8) {
      PyRandom *r = (PyRandom *)tensor_data(t);
      if (r->index >= 0 && r->index <= MT_N) return r;
    }
  }
  vm_throw_error(vm, "this random generator's state (its _state field) was replaced or overwritten");
  return NULL;
}

/* random(): 53 random bits from two draws (27 and 26 bits), in [0, 1). */
static double random_double(PyRandom *r) {
  uint32_t a = genrand_uint32(r) >> 5, b = genrand_uint32(r) >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* getrandbits(k), 0 <= k <= 63: 32-bit words from the least significant up,
 * the last one keeping its top bits (CPython's order). */
static uint64_t random_bits(PyRandom *r, int k) {
  if (k <= 32) return k == 0 ? 0 : genrand_uint32(r) >> (32 - k);
  uint64_t low = genrand_uint32(r);
  uint64_t high = genrand_uint32(r) >> (64 - k);
  return low | (high << 32);
}

/* _randbelow(n) for n >= 1: getrandbits(n.bit_length()) until below n. */
static int64_t random_below(PyRandom *r, int64_t n) {
  int k = 64 - __builtin_clzll((uint64_t)n);
  uint64_t v = random_bits(r, k);
  while (v >= (uint64_t)n) v = random_bits(r, k);
  return (int64_t)v;
}

/* CPython's hash of a float (_Py_HashDouble, modulo the prime 2^61 - 1):
 * what seed(x) seeds with for a float x, so seed(3.0) is seed(3) and
 * seed(2.5) is CPython's seed(2.5). x is finite. */
static int64_t python_float_hash(double v) {
  const int bits = 61;
  const uint64_t modulus = ((uint64_t)1 << bits) - 1;
  int e;
  double m = frexp(v, &e);
  int sign = 1;
  if (m < 0) sign = -1, m = -m;
  uint64_t x = 0;
  while (m != 0) { /* 28 bits at a time */
    x = ((x << 28) & modulus) | x >> (bits - 28);
    m *= 268435456.0;
    e -= 28;
    uint64_t y = (uint64_t)m;
    m -= (double)y;
    x += y;
    if (x >= modulus) x -= modulus;
  }
  e = e >= 0 ? e % bits : bits - 1 - ((-1 - e) % bits);
  x = ((x << e) & modulus) | x >> (bits - e);
  int64_t h = (int64_t)x * sign;
  return h == -1 ? -2 : h;
}

/* _seed(state, a): CPython's seed(a) */
static Value native_seed(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  if (r == NULL) return VM_EXCEPTION;
  if (argc == 1 || IS_NIL(args[1])) {
    seed_from_os(r);
    return NIL_VAL;
  }
  /* an int seeds with |n|; anything else with its hash taken as unsigned */
  Value a = args[1];
  if (IS_BOOL(a)) {
    seed_u64(r, a == TRUE_VAL);
  } else if (IS_INT(a)) {
    int64_t n = AS_INT(a);
    seed_u64(r, n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n);
  } else if (IS_FLOAT(a) && !isnan(AS_FLOAT(a))) {
    double x = AS_FLOAT(a);
    seed_u64(r, (uint64_t)(isinf(x) ? (x > 0 ? 314159 : -314159) : python_float_hash(x)));
  } else {
    return vm_throw_error(vm, "random.seed() takes an int, a float or nil in Ag, not %s "
                              "(CPython also hashes strings)", vm_type_name(a));
  }
  return NIL_VAL;
}

static Value native_random(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  return r == NULL ? VM_EXCEPTION : FLOAT_VAL(random_double(r));
}

static Value native_getrandbits(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  int64_t k;
  if (r == NULL || !lib_int(vm, args[1], "getrandbits() argument", &k)) return VM_EXCEPTION;
  if (k < 0) return vm_throw_error(vm, "number of bits must be non-negative");
  if (k > 63) return vm_throw_error(vm, "getrandbits(%lld): Ag's ints hold at most 63 random bits",
                                    (long long)k);
  return INT_VAL(vm, (int64_t)random_bits(r, (int)k));
}

static Value native_randbelow(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  int64_t n;
  if (r == NULL || !lib_int(vm, args[1], "_randbelow() argument", &n)) return VM_EXCEPTION;
  if (n <= 0) return INT_VAL(vm, 0);
  return INT_VAL(vm, random_below(r, n));
}

/* getstate(): [3, [624 words and the index], gauss_next] as CPython's tuple
 * (version 3); the Ag side adds gauss_next. Here: the 625 ints. */
static Value native_getstate(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  if (r == NULL) return VM_EXCEPTION;
  ObjList *list = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(list));
  for (int i = 0; i < MT_N; i++) obj_list_append(vm, list, INT_VAL(vm, r->mt[i]));
  obj_list_append(vm, list, INT_VAL(vm, r->index));
  vm_pop_root(vm);
  return OBJ_VAL(list);
}

static Value native_setstate(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  if (r == NULL) return VM_EXCEPTION;
  if (!IS_LIST(args[1]) || AS_LIST(args[1])->count != MT_N + 1)
    return vm_throw_error(vm, "state vector is the wrong size (setstate wants what getstate gave)");
  const Value *items = AS_LIST(args[1])->items;
  int64_t words[MT_N + 1];
  for (int i = 0; i <= MT_N; i++) {
    if (!lib_int(vm, items[i], "state vector item", &words[i])) return VM_EXCEPTION;
    if (words[i] < 0 || words[i] > (i < MT_N ? 0xffffffffLL : MT_N))
      return vm_throw_error(vm, "invalid state: item %d is out of range", i);
  }
  for (int i = 0; i < MT_N; i++) r->mt[i] = (uint32_t)words[i];
  r->index = (int32_t)words[MT_N];
  return NIL_VAL;
}

void py_random_define(AgVM *vm, ObjModule *module) {
  static const PyNative natives[] = {
      {"_new_state", native_new_state, 0, 0},      {"_seed", native_seed, 1, 2},
      {"_random", native_random, 1, 1},            {"_getrandbits", native_getrandbits, 2, 2},
      {"_randbelow", native_randbelow, 2, 2},      {"_getstate", native_getstate, 1, 1},
      {"_setstate", native_setstate, 2, 2},
  };
  py_define_natives(vm, module, natives, sizeof natives / sizeof natives[0]);
}

/* ---- NumPy's legacy RandomState (numpy.random) ---- */

/* _np_seed(state, n): RandomState.seed(n) for 0 <= n < 2**32 (init_genrand) */
static Value native_np_seed(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  if (r == NULL) return VM_EXCEPTION;
  if (argc == 1 || IS_NIL(args[1])) {
    seed_from_os(r);
    r->has_gauss = 0;
    return NIL_VAL;
  }
  int64_t n;
  if (!lib_int(vm, args[1], "numpy.random.seed() argument", &n)) return VM_EXCEPTION;
  if (n < 0 || n > 0xffffffffLL) return vm_raise(vm, VM_ERR_VALUE, "Seed must be between 0 and 2**32 - 1");
  init_genrand(r, (uint32_t)n);
  return NIL_VAL;
}

/* NumPy's legacy_gauss: the polar method, keeping the pair's second value.
 * A pair falls outside the unit circle with probability 1 - pi/4, so 200
 * misses in a row only come from a state that draws no randomness (all
 * zero words, written into the state by hand): false then, never a hang. */
static bool np_gauss(PyRandom *r, double *out) {
  if (r->has_gauss) {
    r->has_gauss = 0;
    *out = r->gauss;
    return true;
  }
  double x1, x2, r2;
  int tries = 0;
  do {
    if (++tries > 200) return false;
    x1 = 2.0 * random_double(r) - 1.0;
    x2 = 2.0 * random_double(r) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = sqrt(-2.0 * log(r2) / r2);
  r->gauss = f * x1;
  r->has_gauss = 1;
  *out = f * x2;
  return true;
}

/* _np_draw(state, normal, shape): a float64 tensor of that shape filled in
 * order with random_sample() (normal false) or standard_normal() draws. */
static Value native_np_draw(NATIVE_ARGS) {
  PyRandom *r = state_of(vm, args[0]);
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  if (r == NULL || !lib_shape(vm, 1, &args[2], &ndim, shape)) return VM_EXCEPTION;
  Tensor *t = tensor_empty(DT_FLOAT64, ndim, shape);
  if (t == NULL) return lib_throw_tensor_error(vm);
  double *out = tensor_data(t);
  bool normal = args[1] == TRUE_VAL;
  for (int64_t i = 0; i < t->numel; i++) {
    if (!normal) {
      out[i] = random_double(r);
    } else if (!np_gauss(r, &out[i])) {
      tensor_release(t);
      return vm_throw_error(vm, "this random generator's state (its _state field) was overwritten: "
                                "it draws no random numbers");
    }
  }
  return lib_wrap(vm, t);
}

void py_numpy_define(AgVM *vm, ObjModule *module) {
  static const PyNative natives[] = {
      {"_new_state", native_new_state, 0, 0},
      {"_np_seed", native_np_seed, 1, 2},
      {"_np_draw", native_np_draw, 3, 3},
  };
  py_define_natives(vm, module, natives, sizeof natives / sizeof natives[0]);
}
