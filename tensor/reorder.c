/* reorder.c — copies that move elements: flip, and the triangles tril/triu.
 *
 * flip writes a contiguous result by walking it with an odometer over the
 * source's strides, a flipped dimension walking backwards.
 */
#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <string.h>

/* Dims given as a list: wrapped, each at most once (PyTorch's words). */
static bool dim_set(const int *dims, int ndims, int ndim, bool *chosen) {
  memset(chosen, 0, TENSOR_MAX_DIMS * sizeof *chosen);
  for (int i = 0; i < ndims; i++) {
    int d = dims[i];
    if (!tensor_wrap_dim(&d, ndim)) return false;
    if (ndim == 0) continue;
    if (chosen[d]) {
      tensor_set_error("dim %d appears multiple times in the list of dims", d);
      return false;
    }
    chosen[d] = true;
  }
  return true;
}

Tensor *tensor_flip(const Tensor *a, const int *dims, int ndims) {
  bool flipped[TENSOR_MAX_DIMS];
  if (!dim_set(dims, ndims, a->ndim, flipped)) return NULL;
  Tensor *out = tensor_empty(a->dtype, a->ndim, a->shape);
  if (out == NULL || out->numel == 0) return out;
  size_t esize = dtype_size(a->dtype);
  const char *src = tensor_data(a);
  char *dst = tensor_data(out);
  int64_t step[TENSOR_MAX_DIMS], pos[TENSOR_MAX_DIMS] = {0}, off = 0;
  for (int d = 0; d < a->ndim; d++) {
    step[d] = flipped[d] ? -a->stride[d] : a->stride[d];
    if (flipped[d]) off += (a->shape[d] - 1) * a->stride[d];
  }
  for (int64_t i = 0; i < out->numel; i++) {
    memcpy(dst + (size_t)i * esize, src + off * (int64_t)esize, esize);
    for (int d = a->ndim - 1; d >= 0; d--) { /* the odometer */
      off += step[d];
      if (++pos[d] < a->shape[d]) break;
      off -= step[d] * a->shape[d];
      pos[d] = 0;
    }
  }
  return out;
}

/* tril (lower) keeps the elements with column - row <= diagonal, triu
 * (upper) those with column - row >= diagonal, of the last two dims. */
static Tensor *triangle(const Tensor *a, int64_t diagonal, bool lower) {
  int rows_dim = -2;
  if (!tensor_wrap_dim(&rows_dim, a->ndim)) return NULL;
  Tensor *out = tensor_contiguous(a);
  if (out == NULL) return NULL;
  Tensor *copy = out == a ? tensor_empty(a->dtype, a->ndim, a->shape) : out;
  if (copy == NULL) {
    tensor_release(out);
    return NULL;
  }
  if (copy != out) {
    memcpy(tensor_data(copy), tensor_data(a), (size_t)a->numel * dtype_size(a->dtype));
    tensor_release(out);
  }
  int64_t rows = a->shape[a->ndim - 2], cols = a->shape[a->ndim - 1];
  int64_t mats = rows > 0 && cols > 0 ? a->numel / (rows * cols) : 0;
  size_t esize = dtype_size(a->dtype);
  char *p = tensor_data(copy);
  for (int64_t m = 0; m < mats; m++) {
    for (int64_t r = 0; r < rows; r++) {
      char *row = p + (size_t)((m * rows + r) * cols) * esize;
      /* the zeroed columns: [first, last) */
      int64_t first = lower ? r + diagonal + 1 : 0, last = lower ? cols : r + diagonal;
      if (first < 0) first = 0;
      if (last > cols) last = cols;
      if (first < last) memset(row + (size_t)first * esize, 0, (size_t)(last - first) * esize);
    }
  }
  return copy;
}

Tensor *tensor_tril(const Tensor *a, int64_t diagonal) { return triangle(a, diagonal, true); }
Tensor *tensor_triu(const Tensor *a, int64_t diagonal) { return triangle(a, diagonal, false); }
