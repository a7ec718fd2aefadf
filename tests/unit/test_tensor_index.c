/* test_tensor_index.c — t[...] reading, assignment and accumulation (basic
 * views and NumPy/PyTorch advanced indexing), index_select, gather,
 * scatter (set, add, multiply), index_add, the value-dependent ops of
 * count.c (nonzero, unique, bincount), isclose, and their errors. */
#include <check.h>
#include <stdlib.h>

#include "test_tensor_helpers.h"

static IndexItem ii(int64_t i) { return (IndexItem){.kind = IDX_INT, .i = i}; }
static IndexItem all(void) { return (IndexItem){.kind = IDX_SLICE, .step = 1}; }
static IndexItem sl(int64_t start, int64_t stop, int64_t step) {
  return (IndexItem){.kind = IDX_SLICE, .start = start, .stop = stop, .step = step,
                     .has_start = true, .has_stop = true};
}
static IndexItem tidx(const Tensor *t) { return (IndexItem){.kind = IDX_TENSOR, .tensor = t}; }
static IndexItem newaxis(void) { return (IndexItem){.kind = IDX_NEWAXIS}; }
static IndexItem ellipsis(void) { return (IndexItem){.kind = IDX_ELLIPSIS}; }

START_TEST(test_basic_reading) {
  Tensor *a = tt_iota(DT_FLOAT32, 3, (int64_t)2, (int64_t)3, (int64_t)4);
  IndexItem i1[] = {ii(-1), sl(0, 3, 2), ii(1)};
  Tensor *r1 = tensor_index(a, i1, 3);
  ck_assert(tensor_index_is_basic(i1, 3));
  tt_check_shape(r1, 1, TT_SHAPE(2));
  tt_check_values(r1, TT_VALS(13, 21), 0);
  ck_assert_ptr_eq(r1->storage, a->storage);
  IndexItem i2[] = {ellipsis(), ii(0)};
  Tensor *r2 = tensor_index(a, i2, 2);
  tt_check_shape(r2, 2, TT_SHAPE(2, 3));
  tt_check_values(r2, TT_VALS(0, 4, 8, 12, 16, 20), 0);
  IndexItem i3[] = {ii(1), newaxis(), all(), sl(-2, 100, 1)};
  Tensor *r3 = tensor_index(a, i3, 4);
  tt_check_shape(r3, 3, TT_SHAPE(1, 3, 2));
  tt_check_values(r3, TT_VALS(14, 15, 18, 19, 22, 23), 0);
  IndexItem i4[] = {sl(5, 9, 1)}; /* out-of-range slices clamp to empty */
  Tensor *r4 = tensor_index(a, i4, 1);
  tt_check_shape(r4, 3, TT_SHAPE(0, 3, 4));
  IndexItem bad[] = {ii(0), ii(5)};
  tt_check_error(tensor_index(a, bad, 2), "index 5 is out of bounds for dimension 1 with size 3");
  IndexItem many[] = {ii(0), ii(0), ii(0), ii(0)};
  tt_check_error(tensor_index(a, many, 4), "too many indices for tensor of dimension 3");
  IndexItem two_ell[] = {ellipsis(), ellipsis()};
  tt_check_error(tensor_index(a, two_ell, 2), "an index can only have a single ellipsis");
  IndexItem zero_step[] = {sl(0, 2, 0)};
  tt_check_error(tensor_index(a, zero_step, 1), "step must be greater than zero");
  Tensor *rel[] = {a, r1, r2, r3, r4};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_advanced_reading) {
  Tensor *a = tt_iota(DT_FLOAT32, 3, (int64_t)2, (int64_t)3, (int64_t)4);
  Tensor *idx = tt_make(DT_INT64, 1, TT_SHAPE(3), TT_VALS(2, 0, -1));
  /* adjacent advanced dims stay in place: a[:, idx] -> (2, 3, 4) */
  IndexItem i1[] = {all(), tidx(idx)};
  ck_assert(!tensor_index_is_basic(i1, 2));
  Tensor *r1 = tensor_index(a, i1, 2);
  tt_check_shape(r1, 3, TT_SHAPE(2, 3, 4));
  ck_assert(tensor_get_flat(r1, 0) == 8);  /* a[0, 2, 0] */
  ck_assert(tensor_get_flat(r1, 4) == 0);  /* a[0, 0, 0] */
  ck_assert(tensor_get_flat(r1, 12) == 20); /* a[1, 2, 0] */
  ck_assert_ptr_ne(r1->storage, a->storage);
  /* two index tensors broadcast together: a[idx2, :, idx3] -> (2, 3) with B first */
  Tensor *i0 = tt_make(DT_INT64, 2, TT_SHAPE(2, 1), TT_VALS(0, 1));
  Tensor *i2 = tt_make(DT_INT64, 1, TT_SHAPE(2), TT_VALS(3, 1));
  IndexItem i_split[] = {tidx(i0), all(), tidx(i2)};
  Tensor *r2 = tensor_index(a, i_split, 3);
  tt_check_shape(r2, 3, TT_SHAPE(2, 2, 3)); /* B = (2,2), then the sliced dim */
  /* r2[b0, b1, j] = a[i0[b0], j, i2[b1]] */
  for (int b0 = 0; b0 < 2; b0++)
    for (int b1 = 0; b1 < 2; b1++)
      for (int j = 0; j < 3; j++) {
        double want = b0 * 12 + j * 4 + (b1 == 0 ? 3 : 1);
        ck_assert(tensor_get_flat(r2, b0 * 6 + b1 * 3 + j) == want);
      }
  /* an int with a tensor: ints are applied first (PyTorch), so a[0, :, idx] -> (3, 3) */
  IndexItem i_int[] = {ii(0), all(), tidx(idx)};
  Tensor *r3 = tensor_index(a, i_int, 3);
  tt_check_shape(r3, 2, TT_SHAPE(3, 3));
  tt_check_values(r3, TT_VALS(2, 0, 3, 6, 4, 7, 10, 8, 11), 0);
  /* a 0-d index tensor removes its dim, like an int, but copies (advanced) */
  Tensor *zero_d = tensor_scalar(DT_INT64, -1);
  IndexItem i0d[] = {all(), tidx(zero_d)};
  Tensor *r0 = tensor_index(a, i0d, 2);
  tt_check_shape(r0, 2, TT_SHAPE(2, 4));
  tt_check_values(r0, TT_VALS(8, 9, 10, 11, 20, 21, 22, 23), 0);
  ck_assert_ptr_ne(r0->storage, a->storage);
  tensor_release(r0);
  tensor_release(zero_d);
  Tensor *oob = tt_make(DT_INT64, 1, TT_SHAPE(1), TT_VALS(5));
  IndexItem i_oob[] = {tidx(oob)};
  tt_check_error(tensor_index(a, i_oob, 1), "index 5 is out of bounds for dimension 0 with size 2");
  Tensor *fl = tt_make(DT_FLOAT32, 1, TT_SHAPE(1), TT_VALS(0));
  IndexItem i_fl[] = {tidx(fl)};
  tt_check_error(tensor_index(a, i_fl, 1), "tensors used as indices must be long, byte or bool");
  Tensor *rel[] = {a, idx, r1, i0, i2, r2, r3, oob, fl};
  for (int k = 0; k < 9; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_mask_reading) {
  Tensor *a = tt_make(DT_FLOAT32, 2, TT_SHAPE(2, 3), TT_VALS(1, -2, 3, -4, 5, -6));
  Tensor *mask = tensor_binary_scalar(BIN_GT, a, 0);
  IndexItem im[] = {tidx(mask)};
  Tensor *r = tensor_index(a, im, 1);
  tt_check_shape(r, 1, TT_SHAPE(3));
  tt_check_values(r, TT_VALS(1, 3, 5), 0);
  Tensor *at = tensor_t(a), *mt = tensor_t(mask); /* a strided mask */
  IndexItem imt[] = {tidx(mt)};
  Tensor *rt = tensor_index(at, imt, 1);
  tt_check_values(rt, TT_VALS(1, 5, 3), 0);
  tensor_release(rt);
  tensor_release(at);
  tensor_release(mt);
  Tensor *rowmask = tt_make(DT_BOOL, 1, TT_SHAPE(2), TT_VALS(0, 1));
  IndexItem irm[] = {tidx(rowmask), sl(1, 3, 1)};
  Tensor *r2 = tensor_index(a, irm, 2);
  tt_check_shape(r2, 2, TT_SHAPE(1, 2));
  tt_check_values(r2, TT_VALS(5, -6), 0);
  Tensor *badmask = tt_make(DT_BOOL, 1, TT_SHAPE(3), TT_VALS(1, 0, 1));
  IndexItem ibad[] = {tidx(badmask)};
  tt_check_error(tensor_index(a, ibad, 1),
                 "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] at index 0");
  Tensor *yes = tensor_scalar(DT_BOOL, 1), *no = tensor_scalar(DT_BOOL, 0);
  IndexItem iy[] = {tidx(yes)}, in[] = {tidx(no), ii(1)};
  Tensor *ry = tensor_index(a, iy, 1), *rn = tensor_index(a, in, 2);
  tt_check_shape(ry, 3, TT_SHAPE(1, 2, 3));
  tt_check_shape(rn, 2, TT_SHAPE(0, 3));
  Tensor *rel[] = {a, mask, r, rowmask, r2, badmask, yes, no, ry, rn};
  for (int k = 0; k < 10; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_index_put) {
  Tensor *a = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(3, 4));
  /* a[0, 1:] = [1, 2, 3] (basic, in place) */
  Tensor *v = tt_make(DT_FLOAT32, 1, TT_SHAPE(3), TT_VALS(1, 2, 3));
  IndexItem i1[] = {ii(0), sl(1, 4, 1)};
  int64_t ver = tensor_version(a);
  ck_assert(tensor_index_put_(a, i1, 2, v));
  ck_assert_int_eq(tensor_version(a), ver + 1);
  tt_check_values(a, TT_VALS(0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0), 0);
  /* a[mask] = 7 (a number is a 0-d tensor) */
  Tensor *mask = tensor_binary_scalar(BIN_GT, a, 1.5);
  Tensor *seven = tensor_scalar(DT_FLOAT64, 7);
  IndexItem im[] = {tidx(mask)};
  ck_assert(tensor_index_put_(a, im, 1, seven));
  tt_check_values(a, TT_VALS(0, 1, 7, 7, 0, 0, 0, 0, 0, 0, 0, 0), 0);
  /* a[idx, 0] = [10, 20] with an index tensor */
  Tensor *idx = tt_make(DT_INT64, 1, TT_SHAPE(2), TT_VALS(2, 1));
  Tensor *v2 = tt_make(DT_FLOAT32, 1, TT_SHAPE(2), TT_VALS(10, 20));
  IndexItem i2[] = {tidx(idx), ii(0)};
  ck_assert(tensor_index_put_(a, i2, 2, v2));
  ck_assert(tensor_get_flat(a, 8) == 10);
  ck_assert(tensor_get_flat(a, 4) == 20);
  /* a[:, idx] = rows broadcast over the first dim */
  Tensor *v3 = tt_make(DT_FLOAT32, 2, TT_SHAPE(1, 2), TT_VALS(-1, -2));
  IndexItem i3[] = {all(), tidx(idx)};
  ck_assert(tensor_index_put_(a, i3, 2, v3));
  for (int r = 0; r < 3; r++) {
    ck_assert(tensor_get_flat(a, r * 4 + 2) == -1);
    ck_assert(tensor_get_flat(a, r * 4 + 1) == -2);
  }
  Tensor *lead = tt_make(DT_FLOAT32, 3, TT_SHAPE(1, 1, 3), TT_VALS(4, 5, 6)); /* leading 1s drop */
  ck_assert(tensor_index_put_(a, i1, 2, lead));
  Tensor *row0 = tensor_select(a, 0, 0);
  tt_check_values(row0, TT_VALS(0, 4, 5, 6), 0);
  tensor_release(row0);
  tensor_release(lead);
  Tensor *wrong = tt_make(DT_FLOAT32, 1, TT_SHAPE(5), TT_VALS(1, 2, 3, 4, 5));
  ck_assert(!tensor_index_put_(a, i1, 2, wrong));
  ck_assert(strstr(tensor_error(), "shape mismatch: value tensor of shape [5] cannot be broadcast to indexing result of shape [3]"));
  Tensor *rel[] = {a, v, mask, seven, idx, v2, v3, wrong};
  for (int k = 0; k < 8; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_index_add_accumulates) {
  Tensor *g = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(3, 2));
  Tensor *idx = tt_make(DT_INT64, 1, TT_SHAPE(4), TT_VALS(0, 2, 0, 0));
  Tensor *v = tt_make(DT_FLOAT32, 2, TT_SHAPE(4, 2), TT_VALS(1, 2, 3, 4, 5, 6, 7, 8));
  IndexItem it[] = {tidx(idx)};
  ck_assert(tensor_index_add_(g, it, 1, v));
  tt_check_values(g, TT_VALS(13, 16, 0, 0, 3, 4), 0);
  /* basic items accumulate too */
  Tensor *one = tensor_scalar(DT_FLOAT32, 1);
  IndexItem ib[] = {ii(1)};
  ck_assert(tensor_index_add_(g, ib, 1, one));
  tt_check_values(g, TT_VALS(13, 16, 1, 1, 3, 4), 0);
  /* scalar element positions, repeated */
  Tensor *f = tensor_zeros(DT_FLOAT64, 1, TT_SHAPE(3));
  Tensor *rep = tt_make(DT_INT64, 1, TT_SHAPE(5), TT_VALS(1, 1, -1, 1, 0));
  Tensor *ones = tensor_full(DT_FLOAT64, 1, TT_SHAPE(5), 1);
  IndexItem ir[] = {tidx(rep)};
  ck_assert(tensor_index_add_(f, ir, 1, ones));
  tt_check_values(f, TT_VALS(1, 3, 1), 0);
  Tensor *rel[] = {g, idx, v, one, f, rep, ones};
  for (int k = 0; k < 7; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_select_gather_scatter) {
  Tensor *a = tt_iota(DT_FLOAT32, 2, (int64_t)3, (int64_t)4);
  Tensor *idx = tt_make(DT_INT64, 1, TT_SHAPE(2), TT_VALS(3, 0));
  Tensor *s = tensor_index_select(a, 1, idx);
  tt_check_shape(s, 2, TT_SHAPE(3, 2));
  tt_check_values(s, TT_VALS(3, 0, 7, 4, 11, 8), 0);
  Tensor *oob = tt_make(DT_INT64, 1, TT_SHAPE(1), TT_VALS(9));
  tt_check_error(tensor_index_select(a, 0, oob), "index out of range in self");
  Tensor *gi = tt_make(DT_INT64, 2, TT_SHAPE(3, 2), TT_VALS(0, 3, 1, 1, 2, 0));
  Tensor *g = tensor_gather(a, 1, gi);
  tt_check_values(g, TT_VALS(0, 3, 5, 5, 10, 8), 0);
  Tensor *src = tt_make(DT_FLOAT32, 2, TT_SHAPE(3, 2), TT_VALS(1, 2, 3, 4, 5, 6));
  Tensor *sc = tensor_scatter_add(a, 1, gi, src);
  tt_check_shape(sc, 2, TT_SHAPE(3, 4));
  tt_check_values(sc, TT_VALS(1, 0, 0, 2, 0, 7, 0, 0, 6, 0, 5, 0), 0);
  Tensor *bad = tt_make(DT_INT64, 2, TT_SHAPE(1, 1), TT_VALS(4));
  tt_check_error(tensor_gather(a, 1, bad), "index 4 is out of bounds for dimension 1 with size 4");
  Tensor *big = tensor_zeros(DT_INT64, 2, TT_SHAPE(4, 1));
  tt_check_error(tensor_gather(a, 1, big), "Size does not match at dimension 0");
  Tensor *rel[] = {a, idx, s, oob, gi, g, src, sc, bad, big};
  for (int k = 0; k < 10; k++) tensor_release(rel[k]);
}
END_TEST

/* dst.select(dim, i).copy_(src): a contiguous block directly, anything else
 * (a column, a transposed src, another dtype) through select + copy_ */
START_TEST(test_select_copy) {
  Tensor *z = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(3, 2));
  Tensor *row = tt_make(DT_FLOAT32, 1, TT_SHAPE(2), TT_VALS(7, 8));
  int64_t v0 = tensor_version(z);
  ck_assert(tensor_select_copy_(z, 0, -1, row));
  ck_assert_int_eq(tensor_version(z), v0 + 1);
  tt_check_values(z, TT_VALS(0, 0, 0, 0, 7, 8), 0);
  Tensor *col = tt_make(DT_FLOAT64, 1, TT_SHAPE(3), TT_VALS(1, 2, 3));
  ck_assert(tensor_select_copy_(z, 1, 0, col));
  tt_check_values(z, TT_VALS(1, 0, 2, 0, 3, 8), 0);
  Tensor *c = tensor_zeros(DT_FLOAT32, 3, TT_SHAPE(2, 2, 2));
  Tensor *sq = tt_iota(DT_FLOAT32, 2, (int64_t)2, (int64_t)2);
  Tensor *sqt = tensor_transpose(sq, 0, 1);
  ck_assert(tensor_select_copy_(c, 0, 1, sqt));
  tt_check_values(c, TT_VALS(0, 0, 0, 0, 0, 2, 1, 3), 0);
  Tensor *one = tensor_zeros(DT_FLOAT32, 2, TT_SHAPE(1, 3));
  Tensor *s = tensor_scalar(DT_FLOAT32, 5);
  ck_assert(tensor_select_copy_(one, 1, 2, s));
  tt_check_values(one, TT_VALS(0, 0, 5), 0);
  ck_assert(!tensor_select_copy_(z, 0, 3, row));
  ck_assert_str_eq(tensor_error(), "index 3 is out of bounds for dimension 0 with size 3");
  Tensor *rel[] = {z, row, col, c, sq, sqt, one, s};
  for (int k = 0; k < 8; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_scatter_modes) {
  Tensor *a = tensor_full(DT_FLOAT32, 2, TT_SHAPE(2, 3), 1);
  Tensor *idx = tt_make(DT_INT64, 2, TT_SHAPE(1, 3), TT_VALS(1, 0, 1));
  Tensor *src = tt_make(DT_FLOAT32, 2, TT_SHAPE(2, 3), TT_VALS(5, 6, 7, 8, 9, 10));
  Tensor *set = tensor_scatter(a, 0, idx, src, 0, SCATTER_SET);
  tt_check_values(set, TT_VALS(1, 6, 1, 5, 1, 7), 0);
  Tensor *add = tensor_scatter(a, 0, idx, src, 0, SCATTER_ADD);
  tt_check_values(add, TT_VALS(1, 7, 1, 6, 1, 8), 0);
  Tensor *mul = tensor_scatter(a, -2, idx, NULL, 3, SCATTER_MUL);
  tt_check_values(mul, TT_VALS(1, 3, 1, 3, 1, 3), 0);
  tt_check_values(a, TT_VALS(1, 1, 1, 1, 1, 1), 0); /* out of place */
  Tensor *repeat = tt_make(DT_INT64, 2, TT_SHAPE(1, 2), TT_VALS(2, 2));
  Tensor *acc = tensor_scatter(a, 1, repeat, src, 0, SCATTER_ADD); /* repeats accumulate */
  tt_check_values(acc, TT_VALS(1, 1, 12, 1, 1, 1), 0);
  Tensor *neg = tt_make(DT_INT64, 2, TT_SHAPE(1, 1), TT_VALS(-1));
  tt_check_error(tensor_scatter(a, 0, neg, src, 0, SCATTER_SET),
                 "index -1 is out of bounds for dimension 0 with size 2");
  Tensor *d64 = tensor_to_dtype(src, DT_FLOAT64);
  tt_check_error(tensor_scatter(a, 0, idx, d64, 0, SCATTER_SET),
                 "scatter(): Expected self.dtype to be equal to src.dtype");
  Tensor *wide = tensor_zeros(DT_INT64, 2, TT_SHAPE(1, 4));
  tt_check_error(tensor_scatter(a, 0, wide, NULL, 0, SCATTER_SET),
                 "Expected index [1, 4] to be smaller than self [2, 3] apart from dimension 0");
  Tensor *rel[] = {a, idx, src, set, add, mul, repeat, acc, neg, d64, wide};
  for (int k = 0; k < 11; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_index_add) {
  Tensor *a = tt_iota(DT_FLOAT64, 2, (int64_t)3, (int64_t)2);
  Tensor *idx = tt_make(DT_INT64, 1, TT_SHAPE(3), TT_VALS(2, 0, 2));
  Tensor *src = tt_make(DT_FLOAT64, 2, TT_SHAPE(3, 2), TT_VALS(1, 2, 3, 4, 5, 6));
  Tensor *r = tensor_index_add(a, 0, idx, src, -1);
  tt_check_values(r, TT_VALS(-3, -3, 2, 3, -2, -3), 0);
  Tensor *cols = tt_make(DT_INT64, 1, TT_SHAPE(2), TT_VALS(1, 1));
  Tensor *src2 = tt_make(DT_FLOAT64, 2, TT_SHAPE(3, 2), TT_VALS(1, 2, 3, 4, 5, 6));
  Tensor *r2 = tensor_index_add(a, 1, cols, src2, 0.5);
  tt_check_values(r2, TT_VALS(0, 2.5, 2, 6.5, 4, 10.5), 0);
  Tensor *oob = tt_make(DT_INT64, 1, TT_SHAPE(3), TT_VALS(0, 3, 1));
  tt_check_error(tensor_index_add(a, 0, oob, src, 1), "index out of range in self");
  tt_check_error(tensor_index_add(a, 0, cols, src, 1),
                 "index_add_(): Number of indices (2) should be equal to source.size(dim): (3)");
  Tensor *rel[] = {a, idx, src, r, cols, src2, r2, oob};
  for (int k = 0; k < 8; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_nonzero_unique_bincount) {
  Tensor *a = tt_make(DT_FLOAT32, 2, TT_SHAPE(2, 3), TT_VALS(0, 2, -0.0, NAN, 0, 1));
  Tensor *nz = tensor_nonzero(a);
  tt_check_shape(nz, 2, TT_SHAPE(3, 2));
  tt_check_values(nz, TT_VALS(0, 1, 1, 0, 1, 2), 0);
  Tensor *v = tt_make(DT_INT64, 1, TT_SHAPE(6), TT_VALS(4, -2, 4, 9, -2, 4));
  Tensor *inv = NULL, *cnt = NULL;
  Tensor *u = tensor_unique(v, 0, false, &inv, &cnt);
  tt_check_values(u, TT_VALS(-2, 4, 9), 0);
  tt_check_values(inv, TT_VALS(1, 0, 1, 2, 0, 1), 0);
  tt_check_values(cnt, TT_VALS(2, 3, 1), 0);
  Tensor *m = tt_make(DT_INT64, 2, TT_SHAPE(2, 3), TT_VALS(1, 0, 1, 2, 5, 2));
  Tensor *dinv = NULL;
  Tensor *ucols = tensor_unique(m, 1, true, &dinv, NULL); /* columns (1,2) twice, (0,5) */
  tt_check_shape(ucols, 2, TT_SHAPE(2, 2));
  tt_check_values(ucols, TT_VALS(0, 1, 5, 2), 0);
  tt_check_values(dinv, TT_VALS(1, 0, 1), 0);
  Tensor *b = tt_make(DT_INT64, 1, TT_SHAPE(4), TT_VALS(3, 0, 3, 3));
  Tensor *bc = tensor_bincount(b, NULL, 6);
  tt_check_values(bc, TT_VALS(1, 0, 0, 3, 0, 0), 0);
  Tensor *w = tt_make(DT_FLOAT32, 1, TT_SHAPE(4), TT_VALS(0.5, 1, 2, 4));
  Tensor *bw = tensor_bincount(b, w, 0);
  ck_assert_int_eq(bw->dtype, DT_FLOAT32);
  tt_check_values(bw, TT_VALS(1, 0, 0, 6.5), 0);
  tt_check_error(tensor_bincount(v, NULL, 0), "bincount only supports 1-d non-negative integral inputs.");
  Tensor *rel[] = {a, nz, v, inv, cnt, u, m, dinv, ucols, b, bc, w, bw};
  for (int k = 0; k < 13; k++) tensor_release(rel[k]);
}
END_TEST

START_TEST(test_isclose) {
  Tensor *a = tt_make(DT_FLOAT32, 1, TT_SHAPE(4), TT_VALS(1, INFINITY, NAN, 100));
  Tensor *b = tt_make(DT_FLOAT32, 1, TT_SHAPE(4), TT_VALS(1.000005, INFINITY, NAN, 100.01));
  Tensor *c = tensor_isclose(a, b, 1e-5, 1e-8, false);
  tt_check_values(c, TT_VALS(1, 1, 0, 0), 0);
  Tensor *n = tensor_isclose(a, b, 1e-3, 0, true);
  tt_check_values(n, TT_VALS(1, 1, 1, 1), 0);
  Tensor *d = tensor_to_dtype(b, DT_FLOAT64);
  tt_check_error(tensor_isclose(a, d, 1e-5, 1e-8, false), "Float did not match Double");
  tt_check_error(tensor_isclose(a, b, -1, 0, false), "rtol must be greater than or equal to zero");
  Tensor *rel[] = {a, b, c, n, d};
  for (int k = 0; k < 5; k++) tensor_release(rel[k]);
}
END_TEST

static Suite *index_suite(void) {
  Suite *s = suite_create("tensor_index");
  TCase *tc = tcase_create("index");
  tcase_add_test(tc, test_basic_reading);
  tcase_add_test(tc, test_advanced_reading);
  tcase_add_test(tc, test_mask_reading);
  tcase_add_test(tc, test_index_put);
  tcase_add_test(tc, test_index_add_accumulates);
  tcase_add_test(tc, test_select_gather_scatter);
  tcase_add_test(tc, test_scatter_modes);
  tcase_add_test(tc, test_index_add);
  tcase_add_test(tc, test_select_copy);
  tcase_add_test(tc, test_nonzero_unique_bincount);
  tcase_add_test(tc, test_isclose);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(index_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
