/* test_tensor_repeat.c — tensor/repeat.c (roll, repeat, repeat_interleave's
 * index, diagonals) and cumprod's backward kernel in tensor/scan.c. */
#include <check.h>
#include <stdint.h>

#include "tests/unit/test_tensor_helpers.h"

START_TEST(test_roll) {
  Tensor *a = tt_iota(DT_FLOAT32, 2, (int64_t)2, (int64_t)3); /* [[0 1 2] [3 4 5]] */
  Tensor *r = tensor_roll(a, (int64_t[]){1}, 1, (int[]){1}, 1);
  tt_check_values(r, (double[]){2, 0, 1, 5, 3, 4}, 0);
  tensor_release(r);
  r = tensor_roll(a, (int64_t[]){-7, 1}, 2, (int[]){1, -2}, 2); /* -7 = -1 mod 3 */
  tt_check_values(r, (double[]){4, 5, 3, 1, 2, 0}, 0);
  tensor_release(r);
  r = tensor_roll(a, (int64_t[]){2}, 1, NULL, 0); /* the flattened tensor */
  tt_check_shape(r, 2, TT_SHAPE(2, 3));
  tt_check_values(r, (double[]){4, 5, 0, 1, 2, 3}, 0);
  tensor_release(r);
  Tensor *t = tensor_transpose(a, 0, 1); /* strided input: [[0 3] [1 4] [2 5]] */
  r = tensor_roll(t, (int64_t[]){1}, 1, (int[]){0}, 1);
  tt_check_values(r, (double[]){2, 5, 0, 3, 1, 4}, 0);
  tensor_release(r);
  tensor_release(t);
  tt_check_error(tensor_roll(a, (int64_t[]){1}, 1, (int[]){2}, 1), "Dimension out of range");
  tt_check_error(tensor_roll(a, (int64_t[]){1, 2}, 2, (int[]){0}, 1),
                 "shifts and dimensions must align. shifts: 2, dims:1");
  tt_check_error(tensor_roll(a, NULL, 0, NULL, 0), "`shifts` required");
  tensor_release(a);
}
END_TEST

START_TEST(test_repeat) {
  Tensor *a = tt_iota(DT_INT64, 1, (int64_t)2); /* [0 1] */
  Tensor *r = tensor_repeat(a, (int64_t[]){2, 3}, 2);
  tt_check_shape(r, 2, TT_SHAPE(2, 6));
  tt_check_values(r, (double[]){0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, 0);
  tensor_release(r);
  r = tensor_repeat(a, (int64_t[]){0}, 1);
  tt_check_shape(r, 1, TT_SHAPE(0));
  tensor_release(r);
  tt_check_error(tensor_repeat(a, NULL, 0), "can not be smaller than number of dimensions");
  tt_check_error(tensor_repeat(a, (int64_t[]){-1}, 1), "negative dimension -2");
  tt_check_error(tensor_repeat(a, (int64_t[]){INT64_MAX / 2 + 1}, 1), "overflowed");
  tt_check_error(tensor_repeat(a, (int64_t[]){INT64_C(1) << 40, INT64_C(1) << 40}, 2),
                 "Storage size calculation overflowed with sizes=");
  tensor_release(a);
}
END_TEST

START_TEST(test_repeat_interleave_index) {
  Tensor *counts = tt_make(DT_INT64, 1, TT_SHAPE(4), (double[]){2, 0, 1, 3});
  Tensor *idx = tensor_repeat_interleave_index(counts, -1);
  tt_check_values(idx, (double[]){0, 0, 2, 3, 3, 3}, 0);
  tensor_release(idx);
  tt_check_error(tensor_repeat_interleave_index(counts, 5),
                 "allocated size does not match required size");
  tensor_release(counts);
  counts = tt_make(DT_INT64, 1, TT_SHAPE(2), (double[]){1, -1});
  tt_check_error(tensor_repeat_interleave_index(counts, -1), "repeats can not be negative");
  tensor_release(counts);
  counts = tt_make(DT_INT64, 2, TT_SHAPE(2, 1), (double[]){1, 1});
  tt_check_error(tensor_repeat_interleave_index(counts, -1), "only accept 1D vector");
  tensor_release(counts);
  counts = tt_make(DT_FLOAT32, 1, TT_SHAPE(1), (double[]){1});
  tt_check_error(tensor_repeat_interleave_index(counts, -1), "not implemented for 'Float'");
  tensor_release(counts);
  counts = tensor_full(DT_INT64, 1, TT_SHAPE(2), 0);
  tensor_set_flat_int(counts, 0, INT64_MAX);
  tensor_set_flat_int(counts, 1, INT64_MAX);
  tt_check_error(tensor_repeat_interleave_index(counts, -1), "the sum of the repeats overflows");
  tensor_release(counts);
}
END_TEST

START_TEST(test_diagonals) {
  Tensor *m = tt_iota(DT_FLOAT64, 2, (int64_t)3, (int64_t)4);
  Tensor *d = tensor_diag(m, 1);
  tt_check_values(d, (double[]){1, 6, 11}, 0);
  tensor_release(d);
  d = tensor_diag(m, -2);
  tt_check_values(d, (double[]){8}, 0);
  tensor_release(d);
  d = tensor_diag(m, 7);
  tt_check_shape(d, 1, TT_SHAPE(0));
  tensor_release(d);
  Tensor *v = tt_make(DT_FLOAT32, 1, TT_SHAPE(2), (double[]){5, 6});
  d = tensor_diag(v, -1);
  tt_check_shape(d, 2, TT_SHAPE(3, 3));
  tt_check_values(d, (double[]){0, 0, 0, 5, 0, 0, 0, 6, 0}, 0);
  tensor_release(d);
  tt_check_error(tensor_diag(v, INT64_MIN), "overflows");
  d = tensor_diag(m, INT64_MIN);
  tt_check_shape(d, 1, TT_SHAPE(0));
  tensor_release(d);
  Tensor *c = tt_iota(DT_FLOAT32, 3, (int64_t)2, (int64_t)2, (int64_t)2);
  tt_check_error(tensor_diag(c, 0), "matrix or a vector expected");
  d = tensor_diagonal(c, 0, 0, 2); /* c[i, j, i] -> [j, i] */
  tt_check_shape(d, 2, TT_SHAPE(2, 2));
  tt_check_values(d, (double[]){0, 5, 2, 7}, 0);
  Tensor *e = tensor_diagonal_embed(d, 3, TT_SHAPE(2, 2, 2), 0, 0, 2);
  tt_check_values(e, (double[]){0, 0, 2, 0, 0, 5, 0, 7}, 0);
  tensor_release(e);
  tensor_release(d);
  tt_check_error(tensor_diagonal(c, 0, 1, -2), "diagonal dimensions cannot be identical");
  tensor_release(c);
  tensor_release(v);
  tensor_release(m);
}
END_TEST

START_TEST(test_cumprod_backward) {
  /* x = [2, 0, 3, 0.5] along dim 1, g = 1: dx0 = 1 + 0 + ..., only the
   * first output depends on x0 without the zero: dx0 = g0 = 1; dx1 = x0 *
   * (g1 + g2 x2 + g3 x2 x3) = 2 (1 + 3 + 1.5); later entries 0. */
  Tensor *x = tt_make(DT_FLOAT64, 2, TT_SHAPE(2, 4), (double[]){2, 0, 3, 0.5, 1, 2, 4, 0.5});
  Tensor *g = tensor_full(DT_FLOAT64, 2, TT_SHAPE(2, 4), 1);
  Tensor *dx = tensor_cumprod_backward(x, g, 1);
  /* second row has no zero: dx_k = sum_{j>=k} out_j / x_k, outs 1, 2, 8, 4 */
  tt_check_values(dx, (double[]){1, 11, 0, 0, 15, 7, 3, 8}, 1e-15);
  tensor_release(dx);
  tt_check_error(tensor_cumprod_backward(x, g, 2), "Dimension out of range");
  tensor_release(g);
  tensor_release(x);
}
END_TEST

int main(void) {
  Suite *s = suite_create("tensor_repeat");
  TCase *tc = tcase_create("repeat");
  tcase_add_test(tc, test_roll);
  tcase_add_test(tc, test_repeat);
  tcase_add_test(tc, test_repeat_interleave_index);
  tcase_add_test(tc, test_diagonals);
  tcase_add_test(tc, test_cumprod_backward);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? 0 : 1;
}
