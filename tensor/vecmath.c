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
