/* convert.c — filling, copying and dtype conversion (clone, contiguous, to, copy_). */
/* These kernels are plain loops for the compiler to vectorise, but -O2's
 * "very cheap" cost model refuses any loop that needs a remainder loop or an
 * aliasing check, i.e. all of them. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <string.h>

/* ---- fill ---- */

#define DEFINE_FILL(name, T)                                                                 \
  static void name(int64_t n, char *const *p, const int64_t *s, const void *ctx) {          \
    T v = *(const T *)ctx;                                                                   \
    if (s[0] == sizeof(T)) {                                                                 \
      T *o = (T *)p[0];                                                                      \
      for (int64_t i = 0; i < n; i++) o[i] = v;                                              \
    } else {                                                                                 \
      for (int64_t i = 0; i < n; i++) *(T *)(p[0] + i * s[0]) = v;                           \
    }                                                                                        \
  }
#define DTYPE_FILL(e, name, ctype, ...) DEFINE_FILL(fill_##e, ctype)
AG_DTYPES(DTYPE_FILL)
#undef DTYPE_FILL

static const IterInner fill_kernels[DT_COUNT] = {
#define DTYPE_FILL_ROW(e, ...) fill_##e,
    AG_DTYPES(DTYPE_FILL_ROW)
#undef DTYPE_FILL_ROW
};

bool tensor_check_writable(const Tensor *t) {
  for (int i = 0; i < t->ndim; i++) {
    if (t->stride[i] == 0 && t->shape[i] > 1) {
      tensor_set_error("unsupported operation: more than one element of the written-to tensor "
                       "refers to a single memory location. Please clone() the tensor before "
                       "performing the operation.");
      return false;
    }
  }
  return true;
}

/* Fills without touching the version counter (for freshly made tensors). */
bool tensor_fill_raw(Tensor *a, double v) {
  char value[8];
  tensor_store_double(a->dtype, value, v);
  TensorIter it;
  tensor_iter_init(&it, a->ndim, a->shape);
  tensor_iter_add(&it, a);
  return tensor_iter_run(&it, fill_kernels[a->dtype], value);
}

bool tensor_fill_(Tensor *a, double v) {
  if (!dtype_value_fits(a->dtype, v, false) || !tensor_check_writable(a)) return false;
  tensor_bump_version(a);
  return tensor_fill_raw(a, v);
}

/* ---- conversion kernels: one per (destination, source) dtype pair ---- */

static inline int64_t f2i(double v) { return tensor_double_to_i64(v); }

#define DEFINE_CONVERT(name, TO, FROM, EXPR)                                                 \
  static void name(int64_t n, char *const *p, const int64_t *s, const void *ctx) {          \
    (void)ctx;                                                                               \
    if (s[0] == sizeof(TO) && s[1] == sizeof(FROM)) {                                        \
      TO *o = (TO *)p[0];                                                                    \
      const FROM *a = (const FROM *)p[1];                                                    \
      for (int64_t i = 0; i < n; i++) {                                                      \
        FROM x = a[i];                                                                       \
        o[i] = (EXPR);                                                                       \
      }                                                                                      \
    } else {                                                                                 \
      for (int64_t i = 0; i < n; i++) {                                                      \
        FROM x = *(const FROM *)(p[1] + i * s[1]);                                           \
        *(TO *)(p[0] + i * s[0]) = (EXPR);                                                   \
      }                                                                                      \
    }                                                                                        \
  }

/* Every dtype converts to and from the four native ones (bool, int64,
 * float32, float64): to one of them the element is loaded as its value (an
 * integer or a float) and cast as PyTorch casts (a float to an integer
 * through x86's conversion); from one, an integer dtype wraps the value
 * through int64, float16 and bfloat16 round it through float, as
 * c10::Half(double) does. A conversion between two of the others goes
 * through the source's compute dtype (tensor_copy_raw), which is exact. */
#define DT_PLAIN(x) (x)
#define TO_NATIVE_b(v, from_float) ((v) != 0)
#define TO_NATIVE_i(v, from_float) ((from_float) ? f2i((double)(v)) : (int64_t)(v))
#define TO_NATIVE_f(v, from_float) ((float)(v))
#define TO_NATIVE_d(v, from_float) ((double)(v))
#define FROM_NATIVE(ctype, kind, store, v, from_float)                                       \
  ((kind) == DK_BOOL ? (ctype)((v) != 0)                                                    \
   : (kind) == DK_INT ? ((from_float) ? (ctype)(uint64_t)f2i((double)(v)) : (ctype)(int64_t)(v)) \
                      : (ctype)store(v))
#define DEFINE_CONVERT_NATIVE(e, ctype, kind, load, store, n, NT, n_float)                   \
  DEFINE_CONVERT(cv_##e##_##n, ctype, NT, FROM_NATIVE(ctype, kind, store, x, n_float))       \
  DEFINE_CONVERT(cv_##n##_##e, NT, ctype, TO_NATIVE_##n(load(x), (kind) == DK_FLOAT))
#define DTYPE_CONVERTS(e, name, ctype, kind, torch, compute, load, store, ...)                    \
  DEFINE_CONVERT(cv_same_##e, ctype, ctype, x)                                               \
  DEFINE_CONVERT_NATIVE(e, ctype, kind, load, store, b, uint8_t, 0)                          \
  DEFINE_CONVERT_NATIVE(e, ctype, kind, load, store, i, int64_t, 0)                          \
  DEFINE_CONVERT_NATIVE(e, ctype, kind, load, store, f, float, 1)                            \
  DEFINE_CONVERT_NATIVE(e, ctype, kind, load, store, d, double, 1)
AG_DTYPES(DTYPE_CONVERTS)
#undef DTYPE_CONVERTS

#define DTYPE_SAME(e, ...) cv_same_##e,
static const IterInner same_kernels[DT_COUNT] = {AG_DTYPES(DTYPE_SAME)};
#undef DTYPE_SAME
#define DTYPE_FROM_NATIVE(e, ...) {cv_##e##_b, cv_##e##_i, cv_##e##_f, cv_##e##_d},
static const IterInner from_native[DT_COUNT][4] = {AG_DTYPES(DTYPE_FROM_NATIVE)};
#undef DTYPE_FROM_NATIVE
#define TO_b(e, ...) cv_b_##e,
#define TO_i(e, ...) cv_i_##e,
#define TO_f(e, ...) cv_f_##e,
#define TO_d(e, ...) cv_d_##e,
static const IterInner to_native[4][DT_COUNT] = {
    {AG_DTYPES(TO_b)}, {AG_DTYPES(TO_i)}, {AG_DTYPES(TO_f)}, {AG_DTYPES(TO_d)}};
#undef TO_b
#undef TO_i
#undef TO_f
#undef TO_d

/* The kernel converting `from` elements to `to`; NULL between two dtypes
 * neither of which is native. */
IterInner tensor_convert_kernel(DType to, DType from) {
  if (to == from) return same_kernels[to];
  if (dtype_is_native(from)) return from_native[to][from];
  if (dtype_is_native(to)) return to_native[to][from];
  return NULL;
}

/* dst = src (src broadcast to dst's shape, already checked), converting dtype. */
bool tensor_copy_raw(Tensor *dst, const Tensor *src) {
  /* Small, contiguous, one dtype (a gradient written into its slot of a
   * zeros tensor, a clone): src broadcasts to dst, so equal counts mean the
   * same elements in the same order. Big copies keep the iterator, which
   * splits them across the workers and polls Ctrl-C. */
  if (dst->dtype == src->dtype && dst->numel == src->numel && dst->numel <= ITER_CHUNK &&
      tensor_is_contiguous(dst) && tensor_is_contiguous(src)) {
    if (dst->numel > 0)
      memmove(tensor_data(dst), tensor_data(src), (size_t)dst->numel * dtype_size(dst->dtype));
    return true;
  }
  IterInner kernel = tensor_convert_kernel(dst->dtype, src->dtype);
  if (!kernel) { /* two non-native dtypes: through the source's compute dtype */
    Tensor *wide = tensor_to_dtype(src, dtype_compute(src->dtype));
    bool ok = wide && tensor_copy_raw(dst, wide);
    tensor_release(wide);
    return ok;
  }
  TensorIter it;
  tensor_iter_init(&it, dst->ndim, dst->shape);
  tensor_iter_add(&it, dst);
  tensor_iter_add(&it, src);
  return tensor_iter_run(&it, kernel, NULL);
}

Tensor *tensor_to_dtype(const Tensor *t, DType dt) {
  if (t->dtype == dt) return tensor_retain((Tensor *)t);
  Tensor *out = tensor_empty(dt, t->ndim, t->shape);
  if (out && !tensor_copy_raw(out, t)) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

Tensor *tensor_narrow_to(Tensor *t, DType dt) {
  if (!t || t->dtype == dt) return t;
  Tensor *out = tensor_to_dtype(t, dt);
  tensor_release(t);
  return out;
}

Tensor *tensor_widened2(Tensor *(*f)(const Tensor *, const Tensor *), const Tensor *a,
                        const Tensor *b) {
  Tensor *wa = tensor_widen(a), *wb = wa ? tensor_widen(b) : NULL;
  Tensor *r = wb ? f(wa, wb) : NULL;
  tensor_release(wa);
  tensor_release(wb);
  return tensor_narrow_to(r, a->dtype);
}

Tensor *tensor_clone(const Tensor *t) {
  Tensor *out = tensor_empty(t->dtype, t->ndim, t->shape);
  if (!out) return NULL;
  if (tensor_is_contiguous(t)) {
    memcpy(tensor_data(out), tensor_data(t), (size_t)t->numel * dtype_size(t->dtype));
    return out;
  }
  if (!tensor_copy_raw(out, t)) {
    tensor_release(out);
    return NULL;
  }
  return out;
}

Tensor *tensor_contiguous(const Tensor *t) {
  if (tensor_is_contiguous(t)) return tensor_retain((Tensor *)t);
  return tensor_clone(t);
}

Tensor *tensor_alias(const Tensor *t) {
  return tensor_view_of(t, t->ndim, t->shape, t->stride, t->offset);
}

/* Whether two tensors may share memory (the same elements, under one version
 * counter or two): then a copy between them must go through a temporary. */
bool tensor_shares_storage(const Tensor *a, const Tensor *b) {
  return a->storage->data == b->storage->data;
}

static bool same_geometry(const Tensor *a, const Tensor *b) {
  if (a->ndim != b->ndim || a->offset != b->offset) return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i] || (a->shape[i] > 1 && a->stride[i] != b->stride[i]))
      return false;
  return true;
}

/* b, or a private copy of b when writing to a could change b's elements mid-loop. */
Tensor *tensor_unaliased_input(const Tensor *a, const Tensor *b) {
  if (tensor_shares_storage(a, b) && !same_geometry(a, b) && a->dtype == b->dtype)
    return tensor_clone(b);
  return tensor_retain((Tensor *)b);
}

bool tensor_copy_(Tensor *dst, const Tensor *src) {
  if (!tensor_check_broadcasts_to(src, dst)) return false;
  if (!tensor_check_writable(dst)) return false;
  Tensor *s = tensor_unaliased_input(dst, src);
  if (!s) return false;
  tensor_bump_version(dst);
  bool ok = tensor_copy_raw(dst, s);
  tensor_release(s);
  return ok;
}

/* The start (in elements of the storage) of the block dst.select(dim, i)
 * when that block is one contiguous run of a contiguous dst (no dimension of
 * size > 1 before dim) and src, contiguous, of dst's dtype and of no other
 * storage, has exactly the block's shape; -1 otherwise. */
static int64_t select_block_start(const Tensor *dst, int dim, int64_t i, const Tensor *src) {
  if (dim < 0 || dim >= dst->ndim || src->ndim != dst->ndim - 1 || src->dtype != dst->dtype ||
      src->storage == dst->storage || src->numel > ITER_CHUNK)
    return -1;
  int64_t size = dst->shape[dim];
  if (i < -size || i >= size || !tensor_is_contiguous(dst) || !tensor_is_contiguous(src)) return -1;
  for (int d = 0; d < dim; d++)
    if (dst->shape[d] != 1) return -1;
  for (int d = dim + 1; d < dst->ndim; d++)
    if (src->shape[d - 1] != dst->shape[d]) return -1;
  return dst->offset + (i < 0 ? i + size : i) * dst->stride[dim];
}

/* A select's backward fills its slot of a zeros tensor this way, once per
 * element in a backward over `for v in x`: a contiguous block is one memcpy
 * and the version bump copy_ makes, without building the view; anything
 * else is select + copy_ (and their errors). */
bool tensor_select_copy_(Tensor *dst, int dim, int64_t i, const Tensor *src) {
  int64_t start = select_block_start(dst, dim, i, src);
  if (start >= 0) {
    size_t esize = dtype_size(dst->dtype);
    tensor_bump_version(dst);
    if (src->numel > 0)
      memcpy((char *)dst->storage->data + (size_t)start * esize, tensor_data(src),
             (size_t)src->numel * esize);
    return true;
  }
  Tensor *block = tensor_select(dst, dim, i);
  bool ok = block && tensor_copy_(block, src);
  tensor_release(block);
  return ok;
}

