/* create.c — arange, linspace, eye. */
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <math.h>

Tensor *tensor_arange(double start, double end, double step, DType dt) {
  if (!isfinite(start) || !isfinite(end)) {
    tensor_set_error("unsupported range: %g -> %g", start, end);
    return NULL;
  }
  if (step == 0 || isnan(step)) {
    tensor_set_error("step must be nonzero");
    return NULL;
  }
  if ((step > 0 && end < start) || (step < 0 && end > start)) {
    tensor_set_error("upper bound and larger bound inconsistent with step sign");
    return NULL;
  }
  double size = ceil((end - start) / step);
  if (!(size < 9.2e18)) {
    tensor_set_error("invalid size, possible overflow?");
    return NULL;
  }
  int64_t n = (int64_t)size;
  Tensor *t = tensor_empty(dt, 1, &n);
  if (!t) return NULL;
  void *data = tensor_data(t);
  switch (dt) {
  case DT_INT64: {
    uint64_t s = (uint64_t)tensor_double_to_i64(start), st = (uint64_t)tensor_double_to_i64(step);
    bool integral = start == floor(start) && step == floor(step);
    for (int64_t i = 0; i < n; i++) /* exact integer steps (wrapping, never UB) */
      ((int64_t *)data)[i] = integral ? (int64_t)(s + st * (uint64_t)i)
                                      : tensor_double_to_i64(start + step * (double)i);
    break;
  }
  case DT_FLOAT32:
    for (int64_t i = 0; i < n; i++) ((float *)data)[i] = (float)(start + step * (double)i);
    break;
  case DT_FLOAT64:
    for (int64_t i = 0; i < n; i++) ((double *)data)[i] = start + step * (double)i;
    break;
  default:
    for (int64_t i = 0; i < n; i++) ((uint8_t *)data)[i] = start + step * (double)i != 0;
  }
  return t;
}

/* PyTorch fills the first half from the start and the second half from the
 * end, so both endpoints are exact. */
Tensor *tensor_linspace(double start, double end, int64_t n, DType dt) {
  if (n < 0) {
    tensor_set_error("number of steps must be non-negative");
    return NULL;
  }
  Tensor *t = tensor_empty(dt, 1, &n);
  if (!t || n == 0) return t;
  int64_t half = n / 2;
  if (dt == DT_FLOAT32) {
    float s = (float)start, e = (float)end;
    float step = n > 1 ? (e - s) / (float)(n - 1) : 0;
    float *d = tensor_data(t);
    for (int64_t i = 0; i < n; i++) d[i] = i < half ? s + step * (float)i : e - step * (float)(n - i - 1);
  } else {
    double step = n > 1 ? (end - start) / (double)(n - 1) : 0;
    for (int64_t i = 0; i < n; i++)
      tensor_set_flat(t, i, i < half ? start + step * (double)i : end - step * (double)(n - i - 1));
  }
  if (n == 1) tensor_set_flat(t, 0, start);
  return t;
}

Tensor *tensor_eye(int64_t n, int64_t m, DType dt) {
  if (m < 0) m = n;
  if (n < 0) {
    tensor_set_error("n must be greater or equal to 0, got %lld", (long long)n);
    return NULL;
  }
  int64_t shape[2] = {n, m};
  Tensor *t = tensor_zeros(dt, 2, shape);
  if (!t) return NULL;
  int64_t k = n < m ? n : m;
  for (int64_t i = 0; i < k; i++) tensor_set_flat(t, i * m + i, 1);
  return t;
}
