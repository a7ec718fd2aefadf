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
 */
#ifndef AG_LIB_GRAPH_H
#define AG_LIB_GRAPH_H

#include "vm/vm.h"

void lib_graph_install(AgVM *vm);

#endif
