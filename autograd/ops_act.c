/* ops_act.c — activations with a number parameter (F.leaky_relu, F.elu,
 * F.silu, F.softplus, F.hardtanh), each one node named as PyTorch's
 * (LeakyReluBackward0, EluBackward0, SiluBackward0, SoftplusBackward0,
 * HardtanhBackward0).
 *
 * The forward is a few tensor/ ops; the node saves its input ("self") and the
 * parameters (s0, s1); the formulas are in derivatives.c.
 */
#include <math.h>

#include "autograd/internal.h"

/* out (computed without recording) becomes the output of a `kind` node. */
static Tensor *record_activation(AgNodeKind kind, Tensor *x, Tensor *out, double p0, double p1) {
  if (!ag_record_wanted(&x, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &x, 1, 1, 1);
  if (n) {
    node_save(n, 0, "self", x, false);
    node_params(n)->s0 = p0;
    node_params(n)->s1 = p1;
  }
  return ag_record_finish(n, out);
}

static bool require_float(const Tensor *x, const char *what) {
  if (dtype_is_float(x->dtype)) return true;
  tensor_set_error("\"%s\" not implemented for '%s'", what, tensor_dtype_torch_name(x->dtype));
  return false;
}

/* where(x > 0, x, f(x)) with f given by its value tensor. */
static Tensor *positive_or(const Tensor *x, Tensor *other) {
  Tensor *pos = other ? tensor_binary_scalar(BIN_GT, x, 0) : NULL;
  Tensor *out = pos ? tensor_where(pos, x, other) : NULL;
  tensor_release(pos);
  tensor_release(other);
  return out;
}

Tensor *ag_leaky_relu(Tensor *x, double slope) {
  if (!require_float(x, "leaky_relu_cpu")) return NULL;
  Tensor *out = positive_or(x, tensor_binary_scalar(BIN_MUL, x, slope));
  return record_activation(AG_NODE_LeakyReluBackward0, x, out, slope, 0);
}

/* PyTorch's hardtanh is clamp (so an integer tensor stays one), with a node
 * of its own: its gradient is zero at the bounds, where clamp's is not. */
Tensor *ag_hardtanh(Tensor *x, double min_val, double max_val) {
  if (x->dtype == DT_BOOL) {
    tensor_set_error("Bool inputs not supported for hardtanh");
    return NULL;
  }
  Tensor *out = tensor_clamp(x, min_val, max_val);
  return record_activation(AG_NODE_HardtanhBackward0, x, out, min_val, max_val);
}

/* x > 0 ? x : alpha (exp(x) - 1) */
Tensor *ag_elu(Tensor *x, double alpha) {
  if (!require_float(x, "elu_cpu")) return NULL;
  Tensor *e = tensor_unary(UN_EXP, x);
  Tensor *em1 = e ? tensor_binary_scalar(BIN_SUB, e, 1) : NULL;
  Tensor *neg = em1 ? tensor_binary_scalar(BIN_MUL, em1, alpha) : NULL;
  tensor_release(e);
  tensor_release(em1);
  return record_activation(AG_NODE_EluBackward0, x, positive_or(x, neg), alpha, 0);
}

Tensor *ag_silu(Tensor *x) {
  if (!require_float(x, "silu")) return NULL;
  Tensor *s = tensor_unary(UN_SIGMOID, x);
  Tensor *out = s ? tensor_binary(BIN_MUL, x, s) : NULL;
  tensor_release(s);
  return record_activation(AG_NODE_SiluBackward0, x, out, 0, 0);
}

/* beta x > threshold ? x : log1p(exp(beta x)) / beta, as PyTorch's kernel */
static Tensor *softplus_values(const Tensor *x, double beta, double threshold) {
  if (!dtype_is_native(x->dtype)) { /* float16, bfloat16: in float32, rounded back */
    Tensor *wide = tensor_widen(x);
    Tensor *r = wide ? softplus_values(wide, beta, threshold) : NULL;
    tensor_release(wide);
    return tensor_narrow_to(r, x->dtype);
  }
  Tensor *c = tensor_contiguous(x);
  Tensor *out = c ? tensor_empty(x->dtype, x->ndim, x->shape) : NULL;
  if (out && x->dtype == DT_FLOAT32) {
    const float *src = tensor_data(c);
    float *dst = tensor_data(out);
    float b = (float)beta, t = (float)threshold;
    for (int64_t i = 0; i < x->numel; i++)
      dst[i] = src[i] * b > t ? src[i] : log1pf(expf(src[i] * b)) / b;
  } else if (out) {
    const double *src = tensor_data(c);
    double *dst = tensor_data(out);
    for (int64_t i = 0; i < x->numel; i++)
      dst[i] = src[i] * beta > threshold ? src[i] : log1p(exp(src[i] * beta)) / beta;
  }
  tensor_release(c);
  return out;
}

Tensor *ag_softplus(Tensor *x, double beta, double threshold) {
  if (!require_float(x, "softplus")) return NULL;
  return record_activation(AG_NODE_SoftplusBackward0, x, softplus_values(x, beta, threshold), beta,
                           threshold);
}
