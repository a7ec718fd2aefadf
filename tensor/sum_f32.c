/* sum_f32.c — float32 sums in PyTorch 1.13's order (ATen's SumKernel.cpp:
 * cascade_sum). A float sum's last bit depends on the order of the
 * additions, and `print(loss.item())` shows every bit, so for contiguous
 * float32 inputs reduced over all dims, a trailing block or a leading block
 * of dims, the additions follow ATen: four interleaved accumulators (the ILP
 * factor) per row, each a 4-level cascade whose levels flush every 2^p
 * steps, and 8-float vector lanes (AVX2) for contiguous runs. Other layouts,
 * and single sums too long for one thread, use reduce.c's double sums. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#define LANES 8 /* Vectorized<float>::size() under AVX2 */
#define ILP 4
#define LEVELS 4
#define GRAIN 32768 /* at::internal::GRAIN_SIZE: above it one sum is split over threads */

static int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  uint64_t v = (uint64_t)x - 1;
  int last = 63 - __builtin_clzll(v);
  return last + 1;
}

/* multi_row_sum: nrows rows of nl lanes; step i of row k lane l reads
 * in[i * row_stride + k * col_stride + l] (element strides). */
static void multi_row_sum(const float *in, int64_t row_stride, int64_t col_stride, int64_t size,
                          int nrows, int nl, float out[ILP][LANES]) {
  int64_t level_power = ceil_log2(size) / LEVELS;
  if (level_power < 4) level_power = 4;
  int64_t level_step = (int64_t)1 << level_power, level_mask = level_step - 1;
  float acc[LEVELS][ILP][LANES];
  memset(acc, 0, sizeof acc);
  int64_t i = 0;
  while (i + level_step <= size) {
    for (int64_t j = 0; j < level_step; j++, i++)
      for (int k = 0; k < nrows; k++)
        for (int l = 0; l < nl; l++) acc[0][k][l] += in[i * row_stride + k * col_stride + l];
    for (int j = 1; j < LEVELS; j++) {
      for (int k = 0; k < nrows; k++)
        for (int l = 0; l < nl; l++) {
          acc[j][k][l] += acc[j - 1][k][l];
          acc[j - 1][k][l] = 0.0f;
        }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; i++)
    for (int k = 0; k < nrows; k++)
      for (int l = 0; l < nl; l++) acc[0][k][l] += in[i * row_stride + k * col_stride + l];
  for (int j = 1; j < LEVELS; j++)
    for (int k = 0; k < nrows; k++)
      for (int l = 0; l < nl; l++) acc[0][k][l] += acc[j][k][l];
  for (int k = 0; k < nrows; k++)
    for (int l = 0; l < nl; l++) out[k][l] = acc[0][k][l];
}

/* row_sum: `size` steps of `stride` elements, nl lanes each (out[0..nl)). */
static void row_sum(const float *in, int64_t stride, int64_t size, int nl, float *out) {
  int64_t size_ilp = size / ILP;
  float part[ILP][LANES];
  multi_row_sum(in, stride * ILP, stride, size_ilp, ILP, nl, part);
  for (int64_t i = size_ilp * ILP; i < size; i++)
    for (int l = 0; l < nl; l++) part[0][l] += in[i * stride + l];
  for (int k = 1; k < ILP; k++)
    for (int l = 0; l < nl; l++) part[0][l] += part[k][l];
  memcpy(out, part[0], (size_t)nl * sizeof(float));
}

/* K contiguous elements per output (rows of a (M, K) matrix). */
static float inner_sum(const float *row, int64_t K) {
  if (K < LANES) {
    float r;
    row_sum(row, 1, K, 1, &r);
    return r;
  }
  int64_t vec_size = K / LANES;
  float vec[LANES];
  row_sum(row, LANES, vec_size, LANES, vec);
  float final = 0.0f;
  for (int64_t k = vec_size * LANES; k < K; k++) final += row[k];
  for (int l = 0; l < LANES; l++) final += vec[l];
  return final;
}

/* Columns of a contiguous (K, M) matrix: out[m] = sum over k. */
static void outer_sum(const float *in, int64_t K, int64_t M, float *out) {
  int64_t j = 0;
  if (M >= LANES) { /* vectorized_outer_sum */
    for (; j + ILP * LANES <= M; j += ILP * LANES) {
      float sums[ILP][LANES];
      multi_row_sum(in + j, M, LANES, K, ILP, LANES, sums);
      for (int k = 0; k < ILP; k++) memcpy(out + j + k * LANES, sums[k], sizeof sums[k]);
    }
    for (; j + LANES <= M; j += LANES) row_sum(in + j, M, K, LANES, out + j);
    for (; j < M; j++) row_sum(in + j, M, K, 1, out + j);
    return;
  }
  for (; j + (ILP - 1) < M; j += ILP) { /* scalar_outer_sum */
    float sums[ILP][LANES];
    multi_row_sum(in + j, M, 1, K, ILP, 1, sums);
    for (int k = 0; k < ILP; k++) out[j + k] = sums[k][0];
  }
  for (; j < M; j++) row_sum(in + j, M, K, 1, out + j);
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

bool tensor_sum_f32_aten(const Tensor *a, const int *dims, int ndims, bool keepdim, Tensor **out) {
  *out = NULL;
  if (a->dtype != DT_FLOAT32 || a->numel == 0) return false;
  if (!tensor_is_contiguous(a)) {
    if (ndims != 0 || a->numel > GRAIN || !dense_permuted(a)) return false;
    int64_t shape[TENSOR_MAX_DIMS];
    for (int d = 0; d < a->ndim; d++) shape[d] = 1;
    Tensor *o = tensor_empty(DT_FLOAT32, keepdim ? a->ndim : 0, shape);
    if (o) *(float *)tensor_data(o) = inner_sum((const float *)a->storage->data + a->offset, a->numel);
    *out = o;
    return true;
  }
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
  /* the reduced dims must be a leading or a trailing block */
  bool trailing = true, leading = true;
  for (int d = 0; d < a->ndim; d++) {
    if (red[d] != (d >= a->ndim - nred)) trailing = false;
    if (red[d] != (d < nred)) leading = false;
  }
  if (!trailing && !leading) return false;
  int64_t K = 1, M = 1;
  int64_t shape[TENSOR_MAX_DIMS];
  int nout = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (red[d]) {
      K *= a->shape[d];
      if (keepdim) shape[nout++] = 1;
    } else {
      M *= a->shape[d];
      shape[nout++] = a->shape[d];
    }
  }
  if (M == 1 && K > GRAIN) return false;
  Tensor *o = tensor_empty(DT_FLOAT32, nout, shape);
  if (!o) return true; /* the error is set */
  const float *in = tensor_data(a);
  float *dst = tensor_data(o);
  if (M == 1 || trailing) {
    for (int64_t m = 0; m < M; m++) dst[m] = inner_sum(in + m * K, K);
  } else {
    outer_sum(in, K, M, dst);
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
