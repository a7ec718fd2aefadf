/* inplace.c — in-place ops and history rebasing.
 *
 * An in-place op on a tensor whose history matters is recorded as the
 * out-of-place op, whose result is then written into the tensor (one
 * version bump) and whose node becomes the tensor's grad_fn ("rebasing" its
 * history). When the formula needs the old value, the op reads a copy that
 * carries the old history, so the node never saves a tensor that is about
 * to be overwritten.
 */
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

static bool same_shape(const Tensor *a, const Tensor *b) {
  return a->ndim == b->ndim && (a->ndim == 0 || !memcmp(a->shape, b->shape, (size_t)a->ndim * 8));
}

static bool is_leaf_requiring_grad(const Tensor *t) { return ag_requires_grad(t) && ag_is_leaf(t); }

bool ag_check_inplace(const Tensor *a) {
  if (!grad_enabled()) return true;
  if (is_leaf_requiring_grad(a)) {
    tensor_set_error("a leaf Variable that requires grad is being used in an in-place operation.");
    return false;
  }
  const Tensor *base = a->meta ? meta_of(a)->view_base : NULL;
  if (base && is_leaf_requiring_grad(base)) {
    tensor_set_error("a view of a leaf Variable that requires grad is being used in an in-place "
                     "operation.");
    return false;
  }
  return true;
}

/* Whether the in-place op must be recorded; false with an error when it can't be. */
static bool should_record_inplace(Tensor *a, Tensor *other, bool *record) {
  Tensor *ins[2] = {a, other};
  *record = ag_should_record(ins, other ? 2 : 1);
  if (!*record) return true;
  if (!dtype_is_float(a->dtype)) {
    tensor_set_error("result type %s can't be cast to the desired output type %s",
                     tensor_dtype_torch_name(other ? tensor_result_type(a, other) : DT_FLOAT32),
                     tensor_dtype_torch_name(a->dtype));
    return false;
  }
  for (int d = 0; d < a->ndim; d++)
    if (a->stride[d] == 0 && a->shape[d] > 1) {
      tensor_set_error("unsupported operation: more than one element of the written-to tensor "
                       "refers to a single memory location. Please clone() the tensor before "
                       "performing the operation.");
      return false;
    }
  const Tensor *base = a->meta ? meta_of(a)->view_base : NULL;
  if (base && !tensor_is_contiguous(base)) {
    tensor_set_error("in-place write through a view of a non-contiguous tensor that requires "
                     "grad is not supported: clone() the view first");
    return false;
  }
  return true;
}

/* The view's region in its base, as AgGeom's int64 layout (malloc'd). */
int64_t *ag_view_geometry(const Tensor *v, const Tensor *base) {
  int64_t *g = malloc((size_t)(2 + 2 * v->ndim) * sizeof *g);
  if (!g) {
    tensor_set_error("out of memory");
    return NULL;
  }
  g[0] = v->ndim;
  g[1] = v->offset - base->offset;
  memcpy(g + 2, v->shape, (size_t)v->ndim * sizeof *g);
  memcpy(g + 2 + v->ndim, v->stride, (size_t)v->ndim * sizeof *g);
  return g;
}

static bool rebase(Tensor *a, GradNode *n);

/* After a recorded write through view v: its base's history becomes
 * CopySlices(old base, new v) and v becomes a view of that new history, as
 * PyTorch does. (Other views of the base taken earlier keep their history.) */
static bool propagate_to_base(Tensor *v) {
  Tensor *base = v->meta ? meta_of(v)->view_base : NULL;
  if (!base) return true;
  GradNode *copy = ag_record_node_params(AG_NODE_CopySlices, (Tensor *[2]){base, v}, 2, 0, 1);
  if (!copy || !(node_params(copy)->geom = ag_view_geometry(v, base))) {
    if (copy) node_finish(copy);
    return false;
  }
  bool ok = rebase(base, copy);
  node_finish(copy);
  GradNode *view = ok ? ag_record_node_params(AG_NODE_AsStridedBackward0, &base, 1, 0, 1) : NULL;
  if (!view || !(node_params(view)->geom = ag_view_geometry(v, base))) {
    if (view) node_finish(view);
    return false;
  }
  ok = rebase(v, view);
  node_finish(view);
  return ok;
}

Tensor *ag_mark_view(Tensor *v, Tensor *a) {
  /* a copy is no view; a view taken with grad off, or of ints or bools
   * (which never have history), never joins a history */
  if (!v || v == a || v->storage != a->storage || !grad_enabled() ||
      !dtype_is_float(v->dtype))
    return v;
  AgMeta *m = meta_get(v);
  if (!m) {
    tensor_release(v);
    return NULL;
  }
  if (m->view_base) return v;
  Tensor *base = a->meta && meta_of(a)->view_base ? meta_of(a)->view_base : a;
  m->view_base = tensor_retain(base);
  m->view_version = tensor_version(v);
  return v;
}

bool ag_view_refresh(Tensor *v) {
  AgMeta *m = v->meta ? meta_of(v) : NULL;
  if (!m || !m->view_base || m->view_version == tensor_version(v)) return true;
  Tensor *base = m->view_base;
  m->view_version = tensor_version(v);
  if (!ag_requires_grad(base) || !tensor_is_contiguous(base)) return true;
  GradNode *view = ag_record_node_params(AG_NODE_AsStridedBackward0, &base, 1, 0, 1);
  if (!view || !(node_params(view)->geom = ag_view_geometry(v, base))) {
    if (view) node_finish(view);
    return false;
  }
  bool ok = rebase(v, view);
  node_finish(view);
  return ok;
}

/* The end of every in-place op: a recorded write through a view reaches its base. */
static bool inplace_done(Tensor *a, bool record, bool ok) {
  return ok && (!record || propagate_to_base(a));
}

/* Moves a's retain_grad from its old node to its new one. */
static void retain_forget(Tensor *a) {
  AgMeta *m = meta_of(a);
  if (m && m->retains_grad && m->grad_fn && m->grad_fn->extra && m->grad_fn->extra->retain)
    m->grad_fn->extra->retain[m->output_nr] = NULL;
}

/* Makes n (output 0) the new grad_fn of a (a was just written: a view's
 * history is current again). */
static bool rebase(Tensor *a, GradNode *n) {
  retain_forget(a);
  AgMeta *m = meta_get(a);
  if (!m) return false;
  /* current before node_set_output, whose jvp rule may read a's history:
   * a stale view would regenerate it from its base */
  m->view_version = tensor_version(a);
  if (!node_set_output(n, 0, a)) return false;
  if (m->retains_grad) {
    m->retains_grad = false;
    return ag_retain_grad(a);
  }
  return true;
}

/* n (recorded before the write, with edges to a's old history) becomes a's grad_fn. */
static bool rebase_finish(Tensor *a, GradNode *n) {
  bool ok = rebase(a, n);
  node_finish(n);
  return ok;
}

/* A copy of a that carries a's history (the op reads it instead of a). */
static Tensor *history_copy(Tensor *a) {
  if (!ag_view_refresh(a)) return NULL;
  Tensor *c = tensor_clone(a);
  if (c && fw_tangent(a) && !ag_fw_set_tangent(c, fw_tangent(a))) {
    tensor_release(c);
    return NULL;
  }
  if (!c || !ag_requires_grad(a)) return c;
  AgMeta *m = meta_get(c);
  if (!m) {
    tensor_release(c);
    return NULL;
  }
  m->requires_grad = true;
  m->grad_fn = grad_node_retain(meta_of(a)->grad_fn);
  m->output_nr = meta_of(a)->output_nr;
  return c;
}

/* Writes the recorded out-of-place result r into a and rebases a onto r's node. */
static bool adopt_result(Tensor *a, Tensor *r) {
  if (!same_shape(a, r)) {
    char ra[256], rr[256];
    ag_format_shape(ra, sizeof ra, a->ndim, a->shape);
    ag_format_shape(rr, sizeof rr, r->ndim, r->shape);
    tensor_set_error("output with shape %s doesn't match the broadcast shape %s", ra, rr);
    tensor_release(r);
    return false;
  }
  bool ok = tensor_copy_(a, r);
  if (ok) ag_note_inplace_write(a);
  /* forward AD: the written tensor takes the result's tangent */
  if (ok && (fw_tangent(r) || fw_tangent(a))) ok = ag_fw_set_tangent(a, fw_tangent(r));
  GradNode *history = ok ? ag_grad_fn(r) : NULL;
  if (history) ok = rebase(a, history);
  tensor_release(r);
  return ok;
}

static Tensor *source_for(Tensor *a, bool reads_old_value) {
  return reads_old_value ? history_copy(a) : tensor_retain(a);
}

/* After an in-place write (ok: it was done): n, recorded on a's old history
 * before the write (NULL when nothing is recorded), becomes a's grad_fn.
 * Inline: the tail of every `+=`. */
static inline bool finish_write(Tensor *a, GradNode *n, bool ok) {
  if (!ok) {
    if (n) node_finish(n);
    return false;
  }
  ag_note_inplace_write(a);
  return !n || inplace_done(a, true, rebase_finish(a, n));
}

/* Whether a recorded a op= b may write straight into a. Its node keeps
 * nothing of a, so it can be recorded on a's old history before the write:
 * the same node, values and version as recording the out-of-place op and
 * adopting its result, without making, copying and freeing a result tensor
 * (a loop's `total += x`). Anomaly mode (a NaN result leaves a unwritten) and
 * forward AD take the general path. */
static bool writes_directly(void) { return !fw_active() && !ag_anomaly_check_forward(); }

/* ... when b has a's dtype and fits a: the in-place kernel then gives the
 * out-of-place result's bits (*kind: the node, AddBackward0 or SubBackward0). */
static bool tensor_writes_directly(BinaryOp op, const Tensor *a, const Tensor *b, AgNodeKind *kind) {
  return ag_binary_saves_nothing(op, kind) && b->dtype == a->dtype &&
         (b->numel == 1 ? b->ndim <= a->ndim : same_shape(a, b)) && writes_directly();
}

bool ag_binary_(BinaryOp op, Tensor *a, Tensor *b) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, b, &record)) return false;
  if (!record) return finish_write(a, NULL, tensor_binary_(op, a, b));
  AgNodeKind kind;
  if (tensor_writes_directly(op, a, b, &kind)) {
    GradNode *n = ag_record_node(kind, (Tensor *[2]){a, b}, 2, 0, 1);
    return n && finish_write(a, n, tensor_binary_(op, a, b));
  }
  Tensor *src = source_for(a, op != BIN_ADD && op != BIN_SUB);
  Tensor *r = src ? ag_binary(op, src, b) : NULL;
  tensor_release(src);
  return inplace_done(a, record, r && adopt_result(a, r));
}

bool ag_binary_scalar_(BinaryOp op, Tensor *a, double s) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, NULL, &record)) return false;
  if (!record) return finish_write(a, NULL, tensor_binary_scalar_(op, a, s));
  /* float32 and float64 (float16's number rounds otherwise out of place) */
  if (ag_binary_scalar_keeps_no_tensor(op) && dtype_is_native(a->dtype) && writes_directly()) {
    GradNode *n = ag_record_binary_scalar(op, a, s);
    return n && finish_write(a, n, tensor_binary_scalar_(op, a, s));
  }
  bool reads = op == BIN_POW || op == BIN_MAXIMUM || op == BIN_MINIMUM;
  Tensor *src = source_for(a, reads);
  Tensor *r = src ? ag_binary_scalar(op, src, s) : NULL;
  tensor_release(src);
  return inplace_done(a, record, r && adopt_result(a, r));
}

bool ag_unary_(UnaryOp op, Tensor *a) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, NULL, &record)) return false;
  if (!record) return finish_write(a, NULL, tensor_unary_(op, a));
  /* the old values are kept (a copy) only when the formula reads them */
  Tensor *src = source_for(a, ag_unary_saves_input(op));
  Tensor *r = src ? ag_unary(op, src) : NULL;
  tensor_release(src);
  bool ok = r && adopt_result(a, r);
  /* as PyTorch's exp_: the node saves the tensor written, so writing it again
   * fails the version check at backward */
  if (ok && ag_unary_saves_result(op) && ag_grad_fn(a)) node_resave_output(ag_grad_fn(a), 0, a);
  return inplace_done(a, record, ok);
}

bool ag_clamp_(Tensor *a, double lo, double hi) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, NULL, &record)) return false;
  if (!record) return finish_write(a, NULL, tensor_clamp_(a, lo, hi));
  Tensor *src = source_for(a, true);
  Tensor *r = src ? ag_clamp(src, lo, hi) : NULL;
  tensor_release(src);
  return inplace_done(a, record, r && adopt_result(a, r));
}

bool ag_apply_inplace(Tensor *a, Tensor *other, AgOutOfPlace fn, void *ctx) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, other, &record)) return false;
  Tensor *src = source_for(a, record);
  Tensor *r = src ? fn(src, ctx) : NULL;
  tensor_release(src);
  return inplace_done(a, record, r && adopt_result(a, r));
}

/* The op wrote new values that do not depend on the old ones: a node with
 * zero gradient replaces a's history (fill_, zero_, uniform_, normal_). */
static bool overwrite_record(Tensor *a, AgNodeKind kind, bool record) {
  ag_note_inplace_write(a);
  if (!record) return true;
  GradNode *n = ag_record_node(kind, &a, 1, 0, 1);
  if (!n) return false;
  bool ok = rebase(a, n);
  node_finish(n);
  return inplace_done(a, record, ok);
}

bool ag_fill_(Tensor *a, double v) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, NULL, &record)) return false;
  return tensor_fill_(a, v) && overwrite_record(a, AG_NODE_FillBackward0, record);
}

bool ag_zero_(Tensor *a) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, NULL, &record)) return false;
  return tensor_fill_(a, 0) && overwrite_record(a, AG_NODE_ZeroBackward0, record);
}

bool ag_uniform_(TensorRng *rng, Tensor *a, double lo, double hi) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, NULL, &record)) return false;
  return tensor_uniform_(rng, a, lo, hi) && overwrite_record(a, AG_NODE_UniformBackward0, record);
}

bool ag_normal_(TensorRng *rng, Tensor *a, double mean, double std) {
  bool record;
  if (!ag_check_inplace(a) || !should_record_inplace(a, NULL, &record)) return false;
  return tensor_normal_(rng, a, mean, std) && overwrite_record(a, AG_NODE_NormalBackward0, record);
}

bool ag_copy_(Tensor *dst, Tensor *src) {
  bool record = false; /* into int64 or bool, a copy converts and records nothing */
  if (!ag_check_inplace(dst) ||
      (dtype_is_float(dst->dtype) && !should_record_inplace(dst, src, &record)))
    return false;
  GradNode *n =
      record ? ag_record_node(AG_NODE_CopyBackwards, (Tensor *[2]){dst, src}, 2, 0, 1) : NULL;
  if (record && !n) return false;
  return finish_write(dst, n, tensor_copy_(dst, src));
}

bool ag_index_put_(Tensor *a, const IndexItem *items, int n, Tensor *v) {
  bool record = false; /* as ag_copy_ */
  if (!ag_check_inplace(a) || (dtype_is_float(a->dtype) && !should_record_inplace(a, v, &record)))
    return false;
  GradNode *node = NULL;
  if (record) {
    AgNodeKind kind =
        tensor_index_is_basic(items, n) ? AG_NODE_CopySlices : AG_NODE_IndexPutBackward0;
    node = node_with_items(ag_record_node_params(kind, (Tensor *[2]){a, v}, 2, 0, 1), items, n);
    if (!node) return false;
    node->has_saved = kind == AG_NODE_IndexPutBackward0; /* PyTorch saves the indices */
  }
  return finish_write(a, node, tensor_index_put_(a, items, n, v));
}

/* a.add_(b, alpha=s), a.addcmul_(b, c, value=s), a.addcdiv_(b, c, value=s),
 * a.lerp_(b, weight).
 * Unrecorded (an optimizer's step under no_grad) they are ATen's fused
 * kernels, to the bit; recorded, the same kernel's result is written and
 * a rebased on ag_fused's node (AddBackward0, AddcmulBackward0, ...). */
bool ag_fused_(FusedOp op, Tensor *a, Tensor *b, Tensor *c, double s) {
  bool record, record_c = false;
  if (!ag_check_inplace(a) || !should_record_inplace(a, b, &record)) return false;
  if (c && !should_record_inplace(a, c, &record_c)) return false;
  if (!record && !record_c) return finish_write(a, NULL, tensor_fused_(op, a, b, c, s));
  /* LerpBackward1 saves self: the value before the write */
  Tensor *src = source_for(a, op == FUSED_LERP_TENSOR);
  Tensor *r = src ? ag_fused(op, src, b, c, s) : NULL;
  tensor_release(src);
  bool ok = inplace_done(a, true, r && adopt_result(a, r));
  return ok;
}
