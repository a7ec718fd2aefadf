/* vecmath.c — float32 exp computed exactly as PyTorch 1.13 computes it on
 * x86-64 (ATen's AVX2 kernels call SLEEF's Sleef_expf8_u10, which uses FMA):
 * Cody-Waite reduction by ln 2, a degree-6 polynomial, scaling by 2^q. Its
 * results differ from the C library's expf in the last bit now and then,
 * which shows in printed values (exp(4) = 54.5982 in PyTorch, 54.5981 with
 * expf), so exp, softmax and friends use it for float32.
 *
 * fmaf is exact whether or not the CPU has FMA; the loop is compiled twice
 * and the FMA version chosen at run time, for speed only. */
#include <math.h>
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
