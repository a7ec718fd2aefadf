/* graph.c — the tree, the diff, DOT, rendering and the trace (see graph.h).
 *
 * Every view starts from the same two pieces:
 *   - a NodeSet: the distinct nodes reachable from a root, found by an
 *     iterative depth-first walk, each with the number of edges into it (a
 *     node with two or more is "shared" and gets a #N when printed);
 *   - for the tree and the diff, a Walk that turns the graph into Rows (marker,
 *     tree prefix + label, shape, where) which are printed with the columns
 *     aligned once all are known.
 */
#include "stdlib/graph.h"
#include "stdlib/program.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- growable strings ---- */

typedef struct {
  char *data;
  size_t len, cap;
  bool failed; /* out of memory at some point: the text is incomplete */
} Str;

static bool str_reserve(Str *s, size_t extra) {
  if (s->failed) return false;
  if (s->len + extra + 1 <= s->cap) return true;
  size_t cap = s->cap ? s->cap : 64;
  while (cap < s->len + extra + 1) cap *= 2;
  char *data = realloc(s->data, cap);
  if (!data) {
    s->failed = true;
    return false;
  }
  s->data = data;
  s->cap = cap;
  return true;
}

static void str_add(Str *s, const char *text) {
  size_t n = strlen(text);
  if (!str_reserve(s, n)) return;
  memcpy(s->data + s->len, text, n + 1);
  s->len += n;
}

static void str_addf(Str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void str_addf(Str *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !str_reserve(s, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  s->len += (size_t)n;
}

/* The text (never NULL on success), or NULL after an allocation failure. */
static char *str_finish(Str *s) {
  if (!s->failed && !s->data) str_add(s, "");
  if (s->failed) {
    free(s->data);
    tensor_set_error("out of memory");
    return NULL;
  }
  return s->data;
}

/* Terminal columns of UTF-8 text: every character here is one column wide. */
static int display_width(const char *text) {
  int w = 0;
  for (const unsigned char *p = (const unsigned char *)text; *p; p++)
    if ((*p & 0xC0) != 0x80) w++;
  return w;
}

/* ---- the set of nodes behind a root ---- */

typedef struct {
  GradNode *node;
  int refs;          /* edges into it from nodes of this graph */
  int number;        /* its #N once printed (shared nodes only), else 0 */
  bool printed;      /* already shown in full by the current walk */
  bool common;       /* diff: shown on a line of both graphs */
  GradNode *partner; /* diff: the node of the other graph it was matched with */
} NodeInfo;

typedef struct {
  NodeInfo *items; /* in the order the walk found them */
  int count, cap;
  int *slots; /* open addressing over pointers: index + 1, 0 when empty */
  int nslots;
} NodeSet;

static void set_free(NodeSet *set) {
  free(set->items);
  free(set->slots);
  memset(set, 0, sizeof *set);
}

static size_t pointer_hash(const GradNode *node) {
  uintptr_t p = (uintptr_t)node;
  return (size_t)((p >> 4) * 0x9E3779B97F4A7C15ull);
}

static int set_find(const NodeSet *set, const GradNode *node) {
  if (!set->nslots) return -1;
  size_t mask = (size_t)set->nslots - 1;
  for (size_t i = pointer_hash(node) & mask;; i = (i + 1) & mask) {
    int slot = set->slots[i];
    if (!slot) return -1;
    if (set->items[slot - 1].node == node) return slot - 1;
  }
}

static void set_place(NodeSet *set, int index) {
  size_t mask = (size_t)set->nslots - 1;
  size_t i = pointer_hash(set->items[index].node) & mask;
  while (set->slots[i]) i = (i + 1) & mask;
  set->slots[i] = index + 1;
}

/* Keeps the table at most half full. */
static bool set_grow(NodeSet *set) {
  if (set->count + 1 > set->cap) {
    int cap = set->cap ? set->cap * 2 : 16;
    NodeInfo *items = realloc(set->items, (size_t)cap * sizeof *items);
    if (!items) return false;
    set->items = items;
    set->cap = cap;
  }
  if ((set->count + 1) * 2 <= set->nslots) return true;
  int nslots = set->nslots ? set->nslots * 2 : 32;
  int *slots = calloc((size_t)nslots, sizeof *slots);
  if (!slots) return false;
  free(set->slots);
  set->slots = slots;
  set->nslots = nslots;
  for (int i = 0; i < set->count; i++) set_place(set, i);
  return true;
}

static int set_add(NodeSet *set, GradNode *node) {
  if (!set_grow(set)) return -1;
  int index = set->count++;
  set->items[index] = (NodeInfo){.node = node};
  set_place(set, index);
  return index;
}

/* Callbacks of the collecting walk (used by DOT to emit in walk order). */
typedef struct {
  void (*on_node)(void *ctx, int index, GradNode *node);
  void (*on_edge)(void *ctx, int from, int to); /* input `from` feeds node `to` */
  void *ctx;
} CollectHooks;

typedef struct {
  int index; /* in the NodeSet */
  int next;  /* the next child to look at */
} Visit;

static bool push_visit(Visit **stack, int *n, int *cap, int index) {
  if (*n == *cap) {
    int grown = *cap ? *cap * 2 : 64;
    Visit *s = realloc(*stack, (size_t)grown * sizeof *s);
    if (!s) return false;
    *stack = s;
    *cap = grown;
  }
  (*stack)[(*n)++] = (Visit){index, 0};
  return true;
}

/* Finds every node reachable from root, depth first, children in order;
 * counts the edges into each. */
static bool set_collect(NodeSet *set, GradNode *root, const CollectHooks *hooks) {
  if (!root) return true;
  Visit *stack = NULL;
  int n = 0, cap = 0;
  int root_index = set_add(set, root);
  bool ok = root_index >= 0 && push_visit(&stack, &n, &cap, root_index);
  if (ok && hooks) hooks->on_node(hooks->ctx, root_index, root);
  while (ok && n > 0) {
    Visit *v = &stack[n - 1];
    GradNode *node = set->items[v->index].node;
    if (v->next >= grad_node_num_next(node)) {
      n--;
      continue;
    }
    int parent = v->index;
    GradNode *child = grad_node_next(node, v->next++, NULL);
    if (!child) continue;
    int index = set_find(set, child);
    bool is_new = index < 0;
    if (is_new && (index = set_add(set, child)) < 0) ok = false;
    if (!ok) break;
    set->items[index].refs++;
    if (hooks) hooks->on_edge(hooks->ctx, index, parent);
    if (!is_new) continue;
    if (hooks) hooks->on_node(hooks->ctx, index, child);
    ok = push_visit(&stack, &n, &cap, index);
  }
  free(stack);
  if (!ok) tensor_set_error("out of memory");
  return ok;
}

/* ---- roots ---- */

GraphRoot graph_root_of_tensor(const Tensor *t) {
  GraphRoot r = {ag_grad_fn(t), 0, t, NULL, false};
  if (r.node) r.output_nr = ag_output_nr(t);
  return r;
}

GraphRoot graph_root_of_node(GradNode *node) { return (GraphRoot){node, 0, NULL, NULL, false}; }

int graph_leaves(GraphRoot root, Tensor ***out) {
  NodeSet set = {0};
  *out = NULL;
  if (!set_collect(&set, root.node, NULL)) return -1;
  int n = 0;
  *out = malloc(((size_t)set.count + 1) * sizeof **out);
  for (int i = 0; *out && i < set.count; i++) {
    Tensor *v = grad_node_variable(set.items[i].node);
    if (v) (*out)[n++] = v;
  }
  set_free(&set);
  if (!*out) {
    tensor_set_error("out of memory");
    return -1;
  }
  return n;
}

/* ---- describing one node ---- */

static bool is_accumulator(const GradNode *node) {
  return grad_node_kind(node) == AG_NODE_AccumulateGrad;
}

static const char *leaf_name(const GradNode *node) {
  const Tensor *v = is_accumulator(node) ? grad_node_variable(node) : NULL;
  return v ? ag_name(v) : NULL;
}

static void add_shape(Str *s, int ndim, const int64_t *shape) {
  str_add(s, "[");
  for (int d = 0; d < ndim; d++) str_addf(s, d ? ", %lld" : "%lld", (long long)shape[d]);
  str_add(s, "]");
}

/* "[2, 3]", "[3] float64", "[2] (output 1 of 3)". */
static void add_node_shape(Str *s, const GradNode *node, int output_nr) {
  DType dt;
  int ndim;
  const int64_t *shape;
  if (!grad_node_output_info(node, output_nr, &dt, &ndim, &shape)) return;
  add_shape(s, ndim, shape);
  if (dt != DT_FLOAT32) str_addf(s, " %s", dtype_name(dt));
  int n = grad_node_num_outputs(node);
  if (n > 1) str_addf(s, " (output %d of %d)", output_nr, n);
}

/* The script's name of output `output_nr` of node, or NULL. */
static const char *produced_name(const GraphNames *names, const GradNode *node, int output_nr) {
  for (int i = 0; names && i < names->count; i++)
    if (names->nodes[i] == node && names->outputs[i] == output_nr) return names->names[i];
  return NULL;
}

/* "MulBackward0", "MulBackward0 a", "AccumulateGrad x", "#2 AccumulateGrad x". */
static void add_label(Str *s, const GradNode *node, int output_nr, int number,
                      const GraphNames *names) {
  if (number) str_addf(s, "#%d ", number);
  str_add(s, grad_node_name(node));
  const char *name = is_accumulator(node) ? leaf_name(node)
                                          : produced_name(names, node, output_nr);
  if (name) str_addf(s, " %s", name);
}

static GraphSourceNamer source_namer;

void graph_set_source_namer(GraphSourceNamer namer) { source_namer = namer; }

/* Where node was made: "line 5", or "In[7]:5" when the host names inputs;
 * nothing for a leaf or an unknown line. */
static void add_line(Str *s, const GradNode *node) {
  int line = grad_node_line(node);
  if (line <= 0 || is_accumulator(node)) return;
  const char *source = source_namer ? source_namer(grad_node_id(node)) : NULL;
  if (source != NULL) str_addf(s, "%s:%d", source, line);
  else str_addf(s, "line %d", line);
}

/* ---- rows: the lines of a tree or diff, aligned when printed ---- */

typedef struct {
  char mark;   /* 0 (tree), ' ', '-' or '+' (diff) */
  char *left;  /* tree prefix + label */
  char *shape;
  char *where; /* "line 4", "(see #1 above)" or "" */
} Row;

typedef struct {
  Row *rows;
  int count, cap;
  bool failed;
  bool *last; /* last[d]: the node on the current path at depth d is its parent's last child */
  int last_cap;
  const GraphNames *names[2]; /* of graph a (rows marked 0, ' ', '-') and b ('+') */
  bool show_saved;            /* tree rows list their nodes' saved tensors */
} Rows;

static void rows_free(Rows *r) {
  for (int i = 0; i < r->count; i++) {
    free(r->rows[i].left);
    free(r->rows[i].shape);
    free(r->rows[i].where);
  }
  free(r->rows);
  free(r->last);
  memset(r, 0, sizeof *r);
}

static bool rows_set_last(Rows *r, int depth, bool is_last) {
  if (depth >= r->last_cap) {
    int cap = r->last_cap ? r->last_cap * 2 : 64;
    while (cap <= depth) cap *= 2;
    bool *last = realloc(r->last, (size_t)cap * sizeof *last);
    if (!last) {
      r->failed = true;
      return false;
    }
    r->last = last;
    r->last_cap = cap;
  }
  r->last[depth] = is_last;
  return true;
}

static void add_prefix(Str *s, const Rows *r, int depth) {
  for (int d = 1; d < depth; d++) str_add(s, r->last[d] ? "   " : "│  ");
  if (depth > 0) str_add(s, r->last[depth] ? "└─ " : "├─ ");
}

/* Appends a row; takes the three strings (freed on failure). */
static void rows_add(Rows *r, char mark, Str *left, Str *shape, Str *where) {
  char *l = str_finish(left), *s = str_finish(shape), *w = str_finish(where);
  if (l && s && w && r->count == r->cap) {
    int cap = r->cap ? r->cap * 2 : 32;
    Row *rows = realloc(r->rows, (size_t)cap * sizeof *rows);
    if (rows) {
      r->rows = rows;
      r->cap = cap;
    }
  }
  if (!l || !s || !w || r->count == r->cap) {
    free(l);
    free(s);
    free(w);
    r->failed = true;
    return;
  }
  r->rows[r->count++] = (Row){mark, l, s, w};
}

/* ", self [2, 3] 24 B" (the first without the comma). */
static void add_saved_tensor(Str *s, bool first, const char *role, const Tensor *t) {
  str_addf(s, "%s%s ", first ? "" : ", ", role);
  add_shape(s, t->ndim, t->shape);
  if (t->dtype != DT_FLOAT32) str_addf(s, " %s", dtype_name(t->dtype));
  str_addf(s, " %lld B", (long long)((size_t)t->numel * dtype_size(t->dtype)));
}

/* "  saved: self [2] 8 B, other (packed)" after a node's line; nothing for a
 * node that keeps no tensor (or whose tensors backward has freed). */
static void add_saved(Str *s, const GradNode *node) {
  Str list = {0};
  bool first = true;
  for (int i = 0; i < grad_node_num_saved(node); i++) {
    const char *role = NULL;
    const Tensor *t = grad_node_saved(node, i, &role);
    if (t) add_saved_tensor(&list, first, role ? role : "saved", t);
    else if (grad_node_saved_is_packed(node, i)) str_addf(&list, "%s%s (packed)", first ? "" : ", ", role);
    else continue;
    first = false;
  }
  const Tensor *t;
  for (int i = 0; (t = grad_node_custom_saved(node, i)) != NULL; i++, first = false) {
    char role[32];
    snprintf(role, sizeof role, "saved_tensors[%d]", i);
    add_saved_tensor(&list, first, role, t);
  }
  char *text = str_finish(&list);
  if (!text) {
    s->failed = true;
    return;
  }
  if (text[0]) str_addf(s, "%ssaved: %s", s->len ? "  " : "", text);
  free(text);
}

/* How a node's row reads: in full, as a reference to where it was shown, or
 * cut at the depth limit (its subtree follows in its own block). */
typedef enum { ROW_FULL, ROW_REFERENCE, ROW_BREAK, ROW_RESUME } RowKind;

static void rows_add_node(Rows *r, char mark, int depth, const GradNode *node, int output_nr,
                          int number, RowKind kind) {
  Str left = {0}, shape = {0}, where = {0};
  add_prefix(&left, r, depth);
  add_label(&left, node, output_nr, kind == ROW_REFERENCE ? 0 : number, r->names[mark == '+']);
  add_node_shape(&shape, node, output_nr);
  if (kind == ROW_REFERENCE) str_addf(&where, "(see #%d above)", number);
  else add_line(&where, node);
  const char *note = kind == ROW_BREAK ? "(continued below)"
                     : kind == ROW_RESUME ? "(continued from above)" : NULL;
  if (note) str_addf(&where, "%s%s", where.len ? "  " : "", note);
  if (r->show_saved && kind != ROW_REFERENCE && kind != ROW_RESUME) add_saved(&where, node);
  rows_add(r, mark, &left, &shape, &where);
}

static void rows_add_text(Rows *r, char mark, int depth, const char *text) {
  Str left = {0}, shape = {0}, where = {0};
  add_prefix(&left, r, depth);
  str_add(&left, text);
  rows_add(r, mark, &left, &shape, &where);
}

static void print_padded(FILE *out, const char *text, int width) {
  fputs(text, out);
  for (int w = display_width(text); w < width; w++) fputc(' ', out);
}

/* Columns: left, shape and where, two blanks apart, no trailing blanks. */
static void rows_print(FILE *out, const Rows *r) {
  int left_w = 0, shape_w = 0;
  for (int i = 0; i < r->count; i++) {
    if (!r->rows[i].shape[0] && !r->rows[i].where[0]) continue; /* printed bare */
    int w = display_width(r->rows[i].left);
    if (w <= GRAPH_ALIGN_MAX && w > left_w) left_w = w;
    w = display_width(r->rows[i].shape);
    if (w > shape_w) shape_w = w;
  }
  for (int i = 0; i < r->count; i++) {
    const Row *row = &r->rows[i];
    if (row->mark) fprintf(out, "%c ", row->mark);
    bool has_shape = row->shape[0], has_where = row->where[0];
    if (!has_shape && !has_where) {
      fprintf(out, "%s\n", row->left);
      continue;
    }
    print_padded(out, row->left, left_w);
    fputs("  ", out);
    if (has_where) {
      print_padded(out, row->shape, shape_w);
      fprintf(out, "  %s", row->where);
    } else {
      fputs(row->shape, out);
    }
    fputc('\n', out);
  }
}

/* ---- the walk shared by the tree and the diff ----
 * A frame is a node whose children are being listed: of graph a only, of b
 * only, or a matched pair (children matched by position). A PENDING frame
 * shows b's side of a mismatched position once a's subtree is done. */

enum { SIDE_A, SIDE_B, SIDE_PAIR, SIDE_PENDING };

typedef struct {
  int side;
  GradNode *node[2];
  int output_nr[2]; /* which output of each node the edge uses */
  int depth;
  int next, count; /* children: the next position and how many */
  bool is_last;    /* SIDE_PENDING: the position's last flag */
} Frame;

typedef struct {
  const char *name;
  int only[2]; /* nodes only in a / only in b */
  int both;
} OpCount;

typedef struct {
  NodeSet set[2];
  Rows rows;
  Frame *frames;
  int nframes, frame_cap;
  int next_number;
  bool diff; /* rows carry a marker */
  bool failed;
  Frame *cut; /* frames cut at GRAPH_DEPTH_MAX, listed later in blocks of their own */
  int ncut, cut_cap, cut_done;
} Walk;

static void walk_free(Walk *w) {
  set_free(&w->set[0]);
  set_free(&w->set[1]);
  rows_free(&w->rows);
  free(w->frames);
  free(w->cut);
}

static void walk_push(Walk *w, Frame f) {
  if (w->nframes == w->frame_cap) {
    int cap = w->frame_cap ? w->frame_cap * 2 : 64;
    Frame *frames = realloc(w->frames, (size_t)cap * sizeof *frames);
    if (!frames) {
      w->failed = true;
      return;
    }
    w->frames = frames;
    w->frame_cap = cap;
  }
  w->frames[w->nframes++] = f;
}

static char side_mark(const Walk *w, int side) {
  if (!w->diff) return 0;
  return side == SIDE_A ? '-' : side == SIDE_B ? '+' : ' ';
}

static int children_of(const GradNode *node) { return node ? grad_node_num_next(node) : 0; }

static NodeInfo *info_of(Walk *w, int side, const GradNode *node) {
  int i = set_find(&w->set[side], node);
  return i >= 0 ? &w->set[side].items[i] : NULL;
}

/* The row(s) of the node(s) a frame lists the children of: one for a node
 * of one graph, one common row or a - and a + row for a matched pair. */
static void frame_rows(Walk *w, const Frame *f, int depth, RowKind kind) {
  if (f->side != SIDE_PAIR) {
    int side = f->side;
    const NodeInfo *info = info_of(w, side, f->node[side]);
    rows_add_node(&w->rows, side_mark(w, side), depth, f->node[side], f->output_nr[side],
                  info->number, kind);
    return;
  }
  const NodeInfo *ia = info_of(w, SIDE_A, f->node[0]);
  if (ia->common) {
    rows_add_node(&w->rows, ' ', depth, f->node[0], f->output_nr[0], ia->number, kind);
    return;
  }
  rows_add_node(&w->rows, '-', depth, f->node[0], f->output_nr[0], ia->number, kind);
  rows_add_node(&w->rows, '+', depth, f->node[1], f->output_nr[1], ia->number, kind);
}

/* Queues a frame whose rows were cut at the depth limit. */
static void cut_push(Walk *w, Frame f) {
  if (w->ncut == w->cut_cap) {
    int cap = w->cut_cap ? w->cut_cap * 2 : 16;
    Frame *cut = realloc(w->cut, (size_t)cap * sizeof *cut);
    if (!cut) {
      w->failed = true;
      return;
    }
    w->cut = cut;
    w->cut_cap = cap;
  }
  w->cut[w->ncut++] = f;
}

/* Shows the node(s) of f at depth and lists their children next; at the
 * depth limit, numbered and `(continued below)`, the children in a block of
 * their own later (so lines stay short however deep the graph). */
static void show_frame(Walk *w, Frame f, int depth) {
  bool cut = depth >= GRAPH_DEPTH_MAX && f.count > 0;
  if (cut) {
    NodeInfo *info = info_of(w, f.side == SIDE_B ? SIDE_B : SIDE_A, f.node[f.side == SIDE_B]);
    if (!info->number) info->number = ++w->next_number;
    if (f.side == SIDE_PAIR) info_of(w, SIDE_B, f.node[1])->number = info->number;
  }
  frame_rows(w, &f, depth, cut ? ROW_BREAK : ROW_FULL);
  f.depth = depth;
  if (cut) cut_push(w, f);
  else if (f.count > 0) walk_push(w, f);
}

/* Shows one node of one graph at depth (a reference if already shown) and
 * queues its children. A node that is the very same object in the other
 * graph too (a leaf used by both runs) is shown once for both: it shares its
 * number with the other side and counts as in both. */
static void show_single(Walk *w, int side, int depth, GradNode *node, int output_nr) {
  char mark = side_mark(w, side);
  if (!node) {
    rows_add_text(&w->rows, mark, depth, "nil");
    return;
  }
  NodeInfo *info = info_of(w, side, node);
  if (info->printed) {
    rows_add_node(&w->rows, mark, depth, node, output_nr, info->number, ROW_REFERENCE);
    return;
  }
  NodeInfo *twin = w->diff ? info_of(w, 1 - side, node) : NULL;
  info->printed = true;
  if (twin && twin->printed && twin->number) { /* shown in full on the other side */
    info->number = twin->number;
    rows_add_node(&w->rows, mark, depth, node, output_nr, info->number, ROW_REFERENCE);
    return;
  }
  if (info->refs >= 2 || (twin && !twin->printed)) info->number = ++w->next_number;
  if (twin && !twin->printed) {
    twin->printed = true;
    twin->number = info->number;
    twin->partner = node;
  }
  info->partner = twin ? node : NULL;
  Frame f = {.side = side, .count = children_of(node)};
  f.node[side] = node;
  f.output_nr[side] = output_nr;
  show_frame(w, f, depth);
}

static bool same_text(const char *x, const char *y) {
  return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

/* Same name (and variable name for leaves): the same node in both graphs. */
static bool nodes_match(const GradNode *a, const GradNode *b) {
  return strcmp(grad_node_name(a), grad_node_name(b)) == 0 && same_text(leaf_name(a), leaf_name(b));
}

/* Shape and line agree too, so the pair prints as one common line. */
static bool nodes_identical(const GradNode *a, int nra, const GradNode *b, int nrb) {
  Str sa = {0}, sb = {0};
  add_node_shape(&sa, a, nra);
  add_line(&sa, a);
  add_node_shape(&sb, b, nrb);
  add_line(&sb, b);
  bool same = !sa.failed && !sb.failed && same_text(sa.data, sb.data);
  free(sa.data);
  free(sb.data);
  return same;
}

/* A matched pair seen for the first time: one common line, or a - and a +
 * line when shape or line changed; then their children, matched. */
static void show_matched(Walk *w, int depth, GradNode *a, int nra, GradNode *b, int nrb) {
  NodeInfo *ia = info_of(w, SIDE_A, a), *ib = info_of(w, SIDE_B, b);
  ia->printed = ib->printed = true;
  ia->partner = b;
  ib->partner = a;
  if (ia->refs >= 2 || ib->refs >= 2) ia->number = ib->number = ++w->next_number;
  if (nodes_identical(a, nra, b, nrb)) ia->common = ib->common = true;
  int count = children_of(a) > children_of(b) ? children_of(a) : children_of(b);
  show_frame(w, (Frame){SIDE_PAIR, {a, b}, {nra, nrb}, depth, 0, count, false}, depth);
}

/* Position `depth` of both graphs: a and b may be NULL (nil inputs); has_a /
 * has_b say whether the position exists on that side at all. */
static void show_pair(Walk *w, int depth, bool has_a, GradNode *a, int nra, bool has_b,
                      GradNode *b, int nrb) {
  if (has_a && has_b && !a && !b) {
    rows_add_text(&w->rows, ' ', depth, "nil");
    return;
  }
  if (has_a && has_b && a && b) {
    NodeInfo *ia = info_of(w, SIDE_A, a), *ib = info_of(w, SIDE_B, b);
    if (ia->printed && ib->printed && ia->partner == b) {
      rows_add_node(&w->rows, ' ', depth, a, nra, ia->number, ROW_REFERENCE);
      return;
    }
    if (!ia->printed && !ib->printed && nodes_match(a, b)) {
      show_matched(w, depth, a, nra, b, nrb);
      return;
    }
  }
  /* Mismatch: a's subtree now, b's line once a's subtree is done. */
  if (has_b) {
    bool is_last = w->rows.last[depth];
    walk_push(w, (Frame){SIDE_PENDING, {NULL, b}, {0, nrb}, depth, 0, 0, is_last});
  }
  if (has_a) show_single(w, SIDE_A, depth, a, nra);
}

static GradNode *child_at(const GradNode *node, int i, bool *exists, int *input_nr) {
  *exists = node && i < grad_node_num_next(node);
  *input_nr = 0;
  return *exists ? grad_node_next(node, i, input_nr) : NULL;
}

/* Takes the next step of the frame on top of the stack. */
static void walk_step(Walk *w) {
  Frame *f = &w->frames[w->nframes - 1];
  if (f->side == SIDE_PENDING) {
    Frame p = *f;
    w->nframes--;
    if (rows_set_last(&w->rows, p.depth, p.is_last))
      show_single(w, SIDE_B, p.depth, p.node[1], p.output_nr[1]);
    return;
  }
  if (f->next >= f->count) {
    w->nframes--;
    return;
  }
  int i = f->next++, depth = f->depth + 1;
  if (!rows_set_last(&w->rows, depth, f->next == f->count)) return;
  bool has_a, has_b;
  int nra, nrb;
  GradNode *a = child_at(f->node[0], i, &has_a, &nra);
  GradNode *b = child_at(f->node[1], i, &has_b, &nrb);
  if (f->side == SIDE_PAIR) show_pair(w, depth, has_a, a, nra, has_b, b, nrb);
  else if (f->side == SIDE_A) show_single(w, SIDE_A, depth, a, nra);
  else show_single(w, SIDE_B, depth, b, nrb);
}

static bool walk_run(Walk *w) {
  while (w->nframes > 0 && !w->failed && !w->rows.failed) walk_step(w);
  if (w->failed || w->rows.failed) {
    tensor_set_error("out of memory");
    return false;
  }
  return true;
}

/* ---- the tree ---- */

/* The one line shown for a tensor that has no graph. */
static const char *no_graph_text(GraphRoot root) {
  if (root.tensor && ag_requires_grad(root.tensor))
    return "(no graph: a leaf tensor; its gradient accumulates in .grad)";
  return "(no graph: the tensor does not require grad)";
}

/* The subtrees cut at the depth limit, each after an empty line, headed by
 * its node(s) again. */
static bool walk_cut_blocks(Walk *w) {
  bool ok = true;
  while (ok && w->cut_done < w->ncut) {
    Frame f = w->cut[w->cut_done++];
    rows_add_text(&w->rows, 0, 0, "");
    frame_rows(w, &f, 0, ROW_RESUME);
    f.depth = 0;
    walk_push(w, f);
    ok = walk_run(w);
  }
  return ok;
}

/* show_saved's last line: what the whole graph keeps, each storage once. */
static void rows_add_saved_total(Rows *r, GradNode *root) {
  int count = 0;
  size_t bytes = root ? ag_graph_saved_bytes(root, &count) : 0;
  char text[128];
  snprintf(text, sizeof text, "saved for backward: %d tensor%s, %zu bytes", count,
           count == 1 ? "" : "s", bytes);
  rows_add_text(r, 0, 0, text);
}

static bool walk_tree(Walk *w, GraphRoot root) {
  w->rows.names[0] = root.names;
  w->rows.show_saved = root.show_saved;
  if (!set_collect(&w->set[0], root.node, NULL) || !rows_set_last(&w->rows, 0, true)) return false;
  if (root.node) show_single(w, SIDE_A, 0, root.node, root.output_nr);
  else rows_add_text(&w->rows, 0, 0, no_graph_text(root));
  bool ok = walk_run(w) && walk_cut_blocks(w);
  if (ok && root.show_saved) rows_add_saved_total(&w->rows, root.node);
  return ok && !w->rows.failed;
}

bool graph_print_tree(FILE *out, GraphRoot root) {
  Walk w = {0};
  bool ok = walk_tree(&w, root);
  if (ok) rows_print(out, &w.rows);
  walk_free(&w);
  return ok;
}

bool graph_print_tensor(FILE *out, const Tensor *t) {
  return graph_print_tree(out, graph_root_of_tensor(t));
}

/* ---- op counts ---- */

static int op_total(const OpCount *c, int which) {
  return which == 2 ? c->both : c->only[which];
}

/* Sorted by count (descending), then name, for column `which`: an insertion
 * sort, as there are only a few distinct ops. */
static bool op_before(const OpCount *x, const OpCount *y, int which) {
  int d = op_total(y, which) - op_total(x, which);
  return d ? d < 0 : strcmp(x->name, y->name) < 0;
}

static void sort_ops(OpCount *ops, int nops, int which) {
  for (int i = 1; i < nops; i++) {
    OpCount item = ops[i];
    int j = i;
    for (; j > 0 && op_before(&item, &ops[j - 1], which); j--) ops[j] = ops[j - 1];
    ops[j] = item;
  }
}

/* "3 nodes (AddBackward0 x2, MulBackward0 x1)" or with `colon`, "3 nodes: ...". */
static void add_op_counts(Str *s, OpCount *ops, int nops, int which, bool colon) {
  int total = 0;
  for (int i = 0; i < nops; i++) total += op_total(&ops[i], which);
  str_addf(s, "%d node%s", total, total == 1 ? "" : "s");
  if (total == 0) return;
  sort_ops(ops, nops, which);
  str_add(s, colon ? ": " : " (");
  bool first = true;
  for (int i = 0; i < nops; i++) {
    if (!op_total(&ops[i], which)) continue;
    str_addf(s, "%s%s x%d", first ? "" : ", ", ops[i].name, op_total(&ops[i], which));
    first = false;
  }
  if (!colon) str_add(s, ")");
}

/* ---- the diff ---- */

static bool walk_diff(Walk *w, GraphRoot a, GraphRoot b) {
  w->diff = true;
  w->rows.names[0] = a.names;
  w->rows.names[1] = b.names;
  if (!set_collect(&w->set[0], a.node, NULL) || !set_collect(&w->set[1], b.node, NULL) ||
      !rows_set_last(&w->rows, 0, true))
    return false;
  if (!a.node && !b.node) rows_add_text(&w->rows, ' ', 0, "(no graph behind either tensor)");
  else if (!a.node) rows_add_text(&w->rows, '-', 0, no_graph_text(a));
  show_pair(w, 0, a.node != NULL, a.node, a.output_nr, b.node != NULL, b.node, b.output_nr);
  bool ok = walk_run(w) && walk_cut_blocks(w);
  if (a.node && !b.node) rows_add_text(&w->rows, '+', 0, no_graph_text(b));
  return ok && !w->rows.failed;
}

/* Counts per op: a node is in both graphs when it was shown on a common line
 * or is the very same object in the other graph (counted once, from a's
 * side); otherwise it is only in its own graph. */
static OpCount *count_ops(const Walk *w, int *nops) {
  int cap = w->set[0].count + w->set[1].count + 1;
  OpCount *ops = calloc((size_t)cap, sizeof *ops);
  *nops = 0;
  for (int side = 0; ops && side < 2; side++) {
    for (int i = 0; i < w->set[side].count; i++) {
      const NodeInfo *info = &w->set[side].items[i];
      bool both = info->common || set_find(&w->set[1 - side], info->node) >= 0;
      if (both && side == 1) continue;
      const char *name = grad_node_name(info->node);
      int k = 0;
      while (k < *nops && strcmp(ops[k].name, name) != 0) k++;
      if (k == *nops) ops[(*nops)++] = (OpCount){.name = name};
      if (both) ops[k].both++;
      else ops[k].only[side]++;
    }
  }
  return ops;
}

static char *diff_summary(Walk *w) {
  int nops;
  OpCount *ops = count_ops(w, &nops);
  Str s = {.failed = !ops};
  str_add(&s, "summary: only in a: ");
  if (ops) add_op_counts(&s, ops, nops, 0, false);
  str_add(&s, "; only in b: ");
  if (ops) add_op_counts(&s, ops, nops, 1, false);
  str_add(&s, "; in both: ");
  if (ops) add_op_counts(&s, ops, nops, 2, false);
  free(ops);
  return str_finish(&s);
}

bool graph_print_diff(FILE *out, GraphRoot a, GraphRoot b) {
  Walk w = {0};
  bool ok = walk_diff(&w, a, b);
  char *summary = ok ? diff_summary(&w) : NULL;
  if (summary) {
    rows_print(out, &w.rows);
    fprintf(out, "%s\n", summary);
  }
  free(summary);
  walk_free(&w);
  return summary != NULL;
}

/* ---- the trace ---- */

static char *trace_header(const NodeSet *set, int number) {
  Str s = {0};
  OpCount *ops = calloc((size_t)set->count + 1, sizeof *ops);
  int nops = 0;
  if (!ops) s.failed = true;
  for (int i = 0; ops && i < set->count; i++) {
    const char *name = grad_node_name(set->items[i].node);
    int k = 0;
    while (k < nops && strcmp(ops[k].name, name) != 0) k++;
    if (k == nops) ops[nops++] = (OpCount){.name = name};
    ops[k].only[0]++;
  }
  str_addf(&s, "backward #%d: ", number);
  if (ops) add_op_counts(&s, ops, nops, 0, true);
  free(ops);
  return str_finish(&s);
}

void graph_print_trace(FILE *out, Tensor *root, int number) {
  graph_print_trace_root(out, graph_root_of_tensor(root), number);
}

void graph_print_trace_root(FILE *out, GraphRoot r, int number) {
  fflush(stdout); /* the report lands after what the script printed before it */
  NodeSet set = {0};
  char *header = set_collect(&set, r.node, NULL) ? trace_header(&set, number) : NULL;
  set_free(&set);
  if (!header) {
    fprintf(out, "backward #%d: (graph not shown: %s)\n", number, tensor_error());
    return;
  }
  fprintf(out, "%s\n", header);
  free(header);
  if (!graph_print_tree(out, r)) fprintf(out, "(graph not shown: %s)\n", tensor_error());
  fputc('\n', out);
  fflush(out);
}

/* ---- DOT ---- */

typedef struct {
  Str body;
  int statements;
  bool show_saved;
  const GraphNames *names;
} Dot;

/* A DOT string literal's contents: quotes and backslashes escaped. */
static void add_escaped(Str *s, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '"' || *p == '\\') str_addf(s, "\\%c", *p);
    else if (*p == '\n') str_add(s, "\\n");
    else str_addf(s, "%c", *p);
  }
}

/* " a" or " parts.0, parts.1": the script's names of what node produced. */
static void add_produced_names(Str *s, const GraphNames *names, const GradNode *node) {
  const char *sep = " ";
  for (int i = 0; names && i < names->count; i++) {
    if (names->nodes[i] != node || names->outputs[i] >= grad_node_num_outputs(node)) continue;
    str_add(s, sep);
    add_escaped(s, names->names[i]);
    sep = ", ";
  }
}

static void dot_statement(Dot *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dot_statement(Dot *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *text = NULL;
  if (vasprintf(&text, fmt, ap) < 0) text = NULL;
  va_end(ap);
  if (!text) {
    d->body.failed = true;
    return;
  }
  str_addf(&d->body, "\t%s\n", text);
  free(text);
  d->statements++;
}

/* A tensor box: NAME\n[shape] (dtype when not float32). */
static void dot_tensor_node(Dot *d, const char *id, const char *name, const Tensor *t,
                            const char *color) {
  Str label = {0};
  if (name) {
    add_escaped(&label, name);
    str_add(&label, "\\n");
  }
  add_shape(&label, t->ndim, t->shape);
  if (t->dtype != DT_FLOAT32) str_addf(&label, " %s", dtype_name(t->dtype));
  char *text = str_finish(&label);
  if (!text) {
    d->body.failed = true;
    return;
  }
  dot_statement(d, "%s [label=\"%s\" fillcolor=%s]", id, text, color);
  free(text);
}

static void dot_saved(Dot *d, int index, const GradNode *node) {
  for (int i = 0; i < grad_node_num_saved(node); i++) {
    const char *role = NULL;
    Tensor *t = grad_node_saved(node, i, &role);
    if (!t) continue; /* not saved, or freed by a backward */
    char id[48];
    snprintf(id, sizeof id, "s%d_%d", index + 1, i);
    dot_statement(d, "n%d -> %s [dir=none]", index + 1, id);
    dot_tensor_node(d, id, role ? role : "saved", t, "orange");
  }
}

/* torchviz's order: saved tensors, the leaf and its edge, then the node. */
static void dot_on_node(void *ctx, int index, GradNode *node) {
  Dot *d = ctx;
  if (d->show_saved) dot_saved(d, index, node);
  Tensor *v = is_accumulator(node) ? grad_node_variable(node) : NULL;
  if (v) {
    char id[32];
    snprintf(id, sizeof id, "v%d", index + 1);
    dot_tensor_node(d, id, ag_name(v), v, "lightblue");
    dot_statement(d, "v%d -> n%d", index + 1, index + 1);
  }
  Str label = {0};
  add_escaped(&label, grad_node_name(node));
  if (!is_accumulator(node)) add_produced_names(&label, d->names, node);
  if (grad_node_line(node) > 0 && !is_accumulator(node)) {
    str_add(&label, "\\n");
    add_line(&label, node);
  }
  char *text = str_finish(&label);
  if (!text) {
    d->body.failed = true;
    return;
  }
  dot_statement(d, "n%d [label=\"%s\"]", index + 1, text);
  free(text);
}

static void dot_on_edge(void *ctx, int from, int to) {
  dot_statement(ctx, "n%d -> n%d", from + 1, to + 1);
}

/* torchviz's resize_graph: 0.15 inch per statement, at least 12. */
static void dot_compose(Str *s, const Dot *d) {
  double size = d->statements * 0.15;
  if (size < 12) size = 12;
  str_add(s, "digraph {\n");
  str_addf(s, "\tgraph [size=\"%g,%g\"]\n", size, size);
  str_add(s, "\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 "
             "shape=box style=filled]\n");
  str_add(s, d->body.data ? d->body.data : "");
  str_add(s, "}\n");
}

char *graph_to_dot(GraphRoot root, bool show_saved) {
  Dot d = {.show_saved = show_saved, .names = root.names};
  if (root.tensor) {
    dot_tensor_node(&d, "out", ag_name(root.tensor), root.tensor, "darkolivegreen1");
  }
  NodeSet set = {0};
  CollectHooks hooks = {dot_on_node, dot_on_edge, &d};
  bool ok = set_collect(&set, root.node, &hooks);
  set_free(&set);
  if (ok && root.node && root.tensor) dot_statement(&d, "n1 -> out");
  if (!ok) {
    free(d.body.data);
    return NULL;
  }
  Str s = {0};
  if (!d.body.failed) dot_compose(&s, &d);
  else s.failed = true;
  free(d.body.data);
  return str_finish(&s);
}

/* ---- saving ---- */

typedef enum { FORMAT_NONE, FORMAT_DOT, FORMAT_SVG, FORMAT_PNG } GraphFormat;

static GraphFormat format_of(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return FORMAT_NONE;
  if (strcasecmp(dot, ".dot") == 0) return FORMAT_DOT;
  if (strcasecmp(dot, ".svg") == 0) return FORMAT_SVG;
  if (strcasecmp(dot, ".png") == 0) return FORMAT_PNG;
  return FORMAT_NONE;
}

/* A temporary file next to path (PATH.tmp.XXXXXX); fd or -1 with the error set. */
static int temp_next_to(const char *path, char **tmp_path) {
  size_t n = strlen(path);
  *tmp_path = malloc(n + sizeof ".tmp.XXXXXX");
  if (!*tmp_path) {
    tensor_set_error("out of memory");
    return -1;
  }
  memcpy(*tmp_path, path, n);
  memcpy(*tmp_path + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
  int fd = mkstemp(*tmp_path);
  if (fd < 0) {
    tensor_set_error("cannot write '%s': %s", path, strerror(errno));
    free(*tmp_path);
    *tmp_path = NULL;
  }
  return fd;
}

/* Puts the finished temporary file in place (mode 0644) or removes it. */
static bool commit_temp(int fd, char *tmp_path, const char *path, bool ok) {
  if (ok && (fchmod(fd, 0644) != 0 || fsync(fd) != 0)) {
    tensor_set_error("cannot write '%s': %s", path, strerror(errno));
    ok = false;
  }
  if (close(fd) != 0 && ok) {
    tensor_set_error("cannot write '%s': %s", path, strerror(errno));
    ok = false;
  }
  if (ok && rename(tmp_path, path) != 0) {
    tensor_set_error("cannot write '%s': %s", path, strerror(errno));
    ok = false;
  }
  if (!ok) unlink(tmp_path);
  free(tmp_path);
  return ok;
}

static bool write_all(int fd, const char *data, size_t n, const char *path) {
  while (n > 0) {
    ssize_t w = write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      tensor_set_error("cannot write '%s': %s", path, w < 0 ? strerror(errno) : "write failed");
      return false;
    }
    data += w;
    n -= (size_t)w;
  }
  return true;
}

static bool save_bytes(const char *path, const char *data, size_t n) {
  char *tmp_path;
  int fd = temp_next_to(path, &tmp_path);
  if (fd < 0) return false;
  return commit_temp(fd, tmp_path, path, write_all(fd, data, n, path));
}

static GraphRenderer host_renderer;

void graph_set_renderer(GraphRenderer renderer) { host_renderer = renderer; }

/* DOT text rendered by the host's renderer into path. */
static bool save_rendered(const char *text, const char *format, const char *path) {
  size_t length = 0;
  char *image = host_renderer(text, format, &length);
  bool ok = image && save_bytes(path, image, length);
  free(image);
  return ok;
}

/* The first line of what `dot` wrote to stderr, for the error message. */
static void read_first_line(FILE *f, char *buf, size_t cap) {
  buf[0] = '\0';
  rewind(f);
  if (!fgets(buf, (int)cap, f)) return;
  buf[strcspn(buf, "\r\n")] = '\0';
}

/* Runs `dot -TFORMAT` with stdin, stdout and stderr redirected; its exit status. */
static int run_dot(const char *dot_path, const char *format, int in_fd, int out_fd, int err_fd) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    char flag[16];
    snprintf(flag, sizeof flag, "-T%s", format);
    char *const argv[] = {"dot", flag, NULL};
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) _exit(126);
    execv(dot_path, argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

/* Why a run of dot failed, into tensor_error(). */
static void dot_failure(int status, FILE *err) {
  char line[256];
  read_first_line(err, line, sizeof line);
  if (status < 0) tensor_set_error("cannot run Graphviz 'dot': %s", strerror(errno));
  else if (WIFSIGNALED(status))
    tensor_set_error("Graphviz 'dot' was stopped by signal %d", WTERMSIG(status));
  else if (line[0]) tensor_set_error("Graphviz 'dot' failed: %s", line);
  else tensor_set_error("Graphviz 'dot' failed with exit status %d", WEXITSTATUS(status));
}

/* DOT text on dot's stdin (an anonymous file, so no pipe can fill up), the
 * image into a temporary file next to path. */
static bool render(const char *text, const char *format, const char *path) {
  if (host_renderer) return save_rendered(text, format, path);
  char *dot_path = program_find("dot");
  if (!dot_path) {
    tensor_set_error("Graphviz 'dot' was not found; install graphviz or save as .dot");
    return false;
  }
  FILE *in = tmpfile(), *err = tmpfile();
  char *tmp_path = NULL;
  int out_fd = in && err ? temp_next_to(path, &tmp_path) : -1;
  bool ok = false;
  if (!in || !err) tensor_set_error("cannot create a temporary file: %s", strerror(errno));
  else if (out_fd >= 0 && write_all(fileno(in), text, strlen(text), "a temporary file") &&
           lseek(fileno(in), 0, SEEK_SET) == 0) {
    int status = run_dot(dot_path, format, fileno(in), out_fd, fileno(err));
    struct stat st;
    ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
         fstat(out_fd, &st) == 0 && st.st_size > 0;
    if (!ok) dot_failure(status, err);
  }
  if (out_fd >= 0) ok = commit_temp(out_fd, tmp_path, path, ok);
  if (in) fclose(in);
  if (err) fclose(err);
  free(dot_path);
  return ok;
}

/* DOT text rendered by the host's renderer (graph_render's path without `dot`). */
static char *render_by_host(GraphRoot root, bool show_saved, const char *format, size_t *length) {
  char *text = graph_to_dot(root, show_saved);
  char *image = text ? host_renderer(text, format, length) : NULL;
  free(text);
  return image;
}

char *graph_render(GraphRoot root, bool show_saved, const char *format, size_t *length) {
  if (host_renderer) return render_by_host(root, show_saved, format, length);
  char *dot_path = program_find("dot");
  if (!dot_path) {
    tensor_set_error("Graphviz 'dot' was not found; install graphviz to draw graphs");
    return NULL;
  }
  char *text = graph_to_dot(root, show_saved);
  FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
  char *image = NULL;
  if (!in || !out || !err) tensor_set_error("cannot create a temporary file: %s", strerror(errno));
  else if (text && write_all(fileno(in), text, strlen(text), "a temporary file") &&
           lseek(fileno(in), 0, SEEK_SET) == 0) {
    int status = run_dot(dot_path, format, fileno(in), fileno(out), fileno(err));
    if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) image = program_read_back(out, length);
    else dot_failure(status, err);
  }
  if (in) fclose(in);
  if (out) fclose(out);
  if (err) fclose(err);
  free(text);
  free(dot_path);
  return image;
}

int graph_node_count(GraphRoot root) {
  NodeSet set = {0};
  int n = set_collect(&set, root.node, NULL) ? set.count : -1;
  set_free(&set);
  return n;
}

bool graph_save(GraphRoot root, const char *path, bool show_saved) {
  GraphFormat format = format_of(path);
  if (format == FORMAT_NONE) {
    tensor_set_error("cannot save a graph as '%s': use a .dot, .svg or .png file name", path);
    return false;
  }
  char *text = graph_to_dot(root, show_saved);
  if (!text) return false;
  bool ok = format == FORMAT_DOT ? save_bytes(path, text, strlen(text))
                                 : render(text, format == FORMAT_SVG ? "svg" : "png", path);
  free(text);
  return ok;
}
