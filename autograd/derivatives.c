/* derivatives.c — every derivative formula, one entry per node kind.
 *
 * A formula receives the gradient of each output of the forward op (g) and
 * writes the gradient of each input it is asked for (needs[i]). Formulas are
 * written with the differentiable ag_* ops: with grad mode off (a plain
 * backward) they are just tensor ops; during a create_graph backward they
 * record their own graph, which is how higher-order derivatives work. A
 * gradient may keep the broadcast shape of the forward: the engine sums it
 * back to the input's shape (the one un-broadcast helper) and casts dtypes.
 *
 * Temporaries live in a Scope that releases them at the end; the wrappers
 * below pass NULL through, so a formula is a straight line of math and a
 * failure anywhere shows up once at the end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"
#include "tensor/ag_assert.h"

#define SCOPE_CAP 64
typedef struct {
  Tensor *tmp[SCOPE_CAP];
  int n;
  bool failed;
} Scope;

/* Only the count is set: zeroing the 64 slots cost as much as a scalar
 * formula's arithmetic. */
static void scope_open(Scope *s) {
  s->n = 0;
  s->failed = false;
}
/* A backward with no graph to record and no tangent to carry may use
 * tensor/'s fused kernels (PyTorch's rounding). */
static bool plain_backward(void) { return !grad_enabled() && !fw_active(); }

static inline Tensor *keep(Scope *s, Tensor *t) {
  AG_ASSERT(!t || s->n < SCOPE_CAP); /* SCOPE_CAP is above every formula's temporaries */
  if (!t || s->n == SCOPE_CAP) {
    if (t) {
      tensor_release(t);
      tensor_set_error("internal error: derivative formula uses too many temporaries");
    }
    s->failed = true;
    return NULL;
  }
  return s->tmp[s->n++] = t;
}

static void scope_end(Scope *s) {
  for (int i = 0; i < s->n; i++)
    tensor_release(s->tmp[i]);
}

/* Hands the result to out[i] (a new reference) and closes the scope. */
static inline void give(Tensor **out, int i, Tensor *t) {
  tensor_release(out[i]);
  out[i] = tensor_retain(t);
}

/* A new reference (or NULL: failed) straight into out[i], for a path
 * without a scope: false when it failed. */
static inline bool put_new(Tensor **out, int i, Tensor *t) {
  tensor_release(out[i]);
  out[i] = t;
  return t != NULL;
}

/* Hands a new reference straight to out[i], outside the scope: a formula
 * that makes one result per input (cat, stack, ...) then needs no scope room
 * per input, so it works for any number of inputs. */
static void give_new(Scope *s, Tensor **out, int i, Tensor *t) {
  if (!put_new(out, i, t)) s->failed = true;
}

/* A failed formula hands out nothing. */
static bool drop_outs(GradNode *n, Tensor **out) {
  for (int i = 0; i < n->nnext; i++) {
    tensor_release(out[i]);
    out[i] = NULL;
  }
  return false;
}

static bool done(Scope *s, GradNode *n, Tensor **out) {
  scope_end(s);
  return s->failed ? drop_outs(n, out) : true;
}

/* ---- NULL-passing wrappers ---- */
static Tensor *bin(Scope *s, BinaryOp op, Tensor *a, Tensor *b) {
  if (!a || !b) return NULL;
  /* a plain backward records nothing and carries no tangent: straight to
   * the computation */
  return keep(s, !grad_enabled() && !fw_active() ? tensor_binary(op, a, b) : ag_binary(op, a, b));
}
static Tensor *add(Scope *s, Tensor *a, Tensor *b) { return bin(s, BIN_ADD, a, b); }
static Tensor *sub(Scope *s, Tensor *a, Tensor *b) { return bin(s, BIN_SUB, a, b); }
static Tensor *mul(Scope *s, Tensor *a, Tensor *b) { return bin(s, BIN_MUL, a, b); }
static Tensor *dv(Scope *s, Tensor *a, Tensor *b) { return bin(s, BIN_DIV, a, b); }
static Tensor *muls(Scope *s, Tensor *a, double k) {
  return a ? keep(s, ag_binary_scalar(BIN_MUL, a, k)) : NULL;
}
static Tensor *divs(Scope *s, Tensor *a, double k) {
  return a ? keep(s, ag_binary_scalar(BIN_DIV, a, k)) : NULL;
}
static Tensor *adds(Scope *s, Tensor *a, double k) {
  return a ? keep(s, ag_binary_scalar(BIN_ADD, a, k)) : NULL;
}
static Tensor *rsubs(Scope *s, double k, Tensor *a) { /* k - a */
  return a ? keep(s, ag_scalar_binary(BIN_SUB, k, a)) : NULL;
}
/* k / a as a true division (ATen's Scalar / Tensor: a tensor filled with k, divided) */
static Tensor *scalar_div(Scope *s, double k, Tensor *a) {
  Tensor *kt = a ? keep(s, tensor_scalar(a->dtype, k)) : NULL;
  return dv(s, kt, a);
}
static Tensor *powsc(Scope *s, Tensor *a, double k) {
  return a ? keep(s, ag_binary_scalar(BIN_POW, a, k)) : NULL;
}
static Tensor *un(Scope *s, UnaryOp op, Tensor *a) { return a ? keep(s, ag_unary(op, a)) : NULL; }
static Tensor *neg(Scope *s, Tensor *a) { return un(s, UN_NEG, a); }
static Tensor *where(Scope *s, Tensor *cond, Tensor *a, Tensor *b) {
  return cond && a && b ? keep(s, ag_where(cond, a, b)) : NULL;
}
/* A constant (no history) comparison mask, as a bool tensor. */
static Tensor *cmp(Scope *s, BinaryOp op, Tensor *a, Tensor *b) {
  return a && b ? keep(s, tensor_binary(op, a, b)) : NULL;
}
static Tensor *cmps(Scope *s, BinaryOp op, Tensor *a, double k) {
  return a ? keep(s, tensor_binary_scalar(op, a, k)) : NULL;
}
static Tensor *zero_like(Scope *s, const Tensor *g) {
  return g ? keep(s, tensor_scalar(g->dtype, 0.0)) : NULL;
}
static Tensor *zeros_of(Scope *s, const AgInfo *in, DType dt) {
  return keep(s, tensor_zeros(dt, in->ndim, info_shape(in)));
}
/* Saved value i, borrowed when node_peek has it (the engine releases saved
 * values only after the formula), else unpacked into the scope. */
static Tensor *saved(Scope *s, GradNode *n, int i) {
  Tensor *t = node_peek(n, i);
  return t ? t : keep(s, node_unpack_general(n, i));
}
static Tensor *expand_to(Scope *s, Tensor *a, const AgInfo *in) {
  return a ? keep(s, ag_expand(a, in->ndim, info_shape(in))) : NULL;
}
static Tensor *reshape_to(Scope *s, Tensor *a, const AgInfo *in) {
  return a ? keep(s, ag_reshape(a, in->ndim, info_shape(in))) : NULL;
}
static Tensor *sum_dim(Scope *s, Tensor *a, int dim, bool keepdim) {
  return a ? keep(s, ag_sum(a, &dim, 1, keepdim)) : NULL;
}

#define G (g[0])
#define IN (&n->in_info[0])

/* ---- jvp rules: the tangent of the output from the inputs' tangents ----
 * j_NAME beside d_NAME, PyTorch 1.13's "result:" formulas of
 * derivatives.yaml. A missing tangent is zero: its term is dropped (the
 * NULL-passing wrappers give NULL). */
#define JVP_ARGS GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out
#define X0 (in[0])
#define X1 (in[1])
#define T0 (t[0])
#define T1 (n->nnext > 1 ? t[1] : NULL)

/* a + b where either may be absent (zero) */
static Tensor *plus(Scope *s, Tensor *a, Tensor *b) { return !a ? b : !b ? a : add(s, a, b); }
static Tensor *minus(Scope *s, Tensor *a, Tensor *b) { return !b ? a : !a ? neg(s, b) : sub(s, a, b); }

/* The rule's result as a new reference, shaped as the output (a tangent
 * that broadcast is expanded); NULL when the scope failed. */
static Tensor *jvp_done(Scope *s, Tensor *r, const Tensor *out) {
  if (!s->failed && !r) r = keep(s, tensor_zeros(out->dtype, out->ndim, out->shape));
  if (!s->failed && r && (r->ndim != out->ndim ||
                          memcmp(r->shape, out->shape, (size_t)out->ndim * sizeof(int64_t))))
    r = keep(s, ag_expand(r, out->ndim, out->shape));
  Tensor *result = s->failed ? NULL : tensor_retain(r);
  scope_end(s);
  return result;
}

/* ---- arithmetic ---- */

/* other's gradient is grad * alpha when add_(other, alpha=) recorded one (i2, alpha in s1) */
static bool d_add(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  if (needs[0]) give(out, 0, G);
  if (n->nnext < 2 || !needs[1]) return true;
  if (!node_p(n)->i2) { /* grad itself: no temporaries, no scope */
    give(out, 1, G);
    return true;
  }
  Scope s;
  scope_open(&s);
  give(out, 1, muls(&s, G, node_p(n)->s1));
  return done(&s, n, out);
}
static Tensor *j_add(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *t1 = T1 && node_p(n)->i2 ? muls(&s, T1, node_p(n)->s1) : T1;
  return jvp_done(&s, plus(&s, T0, t1), out);
}

/* PyTorch 1.13's derivatives.yaml: addcmul tensor1: grad * (tensor2 * value), tensor2:
 * grad * (tensor1 * value); addcdiv tensor1: grad * (value / tensor2), tensor2:
 * -grad * (value * tensor1 / (tensor2 * tensor2)); self: grad (value in s0). */
static bool d_addcmul(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  double value = node_p(n)->s0;
  if (needs[0]) give(out, 0, G);
  if (needs[1]) give(out, 1, mul(&s, G, muls(&s, saved(&s, n, 1), value)));
  if (needs[2]) give(out, 2, mul(&s, G, muls(&s, saved(&s, n, 0), value)));
  return done(&s, n, out);
}

static bool d_addcdiv(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  double value = node_p(n)->s0;
  Tensor *t1 = saved(&s, n, 0), *t2 = saved(&s, n, 1);
  if (needs[0]) give(out, 0, G);
  if (needs[1]) give(out, 1, mul(&s, G, scalar_div(&s, value, t2)));
  if (needs[2]) give(out, 2, mul(&s, neg(&s, G), dv(&s, muls(&s, t1, value), mul(&s, t2, t2))));
  return done(&s, n, out);
}

/* lerp with a number weight w (s0): self grad * (1 - w), end grad * w; with a
 * tensor weight also weight: grad * (end - self). */
static bool d_lerp(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (n->kind == AG_NODE_LerpBackward0) {
    double w = node_p(n)->s0;
    if (needs[0]) give(out, 0, muls(&s, G, 1 - w));
    if (needs[1]) give(out, 1, muls(&s, G, w));
  } else {
    Tensor *w = saved(&s, n, 2);
    if (needs[0]) give(out, 0, mul(&s, G, rsubs(&s, 1, w)));
    if (needs[1]) give(out, 1, mul(&s, G, w));
    if (needs[2]) give(out, 2, mul(&s, G, sub(&s, saved(&s, n, 1), saved(&s, n, 0))));
  }
  return done(&s, n, out);
}

static bool d_sub(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (needs[0]) give(out, 0, G);
  if (n->nnext > 1 && needs[1]) give(out, 1, neg(&s, G));
  return done(&s, n, out);
}
static Tensor *j_sub(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, minus(&s, T0, T1), out);
}

static bool d_rsub(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, neg(&s, G));
  return done(&s, n, out);
}

/* A plain backward's g * (saved i) straight into out[k]: the tensor_binary
 * that bin() runs, without a scope's references (a scalar graph spends a
 * tenth of its instructions in MulBackward0). Always inline: as a call it
 * cost a third of d_mul's own instructions. */
static inline __attribute__((always_inline)) bool plain_mul_saved(GradNode *n, Tensor *g, int i,
                                                                 Tensor **out, int k) {
  Tensor *x = node_peek(n, i), *owned = NULL;
  if (!x && !(x = owned = node_unpack_general(n, i))) return false;
  bool ok = put_new(out, k, tensor_binary(BIN_MUL, g, x));
  tensor_release(owned);
  return ok;
}

/* Out of line: its scope's frame would slow the plain path down. */
__attribute__((noinline)) static bool d_mul_scoped(GradNode *n, Tensor *const *g, Tensor **out,
                                                  const bool *needs) {
  Scope s;
  scope_open(&s);
  if (needs[0]) give(out, 0, node_p(n)->flag ? muls(&s, G, node_p(n)->s0) : mul(&s, G, saved(&s, n, SAVED_OTHER)));
  if (n->nnext > 1 && needs[1]) give(out, 1, mul(&s, G, saved(&s, n, SAVED_SELF)));
  return done(&s, n, out);
}

static bool d_mul(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  if (!G || node_p(n)->flag || !plain_backward()) return d_mul_scoped(n, g, out, needs);
  bool ok = (!needs[0] || plain_mul_saved(n, G, SAVED_OTHER, out, 0)) &&
            (n->nnext < 2 || !needs[1] || plain_mul_saved(n, G, SAVED_SELF, out, 1));
  return ok || drop_outs(n, out);
}
static Tensor *j_mul(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  if (node_p(n)->flag) return jvp_done(&s, muls(&s, T0, node_p(n)->s0), out);
  return jvp_done(&s, plus(&s, mul(&s, T0, X1), mul(&s, X0, T1)), out);
}

static bool d_div(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  /* PyTorch's div_tensor_self_backward (grad / other) and
   * div_tensor_other_backward (-grad * ((self / other) / other)), same rounding */
  if (node_p(n)->flag) {
    give(out, 0, G ? keep(&s, ag_binary_scalar(BIN_DIV, G, node_p(n)->s0)) : NULL);
    return done(&s, n, out);
  }
  Tensor *b = saved(&s, n, SAVED_OTHER);
  if (needs[0]) give(out, 0, dv(&s, G, b));
  if (needs[1]) give(out, 1, mul(&s, neg(&s, G), dv(&s, dv(&s, saved(&s, n, SAVED_SELF), b), b)));
  return done(&s, n, out);
}
/* self_t / other - other_t * (self / other) / other */
static Tensor *j_div(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  if (node_p(n)->flag) return jvp_done(&s, T0 ? keep(&s, ag_binary_scalar(BIN_DIV, T0, node_p(n)->s0)) : NULL, out);
  return jvp_done(&s, minus(&s, dv(&s, T0, X1), mul(&s, T1, dv(&s, dv(&s, X0, X1), X1))), out);
}

static bool d_div_scalar(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, G ? keep(&s, ag_binary_scalar(BIN_DIV, G, node_p(n)->s0)) : NULL);
  return done(&s, n, out);
}

static bool d_reciprocal(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 0); /* the result */
  give(out, 0, neg(&s, mul(&s, G, mul(&s, r, r))));
  return done(&s, n, out);
}

/* x ** p for a number p: p * x^(p-1), zero for p == 0. */
static bool d_pow_scalar(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  double p = node_p(n)->s0;
  if (p == 0)
    give(out, 0, zeros_of(&s, IN, G->dtype));
  else
    give(out, 0, mul(&s, G, muls(&s, powsc(&s, saved(&s, n, SAVED_SELF), p - 1), p)));
  return done(&s, n, out);
}

static bool d_pow_tensor(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *a = saved(&s, n, SAVED_SELF), *b = saved(&s, n, SAVED_OTHER), *zero = zero_like(&s, G);
  if (needs[0]) {
    Tensor *full = mul(&s, G, mul(&s, b, bin(&s, BIN_POW, a, adds(&s, b, -1))));
    give(out, 0, where(&s, cmps(&s, BIN_EQ, b, 0), zero, full));
  }
  if (needs[1]) {
    Tensor *full = mul(&s, G, mul(&s, saved(&s, n, SAVED_RESULT), un(&s, UN_LOG, a)));
    Tensor *mask = cmp(&s, BIN_LOGICAL_AND, cmps(&s, BIN_EQ, a, 0), cmps(&s, BIN_GE, b, 0));
    give(out, 1, where(&s, mask, zero, full));
  }
  return done(&s, n, out);
}
static Tensor *j_pow_tensor(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *a = X0, *b = X1, *zero = zero_like(&s, out);
  Tensor *ts = T0 ? where(&s, cmps(&s, BIN_EQ, b, 0), zero,
                          mul(&s, T0, mul(&s, b, bin(&s, BIN_POW, a, adds(&s, b, -1)))))
                  : NULL;
  Tensor *mask = T1 ? cmp(&s, BIN_LOGICAL_AND, cmps(&s, BIN_EQ, a, 0), cmps(&s, BIN_GE, b, 0)) : NULL;
  Tensor *te = T1 ? where(&s, mask, zero, mul(&s, T1, mul(&s, out, un(&s, UN_LOG, a)))) : NULL;
  return jvp_done(&s, plus(&s, ts, te), out);
}

/* s ** x: result * log(s). */
static bool d_pow_base(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, muls(&s, mul(&s, G, saved(&s, n, 0)), log(node_p(n)->s0))); /* saved: the result */
  return done(&s, n, out);
}

static bool d_remainder(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (needs[0]) give(out, 0, G);
  if (n->nnext > 1 && needs[1]) {
    Tensor *q = un(&s, UN_FLOOR, dv(&s, saved(&s, n, SAVED_SELF), saved(&s, n, SAVED_OTHER)));
    give(out, 1, neg(&s, mul(&s, G, q)));
  }
  return done(&s, n, out);
}
/* self_t - other_t * floor(self / other) */
static Tensor *j_remainder(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *q = T1 ? un(&s, UN_FLOOR, dv(&s, X0, X1)) : NULL;
  return jvp_done(&s, minus(&s, T0, mul(&s, T1, q)), out);
}

/* Recorded where PyTorch records NotImplemented (remainder with a number
 * first): the graph shows the edge, backward fails with PyTorch's error. */
static bool d_not_implemented(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  tensor_set_error("derivative for aten::%s is not implemented", node_p(n)->aten);
  return false;
}

/* A node PyTorch names but whose backward is not implemented (unique). */
static bool d_no_derivative(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  tensor_set_error("the derivative for '%s' is not implemented.", node_p(n)->aten);
  return false;
}

/* maximum/minimum: the gradient goes to the winner, split evenly on ties. */
static bool d_extremum2(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs,
                        BinaryOp wins) {
  Scope s;
  scope_open(&s);
  Tensor *a = saved(&s, n, SAVED_SELF), *b = saved(&s, n, SAVED_OTHER), *zero = zero_like(&s, G);
  Tensor *tie = cmp(&s, BIN_EQ, a, b), *half = muls(&s, G, 0.5);
  if (needs[0]) give(out, 0, where(&s, tie, half, where(&s, cmp(&s, wins, a, b), G, zero)));
  if (needs[1]) give(out, 1, where(&s, tie, half, where(&s, cmp(&s, wins, b, a), G, zero)));
  return done(&s, n, out);
}
/* PyTorch's xlogy formulas: grad * xlogy(self != 0, other) and grad * self / other. */
static bool d_xlogy(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *a = saved(&s, n, SAVED_SELF), *b = saved(&s, n, SAVED_OTHER);
  if (needs[0]) {
    Tensor *nz = cmps(&s, BIN_NE, a, 0);
    Tensor *nzf = nz ? keep(&s, tensor_to_dtype(nz, b ? b->dtype : G->dtype)) : NULL;
    give(out, 0, mul(&s, G, bin(&s, BIN_XLOGY, nzf, b)));
  }
  if (n->nnext > 1 && needs[1]) give(out, 1, dv(&s, mul(&s, G, a), b));
  return done(&s, n, out);
}
/* self_t * xlogy(self != 0, other) + other_t * self / other */
static Tensor *j_xlogy(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *nz = T0 ? cmps(&s, BIN_NE, X0, 0) : NULL;
  Tensor *nzf = nz ? keep(&s, tensor_to_dtype(nz, out->dtype)) : NULL;
  Tensor *ts = mul(&s, T0, bin(&s, BIN_XLOGY, nzf, X1));
  return jvp_done(&s, plus(&s, ts, dv(&s, mul(&s, T1, X0), X1)), out);
}

/* PyTorch's logaddexp formulas: g / (1 + exp(other - self)) and
 * g / (1 + exp(self - other)). */
static bool d_logaddexp(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *a = saved(&s, n, SAVED_SELF), *b = saved(&s, n, SAVED_OTHER);
  if (needs[0]) give(out, 0, dv(&s, G, adds(&s, un(&s, UN_EXP, sub(&s, b, a)), 1)));
  if (n->nnext > 1 && needs[1]) give(out, 1, dv(&s, G, adds(&s, un(&s, UN_EXP, sub(&s, a, b)), 1)));
  return done(&s, n, out);
}
static Tensor *j_logaddexp(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *ta = T0 ? dv(&s, T0, adds(&s, un(&s, UN_EXP, sub(&s, X1, X0)), 1)) : NULL;
  Tensor *tb = T1 ? dv(&s, T1, adds(&s, un(&s, UN_EXP, sub(&s, X0, X1)), 1)) : NULL;
  return jvp_done(&s, plus(&s, ta, tb), out);
}

static bool d_maximum(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  return d_extremum2(n, g, out, needs, BIN_GT);
}
static bool d_minimum(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  return d_extremum2(n, g, out, needs, BIN_LT);
}
/* other_t + where(self == other, 0.5, self wins) * (self_t - other_t) */
static Tensor *j_extremum2(JVP_ARGS, BinaryOp wins) {
  Scope s;
  scope_open(&s);
  Tensor *w = cmp(&s, wins, X0, X1);
  Tensor *wf = w ? keep(&s, tensor_to_dtype(w, out->dtype)) : NULL;
  Tensor *share = where(&s, cmp(&s, BIN_EQ, X0, X1), keep(&s, tensor_scalar(out->dtype, 0.5)), wf);
  Tensor *t0 = T0 ? T0 : zero_like(&s, out), *t1 = T1 ? T1 : zero_like(&s, out);
  return jvp_done(&s, add(&s, t1, mul(&s, share, sub(&s, t0, t1))), out);
}
static Tensor *j_maximum(JVP_ARGS) { return j_extremum2(n, oi, in, t, out, BIN_GT); }
static Tensor *j_minimum(JVP_ARGS) { return j_extremum2(n, oi, in, t, out, BIN_LT); }

/* ---- unary ---- */

static bool d_neg(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, neg(&s, G));
  return done(&s, n, out);
}
static Tensor *j_neg(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, neg(&s, T0), out);
}

static bool d_abs(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, mul(&s, G, un(&s, UN_SIGN, saved(&s, n, 0))));
  return done(&s, n, out);
}
static Tensor *j_abs(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, mul(&s, T0, un(&s, UN_SIGN, X0)), out);
}

static bool d_sqrt(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, dv(&s, G, muls(&s, saved(&s, n, 0), 2)));
  return done(&s, n, out);
}
static Tensor *j_sqrt(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, dv(&s, T0, muls(&s, out, 2)), out);
}

static bool d_exp(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, mul(&s, G, saved(&s, n, 0)));
  return done(&s, n, out);
}
static Tensor *j_exp(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, mul(&s, T0, out), out);
}

static bool d_log(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, dv(&s, G, saved(&s, n, 0)));
  return done(&s, n, out);
}
static Tensor *j_log(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, dv(&s, T0, X0), out);
}

/* g / (x ln 10), g / (x ln 2): PyTorch's grad / (self * std::log(10.0)) */
static bool d_log10(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, dv(&s, G, muls(&s, saved(&s, n, 0), log(10.0))));
  return done(&s, n, out);
}
static Tensor *j_log10(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, dv(&s, T0, muls(&s, X0, 2.302585092994045684)), out);
}

static bool d_log2(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, dv(&s, G, muls(&s, saved(&s, n, 0), log(2.0))));
  return done(&s, n, out);
}
static Tensor *j_log2(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, dv(&s, T0, muls(&s, X0, 0.693147180559945309)), out);
}

static bool d_sin(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, mul(&s, G, un(&s, UN_COS, saved(&s, n, 0))));
  return done(&s, n, out);
}
static Tensor *j_sin(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, mul(&s, T0, un(&s, UN_COS, X0)), out);
}

static bool d_cos(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, neg(&s, mul(&s, G, un(&s, UN_SIN, saved(&s, n, 0)))));
  return done(&s, n, out);
}
static Tensor *j_cos(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, mul(&s, T0, neg(&s, un(&s, UN_SIN, X0))), out);
}

static bool d_tan(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 0);
  give(out, 0, mul(&s, G, adds(&s, mul(&s, r, r), 1)));
  return done(&s, n, out);
}
static Tensor *j_tan(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, mul(&s, T0, adds(&s, mul(&s, out, out), 1)), out);
}

/* tanh_backward's fused kernel (PyTorch's rounding) takes g and the result
 * when a plain backward has them of one dtype and shape. */
static bool fused_tanh_backward_applies(const Tensor *g, const Tensor *r) {
  return plain_backward() && g->dtype == r->dtype && g->ndim == r->ndim &&
         !memcmp(g->shape, r->shape, (size_t)g->ndim * sizeof(int64_t));
}

static bool d_tanh(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Tensor *peeked = G ? node_peek(n, 0) : NULL; /* borrowed: no scope needed */
  if (peeked && fused_tanh_backward_applies(G, peeked))
    return put_new(out, 0, tensor_tanh_backward(G, peeked)) || drop_outs(n, out);
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 0);
  if (r && fused_tanh_backward_applies(G, r))
    give(out, 0, keep(&s, tensor_tanh_backward(G, r)));
  else
    give(out, 0, mul(&s, G, rsubs(&s, 1, mul(&s, r, r))));
  return done(&s, n, out);
}
static Tensor *j_tanh(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, mul(&s, T0, rsubs(&s, 1, mul(&s, out, out))), out);
}

/* (g * (1 - y)) * y, in ATen's order */
static bool d_sigmoid(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 0);
  give(out, 0, mul(&s, mul(&s, G, rsubs(&s, 1, r)), r));
  return done(&s, n, out);
}
static Tensor *j_sigmoid(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, mul(&s, mul(&s, T0, rsubs(&s, 1, out)), out), out);
}

/* PyTorch's threshold_backward(g, result, 0): result <= 0 ? 0 : g (a NaN
 * result passes its gradient); one fused pass without a graph to record. */
static bool d_relu(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 0);
  if (r && plain_backward() && G->dtype == r->dtype && dtype_is_native(r->dtype) &&
      dtype_is_float(r->dtype) && G->ndim == r->ndim &&
      !memcmp(G->shape, r->shape, (size_t)G->ndim * sizeof(int64_t)))
    give(out, 0, keep(&s, tensor_relu_backward(G, r)));
  else
    give(out, 0, where(&s, cmps(&s, BIN_LE, r, 0), zero_like(&s, G), G));
  return done(&s, n, out);
}
static Tensor *j_relu(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, where(&s, cmps(&s, BIN_LE, out, 0), zero_like(&s, T0), T0), out);
}

/* The standard normal density exp(-x^2/2) / sqrt(2 pi). */
static Tensor *normal_pdf(Scope *s, Tensor *x) {
  return muls(s, un(s, UN_EXP, muls(s, mul(s, x, x), -0.5)), 0.3989422804014327);
}

/* gelu(x) = x * Phi(x): gelu'(x) = Phi(x) + x * phi(x). Without a graph to
 * record, PyTorch's own kernel (its rounding); with one, the same formula
 * from differentiable ops. */
static bool d_gelu(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0);
  if (x && plain_backward() && G->dtype == x->dtype && G->ndim == x->ndim &&
      !memcmp(G->shape, x->shape, (size_t)G->ndim * sizeof(int64_t))) {
    give(out, 0, keep(&s, tensor_gelu_backward(G, x)));
    return done(&s, n, out);
  }
  Tensor *cdf = x ? keep(&s, ag_normal_cdf(x)) : NULL;
  give(out, 0, mul(&s, G, add(&s, cdf, mul(&s, x, normal_pdf(&s, x)))));
  return done(&s, n, out);
}
static Tensor *j_gelu(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *cdf = keep(&s, ag_normal_cdf(X0));
  return jvp_done(&s, mul(&s, T0, add(&s, cdf, mul(&s, X0, normal_pdf(&s, X0)))), out);
}

static bool d_normal_cdf(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, mul(&s, G, normal_pdf(&s, saved(&s, n, 0))));
  return done(&s, n, out);
}

/* ---- activations with parameters: s0 (and s1) as recorded ---- */

static bool d_leaky_relu(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0);
  give(out, 0, where(&s, cmps(&s, BIN_GT, x, 0), G, muls(&s, G, node_p(n)->s0)));
  return done(&s, n, out);
}

/* In place (LeakyReluBackward1) from the result: it has the input's sign
 * only for a slope >= 0, which PyTorch requires here. */
static bool d_leaky_relu_result(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  if (node_p(n)->s0 < 0) {
    tensor_set_error("In-place leakyReLu backward calculation is triggered with a negative slope "
                     "which is not supported. This is caused by calling in-place forward function "
                     "with a negative slope, please call out-of-place version instead. File an "
                     "issue at https://github.com/pytorch/pytorch if you do require supporting "
                     "in-place leakRelu backward calculation with negative slope");
    return false;
  }
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 0);
  give(out, 0, where(&s, cmps(&s, BIN_GT, r, 0), G, muls(&s, G, node_p(n)->s0)));
  return done(&s, n, out);
}

/* PyTorch's hardtanh_backward: 0 where x <= min_val or x >= max_val, else g (a nan x passes g) */
static bool d_hardtanh(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0);
  Tensor *low = cmps(&s, BIN_LE, x, node_p(n)->s0), *high = cmps(&s, BIN_GE, x, node_p(n)->s1);
  Tensor *outside = low && high ? keep(&s, tensor_binary(BIN_LOGICAL_OR, low, high)) : NULL;
  give(out, 0, where(&s, outside, zero_like(&s, G), G));
  return done(&s, n, out);
}

/* x > 0 ? g : g alpha exp(x) */
static bool d_elu(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0);
  Tensor *neg = mul(&s, G, muls(&s, un(&s, UN_EXP, x), node_p(n)->s0));
  give(out, 0, where(&s, cmps(&s, BIN_GT, x, 0), G, neg));
  return done(&s, n, out);
}

/* In place (EluBackward1) from the result r: r > 0 ? g : g (r + alpha), as
 * alpha exp(x) = r + alpha there; PyTorch requires alpha >= 0. */
static bool d_elu_result(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  if (node_p(n)->s0 < 0) {
    tensor_set_error("In-place elu backward calculation is triggered with a negative slope which "
                     "is not supported. This is caused by calling in-place forward function with "
                     "a negative slope, please call out-of-place version instead.");
    return false;
  }
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 0);
  Tensor *neg = mul(&s, G, adds(&s, r, node_p(n)->s0));
  give(out, 0, where(&s, cmps(&s, BIN_GT, r, 0), G, neg));
  return done(&s, n, out);
}

/* g s (1 + x (1 - s)), s = sigmoid(x) */
static bool d_silu(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *sg = un(&s, UN_SIGMOID, x);
  give(out, 0, mul(&s, mul(&s, G, sg), adds(&s, mul(&s, x, rsubs(&s, 1, sg)), 1)));
  return done(&s, n, out);
}

/* beta x > threshold ? g : g z / (z + 1), z = exp(beta x) (ATen's order) */
static bool d_softplus(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *bx = muls(&s, saved(&s, n, 0), node_p(n)->s0), *z = un(&s, UN_EXP, bx);
  Tensor *soft = dv(&s, mul(&s, G, z), adds(&s, z, 1));
  give(out, 0, where(&s, cmps(&s, BIN_GT, bx, node_p(n)->s1), G, soft));
  return done(&s, n, out);
}

static bool d_zero(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  for (int i = 0; i < n->nnext; i++)
    if (needs[i])
      give_new(&s, out, i, tensor_zeros(n->in_info[i].dtype, n->in_info[i].ndim, info_shape(&n->in_info[i])));
  return done(&s, n, out);
}
static Tensor *j_zero(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, NULL, out);
}

static bool d_clamp(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *zero = zero_like(&s, G), *r = G;
  if (!isnan(node_p(n)->s0)) r = where(&s, cmps(&s, BIN_GE, x, node_p(n)->s0), r, zero);
  if (!isnan(node_p(n)->s1)) r = where(&s, cmps(&s, BIN_LE, x, node_p(n)->s1), r, zero);
  give(out, 0, r);
  return done(&s, n, out);
}

/* clamp.Tensor: PyTorch's clamp_backward and clamp_backward_min_max. */
static bool d_clamp_tensor(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *zero = zero_like(&s, G);
  Tensor *lo = node_p(n)->i0 ? saved(&s, n, 1) : NULL;
  Tensor *hi = node_p(n)->i1 ? saved(&s, n, 2) : NULL;
  if (needs[0]) {
    Tensor *r = G;
    if (lo) r = where(&s, cmp(&s, BIN_GE, x, lo), r, zero);
    if (hi) r = where(&s, cmp(&s, BIN_LE, x, hi), r, zero);
    give(out, 0, r);
  }
  if (lo && hi) {
    if (needs[1])
      give(out, 1, where(&s, cmp(&s, BIN_LOGICAL_AND, cmp(&s, BIN_LT, x, lo), cmp(&s, BIN_LT, lo, hi)),
                         G, zero));
    if (needs[2])
      give(out, 2, where(&s, cmp(&s, BIN_LOGICAL_OR, cmp(&s, BIN_GT, x, hi), cmp(&s, BIN_LT, hi, lo)),
                         G, zero));
  } else if (lo && needs[1]) {
    give(out, 1, where(&s, cmp(&s, BIN_LT, x, lo), G, zero));
  } else if (hi && needs[2]) {
    give(out, 2, where(&s, cmp(&s, BIN_GT, x, hi), G, zero));
  }
  return done(&s, n, out);
}

static bool d_masked_fill(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *mask = saved(&s, n, 0), *zero = zero_like(&s, G);
  if (needs[0] && mask && zero) give(out, 0, keep(&s, ag_masked_fill(G, mask, zero, false)));
  if (n->nnext > 1 && needs[1]) give(out, 1, where(&s, mask, G, zero));
  return done(&s, n, out);
}

static bool d_where(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *cond = saved(&s, n, 0), *zero = zero_like(&s, G);
  if (needs[0]) give(out, 0, where(&s, cond, G, zero));
  if (needs[1]) give(out, 1, where(&s, cond, zero, G));
  return done(&s, n, out);
}
static Tensor *j_where(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *cond = saved(&s, n, 0), *zero = zero_like(&s, out);
  return jvp_done(&s, where(&s, cond, T0 ? T0 : zero, T1 ? T1 : zero), out);
}

/* ---- reductions ---- */

/* The reduced gradient brought back to the input's shape. */
static Tensor *expand_reduced(Scope *s, GradNode *n, Tensor *grad) {
  Tensor *x = grad;
  if (!node_p(n)->keepdim && x && x->ndim != IN->ndim) {
    int dims[TENSOR_MAX_DIMS], nd = node_p(n)->ndims;
    memcpy(dims, node_p(n)->dims, sizeof dims);
    for (int i = 1; i < nd; i++) /* ascending, so each unsqueeze lands in place */
      for (int j = i; j > 0 && dims[j - 1] > dims[j]; j--) {
        int t = dims[j];
        dims[j] = dims[j - 1];
        dims[j - 1] = t;
      }
    for (int i = 0; i < nd && x; i++)
      x = keep(s, ag_unsqueeze(x, dims[i]));
  }
  return expand_to(s, x, IN);
}

static double reduced_count(const GradNode *n) {
  double count = 1;
  for (int i = 0; i < node_p(n)->ndims; i++)
    count *= (double)info_shape(IN)[node_p(n)->dims[i]];
  return count;
}

static bool d_sum(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, node_p(n)->i0 == 1 ? expand_to(&s, G, IN) : expand_reduced(&s, n, G));
  return done(&s, n, out);
}
/* the tangent summed the same way (i0: sum_to_shape, as the engine's un-broadcast) */
static Tensor *j_sum(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  const AgParams *p = node_p(n);
  if (p->i0 == 1) return jvp_done(&s, keep(&s, ag_sum_to_shape(T0, out->ndim, out->shape)), out);
  return jvp_done(&s, keep(&s, ag_sum(T0, p->dims, p->ndims, p->keepdim)), out);
}

static bool d_mean(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, divs(&s, expand_reduced(&s, n, G), (double)reduced_count(n))); /* PyTorch's grad / n */
  return done(&s, n, out);
}
static Tensor *j_mean(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  const AgParams *p = node_p(n);
  return jvp_done(&s, keep(&s, ag_mean(T0, p->dims, p->ndims, p->keepdim)), out);
}

/* Product of the other elements along each reduced row, by direct loops:
 * used when the input holds zeros (division by x is then not possible). */
static Tensor *prod_of_others(Tensor *x, int dim, bool all) {
  Tensor *src = all ? tensor_reshape(x, 1, (int64_t[1]){x->numel}) : tensor_transpose(x, dim, -1);
  Tensor *c = src ? tensor_to_dtype(src, DT_FLOAT64) : NULL;
  Tensor *cc = c ? tensor_contiguous(c) : NULL;
  Tensor *res = cc ? tensor_empty(DT_FLOAT64, cc->ndim, cc->shape) : NULL;
  if (res) {
    int64_t k = cc->ndim ? cc->shape[cc->ndim - 1] : 1, rows = k ? cc->numel / k : 0;
    const double *v = tensor_data(cc);
    double *r = tensor_data(res);
    for (int64_t row = 0; row < rows; row++)
      for (int64_t j = 0; j < k; j++) {
        double p = 1;
        for (int64_t i = 0; i < k; i++)
          if (i != j) p *= v[row * k + i];
        r[row * k + j] = p;
      }
  }
  Tensor *back = NULL;
  if (res) back = all ? tensor_reshape(res, x->ndim, x->shape) : tensor_transpose(res, dim, -1);
  Tensor *typed = back ? tensor_to_dtype(back, x->dtype) : NULL;
  tensor_release(src);
  tensor_release(c);
  tensor_release(cc);
  tensor_release(res);
  tensor_release(back);
  return typed;
}

static bool d_prod(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *r = saved(&s, n, 1);
  Tensor *ge = expand_reduced(&s, n, G);
  Tensor *zeros = cmps(&s, BIN_EQ, x, 0);
  Tensor *any = zeros ? keep(&s, tensor_sum(zeros, NULL, 0, false)) : NULL;
  if (any && tensor_item(any) == 0) {
    give(out, 0, dv(&s, mul(&s, ge, expand_reduced(&s, n, r)), x));
  } else if (x && ge) {
    bool all = n->kind == AG_NODE_ProdBackward0;
    give(out, 0, mul(&s, ge, keep(&s, prod_of_others(x, node_p(n)->dims[0], all))));
  }
  return done(&s, n, out);
}

/* max()/min()/median() over everything: shared evenly among the elements
 * equal to the result, or among the NaNs when it is NaN (PyTorch's
 * evenly_distribute_backward). */
static bool d_extreme_all(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *r = saved(&s, n, 1);
  bool nan_result = r && dtype_is_float(r->dtype) && isnan(tensor_item(r));
  Tensor *mask = nan_result ? (x ? keep(&s, tensor_unary(UN_ISNAN, x)) : NULL) : cmp(&s, BIN_EQ, x, r);
  Tensor *count = mask ? keep(&s, tensor_sum(mask, NULL, 0, false)) : NULL;
  Tensor *share = count ? dv(&s, G, keep(&s, tensor_to_dtype(count, G->dtype))) : NULL;
  give(out, 0, where(&s, mask, share, zero_like(&s, G)));
  return done(&s, n, out);
}

/* max(dim)/min(dim): the gradient goes to the selected index. */
static bool d_extreme_dim(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int dim = node_p(n)->dims[0];
  Tensor *idx = saved(&s, n, 0), *grad = G;
  if (!node_p(n)->keepdim) {
    idx = idx ? keep(&s, tensor_unsqueeze(idx, dim)) : NULL;
    grad = keep(&s, ag_unsqueeze(grad, dim));
  }
  /* PyTorch's value_selecting_reduction_backward: zeros.scatter_ (a -0 stays -0) */
  give(out, 0, idx && grad ? keep(&s, ag_scatter_into(IN, dim, idx, grad, false)) : NULL);
  return done(&s, n, out);
}

static Tensor *centered(Scope *s, GradNode *n, Tensor *x) {
  return x ? sub(s, x, keep(s, ag_mean(x, node_p(n)->dims, node_p(n)->ndims, true))) : NULL;
}

/* var_backward as PyTorch 1.13 orders it: (2 / (N - correction)) * grad,
 * then times (x - mean), so its bits. */
static Tensor *var_grad(Scope *s, GradNode *n, Tensor *grad) {
  double k = 2.0 / (reduced_count(n) - node_p(n)->s0);
  return mul(s, muls(s, expand_reduced(s, n, grad), k), centered(s, n, saved(s, n, 0)));
}

static bool d_var(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, var_grad(&s, n, G));
  return done(&s, n, out);
}

/* std_backward: var_backward of grad / (2 std), 0 where std is 0. */
static bool d_std(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 1);
  Tensor *grad_var = where(&s, cmps(&s, BIN_EQ, r, 0), zero_like(&s, G), dv(&s, G, muls(&s, r, 2)));
  give(out, 0, var_grad(&s, n, grad_var));
  return done(&s, n, out);
}

static bool d_norm(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  double p = node_p(n)->s0;
  Tensor *x = saved(&s, n, 0), *r = saved(&s, n, 1), *zero = zero_like(&s, G);
  Tensor *sign = un(&s, UN_SIGN, x);
  if (p == 1) {
    give(out, 0, mul(&s, expand_reduced(&s, n, G), sign));
  } else if (isinf(p)) {
    Tensor *ax = un(&s, UN_ABS, x), *re = expand_reduced(&s, n, r);
    Tensor *mask = cmp(&s, BIN_EQ, ax, re);
    Tensor *count = mask ? keep(&s, ag_sum(keep(&s, tensor_to_dtype(mask, G->dtype)), node_p(n)->dims,
                                           node_p(n)->ndims, true))
                         : NULL;
    Tensor *share = mul(&s, expand_reduced(&s, n, G), dv(&s, sign, expand_to(&s, count, IN)));
    give(out, 0, where(&s, mask, share, zero));
  } else {
    Tensor *scale = where(&s, cmps(&s, BIN_EQ, r, 0), zero, dv(&s, G, powsc(&s, r, p - 1)));
    Tensor *px = p == 2 ? x : mul(&s, x, powsc(&s, un(&s, UN_ABS, x), p - 2));
    give(out, 0, mul(&s, expand_reduced(&s, n, scale), px));
  }
  return done(&s, n, out);
}

static bool d_logsumexp(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *re = expand_reduced(&s, n, saved(&s, n, 1));
  give(out, 0, mul(&s, expand_reduced(&s, n, G), un(&s, UN_EXP, sub(&s, x, re))));
  return done(&s, n, out);
}

/* ---- shape ---- */

/* Unsqueeze's gradient is squeeze(dim), as PyTorch's (a double backward
 * records SqueezeBackward1); the other views' a reshape. */
static bool d_reshape(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (n->kind == AG_NODE_UnsqueezeBackward0)
    give(out, 0, keep(&s, ag_squeeze(G, (int)node_p(n)->i0, true)));
  else
    give(out, 0, reshape_to(&s, G, IN));
  return done(&s, n, out);
}
/* a view keeps the order of the elements: the tangent reshaped (expanded) as the output */
static Tensor *j_reshape(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, T0 ? keep(&s, ag_reshape(T0, out->ndim, out->shape)) : NULL, out);
}

static bool d_transpose(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_transpose(G, (int)node_p(n)->i0, (int)node_p(n)->i1)));
  return done(&s, n, out);
}
static Tensor *j_transpose(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, keep(&s, ag_transpose(T0, (int)node_p(n)->i0, (int)node_p(n)->i1)), out);
}

static bool d_t(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_t(G)));
  return done(&s, n, out);
}
static Tensor *j_t(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, keep(&s, ag_t(T0)), out);
}

static bool d_permute(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int inverse[TENSOR_MAX_DIMS];
  for (int i = 0; i < node_p(n)->ndims; i++)
    inverse[node_p(n)->dims[i]] = i;
  give(out, 0, keep(&s, ag_permute(G, inverse, node_p(n)->ndims)));
  return done(&s, n, out);
}
static Tensor *j_permute(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, keep(&s, ag_permute(T0, node_p(n)->dims, node_p(n)->ndims)), out);
}

static bool d_expand(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_sum_to_shape(G, IN->ndim, info_shape(IN))));
  return done(&s, n, out);
}
static Tensor *j_expand(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, keep(&s, ag_expand(T0, out->ndim, out->shape)), out);
}

static bool d_constant_pad(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int npads = (int)node_p(n)->i0;
  int64_t crop[2 * TENSOR_MAX_DIMS];
  for (int i = 0; i < npads; i++)
    crop[i] = -node_p(n)->geom[i];
  give(out, 0, G ? keep(&s, ag_constant_pad(G, npads, crop, 0)) : NULL);
  return done(&s, n, out);
}

static bool d_mode_pad(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, G ? keep(&s, ag_mode_pad_backward(G, info_shape(IN), (int)node_p(n)->i0,
                                                 node_p(n)->geom, node_p(n)->flag))
                 : NULL);
  return done(&s, n, out);
}

static bool d_mode_pad_again(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, G ? keep(&s, ag_mode_pad(G, (int)node_p(n)->i0, node_p(n)->geom, node_p(n)->flag))
                 : NULL);
  return done(&s, n, out);
}

static bool d_cat(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int dim = (int)node_p(n)->i0;
  int64_t offset = 0;
  for (int i = 0; i < n->nnext; i++) {
    int64_t size = n->in_info[i].ndim > dim ? info_shape(&n->in_info[i])[dim] : 0;
    if (needs[i]) give_new(&s, out, i, ag_slice(G, dim, offset, offset + size, 1));
    offset += size;
  }
  return done(&s, n, out);
}
/* the tangents joined the same way, zeros for an input without one */
static Tensor *j_join(JVP_ARGS, bool stack) {
  Scope s;
  scope_open(&s);
  Tensor **parts = calloc((size_t)n->nnext, sizeof *parts);
  if (!parts) {
    tensor_set_error("out of memory");
    return NULL;
  }
  bool ok = true;
  for (int i = 0; ok && i < n->nnext; i++) {
    const AgInfo *info = &n->in_info[i];
    parts[i] = t[i] ? tensor_retain(t[i]) : tensor_zeros(out->dtype, info->ndim, info_shape(info));
    ok = parts[i] != NULL;
  }
  int dim = (int)node_p(n)->i0;
  Tensor *r = ok ? (stack ? ag_stack(parts, n->nnext, dim) : ag_cat(parts, n->nnext, dim)) : NULL;
  for (int i = 0; i < n->nnext; i++)
    tensor_release(parts[i]);
  free(parts);
  return jvp_done(&s, keep(&s, r), out);
}
static Tensor *j_cat(JVP_ARGS) { return j_join(n, oi, in, t, out, false); }

static bool d_stack(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  for (int i = 0; i < n->nnext; i++)
    if (needs[i]) give_new(&s, out, i, ag_select(G, (int)node_p(n)->i0, i));
  return done(&s, n, out);
}
static Tensor *j_stack(JVP_ARGS) { return j_join(n, oi, in, t, out, true); }

static bool d_split(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_cat(g, n->noutputs, (int)node_p(n)->i0)));
  return done(&s, n, out);
}

static bool d_unbind(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_stack(g, n->noutputs, (int)node_p(n)->i0)));
  return done(&s, n, out);
}

/* Piece oi of the tangent, split as the input was (the outputs before it,
 * set already, say where it starts). */
static Tensor *j_split(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  int dim = (int)node_p(n)->i0;
  int64_t start = 0;
  for (int k = 0; k < oi; k++)
    start += info_shape(&n->out_info[k])[dim];
  return jvp_done(&s, keep(&s, ag_slice(T0, dim, start, start + out->shape[dim], 1)), out);
}
static Tensor *j_unbind(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, keep(&s, ag_select(T0, (int)node_p(n)->i0, oi)), out);
}

/* ---- indexing ---- */

static AgNodeKind index_backward_kind(AgNodeKind k) {
  return k == AG_NODE_SelectBackward0  ? AG_NODE_SelectBackwardBackward0
         : k == AG_NODE_SliceBackward0 ? AG_NODE_SliceBackwardBackward0
         : k == AG_NODE_EmbeddingBackward0 ? AG_NODE_EmbeddingDenseBackward0
                                       : AG_NODE_IndexPutImplBackward0;
}

static bool d_index(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  /* straight into out: no temporaries, no scope (a backward over `for v in x` runs it per element) */
  Tensor *r = ag_index_backward(G, IN, node_p(n)->items, node_p(n)->nitems, index_backward_kind(n->kind));
  return put_new(out, 0, r) || drop_outs(n, out);
}

/* The backward of indexing's backward: index again. */
static bool d_index_again(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_index(G, node_p(n)->items, node_p(n)->nitems)));
  return done(&s, n, out);
}

/* g with the written region zeroed: index items, or a view's region. */
static Tensor *zero_region(Scope *s, GradNode *n, Tensor *grad) {
  return keep(s, node_p(n)->geom ? ag_strided_zero(grad, node_p(n)->geom)
                           : ag_index_fill_zero(grad, node_p(n)->items, node_p(n)->nitems));
}

static Tensor *take_region(Scope *s, GradNode *n, Tensor *grad) {
  return keep(s, node_p(n)->geom ? ag_strided_get(grad, node_p(n)->geom)
                           : ag_index(grad, node_p(n)->items, node_p(n)->nitems));
}

static bool d_index_fill(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, zero_region(&s, n, G));
  return done(&s, n, out);
}

/* t[items] = v (or a write through a view of t): the overwritten region of t
 * gets nothing, v gets what reached the region. */
static bool d_index_put(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (needs[0]) give(out, 0, zero_region(&s, n, G));
  if (needs[1]) give(out, 1, take_region(&s, n, G));
  return done(&s, n, out);
}

static bool d_strided_get(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_strided_embed(G, IN, node_p(n)->geom)));
  return done(&s, n, out);
}

static bool d_strided_embed(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_strided_get(G, node_p(n)->geom)));
  return done(&s, n, out);
}

static bool d_gather(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *idx = saved(&s, n, 0);
  give(out, 0, idx ? keep(&s, ag_scatter_add_into(IN, (int)node_p(n)->i0, idx, G)) : NULL);
  return done(&s, n, out);
}

/* scatter_add(self, dim, index, src): self gets g, src g gathered at index.
 * Recorded by gather's backward with src alone (one edge). */
static bool d_scatter_add(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *idx = saved(&s, n, 0);
  int src = n->nnext - 1;
  if (src == 1 && needs[0]) give(out, 0, G);
  if (needs[src]) give(out, src, idx ? keep(&s, ag_gather(G, (int)node_p(n)->i0, idx)) : NULL);
  return done(&s, n, out);
}

/* scatter: the places written get no gradient in self; src (ScatterBackward0)
 * gets g gathered from them. */
static bool d_scatter(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *idx = saved(&s, n, 0);
  int dim = (int)node_p(n)->i0;
  if (needs[0] && idx) give(out, 0, keep(&s, ag_scatter(G, dim, idx, NULL, 0, SCATTER_SET, false)));
  if (n->nnext > 1 && needs[1] && idx) give(out, 1, keep(&s, ag_gather(G, dim, idx)));
  return done(&s, n, out);
}

/* index_add: self gets g, source alpha * g's slices at index. */
static bool d_index_add(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *idx = saved(&s, n, 0);
  double alpha = node_p(n)->s0;
  if (needs[0]) give(out, 0, G);
  if (needs[1] && idx) {
    Tensor *picked = keep(&s, ag_index_select(G, (int)node_p(n)->i0, idx));
    if (alpha != 1) picked = muls(&s, picked, alpha);
    give(out, 1, reshape_to(&s, picked, &n->in_info[1]));
  }
  return done(&s, n, out);
}

/* ---- matrix products ---- */

static Tensor *tr(Scope *s, Tensor *a) { return a ? keep(s, ag_t(a)) : NULL; }
static Tensor *tr12(Scope *s, Tensor *a) { return a ? keep(s, ag_transpose(a, 1, 2)) : NULL; }

/* d(a @ b)/db = a^T g. When b is column-major (W.t() in a linear layer,
 * p.flag), PyTorch computes (g^T a)^T instead: the same values, laid out so
 * that after TBackward0 the gradient has W's own row-major layout and
 * AccumulateGrad keeps it without a copy. */
static Tensor *mm_mat2_grad(Scope *s, GradNode *n, Tensor *g, Tensor *a) {
  if (!a) return NULL;
  if (node_p(n)->flag) {
    Tensor *gt = tr(s, g);
    return gt ? tr(s, keep(s, ag_mm(gt, a))) : NULL;
  }
  Tensor *at = tr(s, a);
  return at ? keep(s, ag_mm(at, g)) : NULL;
}

static bool d_mm(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *b = needs[0] ? tr(&s, saved(&s, n, 1)) : NULL;
  if (needs[0] && b) give(out, 0, keep(&s, ag_mm(G, b)));
  if (needs[1]) give(out, 1, mm_mat2_grad(&s, n, G, saved(&s, n, 0)));
  return done(&s, n, out);
}
static Tensor *j_mm(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *a = T0 ? keep(&s, ag_mm(T0, X1)) : NULL, *b = T1 ? keep(&s, ag_mm(X0, T1)) : NULL;
  return jvp_done(&s, plus(&s, a, b), out);
}

/* bias + a @ b: the bias gets g (summed to its shape by the engine). */
static bool d_addmm(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (needs[0]) give(out, 0, G);
  Tensor *b = needs[1] ? tr(&s, saved(&s, n, 1)) : NULL;
  if (needs[1] && b) give(out, 1, keep(&s, ag_mm(G, b)));
  if (needs[2]) give(out, 2, mm_mat2_grad(&s, n, G, saved(&s, n, 0)));
  return done(&s, n, out);
}
/* bias_t + mat1_t @ mat2 + mat1 @ mat2_t (inputs: bias, mat1, mat2) */
static Tensor *j_addmm(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *a = t[1] ? keep(&s, ag_mm(t[1], in[2])) : NULL;
  Tensor *b = t[2] ? keep(&s, ag_mm(in[1], t[2])) : NULL;
  return jvp_done(&s, plus(&s, t[0], plus(&s, a, b)), out);
}

static bool d_bmm(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *b = needs[0] ? tr12(&s, saved(&s, n, 1)) : NULL;
  if (needs[0] && b) give(out, 0, keep(&s, ag_bmm(G, b)));
  Tensor *a = needs[1] ? tr12(&s, saved(&s, n, 0)) : NULL;
  if (needs[1] && a) give(out, 1, keep(&s, ag_bmm(a, G)));
  return done(&s, n, out);
}
static Tensor *j_bmm(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *a = T0 ? keep(&s, ag_bmm(T0, X1)) : NULL, *b = T1 ? keep(&s, ag_bmm(X0, T1)) : NULL;
  return jvp_done(&s, plus(&s, a, b), out);
}

static bool d_mv(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *v = needs[0] ? saved(&s, n, 1) : NULL;
  if (needs[0] && v) give(out, 0, keep(&s, ag_outer(G, v)));
  Tensor *a = needs[1] ? tr(&s, saved(&s, n, 0)) : NULL;
  if (needs[1] && a) give(out, 1, keep(&s, ag_mv(a, G)));
  return done(&s, n, out);
}
static Tensor *j_mv(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *a = T0 ? keep(&s, ag_mv(T0, X1)) : NULL, *b = T1 ? keep(&s, ag_mv(X0, T1)) : NULL;
  return jvp_done(&s, plus(&s, a, b), out);
}

static bool d_dot(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (needs[0]) give(out, 0, mul(&s, G, saved(&s, n, 1)));
  if (needs[1]) give(out, 1, mul(&s, G, saved(&s, n, 0)));
  return done(&s, n, out);
}
static Tensor *j_dot(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *a = T0 ? keep(&s, ag_dot(T0, X1)) : NULL, *b = T1 ? keep(&s, ag_dot(X0, T1)) : NULL;
  return jvp_done(&s, plus(&s, a, b), out);
}

/* ---- neural-network functions ---- */

/* A plain backward (no graph to record) uses tensor/'s fused kernel, which
 * reproduces PyTorch's rounding; create_graph composes differentiable ops. */
static bool d_softmax_plain(GradNode *n, Tensor *const *g, Tensor **out, bool log) {
  Scope s;
  scope_open(&s);
  Tensor *y = saved(&s, n, 0);
  give(out, 0, y ? keep(&s, tensor_softmax_backward(G, y, (int)node_p(n)->i0, log)) : NULL);
  return done(&s, n, out);
}

static bool plain_backward_ok(Tensor *grad) {
  return plain_backward() && (grad->dtype == DT_FLOAT32 || grad->dtype == DT_FLOAT64);
}

static bool d_softmax(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  if (plain_backward_ok(G) && G->ndim == n->out_info[0].ndim &&
      !memcmp(info_shape(&n->out_info[0]), G->shape, (size_t)G->ndim * sizeof(int64_t)))
    return d_softmax_plain(n, g, out, false);
  Scope s;
  scope_open(&s);
  Tensor *y = saved(&s, n, 0);
  Tensor *dot = sum_dim(&s, mul(&s, G, y), (int)node_p(n)->i0, true);
  give(out, 0, mul(&s, y, sub(&s, G, dot)));
  return done(&s, n, out);
}
/* result * (t - sum(result * t, dim)) */
static Tensor *j_softmax(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *dot = sum_dim(&s, mul(&s, out, T0), (int)node_p(n)->i0, true);
  return jvp_done(&s, mul(&s, out, sub(&s, T0, dot)), out);
}

static bool d_log_softmax(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  if (plain_backward_ok(G) && G->ndim == n->out_info[0].ndim &&
      !memcmp(info_shape(&n->out_info[0]), G->shape, (size_t)G->ndim * sizeof(int64_t)))
    return d_softmax_plain(n, g, out, true);
  Scope s;
  scope_open(&s);
  Tensor *p = un(&s, UN_EXP, saved(&s, n, 0));
  give(out, 0, sub(&s, G, mul(&s, p, sum_dim(&s, G, (int)node_p(n)->i0, true))));
  return done(&s, n, out);
}
/* t - sum(exp(result) * t, dim) */
static Tensor *j_log_softmax(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  Tensor *p = un(&s, UN_EXP, out);
  return jvp_done(&s, sub(&s, T0, sum_dim(&s, mul(&s, p, T0), (int)node_p(n)->i0, true)), out);
}

/* The loss gradient scaled by the reduction (mean divides by the element count). */
static bool d_mse(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  /* PyTorch's mse_loss_backward: norm * (self - target) * grad, norm = 2 or
   * 2 / numel; the target's is the same with the two swapped (so a zero
   * difference gives +0 to both, never -0). */
  Scope s;
  scope_open(&s);
  Tensor *a = saved(&s, n, 0), *b = saved(&s, n, 1);
  for (int i = 0; i < 2; i++) {
    if (!needs[i]) continue;
    Tensor *d = i == 0 ? sub(&s, a, b) : sub(&s, b, a);
    int64_t count = d ? d->numel : 0;
    double norm = node_p(n)->red == RED_MEAN && count > 0 ? 2.0 / (double)count : 2.0;
    give(out, i, mul(&s, muls(&s, d, norm), G));
  }
  return done(&s, n, out);
}

/* Where nll_loss's gradient goes: for each kept target (not ignore_index)
 * its place in the flattened input, its own position and its class weight
 * (negated when `negate`); the three int64/float tensors have one entry each. */
typedef struct {
  Tensor *place, *position, *weight;
} NllKept;

static bool nll_kept(Scope *s, const AgInfo *in, const Tensor *target, const Tensor *weight,
                     int64_t ignore_index, bool negate, NllKept *k) {
  const int64_t *shape = info_shape(in);
  int64_t classes = in->ndim == 1 ? shape[0] : shape[1];
  int64_t map = in->ndim == 4 ? shape[2] * shape[3] : 1, count = 0;
  for (int64_t i = 0; i < target->numel; i++)
    count += (int64_t)tensor_get_flat(target, i) != ignore_index;
  k->place = keep(s, tensor_empty(DT_INT64, 1, &count));
  k->position = keep(s, tensor_empty(DT_INT64, 1, &count));
  k->weight = keep(s, tensor_empty(in->dtype, 1, &count));
  if (!k->place || !k->position || !k->weight) return false;
  for (int64_t i = 0, j = 0; i < target->numel; i++) {
    int64_t t = (int64_t)tensor_get_flat(target, i);
    if (t == ignore_index) continue;
    double w = weight ? tensor_get_flat(weight, t) : 1;
    tensor_set_flat(k->place, j, (double)((i / map) * classes * map + t * map + i % map));
    tensor_set_flat(k->position, j, (double)i);
    tensor_set_flat(k->weight, j++, negate ? -w : w);
  }
  return true;
}

/* ATen's nll_loss_backward (and nll_loss2d's): zero but at each kept
 * target's place, which gets weight[t] * -(g / total_weight) for the mean,
 * weight[t] * -g for the sum and -weight[t] * g[i] unreduced. Made of
 * recorded ops (a scatter into the flattened input), so it can be
 * differentiated again. */
static bool d_nll(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *target = saved(&s, n, 0);
  Tensor *weight = node_p(n)->i1 ? saved(&s, n, 1) : NULL;
  Reduction r = node_p(n)->red;
  bool per_target = r == RED_NONE && IN->ndim != 1;
  NllKept k;
  if (!target || !nll_kept(&s, IN, target, weight, node_p(n)->i0, per_target, &k))
    return done(&s, n, out);
  Tensor *src;
  if (per_target) {
    int64_t all = -1;
    Tensor *flat = G ? keep(&s, ag_reshape(G, 1, &all)) : NULL;
    src = mul(&s, flat ? keep(&s, ag_index_select(flat, 0, k.position)) : NULL, k.weight);
  } else {
    Tensor *scaled = r == RED_MEAN && G ? keep(&s, ag_binary_scalar(BIN_DIV, G, node_p(n)->s0)) : G;
    Tensor *each = neg(&s, scaled);
    src = mul(&s, each ? keep(&s, ag_expand(each, 1, k.weight->shape)) : NULL, k.weight);
  }
  AgInfo flat_in = {.dtype = IN->dtype, .ndim = 1, .u.small = {info_numel(IN)}};
  Tensor *flat_grad = src ? keep(&s, ag_scatter_into(&flat_in, 0, k.place, src, false)) : NULL;
  give(out, 0, reshape_to(&s, flat_grad, IN));
  return done(&s, n, out);
}

/* log clamped at -100, as PyTorch's binary_cross_entropy does. */
static Tensor *clamped_log(Scope *s, Tensor *x) {
  Tensor *l = un(s, UN_LOG, x);
  return l ? keep(s, ag_clamp_min(l, -100)) : NULL;
}

/* ATen's binary_cross_entropy_backward: g (x - t) / max((1 - x) x, 1e-12),
 * and for the target (log(1 - x) - log(x)) g (each log clamped at -100);
 * then times weight, then divided by numel for the mean, in that order. */
static bool d_bce(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *p = saved(&s, n, 0), *t = saved(&s, n, 1);
  Tensor *w = node_p(n)->i0 ? saved(&s, n, 2) : NULL;
  double count = p ? (double)p->numel : 0;
  for (int i = 0; i < 2; i++) {
    if (!needs[i]) continue;
    Tensor *d;
    if (i == 0) {
      Tensor *denom = mul(&s, rsubs(&s, 1, p), p);
      denom = denom ? keep(&s, ag_clamp_min(denom, 1e-12)) : NULL;
      d = dv(&s, mul(&s, G, sub(&s, p, t)), denom);
    } else {
      d = mul(&s, sub(&s, clamped_log(&s, rsubs(&s, 1, p)), clamped_log(&s, p)), G);
    }
    if (w) d = mul(&s, d, w);
    if (node_p(n)->red == RED_MEAN) d = divs(&s, d, count);
    give(out, i, d);
  }
  return done(&s, n, out);
}

/* PyTorch's smooth_l1_backward, norm = 1 (or 1/numel for mean), x = self - target:
 * -norm g below -beta, norm g above beta, norm x g / beta between; the
 * target's is the same with the two swapped. */
static bool d_smooth_l1(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *a = saved(&s, n, 0), *b = saved(&s, n, 1);
  double beta = node_p(n)->s0;
  for (int i = 0; i < 2; i++) {
    if (!needs[i]) continue;
    Tensor *x = i == 0 ? sub(&s, a, b) : sub(&s, b, a);
    double norm = node_p(n)->red == RED_MEAN && x && x->numel > 0 ? 1.0 / (double)x->numel : 1.0;
    Tensor *ng = muls(&s, G, norm);
    Tensor *mid = divs(&s, mul(&s, muls(&s, x, norm), G), beta);
    Tensor *hi = where(&s, cmps(&s, BIN_GE, x, beta), ng, mid);
    give(out, i, where(&s, cmps(&s, BIN_LE, x, -beta), neg(&s, ng), hi));
  }
  return done(&s, n, out);
}

/* PyTorch's huber_backward: -norm g delta below -delta, norm g delta above
 * delta, norm x g between. */
static bool d_huber(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *a = saved(&s, n, 0), *b = saved(&s, n, 1);
  double delta = node_p(n)->s0;
  for (int i = 0; i < 2; i++) {
    if (!needs[i]) continue;
    Tensor *x = i == 0 ? sub(&s, a, b) : sub(&s, b, a);
    double norm = node_p(n)->red == RED_MEAN && x && x->numel > 0 ? 1.0 / (double)x->numel : 1.0;
    Tensor *outer = muls(&s, muls(&s, G, norm), delta);
    Tensor *mid = mul(&s, muls(&s, x, norm), G);
    Tensor *hi = where(&s, cmps(&s, BIN_GT, x, delta), outer, mid);
    give(out, i, where(&s, cmps(&s, BIN_LT, x, -delta), neg(&s, outer), hi));
  }
  return done(&s, n, out);
}

/* log(sigmoid(z)) = min(z, 0) - log(1 + exp(-|z|)), finite for every z
 * (PyTorch's kernel has log1p where this has log(1 + .), so the last bits of
 * a tiny term may differ). */
static Tensor *log_sigmoid(Scope *s, Tensor *z) {
  Tensor *lo = z ? keep(s, ag_binary_scalar(BIN_MINIMUM, z, 0)) : NULL;
  Tensor *e = un(s, UN_EXP, neg(s, un(s, UN_ABS, z)));
  return sub(s, lo, un(s, UN_LOG, adds(s, e, 1)));
}

/* PyTorch 1.13's binary_cross_entropy_with_logits_backward and its
 * _target_backward: (sigmoid(x) - t) g, or with pos_weight
 * ((pw t + 1 - t) sigmoid(x) - pw t) g; for the target -x g, or
 * (log_sigmoid(-x) - log_sigmoid(x) pw) g; times weight, mean divides. */
static bool d_bce_logits(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *t = saved(&s, n, 1);
  Tensor *w = node_p(n)->i0 ? saved(&s, n, 2) : NULL;
  Tensor *pw = node_p(n)->i1 ? saved(&s, n, 3) : NULL;
  int64_t count = x ? x->numel : 0;
  Tensor *sig = un(&s, UN_SIGMOID, x);
  for (int i = 0; i < 2; i++) {
    if (!needs[i]) continue;
    Tensor *d;
    if (i == 0 && pw) {
      Tensor *pt = mul(&s, pw, t);
      d = sub(&s, mul(&s, sub(&s, adds(&s, pt, 1), t), sig), pt);
    } else if (i == 0) {
      d = sub(&s, sig, t);
    } else if (pw) {
      d = sub(&s, log_sigmoid(&s, neg(&s, x)), mul(&s, log_sigmoid(&s, x), pw));
    } else {
      d = neg(&s, x);
    }
    d = mul(&s, d, G);
    if (w) d = mul(&s, d, w);
    if (node_p(n)->red == RED_MEAN && count > 0) d = divs(&s, d, (double)count);
    give(out, i, d);
  }
  return done(&s, n, out);
}

/* ---- copies ---- */

static bool d_identity(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  give(out, 0, G);
  return true;
}
static Tensor *j_identity(JVP_ARGS) {
  Scope s;
  scope_open(&s);
  return jvp_done(&s, T0, out);
}

static bool d_to_copy(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_to_dtype(G, IN->dtype)));
  return done(&s, n, out);
}

/* dst.copy_(src): dst's old value is gone, src gets everything. */
static bool d_copy(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  if (needs[0]) give(out, 0, zeros_of(&s, IN, G->dtype));
  if (needs[1]) give(out, 1, G);
  return done(&s, n, out);
}

/* flip: the gradient flipped back. */
static bool d_flip(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_flip(G, node_p(n)->dims, node_p(n)->ndims)));
  return done(&s, n, out);
}

/* tril/triu: the same triangle of the gradient. */
static bool d_tril(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_tril(G, node_p(n)->i0)));
  return done(&s, n, out);
}
static bool d_triu(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  give(out, 0, keep(&s, ag_triu(G, node_p(n)->i0)));
  return done(&s, n, out);
}

/* grad.flip(dim).cumsum(dim).flip(dim), as PyTorch's reversed_cumsum. */
static Tensor *reversed_cumsum(Scope *s, Tensor *t, int dim) {
  Tensor *f = t ? keep(s, ag_flip(t, &dim, 1)) : NULL;
  Tensor *c = f ? keep(s, ag_cumsum(f, dim, DT_COUNT)) : NULL;
  return c ? keep(s, ag_flip(c, &dim, 1)) : NULL;
}

/* cumsum: the reversed cumulative sum of the gradient (in the input's dtype),
 * grad.flip(dim).cumsum(dim).flip(dim) as PyTorch's cumsum_backward. */
static bool d_cumsum(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int dim = node_p(n)->dims[0];
  Tensor *grad = keep(&s, ag_to_dtype(G, IN->dtype));
  if (!grad || grad->numel <= 1 || grad->ndim == 0 || grad->shape[dim] == 1) {
    give(out, 0, grad);
    return done(&s, n, out);
  }
  give(out, 0, reversed_cumsum(&s, grad, dim));
  return done(&s, n, out);
}

/* cumprod's gradient at index k of its dim when grad mode is on (a
 * create_graph backward) and the input holds zeros: PyTorch's formula
 * sum_{j>=k} grad[j] * prod_{i<=j, i!=k} x[i], each product without x[k]
 * built from the ops themselves so that it is differentiable again. */
static Tensor *cumprod_grad_at(Tensor *x, Tensor *grad, int dim, int64_t k) {
  Scope s;
  scope_open(&s);
  int64_t n = x->shape[dim];
  Tensor *until = NULL, *from = NULL, *omitted = NULL; /* omitted: for j = k .. n-1 */
  if (k > 0) {
    Tensor *head = keep(&s, ag_slice(x, dim, 0, k, 1));
    until = head ? keep(&s, ag_prod(head, dim, true, true)) : NULL;
  }
  if (k < n - 1) {
    Tensor *rest = keep(&s, ag_slice(x, dim, k + 1, n, 1));
    from = rest ? keep(&s, ag_cumprod(rest, dim, DT_COUNT)) : NULL;
  }
  if (k == 0) {
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, x->shape, (size_t)x->ndim * sizeof(int64_t));
    shape[dim] = 1;
    Tensor *ones = keep(&s, tensor_full(x->dtype, x->ndim, shape, 1));
    if (ones && from) omitted = keep(&s, ag_cat((Tensor *[2]){ones, from}, 2, dim));
  } else if (k == n - 1) {
    omitted = until;
  } else {
    Tensor *later = until && from ? mul(&s, until, from) : NULL;
    if (later) omitted = keep(&s, ag_cat((Tensor *[2]){until, later}, 2, dim));
  }
  Tensor *tail = keep(&s, ag_slice(grad, dim, k, n, 1));
  Tensor *slice = omitted && tail ? sum_dim(&s, mul(&s, tail, omitted), dim, true) : NULL;
  Tensor *result = s.failed ? NULL : tensor_retain(slice);
  scope_end(&s);
  return result;
}

/* cumprod: without zeros in the input, the reversed cumulative sum of
 * grad * result over the input (ATen's cumprod_backward). With zeros: a
 * direct kernel for a plain backward, PyTorch's per-index products under
 * create_graph. */
static bool d_cumprod(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int dim = node_p(n)->dims[0];
  Tensor *x = saved(&s, n, 0), *r = saved(&s, n, 1);
  Tensor *grad = keep(&s, ag_to_dtype(G, IN->dtype));
  if (!x || !r || !grad || grad->numel <= 1 || grad->ndim == 0 || grad->shape[dim] == 1) {
    give(out, 0, grad);
    return done(&s, n, out);
  }
  Tensor *zeros = cmps(&s, BIN_EQ, x, 0);
  Tensor *any = zeros ? keep(&s, tensor_sum(zeros, NULL, 0, false)) : NULL;
  if (any && tensor_item(any) == 0) {
    give(out, 0, dv(&s, reversed_cumsum(&s, mul(&s, r, grad), dim), x));
  } else if (any && plain_backward()) {
    give(out, 0, keep(&s, tensor_cumprod_backward(x, grad, dim)));
  } else if (any) {
    int64_t len = x->shape[dim];
    Tensor **parts = calloc((size_t)len, sizeof *parts);
    bool ok = parts != NULL;
    for (int64_t k = 0; ok && k < len; k++) ok = (parts[k] = cumprod_grad_at(x, grad, dim, k));
    give(out, 0, ok ? keep(&s, ag_cat(parts, (int)len, dim)) : NULL);
    if (!parts) tensor_set_error("out of memory");
    for (int64_t k = 0; parts && k < len; k++) tensor_release(parts[k]);
    free(parts);
  }
  return done(&s, n, out);
}

/* diag: a 1-D input gets the gradient's diagonal; a 2-D input the
 * gradient written on its diagonal in zeros. */
static bool d_diag(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int64_t k = node_p(n)->i0;
  give(out, 0, keep(&s, IN->ndim == 1 ? ag_diagonal(G, k, 0, 1)
                                       : ag_diagonal_embed(G, 2, info_shape(IN), k, 0, 1)));
  return done(&s, n, out);
}

static bool d_diagonal(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  const AgParams *p = node_p(n);
  give(out, 0,
       keep(&s, ag_diagonal_embed(G, IN->ndim, info_shape(IN), p->i0, p->dims[0], p->dims[1])));
  return done(&s, n, out);
}

static bool d_diagonal_embed(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  const AgParams *p = node_p(n);
  give(out, 0, keep(&s, ag_diagonal(G, p->i0, p->dims[0], p->dims[1])));
  return done(&s, n, out);
}

/* roll: the gradient rolled back. */
static bool d_roll(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  const AgParams *p = node_p(n);
  int64_t back[TENSOR_MAX_DIMS];
  int nshifts = (int)p->i0;
  for (int i = 0; i < nshifts; i++) back[i] = -p->geom[i];
  give(out, 0, keep(&s, ag_roll(G, back, nshifts, p->dims, p->ndims)));
  return done(&s, n, out);
}

/* repeat: the gradient viewed as [r0, n0, r1, n1, ...] (ri the repeat
 * count of input size ni, leading dims of the input size 1) and summed over
 * the repeats. */
static bool d_repeat(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  int lead = G->ndim - IN->ndim;
  Tensor *summed = G; /* dims before d summed already */
  for (int d = 0; summed && d < G->ndim; d++) {
    int64_t size = d < lead ? 1 : info_shape(IN)[d - lead];
    int64_t count = size ? G->shape[d] / size : 1;
    if (count == 1) continue;
    if (summed->ndim == TENSOR_MAX_DIMS) {
      tensor_set_error("repeat backward: tensors may have at most %d dimensions", TENSOR_MAX_DIMS);
      summed = keep(&s, NULL);
      break;
    }
    int64_t split[TENSOR_MAX_DIMS];
    for (int e = 0, m = 0; e < summed->ndim; e++) {
      if (e == d) split[m++] = count;
      split[m++] = e == d ? size : summed->shape[e];
    }
    Tensor *v = keep(&s, ag_reshape(summed, summed->ndim + 1, split));
    summed = v ? sum_dim(&s, v, d, false) : NULL;
  }
  give(out, 0, summed ? reshape_to(&s, summed, IN) : NULL);
  return done(&s, n, out);
}

/* amax/amin: the gradient shared evenly among the elements equal to the
 * result (PyTorch's scale_grad_by_count over the reduced dims). */
static bool d_amax(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *r = saved(&s, n, 1);
  Tensor *mask = cmp(&s, BIN_EQ, saved(&s, n, 0), r ? expand_reduced(&s, n, r) : NULL);
  Tensor *count = mask ? keep(&s, tensor_sum(mask, node_p(n)->dims, node_p(n)->ndims, true)) : NULL;
  Tensor *share = count ? dv(&s, expand_reduced(&s, n, G),
                             keep(&s, tensor_to_dtype(count, G->dtype))) : NULL;
  give(out, 0, where(&s, mask, share, zero_like(&s, G)));
  return done(&s, n, out);
}

/* trace: the gradient on the diagonal, zeros elsewhere (a constant mask). */
static bool d_trace(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  const int64_t *shape = info_shape(IN);
  Tensor *eye = keep(&s, tensor_zeros(G->dtype, 2, shape));
  for (int64_t i = 0; eye && i < shape[0] && i < shape[1]; i++) tensor_set_flat(eye, i * shape[1] + i, 1);
  give(out, 0, mul(&s, expand_to(&s, G, IN), eye));
  return done(&s, n, out);
}

/* ---- sliding windows ----
 * Written with im2col, col2im and matmul, which are differentiable, so the
 * backward of a convolution or a pooling is itself differentiable. */

static Tensor *reshape_n(Scope *s, Tensor *a, int ndim, const int64_t *shape) {
  return a ? keep(s, ag_reshape(a, ndim, shape)) : NULL;
}
static Tensor *mm_any(Scope *s, Tensor *a, Tensor *b) {
  return a && b ? keep(s, ag_matmul(a, b)) : NULL;
}
static Tensor *swap_last(Scope *s, Tensor *a) {
  return a ? keep(s, ag_transpose(a, -1, -2)) : NULL;
}
static Tensor *im2col_of(Scope *s, Tensor *x, const TensorWindow *w) {
  return x ? keep(s, ag_im2col(x, w)) : NULL;
}
static Tensor *col2im_of(Scope *s, Tensor *cols, int64_t h, int64_t wd, const TensorWindow *w) {
  return cols ? keep(s, ag_col2im(cols, h, wd, w)) : NULL;
}

static bool d_im2col(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  TensorWindow w = ag_window_of(n);
  const int64_t *in = info_shape(IN);
  give(out, 0, col2im_of(&s, G, in[2], in[3], &w));
  return done(&s, n, out);
}

static bool d_col2im(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  TensorWindow w = ag_window_of(n);
  give(out, 0, im2col_of(&s, G, &w));
  return done(&s, n, out);
}

/* y = W cols(x) per sample and group: dW = g cols(x)^T summed over samples,
 * dx = col2im(W^T g), db = g summed over samples and positions. A 1-D
 * convolution runs as a 2-D one of height 1. */
/* Without create_graph: the per-sample kernel of tensor/conv.c (no batch of
 * columns, no per-sample weight gradients summed afterwards). */
static bool d_convolution_fused(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  TensorWindow w = ag_window_of(n);
  const AgInfo *xi = &n->in_info[0], *wi = &n->in_info[1];
  const int64_t *xs = info_shape(xi), *ws = info_shape(wi);
  bool one_d = xi->ndim == 3;
  int64_t x4[4] = {xs[0], xs[1], one_d ? 1 : xs[2], xs[xi->ndim - 1]};
  int64_t w4[4] = {ws[0], ws[1], one_d ? 1 : ws[2], ws[wi->ndim - 1]};
  int64_t per = xs[0] * ws[0], l = per != 0 ? info_numel(&n->out_info[0]) / per : 0;
  int64_t oh = one_d ? 1 : info_shape(&n->out_info[0])[2];
  int64_t g4[4] = {xs[0], ws[0], oh, oh ? l / oh : 0};
  Tensor *x = reshape_n(&s, saved(&s, n, 0), 4, x4), *wt = reshape_n(&s, saved(&s, n, 1), 4, w4);
  Tensor *gr = reshape_n(&s, G, 4, g4), *dx = NULL, *dw = NULL;
  bool want_w = needs[1];
  if (x && wt && gr &&
      tensor_conv2d_backward(x, wt, gr, &w, (int)node_p(n)->i0, needs[0] ? &dx : NULL,
                             want_w ? &dw : NULL)) {
    if (dx) give(out, 0, reshape_to(&s, keep(&s, dx), xi));
    if (dw) give(out, 1, reshape_to(&s, keep(&s, dw), wi));
  } else {
    s.failed = true;
  }
  if (!s.failed && n->nnext > 2 && needs[2]) {
    int64_t g3[3] = {xs[0], ws[0], l};
    Tensor *flat = reshape_n(&s, G, 3, g3);
    give(out, 2, flat ? keep(&s, ag_sum(flat, (int[]){0, 2}, 2, false)) : NULL);
  }
  return done(&s, n, out);
}

static bool d_convolution(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  if (!ag_is_grad_enabled() && dtype_is_float(G->dtype)) return d_convolution_fused(n, g, out, needs);
  Scope s;
  scope_open(&s);
  TensorWindow w = ag_window_of(n);
  int64_t groups = node_p(n)->i0;
  const AgInfo *xi = &n->in_info[0], *wi = &n->in_info[1];
  const int64_t *xs = info_shape(xi), *ws = info_shape(wi);
  bool one_d = xi->ndim == 3;
  int64_t bsz = xs[0], c = xs[1], h = one_d ? 1 : xs[2], wd = xs[xi->ndim - 1];
  int64_t o = ws[0], kk = w.kernel[0] * w.kernel[1], cg = c / groups, og = o / groups;
  int64_t l = info_numel(&n->out_info[0]) / (bsz * o);
  int64_t g4[4] = {bsz, groups, og, l};
  Tensor *gr = reshape_n(&s, G, 4, g4);
  if (needs[1]) {
    int64_t x4[4] = {bsz, c, h, wd}, c4[4] = {bsz, groups, cg * kk, l};
    Tensor *cols = reshape_n(&s, im2col_of(&s, reshape_n(&s, saved(&s, n, 0), 4, x4), &w), 4, c4);
    Tensor *gw = sum_dim(&s, mm_any(&s, gr, swap_last(&s, cols)), 0, false);
    give(out, 1, reshape_to(&s, gw, wi));
  }
  if (needs[0]) {
    int64_t w3[3] = {groups, og, cg * kk}, c3[3] = {bsz, c * kk, l};
    Tensor *wt = swap_last(&s, reshape_n(&s, saved(&s, n, 1), 3, w3));
    Tensor *cols = reshape_n(&s, mm_any(&s, wt, gr), 3, c3);
    give(out, 0, reshape_to(&s, col2im_of(&s, cols, h, wd, &w), xi));
  }
  if (n->nnext > 2 && needs[2]) {
    int64_t g3[3] = {bsz, o, l};
    Tensor *flat = reshape_n(&s, G, 3, g3);
    give(out, 2, flat ? keep(&s, ag_sum(flat, (int[]){0, 2}, 2, false)) : NULL);
  }
  return done(&s, n, out);
}

/* The gradient goes to the position each maximum came from. */
static bool d_max_pool2d(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *idx = saved(&s, n, 0);
  give(out, 0, G && idx ? keep(&s, ag_max_pool2d_backward(G, idx, IN)) : NULL);
  return done(&s, n, out);
}

/* Its backward's derivative: the gradient read back at the same positions. */
static bool d_max_pool2d_backward(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  const AgInfo *o = &n->out_info[0];
  const int64_t *os = info_shape(o);
  int64_t plane = os[o->ndim - 2] * os[o->ndim - 1];
  int64_t planes = plane ? info_numel(o) / plane : 0;
  Tensor *idx = saved(&s, n, 0);
  int64_t i2[2] = {planes, idx ? idx->numel / (planes ? planes : 1) : 0};
  int64_t g2[2] = {planes, plane};
  Tensor *flat = reshape_n(&s, G, 2, g2);
  Tensor *iflat = idx ? keep(&s, tensor_reshape(idx, 2, i2)) : NULL;
  Tensor *picked = flat && iflat ? keep(&s, ag_gather(flat, 1, iflat)) : NULL;
  give(out, 0, reshape_to(&s, picked, IN));
  return done(&s, n, out);
}

/* Each output's gradient, divided by its window's size, spread over the
 * window: col2im of the expanded gradient. */
static bool d_avg_pool2d(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  TensorWindow w = ag_window_of(n);
  const int64_t *in = info_shape(IN);
  int64_t h = in[IN->ndim - 2], wd = in[IN->ndim - 1];
  int64_t planes = info_numel(IN) / (h * wd), l = G->numel / planes;
  Tensor *div = keep(&s, tensor_avg_pool_divisors(h, wd, &w, node_p(n)->flag, node_p(n)->i0));
  Tensor *divc = div ? keep(&s, tensor_to_dtype(div, G->dtype)) : NULL;
  int64_t g3[3] = {planes, 1, l}, e3[3] = {planes, w.kernel[0] * w.kernel[1], l};
  Tensor *spread = dv(&s, reshape_n(&s, G, 3, g3), divc);
  Tensor *cols = spread ? keep(&s, ag_expand(spread, 3, e3)) : NULL;
  give(out, 0, reshape_to(&s, col2im_of(&s, cols, h, wd, &w), IN));
  return done(&s, n, out);
}

/* Adaptive average pooling and its backward are linear maps, each other's adjoint. */
static bool d_adaptive_avg_pool2d(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  const int64_t *in = info_shape(IN);
  give(out, 0, G ? keep(&s, ag_adaptive_avg_pool2d_backward(G, in[IN->ndim - 2], in[IN->ndim - 1]))
                 : NULL);
  return done(&s, n, out);
}

static bool d_adaptive_avg_pool2d_backward(GradNode *n, Tensor *const *g, Tensor **out,
                                           const bool *needs) {
  Scope s;
  scope_open(&s);
  const int64_t *in = info_shape(IN);
  give(out, 0, G ? keep(&s, ag_adaptive_avg_pool2d(G, in[IN->ndim - 2], in[IN->ndim - 1])) : NULL);
  return done(&s, n, out);
}

/* ---- normalisation ----
 * xhat recomputed from the saved input (recorded under create_graph):
 * dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)) over the
 * statistics' elements, or dxhat rstd with fixed (eval-mode) statistics;
 * dweight = sum(g xhat), dbias = sum(g) per channel. */
/* A training-mode batch norm's backward without create_graph: ATen's fused
 * kernel (tensor/batch_norm.c), from the saved input. */
static bool d_batch_norm_fused(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  Scope s;
  scope_open(&s);
  Tensor *x = saved(&s, n, 0), *w = node_p(n)->keepdim ? saved(&s, n, 1) : NULL;
  Tensor *grads[3] = {0};
  bool want_w = n->nnext > 1 && needs[1], want_b = n->nnext > 2 && needs[2];
  if (x && G && (w || !node_p(n)->keepdim) &&
      tensor_batch_norm_backward(x, G, w, node_p(n)->s0, needs[0] ? &grads[0] : NULL,
                                 want_w ? &grads[1] : NULL, want_b ? &grads[2] : NULL)) {
    for (int i = 0; i < 3; i++)
      if (grads[i]) give(out, i, reshape_to(&s, keep(&s, grads[i]), &n->in_info[i]));
  } else {
    s.failed = true;
  }
  return done(&s, n, out);
}

static bool d_native_norm(GradNode *n, Tensor *const *g, Tensor **out, const bool *needs) {
  const AgParams *p = node_p(n);
  if (p->i0 == AG_NORM_BATCH && !p->flag && !ag_is_grad_enabled() && dtype_is_float(G->dtype))
    return d_batch_norm_fused(n, g, out, needs);
  Scope s;
  scope_open(&s);
  NormLayout l;
  ag_norm_layout((AgNormKind)p->i0, IN->ndim, info_shape(IN), p->i1, &l);
  Tensor *x = saved(&s, n, 0), *mean = NULL, *var = NULL, *rstd = NULL;
  if (p->flag) {
    mean = saved(&s, n, 2);
    var = saved(&s, n, 3);
  }
  Tensor *xhat = x && (!p->flag || (mean && var))
                     ? keep(&s, ag_norm_normalize(x, &l, p->s0, mean, var, &rstd))
                     : NULL;
  if (xhat) keep(&s, rstd);
  Tensor *g2 = reshape_n(&s, G, l.naffine, l.affine);
  Tensor *xhat2 = reshape_n(&s, xhat, l.naffine, l.affine);
  if (n->nnext > 1 && needs[1]) {
    Tensor *gx = mul(&s, g2, xhat2);
    give(out, 1, reshape_to(&s, gx ? keep(&s, ag_sum(gx, l.sum, l.nsum, false)) : NULL,
                            &n->in_info[1]));
  }
  if (n->nnext > 2 && needs[2])
    give(out, 2, reshape_to(&s, g2 ? keep(&s, ag_sum(g2, l.sum, l.nsum, false)) : NULL,
                            &n->in_info[2]));
  if (needs[0]) {
    Tensor *gxhat = p->keepdim ? mul(&s, g2, reshape_n(&s, saved(&s, n, 1), l.nparam, l.param)) : g2;
    Tensor *gx1 = reshape_n(&s, gxhat, l.nstats, l.stats);
    Tensor *grad;
    if (p->flag) {
      grad = mul(&s, gx1, rstd);
    } else {
      Tensor *m1 = gx1 ? keep(&s, ag_mean(gx1, l.reduce, l.nreduce, true)) : NULL;
      Tensor *prod = mul(&s, gx1, xhat);
      Tensor *m2 = prod ? keep(&s, ag_mean(prod, l.reduce, l.nreduce, true)) : NULL;
      grad = mul(&s, rstd, sub(&s, sub(&s, gx1, m1), mul(&s, xhat, m2)));
    }
    give(out, 0, reshape_to(&s, grad, IN));
  }
  return done(&s, n, out);
}

/* Generated from AG_NODE_KINDS: a kind whose formula is missing or misspelt
 * does not compile. ENGINE kinds (AccumulateGrad, CustomBackward) are run by
 * the engine itself. */
#define ENGINE NULL
const AgDerivFn ag_derivatives[AG_NODE_COUNT] = {
#define AG_NODE_DERIVATIVE(name, derivative, jvp) [AG_NODE_##name] = derivative,
    AG_NODE_KINDS(AG_NODE_DERIVATIVE)
#undef AG_NODE_DERIVATIVE
};
#undef ENGINE

/* An elementwise op of one input: its Jacobian is diagonal, so its own
 * transpose, and the vjp formula applied to the tangent is the jvp. */
Tensor *jvp_diagonal(GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out) {
  Tensor *res[1] = {NULL};
  bool needs[1] = {true};
  bool outer_plain = fw_set_plain_saved(!wants_history(n, in, t));
  bool ok = ag_derivatives[n->kind](n, &t[0], res, needs);
  fw_set_plain_saved(outer_plain);
  if (!ok) return NULL;
  Scope s;
  scope_open(&s);
  return jvp_done(&s, keep(&s, res[0]), out);
}

/* The jvp rules, generated from the same list: every kind names one. */
const AgJvpFn ag_jvps[AG_NODE_COUNT] = {
#define AG_NODE_JVP(name, derivative, jvp) [AG_NODE_##name] = jvp,
    AG_NODE_KINDS(AG_NODE_JVP)
#undef AG_NODE_JVP
};
_Static_assert(sizeof ag_derivatives / sizeof ag_derivatives[0] == AG_NODE_COUNT,
               "one derivative per node kind");
