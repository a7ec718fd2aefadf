/* fused.c — the fused in-place updates optimizers use, rounding as ATen's
 * CPU kernels do (PyTorch 1.13, checked bit for bit on AVX2 and its scalar
 * tails):
 *   a.add_(b, alpha=s)          a = fma(s, b, a)        one rounding
 *   a.addcmul_(b, c, value=s)   a = fma(s * b, c, a)
 *   a.addcdiv_(b, c, value=s)   a = a + (s * b) / c     no fma
 *   a.lerp_(b, w)               a = w < 0.5 ? fma(w, b - a, a) : fma(-(b - a), 1 - w, b)
 * s is rounded to the tensor's dtype first, as ATen's scalar_t(alpha); lerp's
 * weight w is the number s, or a tensor c. */
#include <math.h>

#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

typedef struct {
  FusedOp op;
  double s;
} FusedCtx;

#define FUSED_KERNEL(NAME, T, FMA)                                                           \
  static void NAME(int64_t n, char *const *p, const int64_t *st, const void *vctx) {        \
    const FusedCtx *ctx = vctx;                                                              \
    T s = (T)ctx->s;                                                                         \
    for (int64_t i = 0; i < n; i++) {                                                        \
      T a = *(const T *)(p[1] + i * st[1]), b = *(const T *)(p[2] + i * st[2]);              \
      T c = *(const T *)(p[3] + i * st[3]), r;                                               \
      switch (ctx->op) {                                                                     \
      case FUSED_ADD_SCALED: r = FMA(s, b, a); break;                                        \
      case FUSED_ADDCMUL: r = FMA(s * b, c, a); break;                                       \
      case FUSED_ADDCDIV: r = a + (s * b) / c; break;                                        \
      default: {                                                                             \
        T w = ctx->op == FUSED_LERP ? s : c, d = b - a;                                      \
        r = w < (T)0.5 ? FMA(w, d, a) : FMA(-d, (T)1 - w, b);                                \
        break;                                                                               \
      }                                                                                      \
      }                                                                                      \
      *(T *)(p[0] + i * st[0]) = r;                                                          \
    }                                                                                        \
  }
FUSED_KERNEL(fused_f32, float, fmaf)
FUSED_KERNEL(fused_f64, double, fma)

/* b (and c) converted to a's dtype and kept apart from a's memory. */
static Tensor *fused_operand(const Tensor *a, const Tensor *b) {
  Tensor *cb = tensor_to_dtype(b, a->dtype);
  Tensor *ub = cb ? tensor_unaliased_input(a, cb) : NULL;
  tensor_release(cb);
  return ub;
}

bool tensor_fused_(FusedOp op, Tensor *a, const Tensor *b, const Tensor *c, double s) {
  static const char *const names[] = {"add_", "addcmul_", "addcdiv_", "lerp_", "lerp_"};
  if (!dtype_is_float(a->dtype)) {
    tensor_set_error("%s of a %s tensor: Ag's fused updates need float32 or float64", names[op],
                     tensor_dtype_torch_name(a->dtype));
    return false;
  }
  if (!c) c = b; /* add_ and lerp_ with a number: the third operand is unused */
  if (!tensor_check_broadcasts_to(b, a) || !tensor_check_broadcasts_to(c, a) ||
      !tensor_check_writable(a))
    return false;
  Tensor *ub = fused_operand(a, b), *uc = ub ? fused_operand(a, c) : NULL;
  bool ok = false;
  if (uc) {
    tensor_bump_version(a);
    FusedCtx ctx = {op, s};
    TensorIter it;
    tensor_iter_init(&it, a->ndim, a->shape);
    tensor_iter_add(&it, a);
    tensor_iter_add(&it, a);
    tensor_iter_add(&it, ub);
    tensor_iter_add(&it, uc);
    ok = tensor_iter_run(&it, a->dtype == DT_FLOAT32 ? fused_f32 : fused_f64, &ctx);
  }
  tensor_release(ub);
  tensor_release(uc);
  return ok;
}
