/* repeat.c — copies that repeat or shift elements: roll, repeat, the
 * index of repeat_interleave, and diagonals (diag, and the diagonal that
 * einsum takes for a repeated subscript).
 *
 * roll and repeat are one walk: every output position reads the source at a
 * position computed per dimension (copy_mapped). A diagonal is a strided
 * view (the two dims' strides added): einsum's, diag's copy of it, or the
 * place in zeros where its backward writes.
 */
#include <stdlib.h>
#include <string.h>

#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

/* One output row along the last dim: dst[p] = src[map[p] * stride], each
 * size a constant so that memcpy is a plain load and store. */
#define COPY_ROW(SIZE)                                                                             \
  for (int64_t p = 0; p < n; p++)                                                                  \
    memcpy(dst + p * (SIZE), src + map[p] * stride * (SIZE), (SIZE))

static void copy_row(size_t esize, const char *src, int64_t stride, const int64_t *map, int64_t n,
                     char *dst) {
  if (esize == 8) COPY_ROW(8);
  else if (esize == 4) COPY_ROW(4);
  else if (esize == 2) COPY_ROW(2);
  else COPY_ROW(1);
}
#undef COPY_ROW

/* out[p0, p1, ...] = a[map[0][p0], map[1][p1], ...] for a contiguous out of
 * a's rank; map[d] holds one source position per output position along d.
 * Walked row by row: an odometer over the outer dims, copy_row along the last. */
static Tensor *copy_mapped(const Tensor *a, Tensor *out, int64_t *const *map) {
  size_t esize = dtype_size(a->dtype);
  const char *src = tensor_data(a);
  char *dst = tensor_data(out);
  if (a->ndim == 0) {
    memcpy(dst, src, esize);
    return out;
  }
  int last = a->ndim - 1;
  int64_t row = out->shape[last], rows = out->numel / row;
  int64_t pos[TENSOR_MAX_DIMS] = {0};
  for (int64_t r = 0; r < rows; r++) {
    if ((r & 0xFF) == 0 && tensor_check_interrupt()) {
      tensor_release(out);
      return NULL;
    }
    int64_t off = 0;
    for (int d = 0; d < last; d++)
      off += map[d][pos[d]] * a->stride[d];
    copy_row(esize, src + off * (int64_t)esize, a->stride[last], map[last], row,
             dst + (size_t)(r * row) * esize);
    for (int d = last - 1; d >= 0; d--) { /* the odometer over the outer dims */
      if (++pos[d] < out->shape[d]) break;
      pos[d] = 0;
    }
  }
  return out;
}

/* One malloc'd block for the maps of every output dim. */
static int64_t *maps_alloc(const Tensor *out, int64_t **map) {
  int64_t total = 0;
  for (int d = 0; d < out->ndim; d++)
    total += out->shape[d];
  int64_t *block = malloc((size_t)(total ? total : 1) * sizeof(int64_t));
  if (block == NULL) {
    tensor_set_error("out of memory");
    return NULL;
  }
  int64_t *at = block;
  for (int d = 0; d < out->ndim; d++) {
    map[d] = at;
    at += out->shape[d];
  }
  return block;
}

static Tensor *copy_with_maps(const Tensor *a, Tensor *out, int64_t **map, int64_t *block) {
  out = copy_mapped(a, out, map);
  free(block);
  return out;
}

/* roll along each dims[i] by shifts[i]; no dims: over the flattened tensor,
 * keeping the shape. */
Tensor *tensor_roll(const Tensor *a, const int64_t *shifts, int nshifts, const int *dims,
                    int ndims) {
  if (nshifts == 0) {
    tensor_set_error("`shifts` required");
    return NULL;
  }
  if (ndims == 0 && nshifts == 1) {
    Tensor *flat = tensor_reshape(a, 1, (int64_t[1]){a->numel});
    Tensor *rolled = flat ? tensor_roll(flat, shifts, 1, (int[1]){0}, 1) : NULL;
    tensor_release(flat);
    Tensor *out = rolled ? tensor_reshape(rolled, a->ndim, a->shape) : NULL;
    tensor_release(rolled);
    return out;
  }
  if (nshifts != ndims) {
    tensor_set_error("shifts and dimensions must align. shifts: %d, dims:%d", nshifts, ndims);
    return NULL;
  }
  int64_t total[TENSOR_MAX_DIMS] = {0}; /* the shift of each dim, summed over repeats */
  for (int i = 0; i < ndims; i++) {
    int d = dims[i];
    if (!tensor_wrap_dim(&d, a->ndim)) return NULL;
    int64_t n = a->ndim ? a->shape[d] : 1;
    if (n > 0) total[d] = (total[d] + shifts[i] % n + n) % n;
  }
  Tensor *out = tensor_empty(a->dtype, a->ndim, a->shape);
  if (out == NULL || out->numel == 0) return out;
  int64_t *map[TENSOR_MAX_DIMS];
  int64_t *block = maps_alloc(out, map);
  if (block == NULL) {
    tensor_release(out);
    return NULL;
  }
  for (int d = 0; d < a->ndim; d++) {
    int64_t n = a->shape[d];
    for (int64_t p = 0; p < n; p++)
      map[d][p] = (p - total[d] + n) % n; /* out[p] = a[p - shift] */
  }
  return copy_with_maps(a, out, map, block);
}

/* a.repeat(sizes): a (with leading dims of size 1 added) tiled sizes[d] times
 * along each dim. */
Tensor *tensor_repeat(const Tensor *a, const int64_t *sizes, int nsizes) {
  if (nsizes < a->ndim) {
    tensor_set_error("Number of dimensions of repeat dims can not be smaller than number of "
                     "dimensions of tensor");
    return NULL;
  }
  if (nsizes > TENSOR_MAX_DIMS) {
    tensor_set_error("tensors may have at most %d dimensions, got %d", TENSOR_MAX_DIMS, nsizes);
    return NULL;
  }
  int lead = nsizes - a->ndim;
  int64_t shape[TENSOR_MAX_DIMS], in_shape[TENSOR_MAX_DIMS], in_stride[TENSOR_MAX_DIMS];
  bool overflow = false;
  for (int d = 0; d < nsizes; d++) {
    in_shape[d] = d < lead ? 1 : a->shape[d - lead];
    in_stride[d] = d < lead ? 0 : a->stride[d - lead];
    if (__builtin_mul_overflow(sizes[d], in_shape[d], &shape[d])) overflow = true;
  }
  if (overflow) {
    char buf[512];
    tensor_format_shape(buf, sizeof buf, nsizes, sizes);
    tensor_set_error("Storage size calculation overflowed with repeats=%s", buf);
    return NULL;
  }
  Tensor *out = tensor_empty(a->dtype, nsizes, shape); /* negative and overflowing sizes */
  if (out == NULL || out->numel == 0) return out;
  Tensor *padded = tensor_view_of(a, nsizes, in_shape, in_stride, a->offset);
  int64_t *map[TENSOR_MAX_DIMS];
  int64_t *block = padded ? maps_alloc(out, map) : NULL;
  if (block == NULL) {
    tensor_release(padded);
    tensor_release(out);
    return NULL;
  }
  for (int d = 0; d < nsizes; d++)
    for (int64_t p = 0; p < shape[d]; p++)
      map[d][p] = p % in_shape[d];
  out = copy_with_maps(padded, out, map, block);
  tensor_release(padded);
  return out;
}

/* torch.repeat_interleave(repeats): each index i repeated repeats[i] times. */
Tensor *tensor_repeat_interleave_index(const Tensor *repeats, int64_t output_size) {
  if (repeats->ndim != 1) {
    tensor_set_error("repeat_interleave only accept 1D vector as repeat");
    return NULL;
  }
  if (repeats->dtype != DT_INT64) {
    tensor_set_error("\"repeat_interleave_cpu\" not implemented for '%s'",
                     tensor_dtype_torch_name(repeats->dtype));
    return NULL;
  }
  int64_t total = 0;
  for (int64_t i = 0; i < repeats->numel; i++) {
    int64_t r = tensor_get_flat_int(repeats, i);
    if (r < 0) {
      tensor_set_error("repeats can not be negative");
      return NULL;
    }
    if (__builtin_add_overflow(total, r, &total)) {
      tensor_set_error("repeat_interleave(): the sum of the repeats overflows");
      return NULL;
    }
  }
  if (output_size >= 0 && output_size != total) {
    tensor_set_error("allocated size does not match required size");
    return NULL;
  }
  Tensor *out = tensor_empty(DT_INT64, 1, &total);
  if (out == NULL) return NULL;
  int64_t *o = tensor_data(out);
  for (int64_t i = 0, at = 0; i < repeats->numel; i++)
    for (int64_t r = tensor_get_flat_int(repeats, i); r > 0; r--)
      o[at++] = i;
  return out;
}

/* ---- diagonals ---- */

/* The diagonal of dims d1, d2 (wrapped, distinct) at offset k as a view:
 * a's other dims, then the diagonal's length. */
static Tensor *diagonal_view(const Tensor *a, int64_t k, int d1, int d2) {
  int64_t rows = a->shape[d1], cols = a->shape[d2];
  int64_t len = 0; /* k is checked against the sizes first: it may be any int64 */
  if (k >= 0 && k < cols) len = cols - k < rows ? cols - k : rows;
  if (k < 0 && k > -rows) len = rows + k < cols ? rows + k : cols;
  int64_t start = len == 0 ? 0 : k >= 0 ? k * a->stride[d2] : -k * a->stride[d1];
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  int n = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (d == d1 || d == d2) continue;
    shape[n] = a->shape[d];
    stride[n++] = a->stride[d];
  }
  shape[n] = len;
  stride[n++] = a->stride[d1] + a->stride[d2];
  return tensor_view_of(a, n, shape, stride, a->offset + start);
}

static bool diagonal_dims(int ndim, int *d1, int *d2) {
  if (!tensor_wrap_dim(d1, ndim) || !tensor_wrap_dim(d2, ndim)) return false;
  if (ndim < 2 || *d1 == *d2) {
    tensor_set_error("diagonal dimensions cannot be identical %d, %d", *d1, *d2);
    return false;
  }
  return true;
}

Tensor *tensor_diagonal(const Tensor *a, int64_t k, int d1, int d2) {
  if (!diagonal_dims(a->ndim, &d1, &d2)) return NULL;
  return diagonal_view(a, k, d1, d2);
}

Tensor *tensor_diagonal_embed(const Tensor *g, int ndim, const int64_t *shape, int64_t k, int d1,
                              int d2) {
  if (!diagonal_dims(ndim, &d1, &d2)) return NULL;
  Tensor *out = tensor_zeros(g->dtype, ndim, shape);
  Tensor *view = out ? diagonal_view(out, k, d1, d2) : NULL;
  bool ok = view && tensor_check_broadcasts_to(g, view) && tensor_copy_raw(view, g);
  tensor_release(view);
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

/* torch.diag: a vector's square matrix with it on diagonal k, or a matrix's
 * diagonal k as a vector. */
Tensor *tensor_diag(const Tensor *a, int64_t k) {
  if (a->ndim == 2) { /* a copy, unlike the view of torch.diagonal */
    Tensor *view = tensor_diagonal(a, k, 0, 1);
    Tensor *out = view ? tensor_clone(view) : NULL;
    tensor_release(view);
    return out;
  }
  if (a->ndim != 1) {
    tensor_set_error("matrix or a vector expected");
    return NULL;
  }
  int64_t n;
  if (k == INT64_MIN || __builtin_add_overflow(a->shape[0], k < 0 ? -k : k, &n)) {
    tensor_set_error("diag(): the size of the result overflows");
    return NULL;
  }
  return tensor_diagonal_embed(a, 2, (int64_t[2]){n, n}, k, 0, 1);
}
