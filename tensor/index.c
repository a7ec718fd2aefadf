/* index.c — t[items] for reading, assignment and accumulation, plus
 * index_select, gather, scatter_add and masked_fill.
 *
 * Indexing runs in two stages, as in PyTorch. First the basic items (ints,
 * slices, new axes, the ellipsis) build a view; a dimension indexed by a
 * tensor is kept whole. Then, if there are tensor items (int64 indices; a bool
 * mask becomes one index tensor per masked dimension), they are broadcast to
 * one shape B and each position b of B picks a sub-block of the view. The
 * result's B dimensions go where the indexed dimensions were when those are
 * adjacent, else first (NumPy's rule; ints were already applied as selects,
 * as PyTorch does). Reading, writing and adding share that plan; adding walks
 * the positions in order so repeated indices accumulate.
 */
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  Tensor *v; /* the view after basic indexing */
  int nadv;
  int adv_dim[TENSOR_MAX_DIMS];
  Tensor *idx[TENSOR_MAX_DIMS]; /* int64 index tensors (owned) */
  int bdim;
  int64_t bshape[TENSOR_MAX_DIMS];
  int64_t bnumel;
  int64_t *offs; /* per position of B: the element offset into v's storage */
  int rest_ndim, pre;
  int64_t rest_shape[TENSOR_MAX_DIMS], rest_stride[TENSOR_MAX_DIMS];
  int out_ndim;
  int64_t out_shape[TENSOR_MAX_DIMS];
} IndexPlan;

static void plan_free(IndexPlan *pl) {
  tensor_release(pl->v);
  for (int j = 0; j < pl->nadv; j++) tensor_release(pl->idx[j]);
  free(pl->offs);
}

static bool item_is_mask(const IndexItem *it) {
  return it->kind == IDX_TENSOR && dtype_is_mask(it->tensor->dtype);
}

/* How many dims of the input the items consume (the ellipsis excluded). */
static bool count_consumed(const Tensor *a, const IndexItem *items, int n, int *consumed) {
  int c = 0, ellipses = 0;
  for (int k = 0; k < n; k++) {
    switch (items[k].kind) {
    case IDX_INT:
    case IDX_SLICE: c++; break;
    case IDX_NEWAXIS: break;
    case IDX_ELLIPSIS: ellipses++; break;
    case IDX_TENSOR: c += item_is_mask(&items[k]) ? items[k].tensor->ndim : 1; break;
    }
  }
  if (ellipses > 1) {
    tensor_set_error("an index can only have a single ellipsis ('...')");
    return false;
  }
  if (c > a->ndim) {
    tensor_set_index_error("too many indices for tensor of dimension %d", a->ndim);
    return false;
  }
  *consumed = c;
  return true;
}

static bool replace_view(Tensor **cur, Tensor *next) {
  if (!next) return false;
  tensor_release(*cur);
  *cur = next;
  return true;
}

static void format_shape(char *buf, size_t cap, const Tensor *t) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < t->ndim && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* PyTorch names the whole shapes and the first dims that differ. */
static bool check_mask_shape(const Tensor *v, const Tensor *mask, int pos) {
  for (int d = 0; d < mask->ndim; d++) {
    if (mask->shape[d] != v->shape[pos + d]) {
      char ms[256], vs[256];
      format_shape(ms, sizeof ms, mask);
      format_shape(vs, sizeof vs, v);
      tensor_set_error("The shape of the mask %s at index %d does not match the shape of the "
                       "indexed tensor %s at index %d", ms, d, vs, pos + d);
      return false;
    }
  }
  return true;
}

/* The coordinates of the true elements of a contiguous mask, one int64 tensor per dim. */
static bool mask_nonzero(const Tensor *mask, Tensor **coords) {
  const uint8_t *m = tensor_data(mask);
  int k = mask->ndim;
  int64_t count = 0;
  for (int64_t i = 0; i < mask->numel; i++) count += m[i] != 0;
  for (int d = 0; d < k; d++) {
    if (!(coords[d] = tensor_empty(DT_INT64, 1, &count))) {
      for (int e = 0; e < d; e++) tensor_release(coords[e]);
      return false;
    }
  }
  int64_t at = 0;
  for (int64_t i = 0; i < mask->numel; i++) {
    if (!m[i]) continue;
    int64_t rem = i;
    for (int d = k - 1; d >= 0; d--) {
      ((int64_t *)tensor_data(coords[d]))[at] = rem % mask->shape[d];
      rem /= mask->shape[d];
    }
    at++;
  }
  return true;
}

/* A bool mask over dims [pos, pos+k) becomes k int64 index tensors. */
static bool add_mask(IndexPlan *pl, const Tensor *mask, int pos) {
  if (!check_mask_shape(pl->v, mask, pos)) return false;
  Tensor *cm = tensor_contiguous(mask);
  bool ok = cm && mask_nonzero(cm, &pl->idx[pl->nadv]);
  tensor_release(cm);
  if (!ok) return false;
  for (int d = 0; d < mask->ndim; d++) pl->adv_dim[pl->nadv + d] = pos + d;
  pl->nadv += mask->ndim;
  return true;
}

/* t[true] / t[false]: a new unit axis, then kept whole or emptied (NumPy's rule). */
static bool add_scalar_mask(IndexPlan *pl, const Tensor *mask, int pos) {
  if (!replace_view(&pl->v, tensor_unsqueeze(pl->v, pos))) return false;
  int64_t count = tensor_get_flat(mask, 0) != 0;
  Tensor *zeros = tensor_zeros(DT_INT64, 1, &count);
  if (!zeros) return false;
  pl->adv_dim[pl->nadv] = pos;
  pl->idx[pl->nadv++] = zeros;
  return true;
}

static bool add_index_tensor(IndexPlan *pl, const Tensor *t, int pos) {
  if (t->dtype != DT_INT64) {
    tensor_set_error("tensors used as indices must be long, byte or bool tensors");
    return false;
  }
  pl->adv_dim[pl->nadv] = pos;
  pl->idx[pl->nadv++] = tensor_retain((Tensor *)t);
  return true;
}

static bool apply_int(IndexPlan *pl, int pos, int real_dim, int64_t i) {
  int64_t size = pl->v->shape[pos];
  if (i < -size || i >= size) {
    tensor_set_index_error("index %lld is out of bounds for dimension %d with size %lld", (long long)i,
                     real_dim, (long long)size);
    return false;
  }
  return replace_view(&pl->v, tensor_select(pl->v, pos, i));
}

/* Stage one: the view, with tensor-indexed dims kept whole and recorded. */
static bool apply_basic(IndexPlan *pl, const Tensor *a, const IndexItem *items, int n) {
  int consumed;
  if (!count_consumed(a, items, n, &consumed)) return false;
  pl->v = tensor_alias(a);
  if (!pl->v) return false;
  int pos = 0, real = 0;
  for (int k = 0; k < n; k++) {
    const IndexItem *it = &items[k];
    bool ok = true;
    switch (it->kind) {
    case IDX_ELLIPSIS:
      pos += a->ndim - consumed;
      real += a->ndim - consumed;
      break;
    case IDX_INT: ok = apply_int(pl, pos, real++, it->i); break;
    case IDX_SLICE:
      if (it->step <= 0) {
        tensor_set_error("step must be greater than zero");
        return false;
      }
      ok = replace_view(&pl->v, tensor_slice(pl->v, pos++, it->has_start ? it->start : 0,
                                             it->has_stop ? it->stop : INT64_MAX, it->step));
      real++;
      break;
    case IDX_NEWAXIS: ok = replace_view(&pl->v, tensor_unsqueeze(pl->v, pos++)); break;
    case IDX_TENSOR:
      if (item_is_mask(it) && it->tensor->ndim == 0) {
        ok = add_scalar_mask(pl, it->tensor, pos++);
      } else if (item_is_mask(it)) {
        ok = add_mask(pl, it->tensor, pos);
        pos += it->tensor->ndim;
        real += it->tensor->ndim;
      } else {
        ok = add_index_tensor(pl, it->tensor, pos++);
        real++;
      }
      break;
    }
    if (!ok) return false;
  }
  return true;
}

/* Broadcasts the index tensors to B and turns them into storage offsets. */
static bool plan_offsets(IndexPlan *pl) {
  pl->bdim = 0;
  for (int j = 0; j < pl->nadv; j++) {
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    const Tensor *t = pl->idx[j];
    if (!tensor_broadcast_shape(pl->bdim, pl->bshape, t->ndim, t->shape, &nd, shape)) {
      tensor_set_error("shape mismatch: indexing tensors could not be broadcast together");
      return false;
    }
    pl->bdim = nd;
    memcpy(pl->bshape, shape, sizeof shape);
  }
  if (!tensor_check_shape(pl->bdim, pl->bshape, &pl->bnumel)) return false;
  if ((uint64_t)pl->bnumel > ((uint64_t)1 << 40)) {
    tensor_set_error("indexing result too large (%lld index positions)", (long long)pl->bnumel);
    return false;
  }
  pl->offs = malloc((size_t)(pl->bnumel > 0 ? pl->bnumel : 1) * sizeof(int64_t));
  if (!pl->offs) {
    tensor_set_error("out of memory");
    return false;
  }
  for (int64_t b = 0; b < pl->bnumel; b++) pl->offs[b] = pl->v->offset;
  for (int j = 0; j < pl->nadv; j++) {
    Tensor *e = tensor_expand(pl->idx[j], pl->bdim, pl->bshape);
    if (!e) return false;
    int d = pl->adv_dim[j];
    int64_t size = pl->v->shape[d], stride = pl->v->stride[d];
    for (int64_t b = 0; b < pl->bnumel; b++) {
      int64_t i = ((const int64_t *)e->storage->data)[tensor_flat_offset(e, b)];
      if (i < -size || i >= size) {
        tensor_set_index_error("index %lld is out of bounds for dimension %d with size %lld",
                         (long long)i, d, (long long)size);
        tensor_release(e);
        return false;
      }
      pl->offs[b] += (i < 0 ? i + size : i) * stride;
    }
    tensor_release(e);
  }
  return true;
}

/* The remaining (non-indexed) dims and where B goes in the result. */
static void plan_layout(IndexPlan *pl) {
  bool adjacent = true;
  for (int j = 1; j < pl->nadv; j++)
    if (pl->adv_dim[j] != pl->adv_dim[j - 1] + 1) adjacent = false;
  pl->rest_ndim = 0;
  pl->pre = 0;
  for (int d = 0; d < pl->v->ndim; d++) {
    bool indexed = false;
    for (int j = 0; j < pl->nadv; j++) indexed |= pl->adv_dim[j] == d;
    if (indexed) continue;
    if (adjacent && d < pl->adv_dim[0]) pl->pre++;
    pl->rest_shape[pl->rest_ndim] = pl->v->shape[d];
    pl->rest_stride[pl->rest_ndim++] = pl->v->stride[d];
  }
  int n = 0;
  for (int d = 0; d < pl->pre; d++) pl->out_shape[n++] = pl->rest_shape[d];
  for (int d = 0; d < pl->bdim; d++) pl->out_shape[n++] = pl->bshape[d];
  for (int d = pl->pre; d < pl->rest_ndim; d++) pl->out_shape[n++] = pl->rest_shape[d];
  pl->out_ndim = n;
}

static bool plan_make(IndexPlan *pl, const Tensor *a, const IndexItem *items, int n) {
  memset(pl, 0, sizeof *pl);
  if (!apply_basic(pl, a, items, n)) return false;
  if (pl->nadv == 0) return true;
  if (pl->bdim + pl->v->ndim - pl->nadv > TENSOR_MAX_DIMS) {
    tensor_set_error("indexing result has too many dimensions");
    return false;
  }
  if (!plan_offsets(pl)) return false;
  plan_layout(pl);
  return true;
}

/* ---- the loop over B ---- */

typedef enum { LOOP_READ, LOOP_WRITE, LOOP_ADD } LoopMode;

/* A stack view of v's remaining dims at storage offset off. */
static void rest_view(const IndexPlan *pl, const Tensor *base, int64_t off, Tensor *out) {
  *out = *base;
  out->ndim = pl->rest_ndim;
  memcpy(out->shape, pl->rest_shape, sizeof pl->rest_shape);
  memcpy(out->stride, pl->rest_stride, sizeof pl->rest_stride);
  out->offset = off;
  out->numel = 1;
  for (int d = 0; d < pl->rest_ndim; d++) out->numel *= pl->rest_shape[d];
  out->meta = NULL;
}

/* `other` has shape B + rest: the destination of a read, the source of a write/add. */
static void other_view(const IndexPlan *pl, const Tensor *other, int64_t b, Tensor *out) {
  int64_t off = other->offset, rem = b;
  for (int d = pl->bdim - 1; d >= 0; d--) {
    off += (rem % pl->bshape[d]) * other->stride[d];
    rem /= pl->bshape[d];
  }
  *out = *other;
  out->ndim = pl->rest_ndim;
  memcpy(out->shape, other->shape + pl->bdim, (size_t)pl->rest_ndim * sizeof(int64_t));
  memcpy(out->stride, other->stride + pl->bdim, (size_t)pl->rest_ndim * sizeof(int64_t));
  out->offset = off;
  out->numel = 1;
  for (int d = 0; d < pl->rest_ndim; d++) out->numel *= out->shape[d];
  out->meta = NULL;
}

static bool run_pair(LoopMode mode, Tensor *dst, const Tensor *src) {
  TensorIter it;
  tensor_iter_init(&it, dst->ndim, dst->shape);
  tensor_iter_add(&it, dst);
  if (mode == LOOP_ADD) tensor_iter_add(&it, dst);
  tensor_iter_add(&it, src);
  IterInner fn = mode == LOOP_ADD ? tensor_binary_kernel(BIN_ADD, dst->dtype)
                                  : tensor_convert_kernel(dst->dtype, src->dtype);
  return tensor_iter_run(&it, fn, NULL);
}

static void add_element(DType dt, char *dst, const char *src) {
  switch (dt) {
  case DT_FLOAT32: *(float *)dst += *(const float *)src; break;
  case DT_FLOAT64: *(double *)dst += *(const double *)src; break;
  case DT_INT64:
    *(int64_t *)dst = (int64_t)((uint64_t) * (int64_t *)dst + (uint64_t) * (const int64_t *)src);
    break;
  default: *(uint8_t *)dst |= *(const uint8_t *)src;
  }
}

static bool index_loop(const IndexPlan *pl, LoopMode mode, Tensor *other) {
  Tensor vb, ob;
  size_t es = dtype_size(pl->v->dtype);
  char *vdata = pl->v->storage->data;
  for (int64_t b = 0; b < pl->bnumel; b++) {
    if ((b & 0xFFFF) == 0 && tensor_check_interrupt()) return false;
    rest_view(pl, pl->v, pl->offs[b], &vb);
    other_view(pl, other, b, &ob);
    if (vb.numel == 1) {
      char *vp = vdata + (size_t)vb.offset * es;
      char *op = (char *)other->storage->data + (size_t)ob.offset * es;
      if (mode == LOOP_READ) memcpy(op, vp, es);
      else if (mode == LOOP_WRITE) memcpy(vp, op, es);
      else add_element(pl->v->dtype, vp, op);
      continue;
    }
    bool ok = mode == LOOP_READ ? run_pair(mode, &ob, &vb) : run_pair(mode, &vb, &ob);
    if (!ok) return false;
  }
  return true;
}

/* ---- public entry points ---- */

bool tensor_index_is_basic(const IndexItem *items, int n) {
  for (int k = 0; k < n; k++)
    if (items[k].kind == IDX_TENSOR) return false;
  return true;
}

/* The B-first permutation of a tensor laid out like the result (pre, B, rest). */
static Tensor *b_first(const IndexPlan *pl, const Tensor *t) {
  int perm[TENSOR_MAX_DIMS], n = 0;
  for (int d = 0; d < pl->bdim; d++) perm[n++] = pl->pre + d;
  for (int d = 0; d < pl->pre; d++) perm[n++] = d;
  for (int d = pl->pre + pl->bdim; d < pl->out_ndim; d++) perm[n++] = d;
  return tensor_permute(t, perm, pl->out_ndim);
}

Tensor *tensor_index(const Tensor *a, const IndexItem *items, int n) {
  IndexPlan pl;
  if (!plan_make(&pl, a, items, n)) {
    plan_free(&pl);
    return NULL;
  }
  if (pl.nadv == 0) {
    Tensor *v = pl.v;
    pl.v = NULL;
    plan_free(&pl);
    return v;
  }
  Tensor *out = tensor_empty(a->dtype, pl.out_ndim, pl.out_shape);
  Tensor *perm = out ? b_first(&pl, out) : NULL;
  if (!perm || !index_loop(&pl, LOOP_READ, perm)) {
    tensor_release(out);
    out = NULL;
  }
  tensor_release(perm);
  plan_free(&pl);
  return out;
}

static bool check_value_shape(const Tensor *value, int ndim, const int64_t *shape) {
  int nd;
  int64_t bs[TENSOR_MAX_DIMS];
  bool ok = tensor_broadcast_shape(ndim, shape, value->ndim, value->shape, &nd, bs) &&
            nd == ndim && memcmp(bs, shape, (size_t)nd * sizeof(int64_t)) == 0;
  if (!ok) {
    char s1[256], s2[256];
    tensor_format_shape(s1, sizeof s1, value->ndim, value->shape);
    tensor_format_shape(s2, sizeof s2, ndim, shape);
    tensor_set_error("shape mismatch: value tensor of shape %s cannot be broadcast to indexing "
                     "result of shape %s",
                     s1, s2);
  }
  return ok;
}

/* Basic indexing on the left of `=`/`+=`: a plain elementwise copy/add into the view. */
static bool put_basic(Tensor *v, const Tensor *value, bool accumulate) {
  if (!check_value_shape(value, v->ndim, v->shape) || !tensor_check_writable(v)) return false;
  Tensor *cv = tensor_to_dtype(value, v->dtype);
  Tensor *uv = cv ? tensor_unaliased_input(v, cv) : NULL;
  bool ok = false;
  if (uv) {
    TensorIter it;
    tensor_iter_init(&it, v->ndim, v->shape);
    tensor_iter_add(&it, v);
    if (accumulate) tensor_iter_add(&it, v);
    tensor_iter_add(&it, uv);
    ok = tensor_iter_run(&it, accumulate ? tensor_binary_kernel(BIN_ADD, v->dtype)
                                  : tensor_convert_kernel(v->dtype, v->dtype),
                  NULL);
  }
  tensor_release(cv);
  tensor_release(uv);
  return ok;
}

static bool put_advanced(const IndexPlan *pl, const Tensor *value, bool accumulate) {
  if (!check_value_shape(value, pl->out_ndim, pl->out_shape) || !tensor_check_writable(pl->v))
    return false;
  Tensor *cv = tensor_to_dtype(value, pl->v->dtype);
  Tensor *uv = cv ? tensor_unaliased_input(pl->v, cv) : NULL;
  Tensor *ev = uv ? tensor_expand(uv, pl->out_ndim, pl->out_shape) : NULL;
  Tensor *pv = ev ? b_first(pl, ev) : NULL;
  bool ok = pv && index_loop(pl, accumulate ? LOOP_ADD : LOOP_WRITE, pv);
  Tensor *tmp[] = {cv, uv, ev, pv};
  for (int i = 0; i < 4; i++) tensor_release(tmp[i]);
  return ok;
}

/* PyTorch drops a value's leading unit dims beyond the indexed result's rank
 * (t[0] = x.reshape(1, 3) works). */
static Tensor *strip_leading_ones(const Tensor *v, int ndim) {
  int drop = 0;
  while (v->ndim - drop > ndim && v->shape[drop] == 1) drop++;
  return tensor_view_of(v, v->ndim - drop, v->shape + drop, v->stride + drop, v->offset);
}

static bool index_put_impl(Tensor *a, const IndexItem *items, int n, const Tensor *v, bool acc) {
  IndexPlan pl;
  bool ok = plan_make(&pl, a, items, n);
  Tensor *sv = ok ? strip_leading_ones(v, pl.nadv == 0 ? pl.v->ndim : pl.out_ndim) : NULL;
  if (sv) {
    tensor_bump_version(a);
    ok = pl.nadv == 0 ? put_basic(pl.v, sv, acc) : put_advanced(&pl, sv, acc);
  } else {
    ok = false;
  }
  tensor_release(sv);
  plan_free(&pl);
  return ok;
}

bool tensor_index_put_(Tensor *a, const IndexItem *items, int n, const Tensor *v) {
  return index_put_impl(a, items, n, v, false);
}

bool tensor_index_add_(Tensor *a, const IndexItem *items, int n, const Tensor *v) {
  if (!dtype_is_native(a->dtype)) { /* accumulated in the compute dtype (exact), then rounded back */
    Tensor *wide = tensor_widen(a);
    bool ok = wide && index_put_impl(wide, items, n, v, true) && tensor_copy_raw(a, wide);
    tensor_release(wide);
    if (ok) tensor_bump_version(a);
    return ok;
  }
  return index_put_impl(a, items, n, v, true);
}

/* ---- index_select, gather, scatter_add, masked_fill ---- */

Tensor *tensor_index_select(const Tensor *a, int dim, const Tensor *index) {
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  if (index->ndim > 1) {
    tensor_set_error("index_select(): Index is supposed to be a vector");
    return NULL;
  }
  if (index->dtype != DT_INT64) {
    tensor_set_error("index_select(): Expected dtype int64 for index");
    return NULL;
  }
  if (a->ndim == 0) return tensor_clone(a);
  int64_t len = index->numel;
  Tensor *flat = tensor_reshape(index, 1, &len);
  if (!flat) return NULL;
  IndexItem items[TENSOR_MAX_DIMS];
  for (int d = 0; d < dim; d++)
    items[d] = (IndexItem){.kind = IDX_SLICE, .step = 1};
  items[dim] = (IndexItem){.kind = IDX_TENSOR, .tensor = flat};
  Tensor *out = tensor_index(a, items, dim + 1);
  tensor_release(flat);
  if (!out && strstr(tensor_error(), "out of bounds")) tensor_set_index_error("index out of range in self");
  return out;
}

/* gather/scatter share the check that index fits in a (except along dim). */
static bool check_gather_shapes(const char *what, const Tensor *a, int dim, const Tensor *index) {
  if (index->dtype != DT_INT64) {
    tensor_set_error("%s(): Expected dtype int64 for index", what);
    return false;
  }
  int an = a->ndim ? a->ndim : 1, in = index->ndim ? index->ndim : 1;
  if (an != in) {
    tensor_set_error("Index tensor must have the same number of dimensions as input tensor");
    return false;
  }
  for (int d = 0; d < index->ndim && a->ndim; d++) {
    if (d != dim && index->shape[d] > a->shape[d]) {
      char s1[256], s2[256];
      tensor_format_shape(s1, sizeof s1, index->ndim, index->shape);
      tensor_format_shape(s2, sizeof s2, a->ndim, a->shape);
      tensor_set_error("Size does not match at dimension %d expected index %s to be smaller than "
                       "self %s apart from dimension %d",
                       d, s1, s2, dim);
      return false;
    }
  }
  return true;
}

/* For element i of index: the offset in `t` (in elements) it addresses along
 * dim. As in PyTorch's gather and scatter, negative indices are out of bounds
 * (they do not count from the end as in indexing). */
static bool gather_offset(const Tensor *t, int dim, const Tensor *index, int64_t i, int64_t *off) {
  int64_t rem = i, o = t->offset;
  int64_t k = ((const int64_t *)index->storage->data)[tensor_flat_offset(index, i)];
  int64_t size = t->ndim ? t->shape[dim] : 1;
  if (k < 0 || k >= size) {
    tensor_set_error("index %lld is out of bounds for dimension %d with size %lld", (long long)k,
                     dim, (long long)size);
    return false;
  }
  for (int d = index->ndim - 1; d >= 0; d--) {
    int64_t c = rem % index->shape[d];
    rem /= index->shape[d];
    o += (d == dim ? k : c) * t->stride[d];
  }
  if (index->ndim == 0 && t->ndim) o += k * t->stride[0];
  *off = o;
  return true;
}

Tensor *tensor_gather(const Tensor *a, int dim, const Tensor *index) {
  if (!tensor_wrap_dim(&dim, a->ndim) || !check_gather_shapes("gather", a, dim, index))
    return NULL;
  Tensor *out = tensor_empty(a->dtype, index->ndim, index->shape);
  if (!out) return NULL;
  size_t es = dtype_size(a->dtype);
  char *od = tensor_data(out);
  for (int64_t i = 0; i < index->numel; i++) {
    int64_t off;
    if (((i & 0xFFFF) == 0 && tensor_check_interrupt()) || !gather_offset(a, dim, index, i, &off)) {
      tensor_release(out);
      return NULL;
    }
    memcpy(od + (size_t)i * es, (const char *)a->storage->data + (size_t)off * es, es);
  }
  return out;
}

/* PyTorch's scatter_shape_check: index has self's (and src's) number of
 * dimensions and fits in src everywhere and in self apart from dim. */
static bool check_scatter_shapes(const Tensor *a, int dim, const Tensor *index, const Tensor *src) {
  if (index->dtype != DT_INT64) {
    tensor_set_error("scatter(): Expected dtype int64 for index");
    return false;
  }
  if (src && src->dtype != a->dtype) {
    tensor_set_error("scatter(): Expected self.dtype to be equal to src.dtype");
    return false;
  }
  if (index->numel == 0) return true;
  int an = a->ndim ? a->ndim : 1, in = index->ndim ? index->ndim : 1;
  if (an != in) {
    tensor_set_error("Index tensor must have the same number of dimensions as self tensor");
    return false;
  }
  if (src && (src->ndim ? src->ndim : 1) != in) {
    tensor_set_error("Index tensor must have the same number of dimensions as src tensor");
    return false;
  }
  bool fits = true;
  for (int d = 0; d < index->ndim; d++) { /* a 0-d tensor has size 1 */
    if (d != dim && index->shape[d] > (a->ndim ? a->shape[d] : 1)) fits = false;
    if (src && index->shape[d] > (src->ndim ? src->shape[d] : 1)) fits = false;
  }
  if (fits) return true;
  char si[256], sa[256], ss[256];
  tensor_format_shape(si, sizeof si, index->ndim, index->shape);
  tensor_format_shape(sa, sizeof sa, a->ndim, a->shape);
  if (src)
    tensor_format_shape(ss, sizeof ss, src->ndim, src->shape);
  tensor_set_error(src ? "Expected index %s to be smaller than self %s apart from dimension %d "
                         "and to be smaller size than src %s"
                       : "Expected index %s to be smaller than self %s apart from dimension %d",
                   si, sa, dim, src ? ss : "");
  return false;
}

/* Element i of index written into out (contiguous) with mode: src's element
 * at i's position, or the number v when src is NULL. */
static bool scatter_write(Tensor *out, int dim, const Tensor *index, const Tensor *src, double v,
                          TensorScatterMode mode) {
  size_t es = dtype_size(out->dtype);
  for (int64_t i = 0; i < index->numel; i++) {
    int64_t off, rem = i, soff = src ? src->offset : 0;
    if (((i & 0xFFFF) == 0 && tensor_check_interrupt()) || !gather_offset(out, dim, index, i, &off))
      return false;
    if (src) {
      for (int d = index->ndim - 1; d >= 0; d--) {
        soff += (rem % index->shape[d]) * src->stride[d];
        rem /= index->shape[d];
      }
      v = tensor_load_double(src->dtype,
                             (const char *)src->storage->data + (size_t)soff * dtype_size(src->dtype));
    }
    char *dst = (char *)out->storage->data + (size_t)off * es;
    double old = mode == SCATTER_SET ? 0 : tensor_load_double(out->dtype, dst);
    tensor_store_double(out->dtype, dst,
                        mode == SCATTER_ADD ? old + v : mode == SCATTER_MUL ? old * v : v);
  }
  return true;
}

Tensor *tensor_scatter(const Tensor *a, int dim, const Tensor *index, const Tensor *src,
                       double value, TensorScatterMode mode) {
  if (!tensor_wrap_dim(&dim, a->ndim) || !check_scatter_shapes(a, dim, index, src)) return NULL;
  Tensor *out = tensor_clone(a);
  if (!out) return NULL;
  if (!scatter_write(out, dim, index, src, value, mode)) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

/* Zeros of a's shape with src added (or written) at index: gather's backward. */
static Tensor *scatter_into_zeros(const Tensor *a, int dim, const Tensor *index, const Tensor *src,
                                  bool add) {
  if (!tensor_wrap_dim(&dim, a->ndim) || !check_gather_shapes("scatter_add", a, dim, index))
    return NULL;
  for (int d = 0; d < index->ndim; d++) {
    if (src->ndim != index->ndim || index->shape[d] > src->shape[d]) {
      tensor_set_error("Expected index to be smaller than src apart from dimension %d", dim);
      return NULL;
    }
  }
  Tensor *out = tensor_zeros(a->dtype, a->ndim, a->shape);
  if (out && !scatter_write(out, dim, index, src, 0, add ? SCATTER_ADD : SCATTER_SET)) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

Tensor *tensor_scatter_add(const Tensor *a, int dim, const Tensor *index, const Tensor *src) {
  return scatter_into_zeros(a, dim, index, src, true);
}

Tensor *tensor_scatter_zeros(const Tensor *a, int dim, const Tensor *index, const Tensor *src) {
  return scatter_into_zeros(a, dim, index, src, false);
}

/* ---- index_add ---- */

static bool check_index_add(const Tensor *a, int dim, const Tensor *index, const Tensor *source) {
  if (index->ndim > 1) {
    char s[256];
    tensor_format_shape(s, sizeof s, index->ndim, index->shape);
    tensor_set_error("index_add_(): Index is supposed to be a vector, but got dim: %d with type: "
                     "%s and size: %s", index->ndim, tensor_dtype_torch_name(index->dtype), s);
    return false;
  }
  if (index->dtype != DT_INT64) {
    tensor_set_error("index_add_(): Expected dtype int32/int64 for index but got: %s",
                     tensor_dtype_torch_name(index->dtype));
    return false;
  }
  if (a->dtype != source->dtype) {
    tensor_set_error("index_add_(): self (%s) and source (%s) must have the same scalar type",
                     tensor_dtype_torch_name(a->dtype), tensor_dtype_torch_name(source->dtype));
    return false;
  }
  int64_t along = source->ndim ? source->shape[dim < source->ndim ? dim : 0] : 1;
  if (index->numel != along) {
    tensor_set_error("index_add_(): Number of indices (%lld) should be equal to source.size(dim): "
                     "(%lld), for dim: %d", (long long)index->numel, (long long)along, dim);
    return false;
  }
  /* each slice of source must have the shape of a slice of self */
  int an = a->ndim ? a->ndim : 1, sn = source->ndim ? source->ndim : 1;
  for (int d = 0, sd = 0; d < an || sd < sn; d++, sd++) {
    int64_t sa = d < an && a->ndim ? a->shape[d] : 1, ss = sd < sn && source->ndim ? source->shape[sd] : 1;
    if (d != dim && sa != ss) {
      tensor_set_error("The size of tensor a (%lld) must match the size of tensor b (%lld) at "
                       "non-singleton dimension %d", (long long)sa, (long long)ss, d < dim ? d : d - 1);
      return false;
    }
  }
  return true;
}

Tensor *tensor_index_add(const Tensor *a, int dim, const Tensor *index, const Tensor *source,
                         double alpha) {
  if (!tensor_wrap_dim(&dim, a->ndim) || !check_index_add(a, dim, index, source)) return NULL;
  int64_t size = a->ndim ? a->shape[dim] : 1;
  for (int64_t i = 0; i < index->numel; i++) {
    int64_t k = tensor_get_flat_int(index, i);
    if (k < 0 || k >= size) {
      tensor_set_index_error("index out of range in self");
      return NULL;
    }
  }
  Tensor *out = tensor_clone(a);
  if (!out) return NULL;
  /* element j of source (row-major): its coordinate along dim picks the
   * index entry; the other coordinates are the same in out */
  int64_t inner = 1;
  for (int d = dim + 1; d < a->ndim; d++) inner *= a->shape[d];
  size_t es = dtype_size(a->dtype);
  if (!dtype_is_float(a->dtype)) alpha = (double)tensor_double_to_i64(alpha);
  for (int64_t j = 0; j < source->numel; j++) {
    if ((j & 0xFFFF) == 0 && tensor_check_interrupt()) {
      tensor_release(out);
      return NULL;
    }
    int64_t c = (j / inner) % index->numel, outer = j / inner / index->numel;
    int64_t k = tensor_get_flat_int(index, c);
    int64_t o = (outer * size + k) * inner + j % inner;
    char *dst = (char *)out->storage->data + (size_t)o * es;
    double v = tensor_get_flat(source, j);
    tensor_store_double(a->dtype, dst, tensor_load_double(a->dtype, dst) + alpha * v);
  }
  return out;
}

Tensor *tensor_masked_fill(const Tensor *a, const Tensor *mask, double v) {
  if (mask->dtype != DT_BOOL) {
    tensor_set_error("masked_fill_ only supports boolean masks, but got mask with dtype %s",
                     tensor_dtype_torch_name(mask->dtype));
    return NULL;
  }
  Tensor *s = tensor_scalar(a->dtype, v);
  if (!s) return NULL;
  Tensor *out = tensor_where(mask, s, a);
  tensor_release(s);
  return out;
}
