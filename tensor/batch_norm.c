/* batch_norm.c — BatchNorm's training forward and its backward, each a few
 * passes over the input per channel, computed as ATen's CPU kernels compute
 * them (aten/src/ATen/native/cpu/batch_norm_kernel.cpp, PyTorch 1.13):
 *
 * - statistics: per channel, the sum of the inputs in double, the mean
 *   rounded to x's dtype, then the sum of squared deviations (each
 *   computed in x's dtype) in double; 1/sqrt(var + eps) in double;
 * - output: x alpha + beta with alpha = invstd weight, beta = bias - mean
 *   alpha per channel (a multiply, then an add: no fused multiply-add);
 * - backward: per channel sum(dy) and sum((x - mean) dy) in x's dtype, each
 *   plane reduced as ATen's vec::reduce_all does (lanes of one vector, then
 *   a reduction of the lanes), then dx = (dy - sum/N - (x - mean) k) invstd w
 *   with k = dotp invstd^2 / N, dweight = dotp invstd, dbias = sum.
 *
 * Channels are independent; many channels spread over the worker pool. */
/* The per-element loops (the output, dx, the backward's lanes) are for the
 * compiler to vectorise, which -O2's "very cheap" cost model refuses; it
 * never reorders the sums in double (no -ffast-math), so the bits stay. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/parallel.h"
#include "tensor/platform.h"
#include "tensor/tensor_internal.h"

#include <math.h>

/* x viewed as [n, c, s] (contiguous). */
typedef struct {
  int64_t n, c, s;
} BnShape;

static BnShape bn_shape(const Tensor *x) {
  BnShape b = {x->shape[0], x->ndim > 1 ? x->shape[1] : 1, 1};
  for (int d = 2; d < x->ndim; d++) b.s *= x->shape[d];
  return b;
}

/* ---- statistics ---- */

#define BN_STATS(T)                                                                          \
  static void bn_stats_##T(const T *x, BnShape b, int64_t c, double eps, T *mean, T *invstd, \
                           T *unbiased) {                                                    \
    double sum = 0;                                                                          \
    for (int64_t i = 0; i < b.n; i++)                                                        \
      for (int64_t j = 0; j < b.s; j++) sum += x[(i * b.c + c) * b.s + j];                   \
    int64_t count = b.n * b.s;                                                               \
    T m = (T)(sum / (double)count);                                                          \
    double var_sum = 0;                                                                      \
    for (int64_t i = 0; i < b.n; i++)                                                        \
      for (int64_t j = 0; j < b.s; j++) {                                                    \
        T d = x[(i * b.c + c) * b.s + j] - m;                                                \
        var_sum += d * d;                                                                    \
      }                                                                                      \
    T vs = (T)var_sum;                                                                       \
    mean[c] = m;                                                                             \
    invstd[c] = (T)(1 / sqrt((double)vs / (double)count + eps));                             \
    if (unbiased) unbiased[c] = (T)((double)vs / (double)(count - 1));                       \
  }
BN_STATS(float)
BN_STATS(double)

typedef struct {
  const Tensor *x, *weight, *bias, *mean, *invstd, *dy;
  Tensor *out, *unbiased, *dx, *dw, *db;
  BnShape b;
  double eps;
} BnJob;

static void stats_task(int64_t c, void *ctx) {
  BnJob *j = ctx;
  if (j->x->dtype == DT_FLOAT32)
    bn_stats_float(tensor_data(j->x), j->b, c, j->eps, tensor_data(j->mean),
                   tensor_data(j->invstd), j->unbiased ? tensor_data(j->unbiased) : NULL);
  else
    bn_stats_double(tensor_data(j->x), j->b, c, j->eps, tensor_data(j->mean),
                    tensor_data(j->invstd), j->unbiased ? tensor_data(j->unbiased) : NULL);
}

/* Runs task(c) for every channel, over the pool when x is big enough: a
 * quarter of an elementwise loop's grain, as each element takes several
 * passes of dependent double additions. */
static void per_channel(BnJob *j, ParallelBody task) {
  if (j->b.n * j->b.c * j->b.s >= ITER_PARALLEL_MIN / 4 && j->b.c > 1)
    tensor_parallel_for(j->b.c, task, j);
  else
    for (int64_t c = 0; c < j->b.c; c++) task(c, j);
}

/* ---- forward ---- */

static double param_at(const Tensor *p, int64_t c, double absent) {
  return p ? tensor_get_flat(p, c) : absent;
}

#define BN_APPLY(T)                                                                          \
  static void bn_apply_##T(const BnJob *j, int64_t c) {                                     \
    const T *x = tensor_data(j->x);                                                          \
    T *out = tensor_data(j->out);                                                            \
    T w = (T)param_at(j->weight, c, 1), bias = (T)param_at(j->bias, c, 0);                   \
    T alpha = ((const T *)tensor_data(j->invstd))[c] * w;                                    \
    T beta = bias - ((const T *)tensor_data(j->mean))[c] * alpha;                            \
    for (int64_t i = 0; i < j->b.n; i++) {                                                   \
      int64_t o = (i * j->b.c + c) * j->b.s;                                                 \
      for (int64_t k = 0; k < j->b.s; k++) {                                                 \
        T scaled = x[o + k] * alpha;                                                         \
        out[o + k] = scaled + beta;                                                          \
      }                                                                                      \
    }                                                                                        \
  }
BN_APPLY(float)
BN_APPLY(double)

static void apply_task(int64_t c, void *ctx) {
  if (((BnJob *)ctx)->x->dtype == DT_FLOAT32)
    bn_apply_float(ctx, c);
  else
    bn_apply_double(ctx, c);
}

static bool bn_check(const Tensor *x) {
  if ((x->dtype == DT_FLOAT32 || x->dtype == DT_FLOAT64) && x->ndim >= 2) return true;
  tensor_set_error("batch norm: expected a float tensor of at least 2 dimensions");
  return false;
}

/* The statistics of x into j (mean, invstd, and unbiased when asked). */
static bool bn_collect(BnJob *j, bool want_unbiased) {
  int64_t c = j->b.c;
  j->mean = tensor_empty(j->x->dtype, 1, &c);
  j->invstd = tensor_empty(j->x->dtype, 1, &c);
  j->unbiased = want_unbiased ? tensor_empty(j->x->dtype, 1, &c) : NULL;
  if (!j->mean || !j->invstd || (want_unbiased && !j->unbiased)) return false;
  per_channel(j, stats_task);
  return true;
}

Tensor *tensor_batch_norm_train(const Tensor *x, const Tensor *weight, const Tensor *bias,
                                double eps, Tensor **mean, Tensor **unbiased_var) {
  *mean = *unbiased_var = NULL;
  if (!bn_check(x)) return NULL;
  BnJob j = {.x = tensor_contiguous(x), .weight = weight, .bias = bias, .eps = eps};
  j.b = bn_shape(x);
  if (j.x && bn_collect(&j, true)) j.out = tensor_empty(x->dtype, x->ndim, x->shape);
  if (j.out) per_channel(&j, apply_task);
  tensor_release((Tensor *)j.x);
  tensor_release((Tensor *)j.invstd);
  if (!j.out) {
    tensor_release((Tensor *)j.mean);
    tensor_release(j.unbiased);
    return NULL;
  }
  *mean = (Tensor *)j.mean;
  *unbiased_var = j.unbiased;
  return j.out;
}

/* ---- backward ---- */

/* ATen's vec::reduce_all over `size` values of one plane, given as lanes:
 * lane l of a vector of `lanes` sums values l, l + lanes, ... in order (the
 * tail adds into the first lanes only); then the lanes are combined as a
 * tree on AVX2 float vectors (halves, then pairs, then neighbours), one
 * after the other elsewhere. Fewer values than a vector: one after the other. */
#define BN_LANES(T)                                                                          \
  static T bn_combine_##T(T *acc, int lanes, int used) {                                    \
    if (used == 8 && lanes == 8 && tensor_platform_avx2()) {                                 \
      T h[4], q[2];                                                                          \
      for (int l = 0; l < 4; l++) h[l] = acc[l] + acc[l + 4];                                \
      for (int l = 0; l < 2; l++) q[l] = h[l] + h[l + 2];                                    \
      return q[0] + q[1];                                                                    \
    }                                                                                        \
    T r = acc[0];                                                                            \
    for (int l = 1; l < used; l++) r += acc[l];                                              \
    return r;                                                                                \
  }                                                                                          \
  /* sum(dy) and sum((x - mean) dy) of one plane */                                          \
  static void bn_plane_sums_##T(const T *x, const T *dy, int64_t size, T mean, T *sum,      \
                                T *dot) {                                                    \
    enum { LANES = 32 / sizeof(T) };                                                         \
    T s[LANES] = {0}, d[LANES] = {0};                                                        \
    int64_t first = size < LANES ? size : LANES;                                             \
    for (int64_t l = 0; l < first; l++) {                                                    \
      s[l] = dy[l];                                                                          \
      d[l] = (x[l] - mean) * dy[l];                                                          \
    }                                                                                        \
    int64_t k = LANES;                                                                       \
    for (; k + LANES <= size; k += LANES) /* whole vectors: lane l takes k + l */            \
      for (int l = 0; l < LANES; l++) {                                                      \
        s[l] += dy[k + l];                                                                   \
        d[l] += (x[k + l] - mean) * dy[k + l];                                               \
      }                                                                                      \
    for (int l = 0; k + l < size; l++) {                                                     \
      s[l] += dy[k + l];                                                                     \
      d[l] += (x[k + l] - mean) * dy[k + l];                                                 \
    }                                                                                        \
    int used = size < LANES ? (int)size : LANES;                                             \
    *sum = bn_combine_##T(s, LANES, used);                                                   \
    *dot = bn_combine_##T(d, LANES, used);                                                   \
  }                                                                                          \
  static void bn_backward_##T(const BnJob *j, int64_t c) {                                  \
    const T *x = tensor_data(j->x), *dy = tensor_data(j->dy);                                \
    T mean = ((const T *)tensor_data(j->mean))[c];                                           \
    T invstd = ((const T *)tensor_data(j->invstd))[c];                                       \
    T w = (T)param_at(j->weight, c, 1);                                                      \
    T sum = 0, dotp = 0;                                                                     \
    for (int64_t i = 0; i < j->b.n; i++) {                                                   \
      int64_t o = (i * j->b.c + c) * j->b.s;                                                 \
      T ps, pd;                                                                              \
      bn_plane_sums_##T(x + o, dy + o, j->b.s, mean, &ps, &pd);                              \
      sum += ps;                                                                             \
      dotp += pd;                                                                            \
    }                                                                                        \
    if (j->dx) {                                                                             \
      T *dx = tensor_data(j->dx);                                                            \
      T count = (T)(j->b.n * j->b.s);                                                        \
      T k = dotp * invstd * invstd / count, grad_mean = sum / count;                         \
      for (int64_t i = 0; i < j->b.n; i++) {                                                 \
        int64_t o = (i * j->b.c + c) * j->b.s;                                               \
        for (int64_t e = 0; e < j->b.s; e++) {                                               \
          T proj = (x[o + e] - mean) * k;                                                    \
          dx[o + e] = (dy[o + e] - grad_mean - proj) * invstd * w;                           \
        }                                                                                    \
      }                                                                                      \
    }                                                                                        \
    if (j->dw) ((T *)tensor_data(j->dw))[c] = dotp * invstd;                                 \
    if (j->db) ((T *)tensor_data(j->db))[c] = sum;                                           \
  }
BN_LANES(float)
BN_LANES(double)

static void backward_task(int64_t c, void *ctx) {
  if (((BnJob *)ctx)->x->dtype == DT_FLOAT32)
    bn_backward_float(ctx, c);
  else
    bn_backward_double(ctx, c);
}

bool tensor_batch_norm_backward(const Tensor *x, const Tensor *dy, const Tensor *weight,
                                double eps, Tensor **dx, Tensor **dweight, Tensor **dbias) {
  if (!bn_check(x)) return false;
  BnJob j = {.x = tensor_contiguous(x), .dy = tensor_contiguous(dy), .weight = weight, .eps = eps};
  j.b = bn_shape(x);
  int64_t c = j.b.c;
  bool ok = j.x && j.dy && dy->dtype == x->dtype && dy->numel == x->numel && bn_collect(&j, false);
  if (ok && dx) ok = (j.dx = tensor_empty(x->dtype, x->ndim, x->shape)) != NULL;
  if (ok && dweight) ok = (j.dw = tensor_empty(x->dtype, 1, &c)) != NULL;
  if (ok && dbias) ok = (j.db = tensor_empty(x->dtype, 1, &c)) != NULL;
  if (ok) per_channel(&j, backward_task);
  tensor_release((Tensor *)j.x);
  tensor_release((Tensor *)j.dy);
  tensor_release((Tensor *)j.mean);
  tensor_release((Tensor *)j.invstd);
  if (!ok) {
    tensor_release(j.dx);
    tensor_release(j.dw);
    tensor_release(j.db);
    if (dy->dtype != x->dtype || dy->numel != x->numel)
      tensor_set_error("batch norm backward: the gradient does not match the input");
    return false;
  }
  if (dx) *dx = j.dx;
  if (dweight) *dweight = j.dw;
  if (dbias) *dbias = j.db;
  return true;
}
