/* shape.c — views (reshape, view, transpose, permute, expand, select, slice,
 * squeeze, unsqueeze, flatten) and joins/splits (cat, stack, split, chunk).
 * Views share storage exactly where PyTorch's do. */
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <stdlib.h>
#include <string.h>

/* Resolves one -1 in a requested shape against numel. */
static bool infer_shape(int64_t numel, int ndim, const int64_t *in, int64_t *out) {
  int infer = -1;
  int64_t known = 1;
  for (int i = 0; i < ndim; i++) {
    out[i] = in[i];
    if (in[i] == -1) {
      if (infer >= 0) {
        tensor_set_error("only one dimension can be inferred");
        return false;
      }
      infer = i;
    } else if (in[i] < 0) {
      tensor_set_error("invalid shape dimension %lld", (long long)in[i]);
      return false;
    } else if (__builtin_mul_overflow(known, in[i], &known)) {
      known = -1;
    }
  }
  bool ok = infer >= 0 ? (known > 0 && numel % known == 0) : known == numel;
  if (infer >= 0 && ok) out[infer] = numel / known;
  if (!ok) {
    char buf[512];
    tensor_format_shape(buf, sizeof buf, ndim, in);
    tensor_set_error("shape '%s' is invalid for input of size %lld", buf, (long long)numel);
  }
  return ok;
}

/* PyTorch's computeStride: strides that let `shape` view a's memory, or false. */
static bool view_strides(const Tensor *a, int ndim, const int64_t *shape, int64_t *stride) {
  if (a->ndim == 0 || a->numel == 0) {
    tensor_contiguous_strides(ndim, shape, stride);
    return true;
  }
  int view_d = ndim - 1;
  int64_t chunk_base = a->stride[a->ndim - 1], tensor_numel = 1, view_numel = 1;
  for (int d = a->ndim - 1; d >= 0; d--) {
    tensor_numel *= a->shape[d];
    if (d == 0 || (a->shape[d - 1] != 1 && a->stride[d - 1] != tensor_numel * chunk_base)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        stride[view_d] = view_numel * chunk_base;
        view_numel *= shape[view_d];
        view_d--;
      }
      if (view_numel != tensor_numel) return false;
      if (d > 0) {
        chunk_base = a->stride[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

bool tensor_reshape_is_view(const Tensor *a, int ndim, const int64_t *shape) {
  int64_t s[TENSOR_MAX_DIMS], st[TENSOR_MAX_DIMS];
  if (ndim > TENSOR_MAX_DIMS || !infer_shape(a->numel, ndim, shape, s)) return false;
  return view_strides(a, ndim, s, st);
}

static Tensor *reshape_impl(const Tensor *a, int ndim, const int64_t *shape, bool allow_copy) {
  int64_t s[TENSOR_MAX_DIMS], st[TENSOR_MAX_DIMS];
  if (ndim > TENSOR_MAX_DIMS) {
    tensor_set_error("tensors may have at most %d dimensions, got %d", TENSOR_MAX_DIMS, ndim);
    return NULL;
  }
  if (!infer_shape(a->numel, ndim, shape, s)) return NULL;
  if (view_strides(a, ndim, s, st)) return tensor_view_of(a, ndim, s, st, a->offset);
  if (!allow_copy) {
    tensor_set_error("view size is not compatible with input tensor's size and stride (at least "
                     "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                     "instead.");
    return NULL;
  }
  Tensor *c = tensor_clone(a);
  if (!c) return NULL;
  Tensor *out = reshape_impl(c, ndim, s, false);
  tensor_release(c);
  return out;
}

Tensor *tensor_reshape(const Tensor *a, int ndim, const int64_t *shape) {
  return reshape_impl(a, ndim, shape, true);
}

Tensor *tensor_view(const Tensor *a, int ndim, const int64_t *shape) {
  return reshape_impl(a, ndim, shape, false);
}

Tensor *tensor_flatten(const Tensor *a, int start_dim, int end_dim) {
  if (!tensor_wrap_dim(&start_dim, a->ndim) || !tensor_wrap_dim(&end_dim, a->ndim)) return NULL;
  if (start_dim > end_dim) {
    tensor_set_error("flatten() has invalid args: start_dim cannot come after end_dim");
    return NULL;
  }
  if (a->ndim == 0) {
    int64_t one = 1;
    return tensor_reshape(a, 1, &one);
  }
  int64_t shape[TENSOR_MAX_DIMS];
  int n = 0;
  for (int i = 0; i < start_dim; i++) shape[n++] = a->shape[i];
  int64_t merged = 1;
  for (int i = start_dim; i <= end_dim; i++) merged *= a->shape[i];
  shape[n++] = merged;
  for (int i = end_dim + 1; i < a->ndim; i++) shape[n++] = a->shape[i];
  return tensor_reshape(a, n, shape);
}

Tensor *tensor_squeeze(const Tensor *a, int dim, bool has_dim) {
  if (has_dim && !tensor_wrap_dim(&dim, a->ndim)) return NULL;
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  int n = 0;
  for (int i = 0; i < a->ndim; i++) {
    bool drop = a->shape[i] == 1 && (!has_dim || i == dim);
    if (drop) continue;
    shape[n] = a->shape[i];
    stride[n++] = a->stride[i];
  }
  return tensor_view_of(a, n, shape, stride, a->offset);
}

Tensor *tensor_unsqueeze(const Tensor *a, int dim) {
  if (!tensor_wrap_dim(&dim, a->ndim + 1)) return NULL;
  if (a->ndim + 1 > TENSOR_MAX_DIMS) {
    tensor_set_error("tensors may have at most %d dimensions", TENSOR_MAX_DIMS);
    return NULL;
  }
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  for (int i = 0, j = 0; i <= a->ndim; i++) {
    if (i == dim) {
      shape[i] = 1;
      stride[i] = dim < a->ndim ? a->shape[dim] * a->stride[dim] : 1;
    } else {
      shape[i] = a->shape[j];
      stride[i] = a->stride[j++];
    }
  }
  return tensor_view_of(a, a->ndim + 1, shape, stride, a->offset);
}

Tensor *tensor_transpose(const Tensor *a, int d0, int d1) {
  if (!tensor_wrap_dim(&d0, a->ndim) || !tensor_wrap_dim(&d1, a->ndim)) return NULL;
  if (a->ndim == 0) return tensor_alias(a);
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  memcpy(shape, a->shape, sizeof shape);
  memcpy(stride, a->stride, sizeof stride);
  shape[d0] = a->shape[d1];
  shape[d1] = a->shape[d0];
  stride[d0] = a->stride[d1];
  stride[d1] = a->stride[d0];
  return tensor_view_of(a, a->ndim, shape, stride, a->offset);
}

Tensor *tensor_permute(const Tensor *a, const int *perm, int n) {
  if (n != a->ndim) {
    tensor_set_error("permute(sparse_coo): number of dimensions in the tensor input does not "
                     "match the length of the desired ordering of dimensions i.e. input.dim() = "
                     "%d is not equal to len(dims) = %d",
                     a->ndim, n);
    return NULL;
  }
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  bool seen[TENSOR_MAX_DIMS] = {false};
  for (int i = 0; i < n; i++) {
    int d = perm[i];
    if (!tensor_wrap_dim(&d, a->ndim)) return NULL;
    if (seen[d]) {
      tensor_set_error("permute(): duplicate dims are not allowed.");
      return NULL;
    }
    seen[d] = true;
    shape[i] = a->shape[d];
    stride[i] = a->stride[d];
  }
  return tensor_view_of(a, n, shape, stride, a->offset);
}

Tensor *tensor_t(const Tensor *a) {
  if (a->ndim > 2) {
    tensor_set_error("t() expects a tensor with <= 2 dimensions, but self is %dD", a->ndim);
    return NULL;
  }
  return a->ndim < 2 ? tensor_alias(a) : tensor_transpose(a, 0, 1);
}

Tensor *tensor_expand(const Tensor *a, int ndim, const int64_t *shape) {
  char target[512], have[512];
  tensor_format_shape(target, sizeof target, ndim, shape);
  tensor_format_shape(have, sizeof have, a->ndim, a->shape);
  if (ndim < a->ndim || ndim > TENSOR_MAX_DIMS) {
    tensor_set_error("expand(torch.FloatTensor{%s}, size=%s): the number of sizes provided (%d) "
                     "must be greater or equal to the number of dimensions in the tensor (%d)",
                     have, target, ndim, a->ndim);
    return NULL;
  }
  int64_t out_shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  int lead = ndim - a->ndim;
  for (int i = 0; i < ndim; i++) {
    int j = i - lead;
    int64_t want = shape[i];
    if (j < 0) {
      if (want < 0) {
        tensor_set_error("The expanded size of the tensor (%lld) isn't allowed in a leading, "
                         "non-existing dimension %d",
                         (long long)want, i);
        return NULL;
      }
      out_shape[i] = want;
      stride[i] = 0;
      continue;
    }
    if (want == -1) want = a->shape[j];
    if (a->shape[j] == want) {
      out_shape[i] = want;
      stride[i] = a->stride[j];
    } else if (a->shape[j] == 1 && want >= 0) {
      out_shape[i] = want;
      stride[i] = 0;
    } else {
      tensor_set_error("The expanded size of the tensor (%lld) must match the existing size "
                       "(%lld) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
                       (long long)shape[i], (long long)a->shape[j], i, target, have);
      return NULL;
    }
  }
  int64_t numel;
  if (!tensor_check_shape(ndim, out_shape, &numel)) return NULL;
  return tensor_view_of(a, ndim, out_shape, stride, a->offset);
}

Tensor *tensor_select(const Tensor *a, int dim, int64_t i) {
  if (a->ndim == 0) {
    tensor_set_error("select() cannot be applied to a 0-dim tensor.");
    return NULL;
  }
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  int64_t size = a->shape[dim];
  if (i < -size || i >= size) {
    tensor_set_index_error("index %lld is out of bounds for dimension %d with size %lld", (long long)i,
                     dim, (long long)size);
    return NULL;
  }
  if (i < 0) i += size;
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  for (int d = 0, n = 0; d < a->ndim; d++) {
    if (d == dim) continue;
    shape[n] = a->shape[d];
    stride[n++] = a->stride[d];
  }
  return tensor_view_of(a, a->ndim - 1, shape, stride, a->offset + i * a->stride[dim]);
}

/* Python's slice.indices() for a positive step. */
static void clamp_slice(int64_t size, int64_t *start, int64_t *stop) {
  if (*start < 0) *start += size;
  if (*stop < 0) *stop += size;
  if (*start < 0) *start = 0;
  if (*start > size) *start = size;
  if (*stop < *start) *stop = *start;
  if (*stop > size) *stop = size;
}

Tensor *tensor_slice(const Tensor *a, int dim, int64_t start, int64_t stop, int64_t step) {
  if (a->ndim == 0) {
    tensor_set_error("slice() cannot be applied to a 0-dim tensor.");
    return NULL;
  }
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  if (step <= 0) {
    tensor_set_error("slice step must be positive");
    return NULL;
  }
  clamp_slice(a->shape[dim], &start, &stop);
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  memcpy(shape, a->shape, sizeof shape);
  memcpy(stride, a->stride, sizeof stride);
  shape[dim] = stop > start ? (stop - start - 1) / step + 1 : 0;
  stride[dim] = a->stride[dim] * step;
  return tensor_view_of(a, a->ndim, shape, stride, a->offset + start * a->stride[dim]);
}

/* ---- cat / stack ---- */

static bool cat_check(Tensor *const *ts, int n, int dim, DType *dt, int64_t *total) {
  const Tensor *first = ts[0];
  *dt = first->dtype;
  *total = 0;
  for (int k = 0; k < n; k++) {
    const Tensor *t = ts[k];
    if (t->ndim == 0) {
      tensor_set_error("zero-dimensional tensor (at position %d) cannot be concatenated", k);
      return false;
    }
    if (t->ndim != first->ndim) {
      tensor_set_error("Tensors must have same number of dimensions: got %d and %d",
                       first->ndim, t->ndim);
      return false;
    }
    for (int d = 0; d < t->ndim; d++) {
      if (d != dim && t->shape[d] != first->shape[d]) {
        tensor_set_error("Sizes of tensors must match except in dimension %d. Expected size %lld "
                         "but got size %lld for tensor number %d in the list.",
                         dim, (long long)first->shape[d], (long long)t->shape[d], k);
        return false;
      }
    }
    *dt = dtype_promote(*dt, t->dtype);
    if (__builtin_add_overflow(*total, t->shape[dim], total)) {
      tensor_set_error("cat: the result's size along dimension %d overflows", dim);
      return false;
    }
  }
  return true;
}

static bool is_legacy_empty(const Tensor *t) { return t->ndim == 1 && t->shape[0] == 0; }

/* PyTorch skips 1-D empty tensors (zeros(0)) in cat, so they can start an
 * accumulator; they still take part in the result dtype. */
static Tensor *cat_without_empties(Tensor *const *ts, int n, int dim) {
  Tensor **kept = malloc((size_t)n * sizeof *kept);
  if (!kept) {
    tensor_set_error("out of memory");
    return NULL;
  }
  int k = 0;
  DType dt = ts[0]->dtype;
  for (int i = 0; i < n; i++) {
    dt = dtype_promote(dt, ts[i]->dtype);
    if (!is_legacy_empty(ts[i])) kept[k++] = ts[i];
  }
  Tensor *out = tensor_cat(kept, k, dim);
  free(kept);
  Tensor *conv = out ? tensor_to_dtype(out, dt) : NULL;
  tensor_release(out);
  return conv;
}

Tensor *tensor_cat(Tensor *const *ts, int n, int dim) {
  if (n <= 0) {
    tensor_set_error("torch.cat(): expected a non-empty list of Tensors");
    return NULL;
  }
  int empties = 0, first_real = -1;
  for (int i = 0; i < n; i++) {
    if (is_legacy_empty(ts[i])) empties++;
    else if (first_real < 0) first_real = i;
  }
  if (empties > 0 && first_real >= 0 && ts[first_real]->ndim != 1)
    return cat_without_empties(ts, n, dim);
  if (!tensor_wrap_dim(&dim, ts[0]->ndim)) return NULL;
  DType dt;
  int64_t total;
  if (!cat_check(ts, n, dim, &dt, &total)) return NULL;
  int64_t shape[TENSOR_MAX_DIMS];
  memcpy(shape, ts[0]->shape, sizeof shape);
  shape[dim] = total;
  Tensor *out = tensor_empty(dt, ts[0]->ndim, shape);
  int64_t at = 0;
  for (int k = 0; out && k < n; k++) {
    int64_t len = ts[k]->shape[dim];
    Tensor *part = tensor_slice(out, dim, at, at + len, 1);
    bool ok = part && tensor_copy_raw(part, ts[k]);
    tensor_release(part);
    if (!ok) {
      tensor_release(out);
      out = NULL;
    }
    at += len;
  }
  return out;
}

Tensor *tensor_stack(Tensor *const *ts, int n, int dim) {
  if (n <= 0) {
    tensor_set_error("stack expects a non-empty TensorList");
    return NULL;
  }
  for (int k = 1; k < n; k++) {
    if (ts[k]->ndim != ts[0]->ndim ||
        memcmp(ts[k]->shape, ts[0]->shape, (size_t)ts[0]->ndim * sizeof(int64_t)) != 0) {
      char a[256], b[256];
      tensor_format_shape(a, sizeof a, ts[0]->ndim, ts[0]->shape);
      tensor_format_shape(b, sizeof b, ts[k]->ndim, ts[k]->shape);
      tensor_set_error("stack expects each tensor to be equal size, but got %s at entry 0 and %s "
                       "at entry %d",
                       a, b, k);
      return NULL;
    }
  }
  if (!tensor_wrap_dim(&dim, ts[0]->ndim + 1)) return NULL;
  Tensor **parts = calloc((size_t)n, sizeof *parts);
  if (!parts) {
    tensor_set_error("out of memory");
    return NULL;
  }
  Tensor *out = NULL;
  int made = 0;
  while (made < n && (parts[made] = tensor_unsqueeze(ts[made], dim))) made++;
  if (made == n) out = tensor_cat(parts, n, dim);
  for (int k = 0; k < made; k++) tensor_release(parts[k]);
  free(parts);
  return out;
}

/* ---- split / chunk ---- */

static int split_into(const Tensor *a, int dim, const int64_t *sizes, int count, Tensor ***out) {
  Tensor **pieces = calloc(count > 0 ? (size_t)count : 1, sizeof *pieces);
  if (!pieces) {
    tensor_set_error("out of memory");
    return -1;
  }
  int64_t at = 0;
  for (int k = 0; k < count; k++) {
    pieces[k] = tensor_slice(a, dim, at, at + sizes[k], 1);
    at += sizes[k];
    if (!pieces[k]) {
      for (int j = 0; j < k; j++) tensor_release(pieces[j]);
      free(pieces);
      return -1;
    }
  }
  *out = pieces;
  return count;
}

int tensor_split_sizes(const Tensor *a, const int64_t *sizes, int nsizes, int dim, Tensor ***out) {
  if (a->ndim == 0) {
    tensor_set_error("split expects at least a 1-dimensional tensor");
    return -1;
  }
  if (!tensor_wrap_dim(&dim, a->ndim)) return -1;
  int64_t sum = 0;
  for (int k = 0; k < nsizes; k++) {
    if (sizes[k] < 0) {
      tensor_set_error("split_with_sizes expects split_sizes have only non-negative entries, but "
                       "got split_sizes=%lld",
                       (long long)sizes[k]);
      return -1;
    }
    sum += sizes[k];
  }
  if (sum != a->shape[dim]) {
    char buf[512];
    tensor_format_shape(buf, sizeof buf, nsizes, sizes);
    tensor_set_error("split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's "
                     "size at dimension %d), but got split_sizes=%s",
                     (long long)a->shape[dim], dim, buf);
    return -1;
  }
  return split_into(a, dim, sizes, nsizes, out);
}

int tensor_split(const Tensor *a, int64_t size, int dim, Tensor ***out) {
  if (a->ndim == 0) {
    tensor_set_error("split expects at least a 1-dimensional tensor");
    return -1;
  }
  if (!tensor_wrap_dim(&dim, a->ndim)) return -1;
  if (size <= 0) {
    tensor_set_error("split expects split_size be non-negative, but got split_size=%lld",
                     (long long)size);
    return -1;
  }
  int64_t n = a->shape[dim];
  int64_t count = n == 0 ? 1 : (n - 1) / size + 1;
  if (count > (1 << 24)) {
    tensor_set_error("split would make too many pieces (%lld)", (long long)count);
    return -1;
  }
  int64_t *sizes = malloc((size_t)count * sizeof *sizes);
  if (!sizes) {
    tensor_set_error("out of memory");
    return -1;
  }
  for (int64_t k = 0; k < count; k++) sizes[k] = n - k * size >= size ? size : n - k * size;
  int r = split_into(a, dim, sizes, (int)count, out);
  free(sizes);
  return r;
}

int tensor_chunk(const Tensor *a, int chunks, int dim, Tensor ***out) {
  if (chunks <= 0) {
    tensor_set_error("chunk expects `chunks` to be greater than 0, got: %d", chunks);
    return -1;
  }
  if (a->ndim == 0) {
    tensor_set_error("chunk expects at least a 1-dimensional tensor");
    return -1;
  }
  if (!tensor_wrap_dim(&dim, a->ndim)) return -1;
  int64_t n = a->shape[dim];
  int64_t size = (n + chunks - 1) / chunks;
  return tensor_split(a, size > 0 ? size : 1, dim, out);
}

/* F.pad's constant mode: pads[2k], pads[2k + 1] are added before and after
 * dim ndim - 1 - k (negative values crop). */
Tensor *tensor_constant_pad(const Tensor *a, int npads, const int64_t *pads, double value) {
  if (npads % 2 != 0 || npads / 2 > a->ndim) {
    tensor_set_error("Padding length must be divisible by 2 and at most twice the number of "
                     "dimensions of the input (%d), but got %d", a->ndim, npads);
    return NULL;
  }
  int64_t shape[TENSOR_MAX_DIMS];
  memcpy(shape, a->shape, (size_t)a->ndim * sizeof *shape);
  for (int k = 0; k < npads / 2; k++) {
    int d = a->ndim - 1 - k;
    int64_t size;
    if (__builtin_add_overflow(a->shape[d], pads[2 * k], &size) ||
        __builtin_add_overflow(size, pads[2 * k + 1], &size)) {
      tensor_set_error("pad: the padded size of dimension %d overflows", d);
      return NULL;
    }
    if (size < 0) {
      tensor_set_error("The input size %lld, plus negative padding %lld and %lld resulted in a "
                       "negative output size, which is invalid. Check dimension %d of your input.",
                       (long long)a->shape[d], (long long)pads[2 * k], (long long)pads[2 * k + 1],
                       d);
      return NULL;
    }
    shape[d] = size;
  }
  Tensor *out = tensor_full(a->dtype, a->ndim, shape, value);
  Tensor *dst = out ? tensor_retain(out) : NULL, *src = tensor_retain((Tensor *)a);
  for (int k = 0; k < npads / 2 && dst && src; k++) {
    int d = a->ndim - 1 - k;
    int64_t before = pads[2 * k], after = pads[2 * k + 1];
    Tensor *ndst = tensor_slice(dst, d, before > 0 ? before : 0,
                                shape[d] - (after > 0 ? after : 0), 1);
    Tensor *nsrc = tensor_slice(src, d, before < 0 ? -before : 0,
                                a->shape[d] - (after < 0 ? -after : 0), 1);
    tensor_release(dst);
    tensor_release(src);
    dst = ndst;
    src = nsrc;
  }
  bool ok = dst && src && (dst->numel == 0 || tensor_copy_raw(dst, src));
  tensor_release(dst);
  tensor_release(src);
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

/* ---- F.pad's reflect and replicate modes ---- */

/* The input position that output position i of a dim of size n with `left`
 * positions padded before it copies: mirrored about the edge (reflect: the
 * edge itself not repeated) or the edge itself (replicate). */
static int64_t mode_pad_source(int64_t i, int64_t left, int64_t n, bool reflect) {
  int64_t j = i - left;
  if (reflect) {
    if (j < 0) j = -j;
    if (j >= n) j = 2 * (n - 1) - j;
    return j;
  }
  return j < 0 ? 0 : j >= n ? n - 1 : j;
}

/* One padded dim of a contiguous float tensor viewed as [outer, len, inner]:
 * forward, dst[o, i, k] = src[o, source(i), k] (i over the padded length);
 * backward, dst[o, source(i), k] += src[o, i, k] into a zeroed dst (i over
 * the padded length in src), the gradient summed where positions repeat. */
static void mode_pad_dim(const Tensor *src, Tensor *dst, int dim, int64_t left, int64_t n,
                         bool reflect, bool backward) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < dim; d++) outer *= src->shape[d];
  for (int d = dim + 1; d < src->ndim; d++) inner *= src->shape[d];
  int64_t padded = backward ? src->shape[dim] : dst->shape[dim];
  int64_t src_len = src->shape[dim], dst_len = dst->shape[dim];
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t i = 0; i < padded; i++) {
      int64_t j = mode_pad_source(i, left, n, reflect);
      int64_t from = (o * src_len + (backward ? i : j)) * inner;
      int64_t to = (o * dst_len + (backward ? j : i)) * inner;
      if (src->dtype == DT_FLOAT32) {
        const float *s = (const float *)tensor_data(src) + from;
        float *t = (float *)tensor_data(dst) + to;
        for (int64_t k = 0; k < inner; k++) t[k] = backward ? t[k] + s[k] : s[k];
      } else {
        const double *s = (const double *)tensor_data(src) + from;
        double *t = (double *)tensor_data(dst) + to;
        for (int64_t k = 0; k < inner; k++) t[k] = backward ? t[k] + s[k] : s[k];
      }
    }
  }
}

/* Applies mode_pad_dim to each padded dim in turn (the last dim first, as
 * pads lists them). Forward: from a to its padded shape; backward: from the
 * padded g to in_shape. The caller has checked the pads (PyTorch's checks). */
static Tensor *mode_pad_run(const Tensor *a, int ndim, const int64_t *in_shape, int npads,
                            const int64_t *pads, bool reflect, bool backward) {
  if (a->dtype != DT_FLOAT32 && a->dtype != DT_FLOAT64) {
    tensor_set_error("\"%s_pad%dd\" not implemented for '%s'", reflect ? "reflection" : "replication",
                     npads / 2, tensor_dtype_torch_name(a->dtype));
    return NULL;
  }
  Tensor *cur = tensor_contiguous(a);
  for (int k = 0; k < npads / 2 && cur; k++) {
    int d = ndim - 1 - k;
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, cur->shape, (size_t)ndim * sizeof *shape);
    shape[d] = in_shape[d];
    if (!backward && (__builtin_add_overflow(shape[d], pads[2 * k], &shape[d]) ||
                      __builtin_add_overflow(shape[d], pads[2 * k + 1], &shape[d]) || shape[d] < 0)) {
      tensor_set_error("The input size %lld, plus padding %lld and %lld, is not a valid size "
                       "(dimension %d of the input)", (long long)in_shape[d],
                       (long long)pads[2 * k], (long long)pads[2 * k + 1], d);
      tensor_release(cur);
      return NULL;
    }
    Tensor *next = tensor_zeros(a->dtype, ndim, shape);
    if (next) mode_pad_dim(cur, next, d, pads[2 * k], in_shape[d], reflect, backward);
    tensor_release(cur);
    cur = next;
  }
  return cur;
}

Tensor *tensor_mode_pad(const Tensor *a, int npads, const int64_t *pads, bool reflect) {
  return mode_pad_run(a, a->ndim, a->shape, npads, pads, reflect, false);
}

Tensor *tensor_mode_pad_backward(const Tensor *g, const int64_t *in_shape, int npads,
                                 const int64_t *pads, bool reflect) {
  return mode_pad_run(g, g->ndim, in_shape, npads, pads, reflect, true);
}
