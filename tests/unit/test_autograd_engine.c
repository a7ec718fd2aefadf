/* test_autograd_engine.c — the backward engine: accumulation, graph
 * lifetime, errors with PyTorch's wording, hooks, custom functions, modes. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/autograd.h"
#include "tensor/ops.h"

static Tensor *vec(int n, const double *vals, bool requires_grad) {
  Tensor *t = tensor_empty(DT_FLOAT32, 1, (int64_t[]){n});
  for (int i = 0; i < n; i++)
    tensor_set_flat(t, i, vals[i]);
  if (requires_grad) ck_assert(ag_set_requires_grad(t, true));
  return t;
}

static Tensor *scalar(double v, bool requires_grad) {
  Tensor *t = tensor_scalar(DT_FLOAT32, v);
  if (requires_grad) ck_assert(ag_set_requires_grad(t, true));
  return t;
}

static bool backward(Tensor *root) { return ag_backward(&root, NULL, 1, false, false, NULL, 0); }
static bool backward_retain(Tensor *root) {
  return ag_backward(&root, NULL, 1, true, false, NULL, 0);
}

static double grad_at(const Tensor *t, int64_t i) {
  Tensor *g = ag_get_grad(t);
  ck_assert_msg(g != NULL, "no grad");
  return tensor_get_flat(g, i);
}

static void assert_error_contains(const char *needle) {
  ck_assert_msg(strstr(tensor_error(), needle) != NULL, "error \"%s\" lacks \"%s\"", tensor_error(),
                needle);
}

START_TEST(accumulates_across_backwards) {
  Tensor *x = vec(3, (double[]){1, 2, 3}, true);
  Tensor *y = ag_binary(BIN_MUL, x, x);
  Tensor *s = ag_sum(y, NULL, 0, false);
  ck_assert(backward_retain(s));
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(x, 2), 12); /* 2 * (2 * 3) */
  ck_assert_ptr_null(ag_get_grad(y));     /* non-leaf: nothing retained */
  tensor_release(s);
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(second_backward_fails_after_free) {
  Tensor *x = vec(2, (double[]){1, 2}, true);
  Tensor *y = ag_binary(BIN_MUL, x, x);
  Tensor *s = ag_sum(y, NULL, 0, false);
  ck_assert(backward(s));
  ck_assert(!backward(s));
  assert_error_contains("Trying to backward through the graph a second time");
  assert_error_contains("Specify retain_graph=true");
  tensor_release(s);
  tensor_release(y);
  /* x * 2 saves the wrapped scalar (PyTorch fails too); x + 2 saves nothing */
  Tensor *m = ag_binary_scalar(BIN_MUL, x, 2);
  Tensor *ms = ag_sum(m, NULL, 0, false);
  ck_assert(backward(ms));
  ck_assert(!backward(ms));
  Tensor *a = ag_binary_scalar(BIN_ADD, x, 2);
  Tensor *as = ag_sum(a, NULL, 0, false);
  ck_assert(backward(as));
  ck_assert(backward(as));
  tensor_release(ms);
  tensor_release(m);
  tensor_release(as);
  tensor_release(a);
  tensor_release(x);
}
END_TEST

START_TEST(root_errors) {
  Tensor *x = vec(3, (double[]){1, 2, 3}, true);
  Tensor *y = ag_binary_scalar(BIN_MUL, x, 2);
  ck_assert(!backward(y));
  ck_assert_str_eq(tensor_error(), "grad can be implicitly created only for scalar outputs");
  Tensor *plain = vec(2, (double[]){1, 2}, false);
  Tensor *ps = ag_sum(plain, NULL, 0, false);
  ck_assert(!backward(ps));
  ck_assert_str_eq(tensor_error(),
                   "element 0 of tensors does not require grad and does not have a grad_fn");
  Tensor *wrong = vec(2, (double[]){1, 1}, false);
  ck_assert(!ag_backward(&y, &wrong, 1, false, false, NULL, 0));
  assert_error_contains("Mismatch in shape");
  Tensor *ok = vec(3, (double[]){1, 0, -1}, false);
  ck_assert(ag_backward(&y, &ok, 1, false, false, NULL, 0));
  ck_assert_double_eq(grad_at(x, 2), -2);
  Tensor *i = tensor_empty(DT_INT64, 1, (int64_t[]){2});
  ck_assert(!ag_set_requires_grad(i, true));
  assert_error_contains("floating point");
  tensor_release(i);
  tensor_release(ok);
  tensor_release(wrong);
  tensor_release(ps);
  tensor_release(plain);
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(million_node_chain) {
  Tensor *x = scalar(1.0, true);
  Tensor *y = tensor_retain(x);
  for (int i = 0; i < 1000000; i++) {
    Tensor *next = ag_binary_scalar(BIN_ADD, y, 1e-6);
    tensor_release(y);
    y = next;
  }
  ck_assert(backward(y));
  ck_assert_double_eq(grad_at(x, 0), 1.0);
  tensor_release(y); /* frees the whole chain without recursion */
  tensor_release(x);
}
END_TEST

START_TEST(leaf_switched_off_after_recording) {
  Tensor *x = scalar(2.0, true);
  Tensor *y = ag_binary_scalar(BIN_MUL, x, 3);
  ck_assert(ag_set_requires_grad(x, false));
  ck_assert(backward(y));
  ck_assert_ptr_null(ag_get_grad(x));
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(diamond_and_shared_subgraphs) {
  Tensor *x = scalar(3.0, true);
  Tensor *a = ag_unary(UN_EXP, x);
  Tensor *b = ag_binary(BIN_MUL, a, x); /* x e^x */
  Tensor *c = ag_binary(BIN_ADD, a, b); /* e^x + x e^x */
  ck_assert(backward(c));
  ck_assert_double_eq_tol(grad_at(x, 0), exp(3.0) * (2 + 3.0), 1e-3);
  tensor_release(c);
  tensor_release(b);
  tensor_release(a);
  tensor_release(x);
}
END_TEST

/* ---- hooks ---- */

typedef struct {
  double scale;
  int calls;
  double seen;
  bool fail;
  int *log;
  int id;
  int *released;
} HookCtx;

static Tensor *hook_call(void *p, Tensor *grad, bool *failed) {
  HookCtx *h = p;
  h->calls++;
  h->seen = tensor_get_flat(grad, 0);
  if (h->log) *h->log = *h->log * 10 + h->id;
  if (h->fail) {
    tensor_set_error("hook raised");
    *failed = true;
    return NULL;
  }
  return h->scale != 1 ? ag_binary_scalar(BIN_MUL, grad, h->scale) : NULL;
}

static void hook_release(void *p) {
  HookCtx *h = p;
  if (h->released) (*h->released)++;
}

static AgHookFns hook_fns = {hook_call, hook_release};

START_TEST(hooks_replace_gradients) {
  /* as hooks_basic: hooks on y see dL/dy; a leaf hook replaces before accumulation */
  Tensor *x = vec(3, (double[]){1, 2, 3}, true);
  Tensor *y = ag_binary_scalar(BIN_MUL, x, 2);
  Tensor *z = ag_binary(BIN_MUL, y, y);
  Tensor *s = ag_sum(z, NULL, 0, false);
  int released = 0;
  HookCtx hy = {1, 0, 0, false, NULL, 0, &released}, hx = {10, 0, 0, false, NULL, 0, &released};
  ck_assert_int_gt(ag_register_hook(y, hook_fns, &hy), 0);
  ck_assert_int_gt(ag_register_hook(x, hook_fns, &hx), 0);
  ck_assert(ag_retain_grad(y));
  ck_assert(backward(s));
  ck_assert_double_eq(hy.seen, 4);
  ck_assert_double_eq(hx.seen, 8);
  ck_assert_double_eq(grad_at(x, 0), 80);
  ck_assert_double_eq(grad_at(y, 2), 12);
  ck_assert_ptr_null(ag_get_grad(z));
  tensor_release(s);
  tensor_release(z);
  tensor_release(y);
  tensor_release(x);
  ck_assert_int_eq(released, 2);
}
END_TEST

START_TEST(hooks_run_in_order_and_can_be_removed) {
  Tensor *a = scalar(1.0, true);
  int log = 0;
  HookCtx h1 = {1, 0, 0, false, &log, 1, NULL}, h2 = {2, 0, 0, false, &log, 2, NULL},
          h3 = {1, 0, 0, false, &log, 3, NULL};
  ag_register_hook(a, hook_fns, &h1);
  int second = ag_register_hook(a, hook_fns, &h2);
  ag_register_hook(a, hook_fns, &h3);
  Tensor *y = ag_binary_scalar(BIN_MUL, a, 3);
  ck_assert(backward(y));
  ck_assert_int_eq(log, 123);
  ck_assert_double_eq(h3.seen, 6);
  ck_assert(ag_remove_hook(a, second));
  ck_assert(!ag_remove_hook(a, second));
  Tensor *y2 = ag_binary_scalar(BIN_MUL, a, 3);
  ck_assert(backward(y2));
  ck_assert_double_eq(grad_at(a, 0), 9);
  tensor_release(y2);
  tensor_release(y);
  tensor_release(a);
  Tensor *plain = scalar(1.0, false);
  ck_assert_int_eq(ag_register_hook(plain, hook_fns, &h1), -1);
  assert_error_contains("doesn't require gradient");
  tensor_release(plain);
}
END_TEST

/* A hook that removes itself (and the next hook) while hooks run. */
typedef struct {
  Tensor *t;
  int handles[2];
  int calls;
} SelfRemoving;

static Tensor *remove_both(void *p, Tensor *grad, bool *failed) {
  SelfRemoving *r = p;
  r->calls++;
  ck_assert(ag_remove_hook(r->t, r->handles[0]));
  ck_assert(ag_remove_hook(r->t, r->handles[1]));
  return NULL;
}

static Tensor *never_called(void *p, Tensor *grad, bool *failed) {
  ck_abort_msg("a removed hook ran");
  return NULL;
}

START_TEST(hooks_removed_while_running) {
  Tensor *x = scalar(1.0, true);
  SelfRemoving r = {x, {0, 0}, 0};
  r.handles[0] = ag_register_hook(x, (AgHookFns){remove_both, NULL}, &r);
  r.handles[1] = ag_register_hook(x, (AgHookFns){never_called, NULL}, NULL);
  Tensor *y = ag_binary_scalar(BIN_MUL, x, 2);
  ck_assert(backward(y));
  ck_assert_int_eq(r.calls, 1);
  ck_assert_double_eq(grad_at(x, 0), 2);
  Tensor *y2 = ag_binary_scalar(BIN_MUL, x, 2);
  ck_assert(backward(y2)); /* neither hook runs again */
  ck_assert_int_eq(r.calls, 1);
  tensor_release(y2);
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(failing_hook_fails_backward) {
  Tensor *a = scalar(2.0, true);
  Tensor *y = ag_unary(UN_EXP, a);
  HookCtx h = {1, 0, 0, true, NULL, 0, NULL};
  ag_register_hook(y, hook_fns, &h);
  Tensor *z = ag_binary_scalar(BIN_MUL, y, 2);
  ck_assert(!backward(z));
  ck_assert_str_eq(tensor_error(), "hook raised");
  ck_assert_ptr_null(ag_get_grad(a));
  ck_assert(ag_is_grad_enabled()); /* restored after the failure */
  tensor_release(z);
  tensor_release(y);
  tensor_release(a);
}
END_TEST

/* ---- in-place rules ---- */

START_TEST(version_counter_error_names_lines) {
  Tensor *a = vec(3, (double[]){1, 2, 3}, true);
  ag_set_current_line(10);
  Tensor *c = ag_unary(UN_SIGMOID, a); /* saves its output */
  Tensor *d = ag_binary_scalar(BIN_MUL, c, 3);
  ag_set_current_line(12);
  ck_assert(ag_binary_scalar_(BIN_MUL, c, 2));
  ck_assert_int_eq(tensor_version(c), 1);
  Tensor *s = ag_sum(d, NULL, 0, false);
  ck_assert(!backward(s));
  assert_error_contains("one of the variables needed for gradient computation has been modified by "
                        "an inplace operation: [torch.FloatTensor [3]], which is output 0 of "
                        "SigmoidBackward0, is at version 1; expected version 0 instead.");
  assert_error_contains("saved for SigmoidBackward0 at line 10 and modified in place at line 12");
  tensor_release(s);
  tensor_release(d);
  tensor_release(c);
  tensor_release(a);
  ag_set_current_line(0);
}
END_TEST

START_TEST(version_error_on_a_saved_input) {
  Tensor *x = vec(2, (double[]){1, 2}, true);
  Tensor *h = ag_binary_scalar(BIN_ADD, x, 1);
  Tensor *y = ag_binary(BIN_MUL, h, h); /* saves h, an output of AddBackward0 */
  ck_assert(ag_binary_scalar_(BIN_MUL, h, 2));
  ck_assert(ag_binary_scalar_(BIN_MUL, h, 2));
  Tensor *s = ag_sum(y, NULL, 0, false);
  ck_assert(!backward(s));
  assert_error_contains(
      "[torch.FloatTensor [2]], which is output 0 of AddBackward0, is at version 2; "
      "expected version 0 instead.");
  tensor_release(s);
  tensor_release(y);
  tensor_release(h);
  tensor_release(x);
}
END_TEST

START_TEST(interrupt_stops_backward) {
  Tensor *x = scalar(1.0, true);
  Tensor *y = ag_unary(UN_EXP, x);
  tensor_interrupt_requested = 1;
  bool ok = backward(y);
  tensor_interrupt_requested = 0;
  ck_assert(!ok);
  ck_assert_str_eq(tensor_error(), "Interrupted");
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(retained_grad_accumulates_and_follows_rebase) {
  Tensor *x = vec(2, (double[]){1, 2}, true);
  Tensor *h = ag_binary_scalar(BIN_MUL, x, 3);
  ck_assert(ag_retain_grad(h));
  ck_assert(ag_retains_grad(h));
  ck_assert(ag_binary_scalar_(BIN_ADD, h, 1)); /* new grad_fn: retain_grad moves along */
  Tensor *s = ag_sum(h, NULL, 0, false);
  ck_assert(backward_retain(s));
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(h, 0), 2);
  ck_assert_double_eq(grad_at(x, 1), 6);
  tensor_release(s);
  tensor_release(h); /* the node's weak pointer to h is cleared */
  tensor_release(x);
}
END_TEST

START_TEST(create_graph_backward_keeps_history_in_grad) {
  Tensor *x = scalar(2.0, true);
  Tensor *y = ag_binary_scalar(BIN_POW, x, 3);
  ck_assert(ag_backward(&y, NULL, 1, false, true, NULL, 0));
  Tensor *g = tensor_retain(ag_get_grad(x)); /* 3 x^2 = 12, with a graph */
  ck_assert(ag_requires_grad(g));
  ck_assert_double_eq(tensor_item(g), 12);
  ck_assert(ag_set_grad(x, NULL));
  ck_assert(backward(g)); /* d(3x^2)/dx = 6x */
  ck_assert_double_eq(grad_at(x, 0), 12);
  tensor_release(g);
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(inplace_on_leaf_and_non_leaf) {
  Tensor *w = vec(2, (double[]){1, 2}, true);
  ck_assert(!ag_binary_scalar_(BIN_ADD, w, 1));
  ck_assert_str_eq(tensor_error(),
                   "a leaf Variable that requires grad is being used in an in-place operation.");
  ck_assert_int_eq(tensor_version(w), 0);
  Tensor *idx = NULL;
  IndexItem it = {.kind = IDX_INT, .i = 0};
  Tensor *five = tensor_scalar(DT_FLOAT32, 5);
  ck_assert(!ag_index_put_(w, &it, 1, five));
  bool was = ag_set_grad_enabled(false);
  ck_assert(ag_binary_scalar_(BIN_SUB, w, 0.5));
  it.i = 1;
  ck_assert(ag_index_put_(w, &it, 1, five));
  ag_set_grad_enabled(was);
  ck_assert_int_eq(tensor_version(w), 2);
  ck_assert(ag_is_leaf(w) && ag_requires_grad(w));
  /* a non-leaf: allowed and recorded, history rebased */
  Tensor *y = ag_binary_scalar(BIN_MUL, w, 1);
  ck_assert(ag_binary_scalar_(BIN_ADD, y, 1));
  ck_assert_str_eq(grad_node_name(ag_grad_fn(y)), "AddBackward0");
  ck_assert_int_eq(tensor_version(y), 1);
  Tensor *s = ag_sum(y, NULL, 0, false);
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(w, 0), 1);
  tensor_release(s);
  tensor_release(y);
  tensor_release(five);
  tensor_release(idx);
  tensor_release(w);
}
END_TEST

START_TEST(inplace_makes_plain_tensor_require_grad) {
  /* buf (no grad) += w (grad): buf joins the graph */
  Tensor *w = vec(2, (double[]){1, 2}, true);
  Tensor *buf = vec(2, (double[]){0, 0}, false);
  ck_assert(ag_binary_(BIN_ADD, buf, w));
  ck_assert(ag_requires_grad(buf) && !ag_is_leaf(buf));
  ck_assert(ag_binary_(BIN_MUL, buf, w)); /* buf = w * w */
  Tensor *s = ag_sum(buf, NULL, 0, false);
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(w, 1), 4);
  tensor_release(s);
  tensor_release(buf);
  tensor_release(w);
}
END_TEST

START_TEST(inplace_accumulator_chains_nodes) {
  /* acc += x, acc -= x, acc *= 3: each node has an edge to the one before,
   * and acc's version counts the writes */
  Tensor *x = scalar(2.0, true);
  Tensor *acc = ag_binary_scalar(BIN_MUL, x, 1);
  GradNode *first = ag_grad_fn(acc);
  int64_t v0 = tensor_version(acc);
  ck_assert(ag_binary_(BIN_ADD, acc, x));
  ck_assert_str_eq(grad_node_name(ag_grad_fn(acc)), "AddBackward0");
  int nr;
  ck_assert(grad_node_next(ag_grad_fn(acc), 0, &nr) == first);
  GradNode *second = ag_grad_fn(acc);
  ck_assert(ag_binary_(BIN_SUB, acc, x) && ag_binary_scalar_(BIN_MUL, acc, 3));
  ck_assert_str_eq(grad_node_name(ag_grad_fn(acc)), "MulBackward0");
  GradNode *sub = grad_node_next(ag_grad_fn(acc), 0, &nr);
  ck_assert_str_eq(grad_node_name(sub), "SubBackward0");
  ck_assert(grad_node_next(sub, 0, &nr) == second);
  ck_assert_int_eq(tensor_version(acc), v0 + 3);
  ck_assert_double_eq(tensor_get_flat(acc, 0), 6); /* (2 + 2 - 2) * 3 */
  ck_assert(backward(acc));
  ck_assert_double_eq(grad_at(x, 0), 3); /* d/dx 3 * (x + x - x) */
  tensor_release(acc);
  tensor_release(x);
}
END_TEST

START_TEST(copy_fill_and_index_assignment) {
  Tensor *w = vec(3, (double[]){1, 2, 3}, true);
  Tensor *y = ag_binary_scalar(BIN_MUL, w, 2);
  IndexItem it = {.kind = IDX_INT, .i = 1};
  Tensor *v = scalar(4.0, true);
  ck_assert(ag_index_put_(y, &it, 1, v));
  ck_assert_str_eq(grad_node_name(ag_grad_fn(y)), "CopySlices");
  Tensor *yy = ag_binary(BIN_MUL, y, y);
  Tensor *s = ag_sum(yy, NULL, 0, false);
  tensor_release(yy);
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(w, 1), 0); /* overwritten */
  ck_assert_double_eq(grad_at(w, 2), 24);
  ck_assert_double_eq(grad_at(v, 0), 8);
  tensor_release(s);
  Tensor *z = ag_binary_scalar(BIN_MUL, w, 1);
  ck_assert(ag_fill_(z, 3));
  ck_assert_str_eq(grad_node_name(ag_grad_fn(z)), "FillBackward0");
  Tensor *z2 = ag_binary_scalar(BIN_MUL, w, 1);
  ck_assert(ag_copy_(z2, v));
  ck_assert_str_eq(grad_node_name(ag_grad_fn(z2)), "CopyBackwards");
  Tensor *zs = ag_sum(z2, NULL, 0, false);
  ck_assert(backward(zs));
  ck_assert_double_eq(grad_at(v, 0), 8 + 3);
  tensor_release(zs);
  tensor_release(z2);
  tensor_release(z);
  tensor_release(v);
  tensor_release(y);
  tensor_release(w);
}
END_TEST

/* A view taken before a write to its base sees the write (as PyTorch's
 * regenerated view history): the overwritten element gets no gradient. */
START_TEST(stale_views_are_regenerated) {
  Tensor *x = vec(3, (double[]){1, 2, 3}, true);
  Tensor *y = ag_binary_scalar(BIN_MUL, x, 2);
  Tensor *a = ag_slice(y, 0, 0, 2, 1);
  IndexItem it = {.kind = IDX_INT, .i = 1};
  Tensor *five = tensor_scalar(DT_FLOAT32, 5);
  ck_assert(ag_index_put_(y, &it, 1, five));
  ck_assert_str_eq(grad_node_name(ag_grad_fn(a)), "AsStridedBackward0");
  Tensor *s = ag_sum(a, NULL, 0, false);
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(x, 0), 2);
  ck_assert_double_eq(grad_at(x, 1), 0);
  ck_assert_double_eq(grad_at(x, 2), 0);
  Tensor *all[] = {s, five, a, y, x};
  for (int i = 0; i < 5; i++)
    tensor_release(all[i]);
}
END_TEST

START_TEST(view_of_leaf_inplace_error) {
  Tensor *w = vec(3, (double[]){1, 2, 3}, true);
  Tensor *row = ag_select(w, 0, 1);
  ck_assert(!ag_binary_scalar_(BIN_MUL, row, 2));
  assert_error_contains("a view of a leaf Variable that requires grad");
  tensor_release(row);
  tensor_release(w);
}
END_TEST

/* ---- modes ---- */

START_TEST(no_grad_and_detach) {
  Tensor *x = vec(2, (double[]){1, 2}, true);
  ck_assert(ag_set_grad_enabled(false));
  Tensor *y = ag_binary(BIN_MUL, x, x);
  ck_assert(!ag_requires_grad(y) && ag_grad_fn(y) == NULL);
  ck_assert(!ag_set_grad_enabled(true));
  Tensor *d = ag_detach(x);
  ck_assert(d->storage == x->storage && !ag_requires_grad(d));
  Tensor *z = ag_binary(BIN_MUL, x, d);
  Tensor *s = ag_sum(z, NULL, 0, false);
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(x, 1), 2); /* d is a constant */
  ck_assert(ag_detach_(z));
  ck_assert(!ag_requires_grad(z) && ag_is_leaf(z));
  tensor_release(s);
  tensor_release(z);
  tensor_release(d);
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(anomaly_mode_names_the_node) {
  Tensor *x = scalar(0.0, true);
  ag_set_current_line(7);
  Tensor *r = ag_unary(UN_SQRT, x);
  Tensor *y = ag_binary_scalar(BIN_MUL, r, 0.0);
  ag_set_anomaly(true, false);
  ck_assert(!backward(y));
  ag_set_anomaly(false, false);
  assert_error_contains("Function 'SqrtBackward0' returned nan values in its 0th output.");
  assert_error_contains("line 7");
  tensor_release(y);
  tensor_release(r);
  /* check_forward: a NaN made by a recorded forward op */
  Tensor *m = scalar(-1.0, true);
  ag_set_anomaly(true, true);
  ck_assert_ptr_null(ag_unary(UN_LOG, m));
  ag_set_anomaly(false, false);
  assert_error_contains("LogBackward0");
  tensor_release(m);
  tensor_release(x);
  ag_set_current_line(0);
}
END_TEST

START_TEST(autograd_grad_and_higher_order) {
  Tensor *x = scalar(2.0, true);
  Tensor *y = ag_binary_scalar(BIN_POW, x, 3);
  Tensor *dy = NULL, *d2y = NULL, *d3y = NULL;
  ck_assert(ag_grad(&y, NULL, 1, &x, 1, true, true, false, &dy));
  ck_assert_double_eq(tensor_item(dy), 12);
  ck_assert(ag_requires_grad(dy));
  ck_assert(ag_grad(&dy, NULL, 1, &x, 1, true, true, false, &d2y));
  ck_assert_double_eq(tensor_item(d2y), 12);
  ck_assert(ag_grad(&d2y, NULL, 1, &x, 1, false, false, false, &d3y));
  ck_assert_double_eq(tensor_item(d3y), 6);
  ck_assert(!ag_requires_grad(d3y));
  ck_assert_ptr_null(ag_get_grad(x)); /* .grad untouched */
  /* (dy/dx)^2 backward with the graph of dy: 36 x^3 at 1.5 */
  Tensor *x2 = scalar(1.5, true);
  Tensor *y2 = ag_binary_scalar(BIN_POW, x2, 3), *g = NULL;
  ck_assert(ag_grad(&y2, NULL, 1, &x2, 1, true, true, false, &g));
  Tensor *gg = ag_binary(BIN_MUL, g, g);
  ck_assert(backward(gg));
  ck_assert_double_eq_tol(grad_at(x2, 0), 121.5, 1e-4);
  /* unused inputs */
  Tensor *u = scalar(1.0, true), *res[2];
  Tensor *ins[2] = {x, u};
  ck_assert(!ag_grad(&y, NULL, 1, ins, 2, true, false, false, res));
  assert_error_contains("appears to not have been used in the graph");
  ck_assert(ag_grad(&y, NULL, 1, ins, 2, true, false, true, res));
  ck_assert_ptr_null(res[1]);
  ck_assert_double_eq(tensor_item(res[0]), 12);
  tensor_release(res[0]);
  Tensor *plain = scalar(1.0, false);
  ck_assert(!ag_grad(&y, NULL, 1, &plain, 1, true, false, false, res));
  assert_error_contains("does not require grad");
  Tensor *all[] = {plain, u, gg, g, y2, x2, d3y, d2y, dy, y, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    tensor_release(all[i]);
}
END_TEST

START_TEST(grad_of_non_leaf_input_and_backward_inputs) {
  Tensor *x = vec(2, (double[]){1, 2}, true);
  Tensor *w = vec(2, (double[]){3, 4}, true);
  Tensor *h = ag_binary(BIN_MUL, x, w);
  Tensor *hh = ag_binary(BIN_MUL, h, h);
  Tensor *s = ag_sum(hh, NULL, 0, false);
  tensor_release(hh);
  Tensor *gh = NULL;
  ck_assert(ag_grad(&s, NULL, 1, &h, 1, true, false, false, &gh));
  ck_assert_double_eq(tensor_get_flat(gh, 1), 16); /* 2 h */
  tensor_release(gh);
  ck_assert(ag_backward(&s, NULL, 1, true, false, &w, 1));
  ck_assert_ptr_null(ag_get_grad(x)); /* only w accumulates */
  ck_assert_double_eq(grad_at(w, 0), 2 * 3 * 1);
  ck_assert(ag_backward(&s, NULL, 1, false, false, &h, 1));
  ck_assert_double_eq(grad_at(h, 1), 16);
  tensor_release(s);
  tensor_release(h);
  tensor_release(w);
  tensor_release(x);
}
END_TEST

/* ---- custom functions ---- */

typedef struct {
  int ngrads;     /* how many gradients backward returns */
  int64_t shape0; /* shape of the first gradient */
  int *released;
  int calls;
} CustomCtx;

static int custom_backward(void *p, Tensor *const *grads, int ngrads, Tensor **out, int max_out,
                           bool *failed) {
  CustomCtx *c = p;
  c->calls++;
  for (int i = 0; i < c->ngrads && i < max_out; i++) {
    if (i == 1) continue; /* the number argument: no gradient */
    out[i] = i == 0 && c->shape0 != grads[0]->shape[0] ? tensor_zeros(DT_FLOAT32, 1, &c->shape0)
                                                       : ag_binary_scalar(BIN_MUL, grads[0], 3);
  }
  return c->ngrads;
}

static void custom_release(void *p) { (*((CustomCtx *)p)->released)++; }

static Tensor *apply_custom(CustomCtx *c, Tensor *a, Tensor *b) {
  Tensor *out = tensor_binary_scalar(BIN_MUL, a, 3); /* forward: 3a (+ 3b) */
  Tensor *args[3] = {a, NULL, b};
  AgFunctionFns fns = {custom_backward, NULL, custom_release, NULL};
  ck_assert(ag_custom_record("Triple", fns, c, args, 3, &out, 1));
  return out;
}

START_TEST(custom_function_nodes) {
  int released = 0;
  Tensor *a = vec(2, (double[]){1, 2}, true), *b = vec(2, (double[]){1, 1}, false);
  CustomCtx c = {3, 2, &released, 0};
  Tensor *out = apply_custom(&c, a, b);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(out)), "TripleBackward");
  ck_assert_int_eq(grad_node_num_next(ag_grad_fn(out)), 2); /* tensors only */
  bool flags[3];
  Tensor *args[3] = {a, NULL, b};
  ck_assert(ag_custom_needs_input_grad(args, 3, flags));
  ck_assert(flags[0] && !flags[1] && !flags[2]);
  Tensor *s = ag_sum(out, NULL, 0, false);
  ck_assert(backward(s));
  ck_assert_double_eq(grad_at(a, 0), 3);
  ck_assert_int_eq(c.calls, 1);
  tensor_release(s);
  tensor_release(out);
  ck_assert_int_eq(released, 1);
  /* wrong count, wrong shape */
  CustomCtx bad = {2, 2, &released, 0};
  out = apply_custom(&bad, a, b);
  s = ag_sum(out, NULL, 0, false);
  ck_assert(!backward(s));
  ck_assert_str_eq(
      tensor_error(),
      "function TripleBackward returned an incorrect number of gradients (expected 3, got 2)");
  tensor_release(s);
  tensor_release(out);
  CustomCtx badshape = {3, 3, &released, 0};
  out = apply_custom(&badshape, a, b);
  s = ag_sum(out, NULL, 0, false);
  ck_assert(!backward(s));
  ck_assert_str_eq(tensor_error(), "Function TripleBackward returned an invalid gradient at index "
                                   "0 - got [3] but expected shape compatible with [2]");
  tensor_release(s);
  tensor_release(out);
  /* no input needs a gradient: nothing recorded, ctx released at once */
  CustomCtx none = {3, 2, &released, 0};
  out = apply_custom(&none, b, b);
  ck_assert(!ag_requires_grad(out));
  tensor_release(out);
  ck_assert_int_eq(released, 4);
  tensor_release(a);
  tensor_release(b);
}
END_TEST

/* A custom backward written with ag ops is itself differentiable. */
static int square_backward(void *p, Tensor *const *grads, int ngrads, Tensor **out, int max_out,
                           bool *failed) {
  Tensor *x = p; /* saved input: 2 x g */
  Tensor *two_x = ag_binary_scalar(BIN_MUL, x, 2);
  out[0] = ag_binary(BIN_MUL, grads[0], two_x);
  tensor_release(two_x);
  return 1;
}

static void square_release(void *p) { tensor_release(p); }

START_TEST(custom_function_under_create_graph) {
  Tensor *x = scalar(3.0, true);
  bool was = ag_set_grad_enabled(false);
  Tensor *y = tensor_binary(BIN_MUL, x, x);
  ag_set_grad_enabled(was);
  AgFunctionFns fns = {square_backward, NULL, square_release, NULL};
  ck_assert(ag_custom_record("Square", fns, tensor_retain(x), &x, 1, &y, 1));
  Tensor *g = NULL, *gg = NULL;
  ck_assert(ag_grad(&y, NULL, 1, &x, 1, true, true, false, &g));
  ck_assert_double_eq(tensor_item(g), 6);
  ck_assert(ag_grad(&g, NULL, 1, &x, 1, false, false, false, &gg));
  ck_assert_double_eq(tensor_item(gg), 2);
  /* several outputs with their own output gradients */
  Tensor *a = ag_binary_scalar(BIN_MUL, x, 2), *b = ag_unary(UN_EXP, x), *r = NULL;
  Tensor *outs[2] = {a, b}, *gos[2] = {scalar(1.0, false), scalar(0.5, false)};
  ck_assert(ag_grad(outs, gos, 2, &x, 1, false, false, false, &r));
  ck_assert_double_eq_tol(tensor_item(r), 2 + 0.5 * exp(3.0), 1e-3);
  Tensor *all[] = {r, gos[0], gos[1], a, b, gg, g, y, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    tensor_release(all[i]);
}
END_TEST

/* ---- saved-tensor hooks and saved bytes ---- */

/* The packed value: the saved tensor times 2 (the unpack halves it). */
typedef struct {
  int packs, unpacks, releases;
} PackCounts;

static PackCounts pack_counts;

static void *double_pack(void *ctx, Tensor *t, bool *failed) {
  pack_counts.packs++;
  *(int *)ctx += 1;
  return tensor_binary_scalar(BIN_MUL, t, 2);
}

static Tensor *halve_unpack(void *packed, bool *failed) {
  pack_counts.unpacks++;
  return tensor_binary_scalar(BIN_MUL, packed, 0.5);
}

static void packed_release(void *packed) {
  pack_counts.releases++;
  tensor_release(packed);
}

static const AgSavedHookFns doubling_hooks = {double_pack, halve_unpack, packed_release};

START_TEST(saved_hooks_pack_and_unpack) {
  pack_counts = (PackCounts){0};
  int calls = 0;
  Tensor *x = vec(3, (double[]){1, 2, 3}, true);
  ck_assert(ag_saved_hooks_push(&doubling_hooks, &calls));
  Tensor *y = ag_binary(BIN_MUL, x, x); /* saves self and other */
  ck_assert_ptr_eq(ag_saved_hooks_pop(), &calls);
  ck_assert_ptr_null(ag_saved_hooks_pop()); /* nothing left to pop */
  ck_assert_int_eq(calls, 2);
  GradNode *n = ag_grad_fn(y);
  ck_assert(grad_node_saved_is_packed(n, 0));
  ck_assert_ptr_null(grad_node_saved(n, 0, NULL));
  int count = -1;
  ck_assert_uint_eq(ag_graph_saved_bytes(n, &count), 0); /* packed values count nothing */
  Tensor *z = ag_binary(BIN_MUL, y, y);                  /* outside: saved plainly */
  ck_assert_uint_eq(ag_graph_saved_bytes(ag_grad_fn(z), &count), 3 * sizeof(float));
  ck_assert_int_eq(count, 2); /* y twice, one storage */
  Tensor *s = ag_sum(z, NULL, 0, false);
  ck_assert(backward(s));
  ck_assert_int_eq(pack_counts.unpacks, 2);
  ck_assert_int_eq(pack_counts.releases, 2); /* backward freed the packed values */
  ck_assert_double_eq(grad_at(x, 1), 4 * 8.0); /* d(x^4)/dx = 4 x^3 */
  Tensor *all[] = {s, z, y, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    tensor_release(all[i]);
}
END_TEST

static void *failing_pack(void *ctx, Tensor *t, bool *failed) {
  *failed = true;
  return NULL;
}

static const AgSavedHookFns failing_hooks = {failing_pack, halve_unpack, packed_release};

START_TEST(failing_pack_fails_the_op) {
  Tensor *x = vec(2, (double[]){1, 2}, true);
  ck_assert(ag_saved_hooks_push(&failing_hooks, NULL));
  ck_assert_ptr_null(ag_unary(UN_EXP, x));
  assert_error_contains("pack hook failed");
  ag_saved_hooks_pop();
  Tensor *y = ag_unary(UN_EXP, x); /* the failure does not outlive the op */
  ck_assert_ptr_nonnull(y);
  tensor_release(y);
  tensor_release(x);
}
END_TEST

START_TEST(memory_stats_follow_storages) {
  size_t live0, peak0, live1, peak1;
  tensor_memory_reset_peak();
  tensor_memory_stats(&live0, &peak0);
  ck_assert_uint_eq(live0, peak0);
  Tensor *big = tensor_zeros(DT_FLOAT32, 1, (int64_t[]){1000});
  Tensor *view = tensor_reshape(big, 2, (int64_t[]){10, 100}); /* shares the storage */
  tensor_memory_stats(&live1, &peak1);
  ck_assert_uint_eq(live1, live0 + 4000);
  tensor_release(view);
  tensor_release(big);
  tensor_memory_stats(&live1, &peak1);
  ck_assert_uint_eq(live1, live0);
  ck_assert_uint_eq(peak1, live0 + 4000);
}
END_TEST

/* ---- introspection ---- */

START_TEST(next_functions_follow_pytorch) {
  Tensor *x = scalar(2.0, true), *k = scalar(4.0, false);
  Tensor *m = ag_binary_scalar(BIN_MUL, x, 3);
  GradNode *n = ag_grad_fn(m);
  ck_assert_str_eq(grad_node_name(n), "MulBackward0");
  ck_assert_int_eq(grad_node_num_next(n), 2);
  ck_assert_str_eq(grad_node_name(grad_node_next(n, 0, NULL)), "AccumulateGrad");
  ck_assert_ptr_eq(grad_node_variable(grad_node_next(n, 0, NULL)), x);
  ck_assert_ptr_null(grad_node_next(n, 1, NULL));
  Tensor *p = ag_binary_scalar(BIN_POW, x, 2);
  ck_assert_int_eq(grad_node_num_next(ag_grad_fn(p)), 1);
  Tensor *mk = ag_binary(BIN_MUL, x, k);
  ck_assert_ptr_null(grad_node_next(ag_grad_fn(mk), 1, NULL));
  /* the same leaf has one AccumulateGrad node */
  ck_assert_ptr_eq(grad_node_next(ag_grad_fn(mk), 0, NULL), grad_node_next(n, 0, NULL));
  Tensor *r = ag_scalar_binary(BIN_SUB, 2, x);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(r)), "RsubBackward1");
  Tensor *q = ag_scalar_binary(BIN_DIV, 2, x);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(q)), "MulBackward0");
  ck_assert_str_eq(grad_node_name(grad_node_next(ag_grad_fn(q), 0, NULL)), "ReciprocalBackward0");
  Tensor *e = ag_scalar_binary(BIN_POW, 2, x);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(e)), "PowBackward2");
  DType dt;
  int nd;
  const int64_t *shape;
  ck_assert(grad_node_output_info(ag_grad_fn(e), 0, &dt, &nd, &shape));
  ck_assert_int_eq(nd, 0);
  ck_assert_int_eq(dt, DT_FLOAT32);
  ck_assert_uint_gt(grad_node_id(ag_grad_fn(e)), grad_node_id(ag_grad_fn(q)));
  const char *name = NULL;
  ck_assert_ptr_nonnull(grad_node_saved(ag_grad_fn(e), 0, &name));
  ck_assert_str_eq(name, "result");
  Tensor *all[] = {x, k, m, p, mk, r, q, e};
  for (int i = 7; i >= 0; i--)
    tensor_release(all[i]);
}
END_TEST

/* floor_divide has no derivative in PyTorch: NotImplemented, with an edge to
 * each input that requires grad only, and backward names the op. */
START_TEST(floor_divide_records_not_implemented) {
  Tensor *x = scalar(7.0, true), *k = scalar(2.0, false);
  Tensor *q = ag_binary(BIN_FLOOR_DIVIDE, x, k), *qs = ag_binary_scalar(BIN_FLOOR_DIVIDE, x, 2);
  Tensor *rq = ag_scalar_binary(BIN_FLOOR_DIVIDE, 15, x);
  ck_assert_double_eq(tensor_item(q), 3);
  ck_assert_double_eq(tensor_item(rq), 2);
  Tensor *outs[] = {q, qs, rq};
  for (int i = 0; i < 3; i++) {
    GradNode *n = ag_grad_fn(outs[i]);
    ck_assert_str_eq(grad_node_name(n), "NotImplemented");
    ck_assert_int_eq(grad_node_num_next(n), 1);
    ck_assert_ptr_eq(grad_node_variable(grad_node_next(n, 0, NULL)), x);
  }
  ck_assert(!backward(q));
  assert_error_contains("derivative for aten::floor_divide is not implemented");
  Tensor *all[] = {rq, qs, q, k, x};
  for (int i = 0; i < 5; i++)
    tensor_release(all[i]);
}
END_TEST

START_TEST(node_names_of_composite_ops) {
  Tensor *x = tensor_zeros(DT_FLOAT32, 2, (int64_t[]){2, 3});
  ag_set_requires_grad(x, true);
  Tensor *r = ag_reshape(x, 1, (int64_t[]){6});
  ck_assert_str_eq(grad_node_name(ag_grad_fn(r)), "ReshapeAliasBackward0");
  Tensor *t = ag_transpose(x, 0, 1);
  Tensor *rc = ag_reshape(t, 1, (int64_t[]){6});
  ck_assert_str_eq(grad_node_name(ag_grad_fn(rc)), "UnsafeViewBackward0");
  Tensor *target = tensor_zeros(DT_INT64, 1, (int64_t[]){2});
  Tensor *ce = ag_cross_entropy(x, target, RED_MEAN);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(ce)), "NllLossBackward0");
  ck_assert_str_eq(grad_node_name(grad_node_next(ag_grad_fn(ce), 0, NULL)), "LogSoftmaxBackward0");
  Tensor *v = tensor_zeros(DT_FLOAT32, 1, (int64_t[]){3});
  Tensor *mv = ag_matmul(x, v);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(mv)), "MvBackward0");
  Tensor *s0 = ag_sum(x, NULL, 0, false), *s1 = ag_sum(x, (int[]){0}, 1, false);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(s0)), "SumBackward0");
  ck_assert_str_eq(grad_node_name(ag_grad_fn(s1)), "SumBackward1");
  Tensor *all[] = {s1, s0, mv, v, ce, target, rc, t, r, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    tensor_release(all[i]);
}
END_TEST

/* Bad arguments give an error (never a crash) and record nothing. */
START_TEST(bad_inputs_are_errors) {
  Tensor *x = tensor_zeros(DT_FLOAT32, 2, (int64_t[]){2, 3});
  ag_set_requires_grad(x, true);
  Tensor *v = tensor_zeros(DT_FLOAT32, 1, (int64_t[]){4});
  Tensor *f64 = tensor_zeros(DT_FLOAT64, 1, (int64_t[]){2});
  Tensor *idx = tensor_zeros(DT_INT64, 1, (int64_t[]){2});
  tensor_set_flat(idx, 0, 7);
  Tensor *ts[2] = {x, v}, **pieces = NULL;
  Tensor *results[] = {
      ag_sum(x, (int[]){5}, 1, false),
      ag_mean(x, (int[]){-3}, 1, true),
      ag_select(x, 0, 2),
      ag_slice(x, 3, 0, 1, 1),
      ag_mm(x, x),
      ag_matmul(x, v),
      ag_dot(v, f64),
      ag_mv(x, v),
      ag_bmm(x, x),
      ag_view(x, 1, (int64_t[]){5}),
      ag_reshape(x, 2, (int64_t[]){-1, -1}),
      ag_expand(x, 2, (int64_t[]){4, 3}),
      ag_permute(x, (int[]){0, 0}, 2),
      ag_transpose(x, 0, 2),
      ag_squeeze(x, 4, true),
      ag_unsqueeze(x, 4),
      ag_cat(ts, 2, 0),
      ag_stack(ts, 2, 0),
      ag_binary(BIN_ADD, x, v),
      ag_where(f64, x, x),
      ag_index_select(x, 1, idx),
      ag_gather(x, 0, idx),
      ag_index(x,
               (IndexItem[]){
                   {.kind = IDX_INT, .i = 0}, {.kind = IDX_INT, .i = 0}, {.kind = IDX_INT, .i = 0}},
               3),
      ag_softmax(x, 2),
      ag_log_softmax(x, -3),
      ag_nll_loss(x, v, RED_MEAN),
      ag_cross_entropy(x, idx, RED_MEAN),
      ag_mse_loss(x, v, RED_MEAN),
      ag_binary_cross_entropy(x, v, NULL, RED_SUM),
      ag_clamp(x, NAN, NAN),
      ag_prod(x, 3, true, false),
      ag_max(x, 2, true, false, NULL),
      ag_norm(x, 2, (int[]){9}, 1, false),
  };
  for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
    ck_assert_msg(results[i] == NULL, "bad call %zu succeeded", i);
    ck_assert_msg(tensor_error()[0] != '\0', "bad call %zu left no message", i);
  }
  ck_assert_int_eq(ag_split(x, 0, 0, &pieces), -1);
  ck_assert_int_eq(ag_chunk(x, 0, 0, &pieces), -1);
  ck_assert_int_eq(ag_unbind(x, 3, &pieces), -1);
  ck_assert(!ag_index_put_(x, (IndexItem[]){{.kind = IDX_INT, .i = 9}}, 1, v));
  /* empty tensors flow through the engine */
  Tensor *e = tensor_zeros(DT_FLOAT32, 2, (int64_t[]){0, 3});
  ag_set_requires_grad(e, true);
  Tensor *es = ag_sum(e, NULL, 0, false);
  ck_assert(backward(es));
  ck_assert_int_eq(ag_get_grad(e)->numel, 0);
  Tensor *all[] = {es, e, idx, f64, v, x};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    tensor_release(all[i]);
}
END_TEST

/* A training-like loop: the graph of every step is freed (ASan checks leaks). */
START_TEST(loop_frees_every_graph) {
  Tensor *w = scalar(0.5, true);
  for (int step = 0; step < 100000; step++) {
    Tensor *y = ag_binary_scalar(BIN_MUL, w, 3.0);
    Tensor *z = ag_unary(UN_TANH, y);
    ck_assert(backward(z));
    tensor_release(z);
    tensor_release(y);
  }
  ck_assert_double_eq_tol(grad_at(w, 0), 100000 * 3 * (1 - pow(tanh(1.5), 2)), 200);
  tensor_release(w);
}
END_TEST

/* Nodes are sized for their own edges: a cat of 64 inputs is bigger than the
 * largest pooled size class, a select keeps its index in the node, a scalar
 * multiply its scalar. All must give the right gradients, over and over (the
 * second round reuses pooled nodes). */
START_TEST(nodes_of_every_size) {
  enum { N = 64 };
  Tensor *parts[N];
  for (int i = 0; i < N; i++)
    parts[i] = scalar(i, true);
  for (int round = 0; round < 3; round++) {
    Tensor *flat[N];
    for (int i = 0; i < N; i++)
      flat[i] = ag_unsqueeze(parts[i], 0);
    Tensor *cat = ag_cat(flat, N, 0);      /* CatBackward0 with 64 edges */
    Tensor *picked = ag_select(cat, 0, 5); /* SelectBackward0: item in the node */
    Tensor *scaled = ag_binary_scalar(BIN_MUL, picked, 3.0); /* s0 in the node */
    Tensor *total = ag_sum(cat, NULL, 0, false);
    Tensor *loss = ag_binary(BIN_ADD, scaled, total);
    ck_assert(backward(loss));
    Tensor *objs[] = {cat, picked, scaled, total, loss};
    for (int k = 0; k < 5; k++)
      tensor_release(objs[k]);
    for (int i = 0; i < N; i++)
      tensor_release(flat[i]);
  }
  for (int i = 0; i < N; i++)
    ck_assert_double_eq(grad_at(parts[i], 0), i == 5 ? 12 : 3);
  for (int i = 0; i < N; i++)
    tensor_release(parts[i]);
}
END_TEST

/* Selects add their gradient straight into the buffer of the tensor they
 * pick from (engine.c, select_into_buffer): the bits must be those of the
 * formula's zeros-with-a-block added in, which anomaly mode still uses.
 * x * -0.0 fills the buffer with -0.0 first; every select then adds +0.0
 * outside its block (turning -0.0 into +0.0) and its gradient inside. */
static Tensor *grad_through_selects(bool anomaly) {
  const double vals[12] = {1, -2, 3, 0.5, -1.5, 2.5, 4, -3, 0.25, 7, -6, 1};
  Tensor *flat = vec(12, vals, false);
  Tensor *x = tensor_reshape(flat, 2, (int64_t[]){3, 4});
  ck_assert(ag_set_requires_grad(x, true));
  Tensor *picks[3] = {ag_select(x, 1, 2), ag_select(x, 0, -1), ag_select(x, 1, 0)};
  const double scales[3] = {-0.0, 1.5, -2.25};
  Tensor *zeroed = ag_binary_scalar(BIN_MUL, x, -0.0);
  Tensor *loss = ag_sum(zeroed, NULL, 0, false);
  for (int k = 0; k < 3; k++) {
    Tensor *scaled = ag_binary_scalar(BIN_MUL, picks[k], scales[k]);
    Tensor *part = ag_sum(scaled, NULL, 0, false);
    Tensor *sum = ag_binary(BIN_ADD, loss, part);
    tensor_release(scaled);
    tensor_release(part);
    tensor_release(loss);
    tensor_release(picks[k]);
    loss = sum;
  }
  ag_set_anomaly(anomaly, false);
  ck_assert(backward(loss));
  ag_set_anomaly(false, false);
  Tensor *grad = tensor_retain(ag_get_grad(x));
  tensor_release(loss);
  tensor_release(zeroed);
  tensor_release(x);
  tensor_release(flat);
  return grad;
}

START_TEST(selects_add_into_the_buffer_bit_for_bit) {
  Tensor *fast = grad_through_selects(false);
  Tensor *formula = grad_through_selects(true);
  ck_assert_int_eq(memcmp(tensor_data(fast), tensor_data(formula), 12 * sizeof(float)), 0);
  ck_assert(!signbit(tensor_get_flat(fast, 1)));  /* -0.0 + 0.0 at (0, 1) */
  ck_assert_double_eq(tensor_get_flat(fast, 8), -0.75); /* (2, 0): 1.5 - 2.25 */
  tensor_release(fast);
  tensor_release(formula);
}
END_TEST

/* Freeing the caches while a graph is alive (a VM's teardown does, before
 * it frees the graphs) must keep the blocks its nodes were cut from: the
 * graph still runs backward, and a later call frees them once it is gone. */
START_TEST(caches_freed_under_a_live_graph) {
  Tensor *w = scalar(0.5, true);
  Tensor *y = tensor_retain(w);
  for (int i = 0; i < 2000; i++) { /* more nodes than one block holds */
    Tensor *next = ag_binary_scalar(BIN_MUL, y, 1.0);
    tensor_release(y);
    y = next;
  }
  ag_free_caches();
  Tensor *again = ag_binary_scalar(BIN_MUL, y, 2.0); /* allocates after the free */
  ag_free_caches();
  ck_assert(backward(again));
  ck_assert_double_eq(grad_at(w, 0), 2);
  tensor_release(again);
  tensor_release(y);
  ag_free_caches();
  Tensor *z = ag_binary_scalar(BIN_MUL, w, 3.0); /* from a fresh block */
  ck_assert(backward(z));
  ck_assert_double_eq(grad_at(w, 0), 5);
  tensor_release(z);
  tensor_release(w);
}
END_TEST

int main(void) {
  Suite *s = suite_create("autograd_engine");
  TCase *tc = tcase_create("engine");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, accumulates_across_backwards);
  tcase_add_test(tc, second_backward_fails_after_free);
  tcase_add_test(tc, root_errors);
  tcase_add_test(tc, million_node_chain);
  tcase_add_test(tc, diamond_and_shared_subgraphs);
  tcase_add_test(tc, leaf_switched_off_after_recording);
  tcase_add_test(tc, hooks_replace_gradients);
  tcase_add_test(tc, hooks_run_in_order_and_can_be_removed);
  tcase_add_test(tc, failing_hook_fails_backward);
  tcase_add_test(tc, hooks_removed_while_running);
  tcase_add_test(tc, version_counter_error_names_lines);
  tcase_add_test(tc, version_error_on_a_saved_input);
  tcase_add_test(tc, interrupt_stops_backward);
  tcase_add_test(tc, retained_grad_accumulates_and_follows_rebase);
  tcase_add_test(tc, create_graph_backward_keeps_history_in_grad);
  tcase_add_test(tc, inplace_on_leaf_and_non_leaf);
  tcase_add_test(tc, inplace_makes_plain_tensor_require_grad);
  tcase_add_test(tc, inplace_accumulator_chains_nodes);
  tcase_add_test(tc, copy_fill_and_index_assignment);
  tcase_add_test(tc, view_of_leaf_inplace_error);
  tcase_add_test(tc, stale_views_are_regenerated);
  tcase_add_test(tc, no_grad_and_detach);
  tcase_add_test(tc, anomaly_mode_names_the_node);
  tcase_add_test(tc, autograd_grad_and_higher_order);
  tcase_add_test(tc, grad_of_non_leaf_input_and_backward_inputs);
  tcase_add_test(tc, custom_function_nodes);
  tcase_add_test(tc, custom_function_under_create_graph);
  tcase_add_test(tc, saved_hooks_pack_and_unpack);
  tcase_add_test(tc, failing_pack_fails_the_op);
  tcase_add_test(tc, memory_stats_follow_storages);
  tcase_add_test(tc, next_functions_follow_pytorch);
  tcase_add_test(tc, floor_divide_records_not_implemented);
  tcase_add_test(tc, node_names_of_composite_ops);
  tcase_add_test(tc, bad_inputs_are_errors);
  tcase_add_test(tc, loop_frees_every_graph);
  tcase_add_test(tc, nodes_of_every_size);
  tcase_add_test(tc, caches_freed_under_a_live_graph);
  tcase_add_test(tc, selects_add_into_the_buffer_bit_for_bit);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  ag_free_caches();
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
