/* tensor_internal.h — helpers shared by the tensor/ source files (not a public API).
 *
 * Kernels work on raw typed pointers; these helpers convert between dtypes
 * through double (exact for everything but int64 above 2^53, which only the
 * generic slow paths use), format shapes for error messages, and check shapes.
 */
#ifndef AG_TENSOR_INTERNAL_H
#define AG_TENSOR_INTERNAL_H

#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor.h"

/* transcend.c: whether the AVX2 kernels (SLEEF's, as PyTorch's AVX2 build
 * calls them) are in use: x86-64 with AVX2 and FMA, checked at run time. */
bool transcend_use_avx2(void);
/* transcend.c: float32 exp and log as PyTorch's kernels compute one vector
 * lane; the array forms take byte strides. */
float tensor_expf(float x);
float tensor_logf(float x);
void tensor_expf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride);
void tensor_logf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                       int64_t out_stride);
void tensor_tanhf_array(int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride);
/* transcend.c: exp, log, sin, cos, tan, tanh, sigmoid and gelu over one
 * innermost run of n elements (byte strides), to the bit as ATen's loops
 * compute that run; false (nothing done) for the other ops. */
bool tensor_vecmath_f32(UnaryOp op, int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride);
bool tensor_vecmath_f64(UnaryOp op, int64_t n, const void *in, int64_t in_stride, void *out,
                        int64_t out_stride);
/* float32 gelu of a whole contiguous tensor of more than one element, which
 * PyTorch computes with oneDNN */
void tensor_gelu_dense_f32(int64_t n, const float *in, float *out);
/* gelu's backward g * gelu'(x) into a contiguous o (strides in elements):
 * one innermost run as ATen's GeluBackward kernel computes it, or a whole
 * contiguous float32 x of more than one element as oneDNN does (false,
 * nothing done, without AVX2). */
void tensor_gelu_backward_row_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                  int64_t sx, float *o);
void tensor_gelu_backward_row_f64(int64_t n, const double *g, int64_t sg, const double *x,
                                  int64_t sx, double *o);
bool tensor_gelu_backward_dense_f32(int64_t n, const float *g, int64_t sg, const float *x,
                                    float *o);
/* x ** e over one contiguous run of n elements as ATen computes it, for an
 * exponent other than 0, 1, +-0.5, -1, 2, 3, -2 (transcend.c) */
void tensor_pow_run_f32(int64_t n, const float *a, double e, float *o);
void tensor_pow_run_f64(int64_t n, const double *a, double e, double *o);
/* sum_aten.c: a float32/float64 sum in ATen's order when the layout allows;
 * false (nothing done) otherwise; true with *out NULL on an error. */
bool tensor_sum_aten(const Tensor *a, const int *dims, int ndims, bool keepdim, Tensor **out);
bool tensor_norm2_f32_aten(const Tensor *a, const int *dims, int ndims, bool keepdim, Tensor **out);
double tensor_load_double(DType dt, const void *p);
void tensor_store_double(DType dt, void *p, double v);
int64_t tensor_double_to_i64(double v);
/* Storage offset (in elements) of the i-th element in row-major order. */
int64_t tensor_flat_offset(const Tensor *t, int64_t i);
/* Checks dims are >= 0 and the element count does not overflow. */
bool tensor_check_shape(int ndim, const int64_t *shape, int64_t *numel);
void tensor_contiguous_strides(int ndim, const int64_t *shape, int64_t *stride);
Storage *tensor_storage_new(size_t nbytes, bool zero);

/* Errors unless every element of t has its own memory (no expanded dims). */
bool tensor_check_writable(const Tensor *t);
/* Fill / copy without bumping the version (for tensors being built). */
bool tensor_fill_raw(Tensor *a, double v);
bool tensor_copy_raw(Tensor *dst, const Tensor *src); /* src broadcast to dst, converted */
/* Whether t is float32 or float64, the dtypes of the float-only kernels
 * (matmul, conv, softmax, the losses' and activations' backward ...); else
 * PyTorch's error "\"kernel\" not implemented for 'Half'" (PyTorch 1.13 has
 * no CPU kernel for float16 there either). */
bool tensor_require_native_float(const Tensor *t, const char *kernel);
bool tensor_shares_storage(const Tensor *a, const Tensor *b);
/* b, or a copy of b when b overlaps a differently (so writing a can't corrupt b). */
Tensor *tensor_unaliased_input(const Tensor *a, const Tensor *b);
/* Errors (PyTorch's words) unless src broadcasts to dst's exact shape. */
bool tensor_check_broadcasts_to(const Tensor *src, const Tensor *dst);
/* The raw kernels, for code that drives its own loops (indexing). */
IterInner tensor_convert_kernel(DType to, DType from);
IterInner tensor_binary_kernel(BinaryOp op, DType dt); /* dt: operands' dtype */

#endif
