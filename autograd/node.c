/* node.c — graph nodes: allocation, recording, saved values, introspection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"
#include "tensor/ag_assert.h"

static const char *const kind_names[AG_NODE_COUNT] = {
#define AG_NODE_NAME(name, derivative, jvp) #name,
    AG_NODE_KINDS(AG_NODE_NAME)
#undef AG_NODE_NAME
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == AG_NODE_COUNT, "one name per node kind");

const char *ag_node_kind_name(AgNodeKind kind) {
  return kind >= 0 && kind < AG_NODE_COUNT ? kind_names[kind] : "?";
}

/* ---- allocation ----
 * Nodes come from the current state's free lists, one per size class (32-byte
 * steps): a training loop creates and frees millions of them. Releases are
 * deferred into a list and drained in a loop, so freeing a long chain never
 * recurses. */

#define NODE_CLASS_STEP 32
#define NODE_CLASSES AG_NODE_CLASSES /* pooled up to 768 bytes; bigger nodes are malloc'd alone */
#define NODE_UNPOOLED 0x7f /* size_class of a node malloc'd alone */
#define NODE_IN_SLAB 0x80  /* size_class flag: cut from a slab, never freed alone */
#define NODE_POOL_MAX_BYTES ((size_t)64 << 20)
#define PARAMS_POOL_MAX 16384

/* Slabs: when a class's free list is empty, a block of 16 KB is cut into
 * nodes of that class at once. A graph recorded for the first time (or
 * while the previous one is still alive) would otherwise call malloc for
 * every op, and malloc from the top of the heap costs as much as the rest of
 * the node's recording. A slab node is never freed alone: it goes back to
 * its free list whatever the cap, and the blocks are freed with the caches
 * once none of their nodes is alive (ag_free_caches). So slabs stop growing
 * at NODE_POOL_MAX_BYTES; past that, nodes are malloc'd one by one. None
 * under AddressSanitizer, which must see each node's use after free. */
#if defined(__SANITIZE_ADDRESS__)
#define NODE_SLAB_BYTES 0
#else
#define NODE_SLAB_BYTES ((size_t)16 << 10)
#endif
/* The slab's link, padded so that its nodes keep malloc's alignment. */
#define NODE_SLAB_HEADER NODE_CLASS_STEP

const AgParams ag_no_params;

/* Where a node made with_params keeps them: at the end of its arrays. */
static AgParams *tail_params(const GradNode *n) {
  return (AgParams *)(n->out_info + n->noutputs);
}

static void pool_push(AutogradState *st, GradNode *n, size_t cls) {
  n->free_next = st->node_pool[cls];
  st->node_pool[cls] = n;
}

/* Cuts a new slab into nodes of class cls: returns one, the others go to
 * the free list (in address order, as they will be taken). NULL when slabs
 * are off, full or out of memory. */
static GradNode *slab_cut(AutogradState *st, size_t cls) {
  if (NODE_SLAB_BYTES == 0 || st->caches_disabled ||
      st->node_slab_bytes + NODE_SLAB_BYTES > NODE_POOL_MAX_BYTES)
    return NULL;
  void **slab = malloc(NODE_SLAB_BYTES);
  if (!slab) return NULL;
  *slab = st->node_slabs;
  st->node_slabs = slab;
  st->node_slab_bytes += NODE_SLAB_BYTES;
  size_t size = cls * NODE_CLASS_STEP;
  size_t count = (NODE_SLAB_BYTES - NODE_SLAB_HEADER) / size;
  st->node_slab_nodes += count;
  char *first = (char *)slab + NODE_SLAB_HEADER;
  for (size_t i = count; i-- > 0;) {
    GradNode *n = (GradNode *)(first + i * size);
    n->size_class = (uint8_t)(cls | NODE_IN_SLAB);
    if (i > 0) pool_push(st, n, cls);
  }
  return (GradNode *)first;
}

static GradNode *node_alloc(size_t bytes) {
  size_t cls = (bytes + NODE_CLASS_STEP - 1) / NODE_CLASS_STEP;
  AutogradState *st = ag_state();
  if (cls < NODE_CLASSES && st->node_pool[cls]) {
    GradNode *n = st->node_pool[cls];
    st->node_pool[cls] = n->free_next;
    if (!(n->size_class & NODE_IN_SLAB)) st->node_pool_bytes -= cls * NODE_CLASS_STEP;
    /* freed long ago, the next one is cold: fetch its link while the op runs */
    if (st->node_pool[cls]) __builtin_prefetch(st->node_pool[cls], 1);
    return n;
  }
  bool pooled = cls < NODE_CLASSES;
  GradNode *n = pooled ? slab_cut(st, cls) : NULL;
  if (n) return n;
  n = malloc(pooled ? cls * NODE_CLASS_STEP : bytes);
  if (!n) return NULL;
  n->size_class = pooled ? (uint8_t)cls : NODE_UNPOOLED;
  return n;
}

static void node_free(GradNode *n) {
  AutogradState *st = ag_state();
  size_t cls = n->size_class & ~NODE_IN_SLAB;
  if (n->size_class & NODE_IN_SLAB) {
    pool_push(st, n, cls);
    return;
  }
  size_t size = cls * NODE_CLASS_STEP;
  if (cls == NODE_UNPOOLED || st->caches_disabled ||
      st->node_pool_bytes + size > NODE_POOL_MAX_BYTES) {
    free(n);
    return;
  }
  pool_push(st, n, cls);
  st->node_pool_bytes += size;
}

GradNode *node_new(AgNodeKind kind, int nnext, int nsaved, int noutputs, bool with_params) {
  size_t bytes = node_bytes(nnext, nsaved, noutputs, with_params);
  GradNode *n = node_alloc(bytes);
  if (!n) {
    tensor_set_error("out of memory");
    return NULL;
  }
  uint8_t size_class = n->size_class;
  memset(n, 0, bytes);
  n->size_class = size_class;
  n->refcount = 1;
  n->kind = kind;
  AutogradState *st = ag_state();
  n->id = ++st->node_counter;
  n->line = st->current_line;
  n->nnext = nnext;
  n->nsaved = nsaved;
  n->noutputs = noutputs;
  n->next = (AgEdge *)(n + 1);
  n->in_info = (AgInfo *)(n->next + nnext);
  n->saved = (AgSaved *)(n->in_info + nnext);
  n->out_info = (AgInfo *)(n->saved + nsaved);
  if (with_params) n->p = tail_params(n);
  return n;
}

AgParams *node_params(GradNode *n) {
  if (n->p) return n->p;
  AutogradState *st = ag_state();
  AgParams *p = st->params_pool;
  if (p) {
    st->params_pool = (AgParams *)p->items;
    st->params_pool_size--;
    if (st->params_pool) __builtin_prefetch(st->params_pool, 1);
  } else if (!(p = malloc(sizeof *p))) {
    /* as the VM does for its own small allocations: nothing sensible is left */
    fprintf(stderr, "ag: out of memory (allocating %zu bytes)\n", sizeof *p);
    exit(1);
  }
  memset(p, 0, sizeof *p);
  return n->p = p;
}

static void params_free(GradNode *n) {
  AgParams *p = n->p;
  if (!p) return;
  for (int i = 0; i < p->nitems; i++)
    if (p->items[i].kind == IDX_TENSOR) tensor_release((Tensor *)p->items[i].tensor);
  if (p->items != &p->item_inline) free(p->items);
  free(p->geom);
  n->p = NULL;
  if (p == tail_params(n)) return;
  AutogradState *st = ag_state();
  if (st->caches_disabled || st->params_pool_size >= PARAMS_POOL_MAX) {
    free(p);
    return;
  }
  p->items = (IndexItem *)st->params_pool;
  st->params_pool = p;
  st->params_pool_size++;
}

static void saved_release_packed(AgSaved *s) {
  s->packed->fns->release(s->packed->value);
  free(s->packed);
  s->packed = NULL;
}

/* Inline: a backward clears every saved value of every node it runs. */
static inline void saved_clear(AgSaved *s) {
  tensor_release(s->data);
  s->data = NULL;
  s->storage = NULL;
  tensor_release(s->tangent);
  s->tangent = NULL;
  if (s->packed) saved_release_packed(s);
  if (s->grad_fn) grad_node_release(s->grad_fn); /* most saved values have none: no call */
  s->grad_fn = NULL;
}

static void extra_free(GradNode *n) {
  AgNodeExtra *x = n->extra;
  if (!x) return;
  hooks_free(x->hooks);
  free(x->retain);
  if (x->fns.release) x->fns.release(x->ctx);
  free(x->custom_name);
  free(x->edge_arg);
  fw_free(x->fw);
  free(x);
}


/* Frees one node; the nodes it referred to are pushed onto `dying`. */
static void node_destroy(GradNode *n) {
  for (int i = 0; i < n->nnext; i++)
    grad_node_release(n->next[i].node);
  for (int i = 0; !n->released && i < n->nsaved; i++) /* a backward cleared them already */
    saved_clear(&n->saved[i]);
  params_free(n);
  extra_free(n);
  if (n->variable) {
    AgMeta *m = meta_of(n->variable);
    if (m && m->accumulator == n) m->accumulator = NULL;
    tensor_release(n->variable);
  }
  /* a graph is freed cold: look at the infos only when one holds a block */
  for (int i = 0; n->big_info && i < n->nnext; i++)
    if (n->in_info[i].ndim > 4) free(n->in_info[i].u.big);
  for (int i = 0; n->big_info && i < n->noutputs; i++)
    if (n->out_info[i].ndim > 4) free(n->out_info[i].u.big);
  node_free(n);
}

void ag_set_caches_enabled(bool enabled) { ag_state()->caches_disabled = !enabled; }

/* Frees the nodes malloc'd alone on the free lists, and the slabs if none of
 * their nodes is alive; else their free nodes stay listed, for a later call
 * (a VM's teardown frees the caches before the graphs, then again after). */
static void free_node_pools(AutogradState *st) {
  size_t slab_nodes_free = 0;
  for (int c = 0; c < NODE_CLASSES; c++) {
    GradNode *n = st->node_pool[c];
    st->node_pool[c] = NULL;
    while (n) {
      GradNode *next = n->free_next;
      if (n->size_class & NODE_IN_SLAB) {
        pool_push(st, n, (size_t)c);
        slab_nodes_free++;
      } else {
        free(n);
      }
      n = next;
    }
  }
  st->node_pool_bytes = 0;
  if (slab_nodes_free < st->node_slab_nodes) return;
  for (int c = 0; c < NODE_CLASSES; c++) st->node_pool[c] = NULL;
  while (st->node_slabs) {
    void **slab = st->node_slabs;
    st->node_slabs = *slab;
    free(slab);
  }
  st->node_slab_bytes = 0;
  st->node_slab_nodes = 0;
}

void ag_free_caches(void) {
  AutogradState *st = ag_state();
  ag_fw_free_caches();
  ag_free_meta_cache(st);
  free_node_pools(st);
  while (st->params_pool) {
    AgParams *p = st->params_pool;
    st->params_pool = (AgParams *)p->items;
    free(p);
  }
  st->params_pool_size = 0;
}

GradNode *grad_node_retain(GradNode *node) {
  if (node) node->refcount++;
  return node;
}

/* The last reference went: node and whatever it alone kept alive are freed.
 * Out of line, so that grad_node_release inlines in this file. */
__attribute__((noinline)) static void node_release_last(GradNode *node) {
  AutogradState *st = ag_state();
  node->free_next = st->dying;
  st->dying = node;
  if (st->draining) return;
  st->draining = true;
  while (st->dying) {
    GradNode *n = st->dying;
    st->dying = n->free_next;
    node_destroy(n);
  }
  st->draining = false;
}

void grad_node_release(GradNode *node) {
  AG_ASSERT(!node || node->refcount > 0); /* released once more than retained */
  if (node && --node->refcount == 0) node_release_last(node);
}

AgNodeExtra *node_extra(GradNode *n) {
  if (!n->extra) {
    n->extra = calloc(1, sizeof *n->extra);
    if (!n->extra) tensor_set_error("out of memory");
  }
  return n->extra;
}

/* ---- recording ---- */

bool ag_should_record_tangent(Tensor *const *ts, int n) {
  for (int i = 0; i < n; i++)
    if (fw_tangent(ts[i])) return true;
  return false;
}

/* The general case: the old or the new shape has more than 4 dimensions
 * (such a shape is kept in a block of its own). Out of line, so that the
 * common case below inlines into every recording without spilling. */
__attribute__((noinline)) static void info_set_big(AgInfo *info, DType dt, int ndim, const int64_t *shape) {
  if (info->ndim > 4) free(info->u.big);
  info->dtype = dt;
  info->ndim = ndim;
  int64_t *dst = info->u.small;
  if (ndim > 4) {
    info->u.big = malloc((size_t)ndim * sizeof(int64_t));
    dst = info->u.big;
    if (!dst) { /* keep the struct valid; shapes are then reported as 0-d */
      info->ndim = 0;
      return;
    }
  }
  if (ndim > 0) memcpy(dst, shape, (size_t)ndim * sizeof(int64_t));
}

static inline void info_set_shape(AgInfo *info, DType dt, int ndim, const int64_t *shape) {
  if (info->ndim > 4 || ndim > 4) {
    info_set_big(info, dt, ndim, shape);
    return;
  }
  info->dtype = dt;
  info->ndim = ndim;
  for (int d = 0; d < ndim; d++)
    info->u.small[d] = shape[d];
}

static inline void info_set_node(GradNode *n, AgInfo *info, const Tensor *t) {
  info_set_shape(info, t->dtype, t->ndim, t->shape);
  if (t->ndim > 4) n->big_info = true;
}

void node_info_set(GradNode *n, AgInfo *info, const Tensor *t) { info_set_node(n, info, t); }

static inline void set_input(GradNode *n, int i, Tensor *t) {
  if (!t) return;
  info_set_node(n, &n->in_info[i], t);
  AgEdge e = tensor_edge(t);
  n->next[i] = e;
  if (fw_active()) fw_note_input(n, i, t);
}

void node_set_input(GradNode *n, int i, Tensor *t) { set_input(n, i, t); }

void node_set_inputs(GradNode *n, Tensor *const *inputs, int nin) {
  for (int i = 0; i < nin; i++)
    set_input(n, i, inputs[i]);
}

/* The data-only alias a node saves of t (a new reference). A tensor saved by
 * many nodes (a parameter used at every step) shares one, kept in its meta:
 * a graph then holds one alias per tensor instead of one per use. */
static Tensor *saved_alias(Tensor *t) {
  AgMeta *m = meta_of(t);
  if (!m) return tensor_alias(t);
  if (m->saved_alias && m->saved_alias->meta) { /* someone gave it autograd state: not shareable */
    tensor_release(m->saved_alias);
    m->saved_alias = NULL;
  }
  if (!m->saved_alias) m->saved_alias = tensor_alias(t);
  return tensor_retain(m->saved_alias);
}

/* ---- saved-tensor hooks ---- */

/* The state's saved_hooks: the innermost pair, or NULL. */
typedef struct AgSavedHooks {
  const AgSavedHookFns *fns;
  void *ctx;
  struct AgSavedHooks *outer;
} SavedHooks;

bool ag_saved_hooks_push(const AgSavedHookFns *fns, void *ctx) {
  AutogradState *st = ag_state();
  SavedHooks *h = malloc(sizeof *h);
  if (!h) return false;
  *h = (SavedHooks){fns, ctx, st->saved_hooks};
  st->saved_hooks = h;
  return true;
}

void *ag_saved_hooks_pop(void) {
  AutogradState *st = ag_state();
  SavedHooks *h = st->saved_hooks;
  if (!h) return NULL;
  void *ctx = h->ctx;
  st->pack_failed = false; /* a failure inside the block was raised there */
  st->saved_hooks = h->outer;
  free(h);
  return ctx;
}

void *ag_saved_hooks_pack(Tensor *t, const AgSavedHookFns **fns, bool *failed) {
  AutogradState *st = ag_state();
  *fns = NULL;
  if (!st->saved_hooks || st->packing) return NULL;
  SavedHooks *h = st->saved_hooks;
  st->packing = true;
  void *packed = h->fns->pack(h->ctx, t, failed);
  st->packing = false;
  if (!*failed) *fns = h->fns;
  return packed;
}

/* Hands t to the innermost pack hook; false when there is none (or it raised). */
static bool saved_pack(AgSaved *s, Tensor *t) {
  if (!ag_state()->saved_hooks) return false; /* the common case, without a call */
  const AgSavedHookFns *fns;
  bool failed = false;
  void *packed = ag_saved_hooks_pack(t, &fns, &failed);
  if (failed) ag_state()->pack_failed = true;
  if (!fns) return false;
  if (!(s->packed = malloc(sizeof *s->packed))) {
    fns->release(packed);
    ag_state()->pack_failed = true; /* the op fails (out of memory) rather than save unhooked */
    return true;
  }
  *s->packed = (AgPacked){packed, fns};
  return true;
}

/* False (once) after a pack hook raised while the op recorded its node. */
static bool pack_succeeded(void) {
  AutogradState *st = ag_state();
  if (!st->pack_failed) return true;
  st->pack_failed = false;
  tensor_set_error("a saved_tensors_hooks pack hook failed");
  return false;
}

void node_save(GradNode *n, int i, const char *name, Tensor *t, bool is_output) {
  AgSaved *s = &n->saved[i];
  n->has_saved = true;
  s->name = name;
  if (!t) return;
  if (!saved_pack(s, t) && (s->data = saved_alias(t))) s->storage = s->data->storage;
  s->version = tensor_version(t);
  s->is_output = is_output;
  s->requires_grad = is_output || requires_grad_of(t); /* an output is about to require grad */
  if (!is_output && s->requires_grad) {
    AgEdge e = tensor_edge(t);
    s->grad_fn = e.node;
    s->output_nr = e.input_nr;
  }
  if (is_output) s->output_nr = ag_output_nr(t);
  /* an output's tangent comes with it (forward.c) */
  Tensor *tangent = is_output || !fw_active() ? NULL : fw_tangent(t);
  if (tangent) s->tangent = tensor_retain(tangent);
}

void node_resave_output(GradNode *n, int i, Tensor *t) {
  const char *name = n->saved[i].name;
  saved_clear(&n->saved[i]);
  node_save(n, i, name, t, true);
}

static bool fw_set_output(GradNode *n, int i, Tensor *out);
static bool attach_output(GradNode *n, int i, Tensor *out);

bool node_set_output(GradNode *n, int i, Tensor *out) {
  if (!pack_succeeded()) return false;
  if (n->extra && n->extra->fw) return fw_set_output(n, i, out);
  return attach_output(n, i, out);
}

/* Forward AD: a node recorded for its jvp alone leaves out without history. */
static bool fw_set_output(GradNode *n, int i, Tensor *out) {
  if (fw_only(n)) {
    if (!meta_get(out)) return false;
    node_info_set(n, &n->out_info[i], out);
  } else {
    fw_note_output(n, i, out);
    if (!attach_output(n, i, out)) return false;
  }
  return fw_finish_output(n, i, out);
}

static inline bool attach_output(GradNode *n, int i, Tensor *out) {
  AgMeta *m = meta_get(out);
  if (!m) return false;
  if (m->grad_fn) grad_node_release(m->grad_fn);
  m->grad_fn = grad_node_retain(n);
  m->output_nr = i;
  m->requires_grad = true;
  info_set_node(n, &n->out_info[i], out);
  return true;
}

void node_finish(GradNode *n) {
  if (n->extra && n->extra->fw) { /* what the jvp read is not kept with the graph */
    fw_free(n->extra->fw);
    n->extra->fw = NULL;
  }
  grad_node_release(n);
}

GradNode *node_with_items(GradNode *n, const IndexItem *items, int nitems) {
  if (!n) return NULL;
  AgParams *p = node_params(n);
  p->items = nitems == 1 ? &p->item_inline
                         : calloc((size_t)(nitems > 0 ? nitems : 1), sizeof *items);
  if (!p->items) {
    tensor_set_error("out of memory");
    node_finish(n);
    return NULL;
  }
  p->nitems = nitems;
  for (int k = 0; k < nitems; k++) {
    p->items[k] = items[k];
    if (items[k].kind == IDX_TENSOR) p->items[k].tensor = tensor_alias(items[k].tensor);
  }
  return n;
}

/* ---- saved values ---- */

static void format_type_and_shape(char *buf, size_t cap, const Tensor *t) {
  size_t len = (size_t)snprintf(buf, cap, "torch.%sTensor [", tensor_dtype_torch_name(t->dtype));
  for (int d = 0; d < t->ndim && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

static void version_error(GradNode *n, const AgSaved *s) {
  char what[256], owner[160] = "", lines[160] = "";
  format_type_and_shape(what, sizeof what, s->data);
  GradNode *fn = s->is_output ? n : s->grad_fn;
  if (fn && fn->kind != AG_NODE_AccumulateGrad)
    snprintf(owner, sizeof owner, ", which is output %d of %s,", s->output_nr, grad_node_name(fn));
  int64_t now = tensor_version(s->data);
  int write_line = ag_inplace_write_line(s->data->storage, now);
  if (n->line > 0 && write_line > 0)
    snprintf(lines, sizeof lines,
             " (it was saved for %s at line %d and modified in place at line %d)",
             grad_node_name(n), n->line, write_line);
  else if (n->line > 0)
    snprintf(lines, sizeof lines, " (it was saved for %s at line %d)", grad_node_name(n), n->line);
  tensor_set_error("one of the variables needed for gradient computation has been modified by "
                   "an inplace operation: [%s]%s is at version %lld; expected version %lld "
                   "instead.%s Hint: enable anomaly detection to find the operation that failed "
                   "to compute its gradient, with autograd.detect_anomaly().",
                   what, owner, (long long)now, (long long)s->version, lines);
}

static void freed_error(void) {
  tensor_set_error("Trying to backward through the graph a second time (or directly access "
                   "saved tensors after they have already been freed). Saved intermediate "
                   "values of the graph are freed when you call .backward() or "
                   "autograd.grad(). Specify retain_graph=true if you need to backward through "
                   "the graph a second time or if you need to access saved tensors after "
                   "calling backward.");
}

bool node_check_saved(const GradNode *n) {
  if (!n->released) return true;
  freed_error();
  return false;
}

/* The tensor of a packed value, from its unpack hook (a new reference). */
static Tensor *saved_unpack(AgSaved *s) {
  bool failed = false;
  Tensor *t = s->packed->fns->unpack(s->packed->value, &failed);
  if (!t && !failed) tensor_set_error("a saved_tensors_hooks unpack hook failed");
  return t;
}

/* The saved tensor as saved (a new reference): the alias, or what the unpack
 * hook gives back for a packed value (not version-checked: the hooks own it). */
static Tensor *saved_data(GradNode *n, AgSaved *s, int i) {
  if (s->packed) return saved_unpack(s);
  AG_ASSERT(s->data != NULL); /* a formula reads only what its op saved */
  if (!s->data) {
    tensor_set_error("internal error: %s has no saved value %d", grad_node_name(n), i);
    return NULL;
  }
  if (s->storage->version != s->version) {
    version_error(n, s);
    return NULL;
  }
  return tensor_retain(s->data);
}

/* The saved tensor, with its history when grad mode is on (create_graph)
 * and, in a dual level, with the tangent it had (forward-over-reverse). */
Tensor *node_unpack_general(GradNode *n, int i) {
  AgSaved *s = &n->saved[i];
  if (!node_check_saved(n)) return NULL;
  Tensor *data = saved_data(n, s, i);
  Tensor *tangent = s->tangent && fw_active() ? s->tangent : NULL; /* none inside a jvp */
  bool history = s->requires_grad && grad_enabled() && !fw_plain_saved();
  if (!data || (!history && !tangent)) return data;
  Tensor *t = tensor_alias(data);
  tensor_release(data);
  AgMeta *m = t ? meta_get(t) : NULL;
  if (!m || (tangent && !ag_fw_set_tangent(t, tangent))) {
    tensor_release(t);
    return NULL;
  }
  if (!history) return t;
  m->requires_grad = true;
  m->grad_fn = grad_node_retain(s->is_output ? n : s->grad_fn);
  m->output_nr = s->output_nr;
  return t;
}

void node_release_saved(GradNode *n) {
  if (n->has_saved) n->released = true;
  for (int i = 0; i < n->nsaved; i++)
    saved_clear(&n->saved[i]);
  if (n->kind == AG_NODE_CustomBackward && n->extra && n->extra->fns.release_saved)
    n->extra->fns.release_saved(n->extra->ctx);
}

/* ---- introspection ---- */

AgNodeKind grad_node_kind(const GradNode *node) { return node->kind; }

const char *grad_node_name(const GradNode *node) {
  if (node->kind == AG_NODE_CustomBackward && node->extra && node->extra->custom_name)
    return node->extra->custom_name;
  return kind_names[node->kind];
}

uint64_t grad_node_id(const GradNode *node) { return node->id; }
uint64_t grad_node_last_id(void) { return ag_state()->node_counter; }
int grad_node_line(const GradNode *node) { return node->line; }
int grad_node_num_next(const GradNode *node) { return node->nnext; }

GradNode *grad_node_next(const GradNode *node, int i, int *input_nr) {
  if (i < 0 || i >= node->nnext) return NULL;
  if (input_nr) *input_nr = node->next[i].input_nr;
  return node->next[i].node;
}

Tensor *grad_node_variable(const GradNode *node) { return node->variable; }
int grad_node_num_saved(const GradNode *node) { return node->nsaved; }

Tensor *grad_node_saved(const GradNode *node, int i, const char **name) {
  if (i < 0 || i >= node->nsaved) return NULL;
  if (name) *name = node->saved[i].name;
  return node->saved[i].data;
}

bool grad_node_saved_is_packed(const GradNode *node, int i) {
  return i >= 0 && i < node->nsaved && node->saved[i].packed != NULL;
}

const Tensor *grad_node_custom_saved(const GradNode *node, int i) {
  const AgNodeExtra *x = node->extra;
  if (node->kind != AG_NODE_CustomBackward || !x || !x->fns.saved_tensor) return NULL;
  return x->fns.saved_tensor(x->ctx, i);
}

int grad_node_num_outputs(const GradNode *node) { return node->noutputs; }

bool grad_node_output_info(const GradNode *node, int i, DType *dtype, int *ndim,
                           const int64_t **shape) {
  if (i < 0 || i >= node->noutputs) return false;
  const AgInfo *info = &node->out_info[i];
  if (dtype) *dtype = info->dtype;
  if (ndim) *ndim = info->ndim;
  if (shape) *shape = info_shape(info);
  return true;
}

void *grad_node_custom_ctx(const GradNode *node) {
  return node->kind == AG_NODE_CustomBackward && node->extra ? node->extra->ctx : NULL;
}

/* ---- saved bytes ---- */

/* A set of pointers (open addressing), for walks over graphs of any size. */
typedef struct {
  const void **slots;
  size_t cap, count;
  bool failed;
} PtrSet;

static size_t ptr_slot(const void *p, size_t cap) {
  return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull) & (cap - 1);
}

/* Adds p; false when it was there already (or memory ran out). */
static bool ptrset_add(PtrSet *set, const void *p) {
  if (set->failed) return false;
  if (2 * (set->count + 1) > set->cap) {
    size_t cap = set->cap ? 2 * set->cap : 64;
    const void **slots = calloc(cap, sizeof *slots);
    if (!slots) {
      set->failed = true;
      tensor_set_error("out of memory");
      return false;
    }
    for (size_t k = 0; k < set->cap; k++) {
      if (!set->slots[k]) continue;
      size_t j = ptr_slot(set->slots[k], cap);
      while (slots[j]) j = (j + 1) & (cap - 1);
      slots[j] = set->slots[k];
    }
    free(set->slots);
    set->slots = slots;
    set->cap = cap;
  }
  size_t j = ptr_slot(p, set->cap);
  for (; set->slots[j]; j = (j + 1) & (set->cap - 1))
    if (set->slots[j] == p) return false;
  set->slots[j] = p;
  set->count++;
  return true;
}

/* t's bytes unless its storage is in `storages` already (an alias of
 * `.data` counts as the storage it shares). */
static size_t storage_bytes_new(const Tensor *t, PtrSet *storages, int *count) {
  (*count)++;
  const Storage *st = t->storage->is_alias ? t->storage->owner : t->storage;
  return ptrset_add(storages, st) ? st->nbytes : 0;
}

/* The bytes of n's saved tensors (a custom Function's ctx.saved_tensors
 * included) whose storage is not in `storages` yet. */
static size_t saved_bytes_new(const GradNode *n, PtrSet *storages, int *count) {
  size_t total = 0;
  for (int i = 0; i < n->nsaved; i++)
    if (n->saved[i].data) total += storage_bytes_new(n->saved[i].data, storages, count);
  const Tensor *t;
  for (int i = 0; (t = grad_node_custom_saved(n, i)) != NULL; i++)
    total += storage_bytes_new(t, storages, count);
  return total;
}

size_t grad_node_saved_bytes(const GradNode *node) {
  PtrSet storages = {0};
  int count = 0;
  size_t total = saved_bytes_new(node, &storages, &count);
  free(storages.slots);
  return total;
}

/* An iterative walk over the distinct nodes behind root (a graph can be a
 * million nodes long: no recursion). */
size_t ag_graph_saved_bytes(GradNode *root, int *count) {
  PtrSet storages = {0}, visited = {0};
  GradNode **stack = NULL;
  int nstack = 0, stack_cap = 0;
  size_t total = 0;
  *count = 0;
  for (GradNode *cur = root; cur; cur = nstack ? stack[--nstack] : NULL) {
    if (!ptrset_add(&visited, cur)) continue;
    total += saved_bytes_new(cur, &storages, count);
    for (int i = 0; i < cur->nnext; i++) {
      if (!cur->next[i].node) continue;
      if (nstack == stack_cap) {
        int cap = stack_cap ? 2 * stack_cap : 64;
        GradNode **more = realloc(stack, (size_t)cap * sizeof *more);
        if (!more) break;
        stack = more;
        stack_cap = cap;
      }
      stack[nstack++] = cur->next[i].node;
    }
  }
  free(storages.slots);
  free(visited.slots);
  free(stack);
  return total;
}
