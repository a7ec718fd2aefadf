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
  if (!dtype_is_native(dt)) /* computed in dt's compute dtype, narrowed */
    return tensor_narrow_to(tensor_arange(start, end, step, dtype_compute(dt)), dt);
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

/* linspace's values as PyTorch 1.13's AVX2 kernel computes them
 * (RangeFactoriesKernel.cpp), on every machine: the first half counts up from
 * the start, the second half down from the end, so both endpoints are exact.
 * Blocks of two vectors (LINSPACE_LANES floats or half as many doubles each)
 * take their first element as one fused multiply-add, fma(step, i, start)
 * or fma(-step, n - 1 - i, end), and the others as base + k * step; the
 * elements after the last whole block are one fma each. (PyTorch splits
 * more than 32768 elements among its threads, whose block boundaries depend
 * on the thread count; here they are those of one thread.) */
#define LINSPACE_LANES 8

/* One function per float type: T, its fma, the lanes of one vector. */
#define DEFINE_LINSPACE(name, T, FMA, LANES)                                               \
  static void name(T *d, int64_t n, T start, T end, T step) {                              \
    int64_t half = n / 2, blocks_end = n - n % (2 * (LANES)), i = 0;                         \
    for (; i < blocks_end; i += (LANES)) {                                                   \
      T base = i < half ? FMA(step, (T)i, start) : FMA(-step, (T)(n - i - 1), end);          \
      for (int k = 0; k < (LANES); k++) d[i + k] = base + (T)k * step;                       \
    }                                                                                        \
    for (; i < n; i++) d[i] = i < half ? FMA(step, (T)i, start) : FMA(-step, (T)(n - i - 1), end); \
  }
DEFINE_LINSPACE(linspace_f32, float, fmaf, LINSPACE_LANES)
DEFINE_LINSPACE(linspace_f64, double, fma, LINSPACE_LANES / 2)
#undef DEFINE_LINSPACE

Tensor *tensor_linspace(double start, double end, int64_t n, DType dt) {
  if (n < 0) {
    tensor_set_error("number of steps must be non-negative");
    return NULL;
  }
  if (!dtype_is_native(dt)) /* computed in dt's compute dtype, narrowed */
    return tensor_narrow_to(tensor_linspace(start, end, n, dtype_compute(dt)), dt);
  Tensor *t = tensor_empty(dt, 1, &n);
  if (!t || n == 0) return t;
  if (n == 1) {
    tensor_set_flat(t, 0, start);
  } else if (dt == DT_FLOAT32) {
    float s = (float)start, e = (float)end;
    linspace_f32(tensor_data(t), n, s, e, (e - s) / (float)(n - 1));
  } else if (dt == DT_FLOAT64) {
    linspace_f64(tensor_data(t), n, start, end, (end - start) / (double)(n - 1));
  } else {
    int64_t half = n / 2;
    double step = (end - start) / (double)(n - 1);
    for (int64_t i = 0; i < n; i++)
      tensor_set_flat(t, i, i < half ? start + step * (double)i : end - step * (double)(n - i - 1));
  }
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
