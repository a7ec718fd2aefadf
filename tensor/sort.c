/* sort.c — sort (values and indices), argsort and topk along a dimension.
 *
 * Every slice along `dim` is turned into unsigned keys whose order is the
 * order PyTorch sorts by: for floats, -0.0 equals 0.0 and every NaN is
 * greater than +inf (so NaN comes last ascending, first descending); for
 * descending order the keys are complemented. The keys are then sorted with
 * a stable LSD radix sort (insertion sort for short slices), which skips the
 * byte passes where every key has the same byte: float32 costs at most four
 * passes over the slice, whatever the values. The sort is always stable, so
 * `stable=false` gives the order of `stable=true` (PyTorch leaves the order
 * of ties unspecified then).
 *
 * topk of a small k (k * 64 <= n, as PyTorch's choice of partial_sort)
 * keeps a heap of the best k in one pass; otherwise a quickselect finds the
 * k-th key and the k are then sorted: O(n + k log k). Either way equal
 * values come in index order (PyTorch leaves their order unspecified).
 *
 * kthvalue is ATen's own quickselect (Sedgewick's, median of three) over
 * the same keys, so that among equal values it picks PyTorch's index.
 * median(dim) is the element of rank (n - 1) / 2 in (value, index) order,
 * the first NaN when there is one, as PyTorch 1.13's comparison picks it.
 */
#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <stdlib.h>
#include <string.h>

/* Short slices: insertion sort beats the radix sort's fixed passes. */
#define SORT_INSERTION_MAX 48

typedef struct {
  uint64_t *key, *key_tmp;
  int64_t *idx, *idx_tmp;
  int64_t (*count)[256]; /* the radix sort's histogram of each key byte */
} SortBuffers;

static bool buffers_alloc(SortBuffers *b, int64_t n) {
  size_t count = (size_t)(n > 0 ? n : 1);
  b->key = malloc(count * sizeof(uint64_t));
  b->key_tmp = malloc(count * sizeof(uint64_t));
  b->idx = malloc(count * sizeof(int64_t));
  b->idx_tmp = malloc(count * sizeof(int64_t));
  b->count = malloc(8 * sizeof *b->count);
  if (b->key && b->key_tmp && b->idx && b->idx_tmp && b->count) return true;
  tensor_set_error("out of memory");
  return false;
}

static void buffers_free(SortBuffers *b) {
  free(b->key);
  free(b->key_tmp);
  free(b->idx);
  free(b->idx_tmp);
  free(b->count);
}

/* ---- keys ---- */

static uint64_t key_f64(double v) {
  if (v != v) return UINT64_MAX;
  if (v == 0) v = 0; /* -0.0 sorts as 0.0 */
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return (u >> 63) ? ~u : u ^ (UINT64_C(1) << 63);
}

static uint64_t key_f32(float v) {
  if (v != v) return UINT32_MAX;
  if (v == 0) v = 0;
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  return (u >> 31) ? (uint32_t)~u : u ^ (UINT32_C(1) << 31);
}

typedef struct {
  DType dtype;
  const char *data; /* the slice's first element */
  int64_t stride;   /* in elements */
  uint64_t flip;    /* complements the keys for descending order */
} Slice;

static Slice slice_at(DType dt, const char *p, int64_t stride, bool descending) {
  uint64_t flip = dt == DT_FLOAT32 ? UINT32_MAX : dt == DT_BOOL ? 1 : UINT64_MAX;
  return (Slice){dt, p, stride, descending ? flip : 0};
}

static inline uint64_t key_at(const Slice *sl, int64_t i) {
  switch (sl->dtype) {
  case DT_FLOAT32: return key_f32(((const float *)sl->data)[i * sl->stride]) ^ sl->flip;
  case DT_FLOAT64: return key_f64(((const double *)sl->data)[i * sl->stride]) ^ sl->flip;
  case DT_INT64:
    return ((uint64_t)((const int64_t *)sl->data)[i * sl->stride] ^ (UINT64_C(1) << 63)) ^ sl->flip;
  default: return (uint64_t)(((const uint8_t *)sl->data)[i * sl->stride] != 0) ^ sl->flip;
  }
}

/* The keys and positions of the slice's n elements into b. */
static void slice_keys(const Slice *sl, int64_t n, SortBuffers *b) {
  for (int64_t i = 0; i < n; i++) {
    b->key[i] = key_at(sl, i);
    b->idx[i] = i;
  }
}

/* ---- stable sort of (key, idx) pairs ---- */

static void insertion_sort(uint64_t *key, int64_t *idx, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    uint64_t k = key[i];
    int64_t x = idx[i], j = i;
    for (; j > 0 && key[j - 1] > k; j--) {
      key[j] = key[j - 1];
      idx[j] = idx[j - 1];
    }
    key[j] = k;
    idx[j] = x;
  }
}

/* Sorts b->key[0..n) with b->idx alongside; the result is left in b->key/idx. */
static void radix_sort(SortBuffers *b, int64_t n) {
  if (n <= SORT_INSERTION_MAX) {
    insertion_sort(b->key, b->idx, n);
    return;
  }
  int64_t (*count)[256] = b->count;
  memset(count, 0, 8 * sizeof *count);
  for (int64_t i = 0; i < n; i++) {
    uint64_t k = b->key[i];
    for (int byte = 0; byte < 8; byte++) count[byte][(k >> (8 * byte)) & 0xFF]++;
  }
  for (int byte = 0; byte < 8; byte++) {
    int64_t *c = count[byte];
    if (c[(b->key[0] >> (8 * byte)) & 0xFF] == n) continue; /* every key has this byte */
    int64_t pos = 0;
    for (int v = 0; v < 256; v++) {
      int64_t here = c[v];
      c[v] = pos;
      pos += here;
    }
    for (int64_t i = 0; i < n; i++) {
      uint64_t k = b->key[i];
      int64_t at = c[(k >> (8 * byte)) & 0xFF]++;
      b->key_tmp[at] = k;
      b->idx_tmp[at] = b->idx[i];
    }
    uint64_t *kt = b->key;
    b->key = b->key_tmp;
    b->key_tmp = kt;
    int64_t *it = b->idx;
    b->idx = b->idx_tmp;
    b->idx_tmp = it;
  }
}

/* ---- selection ---- */

static void swap_u64(uint64_t *a, uint64_t *b) {
  uint64_t t = *a;
  *a = *b;
  *b = t;
}

/* The k-th smallest (0-based) of v[0..n), reordering v (Hoare quickselect
 * with a median-of-three pivot; equal keys stop both scans, so many ties
 * still split evenly). */
static uint64_t select_kth(uint64_t *v, int64_t n, int64_t k) {
  int64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    int64_t mid = lo + (hi - lo) / 2;
    if (v[mid] < v[lo]) swap_u64(&v[mid], &v[lo]);
    if (v[hi] < v[lo]) swap_u64(&v[hi], &v[lo]);
    if (v[hi] < v[mid]) swap_u64(&v[hi], &v[mid]);
    uint64_t pivot = v[mid];
    int64_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) {
        swap_u64(&v[i], &v[j]);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return v[k];
  }
  return v[k];
}

/* (key, idx) pairs ordered by key, then by index. */
static bool pair_less(uint64_t ka, int64_t ia, uint64_t kb, int64_t ib) {
  return ka < kb || (ka == kb && ia < ib);
}

static void heap_sift_down(uint64_t *key, int64_t *idx, int64_t size, int64_t at) {
  for (;;) {
    int64_t big = at, l = 2 * at + 1, r = l + 1;
    if (l < size && pair_less(key[big], idx[big], key[l], idx[l])) big = l;
    if (r < size && pair_less(key[big], idx[big], key[r], idx[r])) big = r;
    if (big == at) return;
    uint64_t tk = key[at];
    key[at] = key[big];
    key[big] = tk;
    int64_t ti = idx[at];
    idx[at] = idx[big];
    idx[big] = ti;
    at = big;
  }
}

/* Small k: one pass keeping the best k in a max-heap (most elements are
 * rejected by one comparison with its top), then a heap sort of the k. */
static void top_k_heap(const Slice *sl, SortBuffers *b, int64_t n, int64_t k) {
  uint64_t *hk = b->key_tmp;
  int64_t *hi = b->idx_tmp;
  for (int64_t i = 0; i < k; i++) {
    hk[i] = key_at(sl, i);
    hi[i] = i;
  }
  for (int64_t i = k / 2 - 1; i >= 0; i--) heap_sift_down(hk, hi, k, i);
  for (int64_t i = k; i < n; i++) {
    uint64_t key = key_at(sl, i);
    if (key >= hk[0]) continue; /* a later equal key loses to the earlier */
    hk[0] = key;
    hi[0] = i;
    heap_sift_down(hk, hi, k, 0);
  }
  for (int64_t size = k; size > 0; size--) {
    b->key[size - 1] = hk[0];
    b->idx[size - 1] = hi[0];
    hk[0] = hk[size - 1];
    hi[0] = hi[size - 1];
    heap_sift_down(hk, hi, size - 1, 0);
  }
}

/* Leaves in b->key/idx[0..k) the k smallest keys of the slice in sorted
 * order, the first of equal keys (by index) winning. */
static void top_k(const Slice *sl, SortBuffers *b, int64_t n, int64_t k) {
  if (k == 0) return;
  if (k * 64 <= n) {
    top_k_heap(sl, b, n, k);
    return;
  }
  slice_keys(sl, n, b);
  if (k * 8 >= n) { /* a large share: sorting everything is as cheap */
    radix_sort(b, n);
    return;
  }
  memcpy(b->key_tmp, b->key, (size_t)n * sizeof(uint64_t));
  uint64_t threshold = select_kth(b->key_tmp, n, k - 1);
  int64_t below = 0;
  for (int64_t i = 0; i < n; i++) below += b->key[i] < threshold;
  int64_t ties = k - below, m = 0;
  for (int64_t i = 0; i < n && m < k; i++) {
    uint64_t key = b->key[i];
    if (key < threshold || (key == threshold && ties-- > 0)) {
      b->key[m] = key;
      b->idx[m++] = b->idx[i];
    }
  }
  radix_sort(b, k);
}

/* ---- the driver shared by sort and topk ---- */

static void copy_out(DType dt, const void *src, int64_t s_in, void *dst, int64_t s_out,
                     const int64_t *idx, int64_t m) {
  switch (dtype_size(dt)) {
  case 4:
    for (int64_t i = 0; i < m; i++) ((float *)dst)[i * s_out] = ((const float *)src)[idx[i] * s_in];
    break;
  case 8:
    for (int64_t i = 0; i < m; i++)
      ((uint64_t *)dst)[i * s_out] = ((const uint64_t *)src)[idx[i] * s_in];
    break;
  default:
    for (int64_t i = 0; i < m; i++)
      ((uint8_t *)dst)[i * s_out] = ((const uint8_t *)src)[idx[i] * s_in];
    break;
  }
}

/* The values, with the indices given to *indices (NULL: dropped); both
 * released when the loop failed. */
static Tensor *hand_out(bool ok, Tensor *values, Tensor *idx_out, Tensor **indices) {
  if (!ok) {
    tensor_release(values);
    tensor_release(idx_out);
    return NULL;
  }
  if (indices) *indices = idx_out;
  else tensor_release(idx_out);
  return values;
}

/* k < 0: a full sort. Values and indices have a's shape with dim of size k. */
static Tensor *sort_native(const Tensor *a, int dim, int64_t k, bool descending,
                           Tensor **indices) {
  Tensor *src = tensor_contiguous(a);
  if (src == NULL) return NULL;
  int64_t n = a->ndim ? a->shape[dim] : 1, m = k < 0 ? n : k;
  int64_t shape[TENSOR_MAX_DIMS];
  for (int i = 0; i < a->ndim; i++) shape[i] = a->shape[i];
  if (a->ndim) shape[dim] = m;
  Tensor *values = tensor_empty(a->dtype, a->ndim, shape);
  Tensor *idx_out = tensor_empty(DT_INT64, a->ndim, shape);
  SortBuffers b = {0};
  bool ok = values && idx_out && buffers_alloc(&b, n);
  int64_t inner = 1, outer = 1;
  for (int i = dim + 1; i < a->ndim; i++) inner *= a->shape[i];
  for (int i = 0; i < dim; i++) outer *= a->shape[i];
  size_t esize = dtype_size(a->dtype);
  const char *in = ok ? tensor_data(src) : NULL;
  char *out = ok ? tensor_data(values) : NULL;
  int64_t *out_idx = ok ? tensor_data(idx_out) : NULL;
  for (int64_t o = 0; ok && o < outer && m > 0; o++) {
    for (int64_t j = 0; j < inner; j++) {
      if (tensor_check_interrupt()) {
        ok = false;
        break;
      }
      const char *p = in + (size_t)(o * n * inner + j) * esize;
      Slice sl = slice_at(a->dtype, p, inner, descending);
      if (k < 0) {
        slice_keys(&sl, n, &b);
        radix_sort(&b, n);
      } else {
        top_k(&sl, &b, n, k);
      }
      int64_t base = o * m * inner + j;
      copy_out(a->dtype, p, inner, out + (size_t)base * esize, inner, b.idx, m);
      for (int64_t i = 0; i < m; i++) out_idx[base + i * inner] = b.idx[i];
    }
  }
  buffers_free(&b);
  tensor_release(src);
  return hand_out(ok, values, idx_out, indices);
}

/* The dtypes without kernels of their own sort in their compute dtype (the
 * same order), their values narrowed back. */
static Tensor *sort_slices(const Tensor *a, int dim, int64_t k, bool descending,
                           Tensor **indices) {
  if (dtype_is_native(a->dtype)) return sort_native(a, dim, k, descending, indices);
  Tensor *wide = tensor_widen(a);
  Tensor *values = wide ? sort_native(wide, dim, k, descending, indices) : NULL;
  tensor_release(wide);
  return tensor_narrow_to(values, a->dtype);
}

Tensor *tensor_sort(const Tensor *a, int dim, bool descending, Tensor **indices) {
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  return sort_slices(a, dim, -1, descending, indices);
}

Tensor *tensor_argsort(const Tensor *a, int dim, bool descending) {
  Tensor *indices = NULL;
  Tensor *values = tensor_sort(a, dim, descending, &indices);
  tensor_release(values);
  return values ? indices : NULL;
}

Tensor *tensor_topk(const Tensor *a, int64_t k, int dim, bool largest, Tensor **indices) {
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  int64_t n = a->ndim ? a->shape[dim] : 1;
  if (k < 0 || k > n) {
    tensor_set_error("selected index k out of range");
    return NULL;
  }
  return sort_slices(a, dim, k, largest, indices);
}

/* ---- kthvalue ---- */

static void swap_pair(uint64_t *key, int64_t *idx, int64_t a, int64_t b) {
  uint64_t k = key[a];
  key[a] = key[b];
  key[b] = k;
  int64_t i = idx[a];
  idx[a] = idx[b];
  idx[b] = i;
}

/* Puts the pair of rank k (from 0) at position k, as ATen 1.13's
 * quick_select_template moves it (its comparison is the keys' order). */
static void quick_select_pairs(uint64_t *key, int64_t *idx, int64_t n, int64_t k) {
  int64_t lo = 0, hi = n - 1;
  for (;;) {
    if (hi <= lo) return;
    if (hi == lo + 1) {
      if (key[lo] > key[hi]) swap_pair(key, idx, lo, hi);
      return;
    }
    swap_pair(key, idx, (lo + hi) >> 1, lo + 1); /* the median of three as the pivot, at lo */
    if (key[lo + 1] > key[hi]) swap_pair(key, idx, lo + 1, hi);
    if (key[lo] > key[hi]) swap_pair(key, idx, lo, hi);
    if (key[lo + 1] > key[lo]) swap_pair(key, idx, lo + 1, lo);
    int64_t i = lo + 1, j = hi;
    uint64_t pivot = key[lo];
    for (;;) {
      do i++;
      while (pivot > key[i]);
      do j--;
      while (key[j] > pivot);
      if (j < i) break;
      swap_pair(key, idx, i, j);
    }
    swap_pair(key, idx, lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
}

/* One element chosen in each slice along dim: pick(slice, buffers, n, ctx)
 * gives its position. Values and indices have a's shape without dim (or
 * with it as size 1, keepdim). fname names the op in the empty-dim error. */
typedef int64_t (*SlicePick)(const Slice *sl, SortBuffers *b, int64_t n, int64_t k);

static Tensor *select_native(const Tensor *a, int dim, bool keepdim, Tensor **indices,
                             const char *fname, SlicePick pick, int64_t k) {
  int64_t n = a->ndim ? a->shape[dim] : 1;
  if (n == 0) {
    tensor_set_error("%s(): Expected reduction dim %d to have non-zero size.", fname, dim);
    return NULL;
  }
  int64_t shape[TENSOR_MAX_DIMS];
  int ndim = 0;
  for (int i = 0; i < a->ndim; i++)
    if (i != dim || keepdim) shape[ndim++] = i == dim ? 1 : a->shape[i];
  Tensor *src = tensor_contiguous(a);
  Tensor *values = src ? tensor_empty(a->dtype, ndim, shape) : NULL;
  Tensor *idx_out = values ? tensor_empty(DT_INT64, ndim, shape) : NULL;
  SortBuffers b = {0};
  bool ok = idx_out && buffers_alloc(&b, n);
  int64_t inner = 1, outer = 1;
  for (int i = dim + 1; i < a->ndim; i++) inner *= a->shape[i];
  for (int i = 0; i < dim; i++) outer *= a->shape[i];
  size_t esize = dtype_size(a->dtype);
  for (int64_t o = 0; ok && o < outer; o++) {
    for (int64_t j = 0; j < inner; j++) {
      if (tensor_check_interrupt()) {
        ok = false;
        break;
      }
      const char *p = (const char *)tensor_data(src) + (size_t)(o * n * inner + j) * esize;
      Slice sl = slice_at(a->dtype, p, inner, false);
      int64_t pos = pick(&sl, &b, n, k), at = o * inner + j;
      copy_out(a->dtype, p, inner, (char *)tensor_data(values) + (size_t)at * esize, 1, &pos, 1);
      ((int64_t *)tensor_data(idx_out))[at] = pos;
    }
  }
  buffers_free(&b);
  tensor_release(src);
  return hand_out(ok, values, idx_out, indices);
}

/* As sort_slices: the others select in their compute dtype. */
static Tensor *select_slices(const Tensor *a, int dim, bool keepdim, Tensor **indices,
                             const char *fname, SlicePick pick, int64_t k) {
  if (dtype_is_native(a->dtype)) return select_native(a, dim, keepdim, indices, fname, pick, k);
  Tensor *wide = tensor_widen(a);
  Tensor *values = wide ? select_native(wide, dim, keepdim, indices, fname, pick, k) : NULL;
  tensor_release(wide);
  return tensor_narrow_to(values, a->dtype);
}

static int64_t kth_position(const Slice *sl, SortBuffers *b, int64_t n, int64_t k) {
  slice_keys(sl, n, b);
  quick_select_pairs(b->key, b->idx, n, k - 1);
  return b->idx[k - 1];
}

Tensor *tensor_kthvalue(const Tensor *a, int64_t k, int dim, bool keepdim, Tensor **indices) {
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  int64_t n = a->ndim ? a->shape[dim] : 1;
  if (n > 0 && (k < 1 || k > n)) {
    tensor_set_error("kthvalue(): selected number k out of range for dimension %d", dim);
    return NULL;
  }
  return select_slices(a, dim, keepdim, indices, "kthvalue", kth_position, k);
}

/* ---- mode ---- */

/* libstdc++'s std::sort (GCC's introsort: median-of-three quicksort down to
 * runs of 16, heapsort past 2*log2(n) levels, then insertion sort) of the
 * (key, position) pairs by key alone, as ATen's mode kernel sorts its
 * (value, index) pairs: which index ends last in a run of equal values is
 * that algorithm's, so it is followed step by step. */
#define STD_SORT_THRESHOLD 16

static void adjust_heap(uint64_t *key, int64_t *idx, int64_t hole, int64_t len, uint64_t vk, int64_t vi) {
  int64_t top = hole, child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (key[child] < key[child - 1]) child--;
    key[hole] = key[child], idx[hole] = idx[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    key[hole] = key[child - 1], idx[hole] = idx[child - 1];
    hole = child - 1;
  }
  int64_t parent = (hole - 1) / 2;
  while (hole > top && key[parent] < vk) {
    key[hole] = key[parent], idx[hole] = idx[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  key[hole] = vk, idx[hole] = vi;
}

static void std_heap_sort(uint64_t *key, int64_t *idx, int64_t n) {
  if (n < 2) return;
  for (int64_t parent = (n - 2) / 2;; parent--) {
    adjust_heap(key, idx, parent, n, key[parent], idx[parent]);
    if (parent == 0) break;
  }
  for (int64_t last = n - 1; last > 0; last--) {
    uint64_t vk = key[last];
    int64_t vi = idx[last];
    key[last] = key[0], idx[last] = idx[0];
    adjust_heap(key, idx, 0, last, vk, vi);
  }
}

static void move_median_to_first(uint64_t *key, int64_t *idx, int64_t r, int64_t a, int64_t b, int64_t c) {
  int64_t m;
  if (key[a] < key[b]) m = key[b] < key[c] ? b : key[a] < key[c] ? c : a;
  else m = key[a] < key[c] ? a : key[b] < key[c] ? c : b;
  swap_pair(key, idx, r, m);
}

static void std_introsort_loop(uint64_t *key, int64_t *idx, int64_t first, int64_t last, int depth) {
  while (last - first > STD_SORT_THRESHOLD) {
    if (depth == 0) {
      std_heap_sort(key + first, idx + first, last - first);
      return;
    }
    depth--;
    move_median_to_first(key, idx, first, first + 1, first + (last - first) / 2, last - 1);
    int64_t lo = first + 1, hi = last; /* the unguarded partition around key[first] */
    for (;;) {
      while (key[lo] < key[first]) lo++;
      hi--;
      while (key[first] < key[hi]) hi--;
      if (!(lo < hi)) break;
      swap_pair(key, idx, lo, hi);
      lo++;
    }
    std_introsort_loop(key, idx, lo, last, depth);
    last = lo;
  }
}

/* Moves pair i left past the larger keys before it (no bound check when
 * guarded is false: a smaller key is known to stand at the front). */
static void linear_insert(uint64_t *key, int64_t *idx, int64_t i, int64_t first, bool guarded) {
  uint64_t vk = key[i];
  int64_t vi = idx[i];
  if (guarded && vk < key[first]) {
    for (int64_t j = i; j > first; j--) key[j] = key[j - 1], idx[j] = idx[j - 1];
    key[first] = vk, idx[first] = vi;
    return;
  }
  while (vk < key[i - 1]) {
    key[i] = key[i - 1], idx[i] = idx[i - 1];
    i--;
  }
  key[i] = vk, idx[i] = vi;
}

static void std_sort_pairs(uint64_t *key, int64_t *idx, int64_t n) {
  if (n < 2) return;
  int lg = 63 - __builtin_clzll((unsigned long long)n);
  std_introsort_loop(key, idx, 0, n, 2 * lg);
  int64_t guarded_end = n > STD_SORT_THRESHOLD ? STD_SORT_THRESHOLD : n;
  for (int64_t i = 1; i < guarded_end; i++) linear_insert(key, idx, i, 0, true);
  for (int64_t i = guarded_end; i < n; i++) linear_insert(key, idx, i, 0, false);
}

/* The position of the slice's most frequent value (the smallest of those
 * most frequent): the index that ends its run in the sorted pairs. */
static int64_t mode_position(const Slice *sl, SortBuffers *b, int64_t n, int64_t unused) {
  slice_keys(sl, n, b);
  std_sort_pairs(b->key, b->idx, n);
  int64_t best = 0, best_count = 0, count = 0;
  for (int64_t i = 0; i < n; i++) {
    count++;
    if (i == n - 1 || b->key[i] != b->key[i + 1]) {
      if (count > best_count) best = b->idx[i], best_count = count;
      count = 0;
    }
  }
  return best;
}

Tensor *tensor_mode(const Tensor *a, int dim, bool keepdim, Tensor **indices) {
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  return select_slices(a, dim, keepdim, indices, "mode", mode_position, 0);
}

/* ---- median ---- */

/* The position of the slice's median: its first NaN, else the element of
 * rank (n - 1) / 2 of the stable order. */
static int64_t median_position(const Slice *sl, SortBuffers *b, int64_t n, int64_t unused) {
  slice_keys(sl, n, b);
  uint64_t nan_key = sl->dtype == DT_FLOAT32 ? UINT32_MAX : UINT64_MAX;
  if (dtype_is_float(sl->dtype))
    for (int64_t i = 0; i < n; i++)
      if (b->key[i] == nan_key) return i;
  radix_sort(b, n);
  return b->idx[(n - 1) / 2];
}

Tensor *tensor_median(const Tensor *a, int dim, bool keepdim, Tensor **indices) {
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  return select_slices(a, dim, keepdim, indices, "median", median_position, 0);
}
