/* conv.c — sliding windows over images: im2col/col2im, convolution, pooling.
 *
 * Everything works on planes of [H, W] (a 1-D signal is a plane of height 1,
 * which the callers arrange with a kernel of height 1). Convolution is
 * im2col followed by one matrix product per sample and group (BLAS), as
 * PyTorch's CPU fallback (slow_conv2d) does; its backward is written in
 * autograd/ with im2col, col2im and matmul, so it is differentiable again.
 */
#include "tensor/blas.h"
#include "tensor/iter.h"
#include "tensor/parallel.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* "[2, 3]" of t, returned by value: shape_str(t).s lives until the end of
 * the full expression, so a message may hold several. */
typedef struct {
  char s[96];
} ShapeStr;

static ShapeStr shape_str(const Tensor *t) {
  ShapeStr b;
  tensor_format_shape(b.s, sizeof b.s, t->ndim, t->shape);
  return b;
}

/* (in + pads - dil (k - 1) - 1) / stride + 1 without overflowing (pads: both
 * sides' padding); -1 when the sizes are too large to index and 0 (or less)
 * when the window does not fit. ceil_mode rounds up as PyTorch's pooling
 * does, keeping the last window starting inside the input or its left
 * padding (pad). */
int64_t tensor_window_out(int64_t in, int64_t k, int64_t stride, int64_t pad, int64_t pads,
                          int64_t dil, bool ceil_mode) {
  int64_t span, padded;
  if (__builtin_mul_overflow(dil, k - 1, &span) || __builtin_add_overflow(span, 1, &span) ||
      __builtin_add_overflow(pads, in, &padded))
    return -1;
  int64_t room = padded - span;
  if (room < 0) return 0;
  int64_t out = (ceil_mode ? (room + stride - 1) / stride : room / stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) out--;
  return out;
}

bool tensor_window_sizes(const TensorWindow *w, int64_t h, int64_t wd, int64_t *oh, int64_t *ow) {
  int64_t pads[2];
  for (int d = 0; d < 2; d++)
    if (w->padding[d] < 0 || w->padding_end[d] < 0 || w->stride[d] <= 0 || w->dilation[d] <= 0 ||
        __builtin_add_overflow(w->padding[d], w->padding_end[d], &pads[d])) {
      tensor_set_error("the window's sizes are too large or not positive");
      return false;
    }
  *oh = tensor_window_out(h, w->kernel[0], w->stride[0], w->padding[0], pads[0], w->dilation[0],
                          w->ceil_mode);
  *ow = tensor_window_out(wd, w->kernel[1], w->stride[1], w->padding[1], pads[1], w->dilation[1],
                          w->ceil_mode);
  if (*oh < 0 || *ow < 0) {
    tensor_set_error("the window's sizes are too large");
    return false;
  }
  int64_t l;
  if (__builtin_mul_overflow(*oh, *ow, &l) || l > ((int64_t)1 << 40)) {
    tensor_set_error("the window's output is too large");
    return false;
  }
  return true;
}

/* ---- im2col / col2im: x [P, H, W] planes <-> cols [P, kh kw, oh ow] ---- */

/* The outputs ox whose input column ox * stride + x0 falls inside [0, wd):
 * [*lo, *hi). */
static void window_inside(int64_t x0, int64_t stride, int64_t wd, int64_t ow, int64_t *lo,
                          int64_t *hi) {
  *lo = x0 >= 0 ? 0 : (-x0 + stride - 1) / stride;
  *hi = wd - x0 <= 0 ? 0 : (wd - x0 + stride - 1) / stride;
  if (*hi > ow) *hi = ow;
  if (*lo > *hi) *lo = *hi;
}

/* The rows are short (an image's width), so they are plain loops, and
 * copies of 8 elements at a time that the compiler inlines as vector moves
 * (the last one overlapping the one before), rather than calls of memcpy
 * and memset. col2im adds
 * each plane's windows in the same order as ever, whatever the loops' form. */
#define IM2COL(T)                                                                            \
  static void im2col_##T(const T *x, T *cols, int64_t planes, int64_t h, int64_t wd,        \
                         const TensorWindow *w, int64_t oh, int64_t ow) {                   \
    int64_t kh = w->kernel[0], kw = w->kernel[1], l = oh * ow, sx = w->stride[1];            \
    for (int64_t p = 0; p < planes; p++) {                                                   \
      const T *plane = x + p * h * wd;                                                       \
      for (int64_t ki = 0; ki < kh; ki++)                                                    \
        for (int64_t kj = 0; kj < kw; kj++) {                                                \
          T *row = cols + ((p * kh + ki) * kw + kj) * l;                                     \
          int64_t x0 = kj * w->dilation[1] - w->padding[1], lo, hi;                          \
          window_inside(x0, sx, wd, ow, &lo, &hi);                                           \
          for (int64_t oy = 0; oy < oh; oy++) {                                              \
            int64_t y = oy * w->stride[0] - w->padding[0] + ki * w->dilation[0];             \
            T *dst = row + oy * ow;                                                          \
            bool inside = y >= 0 && y < h;                                                   \
            const T *src = plane + (inside ? y : 0) * wd;                                    \
            int64_t a = inside ? lo : ow, b = inside ? hi : ow;                              \
            int64_t ox = 0;                                                                  \
            for (; ox < a; ox++) dst[ox] = 0;                                                \
            if (sx == 1 && b - ox >= 8) { /* the last 8 may overlap the ones before */       \
              for (; ox + 8 < b; ox += 8) memcpy(dst + ox, src + ox + x0, 8 * sizeof(T));    \
              memcpy(dst + b - 8, src + b - 8 + x0, 8 * sizeof(T));                          \
              ox = b;                                                                        \
            }                                                                                \
            for (; ox < b; ox++) dst[ox] = src[ox * sx + x0];                                \
            for (; ox < ow; ox++) dst[ox] = 0;                                               \
          }                                                                                  \
        }                                                                                    \
    }                                                                                        \
  }                                                                                          \
  static void col2im_##T(const T *cols, T *x, int64_t planes, int64_t h, int64_t wd,        \
                         const TensorWindow *w, int64_t oh, int64_t ow) {                   \
    int64_t kh = w->kernel[0], kw = w->kernel[1], l = oh * ow, sx = w->stride[1];            \
    for (int64_t p = 0; p < planes; p++) {                                                   \
      T *plane = x + p * h * wd;                                                             \
      for (int64_t ki = 0; ki < kh; ki++)                                                    \
        for (int64_t kj = 0; kj < kw; kj++) {                                                \
          const T *row = cols + ((p * kh + ki) * kw + kj) * l;                               \
          int64_t x0 = kj * w->dilation[1] - w->padding[1], lo, hi;                          \
          window_inside(x0, sx, wd, ow, &lo, &hi);                                           \
          for (int64_t oy = 0; oy < oh; oy++) {                                              \
            int64_t y = oy * w->stride[0] - w->padding[0] + ki * w->dilation[0];             \
            if (y < 0 || y >= h) continue;                                                   \
            const T *src = row + oy * ow;                                                    \
            T *dst = plane + y * wd;                                                         \
            if (sx == 1)                                                                     \
              for (int64_t ox = lo; ox < hi; ox++) dst[ox + x0] += src[ox];                  \
            else                                                                             \
              for (int64_t ox = lo; ox < hi; ox++) dst[ox * sx + x0] += src[ox];             \
          }                                                                                  \
        }                                                                                    \
    }                                                                                        \
  }
IM2COL(float)
IM2COL(double)

/* im2col or col2im of a whole batch, its planes spread over the worker pool
 * (each plane's columns are its own: the tasks share nothing) when the
 * columns are worth it. */
typedef struct {
  bool to_cols;
  DType dtype;
  const void *src;
  void *dst;
  int64_t planes, h, wd, oh, ow;
  const TensorWindow *w;
} PlanesJob;

#define PLANES_PER_TASK 8

static void planes_task(int64_t t, void *ctx) {
  const PlanesJob *j = ctx;
  int64_t p0 = t * PLANES_PER_TASK, np = j->planes - p0 < PLANES_PER_TASK ? j->planes - p0
                                                                         : PLANES_PER_TASK;
  int64_t image = j->h * j->wd, cols = j->w->kernel[0] * j->w->kernel[1] * j->oh * j->ow;
  if (j->dtype == DT_FLOAT32 && j->to_cols)
    im2col_float((const float *)j->src + p0 * image, (float *)j->dst + p0 * cols, np, j->h, j->wd,
                 j->w, j->oh, j->ow);
  else if (j->to_cols)
    im2col_double((const double *)j->src + p0 * image, (double *)j->dst + p0 * cols, np, j->h,
                  j->wd, j->w, j->oh, j->ow);
  else if (j->dtype == DT_FLOAT32)
    col2im_float((const float *)j->src + p0 * cols, (float *)j->dst + p0 * image, np, j->h, j->wd,
                 j->w, j->oh, j->ow);
  else
    col2im_double((const double *)j->src + p0 * cols, (double *)j->dst + p0 * image, np, j->h,
                  j->wd, j->w, j->oh, j->ow);
}

static void planes_run(const PlanesJob *j) {
  int64_t tasks = (j->planes + PLANES_PER_TASK - 1) / PLANES_PER_TASK;
  int64_t work = j->planes * j->w->kernel[0] * j->w->kernel[1] * j->oh * j->ow;
  if (work >= ITER_PARALLEL_MIN)
    tensor_parallel_for(tasks, planes_task, (void *)j);
  else
    for (int64_t t = 0; t < tasks; t++) planes_task(t, (void *)j);
}

#define require_float tensor_require_native_float

/* x [N, C, H, W] -> [N, C kh kw, L] (F.unfold). */
Tensor *tensor_im2col(const Tensor *x, const TensorWindow *w) {
  if (!require_float(x, "im2col")) return NULL;
  if (x->ndim != 4) {
    tensor_set_error("Expected 4D (batched) input to im2col, but got input of size: %s",
                     shape_str(x).s);
    return NULL;
  }
  int64_t n = x->shape[0], c = x->shape[1], h = x->shape[2], wd = x->shape[3], oh, ow;
  if (!tensor_window_sizes(w, h, wd, &oh, &ow)) return NULL;
  if (oh < 1 || ow < 1) {
    tensor_set_error("Given input with spatial size (%lld, %lld), kernel_size=(%lld, %lld), "
                     "dilation=(%lld, %lld), padding=(%lld, %lld), calculated shape of the array "
                     "of sliding blocks as (%lld, %lld), but its components must be at least one.",
                     (long long)h, (long long)wd, (long long)w->kernel[0], (long long)w->kernel[1],
                     (long long)w->dilation[0], (long long)w->dilation[1], (long long)w->padding[0],
                     (long long)w->padding[1], (long long)oh, (long long)ow);
    return NULL;
  }
  int64_t shape[3] = {n, c * w->kernel[0] * w->kernel[1], oh * ow};
  Tensor *xc = tensor_contiguous(x);
  Tensor *out = xc ? tensor_empty(x->dtype, 3, shape) : NULL;
  if (out)
    planes_run(&(PlanesJob){.to_cols = true, .dtype = x->dtype, .src = tensor_data(xc),
                            .dst = tensor_data(out), .planes = n * c, .h = h, .wd = wd, .oh = oh,
                            .ow = ow, .w = w});
  tensor_release(xc);
  return out;
}

/* cols [N, C kh kw, L] -> [N, C, H, W], overlapping windows summed (F.fold). */
Tensor *tensor_col2im(const Tensor *cols, int64_t h, int64_t wd, const TensorWindow *w) {
  if (!require_float(cols, "col2im")) return NULL;
  int64_t k = w->kernel[0] * w->kernel[1], oh, ow;
  if (!tensor_window_sizes(w, h, wd, &oh, &ow)) return NULL;
  if (cols->ndim != 3 || k <= 0 || cols->shape[1] % k != 0 || cols->shape[2] != oh * ow) {
    tensor_set_error("Expected size of input's dimension 1 to be divisible by the product of "
                     "kernel_size and its dimension 2 to match the calculated number of sliding "
                     "blocks %lld * %lld = %lld, but got input of size %s.",
                     (long long)oh, (long long)ow, (long long)(oh * ow), shape_str(cols).s);
    return NULL;
  }
  int64_t n = cols->shape[0], c = cols->shape[1] / k;
  int64_t shape[4] = {n, c, h, wd};
  Tensor *cc = tensor_contiguous(cols);
  Tensor *out = cc ? tensor_zeros(cols->dtype, 4, shape) : NULL;
  if (out)
    planes_run(&(PlanesJob){.to_cols = false, .dtype = cols->dtype, .src = tensor_data(cc),
                            .dst = tensor_data(out), .planes = n * c, .h = h, .wd = wd, .oh = oh,
                            .ow = ow, .w = w});
  tensor_release(cc);
  return out;
}

/* ---- convolution ---- */

static bool conv_check(const Tensor *x, const Tensor *wt, const Tensor *bias, int groups) {
  if (x->dtype != wt->dtype || (bias && bias->dtype != x->dtype)) {
    tensor_set_error("expected scalar type %s but found %s", tensor_dtype_torch_name(x->dtype),
                     tensor_dtype_torch_name(x->dtype == wt->dtype ? bias->dtype : wt->dtype));
    return false;
  }
  if (!require_float(x, "slow_conv2d_cpu")) return false;
  ShapeStr ws = shape_str(wt), xs = shape_str(x);
  if (groups < 1 || wt->shape[0] % groups != 0) {
    tensor_set_error("Given groups=%d, expected weight to be divisible by %d at dimension 0, but "
                     "got weight of size %s instead", groups, groups, ws.s);
    return false;
  }
  if (x->shape[1] != wt->shape[1] * groups) {
    tensor_set_error("Given groups=%d, weight of size %s, expected input%s to have %lld channels, "
                     "but got %lld channels instead", groups, ws.s, xs.s,
                     (long long)(wt->shape[1] * groups), (long long)x->shape[1]);
    return false;
  }
  if (bias && (bias->ndim != 1 || bias->shape[0] != wt->shape[0])) {
    tensor_set_error("Given weight of size %s, expected bias to be 1-dimensional with %lld "
                     "elements, but got bias of size %s instead", ws.s, (long long)wt->shape[0],
                     shape_str(bias).s);
    return false;
  }
  return true;
}

/* One sample: out [O, L] = W [O, C/g kh kw] @ cols [C kh kw, L] per group (+ bias). */
static void conv_gemm(const BlasApi *blas, const Tensor *wt, const Tensor *bias, const void *cols,
                      void *out, int64_t l, int groups) {
  int64_t o = wt->shape[0], og = o / groups, kg = wt->numel / o;
  bool f32 = wt->dtype == DT_FLOAT32;
  for (int64_t r = 0; r < o; r++) {
    double b = bias ? tensor_get_flat(bias, r) : 0;
    if (f32)
      for (int64_t j = 0; j < l; j++) ((float *)out)[r * l + j] = (float)b;
    else
      for (int64_t j = 0; j < l; j++) ((double *)out)[r * l + j] = b;
  }
  for (int g = 0; g < groups; g++) {
    if (f32) {
      const float *a = (const float *)tensor_data(wt) + g * og * kg;
      const float *b = (const float *)cols + g * kg * l;
      blas->cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)og, (int)l, (int)kg, 1.0f,
                        a, (int)kg, b, (int)l, 1.0f, (float *)out + g * og * l, (int)l);
    } else {
      const double *a = (const double *)tensor_data(wt) + g * og * kg;
      const double *b = (const double *)cols + g * kg * l;
      blas->cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)og, (int)l, (int)kg, 1.0,
                        a, (int)kg, b, (int)l, 1.0, (double *)out + g * og * l, (int)l);
    }
  }
}

/* One convolution's samples, for tensor_blas_batch: each sample's columns
 * are made in a buffer of its own and multiplied at once, while in cache. */
typedef struct {
  const BlasApi *blas;
  const Tensor *x, *wt, *bias, *out;
  const TensorWindow *w;
  int64_t oh, ow;
  int groups;
  atomic_bool failed;
} ConvJob;

static void conv_sample(int64_t s, void *ctx) {
  ConvJob *job = ctx;
  const Tensor *x = job->x;
  int64_t c = x->shape[1], h = x->shape[2], wd = x->shape[3], l = job->oh * job->ow;
  int64_t kk = job->w->kernel[0] * job->w->kernel[1], o = job->wt->shape[0];
  bool f32 = x->dtype == DT_FLOAT32;
  size_t esize = f32 ? sizeof(float) : sizeof(double);
  void *cols = malloc((size_t)(c * kk * l) * esize);
  if (!cols) {
    atomic_store(&job->failed, true);
    return;
  }
  const char *plane = (const char *)tensor_data(x) + (size_t)(s * c * h * wd) * esize;
  if (f32)
    im2col_float((const float *)plane, cols, c, h, wd, job->w, job->oh, job->ow);
  else
    im2col_double((const double *)plane, cols, c, h, wd, job->w, job->oh, job->ow);
  conv_gemm(job->blas, job->wt, job->bias, cols,
            (char *)tensor_data(job->out) + (size_t)(s * o * l) * esize, l, job->groups);
  free(cols);
}

/* x [N, C, H, W], weight [O, C/groups, kh, kw], bias [O] or NULL. */
Tensor *tensor_conv2d(const Tensor *x, const Tensor *weight, const Tensor *bias,
                      const TensorWindow *w, int groups) {
  if (!conv_check(x, weight, bias, groups)) return NULL;
  int64_t oh, ow;
  if (!tensor_window_sizes(w, x->shape[2], x->shape[3], &oh, &ow)) return NULL;
  if (oh < 1 || ow < 1) { /* tensor_im2col's message */
    tensor_release(tensor_im2col(x, w));
    return NULL;
  }
  int64_t n = x->shape[0], o = weight->shape[0], l = oh * ow;
  int64_t shape[4] = {n, o, oh, ow};
  Tensor *xc = tensor_contiguous(x), *wc = tensor_contiguous(weight);
  Tensor *bc = bias ? tensor_contiguous(bias) : NULL;
  Tensor *out = xc && wc && (bc || !bias) ? tensor_empty(x->dtype, 4, shape) : NULL;
  if (out && n > 0) {
    ConvJob job = {.blas = tensor_blas(), .x = xc, .wt = wc, .bias = bc, .out = out, .w = w,
                   .oh = oh, .ow = ow, .groups = groups};
    tensor_blas_batch(n, (double)o * (double)l * (double)(wc->numel / o), conv_sample, &job);
    if (atomic_load(&job.failed)) {
      tensor_set_error("DefaultCPUAllocator: not enough memory for a convolution's columns");
      tensor_release(out);
      out = NULL;
    }
  }
  tensor_release(xc);
  tensor_release(wc);
  tensor_release(bc);
  return out;
}

/* ---- convolution's backward ----
 * Per sample, as ATen's slow_conv2d backward: the sample's columns (im2col)
 * in a buffer of its own, dweight += g cols^T, then dcols = W^T g and
 * col2im into dx. The samples are cut into a fixed number of chunks (by the
 * batch size alone, so the sums do not depend on the machine), each with its
 * own dweight, added up in order at the end. */

#define CONV_BACK_CHUNKS 8

typedef struct {
  const Tensor *x, *wt, *g;
  const TensorWindow *w;
  int64_t oh, ow, nchunks;
  int groups;
  void *dx;      /* [N, C, H, W], zeroed, or NULL */
  void *partial; /* nchunks dweights, or NULL */
  atomic_bool failed;
} ConvBackJob;

#define CONV_BACK(T, GEMM)                                                                   \
  static void conv_back_sample_##T(ConvBackJob *j, int64_t s, T *cols, T *dw, bool first) { \
    const Tensor *x = j->x;                                                                  \
    int64_t c = x->shape[1], h = x->shape[2], wd = x->shape[3], l = j->oh * j->ow;           \
    int64_t kk = j->w->kernel[0] * j->w->kernel[1], o = j->wt->shape[0];                     \
    int64_t og = o / j->groups, ckk = c / j->groups * kk;                                    \
    const T *gs = (const T *)tensor_data(j->g) + s * o * l;                                  \
    const T *wt = tensor_data(j->wt);                                                        \
    const BlasApi *blas = tensor_blas();                                                     \
    if (dw) {                                                                                \
      im2col_##T((const T *)tensor_data(x) + s * c * h * wd, cols, c, h, wd, j->w, j->oh,    \
                 j->ow);                                                                     \
      for (int gi = 0; gi < j->groups; gi++)                                                 \
        blas->GEMM(CblasRowMajor, CblasNoTrans, CblasTrans, (int)og, (int)ckk, (int)l, 1,    \
                   gs + gi * og * l, (int)l, cols + gi * ckk * l, (int)l, first ? 0 : 1,     \
                   dw + gi * og * ckk, (int)ckk);                                            \
    }                                                                                        \
    if (j->dx) {                                                                             \
      for (int gi = 0; gi < j->groups; gi++)                                                 \
        blas->GEMM(CblasRowMajor, CblasTrans, CblasNoTrans, (int)ckk, (int)l, (int)og, 1,    \
                   wt + gi * og * ckk, (int)ckk, gs + gi * og * l, (int)l, 0,                \
                   cols + gi * ckk * l, (int)l);                                             \
      col2im_##T(cols, (T *)j->dx + s * c * h * wd, c, h, wd, j->w, j->oh, j->ow);           \
    }                                                                                        \
  }
CONV_BACK(float, cblas_sgemm)
CONV_BACK(double, cblas_dgemm)

static void conv_back_chunk(int64_t k, void *ctx) {
  ConvBackJob *j = ctx;
  int64_t n = j->x->shape[0], s0 = n * k / j->nchunks, s1 = n * (k + 1) / j->nchunks;
  int64_t c = j->x->shape[1], kk = j->w->kernel[0] * j->w->kernel[1];
  int64_t wnumel = j->wt->numel, l = j->oh * j->ow;
  bool f32 = j->x->dtype == DT_FLOAT32;
  size_t esize = f32 ? sizeof(float) : sizeof(double);
  void *cols = malloc((size_t)(c * kk * l) * esize);
  if (!cols) {
    atomic_store(&j->failed, true);
    return;
  }
  char *dw = j->partial ? (char *)j->partial + (size_t)(k * wnumel) * esize : NULL;
  for (int64_t s = s0; s < s1; s++) {
    if (f32)
      conv_back_sample_float(j, s, cols, (float *)dw, s == s0);
    else
      conv_back_sample_double(j, s, cols, (double *)dw, s == s0);
  }
  if (dw && s1 == s0) memset(dw, 0, (size_t)wnumel * esize);
  free(cols);
}

/* The chunks' dweights added up in order, into a new [O, C/groups, kh, kw]. */
static Tensor *conv_back_weight(const ConvBackJob *j) {
  Tensor *dw = tensor_empty(j->wt->dtype, j->wt->ndim, j->wt->shape);
  if (!dw) return NULL;
  int64_t m = j->wt->numel;
  for (int64_t e = 0; e < m; e++) {
    if (j->wt->dtype == DT_FLOAT32) {
      float acc = ((const float *)j->partial)[e];
      for (int64_t k = 1; k < j->nchunks; k++) acc += ((const float *)j->partial)[k * m + e];
      ((float *)tensor_data(dw))[e] = acc;
    } else {
      double acc = ((const double *)j->partial)[e];
      for (int64_t k = 1; k < j->nchunks; k++) acc += ((const double *)j->partial)[k * m + e];
      ((double *)tensor_data(dw))[e] = acc;
    }
  }
  return dw;
}

bool tensor_conv2d_backward(const Tensor *x, const Tensor *weight, const Tensor *g,
                            const TensorWindow *w, int groups, Tensor **dx, Tensor **dweight) {
  int64_t oh, ow;
  if (!conv_check(x, weight, NULL, groups) || !tensor_window_sizes(w, x->shape[2], x->shape[3], &oh, &ow))
    return false;
  int64_t n = x->shape[0], o = weight->shape[0];
  if (g->dtype != x->dtype || g->ndim != 4 || g->shape[0] != n || g->shape[1] != o ||
      g->shape[2] != oh || g->shape[3] != ow) {
    tensor_set_error("convolution backward: the gradient's shape does not match the output");
    return false;
  }
  ConvBackJob j = {.x = tensor_contiguous(x), .wt = tensor_contiguous(weight),
                   .g = tensor_contiguous(g), .w = w, .oh = oh, .ow = ow, .groups = groups,
                   .nchunks = n < CONV_BACK_CHUNKS ? (n > 0 ? n : 1) : CONV_BACK_CHUNKS};
  size_t esize = x->dtype == DT_FLOAT32 ? sizeof(float) : sizeof(double);
  Tensor *gx = dx && j.x ? tensor_zeros(x->dtype, x->ndim, x->shape) : NULL;
  j.dx = gx ? tensor_data(gx) : NULL;
  j.partial = dweight ? calloc((size_t)(j.nchunks * weight->numel), esize) : NULL;
  bool ok = j.x && j.wt && j.g && (!dx || gx) && (!dweight || j.partial);
  if (ok && oh * ow > 0 && n > 0) {
    double macs = (double)o * (double)(weight->numel / o) * (double)(oh * ow) *
                  (double)(n / j.nchunks + 1) * ((dx ? 1 : 0) + (dweight ? 1 : 0));
    tensor_blas_batch(j.nchunks, macs, conv_back_chunk, &j);
    ok = !atomic_load(&j.failed);
  }
  Tensor *gw = ok && dweight ? conv_back_weight(&j) : NULL;
  ok = ok && (!dweight || gw);
  if (!ok) tensor_set_error("DefaultCPUAllocator: not enough memory for a convolution's backward");
  free(j.partial);
  tensor_release((Tensor *)j.x);
  tensor_release((Tensor *)j.wt);
  tensor_release((Tensor *)j.g);
  if (!ok) {
    tensor_release(gx);
    tensor_release(gw);
    return false;
  }
  if (dx) *dx = gx;
  if (dweight) *dweight = gw;
  return true;
}

/* ---- pooling over planes [..., H, W] ---- */

static bool pool_check(const Tensor *x, const TensorWindow *w, const char *what, int64_t *oh,
                       int64_t *ow) {
  if (!require_float(x, what)) return false;
  if ((x->ndim != 3 && x->ndim != 4) || x->numel == 0) {
    tensor_set_error("non-empty 3D or 4D (batch mode) tensor expected for input");
    return false;
  }
  for (int d = 0; d < 2; d++) {
    if (w->stride[d] <= 0) {
      tensor_set_error("stride should not be zero");
      return false;
    }
    if (w->kernel[d] <= 0) {
      tensor_set_error("kernel size should be greater than zero, but got kH: %lld kW: %lld",
                       (long long)w->kernel[0], (long long)w->kernel[1]);
      return false;
    }
    if (w->dilation[d] <= 0) {
      tensor_set_error("dilation should be greater than zero, but got dilationH: %lld dilationW: "
                       "%lld", (long long)w->dilation[0], (long long)w->dilation[1]);
      return false;
    }
    if (w->padding[d] < 0 || w->padding[d] > w->kernel[d] / 2) {
      tensor_set_error("pad should be at most half of kernel size, but got pad=%lld and "
                       "kernel_size=%lld", (long long)w->padding[d], (long long)w->kernel[d]);
      return false;
    }
  }
  int64_t h = x->shape[x->ndim - 2], wd = x->shape[x->ndim - 1];
  if (!tensor_window_sizes(w, h, wd, oh, ow)) return false;
  if (*oh < 1 || *ow < 1) {
    tensor_set_error("Given input size: (%lldx%lldx%lld). Calculated output size: "
                     "(%lldx%lldx%lld). Output size is too small",
                     (long long)x->shape[x->ndim - 3], (long long)h, (long long)wd,
                     (long long)x->shape[x->ndim - 3], (long long)(*oh > 0 ? *oh : 0),
                     (long long)(*ow > 0 ? *ow : 0));
    return false;
  }
  return true;
}

static Tensor *pool_result(const Tensor *x, DType dt, int64_t oh, int64_t ow) {
  int64_t shape[4];
  memcpy(shape, x->shape, sizeof shape);
  shape[x->ndim - 2] = oh;
  shape[x->ndim - 1] = ow;
  return tensor_empty(dt, x->ndim, shape);
}

/* The window of output (oy, ox) clipped to the input: [y0, y1) x [x0, x1). */
typedef struct {
  int64_t y0, y1, x0, x1;
} Span;
static Span window_span(const TensorWindow *w, int64_t oy, int64_t ox, int64_t h, int64_t wd) {
  Span s;
  s.y0 = oy * w->stride[0] - w->padding[0];
  s.x0 = ox * w->stride[1] - w->padding[1];
  s.y1 = s.y0 + (w->kernel[0] - 1) * w->dilation[0] + 1;
  s.x1 = s.x0 + (w->kernel[1] - 1) * w->dilation[1] + 1;
  return s;
}

/* The first position start + k dil (k >= 0) that is not negative: windows
 * padded far beyond the input are walked only where they cover it. */
static int64_t first_inside(int64_t start, int64_t dil) {
  return start >= 0 ? start : start + (-start + dil - 1) / dil * dil;
}

/* Each output column's window clipped to the input, [lo[ox], hi[ox]) (its
 * first column inside, stepping by the dilation), computed once per call:
 * the rows of every plane share them. */
static bool window_columns(const TensorWindow *w, int d, int64_t in, int64_t out, int64_t **lo,
                           int64_t **hi) {
  *lo = malloc((size_t)out * 2 * sizeof(int64_t));
  if (!*lo) {
    tensor_set_error("DefaultCPUAllocator: not enough memory for a pooling's windows");
    return false;
  }
  *hi = *lo + out;
  for (int64_t o = 0; o < out; o++) {
    int64_t start = o * w->stride[d] - w->padding[d];
    int64_t end = start + (w->kernel[d] - 1) * w->dilation[d] + 1;
    (*lo)[o] = first_inside(start, w->dilation[d]);
    (*hi)[o] = end < in ? end : in;
  }
  return true;
}

typedef struct {
  DType dtype;
  const void *x;
  void *out;
  int64_t *idx;
  int64_t planes, h, wd, oh, ow;
  const int64_t *ylo, *yhi, *xlo, *xhi;
  const TensorWindow *w;
} PoolJob;

/* The first NaN of a window wins, else its first maximum: once best is a
 * NaN nothing replaces it. */
#define MAX_POOL(T)                                                                          \
  static void max_pool_##T(const PoolJob *j, int64_t p0, int64_t p1) {                     \
    int64_t dy = j->w->dilation[0], dx = j->w->dilation[1], wd = j->wd;                      \
    for (int64_t p = p0; p < p1; p++) {                                                      \
      const T *plane = (const T *)j->x + p * j->h * wd;                                      \
      T *out = (T *)j->out + p * j->oh * j->ow;                                              \
      int64_t *idx = j->idx + p * j->oh * j->ow;                                             \
      for (int64_t oy = 0; oy < j->oh; oy++)                                                 \
        for (int64_t ox = 0; ox < j->ow; ox++) {                                             \
          T best = -INFINITY;                                                                \
          int64_t at = -1;                                                                   \
          for (int64_t y = j->ylo[oy]; y < j->yhi[oy]; y += dy)                             \
            for (int64_t xx = j->xlo[ox]; xx < j->xhi[ox]; xx += dx) {                       \
              T v = plane[y * wd + xx];                                                      \
              /* without branches (the comparisons are data: mispredicted) */                \
              bool take = (at < 0) | (v > best) | ((v != v) & (best == best));               \
              best = take ? v : best;                                                        \
              at = take ? y * wd + xx : at;                                                  \
            }                                                                                \
          out[oy * j->ow + ox] = best;                                                       \
          idx[oy * j->ow + ox] = at;                                                         \
        }                                                                                    \
    }                                                                                        \
  }
MAX_POOL(float)
MAX_POOL(double)

static void max_pool_task(int64_t t, void *ctx) {
  const PoolJob *j = ctx;
  int64_t p0 = t * PLANES_PER_TASK, p1 = p0 + PLANES_PER_TASK < j->planes ? p0 + PLANES_PER_TASK
                                                                          : j->planes;
  if (j->dtype == DT_FLOAT32)
    max_pool_float(j, p0, p1);
  else
    max_pool_double(j, p0, p1);
}

/* max over each window; *indices: the flat position (y W + x) in its plane. */
Tensor *tensor_max_pool2d(const Tensor *x, const TensorWindow *w, Tensor **indices) {
  int64_t oh, ow;
  *indices = NULL;
  if (!pool_check(x, w, "max_pool2d", &oh, &ow)) return NULL;
  int64_t h = x->shape[x->ndim - 2], wd = x->shape[x->ndim - 1], planes = x->numel / (h * wd);
  int64_t *ylo = NULL, *yhi, *xlo = NULL, *xhi;
  Tensor *xc = window_columns(w, 0, h, oh, &ylo, &yhi) && window_columns(w, 1, wd, ow, &xlo, &xhi)
                   ? tensor_contiguous(x)
                   : NULL;
  Tensor *out = xc ? pool_result(x, x->dtype, oh, ow) : NULL;
  Tensor *idx = out ? pool_result(x, DT_INT64, oh, ow) : NULL;
  if (idx) {
    PoolJob job = {.dtype = x->dtype, .x = tensor_data(xc), .out = tensor_data(out), .idx = tensor_data(idx),
                   .planes = planes, .h = h, .wd = wd, .oh = oh, .ow = ow, .ylo = ylo,
                   .yhi = yhi, .xlo = xlo, .xhi = xhi, .w = w};
    int64_t tasks = (planes + PLANES_PER_TASK - 1) / PLANES_PER_TASK;
    if (x->numel >= ITER_PARALLEL_MIN)
      tensor_parallel_for(tasks, max_pool_task, &job);
    else
      for (int64_t t = 0; t < tasks; t++) max_pool_task(t, &job);
  }
  free(ylo);
  free(xlo);
  tensor_release(xc);
  if (!idx) {
    tensor_release(out);
    return NULL;
  }
  *indices = idx;
  return out;
}

/* The divisor of each output position of avg_pool2d: [oh ow] float64. */
Tensor *tensor_avg_pool_divisors(int64_t h, int64_t wd, const TensorWindow *w,
                                 bool count_include_pad, int64_t divisor_override) {
  int64_t oh, ow;
  if (!tensor_window_sizes(w, h, wd, &oh, &ow)) return NULL;
  int64_t shape[1] = {oh * ow};
  Tensor *d = tensor_empty(DT_FLOAT64, 1, shape);
  if (!d) return NULL;
  double *dv = tensor_data(d);
  for (int64_t oy = 0; oy < oh; oy++)
    for (int64_t ox = 0; ox < ow; ox++) {
      Span s = window_span(w, oy, ox, h, wd);
      /* PyTorch: the window clipped to the padded input, then (unless
       * count_include_pad) to the input itself */
      int64_t y1 = s.y1 < h + w->padding[0] ? s.y1 : h + w->padding[0];
      int64_t x1 = s.x1 < wd + w->padding[1] ? s.x1 : wd + w->padding[1];
      double n = (double)(y1 - s.y0) * (double)(x1 - s.x0); /* may exceed int64 */
      if (!count_include_pad) {
        int64_t y0 = s.y0 > 0 ? s.y0 : 0, x0 = s.x0 > 0 ? s.x0 : 0;
        int64_t yy = (s.y1 < h ? s.y1 : h) - y0, xx = (s.x1 < wd ? s.x1 : wd) - x0;
        n = (double)yy * (double)xx;
      }
      dv[oy * ow + ox] = divisor_override > 0 ? (double)divisor_override : n;
    }
  return d;
}

#define AVG_POOL(T)                                                                          \
  static void avg_pool_##T(const T *x, T *out, const double *div, int64_t planes, int64_t h, \
                           int64_t wd, const TensorWindow *w, int64_t oh, int64_t ow) {      \
    for (int64_t p = 0; p < planes; p++) {                                                   \
      const T *plane = x + p * h * wd;                                                       \
      for (int64_t oy = 0; oy < oh; oy++)                                                    \
        for (int64_t ox = 0; ox < ow; ox++) {                                                \
          Span s = window_span(w, oy, ox, h, wd);                                            \
          T sum = 0;                                                                         \
          for (int64_t y = s.y0 > 0 ? s.y0 : 0; y < s.y1 && y < h; y++)                      \
            for (int64_t xx = s.x0 > 0 ? s.x0 : 0; xx < s.x1 && xx < wd; xx++)               \
              sum += plane[y * wd + xx];                                                     \
          out[(p * oh + oy) * ow + ox] = sum / (T)div[oy * ow + ox];                         \
        }                                                                                    \
    }                                                                                        \
  }
AVG_POOL(float)
AVG_POOL(double)

Tensor *tensor_avg_pool2d(const Tensor *x, const TensorWindow *w, bool count_include_pad,
                          int64_t divisor_override) {
  int64_t oh, ow;
  if (!pool_check(x, w, "avg_pool2d", &oh, &ow)) return NULL;
  int64_t h = x->shape[x->ndim - 2], wd = x->shape[x->ndim - 1], planes = x->numel / (h * wd);
  Tensor *div = tensor_avg_pool_divisors(h, wd, w, count_include_pad, divisor_override);
  Tensor *xc = div ? tensor_contiguous(x) : NULL;
  Tensor *out = xc ? pool_result(x, x->dtype, oh, ow) : NULL;
  if (out && x->dtype == DT_FLOAT32)
    avg_pool_float(tensor_data(xc), tensor_data(out), tensor_data(div), planes, h, wd, w, oh, ow);
  else if (out)
    avg_pool_double(tensor_data(xc), tensor_data(out), tensor_data(div), planes, h, wd, w, oh, ow);
  tensor_release(xc);
  tensor_release(div);
  return out;
}

/* ---- adaptive average pooling: output cell i covers [floor(i H / oh), ceil((i + 1) H / oh)) ---- */

static int64_t cell_start(int64_t i, int64_t in, int64_t out) { return i * in / out; }
static int64_t cell_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

static bool adaptive_check(const Tensor *x, int64_t oh, int64_t ow, const char *what) {
  if (!require_float(x, what)) return false;
  if (x->ndim != 3 && x->ndim != 4) {
    char shape[96];
    tensor_format_shape(shape, sizeof shape, x->ndim, x->shape);
    tensor_set_error("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got %s", shape);
    return false;
  }
  if (oh < 0 || ow < 0 || oh > ((int64_t)1 << 31) || ow > ((int64_t)1 << 31)) {
    tensor_set_error("adaptive_avg_pool2d: output_size must be non-negative and not too large");
    return false;
  }
  return true;
}

#define ADAPTIVE(T)                                                                          \
  static void adaptive_##T(const T *x, T *y, int64_t planes, int64_t h, int64_t wd,          \
                           int64_t oh, int64_t ow, bool backward) {                          \
    for (int64_t p = 0; p < planes; p++)                                                     \
      for (int64_t i = 0; i < oh; i++)                                                       \
        for (int64_t j = 0; j < ow; j++) {                                                   \
          int64_t y0 = cell_start(i, h, oh), y1 = cell_end(i, h, oh);                        \
          int64_t x0 = cell_start(j, wd, ow), x1 = cell_end(j, wd, ow);                      \
          T count = (T)((y1 - y0) * (x1 - x0));                                              \
          if (backward) {                                                                    \
            T share = x[(p * oh + i) * ow + j] / count;                                      \
            for (int64_t yy = y0; yy < y1; yy++)                                             \
              for (int64_t xx = x0; xx < x1; xx++) y[(p * h + yy) * wd + xx] += share;       \
          } else {                                                                           \
            T sum = 0;                                                                       \
            for (int64_t yy = y0; yy < y1; yy++)                                             \
              for (int64_t xx = x0; xx < x1; xx++) sum += x[(p * h + yy) * wd + xx];         \
            y[(p * oh + i) * ow + j] = sum / count;                                          \
          }                                                                                  \
        }                                                                                    \
  }
ADAPTIVE(float)
ADAPTIVE(double)

Tensor *tensor_adaptive_avg_pool2d(const Tensor *x, int64_t oh, int64_t ow) {
  if (!adaptive_check(x, oh, ow, "adaptive_avg_pool2d")) return NULL;
  int64_t h = x->shape[x->ndim - 2], wd = x->shape[x->ndim - 1];
  for (int d = 1; d < x->ndim; d++)
    if (x->shape[d] == 0) {
      char shape[96];
      tensor_format_shape(shape, sizeof shape, x->ndim, x->shape);
      tensor_set_error("adaptive_avg_pool2d(): Expected input to have non-zero size for "
                       "non-batch dimensions, but input has sizes %s with dimension %d being empty",
                       shape, d);
      return NULL;
    }
  int64_t planes = h * wd != 0 ? x->numel / (h * wd) : 0;
  Tensor *xc = tensor_contiguous(x);
  Tensor *out = xc ? pool_result(x, x->dtype, oh, ow) : NULL;
  if (out && x->dtype == DT_FLOAT32)
    adaptive_float(tensor_data(xc), tensor_data(out), planes, h, wd, oh, ow, false);
  else if (out)
    adaptive_double(tensor_data(xc), tensor_data(out), planes, h, wd, oh, ow, false);
  tensor_release(xc);
  return out;
}

/* g [..., oh, ow] spread back over [..., h, w]. */
Tensor *tensor_adaptive_avg_pool2d_backward(const Tensor *g, int64_t h, int64_t wd) {
  if (!adaptive_check(g, h, wd, "adaptive_avg_pool2d_backward")) return NULL;
  int64_t oh = g->shape[g->ndim - 2], ow = g->shape[g->ndim - 1];
  int64_t planes = oh * ow != 0 ? g->numel / (oh * ow) : 0;
  int64_t shape[4];
  memcpy(shape, g->shape, sizeof shape);
  shape[g->ndim - 2] = h;
  shape[g->ndim - 1] = wd;
  Tensor *gc = tensor_contiguous(g);
  Tensor *out = gc ? tensor_zeros(g->dtype, g->ndim, shape) : NULL;
  if (out && g->dtype == DT_FLOAT32)
    adaptive_float(tensor_data(gc), tensor_data(out), planes, h, wd, oh, ow, true);
  else if (out)
    adaptive_double(tensor_data(gc), tensor_data(out), planes, h, wd, oh, ow, true);
  tensor_release(gc);
  return out;
}

/* max_pool2d's backward: g [..., oh, ow] added at the positions in indices
 * (y W + x per plane) of zeros shaped [..., h, w]. */
Tensor *tensor_max_pool2d_backward(const Tensor *g, const Tensor *indices, int ndim,
                                   const int64_t *shape) {
  if (!require_float(g, "max_pool2d_backward")) return NULL;
  int64_t plane = shape[ndim - 2] * shape[ndim - 1];
  int64_t l = g->shape[g->ndim - 2] * g->shape[g->ndim - 1];
  if (indices->dtype != DT_INT64 || indices->numel != g->numel) {
    tensor_set_error("max_pool2d_backward: indices do not match the gradient");
    return NULL;
  }
  Tensor *gc = tensor_contiguous(g), *ic = tensor_contiguous(indices);
  Tensor *out = gc && ic ? tensor_zeros(g->dtype, ndim, shape) : NULL;
  if (out) {
    const int64_t *idx = tensor_data(ic);
    int64_t planes = l ? g->numel / l : 0;
    for (int64_t p = 0; p < planes; p++)
      for (int64_t j = 0; j < l; j++) {
        int64_t at = idx[p * l + j];
        if (at < 0 || at >= plane) continue;
        if (g->dtype == DT_FLOAT32)
          ((float *)tensor_data(out))[p * plane + at] += ((const float *)tensor_data(gc))[p * l + j];
        else
          ((double *)tensor_data(out))[p * plane + at] += ((const double *)tensor_data(gc))[p * l + j];
      }
  }
  tensor_release(gc);
  tensor_release(ic);
  return out;
}
