/* lib_graph.c — print_graph, to_dot, save_graph, graph_diff (see lib_graph.h). */
#include "stdlib/lib_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/graph.h"
#include "stdlib/lib_internal.h"

/* A tensor or a node as the root of a graph; false after throwing. */
static bool root_arg(AgVM *vm, const char *fname, const char *param, Value v, GraphRoot *out) {
  if (IS_TENSOR(v)) *out = graph_root_of_tensor(AS_TENSOR_OBJ(v)->tensor);
  else if (IS_NODE(v)) *out = graph_root_of_node(AS_NODE_OBJ(v)->node);
  else {
    vm_raise(vm, VM_ERR_TYPE, "%s(): argument '%s' must be a tensor or a graph node, not %s", fname,
                   param, vm_type_name(v));
    return false;
  }
  return true;
}

/* ---- naming ----
 * A tensor is shown by the name the script knows it by, as torchviz's params=
 * does: a global of the main script (`x`, `weights`) or the dotted path to it
 * through instances and lists (`model.fc1.weight`, `layers.0.bias`). Leaves
 * and the output get the name lent (ag_set_name) for the drawing and taken
 * back after, so nothing outlives it; the tensors that nodes produced are
 * passed as a GraphNames table. */

#define NAME_DEPTH_MAX 4       /* model.block.layers.0.weight */
#define NAME_VISITS_MAX 200000 /* values looked at: a web of objects stays cheap */

typedef struct {
  Tensor **leaves; /* the graph's leaves and its output: the ones that want names */
  int nleaves;
  Tensor **lent;   /* the leaves we named, to unname afterwards */
  int nlent;
  int visits;
  /* computed tensors held by the script: the names of what nodes produced */
  const GradNode **nodes;
  int *outputs;
  char **names;
  int count, cap;
  GraphNames table;
} Naming;

/* Remembers that output_nr of node is known as name (first name wins). */
static void name_produced(Naming *n, const GradNode *node, int output_nr, const char *name) {
  for (int i = 0; i < n->count; i++)
    if (n->nodes[i] == node && n->outputs[i] == output_nr) return;
  if (n->count == n->cap) {
    int cap = n->cap ? n->cap * 2 : 16;
    const GradNode **nodes = realloc(n->nodes, (size_t)cap * sizeof *nodes);
    if (nodes) n->nodes = nodes;
    int *outputs = nodes ? realloc(n->outputs, (size_t)cap * sizeof *outputs) : NULL;
    if (outputs) n->outputs = outputs;
    char **names = outputs ? realloc(n->names, (size_t)cap * sizeof *names) : NULL;
    if (!names) return; /* out of memory: that node just goes unnamed */
    n->names = names;
    n->cap = cap;
  }
  char *copy = strdup(name);
  if (!copy) return;
  n->nodes[n->count] = node;
  n->outputs[n->count] = output_nr;
  n->names[n->count++] = copy;
}

static void name_if_leaf(Naming *n, Tensor *t, const char *name) {
  if (ag_name(t)) return; /* named already (by us earlier, or by the bindings) */
  for (int i = 0; i < n->nleaves; i++) {
    if (n->leaves[i] != t) continue;
    ag_set_name(t, name);
    n->lent[n->nlent++] = t;
    return;
  }
}

static void name_in_value(Naming *n, Value v, const char *path, int depth);

static void name_in_fields(Naming *n, const Table *fields, const char *path, int depth) {
  for (int i = 0; i < fields->used; i++) {
    const TableEntry *e = &fields->entries[i];
    if (!IS_STRING(e->key)) continue;
    char *sub = NULL;
    if (asprintf(&sub, "%s.%s", path, AS_CSTRING(e->key)) < 0) return;
    name_in_value(n, e->value, sub, depth + 1);
    free(sub);
  }
}

static void name_in_list(Naming *n, const ObjList *list, const char *path, int depth) {
  for (int i = 0; i < list->count; i++) {
    char *sub = NULL;
    if (asprintf(&sub, "%s.%d", path, i) < 0) return;
    name_in_value(n, list->items[i], sub, depth + 1);
    free(sub);
  }
}

static void name_in_value(Naming *n, Value v, const char *path, int depth) {
  if (++n->visits > NAME_VISITS_MAX) return;
  if (IS_TENSOR(v)) {
    Tensor *t = AS_TENSOR_OBJ(v)->tensor;
    GradNode *node = ag_grad_fn(t);
    if (node) name_produced(n, node, ag_output_nr(t), path);
    name_if_leaf(n, t, path); /* a leaf of the graph, or its output */
  }
  else if (depth >= NAME_DEPTH_MAX) return;
  else if (IS_INSTANCE(v)) name_in_fields(n, &AS_INSTANCE(v)->fields, path, depth);
  else if (is_list_or_tuple(v)) name_in_list(n, AS_LIST(v), path, depth);
}

/* Lends names to the unnamed leaves of root's graph; false when out of memory. */
static bool naming_begin(AgVM *vm, Naming *n, GraphRoot root) {
  *n = (Naming){0};
  n->nleaves = graph_leaves(root, &n->leaves);
  if (n->nleaves < 0) return false;
  /* The output too; only when it takes part in autograd, as a name is kept in
   * autograd's per-tensor state, which other tensors should not grow. */
  if (root.tensor && ag_requires_grad(root.tensor)) n->leaves[n->nleaves++] = (Tensor *)root.tensor;
  n->lent = malloc(((size_t)n->nleaves + 1) * sizeof *n->lent);
  if (!n->lent) {
    free(n->leaves);
    tensor_set_error("out of memory");
    return false;
  }
  const Table *names = &vm->globals.main_module->names;
  for (int i = 0; i < names->used; i++) {
    const TableEntry *e = &names->entries[i];
    if (IS_UNDEF(e->key) || !IS_STRING(e->key) || !IS_NUMBER(e->value)) continue;
    Value v = vm->globals.values[(int)AS_NUMBER(e->value)];
    name_in_value(n, v, AS_CSTRING(e->key), 0);
  }
  n->table = (GraphNames){n->nodes, n->outputs, (const char *const *)n->names, n->count};
  return true;
}

static void naming_end(Naming *n) {
  for (int i = 0; i < n->nlent; i++) ag_set_name(n->lent[i], NULL);
  for (int i = 0; i < n->count; i++) free(n->names[i]);
  free(n->nodes);
  free(n->outputs);
  free(n->names);
  free(n->lent);
  free(n->leaves);
}

bool lib_graph_print(AgVM *vm, FILE *out, Value v) {
  GraphRoot root;
  if (IS_TENSOR(v)) root = graph_root_of_tensor(AS_TENSOR_OBJ(v)->tensor);
  else if (IS_NODE(v)) root = graph_root_of_node(AS_NODE_OBJ(v)->node);
  else {
    tensor_set_error("expected a tensor or a graph node, not %s", vm_type_name(v));
    return false;
  }
  Naming n;
  if (!naming_begin(vm, &n, root)) return false;
  root.names = &n.table;
  bool ok = graph_print_tree(out, root);
  naming_end(&n);
  return ok;
}

void lib_graph_trace(AgVM *vm, Tensor *root) {
  Naming n;
  GraphRoot r = graph_root_of_tensor(root);
  bool named = naming_begin(vm, &n, r);
  if (named) r.names = &n.table;
  graph_print_trace_root(stderr, r, ++lib_state(vm)->traced_backwards);
  if (named) naming_end(&n);
}

static Value throw_graph_error(AgVM *vm, const char *fname) {
  return vm_throw_error(vm, "%s: %s", fname, tensor_error());
}

HELP("print_graph", HELP_GRAPH, 0,
     "print_graph(t, show_saved=false)",
     "Prints the graph behind a tensor (or a node) as an indented tree: one node a line, "
     "with shapes and the script line of each node (in a notebook the cell and its line, "
     "In[7]:5). The REPL's `:graph EXPR` does the same. show_saved=true ends each node's "
     "line with the tensors it keeps for backward (`saved: self [2] 8 B, ...`; `(packed)` "
     "for what a saved_tensors_hooks pack hook holds) and adds a last line with the "
     "graph's total, each storage counted once (autograd.graph.saved_bytes).",
     "let x = ones(2, requires_grad=true)\n"
     "print_graph((x * 2).sum())\n"
     "print_graph((x * x).sum(), show_saved=true)")

static Value native_print_graph(AgVM *vm, Value self, int argc, const Value *args,
                                const AgKwargs *kw) {
  static const char *const names[] = {"t", "show_saved"};
  Value a[2];
  GraphRoot root;
  if (!lib_bind(vm, "print_graph", argc, args, kw, names, 2, a) ||
      !root_arg(vm, "print_graph", "t", a[0], &root) || !lib_flag(vm, a[1], false, &root.show_saved))
    return VM_EXCEPTION;
  Naming n;
  bool ok = naming_begin(vm, &n, root);
  if (ok) {
    root.names = &n.table;
    ok = graph_print_tree(stdout, root);
    naming_end(&n);
  }
  if (!ok) return throw_graph_error(vm, "print_graph");
  return NIL_VAL;
}

HELP("to_dot", HELP_GRAPH, 0,
     "to_dot(t, show_saved=false)",
     "The graph behind t as Graphviz DOT text (torchviz's layout); show_saved adds the "
     "saved tensors.",
     "let x = ones(2, requires_grad=true)\n"
     "print(to_dot(x * 2).startswith(\"digraph\"))")

static Value native_to_dot(AgVM *vm, Value self, int argc, const Value *args,
                           const AgKwargs *kw) {
  static const char *const names[] = {"t", "show_saved"};
  Value a[2];
  GraphRoot root;
  bool show_saved;
  if (!lib_bind(vm, "to_dot", argc, args, kw, names, 2, a) ||
      !root_arg(vm, "to_dot", "t", a[0], &root) || !lib_flag(vm, a[1], false, &show_saved))
    return VM_EXCEPTION;
  Naming n;
  char *text = NULL;
  if (naming_begin(vm, &n, root)) {
    root.names = &n.table;
    text = graph_to_dot(root, show_saved);
    naming_end(&n);
  }
  if (!text) return throw_graph_error(vm, "to_dot");
  ObjString *s = obj_string(vm, text);
  free(text);
  return OBJ_VAL(s);
}

HELP("save_graph", HELP_GRAPH, 0,
     "save_graph(t, path, show_saved=false)",
     "Writes the graph to a .dot file, or renders .svg / .png through Graphviz's `dot` (a "
     "clear error when it is not installed). In the web page .svg is drawn by the page's "
     "Graphviz and .png is refused.",
     "let x = ones(2, requires_grad=true)\n"
     "save_graph(x * 2, \"graph.dot\")")

static Value native_save_graph(AgVM *vm, Value self, int argc, const Value *args,
                               const AgKwargs *kw) {
  static const char *const names[] = {"t", "path", "show_saved"};
  Value a[3];
  GraphRoot root;
  bool show_saved;
  if (!lib_bind(vm, "save_graph", argc, args, kw, names, 3, a) ||
      !root_arg(vm, "save_graph", "t", a[0], &root) || !lib_flag(vm, a[2], false, &show_saved))
    return VM_EXCEPTION;
  if (!IS_STRING(a[1]))
    return vm_raise(vm, VM_ERR_TYPE, "save_graph(): argument 'path' must be a string, not %s",
                          vm_type_name(a[1]));
  Naming n;
  bool ok = naming_begin(vm, &n, root);
  if (ok) {
    root.names = &n.table;
    ok = graph_save(root, AS_CSTRING(a[1]), show_saved);
    naming_end(&n);
  }
  if (!ok) return throw_graph_error(vm, "save_graph");
  return NIL_VAL;
}

/* Graphs larger than this are refused by show_graph: Graphviz would take
 * minutes to lay them out and no browser shows the result. */
#define GRAPH_INLINE_MAX 2000

/* root's tree as text (print_graph's), malloc'd, or NULL. */
static char *tree_text(GraphRoot root, size_t *length) {
  char *tree = NULL;
  FILE *out = open_memstream(&tree, length);
  if (out == NULL) return NULL;
  bool ok = graph_print_tree(out, root);
  fclose(out);
  if (!ok) {
    free(tree);
    return NULL;
  }
  return tree;
}

/* For a host that draws DOT itself (the web page): the DOT and the tree. */
static bool show_source(AgVM *vm, GraphRoot root, bool show_saved) {
  size_t tree_length = 0;
  char *dot = graph_to_dot(root, show_saved);
  char *tree = dot ? tree_text(root, &tree_length) : NULL;
  if (tree) {
    const char *types[2] = {"text/vnd.graphviz", "text/plain"};
    const char *data[2] = {dot, tree};
    size_t lengths[2] = {strlen(dot), tree_length};
    lib_display_bundle(vm, 2, types, data, lengths);
  }
  free(dot);
  free(tree);
  return tree != NULL;
}

/* The notebook's picture of root: SVG and PNG from Graphviz (a notebook
 * that is not trusted hides SVG), with the tree as text. */
static bool show_inline(AgVM *vm, GraphRoot root, bool show_saved) {
  if (vm->host.draws_sources) return show_source(vm, root, show_saved);
  size_t svg_length = 0, png_length = 0, tree_length = 0;
  char *svg = graph_render(root, show_saved, "svg", &svg_length);
  char *png = svg ? graph_render(root, show_saved, "png", &png_length) : NULL;
  char *tree = png ? tree_text(root, &tree_length) : NULL;
  bool ok = tree != NULL;
  if (ok) {
    const char *types[3] = {"image/svg+xml", "image/png", "text/plain"};
    const char *data[3] = {svg, png, tree};
    size_t lengths[3] = {svg_length, png_length, tree_length};
    lib_display_bundle(vm, 3, types, data, lengths);
  }
  free(svg);
  free(png);
  free(tree);
  return ok;
}

HELP("show_graph", HELP_GRAPH, 0,
     "show_graph(t, show_saved=false)",
     "Shows the graph behind a tensor (or a node) as a picture: in a notebook inline, SVG "
     "and PNG drawn by Graphviz (graphs of more than 2000 nodes are refused: print_graph or "
     "save_graph them), on a terminal the tree of print_graph.",
     "let x = ones(2, requires_grad=true)\n"
     "show_graph((x * 2).sum())")

static Value native_show_graph(AgVM *vm, Value self, int argc, const Value *args,
                               const AgKwargs *kw) {
  static const char *const names[] = {"t", "show_saved"};
  Value a[2];
  GraphRoot root;
  bool show_saved;
  if (!lib_bind(vm, "show_graph", argc, args, kw, names, 2, a) ||
      !root_arg(vm, "show_graph", "t", a[0], &root) || !lib_flag(vm, a[1], false, &show_saved))
    return VM_EXCEPTION;
  int count = vm->host.display ? graph_node_count(root) : 0;
  if (count < 0) return throw_graph_error(vm, "show_graph");
  if (count > GRAPH_INLINE_MAX)
    return vm_throw_error(vm,
                          "show_graph(): the graph has %d nodes, more than the %d that can be drawn "
                          "inline; print_graph(t) shows it as text, save_graph(t, \"graph.dot\") "
                          "writes it",
                          count, GRAPH_INLINE_MAX);
  Naming n;
  bool ok = naming_begin(vm, &n, root);
  if (ok) {
    root.names = &n.table;
    ok = vm->host.display ? show_inline(vm, root, show_saved) : graph_print_tree(stdout, root);
    naming_end(&n);
  }
  if (!ok) return throw_graph_error(vm, "show_graph");
  return NIL_VAL;
}

HELP("graph_diff", HELP_GRAPH, 0,
     "graph_diff(a, b)",
     "Prints the graphs of two tensors side by side as a diff (\"- \" only in a, \"+ \" only "
     "in b) and a summary line: how control flow changed the graph.",
     "let x = ones(2, requires_grad=true)\n"
     "graph_diff(x * 2, (x * 2).sin())")

static Value native_graph_diff(AgVM *vm, Value self, int argc, const Value *args,
                               const AgKwargs *kw) {
  static const char *const names[] = {"a", "b"};
  Value a[2];
  GraphRoot ra, rb;
  if (!lib_bind(vm, "graph_diff", argc, args, kw, names, 2, a) ||
      !root_arg(vm, "graph_diff", "a", a[0], &ra) || !root_arg(vm, "graph_diff", "b", a[1], &rb))
    return VM_EXCEPTION;
  Naming na, nb;
  if (!naming_begin(vm, &na, ra)) return throw_graph_error(vm, "graph_diff");
  bool ok = naming_begin(vm, &nb, rb);
  if (ok) {
    ra.names = &na.table;
    rb.names = &nb.table;
    ok = graph_print_diff(stdout, ra, rb);
    naming_end(&nb);
  }
  naming_end(&na);
  if (!ok) return throw_graph_error(vm, "graph_diff");
  return NIL_VAL;
}

void lib_graph_install(AgVM *vm) {
  vm_define_native(vm, "print_graph", native_print_graph, 1, 2, true);
  vm_define_native(vm, "to_dot", native_to_dot, 1, 2, true);
  vm_define_native(vm, "save_graph", native_save_graph, 2, 3, true);
  vm_define_native(vm, "graph_diff", native_graph_diff, 2, 2, true);
  vm_define_native(vm, "show_graph", native_show_graph, 1, 2, true);
}
