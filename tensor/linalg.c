/* linalg.c — matmul (PyTorch's 1-D/2-D/batched rules), mm, bmm, mv, dot, outer.
 *
 * Float products go to OpenBLAS, which the first one loads (tensor/blas.h).
 * A strided operand is passed as a BLAS transpose when its memory already is
 * a (transposed) matrix with a leading dimension BLAS accepts — so x @ w.T
 * never copies w — and copied only when its strides fit neither layout.
 * int64 products use a plain loop.
 */
#include "tensor/blas.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <limits.h>
#include <stdatomic.h>
#include <string.h>

/* ---- how BLAS sees a 2-D operand ---- */

typedef struct {
  const Tensor *t; /* the matrix (possibly a contiguous copy) */
  Tensor *owned;   /* the copy, if one was made */
  bool trans;
  int64_t ld;
} BlasOperand;

/* Row-major as-is (unit column stride) or transposed (unit row stride). */
static bool blas_layout(int64_t rows, int64_t cols, int64_t s0, int64_t s1, bool *trans,
                        int64_t *ld) {
  int64_t r = rows > 1 ? rows : 1, c = cols > 1 ? cols : 1;
  if ((s1 == 1 || cols <= 1) && (rows <= 1 || s0 >= c)) {
    *trans = false;
    *ld = rows <= 1 ? c : s0;
    return true;
  }
  if ((s0 == 1 || rows <= 1) && (cols <= 1 || s1 >= r)) {
    *trans = true;
    *ld = cols <= 1 ? r : s1;
    return true;
  }
  return false;
}

/* Prepares matrix view m (rows x cols) for BLAS, copying only if needed. */
static bool blas_operand(const Tensor *m, BlasOperand *op) {
  op->owned = NULL;
  op->t = m;
  if (blas_layout(m->shape[0], m->shape[1], m->stride[0], m->stride[1], &op->trans, &op->ld))
    return true;
  op->owned = tensor_clone(m);
  if (!op->owned) return false;
  op->t = op->owned;
  op->trans = false;
  op->ld = m->shape[1] > 1 ? m->shape[1] : 1;
  return true;
}

static bool fits_blas_int(int64_t v) { return v <= INT_MAX; }

/* A matrix-vector product as gemv, for C with one column (A @ x) or one row
 * (x^T @ B = (B^T x)^T). False when the matrix's strides don't suit BLAS. */
static bool gemv_float(const BlasApi *blas, const Tensor *a, const Tensor *b, char *cd) {
  int64_t k = a->shape[1], n = b->shape[1];
  const Tensor *mat = n == 1 ? a : b, *vec = n == 1 ? b : a;
  int64_t rows = mat->shape[0], cols = mat->shape[1];
  int64_t inc = k == 1 ? 1 : n == 1 ? vec->stride[0] : vec->stride[1];
  bool trans;
  int64_t ld;
  if (!blas_layout(rows, cols, mat->stride[0], mat->stride[1], &trans, &ld) || inc <= 0 ||
      !fits_blas_int(inc) || !fits_blas_int(ld))
    return false;
  /* y = mat @ x needs mat as stored (NoTrans) unless its memory is transposed;
   * y = mat^T @ x (the one-row case) the other way round. */
  enum CBLAS_TRANSPOSE t = (n == 1) != trans ? CblasNoTrans : CblasTrans;
  int r = (int)(trans ? cols : rows), c = (int)(trans ? rows : cols);
  if (mat->dtype == DT_FLOAT32)
    blas->cblas_sgemv(CblasRowMajor, t, r, c, 1.0f, tensor_data(mat), (int)ld,
                      tensor_data(vec), (int)inc, 0.0f, (float *)cd, 1);
  else
    blas->cblas_dgemv(CblasRowMajor, t, r, c, 1.0, tensor_data(mat), (int)ld,
                      tensor_data(vec), (int)inc, 0.0, (double *)cd, 1);
  return true;
}

/* C (m x n, contiguous, at c) = A (m x k) @ B (k x n), floats through BLAS.
 * mv: the product is tensor_mv's; PyTorch computes mv with gemv but every mm
 * (one row or one column included) with gemm, and the two round differently. */
static bool gemm_float(const Tensor *a, const Tensor *b, Tensor *c, int64_t c_off, bool mv) {
  int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
  char *cd = (char *)c->storage->data + (size_t)c_off * dtype_size(c->dtype);
  if (m == 0 || n == 0) return true;
  if (k == 0) {
    memset(cd, 0, (size_t)(m * n) * dtype_size(c->dtype));
    return true;
  }
  if (!fits_blas_int(m) || !fits_blas_int(n) || !fits_blas_int(k)) {
    tensor_set_error("matrix dimensions too large for BLAS");
    return false;
  }
  const BlasApi *blas = tensor_blas();
  if (mv && n == 1 && gemv_float(blas, a, b, cd)) return true;
  BlasOperand oa, ob;
  if (!blas_operand(a, &oa)) return false;
  if (!blas_operand(b, &ob)) {
    tensor_release(oa.owned);
    return false;
  }
  enum CBLAS_TRANSPOSE ta = oa.trans ? CblasTrans : CblasNoTrans;
  enum CBLAS_TRANSPOSE tb = ob.trans ? CblasTrans : CblasNoTrans;
  /* A product of more than 2^34 multiply-adds (seconds to minutes) runs in
   * blocks of rows of A, so that Ctrl-C can stop it between two blocks. */
  int64_t rows = m;
  if ((double)m * (double)n * (double)k > 17179869184.0) {
    rows = (int64_t)(17179869184.0 / 16 / ((double)n * (double)k));
    if (rows < 64) rows = 64;
  }
  size_t esize = dtype_size(c->dtype);
  for (int64_t i0 = 0; i0 < m; i0 += rows) {
    if (i0 > 0 && tensor_check_interrupt()) break;
    int64_t mb = m - i0 < rows ? m - i0 : rows;
    const char *ad = (const char *)tensor_data(oa.t) + (size_t)(oa.trans ? i0 : i0 * oa.ld) * esize;
    char *cb = cd + (size_t)(i0 * n) * esize;
    if (c->dtype == DT_FLOAT32)
      blas->cblas_sgemm(CblasRowMajor, ta, tb, (int)mb, (int)n, (int)k, 1.0f, (const float *)ad,
                        (int)oa.ld, tensor_data(ob.t), (int)ob.ld, 0.0f, (float *)cb, (int)n);
    else
      blas->cblas_dgemm(CblasRowMajor, ta, tb, (int)mb, (int)n, (int)k, 1.0, (const double *)ad,
                        (int)oa.ld, tensor_data(ob.t), (int)ob.ld, 0.0, (double *)cb, (int)n);
  }
  tensor_release(oa.owned);
  tensor_release(ob.owned);
  return !tensor_check_interrupt();
}

static void gemm_int(const Tensor *a, const Tensor *b, Tensor *c, int64_t c_off) {
  int64_t m = a->shape[0], k = a->shape[1], n = b->shape[1];
  int64_t *cd = (int64_t *)c->storage->data + c_off;
  const int64_t *ad = a->storage->data, *bd = b->storage->data;
  memset(cd, 0, (size_t)(m * n) * sizeof(int64_t));
  for (int64_t i = 0; i < m && !tensor_interrupt_requested; i++)
    for (int64_t p = 0; p < k; p++) {
      uint64_t x = (uint64_t)ad[a->offset + i * a->stride[0] + p * a->stride[1]];
      for (int64_t j = 0; j < n; j++)
        cd[i * n + j] = (int64_t)((uint64_t)cd[i * n + j] +
                                  x * (uint64_t)bd[b->offset + p * b->stride[0] + j * b->stride[1]]);
    }
}

static bool gemm_into(const Tensor *a, const Tensor *b, Tensor *c, int64_t c_off, bool mv) {
  if (c->dtype == DT_INT64) {
    gemm_int(a, b, c, c_off);
    return !tensor_check_interrupt();
  }
  return gemm_float(a, b, c, c_off, mv);
}

/* ---- checks ---- */

static bool check_dtypes(const Tensor *a, const Tensor *b) {
  if (a->dtype != b->dtype) {
    tensor_set_error("expected scalar type %s but found %s", tensor_dtype_torch_name(a->dtype),
                     tensor_dtype_torch_name(b->dtype));
    return false;
  }
  if (a->dtype == DT_BOOL || !dtype_is_native(a->dtype)) { /* int32 ...: t.long() first */
    tensor_set_error("\"addmm_impl_cpu_\" not implemented for '%s'", tensor_dtype_torch_name(a->dtype));
    return false;
  }
  return true;
}

static bool check_ndim(const char *what, const Tensor *t, int want) {
  if (t->ndim == want) return true;
  tensor_set_error("%s must be a %s", what, want == 2 ? "matrix" : "3D tensor"); /* 1.13's words */
  return false;
}

/* ---- public ops ---- */

static Tensor *mm(const Tensor *a, const Tensor *b, bool mv) {
  if (!check_ndim("self", a, 2) || !check_ndim("mat2", b, 2) || !check_dtypes(a, b)) return NULL;
  if (a->shape[1] != b->shape[0]) {
    tensor_set_error("mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                     (long long)a->shape[0], (long long)a->shape[1], (long long)b->shape[0],
                     (long long)b->shape[1]);
    return NULL;
  }
  int64_t shape[2] = {a->shape[0], b->shape[1]};
  Tensor *c = tensor_empty(a->dtype, 2, shape);
  if (c && !gemm_into(a, b, c, 0, mv)) {
    tensor_release(c);
    return NULL;
  }
  return c;
}

Tensor *tensor_mm(const Tensor *a, const Tensor *b) { return mm(a, b, false); }

/* A stack view of batch item i (flattened over the leading dims) of t, which
 * is (batch..., rows, cols). */
static void batch_matrix(const Tensor *t, int nbatch, int64_t i, Tensor *out) {
  int64_t off = t->offset;
  for (int d = nbatch - 1; d >= 0; d--) {
    off += (i % t->shape[d]) * t->stride[d];
    i /= t->shape[d];
  }
  *out = *t;
  out->ndim = 2;
  out->shape[0] = t->shape[nbatch];
  out->shape[1] = t->shape[nbatch + 1];
  out->stride[0] = t->stride[nbatch];
  out->stride[1] = t->stride[nbatch + 1];
  out->offset = off;
  out->numel = out->shape[0] * out->shape[1];
  out->meta = NULL;
}

/* One batched product's items, for tensor_blas_batch. */
typedef struct {
  const Tensor *a, *b;
  Tensor *c;
  int nb;
  int64_t per;
  atomic_bool failed;
} BatchJob;

static void batch_item(int64_t i, void *ctx) {
  BatchJob *job = ctx;
  Tensor ma, mb;
  batch_matrix(job->a, job->nb, i, &ma);
  batch_matrix(job->b, job->nb, i, &mb);
  if (!gemm_into(&ma, &mb, job->c, i * job->per, false)) atomic_store(&job->failed, true);
}

/* Whether every matrix of t (batch..., rows, cols) goes to BLAS as it is
 * (they share their strides): then the items copy nothing, allocate nothing
 * and may run on any thread. */
static bool batch_in_place(const Tensor *t, int nb) {
  bool trans;
  int64_t ld;
  return blas_layout(t->shape[nb], t->shape[nb + 1], t->stride[nb], t->stride[nb + 1], &trans,
                     &ld);
}

/* Whether b is one matrix repeated over its batch dimensions (stride 0: an
 * expanded weight, as func.vmap's per-sample parameters are) and a's batch
 * and row dimensions merge into one: then the batched product is one
 * product of a's stacked rows with that matrix. */
static bool foldable_batch(const Tensor *a, const Tensor *b, int nb) {
  for (int d = 0; d < nb; d++) {
    if (b->stride[d] != 0 && b->shape[d] != 1) return false;
    if (a->stride[d] != a->stride[d + 1] * a->shape[d + 1]) return false;
  }
  return nb > 0;
}

static bool folded_mm(const Tensor *a, const Tensor *b, int nb, Tensor *c) {
  Tensor ma = *a, mb;
  ma.ndim = 2;
  ma.shape[0] = a->numel / a->shape[nb + 1];
  ma.shape[1] = a->shape[nb + 1];
  ma.stride[0] = a->stride[nb];
  ma.stride[1] = a->stride[nb + 1];
  ma.numel = a->numel;
  ma.meta = NULL;
  batch_matrix(b, nb, 0, &mb);
  return gemm_into(&ma, &mb, c, 0, false);
}

/* Batched products with k == 1 (outer products: func.vmap's per-sample
 * weight gradients), element by element instead of one BLAS call each; a
 * single product per element, so the bits are BLAS's. */
#define BATCHED_OUTER(T)                                                                    \
  for (int64_t i = 0; i < batches; i++) {                                                  \
    Tensor ma, mb;                                                                         \
    batch_matrix(a, nb, i, &ma);                                                           \
    batch_matrix(b, nb, i, &mb);                                                           \
    const T *pa = (const T *)a->storage->data + ma.offset;                                 \
    const T *pb = (const T *)b->storage->data + mb.offset;                                 \
    T *pc = (T *)tensor_data(c) + i * m * n;                                               \
    for (int64_t r = 0; r < m; r++) {                                                      \
      T x = pa[r * ma.stride[0]];                                                          \
      T *row = pc + r * n;                                                                 \
      if (mb.stride[1] == 1) {                                                             \
        for (int64_t col = 0; col < n; col++) row[col] = x * pb[col];                      \
      } else {                                                                             \
        for (int64_t col = 0; col < n; col++) row[col] = x * pb[col * mb.stride[1]];       \
      }                                                                                    \
    }                                                                                      \
  }

static void batched_outer(const Tensor *a, const Tensor *b, int nb, int64_t batches, Tensor *c) {
  int64_t m = c->shape[nb], n = c->shape[nb + 1];
  if (c->dtype == DT_FLOAT32) {
    BATCHED_OUTER(float)
  } else {
    BATCHED_OUTER(double)
  }
}

/* Batched product of a (batch..., m, k) and b (batch..., k, n) of equal batch shapes. */
static Tensor *batched_mm(const Tensor *a, const Tensor *b) {
  int nb = a->ndim - 2;
  int64_t shape[TENSOR_MAX_DIMS];
  memcpy(shape, a->shape, (size_t)nb * sizeof(int64_t));
  shape[nb] = a->shape[nb];
  shape[nb + 1] = b->shape[nb + 1];
  Tensor *c = tensor_empty(a->dtype, a->ndim, shape);
  if (!c) return NULL;
  int64_t batches = 1, per = shape[nb] * shape[nb + 1];
  for (int d = 0; d < nb; d++) batches *= shape[d];
  if (a->shape[nb + 1] == 1 && (c->dtype == DT_FLOAT32 || c->dtype == DT_FLOAT64)) {
    batched_outer(a, b, nb, batches, c);
    return c;
  }
  if (batches > 1 && a->numel > 0 && foldable_batch(a, b, nb)) {
    if (folded_mm(a, b, nb, c)) return c;
    tensor_release(c);
    return NULL;
  }
  BatchJob job = {.a = a, .b = b, .c = c, .nb = nb, .per = per};
  double macs = (double)per * (double)a->shape[nb + 1];
  bool spread = dtype_is_float(a->dtype) && batch_in_place(a, nb) && batch_in_place(b, nb) &&
                fits_blas_int(shape[nb]) && fits_blas_int(shape[nb + 1]) &&
                fits_blas_int(a->shape[nb + 1]) && macs <= 17179869184.0;
  if (spread)
    tensor_blas_batch(batches, macs, batch_item, &job);
  else
    for (int64_t i = 0; i < batches && !atomic_load(&job.failed); i++) batch_item(i, &job);
  if (atomic_load(&job.failed) || tensor_check_interrupt()) {
    tensor_release(c);
    return NULL;
  }
  return c;
}

/* PyTorch multiplies small batches (k * n * m < 400) with a plain loop
 * (baddbmm_cpu_kernel): a sum of products from 0, without FMA. The operands
 * are read as contiguous arrays (func.vmap's per-sample products make many
 * such batches, of expanded or transposed operands). */
#define BMM_SMALL(T)                                                                         \
  const T *pa = tensor_data(ac), *pb = tensor_data(bc);                                      \
  T *pc = tensor_data(c);                                                                    \
  for (int64_t bi = 0; bi < bs; bi++)                                                        \
    for (int64_t i = 0; i < n; i++)                                                          \
      for (int64_t j = 0; j < m; j++) {                                                      \
        T acc = 0;                                                                           \
        for (int64_t kk = 0; kk < k; kk++) {                                                 \
          T prod = pa[(bi * n + i) * k + kk] * pb[(bi * k + kk) * m + j];                    \
          acc += prod;                                                                       \
        }                                                                                    \
        pc[(bi * n + i) * m + j] = acc;                                                      \
      }

static Tensor *bmm_small(const Tensor *a, const Tensor *b) {
  int64_t bs = a->shape[0], n = a->shape[1], k = a->shape[2], m = b->shape[2];
  Tensor *ac = tensor_contiguous(a), *bc = ac ? tensor_contiguous(b) : NULL;
  Tensor *c = bc ? tensor_empty(a->dtype, 3, (int64_t[3]){bs, n, m}) : NULL;
  if (c && a->dtype == DT_FLOAT32) {
    BMM_SMALL(float)
  } else if (c) {
    BMM_SMALL(double)
  }
  tensor_release(ac);
  tensor_release(bc);
  return c;
}

Tensor *tensor_bmm(const Tensor *a, const Tensor *b) {
  if (!check_ndim("batch1", a, 3) || !check_ndim("batch2", b, 3) || !check_dtypes(a, b))
    return NULL;
  if (b->shape[0] != a->shape[0] || b->shape[1] != a->shape[2]) {
    tensor_set_error("Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] "
                     "but got: [%lld, %lld].",
                     (long long)a->shape[0], (long long)a->shape[2], (long long)b->shape[0],
                     (long long)b->shape[1]);
    return NULL;
  }
  if (a->shape[2] * a->shape[1] * b->shape[2] < 400 && dtype_is_float(a->dtype))
    return bmm_small(a, b);
  return batched_mm(a, b);
}

Tensor *tensor_mv(const Tensor *a, const Tensor *v) {
  if (a->ndim == 0) {
    tensor_set_error("Dimension specified as 0 but tensor has no dimensions");
    return NULL;
  }
  if (a->ndim != 2 || v->ndim != 1) { /* PyTorch 1.13 words it as addmv does */
    tensor_set_error("vector + matrix @ vector expected, got 1, %d, %d", a->ndim, v->ndim);
    return NULL;
  }
  if (!check_dtypes(a, v)) return NULL;
  if (a->shape[1] != v->shape[0]) {
    tensor_set_error("size mismatch, got %lld, %lldx%lld,%lld", (long long)a->shape[0],
                     (long long)a->shape[0], (long long)a->shape[1], (long long)v->shape[0]);
    return NULL;
  }
  Tensor *col = tensor_unsqueeze(v, 1);
  Tensor *c = col ? mm(a, col, true) : NULL;
  Tensor *out = c ? tensor_squeeze(c, 1, true) : NULL;
  tensor_release(col);
  tensor_release(c);
  return out;
}

Tensor *tensor_dot(const Tensor *a, const Tensor *b) {
  if (a->ndim != 1 || b->ndim != 1) {
    tensor_set_error("1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
    return NULL;
  }
  if (a->dtype != b->dtype) {
    tensor_set_error("dot : expected both vectors to have same dtype, but found %s and %s",
                     tensor_dtype_torch_name(a->dtype), tensor_dtype_torch_name(b->dtype));
    return NULL;
  }
  if (a->numel != b->numel) {
    tensor_set_error("inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the "
                     "same number of elements, but got %lld and %lld elements respectively",
                     (long long)a->numel, (long long)b->numel, (long long)a->numel,
                     (long long)b->numel);
    return NULL;
  }
  if (!dtype_is_native(a->dtype)) {
    tensor_set_error("\"dot\" not implemented for '%s'", tensor_dtype_torch_name(a->dtype));
    return NULL;
  }
  Tensor *out = tensor_zeros(a->dtype == DT_BOOL ? DT_BOOL : a->dtype, 0, NULL);
  if (!out) return NULL;
  int64_t n = a->numel;
  bool by_blas = dtype_is_float(a->dtype) && fits_blas_int(n) && fits_blas_int(a->stride[0]) &&
                 fits_blas_int(b->stride[0]);
  const BlasApi *blas = by_blas ? tensor_blas() : NULL;
  if (by_blas && a->dtype == DT_FLOAT32)
    *(float *)tensor_data(out) = blas->cblas_sdot((int)n, tensor_data(a), (int)a->stride[0], tensor_data(b), (int)b->stride[0]);
  else if (by_blas)
    *(double *)tensor_data(out) = blas->cblas_ddot((int)n, tensor_data(a), (int)a->stride[0], tensor_data(b), (int)b->stride[0]);
  else {
    double s = 0;
    for (int64_t i = 0; i < n && !tensor_interrupt_requested; i++) s += tensor_get_flat(a, i) * tensor_get_flat(b, i);
    tensor_set_flat(out, 0, s);
  }
  if (tensor_check_interrupt()) { /* the loop above may run over 10^10 elements */
    tensor_release(out);
    return NULL;
  }
  return out;
}

Tensor *tensor_outer(const Tensor *a, const Tensor *b) {
  if (a->ndim != 1 || b->ndim != 1) {
    tensor_set_error("outer: Expected 1-D argument %s, but got %d-D", a->ndim != 1 ? "self" : "vec2",
                     a->ndim != 1 ? a->ndim : b->ndim);
    return NULL;
  }
  Tensor *col = tensor_unsqueeze(a, 1);
  Tensor *out = col ? tensor_binary(BIN_MUL, col, b) : NULL;
  tensor_release(col);
  return out;
}

/* ---- matmul ---- */

/* Broadcasts the batch dims of a (..., m, k) and b (..., k, n), then multiplies. */
static Tensor *matmul_batched(const Tensor *a, const Tensor *b) {
  if (a->shape[a->ndim - 1] != b->shape[b->ndim - 2]) {
    tensor_set_error("mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                     (long long)(a->numel / (a->shape[a->ndim - 1] ? a->shape[a->ndim - 1] : 1)),
                     (long long)a->shape[a->ndim - 1], (long long)b->shape[b->ndim - 2],
                     (long long)b->shape[b->ndim - 1]);
    return NULL;
  }
  int nb;
  int64_t batch[TENSOR_MAX_DIMS], sa[TENSOR_MAX_DIMS], sb[TENSOR_MAX_DIMS];
  if (!tensor_broadcast_shape(a->ndim - 2, a->shape, b->ndim - 2, b->shape, &nb, batch))
    return NULL;
  memcpy(sa, batch, (size_t)nb * sizeof(int64_t));
  memcpy(sb, batch, (size_t)nb * sizeof(int64_t));
  sa[nb] = a->shape[a->ndim - 2];
  sa[nb + 1] = a->shape[a->ndim - 1];
  sb[nb] = b->shape[b->ndim - 2];
  sb[nb + 1] = b->shape[b->ndim - 1];
  Tensor *ea = tensor_expand(a, nb + 2, sa);
  Tensor *eb = ea ? tensor_expand(b, nb + 2, sb) : NULL;
  Tensor *out = eb ? batched_mm(ea, eb) : NULL;
  tensor_release(ea);
  tensor_release(eb);
  return out;
}

Tensor *tensor_matmul(const Tensor *a, const Tensor *b) {
  if (a->ndim == 0 || b->ndim == 0) {
    tensor_set_error("both arguments to matmul need to be at least 1D, but they are %dD and %dD",
                     a->ndim, b->ndim);
    return NULL;
  }
  if (!check_dtypes(a, b)) return NULL;
  if (a->ndim == 1 && b->ndim == 1) return tensor_dot(a, b);
  if (a->ndim == 2 && b->ndim == 1) return tensor_mv(a, b);
  if (a->ndim == 2 && b->ndim == 2) return tensor_mm(a, b);
  /* a 1-D operand gets a unit dim (removed again afterwards) */
  Tensor *ua = a->ndim == 1 ? tensor_unsqueeze(a, 0) : tensor_retain((Tensor *)a);
  Tensor *ub = b->ndim == 1 ? tensor_unsqueeze(b, 1) : tensor_retain((Tensor *)b);
  Tensor *r = ua && ub ? (ua->ndim == 2 && ub->ndim == 2 ? tensor_mm(ua, ub) : matmul_batched(ua, ub)) : NULL;
  Tensor *out = r;
  if (r && b->ndim == 1) {
    out = tensor_squeeze(r, r->ndim - 1, true);
    tensor_release(r);
    r = out;
  }
  if (r && a->ndim == 1) {
    out = tensor_squeeze(r, r->ndim - 2, true);
    tensor_release(r);
  }
  tensor_release(ua);
  tensor_release(ub);
  return out;
}
