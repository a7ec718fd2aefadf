/* vecmath.c — float32 exp computed exactly as PyTorch 1.13 computes it on
 * x86-64 (ATen's AVX2 kernels call SLEEF's Sleef_expf8_u10, which uses FMA):
 * Cody-Waite reduction by ln 2, a degree-6 polynomial, scaling by 2^q. Its
 * results differ from the C library's expf in the last bit now and then,
 * which shows in printed values (exp(4) = 54.5982 in PyTorch, 54.5981 with
 * expf), so exp, softmax and friends use it for float32. log likewise
 * (SLEEF's logf_u10: double-float arithmetic around a short polynomial).
 *
 * fmaf is exact whether or not the CPU has FMA; the loop is compiled twice
 * and the FMA version chosen at run time, for speed only. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tensor/tensor_internal.h"

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

__attribute__((target("avx2,fma"))) static void expf_loop_fma(int64_t n, const char *a,
                                                               int64_t sa, char *o, int64_t so) {
  EXPF_LOOP
}

static void expf_loop_plain(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  EXPF_LOOP
}

void tensor_expf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride) {
  static int has_fma = -1; /* a benign race: every thread computes the same */
  if (has_fma < 0) has_fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (has_fma)
    expf_loop_fma(n, in, in_stride, out, out_stride);
  else
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

__attribute__((target("avx2,fma"))) static void logf_loop_fma(int64_t n, const char *a,
                                                               int64_t sa, char *o, int64_t so) {
  LOGF_LOOP
}

static void logf_loop_plain(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  LOGF_LOOP
}

void tensor_logf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride) {
  static int has_fma = -1;
  if (has_fma < 0) has_fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (has_fma)
    logf_loop_fma(n, in, in_stride, out, out_stride);
  else
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

__attribute__((target("avx2,fma"))) static void tanhf_loop_fma(int64_t n, const char *a,
                                                                int64_t sa, char *o, int64_t so);
static void tanhf_loop_plain(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  for (int64_t i = 0; i < n; i++)
    *(float *)(o + i * so) = tanhf_body_plain(*(const float *)(a + i * sa));
}

#pragma GCC push_options
#pragma GCC target("avx2,fma")
DF_HELPERS(_fma, __builtin_fmaf)
static void tanhf_loop_fma(int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  for (int64_t i = 0; i < n; i++)
    *(float *)(o + i * so) = tanhf_body_fma(*(const float *)(a + i * sa));
}
#pragma GCC pop_options

void tensor_tanhf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride) {
  static int has_fma = -1;
  if (has_fma < 0) has_fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (has_fma)
    tanhf_loop_fma(n, in, in_stride, out, out_stride);
  else
    tanhf_loop_plain(n, in, in_stride, out, out_stride);
}
