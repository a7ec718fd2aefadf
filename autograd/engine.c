/* engine.c — the backward pass, in micrograd's shape but without recursion.
 *
 * A run (one backward() or autograd.grad() call) is a Graph: one Task per
 * node reachable from the roots, found with an explicit stack, each counting
 * the edges that point at it (deps). The roots' gradients are seeded into
 * their tasks' input buffers; a task whose deps reach zero goes into a ready
 * heap, which hands out the most recently created node first (as PyTorch's
 * ready queue; AccumulateGrad first of all). Running a task sums its
 * buffered gradients, calls the node's derivative formula for the inputs
 * that some wanted tensor depends on, and adds the results into the
 * buffers of the nodes it points to.
 *
 * All state of a run lives in its Graph (each node also carries its task
 * index, stamped with the run's id, which a run restamps when a nested one
 * overwrote it), so a hook may itself call backward.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

bool ag_anomaly_check_forward(void);

typedef struct {
  GradNode *node;
  int deps;
  bool useful;  /* some wanted gradient flows through this node */
  bool hit;     /* a wanted gradient is taken right here */
  bool target;  /* AccumulateGrad that must accumulate (backward with inputs) */
  bool runs;    /* its formula must run: a useful node lies below it */
  Tensor **buf; /* one gradient per output of the node's forward */
  Tensor *buf_inline;
} Task;

/* A wanted gradient taken at (node, output_nr): autograd.grad's results, or
 * backward(inputs=) on a non-leaf (accumulated into that tensor's .grad). */
typedef struct {
  GradNode *node;
  int output_nr;
  int result;
  Tensor *accumulate_into;
} Capture;

typedef struct AgGraph {
  Task *tasks;
  int ntasks, cap;
  int nroot_tasks; /* the roots' tasks come first: tasks[0 .. nroot_tasks) */
  uint64_t id; /* this run's number, stamped on its nodes (GradNode.run_id) */
  int *heap;
  int nheap;
  Capture *caps;
  int ncaps;
  Tensor **results;
  bool all_useful; /* backward() without inputs: everything runs */
  bool accumulate; /* backward() (vs grad(): .grad untouched) */
  bool retain_graph, create_graph;
  bool buffers_clear; /* every task ran and cleared its buffers */
} Graph;

/* ---- the task table ----
 * Each node of a run carries its task index, stamped with the run's id, so
 * finding a node's task is one compare. A nested run (a hook or a custom
 * backward calling backward) stamps the nodes it shares with ours with its
 * own id; a lookup that meets a foreign stamp restamps all our nodes once. */

__attribute__((noinline)) static void restamp(Graph *g) {
  for (int i = 0; i < g->ntasks; i++) {
    g->tasks[i].node->run_id = g->id;
    g->tasks[i].node->task = i;
  }
}

/* n's task, or -1 when n is not part of this run. */
static int task_find(Graph *g, GradNode *n) {
  if (n->run_id != g->id) restamp(g);
  return n->run_id == g->id ? n->task : -1;
}

/* A new task for n with deps incoming edges; false when out of memory. Only
 * discovery adds tasks, and no other run can start meanwhile, so a foreign
 * stamp means a new node here. */
static inline bool task_add(Graph *g, GradNode *n, int deps) {
  if (g->ntasks == g->cap) {
    int cap = g->cap ? g->cap * 2 : 64;
    Task *tasks = realloc(g->tasks, (size_t)cap * sizeof *tasks);
    if (!tasks) return false;
    g->tasks = tasks;
    g->cap = cap;
  }
  g->tasks[g->ntasks] = (Task){.node = n, .deps = deps};
  n->run_id = g->id;
  n->task = g->ntasks++;
  return true;
}

static Tensor **task_buf(Task *t) {
  if (!t->buf) {
    int n = t->node->noutputs;
    t->buf = n <= 1 ? &t->buf_inline : calloc((size_t)n, sizeof *t->buf);
  }
  return t->buf;
}

__attribute__((noinline)) static void task_clear_bufs(Task *t) {
  for (int i = 0; i < t->node->noutputs; i++)
    tensor_release(t->buf[i]);
  free(t->buf);
}

/* Inline: once per node. A node of one output needs no walk of the node. */
static inline void task_clear_buf(Task *t) {
  if (!t->buf) return;
  if (t->buf == &t->buf_inline)
    tensor_release(t->buf_inline);
  else
    task_clear_bufs(t);
  t->buf = NULL;
  t->buf_inline = NULL;
}

static void graph_free(Graph *g) {
  for (int i = 0; !g->buffers_clear && i < g->ntasks; i++)
    task_clear_buf(&g->tasks[i]);
  free(g->tasks);
  free(g->heap);
  free(g->caps);
}

/* ---- discovery: every reachable node and its number of incoming edges ---- */

static bool oom(void) {
  tensor_set_error("out of memory");
  return false;
}

typedef struct {
  GradNode **items;
  int top, cap;
} NodeStack;

static bool stack_grow(NodeStack *s) {
  int cap = s->cap ? s->cap * 2 : 64;
  GradNode **items = realloc(s->items, (size_t)cap * sizeof *items);
  if (!items) return false;
  s->items = items;
  s->cap = cap;
  return true;
}

static inline bool stack_push(NodeStack *s, GradNode *n) {
  if (s->top == s->cap && !stack_grow(s)) return false;
  s->items[s->top++] = n;
  return true;
}

/* Counts one more incoming edge of n (none for a root), adding its task and
 * queueing n for a visit the first time it is seen. Inline: it runs once per
 * edge of the graph. */
static inline bool discover_one(Graph *g, NodeStack *s, GradNode *n, bool is_root) {
  if (n->run_id == g->id) {
    g->tasks[n->task].deps += !is_root;
    return true;
  }
  return task_add(g, n, !is_root) && stack_push(s, n);
}

static bool graph_discover(Graph *g, GradNode *const *roots, int nroots) {
  NodeStack s = {0};
  bool ok = true;
  for (int i = 0; ok && i < nroots; i++)
    ok = discover_one(g, &s, roots[i], true);
  g->nroot_tasks = g->ntasks;
  while (ok && s.top > 0) {
    GradNode *n = s.items[--s.top];
    const AgEdge *next = n->next;
    int nnext = n->nnext; /* in a local: the stores below could alias it */
    /* the children are cold: the next one's miss overlaps this one's visit
     * (see prefetch_node_reads) */
    for (int i = 0; ok && i < nnext; i++) {
      if (i + 1 < nnext && next[i + 1].node) __builtin_prefetch(&next[i + 1].node->run_id, 1);
      if (next[i].node) ok = discover_one(g, &s, next[i].node, false);
    }
  }
  free(s.items);
  return ok || oom();
}

/* Marks what must run when only some tensors are wanted: a node is useful if
 * a wanted gradient is taken at it or at a node below it. Children are
 * settled before parents by walking a topological order backwards. */
static bool graph_mark_useful(Graph *g) {
  int n = g->ntasks;
  int *deps = malloc((size_t)(n ? n : 1) * sizeof *deps);
  int *order = malloc((size_t)(n ? n : 1) * sizeof *order);
  if (!deps || !order) {
    free(deps);
    free(order);
    return oom();
  }
  int head = 0, tail = 0;
  for (int i = 0; i < n; i++) {
    deps[i] = g->tasks[i].deps;
    if (deps[i] == 0) order[tail++] = i;
  }
  while (head < tail) {
    GradNode *node = g->tasks[order[head++]].node;
    for (int e = 0; e < node->nnext; e++) {
      if (!node->next[e].node) continue;
      int k = task_find(g, node->next[e].node);
      if (--deps[k] == 0) order[tail++] = k;
    }
  }
  for (int i = tail - 1; i >= 0; i--) {
    Task *t = &g->tasks[order[i]];
    bool below = false;
    for (int e = 0; e < t->node->nnext && !below; e++)
      if (t->node->next[e].node) below = g->tasks[task_find(g, t->node->next[e].node)].useful;
    t->runs = below || t->target;
    t->useful = t->runs || t->hit;
  }
  free(deps);
  free(order);
  return true;
}

/* ---- the ready heap: largest node id first ----
 * Room for every task, made when the run starts: a task becomes ready once. */

static bool heap_alloc(Graph *g) {
  g->heap = malloc((size_t)(g->ntasks ? g->ntasks : 1) * sizeof *g->heap);
  return g->heap || oom();
}

static inline void heap_push(Graph *g, int k) {
  int i = g->nheap++;
  while (i > 0) {
    int parent = (i - 1) / 2;
    if (g->tasks[g->heap[parent]].node->id >= g->tasks[k].node->id) break;
    g->heap[i] = g->heap[parent];
    i = parent;
  }
  g->heap[i] = k;
}

static int heap_pop(Graph *g) {
  int top = g->heap[0];
  int last = g->heap[--g->nheap];
  int i = 0;
  for (;;) {
    int child = 2 * i + 1;
    if (child >= g->nheap) break;
    if (child + 1 < g->nheap &&
        g->tasks[g->heap[child + 1]].node->id > g->tasks[g->heap[child]].node->id)
      child++;
    if (g->tasks[last].node->id >= g->tasks[g->heap[child]].node->id) break;
    g->heap[i] = g->heap[child];
    i = child;
  }
  if (g->nheap > 0) g->heap[i] = last;
  return top;
}

/* ---- gradients ---- */

/* A gradient we may keep as .grad without copying: nobody else sees it. */
static inline bool can_steal(const Tensor *g) {
  return g->refcount == 1 && !g->meta && g->storage->refcount == 1 && tensor_is_contiguous(g);
}

/* a[k] += b[k] for k < n in float32 or float64; b NULL: a[k] += 0 (what
 * adding zeros does: -0.0 becomes +0.0). */
static inline void add_run(DType dt, void *a, const void *b, int64_t n) {
  if (dt == DT_FLOAT32) {
    float *fa = a;
    const float *fb = b;
    if (fb)
      for (int64_t k = 0; k < n; k++) fa[k] += fb[k];
    else
      for (int64_t k = 0; k < n; k++) fa[k] += 0.0f;
  } else {
    double *da = a;
    const double *db = b;
    if (db)
      for (int64_t k = 0; k < n; k++) da[k] += db[k];
    else
      for (int64_t k = 0; k < n; k++) da[k] += 0.0;
  }
}

/* acc is a buffer's gradient we may write into: a plain float tensor of
 * dtype dt and the given shape that nobody else holds. */
static inline bool buffer_writable(const Tensor *acc, DType dt, int ndim, const int64_t *shape) {
  if (acc->dtype != dt || (dt != DT_FLOAT32 && dt != DT_FLOAT64) || acc->ndim != ndim ||
      !can_steal(acc))
    return false;
  for (int d = 0; d < ndim; d++)
    if (acc->shape[d] != shape[d]) return false;
  return true;
}

/* acc += g in place when acc is the buffer's own plain float tensor of g's
 * shape and dtype (as PyTorch's InputBuffer reuses a gradient nobody else
 * holds): a node with several consumers then allocates nothing per extra
 * gradient. Elementwise addition rounds the same either way. A g with
 * history (create_graph) must be added by a recorded op, or it is lost. */
static bool buffer_add_in_place(Tensor *acc, const Tensor *g) {
  if (!tensor_is_contiguous(g) || (g->meta && (ag_requires_grad(g) || fw_tangent(g))) ||
      !buffer_writable(acc, g->dtype, g->ndim, g->shape))
    return false;
  add_run(acc->dtype, tensor_data(acc), tensor_data(g), acc->numel);
  return true;
}

/* *slot += grad when *slot holds a gradient already (takes grad's reference). */
static bool buffer_accumulate(Tensor **slot, Tensor *grad) {
  if (buffer_add_in_place(*slot, grad)) {
    tensor_release(grad);
    return true;
  }
  Tensor *sum = ag_binary(BIN_ADD, *slot, grad);
  tensor_release(grad);
  if (!sum) return false;
  tensor_release(*slot);
  *slot = sum;
  return true;
}

/* The first gradient into a slot (most of them) is stored without a call. */
static inline bool buffer_add(Tensor **slot, Tensor *grad) {
  if (!*slot) {
    *slot = grad;
    return true;
  }
  return buffer_accumulate(slot, grad);
}

/* The first .grad under create_graph: PyTorch copies the gradient into a new
 * tensor (new_empty_strided + copy_), so it shows CopyBackwards with edges
 * [None, grad's history] and version 1. */
static Tensor *copy_with_history(Tensor *grad) {
  Tensor *out = tensor_clone(grad);
  if (!out) return NULL;
  tensor_bump_version(out);
  if (!ag_record_wanted(&grad, 1, out)) return out;
  Tensor *ins[2] = {NULL, grad};
  return ag_record_finish(ag_record_node(AG_NODE_CopyBackwards, ins, 2, 0, 1), out);
}

/* .grad += grad as AccumulateGrad does: in place unless building a graph
 * (then out of place, recorded). */
static bool accumulate_into(Tensor *var, Tensor *grad, bool create_graph) {
  AgMeta *m = meta_get(var);
  if (!m) return false;
  Tensor *sum;
  if (!m->grad) {
    sum = create_graph      ? copy_with_history(grad)
          : can_steal(grad) ? tensor_retain(grad)
                            : tensor_clone(grad);
  } else if (!create_graph) {
    if (!tensor_binary_(BIN_ADD, m->grad, grad)) return false;
    if (m->grad->meta) ag_note_inplace_write(m->grad);
    return true;
  } else {
    sum = ag_binary(BIN_ADD, m->grad, grad);
  }
  if (!sum) return false;
  tensor_release(m->grad);
  m->grad = sum;
  return true;
}

__attribute__((noinline)) static bool run_accumulate(Graph *g, GradNode *n, Tensor **buf) {
  AgMeta *m = meta_of(n->variable);
  if (!m || !m->requires_grad) return true; /* requires_grad was switched off since */
  if (!hooks_run(&m->hooks, -1, &buf[0])) return false;
  return accumulate_into(n->variable, buf[0], g->create_graph);
}

/* Tensor hooks and retain_grad of a non-leaf's outputs, before its node runs (a node
 * with extra). Out of line with the other rare paths (see fill_missing). */
__attribute__((noinline)) static bool run_pre_hooks(Graph *g, GradNode *n, Tensor **buf) {
  AgNodeExtra *x = n->extra;
  for (int o = 0; o < n->noutputs; o++) {
    if (!buf[o]) continue;
    if (x->hooks && !hooks_run(&x->hooks, o, &buf[o])) return false;
    if (g->accumulate && x->retain && x->retain[o] &&
        !accumulate_into(x->retain[o], buf[o], g->create_graph))
      return false;
  }
  return true;
}

__attribute__((noinline)) static bool run_captures(Graph *g, GradNode *n, Tensor **buf) {
  for (int c = 0; c < g->ncaps; c++) {
    Capture *cap = &g->caps[c];
    Tensor *grad = cap->node == n ? buf[cap->output_nr] : NULL;
    if (!grad) continue;
    if (cap->accumulate_into) {
      if (!accumulate_into(cap->accumulate_into, grad, g->create_graph)) return false;
    } else if (!buffer_add(&g->results[cap->result], tensor_retain(grad))) {
      return false;
    }
  }
  return true;
}

static bool expandable_to(const Tensor *g, const AgInfo *in) {
  /* g may be reduced to in's shape when in broadcasts to g's shape */
  if (in->ndim > g->ndim) return false;
  const int64_t *s = info_shape(in);
  for (int d = 0; d < in->ndim; d++) {
    int64_t gs = g->shape[g->ndim - in->ndim + d];
    if (s[d] != gs && s[d] != 1) return false;
  }
  return true;
}

/* The common case, checked without a call (a loop, not memcmp: shapes are
 * short): the gradient already has its input's shape and dtype. */
static inline bool grad_fits(const Tensor *g, const AgInfo *in) {
  if (g->dtype != in->dtype || g->ndim != in->ndim) return false;
  const int64_t *shape = info_shape(in);
  for (int d = 0; d < in->ndim; d++)
    if (g->shape[d] != shape[d]) return false;
  return true;
}

/* Makes a formula's gradient fit its input: dtype cast, broadcast reduced. */
__attribute__((noinline)) static Tensor *validate_grad(GradNode *n, int i, Tensor *grad) {
  const AgInfo *in = &n->in_info[i];
  bool same = grad->ndim == in->ndim &&
              (in->ndim == 0 || !memcmp(grad->shape, info_shape(in), (size_t)in->ndim * 8));
  if (!same) {
    if (!expandable_to(grad, in)) {
      char got[256], want[256];
      ag_format_shape(got, sizeof got, grad->ndim, grad->shape);
      ag_format_shape(want, sizeof want, in->ndim, info_shape(in));
      int index = n->extra && n->extra->edge_arg ? n->extra->edge_arg[i] : i;
      tensor_set_error("Function %s returned an invalid gradient at index %d - got %s but "
                       "expected shape compatible with %s",
                       grad_node_name(n), index, got, want);
      tensor_release(grad);
      return NULL;
    }
    Tensor *r = ag_sum_to_shape(grad, in->ndim, info_shape(in));
    tensor_release(grad);
    if (!(grad = r)) return NULL;
  }
  if (grad->dtype != in->dtype && dtype_is_float(in->dtype)) {
    Tensor *r = ag_to_dtype(grad, in->dtype);
    tensor_release(grad);
    grad = r;
  }
  return grad;
}

__attribute__((noinline)) static bool anomaly_check(GradNode *n, Tensor *const *out) {
  for (int i = 0; i < n->nnext; i++) {
    if (!out[i] || !ag_any_nan(out[i])) continue;
    char where[96] = "";
    if (n->line > 0)
      snprintf(where, sizeof where, " The forward operation was at line %d.", n->line);
    tensor_set_error("Function '%s' returned nan values in its %dth output.%s", grad_node_name(n),
                     i, where);
    return false;
  }
  return true;
}

/* Gradients never flowed into some outputs of a multi-output node: zeros.
 * Out of line, as the other rare paths of the per-node loop: inlined, they
 * crowd its registers. */
__attribute__((noinline)) static bool fill_missing(GradNode *n, Tensor **buf) {
  int noutputs = n->noutputs;
  for (int o = 0; o < noutputs; o++) {
    if (buf[o]) continue;
    const AgInfo *info = &n->out_info[o];
    buf[o] = tensor_zeros(info->dtype, info->ndim, info_shape(info));
    if (!buf[o]) return false;
  }
  return true;
}

/* needs[i]: some wanted gradient flows through edge i (the formula skips the others). */
static void find_needs(Graph *g, const GradNode *n, bool *needs) {
  const AgEdge *next = n->next;
  int nnext = n->nnext;
  if (g->all_useful) {
    for (int i = 0; i < nnext; i++)
      needs[i] = next[i].node != NULL;
    return;
  }
  for (int i = 0; i < nnext; i++) {
    GradNode *child = next[i].node;
    needs[i] = child && g->tasks[task_find(g, child)].useful;
  }
}

/* A SelectBackward0's gradient added straight into the buffer of the node
 * it flows to, without the zeros tensor of its formula (a backward over
 * `for v in x` runs one per element), when that buffer holds a gradient we
 * may write (buffer_writable). Every element gets what adding the formula's
 * result would add: the gradient in the selected block, +0.0 elsewhere
 * (-0.0 + 0.0 is +0.0). Not under create_graph (the formula's node is
 * recorded) nor in anomaly mode (it checks the formula's result). False:
 * nothing was done. */
__attribute__((noinline)) static bool select_into_buffer(Graph *g, GradNode *n,
                                                         const Tensor *grad, const bool *needs) {
  if (!needs[0] || g->create_graph || ag_state()->anomaly_on || !tensor_is_contiguous(grad))
    return false;
  const AgInfo *in = &n->in_info[0];
  const AgParams *p = node_p(n);
  const IndexItem *last = ag_dim_item_last(in->ndim, p->items, p->nitems);
  Task *ct = &g->tasks[task_find(g, n->next[0].node)];
  Tensor *acc = ct->buf ? ct->buf[n->next[0].input_nr] : NULL;
  if (!last || last->kind != IDX_INT || !acc ||
      !buffer_writable(acc, in->dtype, in->ndim, info_shape(in)) || grad->dtype != in->dtype)
    return false;
  int dim = p->nitems - 1;
  const int64_t *shape = info_shape(in);
  int64_t size = shape[dim], i = last->i < 0 ? last->i + size : last->i;
  if (i < 0 || i >= size || grad->ndim != in->ndim - 1) return false;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < in->ndim; d++) {
    if (d != dim && grad->shape[d < dim ? d : d - 1] != shape[d]) return false;
    if (d < dim) outer *= shape[d];
    if (d > dim) inner *= shape[d];
  }
  /* per index of the dimensions before dim: zeros, the block, zeros */
  size_t esize = dtype_size(in->dtype);
  char *a = tensor_data(acc);
  const char *b = tensor_data(grad);
  for (int64_t o = 0; o < outer; o++) {
    add_run(in->dtype, a, NULL, i * inner);
    add_run(in->dtype, a + (size_t)(i * inner) * esize, b, inner);
    add_run(in->dtype, a + (size_t)((i + 1) * inner) * esize, NULL, (size - i - 1) * inner);
    a += (size_t)(size * inner) * esize;
    b += (size_t)inner * esize;
  }
  return true;
}

/* Calls the node's formula; out[nnext] receives new references. */
static bool call_formula(Graph *g, GradNode *n, Tensor **buf, Tensor **out, const bool *needs) {
  /* buf is not empty: a node of one output has its gradient */
  if ((n->released && !node_check_saved(n)) || (n->noutputs > 1 && !fill_missing(n, buf)))
    return false;
  if (n->kind == AG_NODE_SelectBackward0 && select_into_buffer(g, n, buf[0], needs))
    return true; /* no gradient left to hand on */
  if (n->kind == AG_NODE_CustomBackward) return custom_apply(n, buf, out, needs);
  return ag_derivatives[n->kind](n, buf, out, needs);
}

/* out[i] made ready for its edge: dropped when not needed, else cast and
 * reduced to its input's dtype and shape. False on an invalid gradient. */
static inline bool settle_output(GradNode *n, int i, const bool *needs, Tensor **out) {
  Tensor *grad = out[i];
  if (!grad) return true;
  if (!needs[i]) {
    tensor_release(grad);
    out[i] = NULL;
    return true;
  }
  return grad_fits(grad, &n->in_info[i]) || (out[i] = validate_grad(n, i, grad)) != NULL;
}

static bool settle_outputs(GradNode *n, const bool *needs, Tensor **out) {
  for (int i = 0; i < n->nnext; i++)
    if (!settle_output(n, i, needs, out)) return false;
  return true;
}

/* The one pass over n's edges after its formula: each gradient is settled
 * and added into the buffer of the node it flows to, whose task is ready
 * once its last incoming edge is done. Moved gradients leave out[]. */
static bool propagate(Graph *g, GradNode *n, const bool *needs, Tensor **out) {
  const AgEdge *next = n->next;
  int nnext = n->nnext;
  bool all_useful = g->all_useful;
  for (int i = 0; i < nnext; i++) {
    if (!settle_output(n, i, needs, out)) return false;
    GradNode *child = next[i].node;
    if (!child) continue;
    int k = task_find(g, child);
    Task *ct = &g->tasks[k];
    if (out[i]) {
      Tensor **buf = task_buf(ct);
      if (!buf) return oom();
      Tensor *grad = out[i];
      out[i] = NULL;
      if (!buffer_add(&buf[next[i].input_nr], grad)) return false;
    }
    if (--ct->deps == 0 && (all_useful || ct->useful)) heap_push(g, k);
  }
  return true;
}

/* Runs the node's formula and hands its gradients on. Under create_graph
 * settling and adding record nodes: all outputs are settled first, as the
 * recorded nodes' order decides a later backward's order. Anomaly mode
 * checks every output before any moves on. The saved values go once every
 * gradient has (an error keeps them). */
static bool call_node(Graph *g, Task *t, Tensor **out) {
  GradNode *n = t->node;
  bool needs_inline[8];
  bool *needs = n->nnext <= 8 ? needs_inline : calloc((size_t)n->nnext, sizeof *needs);
  if (!needs) return oom();
  find_needs(g, n, needs);
  bool ok = call_formula(g, n, t->buf, out, needs);
  task_clear_buf(t);
  bool anomaly = ag_state()->anomaly_on; /* ag_anomaly_enabled, inline */
  if (ok && (g->create_graph || anomaly))
    ok = settle_outputs(n, needs, out) && (!anomaly || anomaly_check(n, out));
  ok = ok && propagate(g, n, needs, out);
  if (ok && !g->retain_graph) node_release_saved(n);
  if (needs != needs_inline) free(needs);
  return ok;
}

__attribute__((noinline)) static void release_deps(Graph *g, GradNode *n) {
  for (int i = 0; i < n->nnext; i++) {
    if (!n->next[i].node) continue;
    int k = task_find(g, n->next[i].node);
    Task *ct = &g->tasks[k];
    if (--ct->deps == 0 && (g->all_useful || ct->useful)) heap_push(g, k);
  }
}

static bool buf_empty(const Task *t) {
  if (!t->buf) return true;
  if (t->buf == &t->buf_inline) return !t->buf_inline;
  for (int i = 0; i < t->node->noutputs; i++)
    if (t->buf[i]) return false;
  return true;
}

/* A graph of small ops is walked cold: its nodes, saved tensors and their
 * storages were made long ago and are scattered. The formula reads each
 * saved tensor and its storage (node_peek checks the version, the op
 * reads the elements), and propagate reads each child's task stamp. Asked
 * for all at once, their cache misses overlap instead of following one
 * another. */
static void prefetch_node_reads(const GradNode *n) {
  for (int i = 0; i < n->nsaved; i++) {
    if (!n->saved[i].data) continue;
    __builtin_prefetch(n->saved[i].data);
    __builtin_prefetch(n->saved[i].storage);
  }
  for (int i = 0; i < n->nnext; i++)
    if (n->next[i].node) __builtin_prefetch(&n->next[i].node->run_id);
}

static bool run_task(Graph *g, int k) {
  Task *t = &g->tasks[k];
  GradNode *n = t->node;
  if (buf_empty(t)) { /* no gradient flowed here */
    release_deps(g, n);
    return true;
  }
  Tensor **buf = t->buf;
  if ((n->extra && !run_pre_hooks(g, n, buf)) || (g->ncaps && !run_captures(g, n, buf)))
    return false;
  bool runs = g->all_useful || t->runs;
  if (n->kind == AG_NODE_AccumulateGrad) {
    bool ok = !runs || !g->accumulate || run_accumulate(g, n, buf);
    task_clear_buf(t);
    return ok;
  }
  if (!runs) {
    task_clear_buf(t);
    return true;
  }
  prefetch_node_reads(n);
  Tensor *out_inline[4] = {NULL};
  Tensor **out = n->nnext <= 4 ? out_inline : calloc((size_t)n->nnext, sizeof *out);
  if (!out) return oom();
  bool ok = call_node(g, t, out);
  for (int i = 0; !ok && i < n->nnext; i++) /* propagate hands on every gradient it gets to */
    tensor_release(out[i]);
  if (out != out_inline) free(out);
  return ok;
}

static bool graph_run(Graph *g) {
  if (!heap_alloc(g)) return false;
  for (int k = 0; k < g->nroot_tasks; k++) /* only a root can have no incoming edge */
    if (g->tasks[k].deps == 0) heap_push(g, k);
  while (g->nheap > 0) {
    if (tensor_interrupt_requested) {
      tensor_set_error("Interrupted");
      return false;
    }
    if (!run_task(g, heap_pop(g))) return false;
  }
  g->buffers_clear = g->all_useful; /* else the tasks nobody wanted kept theirs */
  return true;
}

/* ---- the public entry points ---- */

static Tensor *root_grad(Tensor *root, Tensor *given, int i) {
  if (!given) {
    if (root->numel != 1) {
      tensor_set_error("grad can be implicitly created only for scalar outputs");
      return NULL;
    }
    return tensor_full(root->dtype, root->ndim, root->shape, 1.0);
  }
  bool same = given->ndim == root->ndim &&
              (root->ndim == 0 || !memcmp(given->shape, root->shape, (size_t)root->ndim * 8));
  if (!same) {
    char got[256], want[256];
    ag_format_shape(got, sizeof got, given->ndim, given->shape);
    ag_format_shape(want, sizeof want, root->ndim, root->shape);
    tensor_set_error("Mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a "
                     "shape of %s.",
                     i, got, i, want);
    return NULL;
  }
  return given->dtype == root->dtype ? tensor_retain(given) : tensor_to_dtype(given, root->dtype);
}

/* Seeds the roots' gradients; roots[] receive the root nodes (new references). */
static bool seed_roots(Graph *g, Tensor *const *roots, Tensor *const *grads, int n,
                       GradNode **root_nodes) {
  for (int i = 0; i < n; i++) {
    AgEdge e = tensor_edge(roots[i]);
    if (!e.node) {
      tensor_set_error("element %d of tensors does not require grad and does not have a grad_fn",
                       i);
      return false;
    }
    root_nodes[i] = e.node;
  }
  if (!graph_discover(g, root_nodes, n)) return false;
  for (int i = 0; i < n; i++) {
    Tensor *grad = root_grad(roots[i], grads ? grads[i] : NULL, i);
    if (!grad) return false;
    Task *t = &g->tasks[task_find(g, root_nodes[i])];
    Tensor **buf = task_buf(t);
    if (!buf) {
      tensor_release(grad);
      return oom();
    }
    if (!buffer_add(&buf[roots[i]->meta ? ag_output_nr(roots[i]) : 0], grad)) return false;
  }
  return true;
}

/* Registers the wanted tensors: their nodes become capture points or targets. */
static bool mark_inputs(Graph *g, Tensor *const *inputs, int n) {
  g->caps = calloc((size_t)(n ? n : 1), sizeof *g->caps);
  if (!g->caps) return oom();
  for (int i = 0; i < n; i++) {
    if (!ag_requires_grad(inputs[i])) {
      tensor_set_error("One of the differentiated Tensors does not require grad");
      return false;
    }
    AgEdge e = tensor_edge(inputs[i]);
    int k = e.node ? task_find(g, e.node) : -1;
    grad_node_release(e.node); /* the leaf or the graph keeps it alive */
    if (k < 0) continue;       /* not part of this graph */
    Task *t = &g->tasks[k];
    if (g->accumulate && t->node->kind == AG_NODE_AccumulateGrad) {
      t->target = true;
      continue;
    }
    t->hit = true;
    g->caps[g->ncaps++] = (Capture){t->node, e.input_nr, i, g->accumulate ? inputs[i] : NULL};
  }
  return true;
}

/* The state's current_run: the run whose nodes are executing now (innermost,
 * for nested runs). */
bool ag_checkpoint_valid(void) {
  const Graph *run = ag_state()->current_run;
  return run == NULL || run->all_useful;
}
bool ag_engine_running(void) { return ag_state()->current_run != NULL; }

static bool engine_run(Graph *g, Tensor *const *roots, Tensor *const *grads, int n,
                       Tensor *const *inputs, int ninputs) {
  AutogradState *st = ag_state();
  g->id = ++st->run_counter;
  GradNode **root_nodes = calloc((size_t)(n ? n : 1), sizeof *root_nodes);
  if (!root_nodes) return oom();
  bool ok = seed_roots(g, roots, grads, n, root_nodes);
  g->all_useful = inputs == NULL;
  if (ok && inputs) ok = mark_inputs(g, inputs, ninputs) && graph_mark_useful(g);
  bool was_enabled = ag_set_grad_enabled(g->create_graph);
  const Graph *outer = st->current_run;
  st->current_run = g;
  if (ok) ok = graph_run(g);
  st->current_run = outer;
  ag_set_grad_enabled(was_enabled);
  for (int i = 0; i < n; i++)
    grad_node_release(root_nodes[i]);
  free(root_nodes);
  return ok;
}

bool ag_backward(Tensor *const *roots, Tensor *const *grad_roots, int n, bool retain_graph,
                 bool create_graph, Tensor *const *inputs, int ninputs) {
  Graph g = {0};
  g.accumulate = true;
  g.retain_graph = retain_graph;
  g.create_graph = create_graph;
  if (inputs && ninputs == 0) {
    tensor_set_error("'inputs' argument to backward() cannot be empty.");
    return false;
  }
  bool ok = engine_run(&g, roots, grad_roots, n, inputs, ninputs);
  graph_free(&g);
  return ok;
}

bool ag_grad(Tensor *const *outputs, Tensor *const *grad_outputs, int noutputs,
             Tensor *const *inputs, int ninputs, bool retain_graph, bool create_graph,
             bool allow_unused, Tensor **results) {
  Graph g = {0};
  g.retain_graph = retain_graph;
  g.create_graph = create_graph;
  g.results = results;
  for (int i = 0; i < ninputs; i++)
    results[i] = NULL;
  bool ok = engine_run(&g, outputs, grad_outputs, noutputs, inputs, ninputs);
  for (int i = 0; ok && i < ninputs; i++) {
    if (results[i] || allow_unused) continue;
    tensor_set_error("One of the differentiated Tensors appears to not have been used in the "
                     "graph. Set allow_unused=true if this is the desired behavior.");
    ok = false;
  }
  if (!ok)
    for (int i = 0; i < ninputs; i++) {
      tensor_release(results[i]);
      results[i] = NULL;
    }
  graph_free(&g);
  return ok;
}
