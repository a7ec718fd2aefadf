/* random.c — xoshiro256** (Blackman and Vigna) and the random tensor fills.
 *
 * The 256-bit state is seeded through splitmix64, as the xoshiro authors
 * advise, so nearby seeds give unrelated streams and the state is never all
 * zero. float64 uniforms take 53 random bits, float32 ones 24, so that every
 * value is exactly representable and strictly below 1 (a 53-bit double
 * rounded to float could otherwise become 1.0f).
 */
#include "tensor/random.h"
#include "tensor/iter.h"

#include <math.h>

/* ---- the generator ---- */

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void rng_seed(TensorRng *rng, uint64_t seed) {
  for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(TensorRng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double rng_uniform(TensorRng *rng) { return (double)(rng_next(rng) >> 11) * 0x1.0p-53; }

static float rng_uniform_f32(TensorRng *rng) { return (float)(rng_next(rng) >> 40) * 0x1.0p-24f; }

/* Box-Muller: two uniforms give two independent normals; u1 is taken from
 * (0, 1] so that log(u1) is finite. */
static void rng_normal_pair(TensorRng *rng, double *z0, double *z1) {
  double u1 = 1.0 - rng_uniform(rng);
  double u2 = rng_uniform(rng);
  double r = sqrt(-2.0 * log(u1));
  double theta = 2.0 * M_PI * u2;
  *z0 = r * cos(theta);
  *z1 = r * sin(theta);
}

double rng_normal(TensorRng *rng) {
  double z0, z1;
  rng_normal_pair(rng, &z0, &z1);
  return z0;
}

/* An unbiased integer in [0, range) (range >= 1): rejects the top sliver of
 * 64-bit values that would make a plain modulo favour small results. */
static uint64_t rng_below(TensorRng *rng, uint64_t range) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t x;
  do x = rng_next(rng);
  while (x >= limit);
  return x % range;
}

/* ---- filling tensors ---- */

/* Storage offset of the i-th element in row-major order, for strided views. */
static int64_t offset_of(const Tensor *t, int64_t i) {
  int64_t off = t->offset;
  for (int d = t->ndim - 1; d >= 0; d--) {
    if (t->shape[d] == 0) return off;
    off += (i % t->shape[d]) * t->stride[d];
    i /= t->shape[d];
  }
  return off;
}

static void store(Tensor *t, int64_t i, double v) {
  char *base = t->storage->data;
  int64_t off = tensor_is_contiguous(t) ? t->offset + i : offset_of(t, i);
  switch (t->dtype) {
  case DT_FLOAT32: ((float *)base)[off] = (float)v; break;
  case DT_FLOAT64: ((double *)base)[off] = v; break;
  case DT_INT64: ((int64_t *)base)[off] = (int64_t)v; break;
  default: ((uint8_t *)base)[off] = v != 0; break;
  }
}

/* v = lo + (hi - lo) * u, kept below hi even after rounding to float32. */
/* The fills stop early on Ctrl-C (every 2^20 elements); the caller then fails. */
static void fill_uniform(TensorRng *rng, Tensor *t, double lo, double hi) {
  for (int64_t i = 0; i < t->numel; i++) {
    if ((i & 0xFFFFF) == 0 && tensor_interrupt_requested) return;
    if (t->dtype == DT_FLOAT32) {
      float v = (float)(lo + (hi - lo) * rng_uniform_f32(rng));
      if (v >= (float)hi && hi > lo) v = nextafterf((float)hi, (float)lo);
      store(t, i, v);
    } else {
      store(t, i, lo + (hi - lo) * rng_uniform(rng));
    }
  }
}

static void fill_normal(TensorRng *rng, Tensor *t, double mean, double std) {
  for (int64_t i = 0; i < t->numel; i += 2) {
    if ((i & 0xFFFFF) == 0 && tensor_interrupt_requested) return;
    double z0, z1;
    rng_normal_pair(rng, &z0, &z1);
    store(t, i, mean + std * z0);
    if (i + 1 < t->numel) store(t, i + 1, mean + std * z1);
  }
}

static bool require_float(const char *what, DType dt) {
  if (dtype_is_float(dt)) return true;
  tensor_set_error("%s is only implemented for floating point dtypes, got %s", what,
                   dtype_name(dt));
  return false;
}

Tensor *tensor_rand(TensorRng *rng, DType dt, int ndim, const int64_t *shape) {
  if (!require_float("rand", dt)) return NULL;
  Tensor *t = tensor_empty(dt, ndim, shape);
  if (t) fill_uniform(rng, t, 0.0, 1.0);
  if (t && tensor_check_interrupt()) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

Tensor *tensor_randn(TensorRng *rng, DType dt, int ndim, const int64_t *shape) {
  if (!require_float("randn", dt)) return NULL;
  Tensor *t = tensor_empty(dt, ndim, shape);
  if (t) fill_normal(rng, t, 0.0, 1.0);
  if (t && tensor_check_interrupt()) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

Tensor *tensor_randint(TensorRng *rng, int64_t low, int64_t high, DType dt, int ndim,
                       const int64_t *shape) {
  if (low >= high) {
    tensor_set_error("random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                     (long long)low, (long long)high);
    return NULL;
  }
  if (dt == DT_BOOL && (low < 0 || high > 2)) {
    tensor_set_error("randint: [%lld, %lld) is out of range for dtype bool", (long long)low,
                     (long long)high);
    return NULL;
  }
  Tensor *t = tensor_empty(dt, ndim, shape);
  if (!t) return NULL;
  uint64_t range = (uint64_t)high - (uint64_t)low; /* fits: high > low */
  int64_t *ints = dt == DT_INT64 ? tensor_data(t) : NULL;
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t v = (int64_t)((uint64_t)low + rng_below(rng, range));
    if (ints)
      ints[i] = v; /* exact even beyond 2^53 */
    else
      store(t, i, (double)v);
  }
  return t;
}

Tensor *tensor_randperm(TensorRng *rng, int64_t n) {
  if (n < 0) {
    tensor_set_error("n must be non-negative, got %lld", (long long)n);
    return NULL;
  }
  Tensor *t = tensor_empty(DT_INT64, 1, &n);
  if (!t) return NULL;
  int64_t *p = tensor_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = i;
  /* Fisher-Yates: position i takes a uniform pick among the not yet placed */
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)rng_below(rng, (uint64_t)i + 1);
    int64_t tmp = p[i];
    p[i] = p[j];
    p[j] = tmp;
  }
  return t;
}

bool tensor_uniform_(TensorRng *rng, Tensor *t, double lo, double hi) {
  if (!require_float("uniform_", t->dtype)) return false;
  if (!(lo <= hi)) {
    tensor_set_error("uniform_ expects to return a [from, to) range, but found from=%g > to=%g",
                     lo, hi);
    return false;
  }
  if (!isfinite(hi - lo)) {
    tensor_set_error("uniform_ expects to-from to be finite, but got from=%g, to=%g", lo, hi);
    return false;
  }
  fill_uniform(rng, t, lo, hi);
  tensor_bump_version(t);
  return true;
}

bool tensor_normal_(TensorRng *rng, Tensor *t, double mean, double std) {
  if (!require_float("normal_", t->dtype)) return false;
  if (!(std >= 0.0)) {
    tensor_set_error("normal expects std >= 0.0, but found std %g", std);
    return false;
  }
  fill_normal(rng, t, mean, std);
  tensor_bump_version(t);
  return true;
}

Tensor *tensor_dropout_mask(TensorRng *rng, const Tensor *like, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    tensor_set_error("dropout probability has to be between 0 and 1, but got %g", p);
    return NULL;
  }
  DType dt = dtype_is_float(like->dtype) ? like->dtype : DT_FLOAT32;
  Tensor *mask = tensor_empty(dt, like->ndim, like->shape);
  if (!mask) return NULL;
  double keep = 1.0 - p;
  double scale = keep > 0 ? 1.0 / keep : 0.0; /* p == 1 drops everything */
  for (int64_t i = 0; i < mask->numel; i++) store(mask, i, rng_uniform(rng) < keep ? scale : 0.0);
  return mask;
}
