/* blas.h — OpenBLAS, loaded at the first matrix product (internal to tensor/).
 *
 * Linked in, OpenBLAS would cost every run: ld.so binds its symbols (half of
 * the instructions `ag -e 'print(1)'` ran) and its constructor starts threads
 * that spin on sched_yield for 0.1 s — in scripts that never multiply a
 * matrix. So the first product dlopen's it and looks up the few functions
 * tensor/ calls; <cblas.h> gives only their types.
 */
#ifndef AG_TENSOR_BLAS_H
#define AG_TENSOR_BLAS_H

#include <cblas.h>
#include <stdbool.h>

/* LAPACK's QR factorisation, from OpenBLAS's LAPACK (the library PyTorch's
 * Debian build links as liblapack): Fortran symbols, declared here only for
 * their types (int is OpenBLAS's 32-bit blasint). */
void sgeqrf_(const int *m, const int *n, float *a, const int *lda, float *tau, float *work,
             const int *lwork, int *info);
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void sorgqr_(const int *m, const int *n, const int *k, float *a, const int *lda, const float *tau,
             float *work, const int *lwork, int *info);
void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda,
             const double *tau, double *work, const int *lwork, int *info);

/* Every CBLAS and LAPACK function tensor/ calls, X(name) each. */
#define TENSOR_BLAS_FUNCTIONS(X)                                                           \
  X(cblas_sgemm) X(cblas_dgemm) X(cblas_sgemv) X(cblas_dgemv) X(cblas_sdot) X(cblas_ddot) \
  X(sgeqrf_) X(dgeqrf_) X(sorgqr_) X(dorgqr_)

/* One pointer per function, named and typed as <cblas.h> declares it. */
typedef struct {
#define TENSOR_BLAS_POINTER(name) __typeof__(name) *name;
  TENSOR_BLAS_FUNCTIONS(TENSOR_BLAS_POINTER)
#undef TENSOR_BLAS_POINTER
} BlasApi;

/* The functions, OpenBLAS loaded by the first call in the process (from any
 * thread); NULL with tensor_set_error when it cannot be loaded. */
const BlasApi *tensor_blas(void);

/* Fills *api from the first of the NULL-terminated libraries that dlopen
 * finds; false with tensor_set_error if none loads. tensor_blas's loader,
 * open to the unit tests so they can try a missing library. */
bool tensor_blas_open(const char *const *libraries, BlasApi *api);

#endif
