/* test_tensor_vecmath.c — the float functions computed as PyTorch 1.13 computes
 * them (tensor/transcend.c). On x86-64 with AVX2 and FMA, where PyTorch runs
 * SLEEF: bit patterns PyTorch printed on such a CPU, SLEEF's per-vector choice
 * of reduction, huge arguments, and the rows ATen's loops hand to the kernels.
 * Elsewhere, where PyTorch applies the C library's function to each element,
 * the same inputs must give exactly the C library's results: every test checks
 * something on every machine, and says which of the two it checked. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/tensor_internal.h"
#include "test_tensor_helpers.h"

static bool avx2(void) { return transcend_use_avx2(); }

static float libm_f32(UnaryOp op, float x) {
  switch (op) {
  case UN_EXP: return expf(x);
  case UN_LOG: return logf(x);
  case UN_SIN: return sinf(x);
  case UN_COS: return cosf(x);
  case UN_TAN: return tanf(x);
  case UN_TANH: return tanhf(x);
  case UN_SIGMOID: return 1.0f / (1.0f + expf(-x));
  default: return NAN;
  }
}

static double libm_f64(UnaryOp op, double x) {
  switch (op) {
  case UN_EXP: return exp(x);
  case UN_LOG: return log(x);
  case UN_SIN: return sin(x);
  case UN_COS: return cos(x);
  case UN_TAN: return tan(x);
  case UN_TANH: return tanh(x);
  default: return NAN;
  }
}

static bool same_f32(float a, float b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }
static bool same_f64(double a, double b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }

/* out = op(in) as PyTorch's AVX2 build printed it (`expected`), or, without
 * AVX2, as the C library computes it */
static void check_f32(UnaryOp op, int n, const float *in, const float *expected) {
  float out[32];
  ck_assert(tensor_vecmath_f32(op, n, in, sizeof(float), out, sizeof(float)));
  for (int i = 0; i < n; i++) {
    float want = avx2() ? expected[i] : libm_f32(op, in[i]);
    ck_assert_msg(same_f32(out[i], want), "%s(%a): got %a, expected %a (%s)",
                  tensor_unary_names[op], in[i], out[i], want, avx2() ? "SLEEF" : "libm");
  }
}

static void check_f64(UnaryOp op, int n, const double *in, const double *expected) {
  double out[32];
  ck_assert(tensor_vecmath_f64(op, n, in, sizeof(double), out, sizeof(double)));
  for (int i = 0; i < n; i++) {
    double want = avx2() ? expected[i] : libm_f64(op, in[i]);
    ck_assert_msg(same_f64(out[i], want), "%s(%a): got %a, expected %a (%s)",
                  tensor_unary_names[op], in[i], out[i], want, avx2() ? "SLEEF" : "libm");
  }
}

/* The kernels run where the CPU allows, decided at run time. */
START_TEST(test_dispatch_follows_the_cpu) {
#if defined(__x86_64__) && defined(AG_HAVE_SLEEF)
  bool cpu = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  bool cpu = false;
#endif
  ck_assert_int_eq(transcend_use_avx2(), cpu);
  fprintf(stderr, "tensor_vecmath: %s\n",
          cpu ? "AVX2 + FMA: SLEEF's kernels, checked against PyTorch's bits"
              : "no AVX2 kernels here: checked against the C library");
}
END_TEST

/* exp, log and tanh in float32: values where SLEEF and the C library differ
 * (tanh(0.3), tanh(-9), exp(0.3)); the scalar forms nn.c uses give what one
 * lane of the vector gives. */
START_TEST(test_exp_log_tanh_f32) {
  const float x[9] = {0.3f, -1.7f, 0.01f, 5.5f, -9.0f, 2.25f, -0.6f, 1e-5f, 0.9f};
  check_f32(UN_TANH, 9, x,
            (const float[]){0x1.2a4ddcp-2f, -0x1.deedfp-1f, 0x1.47ab48p-7f, 0x1.fffbap-1f, -1.0f,
                            0x1.f4bfd6p-1f, -0x1.12f82ap-1f, 0x1.4f8b58p-17f, 0x1.6ebe98p-1f});
  check_f32(UN_EXP, 9, x,
            (const float[]){0x1.599058p+0f, 0x1.7622c6p-3f, 0x1.0292a6p+0f, 0x1.e96244p+7f,
                            0x1.02cf22p-13f, 0x1.2f9b88p+3f, 0x1.18fdd6p-1f, 0x1.0000a8p+0f,
                            0x1.3ad446p+1f});
  float ax[9], out[9];
  for (int i = 0; i < 9; i++) ax[i] = fabsf(x[i]);
  check_f32(UN_LOG, 9, ax,
            (const float[]){-0x1.34379p+0f, 0x1.0fae82p-1f, -0x1.26bb1cp+2f, 0x1.b46a5ep+0f,
                            0x1.193ea8p+1f, 0x1.9f323ep-1f, -0x1.058aeep-1f, -0x1.7069e2p+3f,
                            -0x1.af8e8ap-4f});
  tensor_expf_array(9, x, 4, out, 4);
  for (int i = 0; i < 9; i++) ck_assert(same_f32(out[i], tensor_expf(x[i])));
  tensor_logf_array(9, ax, 4, out, 4);
  for (int i = 0; i < 9; i++) ck_assert(same_f32(out[i], tensor_logf(ax[i])));
  tensor_tanhf_array(9, x, 4, out, 4);
  float want[9];
  ck_assert(tensor_vecmath_f32(UN_TANH, 9, x, 4, want, 4));
  ck_assert(memcmp(out, want, sizeof out) == 0);
}
END_TEST

/* A lane of 1000 sends the whole group of 8 through Payne-Hanek, which rounds
 * sin(-2.5668182) and sin(124) differently from Cody-Waite. */
START_TEST(test_trig_f32_per_group) {
  const float x[8] = {-2.5668182f, 0.5f, 1.25f, -3.0f, 100.0f, 124.0f, 2.0f, 0.1f};
  const float y[8] = {-2.5668182f, 0.5f, 1.25f, -3.0f, 100.0f, 124.0f, 2.0f, 1000.0f};
  check_f32(UN_SIN, 8, x,
            (const float[]){-0x1.1658b2p-1f, 0x1.eaee88p-2f, 0x1.e5e15p-1f, -0x1.210386p-3f,
                            -0x1.03425cp-1f, -0x1.fdcaaep-1f, 0x1.d18f6ep-1f, 0x1.98eaeep-4f});
  check_f32(UN_SIN, 8, y,
            (const float[]){-0x1.1658b4p-1f, 0x1.eaee88p-2f, 0x1.e5e15p-1f, -0x1.210386p-3f,
                            -0x1.03425cp-1f, -0x1.fdcabp-1f, 0x1.d18f6ep-1f, 0x1.a75cc2p-1f});
  check_f32(UN_COS, 8, y,
            (const float[]){-0x1.adbabp-1f, 0x1.c1528p-1f, 0x1.42e3dep-2f, -0x1.fae04cp-1f,
                            0x1.b981dcp-1f, -0x1.7c02e6p-4f, -0x1.aa2266p-2f, 0x1.1ff026p-1f});
  check_f32(UN_TAN, 8, y,
            (const float[]){0x1.4ba2a4p-1f, 0x1.17b4f6p-1f, 0x1.813994p+1f, 0x1.23ef72p-3f,
                            -0x1.2ca74ep-1f, 0x1.576dacp+3f, -0x1.17af62p+1f, 0x1.78672ap+0f});
  /* a run of 9: the ninth element is a group of its own, padded with zeros */
  float z[9], out9[9], out1[1];
  memcpy(z, y, sizeof y);
  z[8] = -2.5668182f;
  ck_assert(tensor_vecmath_f32(UN_SIN, 9, z, 4, out9, 4));
  ck_assert(tensor_vecmath_f32(UN_SIN, 1, x, 4, out1, 4));
  ck_assert(memcmp(&out9[8], &out1[0], 4) == 0);
  /* and a strided run groups as a contiguous one */
  float wide[18], outw[18];
  for (int i = 0; i < 9; i++) wide[2 * i] = z[i], wide[2 * i + 1] = 7.0f;
  ck_assert(tensor_vecmath_f32(UN_SIN, 9, wide, 8, outw, 8));
  for (int i = 0; i < 9; i++) ck_assert(same_f32(outw[2 * i], out9[i]));
}
END_TEST

START_TEST(test_trig_f32_huge) {
  const float h[4] = {1e30f, -3e38f, 1e6f, 12345.678f};
  check_f32(UN_SIN, 4, h,
            (const float[]){-0x1.95136p-1f, -0x1.bff388p-1f, -0x1.6664b2p-2f, -0x1.68961p-1f});
  check_f32(UN_COS, 4, h,
            (const float[]){-0x1.392444p-1f, -0x1.efeaf8p-2f, 0x1.df9dfap-1f, 0x1.6b7c4p-1f});
  check_f32(UN_TAN, 4, h,
            (const float[]){0x1.4b2874p+0f, 0x1.ce7a5ap+0f, -0x1.7e9768p-2f, -0x1.fbea94p-1f});
  /* inf and nan give nan, -0 stays -0 (cos(-0) = 1) */
  float out[3];
  ck_assert(tensor_vecmath_f32(UN_SIN, 3, (const float[]){INFINITY, NAN, -0.0f}, 4, out, 4));
  ck_assert(isnan(out[0]) && isnan(out[1]) && out[2] == 0 && signbit(out[2]));
  ck_assert(tensor_vecmath_f32(UN_COS, 1, (const float[]){-0.0f}, 4, out, 4));
  ck_assert(out[0] == 1.0f);
}
END_TEST

START_TEST(test_functions_f64) {
  const double d[6] = {0.7, 14.9, 20.5, 1e15, 1e300, -123456.789};
  check_f64(UN_SIN, 6, d,
            (const double[]){0x1.49d6e694619b8p-1, 0x1.721d811615a61p-1, 0x1.fe60798c36321p-1,
                             0x1.b76f88136cebap-1, -0x1.a2c16b010e385p-1, 0x1.ff50e60ab53f9p-1});
  check_f64(UN_COS, 6, d,
            (const double[]){0x1.87996529f9d93p-1, -0x1.61c71b0d44d64p-1, -0x1.45e47276a17c7p-4,
                             -0x1.06c154609d33fp-1, -0x1.2699022adc4c1p-1, 0x1.a74d27c41b22ap-5});
  check_f64(UN_TAN, 6, d,
            (const double[]){0x1.af406c2fc78aep-1, -0x1.0bd2759e837f0p+0, -0x1.90eb49d560d31p+3,
                             -0x1.ac23600a95be4p+0, 0x1.6be411f37ac77p+0, 0x1.353a85fe8d6d5p+4});
  check_f64(UN_TANH, 6, d,
            (const double[]){0x1.356fb17af2e91p-1, 0x1.ffffffffff7f5p-1, 1, 1, 1, -1});
  const double e[6] = {0.7 / 1000,  14.9 / 1000,  20.5 / 1000,
                       1e15 / 1000, 1e300 / 1000, -123456.789 / 1000};
  check_f64(UN_EXP, 6, e,
            (const double[]){0x1.002de4299ea89p+0, 0x1.03d7cc2852f70p+0, 0x1.054d5a7440de1p+0,
                             INFINITY, INFINITY, 0x1.da3fe5c3cc765p-179});
  const double l[6] = {0.7, 14.9, 20.5, 1e15, 1e300, 123456.789};
  check_f64(UN_LOG, 6, l,
            (const double[]){-0x1.6d3c324e13f50p-2, 0x1.59c6344827944p+1, 0x1.829d485d01dd2p+1,
                             0x1.144f69ff9ffc4p+5, 0x1.5963447f87fb5p+9, 0x1.77281cad8a844p+3});
}
END_TEST

/* gelu of a contiguous float32 tensor is oneDNN's; of a strided one, ATen's
 * GeluKernel (here all scalar: the C library's erff) */
START_TEST(test_gelu_dense_and_strided) {
  Tensor *g = tensor_empty(DT_FLOAT32, 2, TT_SHAPE(20, 2));
  for (int i = 0; i < 20; i++) {
    tensor_set_flat(g, 2 * i, (float)i * 0.3f - 3.0f);
    tensor_set_flat(g, 2 * i + 1, (float)i * 0.3f - 3.0f);
  }
  Tensor *col = tensor_select(g, 1, 0), *flat = tensor_contiguous(col);
  Tensor *dense = tensor_unary(UN_GELU, flat), *strided = tensor_unary(UN_GELU, col);
  const float want_dense[3] = {-0x1.09698p-8f, -0x1.32bd74p-7f, 0x1.5866dep+1f};
  const float want_strided[3] = {-0x1.09668p-8f, -0x1.32bc1ap-7f, 0x1.5866ep+1f};
  const int at[3] = {0, 1, 19};
  for (int k = 0; k < 3; k++) {
    float x = (float)at[k] * 0.3f - 3.0f, scalar = x * 0.5f * (1.0f + erff(x * (float)M_SQRT1_2));
    ck_assert_float_eq((float)tensor_get_flat(dense, at[k]), avx2() ? want_dense[k] : scalar);
    ck_assert_float_eq((float)tensor_get_flat(strided, at[k]), avx2() ? want_strided[k] : scalar);
  }
  Tensor *rel[] = {g, col, flat, dense, strided};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

static void check_same_bits(const Tensor *a, const Tensor *b) {
  ck_assert_int_eq(a->numel, b->numel);
  int64_t i = 0;
  double x = 0, y = 0;
  for (; i < a->numel; i++) { /* one assertion at the end: Check reports every one it runs */
    x = tensor_get_flat(a, i), y = tensor_get_flat(b, i);
    if (memcmp(&x, &y, sizeof x) != 0 && !(isnan(x) && isnan(y))) break;
  }
  ck_assert_msg(i == a->numel, "element %lld: %a vs %a", (long long)i, x, y);
}

/* ATen walks a dense input in memory order: f(x.t()) is f(x) transposed, to the
 * bit, for the ops whose values depend on the rows (big enough to be split in
 * blocks across the workers). */
START_TEST(test_rows_follow_memory_order) {
  const UnaryOp ops[] = {UN_SIN, UN_COS, UN_TAN, UN_SIGMOID, UN_GELU};
  const DType dts[] = {DT_FLOAT32, DT_FLOAT64};
  const int64_t sizes[][2] = {{7, 9}, {300, 301}, {520, 521}};
  for (int d = 0; d < 2; d++) {
    for (int s = 0; s < 3; s++) {
      Tensor *x = tensor_empty(dts[d], 2, sizes[s]);
      for (int64_t i = 0; i < x->numel; i++)
        tensor_set_flat(x, i, (double)(i % 997) * 0.731 - 300.0);
      Tensor *xt = tensor_t(x);
      for (int k = 0; k < 5; k++) {
        Tensor *fx = tensor_unary(ops[k], x), *fxt = tensor_unary(ops[k], xt);
        ck_assert(fx && fxt);
        if (ops[k] == UN_GELU && dts[d] == DT_FLOAT32) { /* oneDNN's only for the contiguous one */
          tensor_release(fx);
          Tensor *ref = tensor_empty(DT_FLOAT32, 1, TT_SHAPE(x->numel));
          ck_assert(tensor_vecmath_f32(UN_GELU, x->numel, tensor_data(x), 4, tensor_data(ref), 4));
          fx = tensor_view(ref, 2, x->shape);
          tensor_release(ref);
        }
        Tensor *back = tensor_t(fxt);
        Tensor *c = tensor_contiguous(back);
        check_same_bits(fx, c);
        Tensor *rel[] = {fx, fxt, back, c};
        for (int r = 0; r < 4; r++) tensor_release(rel[r]);
      }
      tensor_release(xt);
      tensor_release(x);
    }
  }
}
END_TEST

/* A row of a sliced (not dense) tensor is a run of its own. */
START_TEST(test_rows_of_a_slice) {
  Tensor *x = tensor_empty(DT_FLOAT32, 2, TT_SHAPE(5, 21));
  for (int64_t i = 0; i < x->numel; i++) tensor_set_flat(x, i, (double)i * 9.7 - 400.0);
  Tensor *s = tensor_slice(x, 1, 1, 21, 1);
  Tensor *fs = tensor_unary(UN_SIN, s);
  ck_assert(fs);
  for (int r = 0; r < 5; r++) {
    Tensor *row = tensor_select(s, 0, r), *rc = tensor_contiguous(row);
    Tensor *f = tensor_unary(UN_SIN, rc), *got = tensor_select(fs, 0, r);
    check_same_bits(f, got);
    Tensor *rel[] = {row, rc, f, got};
    for (int k = 0; k < 4; k++) tensor_release(rel[k]);
  }
  tensor_release(fs);
  tensor_release(s);
  tensor_release(x);
}
END_TEST

static Suite *vecmath_suite(void) {
  Suite *s = suite_create("tensor_vecmath");
  TCase *tc = tcase_create("vecmath");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_dispatch_follows_the_cpu);
  tcase_add_test(tc, test_exp_log_tanh_f32);
  tcase_add_test(tc, test_trig_f32_per_group);
  tcase_add_test(tc, test_trig_f32_huge);
  tcase_add_test(tc, test_functions_f64);
  tcase_add_test(tc, test_gelu_dense_and_strided);
  tcase_add_test(tc, test_rows_follow_memory_order);
  tcase_add_test(tc, test_rows_of_a_slice);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(vecmath_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
