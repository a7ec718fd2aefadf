/* amax.c — reductions without indices: amax/amin, the largest / smallest
 * values over several dims at once (one max(dim) per reduced dim, last dim
 * first), and trace, the sum of a matrix's diagonal. */
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"


static Tensor *extreme_dims(const Tensor *a, const int *dims, int ndims, bool keepdim,
                            bool is_max) {
  const char *fname = is_max ? "amax" : "amin";
  bool reduced[TENSOR_MAX_DIMS] = {false};
  for (int i = 0; i < ndims; i++) {
    int d = dims[i];
    if (!tensor_wrap_dim(&d, a->ndim)) return NULL;
    if (a->ndim == 0) continue;
    if (reduced[d]) {
      tensor_set_error("dim %d appears multiple times in the list of dims", d);
      return NULL;
    }
    reduced[d] = true;
  }
  if (ndims == 0 && a->numel == 0) {
    tensor_set_error("%s(): Expected reduction dim to be specified for input.numel() == 0. "
                     "Specify the reduction dim with the 'dim' argument.", fname);
    return NULL;
  }
  if (ndims == 0)
    for (int d = 0; d < a->ndim; d++) reduced[d] = true; /* dim=(): every dim */
  for (int d = 0; d < a->ndim; d++) {
    if (reduced[d] && a->shape[d] == 0) {
      tensor_set_error("%s(): Expected reduction dim %d to have non-zero size.", fname, d);
      return NULL;
    }
  }
  int64_t shape[TENSOR_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < a->ndim; d++)
    if (!reduced[d]) shape[n++] = a->shape[d];
    else if (keepdim) shape[n++] = 1;
  if (a->ndim == 0) return tensor_contiguous(a);
  if (a->numel == 0) return tensor_empty(a->dtype, n, shape);
  Tensor *r = tensor_retain((Tensor *)a);
  for (int d = a->ndim - 1; d >= 0 && r; d--) {
    if (!reduced[d]) continue;
    Tensor *idx = NULL;
    Tensor *next = is_max ? tensor_max(r, d, true, true, &idx) : tensor_min(r, d, true, true, &idx);
    tensor_release(idx);
    tensor_release(r);
    r = next;
  }
  if (r == NULL || keepdim) return r;
  Tensor *out = tensor_reshape(r, n, shape);
  tensor_release(r);
  return out;
}

Tensor *tensor_amax(const Tensor *a, const int *dims, int ndims, bool keepdim) {
  return extreme_dims(a, dims, ndims, keepdim, true);
}
Tensor *tensor_amin(const Tensor *a, const int *dims, int ndims, bool keepdim) {
  return extreme_dims(a, dims, ndims, keepdim, false);
}

Tensor *tensor_trace(const Tensor *a) {
  if (a->ndim != 2) {
    tensor_set_error("trace: expected a matrix, but got tensor with dim %d", a->ndim);
    return NULL;
  }
  if (a->dtype == DT_BOOL) {
    tensor_set_error("\"trace\" not implemented for 'Bool'");
    return NULL;
  }
  int64_t n = a->shape[0] < a->shape[1] ? a->shape[0] : a->shape[1];
  /* the diagonal as a strided 1-D view, summed as sum() sums (int64 for integers) */
  int64_t stride = a->stride[0] + a->stride[1];
  Tensor *diagonal = tensor_view_of(a, 1, &n, &stride, a->offset);
  Tensor *out = diagonal ? tensor_sum(diagonal, NULL, 0, false) : NULL;
  tensor_release(diagonal);
  return out;
}
