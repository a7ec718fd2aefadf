/* scan.c — cumulative sums and products along a dimension.
 *
 * As PyTorch's CPU kernels, each slice is accumulated in double for float
 * dtypes (int64 for integers and bool) and every partial result is rounded
 * to the output dtype as it is written.
 */
#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

/* src and out contiguous, of out's dtype T: accumulated in double, each
 * partial result rounded to T as it is written. */
#define SCAN_FLOAT(T)                                                                              \
  do {                                                                                             \
    const T *s_ = tensor_data(src);                                                                \
    T *o_ = tensor_data(out);                                                                      \
    double acc = product ? 1 : 0;                                                                  \
    for (int64_t i = 0; i < n; i++) {                                                              \
      int64_t at = base + i * inner;                                                               \
      acc = product ? acc * s_[at] : acc + s_[at];                                                 \
      o_[at] = (T)acc;                                                                             \
    }                                                                                              \
  } while (0)

static void scan_slice(const Tensor *src, Tensor *out, int64_t base, int64_t n, int64_t inner,
                       bool product) {
  if (out->dtype == DT_FLOAT32) {
    SCAN_FLOAT(float);
  } else if (out->dtype == DT_FLOAT64) {
    SCAN_FLOAT(double);
  } else { /* int64 */
    int64_t acc = product ? 1 : 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t at = base + i * inner;
      int64_t v = tensor_get_flat_int(src, at);
      acc = product ? (int64_t)((uint64_t)acc * (uint64_t)v) : (int64_t)((uint64_t)acc + (uint64_t)v);
      tensor_set_flat_int(out, at, acc);
    }
  }
}

/* dtype: the result's (and accumulation's) dtype; an integer or bool input
 * gives int64 when the caller passes DT_COUNT. */
static Tensor *scan(const Tensor *a, int dim, DType dtype, bool product) {
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  if (dtype == DT_COUNT) dtype = dtype_is_float(a->dtype) ? a->dtype : DT_INT64;
  if (!dtype_is_native(dtype)) /* accumulated in its compute dtype, each result narrowed */
    return tensor_narrow_to(scan(a, dim, dtype_compute(dtype), product), dtype);
  Tensor *src = tensor_to_dtype(a, dtype);
  if (src == NULL) return NULL;
  Tensor *c = tensor_contiguous(src);
  tensor_release(src);
  Tensor *out = c ? tensor_empty(dtype, a->ndim, a->shape) : NULL;
  if (out == NULL) {
    tensor_release(c);
    return NULL;
  }
  int64_t n = a->ndim ? a->shape[dim] : 1, inner = 1;
  for (int d = dim + 1; d < a->ndim; d++) inner *= a->shape[d];
  int64_t slices = n ? a->numel / n : 0;
  for (int64_t s = 0; s < slices; s++) {
    if ((s & 0xFFF) == 0 && tensor_check_interrupt()) {
      tensor_release(c);
      tensor_release(out);
      return NULL;
    }
    int64_t base = (s / inner) * n * inner + s % inner;
    scan_slice(c, out, base, n, inner, product);
  }
  tensor_release(c);
  return out;
}

Tensor *tensor_cumsum(const Tensor *a, int dim, DType dtype) { return scan(a, dim, dtype, false); }
Tensor *tensor_cumprod(const Tensor *a, int dim, DType dtype) { return scan(a, dim, dtype, true); }

/* One slice of tensor_cumprod_backward (x, g contiguous; dx zeroed). */
static void cumprod_backward_slice(const Tensor *x, const Tensor *g, Tensor *dx, int64_t base,
                                   int64_t n, int64_t inner) {
#define AT(i) (base + (i) * inner)
  int64_t z = 0;
  while (z < n && tensor_get_flat(x, AT(z)) != 0) z++;
  /* before the first zero: the reversed running sum of g * out, over x */
  double prefix = 1, tail = 0;
  for (int64_t j = 0; j < z; j++) prefix *= tensor_get_flat(x, AT(j));
  double out = prefix;
  for (int64_t k = z - 1; k >= 0; k--) {
    double xk = tensor_get_flat(x, AT(k));
    tail += tensor_get_flat(g, AT(k)) * out;
    tensor_set_flat(dx, AT(k), tail / xk);
    out /= xk;
  }
  if (z == n) return;
  /* at the first zero: what each later output up to the next zero owes it */
  double sum = 0, run = 1;
  for (int64_t j = z; j < n; j++) {
    if (j > z) {
      double xj = tensor_get_flat(x, AT(j));
      if (xj == 0) break;
      run *= xj;
    }
    sum += tensor_get_flat(g, AT(j)) * run;
  }
  tensor_set_flat(dx, AT(z), prefix * sum);
#undef AT
}

Tensor *tensor_cumprod_backward(const Tensor *input, const Tensor *grad, int dim) {
  if (!tensor_wrap_dim(&dim, input->ndim)) return NULL;
  Tensor *x = tensor_contiguous(input), *g = x ? tensor_contiguous(grad) : NULL;
  Tensor *dx = g ? tensor_zeros(input->dtype, input->ndim, input->shape) : NULL;
  if (dx) {
    int64_t n = input->ndim ? input->shape[dim] : 1, inner = 1;
    for (int d = dim + 1; d < input->ndim; d++) inner *= input->shape[d];
    int64_t slices = n ? input->numel / n : 0;
    for (int64_t s = 0; s < slices; s++)
      cumprod_backward_slice(x, g, dx, (s / inner) * n * inner + s % inner, n, inner);
  }
  tensor_release(x);
  tensor_release(g);
  return dx;
}
