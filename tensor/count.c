/* count.c — ops whose output size depends on the values: nonzero, unique,
 * bincount; and isclose (allclose is its all()).
 *
 * unique sorts: the flat form by the stable sort of sort.c (so -0.0 and 0.0
 * are one value, the first in index order, and NaNs, never equal, come
 * last), the dim form by a stable merge sort of the slices compared
 * lexicographically (with the same order of elements). PyTorch's unsorted CPU order comes from a hash set, so
 * `sorted=false` is given the sorted order (PyTorch leaves it unspecified).
 */
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *checked_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) tensor_set_error("out of memory");
  return p;
}

/* ---- nonzero ---- */

/* Every 2^16 elements of a long loop: whether Ctrl-C asks to stop (the
 * error is then set). A broadcast view can hold 10^18 elements. */
static bool interrupted_at(int64_t i) { return (i & 0xFFFF) == 0 && tensor_check_interrupt(); }

Tensor *tensor_nonzero(const Tensor *a) {
  int64_t count = 0;
  for (int64_t i = 0; i < a->numel; i++) {
    if (interrupted_at(i)) return NULL;
    count += tensor_get_flat(a, i) != 0;
  }
  int64_t shape[2] = {count, a->ndim};
  Tensor *out = tensor_empty(DT_INT64, 2, shape);
  if (!out) return NULL;
  int64_t *o = tensor_data(out);
  for (int64_t i = 0; i < a->numel; i++) {
    if (tensor_get_flat(a, i) == 0) continue;
    int64_t rem = i;
    for (int d = a->ndim - 1; d >= 0; d--) {
      o[d] = rem % a->shape[d];
      rem /= a->shape[d];
    }
    o += a->ndim;
  }
  return out;
}

/* ---- unique ---- */

/* Elements i and j of t (contiguous) compared: exactly as int64 for integer
 * dtypes; for floats NaN sorts last and never equals (NaN against NaN says 1). */
static int compare_elements(const Tensor *t, int64_t i, int64_t j) {
  const char *d = tensor_data(t);
  if (t->dtype == DT_INT64) {
    int64_t x = ((const int64_t *)d)[i], y = ((const int64_t *)d)[j];
    return (x > y) - (x < y);
  }
  size_t es = dtype_size(t->dtype);
  double x = tensor_load_double(t->dtype, d + (size_t)i * es);
  double y = tensor_load_double(t->dtype, d + (size_t)j * es);
  if (isnan(x) || isnan(y)) return isnan(y) && !isnan(x) ? -1 : 1;
  return (x > y) - (x < y);
}

/* Rows a and b of m ([rows, width], contiguous): lexicographic. */
static int compare_rows(const Tensor *m, int64_t width, int64_t a, int64_t b) {
  for (int64_t k = 0; k < width; k++) {
    int c = compare_elements(m, a * width + k, b * width + k);
    if (c) return c;
  }
  return 0;
}

/* Stable merge sort of the row numbers in order[0..n) (tmp: n scratch). */
static void sort_rows(const Tensor *m, int64_t width, int64_t *order, int64_t *tmp, int64_t n) {
  if (n < 2) return;
  int64_t half = n / 2;
  sort_rows(m, width, order, tmp, half);
  sort_rows(m, width, order + half, tmp, n - half);
  int64_t i = 0, j = half, k = 0;
  while (i < half && j < n)
    tmp[k++] = compare_rows(m, width, order[j], order[i]) < 0 ? order[j++] : order[i++];
  while (i < half) tmp[k++] = order[i++];
  while (j < n) tmp[k++] = order[j++];
  memcpy(order, tmp, sizeof(int64_t) * (size_t)n);
}

/* The rows of m in ascending order, ties in row order: single elements by
 * sort.c's radix sort, wider rows by the merge sort. */
static bool sorted_order(const Tensor *m, int64_t rows, int64_t width, int64_t *order,
                         int64_t *tmp) {
  if (width != 1 || rows < 2) {
    for (int64_t r = 0; r < rows; r++) order[r] = r;
    sort_rows(m, width, order, tmp, rows);
    return true;
  }
  Tensor *flat = tensor_reshape(m, 1, &rows), *idx = NULL;
  Tensor *values = flat ? tensor_sort(flat, 0, false, &idx) : NULL;
  tensor_release(flat);
  if (values) memcpy(order, tensor_data(idx), sizeof(int64_t) * (size_t)rows);
  tensor_release(values);
  tensor_release(idx);
  return values != NULL;
}

/* Groups the sorted rows: group[r] for each position r of order, the number
 * of groups returned; first[g] the first row of group g. */
static int64_t group_rows(const Tensor *m, int64_t width, const int64_t *order, int64_t n,
                          int64_t *group, int64_t *first) {
  int64_t groups = 0;
  for (int64_t r = 0; r < n; r++) {
    /* NaN elements equal nothing, so each NaN starts a group of its own */
    if (r == 0 || width == 0 || compare_rows(m, width, order[r - 1], order[r]) != 0)
      first[groups++] = order[r];
    group[r] = groups - 1;
  }
  return groups;
}

/* The unique rows of m ([rows, width] contiguous): the rows (as [groups,
 * width]), inverse[rows] and counts[groups] when asked for. */
static Tensor *unique_rows(const Tensor *m, int64_t rows, int64_t width, Tensor **inverse,
                           Tensor **counts) {
  int64_t *order = checked_malloc(sizeof(int64_t) * (size_t)rows * 4);
  if (!order) return NULL;
  int64_t *tmp = order + rows, *group = tmp + rows, *first = group + rows;
  if (!sorted_order(m, rows, width, order, tmp)) {
    free(order);
    return NULL;
  }
  int64_t groups = group_rows(m, width, order, rows, group, first);
  int64_t shape[2] = {groups, width};
  Tensor *out = tensor_empty(m->dtype, 2, shape);
  Tensor *inv = inverse ? tensor_empty(DT_INT64, 1, &rows) : NULL;
  Tensor *cnt = counts ? tensor_zeros(DT_INT64, 1, &groups) : NULL;
  if (!out || (inverse && !inv) || (counts && !cnt)) {
    free(order);
    tensor_release(out);
    tensor_release(inv);
    tensor_release(cnt);
    return NULL;
  }
  size_t rowbytes = dtype_size(m->dtype) * (size_t)width;
  for (int64_t g = 0; g < groups; g++)
    memcpy((char *)tensor_data(out) + (size_t)g * rowbytes,
           (const char *)tensor_data(m) + (size_t)first[g] * rowbytes, rowbytes);
  for (int64_t r = 0; r < rows; r++) {
    if (inv) ((int64_t *)tensor_data(inv))[order[r]] = group[r];
    if (cnt) ((int64_t *)tensor_data(cnt))[group[r]]++;
  }
  free(order);
  if (inverse) *inverse = inv;
  if (counts) *counts = cnt;
  return out;
}

static bool unique_dim_shape_ok(const Tensor *a, int dim) {
  int zeros = 0;
  for (int d = 0; d < a->ndim; d++) zeros += a->shape[d] == 0;
  if (a->shape[dim] == 0 && zeros > 1) {
    tensor_set_error("Number of zero sized dimensions is more than one, so unique cannot be applied ");
    return false;
  }
  if (a->shape[dim] != 0 && zeros > 0) {
    tensor_set_error("There are 0 sized dimensions, and they aren't selected, so unique cannot be "
                     "applied");
    return false;
  }
  return true;
}

Tensor *tensor_unique(const Tensor *a, int dim, bool has_dim, Tensor **inverse, Tensor **counts) {
  if (inverse) *inverse = NULL;
  if (counts) *counts = NULL;
  if (has_dim && a->ndim == 0) {
    tensor_set_error("Dimension specified as %d but tensor has no dimensions", dim);
    return NULL;
  }
  if (has_dim && (!tensor_wrap_dim(&dim, a->ndim) || !unique_dim_shape_ok(a, dim))) return NULL;
  /* the slices along dim (or the elements) as the rows of a matrix */
  Tensor *moved = has_dim ? tensor_transpose(a, 0, dim) : tensor_retain((Tensor *)a);
  Tensor *m = moved ? tensor_clone(moved) : NULL;
  tensor_release(moved);
  if (!m) return NULL;
  bool along = has_dim;
  int64_t rows = along ? a->shape[dim] : a->numel, width = 1;
  for (int d = 0; along && d < a->ndim; d++) width *= d == dim ? 1 : a->shape[d];
  Tensor *u = unique_rows(m, rows, width, inverse, counts);
  tensor_release(m);
  if (!u) return NULL;
  Tensor *out = NULL;
  if (!along) {
    int64_t n = u->shape[0];
    out = tensor_reshape(u, 1, &n);
    if (out && inverse && *inverse) {
      Tensor *inv = tensor_reshape(*inverse, a->ndim, a->shape);
      tensor_release(*inverse);
      *inverse = inv;
      if (!inv) {
        tensor_release(out);
        out = NULL;
      }
    }
  } else {
    /* [groups, width] as the moved layout, then dim back in its place */
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    shape[dim] = a->shape[0];
    shape[0] = u->shape[0];
    Tensor *r = tensor_reshape(u, a->ndim, shape);
    Tensor *back = r ? tensor_transpose(r, 0, dim) : NULL;
    out = back ? tensor_clone(back) : NULL;
    tensor_release(r);
    tensor_release(back);
  }
  tensor_release(u);
  if (!out) {
    if (inverse) {
      tensor_release(*inverse);
      *inverse = NULL;
    }
    if (counts) {
      tensor_release(*counts);
      *counts = NULL;
    }
  }
  return out;
}

/* ---- bincount ---- */

Tensor *tensor_bincount(const Tensor *a, const Tensor *weights, int64_t minlength) {
  if (a->dtype == DT_FLOAT32 || a->dtype == DT_FLOAT64 || a->dtype == DT_BOOL) {
    tensor_set_error("\"bincount_cpu\" not implemented for '%s'", tensor_dtype_torch_name(a->dtype));
    return NULL;
  }
  if (minlength < 0) {
    tensor_set_error("minlength should be >= 0");
    return NULL;
  }
  if (a->ndim == 1 && a->numel == 0) {
    DType dt = !weights ? DT_INT64 : weights->dtype == DT_FLOAT32 ? DT_FLOAT32 : DT_FLOAT64;
    return tensor_zeros(dt, 1, &minlength);
  }
  int64_t top = -1;
  for (int64_t i = 0; a->ndim == 1 && i < a->numel; i++) {
    if (interrupted_at(i)) return NULL;
    int64_t v = tensor_get_flat_int(a, i);
    if (v < 0) top = INT64_MIN;
    if (top != INT64_MIN && v > top) top = v;
  }
  if (a->ndim != 1 || top == INT64_MIN) {
    tensor_set_error("bincount only supports 1-d non-negative integral inputs.");
    return NULL;
  }
  if (weights && (weights->ndim != 1 || weights->numel != a->numel)) {
    tensor_set_error("weights should be 1-d and have the same length as input");
    return NULL;
  }
  int64_t n = top == INT64_MAX ? top : top + 1; /* INT64_MAX counts fail to allocate anyway */
  if (minlength > n) n = minlength;
  DType dt = !weights ? DT_INT64 : weights->dtype == DT_FLOAT32 ? DT_FLOAT32 : DT_FLOAT64;
  Tensor *out = tensor_zeros(dt, 1, &n);
  if (!out) return NULL;
  for (int64_t i = 0; i < a->numel; i++) {
    if (interrupted_at(i)) {
      tensor_release(out);
      return NULL;
    }
    int64_t k = tensor_get_flat_int(a, i);
    if (dt == DT_INT64)
      ((int64_t *)tensor_data(out))[k]++;
    else if (dt == DT_FLOAT32)
      ((float *)tensor_data(out))[k] += (float)tensor_get_flat(weights, i);
    else
      ((double *)tensor_data(out))[k] += tensor_get_flat(weights, i);
  }
  return out;
}

/* ---- isclose ---- */

static Tensor *or_into(Tensor *close, Tensor *more) {
  Tensor *r = close && more ? tensor_binary(BIN_LOGICAL_OR, close, more) : NULL;
  tensor_release(close);
  tensor_release(more);
  return r;
}

static Tensor *and_of(Tensor *x, Tensor *y) {
  Tensor *r = x && y ? tensor_binary(BIN_LOGICAL_AND, x, y) : NULL;
  tensor_release(x);
  tensor_release(y);
  return r;
}

/* ATen's isclose: equality, NaN pairs when asked, then the finite error
 * |a - b| against atol + |rtol * b|, computed in a's float dtype. */
Tensor *tensor_isclose(const Tensor *a, const Tensor *b, double rtol, double atol, bool equal_nan) {
  if (a->dtype != b->dtype) {
    tensor_set_error("%s did not match %s", tensor_dtype_torch_name(a->dtype),
                     tensor_dtype_torch_name(b->dtype));
    return NULL;
  }
  if (!(rtol >= 0) || !(atol >= 0)) {
    tensor_set_error("%s must be greater than or equal to zero, but got %g",
                     rtol >= 0 ? "atol" : "rtol", rtol >= 0 ? atol : rtol);
    return NULL;
  }
  Tensor *close = tensor_binary(BIN_EQ, a, b);
  bool is_float = dtype_is_float(a->dtype);
  if (close && equal_nan && is_float)
    close = or_into(close, and_of(tensor_unary(UN_ISNAN, a), tensor_unary(UN_ISNAN, b)));
  if (!close || (rtol == 0 && atol == 0)) return close;
  Tensor *fa = tensor_to_dtype(a, is_float ? a->dtype : DT_FLOAT32);
  Tensor *fb = tensor_to_dtype(b, is_float ? b->dtype : DT_FLOAT32);
  Tensor *scaled = fb ? tensor_binary_scalar(BIN_MUL, fb, rtol) : NULL;
  Tensor *mag = scaled ? tensor_unary(UN_ABS, scaled) : NULL;
  Tensor *allowed = mag ? tensor_scalar_binary(BIN_ADD, atol, mag) : NULL;
  Tensor *diff = fa && fb ? tensor_binary(BIN_SUB, fa, fb) : NULL;
  Tensor *actual = diff ? tensor_unary(UN_ABS, diff) : NULL;
  Tensor *within = actual && allowed ? tensor_binary(BIN_LE, actual, allowed) : NULL;
  Tensor *finite = actual ? tensor_unary(UN_ISFINITE, actual) : NULL;
  tensor_release(fa);
  tensor_release(fb);
  tensor_release(scaled);
  tensor_release(mag);
  tensor_release(allowed);
  tensor_release(diff);
  tensor_release(actual);
  return or_into(close, and_of(finite, within));
}
