/* ops_shape.c — differentiable shape ops, joining/splitting, indexing and
 * matrix products. Views keep a reference to the tensor they view
 * (AgMeta.view_base) so that an in-place write through them can reach
 * their base (inplace.c). */
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"
#include "tensor/ag_assert.h"

/* var = expr (computed from var), dropping the old var: for chains of ops. */
#define THEN(var, expr)                                                                            \
  do {                                                                                             \
    Tensor *next_ = (var) ? (expr) : NULL;                                                         \
    tensor_release(var);                                                                           \
    (var) = next_;                                                                                 \
  } while (0)

static int wrap(int dim, int ndim) { return dim < 0 ? dim + ndim : dim; }

/* Records a view op of one input with no saved values; p (may be NULL):
 * the node's parameters, set before the output is (a jvp rule reads them). */
static Tensor *view_record(AgNodeKind kind, Tensor *a, Tensor *out, const AgParams *p) {
  if (!ag_record_wanted(&a, 1, out)) return ag_mark_view(out, a);
  GradNode *n = p ? ag_record_node_params(kind, &a, 1, 0, 1) : ag_record_node(kind, &a, 1, 0, 1);
  if (n && p) *node_params(n) = *p;
  return ag_mark_view(ag_record_finish(n, out), a);
}

static Tensor *view_record_dims(AgNodeKind kind, Tensor *a, Tensor *out, int d0, int d1) {
  AgParams p = {.i0 = d0, .i1 = d1};
  return view_record(kind, a, out, &p);
}

Tensor *ag_view(Tensor *a, int ndim, const int64_t *shape) {
  return view_record(AG_NODE_ViewBackward0, a, tensor_view(a, ndim, shape), NULL);
}

/* A viewable reshape aliases (ReshapeAliasBackward0, as PyTorch 1.13); any
 * other copies: clone then _unsafe_view. */
Tensor *ag_reshape(Tensor *a, int ndim, const int64_t *shape) {
  if (!ag_should_record(&a, 1)) return tensor_reshape(a, ndim, shape);
  if (tensor_reshape_is_view(a, ndim, shape))
    return view_record(AG_NODE_ReshapeAliasBackward0, a, tensor_reshape(a, ndim, shape), NULL);
  Tensor *c = ag_clone(a);
  Tensor *out = c ? ag_unsafe_view(c, ndim, shape) : NULL;
  tensor_release(c);
  return out;
}

/* ATen's _unsafe_view: a view of (contiguous) a that is not tracked as a
 * view (UnsafeViewBackward0); a non-contiguous a is copied first. */
Tensor *ag_unsafe_view(Tensor *a, int ndim, const int64_t *shape) {
  Tensor *c = ag_contiguous(a);
  Tensor *out = c ? tensor_view(c, ndim, shape) : NULL;
  if (out && ag_record_wanted(&c, 1, out))
    out = ag_record_finish(ag_record_node(AG_NODE_UnsafeViewBackward0, &c, 1, 0, 1), out);
  tensor_release(c);
  return out;
}

Tensor *ag_flatten(Tensor *a, int start_dim, int end_dim) {
  if (!ag_should_record(&a, 1)) return tensor_flatten(a, start_dim, end_dim);
  Tensor *shape_of = tensor_flatten(a, start_dim, end_dim); /* validates, gives the shape */
  if (!shape_of) return NULL;
  Tensor *out = shape_of->ndim == a->ndim && a->ndim > 0 ? tensor_retain(a) : NULL;
  if (!out) out = ag_reshape(a, shape_of->ndim, shape_of->shape);
  tensor_release(shape_of);
  return out;
}

Tensor *ag_squeeze(Tensor *a, int dim, bool has_dim) {
  AgNodeKind kind = has_dim ? AG_NODE_SqueezeBackward1 : AG_NODE_SqueezeBackward0;
  return view_record(kind, a, tensor_squeeze(a, dim, has_dim), NULL);
}

Tensor *ag_unsqueeze(Tensor *a, int dim) {
  return view_record_dims(AG_NODE_UnsqueezeBackward0, a, tensor_unsqueeze(a, dim),
                          wrap(dim, a->ndim + 1), 0);
}

Tensor *ag_transpose(Tensor *a, int d0, int d1) {
  return view_record_dims(AG_NODE_TransposeBackward0, a, tensor_transpose(a, d0, d1),
                          wrap(d0, a->ndim), wrap(d1, a->ndim));
}

Tensor *ag_t(Tensor *a) { return view_record(AG_NODE_TBackward0, a, tensor_t(a), NULL); }

Tensor *ag_permute(Tensor *a, const int *perm, int n) {
  AgParams p = {0};
  params_set_dims(&p, perm, n, a->ndim);
  return view_record(AG_NODE_PermuteBackward0, a, tensor_permute(a, perm, n), &p);
}

Tensor *ag_expand(Tensor *a, int ndim, const int64_t *shape) {
  return view_record(AG_NODE_ExpandBackward0, a, tensor_expand(a, ndim, shape), NULL);
}

/* ---- joining and splitting ---- */

static Tensor *join_record(AgNodeKind kind, Tensor *const *ts, int n, Tensor *out, int dim) {
  if (!ag_record_wanted(ts, n, out)) return out;
  GradNode *node = ag_record_node_params(kind, ts, n, 0, 1);
  if (node) node_params(node)->i0 = wrap(dim, out->ndim);
  return ag_record_finish(node, out);
}

Tensor *ag_cat(Tensor *const *ts, int n, int dim) {
  return join_record(AG_NODE_CatBackward0, ts, n, tensor_cat(ts, n, dim), dim);
}

Tensor *ag_stack(Tensor *const *ts, int n, int dim) {
  return join_record(AG_NODE_StackBackward0, ts, n, tensor_stack(ts, n, dim), dim);
}

static void release_all(Tensor **ts, int n) {
  for (int i = 0; i < n; i++)
    tensor_release(ts[i]);
  free(ts);
}

/* Makes the count pieces of a outputs of one node; -1 on failure (pieces freed). */
static int pieces_record(AgNodeKind kind, Tensor *a, int count, Tensor ***out, int dim) {
  if (count < 0 || !ag_should_record(&a, 1) || !dtype_is_float(a->dtype)) return count;
  GradNode *n = ag_record_node_params(kind, &a, 1, 0, count);
  bool ok = n != NULL;
  if (n) node_params(n)->i0 = wrap(dim, a->ndim); /* before the outputs: their jvp reads it */
  for (int i = 0; ok && i < count; i++) {
    (*out)[i] = ag_fresh_result((*out)[i]);
    ok = (*out)[i] && node_set_output(n, i, (*out)[i]);
  }
  if (n) node_finish(n);
  if (ok) return count;
  release_all(*out, count);
  *out = NULL;
  return -1;
}

int ag_split(Tensor *a, int64_t size, int dim, Tensor ***out) {
  return pieces_record(AG_NODE_SplitBackward0, a, tensor_split(a, size, dim, out), out, dim);
}

int ag_split_sizes(Tensor *a, const int64_t *sizes, int nsizes, int dim, Tensor ***out) {
  return pieces_record(AG_NODE_SplitWithSizesBackward0, a,
                       tensor_split_sizes(a, sizes, nsizes, dim, out), out, dim);
}

int ag_chunk(Tensor *a, int chunks, int dim, Tensor ***out) {
  return pieces_record(AG_NODE_SplitBackward0, a, tensor_chunk(a, chunks, dim, out), out, dim);
}

int ag_unbind(Tensor *a, int dim, Tensor ***out) {
  *out = NULL;
  if (a->ndim == 0) {
    tensor_set_error("Dimension specified as 0 but tensor has no dimensions");
    return -1;
  }
  int d = wrap(dim, a->ndim);
  if (d < 0 || d >= a->ndim) {
    tensor_set_index_error("Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                     -a->ndim, a->ndim - 1, dim);
    return -1;
  }
  int count = (int)a->shape[d];
  Tensor **pieces = calloc((size_t)(count ? count : 1), sizeof *pieces);
  if (!pieces) {
    tensor_set_error("out of memory");
    return -1;
  }
  for (int i = 0; i < count; i++) {
    if (!(pieces[i] = tensor_select(a, d, i))) {
      release_all(pieces, i);
      return -1;
    }
  }
  *out = pieces;
  return pieces_record(AG_NODE_UnbindBackward0, a, count, out, d);
}

/* ---- indexing ---- */

static IndexItem full_slice(void) {
  IndexItem it = {0};
  it.kind = IDX_SLICE;
  it.step = 1;
  return it;
}

/* Records kind with params items = [:, ..., :, last] (last at dim). */
static Tensor *dim_item_record(AgNodeKind kind, Tensor *a, Tensor *out, int dim,
                               const IndexItem *last, const Tensor *saved_index) {
  if (!ag_record_wanted(&a, 1, out)) return ag_mark_view(out, a);
  GradNode *n = ag_record_node_params(kind, &a, 1, saved_index ? 1 : 0, 1);
  IndexItem items[TENSOR_MAX_DIMS + 1];
  const IndexItem *all = last; /* at dim 0, last is all there is (no copy) */
  if (dim > 0) {
    for (int d = 0; d < dim; d++)
      items[d] = full_slice();
    items[dim] = *last;
    all = items;
  }
  n = node_with_items(n, all, dim + 1);
  if (n) {
    node_params(n)->i0 = dim;
    if (saved_index) node_save(n, 0, "index", (Tensor *)saved_index, false);
  }
  return ag_mark_view(ag_record_finish(n, out), a);
}

Tensor *ag_select(Tensor *a, int dim, int64_t i) {
  Tensor *out = tensor_select(a, dim, i);
  if (!out) return NULL;
  IndexItem it = {.kind = IDX_INT, .i = i};
  return dim_item_record(AG_NODE_SelectBackward0, a, out, wrap(dim, a->ndim), &it, NULL);
}

Tensor *ag_slice(Tensor *a, int dim, int64_t start, int64_t stop, int64_t step) {
  Tensor *out = tensor_slice(a, dim, start, stop, step);
  if (!out) return NULL;
  IndexItem it = full_slice();
  it.start = start;
  it.stop = stop;
  it.step = step;
  it.has_start = it.has_stop = true;
  return dim_item_record(AG_NODE_SliceBackward0, a, out, wrap(dim, a->ndim), &it, NULL);
}

Tensor *ag_index_select(Tensor *a, int dim, const Tensor *index) {
  Tensor *out = tensor_index_select(a, dim, index);
  if (!out) return NULL;
  IndexItem it = {.kind = IDX_TENSOR, .tensor = index};
  return dim_item_record(AG_NODE_IndexSelectBackward0, a, out, wrap(dim, a->ndim), &it, index);
}

Tensor *ag_gather(Tensor *a, int dim, const Tensor *index) {
  Tensor *out = tensor_gather(a, dim, index);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_GatherBackward0, &a, 1, 1, 1);
  if (n) {
    node_save(n, 0, "index", (Tensor *)index, false);
    node_params(n)->i0 = wrap(dim, a->ndim);
  }
  return ag_record_finish(n, out);
}

Tensor *ag_embedding(Tensor *weight, const Tensor *indices) {
  if (indices->dtype != DT_INT64) {
    const char *type = indices->dtype == DT_BOOL ? "CPUBoolType" : NULL;
    tensor_set_error("Expected tensor for argument #1 'indices' to have one of the following "
                     "scalar types: Long, Int; but got %s%s%s instead (while checking arguments "
                     "for embedding)", type ? type : "torch.",
                     type ? "" : tensor_dtype_torch_name(indices->dtype), type ? "" : "Tensor");
    return NULL;
  }
  if (weight->ndim != 2) {
    tensor_set_error("'weight' must be 2-D");
    return NULL;
  }
  for (int64_t i = 0; i < indices->numel; i++) {
    double k = tensor_get_flat(indices, i);
    if (k < 0 || k >= (double)weight->shape[0]) {
      tensor_set_index_error("index out of range in self");
      return NULL;
    }
  }
  IndexItem it = {0};
  it.kind = IDX_TENSOR;
  it.tensor = indices;
  Tensor *out = tensor_index(weight, &it, 1);
  if (!ag_record_wanted(&weight, 1, out)) return out;
  GradNode *node =
      node_with_items(ag_record_node_params(AG_NODE_EmbeddingBackward0, &weight, 1, 0, 1), &it, 1);
  if (node) node->has_saved = true; /* PyTorch saves the indices */
  return ag_record_finish(node, out);
}

static bool consumes_dim(IndexKind k) { return k == IDX_INT || k == IDX_SLICE; }

/* PyTorch skips a slice of a multi-item index that is written out as the
 * whole dimension (start 0, stop exactly the size, step 1): x[0:2, 1] records
 * only the select. A missing stop is INT64_MAX there, so x[:, 1] records it. */
static bool is_noop_slice(const IndexItem *it, int64_t size) {
  return it->kind == IDX_SLICE && (!it->has_start || it->start == 0) && it->has_stop &&
         it->stop == size && it->step == 1;
}

/* One basic item applied at *dim, as a recorded view (NULL item: skipped). */
static Tensor *basic_item(Tensor *cur, const IndexItem *it, int *dim) {
  switch (it->kind) {
  case IDX_INT:
    return ag_select(cur, *dim, it->i);
  case IDX_SLICE: {
    int d = (*dim)++;
    if (it->step <= 0) {
      tensor_set_error("step must be greater than zero");
      return NULL;
    }
    return ag_slice(cur, d, it->has_start ? it->start : 0, it->has_stop ? it->stop : INT64_MAX,
                    it->step);
  }
  case IDX_NEWAXIS:
    return ag_unsqueeze(cur, (*dim)++);
  default:
    AG_ASSERT(!"a basic index item");
    tensor_set_error("internal error: not a basic index");
    return NULL;
  }
}

Tensor *ag_identity_view(Tensor *a) {
  return view_record(AG_NODE_Identity, a, tensor_alias(a), NULL);
}

Tensor *ag_alias_of(Tensor *a) {
  return view_record(AG_NODE_AliasBackward0, a, tensor_alias(a), NULL);
}

/* Basic indexing as PyTorch 1.13 records it: a single item is one node
 * (x[:] is a SliceBackward0, x[...] an AliasBackward0); several items give
 * one view node per item, skipping slices that name the whole dimension, and
 * an alias when nothing is left. */
static Tensor *index_basic(Tensor *a, const IndexItem *items, int n) {
  int consuming = 0;
  for (int k = 0; k < n; k++)
    consuming += consumes_dim(items[k].kind);
  if (consuming > a->ndim) {
    tensor_set_index_error("too many indices for tensor of dimension %d", a->ndim);
    return NULL;
  }
  if (n == 1 && items[0].kind == IDX_ELLIPSIS) return ag_alias_of(a);
  if (n == 1) {
    int dim = 0;
    return basic_item(a, &items[0], &dim);
  }
  Tensor *cur = tensor_retain(a);
  int dim = 0, left = consuming;
  for (int k = 0; k < n && cur; k++) {
    const IndexItem *it = &items[k];
    if (it->kind == IDX_ELLIPSIS) {
      dim = cur->ndim - left;
      continue;
    }
    if (consumes_dim(it->kind)) left--;
    if (is_noop_slice(it, cur->shape[dim])) {
      dim++;
      continue;
    }
    Tensor *next = basic_item(cur, it, &dim);
    tensor_release(cur);
    cur = next;
  }
  if (cur == a) { /* nothing recorded: still a new view, as x[...] is */
    tensor_release(cur);
    cur = ag_alias_of(a);
  }
  return cur;
}

static void set_view(Tensor **cur, Tensor *next) {
  tensor_release(*cur);
  *cur = next;
}

/* Advanced indexing as PyTorch 1.13 runs it (applySlicing): integers,
 * slices and new axes are applied first, as (recorded) views, then one index
 * op takes the tensor items at the dims they landed on. So x[:, idx] is
 * IndexBackward0 over SliceBackward0, and x[0, :, idx] has shape
 * [x.shape[1], len(idx)] (PyTorch's, not NumPy's, placement). */
static Tensor *index_advanced(Tensor *a, const IndexItem *items, int n) {
  Tensor *check = tensor_index(a, items, n); /* tensor/'s errors, worded as PyTorch's */
  if (!check) return NULL;
  tensor_release(check);
  int consuming = 0;
  for (int k = 0; k < n; k++) {
    const IndexItem *it = &items[k];
    if (it->kind == IDX_INT || it->kind == IDX_SLICE) consuming++;
    else if (it->kind == IDX_TENSOR) consuming += dtype_is_mask(it->tensor->dtype) ? it->tensor->ndim : 1;
  }
  IndexItem rest[2 * TENSOR_MAX_DIMS + 2];
  int nrest = 0, dim = 0, left = consuming;
  Tensor *cur = tensor_retain(a);
  for (int k = 0; k < n && cur; k++) {
    const IndexItem *it = &items[k];
    switch (it->kind) {
    case IDX_ELLIPSIS:
      for (int to = cur->ndim - left; dim < to && nrest < 2 * TENSOR_MAX_DIMS; dim++)
        rest[nrest++] = full_slice();
      break;
    case IDX_INT:
      left--;
      set_view(&cur, ag_select(cur, dim, it->i));
      break;
    case IDX_SLICE:
      left--;
      if (!is_noop_slice(it, cur->shape[dim])) {
        int d = dim;
        set_view(&cur, basic_item(cur, it, &d));
      }
      rest[nrest++] = full_slice();
      dim++;
      break;
    case IDX_NEWAXIS:
      set_view(&cur, ag_unsqueeze(cur, dim));
      rest[nrest++] = full_slice();
      dim++;
      break;
    case IDX_TENSOR:
      if (it->tensor->ndim == 0 && it->tensor->dtype == DT_INT64) { /* a 0-d index selects */
        left--;
        set_view(&cur, ag_select(cur, dim, (int64_t)tensor_get_flat(it->tensor, 0)));
      } else {
        int k2 = dtype_is_mask(it->tensor->dtype) ? it->tensor->ndim : 1;
        left -= k2;
        rest[nrest++] = *it;
        dim += k2;
      }
      break;
    }
    if (nrest >= 2 * TENSOR_MAX_DIMS) {
      tensor_release(cur);
      tensor_set_index_error("too many indices");
      return NULL;
    }
  }
  if (!cur) return NULL;
  bool any_tensor = false;
  for (int k = 0; k < nrest; k++)
    any_tensor = any_tensor || rest[k].kind == IDX_TENSOR;
  if (!any_tensor) { /* only 0-d indices: selects, as PyTorch */
    if (cur != a) return cur;
    tensor_release(cur);
    return ag_alias_of(a);
  }
  Tensor *out = tensor_index(cur, rest, nrest);
  if (!ag_record_wanted(&cur, 1, out)) {
    tensor_release(cur);
    return out;
  }
  GradNode *node =
      node_with_items(ag_record_node_params(AG_NODE_IndexBackward0, &cur, 1, 0, 1), rest, nrest);
  if (node) node->has_saved = true; /* PyTorch saves the indices */
  tensor_release(cur);
  return ag_record_finish(node, out);
}

Tensor *ag_index(Tensor *a, const IndexItem *items, int n) {
  if (!tensor_index_is_basic(items, n)) return index_advanced(a, items, n);
  if (!ag_should_record(&a, 1) || !dtype_is_float(a->dtype))
    return ag_mark_view(tensor_index(a, items, n), a);
  Tensor *check = tensor_index(a, items, n); /* the exact errors of tensor/ */
  if (!check) return NULL;
  tensor_release(check);
  return index_basic(a, items, n);
}

const IndexItem *ag_dim_item_last(int ndim, const IndexItem *items, int n) {
  if (n < 1 || n > ndim) return NULL;
  for (int d = 0; d < n - 1; d++)
    if (items[d].kind != IDX_SLICE || items[d].has_start || items[d].has_stop || items[d].step != 1)
      return NULL;
  return &items[n - 1];
}

/* zeros with g added at items. out is zeros, so a copy into the region is
 * the sum: a select's region is filled directly, a bounded slice's through
 * a view, without the general indexing plan (a backward pass over
 * `for v in x` runs this per element). */
static bool index_backward_fill(Tensor *out, const IndexItem *items, int n, Tensor *g) {
  const IndexItem *last = ag_dim_item_last(out->ndim, items, n);
  if (last && last->kind == IDX_INT) return tensor_select_copy_(out, n - 1, last->i, g);
  bool bounded_slice = last && last->kind == IDX_SLICE && last->has_start && last->has_stop;
  Tensor *region = bounded_slice ? tensor_slice(out, n - 1, last->start, last->stop, last->step) : NULL;
  if (!region) return tensor_index_add_(out, items, n, g);
  bool ok = tensor_copy_(region, g);
  tensor_release(region);
  return ok;
}

Tensor *ag_index_backward(Tensor *g, const AgInfo *in, const IndexItem *items, int n,
                          AgNodeKind kind) {
  Tensor *out = tensor_zeros(g->dtype, in->ndim, info_shape(in));
  if (!out || !index_backward_fill(out, items, n, g)) {
    tensor_release(out);
    return NULL;
  }
  if (!ag_record_wanted(&g, 1, out)) return out;
  GradNode *node = node_with_items(ag_record_node_params(kind, &g, 1, 0, 1), items, n);
  return ag_record_finish(node, out);
}

Tensor *ag_index_fill_zero(Tensor *g, const IndexItem *items, int n) {
  Tensor *out = tensor_clone(g);
  Tensor *zero = out ? tensor_scalar(g->dtype, 0) : NULL;
  bool ok = zero && tensor_index_put_(out, items, n, zero);
  tensor_release(zero);
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  if (!ag_record_wanted(&g, 1, out)) return out;
  GradNode *node =
      node_with_items(ag_record_node_params(AG_NODE_IndexFillBackward0, &g, 1, 0, 1), items, n);
  return ag_record_finish(node, out);
}

/* ---- matrix products ---- */

/* A matrix stored by columns, as W.t() is: its gradient is best computed in
 * that layout too (derivatives.c), as PyTorch's mm_mat2_backward does. */
static bool column_major(const Tensor *m) {
  return m->ndim == 2 && m->stride[0] == 1 && m->stride[1] == m->shape[0] && m->shape[0] > 1;
}

/* a op b with saved[0] = self (when b needs a gradient), saved[1] = the
 * other; p.flag: b is column-major (read by the mm formula). */
static Tensor *product_record(AgNodeKind kind, Tensor *a, Tensor *b, Tensor *out,
                              const char *other_name) {
  Tensor *ins[2] = {a, b};
  if (!ag_record_wanted(ins, 2, out)) return out;
  GradNode *n = ag_record_node_params(kind, ins, 2, 2, 1);
  if (n && n->next[1].node) node_save(n, 0, "self", a, false);
  if (n && n->next[0].node) node_save(n, 1, other_name, b, false);
  if (n) node_params(n)->flag = column_major(b);
  return ag_record_finish(n, out);
}

Tensor *ag_mm(Tensor *a, Tensor *b) {
  return product_record(AG_NODE_MmBackward0, a, b, tensor_mm(a, b), "mat2");
}
Tensor *ag_bmm(Tensor *a, Tensor *b) {
  return product_record(AG_NODE_BmmBackward0, a, b, tensor_bmm(a, b), "mat2");
}
Tensor *ag_mv(Tensor *a, Tensor *v) {
  return product_record(AG_NODE_MvBackward0, a, v, tensor_mv(a, v), "vec");
}
Tensor *ag_dot(Tensor *a, Tensor *b) {
  return product_record(AG_NODE_DotBackward0, a, b, tensor_dot(a, b), "tensor");
}

Tensor *ag_addmm(Tensor *bias, Tensor *a, Tensor *b) {
  Tensor *prod = tensor_mm(a, b);
  Tensor *out = prod ? tensor_binary(BIN_ADD, prod, bias) : NULL;
  tensor_release(prod);
  if (out && out->ndim != 2) { /* the bias may broadcast to the product, not beyond */
    tensor_set_error("The expanded size of the bias must match the product of mat1 and mat2");
    tensor_release(out);
    return NULL;
  }
  Tensor *ins[3] = {bias, a, b};
  if (!ag_record_wanted(ins, 3, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_AddmmBackward0, ins, 3, 2, 1);
  if (n && n->next[2].node) node_save(n, 0, "mat1", a, false);
  if (n && n->next[1].node) node_save(n, 1, "mat2", b, false);
  if (n) node_params(n)->flag = column_major(b); /* as in product_record */
  return ag_record_finish(n, out);
}

/* x (..., n, k) contiguous 3-D: view to 2-D, addmm, view back. */
static Tensor *linear_flattened(Tensor *x, Tensor *wt, Tensor *bias) {
  int64_t rows[2] = {-1, x->shape[2]};
  Tensor *flat = ag_view(x, 2, rows);
  Tensor *y = flat ? ag_addmm(bias, flat, wt) : NULL;
  tensor_release(flat);
  if (!y) return NULL;
  Tensor *out = ag_view(y, 3, (int64_t[3]){x->shape[0], x->shape[1], y->shape[1]});
  tensor_release(y);
  return out;
}

Tensor *ag_linear(Tensor *x, Tensor *w, Tensor *bias) {
  Tensor *wt = ag_t(w);
  if (!wt) return NULL;
  Tensor *out;
  if (bias && x->ndim == 2) {
    out = ag_addmm(bias, x, wt);
  } else if (bias && x->ndim == 3 && tensor_is_contiguous(x)) {
    out = linear_flattened(x, wt, bias);
  } else { /* PyTorch adds the bias in place; out of place records the same AddBackward0 */
    out = ag_matmul(x, wt);
    if (out && bias) THEN(out, ag_binary(BIN_ADD, out, bias));
  }
  tensor_release(wt);
  return out;
}

/* PyTorch's outer: self.reshape({n, 1}) * vec2. */
Tensor *ag_outer(Tensor *a, Tensor *b) {
  if (!ag_should_record((Tensor *[2]){a, b}, 2) || a->ndim != 1 || b->ndim != 1)
    return tensor_outer(a, b); /* its errors */
  int64_t shape[2] = {a->shape[0], 1};
  Tensor *col = ag_reshape(a, 2, shape);
  Tensor *out = col ? ag_binary(BIN_MUL, col, b) : NULL;
  tensor_release(col);
  return out;
}

/* PyTorch 1.13's should_fold: t (3-D or more) against a 1-D or 2-D operand
 * is folded into a matrix, unless t is a (b, m, n) whose last two dims are
 * transposed over a contiguous batch (bmm handles that without a copy). */
static bool should_fold(const Tensor *t, int other_ndim) {
  if (t->ndim < 3 || (other_ndim != 1 && other_ndim != 2)) return false;
  return !(t->ndim == 3 && other_ndim == 2 && t->stride[2] != 1 &&
           t->stride[0] == t->shape[1] * t->shape[2]);
}

/* The folded case as PyTorch 1.13 records it: the larger operand (t1; the
 * right one transposed when it is the larger) is reshaped into a matrix, mm
 * or mv, then _unsafe_view back (and transposed back, copying, when the
 * operands were swapped). */
static Tensor *matmul_folded(Tensor *a, Tensor *b) {
  bool transpose = b->ndim > a->ndim;
  Tensor *t1 = transpose ? ag_transpose(b, -1, -2) : tensor_retain(a);
  Tensor *t2 = !transpose ? tensor_retain(b) : a->ndim == 2 ? ag_t(a) : tensor_retain(a);
  if (!t1 || !t2) {
    tensor_release(t1);
    tensor_release(t2);
    return NULL;
  }
  int64_t out_shape[TENSOR_MAX_DIMS], rows = 1;
  int nout = t1->ndim - 1;
  for (int d = 0; d < nout; d++)
    rows *= out_shape[d] = t1->shape[d];
  bool t2_matrix = t2->ndim == 2;
  if (t2_matrix) out_shape[nout++] = t2->shape[1];
  Tensor *flat = ag_reshape(t1, 2, (int64_t[2]){rows, t1->shape[t1->ndim - 1]});
  tensor_release(t1);
  THEN(flat, t2_matrix ? ag_mm(flat, t2) : ag_mv(flat, t2));
  tensor_release(t2);
  if (!flat) return NULL;
  Tensor *out = ag_unsafe_view(flat, nout, out_shape);
  tensor_release(flat);
  if (out && transpose && t2_matrix) {
    THEN(out, ag_transpose(out, -1, -2));
    THEN(out, ag_contiguous(out));
  }
  return out;
}

/* The general batched case: broadcast the batch dims, bmm, view back. */
static Tensor *matmul_batched(Tensor *a, Tensor *b) {
  bool a_vec = a->ndim == 1, b_vec = b->ndim == 1;
  Tensor *x = a_vec ? ag_unsqueeze(a, 0) : tensor_retain(a);
  Tensor *y = b_vec ? ag_unsqueeze(b, -1) : tensor_retain(b);
  if (!x || !y) goto fail;
  int64_t n = x->shape[x->ndim - 2], m1 = x->shape[x->ndim - 1];
  int64_t m2 = y->shape[y->ndim - 2], p = y->shape[y->ndim - 1];
  int nb;
  int64_t batch[TENSOR_MAX_DIMS];
  if (!tensor_broadcast_shape(x->ndim - 2, x->shape, y->ndim - 2, y->shape, &nb, batch)) goto fail;
  int64_t bprod = 1, xs[TENSOR_MAX_DIMS], ys[TENSOR_MAX_DIMS], out_shape[TENSOR_MAX_DIMS];
  for (int d = 0; d < nb; d++)
    bprod *= batch[d];
  memcpy(xs, batch, (size_t)nb * 8);
  memcpy(ys, batch, (size_t)nb * 8);
  memcpy(out_shape, batch, (size_t)nb * 8);
  xs[nb] = n, xs[nb + 1] = m1, ys[nb] = m2, ys[nb + 1] = p;
  int nout = nb;
  if (!a_vec) out_shape[nout++] = n;
  if (!b_vec) out_shape[nout++] = p;
  THEN(x, ag_expand(x, nb + 2, xs));
  THEN(x, ag_reshape(x, 3, (int64_t[3]){bprod, n, m1}));
  THEN(y, ag_expand(y, nb + 2, ys));
  THEN(y, ag_reshape(y, 3, (int64_t[3]){bprod, m2, p}));
  if (!x || !y) goto fail;
  Tensor *prod = ag_bmm(x, y);
  tensor_release(x);
  tensor_release(y);
  if (!prod) return NULL;
  Tensor *out = ag_unsafe_view(prod, nout, out_shape);
  tensor_release(prod);
  return out;
fail:
  tensor_release(x);
  tensor_release(y);
  return NULL;
}

/* PyTorch 1.13's matmul dispatch on the operands' ranks. */
Tensor *ag_matmul(Tensor *a, Tensor *b) {
  if (a->ndim == 0 || b->ndim == 0) return tensor_matmul(a, b); /* its error */
  if (a->ndim == 1 && b->ndim == 1) return ag_dot(a, b);
  if (a->ndim == 2 && b->ndim == 1) return ag_mv(a, b);
  if (a->ndim == 2 && b->ndim == 2) return ag_mm(a, b);
  if (a->ndim == 1 && b->ndim == 2) { /* unsqueeze(0).mm(b).squeeze_(0) */
    Tensor *row = ag_unsqueeze(a, 0);
    THEN(row, ag_mm(row, b));
    if (!row) return NULL;
    Tensor *out = tensor_squeeze(row, 0, true); /* in place in PyTorch: not a view */
    if (out && ag_record_wanted(&row, 1, out))
      out = ag_record_finish(ag_record_node(AG_NODE_SqueezeBackward3, &row, 1, 0, 1), out);
    tensor_release(row);
    return out;
  }
  /* the same steps with or without grad, so errors are worded as PyTorch's */
  if (should_fold(a, b->ndim) || should_fold(b, a->ndim)) return matmul_folded(a, b);
  return matmul_batched(a, b);
}

/* ---- a view's region inside its base (in-place writes through views) ---- */

static Tensor *region_of(Tensor *contiguous, const int64_t *geom) {
  AgGeom g = geom_of(geom);
  return tensor_view_of(contiguous, g.ndim, g.shape, g.stride, contiguous->offset + g.offset);
}

/* A node of `kind` on input a whose params hold a copy of the `count`
 * values of geom (NULL and "out of memory" when either allocation fails). */
static GradNode *node_with_geom(AgNodeKind kind, Tensor *a, const int64_t *geom, int64_t count) {
  GradNode *n = ag_record_node_params(kind, &a, 1, 0, 1);
  size_t len = (size_t)(count > 0 ? count : 1) * sizeof(int64_t);
  if (n && (node_params(n)->geom = malloc(len))) {
    memcpy(n->p->geom, geom, (size_t)count * sizeof(int64_t));
    return n;
  }
  if (n) node_finish(n);
  tensor_set_error("out of memory");
  return NULL;
}

static Tensor *geom_record(AgNodeKind kind, Tensor *g, Tensor *out, const int64_t *geom) {
  if (!ag_record_wanted(&g, 1, out)) return out;
  return ag_record_finish(node_with_geom(kind, g, geom, 2 + 2 * geom[0]), out);
}

Tensor *ag_strided_get(Tensor *g, const int64_t *geom) {
  Tensor *c = tensor_contiguous(g);
  Tensor *view = c ? region_of(c, geom) : NULL;
  Tensor *out = view ? tensor_clone(view) : NULL;
  tensor_release(view);
  tensor_release(c);
  return geom_record(AG_NODE_AsStridedBackward0, g, out, geom);
}

Tensor *ag_strided_embed(Tensor *g, const AgInfo *base, const int64_t *geom) {
  Tensor *out = tensor_zeros(g->dtype, base->ndim, info_shape(base));
  Tensor *view = out ? region_of(out, geom) : NULL;
  bool ok = view && tensor_copy_(view, g);
  tensor_release(view);
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  return geom_record(AG_NODE_AsStridedScatterBackward0, g, out, geom);
}

Tensor *ag_strided_zero(Tensor *g, const int64_t *geom) {
  Tensor *out = tensor_clone(g);
  Tensor *view = out ? region_of(out, geom) : NULL;
  bool ok = view && tensor_fill_(view, 0);
  tensor_release(view);
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  return geom_record(AG_NODE_IndexFillBackward0, g, out, geom);
}

/* The node of a reflect / replicate pad over `dims` dims, or of its backward. */
static AgNodeKind mode_pad_kind(bool reflect, int dims, bool backward) {
  static const AgNodeKind kinds[2][2][3] = {
      {{AG_NODE_ReplicationPad1DBackward0, AG_NODE_ReplicationPad2DBackward0,
        AG_NODE_ReplicationPad3DBackward0},
       {AG_NODE_ReplicationPad1DBackwardBackward0, AG_NODE_ReplicationPad2DBackwardBackward0,
        AG_NODE_ReplicationPad3DBackwardBackward0}},
      {{AG_NODE_ReflectionPad1DBackward0, AG_NODE_ReflectionPad2DBackward0,
        AG_NODE_ReflectionPad3DBackward0},
       {AG_NODE_ReflectionPad1DBackwardBackward0, AG_NODE_ReflectionPad2DBackwardBackward0,
        AG_NODE_ReflectionPad3DBackwardBackward0}}};
  return kinds[reflect][backward][dims - 1];
}

/* Records a mode-pad node (forward or backward) on input a with the pads in
 * geom and the mode in flag: both formulas need only those and a's shape. */
static Tensor *mode_pad_record(Tensor *a, Tensor *out, int npads, const int64_t *pads,
                               bool reflect, bool backward) {
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = node_with_geom(mode_pad_kind(reflect, npads / 2, backward), a, pads, npads);
  if (n) {
    node_params(n)->i0 = npads;
    node_params(n)->flag = reflect;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_mode_pad(Tensor *a, int npads, const int64_t *pads, bool reflect) {
  return mode_pad_record(a, tensor_mode_pad(a, npads, pads, reflect), npads, pads, reflect, false);
}

/* The gradient of a mode pad: g summed back into in_shape, itself
 * differentiable (its gradient pads again). */
Tensor *ag_mode_pad_backward(Tensor *g, const int64_t *in_shape, int npads, const int64_t *pads,
                             bool reflect) {
  Tensor *out = tensor_mode_pad_backward(g, in_shape, npads, pads, reflect);
  return mode_pad_record(g, out, npads, pads, reflect, true);
}

static IndexItem slice_item(int64_t start, int64_t stop) {
  IndexItem it = full_slice();
  it.start = start;
  it.stop = stop;
  it.has_start = it.has_stop = true;
  return it;
}

/* out[items] = region (a CopySlices node on out); releases region. */
static bool copy_into(Tensor *out, const IndexItem *items, Tensor *region) {
  bool ok = region && ag_index_put_(out, items, out->ndim, region);
  tensor_release(region);
  return ok;
}

/* F.pad, circular mode, as PyTorch 1.13's _pad_circular, so that its nodes
 * are PyTorch's too: a, sliced once per padded dim, copies into the middle
 * of a new tensor, then each padded dim's two ends copy from its other side
 * (in-place copies: the result's node is CopySlices). The pads are checked
 * by the caller. */
Tensor *ag_circular_pad(Tensor *a, int npads, const int64_t *pads) {
  int ndim = a->ndim;
  int64_t shape[TENSOR_MAX_DIMS];
  IndexItem dst[TENSOR_MAX_DIMS];
  memcpy(shape, a->shape, (size_t)ndim * sizeof *shape);
  for (int d = 0; d < ndim; d++) dst[d] = full_slice();
  Tensor *middle = tensor_retain(a);
  for (int k = 0; k < npads / 2 && middle; k++) {
    int d = ndim - 1 - k;
    int64_t left = pads[2 * k], right = pads[2 * k + 1];
    shape[d] = a->shape[d] + left + right;
    dst[d] = slice_item(left > 0 ? left : 0, shape[d] - (right > 0 ? right : 0));
    Tensor *next = ag_slice(middle, d, left < 0 ? -left : 0, a->shape[d] - (right < 0 ? -right : 0), 1);
    tensor_release(middle);
    middle = next;
  }
  Tensor *out = middle ? tensor_zeros(a->dtype, ndim, shape) : NULL;
  bool ok = out && copy_into(out, dst, middle);
  if (!out) tensor_release(middle);
  for (int d = 0; d < ndim; d++) dst[d] = full_slice();
  for (int k = 0; k < npads / 2 && ok; k++) {
    int d = ndim - 1 - k;
    int64_t left = pads[2 * k], right = pads[2 * k + 1], n = shape[d];
    int64_t right_kept = right > 0 ? right : 0, left_kept = left > 0 ? left : 0;
    if (left > 0) {
      dst[d] = slice_item(0, left);
      ok = copy_into(out, dst, ag_slice(out, d, n - left - right_kept, n - right_kept, 1));
    }
    if (right > 0 && ok) {
      dst[d] = slice_item(n - right, n);
      ok = copy_into(out, dst, ag_slice(out, d, left_kept, left_kept + right, 1));
    }
    dst[d] = full_slice();
  }
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

/* F.pad (constant): ConstantPadNdBackward0, whose formula pads g by the
 * negated amounts (cropping what the forward added). The pads live in geom. */
Tensor *ag_constant_pad(Tensor *a, int npads, const int64_t *pads, double value) {
  Tensor *out = tensor_constant_pad(a, npads, pads, value);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = node_with_geom(AG_NODE_ConstantPadNdBackward0, a, pads, npads);
  if (n) node_params(n)->i0 = npads;
  return ag_record_finish(n, out);
}
