/* qr.c — the reduced QR factorisation of a matrix, as torch.linalg.qr
 * computes it on the CPU: LAPACK's geqrf (Householder reflections) and orgqr
 * (Q from them) on a column-major copy, each with the workspace LAPACK asks
 * for. PyTorch's Debian build links OpenBLAS's LAPACK, which Ag loads too,
 * so Q and R come out to the bit as PyTorch's; nn.init.orthogonal_ uses them.
 */
#include <stdlib.h>
#include <string.h>

#include "tensor/blas.h"
#include "tensor/ops.h"

/* A's elements column by column (Fortran order), as doubles or floats. */
static void *column_major(const Tensor *a, int64_t m, int64_t n, size_t elem) {
  char *buf = malloc((size_t)(m * n) * elem + 1);
  if (buf == NULL) return NULL;
  const char *base = a->storage->data;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < m; i++) {
      int64_t off = a->offset + i * a->stride[0] + j * a->stride[1];
      memcpy(buf + (size_t)(i + j * m) * elem, base + (size_t)off * elem, elem);
    }
  return buf;
}

/* LAPACK's dgeqrf then dorgqr (or the float pair) on qr (m x n, m >= n,
 * column-major): R's upper triangle to r (n x n, row-major), Q over qr. */
#define QR_RUN(T, GEQRF, ORGQR, R)                                                            \
  do {                                                                                       \
    T *w_a = qr, query, *tau = malloc(sizeof(T) * (size_t)(n > 0 ? n : 1));                    \
    int lwork = -1, info = 0;                                                                \
    if (tau == NULL) break;                                                                  \
    blas->GEQRF(&mi, &ni, w_a, &lda, tau, &query, &lwork, &info);                             \
    lwork = (int)query > 1 ? (int)query : 1;                                                 \
    T *work = malloc(sizeof(T) * (size_t)lwork);                                             \
    if (work != NULL) blas->GEQRF(&mi, &ni, w_a, &lda, tau, work, &lwork, &info);             \
    free(work);                                                                              \
    for (int64_t i = 0; i < n; i++)                                                          \
      for (int64_t j = 0; j < n; j++) ((T *)(R))[i * n + j] = j >= i ? w_a[i + j * m] : (T)0;   \
    lwork = -1;                                                                              \
    blas->ORGQR(&mi, &ni, &ni, w_a, &lda, tau, &query, &lwork, &info);                        \
    lwork = (int)query > 1 ? (int)query : 1;                                                 \
    work = malloc(sizeof(T) * (size_t)lwork);                                                \
    if (work != NULL) blas->ORGQR(&mi, &ni, &ni, w_a, &lda, tau, work, &lwork, &info);        \
    ok = work != NULL && info == 0;                                                          \
    free(work);                                                                              \
    free(tau);                                                                               \
  } while (0)

bool tensor_qr(const Tensor *a, Tensor **q_out, Tensor **r_out) {
  *q_out = *r_out = NULL;
  if (a->ndim != 2 || !dtype_is_float(a->dtype) || !dtype_is_native(a->dtype)) {
    tensor_set_error("qr: expected a 2-D float tensor, got %d-D %s", a->ndim, dtype_name(a->dtype));
    return false;
  }
  int64_t m = a->shape[0], n = a->shape[1];
  if (m < n || n == 0 || m > (1 << 30)) {
    tensor_set_error("qr: Ag factors matrices with rows >= columns > 0 only, got %lld x %lld",
                     (long long)m, (long long)n);
    return false;
  }
  const BlasApi *blas = tensor_blas();
  if (a->dtype == DT_FLOAT32 ? !blas->sgeqrf_ || !blas->sorgqr_ : !blas->dgeqrf_ || !blas->dorgqr_) {
    tensor_set_error("qr needs LAPACK (OpenBLAS has it), which the BLAS in use (%s) lacks",
                     tensor_blas_name());
    return false;
  }
  size_t elem = dtype_size(a->dtype);
  void *qr = column_major(a, m, n, elem);
  Tensor *r = tensor_empty(a->dtype, 2, (int64_t[]){n, n});
  Tensor *q = tensor_empty(a->dtype, 2, (int64_t[]){m, n});
  bool ok = false;
  if (qr != NULL && r != NULL && q != NULL) {
    int mi = (int)m, ni = (int)n, lda = (int)m;
    if (a->dtype == DT_FLOAT32)
      QR_RUN(float, sgeqrf_, sorgqr_, tensor_data(r));
    else
      QR_RUN(double, dgeqrf_, dorgqr_, tensor_data(r));
    if (ok) { /* Q back to row-major */
      char *qd = tensor_data(q);
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
          memcpy(qd + (size_t)(i * n + j) * elem, (char *)qr + (size_t)(i + j * m) * elem, elem);
    } else {
      tensor_set_error("qr: LAPACK failed (out of memory?)");
    }
  }
  free(qr);
  if (!ok) {
    if (qr == NULL || q == NULL || r == NULL) tensor_set_error("out of memory");
    tensor_release(q);
    tensor_release(r);
    return false;
  }
  *q_out = q;
  *r_out = r;
  return true;
}
