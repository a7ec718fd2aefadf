/* test_tensor_linalg.c — OpenBLAS loaded only by the first product,
 * matmul/mm/bmm/mv/dot/outer against a naive loop for every operand layout,
 * and softmax, log_softmax and the losses. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "tensor/blas.h"
#include "test_tensor_helpers.h"

/* ---- OpenBLAS, loaded lazily ---- */

/* Whether this process has libopenblas mapped: Linux's /proc; elsewhere
 * what tensor_blas says it loaded. */
static bool openblas_mapped(void) {
#ifndef __linux__
  const char *name = tensor_blas_name();
  return name && strstr(name, "openblas");
#endif
  FILE *f = fopen("/proc/self/maps", "r");
  ck_assert_msg(f != NULL, "cannot read /proc/self/maps");
  char line[4096];
  bool found = false;
  while (!found && fgets(line, sizeof line, f)) found = strstr(line, "libopenblas") != NULL;
  fclose(f);
  return found;
}

/* Every BLAS call in dtype dt: a @ b (gemm) for the 2x3 a = [1..6] and 3x2
 * b = [1..6], a @ v (gemv) and a's first row . v (dot), v being b's first column. */
static void check_blas_products(DType dt) {
  Tensor *a = tt_make(dt, 2, TT_SHAPE(2, 3), (double[]){1, 2, 3, 4, 5, 6});
  Tensor *b = tt_make(dt, 2, TT_SHAPE(3, 2), (double[]){1, 2, 3, 4, 5, 6});
  Tensor *v = tt_make(dt, 1, TT_SHAPE(3), (double[]){1, 3, 5});
  Tensor *row = tensor_select(a, 0, 0);
  Tensor *mm = tensor_mm(a, b), *mv = tensor_mv(a, v), *dot = tensor_dot(row, v);
  ck_assert_msg(mm && mv && dot, "%s", tensor_error());
  const double want_mm[] = {22, 28, 49, 64}, want_mv[] = {22, 49};
  for (int i = 0; i < 4; i++) ck_assert(tensor_get_flat(mm, i) == want_mm[i]);
  for (int i = 0; i < 2; i++) ck_assert(tensor_get_flat(mv, i) == want_mv[i]);
  ck_assert(tensor_item(dot) == 22);
  ck_assert_int_eq(mm->dtype, dt);
  ck_assert_int_eq(dot->dtype, dt);
  Tensor *rel[] = {a, b, v, row, mm, mv, dot};
  for (int k = 0; k < 7; k++) tensor_release(rel[k]);
}

/* Kept first: with CK_FORK=no the later tests would already have loaded it. */
START_TEST(test_blas_loaded_lazily) {
  Tensor *x = tt_iota(DT_FLOAT32, 2, (int64_t)2, (int64_t)2);
  Tensor *y = tensor_binary(BIN_MUL, x, x), *s = tensor_sum(y, NULL, 0, false);
  Tensor *i = tt_iota(DT_INT64, 2, (int64_t)2, (int64_t)2), *ii = tensor_mm(i, i);
  ck_assert_msg(s && ii, "%s", tensor_error());
  ck_assert_msg(!openblas_mapped(), "OpenBLAS is loaded before any float product");
  check_blas_products(DT_FLOAT32);
  ck_assert_msg(openblas_mapped(), "a float product ran without loading OpenBLAS");
  check_blas_products(DT_FLOAT64);
  Tensor *rel[] = {x, y, s, i, ii};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

/* A library that is missing, or is not a CBLAS, is an error naming it. */
START_TEST(test_blas_missing_library) {
  BlasApi api;
  ck_assert(!tensor_blas_open((const char *const[]){"libag-no-such-blas.so.0", NULL}, &api));
  ck_assert_msg(strstr(tensor_error(), "cannot load libag-no-such-blas.so.0"), "%s", tensor_error());
#ifdef __linux__
  ck_assert(!tensor_blas_open((const char *const[]){"libm.so.6", NULL}, &api));
  ck_assert_str_eq(tensor_error(), "libm.so.6 is not a CBLAS (it has no cblas_sgemm)");
#endif
  ck_assert(tensor_blas() != NULL);
}
END_TEST

/* The built-in kernel against the naive sum for every order, transpose,
 * alpha and beta, and gemv and dot with negative increments. */
START_TEST(test_blas_builtin_kernel) {
  const BlasApi *b = &tensor_blas_builtin;
  const double a[6] = {1, 2, 3, 4, 5, 6}; /* 2 x 3 row-major */
  const double bm[6] = {1, -1, 2, 0.5, 3, 1}; /* 3 x 2 row-major */
  double c[4] = {1, 1, 1, 1};
  b->cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 2.0, a, 3, bm, 2, 0.5, c, 2);
  const double want[4] = {2 * 14 + 0.5, 2 * 3 + 0.5, 2 * 32 + 0.5, 2 * 4.5 + 0.5};
  for (int i = 0; i < 4; i++) ck_assert_msg(c[i] == want[i], "c[%d] = %g", i, c[i]);
  /* the same product with A and B given transposed (as their 3 x 2 and 2 x 3 transposes) */
  const double at[6] = {1, 4, 2, 5, 3, 6}, bt[6] = {1, 2, 3, -1, 0.5, 1};
  double d[4] = {7, 7, 7, 7};
  b->cblas_dgemm(CblasRowMajor, CblasTrans, CblasTrans, 2, 2, 3, 2.0, at, 2, bt, 3, 0.0, d, 2);
  for (int i = 0; i < 4; i++) ck_assert(d[i] == want[i] - 0.5);
  /* column-major: bm and a read column-major are bm^T and a^T, whose
   * product (a @ bm)^T stored column-major is a @ bm row-major */
  double e[4];
  b->cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 1.0, bm, 2, a, 3, 0.0, e, 2);
  ck_assert(e[0] == 14 && e[1] == 3 && e[2] == 32 && e[3] == 4.5);
  float af[6] = {1, 2, 3, 4, 5, 6}, x[3] = {1, 2, 3}, y[2] = {0, 0}, yt[3] = {0, 0, 0};
  b->cblas_sgemv(CblasRowMajor, CblasNoTrans, 2, 3, 1.0f, af, 3, x, 1, 0.0f, y, 1);
  ck_assert(y[0] == 14 && y[1] == 32);
  b->cblas_sgemv(CblasRowMajor, CblasNoTrans, 2, 3, 1.0f, af, 3, x, -1, 0.0f, y, -1);
  ck_assert(y[1] == 10 && y[0] == 28); /* x read backwards, y written backwards */
  b->cblas_sgemv(CblasRowMajor, CblasTrans, 2, 3, 1.0f, af, 3, x, 1, 0.0f, yt, 1);
  ck_assert(yt[0] == 9 && yt[1] == 12 && yt[2] == 15);
  ck_assert(b->cblas_sdot(3, x, 1, af, 2) == 1 + 6 + 15);
  ck_assert(b->cblas_ddot(2, a, -1, a + 4, 1) == 2 * 5 + 1 * 6);
}
END_TEST

/* Naive (m x k) @ (k x n) through tensor_get_flat on 2-D tensors. */
static double naive_entry(const Tensor *a, const Tensor *b, int64_t i, int64_t j) {
  double s = 0;
  int64_t k = a->shape[1];
  for (int64_t p = 0; p < k; p++)
    s += tensor_get_flat(a, i * k + p) * tensor_get_flat(b, p * b->shape[1] + j);
  return s;
}

static void check_mm(const Tensor *a, const Tensor *b, double tol) {
  Tensor *c = tensor_mm(a, b);
  ck_assert_msg(c != NULL, "%s", tensor_error());
  tt_check_shape(c, 2, TT_SHAPE(a->shape[0], b->shape[1]));
  for (int64_t i = 0; i < c->shape[0]; i++)
    for (int64_t j = 0; j < c->shape[1]; j++)
      ck_assert_msg(tt_close(tensor_get_flat(c, i * c->shape[1] + j), naive_entry(a, b, i, j), tol),
                    "c[%lld][%lld]", (long long)i, (long long)j);
  tensor_release(c);
}

/* A (rows x cols) operand in one of four layouts holding values f(i, j). */
static Tensor *matrix_in_layout(DType dt, int64_t rows, int64_t cols, int layout, double seed) {
  Tensor *base, *out;
  if (layout == 1) { /* transposed view of a (cols x rows) tensor */
    base = tensor_empty(dt, 2, TT_SHAPE(cols, rows));
    out = tensor_t(base);
  } else if (layout == 2) { /* every other column of a wider tensor: needs a copy */
    base = tensor_empty(dt, 2, TT_SHAPE(rows, 2 * cols));
    out = tensor_slice(base, 1, 0, 2 * cols, 2);
  } else if (layout == 3) { /* rows of a wider tensor: lda > cols */
    base = tensor_empty(dt, 2, TT_SHAPE(rows, cols + 3));
    out = tensor_slice(base, 1, 1, cols + 1, 1);
  } else {
    base = tensor_empty(dt, 2, TT_SHAPE(rows, cols));
    out = tensor_alias(base);
  }
  for (int64_t i = 0; i < rows * cols; i++)
    tensor_set_flat(out, i, dt == DT_INT64 ? (double)((i * 7 + (int64_t)seed) % 11) - 5
                                          : sin((double)i * 0.37 + seed));
  tensor_release(base);
  return out;
}

START_TEST(test_mm_layouts) {
  const DType dts[] = {DT_FLOAT32, DT_FLOAT64, DT_INT64};
  for (int d = 0; d < 3; d++)
    for (int la = 0; la < 4; la++)
      for (int lb = 0; lb < 4; lb++) {
        Tensor *a = matrix_in_layout(dts[d], 5, 7, la, 1);
        Tensor *b = matrix_in_layout(dts[d], 7, 3, lb, 2);
        check_mm(a, b, dts[d] == DT_FLOAT32 ? 1e-5 : 1e-12);
        /* one output column or row: the gemv paths */
        Tensor *bc = matrix_in_layout(dts[d], 7, 1, lb, 3), *ar = matrix_in_layout(dts[d], 1, 7, la, 4);
        check_mm(a, bc, dts[d] == DT_FLOAT32 ? 1e-5 : 1e-12);
        check_mm(ar, b, dts[d] == DT_FLOAT32 ? 1e-5 : 1e-12);
        check_mm(ar, bc, dts[d] == DT_FLOAT32 ? 1e-5 : 1e-12);
        Tensor *rel[] = {a, b, bc, ar};
        for (int k = 0; k < 4; k++) tensor_release(rel[k]);
      }
  /* degenerate shapes: a row vector, a column, an empty inner dim */
  Tensor *r = matrix_in_layout(DT_FLOAT32, 1, 4, 1, 0), *c = matrix_in_layout(DT_FLOAT32, 4, 1, 1, 0);
  check_mm(r, c, 1e-5);
  check_mm(c, r, 1e-5);
  Tensor *e1 = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(3, 0)), *e2 = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(0, 2));
  Tensor *z = tensor_mm(e1, e2);
  tt_check_values(z, TT_VALS(0, 0, 0, 0, 0, 0), 0);
  Tensor *rel[] = {r, c, e1, e2, z};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_matmul_rules) {
  Tensor *v3 = tt_iota(DT_FLOAT32, 1, (int64_t)3);
  Tensor *m23 = tt_iota(DT_FLOAT32, 2, (int64_t)2, (int64_t)3);
  Tensor *m34 = tt_iota(DT_FLOAT32, 2, (int64_t)3, (int64_t)4);
  Tensor *dot = tensor_matmul(v3, v3);
  ck_assert_int_eq(dot->ndim, 0);
  ck_assert(tensor_item(dot) == 5);
  Tensor *mv = tensor_matmul(m23, v3);
  tt_check_shape(mv, 1, TT_SHAPE(2));
  tt_check_values(mv, TT_VALS(5, 14), 0);
  Tensor *vm = tensor_matmul(v3, m34);
  tt_check_shape(vm, 1, TT_SHAPE(4));
  tt_check_values(vm, TT_VALS(20, 23, 26, 29), 0);
  /* batched with broadcasting: (2,1,2,3) @ (4,3,4) -> (2,4,2,4) */
  Tensor *ba = tt_iota(DT_FLOAT32, 4, (int64_t)2, (int64_t)1, (int64_t)2, (int64_t)3);
  Tensor *bb = tt_iota(DT_FLOAT32, 3, (int64_t)4, (int64_t)3, (int64_t)4);
  Tensor *bc = tensor_matmul(ba, bb);
  tt_check_shape(bc, 4, TT_SHAPE(2, 4, 2, 4));
  for (int x = 0; x < 2; x++)
    for (int y = 0; y < 4; y++) {
      Tensor *sa = tensor_select(ba, 0, x), *sa2 = tensor_select(sa, 0, 0);
      Tensor *sb = tensor_select(bb, 0, y);
      Tensor *ref = tensor_mm(sa2, sb);
      for (int k = 0; k < 8; k++)
        ck_assert(tensor_get_flat(bc, (x * 4 + y) * 8 + k) == tensor_get_flat(ref, k));
      Tensor *rel[] = {sa, sa2, sb, ref};
      for (int k = 0; k < 4; k++) tensor_release(rel[k]);
    }
  Tensor *col = tensor_select(m34, 1, 0);
  Tensor *bv = tensor_matmul(ba, col); /* (2,1,2,3) @ (3) -> (2,1,2) */
  tt_check_shape(bv, 3, TT_SHAPE(2, 1, 2));
  tt_check_values(bv, TT_VALS(20, 56, 92, 128), 0);
  Tensor *m45 = tt_iota(DT_FLOAT32, 2, (int64_t)4, (int64_t)5);
  tt_check_error(tensor_matmul(m23, m45), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  Tensor *v2 = tt_iota(DT_FLOAT32, 1, (int64_t)2);
  tt_check_error(tensor_dot(v3, v2),
                 "inconsistent tensor size, expected tensor [3] and src [2] to have the same number "
                 "of elements, but got 3 and 2 elements respectively");
  Tensor *d64 = tensor_to_dtype(m34, DT_FLOAT64);
  tt_check_error(tensor_matmul(m23, d64), "expected scalar type Float but found Double");
  Tensor *s0 = tensor_scalar(DT_FLOAT32, 1);
  tt_check_error(tensor_matmul(s0, v3), "both arguments to matmul need to be at least 1D");
  tt_check_error(tensor_bmm(ba, bb), "batch1 must be a 3D tensor");
  Tensor *out = tensor_outer(v3, v2);
  tt_check_shape(out, 2, TT_SHAPE(3, 2));
  tt_check_values(out, TT_VALS(0, 0, 0, 1, 0, 2), 0);
  Tensor *rel[] = {v3, m23, m34, dot, mv, vm, ba, bb, bc, col, bv, m45, v2, d64, s0, out};
  for (size_t k = 0; k < sizeof rel / sizeof *rel; k++) tensor_release(rel[k]);
}
END_TEST

/* Each batch item of c equals mm of the items of a and b, exactly. */
static void check_batches_exact(const Tensor *a, const Tensor *b, const Tensor *c) {
  for (int64_t i = 0; i < c->shape[0]; i++) {
    Tensor *sa = tensor_select(a, 0, i), *sb = tensor_select(b, 0, i), *sc = tensor_select(c, 0, i);
    Tensor *ref = tensor_mm(sa, sb);
    for (int64_t k = 0; k < ref->numel; k++) ck_assert(tensor_get_flat(sc, k) == tensor_get_flat(ref, k));
    Tensor *rel[] = {sa, sb, sc, ref};
    for (int k = 0; k < 4; k++) tensor_release(rel[k]);
  }
}

/* func.vmap's per-sample products: a batch operand that is one matrix
 * expanded over the batch (folded into one product) and batches of outer
 * products (k = 1), in float32 and float64, contiguous and transposed. */
START_TEST(test_bmm_shortcuts) {
  const DType dts[] = {DT_FLOAT32, DT_FLOAT64};
  for (int d = 0; d < 2; d++) {
    Tensor *a = tt_iota(dts[d], 3, (int64_t)5, (int64_t)2, (int64_t)20);
    Tensor *w = tt_iota(dts[d], 2, (int64_t)20, (int64_t)30);
    Tensor *w1 = tensor_unsqueeze(w, 0);
    Tensor *we = tensor_expand(w1, 3, TT_SHAPE(5, 20, 30));
    Tensor *c = tensor_bmm(a, we);
    tt_check_shape(c, 3, TT_SHAPE(5, 2, 30));
    check_batches_exact(a, we, c);
    Tensor *wt = tensor_transpose(we, 1, 2); /* (5, 30, 20): W^T expanded */
    Tensor *g = tt_iota(dts[d], 3, (int64_t)5, (int64_t)2, (int64_t)30);
    Tensor *gx = tensor_bmm(g, wt);
    check_batches_exact(g, wt, gx);
    Tensor *col = tt_iota(dts[d], 3, (int64_t)4, (int64_t)3, (int64_t)1);
    Tensor *row = tt_iota(dts[d], 3, (int64_t)4, (int64_t)1, (int64_t)25);
    Tensor *outer = tensor_bmm(col, row);
    tt_check_shape(outer, 3, TT_SHAPE(4, 3, 25));
    check_batches_exact(col, row, outer);
    Tensor *rows_t = tt_iota(dts[d], 3, (int64_t)4, (int64_t)25, (int64_t)1);
    Tensor *row_t = tensor_transpose(rows_t, 1, 2); /* strided row */
    Tensor *outer_t = tensor_bmm(col, row_t);
    check_batches_exact(col, row_t, outer_t);
    Tensor *rel[] = {a, w, w1, we, c, wt, g, gx, col, row, outer, rows_t, row_t, outer_t};
    for (size_t k = 0; k < sizeof rel / sizeof *rel; k++) tensor_release(rel[k]);
  }
}
END_TEST

START_TEST(test_bmm_mv_int) {
  Tensor *a = tt_iota(DT_INT64, 3, (int64_t)2, (int64_t)2, (int64_t)3);
  Tensor *b = tt_iota(DT_INT64, 3, (int64_t)2, (int64_t)3, (int64_t)1);
  Tensor *c = tensor_bmm(a, b);
  tt_check_shape(c, 3, TT_SHAPE(2, 2, 1));
  tt_check_values(c, TT_VALS(5, 14, 86 + 0 * 1, 122), 0);
  Tensor *bad = tt_iota(DT_INT64, 3, (int64_t)2, (int64_t)4, (int64_t)1);
  tt_check_error(tensor_bmm(a, bad), "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  Tensor *rel[] = {a, b, c, bad};
  for (int k = 0; k < 4; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_softmax) {
  Tensor *a = tt_make(DT_FLOAT32, 2, TT_SHAPE(2, 3), TT_VALS(1, 2, 3, 1000, 1000, -1000));
  Tensor *s = tensor_softmax(a, 1);
  double e = exp(1) + exp(2) + exp(3);
  tt_check_values(s, TT_VALS(exp(1) / e, exp(2) / e, exp(3) / e, 0.5, 0.5, 0), 1e-6);
  Tensor *ls = tensor_log_softmax(a, -1);
  tt_check_values(ls, TT_VALS(1 - log(e), 2 - log(e), 3 - log(e), -log(2), -log(2), -2000 - log(2)), 1e-6);
  Tensor *s0 = tensor_softmax(a, 0); /* along a strided dim */
  ck_assert(tt_close(tensor_get_flat(s0, 0) + tensor_get_flat(s0, 3), 1, 1e-6));
  ck_assert(tt_close(tensor_get_flat(s0, 2), 1, 1e-6));
  Tensor *i = tt_iota(DT_INT64, 1, (int64_t)3);
  tt_check_error(tensor_softmax(i, 0), "not implemented for 'Long'");
  tt_check_error(tensor_softmax(a, 2), "Dimension out of range");
  Tensor *rel[] = {a, s, ls, s0, i};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_losses) {
  Tensor *a = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(1, 2, 3));
  Tensor *b = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(1.5, 2, 1));
  Tensor *mse = tensor_mse_loss(a, b, RED_MEAN), *mses = tensor_mse_loss(a, b, RED_SUM),
         *msen = tensor_mse_loss(a, b, RED_NONE);
  ck_assert(tt_close(tensor_item(mse), 4.25 / 3, 1e-6));
  ck_assert(tt_close(tensor_item(mses), 4.25, 1e-6));
  tt_check_values(msen, TT_VALS(0.25, 0, 4), 1e-6);
  Tensor *l1 = tensor_l1_loss(a, b, RED_MEAN);
  ck_assert(tt_close(tensor_item(l1), 2.5 / 3, 1e-6));
  Tensor *logits = tt_make(DT_FLOAT32, 2, TT_SHAPE(2, 3), TT_VALS(1, 2, 3, 0, 0, 0));
  Tensor *t = tt_make(DT_INT64, 1, TT_SHAPE(2), TT_VALS(2, 0));
  Tensor *ce = tensor_cross_entropy(logits, t, RED_MEAN);
  double e = exp(1) + exp(2) + exp(3);
  double want = ((log(e) - 3) + log(3)) / 2;
  ck_assert(tt_close(tensor_item(ce), want, 1e-6));
  Tensor *cen = tensor_cross_entropy(logits, t, RED_NONE);
  tt_check_values(cen, TT_VALS(log(e) - 3, log(3)), 1e-6);
  Tensor *row = tensor_select(logits, 0, 0), *t0 = tensor_scalar(DT_INT64, 2);
  Tensor *ce1 = tensor_cross_entropy(row, t0, RED_MEAN);
  ck_assert(tt_close(tensor_item(ce1), log(e) - 3, 1e-6));
  Tensor *lp = tensor_log_softmax(logits, 1);
  Tensor *nll = tensor_nll_loss(lp, t, RED_SUM);
  ck_assert(tt_close(tensor_item(nll), 2 * want, 1e-6));
  Tensor *bad_t = tt_make(DT_INT64, 1, TT_SHAPE(2), TT_VALS(3, 0));
  tt_check_error(tensor_nll_loss(lp, bad_t, RED_MEAN), "Target 3 is out of bounds.");
  Tensor *short_t = tt_make(DT_INT64, 1, TT_SHAPE(3), TT_VALS(0, 0, 0));
  tt_check_error(tensor_cross_entropy(logits, short_t, RED_MEAN),
                 "Expected input batch_size (2) to match target batch_size (3).");
  tt_check_error(tensor_nll_loss(lp, a, RED_MEAN), "expected scalar type Long but found Float");
  Tensor *p = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(0.9, 0.2, 0));
  Tensor *y = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(1, 0, 1));
  Tensor *bce = tensor_binary_cross_entropy(p, y, RED_NONE);
  tt_check_values(bce, TT_VALS(-log(0.9), -log(0.8), 100), 1e-6);
  Tensor *toolarge = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(1.5, 0, 0));
  tt_check_error(tensor_binary_cross_entropy(toolarge, y, RED_MEAN), "all elements of input should be between 0 and 1");
  Tensor *rel[] = {a, b, mse, mses, msen, l1, logits, t, ce, cen, row, t0, ce1, lp, nll, bad_t, short_t, p, y, bce, toolarge};
  for (size_t k = 0; k < sizeof rel / sizeof *rel; k++) tensor_release(rel[k]);
}
END_TEST

/* The benchmark shape: 1024x1024 sgemm, checked at a few entries. */
START_TEST(test_big_sgemm) {
  int64_t n = 256;
  Tensor *a = matrix_in_layout(DT_FLOAT32, n, n, 0, 0.5), *b = matrix_in_layout(DT_FLOAT32, n, n, 1, 0.25);
  Tensor *c = tensor_matmul(a, b);
  for (int64_t i = 0; i < n; i += 51)
    for (int64_t j = 0; j < n; j += 37)
      ck_assert(tt_close(tensor_get_flat(c, i * n + j), naive_entry(a, b, i, j), 1e-4));
  Tensor *rel[] = {a, b, c};
  for (int k = 0; k < 3; k++) tensor_release(rel[k]);
}
END_TEST

/* A batch worth spreading over the worker pool (8 products of 2^18
 * multiply-adds, each single-threaded in OpenBLAS either way) has the very
 * bits of its products made one by one, for either layout of b, and leaves
 * the library's thread count as it found it. */
START_TEST(test_bmm_spread) {
  int64_t n = 64;
  const BlasApi *api = tensor_blas();
  int threads = api->openblas_get_num_threads ? api->openblas_get_num_threads() : 1;
  Tensor *a = tt_iota(DT_FLOAT32, 3, (int64_t)8, n, n), *b = tt_iota(DT_FLOAT32, 3, (int64_t)8, n, n);
  Tensor *as = tensor_binary_scalar(BIN_MUL, a, 1e-4), *bs = tensor_binary_scalar(BIN_MUL, b, 3e-5);
  Tensor *bt = tensor_transpose(bs, 1, 2);
  Tensor *seconds[2] = {bs, bt};
  for (int layout = 0; layout < 2; layout++) {
    Tensor *c = tensor_bmm(as, seconds[layout]);
    ck_assert_msg(c != NULL, "%s", tensor_error());
    for (int64_t i = 0; i < 8; i++) {
      Tensor *ai = tensor_select(as, 0, i), *bi = tensor_select(seconds[layout], 0, i);
      Tensor *ci = tensor_mm(ai, bi), *got = tensor_select(c, 0, i), *gc = tensor_contiguous(got);
      ck_assert(memcmp(tensor_data(ci), tensor_data(gc), (size_t)(n * n) * sizeof(float)) == 0);
      Tensor *rel[] = {ai, bi, ci, got, gc};
      for (int k = 0; k < 5; k++) tensor_release(rel[k]);
    }
    tensor_release(c);
  }
  if (api->openblas_get_num_threads) ck_assert_int_eq(api->openblas_get_num_threads(), threads);
  Tensor *rel[] = {a, b, as, bs, bt};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

/* BatchNorm's fused kernel against the textbook formulas in double: the
 * output, the unbiased variance, and the three gradients of sum(out * g). */
START_TEST(test_batch_norm_fused) {
  int64_t n = 4, c = 3, s = 5, count = n * s;
  Tensor *x = tt_iota(DT_FLOAT64, 3, n, c, s), *g = tt_iota(DT_FLOAT64, 3, n, c, s);
  double *xd = tensor_data(x), *gd = tensor_data(g);
  for (int64_t i = 0; i < n * c * s; i++) {
    xd[i] = sin((double)i * 0.7) * 3 + (double)(i % 3);
    gd[i] = cos((double)i * 0.3);
  }
  Tensor *w = tt_make(DT_FLOAT64, 1, TT_SHAPE(3), TT_VALS(0.5, -1, 2));
  Tensor *b = tt_make(DT_FLOAT64, 1, TT_SHAPE(3), TT_VALS(0.1, 0.2, 0.3));
  Tensor *mean = NULL, *var = NULL, *dx = NULL, *dw = NULL, *db = NULL;
  Tensor *out = tensor_batch_norm_train(x, w, b, 1e-5, &mean, &var);
  ck_assert_msg(out && tensor_batch_norm_backward(x, g, w, 1e-5, &dx, &dw, &db), "%s", tensor_error());
  for (int64_t ch = 0; ch < c; ch++) {
    double m = 0, v = 0, sg = 0, sgx = 0;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < s; j++) m += xd[(i * c + ch) * s + j] / (double)count;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < s; j++) {
        double d = xd[(i * c + ch) * s + j] - m;
        v += d * d / (double)count;
      }
    double rstd = 1 / sqrt(v + 1e-5), wc = tensor_get_flat(w, ch);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < s; j++) {
        int64_t e = (i * c + ch) * s + j;
        double xhat = (xd[e] - m) * rstd;
        ck_assert(tt_close(tensor_get_flat(out, e), xhat * wc + tensor_get_flat(b, ch), 1e-12));
        sg += gd[e];
        sgx += gd[e] * xhat;
      }
    ck_assert(tt_close(tensor_get_flat(mean, ch), m, 1e-12));
    ck_assert(tt_close(tensor_get_flat(var, ch), v * (double)count / (double)(count - 1), 1e-12));
    ck_assert(tt_close(tensor_get_flat(db, ch), sg, 1e-12));
    ck_assert(tt_close(tensor_get_flat(dw, ch), sgx, 1e-12));
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < s; j++) {
        int64_t e = (i * c + ch) * s + j;
        double xhat = (xd[e] - m) * rstd;
        double want = wc * rstd * (gd[e] - sg / (double)count - xhat * sgx / (double)count);
        ck_assert(tt_close(tensor_get_flat(dx, e), want, 1e-12));
      }
  }
  Tensor *rel[] = {x, g, w, b, mean, var, out, dx, dw, db};
  for (int k = 0; k < 10; k++) tensor_release(rel[k]);
}
END_TEST

static Suite *linalg_suite(void) {
  Suite *s = suite_create("tensor_linalg");
  TCase *tc = tcase_create("linalg");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_blas_loaded_lazily);
  tcase_add_test(tc, test_blas_missing_library);
  tcase_add_test(tc, test_blas_builtin_kernel);
  tcase_add_test(tc, test_mm_layouts);
  tcase_add_test(tc, test_matmul_rules);
  tcase_add_test(tc, test_bmm_mv_int);
  tcase_add_test(tc, test_bmm_shortcuts);
  tcase_add_test(tc, test_softmax);
  tcase_add_test(tc, test_losses);
  tcase_add_test(tc, test_big_sgemm);
  tcase_add_test(tc, test_bmm_spread);
  tcase_add_test(tc, test_batch_norm_fused);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(linalg_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
