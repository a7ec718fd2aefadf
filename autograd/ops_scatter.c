/* ops_scatter.c — the recorded forms of scatter, scatter_add, index_add,
 * unique and bincount (tensor/index.c and count.c compute).
 *
 * scatter records ScatterBackward0 (a src tensor) or ScatterBackward1 (a
 * number); with reduce= PyTorch has no derivative and records
 * NotImplemented, as here. unique records a node whose backward fails, as
 * PyTorch's Unique2Backward0 / UniqueDimBackward0 do.
 */
#include "autograd/internal.h"

/* dim wrapped into a's dimensions (the forward has checked it). */
static int wrapped_dim(int dim, const Tensor *a) {
  int n = a->ndim ? a->ndim : 1;
  return dim < 0 ? dim + n : dim;
}

static Tensor *record_indexed(AgNodeKind kind, Tensor *a, Tensor *other, const Tensor *index,
                              int dim, double alpha, Tensor *out) {
  Tensor *ins[2] = {a, other};
  int nin = other ? 2 : 1;
  if (!ag_record_wanted(ins, nin, out)) return out;
  GradNode *n = ag_record_node_params(kind, ins, nin, 1, 1);
  if (n) {
    node_save(n, 0, "index", (Tensor *)index, false);
    node_params(n)->i0 = wrapped_dim(dim, a);
    node_params(n)->s0 = alpha;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_scatter(Tensor *a, int dim, const Tensor *index, Tensor *src, double value,
                   TensorScatterMode mode, bool reduce) {
  Tensor *out = tensor_scatter(a, dim, index, src, value, mode);
  if (reduce) {
    Tensor *ins[2] = {a, src};
    int nin = src ? 2 : 1;
    if (!ag_record_wanted(ins, nin, out)) return out;
    GradNode *n = ag_record_node_params(AG_NODE_NotImplemented, ins, nin, 0, 1);
    if (n) node_params(n)->aten = "scatter";
    return ag_record_finish(n, out);
  }
  AgNodeKind kind = src ? AG_NODE_ScatterBackward0 : AG_NODE_ScatterBackward1;
  return record_indexed(kind, a, src, index, dim, 1.0, out);
}

Tensor *ag_scatter_add(Tensor *a, int dim, const Tensor *index, Tensor *src) {
  Tensor *out = tensor_scatter(a, dim, index, src, 0, SCATTER_ADD);
  return record_indexed(AG_NODE_ScatterAddBackward0, a, src, index, dim, 1.0, out);
}

Tensor *ag_index_add(Tensor *a, int dim, const Tensor *index, Tensor *source, double alpha) {
  Tensor *out = tensor_index_add(a, dim, index, source, alpha);
  return record_indexed(AG_NODE_IndexAddBackward0, a, source, index, dim, alpha, out);
}

Tensor *ag_unique(Tensor *a, int dim, bool has_dim, Tensor **inverse, Tensor **counts) {
  Tensor *out = tensor_unique(a, dim, has_dim, inverse, counts);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(has_dim ? AG_NODE_UniqueDimBackward0
                                              : AG_NODE_Unique2Backward0, &a, 1, 0, 1);
  if (n) node_params(n)->aten = has_dim ? "unique_dim" : "_unique2";
  out = ag_record_finish(n, out);
  if (!out && inverse) {
    tensor_release(*inverse);
    *inverse = NULL;
  }
  if (!out && counts) {
    tensor_release(*counts);
    *counts = NULL;
  }
  return out;
}

Tensor *ag_bincount(const Tensor *a, Tensor *weights, int64_t minlength) {
  Tensor *out = tensor_bincount(a, weights, minlength);
  if (!weights || !ag_record_wanted(&weights, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_NotImplemented, &weights, 1, 0, 1);
  if (n) node_params(n)->aten = "bincount";
  return ag_record_finish(n, out);
}
