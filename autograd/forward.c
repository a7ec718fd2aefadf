/* forward.c — forward-mode AD: dual levels and tangents, as PyTorch 1.13's
 * torch.autograd.forward_ad.
 *
 * A dual tensor is a tensor whose meta holds a tangent for the open dual
 * level. An op whose input has a tangent is recorded as usual (ops.c asks
 * ag_should_record, which says yes for a tangent too): while the node is
 * built, node.c hands each input to fw_note_input, which keeps it and its
 * tangent in the node (AgForward); when an output is set, the node kind's
 * jvp rule (ag_jvps, beside its vjp rule) computes the output's tangent from
 * them. A node recorded for forward AD alone (grad mode off, or no input
 * requiring grad) gives its output no grad_fn and dies with the op.
 *
 * The jvp rules run with forward AD suspended, so that the tensors they
 * compute with are plain (one level: a tangent has no tangent of its own);
 * they are written with the differentiable ag_* ops, so a tangent has a
 * history of its own when grad mode is on (reverse-over-forward). Saved
 * values keep the tangent their tensor had (node.c), so a backward through
 * a dual tensor's graph computes the tangent of the gradient: a
 * Hessian-vector product (forward-over-reverse).
 *
 * Plain code pays one state test per op (fw_active, inline) and nothing per
 * tensor: a tensor without autograd state has no meta to look into.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

struct AgForward {
  int nin;
  Tensor **in; /* the node's inputs (retained; NULL: a number or no input) */
  Tensor **t;  /* their tangents (retained; NULL: zero) */
};

/* The level, the suspension count, the sentinel and plain_saved live in the
 * current AutogradState (state.h, fw_ fields). */

int fw_suspend(int delta) {
  AutogradState *st = ag_state();
  int prev = st->fw_suspended;
  st->fw_suspended += delta;
  return prev;
}

int ag_fw_level(void) { return ag_state()->fw_open_level ? 0 : -1; }

int ag_fw_enter_level(void) {
  AutogradState *st = ag_state();
  if (st->fw_open_level) {
    tensor_set_error("Nested forward mode AD is not supported at the moment");
    return -1;
  }
  st->fw_open_level = ++st->fw_level_ids;
  return 0;
}

bool ag_fw_exit_level(void) {
  AutogradState *st = ag_state();
  if (!st->fw_open_level) {
    tensor_set_error("Trying to exit a forward AD level that was not the last one that was "
                     "created. This is not supported.");
    return false;
  }
  st->fw_open_level = 0; /* every tangent of the level is now stale (fw_tangent ignores it) */
  return true;
}

Tensor *fw_tangent(const Tensor *t) {
  if (!t || !t->meta || !fw_active()) return NULL;
  AgMeta *m = meta_of(t);
  return m->tangent && m->tangent_level == ag_state()->fw_open_level ? m->tangent : NULL;
}

Tensor *ag_fw_tangent(const Tensor *t) {
  AutogradState *st = ag_state();
  if (!t || !t->meta || !st->fw_open_level) return NULL;
  AgMeta *m = meta_of(t);
  return m->tangent && m->tangent_level == st->fw_open_level ? m->tangent : NULL;
}

bool ag_fw_set_tangent(Tensor *t, Tensor *tangent) {
  AutogradState *st = ag_state();
  AgMeta *m = meta_get(t);
  if (!m) return false;
  Tensor *old = m->tangent;
  m->tangent = tangent ? tensor_retain(tangent) : NULL;
  m->tangent_level = st->fw_open_level;
  tensor_release(old);
  return true;
}

GradNode *fw_sentinel(void) {
  AutogradState *st = ag_state();
  if (!st->fw_sentinel) st->fw_sentinel = node_new(AG_NODE_AccumulateGrad, 0, 0, 0, false);
  return st->fw_sentinel;
}

void ag_fw_free_caches(void) {
  AutogradState *st = ag_state();
  grad_node_release(st->fw_sentinel);
  st->fw_sentinel = NULL;
}

void fw_free(AgForward *f) {
  if (!f) return;
  for (int i = 0; i < f->nin; i++) {
    tensor_release(f->in[i]);
    tensor_release(f->t[i]);
  }
  free(f);
}

static AgForward *stash_of(GradNode *n) {
  AgNodeExtra *x = node_extra(n);
  if (!x) return NULL;
  if (!x->fw) {
    int k = n->nnext > 0 ? n->nnext : 1;
    AgForward *f = calloc(1, sizeof *f + 2 * (size_t)k * sizeof(Tensor *));
    if (!f) return NULL;
    f->nin = n->nnext;
    f->in = (Tensor **)(f + 1);
    f->t = f->in + k;
    x->fw = f;
  }
  return x->fw;
}

/* Every input is kept (a later input may be the one with a tangent). An
 * input with a tangent and no gradient edge gets the sentinel edge, so that
 * the node saves what its vjp formula needs (the generic jvp runs it). */
void fw_note_input(GradNode *n, int i, Tensor *t) {
  AgForward *f = stash_of(n);
  if (!f || i >= f->nin) return;
  f->in[i] = tensor_retain(t);
  Tensor *tangent = fw_tangent(t);
  if (!tangent) return;
  f->t[i] = tensor_retain(tangent);
  GradNode *sentinel = n->next[i].node ? NULL : fw_sentinel();
  if (sentinel) n->next[i].node = grad_node_retain(sentinel);
}

static bool has_tangent_input(const AgForward *f) {
  for (int i = 0; i < f->nin; i++)
    if (f->t[i]) return true;
  return false;
}

bool fw_only(const GradNode *n) {
  if (!grad_enabled()) return true;
  const GradNode *sentinel = ag_state()->fw_sentinel;
  for (int i = 0; i < n->nnext; i++)
    if (n->next[i].node && n->next[i].node != sentinel) return false;
  return true;
}

/* A node that stays in the graph loses its sentinel edges (nothing flows there). */
static void drop_sentinels(GradNode *n) {
  AutogradState *st = ag_state();
  for (int i = 0; i < n->nnext; i++)
    if (n->next[i].node && n->next[i].node == st->fw_sentinel) {
      grad_node_release(st->fw_sentinel);
      n->next[i].node = NULL;
      n->next[i].input_nr = 0;
    }
}

void fw_note_output(GradNode *n, int i, Tensor *out) {
  (void)i;
  (void)out;
  if (!fw_only(n)) drop_sentinels(n);
}

/* The tangent of output i, from the node's jvp rule; saved copies of that
 * output get it too (forward-over-reverse). */
bool fw_finish_output(GradNode *n, int i, Tensor *out) {
  AgForward *f = n->extra->fw;
  if (!has_tangent_input(f)) return true;
  fw_suspend(1);
  Tensor *tangent = ag_jvps[n->kind](n, i, f->in, f->t, out);
  fw_suspend(-1);
  if (!tangent) return false;
  bool ok = ag_fw_set_tangent(out, tangent);
  for (int k = 0; ok && k < n->nsaved; k++) {
    AgSaved *s = &n->saved[k];
    if (s->data && s->is_output && s->output_nr == i && !s->tangent) {
      /* without history: the tangent's own graph may save this output,
       * whose node holds this slot (exp's jvp multiplies by the result),
       * and that cycle would never be freed */
      s->tangent = tensor_alias(tangent);
      ok = s->tangent != NULL;
    }
  }
  tensor_release(tangent);
  return ok;
}

/* ---- the rules every kind can name ---- */

Tensor *jvp_none(GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out) {
  const char *name = grad_node_name(n);
  if (n->kind == AG_NODE_NotImplemented) {
    tensor_set_not_implemented_error("Trying to use forward AD with aten::%s that does not "
                                     "support it.", node_p(n)->aten ? node_p(n)->aten : "?");
    return NULL;
  }
  if (n->kind == AG_NODE_CustomBackward) {
    tensor_set_not_implemented_error("You must implement the jvp function for custom "
                                     "autograd.Function to use it with forward mode AD.");
    return NULL;
  }
  /* the ATen op: the node's name without "Backward0" (Unique2Backward0: _unique2) */
  char op[96];
  size_t len = strcspn(name, "B");
  snprintf(op, sizeof op, "%.*s", (int)len, name);
  if (n->kind == AG_NODE_Unique2Backward0) snprintf(op, sizeof op, "_unique2");
  if (n->kind == AG_NODE_UniqueDimBackward0) snprintf(op, sizeof op, "unique_dim");
  tensor_set_not_implemented_error(
      "Trying to use forward AD with %s that does not support it because it has not been "
      "implemented yet.\nPlease file an issue to PyTorch at "
      "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we "
      "can prioritize its implementation.", op);
  return NULL;
}

/* Whether a rule's tangent is to be differentiable (reverse-over-forward):
 * grad mode on and an input or tangent with history. Never inside a
 * backward (forward-over-reverse): a run started there would walk the graph
 * that backward is running, whose nodes hold its tasks. Otherwise the saved
 * values are read without history (a node recorded for forward AD alone
 * must not become part of anything's graph). */
bool wants_history(const GradNode *n, Tensor *const *in, Tensor *const *t) {
  if (!ag_is_grad_enabled() || ag_engine_running()) return false;
  for (int k = 0; k < n->nnext; k++)
    if (ag_requires_grad(in[k]) || ag_requires_grad(t[k])) return true;
  return false;
}

bool fw_set_plain_saved(bool plain) {
  AutogradState *st = ag_state();
  bool was = st->fw_plain_saved;
  st->fw_plain_saved = plain;
  return was;
}

/* t with v's shape: expanded (t broadcast in the op) or, same count, reshaped. */
static Tensor *shaped_like(Tensor *t, const Tensor *v) {
  if (t->ndim == v->ndim && !memcmp(t->shape, v->shape, (size_t)t->ndim * sizeof(int64_t)))
    return tensor_retain(t);
  if (t->numel == v->numel) return ag_reshape(t, v->ndim, v->shape);
  return ag_expand(t, v->ndim, v->shape);
}

/* The vjp formula is linear in its grad_output g: vjp(g) = J^T g. So
 * J t = d/dg <vjp(g), t>, one backward of the formula's own graph with the
 * tangents as its grad_outputs. Correct for every kind whose formula is
 * built from differentiable ops; about three backwards' cost. */
Tensor *jvp_transposed(GradNode *n, int oi, Tensor *const *in, Tensor *const *t, Tensor *out) {
  bool history = wants_history(n, in, t);
  bool outer_grad = ag_set_grad_enabled(true);
  bool outer_plain = fw_set_plain_saved(!history);
  int nout = n->noutputs, nin = n->nnext;
  Tensor **gs = calloc((size_t)(nout + 3 * nin), sizeof(Tensor *));
  bool *needs = calloc((size_t)(nin ? nin : 1), sizeof(bool));
  Tensor *result = NULL;
  if (!gs || !needs) {
    tensor_set_error("out of memory");
    goto done;
  }
  Tensor **vj = gs + nout, **roots = vj + nin, **seeds = roots + nin;
  bool ok = true;
  for (int k = 0; ok && k < nout; k++) {
    const AgInfo *info = &n->out_info[k];
    gs[k] = tensor_zeros(info->dtype, info->ndim, info_shape(info));
    ok = gs[k] && (k != oi || ag_set_requires_grad(gs[k], true));
  }
  for (int k = 0; k < nin; k++)
    needs[k] = t[k] != NULL && n->next[k].node != NULL;
  ok = ok && ag_derivatives[n->kind](n, gs, vj, needs);
  int nroots = 0;
  for (int k = 0; ok && k < nin; k++)
    if (needs[k] && vj[k] && ag_requires_grad(vj[k])) {
      roots[nroots] = vj[k];
      /* a formula may leave its gradient broadcast (the engine sums it to
       * the input's shape): <sum_to(v), t> = <v, expand(t)> */
      ok = (seeds[nroots++] = shaped_like(t[k], vj[k])) != NULL;
    }
  if (ok && nroots) ok = ag_grad(roots, seeds, nroots, &gs[oi], 1, false, history, true, &result);
  if (ok && !result) result = tensor_zeros(out->dtype, out->ndim, out->shape);
  for (int k = 0; k < nroots; k++)
    tensor_release(seeds[k]);
  for (int k = 0; k < nin; k++)
    tensor_release(vj[k]);
  for (int k = 0; k < nout; k++)
    tensor_release(gs[k]);
done:
  free(gs);
  free(needs);
  fw_set_plain_saved(outer_plain);
  ag_set_grad_enabled(outer_grad);
  return result;
}

/* ---- make_dual / unpack_dual ---- */

static bool check_tangent_shape(const Tensor *primal, const Tensor *tangent);

/* A view of t made with forward AD suspended: it has t's history (the
 * node `kind`: ViewBackward0 for make_dual, Identity for unpack_dual, as
 * PyTorch records them), not t's tangent. */
static Tensor *plain_view(Tensor *t, bool identity) {
  fw_suspend(1);
  Tensor *v = identity ? ag_identity_view(t) : ag_view(t, t->ndim, t->shape);
  fw_suspend(-1);
  return v;
}

bool ag_fw_set_enabled(bool enabled) {
  AutogradState *st = ag_state();
  bool was = st->fw_suspended == 0;
  if (enabled != was) st->fw_suspended += enabled ? -1 : 1;
  return was;
}

bool ag_fw_attach(Tensor *t, Tensor *tangent) {
  return check_tangent_shape(t, tangent) && ag_fw_set_tangent(t, tangent);
}

Tensor *ag_make_dual(Tensor *primal, Tensor *tangent) {
  AutogradState *st = ag_state();
  if (!st->fw_open_level) {
    tensor_set_error("Trying to create a dual Tensor for forward AD but no level exists, make "
                     "sure to enter_dual_level() first.");
    return NULL;
  }
  if (!check_tangent_shape(primal, tangent)) return NULL;
  /* as PyTorch: the tangent as is when laid out as the primal, else a copy that is */
  bool same_layout = true;
  for (int d = 0; d < primal->ndim; d++)
    same_layout = same_layout && (primal->shape[d] <= 1 || primal->stride[d] == tangent->stride[d]);
  Tensor *laid_out = same_layout ? tensor_retain(tangent) : ag_clone(tangent);
  Tensor *dual = laid_out ? plain_view(primal, false) : NULL;
  if (dual && !ag_fw_set_tangent(dual, laid_out)) {
    tensor_release(dual);
    dual = NULL;
  }
  tensor_release(laid_out);
  return dual;
}

static bool check_tangent_shape(const Tensor *primal, const Tensor *tangent) {
  if (primal->ndim != tangent->ndim ||
      memcmp(primal->shape, tangent->shape, (size_t)primal->ndim * sizeof(int64_t))) {
    char a[256], b[256];
    ag_format_shape(a, sizeof a, primal->ndim, primal->shape);
    ag_format_shape(b, sizeof b, tangent->ndim, tangent->shape);
    tensor_set_error("Trying to set a forward gradient that has a different size than that of "
                     "the original Tensor, this is not supported. Tensor is of size %s while "
                     "the given forward gradient is of size %s.", a, b);
    return false;
  }
  return true;
}

Tensor *ag_unpack_primal(Tensor *t) { return plain_view(t, true); }
