/* sum_aten.c — float sums in PyTorch 1.13's order (ATen's SumKernel.cpp:
 * cascade_sum). A float sum's last bit depends on the order of the
 * additions, and `print(loss.item())` shows every bit, so the additions
 * follow ATen: TensorIterator's dim order (reduced dims innermost) and
 * coalescing, then per 2-D run sum_cascade.h's kernels: four interleaved
 * accumulators (the ILP factor) per row, each a 4-level cascade whose levels
 * flush every 2^p steps, and AVX2 vector lanes (8 floats, 4 doubles) for
 * contiguous runs. float64 takes every strided layout; float32 only
 * contiguous inputs reduced over a leading or trailing block of dims and
 * permuted-dense full sums up to one thread's grain (the rest, and the
 * longer sums PyTorch splits over threads, use reduce.c's double sums).
 * A float64 sum stays on one thread, as PyTorch with one thread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#define ILP 4
#define LEVELS 4
#define GRAIN 32768 /* at::internal::GRAIN_SIZE: above it one sum is split over threads */

static int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  uint64_t v = (uint64_t)x - 1;
  int last = 63 - __builtin_clzll(v);
  return last + 1;
}

#define SUM_T float
#define SUM_LANES 8
#define SUM_FN(n) n##_f32
#include "tensor/sum_cascade.h"
#undef SUM_T
#undef SUM_LANES
#undef SUM_FN
#define SUM_T double
#define SUM_LANES 4
#define SUM_FN(n) n##_f64
#include "tensor/sum_cascade.h"
#undef SUM_T
#undef SUM_LANES
#undef SUM_FN

#define LANES 8 /* float lanes, for the norm below */

/* One dim of the iteration: its size and its element strides in the input
 * and in the (contiguous) output, 0 there for a reduced dim. */
typedef struct {
  int64_t size, in, out;
} IterDim;

/* TensorIterator's reorder_dimensions: > 0 when dim a should go outside b.
 * The output decides first (reduced dims innermost, then smaller strides),
 * then the input; equal strides put the smaller size inside. */
static int iter_order(const IterDim *a, const IterDim *b) {
  if ((a->out == 0) != (b->out == 0)) return b->out == 0 ? 1 : -1;
  const int64_t sa[2] = {a->out, a->in}, sb[2] = {b->out, b->in};
  for (int op = 0; op < 2; op++) {
    if (sa[op] == 0 || sb[op] == 0) continue;
    if (sa[op] != sb[op]) return sa[op] < sb[op] ? -1 : 1;
    if (a->size > b->size) return 1;
  }
  return 0;
}

/* The iteration dims, innermost first, sorted and coalesced as TensorIterator. */
static int iter_dims(const Tensor *a, const bool *red, IterDim *it) {
  int64_t ostride[TENSOR_MAX_DIMS], os = 1;
  for (int d = a->ndim - 1; d >= 0; d--) {
    ostride[d] = red[d] ? 0 : os;
    if (!red[d]) os *= a->shape[d];
  }
  int n = 0;
  for (int d = a->ndim - 1; d >= 0; d--)
    if (a->shape[d] != 1) it[n++] = (IterDim){a->shape[d], a->stride[d], ostride[d]};
  for (int i = 1; i < n; i++) /* insertion sort, as reorder_dimensions */
    for (int j = i; j > 0 && iter_order(&it[j - 1], &it[j]) > 0; j--) {
      IterDim t = it[j - 1];
      it[j - 1] = it[j];
      it[j] = t;
    }
  int m = 0;
  for (int i = 1; i < n; i++) {
    if (it[m].size * it[m].in == it[i].in && it[m].size * it[m].out == it[i].out) {
      it[m].size *= it[i].size;
    } else {
      it[++m] = it[i];
    }
  }
  return n == 0 ? 0 : m + 1;
}


/* A permutation of a contiguous layout (x.t(), x.permute(...)): TensorIterator
 * then walks it in memory order, so a full sum adds the storage in order. */
static bool dense_permuted(const Tensor *a) {
  int64_t expect = 1;
  bool used[TENSOR_MAX_DIMS] = {false};
  for (int step = 0; step < a->ndim; step++) {
    int pick = -1;
    for (int d = 0; d < a->ndim; d++)
      if (!used[d] && a->shape[d] > 1 && a->stride[d] == expect) pick = d;
    if (pick < 0) break;
    used[pick] = true;
    expect *= a->shape[pick];
  }
  return expect == a->numel;
}

/* The float32 layouts whose order is known to match (see the top). */
static bool f32_supported(const Tensor *a, const bool *red, int nred) {
  if (!tensor_is_contiguous(a)) return nred == a->ndim && a->numel <= GRAIN && dense_permuted(a);
  bool trailing = true, leading = true;
  int64_t M = 1;
  for (int d = 0; d < a->ndim; d++) {
    if (red[d] != (d >= a->ndim - nred)) trailing = false;
    if (red[d] != (d < nred)) leading = false;
    if (!red[d]) M *= a->shape[d];
  }
  return (trailing || leading) && !(M == 1 && a->numel > GRAIN);
}

/* Runs cascade_run over every 2-D run of the iteration, outer dims in order. */
static void sum_iterate(const Tensor *a, const bool *red, Tensor *o) {
  IterDim it[TENSOR_MAX_DIMS + 2];
  int n = iter_dims(a, red, it);
  for (int d = n; d < 2; d++) it[d] = (IterDim){1, 0, 0};
  if (n < 2) n = 2;
  int64_t idx[TENSOR_MAX_DIMS + 2] = {0};
  size_t es = dtype_size(a->dtype);
  const char *base = (const char *)a->storage->data + (size_t)a->offset * es;
  for (;;) {
    int64_t ioff = 0, ooff = 0;
    for (int d = 2; d < n; d++) ioff += idx[d] * it[d].in, ooff += idx[d] * it[d].out;
    if (a->dtype == DT_FLOAT32)
      cascade_run_f32((const float *)base + ioff, (float *)tensor_data(o) + ooff, it[0].size,
                      it[1].size, it[0].in, it[1].in, it[0].out, it[1].out);
    else
      cascade_run_f64((const double *)base + ioff, (double *)tensor_data(o) + ooff, it[0].size,
                      it[1].size, it[0].in, it[1].in, it[0].out, it[1].out);
    int d = 2;
    while (d < n && ++idx[d] == it[d].size) idx[d++] = 0;
    if (d == n) return;
  }
}

bool tensor_sum_aten(const Tensor *a, const int *dims, int ndims, bool keepdim, Tensor **out) {
  *out = NULL;
  if ((a->dtype != DT_FLOAT32 && a->dtype != DT_FLOAT64) || a->numel == 0) return false;
  bool red[TENSOR_MAX_DIMS] = {false};
  int nred = 0;
  for (int j = 0; j < ndims; j++) {
    int d = dims[j];
    if (!tensor_wrap_dim(&d, a->ndim) || a->ndim == 0 || red[d]) return false; /* reduce.c words it */
    red[d] = true;
    nred++;
  }
  if (ndims == 0)
    for (int d = 0; d < a->ndim; d++) red[d] = true, nred++;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] > 1 && a->stride[d] <= 0) return false; /* expanded: reduce.c's double sums */
  if (a->dtype == DT_FLOAT32 && !f32_supported(a, red, nred)) return false;
  int64_t shape[TENSOR_MAX_DIMS];
  int nout = 0;
  for (int d = 0; d < a->ndim; d++)
    if (!red[d]) shape[nout++] = a->shape[d];
    else if (keepdim) shape[nout++] = 1;
  Tensor *o = tensor_empty(a->dtype, nout, shape);
  if (o) {
    memset(tensor_data(o), 0, (size_t)o->numel * dtype_size(o->dtype));
    sum_iterate(a, red, o);
  }
  *out = o;
  return true;
}

/* ||x||_2 over the last dim (or all of a contiguous tensor) as ATen's
 * vectorised norm kernel: 8 lanes of fused x*x sums, the lanes added in
 * order, the tail fused into lane 0's total, then sqrt. */
static float norm2_row(const float *x, int64_t n) {
  float acc[LANES] = {0};
  int64_t d = 0;
  for (; d < n - n % LANES; d += LANES)
    for (int l = 0; l < LANES; l++) acc[l] = fmaf(x[d + l], x[d + l], acc[l]);
  float b = acc[0];
  for (int l = 1; l < LANES; l++) b = b + acc[l];
  for (; d < n; d++) b = fmaf(x[d], x[d], b);
  return sqrtf(b);
}

bool tensor_norm2_f32_aten(const Tensor *a, const int *dims, int ndims, bool keepdim, Tensor **out) {
  *out = NULL;
  if (a->dtype != DT_FLOAT32 || !tensor_is_contiguous(a) || a->numel == 0 || a->ndim == 0)
    return false;
  bool all = ndims == 0 || (a->ndim == 1 && ndims == 1);
  if (!all) {
    if (ndims != 1) return false;
    int d = dims[0];
    if (!tensor_wrap_dim(&d, a->ndim)) return false;
    if (d == 0 && a->ndim > 1) { /* ATen's generic reduce: fused x*x sums, one per output */
      int64_t K = a->shape[0], M = a->numel / K;
      int64_t shape[TENSOR_MAX_DIMS];
      int nout = 0;
      if (keepdim) shape[nout++] = 1;
      for (int j = 1; j < a->ndim; j++) shape[nout++] = a->shape[j];
      Tensor *o = tensor_empty(DT_FLOAT32, nout, shape);
      if (o) {
        const float *x = tensor_data(a);
        for (int64_t m = 0; m < M; m++) {
          float acc = 0.0f;
          for (int64_t k = 0; k < K; k++) acc = fmaf(x[k * M + m], x[k * M + m], acc);
          ((float *)tensor_data(o))[m] = sqrtf(acc);
        }
      }
      *out = o;
      return true;
    }
    if (d != a->ndim - 1) return false;
  }
  int64_t K = all ? a->numel : a->shape[a->ndim - 1], M = a->numel / K;
  if (M == 1 && K > GRAIN) return false;
  int64_t shape[TENSOR_MAX_DIMS];
  int nout = 0;
  for (int d = 0; d < a->ndim; d++) {
    bool reduced = all || d == a->ndim - 1;
    if (!reduced) shape[nout++] = a->shape[d];
    else if (keepdim) shape[nout++] = 1;
  }
  Tensor *o = tensor_empty(DT_FLOAT32, nout, shape);
  if (o)
    for (int64_t m = 0; m < M; m++)
      ((float *)tensor_data(o))[m] = norm2_row((const float *)tensor_data(a) + m * K, K);
  *out = o;
  return true;
}
