/* test_print.c — tensor_repr against the text PyTorch 1.13 prints.
 *
 * Every expected string comes from a PyTorch 1.13 run (most from the
 * conformance .out files), with booleans and dtypes spelt Ag's way.
 */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/print.h"
#include "tensor/tensor.h"

/* A contiguous tensor of the given shape filled from `values` (row-major). */
static Tensor *make(DType dt, int ndim, const int64_t *shape, const double *values) {
  Tensor *t = tensor_empty(dt, ndim, shape);
  ck_assert_ptr_nonnull(t);
  for (int64_t i = 0; i < t->numel; i++) tensor_set_flat(t, i, values[i]);
  return t;
}

static Tensor *vec(DType dt, int n, ...) {
  double values[64];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) values[i] = va_arg(ap, double);
  va_end(ap);
  int64_t shape[1] = {n};
  return make(dt, 1, shape, values);
}

/* Elements 0, 1, 2, ... scaled and shifted. */
static Tensor *ramp(DType dt, int ndim, const int64_t *shape, double scale, double shift) {
  Tensor *t = tensor_empty(dt, ndim, shape);
  ck_assert_ptr_nonnull(t);
  for (int64_t i = 0; i < t->numel; i++) tensor_set_flat(t, i, (double)i * scale + shift);
  return t;
}

/* Checks the repr and releases the tensor. */
static void expect_repr_x(Tensor *t, const char *extra, const char *expected) {
  const char *extras[1] = {extra};
  char *s = tensor_repr(t, extras, extra ? 1 : 0);
  ck_assert_ptr_nonnull(s);
  ck_assert_str_eq(s, expected);
  free(s);
  tensor_release(t);
}

static void expect_repr(Tensor *t, const char *expected) { expect_repr_x(t, NULL, expected); }

static Tensor *scalar(DType dt, double v) { return tensor_scalar(dt, v); }

START_TEST(scalars) {
  expect_repr(scalar(DT_FLOAT32, 3.0), "tensor(3.)");
  expect_repr(scalar(DT_FLOAT32, 3.14159), "tensor(3.1416)");
  expect_repr(scalar(DT_FLOAT32, -0.5), "tensor(-0.5000)");
  expect_repr(scalar(DT_INT64, 5), "tensor(5)");
  expect_repr(scalar(DT_BOOL, 1), "tensor(true)");
  expect_repr(scalar(DT_FLOAT32, 1e-8), "tensor(1.0000e-08)");
  expect_repr(scalar(DT_FLOAT32, 1e10), "tensor(1.0000e+10)");
  expect_repr(scalar(DT_FLOAT32, 0.0), "tensor(0.)");
  expect_repr(scalar(DT_FLOAT64, 2.5), "tensor(2.5000, dtype=float64)");
  expect_repr(scalar(DT_FLOAT32, NAN), "tensor(nan)");
  expect_repr(scalar(DT_FLOAT32, -INFINITY), "tensor(-inf)");
}
END_TEST

START_TEST(vectors_fixed_and_int_mode) {
  expect_repr(vec(DT_FLOAT32, 2, 0.1, 0.8), "tensor([0.1000, 0.8000])");
  expect_repr(vec(DT_FLOAT32, 3, 1.0, 2.0, 3.0), "tensor([1., 2., 3.])");
  expect_repr(vec(DT_FLOAT32, 3, 1.5, -2.25, 3.0), "tensor([ 1.5000, -2.2500,  3.0000])");
  expect_repr(vec(DT_FLOAT32, 2, 100.0, 200.5), "tensor([100.0000, 200.5000])");
  expect_repr(vec(DT_FLOAT32, 2, -1.0, -0.001), "tensor([-1.0000, -0.0010])");
  expect_repr(vec(DT_FLOAT32, 2, 1.0, 1000.0), "tensor([   1., 1000.])");
  expect_repr(vec(DT_FLOAT32, 3, -1.0, 0.0, 1.0), "tensor([-1.,  0.,  1.])");
  expect_repr(vec(DT_FLOAT32, 2, 10.0, 2.0), "tensor([10.,  2.])");
}
END_TEST

START_TEST(vectors_scientific) {
  expect_repr(vec(DT_FLOAT32, 2, 1e-05, 1e5), "tensor([1.0000e-05, 1.0000e+05])");
  expect_repr(vec(DT_FLOAT32, 2, 0.001, 1000.0), "tensor([1.0000e-03, 1.0000e+03])");
  expect_repr(vec(DT_FLOAT32, 2, 123456.0, 1.0), "tensor([1.2346e+05, 1.0000e+00])");
  expect_repr(vec(DT_FLOAT32, 2, 1e9, 2e9), "tensor([1.0000e+09, 2.0000e+09])");
  expect_repr(vec(DT_FLOAT32, 2, -1e-5, 0.0), "tensor([-1.0000e-05,  0.0000e+00])");
}
END_TEST

START_TEST(non_finite_values) {
  /* zeros and non-finite values do not size the columns */
  expect_repr(vec(DT_FLOAT32, 2, 1.0, INFINITY), "tensor([1., inf])");
  expect_repr(vec(DT_FLOAT32, 3, 1.5, NAN, -INFINITY), "tensor([1.5000,    nan,   -inf])");
  expect_repr(vec(DT_FLOAT32, 2, NAN, INFINITY), "tensor([nan, inf])");
  expect_repr(vec(DT_FLOAT32, 2, 0.0, 0.0), "tensor([0., 0.])");
  expect_repr(vec(DT_FLOAT32, 2, -0.0, 1.0), "tensor([-0., 1.])");
  expect_repr(vec(DT_FLOAT32, 2, 1e-5, -NAN), "tensor([1.0000e-05,        nan])");
}
END_TEST

START_TEST(integers_and_booleans) {
  expect_repr(vec(DT_INT64, 3, 0.0, 1.0, 2.0), "tensor([0, 1, 2])");
  expect_repr(vec(DT_INT64, 3, 1.0, -2.0, 3.0), "tensor([ 1, -2,  3])");
  int64_t shape[2] = {2, 2};
  expect_repr(make(DT_INT64, 2, shape, (double[]){1, -20, 300, 4}),
              "tensor([[  1, -20],\n        [300,   4]])");
  expect_repr(vec(DT_BOOL, 2, 0.0, 1.0), "tensor([false,  true])");
  expect_repr(vec(DT_BOOL, 3, 1.0, 0.0, 1.0), "tensor([ true, false,  true])");
  expect_repr(vec(DT_BOOL, 2, 1.0, 1.0), "tensor([true, true])");
  expect_repr(make(DT_BOOL, 2, shape, (double[]){1, 0, 0, 1}),
              "tensor([[ true, false],\n        [false,  true]])");
}
END_TEST

START_TEST(int64_keeps_every_digit) {
  Tensor *t = tensor_empty(DT_INT64, 1, (int64_t[]){2});
  ((int64_t *)tensor_data(t))[0] = INT64_MAX;
  ((int64_t *)tensor_data(t))[1] = INT64_MIN;
  expect_repr(t, "tensor([ 9223372036854775807, -9223372036854775808])");
}
END_TEST

START_TEST(matrices_and_suffixes) {
  int64_t shape[2] = {2, 2};
  expect_repr_x(make(DT_FLOAT32, 2, shape, (double[]){2, 4, 6, 8}), "requires_grad=true",
                "tensor([[2., 4.],\n        [6., 8.]], requires_grad=true)");
  expect_repr(vec(DT_FLOAT64, 2, 1.0, 2.0), "tensor([1., 2.], dtype=float64)");
  expect_repr(make(DT_FLOAT64, 2, shape, (double[]){1.5, 2, 3, 4}),
              "tensor([[1.5000, 2.0000],\n        [3.0000, 4.0000]], dtype=float64)");
  expect_repr_x(vec(DT_FLOAT64, 2, 1.0, 2.0), "requires_grad=true",
                "tensor([1., 2.], dtype=float64, requires_grad=true)");
  expect_repr_x(vec(DT_FLOAT32, 2, 0.2, 0.4), "grad_fn=<MulBackward0>",
                "tensor([0.2000, 0.4000], grad_fn=<MulBackward0>)");
  expect_repr_x(scalar(DT_FLOAT32, 10), "grad_fn=<AddBackward0>",
                "tensor(10., grad_fn=<AddBackward0>)");
}
END_TEST

START_TEST(three_dims_blank_lines) {
  int64_t shape[3] = {2, 2, 2};
  expect_repr(ramp(DT_FLOAT32, 3, shape, 1, 1),
              "tensor([[[1., 2.],\n         [3., 4.]],\n\n        [[5., 6.],\n         [7., 8.]]])");
  int64_t shape4[4] = {2, 1, 1, 2};
  expect_repr(ramp(DT_INT64, 4, shape4, 1, 0),
              "tensor([[[[0, 1]]],\n\n\n        [[[2, 3]]]])");
}
END_TEST

START_TEST(line_wrapping) {
  /* linspace(0, 1, 20) */
  Tensor *t = ramp(DT_FLOAT32, 1, (int64_t[]){20}, 1.0 / 19, 0);
  expect_repr(t, "tensor([0.0000, 0.0526, 0.1053, 0.1579, 0.2105, 0.2632, 0.3158, 0.3684, 0.4211,\n"
                 "        0.4737, 0.5263, 0.5789, 0.6316, 0.6842, 0.7368, 0.7895, 0.8421, 0.8947,\n"
                 "        0.9474, 1.0000])");
  /* a wrapped row inside a matrix is indented one more */
  Tensor *m = ramp(DT_INT64, 2, (int64_t[]){2, 30}, 1, 0);
  expect_repr(m, "tensor([[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
                 "         18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29],\n"
                 "        [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,\n"
                 "         48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]])");
}
END_TEST

START_TEST(suffix_wraps_past_80_columns) {
  Tensor *t = ramp(DT_FLOAT64, 1, (int64_t[]){9}, 1, 0.5);
  expect_repr_x(t, "requires_grad=true",
                "tensor([0.5000, 1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000, 7.5000, 8.5000],\n"
                "       dtype=float64, requires_grad=true)");
}
END_TEST

START_TEST(summarised) {
  expect_repr(ramp(DT_INT64, 1, (int64_t[]){2000}, 1, 0),
              "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
  expect_repr(ramp(DT_FLOAT32, 1, (int64_t[]){2000}, 0.25, 0),
              "tensor([0.0000e+00, 2.5000e-01, 5.0000e-01,  ..., 4.9925e+02, 4.9950e+02,\n"
              "        4.9975e+02])");
  expect_repr(ramp(DT_INT64, 2, (int64_t[]){40, 50}, 1, 0),
              "tensor([[   0,    1,    2,  ...,   47,   48,   49],\n"
              "        [  50,   51,   52,  ...,   97,   98,   99],\n"
              "        [ 100,  101,  102,  ...,  147,  148,  149],\n"
              "        ...,\n"
              "        [1850, 1851, 1852,  ..., 1897, 1898, 1899],\n"
              "        [1900, 1901, 1902,  ..., 1947, 1948, 1949],\n"
              "        [1950, 1951, 1952,  ..., 1997, 1998, 1999]])");
  expect_repr(ramp(DT_FLOAT32, 1, (int64_t[]){1001}, 0, 0.5),
              "tensor([0.5000, 0.5000, 0.5000,  ..., 0.5000, 0.5000, 0.5000])");
  expect_repr(ramp(DT_FLOAT32, 2, (int64_t[]){2, 1000}, 1, -1000),
              "tensor([[-1000.,  -999.,  -998.,  ...,    -3.,    -2.,    -1.],\n"
              "        [    0.,     1.,     2.,  ...,   997.,   998.,   999.]])");
  /* exactly 1000 elements: printed in full */
  Tensor *full = ramp(DT_INT64, 1, (int64_t[]){1000}, 0, 7);
  char *s = tensor_body_str(full);
  ck_assert_ptr_null(strstr(s, "..."));
  free(s);
  tensor_release(full);
}
END_TEST

START_TEST(summarised_3d) {
  expect_repr(ramp(DT_INT64, 3, (int64_t[]){8, 2, 100}, 1, 0),
              "tensor([[[   0,    1,    2,  ...,   97,   98,   99],\n"
              "         [ 100,  101,  102,  ...,  197,  198,  199]],\n\n"
              "        [[ 200,  201,  202,  ...,  297,  298,  299],\n"
              "         [ 300,  301,  302,  ...,  397,  398,  399]],\n\n"
              "        [[ 400,  401,  402,  ...,  497,  498,  499],\n"
              "         [ 500,  501,  502,  ...,  597,  598,  599]],\n\n"
              "        ...,\n\n"
              "        [[1000, 1001, 1002,  ..., 1097, 1098, 1099],\n"
              "         [1100, 1101, 1102,  ..., 1197, 1198, 1199]],\n\n"
              "        [[1200, 1201, 1202,  ..., 1297, 1298, 1299],\n"
              "         [1300, 1301, 1302,  ..., 1397, 1398, 1399]],\n\n"
              "        [[1400, 1401, 1402,  ..., 1497, 1498, 1499],\n"
              "         [1500, 1501, 1502,  ..., 1597, 1598, 1599]]])");
}
END_TEST

START_TEST(summary_sizes_columns_from_shown_values_only) {
  /* the hidden middle value 1e6 would force scientific mode if it counted */
  Tensor *t = ramp(DT_FLOAT32, 1, (int64_t[]){1001}, 0, 1.5);
  tensor_set_flat(t, 500, 1e6);
  expect_repr(t, "tensor([1.5000, 1.5000, 1.5000,  ..., 1.5000, 1.5000, 1.5000])");
}
END_TEST

START_TEST(empty_tensors) {
  expect_repr(tensor_empty(DT_FLOAT32, 1, (int64_t[]){0}), "tensor([])");
  expect_repr(tensor_empty(DT_FLOAT32, 2, (int64_t[]){0, 3}), "tensor([], size=(0, 3))");
  expect_repr(tensor_empty(DT_INT64, 1, (int64_t[]){0}), "tensor([], dtype=int64)");
  expect_repr(tensor_empty(DT_BOOL, 2, (int64_t[]){2, 0}), "tensor([], size=(2, 0), dtype=bool)");
  expect_repr_x(tensor_empty(DT_FLOAT64, 1, (int64_t[]){0}), "requires_grad=true",
                "tensor([], dtype=float64, requires_grad=true)");
}
END_TEST

START_TEST(strided_views) {
  /* the transpose of [[1, 2, 3], [4, 5, 6]] */
  Tensor *base = ramp(DT_FLOAT32, 2, (int64_t[]){2, 3}, 1, 1);
  Tensor *tr = tensor_view_of(base, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
  expect_repr(tr, "tensor([[1., 4.],\n        [2., 5.],\n        [3., 6.]])");
  /* a column with an offset: base[:, 1] */
  Tensor *col = tensor_view_of(base, 1, (int64_t[]){2}, (int64_t[]){3}, 1);
  expect_repr(col, "tensor([2., 5.])");
  tensor_release(base);
}
END_TEST

START_TEST(body_str) {
  Tensor *t = ramp(DT_FLOAT32, 2, (int64_t[]){2, 2}, 1, 0);
  char *s = tensor_body_str(t);
  ck_assert_str_eq(s, "[[0., 1.],\n [2., 3.]]");
  free(s);
  tensor_release(t);
  t = scalar(DT_FLOAT32, 0.5);
  s = tensor_body_str(t);
  ck_assert_str_eq(s, "0.5000");
  free(s);
  tensor_release(t);
}
END_TEST

START_TEST(rounding_like_python) {
  /* float32 0.1 is 0.100000001490116..., shown as 0.1000 */
  expect_repr(vec(DT_FLOAT32, 2, 0.1, 0.2), "tensor([0.1000, 0.2000])");
  expect_repr(vec(DT_FLOAT64, 2, 0.00015, 0.5), "tensor([1.5000e-04, 5.0000e-01], dtype=float64)");
  expect_repr(vec(DT_FLOAT32, 2, 2.71828, -1.41421), "tensor([ 2.7183, -1.4142])");
}
END_TEST

START_TEST(too_many_extras_is_an_error) {
  Tensor *t = scalar(DT_FLOAT32, 1);
  ck_assert_ptr_null(tensor_repr(t, NULL, 100));
  ck_assert_ptr_nonnull(strstr(tensor_error(), "too many"));
  tensor_release(t);
}
END_TEST

int main(void) {
  Suite *s = suite_create("print");
  TCase *tc = tcase_create("repr");
  tcase_add_test(tc, scalars);
  tcase_add_test(tc, vectors_fixed_and_int_mode);
  tcase_add_test(tc, vectors_scientific);
  tcase_add_test(tc, non_finite_values);
  tcase_add_test(tc, integers_and_booleans);
  tcase_add_test(tc, int64_keeps_every_digit);
  tcase_add_test(tc, matrices_and_suffixes);
  tcase_add_test(tc, three_dims_blank_lines);
  tcase_add_test(tc, line_wrapping);
  tcase_add_test(tc, suffix_wraps_past_80_columns);
  tcase_add_test(tc, summarised);
  tcase_add_test(tc, summarised_3d);
  tcase_add_test(tc, summary_sizes_columns_from_shown_values_only);
  tcase_add_test(tc, empty_tensors);
  tcase_add_test(tc, strided_views);
  tcase_add_test(tc, body_str);
  tcase_add_test(tc, rounding_like_python);
  tcase_add_test(tc, too_many_extras_is_an_error);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
