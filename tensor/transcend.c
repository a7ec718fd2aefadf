/* transcend.c — exp, log, log10, log2, sin, cos, tan, tanh, sigmoid, gelu and pow computed as
 * PyTorch 1.13 computes them on the CPU at hand.
 *
 * On x86-64 with AVX2 and FMA, ATen runs these ops through SLEEF (the
 * library, which Ag links too: transcend_avx2.c), in one of two loop shapes:
 *  - exp, log, log10, log2, sin, cos, tan, tanh are "vml" kernels: every element goes
 *    through SLEEF's vector function, in groups of 8 floats / 4 doubles
 *    counted from the start of each innermost run, the last group padded with
 *    zeros; strided runs are copied to a buffer first, so they group the same
 *    way. The group matters: SLEEF's trig functions pick their argument
 *    reduction once per vector.
 *  - sigmoid and gelu go through cpu_kernel_vec: over a contiguous run (or one
 *    whose input is a single broadcast value), two vectors at a time take the
 *    vector formula (SLEEF's exp or erf) and the remaining elements (fewer
 *    than 16 floats / 8 doubles) the scalar one with the C library; a strided
 *    run is all scalar. Except that PyTorch's mkldnn build hands a contiguous
 *    float32 gelu of more than one element to oneDNN (tensor_gelu_dense_f32).
 *
 * Elsewhere (a CPU without AVX2, AArch64, a build without SLEEF) PyTorch's
 * DEFAULT kernels apply the C library's function to each element, and so
 * does Ag. The choice is made once, at run time: nothing here assumes AVX2
 * at compile time. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "tensor/tensor_internal.h"
#include "tensor/transcend.h"

bool transcend_use_avx2(void) {
#if defined(__x86_64__) && defined(AG_HAVE_SLEEF)
  static int has = -1; /* a benign race: every thread computes the same */
  if (has < 0) has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

/* Without AVX2 the avx2_ functions are never called; on other targets they
 * do not exist, and these stand in so that the calls still link. */
#if !defined(__x86_64__) || !defined(AG_HAVE_SLEEF)
#define NO_AVX2 __builtin_unreachable()
void avx2_vml_f32(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so) { NO_AVX2; }
void avx2_vml_f64(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so) { NO_AVX2; }
float avx2_expf(float x) { NO_AVX2; }
float avx2_logf(float x) { NO_AVX2; }
void avx2_sigmoid_f32(int64_t n, const float *a, int64_t sa, float *o) { NO_AVX2; }
void avx2_sigmoid_f64(int64_t n, const double *a, int64_t sa, double *o) { NO_AVX2; }
void avx2_gelu_f32(int64_t n, const float *a, int64_t sa, float *o) { NO_AVX2; }
void avx2_pow_f32(int64_t n, const float *a, float e, float *o) { NO_AVX2; }
void avx2_pow_f64(int64_t n, const double *a, double e, double *o) { NO_AVX2; }
void avx2_gelu_f64(int64_t n, const double *a, int64_t sa, double *o) { NO_AVX2; }
void avx2_gelu_backward_f32(int64_t n, const float *g, int64_t sg, const float *x, int64_t sx,
                            float *o) { NO_AVX2; }
void avx2_gelu_backward_f64(int64_t n, const double *g, int64_t sg, const double *x,
                            int64_t sx, double *o) { NO_AVX2; }
void avx2_gelu_onednn_f32(int64_t n, const float *a, float *o) { NO_AVX2; }
void avx2_gelu_backward_onednn_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                   float *o) { NO_AVX2; }
#endif

/* ---- the C library's functions, element by element ---- */

static float libm_f32(UnaryOp op, float x) {
  switch (op) {
  case UN_EXP: return expf(x);
  case UN_LOG: return logf(x);
  case UN_LOG10: return log10f(x);
  case UN_LOG2: return log2f(x);
  case UN_SIN: return sinf(x);
  case UN_COS: return cosf(x);
  case UN_TAN: return tanf(x);
  case UN_TANH: return tanhf(x);
  default: return NAN;
  }
}

static double libm_f64(UnaryOp op, double x) {
  switch (op) {
  case UN_EXP: return exp(x);
  case UN_LOG: return log(x);
  case UN_LOG10: return log10(x);
  case UN_LOG2: return log2(x);
  case UN_SIN: return sin(x);
  case UN_COS: return cos(x);
  case UN_TAN: return tan(x);
  case UN_TANH: return tanh(x);
  default: return NAN;
  }
}

static void libm_run_f32(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  for (int64_t i = 0; i < n; i++) *(float *)(o + i * so) = libm_f32(op, *(const float *)(a + i * sa));
}

static void libm_run_f64(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so) {
  for (int64_t i = 0; i < n; i++)
    *(double *)(o + i * so) = libm_f64(op, *(const double *)(a + i * sa));
}

/* ---- float32 exp and log for the kernels of nn.c (softmax and friends) ---- */

float tensor_expf(float x) { return transcend_use_avx2() ? avx2_expf(x) : expf(x); }
float tensor_logf(float x) { return transcend_use_avx2() ? avx2_logf(x) : logf(x); }

static void run_f32(UnaryOp op, int64_t n, const void *in, int64_t in_stride, void *out,
                    int64_t out_stride) {
  if (transcend_use_avx2())
    avx2_vml_f32(op, n, in, in_stride, out, out_stride);
  else
    libm_run_f32(op, n, in, in_stride, out, out_stride);
}

void tensor_expf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride) {
  run_f32(UN_EXP, n, in, in_stride, out, out_stride);
}

void tensor_logf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride) {
  run_f32(UN_LOG, n, in, in_stride, out, out_stride);
}

void tensor_tanhf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride) {
  run_f32(UN_TANH, n, in, in_stride, out, out_stride);
}

/* ---- the unary ops, one innermost run at a time ---- */

static inline float sigmoidf_scalar(float x) { return 1.0f / (1.0f + expf(-x)); }
static inline double sigmoid_scalar(double x) { return 1.0 / (1.0 + exp(-x)); }
static inline float geluf_scalar(float x) { return x * 0.5f * (1.0f + erff(x * (float)M_SQRT1_2)); }
static inline double gelu_scalar(double x) { return x * 0.5 * (1.0 + erf(x * M_SQRT1_2)); }

/* cpu_kernel_vec's split: the vector formula on contiguous runs (or a
 * broadcast input), two vectors (16 floats, 8 doubles) at a time; where it
 * stops. Nothing without AVX2, where the "vectors" are the scalar formula. */
static int64_t vec_part(int64_t n, int64_t sa, int64_t so, int64_t esize, int64_t per_step) {
  if (!transcend_use_avx2()) return 0;
  return (sa == esize || sa == 0) && so == esize ? n / per_step * per_step : 0;
}

bool tensor_vecmath_f32(UnaryOp op, int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride) {
  const char *a = in;
  char *o = out;
  switch (op) {
  case UN_EXP:
  case UN_LOG:
  case UN_LOG10:
  case UN_LOG2:
  case UN_SIN:
  case UN_COS:
  case UN_TAN:
  case UN_TANH: run_f32(op, n, in, in_stride, out, out_stride); return true;
  case UN_SIGMOID: {
    int64_t v = vec_part(n, in_stride, out_stride, 4, 16);
    if (v) avx2_sigmoid_f32(v, in, in_stride ? 1 : 0, out);
    for (int64_t i = v; i < n; i++)
      *(float *)(o + i * out_stride) = sigmoidf_scalar(*(const float *)(a + i * in_stride));
    return true;
  }
  case UN_GELU: {
    int64_t v = vec_part(n, in_stride, out_stride, 4, 16);
    if (v) avx2_gelu_f32(v, in, in_stride ? 1 : 0, out);
    for (int64_t i = v; i < n; i++)
      *(float *)(o + i * out_stride) = geluf_scalar(*(const float *)(a + i * in_stride));
    return true;
  }
  default: return false;
  }
}

bool tensor_vecmath_f64(UnaryOp op, int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride) {
  const char *a = in;
  char *o = out;
  switch (op) {
  case UN_EXP:
  case UN_LOG:
  case UN_LOG10:
  case UN_LOG2:
  case UN_SIN:
  case UN_COS:
  case UN_TAN:
  case UN_TANH:
    if (transcend_use_avx2())
      avx2_vml_f64(op, n, in, in_stride, out, out_stride);
    else
      libm_run_f64(op, n, in, in_stride, out, out_stride);
    return true;
  case UN_SIGMOID: {
    int64_t v = vec_part(n, in_stride, out_stride, 8, 8);
    if (v) avx2_sigmoid_f64(v, in, in_stride ? 1 : 0, out);
    for (int64_t i = v; i < n; i++)
      *(double *)(o + i * out_stride) = sigmoid_scalar(*(const double *)(a + i * in_stride));
    return true;
  }
  case UN_GELU: {
    int64_t v = vec_part(n, in_stride, out_stride, 8, 8);
    if (v) avx2_gelu_f64(v, in, in_stride ? 1 : 0, out);
    for (int64_t i = v; i < n; i++)
      *(double *)(o + i * out_stride) = gelu_scalar(*(const double *)(a + i * in_stride));
    return true;
  }
  default: return false;
  }
}

void tensor_gelu_dense_f32(int64_t n, const float *in, float *out) {
  if (transcend_use_avx2()) {
    avx2_gelu_onednn_f32(n, in, out);
  } else {
    for (int64_t i = 0; i < n; i++) out[i] = geluf_scalar(in[i]);
  }
}

/* ---- pow by a number ---- */

/* ATen's pow_tensor_scalar_optimized_kernel over one contiguous run, for the
 * exponents it does not special-case (PyTorch 1.13 computes 0, 1, +-0.5, -1,
 * 2, 3 and -2 otherwise): cpu_kernel_vec takes two vectors (16 floats, 8
 * doubles) at a time through Vectorized::pow with the exponent as a vector
 * of the element type (SLEEF's pow with AVX2; without it, std::pow of two
 * floats, powf, lane by lane), and the rest through std::pow(x, (double)e):
 * for float32 a double pow rounded to float. */
void tensor_pow_run_f32(int64_t n, const float *a, double e, float *o) {
  int64_t v = n / 16 * 16;
  if (transcend_use_avx2()) {
    avx2_pow_f32(v, a, (float)e, o);
  } else {
    for (int64_t i = 0; i < v; i++) o[i] = powf(a[i], (float)e);
  }
  for (int64_t i = v; i < n; i++) o[i] = (float)pow((double)a[i], e);
}

void tensor_pow_run_f64(int64_t n, const double *a, double e, double *o) {
  int64_t v = n / 8 * 8;
  if (transcend_use_avx2()) {
    avx2_pow_f64(v, a, e, o);
  } else {
    for (int64_t i = 0; i < v; i++) o[i] = pow(a[i], e);
  }
  for (int64_t i = v; i < n; i++) o[i] = pow(a[i], e);
}

/* ---- gelu's backward ---- */

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
  return ok && transcend_use_avx2() ? n / per_step * per_step : 0;
}

void tensor_gelu_backward_row_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                  int64_t sx, float *o) {
  int64_t v = vec_part2(n, sg, sx, 16);
  if (v) avx2_gelu_backward_f32(v, g, sg, x, sx, o);
  for (int64_t i = v; i < n; i++) o[i] = gelu_backward_scalar_f32(g[i * sg], x[i * sx]);
}

void tensor_gelu_backward_row_f64(int64_t n, const double *g, int64_t sg, const double *x,
                                  int64_t sx, double *o) {
  int64_t v = vec_part2(n, sg, sx, 8);
  if (v) avx2_gelu_backward_f64(v, g, sg, x, sx, o);
  for (int64_t i = v; i < n; i++) o[i] = gelu_backward_scalar_f64(g[i * sg], x[i * sx]);
}

bool tensor_gelu_backward_dense_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                    float *o) {
  if (!transcend_use_avx2()) return false;
  avx2_gelu_backward_onednn_f32(n, g, sg, x, o);
  return true;
}
