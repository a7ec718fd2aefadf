/* random.c — PyTorch 1.13's CPU random streams: the mt19937 engine, the
 * conversions of its draws into values, and the tensor fills in ATen's order.
 *
 * What ATen does, and so what this file does (PyTorch 1.13, x86-64 with AVX2,
 * no MKL — the Debian build and the pip wheels' default CPU path):
 *  - the engine is mt19937 seeded with the low 32 bits of the seed; a 64-bit
 *    draw is two 32-bit draws, the first in the high half;
 *  - float32 uniforms take the low 24 bits of one 32-bit draw, float64 ones
 *    the low 53 bits of a 64-bit draw, times 2^-24 / 2^-53, then
 *    x * (to - from) + from in the tensor's dtype, one fused multiply-add
 *    (GCC contracted it in ATen's FMA build, as it did Box-Muller's
 *    final r * cos(theta) * std + mean);
 *  - normal_ has three paths: a contiguous float32 tensor of 16 or more
 *    elements is filled with uniforms, then turned into normals 16 at a time
 *    by a vectorised Box-Muller (avx_mathfun's Cephes-derived log and sincos
 *    in 8 float lanes; when the size is not a multiple of 16, the last 16
 *    elements are drawn again and transformed again); a contiguous float64
 *    tensor of 16 or more takes the same shape with the C library's log,
 *    sqrt, cos and sin in double; anything else draws element by element in
 *    TensorIterator's order from normal_distribution<double>, which makes two
 *    normals per two 64-bit draws and caches the second in the generator
 *    (so randn(1) twice uses one pair, and manual_seed forgets the cache);
 *  - exponential_, bernoulli_ (scalar p) and multinomial's uniforms take
 *    53-bit doubles; bernoulli with a float32 tensor p compares a 24-bit
 *    float with each p; randint takes one 32-bit draw per value, a 64-bit one
 *    when the range is 2^32 or more, modulo the range; randperm swaps
 *    position i with i + (32-bit draw % (n - i)) from the front.
 * Element-by-element fills walk a strided tensor in memory order, as
 * TensorIterator does (a transposed tensor is filled along its storage).
 */
#include "tensor/random.h"
#include "tensor/tensor_internal.h"
#include "tensor/iter.h"
#include "tensor/ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RNG_X86 1
#endif

/* ---- the engine: mt19937 ---- */

#define MT_M 397
#define MT_MATRIX_A 0x9908b0dfU

void rng_seed(TensorRng *rng, uint64_t seed) {
  memset(rng, 0, sizeof *rng);
  rng->seed = seed;
  rng->state[0] = (uint32_t)seed;
  for (uint32_t j = 1; j < TENSOR_MT_N; j++)
    rng->state[j] = 1812433253U * (rng->state[j - 1] ^ (rng->state[j - 1] >> 30)) + j;
  rng->left = 1;
  rng->next = 0;
}

static inline uint32_t mt_twist(uint32_t u, uint32_t v) {
  uint32_t mixed = (u & 0x80000000U) | (v & 0x7fffffffU);
  return (mixed >> 1) ^ ((v & 1U) ? MT_MATRIX_A : 0U);
}

/* Regenerates all 624 words at once (the "Cokus" form of the reference code). */
static void mt_next_state(TensorRng *rng) {
  uint32_t *p = rng->state;
  int j;
  for (j = 0; j < TENSOR_MT_N - MT_M; j++) p[j] = p[j + MT_M] ^ mt_twist(p[j], p[j + 1]);
  for (; j < TENSOR_MT_N - 1; j++) p[j] = p[j + MT_M - TENSOR_MT_N] ^ mt_twist(p[j], p[j + 1]);
  p[TENSOR_MT_N - 1] = p[MT_M - 1] ^ mt_twist(p[TENSOR_MT_N - 1], p[0]);
  rng->left = TENSOR_MT_N;
  rng->next = 0;
}

uint32_t rng_next32(TensorRng *rng) {
  if (--rng->left == 0) mt_next_state(rng);
  uint32_t y = rng->state[rng->next++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

uint64_t rng_next64(TensorRng *rng) {
  uint64_t hi = rng_next32(rng);
  return (hi << 32) | rng_next32(rng);
}

/* The next n draws at once, exactly as n calls of rng_next32: the words
 * left in the state are tempered in one loop the compiler can vectorise.
 * (left - 1 words remain before the next twist; after a twist all 624 do.) */
/* GCC's -O2 leaves these loops scalar; they are the whole cost of rand().
 * (Clang vectorises at -O2 and has no optimize attribute.) */
#if defined(__GNUC__) && !defined(__clang__)
#define RNG_VECTORISE __attribute__((optimize("tree-vectorize")))
#else
#define RNG_VECTORISE
#endif

RNG_VECTORISE static void rng_fill32(TensorRng *rng, uint32_t *out, int64_t n) {
  while (n > 0) {
    if (rng->left == 1) {
      mt_next_state(rng);
      rng->left = TENSOR_MT_N + 1;
    }
    int64_t k = rng->left - 1;
    if (k > n) k = n;
    const uint32_t *w = rng->state + rng->next;
    for (int64_t i = 0; i < k; i++) {
      uint32_t y = w[i];
      y ^= y >> 11;
      y ^= (y << 7) & 0x9d2c5680U;
      y ^= (y << 15) & 0xefc60000U;
      out[i] = y ^ (y >> 18);
    }
    rng->next += (uint32_t)k;
    rng->left -= (int)k;
    out += k;
    n -= k;
  }
}

/* Draws are taken in blocks of this many 32-bit words (on the stack). */
#define DRAW_BLOCK 512

/* uniform_real_distribution's first step: the low mantissa-width bits scaled
 * into [0, 1). */
static inline float unit_float(uint32_t r) { return (float)(r & 0xffffffU) * 0x1.0p-24f; }
static inline double unit_double(uint64_t r) {
  return (double)(r & ((UINT64_C(1) << 53) - 1)) * 0x1.0p-53;
}

double rng_uniform(TensorRng *rng) { return unit_double(rng_next64(rng)); }

double rng_normal(TensorRng *rng, double mean, double std) {
  if (rng->has_next_double) {
    rng->has_next_double = false;
    return fma(rng->next_double, std, mean);
  }
  double u1 = rng_uniform(rng);
  double u2 = rng_uniform(rng);
  double r = sqrt(-2.0 * log(1.0 - u2));
  double theta = 2.0 * M_PI * u1;
  rng->next_double = r * sin(theta);
  rng->has_next_double = true;
  return fma(r * cos(theta), std, mean); /* val * std + mean, fused in ATen's build */
}

bool rng_is_valid(const TensorRng *rng) {
  uint8_t flags[2];
  memcpy(&flags[0], &rng->has_next_double, 1);
  memcpy(&flags[1], &rng->has_next_float, 1);
  return rng->left >= 1 && rng->left <= TENSOR_MT_N && rng->next <= TENSOR_MT_N &&
         (uint32_t)(rng->left - 1) <= TENSOR_MT_N - rng->next && flags[0] <= 1 && flags[1] <= 1;
}

/* ---- get_state / set_state: CPUGeneratorImplState's bytes ---- */

/* Offsets in the C struct PyTorch copies out (x86-64 / aarch64 layout). */
enum {
  ST_SEED = 0,          /* uint64 the_initial_seed */
  ST_LEFT = 8,          /* int left */
  ST_SEEDED = 12,       /* int seeded */
  ST_NEXT = 16,         /* uint64 next */
  ST_WORDS = 24,        /* uint64 state[624] */
  ST_NORMAL_X = 5016,   /* double, unused since PyTorch 1.5 */
  ST_NORMAL_Y = 5024,   /* double: the cached normal */
  ST_NORMAL_RHO = 5032, /* double, unused */
  ST_NORMAL_VALID = 5040,
  ST_FLOAT_NORMAL = 5048,
  ST_FLOAT_VALID = 5052,
};

static void put_bytes(uint8_t *out, int at, const void *v, size_t n) { memcpy(out + at, v, n); }
static void get_bytes(const uint8_t *in, int at, void *v, size_t n) { memcpy(v, in + at, n); }

void rng_get_state(const TensorRng *rng, uint8_t out[TENSOR_RNG_STATE_BYTES]) {
  memset(out, 0, TENSOR_RNG_STATE_BYTES);
  int32_t left = rng->left, seeded = 1, valid = rng->has_next_double;
  uint64_t next = rng->next;
  double normal = rng->has_next_double ? rng->next_double : 0.0;
  float fnormal = rng->has_next_float ? rng->next_float : 0.0f;
  put_bytes(out, ST_SEED, &rng->seed, 8);
  put_bytes(out, ST_LEFT, &left, 4);
  put_bytes(out, ST_SEEDED, &seeded, 4);
  put_bytes(out, ST_NEXT, &next, 8);
  for (int i = 0; i < TENSOR_MT_N; i++) {
    uint64_t w = rng->state[i];
    put_bytes(out, ST_WORDS + 8 * i, &w, 8);
  }
  put_bytes(out, ST_NORMAL_Y, &normal, 8);
  put_bytes(out, ST_NORMAL_VALID, &valid, 4);
  put_bytes(out, ST_FLOAT_NORMAL, &fnormal, 4);
  out[ST_FLOAT_VALID] = rng->has_next_float;
}

bool rng_set_state(TensorRng *rng, const uint8_t *in, int64_t n) {
  if (n != TENSOR_RNG_STATE_BYTES && n != TENSOR_RNG_LEGACY_STATE_BYTES) {
    tensor_set_error("Expected either a CPUGeneratorImplStateLegacy of size %d or a "
                     "CPUGeneratorImplState of size %d but found the input RNG state size to be %lld",
                     TENSOR_RNG_LEGACY_STATE_BYTES, TENSOR_RNG_STATE_BYTES, (long long)n);
    return false;
  }
  TensorRng r;
  memset(&r, 0, sizeof r);
  int32_t left, seeded, valid;
  uint64_t next;
  get_bytes(in, ST_SEED, &r.seed, 8);
  get_bytes(in, ST_LEFT, &left, 4);
  get_bytes(in, ST_SEEDED, &seeded, 4);
  get_bytes(in, ST_NEXT, &next, 8);
  get_bytes(in, ST_NORMAL_VALID, &valid, 4);
  /* mt19937_engine::is_valid (the engine keeps next as 32 bits) */
  if (!seeded || left <= 0 || left > TENSOR_MT_N || (uint32_t)next > TENSOR_MT_N) {
    tensor_set_error("Invalid mt19937 state");
    return false;
  }
  r.left = left;
  r.next = (uint32_t)next;
  for (int i = 0; i < TENSOR_MT_N; i++) {
    uint64_t w;
    get_bytes(in, ST_WORDS + 8 * i, &w, 8);
    r.state[i] = (uint32_t)w;
  }
  if (n == TENSOR_RNG_LEGACY_STATE_BYTES) {
    /* the legacy layout kept Box-Muller's inputs: the cached value is the sine */
    if (valid) {
      double x, rho;
      get_bytes(in, ST_NORMAL_X, &x, 8);
      get_bytes(in, ST_NORMAL_RHO, &rho, 8);
      r.has_next_double = true;
      r.next_double = rho * sin(2.0 * M_PI * x);
    }
    r.has_next_float = rng->has_next_float; /* not in the legacy layout: kept */
    r.next_float = rng->next_float;
  } else {
    if (valid) {
      r.has_next_double = true;
      get_bytes(in, ST_NORMAL_Y, &r.next_double, 8);
    }
    if (in[ST_FLOAT_VALID]) {
      r.has_next_float = true;
      get_bytes(in, ST_FLOAT_NORMAL, &r.next_float, 4);
    }
  }
  *rng = r;
  return true;
}

/* ---- walking a tensor in TensorIterator's order ---- */

/* Element offsets in the order TensorIterator visits an operand: dimensions
 * sorted by the strides of `order` (largest outside, ties in their given
 * order), so that its storage is walked forwards; row-major when `order` is
 * contiguous. The offsets are those of `target` (same shape), whose elements
 * are thereby visited in `order`'s sequence. */
typedef struct {
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS], index[TENSOR_MAX_DIMS];
  int64_t offset;
} MemoryWalk;

static void walk_init_as(MemoryWalk *w, const Tensor *order, const Tensor *target) {
  int64_t key[TENSOR_MAX_DIMS];
  w->ndim = 0;
  w->offset = target->offset;
  for (int d = 0; d < order->ndim; d++) {
    if (order->shape[d] == 1) continue;
    int k = w->ndim++;
    while (k > 0 && key[k - 1] < order->stride[d]) { /* insertion sort: ties keep order */
      key[k] = key[k - 1];
      w->shape[k] = w->shape[k - 1];
      w->stride[k] = w->stride[k - 1];
      k--;
    }
    key[k] = order->stride[d];
    w->shape[k] = order->shape[d];
    w->stride[k] = target->stride[d];
  }
  for (int d = 0; d < w->ndim; d++) w->index[d] = 0;
}

static void walk_init(MemoryWalk *w, const Tensor *t) { walk_init_as(w, t, t); }

/* The current offset, then steps to the next element. */
static int64_t walk_next(MemoryWalk *w) {
  int64_t at = w->offset;
  for (int d = w->ndim - 1; d >= 0; d--) {
    w->offset += w->stride[d];
    if (++w->index[d] < w->shape[d]) break;
    w->offset -= w->stride[d] * w->shape[d];
    w->index[d] = 0;
  }
  return at;
}

static void store_at(Tensor *t, int64_t off, double v) {
  char *base = t->storage->data;
  switch (t->dtype) {
  case DT_FLOAT32: ((float *)base)[off] = (float)v; break;
  case DT_FLOAT64: ((double *)base)[off] = v; break;
  case DT_INT64: ((int64_t *)base)[off] = (int64_t)v; break;
  default: tensor_store_double(t->dtype, base + (size_t)off * dtype_size(t->dtype), v); break;
  }
}

/* Calls draw(rng, ctx) once per element of t, in memory order, storing each
 * value; polls Ctrl-C every 2^20 elements (false: the caller fails). */
typedef double (*DrawFn)(TensorRng *rng, const void *ctx);

static bool fill_each(TensorRng *rng, Tensor *t, DrawFn draw, const void *ctx) {
  MemoryWalk w;
  walk_init(&w, t);
  for (int64_t i = 0; i < t->numel; i++) {
    if ((i & 0xFFFFF) == 0xFFFFF && tensor_check_interrupt()) return false;
    store_at(t, walk_next(&w), draw(rng, ctx));
  }
  return true;
}

static bool require_float(const char *kernel, DType dt) {
  if (dtype_is_float(dt)) return true;
  tensor_set_error("\"%s\" not implemented for '%s'", kernel, tensor_dtype_torch_name(dt));
  return false;
}

/* ---- uniform_ ---- */

typedef struct {
  float from32, span32;
  double from, span;
  int digits; /* float16 and bfloat16: the significand's bits */
} UniformCtx;

/* v rounded to float16 or bfloat16, as a float. */
static float half_or_bf16(DType dt, double v) {
  return dt == DT_FLOAT16 ? half_to_float(float_to_half((float)v)) : bf16_to_float(float_to_bf16((float)v));
}

static double draw_uniform32(TensorRng *rng, const void *ctx) {
  const UniformCtx *c = ctx;
  return fmaf(unit_float(rng_next32(rng)), c->span32, c->from32);
}

static double draw_uniform64(TensorRng *rng, const void *ctx) {
  const UniformCtx *c = ctx;
  return fma(unit_double(rng_next64(rng)), c->span, c->from);
}

/* Contiguous float32 uniforms, a block of draws at a time. rand (from 0, span
 * 1) needs no multiply-add: x * 1 + 0 is x. */
RNG_VECTORISE static void uniform_block_float(const uint32_t *r, float *p, int64_t k, float from, float span) {
  if (from == 0.0f && span == 1.0f) {
    for (int64_t i = 0; i < k; i++) p[i] = unit_float(r[i]);
  } else {
    for (int64_t i = 0; i < k; i++) p[i] = fmaf(unit_float(r[i]), span, from);
  }
}

static void uniform_block_double(const uint32_t *r, double *p, int64_t k, double from, double span) {
  for (int64_t i = 0; i < k; i++) {
    double x = unit_double(((uint64_t)r[2 * i] << 32) | r[2 * i + 1]);
    p[i] = from == 0.0 && span == 1.0 ? x : fma(x, span, from);
  }
}

/* The fills of float16 and bfloat16: drawn into a float32 temporary as a
 * float32 tensor draws, then rounded into t (PyTorch draws fewer bits for
 * them: these numbers are not its). */
typedef bool (*FillFn)(TensorRng *rng, Tensor *t, double a, double b);

static bool fill_widened(TensorRng *rng, Tensor *t, double a, double b, FillFn fill) {
  Tensor *wide = tensor_empty(dtype_compute(t->dtype), t->ndim, t->shape);
  bool ok = wide && fill(rng, wide, a, b) && tensor_copy_raw(t, wide);
  tensor_release(wide);
  return ok;
}

/* ATen's uniform_real_distribution for float16 and bfloat16: one 32-bit
 * draw, its low 11 (8) bits as a fraction, scaled in float and rounded. */
static double draw_uniform_narrow(TensorRng *rng, const void *ctx) {
  const UniformCtx *c = ctx;
  int digits = c->digits;
  float x = (float)(rng_next32(rng) & ((UINT32_C(1) << digits) - 1)) / (float)(UINT32_C(1) << digits);
  return fmaf(x, c->span32, c->from32);
}

static bool fill_uniform(TensorRng *rng, Tensor *t, double lo, double hi) {
  if (!dtype_is_native(t->dtype)) {
    /* from and to rounded to the dtype first, as ATen casts them */
    float from = half_or_bf16(t->dtype, lo), to = half_or_bf16(t->dtype, hi);
    UniformCtx c = {from, to - from, lo, hi - lo, t->dtype == DT_FLOAT16 ? 11 : 8};
    return fill_each(rng, t, draw_uniform_narrow, &c);
  }
  /* ATen casts from and to to the dtype first, then works in it */
  UniformCtx c = {(float)lo, (float)hi - (float)lo, lo, hi - lo, 0};
  if (!tensor_is_contiguous(t))
    return fill_each(rng, t, t->dtype == DT_FLOAT32 ? draw_uniform32 : draw_uniform64, &c);
  uint32_t r[DRAW_BLOCK];
  bool f32 = t->dtype == DT_FLOAT32;
  int64_t per_block = f32 ? DRAW_BLOCK : DRAW_BLOCK / 2;
  for (int64_t i = 0; i < t->numel; i += per_block) {
    if ((i & 0xFFFFF) == 0 && i > 0 && tensor_check_interrupt()) return false;
    int64_t k = t->numel - i < per_block ? t->numel - i : per_block;
    rng_fill32(rng, r, f32 ? k : 2 * k);
    if (f32)
      uniform_block_float(r, (float *)tensor_data(t) + i, k, c.from32, c.span32);
    else
      uniform_block_double(r, (double *)tensor_data(t) + i, k, c.from, c.span);
  }
  return true;
}

bool tensor_uniform_(TensorRng *rng, Tensor *t, double lo, double hi) {
  if (!require_float("check_uniform_bounds", t->dtype)) return false;
  if (!(lo <= hi)) {
    tensor_set_error("uniform_ expects to return a [from, to) range, but found from=%g > to=%g",
                     lo, hi);
    return false;
  }
  if (!isfinite(hi - lo)) {
    tensor_set_error("uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found "
                     "to=%g and from=%g which result in to-from to exceed the limit",
                     t->dtype == DT_FLOAT32 ? "float" : "double", hi, lo);
    return false;
  }
  bool ok = fill_uniform(rng, t, lo, hi);
  tensor_bump_version(t);
  return ok;
}

Tensor *tensor_rand(TensorRng *rng, DType dt, int ndim, const int64_t *shape) {
  if (!require_float("check_uniform_bounds", dt)) return NULL;
  Tensor *t = tensor_empty(dt, ndim, shape);
  if (t && !fill_uniform(rng, t, 0.0, 1.0)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

/* ---- normal_: the vectorised float32 path (avx_mathfun in 8 lanes) ---- */

/* ATen's AVX2 build transforms uniforms into normals with Garberoglio's
 * avx_mathfun.h (Cephes' logf and sincosf, after Pommier's sse_mathfun): the
 * functions below do the same float operations one lane at a time, in the
 * same order, so every machine gets PyTorch-on-AVX2's values. The constants
 * are Cephes' coefficients, rounded to float as avx_mathfun stores them.
 * GCC compiled avx_mathfun with FMA and contracted each multiply whose only
 * use is an add into one fused operation (the first multiply of an add of two
 * products): the fmaf calls mark exactly those; checked value for value
 * against PyTorch over 400,000 draws. */

static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* log(x) for x in (0, 1] (a uniform's complement): Cephes' logf. */
static float cephes_logf(float x) {
  bool invalid = x <= 0.0f;
  if (x < 0x1.0p-126f) x = 0x1.0p-126f; /* no subnormals */
  int32_t exponent = (int32_t)(f2u(x) >> 23) - 0x7f;
  x = u2f((f2u(x) & ~0x7f800000U) | f2u(0.5f)); /* mantissa in [0.5, 1) */
  float e = (float)exponent + 1.0f;
  bool small = x < (float)0.707106781186547524;
  float tmp = small ? x : 0.0f;
  x = x - 1.0f;
  e = e - (small ? 1.0f : 0.0f);
  x = x + tmp;
  float z = x * x;
  static const float p[9] = {
      (float)7.0376836292E-2,  (float)-1.1514610310E-1, (float)1.1676998740E-1,
      (float)-1.2420140846E-1, (float)1.4249322787E-1,  (float)-1.6668057665E-1,
      (float)2.0000714765E-1,  (float)-2.4999993993E-1, (float)3.3333331174E-1};
  float y = p[0];
  for (int i = 1; i < 9; i++) y = fmaf(y, x, p[i]);
  y = y * x;
  y = fmaf(y, z, e * (float)-2.12194440e-4);
  y = fmaf(-z, 0.5f, y);
  x = x + y;
  x = fmaf(e, 0.693359375f, x);
  return invalid ? u2f(0xffffffffU) : x;
}

/* sin and cos of x >= 0 together: Cephes' sinf/cosf with one reduction. */
static void cephes_sincosf(float x, float *s, float *c) {
  uint32_t sign_sin = f2u(x) & 0x80000000U;
  x = u2f(f2u(x) & 0x7fffffffU);
  float y = x * (float)1.27323954473516; /* 4 / pi */
  int32_t j = (int32_t)y;                /* truncates, as cvttps */
  j = (j + 1) & ~1;
  y = (float)j;
  uint32_t swap_sin = ((uint32_t)j & 4U) << 29;
  bool sin_poly = (j & 2) == 0; /* lanes where sine takes the sine polynomial */
  x = fmaf(y, -0.78515625f, x);
  x = fmaf(y, (float)-2.4187564849853515625e-4, x);
  x = fmaf(y, (float)-3.77489497744594108e-8, x);
  uint32_t sign_cos = (~(uint32_t)(j - 2) & 4U) << 29;
  sign_sin ^= swap_sin;
  float z = x * x;
  float yc = (float)2.443315711809948E-005;
  yc = fmaf(yc, z, (float)-1.388731625493765E-003);
  yc = fmaf(yc, z, (float)4.166664568298827E-002);
  yc = yc * z;
  yc = fmaf(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;
  float ys = (float)-1.9515295891E-4;
  ys = fmaf(ys, z, (float)8.3321608736E-3);
  ys = fmaf(ys, z, (float)-1.6666654611E-1);
  ys = ys * z;
  ys = fmaf(ys, x, x);
  float sin_part_s = sin_poly ? ys : 0.0f, sin_part_c = sin_poly ? 0.0f : yc;
  float cos_s = ys - sin_part_s, cos_c = yc - sin_part_c;
  *s = u2f(f2u(sin_part_c + sin_part_s) ^ sign_sin);
  *c = u2f(f2u(cos_c + cos_s) ^ sign_cos);
}

/* Box-Muller on 16 uniforms: lanes j and j + 8 become a pair of normals. */
static void normal16_float(float *data, float mean, float std) {
  const float two_pi = (float)(2.0 * M_PI), minus_two = -2.0f;
  for (int j = 0; j < 8; j++) {
    float u1 = 1.0f - data[j], u2 = data[j + 8];
    float radius = sqrtf(minus_two * cephes_logf(u1));
    float s, c;
    cephes_sincosf(two_pi * u2, &s, &c);
    data[j] = fmaf(radius * c, std, mean);
    data[j + 8] = fmaf(radius * s, std, mean);
  }
}

#ifdef RNG_X86
static bool cpu_has_avx2_fma(void) {
  static int has = -1; /* a benign race: every thread computes the same */
  if (has < 0) has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

/* normal16_float in 8 AVX2 lanes: the same operations, for speed only. */
#define V8(x) _mm256_set1_ps((float)(x))
__attribute__((target("avx2,fma"))) static __m256 cephes_logf8(__m256 x) {
  __m256 invalid = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LE_OS);
  x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));
  __m256i ex = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
  x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(~0x7f800000)));
  x = _mm256_or_ps(x, V8(0.5f));
  ex = _mm256_sub_epi32(ex, _mm256_set1_epi32(0x7f));
  __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(ex), V8(1.0f));
  __m256 small = _mm256_cmp_ps(x, V8(0.707106781186547524), _CMP_LT_OS);
  __m256 tmp = _mm256_and_ps(x, small);
  x = _mm256_sub_ps(x, V8(1.0f));
  e = _mm256_sub_ps(e, _mm256_and_ps(V8(1.0f), small));
  x = _mm256_add_ps(x, tmp);
  __m256 z = _mm256_mul_ps(x, x);
  static const float p[9] = {
      (float)7.0376836292E-2,  (float)-1.1514610310E-1, (float)1.1676998740E-1,
      (float)-1.2420140846E-1, (float)1.4249322787E-1,  (float)-1.6668057665E-1,
      (float)2.0000714765E-1,  (float)-2.4999993993E-1, (float)3.3333331174E-1};
  __m256 y = V8(p[0]);
  for (int i = 1; i < 9; i++) y = _mm256_fmadd_ps(y, x, V8(p[i]));
  y = _mm256_mul_ps(y, x);
  y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, V8(-2.12194440e-4)));
  y = _mm256_fnmadd_ps(z, V8(0.5f), y);
  x = _mm256_add_ps(x, y);
  x = _mm256_fmadd_ps(e, V8(0.693359375f), x);
  return _mm256_or_ps(x, invalid);
}

__attribute__((target("avx2,fma"))) static void cephes_sincosf8(__m256 x, __m256 *s, __m256 *c) {
  __m256 sign_mask = _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000));
  __m256 sign_sin = _mm256_and_ps(x, sign_mask);
  x = _mm256_andnot_ps(sign_mask, x);
  __m256 y = _mm256_mul_ps(x, V8(1.27323954473516));
  __m256i j = _mm256_cvttps_epi32(y);
  j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
  y = _mm256_cvtepi32_ps(j);
  __m256i four = _mm256_set1_epi32(4), two = _mm256_set1_epi32(2);
  __m256 swap_sin = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(j, four), 29));
  __m256 sin_poly = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(j, two), _mm256_setzero_si256()));
  x = _mm256_fmadd_ps(y, V8(-0.78515625f), x);
  x = _mm256_fmadd_ps(y, V8(-2.4187564849853515625e-4), x);
  x = _mm256_fmadd_ps(y, V8(-3.77489497744594108e-8), x);
  __m256 sign_cos = _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_andnot_si256(_mm256_sub_epi32(j, two), four), 29));
  sign_sin = _mm256_xor_ps(sign_sin, swap_sin);
  __m256 z = _mm256_mul_ps(x, x);
  __m256 yc = _mm256_fmadd_ps(V8(2.443315711809948E-005), z, V8(-1.388731625493765E-003));
  yc = _mm256_fmadd_ps(yc, z, V8(4.166664568298827E-002));
  yc = _mm256_mul_ps(yc, z);
  yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, V8(0.5f)));
  yc = _mm256_add_ps(yc, V8(1.0f));
  __m256 ys = _mm256_fmadd_ps(V8(-1.9515295891E-4), z, V8(8.3321608736E-3));
  ys = _mm256_fmadd_ps(ys, z, V8(-1.6666654611E-1));
  ys = _mm256_mul_ps(ys, z);
  ys = _mm256_fmadd_ps(ys, x, x);
  __m256 sin_s = _mm256_and_ps(sin_poly, ys), sin_c = _mm256_andnot_ps(sin_poly, yc);
  __m256 cos_s = _mm256_sub_ps(ys, sin_s), cos_c = _mm256_sub_ps(yc, sin_c);
  *s = _mm256_xor_ps(_mm256_add_ps(sin_c, sin_s), sign_sin);
  *c = _mm256_xor_ps(_mm256_add_ps(cos_c, cos_s), sign_cos);
}

__attribute__((target("avx2,fma"))) static void normal16_float_avx2(float *data, float mean, float std) {
  __m256 u1 = _mm256_sub_ps(V8(1.0f), _mm256_loadu_ps(data));
  __m256 u2 = _mm256_loadu_ps(data + 8);
  __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(V8(-2.0f), cephes_logf8(u1)));
  __m256 s, c;
  cephes_sincosf8(_mm256_mul_ps(V8(2.0 * M_PI), u2), &s, &c);
  _mm256_storeu_ps(data, _mm256_fmadd_ps(_mm256_mul_ps(radius, c), V8(std), V8(mean)));
  _mm256_storeu_ps(data + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, s), V8(std), V8(mean)));
}
#undef V8
#endif

/* Box-Muller on 16 float64 uniforms with the C library (ATen's normal_fill_16). */
static void normal16_double(double *data, double mean, double std) {
  for (int j = 0; j < 8; j++) {
    double u1 = 1.0 - data[j], u2 = data[j + 8];
    double radius = sqrt(-2.0 * log(u1));
    double theta = 2.0 * M_PI * u2, sin_t, cos_t;
#ifdef __GLIBC__
    sincos(theta, &sin_t, &cos_t); /* glibc's sin and cos, in one call as GCC makes it */
#else
    sin_t = sin(theta);
    cos_t = cos(theta);
#endif
    data[j] = fma(radius * cos_t, std, mean); /* GCC fused these in ATen's build */
    data[j + 8] = fma(radius * sin_t, std, mean);
  }
}

/* The uniforms of a float fill: all n drawn first, as ATen does (false on Ctrl-C). */
RNG_VECTORISE static bool uniforms_float(TensorRng *rng, float *p, int64_t n) {
  uint32_t r[DRAW_BLOCK];
  for (int64_t i = 0; i < n; i += DRAW_BLOCK) {
    if ((i & 0xFFFFF) == 0 && i > 0 && tensor_check_interrupt()) return false;
    int64_t k = n - i < DRAW_BLOCK ? n - i : DRAW_BLOCK;
    rng_fill32(rng, r, k);
    for (int64_t j = 0; j < k; j++) p[i + j] = unit_float(r[j]);
  }
  return true;
}

static bool normal_fill_float(TensorRng *rng, float *p, int64_t n, float mean, float std) {
  if (!uniforms_float(rng, p, n)) return false;
#ifdef RNG_X86
  if (cpu_has_avx2_fma()) {
    for (int64_t i = 0; i + 16 <= n; i += 16) {
      if ((i & 0xFFFFF) == 0 && tensor_check_interrupt()) return false;
      normal16_float_avx2(p + i, mean, std);
    }
    if (n % 16 != 0) {
      float *tail = p + n - 16;
      uniforms_float(rng, tail, 16);
      normal16_float_avx2(tail, mean, std);
    }
    return true;
  }
#endif
  for (int64_t i = 0; i + 16 <= n; i += 16) {
    if ((i & 0xFFFFF) == 0 && tensor_check_interrupt()) return false;
    normal16_float(p + i, mean, std);
  }
  if (n % 16 != 0) {
    float *tail = p + n - 16;
    for (int i = 0; i < 16; i++) tail[i] = unit_float(rng_next32(rng));
    normal16_float(tail, mean, std);
  }
  return true;
}

static bool normal_fill_double(TensorRng *rng, double *p, int64_t n, double mean, double std) {
  uint32_t r[DRAW_BLOCK];
  for (int64_t i = 0; i < n; i += DRAW_BLOCK / 2) {
    if ((i & 0xFFFFF) == 0 && i > 0 && tensor_check_interrupt()) return false;
    int64_t k = n - i < DRAW_BLOCK / 2 ? n - i : DRAW_BLOCK / 2;
    rng_fill32(rng, r, 2 * k);
    for (int64_t j = 0; j < k; j++) p[i + j] = unit_double(((uint64_t)r[2 * j] << 32) | r[2 * j + 1]);
  }
  for (int64_t i = 0; i + 16 <= n; i += 16) {
    if ((i & 0xFFFFF) == 0 && tensor_check_interrupt()) return false;
    normal16_double(p + i, mean, std);
  }
  if (n % 16 != 0) {
    double *tail = p + n - 16;
    for (int i = 0; i < 16; i++) tail[i] = unit_double(rng_next64(rng));
    normal16_double(tail, mean, std);
  }
  return true;
}

typedef struct {
  double mean, std;
} NormalCtx;

static double draw_normal(TensorRng *rng, const void *ctx) {
  const NormalCtx *c = ctx;
  return rng_normal(rng, c->mean, c->std);
}

static bool fill_normal(TensorRng *rng, Tensor *t, double mean, double std) {
  if (!dtype_is_native(t->dtype)) return fill_widened(rng, t, mean, std, fill_normal);
  if (t->numel >= 16 && tensor_is_contiguous(t)) {
    if (t->dtype == DT_FLOAT32)
      return normal_fill_float(rng, tensor_data(t), t->numel, (float)mean, (float)std);
    return normal_fill_double(rng, tensor_data(t), t->numel, mean, std);
  }
  NormalCtx c = {mean, std};
  return fill_each(rng, t, draw_normal, &c);
}

bool tensor_normal_(TensorRng *rng, Tensor *t, double mean, double std) {
  if (!require_float("normal_kernel_cpu", t->dtype)) return false;
  if (!(std >= 0.0)) {
    tensor_set_error("normal expects std >= 0.0, but found std %g", std);
    return false;
  }
  bool ok = fill_normal(rng, t, mean, std);
  tensor_bump_version(t);
  return ok;
}

Tensor *tensor_randn(TensorRng *rng, DType dt, int ndim, const int64_t *shape) {
  if (!require_float("normal_kernel_cpu", dt)) return NULL;
  Tensor *t = tensor_empty(dt, ndim, shape);
  if (t && !fill_normal(rng, t, 0.0, 1.0)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

/* ---- exponential_ and bernoulli ---- */

static double draw_exponential(TensorRng *rng, const void *ctx) {
  double lambda = *(const double *)ctx;
  return -1.0 / lambda * log(1.0 - rng_uniform(rng));
}

bool tensor_exponential_(TensorRng *rng, Tensor *t, double lambda) {
  if (!require_float("exponential_cpu", t->dtype)) return false;
  if (!(lambda >= 0.0)) {
    tensor_set_error("exponential_ expects lambda >= 0.0, but found lambda=%g", lambda);
    return false;
  }
  bool ok = fill_each(rng, t, draw_exponential, &lambda);
  tensor_bump_version(t);
  return ok;
}

/* ---- random_ ---- */

/* random_() with no bounds draws ATen's uniform_int_distribution: one 64-bit
 * draw for int64 and float64, one 32-bit draw otherwise, reduced to the
 * dtype's full range of exact integers ([0, 2^63) for int64, [0, 2^mantissa]
 * for the float dtypes, the lowest bit for bool). */
static uint64_t draw_full_range(TensorRng *rng, DType dt) {
  switch (dt) {
  case DT_INT64: return rng_next64(rng) % (UINT64_C(1) << 63);
  case DT_FLOAT64: return rng_next64(rng) % ((UINT64_C(1) << 53) + 1);
  case DT_FLOAT32: return rng_next32(rng) % ((UINT64_C(1) << 24) + 1);
  case DT_FLOAT16: return rng_next32(rng) % ((UINT64_C(1) << 11) + 1);
  case DT_BFLOAT16: return rng_next32(rng) % ((UINT64_C(1) << 8) + 1);
  case DT_BOOL: return rng_next32(rng) & 1;
  default: /* the narrower integers: [0, their largest] */
    return rng_next32(rng) % (UINT64_C(1) << (8 * dtype_size(dt) - (dt == DT_UINT8 ? 0 : 1)));
  }
}

static void store_int_at(Tensor *t, int64_t off, int64_t v) {
  if (t->dtype == DT_INT64)
    ((int64_t *)t->storage->data)[off] = v; /* exact beyond 2^53 */
  else
    store_at(t, off, (double)v);
}

bool tensor_random_(TensorRng *rng, Tensor *t, bool bounded, int64_t from, int64_t to) {
  if (bounded && from >= to) {
    tensor_set_error("random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                     (long long)from, (long long)to);
    return false;
  }
  if (bounded && t->dtype == DT_BOOL && (from < 0 || to > 2)) {
    tensor_set_error("random_ expects 'from' casted to dtype to be less than or equal to 'to' "
                     "casted to dtype, but got from=%lld > to=%lld",
                     (long long)from, (long long)(to - 1));
    return false;
  }
  /* random_from_to: a 64-bit draw only when the range needs one */
  uint64_t range = (uint64_t)to - (uint64_t)from;
  bool wide = range >= (UINT64_C(1) << 32) && t->dtype != DT_BOOL;
  MemoryWalk w;
  walk_init(&w, t);
  for (int64_t i = 0; i < t->numel; i++) {
    if ((i & 0xFFFFF) == 0xFFFFF && tensor_check_interrupt()) return false;
    int64_t v;
    if (!bounded)
      v = (int64_t)draw_full_range(rng, t->dtype);
    else
      v = (int64_t)((wide ? rng_next64(rng) : rng_next32(rng)) % range + (uint64_t)from);
    store_int_at(t, walk_next(&w), v);
  }
  tensor_bump_version(t);
  return true;
}

static double draw_bernoulli(TensorRng *rng, const void *ctx) {
  return rng_uniform(rng) < *(const double *)ctx;
}

bool tensor_bernoulli_(TensorRng *rng, Tensor *t, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    tensor_set_error("bernoulli_ expects p to be in [0, 1], but got p=%g", p);
    return false;
  }
  bool ok = fill_each(rng, t, draw_bernoulli, &p);
  tensor_bump_version(t);
  return ok;
}

Tensor *tensor_bernoulli(TensorRng *rng, const Tensor *p) {
  if (dtype_is_float(p->dtype) && !dtype_is_native(p->dtype)) { /* p's values as float32 */
    Tensor *wide = tensor_widen(p);
    Tensor *out = wide ? tensor_bernoulli(rng, wide) : NULL;
    tensor_release(wide);
    return tensor_narrow_to(out, p->dtype);
  }
  if (!require_float("bernoulli_tensor_cpu_p_", p->dtype)) return NULL;
  /* ATen checks every p as it draws; checking first loses no draws that matter */
  for (int64_t i = 0; i < p->numel; i++) {
    double v = tensor_get_flat(p, i);
    if (!(v >= 0.0 && v <= 1.0)) {
      tensor_set_error("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                       "this error message be improved?  If so, please report an enhancement "
                       "request to PyTorch.)");
      return NULL;
    }
  }
  /* the result is laid out like p (empty_like): both are walked in p's memory order */
  Tensor *out = tensor_empty(p->dtype, p->ndim, p->shape);
  if (!out) return NULL;
  MemoryWalk wp, wo;
  walk_init(&wp, p);
  walk_init_as(&wo, p, out);
  const char *pbase = p->storage->data;
  for (int64_t i = 0; i < p->numel; i++) {
    int64_t po = walk_next(&wp), oo = walk_next(&wo);
    bool one;
    if (p->dtype == DT_FLOAT64)
      one = rng_uniform(rng) < ((const double *)pbase)[po];
    else
      one = unit_float(rng_next32(rng)) < ((const float *)pbase)[po];
    store_at(out, oo, one);
  }
  return out;
}

/* ---- integers: randint and randperm ---- */

Tensor *tensor_randint(TensorRng *rng, int64_t low, int64_t high, DType dt, int ndim,
                       const int64_t *shape) {
  if (low >= high) {
    tensor_set_error("random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                     (long long)low, (long long)high);
    return NULL;
  }
  if (dt == DT_BOOL && (low < 0 || high > 2)) {
    tensor_set_error("random_ expects 'from' casted to dtype to be less than or equal to 'to' "
                     "casted to dtype, but got from=%lld > to=%lld",
                     (long long)low, (long long)(high - 1));
    return NULL;
  }
  Tensor *t = tensor_empty(dt, ndim, shape);
  if (!t) return NULL;
  uint64_t range = (uint64_t)high - (uint64_t)low;
  bool wide = range >= (UINT64_C(1) << 32) && dt != DT_BOOL;
  int64_t *ints = dt == DT_INT64 ? tensor_data(t) : NULL;
  for (int64_t i = 0; i < t->numel; i++) {
    uint64_t r = wide ? rng_next64(rng) : rng_next32(rng);
    int64_t v = (int64_t)(r % range + (uint64_t)low);
    if (ints)
      ints[i] = v; /* exact even beyond 2^53 */
    else
      store_at(t, i, (double)v);
  }
  return t;
}

Tensor *tensor_randperm(TensorRng *rng, int64_t n, DType dt) {
  if (n < 0) {
    tensor_set_error("Trying to create tensor with negative dimension %lld: [%lld]", (long long)n,
                     (long long)n);
    return NULL;
  }
  Tensor *t = tensor_empty(DT_INT64, 1, &n);
  if (!t) return NULL;
  int64_t *p = tensor_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = i;
  for (int64_t i = 0; i < n - 1; i++) {
    int64_t z = (int64_t)(rng_next32(rng) % (uint64_t)(n - i));
    int64_t tmp = p[i];
    p[i] = p[z + i];
    p[z + i] = tmp;
  }
  if (dt == DT_INT64) return t;
  Tensor *c = tensor_to_dtype(t, dt);
  tensor_release(t);
  return c;
}

/* ---- multinomial ---- */

static double prob_at(const Tensor *probs, int64_t row, int64_t j) {
  const char *base = probs->storage->data;
  int64_t off = probs->offset + (probs->ndim == 2 ? row * probs->stride[0] : 0) +
                j * probs->stride[probs->ndim - 1];
  return probs->dtype == DT_FLOAT32 ? ((const float *)base)[off] : ((const double *)base)[off];
}

/* The first slot of cum[0..n) (ascending, last 1) not below u. */
#define FIRST_NOT_BELOW(cum, n, u, out)                                                  \
  do {                                                                                   \
    int64_t left_ = 0, right_ = (n);                                                     \
    while (right_ - left_ > 0) {                                                         \
      int64_t mid_ = left_ + (right_ - left_) / 2;                                       \
      if ((double)(cum)[mid_] < (u))                                                     \
        left_ = mid_ + 1;                                                                \
      else                                                                               \
        right_ = mid_;                                                                   \
    }                                                                                    \
    (out) = left_;                                                                       \
  } while (0)

/* With replacement: a binary search of each uniform in the row's normalised
 * cumulative sums, summed and kept in the input's dtype as ATen does (a
 * float32 row's sums take half the memory the searches walk). */
static bool sample_with_replacement(TensorRng *rng, const Tensor *probs, int64_t n, int64_t *out) {
  int64_t rows = probs->ndim == 2 ? probs->shape[0] : 1, cats = probs->shape[probs->ndim - 1];
  bool f32 = probs->dtype == DT_FLOAT32;
  void *cum = malloc((f32 ? sizeof(float) : sizeof(double)) * (size_t)(cats > 0 ? cats : 1));
  float *cum32 = cum;
  double *cum64 = cum;
  if (!cum) {
    tensor_set_error("out of memory");
    return false;
  }
  for (int64_t r = 0; r < rows; r++) {
    float sum32 = 0;
    double sum64 = 0;
    for (int64_t j = 0; j < cats; j++) {
      double v = prob_at(probs, r, j);
      const char *bad = !(v >= 0) ? "invalid multinomial distribution (encountering probability entry < 0)"
                        : !isfinite(v) ? "invalid multinomial distribution (encountering probability entry = infinity or NaN)"
                                       : NULL;
      if (bad) {
        free(cum);
        tensor_set_error("%s", bad);
        return false;
      }
      if (f32)
        cum32[j] = sum32 += (float)v;
      else
        cum64[j] = sum64 += v;
    }
    if (!(f32 ? sum32 > 0 : sum64 > 0)) {
      free(cum);
      tensor_set_error("invalid multinomial distribution (sum of probabilities <= 0)");
      return false;
    }
    for (int64_t j = 0; j < cats; j++) {
      if (f32)
        cum32[j] /= sum32;
      else
        cum64[j] /= sum64;
    }
    if (f32)
      cum32[cats - 1] = 1;
    else
      cum64[cats - 1] = 1;
    for (int64_t k = 0; k < n; k++) {
      double u = rng_uniform(rng);
      if (f32)
        FIRST_NOT_BELOW(cum32, cats, u, out[r * n + k]);
      else
        FIRST_NOT_BELOW(cum64, cats, u, out[r * n + k]);
    }
  }
  free(cum);
  return true;
}
#undef FIRST_NOT_BELOW

/* Whether t's elements fill a block of storage without gaps or overlaps in
 * some order of its dimensions (empty_like then keeps its strides). */
static bool is_dense(const Tensor *t) {
  MemoryWalk w;
  walk_init(&w, t);
  int64_t expected = 1;
  for (int d = w.ndim - 1; d >= 0; d--) {
    if (w.stride[d] != expected) return false;
    expected *= w.shape[d];
  }
  return true;
}

/* Without replacement: ATen's exponential race, the top n of
 * p / q with q ~ Exp(1) drawn for every category (q is empty_like(probs), so
 * the draws fill it in probs' memory order when that is dense), then topk
 * (argmax for one draw: the same first-of-ties rule). */
static bool sample_without_replacement(TensorRng *rng, const Tensor *probs, int64_t n,
                                       int64_t *out) {
  int64_t rows = probs->ndim == 2 ? probs->shape[0] : 1, cats = probs->shape[probs->ndim - 1];
  bool f32 = probs->dtype == DT_FLOAT32;
  for (int64_t i = 0; i < probs->numel; i++) {
    double v = tensor_get_flat(probs, i);
    if (!(v < INFINITY && v >= 0)) {
      tensor_set_error("probability tensor contains either `inf`, `nan` or element < 0");
      return false;
    }
  }
  for (int64_t r = 0; r < rows; r++) {
    double sum = 0;
    for (int64_t j = 0; j < cats; j++) sum += prob_at(probs, r, j);
    if (sum == 0) {
      tensor_set_error("invalid multinomial distribution (sum of probabilities <= 0)");
      return false;
    }
  }
  int64_t shape[2] = {rows, cats};
  Tensor *key = tensor_empty(probs->dtype, 2, shape);
  if (!key) return false;
  /* the exponentials first, into key (row-major) in probs' memory order */
  Tensor rowmajor = *probs;
  rowmajor.offset = 0;
  rowmajor.stride[probs->ndim - 1] = 1;
  if (probs->ndim == 2) rowmajor.stride[0] = cats;
  MemoryWalk w;
  walk_init_as(&w, is_dense(probs) ? probs : &rowmajor, &rowmajor);
  double one = 1.0;
  float *k32 = tensor_data(key);
  double *k64 = tensor_data(key);
  for (int64_t i = 0; i < probs->numel; i++) {
    double e = draw_exponential(rng, &one);
    int64_t at = walk_next(&w);
    if (f32)
      k32[at] = (float)e;
    else
      k64[at] = e;
  }
  for (int64_t r = 0; r < rows; r++)
    for (int64_t j = 0; j < cats; j++) {
      int64_t at = r * cats + j;
      double p = prob_at(probs, r, j);
      if (f32)
        k32[at] = (float)p / k32[at];
      else
        k64[at] = p / k64[at];
    }
  Tensor *idx = NULL;
  Tensor *top = tensor_topk(key, n, 1, true, &idx);
  tensor_release(key);
  if (!top) return false;
  memcpy(out, tensor_data(idx), sizeof(int64_t) * (size_t)(rows * n));
  tensor_release(top);
  tensor_release(idx);
  return true;
}

Tensor *tensor_multinomial(TensorRng *rng, const Tensor *probs, int64_t n, bool replacement) {
  if (probs->ndim < 1 || probs->ndim > 2) {
    tensor_set_error("prob_dist must be 1 or 2 dim");
    return NULL;
  }
  if (!dtype_is_float(probs->dtype) || !dtype_is_native(probs->dtype)) {
    tensor_set_error("multinomial only supports floating-point dtypes for input, got: %s",
                     tensor_dtype_torch_name(probs->dtype));
    return NULL;
  }
  if (n <= 0) {
    tensor_set_error("cannot sample n_sample <= 0 samples");
    return NULL;
  }
  int64_t cats = probs->shape[probs->ndim - 1];
  if (!replacement && n > cats) {
    tensor_set_error("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    return NULL;
  }
  if (cats > (INT64_C(1) << 24)) {
    tensor_set_error("number of categories cannot exceed 2^24");
    return NULL;
  }
  int64_t shape[2] = {probs->shape[0], n};
  Tensor *out = probs->ndim == 1 ? tensor_empty(DT_INT64, 1, &n) : tensor_empty(DT_INT64, 2, shape);
  if (!out) return NULL;
  /* PyTorch 1.13 takes the exponential race only without replacement: one
   * draw with replacement is a binary search too (later versions differ) */
  bool ok = !replacement
                ? sample_without_replacement(rng, probs, n, tensor_data(out))
                : sample_with_replacement(rng, probs, n, tensor_data(out));
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

/* ---- dropout ---- */

Tensor *tensor_dropout_mask(TensorRng *rng, const Tensor *like, double p) {
  if (!(p >= 0.0 && p <= 1.0)) {
    tensor_set_error("dropout probability has to be between 0 and 1, but got %g", p);
    return NULL;
  }
  if (dtype_is_float(like->dtype) && !dtype_is_native(like->dtype)) { /* drawn as float32 */
    Tensor *wide = tensor_widen(like);
    Tensor *mask = wide ? tensor_dropout_mask(rng, wide, p) : NULL;
    tensor_release(wide);
    return tensor_narrow_to(mask, like->dtype);
  }
  DType dt = dtype_is_float(like->dtype) ? like->dtype : DT_FLOAT32;
  Tensor *mask = tensor_empty(dt, like->ndim, like->shape);
  if (!mask) return NULL;
  double keep = 1.0 - p;
  if (p == 1.0) { /* ATen multiplies by a zero and draws nothing */
    memset(tensor_data(mask), 0, (size_t)mask->numel * dtype_size(dt));
    return mask;
  }
  if (!tensor_bernoulli_(rng, mask, keep)) {
    tensor_release(mask);
    return NULL;
  }
  /* noise.div_(1 - p): the divisor rounded to the dtype, the quotient in it */
  int64_t n = mask->numel;
  if (dt == DT_FLOAT32) {
    float *m = tensor_data(mask), k = (float)keep;
    for (int64_t i = 0; i < n; i++) m[i] = m[i] / k;
  } else {
    double *m = tensor_data(mask);
    for (int64_t i = 0; i < n; i++) m[i] = m[i] / keep;
  }
  return mask;
}

/* ---- erfinv_ (for trunc_normal_) ---- */

/* ATen's calc_erfinv (after Pavlis' erfinv.m): written once as a macro for
 * float and double, with the C library's erf, exp, log in that type. The
 * polynomials are fused multiply-adds, as GCC compiled them in ATen's FMA
 * build (checked on 310,000 values of each dtype against torch.erfinv). */
#define ERFINV_BODY(T, FMA, ERF, EXP, LOG, SQRT, ABS, COPYSIGN)                              \
  const T a[4] = {(T)0.886226899, (T)-1.645349621, (T)0.914624893, (T)-0.140543331};        \
  const T b[4] = {(T)-2.118377725, (T)1.442710462, (T)-0.329097515, (T)0.012229801};        \
  const T c[4] = {(T)-1.970840454, (T)-1.624906493, (T)3.429567803, (T)1.641345311};        \
  const T d[2] = {(T)3.543889200, (T)1.637067800};                                          \
  T y_abs = ABS(y);                                                                           \
  if (y_abs > (T)1.0) return (T)NAN;                                                          \
  if (y_abs == (T)1.0) return COPYSIGN((T)INFINITY, y);                                       \
  T x;                                                                                        \
  if (y_abs <= (T)0.7) {                                                                      \
    T z = y * y;                                                                              \
    T num = FMA(FMA(FMA(a[3], z, a[2]), z, a[1]), z, a[0]);                                  \
    T dem = FMA(FMA(FMA(FMA(b[3], z, b[2]), z, b[1]), z, b[0]), z, (T)1.0);                 \
    x = y * num / dem;                                                                        \
  } else {                                                                                    \
    T z = SQRT(-LOG(((T)1.0 - y_abs) / (T)2.0));                                            \
    T num = FMA(FMA(FMA(c[3], z, c[2]), z, c[1]), z, c[0]);                                  \
    T dem = FMA(FMA(d[1], z, d[0]), z, (T)1.0);                                              \
    x = COPYSIGN(num, y) / dem;                                                               \
  }                                                                                           \
  const T k = (T)2.0 / (T)sqrt(M_PI);                                                         \
  x = x - (ERF(x) - y) / (k * EXP(-x * x));                                                   \
  x = x - (ERF(x) - y) / (k * EXP(-x * x));                                                   \
  return x;

static float erfinv_float(float y) { ERFINV_BODY(float, fmaf, erff, expf, logf, sqrtf, fabsf, copysignf) }
static double erfinv_double(double y) { ERFINV_BODY(double, fma, erf, exp, log, sqrt, fabs, copysign) }
#undef ERFINV_BODY

bool tensor_erfinv_(Tensor *t) {
  if (!require_float("erfinv_cpu", t->dtype)) return false;
  if (!dtype_is_native(t->dtype)) { /* computed in float32, rounded back */
    Tensor *wide = tensor_widen(t);
    bool ok = wide && tensor_erfinv_(wide) && tensor_copy_raw(t, wide);
    tensor_release(wide);
    tensor_bump_version(t);
    return ok;
  }
  MemoryWalk w;
  walk_init(&w, t);
  char *base = t->storage->data;
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t off = walk_next(&w);
    if (t->dtype == DT_FLOAT32)
      ((float *)base)[off] = erfinv_float(((float *)base)[off]);
    else
      ((double *)base)[off] = erfinv_double(((double *)base)[off]);
  }
  tensor_bump_version(t);
  return true;
}
