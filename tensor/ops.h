/* ops.h — the forward computations of SPEC §6.
 *
 * Conventions (see tensor.h): results are new references or NULL with
 * tensor_error() set; arguments are borrowed. Dimensions may be negative
 * (counted from the end) and are checked. Binary ops broadcast as NumPy does
 * and promote dtypes as PyTorch does; a `double` scalar operand never raises
 * a tensor's dtype, except that a non-integral scalar with an int64/bool
 * tensor gives float32 (SPEC §11).
 *
 * The elementwise ops come from the registry ops/elementwise.h, so the names
 * used by the bindings, the derivative table in autograd/ and the kernels stay
 * in step.
 */
#ifndef AG_TENSOR_OPS_H
#define AG_TENSOR_OPS_H

#include "ops/elementwise.h"
#include "tensor.h"

/* The elementwise ops: one row each in ops/elementwise.h (the registry), which
 * also gives their kernels (elementwise.c), dtype rules, derivatives and
 * bindings. Integer inputs to the float functions (exp, log, ...) give
 * float32, as in PyTorch. DIV on integer tensors gives float32 (true
 * division). MOD takes the sign of the divisor (Python/PyTorch remainder);
 * FLOOR_DIVIDE is the quotient that goes with it (PyTorch 1.13's
 * floor_divide: div(rounding_mode='floor')). XLOGY is x * log(y), 0 where x
 * is 0 (nan where y is). Comparisons give bool tensors. */
typedef enum {
#define UNARY_ENUM(C, e, ...) UN_##e,
  AG_UNARY_REGISTRY(UNARY_ENUM, 0)
#undef UNARY_ENUM
  UN_COUNT
} UnaryOp;

typedef enum {
#define BINARY_ENUM(C, e, ...) BIN_##e,
  AG_BINARY_REGISTRY(BINARY_ENUM, 0)
#undef BINARY_ENUM
  BIN_COUNT
} BinaryOp;

/* The registry's result rules (its `result` column). */
typedef enum { RESULT_COMPUTE, RESULT_PROMOTE, RESULT_TO_FLOAT, RESULT_BOOL } ResultRule;
extern const ResultRule tensor_unary_results[UN_COUNT];
extern const ResultRule tensor_binary_results[BIN_COUNT];

/* logical_not and the isnan/isinf/isfinite tests give bool tensors. */
static inline bool tensor_unary_gives_bool(UnaryOp op) {
  return tensor_unary_results[op] == RESULT_BOOL;
}
/* The comparisons and logical_and/or give bool tensors. */
static inline bool tensor_binary_gives_bool(BinaryOp op) {
  return tensor_binary_results[op] == RESULT_BOOL;
}

extern const char *const tensor_unary_names[UN_COUNT];
extern const char *const tensor_binary_names[BIN_COUNT];
/* The operator of the script that means each op ("+" for BIN_ADD), or NULL. */
extern const char *const tensor_binary_symbols[BIN_COUNT];

/* ---- dtype rules ---- */
/* PyTorch's result_type of two tensors: a 0-d operand only raises the dtype of
 * an operand with dimensions when it is of a higher category (bool < integer < float). */
DType tensor_result_type(const Tensor *a, const Tensor *b);
/* The dtype of `tensor op number` (the number is integral or not). */
DType tensor_scalar_result_type(DType t, double s);
bool tensor_can_cast(DType from, DType to); /* same or higher category */
const char *tensor_dtype_torch_name(DType dt); /* "Float", "Long", ... for messages */
/* Wraps a possibly negative dim into [0, ndim); a 0-d tensor accepts -1 and 0
 * (else PyTorch's "Dimension out of range ..." error). */
bool tensor_wrap_dim(int *dim, int ndim);

/* ---- creation ---- */
Tensor *tensor_arange(double start, double end, double step, DType dt);
Tensor *tensor_linspace(double start, double end, int64_t n, DType dt);
Tensor *tensor_eye(int64_t n, int64_t m, DType dt); /* m < 0: square */
Tensor *tensor_clone(const Tensor *t);      /* contiguous copy, same dtype */
Tensor *tensor_contiguous(const Tensor *t); /* t itself (retained) if already contiguous */
Tensor *tensor_to_dtype(const Tensor *t, DType dt); /* t retained if same dtype */
/* t converted to dt, taking t's reference (NULL stays NULL): a result
 * computed in a wider dtype narrowed back to the dtype of its inputs. */
Tensor *tensor_narrow_to(Tensor *t, DType dt);
/* t in its compute dtype (a new reference; t itself when native). */
static inline Tensor *tensor_widen(const Tensor *t) {
  return tensor_to_dtype(t, dtype_compute(t->dtype));
}
/* f(a, b) for two tensors of one float dtype without kernels of its own
 * (float16, bfloat16): computed in float32, the result rounded back. */
Tensor *tensor_widened2(Tensor *(*f)(const Tensor *, const Tensor *), const Tensor *a,
                        const Tensor *b);
Tensor *tensor_alias(const Tensor *t);      /* same storage and geometry, no meta (detach) */
/* The same elements and geometry under a version counter of their own (.data). */
Tensor *tensor_alias_unversioned(const Tensor *t);
/* t takes src's elements, shape, strides and dtype (`t.data = src`), under
 * a version counter of its own. */
bool tensor_set_data(Tensor *t, const Tensor *src);

/* ---- elementwise ---- */
Tensor *tensor_unary(UnaryOp op, const Tensor *a);
Tensor *tensor_binary(BinaryOp op, const Tensor *a, const Tensor *b);
Tensor *tensor_binary_scalar(BinaryOp op, const Tensor *a, double s); /* a op s */
Tensor *tensor_scalar_binary(BinaryOp op, double s, const Tensor *a); /* s op a */
/* clamp: pass NAN for a missing bound. */
Tensor *tensor_clamp(const Tensor *a, double lo, double hi);
Tensor *tensor_where(const Tensor *cond, const Tensor *a, const Tensor *b);
/* Shape of the broadcast of two shapes; false (with the PyTorch error) if they don't broadcast. */
bool tensor_broadcast_shape(int na, const int64_t *sa, int nb, const int64_t *sb,
                            int *nout, int64_t *out);

/* ---- in place (each bumps the version counter) ---- */
bool tensor_binary_(BinaryOp op, Tensor *a, const Tensor *b); /* a = a op b, b broadcast to a */
bool tensor_binary_scalar_(BinaryOp op, Tensor *a, double s);
bool tensor_unary_(UnaryOp op, Tensor *a);
bool tensor_fill_(Tensor *a, double v);
bool tensor_copy_(Tensor *dst, const Tensor *src); /* broadcasts src, converts dtype */
bool tensor_select_copy_(Tensor *dst, int dim, int64_t i, const Tensor *src); /* dst.select(dim, i).copy_(src) */
/* The fused in-place updates of the optimizers (tensor/fused.c), rounding as
 * ATen's kernels: add_(b, alpha=s) is a = fma(s, b, a), addcmul_ a = fma(s b, c, a),
 * addcdiv_ a = a + (s b) / c, lerp_(b, weight) a = a + weight (b - a) in ATen's two forms
 * (weight the number s, or with FUSED_LERP_TENSOR the tensor c); b and c broadcast to a
 * (c unused by add_ and the number's lerp_, may be NULL there). */
typedef enum { FUSED_ADD_SCALED, FUSED_ADDCMUL, FUSED_ADDCDIV, FUSED_LERP, FUSED_LERP_TENSOR } FusedOp;
bool tensor_fused_(FusedOp op, Tensor *a, const Tensor *b, const Tensor *c, double s);
bool tensor_clamp_(Tensor *a, double lo, double hi);

/* ---- reductions ----
 * dims == NULL / ndims == 0 means over all dimensions. sum of bool/int64 gives
 * int64; mean of integers is an error as in PyTorch. */
Tensor *tensor_sum(const Tensor *a, const int *dims, int ndims, bool keepdim);
Tensor *tensor_mean(const Tensor *a, const int *dims, int ndims, bool keepdim);
Tensor *tensor_prod(const Tensor *a, int dim, bool has_dim, bool keepdim);
/* max/min over all elements (has_dim false) or along dim with indices
 * (int64) returned through *indices (may be NULL when has_dim is false). */
Tensor *tensor_max(const Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices);
Tensor *tensor_min(const Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices);
Tensor *tensor_argmax(const Tensor *a, int dim, bool has_dim, bool keepdim);
Tensor *tensor_argmin(const Tensor *a, int dim, bool has_dim, bool keepdim);
/* var/std: the divisor is N - correction (1 Bessel's, PyTorch's default; 0
 * biased), 0 when that is not positive. */
Tensor *tensor_var(const Tensor *a, const int *dims, int ndims, double correction, bool keepdim);
Tensor *tensor_std(const Tensor *a, const int *dims, int ndims, double correction, bool keepdim);
/* var_mean / std_mean (take_sqrt): PyTorch's one Welford pass in double per
 * output, the reduced elements in order, so its bits (not var()'s two
 * passes); *mean the mean it finds on the way. A float a of any width. */
Tensor *tensor_var_mean(const Tensor *a, const int *dims, int ndims, double correction, bool keepdim,
                        bool take_sqrt, Tensor **mean);
Tensor *tensor_norm(const Tensor *a, double p, const int *dims, int ndims, bool keepdim);
Tensor *tensor_logsumexp(const Tensor *a, const int *dims, int ndims, bool keepdim);
/* Sums a (broadcast) gradient back down to `shape`: the one un-broadcast helper.
 * When nothing needs summing the result is a view of a (shares its storage). */
Tensor *tensor_sum_to_shape(const Tensor *a, int ndim, const int64_t *shape);

/* ---- shape (views share storage where PyTorch's do) ---- */
/* reshape/view accept one -1. view fails when strides don't allow it, with
 * PyTorch's message; reshape copies then. */
Tensor *tensor_reshape(const Tensor *a, int ndim, const int64_t *shape);
Tensor *tensor_view(const Tensor *a, int ndim, const int64_t *shape);
bool tensor_reshape_is_view(const Tensor *a, int ndim, const int64_t *shape);
Tensor *tensor_flatten(const Tensor *a, int start_dim, int end_dim);
Tensor *tensor_squeeze(const Tensor *a, int dim, bool has_dim);
Tensor *tensor_unsqueeze(const Tensor *a, int dim);
Tensor *tensor_transpose(const Tensor *a, int d0, int d1);
Tensor *tensor_permute(const Tensor *a, const int *perm, int n);
Tensor *tensor_expand(const Tensor *a, int ndim, const int64_t *shape); /* -1 keeps a size */
Tensor *tensor_t(const Tensor *a); /* <= 2-D transpose */
Tensor *tensor_cat(Tensor *const *ts, int n, int dim);
Tensor *tensor_stack(Tensor *const *ts, int n, int dim);
/* split into pieces of `size` along dim (last may be smaller); returns count, fills *out (malloc'd array). */
int tensor_split(const Tensor *a, int64_t size, int dim, Tensor ***out);
int tensor_split_sizes(const Tensor *a, const int64_t *sizes, int nsizes, int dim, Tensor ***out);
int tensor_chunk(const Tensor *a, int chunks, int dim, Tensor ***out);

/* ---- indexing ----
 * One index item of t[...]. The bindings turn script values into these. */
typedef enum { IDX_INT, IDX_SLICE, IDX_NEWAXIS, IDX_ELLIPSIS, IDX_TENSOR } IndexKind;
typedef struct {
  IndexKind kind;
  int64_t i;                      /* IDX_INT */
  int64_t start, stop, step;      /* IDX_SLICE */
  bool has_start, has_stop;       /* IDX_SLICE: missing bounds */
  const Tensor *tensor;           /* IDX_TENSOR: int64 indices or bool mask */
} IndexItem;

Tensor *tensor_select(const Tensor *a, int dim, int64_t i);  /* view; i may be negative */
Tensor *tensor_slice(const Tensor *a, int dim, int64_t start, int64_t stop, int64_t step); /* view, clamped bounds */
/* Basic indexing only (ints, slices, newaxis, ellipsis) gives a view; any
 * tensor item makes a copy (advanced indexing, NumPy rules). */
Tensor *tensor_index(const Tensor *a, const IndexItem *items, int n);
bool tensor_index_is_basic(const IndexItem *items, int n);
/* t[items] = v (v broadcast; a number is a 0-d tensor). In place. */
bool tensor_index_put_(Tensor *a, const IndexItem *items, int n, const Tensor *v);
/* like tensor_index_put_ but adds into a (repeated indices accumulate): the backward of indexing. */
bool tensor_index_add_(Tensor *a, const IndexItem *items, int n, const Tensor *v);
Tensor *tensor_index_select(const Tensor *a, int dim, const Tensor *index);
Tensor *tensor_gather(const Tensor *a, int dim, const Tensor *index);
/* out = zeros like a; out.scatter_add_(dim, index, src) */
Tensor *tensor_scatter_add(const Tensor *a, int dim, const Tensor *index, const Tensor *src);
/* zeros of a's shape with src written (not added) at index: keeps a -0 */
Tensor *tensor_scatter_zeros(const Tensor *a, int dim, const Tensor *index, const Tensor *src);
Tensor *tensor_masked_fill(const Tensor *a, const Tensor *mask, double v);
/* a.scatter(dim, index, src) (src NULL: the number value) with PyTorch's
 * reduce: a copy of a with src's elements written, added or multiplied at
 * index along dim. src has a's dtype; indices must be in range. */
typedef enum { SCATTER_SET, SCATTER_ADD, SCATTER_MUL } TensorScatterMode;
Tensor *tensor_scatter(const Tensor *a, int dim, const Tensor *index, const Tensor *src,
                       double value, TensorScatterMode mode);
/* a.index_add(dim, index, source, alpha): a copy of a with alpha * slice i of
 * source added to slice index[i] along dim. */
Tensor *tensor_index_add(const Tensor *a, int dim, const Tensor *index, const Tensor *source,
                         double alpha);

/* ---- ops whose output size depends on the values (count.c) ---- */
/* The coordinates of the nonzero elements, [n, ndim] int64 in row-major order. */
Tensor *tensor_nonzero(const Tensor *a);
/* The sorted distinct elements of a (flattened; dim >= 0: its distinct slices
 * along dim, compared lexicographically); inverse (a's shape, or [size(dim)])
 * and counts when asked for (non-NULL). NaNs are all distinct, sorted last. */
Tensor *tensor_unique(const Tensor *a, int dim, bool has_dim, Tensor **inverse, Tensor **counts);
/* Counts of each value of a 1-D non-negative int64 tensor (weights: their
 * sums, float32 for float32 weights, else float64), at least minlength long. */
Tensor *tensor_bincount(const Tensor *a, const Tensor *weights, int64_t minlength);
/* |a - b| <= atol + rtol * |b| elementwise (bool, broadcast), in a's dtype;
 * equal infinities are close, NaNs only with equal_nan. */
Tensor *tensor_isclose(const Tensor *a, const Tensor *b, double rtol, double atol, bool equal_nan);

/* ---- linear algebra (OpenBLAS) ----
 * Both operands must have the same dtype (PyTorch: "expected scalar type Float
 * but found Double"); bool is refused; int64 uses a plain loop. The first
 * float product loads OpenBLAS, and every one errors if it cannot be loaded. */
Tensor *tensor_matmul(const Tensor *a, const Tensor *b); /* PyTorch's 1-D/2-D/batched rules */
Tensor *tensor_mm(const Tensor *a, const Tensor *b);
Tensor *tensor_bmm(const Tensor *a, const Tensor *b);
Tensor *tensor_mv(const Tensor *a, const Tensor *v);
Tensor *tensor_dot(const Tensor *a, const Tensor *b);
Tensor *tensor_outer(const Tensor *a, const Tensor *b);
/* Reduced QR of a 2-D float matrix with rows >= columns (tensor/qr.c):
 * LAPACK's geqrf and orgqr, as torch.linalg.qr; false with the error set. */
bool tensor_qr(const Tensor *a, Tensor **q, Tensor **r);

/* ---- neural-network functions (forward values) ---- */
Tensor *tensor_softmax(const Tensor *a, int dim);
Tensor *tensor_log_softmax(const Tensor *a, int dim);
/* The gradient of (log_)softmax along dim from the upstream gradient g and
 * the forward output y (same shape and float dtype), as PyTorch computes it. */
Tensor *tensor_softmax_backward(const Tensor *g, const Tensor *y, int dim, bool log);
/* g * (1 - y*y) with PyTorch's rounding (g, y: same shape, float). */
Tensor *tensor_tanh_backward(const Tensor *g, const Tensor *y);
/* relu's backward y <= 0 ? 0 : g as PyTorch's threshold_backward (g, y: same
 * shape, float32 or float64). */
Tensor *tensor_relu_backward(const Tensor *g, const Tensor *y);
/* g * gelu'(x) (exact gelu) as PyTorch's GeluBackward0 computes it (g, x:
 * same shape, float). */
Tensor *tensor_gelu_backward(const Tensor *g, const Tensor *x);
typedef enum { RED_NONE, RED_MEAN, RED_SUM } Reduction;
Tensor *tensor_mse_loss(const Tensor *a, const Tensor *b, Reduction r);
Tensor *tensor_l1_loss(const Tensor *a, const Tensor *b, Reduction r);
/* smooth_l1_loss (beta > 0) and huber_loss (delta > 0), PyTorch's formulas. */
Tensor *tensor_smooth_l1_loss(const Tensor *a, const Tensor *b, double beta, Reduction r);
Tensor *tensor_huber_loss(const Tensor *a, const Tensor *b, double delta, Reduction r);
/* PyTorch's "Target size (...) must be the same as input size (...)" check. */
bool tensor_check_target_size(const Tensor *input, const Tensor *target);
/* nll_loss: input (C), (N, C) or (N, C, H, W) log-probabilities, target
 * int64 0-d, (N) or (N, H, W); weight (NULL: all 1) one per class; targets
 * equal to ignore_index count for nothing. *total_weight receives the sum
 * of the kept targets' weights (the mean's divisor, which the backward needs).
 * tensor_nll_loss: no weights, PyTorch's default ignore_index.
 * cross_entropy also takes class probabilities: a float target shaped like logits. */
#define NLL_DEFAULT_IGNORE_INDEX (-100)
Tensor *tensor_nll_loss_weighted(const Tensor *logp, const Tensor *target, const Tensor *weight,
                                 int64_t ignore_index, Reduction r, double *total_weight);
Tensor *tensor_nll_loss(const Tensor *logp, const Tensor *target, Reduction r);
Tensor *tensor_cross_entropy(const Tensor *logits, const Tensor *target, Reduction r);
Tensor *tensor_binary_cross_entropy(const Tensor *p, const Tensor *target, Reduction r);
/* dropout with a mask from tensor_dropout_mask (random.h): a * mask. */

/* ---- sorting (tensor/sort.c) ----
 * Stable, in PyTorch's order (-0.0 equals 0.0; NaN greatest). *indices, when
 * given, receives the int64 positions along dim. topk: the k largest (or
 * smallest) along dim, sorted, ties by index; "selected index k out of range"
 * unless 0 <= k <= size. */
Tensor *tensor_sort(const Tensor *a, int dim, bool descending, Tensor **indices);
Tensor *tensor_argsort(const Tensor *a, int dim, bool descending);
Tensor *tensor_topk(const Tensor *a, int64_t k, int dim, bool largest, Tensor **indices);
/* The k-th smallest (from 1) along dim and its index, chosen among equal
 * values as PyTorch 1.13's quickselect does; keepdim keeps dim as size 1. */
Tensor *tensor_kthvalue(const Tensor *a, int64_t k, int dim, bool keepdim, Tensor **indices);
/* The most frequent value along dim (the smallest of a tie) and an index of it, as ATen's
 * CPU mode picks it (after libstdc++'s std::sort of (value, index) by value). */
Tensor *tensor_mode(const Tensor *a, int dim, bool keepdim, Tensor **indices);
/* The lower median along dim and its index (the first NaN if any; among
 * equal values the one of rank (n - 1) / 2 in index order, as PyTorch 1.13). */
Tensor *tensor_median(const Tensor *a, int dim, bool keepdim, Tensor **indices);

/* ---- moving elements (tensor/reorder.c), scans (tensor/scan.c) ---- */
/* A copy reversed along each of dims ("dim d appears multiple times..."). */
Tensor *tensor_flip(const Tensor *a, const int *dims, int ndims);
/* The lower / upper triangle of the last two dims (others zeroed):
 * tril keeps column - row <= diagonal, triu column - row >= diagonal. */
Tensor *tensor_tril(const Tensor *a, int64_t diagonal);
Tensor *tensor_triu(const Tensor *a, int64_t diagonal);
/* Cumulative sum / product along dim in dtype (DT_COUNT: a's dtype, int64
 * for integers and bool), accumulated in double (int64) as PyTorch's. */
Tensor *tensor_cumsum(const Tensor *a, int dim, DType dtype);
Tensor *tensor_cumprod(const Tensor *a, int dim, DType dtype);
/* cumprod's input gradient for float input and grad of one shape, when the
 * input may hold zeros (ATen's cumprod_backward, first order): along each
 * slice with its first zero at z, dx[k] = sum_{j>=k} grad[j] out[j] / x[k]
 * before z, at z the product of x before z times
 * sum_{j>=z} grad[j] prod(x[z+1..j]) up to the next zero, 0 after z. */
Tensor *tensor_cumprod_backward(const Tensor *input, const Tensor *grad, int dim);

/* ---- repeating and shifting (tensor/repeat.c) ---- */
/* roll(shifts, dims): no dims and one shift rolls the flattened tensor. */
Tensor *tensor_roll(const Tensor *a, const int64_t *shifts, int nshifts, const int *dims,
                    int ndims);
/* a.repeat(sizes): nsizes >= a->ndim; sizes may not overflow the shape. */
Tensor *tensor_repeat(const Tensor *a, const int64_t *sizes, int nsizes);
/* torch.repeat_interleave(repeats): a 1-D int64 repeats gives each index
 * i repeats[i] times; output_size (-1: not given) must be their sum. */
Tensor *tensor_repeat_interleave_index(const Tensor *repeats, int64_t output_size);
/* The diagonal k of dims d1, d2 (a view: the other dims, then the diagonal);
 * zeros of shape with g written on that diagonal (its backward); torch.diag
 * (1-D: the square matrix with a on diagonal k; 2-D: its diagonal k). */
Tensor *tensor_diagonal(const Tensor *a, int64_t k, int d1, int d2);
Tensor *tensor_diagonal_embed(const Tensor *g, int ndim, const int64_t *shape, int64_t k, int d1,
                              int d2);
Tensor *tensor_diag(const Tensor *a, int64_t k);

/* amax/amin over dims (ndims 0: all) without indices (tensor/amax.c). */
Tensor *tensor_amax(const Tensor *a, const int *dims, int ndims, bool keepdim);
Tensor *tensor_amin(const Tensor *a, const int *dims, int ndims, bool keepdim);
/* The sum of a 2-D tensor's diagonal, dtype as sum's. */
Tensor *tensor_trace(const Tensor *a);
/* F.pad's constant mode (shape.c): pads[2k], pads[2k + 1] before and after
 * dim ndim - 1 - k; negative amounts crop. */
Tensor *tensor_constant_pad(const Tensor *a, int npads, const int64_t *pads, double value);
/* F.pad's reflect / replicate modes over the last npads/2 dims (pads checked
 * by the caller), and the backward: g of the padded shape summed into
 * in_shape (a's shape). Float dtypes only. */
Tensor *tensor_mode_pad(const Tensor *a, int npads, const int64_t *pads, bool reflect);
Tensor *tensor_mode_pad_backward(const Tensor *g, const int64_t *in_shape, int npads,
                                 const int64_t *pads, bool reflect);

/* ---- sliding windows (conv.c) ----
 * Over planes [H, W]: a 1-D signal is a plane of height 1 with a kernel of
 * height 1. padding is before the input, padding_end after it.
 * Output sizes never overflow: huge kernels, strides or paddings are errors
 * or empty windows. */
typedef struct {
  int64_t kernel[2], stride[2], padding[2], dilation[2];
  int64_t padding_end[2]; /* after the input: padding but for padding="same", even kernel */
  bool ceil_mode;         /* pooling: round the output size up */
} TensorWindow;
int64_t tensor_window_out(int64_t in, int64_t k, int64_t stride, int64_t pad, int64_t pads,
                          int64_t dil, bool ceil_mode);
bool tensor_window_sizes(const TensorWindow *w, int64_t h, int64_t wd, int64_t *oh, int64_t *ow);
/* x [N, C, H, W] -> [N, C kh kw, oh ow] (F.unfold) and back, sums of overlaps (F.fold). */
Tensor *tensor_im2col(const Tensor *x, const TensorWindow *w);
Tensor *tensor_col2im(const Tensor *cols, int64_t h, int64_t wd, const TensorWindow *w);
/* BatchNorm with the batch's statistics over x [N, C, *] (float), as ATen's
 * CPU kernels compute it (batch_norm.c): the output, and the per-channel
 * mean and unbiased variance [C] for the running statistics. weight and bias
 * [C] may be NULL. */
Tensor *tensor_batch_norm_train(const Tensor *x, const Tensor *weight, const Tensor *bias,
                                double eps, Tensor **mean, Tensor **unbiased_var);
/* Its backward from the input and the output's gradient dy: each of dx,
 * dweight, dbias computed only when not NULL. */
bool tensor_batch_norm_backward(const Tensor *x, const Tensor *dy, const Tensor *weight,
                                double eps, Tensor **dx, Tensor **dweight, Tensor **dbias);
/* tensor_conv2d's gradients from g [N, O, oh, ow]: dx [N, C, H, W] and
 * dweight (weight's shape), each computed only when not NULL. */
bool tensor_conv2d_backward(const Tensor *x, const Tensor *weight, const Tensor *g,
                            const TensorWindow *w, int groups, Tensor **dx, Tensor **dweight);
/* x [N, C, H, W], weight [O, C/groups, kh, kw], bias [O] or NULL. */
Tensor *tensor_conv2d(const Tensor *x, const Tensor *weight, const Tensor *bias,
                      const TensorWindow *w, int groups);
/* x [C, H, W] or [N, C, H, W]; *indices: int64 positions y W + x in each plane. */
Tensor *tensor_max_pool2d(const Tensor *x, const TensorWindow *w, Tensor **indices);
/* max_pool2d's backward: g added at indices into zeros of `shape`. */
Tensor *tensor_max_pool2d_backward(const Tensor *g, const Tensor *indices, int ndim,
                                   const int64_t *shape);
Tensor *tensor_avg_pool2d(const Tensor *x, const TensorWindow *w, bool count_include_pad,
                          int64_t divisor_override);
/* adaptive_avg_pool2d: x [C, H, W] or [N, C, H, W] -> [..., oh, ow]; its backward. */
Tensor *tensor_adaptive_avg_pool2d(const Tensor *x, int64_t oh, int64_t ow);
Tensor *tensor_adaptive_avg_pool2d_backward(const Tensor *g, int64_t h, int64_t wd);
/* avg_pool2d's divisor at each output position: float64 [oh ow]. */
Tensor *tensor_avg_pool_divisors(int64_t h, int64_t wd, const TensorWindow *w,
                                 bool count_include_pad, int64_t divisor_override);

#endif
