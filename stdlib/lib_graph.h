/* lib_graph.h — the graph natives of SPEC §9, bound over stdlib/graph.h:
 *
 *   print_graph(t)                  the tree of t's graph on stdout
 *   to_dot(t, show_saved=false)     Graphviz DOT text (a string)
 *   save_graph(t, path, show_saved=false)
 *                                   writes .dot, or .svg/.png through `dot`
 *   graph_diff(a, b)                the two graphs compared, on stdout
 *
 * Each takes a tensor or a graph node (t.grad_fn) and returns nil (to_dot
 * its text). lib_install() calls lib_graph_install().
 *
 * Leaves, the output and the tensors nodes produced are shown by the names
 * the script knows them by: a global of the main script (`x`) or the dotted
 * path to it through instances and lists (`model.fc1.weight`, `layers.0`),
 * looked up at drawing time (a leaf name set with ag_set_name wins).
 */
#ifndef AG_LIB_GRAPH_H
#define AG_LIB_GRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "vm/vm.h"

void lib_graph_install(AgVM *vm);

/* The REPL's `:graph EXPR`: print_graph of v (a tensor or a node) to out,
 * leaves named; false with tensor_error() set otherwise or on failure. */
bool lib_graph_print(AgVM *vm, FILE *out, Value v);
/* --trace-graph at a backward through root: graph_print_trace to stderr,
 * leaves named. */
void lib_graph_trace(AgVM *vm, Tensor *root);

#endif
