/* transcend_avx2.c — the AVX2 kernels of transcend.c: ATen's vector loops
 * (PyTorch 1.13, CPU_CAPABILITY_AVX2) around the very SLEEF functions ATen
 * calls there (Vectorized<float>::exp is Sleef_expf8_u10, ::sin is
 * Sleef_sinf8_u10, ...; SLEEF's dispatcher picks the _avx2 build of each on
 * a CPU with AVX2 and FMA, which is the one called here by name).
 *
 * This is the only file compiled with -mavx2 -mfma (see the Makefile), and
 * nothing in it runs unless transcend.c has checked the CPU at run time. It
 * holds, besides SLEEF's loops, the two kernels PyTorch takes from oneDNN for
 * float32 gelu (oneDNN's own exp and erf approximations, which no library of
 * ours provides: they live inside oneDNN's JIT). */
#if defined(__x86_64__) && defined(AG_HAVE_SLEEF)

#if !defined(__AVX2__) || !defined(__FMA__)
#error "tensor/transcend_avx2.c must be compiled with -mavx2 -mfma"
#endif

#include <immintrin.h>
#include <math.h>
#include <sleef.h>
#include <string.h>

#include "tensor/transcend.h"

typedef __m256 F8;
typedef __m256d D4;

/* SLEEF's function for op (a switch rather than a table of function
 * pointers: sleef.h declares them const-qualified under Clang) */
static inline F8 sleef_f8(UnaryOp op, F8 x) {
  switch (op) {
  case UN_EXP: return Sleef_expf8_u10avx2(x);
  case UN_LOG: return Sleef_logf8_u10avx2(x);
  case UN_LOG10: return Sleef_log10f8_u10avx2(x);
  case UN_LOG2: return Sleef_log2f8_u10avx2(x);
  case UN_SIN: return Sleef_sinf8_u10avx2(x);
  case UN_COS: return Sleef_cosf8_u10avx2(x);
  case UN_TAN: return Sleef_tanf8_u10avx2(x);
  default: return Sleef_tanhf8_u10avx2(x);
  }
}

static inline D4 sleef_d4(UnaryOp op, D4 x) {
  switch (op) {
  case UN_EXP: return Sleef_expd4_u10avx2(x);
  case UN_LOG: return Sleef_logd4_u10avx2(x);
  case UN_LOG10: return Sleef_log10d4_u10avx2(x);
  case UN_LOG2: return Sleef_log2d4_u10avx2(x);
  case UN_SIN: return Sleef_sind4_u10avx2(x);
  case UN_COS: return Sleef_cosd4_u10avx2(x);
  case UN_TAN: return Sleef_tand4_u10avx2(x);
  default: return Sleef_tanhd4_u10avx2(x);
  }
}

/* ATen's vml loop: groups of 8 floats (4 doubles) counted from the start of
 * the run, the last one padded with zeros; a strided run goes through a
 * buffer, so it groups the same way. The group matters for sin, cos and tan:
 * SLEEF picks its argument reduction once per vector. */
/* op is one of exp, log, log10, log2, sin, cos, tan, tanh */
void avx2_vml_f32(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  int64_t i = 0;
  if (sa == 4 && so == 4) {
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps((float *)(o + i * 4), sleef_f8(op, _mm256_loadu_ps((const float *)(a + i * 4))));
  }
  for (; i < n; i += 8) {
    float buf[8] = {0};
    int64_t m = n - i < 8 ? n - i : 8;
    for (int64_t j = 0; j < m; j++) buf[j] = *(const float *)(a + (i + j) * sa);
    _mm256_storeu_ps(buf, sleef_f8(op, _mm256_loadu_ps(buf)));
    for (int64_t j = 0; j < m; j++) *(float *)(o + (i + j) * so) = buf[j];
  }
}

void avx2_vml_f64(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  int64_t i = 0;
  if (sa == 8 && so == 8) {
    for (; i + 4 <= n; i += 4)
      _mm256_storeu_pd((double *)(o + i * 8), sleef_d4(op, _mm256_loadu_pd((const double *)(a + i * 8))));
  }
  for (; i < n; i += 4) {
    double buf[4] = {0};
    int64_t m = n - i < 4 ? n - i : 4;
    for (int64_t j = 0; j < m; j++) buf[j] = *(const double *)(a + (i + j) * sa);
    _mm256_storeu_pd(buf, sleef_d4(op, _mm256_loadu_pd(buf)));
    for (int64_t j = 0; j < m; j++) *(double *)(o + (i + j) * so) = buf[j];
  }
}

void avx2_pow_f32(int64_t n, const float *a, float e, float *o) {
  F8 ev = _mm256_set1_ps(e);
  for (int64_t i = 0; i < n; i += 8) _mm256_storeu_ps(o + i, Sleef_powf8_u10avx2(_mm256_loadu_ps(a + i), ev));
}

void avx2_pow_f64(int64_t n, const double *a, double e, double *o) {
  D4 ev = _mm256_set1_pd(e);
  for (int64_t i = 0; i < n; i += 4) _mm256_storeu_pd(o + i, Sleef_powd4_u10avx2(_mm256_loadu_pd(a + i), ev));
}

/* one lane of SLEEF's float exp and log (no lane depends on another) */
float avx2_expf(float x) { return _mm256_cvtss_f32(Sleef_expf8_u10avx2(_mm256_set1_ps(x))); }
float avx2_logf(float x) { return _mm256_cvtss_f32(Sleef_logf8_u10avx2(_mm256_set1_ps(x))); }

/* cpu_kernel_vec's vector formulas below take n elements (a multiple of the
 * step the caller chose), each input contiguous or (stride 0) one value. */
static inline F8 load8(const float *p, int64_t i, int64_t s) {
  return s ? _mm256_loadu_ps(p + i) : _mm256_set1_ps(*p);
}
static inline D4 load4(const double *p, int64_t i, int64_t s) {
  return s ? _mm256_loadu_pd(p + i) : _mm256_set1_pd(*p);
}

/* sigmoid: 1 / (exp(0 - x) + 1) */
void avx2_sigmoid_f32(int64_t n, const float *a, int64_t sa, float *o) {
  const F8 one = _mm256_set1_ps(1.0f);
  for (int64_t i = 0; i < n; i += 8) {
    F8 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), load8(a, i, sa)));
    _mm256_storeu_ps(o + i, _mm256_div_ps(one, _mm256_add_ps(e, one)));
  }
}

void avx2_sigmoid_f64(int64_t n, const double *a, int64_t sa, double *o) {
  const D4 one = _mm256_set1_pd(1.0);
  for (int64_t i = 0; i < n; i += 4) {
    D4 e = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_setzero_pd(), load4(a, i, sa)));
    _mm256_storeu_pd(o + i, _mm256_div_pd(one, _mm256_add_pd(e, one)));
  }
}

/* gelu: x * 0.5 * (1 + erf(x / sqrt 2)), erf being Sleef_erff8_u10 / erfd4_u10 */
void avx2_gelu_f32(int64_t n, const float *a, int64_t sa, float *o) {
  const F8 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
  for (int64_t i = 0; i < n; i += 8) {
    F8 x = load8(a, i, sa);
    F8 erf = Sleef_erff8_u10avx2(_mm256_mul_ps(x, _mm256_set1_ps((float)M_SQRT1_2)));
    _mm256_storeu_ps(o + i, _mm256_mul_ps(_mm256_mul_ps(x, half), _mm256_add_ps(one, erf)));
  }
}

void avx2_gelu_f64(int64_t n, const double *a, int64_t sa, double *o) {
  const D4 half = _mm256_set1_pd(0.5), one = _mm256_set1_pd(1.0);
  for (int64_t i = 0; i < n; i += 4) {
    D4 x = load4(a, i, sa);
    D4 erf = Sleef_erfd4_u10avx2(_mm256_mul_pd(x, _mm256_set1_pd(M_SQRT1_2)));
    _mm256_storeu_pd(o + i, _mm256_mul_pd(_mm256_mul_pd(x, half), _mm256_add_pd(one, erf)));
  }
}

/* gelu's backward, g * (cdf + x pdf) with cdf = 0.5 (1 + erf(x / sqrt 2)),
 * pdf = e^(x x -0.5) / sqrt(2 pi); ATen's build contracts cdf + x * pdf
 * into one FMA. */
void avx2_gelu_backward_f32(int64_t n, const float *g, int64_t sg, const float *x, int64_t sx,
                            float *o) {
  const F8 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
  const F8 k = _mm256_set1_ps((float)(M_2_SQRTPI * M_SQRT1_2 * 0.5));
  for (int64_t i = 0; i < n; i += 8) {
    F8 xv = load8(x, i, sx), gv = load8(g, i, sg);
    F8 erf = Sleef_erff8_u10avx2(_mm256_mul_ps(xv, _mm256_set1_ps((float)M_SQRT1_2)));
    F8 cdf = _mm256_mul_ps(half, _mm256_add_ps(one, erf));
    F8 e = Sleef_expf8_u10avx2(_mm256_mul_ps(_mm256_mul_ps(xv, xv), _mm256_set1_ps(-0.5f)));
    F8 pdf = _mm256_mul_ps(k, e);
    _mm256_storeu_ps(o + i, _mm256_mul_ps(gv, _mm256_fmadd_ps(xv, pdf, cdf)));
  }
}

void avx2_gelu_backward_f64(int64_t n, const double *g, int64_t sg, const double *x,
                            int64_t sx, double *o) {
  const D4 half = _mm256_set1_pd(0.5), one = _mm256_set1_pd(1.0);
  const D4 k = _mm256_set1_pd(M_2_SQRTPI * M_SQRT1_2 * 0.5);
  for (int64_t i = 0; i < n; i += 4) {
    D4 xv = load4(x, i, sx), gv = load4(g, i, sg);
    D4 erf = Sleef_erfd4_u10avx2(_mm256_mul_pd(xv, _mm256_set1_pd(M_SQRT1_2)));
    D4 cdf = _mm256_mul_pd(half, _mm256_add_pd(one, erf));
    D4 e = Sleef_expd4_u10avx2(_mm256_mul_pd(_mm256_mul_pd(xv, xv), _mm256_set1_pd(-0.5)));
    D4 pdf = _mm256_mul_pd(k, e);
    _mm256_storeu_pd(o + i, _mm256_mul_pd(gv, _mm256_fmadd_pd(xv, pdf, cdf)));
  }
}

/* ---- oneDNN's float32 gelu (v2.6, jit_uni_eltwise_injector) ---- */

/* oneDNN's exp: x clamped to the float range, n = floor(x log2 e + 1/2), a
 * degree-5 polynomial in r = x - n ln 2, times 2^(n-1) times 2; 0 below
 * ln FLT_MIN. */
static float onednn_expf(float x) {
  bool under = x < -0x1.5d58ap+6f;
  x = x < 0x1.62e43p+6f ? x : 0x1.62e43p+6f; /* vminps/vmaxps: a nan becomes the bound */
  x = x > -0x1.5d58ap+6f ? x : -0x1.5d58ap+6f;
  float fx = floorf(x * 0x1.715476p+0f + 0.5f);
  float r = fmaf(-fx, 0x1.62e43p-1f, x);
  uint32_t bits = (uint32_t)((int32_t)(fx - 1.0f) + 127) << 23;
  float scale;
  memcpy(&scale, &bits, sizeof scale);
  if (under) scale = 0.0f;
  float p = fmaf(0x1.0f9f9cp-7f, r, 0x1.573a1ap-5f);
  p = fmaf(p, r, 0x1.555a8p-3f);
  p = fmaf(p, r, 0x1.fffdc6p-2f);
  p = fmaf(p, r, 0x1.fffff6p-1f);
  p = fmaf(p, r, 1.0f);
  return p * scale * 2.0f;
}

/* oneDNN's erf (Abramowitz and Stegun 7.1.26 around its exp) for x >= 0,
 * given q = e^(-x^2) and t = 1 / (1 + p x) */
static float onednn_erf_pos(float q, float t) {
  float r = fmaf(0x1.0fb844p+0f, t, -0x1.7401c6p+0f);
  r = fmaf(r, t, 0x1.6be1c6p+0f);
  r = fmaf(r, t, -0x1.23531cp-2f);
  r = fmaf(r, t, 0x1.04f20cp-2f);
  return fmaf(-q * t, r, 1.0f);
}

/* gelu(s) = s/2 + s/2 * sign(s) erf(|s| / sqrt 2); no lane depends on another */
void avx2_gelu_onednn_f32(int64_t n, const float *a, float *o) {
  for (int64_t i = 0; i < n; i++) {
    float s = a[i], x = s * 0x1.6a09e6p-1f;
    float t = 1.0f / fmaf(0x1.4f740ap-2f, fabsf(x), 1.0f);
    float erf = onednn_erf_pos(onednn_expf(-(x * x)), t);
    uint32_t eb, sb;
    memcpy(&eb, &erf, sizeof eb);
    memcpy(&sb, &s, sizeof sb);
    eb ^= sb & UINT32_C(0x80000000);
    memcpy(&erf, &eb, sizeof erf);
    float half = s * 0.5f;
    o[i] = fmaf(erf, half, half);
  }
}

/* gelu'(s) as oneDNN's gelu_erf backward computes it, with r = s/sqrt 2:
 * 1/2 + r e^(-r^2)/sqrt(pi) + erf(r)/2; times the gradient */
void avx2_gelu_backward_onednn_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                   float *o) {
  for (int64_t i = 0; i < n; i++) {
    float r = x[i] * 0x1.6a09e6p-1f, q = onednn_expf(-(r * r));
    float pdf = r * 0x1.20dd74p-1f * q; /* 1/sqrt(pi) as a float */
    float t = 1.0f / fmaf(0x1.4f740ap-2f, fabsf(r), 1.0f);
    float erf = onednn_erf_pos(q, t);
    if (signbit(r)) erf = -erf;
    o[i] = g[i * sg] * fmaf(erf, 0.5f, pdf + 0.5f);
  }
}

#endif
