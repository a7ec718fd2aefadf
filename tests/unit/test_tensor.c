/* test_tensor.c — the tensor core: construction, dtypes and promotion,
 * elementwise ops against naive loops, broadcasting, views sharing storage,
 * in-place ops and versions, reductions, joins, errors and huge shapes. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "test_tensor_helpers.h"

/* ---- construction ---- */

/* The fused updates round once where ATen's kernels fuse: with b = alpha = 1 + 2^-12 and
 * a = -1, alpha * b = 1 + 2^-11 + 2^-24 is a tie in float32, so two roundings give 2^-11
 * and an fma 2^-11 + 2^-24. addcmul_ rounds value * tensor1 before its fma, addcdiv_ does
 * not fuse, lerp_ fuses on both sides of 0.5. */
START_TEST(test_fused_updates) {
  float k = 1.0f + 0x1p-12f;
  Tensor *a = tensor_full(DT_FLOAT32, 1, TT_SHAPE(3), -1);
  Tensor *b = tensor_full(DT_FLOAT32, 1, TT_SHAPE(3), k);
  Tensor *ones = tensor_full(DT_FLOAT32, 1, TT_SHAPE(3), 1);
  ck_assert(tensor_fused_(FUSED_ADD_SCALED, a, b, NULL, k));
  ck_assert(tensor_get_flat(a, 2) == 0x1p-11 + 0x1p-24);
  ck_assert_int_eq(tensor_version(a), 1);
  tensor_fill_(a, -1);
  ck_assert(tensor_fused_(FUSED_ADDCMUL, a, b, b, 1)); /* fma(1 * b, b, a) */
  ck_assert(tensor_get_flat(a, 0) == 0x1p-11 + 0x1p-24);
  tensor_fill_(a, -1);
  ck_assert(tensor_fused_(FUSED_ADDCMUL, a, b, ones, k)); /* value * b rounds first */
  ck_assert(tensor_get_flat(a, 0) == 0x1p-11);
  tensor_fill_(a, -1);
  ck_assert(tensor_fused_(FUSED_ADDCDIV, a, b, ones, k)); /* (k * b) / 1 rounded, then added */
  ck_assert(tensor_get_flat(a, 1) == 0x1p-11);
  Tensor *row = tensor_full(DT_FLOAT32, 2, TT_SHAPE(1, 3), 2);
  Tensor *small = tensor_full(DT_FLOAT32, 1, TT_SHAPE(2), 2);
  ck_assert(!tensor_fused_(FUSED_ADD_SCALED, a, row, NULL, 1));
  ck_assert(!tensor_fused_(FUSED_ADD_SCALED, a, small, NULL, 1));
  Tensor *n = tensor_full(DT_INT64, 1, TT_SHAPE(3), 1);
  ck_assert(!tensor_fused_(FUSED_ADD_SCALED, n, n, NULL, 2));
  ck_assert(strstr(tensor_error(), "add_ of a Long tensor"));
  tensor_fill_(a, 0);
  ck_assert(tensor_fused_(FUSED_LERP, a, ones, NULL, 0.25));
  ck_assert(tensor_get_flat(a, 0) == 0.25);
  ck_assert(tensor_fused_(FUSED_LERP_TENSOR, a, ones, b, 0)); /* weight >= 0.5: from the end */
  ck_assert(tensor_get_flat(a, 0) == (double)fmaf(-0.75f, 1.0f - k, 1.0f));
  tensor_release(a);
  tensor_release(b);
  tensor_release(ones);
  tensor_release(row);
  tensor_release(small);
  tensor_release(n);
}
END_TEST

START_TEST(test_construction) {
  Tensor *z = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(2, 3));
  ck_assert_int_eq(z->numel, 6);
  ck_assert_int_eq(z->stride[0], 3);
  ck_assert_int_eq(z->stride[1], 1);
  ck_assert(tensor_is_contiguous(z));
  for (int i = 0; i < 6; i++) ck_assert(tensor_get_flat(z, i) == 0);
  Tensor *f = tensor_full(DT_INT64, 1, TT_SHAPE(5), 7);
  ck_assert_int_eq(tensor_version(f), 0);
  for (int i = 0; i < 5; i++) ck_assert(tensor_get_flat(f, i) == 7);
  Tensor *s = tensor_scalar(DT_FLOAT64, 2.5);
  ck_assert_int_eq(s->ndim, 0);
  ck_assert(tensor_item(s) == 2.5);
  ck_assert(isnan(tensor_item(z)));
  ck_assert(strstr(tensor_error(), "a Tensor with 6 elements cannot be converted to Scalar"));
  Tensor *b = tensor_full(DT_BOOL, 1, TT_SHAPE(3), 5);
  ck_assert(tensor_get_flat(b, 2) == 1);
  ck_assert_str_eq(dtype_name(DT_FLOAT32), "float32");
  ck_assert_int_eq(dtype_size(DT_BOOL), 1);
  Tensor *e = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(0, 4));
  ck_assert_int_eq(e->numel, 0);
  tensor_release(z);
  tensor_release(f);
  tensor_release(s);
  tensor_release(b);
  tensor_release(e);
}
END_TEST

START_TEST(test_retain_release_and_views) {
  Tensor *a = tt_iota(DT_FLOAT32, 1, (int64_t)6);
  Tensor *v = tensor_view(a, 2, TT_SHAPE(2, 3));
  ck_assert_ptr_eq(v->storage, a->storage);
  tensor_release(a); /* the view keeps the storage alive */
  ck_assert(tensor_get_flat(v, 5) == 5);
  tensor_retain(v);
  tensor_release(v);
  ck_assert_int_eq(v->refcount, 1);
  tensor_release(v);
}
END_TEST

/* t.data = src: t takes src's elements, shape and dtype; writes through t
 * bump t's own version counter, not src's */
START_TEST(test_set_data) {
  int64_t three = 3, two[2] = {2, 2};
  Tensor *t = tensor_full(DT_FLOAT32, 1, &three, 1.0);
  Tensor *src = tensor_full(DT_FLOAT64, 2, two, 5.0);
  ck_assert(tensor_set_data(t, src));
  ck_assert_int_eq(t->dtype, DT_FLOAT64);
  ck_assert_int_eq(t->ndim, 2);
  ck_assert_int_eq(t->numel, 4);
  int64_t src_version = src->storage->version;
  ck_assert(tensor_binary_scalar_(BIN_ADD, t, 1.0));
  ck_assert_double_eq(tensor_get_flat(src, 3), 6.0); /* the same elements */
  ck_assert_int_eq(src->storage->version, src_version);
  tensor_release(src);
  ck_assert_double_eq(tensor_get_flat(t, 0), 6.0); /* t keeps them alive */
  tensor_release(t);
}
END_TEST

START_TEST(test_huge_shapes) {
  tt_check_error(tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(1000000, 1000000)), "bytes");
  tt_check_error(tensor_empty(DT_FLOAT32, 2, TT_SHAPE((int64_t)1 << 62, (int64_t)1 << 62)),
                 "Storage size calculation overflowed with sizes=[4611686018427387904, "
                 "4611686018427387904]");
  tt_check_error(tensor_empty(DT_FLOAT64, 1, TT_SHAPE((int64_t)1 << 62)),
                 "Storage size calculation overflowed with sizes=[4611686018427387904]");
  tt_check_error(tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(2, -1)),
                 "Trying to create tensor with negative dimension -1: [2, -1]");
  Tensor *x = tt_iota(DT_FLOAT32, 1, (int64_t)3);
  tt_check_error(tensor_expand(x, 3, TT_SHAPE((int64_t)1 << 40, (int64_t)1 << 40, 3)),
                 "Storage size calculation overflowed");
  tt_check_error(tensor_reshape(x, 2, TT_SHAPE(-1, 0)), "invalid for input of size 3");
  /* huge steps and sizes don't overflow */
  Tensor *one = tensor_slice(x, 0, 1, INT64_MAX, INT64_MAX);
  tt_check_shape(one, 1, TT_SHAPE(1));
  Tensor **parts;
  ck_assert_int_eq(tensor_split(x, INT64_MAX, 0, &parts), 1);
  tensor_release(parts[0]);
  free(parts);
  Tensor *wide = tensor_expand(x, 2, TT_SHAPE((int64_t)1 << 61, 3));
  tt_check_error(tensor_cat((Tensor *const[]){wide, wide, wide, wide, wide}, 5, 0), "overflow");
  tensor_release(wide);
  tensor_release(one);
  tensor_release(x);
}
END_TEST

/* ---- dtypes ---- */

/* ---- the narrow dtypes ---- */

/* Every float16 bit pattern survives half -> float -> half (nan keeps its
 * quiet payload); float -> half rounds to nearest even at ties, to a
 * subnormal below 2^-14, to inf from 65520 on. */
START_TEST(test_half_conversion) {
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = half_to_float((uint16_t)h);
    uint16_t back = float_to_half(f);
    if (isnan(f)) ck_assert(isnan(half_to_float(back)));
    else ck_assert_uint_eq(back, h);
  }
  ck_assert_uint_eq(float_to_half(2049.0f), 0x6800);  /* 2048: the even neighbour */
  ck_assert_uint_eq(float_to_half(2051.0f), 0x6802);  /* 2052 */
  ck_assert_uint_eq(float_to_half(65519.0f), 0x7bff); /* 65504 */
  ck_assert_uint_eq(float_to_half(65520.0f), 0x7c00); /* inf */
  ck_assert_uint_eq(float_to_half(-1e-8f), 0x8000);   /* -0 */
  ck_assert_uint_eq(float_to_half(3e-8f), 0x0001);    /* the least subnormal, 5.96e-8 */
  ck_assert_uint_eq(float_to_half(0x1p-25f), 0x0000); /* half of it: a tie, to even 0 */
  ck_assert_float_eq(half_to_float(0x3555), 0x1.554p-2f);
  ck_assert_uint_eq(float_to_bf16(1.0f / 3), 0x3eab);
  ck_assert_uint_eq(float_to_bf16(NAN), 0x7fc0);
  ck_assert_float_eq(bf16_to_float(0x3f80), 1.0f);
}
END_TEST

/* PyTorch's promotion table (c10's promoteTypes) on a few telling pairs, and
 * checked_convert's ranges. */
START_TEST(test_narrow_promotion) {
  ck_assert_int_eq(dtype_promote(DT_UINT8, DT_INT8), DT_INT16);
  ck_assert_int_eq(dtype_promote(DT_UINT8, DT_INT16), DT_INT16);
  ck_assert_int_eq(dtype_promote(DT_INT32, DT_UINT8), DT_INT32);
  ck_assert_int_eq(dtype_promote(DT_BOOL, DT_UINT8), DT_UINT8);
  ck_assert_int_eq(dtype_promote(DT_INT64, DT_FLOAT16), DT_FLOAT16);
  ck_assert_int_eq(dtype_promote(DT_FLOAT16, DT_BFLOAT16), DT_FLOAT32);
  ck_assert_int_eq(dtype_promote(DT_BFLOAT16, DT_FLOAT64), DT_FLOAT64);
  ck_assert_int_eq(tensor_scalar_result_type(DT_INT8, 300), DT_INT8);
  ck_assert_int_eq(tensor_scalar_result_type(DT_UINT8, 0.5), DT_FLOAT32);
  ck_assert_int_eq(tensor_scalar_result_type(DT_FLOAT16, 1e10), DT_FLOAT16);
  ck_assert(dtype_value_fits(DT_UINT8, -255, false));
  ck_assert(!dtype_value_fits(DT_UINT8, 256, false));
  ck_assert_str_eq(tensor_error(), "value cannot be converted to type uint8_t without overflow");
  ck_assert(dtype_value_fits(DT_INT8, -128, true) && !dtype_value_fits(DT_INT8, -129, true));
  ck_assert_str_eq(tensor_error(), "value cannot be converted to type int8 without overflow");
  ck_assert(dtype_value_fits(DT_FLOAT16, INFINITY, false) && !dtype_value_fits(DT_FLOAT16, 65505, false));
  /* conversions wrap integers and truncate floats toward zero */
  Tensor *f = tensor_zeros(DT_FLOAT32, 1, TT_SHAPE(3));
  tensor_set_flat(f, 0, 300.7);
  tensor_set_flat(f, 1, -1.5);
  tensor_set_flat(f, 2, 65504);
  Tensor *c = tensor_to_dtype(f, DT_INT8), *u = tensor_to_dtype(f, DT_UINT8);
  Tensor *h = tensor_to_dtype(f, DT_FLOAT16), *w = tensor_to_dtype(h, DT_INT16);
  ck_assert_int_eq(tensor_get_flat_int(c, 0), 44);
  ck_assert_int_eq(tensor_get_flat_int(c, 1), -1);
  ck_assert_int_eq(tensor_get_flat_int(u, 1), 255);
  ck_assert_double_eq(tensor_get_flat(h, 0), 300.75);
  ck_assert_int_eq(tensor_get_flat_int(w, 2), -32); /* 65504 wraps in int16 */
  Tensor *all[] = {f, c, u, h, w};
  for (size_t i = 0; i < 5; i++) tensor_release(all[i]);
}
END_TEST

START_TEST(test_promotion) {
  Tensor *f = tensor_zeros(DT_FLOAT32, 1, TT_SHAPE(2));
  Tensor *d = tensor_zeros(DT_FLOAT64, 1, TT_SHAPE(2));
  Tensor *i = tensor_zeros(DT_INT64, 1, TT_SHAPE(2));
  Tensor *b = tensor_zeros(DT_BOOL, 1, TT_SHAPE(2));
  Tensor *d0 = tensor_scalar(DT_FLOAT64, 1);
  Tensor *f0 = tensor_scalar(DT_FLOAT32, 1);
  ck_assert_int_eq(tensor_result_type(f, d), DT_FLOAT64);
  ck_assert_int_eq(tensor_result_type(i, f), DT_FLOAT32);
  ck_assert_int_eq(tensor_result_type(b, i), DT_INT64);
  ck_assert_int_eq(tensor_result_type(f, d0), DT_FLOAT32); /* 0-d does not raise float32 */
  ck_assert_int_eq(tensor_result_type(d0, i), DT_FLOAT64);  /* ... but raises a category */
  ck_assert_int_eq(tensor_result_type(i, f0), DT_FLOAT32);
  ck_assert_int_eq(tensor_scalar_result_type(DT_INT64, 0.5), DT_FLOAT32);
  ck_assert_int_eq(tensor_scalar_result_type(DT_INT64, 2), DT_INT64);
  ck_assert_int_eq(tensor_scalar_result_type(DT_BOOL, 1), DT_INT64);
  ck_assert_int_eq(tensor_scalar_result_type(DT_FLOAT64, 2.5), DT_FLOAT64);
  ck_assert_int_eq(tensor_scalar_result_type(DT_FLOAT32, 2.5), DT_FLOAT32);

  Tensor *r = tensor_binary(BIN_DIV, i, i);
  ck_assert_int_eq(r->dtype, DT_FLOAT32);
  tensor_release(r);
  r = tensor_binary_scalar(BIN_MUL, i, 0.5);
  ck_assert_int_eq(r->dtype, DT_FLOAT32);
  tensor_release(r);
  r = tensor_binary_scalar(BIN_MUL, i, 3);
  ck_assert_int_eq(r->dtype, DT_INT64);
  tensor_release(r);
  r = tensor_binary(BIN_LT, f, d);
  ck_assert_int_eq(r->dtype, DT_BOOL);
  tensor_release(r);
  r = tensor_unary(UN_EXP, i);
  ck_assert_int_eq(r->dtype, DT_FLOAT32);
  ck_assert(tensor_get_flat(r, 0) == 1);
  tensor_release(r);
  r = tensor_binary(BIN_ADD, b, b);
  ck_assert_int_eq(r->dtype, DT_BOOL);
  tensor_release(r);
  tt_check_error(tensor_binary(BIN_SUB, b, b), "Subtraction, the `-` operator, with two bool");
  tt_check_error(tensor_unary(UN_NEG, b), "Negation, the `-` operator, on a bool tensor");
  Tensor *ops[] = {f, d, i, b, d0, f0};
  for (int k = 0; k < 6; k++) tensor_release(ops[k]);
}
END_TEST

START_TEST(test_conversion) {
  Tensor *f = tt_make(DT_FLOAT32, 1, TT_SHAPE(4), TT_VALS(-1.7, 0, 2.9, NAN));
  Tensor *i = tensor_to_dtype(f, DT_INT64);
  ck_assert(tensor_get_flat(i, 0) == -1);
  ck_assert(tensor_get_flat(i, 2) == 2);
  Tensor *b = tensor_to_dtype(f, DT_BOOL);
  tt_check_values(b, TT_VALS(1, 0, 1, 1), 0);
  Tensor *same = tensor_to_dtype(f, DT_FLOAT32);
  ck_assert_ptr_eq(same, f);
  tensor_release(same);
  tensor_release(f);
  tensor_release(i);
  tensor_release(b);
}
END_TEST

/* ---- elementwise against naive loops ---- */

static double ref_binary(BinaryOp op, double x, double y) {
  switch (op) {
  case BIN_ADD: return x + y;
  case BIN_SUB: return x - y;
  case BIN_MUL: return x * y;
  case BIN_DIV: return x / y;
  case BIN_POW: return pow(x, y);
  case BIN_MOD: {
    double r = fmod(x, y);
    return (r != 0 && (r < 0) != (y < 0)) ? r + y : r;
  }
  case BIN_FLOOR_DIVIDE: return floor(x / y); /* exact for the test's values */
  case BIN_MAXIMUM: return x > y ? x : y;
  case BIN_MINIMUM: return x < y ? x : y;
  case BIN_XLOGY: return y != y ? y : x == 0 ? 0 : x * log(y);
  case BIN_LOGADDEXP: return log(exp(x) + exp(y));
  case BIN_EQ: return x == y;
  case BIN_NE: return x != y;
  case BIN_LT: return x < y;
  case BIN_LE: return x <= y;
  case BIN_GT: return x > y;
  case BIN_GE: return x >= y;
  case BIN_LOGICAL_AND: return x != 0 && y != 0;
  case BIN_LOGICAL_OR: return x != 0 || y != 0;
  default: return NAN;
  }
}

/* a (2,3) against b given in several layouts: same shape, transposed view,
 * a broadcast row, a broadcast column, a 0-d tensor and a scalar. */
static void check_binary_op(BinaryOp op, DType dt) {
  double av[6] = {1.5, -2, 3, 0.5, 4, -1}, bv[6] = {2, 0.5, -3, 1.5, 4, 2};
  if (dt == DT_INT64) { /* nonzero integers of both signs */
    const double ai[6] = {3, -2, 5, 1, 4, -7}, bi[6] = {2, 1, -3, 6, 4, 2};
    memcpy(av, ai, sizeof av);
    memcpy(bv, bi, sizeof bv);
  }
  Tensor *a = tt_make(dt, 2, TT_SHAPE(2, 3), av);
  Tensor *b = tt_make(dt, 2, TT_SHAPE(2, 3), bv);
  Tensor *bt_base = tt_make(dt, 2, TT_SHAPE(3, 2), TT_VALS(bv[0], bv[3], bv[1], bv[4], bv[2], bv[5]));
  Tensor *bt = tensor_t(bt_base); /* non-contiguous, same values as b */
  double tol = dt == DT_FLOAT64 ? 1e-12 : 1e-6; /* int division gives float32 */
  for (int layout = 0; layout < 2; layout++) {
    Tensor *r = tensor_binary(op, a, layout ? bt : b);
    ck_assert_msg(r != NULL, "%s: %s", tensor_binary_names[op], tensor_error());
    for (int k = 0; k < 6; k++) {
      double want = ref_binary(op, tensor_get_flat(a, k), tensor_get_flat(b, k));
      if (dt == DT_INT64 && (op == BIN_DIV || op == BIN_XLOGY)) want = (float)want;
      ck_assert_msg(tt_close(tensor_get_flat(r, k), want, tol), "%s[%d] layout %d: %g vs %g",
                    tensor_binary_names[op], k, layout, tensor_get_flat(r, k), want);
    }
    tensor_release(r);
  }
  Tensor *row = tensor_slice(b, 0, 0, 1, 1);          /* (1,3) */
  Tensor *col = tensor_slice(b, 1, 1, 2, 1);          /* (2,1) */
  Tensor *r1 = tensor_binary(op, a, row), *r2 = tensor_binary(op, col, a);
  Tensor *r3 = tensor_binary_scalar(op, a, bv[4]), *r4 = tensor_scalar_binary(op, bv[4], a);
  for (int k = 0; k < 6; k++) {
    double x = tensor_get_flat(a, k);
    ck_assert(tt_close(tensor_get_flat(r1, k), ref_binary(op, x, bv[k % 3]), tol));
    ck_assert_msg(tt_close(tensor_get_flat(r2, k), ref_binary(op, bv[(k / 3) * 3 + 1], x), tol),
                  "%s dt %d [%d]: %g vs %g", tensor_binary_names[op], dt, k, tensor_get_flat(r2, k),
                  ref_binary(op, bv[(k / 3) * 3 + 1], x));
    ck_assert(tt_close(tensor_get_flat(r3, k), ref_binary(op, x, bv[4]), tol));
    ck_assert(tt_close(tensor_get_flat(r4, k), ref_binary(op, bv[4], x), tol));
  }
  Tensor *rel[] = {a, b, bt_base, bt, row, col, r1, r2, r3, r4};
  for (int k = 0; k < 10; k++) tensor_release(rel[k]);
}

START_TEST(test_binary_ops) {
  for (int op = 0; op < BIN_COUNT; op++) {
    check_binary_op((BinaryOp)op, DT_FLOAT32);
    check_binary_op((BinaryOp)op, DT_FLOAT64);
    if (op != BIN_POW && op != BIN_LOGADDEXP) check_binary_op((BinaryOp)op, DT_INT64); /* logaddexp: floats only */
  }
}
END_TEST

START_TEST(test_int_semantics) {
  Tensor *a = tt_make(DT_INT64, 1, TT_SHAPE(4), TT_VALS(-7, 7, -7, 7));
  Tensor *b = tt_make(DT_INT64, 1, TT_SHAPE(4), TT_VALS(2, -2, -2, 2));
  Tensor *m = tensor_binary(BIN_MOD, a, b);
  tt_check_values(m, TT_VALS(1, -1, -1, 1), 0);
  Tensor *p = tensor_binary_scalar(BIN_POW, b, 3);
  tt_check_values(p, TT_VALS(8, -8, -8, 8), 0);
  ck_assert_int_eq(p->dtype, DT_INT64);
  tt_check_error(tensor_binary_scalar(BIN_POW, b, -1), "Integers to negative integer powers");
  tt_check_error(tensor_binary_scalar(BIN_MOD, a, 0), "ZeroDivisionError");
  Tensor *q = tensor_binary(BIN_FLOOR_DIVIDE, a, b); /* floor, the sign of the divisor */
  tt_check_values(q, TT_VALS(-4, -4, 3, 3), 0);
  ck_assert_int_eq(q->dtype, DT_INT64);
  tt_check_error(tensor_binary_scalar(BIN_FLOOR_DIVIDE, a, 0), "ZeroDivisionError");
  Tensor *lowest = tt_make(DT_INT64, 1, TT_SHAPE(1), TT_VALS(-9223372036854775808.0));
  Tensor *qw = tensor_binary_scalar(BIN_FLOOR_DIVIDE, lowest, -1); /* wraps, no SIGFPE */
  ck_assert(tensor_get_flat(qw, 0) < 0);
  Tensor *f = tt_make(DT_FLOAT32, 1, TT_SHAPE(4), TT_VALS(1, -1, 0, -0.5));
  Tensor *qf = tensor_binary_scalar(BIN_FLOOR_DIVIDE, f, 0); /* IEEE: inf, -inf, nan */
  ck_assert(isinf(tensor_get_flat(qf, 0)) && tensor_get_flat(qf, 0) > 0);
  ck_assert(isinf(tensor_get_flat(qf, 1)) && tensor_get_flat(qf, 1) < 0);
  ck_assert(isnan(tensor_get_flat(qf, 2)));
  Tensor *qn = tensor_binary_scalar(BIN_FLOOR_DIVIDE, f, 1);
  ck_assert(tensor_get_flat(qn, 3) == -1);
  Tensor *more[] = {q, lowest, qw, f, qf, qn};
  for (int k = 0; k < 6; k++) tensor_release(more[k]);
  Tensor *big = tt_make(DT_INT64, 1, TT_SHAPE(1), TT_VALS(9.2e18));
  Tensor *wrap = tensor_binary(BIN_ADD, big, big); /* wraps like PyTorch, no UB */
  ck_assert(tensor_get_flat(wrap, 0) < 0);
  Tensor *rel[] = {a, b, m, p, big, wrap};
  for (int k = 0; k < 6; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_pow_scalars) {
  Tensor *a = tt_make(DT_FLOAT64, 1, TT_SHAPE(3), TT_VALS(0.5, 2, 9));
  const double exps[] = {2, 0.5, -1, 3, 1.5, 0};
  for (int k = 0; k < 6; k++) {
    Tensor *r = tensor_binary_scalar(BIN_POW, a, exps[k]);
    ck_assert_int_eq(r->dtype, DT_FLOAT64);
    for (int i = 0; i < 3; i++)
      ck_assert(tt_close(tensor_get_flat(r, i), pow(tensor_get_flat(a, i), exps[k]), 1e-15));
    tensor_release(r);
  }
  Tensor *i = tt_make(DT_INT64, 1, TT_SHAPE(2), TT_VALS(4, 9));
  Tensor *r = tensor_binary_scalar(BIN_POW, i, 0.5);
  ck_assert_int_eq(r->dtype, DT_FLOAT32);
  tt_check_values(r, TT_VALS(2, 3), 0);
  tensor_release(r);
  tensor_release(i);
  tensor_release(a);
}
END_TEST

static double ref_unary(UnaryOp op, double x) {
  switch (op) {
  case UN_NEG: return -x;
  case UN_ABS: return fabs(x);
  case UN_SQRT: return sqrt(x);
  case UN_EXP: return exp(x);
  case UN_LOG: return log(x);
  case UN_LOG10: return log10(x);
  case UN_LOG2: return log2(x);
  case UN_SIN: return sin(x);
  case UN_COS: return cos(x);
  case UN_TAN: return tan(x);
  case UN_TANH: return tanh(x);
  case UN_SIGMOID: return 1 / (1 + exp(-x));
  case UN_RELU: return x > 0 ? x : 0;
  case UN_GELU: return 0.5 * x * (1 + erf(x / sqrt(2)));
  case UN_SIGN: return (x > 0) - (x < 0);
  case UN_FLOOR: return floor(x);
  case UN_CEIL: return ceil(x);
  case UN_ROUND: return nearbyint(x);
  case UN_LOGICAL_NOT: return x == 0;
  case UN_ISNAN: return isnan(x) != 0;
  case UN_ISINF: return isinf(x) != 0;
  case UN_ISFINITE: return isfinite(x) != 0;
  default: return NAN;
  }
}

START_TEST(test_unary_ops) {
  const double vals[8] = {0.25, -1.5, 2.5, 3.7, -0.5, 0, 1.5, 10};
  for (int dt = DT_FLOAT32; dt <= DT_FLOAT64; dt++) {
    Tensor *base = tt_make((DType)dt, 2, TT_SHAPE(2, 4), vals);
    Tensor *tr = tensor_t(base); /* strided input */
    for (int op = 0; op < UN_COUNT; op++) {
      Tensor *r = tensor_unary((UnaryOp)op, tr);
      ck_assert_msg(r != NULL, "%s", tensor_error());
      for (int64_t k = 0; k < 8; k++) {
        double x = tensor_get_flat(tr, k);
        ck_assert_msg(tt_close(tensor_get_flat(r, k), ref_unary((UnaryOp)op, x), 1e-6),
                      "%s(%g) = %g", tensor_unary_names[op], x, tensor_get_flat(r, k));
      }
      tensor_release(r);
    }
    tensor_release(tr);
    tensor_release(base);
  }
  Tensor *i = tt_make(DT_INT64, 1, TT_SHAPE(3), TT_VALS(-2, 0, 3));
  Tensor *ab = tensor_unary(UN_ABS, i), *rl = tensor_unary(UN_RELU, i), *sq = tensor_unary(UN_SQRT, i);
  ck_assert_int_eq(ab->dtype, DT_INT64);
  tt_check_values(ab, TT_VALS(2, 0, 3), 0);
  tt_check_values(rl, TT_VALS(0, 0, 3), 0);
  ck_assert_int_eq(sq->dtype, DT_FLOAT32);
  Tensor *rel[] = {i, ab, rl, sq};
  for (int k = 0; k < 4; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_broadcasting) {
  Tensor *a = tt_iota(DT_FLOAT32, 2, (int64_t)2, (int64_t)3);
  Tensor *b = tt_iota(DT_FLOAT32, 1, (int64_t)4);
  tt_check_error(tensor_binary(BIN_ADD, a, b),
                 "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
                 "dimension 1");
  Tensor *c = tt_iota(DT_FLOAT32, 3, (int64_t)4, (int64_t)1, (int64_t)1);
  Tensor *r = tensor_binary(BIN_ADD, a, c); /* (2,3) + (4,1,1) -> (4,2,3) */
  tt_check_shape(r, 3, TT_SHAPE(4, 2, 3));
  ck_assert(tensor_get_flat(r, 23) == 5 + 3);
  int nd;
  int64_t out[TENSOR_MAX_DIMS];
  ck_assert(tensor_broadcast_shape(2, TT_SHAPE(5, 1), 3, TT_SHAPE(2, 1, 7), &nd, out));
  ck_assert_int_eq(nd, 3);
  ck_assert_int_eq(out[0], 2);
  ck_assert_int_eq(out[1], 5);
  ck_assert_int_eq(out[2], 7);
  Tensor *rel[] = {a, b, c, r};
  for (int k = 0; k < 4; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_clamp_where) {
  Tensor *a = tt_make(DT_FLOAT32, 1, TT_SHAPE(5), TT_VALS(-2, -0.5, 0.5, 2, NAN));
  Tensor *c = tensor_clamp(a, -1, 1);
  tt_check_values(c, TT_VALS(-1, -0.5, 0.5, 1, NAN), 0);
  Tensor *lo = tensor_clamp(a, 0, NAN);
  tt_check_values(lo, TT_VALS(0, 0, 0.5, 2, NAN), 0);
  tt_check_error(tensor_clamp(a, NAN, NAN), "At least one of 'min' or 'max'");
  Tensor *cond = tensor_binary_scalar(BIN_GT, a, 0);
  Tensor *z = tensor_scalar(DT_FLOAT32, 9);
  Tensor *w = tensor_where(cond, a, z);
  tt_check_values(w, TT_VALS(9, 9, 0.5, 2, 9), 0);
  tt_check_error(tensor_where(a, a, z), "where expected condition to be a boolean tensor");
  Tensor *mf = tensor_masked_fill(a, cond, -3);
  tt_check_values(mf, TT_VALS(-2, -0.5, -3, -3, NAN), 0);
  ck_assert(tensor_clamp_(a, -1, 0));
  tt_check_values(a, TT_VALS(-1, -0.5, 0, 0, NAN), 0);
  Tensor *rel[] = {a, c, lo, cond, z, w, mf};
  for (int k = 0; k < 7; k++) tensor_release(rel[k]);
}
END_TEST

/* ---- in place ---- */

START_TEST(test_inplace) {
  Tensor *a = tt_iota(DT_FLOAT32, 2, (int64_t)2, (int64_t)3);
  Tensor *row = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(10, 20, 30));
  int64_t v0 = tensor_version(a);
  ck_assert(tensor_binary_(BIN_ADD, a, row));
  ck_assert_int_eq(tensor_version(a), v0 + 1);
  tt_check_values(a, TT_VALS(10, 21, 32, 13, 24, 35), 0);
  Tensor *view = tensor_select(a, 0, 1); /* a view shares the version counter */
  ck_assert(tensor_binary_scalar_(BIN_MUL, view, 2));
  ck_assert_int_eq(tensor_version(a), v0 + 2);
  tt_check_values(a, TT_VALS(10, 21, 32, 26, 48, 70), 0);
  ck_assert(tensor_unary_(UN_NEG, a));
  ck_assert(tensor_fill_(view, 1));
  tt_check_values(a, TT_VALS(-10, -21, -32, 1, 1, 1), 0);
  Tensor *i = tt_iota(DT_INT64, 1, (int64_t)3);
  ck_assert(!tensor_binary_scalar_(BIN_MUL, i, 0.5));
  ck_assert(strstr(tensor_error(), "result type Float can't be cast to the desired output type Long"));
  ck_assert(!tensor_binary_(BIN_ADD, row, a));
  ck_assert(strstr(tensor_error(), "output with shape [3] doesn't match the broadcast shape [2, 3]"));
  Tensor *e = tensor_expand(row, 2, TT_SHAPE(4, 3));
  ck_assert(!tensor_fill_(e, 0));
  ck_assert(strstr(tensor_error(), "more than one element of the written-to tensor"));
  Tensor *src = tt_make(DT_INT64, 1, TT_SHAPE(3), TT_VALS(7, 8, 9));
  ck_assert(tensor_copy_(view, src));
  tt_check_values(view, TT_VALS(7, 8, 9), 0);
  /* overlapping copy through a temporary: a[1:] = a[:-1] */
  Tensor *seq = tt_iota(DT_FLOAT32, 1, (int64_t)5);
  Tensor *dst = tensor_slice(seq, 0, 1, 5, 1), *srcv = tensor_slice(seq, 0, 0, 4, 1);
  ck_assert(tensor_copy_(dst, srcv));
  tt_check_values(seq, TT_VALS(0, 0, 1, 2, 3), 0);
  Tensor *rel[] = {a, row, view, i, e, src, seq, dst, srcv};
  for (int k = 0; k < 9; k++) tensor_release(rel[k]);
}
END_TEST

/* One float element in place (an accumulator's +=): the out-of-place bits,
 * a number rounded to the tensor's dtype, one version bump; a b of more
 * dims than a is still an error. */
START_TEST(test_inplace_single_element) {
  const BinaryOp ops[] = {BIN_ADD, BIN_SUB, BIN_MUL, BIN_DIV};
  const double xs[] = {0.1, -3.7, 1e-30, 7.0};
  for (int d = 0; d < 2; d++) {
    DType dt = d ? DT_FLOAT64 : DT_FLOAT32;
    for (int o = 0; o < 4; o++) {
      for (int k = 0; k < 4; k++) {
        Tensor *a = tensor_scalar(dt, 1.3), *c = tensor_scalar(dt, 1.3), *b = tensor_scalar(dt, xs[k]);
        Tensor *want = tensor_binary(ops[o], a, b), *want_s = tensor_binary_scalar(ops[o], a, xs[k]);
        int64_t v0 = tensor_version(a);
        ck_assert(tensor_binary_(ops[o], a, b) && tensor_binary_scalar_(ops[o], c, xs[k]));
        ck_assert(tensor_get_flat(a, 0) == tensor_get_flat(want, 0));
        ck_assert(tensor_get_flat(c, 0) == tensor_get_flat(want_s, 0));
        ck_assert_int_eq(tensor_version(a), v0 + 1);
        Tensor *rel[] = {a, c, b, want, want_s};
        for (int r = 0; r < 5; r++) tensor_release(rel[r]);
      }
    }
  }
  Tensor *s = tensor_scalar(DT_FLOAT32, 1), *one = tt_make(DT_FLOAT32, 1, TT_SHAPE(1), TT_VALS(2));
  ck_assert(tensor_binary_(BIN_ADD, one, s));
  tt_check_values(one, TT_VALS(3), 0);
  ck_assert(!tensor_binary_(BIN_ADD, s, one));
  ck_assert(strstr(tensor_error(), "output with shape [] doesn't match the broadcast shape [1]"));
  tensor_release(s);
  tensor_release(one);
}
END_TEST

/* In-place ops through strided views write the base's memory, element by element. */
START_TEST(test_inplace_strided_views) {
  Tensor *a = tt_iota(DT_FLOAT32, 2, (int64_t)4, (int64_t)5);
  Tensor *v = tensor_t(a);                      /* (5, 4), column-major */
  Tensor *w = tt_iota(DT_FLOAT32, 2, (int64_t)5, (int64_t)4);
  ck_assert(tensor_binary_(BIN_ADD, v, w));     /* a[i][j] += w[j][i] = j*4 + i */
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) ck_assert(tensor_get_flat(a, i * 5 + j) == (double)(i * 5 + j + j * 4 + i));
  Tensor *every_other = tensor_slice(a, 1, 0, 5, 2); /* columns 0, 2, 4 */
  ck_assert(tensor_unary_(UN_NEG, every_other));
  ck_assert(tensor_get_flat(a, 0) == 0 && tensor_get_flat(a, 2) == -(2 + 8) && tensor_get_flat(a, 1) == 1 + 4);
  ck_assert(tensor_fill_(every_other, 7));
  ck_assert(tensor_get_flat(a, 4) == 7 && tensor_get_flat(a, 3) == 3 + 12);
  Tensor *rel[] = {a, v, w, every_other};
  for (int k = 0; k < 4; k++) tensor_release(rel[k]);
}
END_TEST

/* ---- views ---- */

START_TEST(test_views_share_storage) {
  Tensor *a = tt_iota(DT_FLOAT32, 2, (int64_t)3, (int64_t)4);
  Tensor *views[] = {
      tensor_reshape(a, 2, TT_SHAPE(4, 3)), tensor_view(a, 3, TT_SHAPE(2, -1, 2)),
      tensor_transpose(a, 0, 1),            tensor_permute(a, (const int[]){1, 0}, 2),
      tensor_t(a),                          tensor_select(a, 1, -1),
      tensor_slice(a, 1, 1, 4, 2),          tensor_unsqueeze(a, 1),
      tensor_flatten(a, 0, -1),             tensor_alias(a),
  };
  for (int k = 0; k < 10; k++) {
    ck_assert_msg(views[k] != NULL, "%d: %s", k, tensor_error());
    ck_assert_ptr_eq(views[k]->storage, a->storage);
  }
  tt_check_shape(views[1], 3, TT_SHAPE(2, 3, 2));
  tt_check_values(views[2], TT_VALS(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11), 0);
  tt_check_values(views[5], TT_VALS(3, 7, 11), 0);
  tt_check_values(views[6], TT_VALS(1, 3, 5, 7, 9, 11), 0);
  tt_check_shape(views[6], 2, TT_SHAPE(3, 2));
  ck_assert(!tensor_is_contiguous(views[2]));
  /* a transposed tensor can't be viewed flat, but reshape copies */
  tt_check_error(tensor_view(views[2], 1, TT_SHAPE(12)),
                 "view size is not compatible with input tensor's size and stride (at least one "
                 "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  ck_assert(!tensor_reshape_is_view(views[2], 1, TT_SHAPE(12)));
  ck_assert(tensor_reshape_is_view(views[2], 3, TT_SHAPE(2, 2, 3)));
  Tensor *flat = tensor_reshape(views[2], 1, TT_SHAPE(12));
  ck_assert_ptr_ne(flat->storage, a->storage);
  tt_check_values(flat, TT_VALS(0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11), 0);
  tt_check_error(tensor_reshape(a, 1, TT_SHAPE(5)), "shape '[5]' is invalid for input of size 12");
  tt_check_error(tensor_reshape(a, 2, TT_SHAPE(-1, -1)), "only one dimension can be inferred");
  Tensor *contig = tensor_contiguous(views[2]);
  ck_assert(tensor_is_contiguous(contig));
  Tensor *same = tensor_contiguous(a);
  ck_assert_ptr_eq(same, a);
  for (int k = 0; k < 10; k++) tensor_release(views[k]);
  tensor_release(flat);
  tensor_release(contig);
  tensor_release(same);
  tensor_release(a);
}
END_TEST

START_TEST(test_squeeze_expand) {
  Tensor *a = tt_iota(DT_FLOAT32, 3, (int64_t)1, (int64_t)3, (int64_t)1);
  Tensor *s = tensor_squeeze(a, 0, false), *s0 = tensor_squeeze(a, 0, true),
         *s1 = tensor_squeeze(a, 1, true);
  tt_check_shape(s, 1, TT_SHAPE(3));
  tt_check_shape(s0, 2, TT_SHAPE(3, 1));
  tt_check_shape(s1, 3, TT_SHAPE(1, 3, 1));
  Tensor *e = tensor_expand(a, 4, TT_SHAPE(2, -1, 3, 4));
  tt_check_shape(e, 4, TT_SHAPE(2, 1, 3, 4));
  ck_assert_ptr_eq(e->storage, a->storage);
  ck_assert(tensor_get_flat(e, 23) == 2);
  tt_check_error(tensor_expand(a, 3, TT_SHAPE(1, 4, 1)),
                 "The expanded size of the tensor (4) must match the existing size (3) at "
                 "non-singleton dimension 1.  Target sizes: [1, 4, 1].  Tensor sizes: [1, 3, 1]");
  tt_check_error(tensor_unsqueeze(a, 5), "Dimension out of range (expected to be in range of [-4, 3], but got 5)");
  tt_check_error(tensor_transpose(a, 0, 3), "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  Tensor *z = tensor_scalar(DT_FLOAT32, 1);
  tt_check_error(tensor_sum(z, (const int[]){2}, 1, false),
                 "Dimension out of range (expected to be in range of [-1, 0], but got 2)");
  Tensor *u = tensor_unsqueeze(z, 0);
  tt_check_shape(u, 1, TT_SHAPE(1));
  Tensor *rel[] = {a, s, s0, s1, e, z, u};
  for (int k = 0; k < 7; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_shape_errors) {
  Tensor *a = tt_iota(DT_FLOAT32, 3, (int64_t)2, (int64_t)3, (int64_t)4);
  tt_check_error(tensor_permute(a, (const int[]){0, 0, 1}, 3), "permute(): duplicate dims are not allowed.");
  tt_check_error(tensor_permute(a, (const int[]){0, 1}, 2), "number of dimensions in the tensor input does not match");
  tt_check_error(tensor_t(a), "t() expects a tensor with <= 2 dimensions, but self is 3D");
  tt_check_error(tensor_expand(a, 2, TT_SHAPE(3, 4)), "the number of sizes provided (2) must be greater or equal to the number of dimensions in the tensor (3)");
  tt_check_error(tensor_expand(a, 4, TT_SHAPE(-1, 2, 3, 4)), "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
  tt_check_error(tensor_flatten(a, 2, 1), "flatten() has invalid args: start_dim cannot come after end_dim");
  Tensor *f = tensor_flatten(a, 1, 2);
  tt_check_shape(f, 2, TT_SHAPE(2, 12));
  ck_assert_ptr_eq(f->storage, a->storage);
  tt_check_error(tensor_select(a, 1, -4), "index -4 is out of bounds for dimension 1 with size 3");
  Tensor *s = tensor_scalar(DT_FLOAT32, 1);
  tt_check_error(tensor_select(s, 0, 0), "select() cannot be applied to a 0-dim tensor.");
  tt_check_error(tensor_slice(a, 0, 0, 2, 0), "slice step must be positive");
  tt_check_error(tensor_cat((Tensor *const[]){a, s}, 2, 0), "zero-dimensional tensor (at position 1) cannot be concatenated");
  tt_check_error(tensor_cat(NULL, 0, 0), "expected a non-empty list of Tensors");
  Tensor **parts = NULL;
  ck_assert_int_eq(tensor_chunk(a, 0, 0, &parts), -1);
  ck_assert(strstr(tensor_error(), "chunk expects `chunks` to be greater than 0, got: 0"));
  Tensor *rel[] = {a, f, s};
  for (int k = 0; k < 3; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_cat_stack_split) {
  Tensor *a = tt_iota(DT_FLOAT32, 2, (int64_t)2, (int64_t)2);
  Tensor *b = tt_make(DT_FLOAT64, 2, TT_SHAPE(2, 1), TT_VALS(8, 9));
  Tensor *c = tensor_cat((Tensor *const[]){a, b}, 2, 1);
  tt_check_shape(c, 2, TT_SHAPE(2, 3));
  ck_assert_int_eq(c->dtype, DT_FLOAT64);
  tt_check_values(c, TT_VALS(0, 1, 8, 2, 3, 9), 0);
  tt_check_error(tensor_cat((Tensor *const[]){a, b}, 2, 0),
                 "Sizes of tensors must match except in dimension 0. Expected size 2 but got size 1 "
                 "for tensor number 1 in the list.");
  Tensor *s = tensor_stack((Tensor *const[]){a, a}, 2, 2);
  tt_check_shape(s, 3, TT_SHAPE(2, 2, 2));
  tt_check_values(s, TT_VALS(0, 0, 1, 1, 2, 2, 3, 3), 0);
  tt_check_error(tensor_stack((Tensor *const[]){a, b}, 2, 0),
                 "stack expects each tensor to be equal size, but got [2, 2] at entry 0 and [2, 1] at entry 1");
  Tensor *x = tt_iota(DT_FLOAT32, 1, (int64_t)5);
  Tensor **parts;
  int n = tensor_split(x, 2, 0, &parts);
  ck_assert_int_eq(n, 3);
  ck_assert_int_eq(parts[2]->numel, 1);
  ck_assert(tensor_get_flat(parts[2], 0) == 4);
  ck_assert_ptr_eq(parts[1]->storage, x->storage);
  for (int k = 0; k < n; k++) tensor_release(parts[k]);
  free(parts);
  n = tensor_chunk(x, 2, 0, &parts);
  ck_assert_int_eq(n, 2);
  ck_assert_int_eq(parts[0]->numel, 3);
  for (int k = 0; k < n; k++) tensor_release(parts[k]);
  free(parts);
  n = tensor_split_sizes(x, TT_SHAPE(1, 4), 2, 0, &parts);
  ck_assert_int_eq(n, 2);
  ck_assert_int_eq(parts[1]->numel, 4);
  for (int k = 0; k < n; k++) tensor_release(parts[k]);
  free(parts);
  ck_assert_int_eq(tensor_split_sizes(x, TT_SHAPE(1, 1), 2, 0, &parts), -1);
  ck_assert(strstr(tensor_error(), "split_with_sizes expects split_sizes to sum exactly to 5"));
  Tensor *empty = tensor_zeros(DT_FLOAT32, 1, TT_SHAPE(0));
  Tensor *acc = tensor_cat((Tensor *const[]){empty, a}, 2, 1); /* zeros(0) starts an accumulator */
  tt_check_shape(acc, 2, TT_SHAPE(2, 2));
  tt_check_values(acc, TT_VALS(0, 1, 2, 3), 0);
  Tensor *rel[] = {a, b, c, s, x, empty, acc};
  for (int k = 0; k < 7; k++) tensor_release(rel[k]);
}
END_TEST

/* ---- reductions ---- */

START_TEST(test_reductions) {
  Tensor *a = tt_make(DT_FLOAT32, 2, TT_SHAPE(2, 3), TT_VALS(1, 5, 2, 4, -1, 3));
  Tensor *s = tensor_sum(a, NULL, 0, false);
  ck_assert_int_eq(s->ndim, 0);
  ck_assert(tensor_item(s) == 14);
  Tensor *s0 = tensor_sum(a, (const int[]){0}, 1, false);
  tt_check_values(s0, TT_VALS(5, 4, 5), 0);
  Tensor *s1k = tensor_sum(a, (const int[]){-1}, 1, true);
  tt_check_shape(s1k, 2, TT_SHAPE(2, 1));
  tt_check_values(s1k, TT_VALS(8, 6), 0);
  Tensor *m = tensor_mean(a, (const int[]){1}, 1, false);
  tt_check_values(m, TT_VALS(8.0 / 3, 2), 1e-6);
  Tensor *p = tensor_prod(a, 1, true, false);
  tt_check_values(p, TT_VALS(10, -12), 0);
  Tensor *idx;
  Tensor *mx = tensor_max(a, 1, true, false, &idx);
  tt_check_values(mx, TT_VALS(5, 4), 0);
  tt_check_values(idx, TT_VALS(1, 0), 0);
  ck_assert_int_eq(idx->dtype, DT_INT64);
  Tensor *mn_all = tensor_min(a, 0, false, false, NULL);
  ck_assert(tensor_item(mn_all) == -1);
  Tensor *am = tensor_argmax(a, 0, false, false);
  ck_assert(tensor_item(am) == 1);
  Tensor *amin = tensor_argmin(a, 0, true, true);
  tt_check_shape(amin, 2, TT_SHAPE(1, 3));
  tt_check_values(amin, TT_VALS(0, 1, 0), 0);
  Tensor *v = tensor_var(a, (const int[]){1}, 1, true, false);
  tt_check_values(v, TT_VALS(4.333333333, 7), 1e-6);
  Tensor *sd = tensor_std(a, NULL, 0, false, false);
  double mean = 14.0 / 6, ss = 0;
  const double vals[6] = {1, 5, 2, 4, -1, 3};
  for (int k = 0; k < 6; k++) ss += (vals[k] - mean) * (vals[k] - mean);
  ck_assert(tt_close(tensor_item(sd), sqrt(ss / 6), 1e-6));
  Tensor *n2 = tensor_norm(a, 2, NULL, 0, false);
  ck_assert(tt_close(tensor_item(n2), sqrt(56), 1e-6));
  Tensor *n1 = tensor_norm(a, 1, (const int[]){0}, 1, false);
  tt_check_values(n1, TT_VALS(5, 6, 5), 1e-6);
  Tensor *ninf = tensor_norm(a, INFINITY, NULL, 0, false);
  ck_assert(tensor_item(ninf) == 5);
  Tensor *lse = tensor_logsumexp(a, (const int[]){1}, 1, false);
  tt_check_values(lse, TT_VALS(log(exp(1) + exp(5) + exp(2)), log(exp(4) + exp(-1) + exp(3))), 1e-6);
  Tensor *rel[] = {a, s, s0, s1k, m, p, mx, idx, mn_all, am, amin, v, sd, n2, n1, ninf, lse};
  for (size_t k = 0; k < sizeof rel / sizeof *rel; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_reduction_dtypes_and_errors) {
  Tensor *b = tt_make(DT_BOOL, 1, TT_SHAPE(4), TT_VALS(1, 0, 1, 1));
  Tensor *s = tensor_sum(b, NULL, 0, false);
  ck_assert_int_eq(s->dtype, DT_INT64);
  ck_assert(tensor_item(s) == 3);
  tt_check_error(tensor_mean(b, NULL, 0, false), "mean(): could not infer output dtype");
  Tensor *e = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(0, 3));
  tt_check_error(tensor_max(e, 0, false, false, NULL), "Expected reduction dim to be specified");
  tt_check_error(tensor_max(e, 0, true, false, NULL), "Expected reduction dim 0 to have non-zero size");
  Tensor *es = tensor_sum(e, (const int[]){0}, 1, false);
  tt_check_values(es, TT_VALS(0, 0, 0), 0);
  Tensor *nanv = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(1, NAN, 3));
  Tensor *idx;
  Tensor *mx = tensor_max(nanv, 0, true, false, &idx);
  ck_assert(isnan(tensor_item(mx)));
  ck_assert(tensor_item(idx) == 1);
  tt_check_error(tensor_sum(e, (const int[]){0, 0}, 2, false), "appears multiple times");
  Tensor *rel[] = {b, s, e, es, nanv, mx, idx};
  for (int k = 0; k < 7; k++) tensor_release(rel[k]);
}
END_TEST

/* A big reduction runs in parallel chunks; compare against a double loop. */
START_TEST(test_big_reductions) {
  int64_t n = 3000000;
  Tensor *a = tensor_arange(0, (double)n, 1, DT_FLOAT32);
  Tensor *x = tensor_unary(UN_SIN, a);
  double ref = 0;
  const float *xd = tensor_data(x);
  for (int64_t i = 0; i < n; i++) ref += xd[i];
  Tensor *s = tensor_sum(x, NULL, 0, false);
  ck_assert(tt_close(tensor_item(s), (float)ref, 1e-6));
  Tensor *idx;
  Tensor *mx = tensor_max(x, 0, true, false, &idx);
  ck_assert(tensor_item(mx) == xd[(int64_t)tensor_item(idx)]);
  Tensor *m2 = tensor_reshape(x, 2, TT_SHAPE(1000, 3000));
  Tensor *cols = tensor_sum(m2, (const int[]){0}, 1, false);
  double c7 = 0;
  for (int64_t r = 0; r < 1000; r++) c7 += xd[r * 3000 + 7];
  ck_assert(tt_close(tensor_get_flat(cols, 7), c7, 1e-5));
  Tensor *rel[] = {a, x, s, mx, idx, m2, cols};
  for (int k = 0; k < 7; k++) tensor_release(rel[k]);
}
END_TEST

/* Transposing loops run tile by tile: odd sizes, big and small, every element right. */
START_TEST(test_tiled_transposes) {
  const int64_t dims[][2] = {{67, 45}, {64, 64}, {33, 1000}, {700, 500}};
  for (int k = 0; k < 4; k++) {
    int64_t r = dims[k][0], c = dims[k][1];
    Tensor *a = tensor_arange(0, (double)(r * c), 1, DT_FLOAT64);
    Tensor *am = tensor_reshape(a, 2, TT_SHAPE(r, c));
    Tensor *b = tensor_arange(0, (double)(r * c), 1, DT_INT64);
    Tensor *bm = tensor_reshape(b, 2, TT_SHAPE(c, r));
    Tensor *bt = tensor_t(bm); /* (r, c), column-major */
    Tensor *sum = tensor_binary(BIN_ADD, am, bt);
    Tensor *copy = tensor_clone(bt);
    for (int64_t i = 0; i < r; i += 3)
      for (int64_t j = 0; j < c; j += 5) {
        double want_b = (double)(j * r + i);
        ck_assert(tensor_get_flat(copy, i * c + j) == want_b);
        ck_assert(tensor_get_flat(sum, i * c + j) == (double)(i * c + j) + want_b);
      }
    ck_assert(tensor_get_flat(copy, r * c - 1) == (double)(r * c - 1));
    Tensor *rel[] = {a, am, b, bm, bt, sum, copy};
    for (int j = 0; j < 7; j++) tensor_release(rel[j]);
  }
}
END_TEST

/* Sizes around the chunk and parallel thresholds give the serial answers. */
START_TEST(test_parallel_thresholds) {
  const int64_t sizes[] = {65535, 65536, 65537, 262143, 262144, 262145, 1000003};
  for (int k = 0; k < 7; k++) {
    int64_t n = sizes[k];
    Tensor *x = tensor_arange(0, (double)n, 1, DT_FLOAT64);
    Tensor *y2 = tensor_binary_scalar(BIN_MUL, x, 2);
    Tensor *y = tensor_binary_scalar(BIN_ADD, y2, 1); /* 2i + 1: sums to n^2 exactly */
    Tensor *s = tensor_sum(y, NULL, 0, false);
    ck_assert_msg(tensor_item(s) == (double)n * (double)n, "n=%lld sum=%.17g", (long long)n, tensor_item(s));
    Tensor *am = tensor_argmax(y, 0, false, false);
    ck_assert(tensor_item(am) == (double)(n - 1));
    for (int64_t i = 0; i < n; i += 9973) ck_assert(tensor_get_flat(y, i) == 2.0 * (double)i + 1);
    ck_assert(tensor_get_flat(y, n - 1) == 2.0 * (double)(n - 1) + 1);
    Tensor *m = tensor_reshape(y, 2, TT_SHAPE(1, n));
    Tensor *sm = tensor_softmax(m, 1);
    Tensor *total = tensor_sum(sm, NULL, 0, false);
    ck_assert(tt_close(tensor_item(total), 1, 1e-9));
    Tensor *rel[] = {x, y2, y, s, am, m, sm, total};
    for (int j = 0; j < 8; j++) tensor_release(rel[j]);
  }
}
END_TEST

START_TEST(test_sum_to_shape) {
  Tensor *g = tt_iota(DT_FLOAT32, 3, (int64_t)2, (int64_t)3, (int64_t)4);
  Tensor *r = tensor_sum_to_shape(g, 2, TT_SHAPE(3, 1));
  tt_check_shape(r, 2, TT_SHAPE(3, 1));
  double want[3] = {0, 0, 0};
  for (int i = 0; i < 24; i++) want[(i / 4) % 3] += i;
  tt_check_values(r, want, 0);
  Tensor *same = tensor_sum_to_shape(g, 3, g->shape);
  tt_check_shape(same, 3, g->shape);
  Tensor *sc = tensor_sum_to_shape(g, 0, NULL);
  ck_assert(tensor_item(sc) == 276);
  tt_check_error(tensor_sum_to_shape(g, 1, TT_SHAPE(5)), "not expandable");
  Tensor *rel[] = {g, r, same, sc};
  for (int k = 0; k < 4; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_creation_ops) {
  Tensor *a = tensor_arange(0, 5, 1, DT_INT64);
  tt_check_values(a, TT_VALS(0, 1, 2, 3, 4), 0);
  Tensor *b = tensor_arange(1, 2, 0.25, DT_FLOAT32);
  tt_check_values(b, TT_VALS(1, 1.25, 1.5, 1.75), 0);
  Tensor *c = tensor_arange(5, 0, -2, DT_FLOAT64);
  tt_check_values(c, TT_VALS(5, 3, 1), 0);
  tt_check_error(tensor_arange(0, 5, 0, DT_FLOAT32), "step must be nonzero");
  tt_check_error(tensor_arange(0, 5, -1, DT_FLOAT32), "upper bound and larger bound inconsistent with step sign");
  Tensor *l = tensor_linspace(0, 1, 5, DT_FLOAT32);
  tt_check_values(l, TT_VALS(0, 0.25, 0.5, 0.75, 1), 0);
  Tensor *e = tensor_eye(2, 3, DT_FLOAT32);
  tt_check_values(e, TT_VALS(1, 0, 0, 0, 1, 0), 0);
  Tensor *rel[] = {a, b, c, l, e};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_interrupt) {
  Tensor *a = tensor_zeros(DT_FLOAT32, 1, TT_SHAPE(1 << 20));
  tensor_interrupt_requested = 1;
  tt_check_error(tensor_unary(UN_EXP, a), "Interrupted");
  tt_check_error(tensor_sum(a, NULL, 0, false), "Interrupted");
  tensor_interrupt_requested = 0;
  Tensor *e = tensor_unary(UN_EXP, a);
  ck_assert(e != NULL);
  tensor_release(e);
  tensor_release(a);
}
END_TEST

/* Buffers come back from the cache: zeros must still be zero, sizes right. */
START_TEST(test_buffer_reuse) {
  for (int round = 0; round < 5; round++) {
    Tensor *a = tensor_full(DT_FLOAT32, 1, TT_SHAPE(1 << 20), 3);
    Tensor *b = tensor_binary(BIN_MUL, a, a);
    ck_assert(tensor_get_flat(b, (1 << 20) - 1) == 9);
    tensor_release(a);
    tensor_release(b);
    Tensor *z = tensor_zeros(DT_FLOAT32, 1, TT_SHAPE(1 << 20));
    ck_assert(tensor_get_flat(z, 12345) == 0);
    tensor_release(z);
  }
  for (int k = 0; k < 10000; k++) { /* small tensors through the pools */
    Tensor *s = tensor_scalar(DT_FLOAT64, k);
    Tensor *t = tensor_binary_scalar(BIN_ADD, s, 1);
    ck_assert(tensor_item(t) == k + 1);
    tensor_release(s);
    tensor_release(t);
  }
  tensor_free_caches();
}
END_TEST

/* Random views (permuted, sliced with steps, expanded) of random shapes,
 * combined with broadcasting: the strided iterator against a naive loop. */
static Tensor *random_view(Tensor *base, unsigned *seed) {
  Tensor *v = tensor_alias(base);
  for (int step = 0; step < 3; step++) {
    Tensor *next = NULL;
    int r = rand_r(seed) % 3;
    int d = v->ndim ? rand_r(seed) % v->ndim : 0;
    if (r == 0 && v->ndim >= 2) next = tensor_transpose(v, d, (d + 1) % v->ndim);
    else if (r == 1 && v->ndim && v->shape[d] > 1) next = tensor_slice(v, d, rand_r(seed) % 2, v->shape[d], 1 + rand_r(seed) % 2);
    if (next) {
      tensor_release(v);
      v = next;
    }
  }
  return v;
}

START_TEST(test_random_strided_binary) {
  unsigned seed = 12345;
  for (int trial = 0; trial < 300; trial++) {
    int nd = 1 + rand_r(&seed) % 4;
    int64_t shape[4];
    for (int d = 0; d < nd; d++) shape[d] = 1 + rand_r(&seed) % 5;
    Tensor *ba = tensor_empty(DT_FLOAT64, nd, shape), *bb = tensor_empty(DT_FLOAT64, nd, shape);
    for (int64_t i = 0; i < ba->numel; i++) {
      tensor_set_flat(ba, i, (double)(rand_r(&seed) % 100));
      tensor_set_flat(bb, i, (double)(rand_r(&seed) % 100));
    }
    Tensor *va = random_view(ba, &seed), *vb = random_view(bb, &seed);
    /* make vb broadcastable to va: size-1 dims where the shapes differ */
    int64_t bshape[4];
    for (int d = 0; d < va->ndim; d++) bshape[d] = (d < vb->ndim && vb->shape[d] == va->shape[d]) ? va->shape[d] : 1;
    Tensor *vb2 = NULL;
    IndexItem items[4];
    for (int d = 0; d < va->ndim; d++)
      items[d] = (IndexItem){.kind = IDX_SLICE, .start = 0, .stop = bshape[d], .step = 1,
                             .has_start = true, .has_stop = true};
    vb2 = vb->ndim == va->ndim ? tensor_index(vb, items, va->ndim) : tensor_scalar(DT_FLOAT64, 3);
    ck_assert_msg(vb2 != NULL, "%s", tensor_error());
    Tensor *r = tensor_binary(BIN_SUB, va, vb2);
    ck_assert_msg(r != NULL, "%s", tensor_error());
    for (int64_t i = 0; i < r->numel; i++) {
      int64_t rem = i, j = 0, mul = 1;
      for (int d = r->ndim - 1; d >= 0; d--) { /* the broadcast source index in vb2 */
        int64_t c = rem % r->shape[d];
        rem /= r->shape[d];
        if (vb2->ndim) {
          j += (vb2->shape[d] == 1 ? 0 : c) * mul;
          mul *= vb2->shape[d];
        }
      }
      ck_assert(tensor_get_flat(r, i) == tensor_get_flat(va, i) - tensor_get_flat(vb2, j));
    }
    Tensor *cl = tensor_clone(va);
    for (int64_t i = 0; i < cl->numel; i++) ck_assert(tensor_get_flat(cl, i) == tensor_get_flat(va, i));
    Tensor *s = tensor_sum(va, (const int[]){0}, 1, false);
    for (int64_t j = 0; j < s->numel; j++) {
      double want = 0;
      for (int64_t i = j; i < va->numel; i += s->numel) want += tensor_get_flat(va, i);
      ck_assert(tensor_get_flat(s, j) == want);
    }
    Tensor *rel[] = {ba, bb, va, vb, vb2, r, cl, s};
    for (int k = 0; k < 8; k++) tensor_release(rel[k]);
  }
}
END_TEST

/* Single elements take a shortcut (scalar graphs are made of them): the
 * result must have the shape, dtype and rounding of the general path. */
START_TEST(test_single_element_arithmetic) {
  Tensor *a = tensor_scalar(DT_FLOAT32, 0.1);
  Tensor *col = tt_make(DT_FLOAT32, 2, (int64_t[]){1, 1}, (double[]){0.2});
  Tensor *d = tensor_scalar(DT_FLOAT64, 0.1);
  Tensor *zero = tensor_scalar(DT_FLOAT32, 0.0);
  Tensor *sum = tensor_binary(BIN_ADD, a, col); /* shape of the operand with more dims */
  tt_check_shape(sum, 2, (int64_t[]){1, 1});
  ck_assert(tensor_get_flat(sum, 0) == (double)(0.1f + 0.2f));
  Tensor *diff = tensor_binary(BIN_SUB, col, a);
  tt_check_shape(diff, 2, (int64_t[]){1, 1});
  ck_assert(tensor_get_flat(diff, 0) == (double)(0.2f - 0.1f));
  Tensor *prod = tensor_binary(BIN_MUL, d, d);
  ck_assert_int_eq(prod->dtype, DT_FLOAT64);
  ck_assert(tensor_get_flat(prod, 0) == 0.1 * 0.1);
  Tensor *quot = tensor_binary(BIN_DIV, a, zero);
  ck_assert(isinf(tensor_get_flat(quot, 0)));
  Tensor *mixed = tensor_binary(BIN_MUL, a, d); /* promoted by the general path */
  ck_assert_int_eq(mixed->dtype, DT_FLOAT64);
  ck_assert(tensor_get_flat(mixed, 0) == (double)0.1f * 0.1);
  Tensor *all[] = {a, col, d, zero, sum, diff, prod, quot, mixed};
  for (int i = 0; i < 9; i++) tensor_release(all[i]);
}
END_TEST

/* Small contiguous copies of one dtype take a plain memory copy: shapes that
 * differ only by leading ones, a broadcast scalar, a view into a bigger
 * tensor and a mixed-dtype copy must all land where the iterator puts them. */
/* relu's backward: y <= 0 ? 0 : g, a NaN output passing its gradient, on a
 * strided gradient; mismatched operands are an error. */
START_TEST(test_relu_backward) {
  int64_t n = 13;
  for (int d = 0; d < 2; d++) {
    DType dt = d ? DT_FLOAT64 : DT_FLOAT32;
    Tensor *y = tensor_empty(dt, 1, &n), *g2 = tensor_empty(dt, 1, (int64_t[]){2 * n});
    for (int64_t i = 0; i < n; i++) tensor_set_flat(y, i, i % 3 == 0 ? -1.0 : i % 3 == 1 ? 0.5 : 0.0);
    tensor_set_flat(y, 4, NAN);
    for (int64_t i = 0; i < 2 * n; i++) tensor_set_flat(g2, i, (double)i);
    Tensor *g = tensor_slice(g2, 0, 0, 2 * n, 2); /* every other one */
    Tensor *out = tensor_relu_backward(g, y);
    ck_assert_ptr_nonnull(out);
    for (int64_t i = 0; i < n; i++) {
      double yi = tensor_get_flat(y, i);
      ck_assert_double_eq(tensor_get_flat(out, i), yi <= 0 ? 0.0 : 2.0 * (double)i);
    }
    ck_assert_double_eq(tensor_get_flat(out, 4), 8.0); /* the NaN output's gradient */
    Tensor *other = tensor_empty(d ? DT_FLOAT32 : DT_FLOAT64, 1, &n);
    ck_assert_ptr_null(tensor_relu_backward(g, other));
    tensor_release(other);
    tensor_release(out);
    tensor_release(g);
    tensor_release(g2);
    tensor_release(y);
  }
}
END_TEST

/* im2col and col2im against the definition, element by element, for windows
 * with padding on every side (asymmetric too), strides and dilations, so
 * every path of their staging runs (read in place, padded rows, rows above
 * and below, windows past the right side). */
START_TEST(test_im2col_col2im_reference) {
  const int64_t cases[][9] = {/* h, w, kh, kw, stride, pad top/left, pad end, dilation */
                              {5, 7, 3, 3, 1, 1, 1, 1, 0}, {4, 6, 2, 3, 2, 0, 0, 1, 0},
                              {6, 5, 3, 2, 1, 2, 3, 2, 0}, {3, 3, 1, 1, 3, 4, 2, 1, 0},
                              {7, 9, 3, 3, 2, 1, 1, 1, 0}, {2, 11, 2, 4, 1, 0, 1, 2, 0}};
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    const int64_t *k = cases[ci];
    TensorWindow w = {.kernel = {k[2], k[3]}, .stride = {k[4], k[4]}, .padding = {k[5], k[5]},
                      .padding_end = {k[6], k[6]}, .dilation = {k[7], k[7]}};
    int64_t shape[4] = {2, 3, k[0], k[1]}, oh, ow;
    ck_assert(tensor_window_sizes(&w, k[0], k[1], &oh, &ow));
    Tensor *x = tensor_empty(DT_FLOAT64, 4, shape);
    for (int64_t i = 0; i < x->numel; i++) tensor_set_flat(x, i, (double)(i + 1));
    Tensor *cols = tensor_im2col(x, &w);
    ck_assert_ptr_nonnull(cols);
    Tensor *back = tensor_col2im(cols, k[0], k[1], &w);
    ck_assert_ptr_nonnull(back);
    int64_t kk = k[2] * k[3], l = oh * ow, plane = k[0] * k[1];
    double *sums = calloc((size_t)x->numel, sizeof(double));
    for (int64_t p = 0; p < 6; p++)
      for (int64_t r = 0; r < kk; r++)
        for (int64_t o = 0; o < l; o++) {
          int64_t y = o / ow * k[4] - k[5] + r / k[3] * k[7];
          int64_t xx = o % ow * k[4] - k[5] + r % k[3] * k[7];
          bool inside = y >= 0 && y < k[0] && xx >= 0 && xx < k[1];
          double v = inside ? tensor_get_flat(x, p * plane + y * k[1] + xx) : 0.0;
          ck_assert_double_eq(tensor_get_flat(cols, (p * kk + r) * l + o), v);
          if (inside) sums[p * plane + y * k[1] + xx] += v;
        }
    for (int64_t i = 0; i < x->numel; i++) ck_assert_double_eq(tensor_get_flat(back, i), sums[i]);
    free(sums);
    tensor_release(back);
    tensor_release(cols);
    tensor_release(x);
  }
}
END_TEST

START_TEST(test_small_copies) {
  Tensor *flat = tt_make(DT_FLOAT32, 1, (int64_t[]){3}, (double[]){1, 2, 3});
  Tensor *row = tensor_zeros(DT_FLOAT32, 2, (int64_t[]){1, 3});
  ck_assert(tensor_copy_(row, flat)); /* [3] into [1, 3] */
  for (int i = 0; i < 3; i++) ck_assert(tensor_get_flat(row, i) == i + 1);
  Tensor *one = tensor_scalar(DT_FLOAT32, 7);
  Tensor *sevens = tensor_zeros(DT_FLOAT32, 1, (int64_t[]){3});
  ck_assert(tensor_copy_(sevens, one)); /* broadcast: 1 element into 3 */
  for (int i = 0; i < 3; i++) ck_assert(tensor_get_flat(sevens, i) == 7);
  Tensor *grid = tensor_zeros(DT_FLOAT32, 2, (int64_t[]){2, 3});
  Tensor *second = tensor_select(grid, 0, 1);
  ck_assert(tensor_copy_(second, flat)); /* into the second row only */
  ck_assert(tensor_get_flat(grid, 0) == 0 && tensor_get_flat(grid, 3) == 1 &&
            tensor_get_flat(grid, 5) == 3);
  Tensor *wide = tensor_zeros(DT_FLOAT64, 1, (int64_t[]){3});
  ck_assert(tensor_copy_(wide, flat)); /* converted by the iterator */
  ck_assert(tensor_get_flat(wide, 2) == 3);
  Tensor *all[] = {row, flat, one, sevens, grid, second, wide};
  for (int i = 0; i < 7; i++) tensor_release(all[i]);
}
END_TEST

static Suite *tensor_suite(void) {
  Suite *s = suite_create("tensor");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_construction);
  tcase_add_test(tc, test_retain_release_and_views);
  tcase_add_test(tc, test_set_data);
  tcase_add_test(tc, test_huge_shapes);
  tcase_add_test(tc, test_promotion);
  tcase_add_test(tc, test_half_conversion);
  tcase_add_test(tc, test_narrow_promotion);
  tcase_add_test(tc, test_conversion);
  tcase_add_test(tc, test_binary_ops);
  tcase_add_test(tc, test_int_semantics);
  tcase_add_test(tc, test_pow_scalars);
  tcase_add_test(tc, test_unary_ops);
  tcase_add_test(tc, test_broadcasting);
  tcase_add_test(tc, test_random_strided_binary);
  tcase_add_test(tc, test_clamp_where);
  tcase_add_test(tc, test_inplace);
  tcase_add_test(tc, test_inplace_single_element);
  tcase_add_test(tc, test_inplace_strided_views);
  tcase_add_test(tc, test_views_share_storage);
  tcase_add_test(tc, test_squeeze_expand);
  tcase_add_test(tc, test_cat_stack_split);
  tcase_add_test(tc, test_shape_errors);
  tcase_add_test(tc, test_reductions);
  tcase_add_test(tc, test_reduction_dtypes_and_errors);
  tcase_add_test(tc, test_big_reductions);
  tcase_add_test(tc, test_parallel_thresholds);
  tcase_add_test(tc, test_tiled_transposes);
  tcase_add_test(tc, test_sum_to_shape);
  tcase_add_test(tc, test_creation_ops);
  tcase_add_test(tc, test_interrupt);
  tcase_add_test(tc, test_buffer_reuse);
  tcase_add_test(tc, test_single_element_arithmetic);
  tcase_add_test(tc, test_small_copies);
  tcase_add_test(tc, test_relu_backward);
  tcase_add_test(tc, test_im2col_col2im_reference);
  tcase_add_test(tc, test_fused_updates);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(tensor_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
