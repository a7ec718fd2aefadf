/* graph.h — seeing the autograd graph (SPEC §9): a tree on the terminal,
 * Graphviz DOT (and SVG/PNG through Graphviz's `dot`), a diff of two graphs
 * and the `ag --trace-graph` report. Plain C over the introspection API of
 * autograd.h; nothing here knows the VM (stdlib/lib_graph.c binds it).
 *
 * THE TREE (print_graph, the REPL's :graph, --trace-graph)
 *
 *   MeanBackward0 d               []  line 7
 *   └─ AddBackward0 c             []  line 6
 *      ├─ MulBackward0 a          []  line 4
 *      │  ├─ #1 AccumulateGrad x  []
 *      │  └─ #2 AccumulateGrad y  []
 *      └─ AddBackward0 b          []  line 5
 *         ├─ AccumulateGrad x     []  (see #1 above)
 *         └─ AccumulateGrad y     []  (see #2 above)
 *
 *   - One node a line: the node's name, followed by the script's name of the
 *     tensor it produced when GraphRoot.names knows one (`MulBackward0 a`);
 *     the shape of that tensor (`[]` for a scalar, `[2, 3]`; the dtype
 *     follows when it is not float32; `(output k of n)` for nodes with several
 *     outputs); the script line of the forward operation (`line N`, absent
 *     when unknown).
 *   - Children are the node's next_functions, in order, drawn with ├─ └─ │.
 *   - A leaf that requires grad is its AccumulateGrad node followed by the
 *     variable's name when the bindings know it (ag_name); it has no line.
 *   - An input that needs no gradient (a nil entry of next_functions) is the
 *     line `nil`, so positions match node.next_functions exactly.
 *   - A node reached along several paths gets a number `#N` (in order of first
 *     appearance) and is printed in full once; later it is one line ending in
 *     `(see #N above)`. Only shared nodes are numbered.
 *   - A node GRAPH_DEPTH_MAX levels down that has inputs gets a number and
 *     `(continued below)`; its subtree follows after an empty line as a block
 *     of its own, headed by the node again with `(continued from above)`. So
 *     lines stay short (and the output linear in the graph) however deep it is.
 *   - With show_saved, a node that keeps tensors for its backward ends its
 *     line with them: `saved: self [2, 3] 24 B, other [3] 12 B` (role, shape,
 *     dtype when not float32, the tensor's bytes; `(packed)` for what a
 *     saved_tensors_hooks pack hook holds, nothing once backward freed
 *     them), and a last line sums them up: `saved for backward: 4 tensors,
 *     96 bytes` (each storage counted once, as autograd.graph.saved_bytes).
 *   - The name and shape columns are aligned (the first column is aligned up
 *     to GRAPH_ALIGN_MAX display columns; longer lines just use two spaces).
 *     No trailing blanks. A tensor without a graph prints one line in
 *     parentheses saying why.
 *
 * THE DIFF (graph_diff(a, b)): both trees walked together, children matched
 * by position. A line is prefixed by two characters: "  " (in both), "- "
 * (only in a) or "+ " (only in b). Two nodes match when their names (and, for
 * leaves, variable names) agree; a matched pair whose shape or line differs
 * prints as a "- " line and a "+ " line, and its children are still matched.
 * Nodes that do not match print as whole subtrees. Deep subtrees continue
 * in blocks of their own, as in the tree. Keeping the "  " and "- "
 * lines gives a's tree, the "  " and "+ " lines b's. A node that is the very
 * same object in both graphs (a leaf, a subgraph built once) is numbered
 * and shown in full once; the other side refers to it. The last line counts
 * distinct nodes: in both (shown on a common line, or the same object in both
 * graphs), only in a, only in b:
 *   summary: only in a: 2 nodes (MulBackward0 x1, SelectBackward0 x1);
 *            only in b: 0 nodes; in both: 7 nodes
 * (on one line), op counts sorted by count, then name.
 *
 * THE TRACE (--trace-graph): at each backward, to stderr (after flushing
 * stdout, so it lands in order with the script's output),
 *   backward #2: 7 nodes: AddBackward0 x3, MulBackward0 x3, AccumulateGrad x1
 * then the tree and an empty line. Nodes are the distinct nodes reachable
 * from the root, AccumulateGrad included.
 *
 * DOT (to_dot, save_graph) follows torchviz's make_dot: operations are grey
 * boxes labelled with the node name (and the names of what it produced, as in
 * the tree) and script line, leaves are light-blue
 * boxes labelled with the variable name and shape (joined to their
 * AccumulateGrad box), the output tensor is a green box, edges run from
 * inputs to the operations that use them; with show_saved, every saved
 * tensor still held is an orange box joined to its node by an undirected
 * edge. Node ids come from the order of a depth-first walk from the root
 * (n1, n2, ...; v3 is the leaf of n3, s2_0 the first saved tensor of n2,
 * `out` the output), never from pointers, so the text is deterministic.
 *
 * Nothing here changes the graph, and every walk uses an explicit stack, so
 * a graph of a million nodes cannot overflow the C stack. Functions that can
 * fail return false / NULL with tensor_error() set (out of memory, files).
 */
#ifndef AG_STDLIB_GRAPH_H
#define AG_STDLIB_GRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "autograd/autograd.h"

#define GRAPH_ALIGN_MAX 100
#define GRAPH_DEPTH_MAX 20 /* tree levels drawn before a subtree moves to its own block */

/* The script's names of tensors that nodes produced (`a` for a = x * y):
 * entry i says output outputs[i] of nodes[i] is held by names[i]. The first
 * entry for a node and output wins. Borrowed. */
typedef struct {
  const GradNode *const *nodes;
  const int *outputs;
  const char *const *names;
  int count;
} GraphNames;

/* What a graph hangs from: a tensor (its grad_fn and output number) or a
 * node given directly (`print_graph(t.grad_fn)`). Borrowed. */
typedef struct {
  GradNode *node;       /* NULL: no graph (a leaf, or no grad required) */
  int output_nr;        /* which output of node the tensor is */
  const Tensor *tensor; /* NULL when the root was given as a node */
  const GraphNames *names; /* NULL: operations are shown without names */
  bool show_saved; /* the tree lists each node's saved tensors (print_graph(t, show_saved=true)) */
} GraphRoot;

GraphRoot graph_root_of_tensor(const Tensor *t);
GraphRoot graph_root_of_node(GradNode *node);

/* The leaf tensors of the graph (the variables of its AccumulateGrad nodes),
 * in walk order: a malloc'd array of borrowed pointers in *out, with room for
 * one more; the count, or -1 on error. Lets the bindings name leaves (ag_set_name) before drawing. */
int graph_leaves(GraphRoot root, Tensor ***out);

/* The tree of the graph under root. */
bool graph_print_tree(FILE *out, GraphRoot root);
bool graph_print_tensor(FILE *out, const Tensor *t); /* for the REPL's :graph */

/* The diff of the graphs under a and b, ending with the summary line. */
bool graph_print_diff(FILE *out, GraphRoot a, GraphRoot b);

/* Graphviz DOT text (malloc'd; the caller frees), or NULL on error. */
char *graph_to_dot(GraphRoot root, bool show_saved);

/* Writes PATH (.dot, or .svg/.png rendered by Graphviz's `dot` found on
 * PATH, or by the host's renderer) through a temporary file in the same
 * folder renamed into place. Errors (set in tensor_error()): unknown
 * extension, `dot` not found, `dot` or the renderer failing, files that
 * cannot be written. */
bool graph_save(GraphRoot root, const char *path, bool show_saved);

/* Where nodes were made, for the host to name (the notebook kernel: the
 * cell, "In[7]"): the name of the input that made node `id`, or NULL. With
 * a namer, labels say "In[7]:5" where they say "line 5" without one. */
typedef const char *(*GraphSourceNamer)(uint64_t id);
void graph_set_source_namer(GraphSourceNamer namer);

/* A host that cannot start `dot` but has Graphviz of its own (the web page:
 * Graphviz compiled to WebAssembly) renders DOT text as FORMAT ("svg",
 * "png"): the image malloc'd, *length bytes, or NULL with tensor_error()
 * set (a format it cannot make included). With a renderer set, save_graph
 * and graph_render use it and never look for `dot`. */
typedef char *(*GraphRenderer)(const char *dot, const char *format, size_t *length);
void graph_set_renderer(GraphRenderer renderer);

/* The graph rendered by Graphviz's `dot -TFORMAT` ("svg", "png"): malloc'd,
 * *length bytes, or NULL with tensor_error() set. */
char *graph_render(GraphRoot root, bool show_saved, const char *format, size_t *length);
/* The number of nodes under root, or -1 (out of memory). */
int graph_node_count(GraphRoot root);

/* The --trace-graph report of one backward through root (header line, tree,
 * empty line), the number-th traced (the caller counts: lib_graph_trace
 * per VM). */
void graph_print_trace(FILE *out, Tensor *root, int number);
void graph_print_trace_root(FILE *out, GraphRoot root, int number); /* with the root's names */

#endif
