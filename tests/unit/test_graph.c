/* test_graph.c — the graph views of stdlib/graph.h against their exact text.
 *
 * Graphs are built with the ag_* ops as a script would build them (current
 * line set before each op, leaves named as the bindings name them). A
 * mismatch prints the actual text as a C literal, ready to compare.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "autograd/autograd.h"
#include "stdlib/builtins.h"
#include "stdlib/graph.h"
#include "stdlib/lib.h"
#include "stdlib/lib_graph.h"
#include "vm/vm.h"

/* ---- builders ---- */

static Tensor *leaf(const char *name, double value, int ndim, const int64_t *shape) {
  Tensor *t = tensor_full(DT_FLOAT32, ndim, shape, value);
  ck_assert_ptr_nonnull(t);
  ck_assert(ag_set_requires_grad(t, true));
  if (name) ag_set_name(t, name);
  return t;
}

static Tensor *scalar_leaf(const char *name, double value) { return leaf(name, value, 0, NULL); }

static Tensor *vector(const double *values, int n) {
  int64_t shape[1] = {n};
  Tensor *t = tensor_empty(DT_FLOAT32, 1, shape);
  ck_assert_ptr_nonnull(t);
  for (int i = 0; i < n; i++) tensor_set_flat(t, i, values[i]);
  return t;
}

/* Runs op at script line `line`; checks it worked. */
#define AT(line, expr) (ag_set_current_line(line), checked(expr))
static Tensor *checked(Tensor *t) {
  ck_assert_msg(t != NULL, "%s", tensor_error());
  return t;
}

/* ---- capturing output ---- */

typedef struct {
  char *buf;
  size_t len;
  FILE *f;
} Capture;

static FILE *capture_start(Capture *c) {
  c->buf = NULL;
  c->len = 0;
  c->f = open_memstream(&c->buf, &c->len);
  ck_assert_ptr_nonnull(c->f);
  return c->f;
}

static char *capture_end(Capture *c) {
  fclose(c->f);
  return c->buf;
}

static void print_literal(const char *text) {
  fputs("  actual:\n      \"", stderr);
  for (const char *p = text; *p; p++) {
    if (*p == '\n') fputs(p[1] ? "\\n\"\n      \"" : "\\n\"\n", stderr);
    else if (*p == '"' || *p == '\\') fprintf(stderr, "\\%c", *p);
    else fputc(*p, stderr);
  }
}

static void expect_text(char *actual, const char *expected) {
  if (strcmp(actual, expected) != 0) print_literal(actual);
  ck_assert_str_eq(actual, expected);
  free(actual);
}

static char *tree_of(GraphRoot root) {
  Capture c;
  ck_assert(graph_print_tree(capture_start(&c), root));
  return capture_end(&c);
}

static char *diff_of(Tensor *a, Tensor *b) {
  Capture c;
  ck_assert(graph_print_diff(capture_start(&c), graph_root_of_tensor(a), graph_root_of_tensor(b)));
  return capture_end(&c);
}

static void release_all(Tensor **ts, int n) {
  for (int i = 0; i < n; i++) tensor_release(ts[i]);
}

/* ---- the graphs ---- */

/* seed 004 "visualize": d = mean((x * y) + (x + y)), lines 6 to 9. */
static Tensor *visualize_graph(void) {
  Tensor *x = scalar_leaf("x", 2), *y = scalar_leaf("y", 3);
  Tensor *a = AT(6, ag_binary(BIN_MUL, x, y));
  Tensor *b = AT(7, ag_binary(BIN_ADD, x, y));
  Tensor *c = AT(8, ag_binary(BIN_ADD, a, b));
  Tensor *d = AT(9, ag_mean(c, NULL, 0, false));
  Tensor *tmp[] = {x, y, a, b, c};
  release_all(tmp, 5);
  return d;
}

/* seed 000's dynamic model: result += val * weights[0 or 1] for each val. */
static Tensor *dynamic_model(Tensor *weights, const double *xs, int n, double threshold) {
  Tensor *result = NULL;
  for (int i = 0; i < n; i++) {
    int line = xs[i] > threshold ? 11 : 13;
    Tensor *val = checked(tensor_scalar(DT_FLOAT32, xs[i]));
    Tensor *w = AT(line, ag_select(weights, 0, xs[i] > threshold ? 0 : 1));
    Tensor *term = AT(line, ag_binary(BIN_MUL, val, w));
    Tensor *sum = result ? AT(line, ag_binary(BIN_ADD, result, term))
                         : AT(line, ag_scalar_binary(BIN_ADD, 0, term));
    Tensor *tmp[] = {val, w, term, result};
    release_all(tmp, result ? 4 : 3);
    result = sum;
  }
  return result;
}

static Tensor *weights_leaf(void) {
  int64_t shape[1] = {5};
  return leaf("weights", 0.5, 1, shape);
}

/* ---- the tree ---- */

START_TEST(tree_shared_leaves) {
  Tensor *d = visualize_graph();
  expect_text(tree_of(graph_root_of_tensor(d)),
              "MeanBackward0                 []  line 9\n"
              "└─ AddBackward0               []  line 8\n"
              "   ├─ MulBackward0            []  line 6\n"
              "   │  ├─ #1 AccumulateGrad x  []\n"
              "   │  └─ #2 AccumulateGrad y  []\n"
              "   └─ AddBackward0            []  line 7\n"
              "      ├─ AccumulateGrad x     []  (see #1 above)\n"
              "      └─ AccumulateGrad y     []  (see #2 above)\n");
  tensor_release(d);
}
END_TEST

START_TEST(tree_dynamic_model) {
  Tensor *w = weights_leaf();
  const double xs[] = {0.1, 0.8, 0.2, 0.9};
  Tensor *loss = dynamic_model(w, xs, 4, 0.5);
  expect_text(tree_of(graph_root_of_tensor(loss)),
              "AddBackward0                                 []   line 11\n"
              "├─ AddBackward0                              []   line 13\n"
              "│  ├─ AddBackward0                           []   line 11\n"
              "│  │  ├─ AddBackward0                        []   line 13\n"
              "│  │  │  ├─ MulBackward0                     []   line 13\n"
              "│  │  │  │  ├─ nil\n"
              "│  │  │  │  └─ SelectBackward0               []   line 13\n"
              "│  │  │  │     └─ #1 AccumulateGrad weights  [5]\n"
              "│  │  │  └─ nil\n"
              "│  │  └─ MulBackward0                        []   line 11\n"
              "│  │     ├─ nil\n"
              "│  │     └─ SelectBackward0                  []   line 11\n"
              "│  │        └─ AccumulateGrad weights        [5]  (see #1 above)\n"
              "│  └─ MulBackward0                           []   line 13\n"
              "│     ├─ nil\n"
              "│     └─ SelectBackward0                     []   line 13\n"
              "│        └─ AccumulateGrad weights           [5]  (see #1 above)\n"
              "└─ MulBackward0                              []   line 11\n"
              "   ├─ nil\n"
              "   └─ SelectBackward0                        []   line 11\n"
              "      └─ AccumulateGrad weights              [5]  (see #1 above)\n");
  Tensor *tmp[] = {w, loss};
  release_all(tmp, 2);
}
END_TEST


/* Names of computed tensors, as the bindings look them up in the script. */
START_TEST(tree_with_names) {
  Tensor *d = visualize_graph();
  GradNode *mean = ag_grad_fn(d), *c = grad_node_next(mean, 0, NULL);
  GradNode *a = grad_node_next(c, 0, NULL), *b = grad_node_next(c, 1, NULL);
  const GradNode *nodes[] = {mean, a, b, a, c};
  const int outputs[] = {0, 0, 0, 1, 0};
  const char *names[] = {"d", "a", "b", "not_an_output", "c"};
  GraphNames table = {nodes, outputs, names, 4}; /* c left out */
  GraphRoot root = graph_root_of_tensor(d);
  root.names = &table;
  expect_text(tree_of(root),
              "MeanBackward0 d               []  line 9\n"
              "└─ AddBackward0               []  line 8\n"
              "   ├─ MulBackward0 a          []  line 6\n"
              "   │  ├─ #1 AccumulateGrad x  []\n"
              "   │  └─ #2 AccumulateGrad y  []\n"
              "   └─ AddBackward0 b          []  line 7\n"
              "      ├─ AccumulateGrad x     []  (see #1 above)\n"
              "      └─ AccumulateGrad y     []  (see #2 above)\n");
  Capture cap;
  GraphRoot plain = graph_root_of_tensor(d);
  ck_assert(graph_print_diff(capture_start(&cap), root, plain));
  char *dot = graph_to_dot(root, false);
  ck_assert_ptr_nonnull(strstr(dot, "\tn3 [label=\"MulBackward0 a\\nline 6\"]\n"));
  ck_assert_ptr_nonnull(strstr(dot, "\tn2 [label=\"AddBackward0\\nline 8\"]\n"));
  free(dot);
  expect_text(capture_end(&cap),
              "  MeanBackward0 d               []  line 9\n"
              "  └─ AddBackward0               []  line 8\n"
              "     ├─ MulBackward0 a          []  line 6\n"
              "     │  ├─ #1 AccumulateGrad x  []\n"
              "     │  └─ #2 AccumulateGrad y  []\n"
              "     └─ AddBackward0 b          []  line 7\n"
              "        ├─ AccumulateGrad x     []  (see #1 above)\n"
              "        └─ AccumulateGrad y     []  (see #2 above)\n"
              "summary: only in a: 0 nodes; only in b: 0 nodes; in both: 6 nodes (AccumulateGrad x2, AddBackward0 x2, MeanBackward0 x1, MulBackward0 x1)\n");
  tensor_release(d);
}
END_TEST

/* x * 3 and a constant operand: the nil entries of next_functions. */
START_TEST(tree_nil_inputs) {
  Tensor *x = scalar_leaf("x", 2);
  const double kv[] = {1, 2, 3};
  Tensor *k = vector(kv, 3);
  Tensor *y = AT(3, ag_binary_scalar(BIN_MUL, x, 3));
  Tensor *z = AT(4, ag_binary(BIN_MUL, k, y));
  expect_text(tree_of(graph_root_of_tensor(z)),
              "MulBackward0            [3]  line 4\n"
              "├─ nil\n"
              "└─ MulBackward0         []   line 3\n"
              "   ├─ AccumulateGrad x  []\n"
              "   └─ nil\n");
  Tensor *tmp[] = {x, k, y, z};
  release_all(tmp, 4);
}
END_TEST

/* A custom Function's node: its name, and only tensor arguments as inputs. */
static int identity_backward(void *ctx, Tensor *const *grads, int ngrads, Tensor **out,
                             int max_out, bool *failed) {
  (void)ctx, (void)ngrads, (void)failed;
  for (int i = 0; i < max_out; i++) out[i] = i == 0 ? tensor_retain(grads[0]) : NULL;
  return max_out;
}

static Tensor *custom_apply(const char *name, int line, Tensor *a, Tensor *b) {
  Tensor *out = checked(tensor_clone(a));
  Tensor *args[3] = {a, NULL, b}; /* apply(a, 2, b): the number is no input */
  AgFunctionFns fns = {identity_backward, NULL, NULL, NULL};
  ag_set_current_line(line);
  ck_assert(ag_custom_record(name, fns, NULL, args, b ? 3 : 2, &out, 1));
  return out;
}

START_TEST(tree_custom_function) {
  Tensor *x = scalar_leaf("x", 1), *y = scalar_leaf(NULL, 2);
  Tensor *h = AT(5, ag_unary(UN_EXP, x));
  Tensor *r = custom_apply("MyReLU", 6, h, y);
  Tensor *s = AT(7, ag_binary(BIN_ADD, r, h));
  expect_text(tree_of(graph_root_of_tensor(s)),
              "AddBackward0               []  line 7\n"
              "├─ MyReLUBackward          []  line 6\n"
              "│  ├─ #1 ExpBackward0      []  line 5\n"
              "│  │  └─ AccumulateGrad x  []\n"
              "│  └─ AccumulateGrad       []\n"
              "└─ ExpBackward0            []  (see #1 above)\n");
  Tensor *tmp[] = {x, y, h, r, s};
  release_all(tmp, 5);
}
END_TEST

/* Several outputs of one node, float64, and a node given as the root. */
START_TEST(tree_outputs_and_dtypes) {
  int64_t shape[1] = {5};
  Tensor *x = leaf("x", 1, 1, shape);
  Tensor *x64 = AT(2, ag_to_dtype(x, DT_FLOAT64));
  Tensor **parts = NULL;
  ag_set_current_line(3);
  ck_assert_int_eq(ag_split(x64, 2, 0, &parts), 3);
  Tensor *p = AT(4, ag_binary(BIN_MUL, parts[0], parts[1]));
  expect_text(tree_of(graph_root_of_tensor(p)),
              "MulBackward0               [2] float64                  line 4\n"
              "├─ #1 SplitBackward0       [2] float64 (output 0 of 3)  line 3\n"
              "│  └─ ToCopyBackward0      [5] float64                  line 2\n"
              "│     └─ AccumulateGrad x  [5]\n"
              "└─ SplitBackward0          [2] float64 (output 1 of 3)  (see #1 above)\n");
  expect_text(tree_of(graph_root_of_tensor(parts[2])),
              "SplitBackward0          [1] float64 (output 2 of 3)  line 3\n"
              "└─ ToCopyBackward0      [5] float64                  line 2\n"
              "   └─ AccumulateGrad x  [5]\n");
  expect_text(tree_of(graph_root_of_node(ag_grad_fn(x64))),
              "ToCopyBackward0      [5] float64  line 2\n"
              "└─ AccumulateGrad x  [5]\n");
  Tensor *tmp[] = {x, x64, parts[0], parts[1], parts[2], p};
  release_all(tmp, 6);
  free(parts);
}
END_TEST

START_TEST(tree_without_graph) {
  Tensor *x = scalar_leaf("x", 1);
  Tensor *c = checked(tensor_scalar(DT_FLOAT32, 1));
  expect_text(tree_of(graph_root_of_tensor(x)),
              "(no graph: a leaf tensor; its gradient accumulates in .grad)\n");
  expect_text(tree_of(graph_root_of_tensor(c)),
              "(no graph: the tensor does not require grad)\n");
  ag_set_grad_enabled(false);
  Tensor *y = AT(3, ag_binary_scalar(BIN_MUL, x, 2));
  ag_set_grad_enabled(true);
  expect_text(tree_of(graph_root_of_tensor(y)),
              "(no graph: the tensor does not require grad)\n");
  Tensor *tmp[] = {x, c, y};
  release_all(tmp, 3);
}
END_TEST

/* A chain deeper than any C stack would allow if the walks recursed. */
static Tensor *long_chain(Tensor *x, int n) {
  Tensor *y = tensor_retain(x);
  for (int i = 0; i < n; i++) {
    Tensor *next = AT(2, ag_binary_scalar(BIN_ADD, y, 1));
    tensor_release(y);
    y = next;
  }
  return y;
}

START_TEST(deep_chain) {
  Tensor *x = scalar_leaf("x", 0);
  Tensor *y = long_chain(x, 200000);
  char *dot = graph_to_dot(graph_root_of_tensor(y), false);
  ck_assert_ptr_nonnull(dot);
  ck_assert_ptr_nonnull(strstr(dot, "\tn200001 [label=\"AccumulateGrad\"]\n"));
  free(dot);
  /* the tree in blocks of GRAPH_DEPTH_MAX levels: about 4 lines a node */
  Capture c;
  ck_assert(graph_print_tree(capture_start(&c), graph_root_of_tensor(y)));
  char *text = capture_end(&c);
  ck_assert_uint_lt(strlen(text), 200000 * 200);
  ck_assert_ptr_nonnull(strstr(text, "\n\n#9999 AddBackward0 "));
  free(text);
  /* the diff too (a - b: b is a's graph and one node more) */
  Tensor *z = AT(3, ag_unary(UN_NEG, y));
  ck_assert(graph_print_diff(capture_start(&c), graph_root_of_tensor(y), graph_root_of_tensor(z)));
  text = capture_end(&c);
  ck_assert_uint_lt(strlen(text), 200000 * 200);
  ck_assert_ptr_nonnull(strstr(text, "\nsummary: only in a: 0 nodes; only in b: 1 node (NegBackward0 x1); "
                                     "in both: 200001 nodes (AddBackward0 x200000, AccumulateGrad x1)\n"));
  free(text);
  tensor_release(z);
  Tensor *tmp[] = {x, y};
  release_all(tmp, 2);
}
END_TEST

/* Past GRAPH_DEPTH_MAX levels a subtree moves to a block of its own. */
START_TEST(tree_depth_limit) {
  Tensor *x = scalar_leaf("x", 0);
  Tensor *y = long_chain(x, GRAPH_DEPTH_MAX + 2);
  Tensor *z = AT(3, ag_binary(BIN_MUL, y, x));
  expect_text(tree_of(graph_root_of_tensor(z)),
              "MulBackward0                                                                 []  line 3\n"
              "├─ AddBackward0                                                              []  line 2\n"
              "│  ├─ AddBackward0                                                           []  line 2\n"
              "│  │  ├─ AddBackward0                                                        []  line 2\n"
              "│  │  │  ├─ AddBackward0                                                     []  line 2\n"
              "│  │  │  │  ├─ AddBackward0                                                  []  line 2\n"
              "│  │  │  │  │  ├─ AddBackward0                                               []  line 2\n"
              "│  │  │  │  │  │  ├─ AddBackward0                                            []  line 2\n"
              "│  │  │  │  │  │  │  ├─ AddBackward0                                         []  line 2\n"
              "│  │  │  │  │  │  │  │  ├─ AddBackward0                                      []  line 2\n"
              "│  │  │  │  │  │  │  │  │  ├─ AddBackward0                                   []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                                []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                             []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                          []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                       []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                    []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                 []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0              []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0           []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0        []  line 2\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ #1 AddBackward0  []  line 2  (continued below)\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  │  └─ nil\n"
              "│  │  │  │  │  └─ nil\n"
              "│  │  │  │  └─ nil\n"
              "│  │  │  └─ nil\n"
              "│  │  └─ nil\n"
              "│  └─ nil\n"
              "└─ #2 AccumulateGrad x                                                       []\n"
              "\n"
              "#1 AddBackward0                                                              []  line 2  (continued from above)\n"
              "├─ AddBackward0                                                              []  line 2\n"
              "│  ├─ AddBackward0                                                           []  line 2\n"
              "│  │  ├─ AccumulateGrad x                                                    []  (see #2 above)\n"
              "│  │  └─ nil\n"
              "│  └─ nil\n"
              "└─ nil\n");
  Tensor *tmp[] = {x, y, z};
  release_all(tmp, 3);
}
END_TEST

/* ---- the diff ---- */

START_TEST(diff_dynamic_model) {
  Tensor *w = weights_leaf();
  const double xs[] = {0.1, 0.8, 0.2, 0.9}, ys[] = {0.7, 0.6};
  Tensor *a = dynamic_model(w, xs, 4, 0.5);
  Tensor *b = dynamic_model(w, ys, 2, 0.65);
  expect_text(diff_of(a, b),
              "- AddBackward0                                 []   line 11\n"
              "+ AddBackward0                                 []   line 13\n"
              "- ├─ AddBackward0                              []   line 13\n"
              "+ ├─ AddBackward0                              []   line 11\n"
              "- │  ├─ AddBackward0                           []   line 11\n"
              "- │  │  ├─ AddBackward0                        []   line 13\n"
              "- │  │  │  ├─ MulBackward0                     []   line 13\n"
              "- │  │  │  │  ├─ nil\n"
              "- │  │  │  │  └─ SelectBackward0               []   line 13\n"
              "- │  │  │  │     └─ #1 AccumulateGrad weights  [5]\n"
              "- │  │  │  └─ nil\n"
              "- │  │  └─ MulBackward0                        []   line 11\n"
              "- │  │     ├─ nil\n"
              "- │  │     └─ SelectBackward0                  []   line 11\n"
              "- │  │        └─ AccumulateGrad weights        [5]  (see #1 above)\n"
              "+ │  ├─ MulBackward0                           []   line 11\n"
              "+ │  │  ├─ nil\n"
              "+ │  │  └─ SelectBackward0                     []   line 11\n"
              "+ │  │     └─ AccumulateGrad weights           [5]  (see #1 above)\n"
              "- │  └─ MulBackward0                           []   line 13\n"
              "- │     ├─ nil\n"
              "- │     └─ SelectBackward0                     []   line 13\n"
              "- │        └─ AccumulateGrad weights           [5]  (see #1 above)\n"
              "+ │  └─ nil\n"
              "- └─ MulBackward0                              []   line 11\n"
              "+ └─ MulBackward0                              []   line 13\n"
              "     ├─ nil\n"
              "-    └─ SelectBackward0                        []   line 11\n"
              "+    └─ SelectBackward0                        []   line 13\n"
              "        └─ AccumulateGrad weights              [5]  (see #1 above)\n"
              "summary: only in a: 12 nodes (AddBackward0 x4, MulBackward0 x4, SelectBackward0 x4); only in b: 6 nodes (AddBackward0 x2, MulBackward0 x2, SelectBackward0 x2); in both: 1 node (AccumulateGrad x1)\n");
  Tensor *tmp[] = {w, a, b};
  release_all(tmp, 3);
}
END_TEST

/* The same inputs twice: the same shape of graph, nothing changed. */
START_TEST(diff_same_graph) {
  Tensor *w = weights_leaf();
  const double xs[] = {0.9, 0.1};
  Tensor *a = dynamic_model(w, xs, 2, 0.5);
  Tensor *b = dynamic_model(w, xs, 2, 0.5);
  expect_text(diff_of(a, b),
              "  AddBackward0                           []   line 13\n"
              "  ├─ AddBackward0                        []   line 11\n"
              "  │  ├─ MulBackward0                     []   line 11\n"
              "  │  │  ├─ nil\n"
              "  │  │  └─ SelectBackward0               []   line 11\n"
              "  │  │     └─ #1 AccumulateGrad weights  [5]\n"
              "  │  └─ nil\n"
              "  └─ MulBackward0                        []   line 13\n"
              "     ├─ nil\n"
              "     └─ SelectBackward0                  []   line 13\n"
              "        └─ AccumulateGrad weights        [5]  (see #1 above)\n"
              "summary: only in a: 0 nodes; only in b: 0 nodes; in both: 7 nodes (AddBackward0 x2, MulBackward0 x2, SelectBackward0 x2, AccumulateGrad x1)\n");
  expect_text(diff_of(a, a),
              "  AddBackward0                           []   line 13\n"
              "  ├─ AddBackward0                        []   line 11\n"
              "  │  ├─ MulBackward0                     []   line 11\n"
              "  │  │  ├─ nil\n"
              "  │  │  └─ SelectBackward0               []   line 11\n"
              "  │  │     └─ #1 AccumulateGrad weights  [5]\n"
              "  │  └─ nil\n"
              "  └─ MulBackward0                        []   line 13\n"
              "     ├─ nil\n"
              "     └─ SelectBackward0                  []   line 13\n"
              "        └─ AccumulateGrad weights        [5]  (see #1 above)\n"
              "summary: only in a: 0 nodes; only in b: 0 nodes; in both: 7 nodes (AddBackward0 x2, MulBackward0 x2, SelectBackward0 x2, AccumulateGrad x1)\n");
  Tensor *tmp[] = {w, a, b};
  release_all(tmp, 3);
}
END_TEST

/* seed 004's control flow: result * x on one branch, result + x on the other. */
START_TEST(diff_branches) {
  Tensor *x = scalar_leaf("x", 3);
  Tensor *r = AT(3, ag_binary_scalar(BIN_MUL, x, 2));
  Tensor *pos = AT(5, ag_binary(BIN_MUL, r, x));
  Tensor *neg = AT(7, ag_binary(BIN_ADD, r, x));
  expect_text(diff_of(pos, neg),
              "- MulBackward0               []  line 5\n"
              "- ├─ #1 MulBackward0         []  line 3\n"
              "- │  ├─ #2 AccumulateGrad x  []\n"
              "- │  └─ nil\n"
              "- └─ AccumulateGrad x        []  (see #2 above)\n"
              "+ AddBackward0               []  line 7\n"
              "+ ├─ MulBackward0            []  (see #1 above)\n"
              "+ └─ AccumulateGrad x        []  (see #2 above)\n"
              "summary: only in a: 1 node (MulBackward0 x1); only in b: 1 node (AddBackward0 x1); in both: 2 nodes (AccumulateGrad x1, MulBackward0 x1)\n");
  Tensor *tmp[] = {x, r, pos, neg};
  release_all(tmp, 4);
}
END_TEST

/* Custom Function nodes compare by name; a shared subgraph stays shared. */
START_TEST(diff_custom_and_shared) {
  Tensor *x = scalar_leaf("x", 1), *y = scalar_leaf("y", 2);
  Tensor *h = AT(4, ag_unary(UN_TANH, x));
  Tensor *ra = custom_apply("MyReLU", 5, h, y);
  Tensor *rb = custom_apply("MyGELU", 5, h, y);
  Tensor *a = AT(6, ag_binary(BIN_MUL, ra, h));
  Tensor *b = AT(6, ag_binary(BIN_MUL, rb, h));
  expect_text(diff_of(a, b),
              "  MulBackward0                  []  line 6\n"
              "- ├─ MyReLUBackward             []  line 5\n"
              "- │  ├─ #1 TanhBackward0        []  line 4\n"
              "- │  │  └─ #2 AccumulateGrad x  []\n"
              "- │  └─ #3 AccumulateGrad y     []\n"
              "+ ├─ MyGELUBackward             []  line 5\n"
              "+ │  ├─ TanhBackward0           []  (see #1 above)\n"
              "+ │  └─ AccumulateGrad y        []  (see #3 above)\n"
              "  └─ TanhBackward0              []  (see #1 above)\n"
              "summary: only in a: 1 node (MyReLUBackward x1); only in b: 1 node (MyGELUBackward x1); in both: 4 nodes (AccumulateGrad x2, MulBackward0 x1, TanhBackward0 x1)\n");
  Tensor *tmp[] = {x, y, h, ra, rb, a, b};
  release_all(tmp, 7);
}
END_TEST

/* Nodes matched with a partner at one position and met again elsewhere. */
START_TEST(diff_crossed_pairs) {
  Tensor *x = scalar_leaf("x", 1);
  Tensor *p = AT(2, ag_unary(UN_EXP, x)), *q = AT(2, ag_unary(UN_EXP, x));
  Tensor *sq = AT(3, ag_unary(UN_SIN, q)), *cp = AT(3, ag_unary(UN_COS, p));
  Tensor *a = AT(4, ag_binary(BIN_ADD, p, sq));
  Tensor *b = AT(4, ag_binary(BIN_ADD, q, cp));
  expect_text(diff_of(a, b),
              "  AddBackward0               []  line 4\n"
              "  ├─ ExpBackward0            []  line 2\n"
              "  │  └─ #1 AccumulateGrad x  []\n"
              "- └─ SinBackward0            []  line 3\n"
              "-    └─ ExpBackward0         []  line 2\n"
              "-       └─ AccumulateGrad x  []  (see #1 above)\n"
              "+ └─ CosBackward0            []  line 3\n"
              "+    └─ ExpBackward0         []  line 2\n"
              "+       └─ AccumulateGrad x  []  (see #1 above)\n"
              "summary: only in a: 1 node (SinBackward0 x1); only in b: 1 node (CosBackward0 x1); in both: 4 nodes (ExpBackward0 x2, AccumulateGrad x1, AddBackward0 x1)\n");
  Tensor *tmp[] = {x, p, q, sq, cp, a, b};
  release_all(tmp, 7);
}
END_TEST

/* The depth limit in a diff: common and changed rows continue below. */
START_TEST(diff_depth_limit) {
  Tensor *x = scalar_leaf("x", 0);
  Tensor *a0 = long_chain(x, GRAPH_DEPTH_MAX + 1), *b0 = long_chain(x, GRAPH_DEPTH_MAX + 1);
  Tensor *a = AT(5, ag_unary(UN_EXP, a0)), *b = AT(6, ag_unary(UN_EXP, b0));
  expect_text(diff_of(a, b),
              "- ExpBackward0                                                                 []  line 5\n"
              "+ ExpBackward0                                                                 []  line 6\n"
              "  └─ AddBackward0                                                              []  line 2\n"
              "     ├─ AddBackward0                                                           []  line 2\n"
              "     │  ├─ AddBackward0                                                        []  line 2\n"
              "     │  │  ├─ AddBackward0                                                     []  line 2\n"
              "     │  │  │  ├─ AddBackward0                                                  []  line 2\n"
              "     │  │  │  │  ├─ AddBackward0                                               []  line 2\n"
              "     │  │  │  │  │  ├─ AddBackward0                                            []  line 2\n"
              "     │  │  │  │  │  │  ├─ AddBackward0                                         []  line 2\n"
              "     │  │  │  │  │  │  │  ├─ AddBackward0                                      []  line 2\n"
              "     │  │  │  │  │  │  │  │  ├─ AddBackward0                                   []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  ├─ AddBackward0                                []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                             []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                          []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                       []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                    []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0                 []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0              []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0           []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ AddBackward0        []  line 2\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  ├─ #1 AddBackward0  []  line 2  (continued below)\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  │  └─ nil\n"
              "     │  │  │  │  └─ nil\n"
              "     │  │  │  └─ nil\n"
              "     │  │  └─ nil\n"
              "     │  └─ nil\n"
              "     └─ nil\n"
              "\n"
              "  #1 AddBackward0                                                              []  line 2  (continued from above)\n"
              "  ├─ AddBackward0                                                              []  line 2\n"
              "  │  ├─ AccumulateGrad x                                                       []\n"
              "  │  └─ nil\n"
              "  └─ nil\n"
              "summary: only in a: 1 node (ExpBackward0 x1); only in b: 1 node (ExpBackward0 x1); in both: 22 nodes (AddBackward0 x21, AccumulateGrad x1)\n");
  Tensor *tmp[] = {x, a0, b0, a, b};
  release_all(tmp, 5);
}
END_TEST

START_TEST(diff_without_graph) {
  Tensor *x = scalar_leaf("x", 1);
  Tensor *y = AT(2, ag_unary(UN_SIN, x));
  expect_text(diff_of(x, y),
              "- (no graph: a leaf tensor; its gradient accumulates in .grad)\n"
              "+ SinBackward0         []  line 2\n"
              "+ └─ AccumulateGrad x  []\n"
              "summary: only in a: 0 nodes; only in b: 2 nodes (AccumulateGrad x1, SinBackward0 x1); in both: 0 nodes\n");
  expect_text(diff_of(x, x),
              "  (no graph behind either tensor)\n"
              "summary: only in a: 0 nodes; only in b: 0 nodes; in both: 0 nodes\n");
  Tensor *tmp[] = {x, y};
  release_all(tmp, 2);
}
END_TEST

/* ---- DOT ---- */

/* seed 004 exercise 4: loss = (tanh(x @ W + b) ** 2).sum() with out * out. */
static Tensor *network_graph(Tensor **keep) {
  const double xv[] = {1, 2};
  int64_t xs[2] = {1, 2}, ws[2] = {2, 1}, bs[1] = {1};
  Tensor *x = checked(tensor_empty(DT_FLOAT32, 2, xs));
  for (int i = 0; i < 2; i++) tensor_set_flat(x, i, xv[i]);
  Tensor *W = leaf("W", 0.5, 2, ws), *b = leaf("b", 0.1, 1, bs);
  Tensor *xw = AT(5, ag_matmul(x, W));
  Tensor *pre = AT(5, ag_binary(BIN_ADD, xw, b));
  Tensor *out = AT(5, ag_unary(UN_TANH, pre));
  Tensor *sq = AT(6, ag_binary(BIN_MUL, out, out));
  Tensor *loss = AT(6, ag_sum(sq, NULL, 0, false));
  ag_set_name(loss, "loss");
  Tensor *tmp[] = {x, W, b, xw, pre, sq};
  release_all(tmp, 6);
  *keep = out;
  return loss;
}

START_TEST(dot_network) {
  Tensor *out;
  Tensor *loss = network_graph(&out);
  char *dot = graph_to_dot(graph_root_of_tensor(loss), false);
  ck_assert_ptr_nonnull(dot);
  expect_text(dot,
              "digraph {\n"
              "	graph [size=\"12,12\"]\n"
              "	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]\n"
              "	out [label=\"loss\\n[]\" fillcolor=darkolivegreen1]\n"
              "	n1 [label=\"SumBackward0\\nline 6\"]\n"
              "	n2 -> n1\n"
              "	n2 [label=\"MulBackward0\\nline 6\"]\n"
              "	n3 -> n2\n"
              "	n3 [label=\"TanhBackward0\\nline 5\"]\n"
              "	n4 -> n3\n"
              "	n4 [label=\"AddBackward0\\nline 5\"]\n"
              "	n5 -> n4\n"
              "	n5 [label=\"MmBackward0\\nline 5\"]\n"
              "	n6 -> n5\n"
              "	v6 [label=\"W\\n[2, 1]\" fillcolor=lightblue]\n"
              "	v6 -> n6\n"
              "	n6 [label=\"AccumulateGrad\"]\n"
              "	n7 -> n4\n"
              "	v7 [label=\"b\\n[1]\" fillcolor=lightblue]\n"
              "	v7 -> n7\n"
              "	n7 [label=\"AccumulateGrad\"]\n"
              "	n3 -> n2\n"
              "	n1 -> out\n"
              "}\n");
  dot = graph_to_dot(graph_root_of_tensor(loss), true);
  ck_assert_ptr_nonnull(dot);
  expect_text(dot,
              "digraph {\n"
              "	graph [size=\"12,12\"]\n"
              "	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]\n"
              "	out [label=\"loss\\n[]\" fillcolor=darkolivegreen1]\n"
              "	n1 [label=\"SumBackward0\\nline 6\"]\n"
              "	n2 -> n1\n"
              "	n2 -> s2_0 [dir=none]\n"
              "	s2_0 [label=\"self\\n[1, 1]\" fillcolor=orange]\n"
              "	n2 -> s2_1 [dir=none]\n"
              "	s2_1 [label=\"other\\n[1, 1]\" fillcolor=orange]\n"
              "	n2 [label=\"MulBackward0\\nline 6\"]\n"
              "	n3 -> n2\n"
              "	n3 -> s3_0 [dir=none]\n"
              "	s3_0 [label=\"result\\n[1, 1]\" fillcolor=orange]\n"
              "	n3 [label=\"TanhBackward0\\nline 5\"]\n"
              "	n4 -> n3\n"
              "	n4 [label=\"AddBackward0\\nline 5\"]\n"
              "	n5 -> n4\n"
              "	n5 -> s5_0 [dir=none]\n"
              "	s5_0 [label=\"self\\n[1, 2]\" fillcolor=orange]\n"
              "	n5 [label=\"MmBackward0\\nline 5\"]\n"
              "	n6 -> n5\n"
              "	v6 [label=\"W\\n[2, 1]\" fillcolor=lightblue]\n"
              "	v6 -> n6\n"
              "	n6 [label=\"AccumulateGrad\"]\n"
              "	n7 -> n4\n"
              "	v7 [label=\"b\\n[1]\" fillcolor=lightblue]\n"
              "	v7 -> n7\n"
              "	n7 [label=\"AccumulateGrad\"]\n"
              "	n3 -> n2\n"
              "	n1 -> out\n"
              "}\n");
  dot = graph_to_dot(graph_root_of_node(ag_grad_fn(out)), false);
  ck_assert_ptr_nonnull(dot);
  expect_text(dot,
              "digraph {\n"
              "	graph [size=\"12,12\"]\n"
              "	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]\n"
              "	n1 [label=\"TanhBackward0\\nline 5\"]\n"
              "	n2 -> n1\n"
              "	n2 [label=\"AddBackward0\\nline 5\"]\n"
              "	n3 -> n2\n"
              "	n3 [label=\"MmBackward0\\nline 5\"]\n"
              "	n4 -> n3\n"
              "	v4 [label=\"W\\n[2, 1]\" fillcolor=lightblue]\n"
              "	v4 -> n4\n"
              "	n4 [label=\"AccumulateGrad\"]\n"
              "	n5 -> n2\n"
              "	v5 [label=\"b\\n[1]\" fillcolor=lightblue]\n"
              "	v5 -> n5\n"
              "	n5 [label=\"AccumulateGrad\"]\n"
              "}\n");
  tensor_release(out);
  tensor_release(loss);
}
END_TEST

START_TEST(dot_leaf_and_escapes) {
  int64_t shape[2] = {2, 3};
  Tensor *x = leaf("a \"quoted\\\" name", 1, 2, shape);
  char *dot = graph_to_dot(graph_root_of_tensor(x), false);
  ck_assert_ptr_nonnull(dot);
  expect_text(dot,
              "digraph {\n"
              "	graph [size=\"12,12\"]\n"
              "	node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]\n"
              "	out [label=\"a \\\"quoted\\\\\\\" name\\n[2, 3]\" fillcolor=darkolivegreen1]\n"
              "}\n");
  tensor_release(x);
}
END_TEST

/* ---- saving ---- */

static char scratch[64];

static void scratch_setup(void) {
  strcpy(scratch, "/tmp/ag_graph_test.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void scratch_teardown(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
  ck_assert_int_eq(system(cmd), 0);
}

static char *scratch_path(const char *name) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", scratch, name);
  return path;
}

static char *read_whole(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  char *buf = malloc(1 << 20);
  *len = fread(buf, 1, (1 << 20) - 1, f);
  buf[*len] = '\0';
  fclose(f);
  return buf;
}

/* Only the expected files are in the scratch folder: no temporaries left. */
static int files_in_scratch(void) {
  char cmd[160];
  snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq", scratch);
  int n = 0;
  for (; n < 10; n++) {
    char full[200];
    snprintf(full, sizeof full, "%s %d", cmd, n);
    if (system(full) == 0) return n;
  }
  return n;
}

START_TEST(save_dot_svg_png) {
  Tensor *out;
  Tensor *loss = network_graph(&out);
  GraphRoot root = graph_root_of_tensor(loss);
  size_t len;
  ck_assert(graph_save(root, scratch_path("g.dot"), false));
  char *text = read_whole(scratch_path("g.dot"), &len);
  char *dot = graph_to_dot(root, false);
  ck_assert_str_eq(text, dot);
  free(text);
  free(dot);
  ck_assert_msg(graph_save(root, scratch_path("g.svg"), false), "%s", tensor_error());
  text = read_whole(scratch_path("g.svg"), &len);
  ck_assert(strncmp(text, "<?xml", 5) == 0 || strncmp(text, "<svg", 4) == 0);
  ck_assert_ptr_nonnull(strstr(text, "MmBackward0"));
  free(text);
  ck_assert_msg(graph_save(root, scratch_path("G.PNG"), true), "%s", tensor_error());
  text = read_whole(scratch_path("G.PNG"), &len);
  ck_assert(len > 8 && memcmp(text, "\x89PNG\r\n\x1a\n", 8) == 0);
  free(text);
  struct stat st;
  ck_assert_int_eq(stat(scratch_path("G.PNG"), &st), 0);
  ck_assert_int_eq(st.st_mode & 0777, 0644);
  ck_assert_int_eq(files_in_scratch(), 3);
  tensor_release(out);
  tensor_release(loss);
}
END_TEST

static void expect_save_error(GraphRoot root, const char *path, const char *message) {
  ck_assert(!graph_save(root, path, false));
  ck_assert_str_eq(tensor_error(), message);
}

START_TEST(save_errors) {
  Tensor *out;
  Tensor *loss = network_graph(&out);
  GraphRoot root = graph_root_of_tensor(loss);
  char message[256];
  snprintf(message, sizeof message,
           "cannot save a graph as '%s': use a .dot, .svg or .png file name",
           scratch_path("g.pdf"));
  expect_save_error(root, scratch_path("g.pdf"), message);
  expect_save_error(root, "noext", "cannot save a graph as 'noext': use a .dot, .svg or .png file name");
  expect_save_error(root, "dir.png/g", "cannot save a graph as 'dir.png/g': use a .dot, .svg or .png file name");
  expect_save_error(root, "/nonexistent/dir/g.dot",
                    "cannot write '/nonexistent/dir/g.dot': No such file or directory");
  expect_save_error(root, "/nonexistent/dir/g.svg",
                    "cannot write '/nonexistent/dir/g.svg': No such file or directory");
  char *saved_path = strdup(getenv("PATH"));
  setenv("PATH", scratch, 1);
  expect_save_error(root, scratch_path("g.svg"),
                    "Graphviz 'dot' was not found; install graphviz or save as .dot");
  setenv("PATH", saved_path, 1);
  free(saved_path);
  ck_assert_int_eq(files_in_scratch(), 0);
  tensor_release(out);
  tensor_release(loss);
}
END_TEST

/* A `dot` that fails: its first stderr line becomes the message, and the
 * old file is kept. */
START_TEST(save_dot_failure) {
  Tensor *out;
  Tensor *loss = network_graph(&out);
  FILE *f = fopen(scratch_path("dot"), "w");
  fputs("#!/bin/sh\n/bin/cat >/dev/null\necho 'Error: <stdin>: syntax error in line 1' >&2\nexit 1\n", f);
  fclose(f);
  chmod(scratch_path("dot"), 0755);
  f = fopen(scratch_path("old.png"), "w");
  fputs("old", f);
  fclose(f);
  char *saved_path = strdup(getenv("PATH"));
  setenv("PATH", scratch, 1);
  expect_save_error(graph_root_of_tensor(loss), scratch_path("old.png"),
                    "Graphviz 'dot' failed: Error: <stdin>: syntax error in line 1");
  setenv("PATH", saved_path, 1);
  free(saved_path);
  size_t len;
  char *text = read_whole(scratch_path("old.png"), &len);
  ck_assert_str_eq(text, "old");
  free(text);
  ck_assert_int_eq(files_in_scratch(), 2);
  tensor_release(out);
  tensor_release(loss);
}
END_TEST

/* A host's renderer (the web page's Graphviz): what it returns is the file,
 * its refusal the error, and `dot` is never looked for. */
static char *fake_renderer(const char *dot, const char *format, size_t *length) {
  if (strcmp(format, "svg") != 0) {
    tensor_set_error("%s is not available here", format);
    return NULL;
  }
  char *image = NULL;
  ck_assert_int_ge(asprintf(&image, "<svg>%zu bytes of DOT</svg>", strlen(dot)), 0);
  *length = strlen(image);
  return image;
}

START_TEST(save_with_host_renderer) {
  Tensor *out;
  Tensor *loss = network_graph(&out);
  GraphRoot root = graph_root_of_tensor(loss);
  char *saved_path = strdup(getenv("PATH"));
  setenv("PATH", scratch, 1); /* no `dot` on PATH */
  graph_set_renderer(fake_renderer);
  char *dot = graph_to_dot(root, false);
  char expected[64];
  snprintf(expected, sizeof expected, "<svg>%zu bytes of DOT</svg>", strlen(dot));
  ck_assert_msg(graph_save(root, scratch_path("g.svg"), false), "%s", tensor_error());
  size_t len;
  char *text = read_whole(scratch_path("g.svg"), &len);
  ck_assert_str_eq(text, expected);
  free(text);
  size_t rendered_length = 0;
  char *rendered = graph_render(root, false, "svg", &rendered_length);
  ck_assert_str_eq(rendered, expected);
  ck_assert_uint_eq(rendered_length, strlen(expected));
  free(rendered);
  expect_save_error(root, scratch_path("g.png"), "png is not available here");
  ck_assert_ptr_null(graph_render(root, false, "png", &rendered_length));
  graph_set_renderer(NULL);
  setenv("PATH", saved_path, 1);
  free(saved_path);
  free(dot);
  ck_assert_int_eq(files_in_scratch(), 1);
  tensor_release(out);
  tensor_release(loss);
}
END_TEST

/* ---- the trace ---- */

START_TEST(trace_report) {
  Tensor *d = visualize_graph();
  Capture c;
  FILE *f = capture_start(&c);
  graph_print_trace(f, d, 1);
  graph_print_trace(f, d, 2);
  char *text = capture_end(&c);
  expect_text(text,
              "backward #1: 6 nodes: AccumulateGrad x2, AddBackward0 x2, MeanBackward0 x1, MulBackward0 x1\n"
              "MeanBackward0                 []  line 9\n"
              "└─ AddBackward0               []  line 8\n"
              "   ├─ MulBackward0            []  line 6\n"
              "   │  ├─ #1 AccumulateGrad x  []\n"
              "   │  └─ #2 AccumulateGrad y  []\n"
              "   └─ AddBackward0            []  line 7\n"
              "      ├─ AccumulateGrad x     []  (see #1 above)\n"
              "      └─ AccumulateGrad y     []  (see #2 above)\n"
              "\n"
              "backward #2: 6 nodes: AccumulateGrad x2, AddBackward0 x2, MeanBackward0 x1, MulBackward0 x1\n"
              "MeanBackward0                 []  line 9\n"
              "└─ AddBackward0               []  line 8\n"
              "   ├─ MulBackward0            []  line 6\n"
              "   │  ├─ #1 AccumulateGrad x  []\n"
              "   │  └─ #2 AccumulateGrad y  []\n"
              "   └─ AddBackward0            []  line 7\n"
              "      ├─ AccumulateGrad x     []  (see #1 above)\n"
              "      └─ AccumulateGrad y     []  (see #2 above)\n"
              "\n");
  Tensor *x = scalar_leaf("x", 1);
  f = capture_start(&c);
  graph_print_trace(f, x, 3);
  expect_text(capture_end(&c),
              "backward #3: 0 nodes\n"
              "(no graph: a leaf tensor; its gradient accumulates in .grad)\n"
              "\n");
  tensor_release(x);
  tensor_release(d);
}
END_TEST

/* ---- names from a running script (lib_graph.h) ---- */

static AgVM *vm_with(const char *src) {
  AgVM *vm = vm_new();
  lib_install_builtins(vm);
  lib_install(vm);
  ck_assert_int_eq(vm_run_source(vm, src, "<test>"), VM_OK);
  return vm;
}

static Value global(AgVM *vm, const char *name) {
  Value v;
  ck_assert(vm_get_global(vm, name, &v));
  return v;
}

static const char *const seed_visualize_src =
    "let x = tensor(2.0, requires_grad=true)\n"
    "let y = tensor(3.0, requires_grad=true)\n"
    "let pair = [x * y, nil]\n"
    "let b = x + y\n"
    "let c = pair[0] + b\n"
    "let d = c.mean()\n";

START_TEST(names_from_the_script) {
  AgVM *vm = vm_with(seed_visualize_src);
  Capture c;
  ck_assert(lib_graph_print(vm, capture_start(&c), global(vm, "d")));
  expect_text(capture_end(&c),
              "MeanBackward0 d               []  line 6\n"
              "└─ AddBackward0 c             []  line 5\n"
              "   ├─ MulBackward0 pair.0     []  line 3\n"
              "   │  ├─ #1 AccumulateGrad x  []\n"
              "   │  └─ #2 AccumulateGrad y  []\n"
              "   └─ AddBackward0 b          []  line 4\n"
              "      ├─ AccumulateGrad x     []  (see #1 above)\n"
              "      └─ AccumulateGrad y     []  (see #2 above)\n");
  /* the names were only lent */
  ck_assert_ptr_null(ag_name(AS_TENSOR_OBJ(global(vm, "x"))->tensor));
  ck_assert(!lib_graph_print(vm, capture_start(&c), FLOAT_VAL(3)));
  free(capture_end(&c));
  ck_assert_str_eq(tensor_error(), "expected a tensor or a graph node, not float");
  vm_free(vm);
}
END_TEST

/* --trace-graph through the bindings: stderr, with names. */
START_TEST(trace_with_names) {
  AgVM *vm = vm_with(seed_visualize_src);
  FILE *tmp = tmpfile();
  ck_assert_ptr_nonnull(tmp);
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  lib_graph_trace(vm, AS_TENSOR_OBJ(global(vm, "c"))->tensor);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  char text[4096];
  size_t n = fread(text, 1, sizeof text - 1, tmp);
  text[n] = '\0';
  fclose(tmp);
  expect_text(strdup(text),
              "backward #1: 5 nodes: AccumulateGrad x2, AddBackward0 x2, MulBackward0 x1\n"
              "AddBackward0 c             []  line 5\n"
              "├─ MulBackward0 pair.0     []  line 3\n"
              "│  ├─ #1 AccumulateGrad x  []\n"
              "│  └─ #2 AccumulateGrad y  []\n"
              "└─ AddBackward0 b          []  line 4\n"
              "   ├─ AccumulateGrad x     []  (see #1 above)\n"
              "   └─ AccumulateGrad y     []  (see #2 above)\n"
              "\n");
  vm_free(vm);
}
END_TEST

int main(void) {
  Suite *s = suite_create("graph");
  TCase *tree = tcase_create("tree");
  tcase_add_test(tree, tree_shared_leaves);
  tcase_add_test(tree, tree_dynamic_model);
  tcase_add_test(tree, tree_with_names);
  tcase_add_test(tree, tree_nil_inputs);
  tcase_add_test(tree, tree_custom_function);
  tcase_add_test(tree, tree_outputs_and_dtypes);
  tcase_add_test(tree, tree_without_graph);
  tcase_add_test(tree, tree_depth_limit);
  tcase_add_test(tree, deep_chain);
  tcase_set_timeout(tree, 60);
  suite_add_tcase(s, tree);
  TCase *diff = tcase_create("diff");
  tcase_add_test(diff, diff_dynamic_model);
  tcase_add_test(diff, diff_same_graph);
  tcase_add_test(diff, diff_branches);
  tcase_add_test(diff, diff_custom_and_shared);
  tcase_add_test(diff, diff_crossed_pairs);
  tcase_add_test(diff, diff_depth_limit);
  tcase_add_test(diff, diff_without_graph);
  suite_add_tcase(s, diff);
  TCase *dot = tcase_create("dot");
  tcase_add_test(dot, dot_network);
  tcase_add_test(dot, dot_leaf_and_escapes);
  suite_add_tcase(s, dot);
  TCase *save = tcase_create("save");
  tcase_add_checked_fixture(save, scratch_setup, scratch_teardown);
  tcase_add_test(save, save_dot_svg_png);
  tcase_add_test(save, save_errors);
  tcase_add_test(save, save_dot_failure);
  tcase_add_test(save, save_with_host_renderer);
  tcase_set_timeout(save, 30);
  suite_add_tcase(s, save);
  TCase *trace = tcase_create("trace");
  tcase_add_test(trace, trace_report);
  tcase_add_test(trace, names_from_the_script);
  tcase_add_test(trace, trace_with_names);
  suite_add_tcase(s, trace);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
