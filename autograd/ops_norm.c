/* ops_norm.c — batch, layer and group normalisation (F.batch_norm,
 * F.layer_norm, F.group_norm), each one node as in PyTorch
 * (NativeBatchNormBackward0, NativeLayerNormBackward0, NativeGroupNormBackward0).
 *
 * All three normalise x over some of its elements, then scale and shift per
 * channel (or per normalised element). A NormLayout says how: x viewed as
 * `stats` shape, statistics over the `reduce` dims of it; x viewed as
 * `affine` shape for weight and bias, which are viewed as `param`. The
 * normalisation is written with differentiable ops (ag_norm_normalize), so
 * the forward (grad mode off) and the derivative in derivatives.c (which
 * recomputes it from the saved input, recording under create_graph) share
 * it and the backward is differentiable again.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "autograd/internal.h"

void ag_norm_layout(AgNormKind kind, int ndim, const int64_t *shape, int64_t param,
                    NormLayout *l) {
  int64_t numel = 1;
  for (int d = 0; d < ndim; d++)
    numel *= shape[d];
  memset(l, 0, sizeof *l);
  if (kind == AG_NORM_LAYER) { /* param: the number of normalised elements */
    int64_t k = param, m = k ? numel / k : 0;
    l->nstats = l->naffine = 2;
    l->stats[0] = l->affine[0] = m;
    l->stats[1] = l->affine[1] = k;
    l->nreduce = 1;
    l->reduce[0] = 1;
    l->nparam = 1;
    l->param[0] = k;
    l->nsum = 1;
    l->sum[0] = 0;
    return;
  }
  int64_t n = shape[0], c = ndim > 1 ? shape[1] : 1, s = n * c != 0 ? numel / (n * c) : 0;
  l->naffine = 3;
  l->affine[0] = n;
  l->affine[1] = c;
  l->affine[2] = s;
  l->nparam = 2;
  l->param[0] = c;
  l->param[1] = 1;
  l->nsum = 2;
  l->sum[0] = 0;
  l->sum[1] = 2;
  l->nstats = 3;
  if (kind == AG_NORM_GROUP) { /* param: the number of groups */
    l->stats[0] = n;
    l->stats[1] = param;
    l->stats[2] = param ? c / param * s : 0;
    l->nreduce = 1;
    l->reduce[0] = 2;
  } else {
    memcpy(l->stats, l->affine, sizeof l->stats);
    l->nreduce = 2;
    l->reduce[0] = 0;
    l->reduce[1] = 2;
  }
}

/* (x - mean) * rstd in the stats view, differentiable; the statistics come
 * from x, or (eval-mode batch norm) from mean/var given per channel. *rstd
 * (optional) receives 1/sqrt(var + eps) in the stats view. */
Tensor *ag_norm_normalize(Tensor *x, const NormLayout *l, double eps, Tensor *mean, Tensor *var,
                          Tensor **rstd) {
  Tensor *t[8] = {0};
  int k = 0;
  Tensor *x1 = t[k++] = ag_reshape(x, l->nstats, l->stats);
  Tensor *mu, *v;
  if (mean) {
    int64_t per_channel[3] = {1, l->stats[1], 1};
    mu = t[k++] = ag_reshape(mean, 3, per_channel);
    v = t[k++] = ag_reshape(var, 3, per_channel);
  } else {
    mu = t[k++] = x1 ? ag_mean(x1, l->reduce, l->nreduce, true) : NULL;
    v = NULL;
  }
  Tensor *xc = t[k++] = x1 && mu ? ag_binary(BIN_SUB, x1, mu) : NULL;
  if (!mean) {
    Tensor *sq = t[k++] = xc ? ag_binary(BIN_MUL, xc, xc) : NULL;
    v = t[k++] = sq ? ag_mean(sq, l->reduce, l->nreduce, true) : NULL;
  }
  Tensor *ve = t[k++] = v ? ag_binary_scalar(BIN_ADD, v, eps) : NULL;
  Tensor *r = ve ? ag_binary_scalar(BIN_POW, ve, -0.5) : NULL;
  Tensor *out = xc && r ? ag_binary(BIN_MUL, xc, r) : NULL;
  for (int i = 0; i < k; i++)
    tensor_release(t[i]);
  if (rstd && out) *rstd = r;
  else tensor_release(r);
  return out;
}

/* y = xhat * weight + bias in x's shape (weight, bias may be NULL). */
static Tensor *affine(Tensor *xhat, const NormLayout *l, Tensor *weight, Tensor *bias,
                      const Tensor *x) {
  Tensor *y = ag_reshape(xhat, l->naffine, l->affine);
  Tensor *ps[2] = {weight, bias};
  for (int i = 0; i < 2 && y; i++) {
    if (!ps[i]) continue;
    Tensor *p = ag_reshape(ps[i], l->nparam, l->param);
    Tensor *next = p ? ag_binary(i == 0 ? BIN_MUL : BIN_ADD, y, p) : NULL;
    tensor_release(p);
    tensor_release(y);
    y = next;
  }
  Tensor *out = y ? ag_reshape(y, x->ndim, x->shape) : NULL;
  tensor_release(y);
  return out;
}

static bool same_dtype(const Tensor *x, const Tensor *p, const char *what) {
  if (!p || p->dtype == x->dtype) return true;
  tensor_set_error("expected scalar type %s but found %s (%s)", tensor_dtype_torch_name(x->dtype),
                   tensor_dtype_torch_name(p->dtype), what);
  return false;
}

/* running = (1 - momentum) running + momentum stat, in place (a version bump). */
static bool update_running(Tensor *running, Tensor *stat, double momentum) {
  Tensor *flat = tensor_reshape(stat, running->ndim, running->shape);
  Tensor *cast = flat ? tensor_to_dtype(flat, running->dtype) : NULL;
  Tensor *a = cast ? tensor_binary_scalar(BIN_MUL, running, 1 - momentum) : NULL;
  Tensor *b = a ? tensor_binary_scalar(BIN_MUL, cast, momentum) : NULL;
  Tensor *sum = b ? tensor_binary(BIN_ADD, a, b) : NULL;
  bool ok = sum && tensor_copy_(running, sum);
  tensor_release(flat);
  tensor_release(cast);
  tensor_release(a);
  tensor_release(b);
  tensor_release(sum);
  return ok;
}

/* The batch's mean and unbiased variance per channel, for the running stats. */
static bool batch_stats(Tensor *x, const NormLayout *l, Tensor **mean, Tensor **var) {
  Tensor *x1 = tensor_reshape(x, l->nstats, l->stats);
  *mean = x1 ? tensor_mean(x1, l->reduce, l->nreduce, false) : NULL;
  *var = x1 ? tensor_var(x1, l->reduce, l->nreduce, true, false) : NULL;
  tensor_release(x1);
  return *mean && *var;
}

static Tensor *record_norm(AgNodeKind kind, AgNormKind norm, int64_t param, Tensor *x,
                           Tensor *weight, Tensor *bias, Tensor *out, double eps, Tensor *mean,
                           Tensor *var) {
  Tensor *ins[3] = {x, weight, bias};
  if (!ag_record_wanted(ins, 3, out)) return out;
  GradNode *n = ag_record_node_params(kind, ins, 3, 4, 1);
  if (n) {
    node_save(n, 0, "input", x, false);
    if (weight) node_save(n, 1, "weight", weight, false);
    if (mean) { /* eval-mode statistics: copies, later updates do not touch them */
      Tensor *mc = tensor_clone(mean), *vc = tensor_clone(var);
      if (mc && vc) {
        node_save(n, 2, "running_mean", mc, false);
        node_save(n, 3, "running_var", vc, false);
      }
      tensor_release(mc);
      tensor_release(vc);
    }
    AgParams *p = node_params(n);
    p->i0 = norm;
    p->i1 = param;
    p->s0 = eps;
    p->flag = mean != NULL;
    p->keepdim = weight != NULL; /* the formula scales by the saved weight */
  }
  return ag_record_finish(n, out);
}

/* The forward: normalise with grad mode off, then record one node. */
static Tensor *norm_forward(AgNodeKind kind, AgNormKind norm, int64_t param, Tensor *x,
                            Tensor *weight, Tensor *bias, double eps, Tensor *mean, Tensor *var) {
  if (!dtype_is_float(x->dtype)) {
    tensor_set_error("\"%s\" not implemented for '%s'",
                     norm == AG_NORM_BATCH ? "batch_norm" : norm == AG_NORM_LAYER ? "layer_norm"
                                                                                  : "group_norm",
                     tensor_dtype_torch_name(x->dtype));
    return NULL;
  }
  if (!same_dtype(x, weight, "weight") || !same_dtype(x, bias, "bias")) return NULL;
  NormLayout l;
  ag_norm_layout(norm, x->ndim, x->shape, param, &l);
  bool was = ag_set_grad_enabled(false);
  Tensor *mc = mean ? tensor_to_dtype(mean, x->dtype) : NULL;
  Tensor *vc = var ? tensor_to_dtype(var, x->dtype) : NULL;
  Tensor *xhat = ag_norm_normalize(x, &l, eps, mc, vc, NULL);
  Tensor *out = xhat ? affine(xhat, &l, weight, bias, x) : NULL;
  ag_set_grad_enabled(was);
  tensor_release(xhat);
  out = ag_fresh_result(out);
  out = record_norm(kind, norm, param, x, weight, bias, out, eps, mc, vc);
  tensor_release(mc);
  tensor_release(vc);
  return out;
}

/* Training-mode batch norm on ATen's fused kernel (tensor/batch_norm.c): the
 * statistics in one pass, the running statistics from them, one node. */
static Tensor *batch_norm_train(Tensor *x, Tensor *running_mean, Tensor *running_var,
                                Tensor *weight, Tensor *bias, double momentum, double eps) {
  Tensor *mean = NULL, *var = NULL;
  Tensor *out = tensor_batch_norm_train(x, weight, bias, eps, &mean, &var);
  bool ok = out && (!running_mean || !running_var ||
                    (update_running(running_mean, mean, momentum) &&
                     update_running(running_var, var, momentum)));
  tensor_release(mean);
  tensor_release(var);
  if (!ok) {
    tensor_release(out);
    return NULL;
  }
  out = ag_fresh_result(out);
  return record_norm(AG_NODE_NativeBatchNormBackward0, AG_NORM_BATCH, 0, x, weight, bias, out,
                     eps, NULL, NULL);
}

static bool check_param(const Tensor *p, int64_t n, const char *what, const Tensor *x) {
  if (!p || (p->ndim == 1 && p->shape[0] == n)) return true;
  char ps[96], xs[96];
  tensor_format_shape(ps, sizeof ps, p->ndim, p->shape);
  tensor_format_shape(xs, sizeof xs, x->ndim, x->shape);
  tensor_set_error("Expected %s to be a vector of size equal to the number of channels in "
                   "input, but got %s of shape %s and input of shape %s", what, what, ps, xs);
  return false;
}

Tensor *ag_batch_norm(Tensor *x, Tensor *running_mean, Tensor *running_var, Tensor *weight,
                      Tensor *bias, bool training, double momentum, double eps) {
  if (x->ndim < 2) {
    tensor_set_error("batch_norm: expected an input of at least 2 dimensions, got %dD", x->ndim);
    return NULL;
  }
  int64_t c = x->shape[1];
  Tensor *stats[2] = {running_mean, running_var};
  for (int i = 0; i < 2; i++)
    if (stats[i] && stats[i]->numel != c) {
      tensor_set_error("%s should contain %lld elements not %lld",
                       i == 0 ? "running_mean" : "running_var", (long long)c,
                       (long long)stats[i]->numel);
      return NULL;
    }
  if (!check_param(weight, c, "weight", x) || !check_param(bias, c, "bias", x)) return NULL;
  if (!training && (!running_mean || !running_var)) {
    tensor_set_error("running_mean and running_var must be defined in evaluation mode");
    return NULL;
  }
  if (training && x->numel / (c ? c : 1) <= 1) {
    char xs[96];
    tensor_format_shape(xs, sizeof xs, x->ndim, x->shape);
    tensor_set_error("Expected more than 1 value per channel when training, got input size %s", xs);
    return NULL;
  }
  if (training && dtype_is_float(x->dtype) && same_dtype(x, weight, "weight") &&
      same_dtype(x, bias, "bias"))
    return batch_norm_train(x, running_mean, running_var, weight, bias, momentum, eps);
  if (training && running_mean && running_var) {
    NormLayout l;
    Tensor *m = NULL, *v = NULL;
    ag_norm_layout(AG_NORM_BATCH, x->ndim, x->shape, 0, &l);
    bool ok = batch_stats(x, &l, &m, &v) && update_running(running_mean, m, momentum) &&
              update_running(running_var, v, momentum);
    tensor_release(m);
    tensor_release(v);
    if (!ok) return NULL;
  }
  return norm_forward(AG_NODE_NativeBatchNormBackward0, AG_NORM_BATCH, 0, x, weight, bias, eps,
                      training ? NULL : running_mean, training ? NULL : running_var);
}

Tensor *ag_layer_norm(Tensor *x, int nnorm, const int64_t *normalized, Tensor *weight,
                      Tensor *bias, double eps) {
  int64_t k = 1;
  bool fits = nnorm >= 1 && nnorm <= x->ndim;
  for (int d = 0; d < nnorm && fits; d++) {
    fits = x->shape[x->ndim - nnorm + d] == normalized[d];
    k *= normalized[d];
  }
  const Tensor *ps[2] = {weight, bias};
  for (int i = 0; i < 2 && fits; i++)
    fits = !ps[i] || (ps[i]->ndim == nnorm &&
                      memcmp(ps[i]->shape, normalized, (size_t)nnorm * sizeof *normalized) == 0);
  if (!fits) {
    char ns[96], xs[96], star[96] = "*";
    tensor_format_shape(ns, sizeof ns, nnorm, normalized);
    tensor_format_shape(xs, sizeof xs, x->ndim, x->shape);
    for (int d = 0; d < nnorm; d++) {
      size_t len = strlen(star);
      snprintf(star + len, sizeof star - len, ", %lld", (long long)normalized[d]);
    }
    tensor_set_error("Given normalized_shape=%s, expected input with shape [%s], but got input "
                     "of size%s", ns, star, xs);
    return NULL;
  }
  return norm_forward(AG_NODE_NativeLayerNormBackward0, AG_NORM_LAYER, k, x, weight, bias, eps,
                      NULL, NULL);
}

Tensor *ag_group_norm(Tensor *x, int64_t groups, Tensor *weight, Tensor *bias, double eps) {
  if (x->ndim < 2) {
    tensor_set_error("Expected at least 2 dimensions for input tensor but received %d", x->ndim);
    return NULL;
  }
  int64_t c = x->shape[1];
  if (groups <= 0 || c % groups != 0) {
    char xs[96];
    tensor_format_shape(xs, sizeof xs, x->ndim, x->shape);
    tensor_set_error("Expected number of channels in input to be divisible by num_groups, but "
                     "got input of shape %s and num_groups=%lld", xs, (long long)groups);
    return NULL;
  }
  if (!check_param(weight, c, "weight", x) || !check_param(bias, c, "bias", x)) return NULL;
  return norm_forward(AG_NODE_NativeGroupNormBackward0, AG_NORM_GROUP, groups, x, weight, bias,
                      eps, NULL, NULL);
}
