/* test_random.c — reproducibility, ranges and statistics of the random fills. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/ops.h"
#include "tensor/random.h"
#include "tensor/tensor.h"

static double mean_of(const Tensor *t) {
  double s = 0;
  for (int64_t i = 0; i < t->numel; i++) s += tensor_get_flat(t, i);
  return s / (double)t->numel;
}

static double std_of(const Tensor *t) {
  double m = mean_of(t), s = 0;
  for (int64_t i = 0; i < t->numel; i++) {
    double d = tensor_get_flat(t, i) - m;
    s += d * d;
  }
  return sqrt(s / (double)(t->numel - 1));
}

START_TEST(same_seed_same_stream) {
  TensorRng a, b, c;
  rng_seed(&a, 42);
  rng_seed(&b, 42);
  rng_seed(&c, 43);
  int differ = 0;
  for (int i = 0; i < 2000; i++) { /* past the first twist of the state */
    uint32_t x = rng_next32(&a);
    ck_assert_uint_eq(x, rng_next32(&b));
    differ += x != rng_next32(&c);
  }
  ck_assert_int_gt(differ, 1990);
}
END_TEST

START_TEST(known_first_outputs) {
  /* mt19937's reference outputs (Matsumoto and Nishimura's mt19937ar for
   * init_genrand(5489): the 1st and the 10000th), and PyTorch's first
   * float32 rand after manual_seed(0), 0.49625658988952637. */
  TensorRng r;
  rng_seed(&r, 5489);
  ck_assert_uint_eq(rng_next32(&r), 3499211612U);
  for (int i = 1; i < 9999; i++) rng_next32(&r);
  ck_assert_uint_eq(rng_next32(&r), 4123659995U);
  rng_seed(&r, 0);
  Tensor *t = tensor_rand(&r, DT_FLOAT32, 1, (int64_t[]){1});
  ck_assert_double_eq(tensor_get_flat(t, 0), 0.49625658988952637);
  tensor_release(t);
}
END_TEST

START_TEST(state_round_trip) {
  TensorRng r, s;
  rng_seed(&r, 123);
  (void)rng_normal(&r, 0, 1); /* leaves a cached value */
  for (int i = 0; i < 700; i++) rng_next32(&r);
  uint8_t bytes[TENSOR_RNG_STATE_BYTES];
  rng_get_state(&r, bytes);
  rng_seed(&s, 1);
  ck_assert(rng_set_state(&s, bytes, TENSOR_RNG_STATE_BYTES));
  ck_assert_double_eq(rng_normal(&s, 0, 1), rng_normal(&r, 0, 1));
  for (int i = 0; i < 1000; i++) ck_assert_uint_eq(rng_next32(&s), rng_next32(&r));
  ck_assert(!rng_set_state(&s, bytes, 10));
  memset(bytes, 0, sizeof bytes);
  ck_assert(!rng_set_state(&s, bytes, TENSOR_RNG_STATE_BYTES));
  ck_assert_str_eq(tensor_error(), "Invalid mt19937 state");
}
END_TEST

START_TEST(uniform_range_and_moments) {
  TensorRng r;
  rng_seed(&r, 1);
  Tensor *t = tensor_rand(&r, DT_FLOAT64, 1, (int64_t[]){100000});
  ck_assert_ptr_nonnull(t);
  for (int64_t i = 0; i < t->numel; i++) {
    double v = tensor_get_flat(t, i);
    ck_assert(v >= 0.0 && v < 1.0);
  }
  ck_assert_double_eq_tol(mean_of(t), 0.5, 0.01);
  ck_assert_double_eq_tol(std_of(t), sqrt(1.0 / 12), 0.01);
  tensor_release(t);
  t = tensor_rand(&r, DT_FLOAT32, 2, (int64_t[]){300, 300});
  ck_assert_int_eq(t->dtype, DT_FLOAT32);
  for (int64_t i = 0; i < t->numel; i++) ck_assert(((float *)tensor_data(t))[i] < 1.0f);
  ck_assert_double_eq_tol(mean_of(t), 0.5, 0.01);
  tensor_release(t);
}
END_TEST

START_TEST(normal_moments) {
  TensorRng r;
  rng_seed(&r, 7);
  Tensor *t = tensor_randn(&r, DT_FLOAT32, 1, (int64_t[]){100001});
  ck_assert_double_eq_tol(mean_of(t), 0.0, 0.02);
  ck_assert_double_eq_tol(std_of(t), 1.0, 0.02);
  /* about 68.3% within one standard deviation */
  int64_t inside = 0;
  for (int64_t i = 0; i < t->numel; i++) inside += fabs(tensor_get_flat(t, i)) < 1.0;
  ck_assert_double_eq_tol((double)inside / (double)t->numel, 0.6827, 0.01);
  tensor_release(t);
  double s = 0;
  for (int i = 0; i < 20000; i++) s += rng_normal(&r, 0, 1);
  ck_assert_double_eq_tol(s / 20000, 0.0, 0.05);
}
END_TEST

START_TEST(tensors_reproducible_for_a_seed) {
  TensorRng a, b;
  rng_seed(&a, 123);
  rng_seed(&b, 123);
  Tensor *x = tensor_randn(&a, DT_FLOAT64, 2, (int64_t[]){3, 5});
  Tensor *y = tensor_randn(&b, DT_FLOAT64, 2, (int64_t[]){3, 5});
  ck_assert_int_eq(memcmp(tensor_data(x), tensor_data(y), 15 * sizeof(double)), 0);
  tensor_release(x);
  tensor_release(y);
}
END_TEST

START_TEST(randint_range_and_uniformity) {
  TensorRng r;
  rng_seed(&r, 5);
  Tensor *t = tensor_randint(&r, -3, 4, DT_INT64, 1, (int64_t[]){70000});
  ck_assert_int_eq(t->dtype, DT_INT64);
  int64_t counts[7] = {0};
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t v = ((int64_t *)tensor_data(t))[i];
    ck_assert(v >= -3 && v < 4);
    counts[v + 3]++;
  }
  for (int k = 0; k < 7; k++) ck_assert_int_gt(counts[k], 9500);
  tensor_release(t);
  t = tensor_randint(&r, 0, 2, DT_BOOL, 1, (int64_t[]){10});
  ck_assert_int_eq(t->dtype, DT_BOOL);
  tensor_release(t);
  t = tensor_randint(&r, INT64_MIN, INT64_MAX, DT_INT64, 1, (int64_t[]){4});
  ck_assert_ptr_nonnull(t);
  tensor_release(t);
}
END_TEST

START_TEST(randint_errors) {
  TensorRng r;
  rng_seed(&r, 5);
  ck_assert_ptr_null(tensor_randint(&r, 5, 5, DT_INT64, 1, (int64_t[]){3}));
  ck_assert_str_eq(tensor_error(),
                   "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  ck_assert_ptr_null(tensor_randint(&r, 0, 5, DT_BOOL, 1, (int64_t[]){3}));
  ck_assert_ptr_null(tensor_randint(&r, 0, 5, DT_INT64, 1, (int64_t[]){-1}));
}
END_TEST

START_TEST(randperm_is_a_permutation) {
  TensorRng r;
  rng_seed(&r, 9);
  Tensor *t = tensor_randperm(&r, 1000, DT_INT64);
  ck_assert_int_eq(t->dtype, DT_INT64);
  char seen[1000] = {0};
  int64_t fixed = 0;
  for (int64_t i = 0; i < 1000; i++) {
    int64_t v = ((int64_t *)tensor_data(t))[i];
    ck_assert(v >= 0 && v < 1000 && !seen[v]);
    seen[v] = 1;
    fixed += v == i;
  }
  ck_assert_int_lt(fixed, 10); /* a shuffle, not the identity */
  tensor_release(t);
  t = tensor_randperm(&r, 0, DT_INT64);
  ck_assert_int_eq(t->numel, 0);
  tensor_release(t);
  ck_assert_ptr_null(tensor_randperm(&r, -1, DT_INT64));
  ck_assert_str_eq(tensor_error(), "Trying to create tensor with negative dimension -1: [-1]");
}
END_TEST

START_TEST(in_place_fills_bump_version) {
  TensorRng r;
  rng_seed(&r, 11);
  Tensor *t = tensor_zeros(DT_FLOAT32, 1, (int64_t[]){50000});
  int64_t v0 = tensor_version(t);
  ck_assert(tensor_uniform_(&r, t, -2.0, 6.0));
  ck_assert_int_eq(tensor_version(t), v0 + 1);
  for (int64_t i = 0; i < t->numel; i++) {
    double v = tensor_get_flat(t, i);
    ck_assert(v >= -2.0 && v < 6.0);
  }
  ck_assert_double_eq_tol(mean_of(t), 2.0, 0.05);
  ck_assert(tensor_normal_(&r, t, 10.0, 3.0));
  ck_assert_int_eq(tensor_version(t), v0 + 2);
  ck_assert_double_eq_tol(mean_of(t), 10.0, 0.1);
  ck_assert_double_eq_tol(std_of(t), 3.0, 0.1);
  tensor_release(t);
}
END_TEST

START_TEST(in_place_fills_on_a_strided_view) {
  TensorRng r;
  rng_seed(&r, 12);
  Tensor *base = tensor_zeros(DT_FLOAT64, 2, (int64_t[]){4, 6});
  /* column 2: every sixth element from offset 2 */
  Tensor *col = tensor_view_of(base, 1, (int64_t[]){4}, (int64_t[]){6}, 2);
  ck_assert(tensor_uniform_(&r, col, 1.0, 2.0));
  ck_assert_int_eq(tensor_version(base), tensor_version(col));
  for (int64_t i = 0; i < 24; i++) {
    double v = ((double *)tensor_data(base))[i];
    if (i % 6 == 2)
      ck_assert(v >= 1.0 && v < 2.0);
    else
      ck_assert(v == 0.0);
  }
  tensor_release(col);
  tensor_release(base);
}
END_TEST

START_TEST(in_place_fill_errors) {
  TensorRng r;
  rng_seed(&r, 13);
  Tensor *t = tensor_zeros(DT_FLOAT32, 1, (int64_t[]){3});
  ck_assert(!tensor_uniform_(&r, t, 2.0, 1.0));
  ck_assert(!tensor_normal_(&r, t, 0.0, -1.0));
  ck_assert_ptr_nonnull(strstr(tensor_error(), "std >= 0.0"));
  ck_assert_int_eq(tensor_version(t), 0);
  tensor_release(t);
  Tensor *i = tensor_zeros(DT_INT64, 1, (int64_t[]){3});
  ck_assert(!tensor_normal_(&r, i, 0.0, 1.0));
  ck_assert_ptr_null(tensor_rand(&r, DT_INT64, 1, (int64_t[]){3}));
  ck_assert_str_eq(tensor_error(), "\"check_uniform_bounds\" not implemented for 'Long'");
  tensor_release(i);
}
END_TEST

START_TEST(dropout_mask_values) {
  TensorRng r;
  rng_seed(&r, 14);
  Tensor *like = tensor_zeros(DT_FLOAT32, 2, (int64_t[]){100, 1000});
  Tensor *m = tensor_dropout_mask(&r, like, 0.25);
  ck_assert_int_eq(m->ndim, 2);
  ck_assert_int_eq(m->dtype, DT_FLOAT32);
  int64_t kept = 0;
  for (int64_t i = 0; i < m->numel; i++) {
    double v = tensor_get_flat(m, i);
    ck_assert(v == 0.0 || fabs(v - 1.0 / 0.75) < 1e-6);
    kept += v != 0.0;
  }
  ck_assert_double_eq_tol((double)kept / (double)m->numel, 0.75, 0.01);
  ck_assert_double_eq_tol(mean_of(m), 1.0, 0.02); /* expectation preserved */
  tensor_release(m);
  m = tensor_dropout_mask(&r, like, 1.0);
  ck_assert_double_eq(mean_of(m), 0.0);
  tensor_release(m);
  m = tensor_dropout_mask(&r, like, 0.0);
  ck_assert_double_eq(mean_of(m), 1.0);
  tensor_release(m);
  ck_assert_ptr_null(tensor_dropout_mask(&r, like, 1.5));
  ck_assert_str_eq(tensor_error(), "dropout probability has to be between 0 and 1, but got 1.5");
  tensor_release(like);
}
END_TEST

START_TEST(qr_reconstructs) {
  /* Q R = A and Q's columns orthonormal, for a tall float64 matrix */
  TensorRng r;
  rng_seed(&r, 3);
  Tensor *a = tensor_randn(&r, DT_FLOAT64, 2, (int64_t[]){7, 4});
  Tensor *q, *rr;
  ck_assert(tensor_qr(a, &q, &rr));
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 4; j++) {
      double s = 0;
      for (int k = 0; k < 4; k++) s += tensor_get_flat(q, i * 4 + k) * tensor_get_flat(rr, k * 4 + j);
      ck_assert_double_eq_tol(s, tensor_get_flat(a, i * 4 + j), 1e-12);
    }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double s = 0;
      for (int k = 0; k < 7; k++) s += tensor_get_flat(q, k * 4 + i) * tensor_get_flat(q, k * 4 + j);
      ck_assert_double_eq_tol(s, i == j ? 1.0 : 0.0, 1e-12);
    }
  tensor_release(q);
  tensor_release(rr);
  Tensor *wide = tensor_zeros(DT_FLOAT32, 2, (int64_t[]){2, 3});
  Tensor *q2, *r2;
  ck_assert(!tensor_qr(wide, &q2, &r2));
  tensor_release(wide);
  tensor_release(a);
}
END_TEST

/* With replacement, one draw is a binary search of one 53-bit uniform in
 * the cumulative sums (PyTorch 1.13), not the exponential race: it takes
 * one 64-bit draw and picks the first slot whose cumulative sum reaches it */
START_TEST(multinomial_one_draw_with_replacement) {
  int64_t n = 4;
  Tensor *p = tensor_full(DT_FLOAT64, 1, &n, 0.25);
  TensorRng a, b;
  rng_seed(&a, 7);
  rng_seed(&b, 7);
  for (int k = 0; k < 20; k++) {
    Tensor *drawn = tensor_multinomial(&a, p, 1, true);
    ck_assert(drawn != NULL);
    double u = rng_uniform(&b);
    int64_t expected = u <= 0.25 ? 0 : u <= 0.5 ? 1 : u <= 0.75 ? 2 : 3;
    ck_assert_int_eq(tensor_get_flat_int(drawn, 0), expected);
    tensor_release(drawn);
  }
  tensor_release(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("random");
  TCase *tc = tcase_create("random");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, same_seed_same_stream);
  tcase_add_test(tc, known_first_outputs);
  tcase_add_test(tc, state_round_trip);
  tcase_add_test(tc, qr_reconstructs);
  tcase_add_test(tc, uniform_range_and_moments);
  tcase_add_test(tc, normal_moments);
  tcase_add_test(tc, tensors_reproducible_for_a_seed);
  tcase_add_test(tc, randint_range_and_uniformity);
  tcase_add_test(tc, randint_errors);
  tcase_add_test(tc, randperm_is_a_permutation);
  tcase_add_test(tc, in_place_fills_bump_version);
  tcase_add_test(tc, in_place_fills_on_a_strided_view);
  tcase_add_test(tc, in_place_fill_errors);
  tcase_add_test(tc, dropout_mask_values);
  tcase_add_test(tc, multinomial_one_draw_with_replacement);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
