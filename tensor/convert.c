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
DEFINE_FILL(fill_u8, uint8_t)
DEFINE_FILL(fill_i64, int64_t)
DEFINE_FILL(fill_f32, float)
DEFINE_FILL(fill_f64, double)

static const IterInner fill_kernels[DT_COUNT] = {fill_u8, fill_i64, fill_f32, fill_f64};

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
  if (!tensor_check_writable(a)) return false;
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

DEFINE_CONVERT(cv_b_b, uint8_t, uint8_t, x)
DEFINE_CONVERT(cv_b_i, uint8_t, int64_t, x != 0)
DEFINE_CONVERT(cv_b_f, uint8_t, float, x != 0)
DEFINE_CONVERT(cv_b_d, uint8_t, double, x != 0)
DEFINE_CONVERT(cv_i_b, int64_t, uint8_t, (int64_t)x)
DEFINE_CONVERT(cv_i_i, int64_t, int64_t, x)
DEFINE_CONVERT(cv_i_f, int64_t, float, f2i(x))
DEFINE_CONVERT(cv_i_d, int64_t, double, f2i(x))
DEFINE_CONVERT(cv_f_b, float, uint8_t, (float)x)
DEFINE_CONVERT(cv_f_i, float, int64_t, (float)x)
DEFINE_CONVERT(cv_f_f, float, float, x)
DEFINE_CONVERT(cv_f_d, float, double, (float)x)
DEFINE_CONVERT(cv_d_b, double, uint8_t, (double)x)
DEFINE_CONVERT(cv_d_i, double, int64_t, (double)x)
DEFINE_CONVERT(cv_d_f, double, float, (double)x)
DEFINE_CONVERT(cv_d_d, double, double, x)

static const IterInner convert_kernels[DT_COUNT][DT_COUNT] = {
    {cv_b_b, cv_b_i, cv_b_f, cv_b_d},
    {cv_i_b, cv_i_i, cv_i_f, cv_i_d},
    {cv_f_b, cv_f_i, cv_f_f, cv_f_d},
    {cv_d_b, cv_d_i, cv_d_f, cv_d_d},
};

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
  TensorIter it;
  tensor_iter_init(&it, dst->ndim, dst->shape);
  tensor_iter_add(&it, dst);
  tensor_iter_add(&it, src);
  return tensor_iter_run(&it, convert_kernels[dst->dtype][src->dtype], NULL);
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

IterInner tensor_convert_kernel(DType to, DType from) { return convert_kernels[to][from]; }
