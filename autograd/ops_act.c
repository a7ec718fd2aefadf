/* ops_act.c — the forwards of the activations with number parameters, one
 * per row of ops/activations.h (F.leaky_relu, F.elu, F.silu, F.softplus,
 * F.hardtanh), and their recording as the row's node.
 *
 * A forward act_NAME(x, p) computes the values from a few tensor/ ops,
 * without recording; ag_activation records the row's node, which saves the
 * input ("self") and the parameters (s0, s1); the formulas are in
 * derivatives.c.
 */
#include <math.h>

#include "autograd/internal.h"

/* out (computed without recording) becomes the output of a `kind` node,
 * which saves the input ("self") or, for an in-place node that reads the
 * result, out ("result"), and the parameters. */
static Tensor *record_activation(AgNodeKind kind, bool saves_result, Tensor *x, Tensor *out,
                                 const double *p, int nparams) {
  if (!ag_record_wanted(&x, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &x, 1, 1, 1);
  if (n) {
    if (saves_result) node_save(n, 0, "result", out, true);
    else node_save(n, 0, "self", x, false);
    node_params(n)->s0 = nparams > 0 ? p[0] : 0;
    node_params(n)->s1 = nparams > 1 ? p[1] : 0;
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

/* p: negative_slope */
static Tensor *act_leaky_relu(Tensor *x, const double *p) {
  if (!require_float(x, "leaky_relu_cpu")) return NULL;
  return positive_or(x, tensor_binary_scalar(BIN_MUL, x, p[0]));
}

/* p: min_val, max_val. PyTorch's hardtanh is clamp (so an integer tensor
 * stays one), with a node of its own: its gradient is zero at the bounds,
 * where clamp's is not. */
static Tensor *act_hardtanh(Tensor *x, const double *p) {
  if (x->dtype == DT_BOOL) {
    tensor_set_error("Bool inputs not supported for hardtanh");
    return NULL;
  }
  return tensor_clamp(x, p[0], p[1]);
}

/* x > 0 ? x : alpha (exp(x) - 1); p: alpha */
static Tensor *act_elu(Tensor *x, const double *p) {
  if (!require_float(x, "elu_cpu")) return NULL;
  Tensor *e = tensor_unary(UN_EXP, x);
  Tensor *em1 = e ? tensor_binary_scalar(BIN_SUB, e, 1) : NULL;
  Tensor *neg = em1 ? tensor_binary_scalar(BIN_MUL, em1, p[0]) : NULL;
  tensor_release(e);
  tensor_release(em1);
  return positive_or(x, neg);
}

/* x sigmoid(x); no parameters */
static Tensor *act_silu(Tensor *x, const double *p) {
  (void)p;
  if (!require_float(x, "silu")) return NULL;
  Tensor *s = tensor_unary(UN_SIGMOID, x);
  Tensor *out = s ? tensor_binary(BIN_MUL, x, s) : NULL;
  tensor_release(s);
  return out;
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

/* p: beta, threshold */
static Tensor *act_softplus(Tensor *x, const double *p) {
  if (!require_float(x, "softplus")) return NULL;
  return softplus_values(x, p[0], p[1]);
}

/* Each row's forward, node kinds (out of place, in place) and count of parameters. */
#define INPLACE_KIND_INPLACE_OWN_NODE(node, inode) AG_NODE_##inode
#define INPLACE_KIND_INPLACE(node, inode) AG_NODE_##node
#define INPLACE_KIND_NO_INPLACE(node, inode) AG_NODE_COUNT /* none */
static const struct {
  Tensor *(*forward)(Tensor *x, const double *p);
  AgNodeKind kind, inplace_kind;
  bool inplace_saves_result;
  int nparams;
} activations[AG_ACT_COUNT] = {
#define ACTIVATION_ROW(C, NAME, name, node, formula, inplace, inode, iformula, params, ...)        \
  [AG_ACT_##NAME] = {act_##name, AG_NODE_##node, INPLACE_KIND_##inplace(node, inode),              \
                     AG_NODE_##node != INPLACE_KIND_##inplace(node, inode), AG_ACT_NPARAMS(params)},
    AG_ACTIVATION_REGISTRY(ACTIVATION_ROW, 0)
#undef ACTIVATION_ROW
};

Tensor *ag_activation(AgActivation a, Tensor *x, const double *p) {
  Tensor *out = activations[a].forward(x, p);
  return record_activation(activations[a].kind, false, x, out, p, activations[a].nparams);
}

typedef struct {
  AgActivation a;
  const double *p;
} ActivationCall;

/* The values for x (a copy of the tensor written into), recorded as the
 * row's in-place node. */
static Tensor *inplace_values(Tensor *x, void *ctx) {
  const ActivationCall *c = ctx;
  Tensor *out = activations[c->a].forward(x, c->p);
  return record_activation(activations[c->a].inplace_kind, activations[c->a].inplace_saves_result,
                           x, out, c->p, activations[c->a].nparams);
}

bool ag_activation_(AgActivation a, Tensor *x, const double *p) {
  AG_ASSERT(activations[a].inplace_kind != AG_NODE_COUNT);
  ActivationCall call = {a, p};
  return ag_apply_inplace(x, NULL, inplace_values, &call);
}
