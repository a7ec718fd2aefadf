/* vecmath.c — unary float functions computed exactly as PyTorch 1.13 computes
 * them on x86-64, to the last bit.
 *
 * ATen runs these ops through SLEEF (built with FMA) on CPUs with AVX2, in one
 * of two loop shapes:
 *  - exp, log, sin, cos, tan, tanh are "vml" kernels: every element goes
 *    through SLEEF's vector function (Sleef_sinf8_u10, Sleef_expd4_u10, ...),
 *    in groups of 8 floats / 4 doubles counted from the start of each
 *    innermost run, the last group padded with zeros; strided runs are copied
 *    to a buffer first, so they group the same way.
 *  - sigmoid and gelu go through cpu_kernel_vec: over a contiguous run (or one
 *    whose input is a single broadcast value), two vectors at a time take the
 *    vector formula (SLEEF's exp or erf) and the remaining elements (fewer
 *    than 16 floats / 8 doubles) the scalar one with the C library; a strided
 *    run is all scalar. Except that PyTorch's mkldnn build hands a contiguous
 *    float32 gelu of more than one element to oneDNN, whose kernel has an erf
 *    of its own (tensor_gelu_dense_f32).
 * The group matters: SLEEF's trig functions pick their argument reduction
 * once per vector (Cody-Waite when every lane is small, Payne-Hanek for all
 * lanes otherwise), and the two reductions can round a lane differently.
 *
 * float32 exp, log and tanh are the scalar routines below (their SLEEF
 * algorithms have no lane dependence); the rest is written with AVX2
 * intrinsics after SLEEF 3.5's algorithms (Shibata and Takahashi, "SLEEF: A
 * Portable Vectorized Library of C Standard Mathematical Functions", IEEE
 * TPDS 2020): double-float (or double-double) arithmetic around short
 * polynomials, FMA everywhere SLEEF's AVX2 helpers use it. Without AVX2 and
 * FMA, PyTorch does not use SLEEF either: those functions then come from the
 * C library.
 *
 * This file relies on -std=c11, under which GCC does not contract a * b + c
 * into an FMA: every fused operation here is written as one.
 *
 * float exp: Cody-Waite reduction by ln 2, a degree-6 polynomial, scaling by
 * 2^q. Its results differ from the C library's expf in the last bit now and
 * then, which shows in printed values (exp(4) = 54.5982 in PyTorch, 54.5981
 * with expf), so exp, softmax and friends use it for float32. log likewise
 * (SLEEF's logf_u10: double-float arithmetic around a short polynomial).
 * fmaf is exact whether or not the CPU has FMA; the loop is compiled twice
 * and the FMA version chosen at run time, for speed only. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tensor/tensor_internal.h"

/* The AVX2 kernels exist on x86-64 only, chosen at run time; elsewhere
 * (AArch64, wasm) every function takes its portable path. */
#if defined(__x86_64__)
#define VECMATH_X86 1
#include <immintrin.h>
/* Code between AVX2_BEGIN and AVX2_END is compiled for AVX2 + FMA. */
#if defined(__clang__)
/* (Clang also counts the pair helpers a width does not use as unused.) */
#define AVX2_BEGIN                                                                          \
  _Pragma("clang attribute push (__attribute__((target(\"avx2,fma\"))), apply_to = function)") \
  _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wunused-function\"")
#define AVX2_END _Pragma("clang diagnostic pop") _Pragma("clang attribute pop")
#else
#define AVX2_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,fma\")")
#define AVX2_END _Pragma("GCC pop_options")
#endif
#else
#define VECMATH_X86 0
#endif

static inline float pow2i(int q) {
  uint32_t u = (uint32_t)(q + 0x7f) << 23;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

#define SLEEF_EXPF(d, FMA)                                                                   \
  do {                                                                                       \
    if (d != d) {                                                                            \
      r = d;                                                                                 \
    } else if (d < -104.0f) {                                                                \
      r = 0.0f;                                                                              \
    } else if (d > 100.0f) {                                                                 \
      r = INFINITY;                                                                          \
    } else {                                                                                 \
      int q = (int)rintf(d * 1.442695040888963407359924681001892137426645954152985934135449406931f); \
      float s = FMA((float)q, -0.693145751953125f, d);                                       \
      s = FMA((float)q, -1.428606765330187045e-06f, s);                                      \
      float u = 0.000198527617612853646278381f;                                              \
      u = FMA(u, s, 0.00139304355252534151077271f);                                          \
      u = FMA(u, s, 0.00833336077630519866943359f);                                          \
      u = FMA(u, s, 0.0416664853692054748535156f);                                           \
      u = FMA(u, s, 0.166666671633720397949219f);                                            \
      u = FMA(u, s, 0.5f);                                                                   \
      u = 1.0f + FMA(s * s, u, s);                                                           \
      r = u * pow2i(q >> 1) * pow2i(q - (q >> 1));                                           \
    }                                                                                        \
  } while (0)

float tensor_expf(float d) {
  float r;
  SLEEF_EXPF(d, fmaf);
  return r;
}

#define EXPF_LOOP                                                                            \
  for (int64_t i = 0; i < n; i++) {                                                          \
    float d = *(const float *)(a + i * sa), r;                                               \
    SLEEF_EXPF(d, __builtin_fmaf);                                                           \
    *(float *)(o + i * so) = r;                                                              \
  }

#if VECMATH_X86
__attribute__((target("avx2,fma"))) static void expf_loop_fma(int64_t n, const char *a,
                                                               int64_t sa, char *o, int64_t so) {
  EXPF_LOOP
}
#endif

static void expf_loop_plain(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  EXPF_LOOP
}

void tensor_expf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride) {
#if VECMATH_X86
  static int has_fma = -1; /* a benign race: every thread computes the same */
  if (has_fma < 0) has_fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (has_fma) {
    expf_loop_fma(n, in, in_stride, out, out_stride);
    return;
  }
#endif
  expf_loop_plain(n, in, in_stride, out, out_stride);
}


/* ---- log: SLEEF's xlogf_u1 (double-float pairs: hi + lo) ---- */

typedef struct {
  float x, y;
} F2;

#define LOGF_BODY(FMA)                                                                       \
  do {                                                                                       \
    if (d != d || d < 0) {                                                                   \
      r = NAN;                                                                               \
    } else if (d == 0) {                                                                     \
      r = -INFINITY;                                                                         \
    } else if (d == INFINITY) {                                                              \
      r = INFINITY;                                                                          \
    } else {                                                                                 \
      bool tiny = d < FLT_MIN;                                                               \
      if (tiny) d *= (float)(INT64_C(1) << 32) * (float)(INT64_C(1) << 32);                  \
      float d43 = d * (1.0f / 0.75f);                                                        \
      uint32_t bits;                                                                         \
      memcpy(&bits, &d43, sizeof bits);                                                      \
      int e = (int)((bits >> 23) & 0xff) - 0x7f;                                             \
      memcpy(&bits, &d, sizeof bits);                                                        \
      bits += (uint32_t)(-e) << 23;                                                          \
      float m;                                                                               \
      memcpy(&m, &bits, sizeof m);                                                           \
      if (tiny) e -= 64;                                                                     \
      /* s = ln2 (as a pair) * e */                                                          \
      float fe = (float)e, sx = 0.69314718246459960938f * fe;                                \
      F2 sp = {sx, FMA(-1.904654323148236017e-09f, fe, FMA(0.69314718246459960938f, fe, -sx))}; \
      /* x = (m - 1) / (m + 1) as a pair */                                                  \
      float nm = -1.0f + m, av = nm - -1.0f;                                                 \
      F2 num = {nm, (-1.0f - (nm - av)) + (m - av)};                                         \
      float b = 1.0f + m, bv = b - 1.0f;                                                     \
      F2 den = {b, (1.0f - (b - bv)) + (m - bv)};                                            \
      float t = 1.0f / den.x, q = num.x * t;                                                 \
      float u = FMA(t, num.x, -q);                                                           \
      float v = FMA(-den.y, t, FMA(-den.x, t, 1.0f));                                        \
      F2 x = {q, FMA(q, v, FMA(num.y, t, u))};                                               \
      float x2 = x.x * x.x;                                                                  \
      float poly = 0.3027294874e+0f;                                                         \
      poly = FMA(poly, x2, 0.3996108174e+0f);                                                \
      poly = FMA(poly, x2, 0.6666694880e+0f);                                                \
      float s1 = sp.x + x.x * 2;                                                             \
      F2 acc = {s1, (((sp.x - s1) + x.x * 2) + sp.y) + x.y * 2};                             \
      float w = x2 * x.x * poly, s2 = acc.x + w;                                             \
      acc.y = ((acc.x - s2) + w) + acc.y;                                                    \
      acc.x = s2;                                                                            \
      r = acc.x + acc.y;                                                                     \
    }                                                                                        \
  } while (0)

float tensor_logf(float d) {
  float r;
  LOGF_BODY(fmaf);
  return r;
}

#define LOGF_LOOP                                                                            \
  for (int64_t i = 0; i < n; i++) {                                                          \
    float d = *(const float *)(a + i * sa), r;                                               \
    LOGF_BODY(__builtin_fmaf);                                                               \
    *(float *)(o + i * so) = r;                                                              \
  }

#if VECMATH_X86
__attribute__((target("avx2,fma"))) static void logf_loop_fma(int64_t n, const char *a,
                                                               int64_t sa, char *o, int64_t so) {
  LOGF_LOOP
}
#endif

static void logf_loop_plain(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  LOGF_LOOP
}

void tensor_logf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride) {
#if VECMATH_X86
  static int has_fma = -1;
  if (has_fma < 0) has_fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (has_fma) {
    logf_loop_fma(n, in, in_stride, out, out_stride);
    return;
  }
#endif
  logf_loop_plain(n, in, in_stride, out, out_stride);
}

/* ---- tanh: SLEEF's xtanhf_u1, (e^2y... as (e - 1/e) / (e + 1/e) in pairs) ---- */

static inline F2 f2(float x, float y) {
  F2 r = {x, y};
  return r;
}

#define DF_HELPERS(SUF, FMA)                                                                 \
  static inline F2 dfadd2_f2_f##SUF(F2 x, float y) {                                         \
    float s = x.x + y, v = s - x.x;                                                          \
    return f2(s, ((x.x - (s - v)) + (y - v)) + x.y);                                         \
  }                                                                                          \
  static inline F2 dfadd2_f2_f2##SUF(F2 x, F2 y) {                                           \
    float s = x.x + y.x, v = s - x.x;                                                        \
    return f2(s, ((x.x - (s - v)) + (y.x - v)) + (x.y + y.y));                               \
  }                                                                                          \
  static inline F2 dfmul_f2_f##SUF(F2 x, float y) {                                          \
    float s = x.x * y;                                                                       \
    return f2(s, FMA(x.y, y, FMA(x.x, y, -s)));                                              \
  }                                                                                          \
  static inline F2 dfmul_f2_f2##SUF(F2 x, F2 y) {                                            \
    float s = x.x * y.x;                                                                     \
    return f2(s, FMA(x.x, y.y, FMA(x.y, y.x, FMA(x.x, y.x, -s))));                           \
  }                                                                                          \
  static inline float tanhf_body##SUF(float x) {                                             \
    if (x != x) return x;                                                                    \
    float ax = fabsf(x);                                                                     \
    if (ax > 8.664339742f) return copysignf(1.0f, x);                                        \
    /* expk2f((ax, 0)) */                                                                    \
    int q = (int)rintf(ax * 1.442695040888963407359924681001892137426645954152985934135449406931f); \
    F2 sp = dfadd2_f2_f##SUF(f2(ax, 0.0f), (float)q * -0.693145751953125f);                  \
    sp = dfadd2_f2_f##SUF(sp, (float)q * -1.428606765330187045e-06f);                        \
    float u = 0.1980960224e-3f;                                                              \
    u = FMA(u, sp.x, 0.1394256484e-2f);                                                      \
    u = FMA(u, sp.x, 0.8333456703e-2f);                                                      \
    u = FMA(u, sp.x, 0.4166637361e-1f);                                                      \
    F2 t = dfadd2_f2_f##SUF(dfmul_f2_f##SUF(sp, u), 0.166666659414234244790680580464e+0f);   \
    t = dfadd2_f2_f##SUF(dfmul_f2_f2##SUF(sp, t), 0.5f);                                     \
    F2 sq = f2(sp.x * sp.x, FMA(sp.x + sp.x, sp.y, FMA(sp.x, sp.x, -(sp.x * sp.x))));        \
    t = dfadd2_f2_f2##SUF(sp, dfmul_f2_f2##SUF(sq, t));                                      \
    float s1 = 1.0f + t.x;                                                                   \
    t = f2(s1, ((1.0f - s1) + t.x) + t.y);                                                   \
    F2 d = f2(t.x * pow2i(q >> 1) * pow2i(q - (q >> 1)), t.y * pow2i(q >> 1) * pow2i(q - (q >> 1))); \
    /* e = 1 / d as a pair; (d - e) / (d + e) */                                             \
    float r0 = 1.0f / d.x;                                                                   \
    F2 e = f2(r0, r0 * FMA(-d.y, r0, FMA(-d.x, r0, 1.0f)));                                  \
    F2 num = dfadd2_f2_f2##SUF(d, f2(-e.x, -e.y)), den = dfadd2_f2_f2##SUF(d, e);            \
    float tt = 1.0f / den.x, qq = num.x * tt;                                                \
    float uu = FMA(tt, num.x, -qq);                                                          \
    float vv = FMA(-den.y, tt, FMA(-den.x, tt, 1.0f));                                       \
    F2 r = f2(qq, FMA(qq, vv, FMA(num.y, tt, uu)));                                          \
    float y = r.x + r.y;                                                                     \
    if (y != y) y = 1.0f;                                                                    \
    return copysignf(y, x);                                                                  \
  }

DF_HELPERS(_plain, fmaf)

float tensor_tanhf(float x) { return tanhf_body_plain(x); }

static void tanhf_loop_plain(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  for (int64_t i = 0; i < n; i++)
    *(float *)(o + i * so) = tanhf_body_plain(*(const float *)(a + i * sa));
}

#if VECMATH_X86
AVX2_BEGIN
DF_HELPERS(_fma, __builtin_fmaf)
static void tanhf_loop_fma(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  for (int64_t i = 0; i < n; i++)
    *(float *)(o + i * so) = tanhf_body_fma(*(const float *)(a + i * sa));
}
AVX2_END
#endif

void tensor_tanhf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride) {
#if VECMATH_X86
  static int has_fma = -1;
  if (has_fma < 0) has_fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (has_fma) {
    tanhf_loop_fma(n, in, in_stride, out, out_stride);
    return;
  }
#endif
  tanhf_loop_plain(n, in, in_stride, out, out_stride);
}

static bool cpu_has_avx2_fma(void) {
#if VECMATH_X86
  static int has = -1; /* a benign race: every thread computes the same */
  if (has < 0) has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

#if VECMATH_X86
/* ---- Payne-Hanek tables ----
 * For arguments too large for Cody-Waite reduction, SLEEF multiplies x by
 * 1/(2 pi) held in four parts. Only the bits of 1/(2 pi) that do not just add
 * whole turns matter, so there is a row per exponent of x: row r is 1/(2 pi)
 * with its first r+2 fraction bits dropped (x of exponent r+55, or r+25 in
 * float), times 2^64 for the rows used with x scaled by 2^-64 (r > 645, or
 * r > 65 in float). A row is split greedily into its nearest double (float)
 * with the last bit (two bits in float) cleared, then the nearest to what is
 * left, and so on; the fourth part keeps all its bits. SLEEF's table was made
 * so from 1/(2 pi) rounded to 2048 bits; the rows are derived here from that
 * number with exact integer arithmetic, the first time a large argument is
 * seen. */

/* 1/(2 pi) rounded to 2048 bits: the integer below times 2^-2050
 * (most significant 64-bit word first). */
static const uint64_t inv_2pi_2048[32] = {
    0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull,
    0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull,
    0xe99c7026b45f7e41ull, 0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
    0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull, 0x7527bac7ebe5f17bull,
    0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b6babull, 0xf0cfbc209af4361dull,
    0xa9e391615ee61b08ull, 0x6599855f14a06840ull, 0x8dffd8804d732731ull, 0x06061556ca73a8c9ull,
    0x60e27bc08c6b47c4ull, 0x19c367cddce8092aull, 0x8359c4768b961ca6ull, 0xddaf44d15719053eull,
    0xa5ff07053f7e33e8ull, 0x32c2de4f98327dbbull, 0xc33d26ef6b1e5ef8ull, 0x9f3a1f35caf27f1dull,
};

/* A fixed-point number, two's complement, least significant word first; one
 * word more than 1/(2 pi) needs, for the 2^64 scaling. */
#define WIDE_WORDS 34
typedef struct {
  uint64_t w[WIDE_WORDS];
} Wide;

static void wide_negate(Wide *a) {
  unsigned carry = 1;
  for (int i = 0; i < WIDE_WORDS; i++) {
    a->w[i] = ~a->w[i] + carry;
    carry = carry && a->w[i] == 0;
  }
}

static bool wide_bit(const Wide *a, int i) { return i >= 0 && (a->w[i / 64] >> (i % 64)) & 1; }

/* The double nearest a * 2^e, ties to even, subnormals with their own precision. */
static double wide_to_double(const Wide *a, int e) {
  Wide m = *a;
  bool neg = m.w[WIDE_WORDS - 1] >> 63;
  if (neg) wide_negate(&m);
  int top = -1;
  for (int i = WIDE_WORDS - 1; i >= 0 && top < 0; i--)
    if (m.w[i]) top = i * 64 + 63 - __builtin_clzll(m.w[i]);
  if (top < 0) return 0;
  int bits = top + e < -1022 ? 53 - (-1022 - (top + e)) : 53;
  int lo = top - bits + 1;
  uint64_t mant = 0;
  for (int i = top; i >= lo; i--) mant = mant << 1 | wide_bit(&m, i);
  bool sticky = false;
  for (int i = lo - 2; i >= 0 && !sticky; i--) sticky = wide_bit(&m, i);
  if (wide_bit(&m, lo - 1) && (sticky || (mant & 1))) mant++;
  double r = ldexp((double)mant, lo + e);
  return neg ? -r : r;
}

/* a -= d * 2^-e, for d a multiple of 2^e */
static void wide_sub_double(Wide *a, double d, int e) {
  if (d == 0) return;
  int k;
  uint64_t m = (uint64_t)ldexp(frexp(fabs(d), &k), 53);
  int sh = k - 53 - e;
  for (; sh < 0; sh++) m >>= 1;
  Wide t = {{0}};
  t.w[sh / 64] = m << (sh % 64);
  if (sh % 64) t.w[sh / 64 + 1] = m >> (64 - sh % 64);
  if (d > 0) wide_negate(&t);
  unsigned carry = 0;
  for (int i = 0; i < WIDE_WORDS; i++) {
    uint64_t s = a->w[i] + t.w[i], s2 = s + carry;
    carry = (s < a->w[i]) | (s2 < s);
    a->w[i] = s2;
  }
}

#define REMPI_ROWS_F64 970 /* exponents 55..1023, and a row of zeros for inf and nan */
#define REMPI_ROWS_F32 104 /* exponents 25..127, likewise */
static double rempi_f64[REMPI_ROWS_F64 * 4];
static float rempi_f32[REMPI_ROWS_F32 * 4];

static void rempi_row(int r, bool single) {
  Wide v = {{0}};
  for (int i = 0; i < 32; i++) v.w[i] = inv_2pi_2048[31 - i];
  int keep = 2050 - (r + 2); /* drop the bits of weight 2^-(r+2) and above */
  for (int i = 0; i < WIDE_WORDS; i++) {
    if (i * 64 >= keep)
      v.w[i] = 0;
    else if (i * 64 + 64 > keep)
      v.w[i] &= (UINT64_C(1) << (keep - i * 64)) - 1;
  }
  int e = -2050 + (r > (single ? 65 : 645) ? 64 : 0);
  for (int j = 0; j < 4; j++) {
    double d = wide_to_double(&v, e);
    uint64_t u;
    if (single) { /* rounded to double, then to float, as SLEEF's generator did */
      float f = (float)d;
      uint32_t b;
      memcpy(&b, &f, sizeof b);
      if (j < 3) b &= ~UINT32_C(3);
      memcpy(&f, &b, sizeof f);
      rempi_f32[r * 4 + j] = f;
      d = f;
    } else {
      memcpy(&u, &d, sizeof u);
      if (j < 3) u &= ~UINT64_C(1);
      memcpy(&d, &u, sizeof d);
      rempi_f64[r * 4 + j] = d;
    }
    wide_sub_double(&v, d, e);
  }
}

static void rempi_init(void) {
  for (int r = 0; r < REMPI_ROWS_F64 - 1; r++) rempi_row(r, false);
  for (int r = 0; r < REMPI_ROWS_F32 - 1; r++) rempi_row(r, true);
}

static pthread_once_t rempi_once = PTHREAD_ONCE_INIT;

/* ==== AVX2 kernels (compiled for AVX2 + FMA, called only on such CPUs) ==== */
AVX2_BEGIN

/* ---- float32: 8 lanes, float-float pairs (hi + lo) ---- */

typedef __m256 F8;
typedef __m256i I8;
typedef struct {
  F8 x, y;
} FF8;

static inline F8 f8(float c) { return _mm256_set1_ps(c); }
static inline I8 i8(int c) { return _mm256_set1_epi32(c); }
static inline FF8 ff8(F8 x, F8 y) {
  FF8 r = {x, y};
  return r;
}
static inline F8 f8_fma(F8 a, F8 b, F8 c) { return _mm256_fmadd_ps(a, b, c); }
static inline F8 f8_fms(F8 a, F8 b, F8 c) { return _mm256_fmsub_ps(a, b, c); }   /* ab - c */
static inline F8 f8_fnma(F8 a, F8 b, F8 c) { return _mm256_fnmadd_ps(a, b, c); } /* c - ab */
static inline F8 f8_abs(F8 a) { return _mm256_andnot_ps(f8(-0.0f), a); }
static inline F8 f8_sel(F8 m, F8 a, F8 b) { return _mm256_blendv_ps(b, a, m); }
static inline F8 f8_lt(F8 a, F8 b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline F8 f8_gt(F8 a, F8 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline F8 f8_rint(F8 a) {
  return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline F8 f8_of_mask(I8 m) { return _mm256_castsi256_ps(m); }
static inline F8 f8_nonfinite(F8 d) {
  return _mm256_or_ps(_mm256_cmp_ps(f8_abs(d), f8(INFINITY), _CMP_EQ_OQ),
                      _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
}
static inline F8 f8_is_negzero(F8 d) {
  return f8_of_mask(_mm256_cmpeq_epi32(_mm256_castps_si256(d), i8(INT32_MIN)));
}
static inline F8 f8_mulsign(F8 x, F8 y) { return _mm256_xor_ps(x, _mm256_and_ps(y, f8(-0.0f))); }
static inline bool f8_all(F8 m) { return _mm256_movemask_ps(m) == 0xff; }
static inline I8 i8_sel(F8 m, int a, int b) {
  return _mm256_castps_si256(f8_sel(m, _mm256_castsi256_ps(i8(a)), _mm256_castsi256_ps(i8(b))));
}
static inline F8 i8_bit_set(I8 q, int bit) {
  return f8_of_mask(_mm256_cmpeq_epi32(_mm256_and_si256(q, i8(bit)), i8(bit)));
}

/* Dekker-style pair arithmetic (hi + lo), as SLEEF's df.h and dd.h with FMA,
 * the same for float lanes (FF8) and double lanes (DD4). v is a plain value,
 * p a pair; "add" needs the first operand no smaller than the second, "add2"
 * does not. */
#define DEFINE_PAIR_OPS(P, T, V, ONE, FMA, FMS, FNMA, SEL)                                         \
  static inline T P##_add_vv(V x, V y) {                                                           \
    V s = x + y;                                                                                   \
    return P(s, (x - s) + y);                                                                      \
  }                                                                                                \
  static inline T P##_add2_vv(V x, V y) {                                                          \
    V s = x + y, v = s - x;                                                                        \
    return P(s, (x - (s - v)) + (y - v));                                                          \
  }                                                                                                \
  static inline T P##_add_pv(T x, V y) {                                                           \
    V s = x.x + y;                                                                                 \
    return P(s, ((x.x - s) + y) + x.y);                                                            \
  }                                                                                                \
  static inline T P##_add2_pv(T x, V y) {                                                          \
    V s = x.x + y, v = s - x.x;                                                                    \
    return P(s, ((x.x - (s - v)) + (y - v)) + x.y);                                                \
  }                                                                                                \
  static inline T P##_add_vp(V x, T y) {                                                           \
    V s = x + y.x;                                                                                 \
    return P(s, ((x - s) + y.x) + y.y);                                                            \
  }                                                                                                \
  static inline T P##_add_pp(T x, T y) {                                                           \
    V s = x.x + y.x;                                                                               \
    return P(s, (((x.x - s) + y.x) + x.y) + y.y);                                                  \
  }                                                                                                \
  static inline T P##_add2_pp(T x, T y) {                                                          \
    V s = x.x + y.x, v = s - x.x;                                                                  \
    return P(s, ((x.x - (s - v)) + (y.x - v)) + (x.y + y.y));                                      \
  }                                                                                                \
  static inline T P##_norm(T t) {                                                                  \
    V s = t.x + t.y;                                                                               \
    return P(s, (t.x - s) + t.y);                                                                  \
  }                                                                                                \
  static inline T P##_neg(T d) { return P(-d.x, -d.y); }                                           \
  static inline T P##_mul_vv(V x, V y) {                                                           \
    V s = x * y;                                                                                   \
    return P(s, FMS(x, y, s));                                                                     \
  }                                                                                                \
  static inline T P##_mul_pv(T x, V y) {                                                           \
    V s = x.x * y;                                                                                 \
    return P(s, FMA(x.y, y, FMS(x.x, y, s)));                                                      \
  }                                                                                                \
  static inline T P##_mul_pp(T x, T y) {                                                           \
    V s = x.x * y.x;                                                                               \
    return P(s, FMA(x.x, y.y, FMA(x.y, y.x, FMS(x.x, y.x, s))));                                   \
  }                                                                                                \
  static inline V P##_mul_to_v(T x, T y) { return FMA(x.x, y.x, FMA(x.y, y.x, x.x * y.y)); }       \
  static inline T P##_squ(T x) {                                                                   \
    V s = x.x * x.x;                                                                               \
    return P(s, FMA(x.x + x.x, x.y, FMS(x.x, x.x, s)));                                            \
  }                                                                                                \
  static inline T P##_rec(T d) {                                                                   \
    V s = ONE / d.x;                                                                               \
    return P(s, s * FNMA(d.y, s, FNMA(d.x, s, ONE)));                                              \
  }                                                                                                \
  static inline T P##_div(T n, T d) {                                                              \
    V t = ONE / d.x, s = n.x * t;                                                                  \
    V v = FNMA(d.y, t, FNMA(d.x, t, ONE));                                                         \
    return P(s, FMA(s, v, FMA(n.y, t, FMS(t, n.x, s))));                                           \
  }                                                                                                \
  static inline T P##_sel(V m, T a, T b) { return P(SEL(m, a.x, b.x), SEL(m, a.y, b.y)); }

DEFINE_PAIR_OPS(ff8, FF8, F8, f8(1.0f), f8_fma, f8_fms, f8_fnma, f8_sel)

/* x - rint(4x)/4, and the quarter turns rint(4x) - 4 rint(x) in *q */
static inline F8 quarter_rem8(F8 x, I8 *q) {
  F8 y = f8_rint(x * f8(4.0f));
  *q = _mm256_cvttps_epi32(y - f8_rint(x) * f8(4.0f));
  return x - y * f8(0.25f);
}

/* SLEEF's rempif: a mod pi/2 as a float-float, the quarter turns in *q; the
 * exponent picks a's table row (a scaled by 2^-64 above 2^90). */
static FF8 rem_pio2_f8(F8 a, I8 *q) {
  I8 ex = _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(a), 23), i8(0xff));
  ex = _mm256_sub_epi32(ex, i8(0x7f + 25));
  I8 scale = _mm256_and_si256(_mm256_cmpgt_epi32(ex, i8(90 - 25)), i8(-64));
  a = _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(a), _mm256_slli_epi32(scale, 23)));
  ex = _mm256_min_epi32(_mm256_max_epi32(ex, i8(0)), i8(REMPI_ROWS_F32 - 1));
  ex = _mm256_slli_epi32(ex, 2);
  I8 turns, more;
  FF8 x = ff8_mul_vv(a, _mm256_i32gather_ps(rempi_f32, ex, 4));
  x.x = quarter_rem8(x.x, &turns);
  x = ff8_norm(x);
  x = ff8_add2_pp(x, ff8_mul_vv(a, _mm256_i32gather_ps(rempi_f32 + 1, ex, 4)));
  x.x = quarter_rem8(x.x, &more);
  x = ff8_norm(x);
  FF8 y = ff8(_mm256_i32gather_ps(rempi_f32 + 2, ex, 4), _mm256_i32gather_ps(rempi_f32 + 3, ex, 4));
  x = ff8_norm(ff8_add2_pp(x, ff8_mul_pv(y, a)));
  x = ff8_mul_pp(x, ff8(f8(3.1415927410125732422f * 2), f8(-8.7422776573475857731e-08f * 2)));
  *q = _mm256_add_epi32(turns, more);
  return ff8_sel(f8_lt(f8_abs(a), f8(0.7f)), ff8(a, f8(0.0f)), x);
}

/* pi split for Cody-Waite reduction of |x| < 125: few bits each, so that
 * q * PI_A2F and q * PI_B2F are exact */
#define PI_A2F 3.1414794921875f
#define PI_B2F 0.00011315941810607910156f
#define PI_C2F 1.9841872589410058936e-09f
#define TRIG_SMALL_F 125.0f

/* The Payne-Hanek result turned into the reduction sin and cos expect:
 * x mod pi (sin) or x - pi/2 mod pi (cos) and the half turns. */
static FF8 rem_pi_f8(F8 d, I8 *q, bool cosine) {
  pthread_once(&rempi_once, rempi_init);
  I8 quarters;
  FF8 r = rem_pio2_f8(d, &quarters);
  F8 pos = f8_gt(r.x, f8(0.0f));
  I8 k = _mm256_and_si256(quarters, i8(3));
  k = _mm256_add_epi32(_mm256_add_epi32(k, k), cosine ? i8_sel(pos, 8, 7) : i8_sel(pos, 2, 1));
  *q = cosine ? _mm256_srai_epi32(k, 1) : _mm256_srai_epi32(k, 2);
  F8 shift = cosine ? f8_of_mask(_mm256_cmpeq_epi32(_mm256_and_si256(quarters, i8(1)), i8(0)))
                    : i8_bit_set(quarters, 1);
  F8 y = cosine ? f8_sel(pos, f8(0.0f), f8(-1.0f)) : r.x;
  FF8 x = ff8(f8_mulsign(f8(3.1415927410125732422f * -0.5f), y),
              f8_mulsign(f8(-8.7422776573475857731e-08f * -0.5f), y));
  FF8 s = ff8_norm(ff8_sel(shift, ff8_add2_pp(r, x), r));
  s.x = _mm256_or_ps(s.x, f8_nonfinite(d)); /* nan for inf and nan */
  return s;
}

/* sin(s) for |s| <= pi/2, the sign flipped on lanes whose flip mask is set */
static F8 sin_poly_f8(FF8 s, F8 flip) {
  FF8 t = s;
  s = ff8_squ(s);
  F8 u = f8(2.6083159809786593541503e-06f);
  u = f8_fma(u, s.x, f8(-0.0001981069071916863322258f));
  u = f8_fma(u, s.x, f8(0.00833307858556509017944336f));
  FF8 x =
      ff8_add_vp(f8(1.0f), ff8_mul_pp(ff8_add_vv(f8(-0.166666597127914428710938f), u * s.x), s));
  return _mm256_xor_ps(ff8_mul_to_v(t, x), _mm256_and_ps(flip, f8(-0.0f)));
}

/* SLEEF's xsinf_u1 (Sleef_sinf8_u10) */
static F8 sin_f8(F8 d) {
  I8 q;
  FF8 s;
  if (f8_all(f8_lt(f8_abs(d), f8(TRIG_SMALL_F)))) {
    F8 u = f8_rint(d * f8((float)M_1_PI));
    q = _mm256_cvtps_epi32(u);
    s = ff8_add2_vv(f8_fma(u, f8(-PI_A2F), d), u * f8(-PI_B2F));
    s = ff8_add_pv(s, u * f8(-PI_C2F));
  } else {
    s = rem_pi_f8(d, &q, false);
  }
  return f8_sel(f8_is_negzero(d), d, sin_poly_f8(s, i8_bit_set(q, 1)));
}

/* SLEEF's xcosf_u1 (Sleef_cosf8_u10): sin of x - pi/2 - k pi */
static F8 cos_f8(F8 d) {
  I8 q;
  FF8 s;
  if (f8_all(f8_lt(f8_abs(d), f8(TRIG_SMALL_F)))) {
    F8 dq = f8_fma(f8_rint(f8_fma(d, f8((float)M_1_PI), f8(-0.5f))), f8(2.0f), f8(1.0f));
    q = _mm256_cvtps_epi32(dq);
    s = ff8_add2_vv(d, dq * f8(-PI_A2F * 0.5f));
    s = ff8_add2_pv(s, dq * f8(-PI_B2F * 0.5f));
    s = ff8_add2_pv(s, dq * f8(-PI_C2F * 0.5f));
  } else {
    s = rem_pi_f8(d, &q, true);
  }
  return sin_poly_f8(s, f8_of_mask(_mm256_cmpeq_epi32(_mm256_and_si256(q, i8(2)), i8(0))));
}

/* SLEEF's xtanf_u1 (Sleef_tanf8_u10): tan on x mod pi/2, 1/tan on odd quarters */
static F8 tan_f8(F8 d) {
  I8 q;
  FF8 s;
  if (f8_all(f8_lt(f8_abs(d), f8(TRIG_SMALL_F)))) {
    F8 u = f8_rint(d * f8((float)(2 * M_1_PI)));
    q = _mm256_cvtps_epi32(u);
    s = ff8_add2_vv(f8_fma(u, f8(-PI_A2F * 0.5f), d), u * f8(-PI_B2F * 0.5f));
    s = ff8_add_pv(s, u * f8(-PI_C2F * 0.5f));
  } else {
    pthread_once(&rempi_once, rempi_init);
    s = rem_pio2_f8(d, &q);
    F8 bad = f8_nonfinite(d);
    s = ff8(_mm256_or_ps(s.x, bad), _mm256_or_ps(s.y, bad));
  }
  F8 odd = i8_bit_set(q, 1);
  F8 flip = _mm256_and_ps(odd, f8(-0.0f));
  s = ff8(_mm256_xor_ps(s.x, flip), _mm256_xor_ps(s.y, flip));
  FF8 t = s;
  s = ff8_norm(ff8_squ(s));
  F8 u = f8(0.00446636462584137916564941f);
  u = f8_fma(u, s.x, f8(-8.3920182078145444393158e-05f));
  u = f8_fma(u, s.x, f8(0.0109639242291450500488281f));
  u = f8_fma(u, s.x, f8(0.0212360303848981857299805f));
  u = f8_fma(u, s.x, f8(0.0540687143802642822265625f));
  FF8 x = ff8_add_vv(f8(0.133325666189193725585938f), u * s.x);
  x = ff8_add_vp(f8(1.0f),
                 ff8_mul_pp(ff8_add_vp(f8(0.33333361148834228515625f), ff8_mul_pp(s, x)), s));
  x = ff8_mul_pp(t, x);
  x = ff8_sel(odd, ff8_rec(x), x);
  return f8_sel(f8_is_negzero(d), d, x.x + x.y);
}

/* ---- float64: 4 lanes, double-double pairs; int32 lane counters ---- */

typedef __m256d D4;
typedef __m128i I4;
typedef struct {
  D4 x, y;
} DD4;

static inline D4 d4(double c) { return _mm256_set1_pd(c); }
static inline I4 i4(int c) { return _mm_set1_epi32(c); }
static inline DD4 dd4(D4 x, D4 y) {
  DD4 r = {x, y};
  return r;
}
static inline D4 d4_fma(D4 a, D4 b, D4 c) { return _mm256_fmadd_pd(a, b, c); }
static inline D4 d4_fms(D4 a, D4 b, D4 c) { return _mm256_fmsub_pd(a, b, c); }
static inline D4 d4_fnma(D4 a, D4 b, D4 c) { return _mm256_fnmadd_pd(a, b, c); }
static inline D4 d4_abs(D4 a) { return _mm256_andnot_pd(d4(-0.0), a); }
static inline D4 d4_sel(D4 m, D4 a, D4 b) { return _mm256_blendv_pd(b, a, m); }
static inline D4 d4_lt(D4 a, D4 b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline D4 d4_gt(D4 a, D4 b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline D4 d4_eq(D4 a, D4 b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
static inline D4 d4_isnan(D4 a) { return _mm256_cmp_pd(a, a, _CMP_UNORD_Q); }
static inline D4 d4_rint(D4 a) {
  return _mm256_round_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline D4 d4_trunc(D4 a) {
  return _mm256_round_pd(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
}
static inline D4 d4_nonfinite(D4 d) {
  return _mm256_or_pd(d4_eq(d4_abs(d), d4(INFINITY)), d4_isnan(d));
}
static inline D4 d4_mulsign(D4 x, D4 y) { return _mm256_xor_pd(x, _mm256_and_pd(y, d4(-0.0))); }
static inline bool d4_all(D4 m) { return _mm256_movemask_pd(m) == 0xf; }
static inline D4 d4_of_mask(I4 m) { return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(m)); }
static inline D4 i4_bit_set(I4 q, int bit) {
  return d4_of_mask(_mm_cmpeq_epi32(_mm_and_si128(q, i4(bit)), i4(bit)));
}
static inline I4 i4_sel(D4 m, int a, int b) {
  I4 m32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
      _mm256_castpd_si256(m), _mm256_set_epi32(0, 0, 0, 0, 6, 4, 2, 0)));
  return _mm_blendv_epi8(i4(b), i4(a), m32);
}
static inline D4 d4_pow2i(I4 q) { /* 2^q for q in the normal range */
  return _mm256_castsi256_pd(
      _mm256_slli_epi64(_mm256_cvtepi32_epi64(_mm_add_epi32(q, i4(0x3ff))), 52));
}
static inline D4 d4_ldexp2(D4 d, I4 e) { /* d * 2^e in two steps, so that 2^e may be out of range */
  I4 h = _mm_srai_epi32(e, 1);
  return d * d4_pow2i(h) * d4_pow2i(_mm_sub_epi32(e, h));
}
static inline I4 d4_exponent(D4 d) { /* the unbiased exponent field */
  __m256i e =
      _mm256_and_si256(_mm256_srli_epi64(_mm256_castpd_si256(d), 52), _mm256_set1_epi64x(0x7ff));
  e = _mm256_permutevar8x32_epi32(e, _mm256_set_epi32(0, 0, 0, 0, 6, 4, 2, 0));
  return _mm_sub_epi32(_mm256_castsi256_si128(e), i4(0x3ff));
}
static inline D4 d4_add_exponent(D4 d, I4 q) {
  return _mm256_castsi256_pd(
      _mm256_add_epi64(_mm256_castpd_si256(d), _mm256_slli_epi64(_mm256_cvtepi32_epi64(q), 52)));
}

DEFINE_PAIR_OPS(dd4, DD4, D4, d4(1.0), d4_fma, d4_fms, d4_fnma, d4_sel)
static inline DD4 dd4_scale(DD4 d, double s) { return dd4(d.x * d4(s), d.y * d4(s)); }

/* Polynomials by Estrin's scheme in SLEEF's grouping (its POLYn macros);
 * c[0] is the highest coefficient. */
static inline D4 poly2_d4(D4 x, const double *c) { return d4_fma(x, d4(c[0]), d4(c[1])); }
static inline D4 poly3_d4(D4 x, D4 x2, const double *c) {
  return d4_fma(x2, d4(c[0]), poly2_d4(x, c + 1));
}
static inline D4 poly4_d4(D4 x, D4 x2, const double *c) {
  return d4_fma(x2, poly2_d4(x, c), poly2_d4(x, c + 2));
}
static inline D4 poly6_d4(D4 x, D4 x2, D4 x4, const double *c) {
  return d4_fma(x4, poly2_d4(x, c), poly4_d4(x, x2, c + 2));
}
static inline D4 poly7_d4(D4 x, D4 x2, D4 x4, const double *c) {
  return d4_fma(x4, poly3_d4(x, x2, c), poly4_d4(x, x2, c + 3));
}
static inline D4 poly8_d4(D4 x, D4 x2, D4 x4, const double *c) {
  return d4_fma(x4, poly4_d4(x, x2, c), poly4_d4(x, x2, c + 4));
}
static inline D4 poly10_d4(D4 x, D4 x2, D4 x4, D4 x8, const double *c) {
  return d4_fma(x8, poly2_d4(x, c), poly8_d4(x, x2, x4, c + 2));
}

static inline D4 quarter_rem4(D4 x, I4 *q) {
  D4 y = d4_rint(x * d4(4.0));
  *q = _mm256_cvttpd_epi32(y - d4_rint(x) * d4(4.0));
  return x - y * d4(0.25);
}

/* SLEEF's rempi: the float64 Payne-Hanek reduction (a scaled by 2^-64 above 2^700) */
static DD4 rem_pio2_d4(D4 a, I4 *q) {
  I4 ex = _mm_sub_epi32(d4_exponent(a), i4(55));
  a = d4_add_exponent(a, _mm_and_si128(_mm_cmpgt_epi32(ex, i4(700 - 55)), i4(-64)));
  ex = _mm_min_epi32(_mm_max_epi32(ex, i4(0)), i4(REMPI_ROWS_F64 - 1));
  ex = _mm_slli_epi32(ex, 2);
  I4 turns, more;
  DD4 x = dd4_mul_vv(a, _mm256_i32gather_pd(rempi_f64, ex, 8));
  x.x = quarter_rem4(x.x, &turns);
  x = dd4_norm(x);
  x = dd4_add2_pp(x, dd4_mul_vv(a, _mm256_i32gather_pd(rempi_f64 + 1, ex, 8)));
  x.x = quarter_rem4(x.x, &more);
  x = dd4_norm(x);
  DD4 y = dd4(_mm256_i32gather_pd(rempi_f64 + 2, ex, 8), _mm256_i32gather_pd(rempi_f64 + 3, ex, 8));
  x = dd4_norm(dd4_add2_pp(x, dd4_mul_pv(y, a)));
  x = dd4_mul_pp(x, dd4(d4(3.141592653589793116 * 2), d4(1.2246467991473532072e-16 * 2)));
  D4 small = d4_lt(d4_abs(a), d4(0.7));
  *q = _mm_add_epi32(turns, more);
  return dd4(d4_sel(small, a, x.x), _mm256_andnot_pd(small, x.y));
}

/* pi split for Cody-Waite: PI_A2 + PI_B2 for |x| < 15; four 28-bit-or-less
 * parts for |x| < 1e14, with the multiple of pi split in two */
#define PI_A 3.1415926218032836914
#define PI_B 3.1786509424591713469e-08
#define PI_C 1.2246467864107188502e-16
#define PI_D 1.2736634327021899816e-24
#define PI_A2 3.141592653589793116
#define PI_B2 1.2246467991473532072e-16
#define TRIG_SMALL_D 15.0
#define TRIG_MEDIUM_D 1e14

static DD4 rem_pi_d4(D4 d, I4 *q, bool cosine) {
  pthread_once(&rempi_once, rempi_init);
  I4 quarters;
  DD4 r = rem_pio2_d4(d, &quarters);
  D4 pos = d4_gt(r.x, d4(0.0));
  I4 k = _mm_and_si128(quarters, i4(3));
  k = _mm_add_epi32(_mm_add_epi32(k, k), cosine ? i4_sel(pos, 8, 7) : i4_sel(pos, 2, 1));
  *q = cosine ? _mm_srai_epi32(k, 1) : _mm_srai_epi32(k, 2);
  D4 shift = cosine ? d4_of_mask(_mm_cmpeq_epi32(_mm_and_si128(quarters, i4(1)), i4(0)))
                    : i4_bit_set(quarters, 1);
  D4 y = cosine ? d4_sel(pos, d4(0.0), d4(-1.0)) : r.x;
  DD4 x = dd4(d4_mulsign(d4(-3.141592653589793116 * 0.5), y),
              d4_mulsign(d4(-1.2246467991473532072e-16 * 0.5), y));
  DD4 s = dd4_norm(dd4_sel(shift, dd4_add2_pp(r, x), r));
  s.x = _mm256_or_pd(s.x, d4_nonfinite(d));
  return s;
}

static const double sin_coef_d[6] = {2.72052416138529567917983e-15, -7.6429259411395447190023e-13,
                                     1.60589370117277896211623e-10, -2.5052106814843123359368e-08,
                                     2.75573192104428224777379e-06, -0.000198412698412046454654947};

static D4 sin_poly_d4(DD4 s, D4 flip) {
  DD4 t = s;
  s = dd4_squ(s);
  D4 s2 = s.x * s.x, s4 = s2 * s2;
  D4 u = d4_fma(poly6_d4(s.x, s2, s4, sin_coef_d), s.x, d4(0.00833333333333318056201922));
  DD4 x = dd4_add_vp(d4(1.0), dd4_mul_pp(dd4_add_vv(d4(-0.166666666666666657414808), u * s.x), s));
  return _mm256_xor_pd(dd4_mul_to_v(t, x), _mm256_and_pd(flip, d4(-0.0)));
}

/* SLEEF's xsin_u1 (Sleef_sind4_u10) */
static D4 sin_d4(D4 d) {
  DD4 s;
  I4 q;
  if (d4_all(d4_lt(d4_abs(d), d4(TRIG_SMALL_D)))) {
    D4 dq = d4_rint(d * d4(M_1_PI));
    q = _mm256_cvtpd_epi32(dq);
    s = dd4_add_vv(d4_fma(dq, d4(-PI_A2), d), dq * d4(-PI_B2));
  } else if (d4_all(d4_lt(d4_abs(d), d4(TRIG_MEDIUM_D)))) {
    D4 dqh = d4_trunc(d * d4(M_1_PI / (1 << 24))) * d4(1 << 24);
    D4 dql = d4_rint(d4_fms(d, d4(M_1_PI), dqh));
    q = _mm256_cvtpd_epi32(dql);
    s = dd4_add_vv(d4_fma(dqh, d4(-PI_A), d), dql * d4(-PI_A));
    s = dd4_add2_pv(s, dqh * d4(-PI_B));
    s = dd4_add2_pv(s, dql * d4(-PI_B));
    s = dd4_add2_pv(s, dqh * d4(-PI_C));
    s = dd4_add2_pv(s, dql * d4(-PI_C));
    s = dd4_add_pv(s, (dqh + dql) * d4(-PI_D));
  } else {
    s = rem_pi_d4(d, &q, false);
  }
  return d4_sel(d4_eq(d, d4(0.0)), d, sin_poly_d4(s, i4_bit_set(q, 1)));
}

/* SLEEF's xcos_u1 (Sleef_cosd4_u10) */
static D4 cos_d4(D4 d) {
  DD4 s;
  I4 q;
  if (d4_all(d4_lt(d4_abs(d), d4(TRIG_SMALL_D)))) {
    D4 dq = d4_fma(d4(2.0), d4_rint(d4_fma(d, d4(M_1_PI), d4(-0.5))), d4(1.0));
    q = _mm256_cvtpd_epi32(dq);
    s = dd4_add2_vv(d, dq * d4(-PI_A2 * 0.5));
    s = dd4_add_pv(s, dq * d4(-PI_B2 * 0.5));
  } else if (d4_all(d4_lt(d4_abs(d), d4(TRIG_MEDIUM_D)))) {
    D4 dqh = d4_trunc(d4_fma(d, d4(M_1_PI / (1 << 23)), d4(-M_1_PI / (1 << 24))));
    q = _mm256_cvtpd_epi32(d * d4(M_1_PI) + d4_fma(dqh, d4(-(1 << 23)), d4(-0.5)));
    dqh = dqh * d4(1 << 24);
    q = _mm_add_epi32(_mm_add_epi32(q, q), i4(1));
    D4 dql = _mm256_cvtepi32_pd(q);
    s = dd4_add2_vv(d4_fma(dqh, d4(-PI_A * 0.5), d), dql * d4(-PI_A * 0.5));
    s = dd4_add2_pv(s, dqh * d4(-PI_B * 0.5));
    s = dd4_add2_pv(s, dql * d4(-PI_B * 0.5));
    s = dd4_add2_pv(s, dqh * d4(-PI_C * 0.5));
    s = dd4_add2_pv(s, dql * d4(-PI_C * 0.5));
    s = dd4_add_pv(s, (dqh + dql) * d4(-PI_D * 0.5));
  } else {
    s = rem_pi_d4(d, &q, true);
  }
  return sin_poly_d4(s, d4_of_mask(_mm_cmpeq_epi32(_mm_and_si128(q, i4(2)), i4(0))));
}

static const double tan_coef_d[8] = {+0.3245098826639276316e-3, +0.5619219738114323735e-3,
                                     +0.1460781502402784494e-2, +0.3591611540792499519e-2,
                                     +0.8863268409563113126e-2, +0.2186948728185535498e-1,
                                     +0.5396825399517272970e-1, +0.1333333333330500581e+0};

/* SLEEF's xtan_u1 (Sleef_tand4_u10): tan(x/2) by a polynomial, then the
 * double-angle formula (or its reciprocal on odd quarters) */
static D4 tan_d4(D4 d) {
  DD4 s;
  I4 q;
  if (d4_all(d4_lt(d4_abs(d), d4(TRIG_SMALL_D)))) {
    D4 dq = d4_rint(d * d4(2 * M_1_PI));
    q = _mm256_cvtpd_epi32(dq);
    s = dd4_add_vv(d4_fma(dq, d4(-PI_A2 * 0.5), d), dq * d4(-PI_B2 * 0.5));
  } else if (d4_all(d4_lt(d4_abs(d), d4(TRIG_MEDIUM_D)))) {
    D4 dqh = d4_trunc(d * d4(2 * M_1_PI / (1 << 24))) * d4(1 << 24);
    s = dd4_add2_pv(dd4_mul_pv(dd4(d4(0.63661977236758138243), d4(-3.9357353350364971764e-17)), d),
                    d4_sel(d4_lt(d, d4(0.0)), d4(-0.5), d4(0.5)) - dqh);
    D4 dql = d4_trunc(s.x + s.y);
    q = _mm256_cvtpd_epi32(dql);
    s = dd4_add_vv(d4_fma(dqh, d4(-PI_A * 0.5), d), dql * d4(-PI_A * 0.5));
    s = dd4_add2_pv(s, dqh * d4(-PI_B * 0.5));
    s = dd4_add2_pv(s, dql * d4(-PI_B * 0.5));
    s = dd4_add2_pv(s, dqh * d4(-PI_C * 0.5));
    s = dd4_add2_pv(s, dql * d4(-PI_C * 0.5));
    s = dd4_add_pv(s, (dqh + dql) * d4(-PI_D * 0.5));
  } else {
    pthread_once(&rempi_once, rempi_init);
    s = rem_pio2_d4(d, &q);
    D4 bad = d4_nonfinite(d);
    s = dd4(_mm256_or_pd(s.x, bad), _mm256_or_pd(s.y, bad));
  }
  DD4 t = dd4_scale(s, 0.5);
  s = dd4_squ(t);
  D4 s2 = s.x * s.x, s4 = s2 * s2;
  D4 u = d4_fma(poly8_d4(s.x, s2, s4, tan_coef_d), s.x, d4(+0.3333333333333343695e+0));
  DD4 x = dd4_add_pp(t, dd4_mul_pv(dd4_mul_pp(s, t), u));
  DD4 y = dd4_add_vp(d4(-1.0), dd4_squ(x));
  x = dd4_scale(x, -2.0);
  D4 odd = i4_bit_set(q, 1);
  x = dd4_div(dd4_sel(odd, dd4_neg(y), x), dd4_sel(odd, x, y));
  return d4_sel(d4_eq(d, d4(0.0)), d, x.x + x.y);
}

#define LN2_HI .69314718055966295651160180568695068359375
#define LN2_LO .28235290563031577122588448175013436025525412068e-12
#define INV_LN2 1.442695040888963407359924681001892137426645954152985934135449406931

static const double exp_coef_d[10] = {+0.2081276378237164457e-8, +0.2511210703042288022e-7,
                                      +0.2755762628169491192e-6, +0.2755723402025388239e-5,
                                      +0.2480158687479686264e-4, +0.1984126989855865850e-3,
                                      +0.1388888888914497797e-2, +0.8333333333314938210e-2,
                                      +0.4166666666666602598e-1, +0.1666666666666669072e+0};

/* SLEEF's xexp (Sleef_expd4_u10), its FMA variant */
static D4 exp_d4(D4 d) {
  D4 u = d4_rint(d * d4(INV_LN2));
  I4 q = _mm256_cvtpd_epi32(u);
  D4 s = d4_fma(u, d4(-LN2_LO), d4_fma(u, d4(-LN2_HI), d));
  D4 s2 = s * s, s4 = s2 * s2, s8 = s4 * s4;
  u = poly10_d4(s, s2, s4, s8, exp_coef_d);
  u = d4_fma(d4_fma(d4_fma(u, s, d4(0.5)), s, d4(1.0)), s, d4(1.0));
  u = d4_ldexp2(u, q);
  u = d4_sel(d4_gt(d, d4(709.78271114955742909217217426)), d4(INFINITY), u);
  return _mm256_andnot_pd(d4_lt(d, d4(-1000)), u);
}

static const double log_coef_d[7] = {0.1532076988502701353e+0, 0.1525629051003428716e+0,
                                     0.1818605932937785996e+0, 0.2222214519839380009e+0,
                                     0.2857142932794299317e+0, 0.3999999999635251990e+0,
                                     0.6666666666667333541e+0};

/* SLEEF's xlog_u1 (Sleef_logd4_u10): log m + e log 2 with m in [0.75, 1.5),
 * log m = 2 atanh((m - 1) / (m + 1)) */
static D4 log_d4(D4 d) {
  D4 tiny = d4_lt(d, d4(DBL_MIN));
  d = d4_sel(tiny, d * d4(0x1p64), d);
  I4 e = d4_exponent(d * d4(1.0 / 0.75));
  D4 m = d4_add_exponent(d, _mm_sub_epi32(i4(0), e));
  I4 e64 = _mm_sub_epi32(e, i4(64));
  e = _mm_blendv_epi8(e, e64,
                      _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
                          _mm256_castpd_si256(tiny), _mm256_set_epi32(0, 0, 0, 0, 6, 4, 2, 0))));
  DD4 x = dd4_div(dd4_add2_vv(d4(-1.0), m), dd4_add2_vv(d4(1.0), m));
  D4 x2 = x.x * x.x, x4 = x2 * x2, x8 = x4 * x4;
  D4 t = poly7_d4(x2, x4, x8, log_coef_d);
  DD4 s = dd4_mul_pv(dd4(d4(0.693147180559945286226764), d4(2.319046813846299558417771e-17)),
                     _mm256_cvtepi32_pd(e));
  s = dd4_add_pp(s, dd4_scale(x, 2.0));
  s = dd4_add_pv(s, x2 * x.x * t);
  D4 r = s.x + s.y;
  r = d4_sel(d4_eq(d, d4(INFINITY)), d4(INFINITY), r);
  r = d4_sel(_mm256_or_pd(d4_lt(d, d4(0.0)), d4_isnan(d)), d4(NAN), r);
  return d4_sel(d4_eq(d, d4(0.0)), d4(-INFINITY), r);
}

static const double expk2_coef_d[10] = {+0.1602472219709932072e-9, +0.2092255183563157007e-8,
                                        +0.2505230023782644465e-7, +0.2755724800902135303e-6,
                                        +0.2755731892386044373e-5, +0.2480158735605815065e-4,
                                        +0.1984126984148071858e-3, +0.1388888888886763255e-2,
                                        +0.8333333333333347095e-2, +0.4166666666666669905e-1};

/* SLEEF's expk2: e^d for a double-double d, as a double-double */
static DD4 exp_dd4(DD4 d) {
  D4 dq = d4_rint((d.x + d.y) * d4(INV_LN2));
  I4 q = _mm256_cvtpd_epi32(dq);
  DD4 s = dd4_add2_pv(dd4_add2_pv(d, dq * d4(-LN2_HI)), dq * d4(-LN2_LO));
  DD4 s2 = dd4_squ(s), s4 = dd4_squ(s2);
  D4 u = poly10_d4(s.x, s2.x, s4.x, s4.x * s4.x, expk2_coef_d);
  DD4 t = dd4_add_vp(d4(0.5), dd4_mul_pv(s, d4(+0.1666666666666666574e+0)));
  t = dd4_add_vp(d4(1.0), dd4_mul_pp(t, s));
  t = dd4_add_vp(d4(1.0), dd4_mul_pp(t, s));
  t = dd4_add_pp(t, dd4_mul_pv(s4, u));
  D4 under = d4_lt(d.x, d4(-1000));
  return dd4(_mm256_andnot_pd(under, d4_ldexp2(t.x, q)),
             _mm256_andnot_pd(under, d4_ldexp2(t.y, q)));
}

/* SLEEF's xtanh (Sleef_tanhd4_u10): (e - 1/e) / (e + 1/e) in double-double */
static D4 tanh_d4(D4 x) {
  DD4 d = exp_dd4(dd4(d4_abs(x), d4(0.0)));
  DD4 e = dd4_rec(d);
  d = dd4_div(dd4_add2_pp(d, dd4_neg(e)), dd4_add2_pp(d, e));
  D4 y = d.x + d.y;
  y = d4_sel(_mm256_or_pd(d4_gt(d4_abs(x), d4(18.714973875)), d4_isnan(y)), d4(1.0), y);
  return _mm256_or_pd(d4_mulsign(y, x), d4_isnan(x));
}

/* ---- the vml loop: groups of 8 (4) from the run's start, the last padded with zeros ---- */

static void vml_f32(F8 (*fn)(F8), int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  int64_t i = 0;
  if (sa == 4 && so == 4) {
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps((float *)(o + i * 4), fn(_mm256_loadu_ps((const float *)(a + i * 4))));
  }
  for (; i < n; i += 8) {
    float buf[8] = {0};
    int64_t m = n - i < 8 ? n - i : 8;
    for (int64_t j = 0; j < m; j++) buf[j] = *(const float *)(a + (i + j) * sa);
    _mm256_storeu_ps(buf, fn(_mm256_loadu_ps(buf)));
    for (int64_t j = 0; j < m; j++) *(float *)(o + (i + j) * so) = buf[j];
  }
}

static void vml_f64(D4 (*fn)(D4), int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  int64_t i = 0;
  if (sa == 8 && so == 8) {
    for (; i + 4 <= n; i += 4)
      _mm256_storeu_pd((double *)(o + i * 8), fn(_mm256_loadu_pd((const double *)(a + i * 8))));
  }
  for (; i < n; i += 4) {
    double buf[4] = {0};
    int64_t m = n - i < 4 ? n - i : 4;
    for (int64_t j = 0; j < m; j++) buf[j] = *(const double *)(a + (i + j) * sa);
    _mm256_storeu_pd(buf, fn(_mm256_loadu_pd(buf)));
    for (int64_t j = 0; j < m; j++) *(double *)(o + (i + j) * so) = buf[j];
  }
}

/* ---- erf, for gelu's vector formula (Vectorized<T>::erf is Sleef_erff8_u10 / Sleef_erfd4_u10)
 * ---- */

/* x * 2^q in two scalings, so that 2^q may be out of range (SLEEF's vldexp2) */
static inline F8 ldexp2_f8(F8 x, I8 q) {
  I8 h = _mm256_srai_epi32(q, 1);
  F8 a = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(h, i8(0x7f)), 23));
  F8 b = _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(q, h), i8(0x7f)), 23));
  return x * a * b;
}

/* SLEEF's expk2f: e^d for a float-float d, as a float-float (the exp inside float tanh) */
static FF8 exp_ff8(FF8 d) {
  I8 q = _mm256_cvtps_epi32(
      (d.x + d.y) * f8(1.442695040888963407359924681001892137426645954152985934135449406931f));
  F8 fq = _mm256_cvtepi32_ps(q);
  FF8 s = ff8_add2_pv(ff8_add2_pv(d, fq * f8(-0.693145751953125f)),
                      fq * f8(-1.428606765330187045e-06f));
  F8 u = f8(0.1980960224e-3f);
  u = f8_fma(u, s.x, f8(0.1394256484e-2f));
  u = f8_fma(u, s.x, f8(0.8333456703e-2f));
  u = f8_fma(u, s.x, f8(0.4166637361e-1f));
  FF8 t = ff8_add2_pv(ff8_mul_pv(s, u), f8(0.166666659414234244790680580464e+0f));
  t = ff8_add2_pv(ff8_mul_pp(s, t), f8(0.5f));
  t = ff8_add2_pp(s, ff8_mul_pp(ff8_squ(s), t));
  t = ff8_add_vp(f8(1.0f), t);
  F8 under = f8_lt(d.x, f8(-104.0f));
  return ff8(_mm256_andnot_ps(under, ldexp2_f8(t.x, q)),
             _mm256_andnot_ps(under, ldexp2_f8(t.y, q)));
}

/* a float-float constant: d rounded to float, and the rest */
static inline FF8 ff8_const(double d) { return ff8(f8((float)d), f8((float)(d - (float)d))); }

/* SLEEF 3.5's xerff_u1: on [0, 1.1) x times a polynomial in x^2, on [1.1, 2.4)
 * and [2.4, 4) 1 - e^(x p(x)), 1 beyond; the coefficients picked per lane. */
static F8 erf_f8(F8 a) {
  F8 x = f8_abs(a), o0 = f8_lt(x, f8(1.1f)), o1 = f8_lt(x, f8(2.4f)), o2 = f8_lt(x, f8(4.0f));
#define C(c0, c1, c2) f8_sel(o0, f8(c0), f8_sel(o1, f8(c1), f8(c2)))
#define CC(c0, c1, c2) ff8_sel(o0, ff8_const(c0), ff8_sel(o1, ff8_const(c1), ff8_const(c2)))
  F8 u = f8_sel(o0, x * x, x);
  F8 t = C(+0.7089292194e-4f, -0.1792667899e-4f, -0.9495757695e-5f);
  t = f8_fma(t, u, C(-0.7768311189e-3f, +0.3937633010e-3f, +0.2481465926e-3f));
  t = f8_fma(t, u, C(+0.5159463733e-2f, -0.3949181177e-2f, -0.2918176819e-2f));
  t = f8_fma(t, u, C(-0.2683781274e-1f, +0.2445474640e-1f, +0.2059706673e-1f));
  t = f8_fma(t, u, C(+0.1128318012e+0f, -0.1070996150e+0f, -0.9901899844e-1f));
  FF8 d = ff8_mul_vv(t, u);
  d = ff8_add2_pp(d, CC(-0.376125876000657465175213237214e+0, -0.634588905908410389971210809210e+0,
                        -0.643598050547891613081201721633e+0));
  d = ff8_mul_pv(d, u);
  d = ff8_add2_pp(d, CC(+0.112837916021059138255978217023e+1, -0.112879855826694507209862753992e+1,
                        -0.112461487742845562801052956293e+1));
#undef C
#undef CC
  d = ff8_mul_pv(d, x);
  if (!f8_all(o0)) {
    FF8 e = exp_ff8(d);
    d = ff8_sel(o0, d, ff8_add_vp(f8(1.0f), ff8(-e.x, -e.y)));
  }
  F8 z = f8_mulsign(f8_sel(o2, d.x + d.y, f8(1.0f)), a);
  return _mm256_or_ps(z, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

/* SLEEF 3.5's xerf_u1 coefficients for [0, 1), [1, 3.7), [3.7, 6): a polynomial
 * of degree 19 (highest first), then a double-double constant term */
static const double erf_coef_d[20][3] = {
    {+0.6801072401395392157e-20, +0.2830954522087717660e-13, -0.5846750404269610493e-17},
    {-0.2161766247570056391e-18, -0.1509491946179481940e-11, +0.6076691048812607898e-15},
    {+0.4695919173301598752e-17, +0.3827857177807173152e-10, -0.3007518609604893831e-13},
    {-0.9049140419888010819e-16, -0.6139733921558987241e-09, +0.9427906260824646063e-12},
    {+0.1634018903557411517e-14, +0.6985387934608038824e-08, -0.2100110908269393629e-10},
    {-0.2783485786333455216e-13, -0.5988224513034371474e-07, +0.3534639523461223473e-09},
    {+0.4463221276786412722e-12, +0.4005716952355346640e-06, -0.4664967728285395926e-08},
    {-0.6711366622850138987e-11, -0.2132190104575784400e-05, +0.4943823283769000532e-07},
    {+0.9422759050232658346e-10, +0.9092461304042630325e-05, -0.4271203394761148254e-06},
    {-0.1229055530100228477e-08, -0.3079188080966205457e-04, +0.3034067677404915895e-05},
    {+0.1480719281585085023e-07, +0.7971413443082370762e-04, -0.1776295289066871135e-04},
    {-0.1636584469123402714e-06, -0.1387853215225442864e-03, +0.8524547630559505050e-04},
    {+0.1646211436588923363e-05, +0.6469678026257590965e-04, -0.3290582944961784398e-03},
    {-0.1492565035840624866e-04, +0.4996645280372945860e-03, +0.9696966068789101157e-03},
    {+0.1205533298178966496e-03, -0.1622802482842520535e-02, -0.1812527628046986137e-02},
    {-0.8548327023450851166e-03, +0.1615320557049377171e-03, -0.4725409828123619017e-03},
    {+0.5223977625442188799e-02, +0.1915262325574875607e-01, +0.2090315427924229266e-01},
    {-0.2686617064513125569e-01, -0.1027818298486033455e+00, -0.1052041921842776645e+00},
    {+0.1128379167095512753e+00, -0.6366172819842503827e+00, -0.6345351808766568347e+00},
    {-0.3761263890318375380e+00, -0.1128379590648910469e+01, -0.1129442929103524396e+01}};
static const double erf_const_d[3][2] = {{1.1283791670955125586, 1.5335459613165822674e-17},
                                         {3.4110644736196137587e-08, -2.4875650708323294246e-24},
                                         {0.00024963035690526438285, -5.4362665034856259795e-21}};

/* SLEEF 3.5's xerf_u1: as the float one with [0, 1), [1, 3.7), [3.7, 6) */
static D4 erf_d4(D4 a) {
  D4 x = d4_abs(a), o0 = d4_lt(x, d4(1.0)), o1 = d4_lt(x, d4(3.7)), o2 = d4_lt(x, d4(6.0));
#define C(k, j) d4_sel(o0, d4(erf_##k[j][0]), d4_sel(o1, d4(erf_##k[j][1]), d4(erf_##k[j][2])))
  D4 u = d4_sel(o0, x * x, x);
  D4 t = C(coef_d, 0);
  for (int k = 1; k < 20; k++) t = d4_fma(t, u, C(coef_d, k));
#undef C
  DD4 c = dd4_sel(o0, dd4(d4(erf_const_d[0][0]), d4(erf_const_d[0][1])),
                  dd4_sel(o1, dd4(d4(erf_const_d[1][0]), d4(erf_const_d[1][1])),
                          dd4(d4(erf_const_d[2][0]), d4(erf_const_d[2][1]))));
  DD4 d = dd4_add2_pp(dd4_mul_vv(t, u), c);
  if (d4_all(o0)) {
    d = dd4_mul_pv(d, x);
  } else {
    DD4 e = exp_dd4(d);
    d = dd4_sel(o0, dd4_mul_pv(d, x), dd4_add_vp(d4(1.0), dd4_neg(e)));
  }
  D4 z = d4_mulsign(d4_sel(o2, d.x + d.y, d4(1.0)), a);
  return _mm256_or_pd(z, d4_isnan(x));
}

/* the same for float64, n % 4 == 0 */
static void gelu_vec_f64(int64_t n, const double *a, int64_t sa, double *o) {
  for (int64_t i = 0; i < n; i += 4) {
    D4 x = sa ? _mm256_loadu_pd(a + i) : d4(*a);
    _mm256_storeu_pd(o + i, x * d4(0.5) * (d4(1.0) + erf_d4(x * d4(M_SQRT1_2))));
  }
}

/* gelu's vector formula, x * 0.5 * (1 + erf(x / sqrt 2)), over n floats
 * (n % 8 == 0) contiguous or, with a stride of 0, all the same */
static void gelu_vec_f32(int64_t n, const float *a, int64_t sa, float *o) {
  for (int64_t i = 0; i < n; i += 8) {
    F8 x = sa ? _mm256_loadu_ps(a + i) : f8(*a);
    _mm256_storeu_ps(o + i, x * f8(0.5f) * (f8(1.0f) + erf_f8(x * f8((float)M_SQRT1_2))));
  }
}

/* oneDNN's eltwise exp (v2.6, jit_uni_eltwise_injector): x clamped to the
 * float range, n = floor(x log2 e + 1/2), a degree-5 polynomial in
 * r = x - n ln 2, times 2^(n-1) times 2; 0 below ln FLT_MIN. */
static float onednn_expf(float x) {
  bool under = x < -0x1.5d58ap+6f;
  x = x < 0x1.62e43p+6f ? x : 0x1.62e43p+6f; /* vminps/vmaxps: a nan becomes the bound */
  x = x > -0x1.5d58ap+6f ? x : -0x1.5d58ap+6f;
  float fx = floorf(x * 0x1.715476p+0f + 0.5f);
  float r = __builtin_fmaf(-fx, 0x1.62e43p-1f, x);
  uint32_t bits = (uint32_t)((int32_t)(fx - 1.0f) + 127) << 23;
  float scale;
  memcpy(&scale, &bits, sizeof scale);
  if (under) scale = 0.0f;
  float p = __builtin_fmaf(0x1.0f9f9cp-7f, r, 0x1.573a1ap-5f);
  p = __builtin_fmaf(p, r, 0x1.555a8p-3f);
  p = __builtin_fmaf(p, r, 0x1.fffdc6p-2f);
  p = __builtin_fmaf(p, r, 0x1.fffff6p-1f);
  p = __builtin_fmaf(p, r, 1.0f);
  return p * scale * 2.0f;
}

/* PyTorch 1.13 hands a contiguous float32 gelu of more than one element to
 * oneDNN (its mkldnn build), whose AVX2/AVX-512 kernel approximates erf by
 * Abramowitz and Stegun 7.1.26 around the exp above:
 * gelu(s) = s/2 + s/2 * sign(s) (1 - t r(t) e^(-x^2)), x = s/sqrt 2,
 * t = 1 / (1 + p|x|). No lane depends on another. */
static void gelu_onednn_f32(int64_t n, const float *a, float *o) {
  for (int64_t i = 0; i < n; i++) {
    float s = a[i], x = s * 0x1.6a09e6p-1f;
    float t = 1.0f / __builtin_fmaf(0x1.4f740ap-2f, fabsf(x), 1.0f);
    float e = -onednn_expf(-(x * x)) * t;
    float r = __builtin_fmaf(0x1.0fb844p+0f, t, -0x1.7401c6p+0f);
    r = __builtin_fmaf(r, t, 0x1.6be1c6p+0f);
    r = __builtin_fmaf(r, t, -0x1.23531cp-2f);
    r = __builtin_fmaf(r, t, 0x1.04f20cp-2f);
    float erf = __builtin_fmaf(e, r, 1.0f);
    uint32_t eb, sb;
    memcpy(&eb, &erf, sizeof eb);
    memcpy(&sb, &s, sizeof sb);
    eb ^= sb & UINT32_C(0x80000000);
    memcpy(&erf, &eb, sizeof erf);
    float half = s * 0.5f;
    o[i] = __builtin_fmaf(erf, half, half);
  }
}

/* sigmoid's vector formula for float64, 1 / (exp(0 - x) + 1), likewise */
static void sigmoid_vec_f64(int64_t n, const double *a, int64_t sa, double *o) {
  for (int64_t i = 0; i < n; i += 4) {
    D4 e = exp_d4(d4(0.0) - (sa ? _mm256_loadu_pd(a + i) : d4(*a)));
    _mm256_storeu_pd(o + i, d4(1.0) / (e + d4(1.0)));
  }
}

/* gelu'(s) as oneDNN's gelu_erf backward computes it, with r = s/sqrt 2:
 * 1/2 + r e^(-r^2)/sqrt(pi) + erf(r)/2, erf as in gelu_onednn_f32; the
 * caller multiplies by the gradient. */
static float gelu_grad_onednn_f32(float s) {
  float r = s * 0x1.6a09e6p-1f, q = onednn_expf(-(r * r));
  float pdf = r * 0x1.20dd74p-1f * q; /* 1/sqrt(pi) as a float */
  float t = 1.0f / __builtin_fmaf(0x1.4f740ap-2f, fabsf(r), 1.0f);
  float p = __builtin_fmaf(0x1.0fb844p+0f, t, -0x1.7401c6p+0f);
  p = __builtin_fmaf(p, t, 0x1.6be1c6p+0f);
  p = __builtin_fmaf(p, t, -0x1.23531cp-2f);
  p = __builtin_fmaf(p, t, 0x1.04f20cp-2f);
  float erf = __builtin_fmaf(-q * t, p, 1.0f);
  if (signbit(r)) erf = -erf;
  return __builtin_fmaf(erf, 0.5f, pdf + 0.5f);
}

static void gelu_backward_onednn_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                     float *o) {
  for (int64_t i = 0; i < n; i++) o[i] = g[i * sg] * gelu_grad_onednn_f32(x[i]);
}

/* ATen's vector formula for gelu's backward, g * (cdf + x pdf) with
 * cdf = 0.5 (1 + erf(x / sqrt 2)), pdf = e^(x x -0.5) / sqrt(2 pi): over n
 * elements (n % 8 == 0, resp. 4), each of g and x contiguous or (stride 0)
 * one value. GCC contracts cdf + x * pdf into an FMA there. */
static void gelu_backward_vec_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                  int64_t sx, float *o) {
  for (int64_t i = 0; i < n; i += 8) {
    F8 xv = sx ? _mm256_loadu_ps(x + i) : f8(*x), gv = sg ? _mm256_loadu_ps(g + i) : f8(*g);
    F8 cdf = f8(0.5f) * (f8(1.0f) + erf_f8(xv * f8((float)M_SQRT1_2)));
    float e[8];
    _mm256_storeu_ps(e, xv * xv * f8(-0.5f));
    for (int k = 0; k < 8; k++) e[k] = tensor_expf(e[k]); /* SLEEF's expf has no lane dependence */
    F8 pdf = f8((float)(M_2_SQRTPI * M_SQRT1_2 * 0.5)) * _mm256_loadu_ps(e);
    _mm256_storeu_ps(o + i, gv * _mm256_fmadd_ps(xv, pdf, cdf));
  }
}

static void gelu_backward_vec_f64(int64_t n, const double *g, int64_t sg, const double *x,
                                  int64_t sx, double *o) {
  for (int64_t i = 0; i < n; i += 4) {
    D4 xv = sx ? _mm256_loadu_pd(x + i) : d4(*x), gv = sg ? _mm256_loadu_pd(g + i) : d4(*g);
    D4 cdf = d4(0.5) * (d4(1.0) + erf_d4(xv * d4(M_SQRT1_2)));
    D4 pdf = d4(M_2_SQRTPI * M_SQRT1_2 * 0.5) * exp_d4(xv * xv * d4(-0.5));
    _mm256_storeu_pd(o + i, gv * _mm256_fmadd_pd(xv, pdf, cdf));
  }
}

AVX2_END
#endif /* VECMATH_X86 */

/* ---- entry points ---- */

static inline float sigmoidf_scalar(float x) { return 1.0f / (1.0f + expf(-x)); }
static inline float geluf_scalar(float x) { return x * 0.5f * (1.0f + erff(x * (float)M_SQRT1_2)); }
static inline double gelu_scalar(double x) { return x * 0.5 * (1.0 + erf(x * M_SQRT1_2)); }

/* cpu_kernel_vec's split: the vector formula on contiguous runs, two vectors
 * (16 floats, 8 doubles) at a time; where it stops */
static int64_t vec_part(int64_t n, int64_t sa, int64_t so, int64_t esize, int64_t per_step) {
  return (sa == esize || sa == 0) && so == esize ? n / per_step * per_step : 0;
}

bool tensor_vecmath_f32(UnaryOp op, int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride) {
  const char *a = in;
  char *o = out;
  bool avx2 = cpu_has_avx2_fma();
  switch (op) {
  case UN_EXP: tensor_expf_array(n, in, in_stride, out, out_stride); return true;
  case UN_LOG: tensor_logf_array(n, in, in_stride, out, out_stride); return true;
  case UN_TANH: tensor_tanhf_array(n, in, in_stride, out, out_stride); return true;
  case UN_SIN:
  case UN_COS:
  case UN_TAN:
#if VECMATH_X86
    if (avx2) {
      vml_f32(op == UN_SIN   ? sin_f8
              : op == UN_COS ? cos_f8
                             : tan_f8,
              n, a, in_stride, o, out_stride);
      return true;
    }
#endif
    for (int64_t i = 0; i < n; i++) {
      float x = *(const float *)(a + i * in_stride);
      *(float *)(o + i * out_stride) = op == UN_SIN ? sinf(x) : op == UN_COS ? cosf(x) : tanf(x);
    }
    return true;
  case UN_SIGMOID: {
    int64_t v = vec_part(n, in_stride, out_stride, 4, 16);
    for (int64_t i = 0; i < n; i++) {
      float x = *(const float *)(a + i * in_stride);
      *(float *)(o + i * out_stride) =
          i < v ? 1.0f / (1.0f + tensor_expf(0.0f - x)) : sigmoidf_scalar(x);
    }
    return true;
  }
  case UN_GELU: {
    int64_t v = avx2 ? vec_part(n, in_stride, out_stride, 4, 16) : 0;
#if VECMATH_X86
    if (v) gelu_vec_f32(v, in, in_stride, out);
#endif
    for (int64_t i = v; i < n; i++)
      *(float *)(o + i * out_stride) = geluf_scalar(*(const float *)(a + i * in_stride));
    return true;
  }
  default: return false;
  }
}

void tensor_gelu_dense_f32(int64_t n, const float *in, float *out) {
#if VECMATH_X86
  if (cpu_has_avx2_fma()) {
    gelu_onednn_f32(n, in, out);
    return;
  }
#endif
  for (int64_t i = 0; i < n; i++) out[i] = geluf_scalar(in[i]);
}

bool tensor_vecmath_f64(UnaryOp op, int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride) {
  const char *a = in;
  char *o = out;
  bool avx2 = cpu_has_avx2_fma();
#if VECMATH_X86
  D4 (*fn)(D4) = NULL;
#define VEC_FN(f) fn = f,
#else
#define VEC_FN(f)
#endif
  double (*libm)(double) = NULL;
  switch (op) {
  case UN_EXP: VEC_FN(exp_d4) libm = exp; break;
  case UN_LOG: VEC_FN(log_d4) libm = log; break;
  case UN_SIN: VEC_FN(sin_d4) libm = sin; break;
  case UN_COS: VEC_FN(cos_d4) libm = cos; break;
  case UN_TAN: VEC_FN(tan_d4) libm = tan; break;
  case UN_TANH: VEC_FN(tanh_d4) libm = tanh; break;
#undef VEC_FN
  case UN_SIGMOID: {
    int64_t v = avx2 ? vec_part(n, in_stride, out_stride, 8, 8) : 0;
#if VECMATH_X86
    if (v) sigmoid_vec_f64(v, in, in_stride, out);
#endif
    for (int64_t i = v; i < n; i++) {
      double x = *(const double *)(a + i * in_stride);
      *(double *)(o + i * out_stride) = 1.0 / (1.0 + exp(-x));
    }
    return true;
  }
  case UN_GELU: {
    int64_t v = avx2 ? vec_part(n, in_stride, out_stride, 8, 8) : 0;
#if VECMATH_X86
    if (v) gelu_vec_f64(v, in, in_stride, out);
#endif
    for (int64_t i = v; i < n; i++)
      *(double *)(o + i * out_stride) = gelu_scalar(*(const double *)(a + i * in_stride));
    return true;
  }
  default: return false;
  }
#if VECMATH_X86
  if (avx2) {
    vml_f64(fn, n, a, in_stride, o, out_stride);
    return true;
  }
#endif
  for (int64_t i = 0; i < n; i++)
    *(double *)(o + i * out_stride) = libm(*(const double *)(a + i * in_stride));
  return true;
}

/* ATen's scalar formula (the C library's erf and exp, no FMA) */
static inline float gelu_backward_scalar_f32(float g, float x) {
  float cdf = 0.5f * (1.0f + erff(x * (float)M_SQRT1_2));
  float pdf = (float)(M_2_SQRTPI * M_SQRT1_2 * 0.5) * expf(x * x * -0.5f);
  return g * (cdf + x * pdf);
}

static inline double gelu_backward_scalar_f64(double g, double x) {
  double cdf = 0.5 * (1.0 + erf(x * M_SQRT1_2));
  double pdf = (M_2_SQRTPI * M_SQRT1_2 * 0.5) * exp(x * x * -0.5);
  return g * (cdf + x * pdf);
}

/* cpu_kernel_vec's split for a binary op: vectors while both inputs are
 * contiguous or one of them is a single value, 16 floats / 8 doubles a step */
static int64_t vec_part2(int64_t n, int64_t sg, int64_t sx, int64_t per_step) {
  bool ok = (sg == 1 && sx == 1) || (sg == 0 && sx == 1) || (sg == 1 && sx == 0);
  return ok && cpu_has_avx2_fma() ? n / per_step * per_step : 0;
}

void tensor_gelu_backward_row_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                  int64_t sx, float *o) {
  int64_t v = vec_part2(n, sg, sx, 16);
#if VECMATH_X86
  if (v) gelu_backward_vec_f32(v, g, sg, x, sx, o);
#endif
  for (int64_t i = v; i < n; i++) o[i] = gelu_backward_scalar_f32(g[i * sg], x[i * sx]);
}

void tensor_gelu_backward_row_f64(int64_t n, const double *g, int64_t sg, const double *x,
                                  int64_t sx, double *o) {
  int64_t v = vec_part2(n, sg, sx, 8);
#if VECMATH_X86
  if (v) gelu_backward_vec_f64(v, g, sg, x, sx, o);
#endif
  for (int64_t i = v; i < n; i++) o[i] = gelu_backward_scalar_f64(g[i * sg], x[i * sx]);
}

bool tensor_gelu_backward_dense_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                    float *o) {
#if VECMATH_X86
  if (!cpu_has_avx2_fma()) return false;
  gelu_backward_onednn_f32(n, g, sg, x, o);
  return true;
#else
  return false;
#endif
}
