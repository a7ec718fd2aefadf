/* meta.c — modes and the autograd state of each tensor (AgMeta). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

/* ---- the state (state.h) ---- */

static AutogradState default_state;
_Thread_local AutogradState *ag_state_current = &default_state;

AutogradState *ag_state_make_current(AutogradState *s) {
  AutogradState *previous = ag_state_current;
  ag_state_current = s ? s : &default_state;
  return previous;
}

/* ---- modes (per state, as PyTorch's are per thread) ---- */

bool ag_is_grad_enabled(void) { return grad_enabled(); }

bool ag_set_grad_enabled(bool enabled) {
  AutogradState *st = ag_state();
  bool previous = !st->grad_disabled;
  st->grad_disabled = !enabled;
  return previous;
}

void ag_set_anomaly(bool enabled, bool check_forward) {
  ag_state()->anomaly_on = enabled;
  ag_state()->anomaly_forward = enabled && check_forward;
}

bool ag_anomaly_enabled(void) { return ag_state()->anomaly_on; }
bool ag_anomaly_check_forward(void) { return ag_state()->anomaly_forward; }
void ag_set_current_line(int line) { ag_state()->current_line = line; }
int ag_current_line(void) { return ag_state()->current_line; }
int next_hook_handle(void) { return ++ag_state()->hook_counter; }

/* ---- where in-place writes happened ----
 * The version counter lives in tensor/'s Storage, which has no room for a
 * line; a small ring of the latest writes (storage, new version, line) lets
 * the version error name the line that modified a saved tensor. */
#define WRITE_RING AG_WRITE_RING

void ag_note_inplace_write(Tensor *t) {
  AutogradState *st = ag_state();
  AgWriteNote *w = &st->write_ring[st->write_pos++ % WRITE_RING];
  w->storage = t->storage;
  w->version = tensor_version(t);
  w->line = st->current_line;
}

int ag_inplace_write_line(const Storage *s, int64_t version) {
  const AutogradState *st = ag_state();
  for (unsigned k = 0; k < WRITE_RING; k++) {
    const AgWriteNote *w = &st->write_ring[(st->write_pos - 1 - k) % WRITE_RING];
    if (w->storage == s && w->version == version) return w->line;
  }
  return 0;
}

void ag_format_shape(char *buf, size_t cap, int ndim, const int64_t *shape) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < ndim && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? ", " : "", (long long)shape[d]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

bool ag_any_nan(const Tensor *t) {
  if (!dtype_is_float(t->dtype)) return false;
  for (int64_t i = 0; i < t->numel; i++)
    if (isnan(tensor_get_flat(t, i))) return true;
  return false;
}

/* ---- the meta itself ---- */

void hooks_free(AgHook *h) {
  while (h) {
    AgHook *next = h->next;
    if (h->fns.release) h->fns.release(h->ctx);
    free(h);
    h = next;
  }
}

/* The state's free list: every recorded op's output gets a meta. */
#define META_POOL_MAX 65536

static AgMeta *meta_alloc(void) {
  AutogradState *st = ag_state();
  AgMeta *m = st->meta_pool;
  if (!m) return calloc(1, sizeof *m);
  st->meta_pool = (AgMeta *)m->grad; /* the free list is threaded through .grad */
  st->meta_pool_size--;
  if (st->meta_pool) __builtin_prefetch(st->meta_pool, 1); /* cold: fetch it before it is needed */
  memset(m, 0, sizeof *m);
  return m;
}

static void meta_free(AgMeta *m) {
  AutogradState *st = ag_state();
  if (st->caches_disabled || st->meta_pool_size >= META_POOL_MAX) {
    free(m);
    return;
  }
  m->grad = (Tensor *)st->meta_pool;
  st->meta_pool = m;
  st->meta_pool_size++;
}

void ag_free_meta_cache(AutogradState *st) {
  while (st->meta_pool) {
    AgMeta *m = st->meta_pool;
    st->meta_pool = (AgMeta *)m->grad;
    free(m);
  }
  st->meta_pool_size = 0;
}

static void meta_destroy(TensorMeta *base) {
  AgMeta *m = (AgMeta *)base;
  if (m->retains_grad && m->grad_fn && m->grad_fn->extra && m->grad_fn->extra->retain)
    m->grad_fn->extra->retain[m->output_nr] = NULL; /* the node only pointed to us weakly */
  tensor_release(m->grad);
  grad_node_release(m->grad_fn);
  if (m->hooks) hooks_free(m->hooks); /* rare: no call for the others */
  if (m->name) free(m->name);
  tensor_release(m->view_base);
  tensor_release(m->saved_alias);
  tensor_release(m->tangent);
  meta_free(m);
}

AgMeta *meta_get(Tensor *t) {
  if (t->meta) return meta_of(t);
  AgMeta *m = meta_alloc();
  if (!m) {
    tensor_set_error("out of memory");
    return NULL;
  }
  m->base.destroy = meta_destroy;
  t->meta = &m->base;
  return m;
}

/* A view written through its base or a sibling since it was made may have
 * joined the base's new history (ag_view_refresh). */
bool ag_requires_grad(const Tensor *t) {
  if (!t || !t->meta) return false;
  if (view_is_stale(t)) ag_view_refresh((Tensor *)t); /* on failure the old history is kept */
  return meta_of(t)->requires_grad;
}
bool ag_is_leaf(const Tensor *t) { return !t->meta || !meta_of(t)->grad_fn; }
GradNode *ag_grad_fn(const Tensor *t) {
  if (!t->meta) return NULL;
  if (view_is_stale(t)) ag_view_refresh((Tensor *)t); /* a stale view's history */
  return meta_of(t)->grad_fn;
}
size_t ag_tensor_footprint(const Tensor *t) {
  size_t bytes = tensor_footprint(t);
  if (!t->meta) return bytes;
  bytes += sizeof(AgMeta);
  if (meta_of(t)->grad_fn) bytes += node_footprint(meta_of(t)->grad_fn);
  return bytes;
}
int ag_output_nr(const Tensor *t) { return t->meta ? meta_of(t)->output_nr : 0; }
Tensor *ag_get_grad(const Tensor *t) { return t->meta ? meta_of(t)->grad : NULL; }
bool ag_retains_grad(const Tensor *t) { return t->meta && meta_of(t)->retains_grad; }
const char *ag_name(const Tensor *t) { return t->meta ? meta_of(t)->name : NULL; }

bool ag_set_requires_grad(Tensor *t, bool requires_grad) {
  if (!ag_is_leaf(t)) {
    if (requires_grad) return true;
    tensor_set_error("you can only change requires_grad flags of leaf variables. If you want "
                     "to use a computed variable in a subgraph that doesn't require "
                     "differentiation use var_no_grad = var.detach().");
    return false;
  }
  if (requires_grad && !dtype_is_float(t->dtype)) { /* the .requires_grad setter's words */
    tensor_set_error("only Tensors of floating point and complex dtype can require gradients");
    return false;
  }
  if (!requires_grad && !t->meta) return true;
  AgMeta *m = meta_get(t);
  if (!m) return false;
  m->requires_grad = requires_grad;
  return true;
}

static bool same_shape(const Tensor *a, const Tensor *b) {
  if (a->ndim != b->ndim) return false;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d]) return false;
  return true;
}

bool ag_set_grad(Tensor *t, Tensor *grad) {
  if (grad && !same_shape(t, grad)) {
    tensor_set_error("assigned grad has data of a different size");
    return false;
  }
  if (grad && grad->dtype != t->dtype) {
    tensor_set_error("assigned grad has data of a different type");
    return false;
  }
  if (!grad && !t->meta) return true;
  AgMeta *m = meta_get(t);
  if (!m) return false;
  tensor_retain(grad);
  tensor_release(m->grad);
  m->grad = grad;
  return true;
}

bool ag_retain_grad(Tensor *t) {
  if (!ag_requires_grad(t)) {
    tensor_set_error("can't retain_grad on Tensor that has requires_grad=False");
    return false;
  }
  AgMeta *m = meta_of(t);
  if (!m->grad_fn || m->retains_grad) return true;
  AgNodeExtra *x = node_extra(m->grad_fn);
  if (!x) return false;
  if (!x->retain) {
    x->retain = calloc((size_t)m->grad_fn->noutputs, sizeof *x->retain);
    if (!x->retain) {
      tensor_set_error("out of memory");
      return false;
    }
  }
  x->retain[m->output_nr] = t;
  m->retains_grad = true;
  return true;
}

void ag_set_name(Tensor *t, const char *name) {
  AgMeta *m = meta_get(t);
  if (!m) return;
  free(m->name);
  m->name = name ? strdup(name) : NULL;
}

AgEdge tensor_edge_general(Tensor *t) {
  AgEdge e = {NULL, 0};
  if (!requires_grad_of(t)) return e;
  AgMeta *m = meta_of(t); /* ag_requires_grad refreshed a stale view's history */
  if (m->grad_fn) {
    e.node = grad_node_retain(m->grad_fn);
    e.input_nr = m->output_nr;
  } else {
    e.node = m->accumulator ? grad_node_retain(m->accumulator) : ag_grad_accumulator(t);
  }
  return e;
}

GradNode *ag_grad_accumulator(Tensor *t) {
  if (!ag_requires_grad(t) || !ag_is_leaf(t)) return NULL;
  AgMeta *m = meta_of(t);
  if (m->accumulator) return grad_node_retain(m->accumulator);
  GradNode *n = node_new(AG_NODE_AccumulateGrad, 0, 0, 1, false);
  if (!n) return NULL;
  n->id = UINT64_MAX; /* PyTorch runs accumulation as soon as it is ready */
  node_info_set(n, &n->out_info[0], t);
  n->variable = tensor_retain(t);
  m->accumulator = n;
  return n; /* the caller's reference; the leaf only points back weakly */
}

/* ---- hooks ---- */

int ag_register_hook(Tensor *t, AgHookFns fns, void *ctx) {
  if (!ag_requires_grad(t)) {
    tensor_set_error("cannot register a hook on a tensor that doesn't require gradient");
    return -1;
  }
  AgHook *h = calloc(1, sizeof *h);
  if (!h) {
    tensor_set_error("out of memory");
    return -1;
  }
  AgMeta *m = meta_of(t);
  h->handle = next_hook_handle();
  h->output_nr = m->output_nr;
  h->fns = fns;
  h->ctx = ctx;
  AgHook **list = &m->hooks;
  if (m->grad_fn) {
    AgNodeExtra *x = node_extra(m->grad_fn);
    if (!x) {
      free(h);
      return -1;
    }
    list = &x->hooks;
  }
  while (*list)
    list = &(*list)->next; /* hooks run in registration order */
  *list = h;
  return h->handle;
}

/* Hooks may remove hooks (themselves included) while hooks run: removal then
 * only marks them, and the list is swept once no hook is running (the
 * state's hooks_running counts them). */
static void hook_list_sweep(AgHook **list) {
  while (*list) {
    AgHook *h = *list;
    if (!h->removed) {
      list = &h->next;
      continue;
    }
    *list = h->next;
    h->next = NULL;
    hooks_free(h);
  }
}

static bool hook_list_remove(AgHook **list, int handle) {
  for (AgHook *h = *list; h; h = h->next) {
    if (h->handle != handle || h->removed) continue;
    h->removed = true;
    if (ag_state()->hooks_running == 0) hook_list_sweep(list);
    return true;
  }
  return false;
}

bool ag_remove_hook(Tensor *t, int handle) {
  if (!t->meta) return false;
  AgMeta *m = meta_of(t);
  if (hook_list_remove(&m->hooks, handle)) return true;
  return m->grad_fn && m->grad_fn->extra && hook_list_remove(&m->grad_fn->extra->hooks, handle);
}

static bool hook_call(AgHook *h, Tensor **grad) {
  bool failed = false;
  ag_state()->hooks_running++;
  Tensor *replaced = h->fns.call(h->ctx, *grad, &failed);
  ag_state()->hooks_running--;
  if (failed) {
    tensor_release(replaced);
    return false;
  }
  if (replaced) {
    tensor_release(*grad);
    *grad = replaced;
  }
  return true;
}

bool hooks_run(AgHook **list, int output_nr, Tensor **grad) {
  if (ag_state()->hooks_running == 0) hook_list_sweep(list);
  for (AgHook *h = *list; h; h = h->next) {
    if (h->removed || (output_nr >= 0 && h->output_nr != output_nr)) continue;
    if (!hook_call(h, grad)) return false;
  }
  return true;
}
