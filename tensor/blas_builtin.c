/* blas_builtin.c — the CBLAS functions tensor/ calls, as plain loops: what
 * matrix products run on when no BLAS library can be loaded (blas.h).
 *
 * Correct for every argument CBLAS allows (either order, transposes, alpha,
 * beta, negative increments), in a fixed order: each C entry sums its k
 * products from p = 0 up, in the element type, as the reference BLAS does.
 * No blocking and no threads: small products are about as fast as OpenBLAS,
 * large ones several times slower. */
#include "tensor/blas.h"

#include <stddef.h>

/* Entry (i, j) of a row-major matrix with leading dimension ld, read as
 * stored or transposed. */
#define AT(p, ld, trans, i, j) ((trans) ? (p)[(size_t)(j) * (size_t)(ld) + (size_t)(i)] \
                                        : (p)[(size_t)(i) * (size_t)(ld) + (size_t)(j)])

/* x's element i for an increment inc (negative: counted from the end). */
#define ELEM(x, inc, n, i) ((x)[(inc) >= 0 ? (size_t)(i) * (size_t)(inc) \
                                           : (size_t)((n) - 1 - (i)) * (size_t)(-(inc))])

/* Row-major C = alpha * op(A) @ op(B) + beta * C. With B as stored and beta
 * 0 (every product tensor/ asks for), row i of C gathers a(i, p) * row p of
 * B for p = 0 up: the inner loop runs along contiguous rows, which the
 * compiler vectorises; otherwise each entry is a dot product. A column-major
 * product is the row-major one of the transposes: C^T = op(B)^T @ op(A)^T. */
#define DEFINE_GEMM(NAME, T)                                                                \
  static void NAME##_rows(int ta, int tb, int m, int n, int k, T alpha, const T *a, int lda, \
                          const T *b, int ldb, T beta, T *c, int ldc) {                     \
    for (int i = 0; i < m; i++) {                                                           \
      T *crow = &c[(size_t)i * (size_t)ldc];                                                \
      if (!tb && beta == 0) {                                                               \
        for (int j = 0; j < n; j++) crow[j] = 0;                                            \
        for (int p = 0; p < k; p++) {                                                       \
          T aip = AT(a, lda, ta, i, p);                                                     \
          const T *brow = &b[(size_t)p * (size_t)ldb];                                      \
          for (int j = 0; j < n; j++) crow[j] += aip * brow[j];                             \
        }                                                                                   \
        if (alpha != 1)                                                                     \
          for (int j = 0; j < n; j++) crow[j] *= alpha;                                     \
        continue;                                                                           \
      }                                                                                     \
      for (int j = 0; j < n; j++) {                                                         \
        T sum = 0;                                                                          \
        for (int p = 0; p < k; p++) sum += AT(a, lda, ta, i, p) * AT(b, ldb, tb, p, j);     \
        crow[j] = beta == 0 ? alpha * sum : alpha * sum + beta * crow[j];                   \
      }                                                                                     \
    }                                                                                       \
  }                                                                                         \
  static void NAME(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, \
                   int m, int n, int k, T alpha, const T *a, int lda, const T *b, int ldb,  \
                   T beta, T *c, int ldc) {                                                 \
    int at = ta != CblasNoTrans, bt = tb != CblasNoTrans;                                   \
    if (order == CblasRowMajor)                                                             \
      NAME##_rows(at, bt, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                    \
    else                                                                                    \
      NAME##_rows(bt, at, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);                    \
  }

/* y = alpha * op(A) @ x + beta * y, A being m x n as stored. */
#define DEFINE_GEMV(NAME, T)                                                                \
  static void NAME(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE t, int m, int n, T alpha,   \
                   const T *a, int lda, const T *x, int incx, T beta, T *y, int incy) {     \
    /* as row-major: a column-major A is the row-major A^T */                               \
    int trans = (t != CblasNoTrans) != (order == CblasColMajor);                            \
    int rows = order == CblasRowMajor ? m : n, cols = order == CblasRowMajor ? n : m;       \
    int ny = trans ? cols : rows, nx = trans ? rows : cols;                                 \
    for (int i = 0; i < ny; i++) {                                                          \
      T sum = 0;                                                                            \
      for (int p = 0; p < nx; p++) sum += AT(a, lda, trans, i, p) * ELEM(x, incx, nx, p);   \
      T *out = &ELEM(y, incy, ny, i);                                                       \
      *out = beta == 0 ? alpha * sum : alpha * sum + beta * *out;                           \
    }                                                                                       \
  }

#define DEFINE_DOT(NAME, T)                                                                 \
  static T NAME(int n, const T *x, int incx, const T *y, int incy) {                        \
    T sum = 0;                                                                              \
    for (int i = 0; i < n; i++) sum += ELEM(x, incx, n, i) * ELEM(y, incy, n, i);           \
    return sum;                                                                             \
  }

DEFINE_GEMM(builtin_cblas_sgemm, float)
DEFINE_GEMM(builtin_cblas_dgemm, double)
DEFINE_GEMV(builtin_cblas_sgemv, float)
DEFINE_GEMV(builtin_cblas_dgemv, double)
DEFINE_DOT(builtin_cblas_sdot, float)
DEFINE_DOT(builtin_cblas_ddot, double)

const BlasApi tensor_blas_builtin = {
#define TENSOR_BLAS_BUILTIN(name, type) .name = builtin_##name,
    TENSOR_BLAS_FUNCTIONS(TENSOR_BLAS_BUILTIN)
#undef TENSOR_BLAS_BUILTIN
};
