/* ops_repeat.c — the recorded forms of cumprod, diag (and the diagonal
 * einsum takes), roll, repeat, and the composites repeat_interleave and
 * kron, which record the nodes of the ops they are made of, as in PyTorch
 * 1.13 (IndexSelectBackward0; UnsafeViewBackward0 of MulBackward0).
 */
#include <stdlib.h>

#include "autograd/internal.h"

Tensor *ag_cumprod(Tensor *a, int dim, DType dtype) {
  Tensor *out = tensor_cumprod(a, dim, dtype);
  if (!ag_record_wanted(&a, 1, out) || !dtype_is_float(a->dtype)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_CumprodBackward0, &a, 1, 2, 1);
  if (n) {
    node_save(n, 0, "self", a, false);
    node_save(n, 1, "result", out, true);
    params_set_dims(node_params(n), &dim, 1, a->ndim);
  }
  return ag_record_finish(n, out);
}

/* Diagonal ops keep k in i0 and the two dims in dims[0..1]. */
static Tensor *diagonal_record(AgNodeKind kind, Tensor *a, Tensor *out, int64_t k, int d1, int d2,
                               int ndim) {
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &a, 1, 0, 1);
  if (n) {
    AgParams *p = node_params(n);
    p->i0 = k;
    p->ndims = 2;
    p->dims[0] = d1 < 0 ? d1 + ndim : d1;
    p->dims[1] = d2 < 0 ? d2 + ndim : d2;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_diag(Tensor *a, int64_t k) {
  return diagonal_record(AG_NODE_DiagBackward0, a, tensor_diag(a, k), k, 0, 1, 2);
}

/* A view of a, as torch.diagonal (an in-place write through it reaches a). */
Tensor *ag_diagonal(Tensor *a, int64_t k, int d1, int d2) {
  Tensor *out = tensor_diagonal(a, k, d1, d2);
  return ag_mark_view(diagonal_record(AG_NODE_DiagonalBackward0, a, out, k, d1, d2, a->ndim), a);
}

Tensor *ag_diagonal_embed(Tensor *g, int ndim, const int64_t *shape, int64_t k, int d1, int d2) {
  Tensor *out = tensor_diagonal_embed(g, ndim, shape, k, d1, d2);
  return diagonal_record(AG_NODE_DiagonalBackwardBackward0, g, out, k, d1, d2, ndim);
}

/* The shifts live in the params' geom block (int64s), the dims in dims. */
Tensor *ag_roll(Tensor *a, const int64_t *shifts, int nshifts, const int *dims, int ndims) {
  Tensor *out = tensor_roll(a, shifts, nshifts, dims, ndims);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_RollBackward0, &a, 1, 0, 1);
  int64_t *geom = n ? malloc((size_t)nshifts * sizeof(int64_t)) : NULL;
  if (n && geom == NULL) {
    tensor_release(out);
    grad_node_release(n);
    tensor_set_error("out of memory");
    return NULL;
  }
  if (n) {
    AgParams *p = node_params(n);
    for (int i = 0; i < nshifts; i++) { /* reduced, so that the backward may negate them */
      int d = ndims ? (dims[i] < 0 ? dims[i] + a->ndim : dims[i]) : 0;
      int64_t size = a->ndim == 0 ? 1 : ndims ? a->shape[d] : a->numel;
      geom[i] = size ? shifts[i] % size : 0;
    }
    p->geom = geom;
    p->i0 = nshifts;
    p->ndims = ndims;
    for (int i = 0; i < ndims; i++) p->dims[i] = dims[i];
  }
  return ag_record_finish(n, out);
}

/* The backward reads the repeat counts off the input and output shapes. */
Tensor *ag_repeat(Tensor *a, const int64_t *sizes, int nsizes) {
  Tensor *out = tensor_repeat(a, sizes, nsizes);
  if (!ag_record_wanted(&a, 1, out)) return out;
  return ag_record_finish(ag_record_node(AG_NODE_RepeatBackward0, &a, 1, 0, 1), out);
}

/* repeat_interleave as PyTorch composes it: flatten when no dim, repeats
 * (int64, 0-d or 1-d) expanded along dim, their index, index_select. */
Tensor *ag_repeat_interleave(Tensor *a, const Tensor *repeats, int dim, bool has_dim,
                             int64_t output_size) {
  if (repeats->dtype != DT_INT64) {
    tensor_set_error("\"repeat_interleave_cpu\" not implemented for '%s'",
                     tensor_dtype_torch_name(repeats->dtype));
    return NULL;
  }
  Tensor *input = has_dim ? tensor_retain(a) : ag_flatten(a, 0, -1);
  if (input == NULL) return NULL;
  if (!has_dim) dim = 0;
  Tensor *index = NULL, *counts = NULL;
  if (input->ndim == 0) {
    tensor_set_error("Dimension specified as %d but tensor has no dimensions", dim);
    goto done;
  }
  if (!tensor_wrap_dim(&dim, input->ndim)) goto done;
  int64_t size = input->ndim ? input->shape[dim] : 1;
  if (repeats->ndim == 0 || (repeats->ndim == 1 && repeats->shape[0] == 1)) {
    Tensor *one = tensor_reshape(repeats, 1, (int64_t[1]){1});
    counts = one ? tensor_expand(one, 1, &size) : NULL;
    tensor_release(one);
  } else if (repeats->ndim == 1) {
    if (repeats->shape[0] != size) {
      tensor_set_error("repeats must have the same size as input along dim");
      goto done;
    }
    counts = tensor_retain((Tensor *)repeats);
  } else {
    tensor_set_error("repeats must be 0-dim or 1-dim tensor");
    goto done;
  }
  index = counts ? tensor_repeat_interleave_index(counts, output_size) : NULL;
done:;
  Tensor *out = index ? ag_index_select(input, dim, index) : NULL;
  tensor_release(counts);
  tensor_release(index);
  tensor_release(input);
  return out;
}

/* kron as PyTorch 1.13 computes it: a viewed as [a0, 1, a1, 1, ...] times
 * b viewed as [1, b0, 1, b1, ...] (the ranks padded to the larger), then
 * viewed as [a0 b0, a1 b1, ...]. */
Tensor *ag_kron(Tensor *a, Tensor *b) {
  int ndim = a->ndim > b->ndim ? a->ndim : b->ndim;
  if (2 * ndim > TENSOR_MAX_DIMS) {
    tensor_set_error("kron(): tensors of at most %d dimensions", TENSOR_MAX_DIMS / 2);
    return NULL;
  }
  int64_t as[TENSOR_MAX_DIMS], bs[TENSOR_MAX_DIMS], rs[TENSOR_MAX_DIMS];
  for (int i = 0; i < ndim; i++) {
    int ia = i - (ndim - a->ndim), ib = i - (ndim - b->ndim);
    as[2 * i] = ia >= 0 ? a->shape[ia] : 1;
    as[2 * i + 1] = 1;
    bs[2 * i] = 1;
    bs[2 * i + 1] = ib >= 0 ? b->shape[ib] : 1;
    if (__builtin_mul_overflow(as[2 * i], bs[2 * i + 1], &rs[i])) {
      tensor_set_error("kron(): the result's size overflows");
      return NULL;
    }
  }
  Tensor *av = ag_unsafe_view(a, 2 * ndim, as);
  Tensor *bv = av ? ag_unsafe_view(b, 2 * ndim, bs) : NULL;
  Tensor *prod = bv ? ag_binary(BIN_MUL, av, bv) : NULL;
  tensor_release(av);
  tensor_release(bv);
  Tensor *out = prod ? ag_unsafe_view(prod, ndim, rs) : NULL;
  tensor_release(prod);
  return out;
}
