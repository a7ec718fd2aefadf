/* blas.h — the BLAS library, loaded at the first matrix product (internal to
 * tensor/).
 *
 * Linked in, OpenBLAS would cost every run: ld.so binds its symbols (half of
 * the instructions `ag -e 'print(1)'` ran) and its constructor starts threads
 * that spin on sched_yield for 0.1 s — in scripts that never multiply a
 * matrix. So the first product dlopen's a CBLAS (OpenBLAS, or Accelerate on
 * macOS) and looks up the few functions tensor/ calls. When none loads (a
 * minimal machine, WebAssembly), the products run on blas_builtin.c's plain
 * loops instead, after a one-line note on stderr.
 *
 * The declarations are the CBLAS standard's (every CBLAS library has this
 * ABI: 32-bit int sizes, the enums' values), written here so that building
 * Ag needs no BLAS headers, for any target. */
#ifndef AG_TENSOR_BLAS_H
#define AG_TENSOR_BLAS_H

#include <stdbool.h>
#include <stdint.h>

enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112 };

typedef void BlasSgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb,
                       int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                       int ldb, float beta, float *c, int ldc);
typedef void BlasDgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb,
                       int m, int n, int k, double alpha, const double *a, int lda,
                       const double *b, int ldb, double beta, double *c, int ldc);
typedef void BlasSgemv(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE t, int m, int n, float alpha,
                       const float *a, int lda, const float *x, int incx, float beta, float *y,
                       int incy);
typedef void BlasDgemv(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE t, int m, int n,
                       double alpha, const double *a, int lda, const double *x, int incx,
                       double beta, double *y, int incy);
typedef float BlasSdot(int n, const float *x, int incx, const float *y, int incy);
typedef double BlasDdot(int n, const double *x, int incx, const double *y, int incy);

/* LAPACK's QR factorisation, from OpenBLAS's LAPACK (the library PyTorch's
 * Debian build links as liblapack): Fortran symbols, int being OpenBLAS's
 * 32-bit blasint. Optional: a BLAS without them (the built-in kernel, a
 * reference libblas) leaves these pointers NULL and tensor_qr says so. */
typedef void BlasSgeqrf(const int *m, const int *n, float *a, const int *lda, float *tau,
                        float *work, const int *lwork, int *info);
typedef void BlasDgeqrf(const int *m, const int *n, double *a, const int *lda, double *tau,
                        double *work, const int *lwork, int *info);
typedef void BlasSorgqr(const int *m, const int *n, const int *k, float *a, const int *lda,
                        const float *tau, float *work, const int *lwork, int *info);
typedef void BlasDorgqr(const int *m, const int *n, const int *k, double *a, const int *lda,
                        const double *tau, double *work, const int *lwork, int *info);

/* Every CBLAS function tensor/ calls, X(name, type) each (all required), and
 * the LAPACK ones (each may be missing). */
#define TENSOR_BLAS_FUNCTIONS(X)                                                          \
  X(cblas_sgemm, BlasSgemm) X(cblas_dgemm, BlasDgemm) X(cblas_sgemv, BlasSgemv)            \
  X(cblas_dgemv, BlasDgemv) X(cblas_sdot, BlasSdot) X(cblas_ddot, BlasDdot)
#define TENSOR_LAPACK_FUNCTIONS(X)                                                        \
  X(sgeqrf_, BlasSgeqrf) X(dgeqrf_, BlasDgeqrf) X(sorgqr_, BlasSorgqr) X(dorgqr_, BlasDorgqr)

/* OpenBLAS's thread count (optional: other libraries leave them NULL). */
typedef void BlasSetThreads(int threads);
typedef int BlasGetThreads(void);
#define TENSOR_BLAS_THREAD_FUNCTIONS(X)                                                   \
  X(openblas_set_num_threads, BlasSetThreads) X(openblas_get_num_threads, BlasGetThreads)

/* One pointer per function, named as CBLAS names it. */
typedef struct {
#define TENSOR_BLAS_POINTER(name, type) type *name;
  TENSOR_BLAS_FUNCTIONS(TENSOR_BLAS_POINTER)
  TENSOR_LAPACK_FUNCTIONS(TENSOR_BLAS_POINTER)
  TENSOR_BLAS_THREAD_FUNCTIONS(TENSOR_BLAS_POINTER)
#undef TENSOR_BLAS_POINTER
} BlasApi;

/* The functions, the library loaded by the first call in the process (from
 * any thread): the first of the platform's libraries that loads, or the one
 * named by the environment variable AG_BLAS (a file name or path; "builtin"
 * for the built-in kernel). When none loads, the built-in kernel, and a note
 * on stderr saying so (once). Never NULL. */
const BlasApi *tensor_blas(void);

/* Runs product(i, ctx) for every i in [0, count): `count` independent
 * products of `multiply_adds` each (the matrices of a bmm, the samples of a
 * convolution), under the threading rule of blas.c: spread over Ag's worker
 * pool, each on one BLAS thread, when together they are worth more than one
 * thread; otherwise one after the other on the library's own threads. A
 * product may run on any thread: it must not allocate tensors or set errors
 * (it reports failure through ctx). */
void tensor_blas_batch(int64_t count, double multiply_adds, void (*product)(int64_t i, void *ctx),
                       void *ctx);

/* What tensor_blas uses: the library's name, or "builtin"; NULL before the
 * first product. */
const char *tensor_blas_name(void);

/* Fills *api from the first of the NULL-terminated libraries that dlopen
 * finds and returns its name; NULL with tensor_set_error (naming the library
 * and what failed) if none loads. tensor_blas's loader, open to the unit tests. */
const char *tensor_blas_open(const char *const *libraries, BlasApi *api);

/* The built-in kernel (blas_builtin.c): plain loops, no blocking or threads. */
extern const BlasApi tensor_blas_builtin;

#endif
