/* ops_sort.c — the recorded forms of sort, topk, kthvalue, mode, median, flip, tril/triu, cumsum,
 * amax/amin, trace.
 *
 * Both are value-selecting: the backward (d_extreme_dim, shared with
 * max(dim)) writes the gradient of each output back at the position its
 * value came from, using the saved indices, as PyTorch's
 * value_selecting_reduction_backward (keepdim: the output keeps dim).
 */
#include <math.h>

#include "autograd/internal.h"

static Tensor *record_selection(AgNodeKind kind, Tensor *a, Tensor *out, int dim, bool keepdim,
                                Tensor **indices, Tensor *idx) {
  if (out == NULL) return NULL;
  if (indices) *indices = idx;
  if (!ag_record_wanted(&a, 1, out)) {
    if (!indices) tensor_release(idx);
    return out;
  }
  GradNode *n = ag_record_node_params(kind, &a, 1, 1, 1);
  if (n) {
    node_save(n, 0, "indices", idx, false);
    params_set_dims(node_params(n), &dim, 1, a->ndim);
    node_params(n)->keepdim = keepdim;
  }
  if (!indices) tensor_release(idx);
  out = ag_record_finish(n, out);
  if (!out && indices) {
    tensor_release(*indices);
    *indices = NULL;
  }
  return out;
}

Tensor *ag_sort(Tensor *a, int dim, bool descending, Tensor **indices) {
  Tensor *idx = NULL;
  Tensor *out = tensor_sort(a, dim, descending, &idx);
  return record_selection(AG_NODE_SortBackward0, a, out, dim, true, indices, idx);
}

Tensor *ag_topk(Tensor *a, int64_t k, int dim, bool largest, Tensor **indices) {
  Tensor *idx = NULL;
  Tensor *out = tensor_topk(a, k, dim, largest, &idx);
  return record_selection(AG_NODE_TopkBackward0, a, out, dim, true, indices, idx);
}

Tensor *ag_kthvalue(Tensor *a, int64_t k, int dim, bool keepdim, Tensor **indices) {
  Tensor *idx = NULL;
  Tensor *out = tensor_kthvalue(a, k, dim, keepdim, &idx);
  if (out == NULL) return NULL;
  int d = dim < 0 ? dim + (a->ndim ? a->ndim : 1) : dim;
  /* a 0-d input's result is 0-d too: nothing to squeeze back */
  return record_selection(AG_NODE_KthvalueBackward0, a, out, d, keepdim || a->ndim == 0, indices, idx);
}

Tensor *ag_mode(Tensor *a, int dim, bool keepdim, Tensor **indices) {
  Tensor *idx = NULL;
  Tensor *out = tensor_mode(a, dim, keepdim, &idx);
  if (out == NULL) return NULL;
  int d = dim < 0 ? dim + (a->ndim ? a->ndim : 1) : dim;
  return record_selection(AG_NODE_ModeBackward0, a, out, d, keepdim || a->ndim == 0, indices, idx);
}

/* median(dim) selects like kthvalue (MedianBackward1); median() of all
 * elements shares the gradient among those equal to the result, or among
 * the NaNs when it is NaN (MedianBackward0, as max()'s). An empty input's
 * median is NaN, as PyTorch's. */
Tensor *ag_median(Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices) {
  if (has_dim) {
    Tensor *idx = NULL;
    Tensor *out = tensor_median(a, dim, keepdim, &idx);
    if (out == NULL) return NULL;
    int d = dim < 0 ? dim + (a->ndim ? a->ndim : 1) : dim;
    return record_selection(AG_NODE_MedianBackward1, a, out, d, keepdim || a->ndim == 0, indices, idx);
  }
  Tensor *out = NULL;
  if (a->numel == 0) {
    out = tensor_scalar(dtype_is_float(a->dtype) ? a->dtype : DT_FLOAT32, NAN);
  } else {
    int64_t n = a->numel;
    Tensor *flat = tensor_reshape(a, 1, &n);
    out = flat ? tensor_median(flat, 0, false, NULL) : NULL;
    tensor_release(flat);
  }
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *node = ag_record_node_params(AG_NODE_MedianBackward0, &a, 1, 2, 1);
  if (node) {
    node_save(node, 0, "self", a, false);
    node_save(node, 1, "result", out, true);
  }
  return ag_record_finish(node, out);
}

Tensor *ag_flip(Tensor *a, const int *dims, int ndims) {
  Tensor *out = tensor_flip(a, dims, ndims);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_FlipBackward0, &a, 1, 0, 1);
  if (n) {
    AgParams *p = node_params(n);
    p->ndims = ndims;
    for (int i = 0; i < ndims; i++) p->dims[i] = dims[i];
  }
  return ag_record_finish(n, out);
}

static Tensor *triangle_record(AgNodeKind kind, Tensor *a, Tensor *out, int64_t diagonal) {
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &a, 1, 0, 1);
  if (n) node_params(n)->i0 = diagonal;
  return ag_record_finish(n, out);
}

Tensor *ag_tril(Tensor *a, int64_t diagonal) {
  return triangle_record(AG_NODE_TrilBackward0, a, tensor_tril(a, diagonal), diagonal);
}
Tensor *ag_triu(Tensor *a, int64_t diagonal) {
  return triangle_record(AG_NODE_TriuBackward0, a, tensor_triu(a, diagonal), diagonal);
}

Tensor *ag_cumsum(Tensor *a, int dim, DType dtype) {
  Tensor *out = tensor_cumsum(a, dim, dtype);
  if (!ag_record_wanted(&a, 1, out) || !dtype_is_float(a->dtype)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_CumsumBackward0, &a, 1, 0, 1);
  if (n) params_set_dims(node_params(n), &dim, 1, a->ndim);
  return ag_record_finish(n, out);
}

static Tensor *amax_record(AgNodeKind kind, Tensor *a, Tensor *out, const int *dims, int ndims,
                           bool keepdim) {
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &a, 1, 2, 1);
  if (n) {
    node_save(n, 0, "self", a, false);
    node_save(n, 1, "result", out, true);
    params_set_dims(node_params(n), ndims ? dims : NULL, ndims, a->ndim);
    node_params(n)->keepdim = keepdim;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_amax(Tensor *a, const int *dims, int ndims, bool keepdim) {
  Tensor *out = tensor_amax(a, dims, ndims, keepdim);
  return amax_record(AG_NODE_AmaxBackward0, a, out, dims, ndims, keepdim);
}
Tensor *ag_amin(Tensor *a, const int *dims, int ndims, bool keepdim) {
  Tensor *out = tensor_amin(a, dims, ndims, keepdim);
  return amax_record(AG_NODE_AminBackward0, a, out, dims, ndims, keepdim);
}

Tensor *ag_trace(Tensor *a) {
  Tensor *out = tensor_trace(a);
  if (!ag_record_wanted(&a, 1, out)) return out;
  return ag_record_finish(ag_record_node(AG_NODE_TraceBackward0, &a, 1, 0, 1), out);
}
