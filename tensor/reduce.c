/* reduce.c — reductions over all or some dimensions.
 *
 * Every reduction views its input as an (M, K) matrix: M outputs, each
 * reducing K elements. The input is permuted so the kept dimensions come
 * first, then reshaped to (M, K) — a view whenever the strides allow, so
 * summing the columns of a contiguous matrix reads it in place with stride C.
 * One output reduces on one thread; many outputs are spread over the cores;
 * a single big output is cut into chunks whose partial results are combined.
 * Floating sums accumulate in double.
 */
#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/parallel.h"
#include "tensor/tensor_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum { RED_KIND_SUM, RED_KIND_PROD, RED_KIND_MAX, RED_KIND_MIN } RedKind;

/* A running result: d for floats, i for integers; idx of the max/min. */
typedef struct {
  double d;
  int64_t i;
  int64_t idx;
  bool nan;
} RedAcc;

static void acc_init(RedKind k, RedAcc *acc) {
  acc->d = k == RED_KIND_PROD ? 1.0 : k == RED_KIND_MAX ? -INFINITY : k == RED_KIND_MIN ? INFINITY : 0.0;
  acc->i = k == RED_KIND_PROD ? 1 : k == RED_KIND_MAX ? INT64_MIN : k == RED_KIND_MIN ? INT64_MAX : 0;
  acc->idx = -1;
  acc->nan = false;
}

#define SUM_FLOAT_LOOP(T)                                                                    \
  do {                                                                                       \
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                   \
    int64_t i = 0;                                                                           \
    if (stride == (int64_t)sizeof(T)) {                                                      \
      const T *x = (const T *)p;                                                             \
      for (; i + 4 <= n; i += 4) {                                                           \
        s0 += x[i];                                                                          \
        s1 += x[i + 1];                                                                      \
        s2 += x[i + 2];                                                                      \
        s3 += x[i + 3];                                                                      \
      }                                                                                      \
    }                                                                                        \
    for (; i < n; i++) s0 += *(const T *)(p + i * stride);                                   \
    acc->d += (s0 + s1) + (s2 + s3);                                                         \
  } while (0)

#define EXTREME_LOOP(T, BETTER)                                                              \
  do {                                                                                       \
    for (int64_t i = 0; i < n; i++) {                                                        \
      T x = *(const T *)(p + i * stride);                                                    \
      if (x != x) { /* the first NaN wins */                                                 \
        if (!acc->nan) {                                                                     \
          acc->nan = true;                                                                   \
          acc->d = (double)x;                                                                \
          acc->idx = idx0 + i;                                                               \
        }                                                                                    \
      } else if (!acc->nan && (acc->idx < 0 || (double)x BETTER acc->d)) {                   \
        acc->d = (double)x;                                                                  \
        acc->idx = idx0 + i;                                                                 \
      }                                                                                      \
    }                                                                                        \
  } while (0)

#define INT_EXTREME_LOOP(T, BETTER)                                                          \
  do {                                                                                       \
    for (int64_t i = 0; i < n; i++) {                                                        \
      int64_t x = (int64_t) * (const T *)(p + i * stride);                                   \
      if (acc->idx < 0 || x BETTER acc->i) {                                                 \
        acc->i = x;                                                                          \
        acc->idx = idx0 + i;                                                                 \
      }                                                                                      \
    }                                                                                        \
  } while (0)

static void acc_sum(DType dt, const char *p, int64_t n, int64_t stride, RedAcc *acc) {
  switch (dt) {
  case DT_FLOAT32: SUM_FLOAT_LOOP(float); break;
  case DT_FLOAT64: SUM_FLOAT_LOOP(double); break;
  case DT_INT64: {
    uint64_t s = (uint64_t)acc->i;
    for (int64_t i = 0; i < n; i++) s += (uint64_t) * (const int64_t *)(p + i * stride);
    acc->i = (int64_t)s;
    break;
  }
  default:
    for (int64_t i = 0; i < n; i++) acc->i += *(const uint8_t *)(p + i * stride);
  }
}

static void acc_prod(DType dt, const char *p, int64_t n, int64_t stride, RedAcc *acc) {
  if (dtype_is_float(dt)) {
    for (int64_t i = 0; i < n; i++) acc->d *= tensor_load_double(dt, p + i * stride);
    return;
  }
  uint64_t r = (uint64_t)acc->i;
  for (int64_t i = 0; i < n; i++) {
    const char *q = p + i * stride;
    r *= dt == DT_INT64 ? (uint64_t) * (const int64_t *)q : *(const uint8_t *)q;
  }
  acc->i = (int64_t)r;
}

static void acc_extreme(RedKind k, DType dt, const char *p, int64_t n, int64_t stride,
                        int64_t idx0, RedAcc *acc) {
  bool mx = k == RED_KIND_MAX;
  switch (dt) {
  case DT_FLOAT32:
    if (mx) EXTREME_LOOP(float, >);
    else EXTREME_LOOP(float, <);
    break;
  case DT_FLOAT64:
    if (mx) EXTREME_LOOP(double, >);
    else EXTREME_LOOP(double, <);
    break;
  case DT_INT64:
    if (mx) INT_EXTREME_LOOP(int64_t, >);
    else INT_EXTREME_LOOP(int64_t, <);
    break;
  default:
    if (mx) INT_EXTREME_LOOP(uint8_t, >);
    else INT_EXTREME_LOOP(uint8_t, <);
  }
}

static void acc_run(RedKind k, DType dt, const char *p, int64_t n, int64_t stride, int64_t idx0,
                    RedAcc *acc) {
  if (k == RED_KIND_SUM) acc_sum(dt, p, n, stride, acc);
  else if (k == RED_KIND_PROD) acc_prod(dt, p, n, stride, acc);
  else acc_extreme(k, dt, p, n, stride, idx0, acc);
}

/* Folds a later chunk's partial result b into a. */
static void acc_combine(RedKind k, DType dt, RedAcc *a, const RedAcc *b) {
  if (k == RED_KIND_SUM) {
    a->d += b->d;
    a->i = (int64_t)((uint64_t)a->i + (uint64_t)b->i);
  } else if (k == RED_KIND_PROD) {
    a->d *= b->d;
    a->i = (int64_t)((uint64_t)a->i * (uint64_t)b->i);
  } else if (b->idx >= 0 && !a->nan) {
    bool mx = k == RED_KIND_MAX;
    bool better = dtype_is_float(dt) ? (b->nan || (mx ? b->d > a->d : b->d < a->d))
                                     : (mx ? b->i > a->i : b->i < a->i);
    if (a->idx < 0 || better) *a = *b;
  }
}

static double acc_value(DType dt, const RedAcc *acc) {
  return dtype_is_float(dt) ? acc->d : (double)acc->i;
}

/* Writes the result in dtype out_dt (integers exactly). */
static void acc_store(DType in_dt, DType out_dt, void *dst, const RedAcc *acc) {
  if (out_dt == DT_INT64 && !dtype_is_float(in_dt)) *(int64_t *)dst = acc->i;
  else tensor_store_double(out_dt, dst, acc_value(in_dt, acc));
}

/* ---- the (M, K) plan ---- */

typedef struct {
  bool reduce[TENSOR_MAX_DIMS];
  int out_ndim;
  int64_t out_shape[TENSOR_MAX_DIMS];
  Tensor *mk; /* the input as an (M, K) matrix, a view when possible */
  int64_t M, K;
} RedPlan;

/* Marks the dims to reduce (all when ndims == 0) and computes the output shape. */
static bool plan_dims(const Tensor *a, const int *dims, int ndims, bool keepdim, RedPlan *pl) {
  for (int d = 0; d < TENSOR_MAX_DIMS; d++) pl->reduce[d] = ndims == 0;
  for (int j = 0; j < ndims; j++) {
    int d = dims[j];
    if (!tensor_wrap_dim(&d, a->ndim)) return false;
    if (a->ndim == 0) continue;
    if (pl->reduce[d]) {
      tensor_set_error("dim %d appears multiple times in the list of dims", d);
      return false;
    }
    pl->reduce[d] = true;
  }
  pl->out_ndim = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (!pl->reduce[d]) pl->out_shape[pl->out_ndim++] = a->shape[d];
    else if (keepdim) pl->out_shape[pl->out_ndim++] = 1;
  }
  return true;
}

static bool plan_matrix(const Tensor *a, RedPlan *pl) {
  int perm[TENSOR_MAX_DIMS], n = 0;
  pl->M = 1;
  pl->K = 1;
  for (int d = 0; d < a->ndim; d++)
    if (!pl->reduce[d]) {
      perm[n++] = d;
      pl->M *= a->shape[d];
    }
  for (int d = 0; d < a->ndim; d++)
    if (pl->reduce[d]) {
      perm[n++] = d;
      pl->K *= a->shape[d];
    }
  Tensor *p = tensor_permute(a, perm, a->ndim);
  if (!p) return false;
  int64_t mk[2] = {pl->M, pl->K};
  pl->mk = tensor_reshape(p, 2, mk);
  tensor_release(p);
  return pl->mk != NULL;
}

static bool plan_make(const Tensor *a, const int *dims, int ndims, bool keepdim, RedPlan *pl) {
  pl->mk = NULL;
  return plan_dims(a, dims, ndims, keepdim, pl) && plan_matrix(a, pl);
}

/* Reduces one row of the (M, K) matrix, polling for interrupts between chunks. */
static void reduce_row(RedKind k, const Tensor *mk, int64_t m, RedAcc *acc) {
  size_t es = dtype_size(mk->dtype);
  const char *row = (const char *)tensor_data(mk) + (size_t)(m * mk->stride[0]) * es;
  int64_t stride = mk->stride[1] * (int64_t)es;
  acc_init(k, acc);
  for (int64_t j = 0; j < mk->shape[1] && !tensor_interrupt_requested; j += ITER_CHUNK) {
    int64_t len = mk->shape[1] - j < ITER_CHUNK ? mk->shape[1] - j : ITER_CHUNK;
    acc_run(k, mk->dtype, row + j * stride, len, stride, j, acc);
  }
}

/* A parallel reduction job: either chunks of one long row (parts[c] holds
 * chunk c's partial result) or blocks of whole rows written straight out. */
typedef struct {
  RedKind k;
  const Tensor *mk;
  RedAcc *parts;
  int64_t rows_per_block;
  DType out_dt;
  char *od;
  int64_t *id;
} RedJob;

static void single_chunk(int64_t c, void *arg) {
  RedJob *job = arg;
  const Tensor *mk = job->mk;
  size_t es = dtype_size(mk->dtype);
  int64_t K = mk->shape[1], stride = mk->stride[1] * (int64_t)es;
  int64_t j = c * ITER_CHUNK, len = K - j < ITER_CHUNK ? K - j : ITER_CHUNK;
  acc_init(job->k, &job->parts[c]);
  if (!tensor_interrupt_requested)
    acc_run(job->k, mk->dtype, (const char *)tensor_data(mk) + j * stride, len, stride, j,
            &job->parts[c]);
}

/* One output: chunks of the single row are reduced in parallel, then combined. */
static void reduce_single(RedKind k, const Tensor *mk, RedAcc *out) {
  int64_t K = mk->shape[1];
  int64_t nchunks = (K + ITER_CHUNK - 1) / ITER_CHUNK;
  RedAcc *parts = nchunks > 1 ? malloc((size_t)nchunks * sizeof *parts) : NULL;
  if (!parts) {
    reduce_row(k, mk, 0, out);
    return;
  }
  RedJob job = {.k = k, .mk = mk, .parts = parts};
  if (K >= ITER_PARALLEL_MIN) tensor_parallel_for(nchunks, single_chunk, &job);
  else
    for (int64_t c = 0; c < nchunks; c++) single_chunk(c, &job);
  *out = parts[0];
  for (int64_t c = 1; c < nchunks; c++) acc_combine(k, mk->dtype, out, &parts[c]);
  free(parts);
}

static void row_block(int64_t b, void *arg) {
  RedJob *job = arg;
  int64_t M = job->mk->shape[0], first = b * job->rows_per_block;
  int64_t last = first + job->rows_per_block < M ? first + job->rows_per_block : M;
  size_t oes = dtype_size(job->out_dt);
  for (int64_t m = first; m < last; m++) {
    RedAcc acc;
    reduce_row(job->k, job->mk, m, &acc);
    acc_store(job->mk->dtype, job->out_dt, job->od + (size_t)m * oes, &acc);
    if (job->id) job->id[m] = acc.idx;
  }
}

/* Runs the plan: values into `out` (dtype out->dtype), indices into `idx` if given. */
static bool reduce_into(RedKind k, const RedPlan *pl, Tensor *out, Tensor *idx) {
  const Tensor *mk = pl->mk;
  if (pl->M == 1) {
    RedAcc acc;
    reduce_single(k, mk, &acc);
    acc_store(mk->dtype, out->dtype, tensor_data(out), &acc);
    if (idx) *(int64_t *)tensor_data(idx) = acc.idx;
  } else if (pl->M > 1) {
    int64_t rows = pl->K >= ITER_CHUNK ? 1 : ITER_CHUNK / (pl->K > 0 ? pl->K : 1);
    RedJob job = {.k = k, .mk = mk, .rows_per_block = rows, .out_dt = out->dtype,
                  .od = tensor_data(out), .id = idx ? tensor_data(idx) : NULL};
    int64_t blocks = (pl->M + rows - 1) / rows;
    if (pl->M * pl->K >= ITER_PARALLEL_MIN) tensor_parallel_for(blocks, row_block, &job);
    else
      for (int64_t b = 0; b < blocks; b++) row_block(b, &job);
  }
  return !tensor_check_interrupt();
}

static void plan_free(RedPlan *pl) { tensor_release(pl->mk); }

/* The common driver: plan, allocate, reduce. */
static Tensor *reduce_op(RedKind k, const Tensor *a, const int *dims, int ndims, bool keepdim,
                         DType out_dt, Tensor **indices) {
  RedPlan pl;
  if (!plan_make(a, dims, ndims, keepdim, &pl)) {
    plan_free(&pl);
    return NULL;
  }
  Tensor *out = tensor_empty(out_dt, pl.out_ndim, pl.out_shape);
  Tensor *idx = out && indices ? tensor_empty(DT_INT64, pl.out_ndim, pl.out_shape) : NULL;
  bool ok = out && (!indices || idx) && reduce_into(k, &pl, out, idx);
  plan_free(&pl);
  if (!ok) {
    tensor_release(out);
    tensor_release(idx);
    return NULL;
  }
  if (indices) *indices = idx;
  return out;
}

static DType sum_dtype(DType dt) { return dtype_is_float(dt) ? dt : DT_INT64; }

/* The reductions of a dtype without kernels of its own: computed in its
 * compute dtype, the result narrowed to `to` (an integer sum stays int64, as
 * in PyTorch; float16's, accumulated in float, is rounded once at the end). */
#define REDUCE_WIDENED(a, to, call)                                                         \
  do {                                                                                      \
    if (!dtype_is_native((a)->dtype)) {                                                     \
      Tensor *wide_ = tensor_widen(a);                                                      \
      Tensor *r_ = wide_ ? call(wide_) : NULL;                                              \
      tensor_release(wide_);                                                                \
      return tensor_narrow_to(r_, to);                                                      \
    }                                                                                       \
  } while (0)

Tensor *tensor_sum(const Tensor *a, const int *dims, int ndims, bool keepdim) {
#define SUM_OF(w) tensor_sum(w, dims, ndims, keepdim)
  REDUCE_WIDENED(a, sum_dtype(a->dtype), SUM_OF);
#undef SUM_OF
  Tensor *out;
  if (tensor_sum_aten(a, dims, ndims, keepdim, &out)) return out; /* PyTorch's rounding */
  return reduce_op(RED_KIND_SUM, a, dims, ndims, keepdim, sum_dtype(a->dtype), NULL);
}

static int64_t reduced_count(const Tensor *a, const int *dims, int ndims) {
  if (ndims == 0) return a->numel;
  int64_t n = 1;
  for (int j = 0; j < ndims; j++) {
    int d = dims[j];
    if (tensor_wrap_dim(&d, a->ndim) && a->ndim > 0) n *= a->shape[d];
  }
  return n;
}

static bool require_float(const Tensor *a, const char *what) {
  if (dtype_is_float(a->dtype)) return true;
  tensor_set_error("%s(): could not infer output dtype. Input dtype must be either a floating "
                   "point or complex dtype. Got: %s",
                   what, tensor_dtype_torch_name(a->dtype));
  return false;
}

Tensor *tensor_mean(const Tensor *a, const int *dims, int ndims, bool keepdim) {
  if (!require_float(a, "mean")) return NULL;
  Tensor *s = tensor_sum(a, dims, ndims, keepdim);
  if (!s) return NULL;
  double n = (double)reduced_count(a, dims, ndims);
  bool ok = tensor_binary_scalar_(BIN_DIV, s, n);
  s->storage->version = 0;
  if (!ok) {
    tensor_release(s);
    return NULL;
  }
  return s;
}

Tensor *tensor_prod(const Tensor *a, int dim, bool has_dim, bool keepdim) {
#define PROD_OF(w) tensor_prod(w, dim, has_dim, keepdim)
  REDUCE_WIDENED(a, sum_dtype(a->dtype), PROD_OF);
#undef PROD_OF
  return reduce_op(RED_KIND_PROD, a, &dim, has_dim ? 1 : 0, has_dim && keepdim, sum_dtype(a->dtype),
                   NULL);
}

static Tensor *extreme(RedKind k, const char *name, const Tensor *a, int dim, bool has_dim,
                       bool keepdim, Tensor **indices, bool want_values) {
  /* no bool kernel for argmax/argmin; a dim of size 1 needs none */
  if (!want_values && a->dtype == DT_BOOL &&
      !(has_dim && a->ndim > 0 && dim >= -a->ndim && dim < a->ndim &&
        a->shape[dim < 0 ? dim + a->ndim : dim] == 1)) {
    tensor_set_error("\"%s_cpu\" not implemented for 'Bool'", name);
    return NULL;
  }
  if (!has_dim && a->numel == 0) {
    tensor_set_error("%s(): Expected reduction dim to be specified for input.numel() == 0. "
                     "Specify the reduction dim with the 'dim' argument.",
                     name);
    return NULL;
  }
  if (has_dim) {
    if (!tensor_wrap_dim(&dim, a->ndim)) return NULL;
    if (a->ndim > 0 && a->shape[dim] == 0) {
      tensor_set_error("%s(): Expected reduction dim %d to have non-zero size.", name, dim);
      return NULL;
    }
  }
  Tensor *idx = NULL, *wide = tensor_widen(a); /* values narrowed back below */
  Tensor *vals = wide ? reduce_op(k, wide, &dim, has_dim ? 1 : 0, has_dim && keepdim, wide->dtype, &idx) : NULL;
  tensor_release(wide);
  vals = tensor_narrow_to(vals, a->dtype);
  if (!vals) return NULL;
  if (want_values) {
    if (indices) *indices = idx;
    else tensor_release(idx);
    return vals;
  }
  tensor_release(vals);
  return idx;
}

Tensor *tensor_max(const Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices) {
  return extreme(RED_KIND_MAX, "max", a, dim, has_dim, keepdim, indices, true);
}
Tensor *tensor_min(const Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices) {
  return extreme(RED_KIND_MIN, "min", a, dim, has_dim, keepdim, indices, true);
}
Tensor *tensor_argmax(const Tensor *a, int dim, bool has_dim, bool keepdim) {
  return extreme(RED_KIND_MAX, "argmax", a, dim, has_dim, keepdim, NULL, false);
}
Tensor *tensor_argmin(const Tensor *a, int dim, bool has_dim, bool keepdim) {
  return extreme(RED_KIND_MIN, "argmin", a, dim, has_dim, keepdim, NULL, false);
}

/* amax over dims with keepdim, for logsumexp (no indices, several dims). */
static Tensor *amax_keepdim(const Tensor *a, const int *dims, int ndims) {
  return reduce_op(RED_KIND_MAX, a, dims, ndims, true, a->dtype, NULL);
}

/* ---- composite reductions ---- */

Tensor *tensor_var(const Tensor *a, const int *dims, int ndims, double correction, bool keepdim) {
  if (!dtype_is_float(a->dtype)) {
    tensor_set_error("std and var only support floating point and complex dtypes");
    return NULL;
  }
#define VAR_OF(w) tensor_var(w, dims, ndims, correction, keepdim)
  REDUCE_WIDENED(a, a->dtype, VAR_OF);
#undef VAR_OF
  if (a->dtype == DT_FLOAT32) { /* PyTorch accumulates a float var in double, rounds once */
    Tensor *wide = tensor_to_dtype(a, DT_FLOAT64);
    Tensor *v = wide ? tensor_var(wide, dims, ndims, correction, keepdim) : NULL;
    Tensor *out = v ? tensor_to_dtype(v, DT_FLOAT32) : NULL;
    tensor_release(wide);
    tensor_release(v);
    return out;
  }
  Tensor *m = tensor_mean(a, dims, ndims, true);
  Tensor *d = m ? tensor_binary(BIN_SUB, a, m) : NULL;
  Tensor *sq = d ? tensor_binary(BIN_MUL, d, d) : NULL;
  Tensor *s = sq ? tensor_sum(sq, dims, ndims, keepdim) : NULL;
  int64_t n = reduced_count(a, dims, ndims);
  double denom = (double)n - correction;
  Tensor *out = s ? tensor_binary_scalar(BIN_DIV, s, denom > 0 ? denom : 0) : NULL;
  tensor_release(m);
  tensor_release(d);
  tensor_release(sq);
  tensor_release(s);
  return out;
}

Tensor *tensor_std(const Tensor *a, const int *dims, int ndims, double correction, bool keepdim) {
#define STD_OF(w) tensor_std(w, dims, ndims, correction, keepdim)
  if (dtype_is_float(a->dtype)) REDUCE_WIDENED(a, a->dtype, STD_OF);
#undef STD_OF
  if (a->dtype == DT_FLOAT32) { /* the square root too is taken in double, as PyTorch */
    Tensor *wide = tensor_to_dtype(a, DT_FLOAT64);
    Tensor *sd = wide ? tensor_std(wide, dims, ndims, correction, keepdim) : NULL;
    Tensor *out = sd ? tensor_to_dtype(sd, DT_FLOAT32) : NULL;
    tensor_release(wide);
    tensor_release(sd);
    return out;
  }
  Tensor *v = tensor_var(a, dims, ndims, correction, keepdim);
  if (!v) return NULL;
  Tensor *out = tensor_unary(UN_SQRT, v);
  tensor_release(v);
  return out;
}

/* One row of Welford's pass as ATen's WelfordOps (double accumulators,
 * the count an integer), then its projection: [var or std, mean]. The
 * update of m2 is one fused multiply-add, as PyTorch's AVX2 kernels compile
 * it (tests/torch/README.md: where they are built without FMA, the last
 * bits may differ). */
static void welford_row(const double *x, int64_t k, double correction, bool take_sqrt, double out[2]) {
  double mean = 0, m2 = 0;
  for (int64_t i = 0; i < k; i++) {
    double nf = (double)(i + 1);
    double delta = x[i] - mean;
    mean += delta / nf;
    m2 = fma(delta, x[i] - mean, m2);
  }
  double nf = (double)k;
  double var = m2 / (nf > correction ? nf - correction : 0);
  out[0] = take_sqrt ? sqrt(var) : var;
  out[1] = mean;
}

Tensor *tensor_var_mean(const Tensor *a, const int *dims, int ndims, double correction, bool keepdim,
                        bool take_sqrt, Tensor **mean) {
  *mean = NULL;
  if (!dtype_is_float(a->dtype)) {
    tensor_set_error("std and var only support floating point and complex dtypes");
    return NULL;
  }
  RedPlan pl;
  Tensor *wide = tensor_to_dtype(a, DT_FLOAT64);
  bool planned = wide && plan_make(wide, dims, ndims, keepdim, &pl);
  Tensor *mk = planned ? tensor_contiguous(pl.mk) : NULL;
  Tensor *v = mk ? tensor_empty(DT_FLOAT64, pl.out_ndim, pl.out_shape) : NULL;
  Tensor *m = v ? tensor_empty(DT_FLOAT64, pl.out_ndim, pl.out_shape) : NULL;
  if (m) {
    const double *x = tensor_data(mk);
    double *vd = tensor_data(v), *md = tensor_data(m);
    for (int64_t r = 0; r < pl.M && !tensor_interrupt_requested; r++) {
      double pair[2];
      if (pl.K == 0) pair[0] = pair[1] = NAN; /* ATen fills an empty reduction with NaN */
      else welford_row(x + r * pl.K, pl.K, correction, take_sqrt, pair);
      vd[r] = pair[0];
      md[r] = pair[1];
    }
  }
  tensor_release(wide);
  if (planned) tensor_release(pl.mk);
  tensor_release(mk);
  bool ok = m && !tensor_interrupt_requested;
  if (tensor_interrupt_requested) tensor_set_error("Interrupted");
  Tensor *vo = ok ? tensor_to_dtype(v, a->dtype) : NULL;
  Tensor *mo = vo ? tensor_to_dtype(m, a->dtype) : NULL;
  tensor_release(v);
  tensor_release(m);
  if (!mo) {
    tensor_release(vo);
    return NULL;
  }
  *mean = mo;
  return vo;
}

/* |x| ** p as ATen's NormOps computes it: std::pow in the element type
 * (powf for float32), element by element, not the pow operator's kernel. */
static Tensor *norm_pow(const Tensor *a, double p) {
  Tensor *exponent = tensor_scalar(a->dtype, p);
  Tensor *out = exponent ? tensor_binary(BIN_POW, a, exponent) : NULL;
  tensor_release(exponent);
  return out;
}

Tensor *tensor_norm(const Tensor *a, double p, const int *dims, int ndims, bool keepdim) {
  if (!dtype_is_float(a->dtype)) {
    tensor_set_error("norm(): input dtype should be either floating point or complex. Got %s "
                     "instead.",
                     tensor_dtype_torch_name(a->dtype));
    return NULL;
  }
#define NORM_OF(w) tensor_norm(w, p, dims, ndims, keepdim)
  REDUCE_WIDENED(a, a->dtype, NORM_OF);
#undef NORM_OF
  Tensor *fast;
  if (p == 2 && tensor_norm2_f32_aten(a, dims, ndims, keepdim, &fast)) return fast;
  Tensor *abs = tensor_unary(UN_ABS, a);
  if (!abs) return NULL;
  Tensor *out = NULL;
  if (isinf(p)) {
    out = reduce_op(p > 0 ? RED_KIND_MAX : RED_KIND_MIN, abs, dims, ndims, keepdim, a->dtype, NULL);
  } else if (p == 0) {
    Tensor *nz = tensor_binary_scalar(BIN_NE, abs, 0);
    Tensor *f = nz ? tensor_to_dtype(nz, a->dtype) : NULL;
    out = f ? tensor_sum(f, dims, ndims, keepdim) : NULL;
    tensor_release(nz);
    tensor_release(f);
  } else {
    Tensor *pw = p == 1 ? tensor_retain(abs) : norm_pow(abs, p);
    Tensor *s = pw ? tensor_sum(pw, dims, ndims, keepdim) : NULL;
    out = s && p != 1 ? norm_pow(s, 1.0 / p) : tensor_retain(s);
    if (s && p == 2) { /* sqrt is exact where pow(x, 0.5) may be off by an ulp */
      tensor_release(out);
      out = tensor_unary(UN_SQRT, s);
    }
    tensor_release(pw);
    tensor_release(s);
  }
  tensor_release(abs);
  return out;
}

/* log(sum(exp(x - m))) + m with m the max (0 where the max is infinite). */
Tensor *tensor_logsumexp(const Tensor *a, const int *dims, int ndims, bool keepdim) {
#define LOGSUMEXP_OF(w) tensor_logsumexp(w, dims, ndims, keepdim)
  if (dtype_is_float(a->dtype)) REDUCE_WIDENED(a, a->dtype, LOGSUMEXP_OF);
#undef LOGSUMEXP_OF
  Tensor *fa = tensor_to_dtype(a, dtype_is_float(a->dtype) ? a->dtype : DT_FLOAT32);
  if (!fa) return NULL;
  Tensor *m = fa->numel > 0 ? amax_keepdim(fa, dims, ndims) : NULL;
  Tensor *out = NULL;
  if (fa->numel == 0) {
    Tensor *e = tensor_sum(fa, dims, ndims, keepdim);
    out = e ? tensor_unary(UN_LOG, e) : NULL;
    tensor_release(e);
    tensor_release(fa);
    return out;
  }
  if (m) {
    for (int64_t i = 0; i < m->numel; i++)
      if (isinf(tensor_get_flat(m, i))) tensor_set_flat(m, i, 0);
  }
  Tensor *d = m ? tensor_binary(BIN_SUB, fa, m) : NULL;
  Tensor *e = d ? tensor_unary(UN_EXP, d) : NULL;
  Tensor *s = e ? tensor_sum(e, dims, ndims, keepdim) : NULL;
  Tensor *l = s ? tensor_unary(UN_LOG, s) : NULL;
  Tensor *mk = NULL;
  if (l && m) {
    RedPlan pl;
    mk = plan_dims(fa, dims, ndims, keepdim, &pl) ? tensor_reshape(m, pl.out_ndim, pl.out_shape)
                                                  : NULL;
  }
  out = mk ? tensor_binary(BIN_ADD, l, mk) : NULL;
  Tensor *tmp[] = {fa, m, d, e, s, l, mk};
  for (size_t i = 0; i < sizeof tmp / sizeof *tmp; i++) tensor_release(tmp[i]);
  return out;
}

Tensor *tensor_sum_to_shape(const Tensor *a, int ndim, const int64_t *shape) {
  if (ndim > a->ndim) {
    char s1[256], s2[256];
    tensor_format_shape(s1, sizeof s1, a->ndim, a->shape);
    tensor_format_shape(s2, sizeof s2, ndim, shape);
    tensor_set_error("sum_to_shape: shape %s is not expandable to %s", s2, s1);
    return NULL;
  }
  int dims[TENSOR_MAX_DIMS], n = 0;
  int lead = a->ndim - ndim;
  for (int d = 0; d < a->ndim; d++) {
    int j = d - lead;
    if (j < 0) {
      dims[n++] = d;
    } else if (shape[j] == 1 && a->shape[d] != 1) {
      dims[n++] = d;
    } else if (shape[j] != a->shape[d]) {
      char s1[256], s2[256];
      tensor_format_shape(s1, sizeof s1, a->ndim, a->shape);
      tensor_format_shape(s2, sizeof s2, ndim, shape);
      tensor_set_error("sum_to_shape: shape %s is not expandable to %s", s2, s1);
      return NULL;
    }
  }
  if (n == 0) return tensor_reshape(a, ndim, shape);
  Tensor *s = tensor_sum(a, dims, n, true);
  if (!s) return NULL;
  Tensor *out = tensor_reshape(s, ndim, shape);
  tensor_release(s);
  return out;
}
