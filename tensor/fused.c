/* fused.c — the fused in-place updates optimizers use, rounding as ATen's
 * CPU kernels do (PyTorch 1.13, checked bit for bit on AVX2 and its scalar
 * tails):
 *   a.add_(b, alpha=s)          a = fma(s, b, a)        one rounding
 *   a.addcmul_(b, c, value=s)   a = fma(s * b, c, a)
 *   a.addcdiv_(b, c, value=s)   a = a + (s * b) / c     no fma
 *   a.lerp_(b, w)               a = w < 0.5 ? fma(w, b - a, a) : fma(-(b - a), 1 - w, b)
 * s is rounded to the tensor's dtype first, as ATen's scalar_t(alpha); lerp's
 * weight w is the number s, or a tensor c. */
/* The loops are left to the compiler to vectorise, which -O2's "very cheap"
 * cost model refuses (they need a remainder loop and an aliasing check: the
 * output is the first operand). An optimizer's step on a 200K-element weight
 * took 4x as long element by element. The vector fma rounds once per element,
 * as the scalar one, so the bits are the same. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include <math.h>

#include "tensor/iter.h"
#include "tensor/platform.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

typedef struct {
  FusedOp op;
  double s;
} FusedCtx;

/* One contiguous run, the op chosen outside the loop. ATTR: on x86-64 a
 * second copy is compiled for AVX2 and FMA (fmaf then is one instruction
 * and the loops vectorise), used when the CPU has them. */
#define FUSED_RUN(NAME, T, FMA, ATTR)                                                        \
  ATTR static void NAME(FusedOp op, int64_t n, T *o, const T *a, const T *b, const T *c,    \
                        T s) {                                                               \
    switch (op) {                                                                            \
    case FUSED_ADD_SCALED:                                                                   \
      for (int64_t i = 0; i < n; i++) o[i] = FMA(s, b[i], a[i]);                             \
      break;                                                                                 \
    case FUSED_ADDCMUL:                                                                      \
      for (int64_t i = 0; i < n; i++) o[i] = FMA(s * b[i], c[i], a[i]);                      \
      break;                                                                                 \
    case FUSED_ADDCDIV:                                                                      \
      for (int64_t i = 0; i < n; i++) o[i] = a[i] + (s * b[i]) / c[i];                       \
      break;                                                                                 \
    default:                                                                                 \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T w = op == FUSED_LERP ? s : c[i], d = b[i] - a[i];                                  \
        o[i] = w < (T)0.5 ? FMA(w, d, a[i]) : FMA(-d, (T)1 - w, b[i]);                       \
      }                                                                                      \
      break;                                                                                 \
    }                                                                                        \
  }
FUSED_RUN(run_f32, float, fmaf, )
FUSED_RUN(run_f64, double, fma, )
#if defined(__x86_64__)
#define FMA_TARGET __attribute__((target("avx2,fma")))
FUSED_RUN(run_f32_fma, float, fmaf, FMA_TARGET)
FUSED_RUN(run_f64_fma, double, fma, FMA_TARGET)
#endif

/* A strided run element by element, or a contiguous one by run_*. */
#define FUSED_KERNEL(NAME, T, RUN, RUN_FMA)                                                  \
  static void NAME(int64_t n, char *const *p, const int64_t *st, const void *vctx) {        \
    const FusedCtx *ctx = vctx;                                                              \
    T s = (T)ctx->s;                                                                         \
    bool contiguous = true;                                                                  \
    for (int k = 0; k < 4; k++) contiguous = contiguous && st[k] == (int64_t)sizeof(T);      \
    if (!contiguous) {                                                                       \
      for (int64_t i = 0; i < n; i++)                                                        \
        RUN(ctx->op, 1, (T *)(p[0] + i * st[0]), (const T *)(p[1] + i * st[1]),              \
            (const T *)(p[2] + i * st[2]), (const T *)(p[3] + i * st[3]), s);                \
    } else if (tensor_platform_avx2()) {                                                     \
      RUN_FMA(ctx->op, n, (T *)p[0], (const T *)p[1], (const T *)p[2], (const T *)p[3], s);  \
    } else {                                                                                 \
      RUN(ctx->op, n, (T *)p[0], (const T *)p[1], (const T *)p[2], (const T *)p[3], s);      \
    }                                                                                        \
  }
#if defined(__x86_64__)
FUSED_KERNEL(fused_f32, float, run_f32, run_f32_fma)
FUSED_KERNEL(fused_f64, double, run_f64, run_f64_fma)
#else
FUSED_KERNEL(fused_f32, float, run_f32, run_f32)
FUSED_KERNEL(fused_f64, double, run_f64, run_f64)
#endif

/* b (and c) converted to a's dtype and kept apart from a's memory. */
static Tensor *fused_operand(const Tensor *a, const Tensor *b) {
  Tensor *cb = tensor_to_dtype(b, a->dtype);
  Tensor *ub = cb ? tensor_unaliased_input(a, cb) : NULL;
  tensor_release(cb);
  return ub;
}

bool tensor_fused_(FusedOp op, Tensor *a, const Tensor *b, const Tensor *c, double s) {
  static const char *const names[] = {"add_", "addcmul_", "addcdiv_", "lerp_", "lerp_"};
  if (!dtype_is_float(a->dtype) || !dtype_is_native(a->dtype)) {
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
