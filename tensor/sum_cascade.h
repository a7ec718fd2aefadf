/* sum_cascade.h — ATen's cascade_sum kernels (SumKernel.cpp), written once
 * for both float dtypes: sum_aten.c includes this file twice, with
 *   SUM_T      the element and accumulator type (float or double: ATen
 *              accumulates a CPU float sum in float),
 *   SUM_LANES  Vectorized<SUM_T>::size() under AVX2 (8 floats, 4 doubles),
 *   SUM_FN(n)  the name n with the dtype's suffix.
 * The number of accumulators (ILP), the cascade's levels and the level
 * sizes are the same for both; only the vector width differs. No include
 * guard on purpose. */

/* multi_row_sum: nrows rows of nl lanes; step i of row k lane l reads
 * in[i * row_stride + k * col_stride + l] (element strides). */
static void SUM_FN(multi_row_sum)(const SUM_T *in, int64_t row_stride, int64_t col_stride,
                                  int64_t size, int nrows, int nl, SUM_T out[ILP][SUM_LANES]) {
  int64_t level_power = ceil_log2(size) / LEVELS;
  if (level_power < 4) level_power = 4;
  int64_t level_step = (int64_t)1 << level_power, level_mask = level_step - 1;
  SUM_T acc[LEVELS][ILP][SUM_LANES];
  memset(acc, 0, sizeof acc);
  int64_t i = 0;
  while (i + level_step <= size) {
    for (int64_t j = 0; j < level_step; j++, i++)
      for (int k = 0; k < nrows; k++)
        for (int l = 0; l < nl; l++) acc[0][k][l] += in[i * row_stride + k * col_stride + l];
    for (int j = 1; j < LEVELS; j++) {
      for (int k = 0; k < nrows; k++)
        for (int l = 0; l < nl; l++) {
          acc[j][k][l] += acc[j - 1][k][l];
          acc[j - 1][k][l] = 0;
        }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; i++)
    for (int k = 0; k < nrows; k++)
      for (int l = 0; l < nl; l++) acc[0][k][l] += in[i * row_stride + k * col_stride + l];
  for (int j = 1; j < LEVELS; j++)
    for (int k = 0; k < nrows; k++)
      for (int l = 0; l < nl; l++) acc[0][k][l] += acc[j][k][l];
  for (int k = 0; k < nrows; k++)
    for (int l = 0; l < nl; l++) out[k][l] = acc[0][k][l];
}

/* row_sum: `size` steps of `stride` elements, nl lanes each (out[0..nl)). */
static void SUM_FN(row_sum)(const SUM_T *in, int64_t stride, int64_t size, int nl, SUM_T *out) {
  int64_t size_ilp = size / ILP;
  SUM_T part[ILP][SUM_LANES];
  SUM_FN(multi_row_sum)(in, stride * ILP, stride, size_ilp, ILP, nl, part);
  for (int64_t i = size_ilp * ILP; i < size; i++)
    for (int l = 0; l < nl; l++) part[0][l] += in[i * stride + l];
  for (int k = 1; k < ILP; k++)
    for (int l = 0; l < nl; l++) part[0][l] += part[k][l];
  memcpy(out, part[0], (size_t)nl * sizeof(SUM_T));
}

/* K elements `stride` apart for one output: vectorized_inner_sum when they
 * are contiguous and fill a vector, else the scalar row_sum. */
static SUM_T SUM_FN(inner_sum)(const SUM_T *row, int64_t stride, int64_t K) {
  if (stride != 1 || K < SUM_LANES) {
    SUM_T r;
    SUM_FN(row_sum)(row, stride, K, 1, &r);
    return r;
  }
  int64_t vec_size = K / SUM_LANES;
  SUM_T vec[SUM_LANES];
  SUM_FN(row_sum)(row, SUM_LANES, vec_size, SUM_LANES, vec);
  SUM_T final = 0;
  for (int64_t k = vec_size * SUM_LANES; k < K; k++) final += row[k];
  for (int l = 0; l < SUM_LANES; l++) final += vec[l];
  return final;
}

/* Columns of a (K, M) matrix, rows `ks` and columns `cs` elements apart:
 * out[m] = sum over k, by vectorized_outer_sum (vec: contiguous columns,
 * at least a vector of them in the whole run) or scalar_outer_sum. */
static void SUM_FN(outer_sum)(const SUM_T *in, int64_t ks, int64_t cs, int64_t K, int64_t M,
                              bool vec, SUM_T *out) {
  int64_t j = 0;
  if (vec) {
    for (; j + ILP * SUM_LANES <= M; j += ILP * SUM_LANES) {
      SUM_T sums[ILP][SUM_LANES];
      SUM_FN(multi_row_sum)(in + j, ks, SUM_LANES, K, ILP, SUM_LANES, sums);
      for (int k = 0; k < ILP; k++) memcpy(out + j + k * SUM_LANES, sums[k], sizeof sums[k]);
    }
    for (; j + SUM_LANES <= M; j += SUM_LANES) SUM_FN(row_sum)(in + j, ks, K, SUM_LANES, out + j);
    for (; j < M; j++) SUM_FN(row_sum)(in + j, ks, K, 1, out + j);
    return;
  }
  for (; j + (ILP - 1) < M; j += ILP) {
    SUM_T sums[ILP][SUM_LANES];
    SUM_FN(multi_row_sum)(in + j * cs, ks, cs, K, ILP, 1, sums);
    for (int k = 0; k < ILP; k++) out[j + k] = sums[k][0];
  }
  for (; j < M; j++) SUM_FN(row_sum)(in + j * cs, ks, K, 1, out + j);
}

/* cascade_sum's loop over one 2-D run of TensorIterator: size0 x size1
 * steps, input strides is0/is1, output strides os0/os1 (elements; 0 along
 * a reduced dim). Results are added to out, which starts at 0 as ATen's. */
static void SUM_FN(cascade_run)(const SUM_T *in, SUM_T *out, int64_t size0, int64_t size1,
                                int64_t is0, int64_t is1, int64_t os0, int64_t os1) {
  if (os0 != 0 && os1 == 0) { /* move the reduction to the first dim */
    int64_t t;
    t = size0, size0 = size1, size1 = t;
    t = is0, is0 = is1, is1 = t;
    t = os0, os0 = os1, os1 = t;
  }
  if (os0 != 0) { /* not a reduction: out += in */
    for (int64_t j = 0; j < size1; j++)
      for (int64_t i = 0; i < size0; i++) out[j * os1 + i * os0] += in[j * is1 + i * is0];
    return;
  }
  bool vec_inner = is0 == 1 && size0 >= SUM_LANES, vec_outer = is1 == 1 && size1 >= SUM_LANES;
  if (vec_inner || (!vec_outer && is0 < is1)) {
    for (int64_t j = 0; j < size1; j++) out[j * os1] += SUM_FN(inner_sum)(in + j * is1, is0, size0);
    return;
  }
  enum { BLOCK = 256 }; /* columns per call: a multiple of ILP * SUM_LANES keeps the grouping */
  SUM_T tmp[BLOCK];
  for (int64_t c = 0; c < size1; c += BLOCK) {
    int64_t m = size1 - c < BLOCK ? size1 - c : BLOCK;
    SUM_FN(outer_sum)(in + c * is1, is0, is1, size0, m, vec_outer, tmp);
    for (int64_t j = 0; j < m; j++) out[(c + j) * os1] += tmp[j];
  }
}
