/* nn.c — forward values of the neural-network functions: softmax,
 * log_softmax (both subtract the row max first, so large logits never
 * overflow) and the losses. */
#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/parallel.h"
#include "tensor/tensor_internal.h"

#include <math.h>
#include <string.h>

#define require_float_input tensor_require_native_float

/* ---- float32 softmax as PyTorch 1.13's AVX2 kernels compute it ----
 * Bit-for-bit: which exp (SLEEF's for vector lanes, the C library's for
 * scalar tails), the order of the float sums, and whether it divides or
 * multiplies by the reciprocal all show in the last bit. */

/* ATen's vec::reduce_all(+) over n floats: 8 lanes, then a shuffle tree. */
static float reduce_all_sum(const float *d, int64_t n) {
  if (n < 8) {
    float acc = n > 0 ? d[0] : 0.0f;
    for (int64_t i = 1; i < n; i++) acc += d[i];
    return acc;
  }
  float v[8];
  memcpy(v, d, sizeof v);
  int64_t i = 8;
  for (; i + 8 <= n; i += 8)
    for (int l = 0; l < 8; l++) v[l] += d[i + l];
  for (int l = 0; i + l < n; l++) v[l] += d[i + l];
  float a[4], b[2];
  for (int l = 0; l < 4; l++) a[l] = v[l] + v[l + 4];
  for (int l = 0; l < 2; l++) b[l] = a[l] + a[l + 2];
  return b[0] + b[1];
}

/* softmax along the last dim of one contiguous row. */
static void softmax_row_last_f32(const float *x, float *y, int64_t n) {
  float mx = x[0];
  for (int64_t j = 1; j < n; j++)
    if (x[j] > mx || x[j] != x[j]) mx = x[j];
  for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx;
  tensor_expf_array(n, y, sizeof(float), y, sizeof(float));
  float r = 1.0f / reduce_all_sum(y, n);
  for (int64_t j = 0; j < n; j++) y[j] *= r;
}

/* The same for float64 (4 lanes, exp as ATen's vec::map computes it: SLEEF's
 * expd4_u10 with AVX2, the C library's without). */
static double reduce_all_sum_f64(const double *d, int64_t n) {
  if (n < 4) {
    double acc = n > 0 ? d[0] : 0.0;
    for (int64_t i = 1; i < n; i++) acc += d[i];
    return acc;
  }
  double v[4];
  memcpy(v, d, sizeof v);
  int64_t i = 4;
  for (; i + 4 <= n; i += 4)
    for (int l = 0; l < 4; l++) v[l] += d[i + l];
  for (int l = 0; i + l < n; l++) v[l] += d[i + l];
  return ((v[0] + v[1]) + v[2]) + v[3]; /* vec_reduce_all's lane-by-lane fold for double */
}

static void softmax_row_last_f64(const double *x, double *y, int64_t n) {
  double mx = x[0];
  for (int64_t j = 1; j < n; j++)
    if (x[j] > mx || x[j] != x[j]) mx = x[j];
  for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx;
  tensor_vecmath_f64(UN_EXP, n, y, sizeof(double), y, sizeof(double));
  double r = 1.0 / reduce_all_sum_f64(y, n);
  for (int64_t j = 0; j < n; j++) y[j] *= r;
}

/* exp of one double as ATen's vector loop (SLEEF) or its scalar tail computes it */
static double softmax_exp_f64(double x, bool lane) {
  double r;
  if (lane && tensor_vecmath_f64(UN_EXP, 1, &x, sizeof x, &r, sizeof r)) return r;
  return exp(x);
}

/* ATen's kernels for a dim that is not the last (_vec_logsoftmax, the
 * backward kernels) split the `inner` positions into chunks of about 128 KiB
 * of rows, a multiple of the vector width; in each chunk the positions past
 * the last full vector are its scalar tail. True if position `pos` is in a
 * vector lane. */
static bool aten_vector_lane(int64_t pos, int64_t inner, int64_t n, int64_t elem_size, int64_t width) {
  int64_t chunk = 128 * 1024 / (n > 0 ? n : 1) / elem_size;
  chunk = (chunk > width ? chunk : width) / width * width;
  int64_t start = pos / chunk * chunk, size = inner - start < chunk ? inner - start : chunk;
  return pos - start < size / width * width;
}

/* log_softmax the same way: the sum's log is SLEEF's logd4_u10 too (ATen
 * logs a chunk of row sums with vec::map), then x - max - log(sum) in that
 * order. */
static void log_softmax_row_last_f64(const double *x, double *y, int64_t n) {
  double mx = x[0];
  for (int64_t j = 1; j < n; j++)
    if (x[j] > mx || x[j] != x[j]) mx = x[j];
  for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx;
  tensor_vecmath_f64(UN_EXP, n, y, sizeof(double), y, sizeof(double));
  double sum = reduce_all_sum_f64(y, n), lse;
  tensor_vecmath_f64(UN_LOG, 1, &sum, sizeof sum, &lse, sizeof lse);
  for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx - lse;
}

/* The same for float64 (4 lanes). */
static void log_softmax_row_inner_f64(const double *x, double *y, int64_t n, int64_t inner, bool lane) {
  double mx = -INFINITY;
  for (int64_t j = 0; j < n; j++) {
    double v = x[j * inner];
    if (v > mx) mx = v;
  }
  double sum = 0.0, lse;
  for (int64_t j = 0; j < n; j++) sum += softmax_exp_f64(x[j * inner] - mx, lane);
  tensor_vecmath_f64(UN_LOG, 1, &sum, sizeof sum, &lse, sizeof lse);
  for (int64_t j = 0; j < n; j++) y[j * inner] = x[j * inner] - mx - lse;
}

/* softmax along a dim with `inner` > 1 positions after it, for one position:
 * vector lanes (SLEEF exp) or ATen's scalar tail (the C library's expf). */
static void softmax_row_inner_f32(const float *x, float *y, int64_t n, int64_t inner, bool lane) {
  float mx = x[0];
  for (int64_t j = 1; j < n; j++) {
    float v = x[j * inner];
    if (lane ? (v > mx || v != v) : v > mx) mx = v;
  }
  float sum = 0.0f;
  for (int64_t j = 0; j < n; j++) {
    float e = lane ? tensor_expf(x[j * inner] - mx) : expf(x[j * inner] - mx);
    y[j * inner] = e;
    sum += e;
  }
  for (int64_t j = 0; j < n; j++) y[j * inner] /= sum;
}

/* The same for float64 (4 lanes). */
static void softmax_row_inner_f64(const double *x, double *y, int64_t n, int64_t inner, bool lane) {
  double mx = x[0];
  for (int64_t j = 1; j < n; j++) {
    double v = x[j * inner];
    if (lane ? (v > mx || v != v) : v > mx) mx = v;
  }
  double sum = 0.0;
  for (int64_t j = 0; j < n; j++) {
    double e = softmax_exp_f64(x[j * inner] - mx, lane);
    y[j * inner] = e;
    sum += e;
  }
  for (int64_t j = 0; j < n; j++) y[j * inner] /= sum;
}

/* log_softmax along the last dim of one contiguous row. */
static void log_softmax_row_last_f32(const float *x, float *y, int64_t n) {
  float mx = x[0];
  for (int64_t j = 1; j < n; j++)
    if (x[j] > mx || x[j] != x[j]) mx = x[j];
  for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx;
  tensor_expf_array(n, y, sizeof(float), y, sizeof(float));
  float lse = tensor_logf(reduce_all_sum(y, n));
  for (int64_t j = 0; j < n; j++) y[j] = x[j] - mx - lse;
}

/* log_softmax along a dim that is not the last, for one of the `inner`
 * positions after it: ATen's _vec_logsoftmax keeps a running max (a NaN
 * never wins its comparison) and a running sum of exp, SLEEF's in vector
 * lanes and the C library's in a chunk's scalar tail (see aten_vector_lane),
 * then logs every position's sum with vec::map (SLEEF's log). */
static void log_softmax_row_inner_f32(const float *x, float *y, int64_t n, int64_t inner, bool lane) {
  float mx = -INFINITY;
  for (int64_t j = 0; j < n; j++) {
    float v = x[j * inner];
    if (v > mx) mx = v;
  }
  float sum = 0.0f;
  for (int64_t j = 0; j < n; j++) sum += lane ? tensor_expf(x[j * inner] - mx) : expf(x[j * inner] - mx);
  float lse = tensor_logf(sum);
  for (int64_t j = 0; j < n; j++) y[j * inner] = x[j * inner] - mx - lse;
}

typedef struct {
  const void *in;
  void *out;
  DType dt;
  bool want_log, last; /* last: the softmax dim is the last one (ATen's lastdim kernels) */
  int64_t n, inner, rows, rows_per_block;
} SoftmaxJob;

/* Rows [b * rows_per_block, ...) of the (outer, n, inner) view. */
static void softmax_block(int64_t b, void *arg) {
  const SoftmaxJob *job = arg;
  const void *in = job->in;
  void *out = job->out;
  int64_t n = job->n, inner = job->inner;
  int64_t first = b * job->rows_per_block;
  int64_t last = first + job->rows_per_block < job->rows ? first + job->rows_per_block : job->rows;
  for (int64_t r = first; r < last && !tensor_interrupt_requested; r++) {
    int64_t base = (r / inner) * n * inner + r % inner;
    if (job->dt == DT_FLOAT32) {
      if (job->want_log) {
        if (job->last) log_softmax_row_last_f32((const float *)in + base, (float *)out + base, n);
        else log_softmax_row_inner_f32((const float *)in + base, (float *)out + base, n, inner,
                                       aten_vector_lane(r % inner, inner, n, sizeof(float), 8));
      } else if (job->last) {
        softmax_row_last_f32((const float *)in + base, (float *)out + base, n);
      } else { /* ATen vectorises 8 positions at a time, the rest of each block is scalar */
        bool lane = r % inner < inner / 8 * 8;
        softmax_row_inner_f32((const float *)in + base, (float *)out + base, n, inner, lane);
      }
    } else {
      if (job->want_log) {
        if (job->last) log_softmax_row_last_f64((const double *)in + base, (double *)out + base, n);
        else log_softmax_row_inner_f64((const double *)in + base, (double *)out + base, n, inner,
                                       aten_vector_lane(r % inner, inner, n, sizeof(double), 4));
      } else if (job->last) {
        softmax_row_last_f64((const double *)in + base, (double *)out + base, n);
      } else {
        bool lane = r % inner < inner / 4 * 4;
        softmax_row_inner_f64((const double *)in + base, (double *)out + base, n, inner, lane);
      }
    }
  }
}

static Tensor *softmax_impl(const Tensor *a, int dim, bool want_log) {
  if (!require_float_input(a, want_log ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl"))
    return NULL;
  if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
  Tensor *c = tensor_contiguous(a);
  Tensor *o = c ? tensor_empty(a->dtype, a->ndim, a->shape) : NULL;
  if (!o) {
    tensor_release(c);
    return NULL;
  }
  if (a->numel == 0) { /* the row kernels read x[0]: a 0-size dim has no rows */
    tensor_release(c);
    return o;
  }
  SoftmaxJob job = {.in = tensor_data(c), .out = tensor_data(o), .dt = a->dtype, .want_log = want_log,
                    .last = dim == a->ndim - 1 || a->ndim == 0,
                    .n = a->ndim ? a->shape[dim] : 1, .inner = 1, .rows = 1};
  for (int d = 0; d < dim; d++) job.rows *= a->shape[d];
  for (int d = dim + 1; d < a->ndim; d++) job.inner *= a->shape[d];
  job.rows *= job.inner;
  job.rows_per_block = job.n >= ITER_CHUNK ? 1 : ITER_CHUNK / (job.n > 0 ? job.n : 1);
  int64_t blocks = (job.rows + job.rows_per_block - 1) / job.rows_per_block;
  if (a->numel >= ITER_PARALLEL_MIN) tensor_parallel_for(blocks, softmax_block, &job);
  else
    for (int64_t b = 0; b < blocks; b++) softmax_block(b, &job);
  tensor_release(c);
  if (tensor_check_interrupt()) {
    tensor_release(o);
    return NULL;
  }
  return o;
}

Tensor *tensor_softmax(const Tensor *a, int dim) { return softmax_impl(a, dim, false); }
Tensor *tensor_log_softmax(const Tensor *a, int dim) { return softmax_impl(a, dim, true); }

/* ---- backward of softmax and log_softmax (float32 as PyTorch's kernels) ----
 * grad_in = y * (g - sum(g * y)) for softmax, g - exp(y) * sum(g) for
 * log_softmax, sums along dim. ATen's AVX2 code is compiled with FMA
 * contraction: the running sums are fused multiply-adds and log_softmax's
 * result one fused negative multiply-add; positions outside ATen's 8-wide
 * vector groups (inner dims) take the C library's expf, as its scalar tail. */

/* ATen's map2_reduce_all(x * y, +): the first 8 products plain, then fused. */
static float reduce_all_dot(const float *g, const float *y, int64_t n) {
  if (n < 8) {
    float acc = n > 0 ? g[0] * y[0] : 0.0f;
    for (int64_t i = 1; i < n; i++) acc += g[i] * y[i];
    return acc;
  }
  float v[8];
  for (int l = 0; l < 8; l++) v[l] = g[l] * y[l];
  int64_t i = 8;
  for (; i + 8 <= n; i += 8)
    for (int l = 0; l < 8; l++) v[l] = fmaf(g[i + l], y[i + l], v[l]);
  for (int l = 0; i + l < n; l++) v[l] = fmaf(g[i + l], y[i + l], v[l]);
  float a[4], b[2];
  for (int l = 0; l < 4; l++) a[l] = v[l] + v[l + 4];
  for (int l = 0; l < 2; l++) b[l] = a[l] + a[l + 2];
  return b[0] + b[1];
}

static void softmax_backward_row_f32(const float *g, const float *y, float *o, int64_t n,
                                     int64_t inner, bool log, bool last, bool lane) {
  float sum;
  if (last) {
    sum = log ? reduce_all_sum(g, n) : reduce_all_dot(g, y, n);
  } else {
    sum = 0.0f;
    for (int64_t j = 0; j < n; j++)
      sum = log ? sum + g[j * inner] : fmaf(g[j * inner], y[j * inner], sum);
  }
  for (int64_t j = 0; j < n; j++) {
    float gj = g[j * inner], yj = y[j * inner];
    o[j * inner] = log ? fmaf(-(lane ? tensor_expf(yj) : expf(yj)), sum, gj) : (gj - sum) * yj;
  }
}

/* The same for float64: 4 lanes, folded lane by lane as vec_reduce_all
 * folds doubles. */
static double reduce_all_dot_f64(const double *g, const double *y, int64_t n) {
  if (n < 4) {
    double acc = n > 0 ? g[0] * y[0] : 0.0;
    for (int64_t i = 1; i < n; i++) acc += g[i] * y[i];
    return acc;
  }
  double v[4];
  for (int l = 0; l < 4; l++) v[l] = g[l] * y[l];
  int64_t i = 4;
  for (; i + 4 <= n; i += 4)
    for (int l = 0; l < 4; l++) v[l] = fma(g[i + l], y[i + l], v[l]);
  for (int l = 0; i + l < n; l++) v[l] = fma(g[i + l], y[i + l], v[l]);
  return ((v[0] + v[1]) + v[2]) + v[3];
}

static void softmax_backward_row_f64(const double *g, const double *y, double *o, int64_t n,
                                     int64_t inner, bool log, bool last, bool lane) {
  double sum;
  if (last) {
    sum = log ? reduce_all_sum_f64(g, n) : reduce_all_dot_f64(g, y, n);
  } else {
    sum = 0.0;
    for (int64_t j = 0; j < n; j++)
      sum = log ? sum + g[j * inner] : fma(g[j * inner], y[j * inner], sum);
  }
  for (int64_t j = 0; j < n; j++) {
    double gj = g[j * inner], yj = y[j * inner];
    o[j * inner] = log ? fma(-softmax_exp_f64(yj, lane), sum, gj) : (gj - sum) * yj;
  }
}

/* g and y of one shape and float dtype; y is the forward's output. */
Tensor *tensor_softmax_backward(const Tensor *g, const Tensor *y, int dim, bool log) {
  if (!tensor_wrap_dim(&dim, y->ndim)) return NULL;
  if (g->dtype != y->dtype || g->ndim != y->ndim ||
      memcmp(g->shape, y->shape, (size_t)g->ndim * sizeof(int64_t)) != 0) {
    tensor_set_error("softmax backward: gradient and output differ in shape or dtype");
    return NULL;
  }
  Tensor *cg = tensor_contiguous(g), *cy = cg ? tensor_contiguous(y) : NULL;
  Tensor *o = cy ? tensor_empty(y->dtype, y->ndim, y->shape) : NULL;
  if (o) {
    int64_t n = y->ndim ? y->shape[dim] : 1, inner = 1, rows = 1;
    for (int d = 0; d < dim; d++) rows *= y->shape[d];
    for (int d = dim + 1; d < y->ndim; d++) inner *= y->shape[d];
    rows *= inner;
    bool last = dim == y->ndim - 1 || y->ndim == 0; /* ATen's lastdim kernels */
    for (int64_t r = 0; r < rows; r++) {
      int64_t base = (r / inner) * n * inner + r % inner;
      if (y->dtype == DT_FLOAT32)
        softmax_backward_row_f32((const float *)tensor_data(cg) + base,
                                 (const float *)tensor_data(cy) + base, (float *)tensor_data(o) + base,
                                 n, inner, log, last,
                                 last || aten_vector_lane(r % inner, inner, n, sizeof(float), 8));
      else
        softmax_backward_row_f64((const double *)tensor_data(cg) + base,
                                 (const double *)tensor_data(cy) + base,
                                 (double *)tensor_data(o) + base, n, inner, log, last,
                                 last || aten_vector_lane(r % inner, inner, n, sizeof(double), 4));
    }
  }
  tensor_release(cg);
  tensor_release(cy);
  return o;
}

/* Errors unless a backward's gradient g and its tensor t have one shape and
 * one float dtype. */
static bool backward_operands(const Tensor *g, const Tensor *t, const char *op, const char *what) {
  if (g->dtype != t->dtype || !dtype_is_native(t->dtype) || !dtype_is_float(t->dtype) || g->ndim != t->ndim ||
      memcmp(g->shape, t->shape, (size_t)g->ndim * sizeof(int64_t)) != 0) {
    tensor_set_error("%s backward: gradient and %s differ in shape or dtype", op, what);
    return false;
  }
  return true;
}

/* tanh's backward g * (1 - y*y) as ATen's kernel computes it: compiled with
 * FMA contraction, 1 - y*y is one fused negative multiply-add. Same shape
 * and float dtype for g and y. */
Tensor *tensor_tanh_backward(const Tensor *g, const Tensor *y) {
  if (g->dtype == y->dtype && dtype_is_float(y->dtype) && !dtype_is_native(y->dtype))
    return tensor_widened2(tensor_tanh_backward, g, y);
  if (!backward_operands(g, y, "tanh", "output")) return NULL;
  Tensor *cg = tensor_contiguous(g), *cy = cg ? tensor_contiguous(y) : NULL;
  Tensor *o = cy ? tensor_empty(y->dtype, y->ndim, y->shape) : NULL;
  if (o && y->dtype == DT_FLOAT32) {
    const float *gp = tensor_data(cg), *yp = tensor_data(cy);
    float *op = tensor_data(o);
    for (int64_t i = 0; i < o->numel; i++) op[i] = gp[i] * fmaf(-yp[i], yp[i], 1.0f);
  } else if (o) {
    const double *gp = tensor_data(cg), *yp = tensor_data(cy);
    double *op = tensor_data(o);
    for (int64_t i = 0; i < o->numel; i++) op[i] = gp[i] * fma(-yp[i], yp[i], 1.0);
  }
  tensor_release(cg);
  tensor_release(cy);
  return o;
}

/* TensorIterator's order of g's and x's dims, innermost first
 * (reorder_dimensions: an insertion sort by the first operand whose strides
 * differ and are both nonzero; equal strides put the smaller size inside). */
static void gelu_backward_order(const Tensor *g, const Tensor *x, int *perm) {
  int nd = x->ndim;
  for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
  for (int i = 1; i < nd; i++) {
    for (int d0 = i - 1, d1 = i; d0 >= 0; d0--) {
      int cmp = 0;
      for (int k = 0; k < 2 && cmp == 0; k++) {
        const Tensor *t = k == 0 ? g : x;
        int64_t s0 = t->stride[perm[d0]], s1 = t->stride[perm[d1]];
        if (s0 == 0 || s1 == 0) continue;
        if (s0 != s1) cmp = s0 < s1 ? -1 : 1;
        else if (x->shape[perm[d0]] > x->shape[perm[d1]]) cmp = 1;
      }
      if (cmp < 0) break;
      if (cmp > 0) {
        int t = perm[d0];
        perm[d0] = perm[d1];
        perm[d1] = t;
        d1 = d0;
      }
    }
  }
}

/* ATen's GeluBackward kernel: the output laid out in the iteration's order,
 * its runs (dims merged where g and x both allow) one call each */
static bool gelu_backward_aten(const Tensor *g, const Tensor *x, Tensor *o) {
  int nd = x->ndim, perm[TENSOR_MAX_DIMS], m = 0;
  gelu_backward_order(g, x, perm);
  int64_t bstride[TENSOR_MAX_DIMS], bshape[TENSOR_MAX_DIMS], st = 1;
  int64_t shape[TENSOR_MAX_DIMS], sg[TENSOR_MAX_DIMS], sx[TENSOR_MAX_DIMS];
  for (int k = 0; k < nd; k++) {
    int d = perm[k];
    bstride[d] = st;
    bshape[nd - 1 - k] = x->shape[d];
    st *= x->shape[d];
    if (x->shape[d] == 1) continue;
    if (m > 0 && sg[m - 1] * shape[m - 1] == g->stride[d] &&
        sx[m - 1] * shape[m - 1] == x->stride[d]) {
      shape[m - 1] *= x->shape[d];
      continue;
    }
    shape[m] = x->shape[d], sg[m] = g->stride[d], sx[m] = x->stride[d];
    m++;
  }
  if (m == 0) shape[m] = 1, sg[m] = sx[m] = 0, m++;
  Tensor *buf = tensor_empty(x->dtype, nd, bshape);
  if (!buf) return false;
  int64_t len = shape[0], rows = o->numel / len;
  for (int64_t r = 0; r < rows; r++) {
    int64_t og = 0, ox = 0, rem = r;
    for (int k = 1; k < m; k++) {
      int64_t c = rem % shape[k];
      rem /= shape[k];
      og += c * sg[k];
      ox += c * sx[k];
    }
    if (x->dtype == DT_FLOAT32)
      tensor_gelu_backward_row_f32(len, (const float *)tensor_data(g) + og, sg[0],
                                   (const float *)tensor_data(x) + ox, sx[0],
                                   (float *)tensor_data(buf) + r * len);
    else
      tensor_gelu_backward_row_f64(len, (const double *)tensor_data(g) + og, sg[0],
                                   (const double *)tensor_data(x) + ox, sx[0],
                                   (double *)tensor_data(buf) + r * len);
  }
  Tensor *view = tensor_view_of(buf, nd, x->shape, bstride, 0);
  bool ok = view && tensor_copy_raw(o, view);
  tensor_release(view);
  tensor_release(buf);
  return ok;
}

/* PyTorch gives a contiguous float32 x of more than one element to oneDNN,
 * per element, so the gradient's layout does not matter (we make it
 * contiguous unless it is one broadcast value; PyTorch 1.13 returns zeros
 * and garbage for a permuted one), anything else to ATen's kernel, whose
 * vector and scalar formulas round differently: where each applies depends
 * on how the iteration cuts the elements into runs. */
Tensor *tensor_gelu_backward(const Tensor *g, const Tensor *x) {
  if (g->dtype == x->dtype && dtype_is_float(x->dtype) && !dtype_is_native(x->dtype))
    return tensor_widened2(tensor_gelu_backward, g, x);
  if (!backward_operands(g, x, "gelu", "input")) return NULL;
  Tensor *o = tensor_empty(x->dtype, x->ndim, x->shape);
  if (!o || o->numel == 0) return o;
  bool g_one = true;
  for (int d = 0; d < g->ndim; d++) g_one = g_one && (g->stride[d] == 0 || g->shape[d] == 1);
  if (x->dtype == DT_FLOAT32 && x->numel > 1 && tensor_is_contiguous(x)) {
    Tensor *cg = g_one ? tensor_retain((Tensor *)g) : tensor_contiguous(g);
    bool ok = cg && tensor_gelu_backward_dense_f32(o->numel, tensor_data(cg), g_one ? 0 : 1,
                                                   tensor_data(x), tensor_data(o));
    tensor_release(cg);
    if (ok) return o;
    if (!cg) {
      tensor_release(o);
      return NULL;
    }
  }
  if (!gelu_backward_aten(g, x, o)) {
    tensor_release(o);
    return NULL;
  }
  return o;
}

/* ---- losses ---- */

/* Applies the reduction to per-element losses (takes ownership of `loss`). */
static Tensor *reduce_loss(Tensor *loss, Reduction r) {
  if (!loss || r == RED_NONE) return loss;
  Tensor *out = r == RED_MEAN ? tensor_mean(loss, NULL, 0, false) : tensor_sum(loss, NULL, 0, false);
  tensor_release(loss);
  return out;
}

/* mse_loss computes in the promoted dtype, which must be floating. */
static bool loss_dtypes(const Tensor *a, const Tensor *b, const char *what) {
  DType t = tensor_result_type(a, b);
  if (!dtype_is_float(t)) {
    tensor_set_error("\"%s\" not implemented for '%s'", what, tensor_dtype_torch_name(t));
    return false;
  }
  return true;
}

Tensor *tensor_mse_loss(const Tensor *a, const Tensor *b, Reduction r) {
  if (!loss_dtypes(a, b, "mse_cpu")) return NULL;
  Tensor *d = tensor_binary(BIN_SUB, a, b);
  Tensor *sq = d ? tensor_binary(BIN_MUL, d, d) : NULL;
  tensor_release(d);
  return reduce_loss(sq, r);
}

Tensor *tensor_l1_loss(const Tensor *a, const Tensor *b, Reduction r) {
  /* PyTorch's l1_loss is (a - b).abs() reduced: their errors, int64 for "none" */
  Tensor *d = tensor_binary(BIN_SUB, a, b);
  Tensor *ab = d ? tensor_unary(UN_ABS, d) : NULL;
  tensor_release(d);
  return reduce_loss(ab, r);
}

/* smooth_l1_loss and huber_loss: PyTorch's elementwise kernels, computed in
 * the operands' dtype (float32 in float, as its vectorised loop does) over
 * their broadcast shape. huber is smooth_l1 scaled by delta, but PyTorch
 * computes each with its own formula, so both are spelled out. */
typedef enum { ROBUST_SMOOTH_L1, ROBUST_HUBER } RobustLoss;

static double robust_term(RobustLoss kind, double z, double k) {
  if (kind == ROBUST_SMOOTH_L1) return z < k ? 0.5 * z * z / k : z - 0.5 * k;
  return z < k ? 0.5 * z * z : k * (z - 0.5 * k);
}
static float robust_term_f(RobustLoss kind, float z, float k) {
  if (kind == ROBUST_SMOOTH_L1) return z < k ? 0.5f * z * z / k : z - 0.5f * k;
  return z < k ? 0.5f * z * z : k * (z - 0.5f * k);
}

static Tensor *robust_loss(RobustLoss kind, const Tensor *a, const Tensor *b, double k,
                           Reduction r, const char *what) {
  if (!loss_dtypes(a, b, what)) return NULL;
  DType t = tensor_result_type(a, b);
  if (!dtype_is_native(t)) { /* float16, bfloat16: in float32, rounded back */
    Tensor *wa = tensor_to_dtype(a, dtype_compute(t)), *wb = wa ? tensor_to_dtype(b, wa->dtype) : NULL;
    Tensor *out = wb ? robust_loss(kind, wa, wb, k, r, what) : NULL;
    tensor_release(wa);
    tensor_release(wb);
    return tensor_narrow_to(out, t);
  }
  Tensor *d = tensor_binary(BIN_SUB, a, b);
  if (!d) return NULL;
  Tensor *loss = tensor_empty(d->dtype, d->ndim, d->shape);
  Tensor *dc = loss ? tensor_contiguous(d) : NULL;
  tensor_release(d);
  if (!dc) {
    tensor_release(loss);
    return NULL;
  }
  if (dc->dtype == DT_FLOAT32) {
    const float *x = tensor_data(dc);
    float *y = tensor_data(loss);
    for (int64_t i = 0; i < dc->numel; i++)
      y[i] = robust_term_f(kind, fabsf(x[i]), (float)k);
  } else {
    const double *x = tensor_data(dc);
    double *y = tensor_data(loss);
    for (int64_t i = 0; i < dc->numel; i++)
      y[i] = robust_term(kind, fabs(x[i]), k);
  }
  tensor_release(dc);
  return reduce_loss(loss, r);
}

Tensor *tensor_smooth_l1_loss(const Tensor *a, const Tensor *b, double beta, Reduction r) {
  return robust_loss(ROBUST_SMOOTH_L1, a, b, beta, r, "smooth_l1_cpu");
}
Tensor *tensor_huber_loss(const Tensor *a, const Tensor *b, double delta, Reduction r) {
  return robust_loss(ROBUST_HUBER, a, b, delta, r, "huber_cpu");
}

bool tensor_check_target_size(const Tensor *input, const Tensor *target) {
  if (input->ndim == target->ndim &&
      !memcmp(input->shape, target->shape, (size_t)input->ndim * sizeof(int64_t)))
    return true;
  char s1[256], s2[256];
  tensor_format_shape(s1, sizeof s1, target->ndim, target->shape);
  tensor_format_shape(s2, sizeof s2, input->ndim, input->shape);
  tensor_set_error("Target size (torch.Size(%s)) must be the same as input size (torch.Size(%s))",
                   s1, s2);
  return false;
}

/* The shapes nll_loss accepts, as ATen checks them: a (C) input with a 0-d
 * target, (N, C) with (N), and nll_loss2d's (N, C, H, W) with (N, H, W). */
static bool nll_check(const Tensor *logp, const Tensor *target, const Tensor *weight) {
  if (!require_float_input(logp, "nll_loss_out_frame")) return false;
  if (target->dtype != DT_INT64) {
    tensor_set_error("expected scalar type Long but found %s", tensor_dtype_torch_name(target->dtype));
    return false;
  }
  if (weight && weight->dtype != logp->dtype) {
    tensor_set_error("expected scalar type %s but found %s", tensor_dtype_torch_name(logp->dtype),
                     tensor_dtype_torch_name(weight->dtype));
    return false;
  }
  char s1[256], s2[256];
  if (logp->ndim == 4) {
    if (target->ndim != 3) {
      tensor_set_error("only batches of spatial targets supported (3D tensors) but got targets "
                       "of dimension: %d", target->ndim);
      return false;
    }
    if (weight && weight->numel != logp->shape[1]) {
      tensor_set_error("weight tensor should be defined either for all or no classes");
      return false;
    }
    if (logp->shape[0] != target->shape[0] || logp->shape[2] != target->shape[1] ||
        logp->shape[3] != target->shape[2]) {
      tensor_format_shape(s1, sizeof s1, logp->ndim, logp->shape);
      tensor_format_shape(s2, sizeof s2, target->ndim, target->shape);
      tensor_set_error("size mismatch (got input: %s , target: %s", s1, s2);
      return false;
    }
    return true;
  }
  if (logp->ndim < 1 || logp->ndim > 2) {
    tensor_set_error("input tensor should be 1D or 2D");
    return false;
  }
  if (target->ndim > 1) {
    tensor_set_error("0D or 1D target tensor expected, multi-target not supported");
    return false;
  }
  int64_t batch = logp->ndim == 2 ? logp->shape[0] : 1;
  int64_t tbatch = target->ndim == 1 ? target->shape[0] : 1;
  if ((logp->ndim == 2) != (target->ndim == 1) || batch != tbatch) {
    tensor_set_error("Expected input batch_size (%lld) to match target batch_size (%lld).",
                     (long long)batch, (long long)tbatch);
    return false;
  }
  int64_t classes = logp->shape[logp->ndim - 1];
  if (weight && (weight->ndim != 1 || weight->numel != classes)) {
    tensor_format_shape(s1, sizeof s1, weight->ndim, weight->shape);
    tensor_set_error("weight tensor should be defined either for all %lld classes or no classes "
                     "but got weight tensor of shape: %s", (long long)classes, s1);
    return false;
  }
  return true;
}

/* The input as ATen indexes it: n rows of `classes` planes of `map`
 * elements (map = H * W for a 4-D input, else 1); target position i is
 * row i / map, element i % map. */
typedef struct {
  int64_t classes, map;
} NllLayout;

static NllLayout nll_layout(const Tensor *logp) {
  NllLayout l = {logp->shape[logp->ndim == 1 ? 0 : 1], 1};
  if (logp->ndim == 4) l.map = logp->shape[2] * logp->shape[3];
  return l;
}

static int64_t nll_input_index(NllLayout l, int64_t i, int64_t t) {
  return (i / l.map) * l.classes * l.map + t * l.map + i % l.map;
}

/* The targets' bounds, as ATen checks them while it runs (in order). */
static bool nll_check_targets(const Tensor *target, int64_t classes, int64_t ignore_index) {
  for (int64_t i = 0; i < target->numel; i++) {
    int64_t t = tensor_double_to_i64(tensor_get_flat(target, i));
    if (t != ignore_index && (t < 0 || t >= classes)) {
      tensor_set_index_error("Target %lld is out of bounds.", (long long)t);
      return false;
    }
  }
  return true;
}

/* The reduced loss and total weight as ATen's nll_loss_out_frame (and
 * nll_loss2d's) run them, in the input's dtype: an 8-level cascade of
 * partial sums over the target positions (level j flushed into j + 1 when
 * the position's bits j*p .. j*p+p-1 are all zero, p = max(4, ceil(log2
 * count) / 8)), the levels added at the end; the total weight is the count
 * of targets kept when there are no class weights. */
#define NLL_LEVELS 8
#define NLL_CASCADE(NAME, T)                                                                 \
  static void NAME(const Tensor *logp, const Tensor *target, const Tensor *weight,          \
                   int64_t ignore_index, NllLayout l, double *loss_out, double *weight_out) { \
    int64_t count = target->numel;                                                           \
    int64_t ceil_log2 = count <= 1 ? 0 : 64 - __builtin_clzll((uint64_t)count - 1);          \
    int64_t level_power = ceil_log2 / NLL_LEVELS > 4 ? ceil_log2 / NLL_LEVELS : 4;           \
    int64_t level_mask = ((int64_t)1 << level_power) - 1, ignored = 0;                       \
    T loss[NLL_LEVELS] = {0}, wsum[NLL_LEVELS] = {0};                                        \
    for (int64_t i = 0; i < count; i++) {                                                    \
      int64_t t = tensor_double_to_i64(tensor_get_flat(target, i));                          \
      if (t == ignore_index) {                                                               \
        ignored++;                                                                           \
        continue;                                                                            \
      }                                                                                      \
      T x = (T)tensor_get_flat(logp, nll_input_index(l, i, t));                              \
      if (weight) {                                                                          \
        T w = (T)tensor_get_flat(weight, t);                                                 \
        loss[0] -= x * w;                                                                    \
        wsum[0] += w;                                                                        \
      } else {                                                                               \
        loss[0] -= x;                                                                        \
      }                                                                                      \
      for (int j = 0; j + 1 < NLL_LEVELS; j++) {                                             \
        if ((i & (level_mask << (j * level_power))) != 0) break;                             \
        wsum[j + 1] += wsum[j];                                                              \
        loss[j + 1] += loss[j];                                                              \
        wsum[j] = 0;                                                                         \
        loss[j] = 0;                                                                         \
      }                                                                                      \
    }                                                                                        \
    T total = 0, total_weight = weight ? 0 : (T)(count - ignored);                           \
    for (int j = 0; j < NLL_LEVELS; j++) total += loss[j];                                   \
    for (int j = 0; weight && j < NLL_LEVELS; j++) total_weight += wsum[j];                  \
    *loss_out = (double)total;                                                               \
    *weight_out = (double)total_weight;                                                      \
  }
NLL_CASCADE(nll_cascade_f32, float)
NLL_CASCADE(nll_cascade_f64, double)

/* Per target position: -input[target] * weight[target], 0 where ignored. */
static Tensor *nll_unreduced(const Tensor *logp, const Tensor *target, const Tensor *weight,
                             int64_t ignore_index, NllLayout l) {
  Tensor *loss = tensor_zeros(logp->dtype, target->ndim, target->shape);
  if (!loss) return NULL;
  for (int64_t i = 0; i < target->numel; i++) {
    int64_t t = tensor_double_to_i64(tensor_get_flat(target, i));
    if (t == ignore_index) continue;
    double x = tensor_get_flat(logp, nll_input_index(l, i, t));
    double w = weight ? tensor_get_flat(weight, t) : 1;
    /* a float32 product rounds to float32, as ATen's */
    tensor_set_flat(loss, i, logp->dtype == DT_FLOAT32 ? (double)(-(float)x * (float)w) : -x * w);
  }
  return loss;
}

Tensor *tensor_nll_loss_weighted(const Tensor *logp, const Tensor *target, const Tensor *weight,
                                 int64_t ignore_index, Reduction r, double *total_weight) {
  *total_weight = 0;
  if (!nll_check(logp, target, weight)) return NULL;
  NllLayout l = nll_layout(logp);
  if (!nll_check_targets(target, l.classes, ignore_index)) return NULL;
  /* a (C) input has one target and, as in ATen, a 0-d loss even unreduced */
  if (r == RED_NONE && logp->ndim != 1) return nll_unreduced(logp, target, weight, ignore_index, l);
  if (target->numel == 0) return tensor_scalar(logp->dtype, r == RED_MEAN ? NAN : 0);
  double loss, tw;
  if (logp->dtype == DT_FLOAT32) {
    nll_cascade_f32(logp, target, weight, ignore_index, l, &loss, &tw);
    if (r == RED_MEAN) loss = (double)((float)loss / (float)tw);
  } else {
    nll_cascade_f64(logp, target, weight, ignore_index, l, &loss, &tw);
    if (r == RED_MEAN) loss = loss / tw;
  }
  *total_weight = tw;
  return tensor_scalar(logp->dtype, loss);
}

Tensor *tensor_nll_loss(const Tensor *logp, const Tensor *target, Reduction r) {
  double total_weight;
  return tensor_nll_loss_weighted(logp, target, NULL, NLL_DEFAULT_IGNORE_INDEX, r, &total_weight);
}

/* Class-probability targets: -sum(target * log_softmax) over the class dim. */
static Tensor *soft_cross_entropy(const Tensor *logp, const Tensor *target, Reduction r) {
  if (logp->ndim != target->ndim ||
      memcmp(logp->shape, target->shape, (size_t)logp->ndim * sizeof(int64_t)) != 0) {
    tensor_set_error("Expected target size to match input size for probability targets");
    return NULL;
  }
  int cdim = logp->ndim == 1 ? 0 : 1;
  Tensor *prod = tensor_binary(BIN_MUL, logp, target);
  Tensor *s = prod ? tensor_sum(prod, &cdim, 1, false) : NULL;
  Tensor *neg = s ? tensor_unary(UN_NEG, s) : NULL;
  tensor_release(prod);
  tensor_release(s);
  return reduce_loss(neg, r);
}

Tensor *tensor_cross_entropy(const Tensor *logits, const Tensor *target, Reduction r) {
  if (logits->ndim < 1 || logits->ndim > 2) {
    tensor_set_error("cross_entropy: input tensor should be 1D or 2D, got %dD", logits->ndim);
    return NULL;
  }
  Tensor *logp = tensor_log_softmax(logits, logits->ndim == 1 ? 0 : 1);
  if (!logp) return NULL;
  Tensor *out = dtype_is_float(target->dtype) ? soft_cross_entropy(logp, target, r)
                                              : tensor_nll_loss(logp, target, r);
  tensor_release(logp);
  return out;
}

/* PyTorch clamps each log term at -100 so p = 0 or 1 gives a finite loss. */
Tensor *tensor_binary_cross_entropy(const Tensor *p, const Tensor *target, Reduction r) {
  if (p->ndim != target->ndim ||
      memcmp(p->shape, target->shape, (size_t)p->ndim * sizeof(int64_t)) != 0) {
    char s1[256], s2[256];
    tensor_format_shape(s1, sizeof s1, target->ndim, target->shape);
    tensor_format_shape(s2, sizeof s2, p->ndim, p->shape);
    tensor_set_error("Using a target size (torch.Size(%s)) that is different to the input size "
                     "(torch.Size(%s)) is deprecated. Please ensure they have the same size.",
                     s1, s2);
    return NULL;
  }
  if (target->dtype != p->dtype) { /* no promotion in PyTorch's kernel */
    tensor_set_error("Found dtype %s but expected %s", tensor_dtype_torch_name(target->dtype),
                     tensor_dtype_torch_name(p->dtype));
    return NULL;
  }
  if (!loss_dtypes(p, target, "binary_cross_entropy")) return NULL;
  Tensor *loss = tensor_empty(p->dtype, p->ndim, p->shape);
  if (!loss) return NULL;
  for (int64_t i = 0; i < p->numel; i++) {
    if ((i & 0xFFFF) == 0 && tensor_check_interrupt()) {
      tensor_release(loss);
      return NULL;
    }
    double x = tensor_get_flat(p, i), t = tensor_get_flat(target, i);
    if (!(x >= 0 && x <= 1)) {
      tensor_set_error("all elements of input should be between 0 and 1");
      tensor_release(loss);
      return NULL;
    }
    /* ATen's scalar kernel: (t - 1) max(log(1 - x), -100) - t max(log(x), -100),
     * float32 in float32 with the C library's logf */
    if (p->dtype == DT_FLOAT32) {
      float xf = (float)x, tf = (float)t;
      float l1x = fmaxf(logf(1.0f - xf), -100.0f), lx = fmaxf(logf(xf), -100.0f);
      tensor_set_flat(loss, i, (double)((tf - 1.0f) * l1x - tf * lx));
    } else {
      tensor_set_flat(loss, i, (t - 1) * fmax(log(1 - x), -100.0) - t * fmax(log(x), -100.0));
    }
  }
  return reduce_loss(loss, r);
}
