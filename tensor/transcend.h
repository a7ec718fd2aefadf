/* transcend.h — the AVX2 kernels (transcend_avx2.c) that transcend.c
 * dispatches to at run time; not a public API. Strides are in bytes for the
 * vml loops, in elements elsewhere. Call none of these unless
 * transcend_use_avx2() says so. */
#ifndef AG_TENSOR_TRANSCEND_H
#define AG_TENSOR_TRANSCEND_H

#include <stdbool.h>
#include <stdint.h>

#include "tensor/ops.h"

void avx2_vml_f32(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so);
void avx2_vml_f64(UnaryOp op, int64_t n, const char *a, int64_t sa, char *o, int64_t so);
float avx2_expf(float x);
float avx2_logf(float x);
void avx2_sigmoid_f32(int64_t n, const float *a, int64_t sa, float *o);
void avx2_sigmoid_f64(int64_t n, const double *a, int64_t sa, double *o);
void avx2_gelu_f32(int64_t n, const float *a, int64_t sa, float *o);
void avx2_gelu_f64(int64_t n, const double *a, int64_t sa, double *o);
void avx2_gelu_backward_f32(int64_t n, const float *g, int64_t sg, const float *x, int64_t sx,
                            float *o);
void avx2_gelu_backward_f64(int64_t n, const double *g, int64_t sg, const double *x,
                            int64_t sx, double *o);
void avx2_gelu_onednn_f32(int64_t n, const float *a, float *o);
/* x ** e through SLEEF's powf8_u10 / powd4_u10, n a multiple of 16 / 8 */
void avx2_pow_f32(int64_t n, const float *a, float e, float *o);
void avx2_pow_f64(int64_t n, const double *a, double e, double *o);
void avx2_gelu_backward_onednn_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                   float *o);

#endif
