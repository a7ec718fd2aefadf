/* elementwise.c — broadcasting, unary and binary elementwise ops, clamp, where. */
/* These kernels are plain loops for the compiler to vectorise, but -O2's
 * "very cheap" cost model refuses any loop that needs a remainder loop or an
 * aliasing check, i.e. all of them. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/parallel.h"
#include "tensor/tensor_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

const char *const tensor_unary_names[UN_COUNT] = {
#define UNARY_NAME(C, e, name, ...) #name,
    AG_UNARY_REGISTRY(UNARY_NAME, 0)
#undef UNARY_NAME
};
const char *const tensor_binary_names[BIN_COUNT] = {
#define BINARY_NAME(C, e, name, ...) #name,
    AG_BINARY_REGISTRY(BINARY_NAME, 0)
#undef BINARY_NAME
};
const char *const tensor_binary_symbols[BIN_COUNT] = {
#define BINARY_SYMBOL(C, e, name, symbol, ...) symbol,
    AG_BINARY_REGISTRY(BINARY_SYMBOL, 0)
#undef BINARY_SYMBOL
};
const ResultRule tensor_unary_results[UN_COUNT] = {
#define UNARY_RESULT(C, e, name, kernels, result, ...) RESULT_##result,
    AG_UNARY_REGISTRY(UNARY_RESULT, 0)
#undef UNARY_RESULT
};
const ResultRule tensor_binary_results[BIN_COUNT] = {
#define BINARY_RESULT(C, e, name, symbol, kernels, result, ...) RESULT_##result,
    AG_BINARY_REGISTRY(BINARY_RESULT, 0)
#undef BINARY_RESULT
};

bool tensor_broadcast_shape(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout,
                            int64_t *out) {
  int n = na > nb ? na : nb;
  for (int i = n - 1; i >= 0; i--) { /* from the last dim, so errors name the one PyTorch names */
    int ia = i - (n - na), ib = i - (n - nb);
    int64_t a = ia >= 0 ? sa[ia] : 1, b = ib >= 0 ? sb[ib] : 1;
    if (a != b && a != 1 && b != 1) {
      tensor_set_error("The size of tensor a (%lld) must match the size of tensor b (%lld) at "
                       "non-singleton dimension %d",
                       (long long)a, (long long)b, i);
      return false;
    }
    out[i] = a == 1 ? b : a;
  }
  *nout = n;
  return true;
}

bool tensor_check_broadcasts_to(const Tensor *src, const Tensor *dst) {
  /* the common case (a copy between equal shapes) without the broadcast */
  if (src->ndim == dst->ndim && !memcmp(src->shape, dst->shape, (size_t)src->ndim * sizeof(int64_t)))
    return true;
  int nd;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!tensor_broadcast_shape(dst->ndim, dst->shape, src->ndim, src->shape, &nd, shape))
    return false;
  if (nd != dst->ndim || memcmp(shape, dst->shape, (size_t)nd * sizeof(int64_t)) != 0) {
    char a[256], b[256];
    tensor_format_shape(a, sizeof a, dst->ndim, dst->shape);
    tensor_format_shape(b, sizeof b, nd, shape);
    tensor_set_error("output with shape %s doesn't match the broadcast shape %s", a, b);
    return false;
  }
  return true;
}

bool tensor_wrap_dim(int *dim, int ndim) {
  int n = ndim > 0 ? ndim : 1;
  if (*dim < -n || *dim >= n) {
    tensor_set_index_error("Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                     -n, n - 1, *dim);
    return false;
  }
  if (*dim < 0) *dim += n;
  return true;
}

/* ---- dtype rules ---- */

const char *tensor_dtype_torch_name(DType dt) {
  static const char *const names[DT_COUNT] = {
#define DTYPE_TORCH_NAME(e, name, ctype, kind, torch, ...) torch,
      AG_DTYPES(DTYPE_TORCH_NAME)
#undef DTYPE_TORCH_NAME
  };
  return names[dt];
}

/* A float dtype with kernels of its own (the shortcuts' precondition). */
static bool native_float(DType dt) { return dtype_is_float(dt) && dtype_is_native(dt); }


/* PyTorch's combine_categories: `lower` (a 0-d tensor or a number) only counts
 * when it is of a higher category than `higher` (a tensor with dimensions). */
static DType combine_categories(DType higher, DType lower) {
  if (dtype_is_float(higher)) return higher;
  if (higher == DT_BOOL || dtype_is_float(lower)) return dtype_promote(higher, lower);
  return higher;
}

DType tensor_result_type(const Tensor *a, const Tensor *b) {
  bool a_dim = a->ndim > 0, b_dim = b->ndim > 0;
  if (a_dim == b_dim) return dtype_promote(a->dtype, b->dtype);
  return a_dim ? combine_categories(a->dtype, b->dtype) : combine_categories(b->dtype, a->dtype);
}

DType tensor_scalar_result_type(DType t, double s) {
  /* an integral number beyond int64's range counts as a float, not as garbage */
  bool integral = isfinite(s) && s == floor(s) && fabs(s) < 9.2e18;
  DType sdt = integral ? DT_INT64 : DT_FLOAT32;
  return combine_categories(t, sdt);
}

bool tensor_can_cast(DType from, DType to) { return dtype_kind(from) <= dtype_kind(to); }

/* The dtype the kernel computes in, given the promoted operand dtype. */
/* The dtype op computes in; PyTorch's refusals for bool operands. scalar:
 * b is a plain number made into a tensor (bool ** 2 is fine, bool ** bool not). */
static bool binary_compute_dtype(BinaryOp op, DType promoted, DType da, DType db, bool scalar,
                                 DType *ct) {
  *ct = promoted;
  if (tensor_binary_results[op] == RESULT_TO_FLOAT && !dtype_is_float(promoted)) *ct = DT_FLOAT32;
  if (op == BIN_SUB && (da == DT_BOOL || db == DT_BOOL)) {
    if (promoted == DT_BOOL)
      tensor_set_error("Subtraction, the `-` operator, with two bool tensors is not supported. "
                       "Use the `^` or `logical_xor()` operator instead.");
    else
      tensor_set_error("Subtraction, the `-` operator, with a bool tensor is not supported. "
                       "If you are trying to invert a mask, use the `~` or `logical_not()` "
                       "operator instead.");
    return false;
  }
  if (promoted == DT_BOOL && (op == BIN_POW || op == BIN_MOD || op == BIN_FLOOR_DIVIDE)) {
    if (!scalar) {
      tensor_set_error("\"%s\" not implemented for 'Bool'",
                       op == BIN_POW ? "pow" : op == BIN_MOD ? "remainder_cpu" : "div_floor_cpu");
      return false;
    }
    *ct = DT_INT64;
  }
  return true;
}

/* ---- binary kernels ---- */

/* One kernel per (op, dtype): a contiguous loop, two loops for a broadcast
 * scalar operand (the x*2 case), and a strided fallback. */
#define DEFINE_BIN(name, T, OT, EXPR)                                                        \
  static void name(int64_t n, char *const *p, const int64_t *s, const void *ctx) {          \
    (void)ctx;                                                                               \
    OT *o = (OT *)p[0];                                                                      \
    const T *a = (const T *)p[1], *b = (const T *)p[2];                                      \
    if (s[0] == sizeof(OT) && s[1] == sizeof(T) && s[2] == sizeof(T)) {                      \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T x = a[i], y = b[i];                                                                \
        o[i] = (EXPR);                                                                       \
      }                                                                                      \
    } else if (s[0] == sizeof(OT) && s[1] == sizeof(T) && s[2] == 0) {                       \
      T y = b[0];                                                                            \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T x = a[i];                                                                          \
        o[i] = (EXPR);                                                                       \
      }                                                                                      \
    } else if (s[0] == sizeof(OT) && s[1] == 0 && s[2] == sizeof(T)) {                       \
      T x = a[0];                                                                            \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T y = b[i];                                                                          \
        o[i] = (EXPR);                                                                       \
      }                                                                                      \
    } else {                                                                                 \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T x = *(const T *)(p[1] + i * s[1]), y = *(const T *)(p[2] + i * s[2]);              \
        *(OT *)(p[0] + i * s[0]) = (EXPR);                                                   \
      }                                                                                      \
    }                                                                                        \
  }

/* int64 arithmetic wraps (as PyTorch's does) instead of overflowing. */
#define WRAP(op, x, y) ((int64_t)((uint64_t)(x)op(uint64_t)(y)))

static inline int64_t ipow(int64_t base, int64_t e) {
  if (e < 0) return base == 1 ? 1 : base == -1 ? ((e & 1) ? -1 : 1) : 0;
  uint64_t r = 1, b = (uint64_t)base;
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return (int64_t)r;
}
static inline int64_t imod(int64_t x, int64_t y) {
  if (y == 0 || y == -1) return 0; /* y == 0 is reported before the kernel runs */
  int64_t r = x % y;
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}
static inline float fmodf_py(float x, float y) {
  float r = fmodf(x, y);
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}
static inline double fmod_py(double x, double y) {
  double r = fmod(x, y);
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}
/* Floor division (PyTorch's div_floor_integer / div_floor_floating): a
 * zero float divisor gives IEEE's x / 0; the int one is reported before the
 * kernel runs; INT64_MIN // -1 wraps. */
static inline int64_t ifloordiv(int64_t x, int64_t y) {
  if (y == 0) return 0;
  if (y == -1) return WRAP(-, 0, x);
  int64_t q = x / y;
  return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
}
#define DEFINE_FLOORDIV(name, T, FMOD, SUFFIX)                                               \
  static inline T name(T x, T y) {                                                           \
    if (y == 0) return x / y;                                                                \
    T mod = FMOD(x, y), div = (x - mod) / y;                                                 \
    if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1;                                        \
    if (div == 0) return copysign##SUFFIX(0, x / y);                                          \
    T floored = floor##SUFFIX(div);                                                           \
    return div - floored > (T)0.5 ? floored + 1 : floored;                                   \
  }
DEFINE_FLOORDIV(floordivf_py, float, fmodf, f)
DEFINE_FLOORDIV(floordiv_py, double, fmod, )
#undef DEFINE_FLOORDIV
#define FMAX(x, y) ((x) != (x) || (y) != (y) ? (x) + (y) : (x) > (y) ? (x) : (y))
#define FMIN(x, y) ((x) != (x) || (y) != (y) ? (x) + (y) : (x) < (y) ? (x) : (y))

DEFINE_BIN(add_b, uint8_t, uint8_t, x | y)
DEFINE_BIN(add_i, int64_t, int64_t, WRAP(+, x, y))
DEFINE_BIN(add_f, float, float, x + y)
DEFINE_BIN(add_d, double, double, x + y)
DEFINE_BIN(sub_i, int64_t, int64_t, WRAP(-, x, y))
DEFINE_BIN(sub_f, float, float, x - y)
DEFINE_BIN(sub_d, double, double, x - y)
DEFINE_BIN(mul_b, uint8_t, uint8_t, x &y)
DEFINE_BIN(mul_i, int64_t, int64_t, WRAP(*, x, y))
DEFINE_BIN(mul_f, float, float, x *y)
DEFINE_BIN(mul_d, double, double, x *y)
DEFINE_BIN(div_f, float, float, x / y)
DEFINE_BIN(div_d, double, double, x / y)
DEFINE_BIN(pow_i, int64_t, int64_t, ipow(x, y))
DEFINE_BIN(pow_f, float, float, powf(x, y))
DEFINE_BIN(pow_d, double, double, pow(x, y))
DEFINE_BIN(mod_i, int64_t, int64_t, imod(x, y))
DEFINE_BIN(mod_f, float, float, fmodf_py(x, y))
DEFINE_BIN(mod_d, double, double, fmod_py(x, y))
DEFINE_BIN(floordiv_i, int64_t, int64_t, ifloordiv(x, y))
DEFINE_BIN(floordiv_f, float, float, floordivf_py(x, y))
DEFINE_BIN(floordiv_d, double, double, floordiv_py(x, y))
DEFINE_BIN(max_b, uint8_t, uint8_t, x | y)
DEFINE_BIN(max_i, int64_t, int64_t, x > y ? x : y)
DEFINE_BIN(max_f, float, float, FMAX(x, y))
DEFINE_BIN(max_d, double, double, FMAX(x, y))
DEFINE_BIN(min_b, uint8_t, uint8_t, x &y)
DEFINE_BIN(min_i, int64_t, int64_t, x < y ? x : y)
DEFINE_BIN(min_f, float, float, FMIN(x, y))
DEFINE_BIN(min_d, double, double, FMIN(x, y))
/* PyTorch's scalar xlogy kernel: the C library's log, element by element */
DEFINE_BIN(xlogy_f, float, float, y != y ? y : x == 0 ? 0.0f : x * logf(y))
DEFINE_BIN(xlogy_d, double, double, y != y ? y : x == 0 ? 0.0 : x * log(y))
/* PyTorch's scalar logaddexp: max + log1p(exp(-|x - y|)); an infinity added
 * to itself stays itself (no inf - inf) */
DEFINE_BIN(logaddexp_f, float, float, isinf(x) && x == y ? x : (x < y ? y : x) + log1pf(expf(-fabsf(x - y))))
DEFINE_BIN(logaddexp_d, double, double, isinf(x) && x == y ? x : (x < y ? y : x) + log1p(exp(-fabs(x - y))))

#define DEFINE_BIN_BOOL_OUT(op, EXPR)                                                        \
  DEFINE_BIN(op##_b, uint8_t, uint8_t, EXPR)                                                 \
  DEFINE_BIN(op##_i, int64_t, uint8_t, EXPR)                                                 \
  DEFINE_BIN(op##_f, float, uint8_t, EXPR)                                                   \
  DEFINE_BIN(op##_d, double, uint8_t, EXPR)
DEFINE_BIN_BOOL_OUT(eq, x == y)
DEFINE_BIN_BOOL_OUT(ne, x != y)
DEFINE_BIN_BOOL_OUT(lt, x < y)
DEFINE_BIN_BOOL_OUT(le, x <= y)
DEFINE_BIN_BOOL_OUT(gt, x > y)
DEFINE_BIN_BOOL_OUT(ge, x >= y)
DEFINE_BIN_BOOL_OUT(land, (x != 0) & (y != 0))
DEFINE_BIN_BOOL_OUT(lor, (x != 0) | (y != 0))

#define ALL4(op) {op##_b, op##_i, op##_f, op##_d}
#define NUM3(op) {NULL, op##_i, op##_f, op##_d}
#define FLOAT2(op) {NULL, NULL, op##_f, op##_d}
static const IterInner binary_kernels[BIN_COUNT][DT_COUNT] = {
#define BINARY_KERNELS(C, e, name, symbol, kernels, ...) [BIN_##e] = kernels,
    AG_BINARY_REGISTRY(BINARY_KERNELS, 0)
#undef BINARY_KERNELS
};

/* Integer remainder and floor division by zero are errors in PyTorch
 * (floats give nan or inf). */
static bool check_int_divisor(BinaryOp op, DType ct, const Tensor *b) {
  if ((op != BIN_MOD && op != BIN_FLOOR_DIVIDE) || ct != DT_INT64) return true;
  for (int64_t i = 0; i < b->numel; i++) {
    if (tensor_get_flat(b, i) == 0) {
      tensor_set_error("ZeroDivisionError");
      return false;
    }
  }
  return true;
}

/* out = a op b where a and b already have dtype ct and broadcast to out. */
static bool binary_run(BinaryOp op, DType ct, Tensor *out, const Tensor *a, const Tensor *b) {
  if (!binary_kernels[op][ct]) return false; /* checked by binary_has_kernel */
  if (!check_int_divisor(op, ct, b)) return false;
  const Tensor *ins[2] = {a, b};
  if (tensor_iter_run_flat(binary_kernels[op][ct], NULL, out, ins, 2)) return true;
  TensorIter it;
  tensor_iter_init(&it, out->ndim, out->shape);
  tensor_iter_add(&it, out);
  tensor_iter_add(&it, a);
  tensor_iter_add(&it, b);
  return tensor_iter_run(&it, binary_kernels[op][ct], NULL);
}

/* Whether op has a loop for dt (through dt's compute dtype); PyTorch's error if not. */
static bool binary_has_kernel(BinaryOp op, DType dt) {
  if (binary_kernels[op][dtype_compute(dt)]) return true;
  tensor_set_error("\"%s_cpu\" not implemented for '%s'", tensor_binary_names[op],
                   tensor_dtype_torch_name(dt));
  return false;
}

/* Converts both operands to the dtype the kernel computes ct in (ct's
 * compute dtype), allocates the result, runs the kernel and narrows the
 * result back to ct. */
static Tensor *binary_compute(BinaryOp op, const Tensor *a, const Tensor *b, DType promoted,
                              bool scalar) {
  DType ct;
  int nd;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!binary_compute_dtype(op, promoted, a->dtype, b->dtype, scalar, &ct)) return NULL;
  if (!binary_has_kernel(op, ct)) return NULL;
  if (!tensor_broadcast_shape(a->ndim, a->shape, b->ndim, b->shape, &nd, shape)) return NULL;
  DType kt = dtype_compute(ct);
  Tensor *ca = tensor_to_dtype(a, kt);
  Tensor *cb = ca ? tensor_to_dtype(b, kt) : NULL;
  bool gives_bool = tensor_binary_gives_bool(op);
  Tensor *out = cb ? tensor_empty(gives_bool ? DT_BOOL : kt, nd, shape) : NULL;
  if (out && !binary_run(op, kt, out, ca, cb)) {
    tensor_release(out);
    out = NULL;
  }
  tensor_release(ca);
  tensor_release(cb);
  return gives_bool ? out : tensor_narrow_to(out, ct);
}

/* The shape both operands line up with without a TensorIter: a's when b is
 * a single element or has a's shape, b's when a is a single element; NULL
 * when they need real broadcasting. */
static const Tensor *flat_result_shape(const Tensor *a, const Tensor *b) {
  if (b->numel == 1 && b->ndim <= a->ndim) return a;
  if (a->numel == 1 && a->ndim <= b->ndim) return b;
  if (a->ndim != b->ndim || memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof(int64_t)))
    return NULL;
  return a;
}

/* Float operands of one dtype that line up element for element (every op of
 * a scalar autograd graph, most of a small MLP's): no conversion, no checks
 * that cannot fail, no TensorIter. NULL when the shortcut does not apply. */
static Tensor *binary_flat(BinaryOp op, const Tensor *a, const Tensor *b) {
  DType dt = a->dtype;
  if (b->dtype != dt || !native_float(dt) || tensor_binary_gives_bool(op)) return NULL;
  const Tensor *like = flat_result_shape(a, b);
  if (!like || like->numel > ITER_CHUNK || !tensor_is_contiguous(a) || !tensor_is_contiguous(b))
    return NULL;
  Tensor *out = tensor_empty(dt, like->ndim, like->shape);
  if (!out) return NULL;
  int64_t esize = (int64_t)dtype_size(dt); /* a single element is broadcast: stride 0 */
  char *ptr[3] = {tensor_data(out), tensor_data(a), tensor_data(b)};
  int64_t stride[3] = {esize, a->numel == 1 ? 0 : esize, b->numel == 1 ? 0 : esize};
  if (out->numel > 0) binary_kernels[op][dt](out->numel, ptr, stride, NULL);
  return out;
}

/* x op y for the four arithmetic ops, rounded as their kernels round them. */
#define SINGLE_ARITH(op, x, y)                                                               \
  ((op) == BIN_ADD ? (x) + (y) : (op) == BIN_SUB ? (x) - (y) : (op) == BIN_MUL ? (x) * (y) : (x) / (y))

/* One element of a float dtype, under + - * /, with one element of the same
 * dtype or a number: every op of a scalar autograd graph and of its
 * backward, and a scalar accumulator's += and *= 2. The arithmetic inline,
 * without the kernel table, strides or contiguity checks (a single element
 * has none). */
static bool single_applies(BinaryOp op, const Tensor *a) {
  return (op == BIN_ADD || op == BIN_SUB || op == BIN_MUL || op == BIN_DIV) && a->numel == 1 &&
         native_float(a->dtype);
}

static bool single_pair(BinaryOp op, const Tensor *a, const Tensor *b) {
  return single_applies(op, a) && b->numel == 1 && b->dtype == a->dtype;
}

/* out's element = a's op *y, *y in a's dtype (out may be a); inline: a call
 * costs as much as the op. */
static inline __attribute__((always_inline)) void single_run(BinaryOp op, Tensor *out,
                                                             const Tensor *a, const void *y) {
  if (a->dtype == DT_FLOAT32) {
    float x = *(const float *)tensor_data(a), yv = *(const float *)y;
    *(float *)tensor_data(out) = SINGLE_ARITH(op, x, yv);
  } else {
    double x = *(const double *)tensor_data(a), yv = *(const double *)y;
    *(double *)tensor_data(out) = SINGLE_ARITH(op, x, yv);
  }
}

/* The number s as an element of float dtype dt (in *sf for float32). */
static const void *native_scalar(DType dt, const double *s, float *sf) {
  *sf = (float)*s;
  return dt == DT_FLOAT32 ? (const void *)sf : (const void *)s;
}

/* a op b by the shortcut above; NULL when it does not apply. Always inline:
 * tensor_binary is then this path and a tail call. */
static inline __attribute__((always_inline)) Tensor *binary_single(BinaryOp op, const Tensor *a, const Tensor *b) {
  if (!single_pair(op, a, b)) return NULL;
  const Tensor *like = a->ndim >= b->ndim ? a : b;
  Tensor *out = tensor_empty(a->dtype, like->ndim, like->shape);
  if (out) single_run(op, out, a, tensor_data(b));
  return out;
}

/* Everything binary_single does not take. Out of line, so that the
 * one-element path (a scalar graph's every op) saves no registers. */
__attribute__((noinline)) static Tensor *binary_general(BinaryOp op, const Tensor *a,
                                                       const Tensor *b) {
  Tensor *out = binary_flat(op, a, b);
  return out ? out : binary_compute(op, a, b, tensor_result_type(a, b), false);
}

Tensor *tensor_binary(BinaryOp op, const Tensor *a, const Tensor *b) {
  Tensor *out = binary_single(op, a, b);
  return out ? out : binary_general(op, a, b);
}

/* The elements of t's innermost dims that lie one after another in memory:
 * the run TensorIterator hands its loop once it has merged those dims
 * (all of t when contiguous; 1 when the last dim is strided). */
static int64_t contiguous_run(const Tensor *t) {
  int64_t run = 1;
  for (int d = t->ndim - 1; d >= 0; d--) {
    if (t->shape[d] != 1 && t->stride[d] != run) break;
    run *= t->shape[d];
  }
  return run;
}

/* a ** s for float a and an exponent pow_special does not take: run by run
 * as ATen's kernel (tensor_pow_run_f32); x ** 0 is 1 and x ** 1 a copy, as
 * PyTorch's pow_out decides before any kernel. */
static Tensor *pow_float_scalar(const Tensor *a, double s) {
  if (s == 0) return tensor_full(a->dtype, a->ndim, a->shape, 1);
  if (s == 1) return tensor_clone(a);
  int64_t run = contiguous_run(a);
  Tensor *c = tensor_contiguous(a);
  Tensor *out = c ? tensor_empty(a->dtype, a->ndim, a->shape) : NULL;
  if (out != NULL && run > 0) {
    for (int64_t start = 0; start < a->numel; start += run) {
      if (a->dtype == DT_FLOAT32)
        tensor_pow_run_f32(run, (const float *)tensor_data(c) + start, s, (float *)tensor_data(out) + start);
      else
        tensor_pow_run_f64(run, (const double *)tensor_data(c) + start, s, (double *)tensor_data(out) + start);
    }
  }
  tensor_release(c);
  return out;
}

/* Float powers PyTorch computes without pow(): x*x, x*x*x, sqrt(x), 1/x, 1/sqrt(x), 1/(x*x). */
static Tensor *pow_special(const Tensor *a, double s) {
  if (s == 2) return tensor_binary(BIN_MUL, a, a);
  if (s == 0.5) return tensor_unary(UN_SQRT, a);
  if (s == -1) return tensor_scalar_binary(BIN_DIV, 1, a);
  if (s == -0.5) { /* rsqrt: 1 / sqrt(x) */
    Tensor *r = tensor_unary(UN_SQRT, a);
    Tensor *out = r ? tensor_scalar_binary(BIN_DIV, 1, r) : NULL;
    tensor_release(r);
    return out;
  }
  if (s == -2) { /* 1 / (x * x) */
    Tensor *sq = tensor_binary(BIN_MUL, a, a);
    Tensor *out = sq ? tensor_scalar_binary(BIN_DIV, 1, sq) : NULL;
    tensor_release(sq);
    return out;
  }
  if (s == 3) {
    Tensor *sq = tensor_binary(BIN_MUL, a, a);
    Tensor *cube = sq ? tensor_binary(BIN_MUL, sq, a) : NULL;
    tensor_release(sq);
    return cube;
  }
  return NULL;
}

/* a op s (s op a when scalar_first) for a small contiguous float a: s keeps
 * a's dtype, so the kernel reads it from the stack as a broadcast operand,
 * with no 0-d tensor and no TensorIter. NULL when the shortcut does not apply. */
static Tensor *binary_scalar_flat(BinaryOp op, const Tensor *a, double s, bool scalar_first) {
  if (!native_float(a->dtype) || a->numel > ITER_CHUNK || !tensor_is_contiguous(a)) return NULL;
  Tensor *out = tensor_empty(tensor_binary_gives_bool(op) ? DT_BOOL : a->dtype, a->ndim, a->shape);
  if (!out) return NULL;
  float sf;
  char *sp = (char *)native_scalar(a->dtype, &s, &sf);
  if (!scalar_first && single_applies(op, a)) {
    single_run(op, out, a, sp);
    return out;
  }
  int64_t esize = (int64_t)dtype_size(a->dtype);
  char *ptr[3] = {tensor_data(out), scalar_first ? sp : tensor_data(a),
                  scalar_first ? tensor_data(a) : sp};
  int64_t stride[3] = {(int64_t)dtype_size(out->dtype), scalar_first ? 0 : esize,
                       scalar_first ? esize : 0};
  if (out->numel > 0) binary_kernels[op][a->dtype](out->numel, ptr, stride, NULL);
  return out;
}

/* The dtype a number operand is cast to: the dtype op computes in (PyTorch's
 * common dtype): uint8 // -1 divides by 255, uint8 / -1 by -1.0. */
static DType scalar_dtype(BinaryOp op, DType promoted) {
  if (tensor_binary_results[op] == RESULT_TO_FLOAT && !dtype_is_float(promoted)) return DT_FLOAT32;
  return promoted;
}

Tensor *tensor_binary_scalar(BinaryOp op, const Tensor *a, double s) {
  if (op == BIN_POW && dtype_is_float(a->dtype)) {
    if (s == 2 || s == 0.5 || s == -1 || s == 3 || s == -0.5 || s == -2) return pow_special(a, s);
    if (a->dtype == DT_FLOAT32 || a->dtype == DT_FLOAT64) return pow_float_scalar(a, s);
  }
  Tensor *flat = binary_scalar_flat(op, a, s, false);
  if (flat) return flat;
  DType promoted = tensor_scalar_result_type(a->dtype, s);
  if (op == BIN_POW && s < 0 && !dtype_is_float(promoted)) {
    tensor_set_error("Integers to negative integer powers are not allowed.");
    return NULL;
  }
  Tensor *st = tensor_scalar(scalar_dtype(op, promoted), s);
  if (!st) return NULL;
  Tensor *out = binary_compute(op, a, st, promoted, true);
  tensor_release(st);
  return out;
}

Tensor *tensor_scalar_binary(BinaryOp op, double s, const Tensor *a) {
  Tensor *flat = binary_scalar_flat(op, a, s, true);
  if (flat) return flat;
  DType promoted = tensor_scalar_result_type(a->dtype, s);
  Tensor *st = tensor_scalar(scalar_dtype(op, promoted), s);
  if (!st) return NULL;
  Tensor *out = binary_compute(op, st, a, promoted, true);
  tensor_release(st);
  return out;
}

static bool check_cast_to(DType result, DType out) {
  if (tensor_can_cast(result, out)) return true;
  tensor_set_error("result type %s can't be cast to the desired output type %s",
                   tensor_dtype_torch_name(result), tensor_dtype_torch_name(out));
  return false;
}

/* Writes `result` (same shape as a) into a. */
static bool store_result_(Tensor *a, Tensor *result) {
  bool ok = result && tensor_copy_raw(a, result);
  tensor_release(result);
  return ok;
}

bool tensor_binary_(BinaryOp op, Tensor *a, const Tensor *b) {
  if (single_pair(op, a, b) && b->ndim <= a->ndim) { /* nothing to check: b fits a */
    tensor_bump_version(a);
    single_run(op, a, a, tensor_data(b));
    return true;
  }
  DType ct;
  DType promoted = tensor_result_type(a, b);
  if (!tensor_check_broadcasts_to(b, a) || !tensor_check_writable(a)) return false;
  if (!binary_compute_dtype(op, promoted, a->dtype, b->dtype, b->ndim == 0, &ct)) return false;
  if (!binary_has_kernel(op, ct)) return false;
  if (!check_cast_to(tensor_binary_gives_bool(op) ? DT_BOOL : ct, a->dtype)) return false;
  tensor_bump_version(a);
  if (ct != a->dtype || !dtype_is_native(ct) || tensor_binary_gives_bool(op))
    return store_result_(a, tensor_binary(op, a, b));
  Tensor *cb = tensor_to_dtype(b, ct);
  Tensor *ub = cb ? tensor_unaliased_input(a, cb) : NULL;
  bool ok = ub && binary_run(op, ct, a, a, ub);
  tensor_release(cb);
  tensor_release(ub);
  return ok;
}

bool tensor_binary_scalar_(BinaryOp op, Tensor *a, double s) {
  if (single_applies(op, a)) { /* a float a keeps its dtype: s is rounded to it */
    float sf;
    tensor_bump_version(a);
    single_run(op, a, a, native_scalar(a->dtype, &s, &sf));
    return true;
  }
  DType promoted = tensor_scalar_result_type(a->dtype, s);
  Tensor *st = tensor_scalar(promoted, s);
  if (!st) return false;
  bool ok = tensor_binary_(op, a, st);
  tensor_release(st);
  return ok;
}

/* ---- unary kernels ---- */

#define DEFINE_UN(name, T, OT, EXPR)                                                         \
  static void name(int64_t n, char *const *p, const int64_t *s, const void *ctx) {          \
    (void)ctx;                                                                               \
    if (s[0] == sizeof(OT) && s[1] == sizeof(T)) {                                           \
      OT *o = (OT *)p[0];                                                                    \
      const T *a = (const T *)p[1];                                                          \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T x = a[i];                                                                          \
        o[i] = (EXPR);                                                                       \
      }                                                                                      \
    } else {                                                                                 \
      for (int64_t i = 0; i < n; i++) {                                                      \
        T x = *(const T *)(p[1] + i * s[1]);                                                 \
        *(OT *)(p[0] + i * s[0]) = (EXPR);                                                   \
      }                                                                                      \
    }                                                                                        \
  }

#define DEFINE_UN_FLOAT(op, EXPR_F, EXPR_D)                                                  \
  DEFINE_UN(op##_f, float, float, EXPR_F)                                                    \
  DEFINE_UN(op##_d, double, double, EXPR_D)

DEFINE_UN_FLOAT(neg, -x, -x)
DEFINE_UN(neg_i, int64_t, int64_t, WRAP(-, 0, x))
DEFINE_UN_FLOAT(abs, fabsf(x), fabs(x))
DEFINE_UN(abs_i, int64_t, int64_t, x < 0 ? WRAP(-, 0, x) : x)
DEFINE_UN_FLOAT(sqrt, sqrtf(x), sqrt(x))
/* The rows whose kernels are VML(f): exp, log, sin, ..., sigmoid. PyTorch's
 * own (SLEEF's) values, run by run as ATen's loops compute them, see
 * transcend.c (gelu too, below, with oneDNN's kernel besides). */
enum {
#define UNARY_BY_NAME(C, e, name, ...) UNARY_OP_##name = UN_##e,
  AG_UNARY_REGISTRY(UNARY_BY_NAME, 0)
#undef UNARY_BY_NAME
};
#define DEFINE_UN_VML(op)                                                                    \
  static void op##_f(int64_t n, char *const *p, const int64_t *s, const void *ctx) {        \
    (void)ctx;                                                                               \
    tensor_vecmath_f32((UnaryOp)UNARY_OP_##op, n, p[1], s[1], p[0], s[0]);                            \
  }                                                                                          \
  static void op##_d(int64_t n, char *const *p, const int64_t *s, const void *ctx) {        \
    (void)ctx;                                                                               \
    tensor_vecmath_f64((UnaryOp)UNARY_OP_##op, n, p[1], s[1], p[0], s[0]);                            \
  }
#define VML_DEFINE_VML(op) DEFINE_UN_VML(op)
#define VML_DEFINE_FLOAT2(op)
#define VML_DEFINE_INT_FLOAT(op)
#define VML_DEFINE_SAME_FOR_INT(op)
#define VML_DEFINE_ALL4(op)
#define VML_DEFINE_KERNELS(b, i, f, d)
#define UNARY_VML_KERNELS(C, e, name, kernels, ...) VML_DEFINE_##kernels
AG_UNARY_REGISTRY(UNARY_VML_KERNELS, 0)
#undef UNARY_VML_KERNELS
/* unary_run's context for a contiguous tensor of more than one element:
 * PyTorch gives float32 gelu of such a tensor to oneDNN */
static const int unary_dense_tensor = 1;
static void gelu_f(int64_t n, char *const *p, const int64_t *s, const void *ctx) {
  if (ctx == &unary_dense_tensor)
    tensor_gelu_dense_f32(n, (const float *)p[1], (float *)p[0]);
  else
    tensor_vecmath_f32(UN_GELU, n, p[1], s[1], p[0], s[0]);
}
DEFINE_UN_FLOAT(relu, x > 0 ? x : (x != x ? x : 0.0f), x > 0 ? x : (x != x ? x : 0.0))
DEFINE_UN(relu_i, int64_t, int64_t, x > 0 ? x : 0)
static void gelu_d(int64_t n, char *const *p, const int64_t *s, const void *ctx) {
  (void)ctx;
  tensor_vecmath_f64(UN_GELU, n, p[1], s[1], p[0], s[0]);
}
DEFINE_UN_FLOAT(sign, (float)((x > 0) - (x < 0)), (double)((x > 0) - (x < 0)))
DEFINE_UN(sign_i, int64_t, int64_t, (x > 0) - (x < 0))
DEFINE_UN_FLOAT(floor, floorf(x), floor(x))
DEFINE_UN_FLOAT(ceil, ceilf(x), ceil(x))
DEFINE_UN_FLOAT(round, rintf(x), rint(x))
DEFINE_UN(copy_b, uint8_t, uint8_t, x)
DEFINE_UN(copy_i, int64_t, int64_t, x)
DEFINE_UN(lnot_b, uint8_t, uint8_t, !x)
DEFINE_UN(lnot_i, int64_t, uint8_t, x == 0)
DEFINE_UN(lnot_f, float, uint8_t, x == 0)
DEFINE_UN(lnot_d, double, uint8_t, x == 0)
/* isnan, isinf, isfinite: bool and int64 elements are always finite */
DEFINE_UN(false_b, uint8_t, uint8_t, ((void)x, 0))
DEFINE_UN(false_i, int64_t, uint8_t, ((void)x, 0))
DEFINE_UN(true_b, uint8_t, uint8_t, ((void)x, 1))
DEFINE_UN(true_i, int64_t, uint8_t, ((void)x, 1))
DEFINE_UN(isnan_f, float, uint8_t, isnan(x) != 0)
DEFINE_UN(isnan_d, double, uint8_t, isnan(x) != 0)
DEFINE_UN(isinf_f, float, uint8_t, isinf(x) != 0)
DEFINE_UN(isinf_d, double, uint8_t, isinf(x) != 0)
DEFINE_UN(isfinite_f, float, uint8_t, isfinite(x) != 0)
DEFINE_UN(isfinite_d, double, uint8_t, isfinite(x) != 0)

#define KERNELS(b, i, f, d) {b, i, f, d}
#define INT_FLOAT(op) {NULL, op##_i, op##_f, op##_d}
#define SAME_FOR_INT(op) {copy_b, copy_i, op##_f, op##_d}
#define VML(op) FLOAT2(op)
static const IterInner unary_kernels[UN_COUNT][DT_COUNT] = {
#define UNARY_KERNELS(C, e, name, kernels, ...) [UN_##e] = kernels,
    AG_UNARY_REGISTRY(UNARY_KERNELS, 0)
#undef UNARY_KERNELS
};

/* The dtype a unary op computes in: floating functions turn integers into float32. */
static bool unary_compute_dtype(UnaryOp op, DType in, DType *ct) {
  if (op == UN_NEG && in == DT_BOOL) {
    tensor_set_error("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                     "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    return false;
  }
  /* PyTorch has no kernel for these on bool (gelu: on any integer) */
  if (in == DT_BOOL && (op == UN_ABS || op == UN_FLOOR || op == UN_CEIL || op == UN_ROUND)) {
    tensor_set_error("\"%s\" not implemented for 'Bool'", op == UN_ABS     ? "abs_cpu"
                                                         : op == UN_FLOOR ? "floor_vml_cpu"
                                                         : op == UN_CEIL  ? "ceil_vml_cpu"
                                                                          : "round_vml_cpu");
    return false;
  }
  if (in == DT_BOOL && op == UN_RELU) {
    tensor_set_error("Boolean inputs not supported for relu");
    return false;
  }
  if (op == UN_GELU && !dtype_is_float(in)) {
    tensor_set_error("\"GeluKernelImpl\" not implemented for '%s'", tensor_dtype_torch_name(in));
    return false;
  }
  /* a dtype without loops of its own computes in its compute dtype's */
  *ct = unary_kernels[op][dtype_compute(in)] ? in : DT_FLOAT32;
  return true;
}

/* Ops whose values depend on how ATen cuts the iteration into rows: SLEEF's
 * trig functions reduce a whole vector one way or another, cpu_kernel_vec
 * leaves each row's last elements to the scalar formula. */
static bool unary_rows_matter(UnaryOp op, DType ct) {
  return (ct == DT_FLOAT32 || ct == DT_FLOAT64) &&
         (op == UN_SIN || op == UN_COS || op == UN_TAN || op == UN_SIGMOID || op == UN_GELU);
}

/* The rows of a unary op over a non-contiguous tensor, and the blocks of
 * rows the workers take. */
typedef struct {
  IterInner fn;
  int nouter;                         /* outer dims, innermost first */
  int64_t len, rows;                  /* rows of len elements */
  int64_t shape[TENSOR_MAX_DIMS];     /* [0] inner, then the outer dims */
  int64_t stride[2][TENSOR_MAX_DIMS]; /* bytes: output, input */
  char *base[2];
  int64_t rows_per_block, blocks_per_row;
  atomic_bool interrupted;
} AtenRows;

static void aten_rows_block(int64_t b, void *arg) {
  AtenRows *r = arg;
  if (tensor_interrupt_requested) {
    atomic_store(&r->interrupted, true);
    return;
  }
  /* a block is whole rows, or a piece of one long row cut at a multiple of
   * ITER_CHUNK (so at a vector boundary) */
  int64_t first = b / r->blocks_per_row * r->rows_per_block,
          start = b % r->blocks_per_row * ITER_CHUNK;
  int64_t last = first + r->rows_per_block < r->rows ? first + r->rows_per_block : r->rows;
  int64_t n = r->len - start < ITER_CHUNK || r->blocks_per_row == 1 ? r->len - start : ITER_CHUNK;
  for (int64_t row = first; row < last; row++) {
    char *ptr[2] = {r->base[0], r->base[1]};
    int64_t rem = row;
    for (int d = 1; d <= r->nouter; d++) {
      int64_t c = rem % r->shape[d];
      rem /= r->shape[d];
      for (int k = 0; k < 2; k++) ptr[k] += c * r->stride[k][d];
    }
    for (int k = 0; k < 2; k++) ptr[k] += start * r->stride[k][0];
    int64_t inner[2] = {r->stride[0][0], r->stride[1][0]};
    r->fn(n, ptr, inner, NULL);
  }
}

/* Runs fn over a non-contiguous a in the rows ATen's TensorIterator makes:
 * dimensions sorted by the input's strides (reorder_dimensions: insertion
 * sort, a stride of 0 never moves, equal strides put the smaller size
 * inside), the output allocated in that order, then merged where both are
 * contiguous; each row goes to the kernel whole. Computed into a buffer laid
 * out like ATen's output, then copied to out (or in place when out is a). */
static bool unary_run_aten(IterInner fn, Tensor *out, const Tensor *a) {
  int nd = a->ndim, perm[TENSOR_MAX_DIMS]; /* perm[0] innermost */
  for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
  for (int i = 1; i < nd; i++) {
    for (int d0 = i - 1, d1 = i; d0 >= 0; d0--) {
      int64_t s0 = a->stride[perm[d0]], s1 = a->stride[perm[d1]];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) break;
      if (s0 == s1 && a->shape[perm[d0]] <= a->shape[perm[d1]]) continue;
      int t = perm[d0];
      perm[d0] = perm[d1];
      perm[d1] = t;
      d1 = d0;
    }
  }
  int64_t esize = (int64_t)dtype_size(a->dtype), bstride[TENSOR_MAX_DIMS], bshape[TENSOR_MAX_DIMS];
  Tensor *buf = NULL;
  if (out != a) { /* the output ATen would allocate: contiguous in perm order */
    int64_t st = 1;
    for (int k = 0; k < nd; k++) {
      bstride[perm[k]] = st;
      bshape[nd - 1 - k] = a->shape[perm[k]];
      st *= a->shape[perm[k]];
    }
    buf = tensor_empty(a->dtype, nd, bshape);
    if (!buf) return false;
  }
  AtenRows r = {.fn = fn, .len = 1, .rows_per_block = 1, .blocks_per_row = 1};
  atomic_init(&r.interrupted, false);
  r.base[0] = buf ? tensor_data(buf) : tensor_data(out);
  r.base[1] = tensor_data(a);
  int m = 0;
  for (int k = 0; k < nd; k++) {
    int d = perm[k];
    if (a->shape[d] == 1) continue;
    int64_t so = (buf ? bstride[d] : a->stride[d]) * esize, si = a->stride[d] * esize;
    if (m > 0 && r.stride[0][m - 1] * r.shape[m - 1] == so &&
        r.stride[1][m - 1] * r.shape[m - 1] == si) {
      r.shape[m - 1] *= a->shape[d];
      continue;
    }
    r.shape[m] = a->shape[d];
    r.stride[0][m] = so;
    r.stride[1][m] = si;
    m++;
  }
  if (m == 0) r.shape[m++] = 1;
  r.len = r.shape[0];
  r.nouter = m - 1;
  r.rows = a->numel / r.len;
  if (r.len > ITER_CHUNK)
    r.blocks_per_row = (r.len + ITER_CHUNK - 1) / ITER_CHUNK;
  else
    r.rows_per_block = ITER_CHUNK / r.len;
  int64_t blocks = r.blocks_per_row > 1 ? r.rows * r.blocks_per_row
                                        : (r.rows + r.rows_per_block - 1) / r.rows_per_block;
  if (a->numel >= ITER_PARALLEL_MIN) {
    tensor_parallel_for(blocks, aten_rows_block, &r);
  } else {
    for (int64_t b = 0; b < blocks; b++) aten_rows_block(b, &r);
  }
  bool ok = !atomic_load(&r.interrupted);
  if (!ok) tensor_set_error("Interrupted");
  if (ok && buf) {
    Tensor *view = tensor_view_of(buf, nd, a->shape, bstride, 0);
    ok = view && tensor_copy_raw(out, view);
    tensor_release(view);
  }
  tensor_release(buf);
  return ok;
}

static bool unary_run(UnaryOp op, DType ct, Tensor *out, const Tensor *a) {
  bool dense = a->numel > 1 && tensor_is_contiguous(a) && tensor_is_contiguous(out);
  const void *ctx = dense ? &unary_dense_tensor : NULL;
  if (tensor_iter_run_flat(unary_kernels[op][ct], ctx, out, &a, 1)) return true;
  if (unary_rows_matter(op, ct) && a->numel > 0 && !tensor_is_contiguous(a))
    return unary_run_aten(unary_kernels[op][ct], out, a);
  TensorIter it;
  tensor_iter_init(&it, out->ndim, out->shape);
  tensor_iter_add(&it, out);
  tensor_iter_add(&it, a);
  return tensor_iter_run(&it, unary_kernels[op][ct], ctx);
}

Tensor *tensor_unary(UnaryOp op, const Tensor *a) {
  DType ct;
  if (!unary_compute_dtype(op, a->dtype, &ct)) return NULL;
  DType kt = dtype_compute(ct);
  Tensor *ca = tensor_to_dtype(a, kt);
  if (!ca) return NULL;
  bool gives_bool = tensor_unary_gives_bool(op);
  Tensor *out = tensor_empty(gives_bool ? DT_BOOL : kt, a->ndim, a->shape);
  if (out && !unary_run(op, kt, out, ca)) {
    tensor_release(out);
    out = NULL;
  }
  tensor_release(ca);
  return gives_bool ? out : tensor_narrow_to(out, ct);
}

bool tensor_unary_(UnaryOp op, Tensor *a) {
  DType ct;
  if (!unary_compute_dtype(op, a->dtype, &ct)) return false;
  DType od = tensor_unary_gives_bool(op) ? DT_BOOL : ct;
  if (!check_cast_to(od, a->dtype) || !tensor_check_writable(a)) return false;
  tensor_bump_version(a);
  if (od != a->dtype || !dtype_is_native(od)) return store_result_(a, tensor_unary(op, a));
  return unary_run(op, ct, a, a);
}

/* ---- clamp ---- */

typedef struct {
  double lo, hi;
} ClampBounds;

#define DEFINE_CLAMP(name, T, LO_MISSING, HI_MISSING)                                       \
  static void name(int64_t n, char *const *p, const int64_t *s, const void *ctx) {          \
    const ClampBounds *cb = ctx;                                                             \
    T lo = isnan(cb->lo) ? (LO_MISSING) : (T)cb->lo;                                         \
    T hi = isnan(cb->hi) ? (HI_MISSING) : (T)cb->hi;                                         \
    for (int64_t i = 0; i < n; i++) {                                                        \
      T x = *(const T *)(p[1] + i * s[1]);                                                   \
      if (x < lo) x = lo;                                                                    \
      if (x > hi) x = hi;                                                                    \
      *(T *)(p[0] + i * s[0]) = x;                                                           \
    }                                                                                        \
  }
DEFINE_CLAMP(clamp_i, int64_t, INT64_MIN, INT64_MAX)
DEFINE_CLAMP(clamp_f, float, -INFINITY, INFINITY)
DEFINE_CLAMP(clamp_d, double, -INFINITY, INFINITY)
static const IterInner clamp_kernels[DT_COUNT] = {NULL, clamp_i, clamp_f, clamp_d};

static bool clamp_dtype(DType in, double lo, double hi, DType *ct) {
  if (isnan(lo) && isnan(hi)) {
    tensor_set_error("torch.clamp: At least one of 'min' or 'max' must not be None");
    return false;
  }
  *ct = in;
  if (!isnan(lo)) *ct = tensor_scalar_result_type(*ct, lo);
  if (!isnan(hi)) *ct = tensor_scalar_result_type(*ct, hi);
  if (*ct == DT_BOOL) { /* a bool tensor with numbers computes in int64 or float */
    tensor_set_error("\"%s\" not implemented for 'Bool'", isnan(hi)   ? "clamp_min_cpu"
                                                         : isnan(lo) ? "clamp_max_cpu"
                                                                     : "clamp_cpu");
    return false;
  }
  return true;
}

static bool clamp_run(Tensor *out, const Tensor *a, double lo, double hi) {
  ClampBounds cb = {lo, hi};
  TensorIter it;
  tensor_iter_init(&it, out->ndim, out->shape);
  tensor_iter_add(&it, out);
  tensor_iter_add(&it, a);
  return tensor_iter_run(&it, clamp_kernels[out->dtype], &cb);
}

Tensor *tensor_clamp(const Tensor *a, double lo, double hi) {
  DType ct;
  if (!clamp_dtype(a->dtype, lo, hi, &ct)) return NULL;
  DType kt = dtype_compute(ct);
  Tensor *ca = tensor_to_dtype(a, kt);
  Tensor *out = ca ? tensor_empty(kt, a->ndim, a->shape) : NULL;
  if (out && !clamp_run(out, ca, lo, hi)) {
    tensor_release(out);
    out = NULL;
  }
  tensor_release(ca);
  return tensor_narrow_to(out, ct);
}

bool tensor_clamp_(Tensor *a, double lo, double hi) {
  DType ct;
  if (!clamp_dtype(a->dtype, lo, hi, &ct)) return false;
  if (!check_cast_to(ct, a->dtype) || !tensor_check_writable(a)) return false;
  tensor_bump_version(a);
  if (ct != a->dtype || !dtype_is_native(ct)) return store_result_(a, tensor_clamp(a, lo, hi));
  return clamp_run(a, a, lo, hi);
}

/* ---- where ---- */

#define DEFINE_WHERE(name, T)                                                                \
  static void name(int64_t n, char *const *p, const int64_t *s, const void *ctx) {          \
    (void)ctx;                                                                               \
    for (int64_t i = 0; i < n; i++) {                                                        \
      bool c = *(const uint8_t *)(p[1] + i * s[1]);                                          \
      *(T *)(p[0] + i * s[0]) = *(const T *)(p[c ? 2 : 3] + i * s[c ? 2 : 3]);               \
    }                                                                                        \
  }
DEFINE_WHERE(where_1, uint8_t)
DEFINE_WHERE(where_2, uint16_t)
DEFINE_WHERE(where_4, uint32_t)
DEFINE_WHERE(where_8, uint64_t)

Tensor *tensor_where(const Tensor *cond, const Tensor *a, const Tensor *b) {
  if (cond->dtype == DT_UINT8) { /* PyTorch 1.13 still takes it (deprecated), as bool */
    Tensor *mask = tensor_to_dtype(cond, DT_BOOL);
    Tensor *out = mask ? tensor_where(mask, a, b) : NULL;
    tensor_release(mask);
    return out;
  }
  if (cond->dtype != DT_BOOL) {
    tensor_set_error("where expected condition to be a boolean tensor, but got a tensor with "
                     "dtype %s",
                     tensor_dtype_torch_name(cond->dtype));
    return NULL;
  }
  int nd, nd2;
  int64_t shape[TENSOR_MAX_DIMS], shape2[TENSOR_MAX_DIMS];
  if (!tensor_broadcast_shape(cond->ndim, cond->shape, a->ndim, a->shape, &nd, shape) ||
      !tensor_broadcast_shape(nd, shape, b->ndim, b->shape, &nd2, shape2))
    return NULL;
  DType ct = tensor_result_type(a, b);
  Tensor *ca = tensor_to_dtype(a, ct);
  Tensor *cb = ca ? tensor_to_dtype(b, ct) : NULL;
  Tensor *out = cb ? tensor_empty(ct, nd2, shape2) : NULL;
  if (out) {
    TensorIter it;
    tensor_iter_init(&it, nd2, shape2);
    tensor_iter_add(&it, out);
    tensor_iter_add(&it, cond);
    tensor_iter_add(&it, ca);
    tensor_iter_add(&it, cb);
    size_t es = dtype_size(ct);
    if (!tensor_iter_run(&it, es == 1 ? where_1 : es == 2 ? where_2 : es == 4 ? where_4 : where_8, NULL)) {
      tensor_release(out);
      out = NULL;
    }
  }
  tensor_release(ca);
  tensor_release(cb);
  return out;
}

IterInner tensor_binary_kernel(BinaryOp op, DType dt) { return binary_kernels[op][dt]; }

/* ---- relu's backward ---- */

/* ReluBackward0 as ATen's threshold_backward(g, y, 0): y <= 0 ? 0 : g, so a
 * NaN output passes its gradient. One pass instead of a comparison, a zeros
 * tensor and a where. */
#define DEFINE_RELU_BACKWARD(T)                                                              \
  static void relu_backward_##T(const T *restrict g, const T *restrict y, T *restrict out,    \
                                int64_t n) {                                                 \
    for (int64_t i = 0; i < n; i++) { /* g read either way: a select the compiler vectorises */ \
      T gi = g[i];                                                                           \
      out[i] = y[i] <= 0 ? 0 : gi;                                                           \
    }                                                                                        \
  }
DEFINE_RELU_BACKWARD(float)
DEFINE_RELU_BACKWARD(double)

Tensor *tensor_relu_backward(const Tensor *g, const Tensor *y) {
  if (g->dtype != y->dtype || !native_float(y->dtype) || g->ndim != y->ndim ||
      memcmp(g->shape, y->shape, (size_t)g->ndim * sizeof(int64_t)) != 0) {
    tensor_set_error("relu backward: gradient and output differ in shape or dtype");
    return NULL;
  }
  Tensor *cg = tensor_contiguous(g), *cy = cg ? tensor_contiguous(y) : NULL;
  Tensor *out = cy ? tensor_empty(y->dtype, y->ndim, y->shape) : NULL;
  if (out && y->dtype == DT_FLOAT32)
    relu_backward_float(tensor_data(cg), tensor_data(cy), tensor_data(out), out->numel);
  else if (out)
    relu_backward_double(tensor_data(cg), tensor_data(cy), tensor_data(out), out->numel);
  tensor_release(cg);
  tensor_release(cy);
  return out;
}
