/* test_tensor_helpers.h — small builders and checks shared by the tensor unit suites. */
#ifndef AG_TEST_TENSOR_HELPERS_H
#define AG_TEST_TENSOR_HELPERS_H

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "tensor/ops.h"
#include "tensor/tensor.h"

/* A tensor of dtype dt and the given shape filled from vals (row-major). */
static inline Tensor *tt_make(DType dt, int ndim, const int64_t *shape, const double *vals) {
  Tensor *t = tensor_empty(dt, ndim, shape);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  for (int64_t i = 0; i < t->numel; i++) tensor_set_flat(t, i, vals[i]);
  return t;
}

/* A float tensor 0, 1, 2, ... of the shape given as varargs (int64_t). */
static inline Tensor *tt_iota(DType dt, int ndim, ...) {
  int64_t shape[TENSOR_MAX_DIMS];
  va_list ap;
  va_start(ap, ndim);
  for (int i = 0; i < ndim; i++) shape[i] = va_arg(ap, int64_t);
  va_end(ap);
  Tensor *t = tensor_empty(dt, ndim, shape);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  for (int64_t i = 0; i < t->numel; i++) tensor_set_flat(t, i, (double)i);
  return t;
}

static inline void tt_check_shape(const Tensor *t, int ndim, const int64_t *shape) {
  ck_assert_int_eq(t->ndim, ndim);
  for (int i = 0; i < ndim; i++) ck_assert_int_eq(t->shape[i], shape[i]);
}

static inline bool tt_close(double a, double b, double tol) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (isinf(a) || isinf(b)) return a == b;
  return fabs(a - b) <= tol * (1 + fabs(b));
}

/* Checks t's values (row-major) against expected, within a relative tolerance. */
static inline void tt_check_values(const Tensor *t, const double *expected, double tol) {
  for (int64_t i = 0; i < t->numel; i++) {
    double v = tensor_get_flat(t, i);
    ck_assert_msg(tt_close(v, expected[i], tol), "element %lld: got %.9g, expected %.9g",
                  (long long)i, v, expected[i]);
  }
}

static inline void tt_check_error(const void *result, const char *substring) {
  ck_assert_msg(result == NULL, "expected an error containing \"%s\"", substring);
  ck_assert_msg(strstr(tensor_error(), substring) != NULL, "error \"%s\" lacks \"%s\"",
                tensor_error(), substring);
}

#define TT_SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define TT_VALS(...) ((const double[]){__VA_ARGS__})

#endif
