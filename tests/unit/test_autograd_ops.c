/* test_autograd_ops.c — every differentiable op against finite differences.
 *
 * gradcheck() builds the analytic Jacobian row by row with ag_grad (one
 * one-hot output gradient per output element) and the numerical one by
 * central differences in float64, and fails the test naming the worst entry
 * when they disagree. gradgradcheck() runs gradcheck on the function
 * "inputs -> first derivatives" computed with create_graph, so it checks the
 * formulas' own derivatives (higher order).
 *
 * Every node kind must be checked: each gradcheck marks the kinds of the
 * graph it differentiates, and after the run main() fails naming any kind
 * that no gradcheck visited and that has no stated reason in
 * unchecked_kinds[] below.
 *
 * Every gradcheck also checks forward mode: the column of the Jacobian for
 * each input element, computed as the tangent of the output when that
 * element's tangent is 1 (autograd.forward_ad), against the same central
 * differences. So each kind's jvp rule is checked wherever its vjp is (and,
 * through gradgradcheck, forward-over-reverse). A kind without a jvp rule
 * fails the run unless no_jvp_kinds[] gives the reason. The elementwise ops are checked from their
 * registry rows (ops/elementwise.h), so a new differentiable row is checked
 * without an edit here.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "autograd/autograd.h"
#include "autograd/internal.h" /* ag_jvps: each kind's jvp rule */
#include "tensor/ops.h"
#include "tensor/random.h"

typedef Tensor *(*Fn)(Tensor *const *x, void *ctx);

#define MAXIN 5 /* inputs of a function checked, and gradgradcheck's output gradient */

static Tensor *make(int ndim, const int64_t *shape, const double *vals) {
  Tensor *t = tensor_empty(DT_FLOAT64, ndim, shape);
  ck_assert_msg(t != NULL, "%s", tensor_error());
  for (int64_t i = 0; i < t->numel; i++)
    tensor_set_flat(t, i, vals[i]);
  return t;
}

/* A float64 leaf requiring grad with varied, kink-free values. */
static Tensor *leaf(int ndim, const int64_t *shape, double base) {
  int64_t n = 1;
  for (int d = 0; d < ndim; d++)
    n *= shape[d];
  double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
  for (int64_t i = 0; i < n; i++)
    v[i] = base + 0.37 * (double)i - 0.11 * (double)((i * 7) % 5);
  Tensor *t = make(ndim, shape, v);
  free(v);
  ck_assert(ag_set_requires_grad(t, true));
  return t;
}

static Tensor *output_of(Fn f, Tensor *const *x, void *ctx) {
  Tensor *out = f(x, ctx);
  ck_assert_msg(out != NULL, "forward failed: %s", tensor_error());
  return out;
}

/* Values of f with x[i] element k moved by delta. */
static Tensor *shifted_value(Fn f, Tensor *const *x, void *ctx, int i, int64_t k, double delta) {
  double old = tensor_get_flat(x[i], k);
  tensor_set_flat(x[i], k, old + delta);
  Tensor *out = output_of(f, x, ctx);
  Tensor *v = tensor_to_dtype(out, DT_FLOAT64);
  tensor_release(out);
  if (v && v->storage == x[i]->storage) { /* a view of x: keep this value */
    Tensor *copy = tensor_clone(v);
    tensor_release(v);
    v = copy;
  }
  tensor_set_flat(x[i], k, old);
  return v;
}

/* analytic[i][j][k] = d out_j / d x_i[k]; true when every input is float. */
static void analytic_jacobian(Fn f, Tensor *const *x, int n, void *ctx, int64_t m, double **jac) {
  for (int64_t j = 0; j < m; j++) {
    Tensor *out = output_of(f, x, ctx);
    if (!ag_requires_grad(out)) { /* constant in every input */
      tensor_release(out);
      continue;
    }
    Tensor *onehot = tensor_zeros(out->dtype, out->ndim, out->shape);
    tensor_set_flat(onehot, j, 1.0);
    Tensor *grads[MAXIN] = {NULL};
    bool ok = ag_grad(&out, &onehot, 1, x, n, false, false, true, grads);
    ck_assert_msg(ok, "analytic gradient failed: %s", tensor_error());
    for (int i = 0; i < n; i++) {
      for (int64_t k = 0; grads[i] && k < x[i]->numel; k++)
        jac[i][j * x[i]->numel + k] = tensor_get_flat(grads[i], k);
      tensor_release(grads[i]);
    }
    tensor_release(onehot);
    tensor_release(out);
  }
}

/* ---- the node kinds the gradchecks visit ----
 * In memory shared with main(): Check runs each test in a forked child. */
static unsigned char *kinds_visited; /* [AG_NODE_COUNT] */

/* Marks the kinds of n's graph (a bounded walk: the graphs here are small). */
static void mark_kinds(GradNode *n, int *budget) {
  if (!n || !kinds_visited || --*budget < 0) return;
  kinds_visited[grad_node_kind(n)] = 1;
  for (int i = 0; i < grad_node_num_next(n); i++)
    mark_kinds(grad_node_next(n, i, NULL), budget);
}

/* d out / d x_i[k] for every output element, by forward mode: x_i made dual
 * with a one-hot tangent. NULL when the output has no tangent (constant). */
static Tensor *jvp_column(Fn f, Tensor *const *x, int n, void *ctx, int i, int64_t k) {
  ck_assert_msg(ag_fw_enter_level() == 0, "%s", tensor_error());
  Tensor *onehot = tensor_zeros(x[i]->dtype, x[i]->ndim, x[i]->shape);
  tensor_set_flat(onehot, k, 1.0);
  Tensor *xs[MAXIN];
  for (int m = 0; m < n; m++)
    xs[m] = m == i ? ag_make_dual(x[m], onehot) : tensor_retain(x[m]);
  ck_assert_msg(xs[i] != NULL, "make_dual failed: %s", tensor_error());
  Tensor *out = f(xs, ctx);
  ck_assert_msg(out != NULL, "forward with a dual input failed: %s", tensor_error());
  Tensor *tangent = ag_fw_tangent(out);
  Tensor *col = tangent ? tensor_to_dtype(tangent, DT_FLOAT64) : NULL;
  if (col && col->numel != out->numel) col = NULL;
  tensor_release(out);
  for (int m = 0; m < n; m++)
    tensor_release(xs[m]);
  tensor_release(onehot);
  ck_assert(ag_fw_exit_level());
  return col;
}

/* False (with the worst entry in `where`) when analytic and numerical differ. */
static bool gradcheck_ok(Fn f, Tensor *const *x, int n, void *ctx, double atol, double rtol,
                         char *where, size_t cap) {
  const double eps = 1e-6;
  Tensor *out = output_of(f, x, ctx);
  int64_t m = out->numel;
  int budget = 100000;
  mark_kinds(ag_grad_fn(out), &budget);
  tensor_release(out);
  double *jac[MAXIN];
  for (int i = 0; i < n; i++)
    jac[i] = calloc((size_t)(m * x[i]->numel + 1), sizeof(double));
  analytic_jacobian(f, x, n, ctx, m, jac);
  double worst = 0;
  for (int i = 0; i < n; i++) {
    for (int64_t k = 0; k < x[i]->numel; k++) {
      Tensor *hi = shifted_value(f, x, ctx, i, k, eps), *lo = shifted_value(f, x, ctx, i, k, -eps);
      Tensor *fw = dtype_is_float(x[i]->dtype) ? jvp_column(f, x, n, ctx, i, k) : NULL;
      for (int64_t j = 0; j < m; j++) {
        double num = (tensor_get_flat(hi, j) - tensor_get_flat(lo, j)) / (2 * eps);
        double ana = jac[i][j * x[i]->numel + k];
        double fwd = fw ? tensor_get_flat(fw, j) : 0.0;
        for (int mode = 0; mode < 2; mode++) {
          double got = mode ? fwd : ana;
          double excess = fabs(got - num) - (atol + rtol * fabs(num));
          if (excess > worst || isnan(got) != isnan(num)) {
            worst = isnan(excess) ? INFINITY : excess;
            snprintf(where, cap,
                     "input %d element %lld, output %lld: %s %.10g vs numerical %.10g", i,
                     (long long)k, (long long)j, mode ? "forward-mode (jvp)" : "analytic", got,
                     num);
          }
        }
      }
      tensor_release(fw);
      tensor_release(hi);
      tensor_release(lo);
    }
  }
  for (int i = 0; i < n; i++)
    free(jac[i]);
  return worst <= 0;
}

static void gradcheck_tol(const char *name, Fn f, Tensor *const *x, int n, void *ctx, double atol,
                          double rtol) {
  char where[256] = "";
  bool ok = gradcheck_ok(f, x, n, ctx, atol, rtol, where, sizeof where);
  ck_assert_msg(ok, "gradcheck %s failed: %s", name, where);
}

static void gradcheck(const char *name, Fn f, Tensor *const *x, int n, void *ctx) {
  gradcheck_tol(name, f, x, n, ctx, 1e-5, 1e-3);
}

/* ---- gradgradcheck: the first derivatives as a function of the inputs ---- */

typedef struct {
  Fn f;
  void *ctx;
  int n;
} GG;

/* The first derivatives along the output gradient x[n], which is an input
 * too (as in PyTorch's gradgradcheck): so the formulas' dependence on the
 * gradient they are given is checked, and the double-backward nodes
 * (ReflectionPad1DBackwardBackward0, ...) are recorded and checked. */
static Tensor *first_derivatives(Tensor *const *x, void *p) {
  GG *gg = p;
  Tensor *out = output_of(gg->f, x, gg->ctx);
  Tensor *grads[MAXIN] = {NULL};
  bool ok = ag_grad(&out, &x[gg->n], 1, x, gg->n, true, true, true, grads);
  ck_assert_msg(ok, "first derivative failed: %s", tensor_error());
  Tensor *flat[MAXIN];
  for (int i = 0; i < gg->n; i++) {
    Tensor *g = grads[i] ? grads[i] : tensor_zeros(x[i]->dtype, x[i]->ndim, x[i]->shape);
    flat[i] = ag_reshape(g, 1, (int64_t[1]){-1});
    tensor_release(g);
  }
  Tensor *all = ag_cat(flat, gg->n, 0);
  for (int i = 0; i < gg->n; i++)
    tensor_release(flat[i]);
  tensor_release(out);
  return all;
}

static void gradgradcheck(const char *name, Fn f, Tensor *const *x, int n, void *ctx) {
  GG gg = {f, ctx, n};
  Tensor *out = output_of(f, x, ctx);
  Tensor *v = tensor_empty(out->dtype, out->ndim, out->shape); /* an uneven direction */
  for (int64_t i = 0; i < v->numel; i++)
    tensor_set_flat(v, i, 0.5 + 0.25 * (double)(i % 3));
  tensor_release(out);
  ck_assert(ag_set_requires_grad(v, true));
  Tensor *xs[MAXIN];
  for (int i = 0; i < n; i++)
    xs[i] = x[i];
  xs[n] = v;
  gradcheck_tol(name, first_derivatives, xs, n + 1, &gg, 1e-4, 2e-3);
  tensor_release(v);
}

static void release_all(Tensor **x, int n) {
  for (int i = 0; i < n; i++)
    tensor_release(x[i]);
}

/* Case k of a numbered family f: its first and second derivatives, then x released. */
static void check_case(const char *family, Fn f, Tensor **x, int n, int k) {
  char name[48];
  snprintf(name, sizeof name, "%s case %d", family, k);
  gradcheck(name, f, x, n, &k);
  gradgradcheck(name, f, x, n, &k);
  release_all(x, n);
}

/* ---- the functions under test ---- */

static Tensor *f_unary(Tensor *const *x, void *ctx) { return ag_unary(*(UnaryOp *)ctx, x[0]); }

/* Every differentiable unary row of the registry. */
static const UnaryOp registry_unary[] = {
#define DIFFERENTIABLE_UNARY(C, e, name, kernels, result, grad, ...) UNARY_IF_##grad(e)
#define UNARY_IF_GRAD(e) UN_##e,
#define UNARY_IF_NO_GRAD(e)
    AG_UNARY_REGISTRY(DIFFERENTIABLE_UNARY, 0)
#undef DIFFERENTIABLE_UNARY
};

/* At positive points off every kink and jump (0.23 .. 2.08, no halves): the
 * domain of sqrt and the logarithms; relu, abs, sign, floor, ceil and
 * round are smooth there (the last four with zero derivative). */
START_TEST(registry_unary_ops) {
  for (size_t i = 0; i < sizeof registry_unary / sizeof registry_unary[0]; i++) {
    UnaryOp op = registry_unary[i];
    Tensor *x = leaf(2, (int64_t[]){2, 3}, 0.23);
    gradcheck(tensor_unary_names[op], f_unary, &x, 1, &op);
    gradgradcheck(tensor_unary_names[op], f_unary, &x, 1, &op);
    tensor_release(x);
  }
}
END_TEST

START_TEST(unary_ops_below_zero) { /* the other side of abs's, relu's and gelu's kink */
  UnaryOp ops[] = {UN_ABS, UN_RELU, UN_GELU, UN_NEG, UN_TANH, UN_SIGMOID};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    Tensor *x = leaf(2, (int64_t[]){2, 3}, -2.4);
    gradcheck(tensor_unary_names[ops[i]], f_unary, &x, 1, &ops[i]);
    tensor_release(x);
  }
}
END_TEST

static Tensor *f_binary(Tensor *const *x, void *ctx) {
  return ag_binary(*(BinaryOp *)ctx, x[0], x[1]);
}

/* Every differentiable binary row of the registry (remainder has its own
 * test: its jumps need points chosen for it). */
static const BinaryOp registry_binary[] = {
#define DIFFERENTIABLE_BINARY(C, e, name, symbol, kernels, result, grad, ...) BINARY_IF_##grad(e)
#define BINARY_IF_GRAD(e) BIN_##e,
#define BINARY_IF_NO_GRAD(e)
#define BINARY_IF_NOT_IMPLEMENTED(e)
    AG_BINARY_REGISTRY(DIFFERENTIABLE_BINARY, 0)
#undef DIFFERENTIABLE_BINARY
};

START_TEST(registry_binary_ops_broadcasting) {
  int64_t shapes[][2][3] = {{{2, 3, 0}, {3, 0, 0}}, {{2, 1, 0}, {1, 3, 0}}, {{3, 0, 0}, {3, 0, 0}}};
  int nd[][2] = {{2, 1}, {2, 2}, {1, 1}};
  for (size_t i = 0; i < sizeof registry_binary / sizeof registry_binary[0]; i++) {
    BinaryOp op = registry_binary[i];
    if (op == BIN_MOD) continue;
    for (int s = 0; s < 3; s++) {
      Tensor *x[2] = {leaf(nd[s][0], shapes[s][0], 0.5), leaf(nd[s][1], shapes[s][1], 0.8)};
      gradcheck(tensor_binary_names[op], f_binary, x, 2, &op);
      gradgradcheck(tensor_binary_names[op], f_binary, x, 2, &op);
      release_all(x, 2);
    }
  }
}
END_TEST

START_TEST(remainder_op) {
  BinaryOp op = BIN_MOD;
  Tensor *x[2] = {leaf(1, (int64_t[]){4}, 2.3), leaf(1, (int64_t[]){4}, 0.7)};
  gradcheck("remainder", f_binary, x, 2, &op);
  release_all(x, 2);
}
END_TEST

typedef struct {
  BinaryOp op;
  double s;
  bool scalar_first;
} ScalarCase;

static Tensor *f_scalar(Tensor *const *x, void *ctx) {
  ScalarCase *c = ctx;
  return c->scalar_first ? ag_scalar_binary(c->op, c->s, x[0])
                         : ag_binary_scalar(c->op, x[0], c->s);
}

START_TEST(scalar_operand_ops) {
  ScalarCase cases[] = {{BIN_ADD, 2, false},    {BIN_SUB, 2, false},      {BIN_MUL, 3, false},
                        {BIN_DIV, 4, false},    {BIN_POW, 3, false},      {BIN_POW, 0.5, false},
                        {BIN_POW, 0, false},    {BIN_ADD, 2, true},       {BIN_SUB, 2, true},
                        {BIN_MUL, 3, true},     {BIN_DIV, 2, true},       {BIN_POW, 2, true},
                        {BIN_MOD, 0.65, false}, {BIN_MAXIMUM, 0.9, false}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    Tensor *x = leaf(2, (int64_t[]){2, 2}, 0.4);
    gradcheck(tensor_binary_names[cases[i].op], f_scalar, &x, 1, &cases[i]);
    if (cases[i].op != BIN_MOD && cases[i].op != BIN_MAXIMUM)
      gradgradcheck(tensor_binary_names[cases[i].op], f_scalar, &x, 1, &cases[i]);
    tensor_release(x);
  }
}
END_TEST

static Tensor *f_clamp(Tensor *const *x, void *ctx) {
  int which = *(int *)ctx;
  return which == 0   ? ag_clamp(x[0], 0.5, 1.5)
         : which == 1 ? ag_clamp_min(x[0], 0.9)
                      : ag_clamp_max(x[0], 0.9);
}

static Tensor *f_where(Tensor *const *x, void *ctx) {
  Tensor *cond = tensor_binary_scalar(BIN_GT, x[0], 0.9);
  Tensor *out = ag_where(cond, x[0], x[1]);
  tensor_release(cond);
  return out;
}

START_TEST(clamp_and_where) {
  for (int which = 0; which < 3; which++) {
    Tensor *x = leaf(1, (int64_t[]){6}, 0.3);
    gradcheck("clamp", f_clamp, &x, 1, &which);
    tensor_release(x);
  }
  Tensor *x[2] = {leaf(2, (int64_t[]){2, 3}, 0.3), leaf(1, (int64_t[]){3}, -1)};
  gradcheck("where", f_where, x, 2, NULL);
  gradgradcheck("where", f_where, x, 2, NULL);
  release_all(x, 2);
}
END_TEST

typedef struct {
  int kind; /* 0 sum 1 mean 2 var 3 std 4 norm 5 logsumexp */
  int ndims;
  int dims[2];
  bool keepdim;
  double p;
} RedCase;

static Tensor *f_reduce(Tensor *const *x, void *ctx) {
  RedCase *c = ctx;
  const int *dims = c->ndims ? c->dims : NULL;
  switch (c->kind) {
  case 0:
    return ag_sum(x[0], dims, c->ndims, c->keepdim);
  case 1:
    return ag_mean(x[0], dims, c->ndims, c->keepdim);
  case 2:
    return ag_var(x[0], dims, c->ndims, true, c->keepdim);
  case 3:
    return ag_std(x[0], dims, c->ndims, c->p == 0, c->keepdim);
  case 4:
    return ag_norm(x[0], c->p, dims, c->ndims, c->keepdim);
  default:
    return ag_logsumexp(x[0], dims, c->ndims, c->keepdim);
  }
}

START_TEST(reductions) {
  RedCase cases[] = {{0, 0, {0}, false, 0},  {0, 1, {1}, false, 0}, {0, 2, {0, 2}, true, 0},
                     {0, 1, {-1}, false, 0}, {1, 0, {0}, false, 0}, {1, 1, {0}, true, 0},
                     {2, 0, {0}, false, 0},  {2, 1, {1}, false, 0}, {3, 0, {0}, false, 0},
                     {3, 1, {2}, true, 1},   {4, 0, {0}, false, 2}, {4, 1, {1}, false, 1},
                     {4, 1, {2}, true, 3},   {5, 0, {0}, false, 0}, {5, 1, {1}, true, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    Tensor *x = leaf(3, (int64_t[]){2, 3, 2}, 0.3);
    char name[64];
    snprintf(name, sizeof name, "reduction case %zu", i);
    gradcheck(name, f_reduce, &x, 1, &cases[i]);
    gradgradcheck(name, f_reduce, &x, 1, &cases[i]);
    tensor_release(x);
  }
}
END_TEST

static Tensor *f_prod(Tensor *const *x, void *ctx) {
  int dim = *(int *)ctx;
  return ag_prod(x[0], dim, dim >= 0, false);
}

START_TEST(prod_with_and_without_zeros) {
  for (int dim = -1; dim < 2; dim++) {
    Tensor *x = leaf(2, (int64_t[]){2, 3}, 0.4);
    gradcheck("prod", f_prod, &x, 1, &dim);
    gradgradcheck("prod", f_prod, &x, 1, &dim);
    tensor_set_flat(x, 1, 0.0);
    gradcheck("prod with a zero", f_prod, &x, 1, &dim);
    tensor_set_flat(x, 4, 0.0);
    gradcheck("prod with two zeros", f_prod, &x, 1, &dim);
    tensor_release(x);
  }
}
END_TEST

static Tensor *f_extreme(Tensor *const *x, void *ctx) {
  int c = *(int *)ctx;
  Tensor *idx = NULL;
  Tensor *out = c < 2 ? (c == 0 ? ag_max : ag_min)(x[0], 0, false, false, NULL)
                      : (c == 2 ? ag_max : ag_min)(x[0], 1, true, c == 3, &idx);
  tensor_release(idx);
  return out;
}

START_TEST(max_min) {
  for (int c = 0; c < 4; c++) {
    Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
    gradcheck("max/min", f_extreme, &x, 1, &c);
    gradgradcheck("max/min", f_extreme, &x, 1, &c);
    tensor_release(x);
  }
  /* ties share the gradient evenly, as PyTorch's max() */
  Tensor *x = make(1, (int64_t[]){3}, (double[]){2, 5, 5});
  ag_set_requires_grad(x, true);
  Tensor *m = ag_max(x, 0, false, false, NULL);
  ck_assert(ag_backward(&m, NULL, 1, false, false, NULL, 0));
  ck_assert_double_eq(tensor_get_flat(ag_get_grad(x), 1), 0.5);
  ck_assert_double_eq(tensor_get_flat(ag_get_grad(x), 0), 0.0);
  tensor_release(m);
  tensor_release(x);
}
END_TEST

/* sort and topk of cos(3x), so the order is a real permutation of x. */
static Tensor *f_sort_topk(Tensor *const *x, void *ctx) {
  int c = *(int *)ctx;
  Tensor *x3 = ag_binary_scalar(BIN_MUL, x[0], 3.0);
  Tensor *a = ag_unary(UN_COS, x3);
  Tensor *idx = NULL, *out = NULL;
  switch (c) {
  case 0: out = ag_sort(a, 1, false, &idx); break;
  case 1: out = ag_sort(a, 0, true, NULL); break;
  case 2: out = ag_topk(a, 2, 1, true, &idx); break;
  case 3: out = ag_topk(a, 2, 0, false, NULL); break;
  default: out = ag_topk(a, 4, -1, true, NULL); break;
  }
  tensor_release(idx);
  tensor_release(a);
  tensor_release(x3);
  return out;
}

START_TEST(sort_and_topk) {
  for (int c = 0; c < 5; c++) {
    Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
    gradcheck("sort/topk", f_sort_topk, &x, 1, &c);
    gradgradcheck("sort/topk", f_sort_topk, &x, 1, &c);
    tensor_release(x);
  }
  Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
  Tensor *idx = NULL;
  Tensor *v = ag_sort(x, 1, false, &idx);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(v)), "SortBackward0");
  tensor_release(v);
  tensor_release(idx);
  v = ag_topk(x, 1, 0, true, NULL);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(v)), "TopkBackward0");
  tensor_release(v);
  ck_assert_ptr_null(ag_topk(x, 4, 0, true, NULL));
  ck_assert_str_eq(tensor_error(), "selected index k out of range");
  tensor_release(x);
}
END_TEST

/* kthvalue, median and mode: the selected element gets the gradient (median()
 * of everything shares it among equal elements; cos keeps them distinct, so
 * mode selects the smallest of each slice). */
static Tensor *f_select_rank(Tensor *const *x, void *ctx) {
  int c = *(int *)ctx;
  Tensor *x3 = ag_binary_scalar(BIN_MUL, x[0], 3.0);
  Tensor *a = ag_unary(UN_COS, x3);
  Tensor *idx = NULL, *out = NULL;
  switch (c) {
  case 0: out = ag_kthvalue(a, 2, 1, false, &idx); break;
  case 1: out = ag_kthvalue(a, 3, 0, true, NULL); break;
  case 2: out = ag_median(a, 1, true, false, &idx); break;
  case 3: out = ag_median(a, 0, true, true, NULL); break;
  case 4: out = ag_mode(a, 1, false, &idx); break;
  default: out = ag_median(a, 0, false, false, NULL); break;
  }
  tensor_release(idx);
  tensor_release(a);
  tensor_release(x3);
  return out;
}

START_TEST(kthvalue_and_median) {
  for (int c = 0; c < 6; c++) {
    Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
    gradcheck("kthvalue/median", f_select_rank, &x, 1, &c);
    gradgradcheck("kthvalue/median", f_select_rank, &x, 1, &c);
    tensor_release(x);
  }
}
END_TEST

/* flip, tril/triu, cumsum (cumsum of a product, so its backward's own
 * derivative is exercised too). */
static Tensor *f_reorder(Tensor *const *x, void *ctx) {
  int c = *(int *)ctx;
  Tensor *a = x[0]; /* [3, 4] */
  switch (c) {
  case 0: return ag_flip(a, (int[]){0}, 1);
  case 1: return ag_flip(a, (int[]){-1, 0}, 2);
  case 2: return ag_tril(a, 0);
  case 3: return ag_tril(a, -1);
  case 4: return ag_triu(a, 1);
  case 5: return ag_triu(a, -2);
  case 6: return ag_cumsum(a, 1, DT_COUNT);
  default: {
    Tensor *sq = ag_binary(BIN_MUL, a, a);
    Tensor *out = ag_cumsum(sq, 0, DT_COUNT);
    tensor_release(sq);
    return out;
  }
  }
}

START_TEST(flip_triangles_cumsum) {
  for (int c = 0; c < 8; c++) {
    Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
    gradcheck("flip/tril/triu/cumsum", f_reorder, &x, 1, &c);
    gradgradcheck("flip/tril/triu/cumsum", f_reorder, &x, 1, &c);
    tensor_release(x);
  }
}
END_TEST

/* cumprod (with and without zeros: the zero case's first-order kernel and
 * its create_graph composite), diag, roll, repeat, repeat_interleave, kron. */
static Tensor *f_repeat_ops(Tensor *const *x, void *ctx) {
  int c = *(int *)ctx;
  Tensor *a = x[0]; /* [3, 4] */
  switch (c) {
  case 0: return ag_cumprod(a, 1, DT_COUNT);
  case 1: return ag_cumprod(a, 0, DT_COUNT);
  case 2: return ag_diag(a, 0);
  case 3: return ag_diag(a, 1);
  case 4: return ag_diag(a, -2);
  case 5: {
    Tensor *row = ag_select(a, 0, 1);
    Tensor *out = row ? ag_diag(row, -1) : NULL;
    tensor_release(row);
    return out;
  }
  case 6: return ag_roll(a, (int64_t[]){1}, 1, (int[]){0}, 1);
  case 7: return ag_roll(a, (int64_t[]){-5, 2}, 2, (int[]){1, 0}, 2);
  case 8: return ag_roll(a, (int64_t[]){7}, 1, NULL, 0);
  case 9: return ag_repeat(a, (int64_t[]){2, 1}, 2);
  case 10: return ag_repeat(a, (int64_t[]){2, 3, 2}, 3);
  case 11: {
    Tensor *r = tensor_scalar(DT_INT64, 2);
    Tensor *out = ag_repeat_interleave(a, r, 0, true, -1);
    tensor_release(r);
    return out;
  }
  case 12: {
    Tensor *r = tensor_empty(DT_INT64, 1, (int64_t[]){4});
    for (int i = 0; i < 4; i++) tensor_set_flat_int(r, i, i % 3);
    Tensor *out = ag_repeat_interleave(a, r, -1, true, -1);
    tensor_release(r);
    return out;
  }
  case 13: {
    Tensor *r = tensor_scalar(DT_INT64, 3);
    Tensor *out = ag_repeat_interleave(a, r, 0, false, -1);
    tensor_release(r);
    return out;
  }
  default: {
    Tensor *sq = ag_binary(BIN_MUL, a, a);
    Tensor *out = ag_cumprod(sq, 1, DT_COUNT);
    tensor_release(sq);
    return out;
  }
  }
}

START_TEST(repeat_ops) {
  static const double zeros[12] = {0.5, 0, 1.5, -2, 0, 1.25, 0, 0.75, 3, -0.5, 0, 2};
  for (int c = 0; c < 15; c++) {
    Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
    gradcheck("cumprod/diag/roll/repeat/repeat_interleave", f_repeat_ops, &x, 1, &c);
    gradgradcheck("cumprod/diag/roll/repeat/repeat_interleave", f_repeat_ops, &x, 1, &c);
    tensor_release(x);
  }
  for (int c = 0; c < 2; c++) {
    Tensor *x = make(2, (int64_t[]){3, 4}, zeros);
    ck_assert(ag_set_requires_grad(x, true));
    gradcheck("cumprod with zeros", f_repeat_ops, &x, 1, &c);
    gradgradcheck("cumprod with zeros", f_repeat_ops, &x, 1, &c);
    tensor_release(x);
  }
}
END_TEST

/* kron of two inputs of different ranks; einsum's equations of one, two
 * and three operands (diagonals, ellipsis, broadcasting, sums). */
static Tensor *f_kron(Tensor *const *x, void *ctx) { return ag_kron(x[0], x[1]); }

static const char *const einsum_cases[] = {
    "ij,jk->ik", "ij,kj", "ii->i", "ii", "ij->", "i...,i...->...", "ij,j", "ij,ik->jki",
    "ij,jk,kl->il", "i,i,j->j"};
static Tensor *f_einsum(Tensor *const *x, void *ctx) {
  int c = *(int *)ctx;
  const char *eq = einsum_cases[c];
  int nops = 1;
  for (const char *p = eq; *p && *p != '-'; p++) nops += *p == ',';
  return ag_einsum(eq, x, nops);
}

START_TEST(kron_and_einsum) {
  Tensor *k[2] = {leaf(2, (int64_t[]){2, 3}, 0.2), leaf(1, (int64_t[]){2}, -0.4)};
  gradcheck("kron", f_kron, k, 2, NULL);
  gradgradcheck("kron", f_kron, k, 2, NULL);
  tensor_release(k[0]);
  tensor_release(k[1]);
  static const int shapes[][3][2] = {
      {{3, 3}, {3, 3}}, {{3, 2}, {4, 2}}, {{3, 3}}, {{3, 3}}, {{2, 3}}, {{3, 2}, {3, 2}},
      {{2, 3}, {3}}, {{3, 2}, {3, 4}}, {{2, 3}, {3, 3}, {3, 2}}, {{3}, {3}, {2}}};
  static const int nops[] = {2, 2, 1, 1, 1, 2, 2, 2, 3, 3};
  for (int c = 0; c < 10; c++) {
    Tensor *x[3] = {NULL};
    for (int i = 0; i < nops[c]; i++) {
      int ndim = shapes[c][i][1] ? 2 : 1;
      x[i] = leaf(ndim, (int64_t[]){shapes[c][i][0], shapes[c][i][1]}, 0.3 - 0.2 * i);
    }
    gradcheck(einsum_cases[c], f_einsum, x, nops[c], &c);
    gradgradcheck(einsum_cases[c], f_einsum, x, nops[c], &c);
    for (int i = 0; i < nops[c]; i++) tensor_release(x[i]);
  }
}
END_TEST

/* amax/amin over one dim, two dims, all; and ties sharing the gradient. */
static Tensor *f_amax(Tensor *const *x, void *ctx) {
  int c = *(int *)ctx;
  switch (c) {
  case 0: return ag_amax(x[0], (int[]){1}, 1, false);
  case 1: return ag_amin(x[0], (int[]){0}, 1, true);
  case 2: return ag_amax(x[0], (int[]){0, -1}, 2, false);
  case 3: return ag_amin(x[0], NULL, 0, false);
  default: return ag_trace(x[0]);
  }
}

START_TEST(amax_amin) {
  for (int c = 0; c < 5; c++) {
    Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
    gradcheck("amax/amin/trace", f_amax, &x, 1, &c);
    gradgradcheck("amax/amin", f_amax, &x, 1, &c);
    tensor_release(x);
  }
  Tensor *x = make(2, (int64_t[]){2, 3}, (double[]){2, 5, 5, 1, 1, 0});
  ag_set_requires_grad(x, true);
  Tensor *m = ag_amax(x, (int[]){1}, 1, false);
  ck_assert_str_eq(grad_node_name(ag_grad_fn(m)), "AmaxBackward0");
  Tensor *sum = ag_sum(m, NULL, 0, false);
  ck_assert(ag_backward(&sum, NULL, 1, false, false, NULL, 0));
  const double want[6] = {0, 0.5, 0.5, 0.5, 0.5, 0};
  for (int i = 0; i < 6; i++) ck_assert_double_eq(tensor_get_flat(ag_get_grad(x), i), want[i]);
  tensor_release(sum);
  tensor_release(m);
  tensor_release(x);
}
END_TEST

typedef struct {
  int kind;
} ShapeCase;

static Tensor *f_shape(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  Tensor *a = x[0]; /* shape [2, 3, 4] */
  switch (k) {
  case 0:
    return ag_reshape(a, 2, (int64_t[]){4, -1});
  case 1:
    return ag_view(a, 2, (int64_t[]){6, 4});
  case 2:
    return ag_flatten(a, 1, 2);
  case 3:
    return ag_transpose(a, 0, 2);
  case 4:
    return ag_permute(a, (int[]){2, 0, 1}, 3);
  case 5:
    return ag_unsqueeze(a, 1);
  case 6: {
    Tensor *u = ag_unsqueeze(a, 0);
    Tensor *r = ag_squeeze(u, 0, true);
    tensor_release(u);
    return r;
  }
  case 7: {
    Tensor *s = ag_select(a, 1, 1);
    Tensor *r = ag_t(s);
    tensor_release(s);
    return r;
  }
  case 8: {
    Tensor *s = ag_slice(a, 2, 0, 1, 1);
    Tensor *r = ag_expand(s, 4, (int64_t[]){2, 2, 3, 5});
    tensor_release(s);
    return r;
  }
  case 9: { /* reshape of a non-contiguous tensor copies */
    Tensor *t = ag_transpose(a, 0, 1);
    Tensor *r = ag_reshape(t, 1, (int64_t[]){24});
    tensor_release(t);
    return r;
  }
  case 10: {
    Tensor *t = ag_transpose(a, 1, 2);
    Tensor *r = ag_contiguous(t);
    tensor_release(t);
    return r;
  }
  default:
    return ag_squeeze(a, 0, false);
  }
}

START_TEST(shape_ops) {
  for (int k = 0; k < 12; k++) {
    Tensor *x = leaf(3, (int64_t[]){2, 3, 4}, 0.1);
    char name[32];
    snprintf(name, sizeof name, "shape case %d", k);
    gradcheck(name, f_shape, &x, 1, &k);
    if (k % 3 == 0) gradgradcheck(name, f_shape, &x, 1, &k);
    tensor_release(x);
  }
}
END_TEST

/* Weighted sum of all pieces, so each piece's gradient differs. */
static Tensor *weigh_pieces(Tensor **pieces, int count) {
  Tensor *total = NULL;
  for (int i = 0; i < count; i++) {
    Tensor *w = ag_binary_scalar(BIN_MUL, pieces[i], (double)(i + 1));
    Tensor *s = ag_sum(w, NULL, 0, false);
    Tensor *t = total ? ag_binary(BIN_ADD, total, s) : tensor_retain(s);
    tensor_release(total);
    tensor_release(w);
    tensor_release(s);
    total = t;
    tensor_release(pieces[i]);
  }
  free(pieces);
  return total;
}

static Tensor *f_join(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  Tensor **pieces = NULL;
  int count;
  switch (k) {
  case 0:
    return ag_cat(x, 2, 1);
  case 1: {
    Tensor *y = ag_binary_scalar(BIN_MUL, x[1], 2);
    Tensor *ins[2] = {x[0], y};
    Tensor *r = ag_stack(ins, 2, 1);
    tensor_release(y);
    return r;
  }
  case 2:
    count = ag_split(x[0], 2, 0, &pieces);
    break;
  case 3:
    count = ag_split_sizes(x[1], (int64_t[]){1, 2}, 2, 1, &pieces);
    break;
  case 4:
    count = ag_chunk(x[0], 2, 1, &pieces);
    break;
  default:
    count = ag_unbind(x[0], 1, &pieces);
    break;
  }
  ck_assert_msg(count > 0, "%s", tensor_error());
  /* only some pieces used: the others get zeros */
  if (k == 5 && count > 2) {
    tensor_release(pieces[1]);
    pieces[1] = ag_binary_scalar(BIN_MUL, pieces[0], 0.0);
  }
  return weigh_pieces(pieces, count);
}

/* cat and stack of more inputs than a derivative formula's scope holds
 * temporaries: each input gets its slice of the gradient */
START_TEST(join_of_many_inputs) {
  enum { N = 200 };
  for (int stack = 0; stack < 2; stack++) {
    Tensor *x[N];
    for (int i = 0; i < N; i++) x[i] = leaf(1, (int64_t[]){2}, 0.01 * i);
    Tensor *joined = stack ? ag_stack(x, N, 0) : ag_cat(x, N, 0);
    ck_assert_msg(joined != NULL, "%s", tensor_error());
    Tensor *sq = ag_binary(BIN_MUL, joined, joined);
    Tensor *sum = ag_sum(sq, NULL, 0, false);
    ck_assert_msg(ag_backward(&sum, NULL, 1, false, false, NULL, 0), "%s", tensor_error());
    for (int i = 0; i < N; i += 37) {
      const Tensor *g = ag_get_grad(x[i]);
      ck_assert(g != NULL);
      for (int j = 0; j < 2; j++)
        ck_assert_double_eq_tol(tensor_get_flat(g, j), 2 * tensor_get_flat(x[i], j), 1e-12);
    }
    tensor_release(sum);
    tensor_release(sq);
    tensor_release(joined);
    for (int i = 0; i < N; i++) tensor_release(x[i]);
  }
}
END_TEST

START_TEST(join_and_split) {
  for (int k = 0; k < 6; k++) {
    Tensor *x[2] = {leaf(2, (int64_t[]){3, 3}, 0.1), leaf(2, (int64_t[]){3, 3}, 0.7)};
    gradcheck("join/split", f_join, x, 2, &k);
    gradgradcheck("join/split", f_join, x, 2, &k);
    release_all(x, 2);
  }
}
END_TEST

static IndexItem it_int(int64_t i) { return (IndexItem){.kind = IDX_INT, .i = i}; }
static IndexItem it_slice(int64_t a, int64_t b, int64_t s) {
  return (IndexItem){
      .kind = IDX_SLICE, .start = a, .stop = b, .step = s, .has_start = true, .has_stop = true};
}
static IndexItem it_all(void) { return (IndexItem){.kind = IDX_SLICE, .step = 1}; }
static IndexItem it_tensor(const Tensor *t) { return (IndexItem){.kind = IDX_TENSOR, .tensor = t}; }

static Tensor *f_index(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  Tensor *a = x[0]; /* [3, 4] */
  Tensor *idx = tensor_empty(DT_INT64, 1, (int64_t[]){3});
  tensor_set_flat(idx, 0, 2), tensor_set_flat(idx, 1, 0), tensor_set_flat(idx, 2, 2);
  Tensor *out = NULL;
  switch (k) {
  case 0:
    out = ag_index(a, (IndexItem[]){it_int(-1)}, 1);
    break;
  case 1:
    out = ag_index(a, (IndexItem[]){it_all(), it_slice(1, 4, 2)}, 2);
    break;
  case 2:
    out = ag_index(a, (IndexItem[]){it_slice(0, 3, 2), it_int(1)}, 2);
    break;
  case 3:
    out = ag_index(a, (IndexItem[]){it_tensor(idx)}, 1);
    break; /* repeated rows */
  case 4: {
    Tensor *mask = tensor_binary_scalar(BIN_GT, a, 1.5);
    out = ag_index(a, (IndexItem[]){it_tensor(mask)}, 1);
    tensor_release(mask);
    break;
  }
  case 5:
    out = ag_index(a, (IndexItem[]){it_all(), it_tensor(idx)}, 2);
    break;
  case 6:
    out = ag_index_select(a, 1, idx);
    break;
  case 7: {
    Tensor *gi = tensor_empty(DT_INT64, 2, (int64_t[]){3, 2});
    for (int i = 0; i < 6; i++)
      tensor_set_flat(gi, i, (i * 3) % 4);
    out = ag_gather(a, 1, gi);
    tensor_release(gi);
    break;
  }
  case 8:
    out = ag_index(a, (IndexItem[]){{.kind = IDX_NEWAXIS}, it_int(1)}, 2);
    break;
  default:
    out = ag_index(a, (IndexItem[]){{.kind = IDX_ELLIPSIS}, it_int(2)}, 2);
    break;
  }
  tensor_release(idx);
  return out;
}

START_TEST(indexing) {
  for (int k = 0; k < 10; k++) {
    Tensor *x = leaf(2, (int64_t[]){3, 4}, 0.1);
    char name[32];
    snprintf(name, sizeof name, "index case %d", k);
    gradcheck(name, f_index, &x, 1, &k);
    gradgradcheck(name, f_index, &x, 1, &k);
    tensor_release(x);
  }
}
END_TEST

/* y = x * 1; y[items] = v * 2: CopySlices / IndexPutBackward0. */
static Tensor *f_index_put(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  Tensor *y = ag_binary_scalar(BIN_MUL, x[0], 1.0);
  Tensor *v = ag_binary_scalar(BIN_MUL, x[1], 2.0);
  Tensor *idx = tensor_empty(DT_INT64, 1, (int64_t[]){2});
  tensor_set_flat(idx, 0, 2), tensor_set_flat(idx, 1, 0);
  bool ok = k == 0 ? ag_index_put_(y, (IndexItem[]){it_int(1)}, 1, v)
                   : ag_index_put_(y, (IndexItem[]){it_tensor(idx)}, 1, v);
  ck_assert_msg(ok, "%s", tensor_error());
  tensor_release(v);
  tensor_release(idx);
  Tensor *out = ag_binary(BIN_MUL, y, y);
  tensor_release(y);
  return out;
}

/* Writes through views of a non-leaf reach the base (CopySlices on the base). */
static Tensor *f_view_write(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  Tensor *y = ag_binary_scalar(BIN_MUL, x[0], 2.0); /* [3, 4] */
  Tensor *v = k == 0 ? ag_select(y, 0, 1) : ag_transpose(y, 0, 1);
  bool ok;
  if (k == 0) {
    ok = ag_binary_(BIN_MUL, v, x[1]); /* row 1 *= x1 */
  } else {
    IndexItem items[2] = {{.kind = IDX_INT, .i = 2}, {.kind = IDX_INT, .i = 0}};
    Tensor *w = ag_select(x[1], 0, 3);
    ok = ag_index_put_(v, items, 2, w); /* y[0, 2] = x1[3] through y.T */
    tensor_release(w);
  }
  ck_assert_msg(ok, "%s", tensor_error());
  ck_assert_str_eq(grad_node_name(ag_grad_fn(y)), "CopySlices");
  Tensor *yy = ag_binary(BIN_MUL, y, y), *vv = ag_unary(UN_SIN, v);
  Tensor *a = ag_sum(yy, NULL, 0, false), *b = ag_sum(vv, NULL, 0, false);
  Tensor *out = ag_binary(BIN_ADD, a, b);
  Tensor *all[] = {y, v, yy, vv, a, b};
  for (int i = 0; i < 6; i++)
    tensor_release(all[i]);
  return out;
}

START_TEST(writes_through_views) {
  for (int k = 0; k < 2; k++) {
    Tensor *x[2] = {leaf(2, (int64_t[]){3, 4}, 0.1), leaf(1, (int64_t[]){4}, 0.5)};
    gradcheck("write through a view", f_view_write, x, 2, &k);
    gradgradcheck("write through a view", f_view_write, x, 2, &k);
    release_all(x, 2);
  }
}
END_TEST

START_TEST(index_assignment) {
  for (int k = 0; k < 2; k++) {
    Tensor *x[2] = {leaf(2, (int64_t[]){3, 4}, 0.1), leaf(1, (int64_t[]){4}, 0.5)};
    gradcheck("index_put_", f_index_put, x, 2, &k);
    release_all(x, 2);
  }
}
END_TEST

static Tensor *f_matmul(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  switch (k) {
  case 7:
    return ag_mm(x[0], x[1]);
  case 8:
    return ag_bmm(x[0], x[1]);
  case 9:
    return ag_mv(x[0], x[1]);
  case 10:
    return ag_dot(x[0], x[1]);
  case 11:
    return ag_outer(x[0], x[1]);
  default:
    return ag_matmul(x[0], x[1]);
  }
}

START_TEST(matrix_products) {
  struct {
    int na, nb;
    int64_t a[3], b[3];
  } cases[] = {{1, 1, {3}, {3}},          {2, 1, {2, 3}, {3}},       {1, 2, {3}, {3, 2}},
               {2, 2, {2, 3}, {3, 2}},    {3, 2, {2, 2, 3}, {3, 2}}, {3, 3, {2, 2, 3}, {2, 3, 2}},
               {2, 3, {2, 3}, {2, 3, 2}}, {2, 2, {2, 3}, {3, 4}},    {3, 3, {2, 2, 3}, {2, 3, 2}},
               {2, 1, {2, 3}, {3}},       {1, 1, {4}, {4}},          {1, 1, {2}, {3}},
               {3, 1, {2, 2, 3}, {3}}};
  for (int k = 0; k < 13; k++) {
    Tensor *x[2] = {leaf(cases[k].na, cases[k].a, 0.2), leaf(cases[k].nb, cases[k].b, -0.4)};
    check_case("matmul", f_matmul, x, 2, k);
  }
}
END_TEST

static Tensor *f_linear(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  return k == 0 ? ag_addmm(x[2], x[0], x[1]) : ag_linear(x[0], x[1], k == 4 ? NULL : x[2]);
}

START_TEST(addmm_and_linear) {
  struct {
    int nx;
    int64_t xs[3];
  } cases[] = {{2, {2, 3}}, {2, {4, 3}}, {3, {2, 2, 3}}, {1, {3}}, {2, {2, 3}}};
  for (int k = 0; k < 5; k++) {
    Tensor *x[3] = {leaf(cases[k].nx, cases[k].xs, 0.2), leaf(2, (int64_t[]){2, 3}, -0.3),
                    leaf(1, (int64_t[]){2}, 0.5)};
    if (k == 0) { /* addmm: x [2,3] @ w [3,2] */
      tensor_release(x[1]);
      x[1] = leaf(2, (int64_t[]){3, 2}, -0.3);
    }
    char name[32];
    snprintf(name, sizeof name, "linear case %d", k);
    gradcheck(name, f_linear, x, 3, &k);
    gradgradcheck(name, f_linear, x, 3, &k);
    Tensor *y = f_linear(x, &k);
    const char *want[] = {"AddmmBackward0", "AddmmBackward0", "ViewBackward0", "AddBackward0",
                          "MmBackward0"};
    ck_assert_str_eq(grad_node_name(ag_grad_fn(y)), want[k]);
    tensor_release(y);
    release_all(x, 3);
  }
}
END_TEST

START_TEST(strided_leaf_inputs) {
  /* a non-contiguous leaf (a transposed view) as the input */
  Tensor *base = leaf(2, (int64_t[]){3, 2}, 0.2);
  ag_set_requires_grad(base, false);
  Tensor *x[2] = {tensor_transpose(base, 0, 1), leaf(2, (int64_t[]){3, 2}, 0.1)};
  ag_set_requires_grad(x[0], true);
  int k = 7;
  gradcheck("mm of a transposed leaf", f_matmul, x, 2, &k);
  BinaryOp op = BIN_MUL;
  Tensor *y[2] = {x[0], tensor_t(x[1])};
  ag_set_requires_grad(y[1], true);
  gradcheck("mul of strided leaves", f_binary, y, 2, &op);
  tensor_release(y[1]);
  release_all(x, 2);
  tensor_release(base);
}
END_TEST

static Tensor *f_nn(Tensor *const *x, void *ctx) {
  int k = *(int *)ctx;
  Tensor *target = tensor_empty(DT_INT64, 1, (int64_t[]){2});
  tensor_set_flat(target, 0, 2), tensor_set_flat(target, 1, 0);
  Tensor *out = NULL;
  switch (k) {
  case 0:
    out = ag_softmax(x[0], 1);
    break;
  case 1:
    out = ag_log_softmax(x[0], 0);
    break;
  case 2:
    out = ag_mse_loss(x[0], x[1], RED_MEAN);
    break;
  case 3:
    out = ag_mse_loss(x[0], x[1], RED_NONE);
    break;
  case 4:
    out = ag_l1_loss(x[0], x[1], RED_SUM);
    break;
  case 5:
    out = ag_cross_entropy(x[0], target, RED_MEAN);
    break;
  case 6: {
    Tensor *lp = ag_log_softmax(x[0], 1);
    out = ag_nll_loss(lp, target, RED_NONE);
    tensor_release(lp);
    break;
  }
  case 7:
    out = ag_cross_entropy(x[0], target, RED_SUM);
    break;
  default: { /* binary cross entropy on probabilities in (0, 1) */
    Tensor *p = ag_unary(UN_SIGMOID, x[0]);
    Tensor *t = ag_unary(UN_SIGMOID, x[1]);
    out = ag_binary_cross_entropy(p, t, NULL, k == 8 ? RED_MEAN : RED_NONE);
    tensor_release(p);
    tensor_release(t);
  }
  }
  tensor_release(target);
  return out;
}

START_TEST(nn_functions) {
  for (int k = 0; k < 10; k++) {
    Tensor *x[2] = {leaf(2, (int64_t[]){2, 3}, -0.3), leaf(2, (int64_t[]){2, 3}, 0.2)};
    char name[32];
    snprintf(name, sizeof name, "nn case %d", k);
    gradcheck(name, f_nn, x, 2, &k);
    if (k != 4) gradgradcheck(name, f_nn, x, 2, &k);
    release_all(x, 2);
  }
}
END_TEST

static Tensor *f_dropout(Tensor *const *x, void *ctx) {
  TensorRng rng;
  rng_seed(&rng, 7); /* the same mask on every call */
  return ag_dropout(&rng, x[0], 0.5, true);
}

static Tensor *f_dtype(Tensor *const *x, void *ctx) {
  Tensor *f = ag_to_dtype(x[0], DT_FLOAT32);
  Tensor *sq = ag_binary(BIN_MUL, f, f);
  Tensor *out = ag_to_dtype(sq, DT_FLOAT64);
  tensor_release(f);
  tensor_release(sq);
  return out;
}

START_TEST(dropout_and_dtype) {
  Tensor *x = leaf(1, (int64_t[]){8}, 0.3);
  gradcheck("dropout", f_dropout, &x, 1, NULL);
  /* through float32 (finite differences are too coarse there): d(x^2) = 2x,
   * and the gradient reaching the float64 leaf is float64 */
  Tensor *y = f_dtype(&x, NULL);
  Tensor *s = ag_sum(y, NULL, 0, false);
  ck_assert(ag_backward(&s, NULL, 1, false, false, NULL, 0));
  ck_assert_int_eq(ag_get_grad(x)->dtype, DT_FLOAT64);
  for (int64_t i = 0; i < x->numel; i++)
    ck_assert_double_eq_tol(tensor_get_flat(ag_get_grad(x), i), 2 * tensor_get_flat(x, i), 1e-5);
  tensor_release(s);
  tensor_release(y);
  tensor_release(x);
}
END_TEST

static Tensor *f_inplace(Tensor *const *x, void *ctx) {
  Tensor *y = ag_binary_scalar(BIN_MUL, x[0], 1.0);
  ck_assert(ag_binary_(BIN_MUL, y, x[1]));
  ck_assert(ag_binary_scalar_(BIN_ADD, y, 0.5));
  /* sin_ saves its input (a copy of the old y); sigmoid_ would save y itself,
   * which div_ overwrites: backward then fails, as in PyTorch */
  ck_assert(ag_unary_(UN_SIN, y));
  ck_assert(ag_binary_(BIN_DIV, y, x[0]));
  ck_assert(ag_clamp_(y, 0.0, 10.0));
  ck_assert(ag_binary_scalar_(BIN_POW, y, 2.0));
  return y;
}

START_TEST(in_place_chain) {
  Tensor *x[2] = {leaf(1, (int64_t[]){4}, 0.4), leaf(1, (int64_t[]){4}, -0.2)};
  gradcheck("in-place chain", f_inplace, x, 2, NULL);
  gradgradcheck("in-place chain", f_inplace, x, 2, NULL);
  release_all(x, 2);
}
END_TEST

/* ---- the remaining node kinds, one case each ---- */

static Tensor *int_tensor(int ndim, const int64_t *shape, const double *vals) {
  Tensor *t = tensor_empty(DT_INT64, ndim, shape);
  ck_assert(t != NULL);
  for (int64_t i = 0; i < t->numel; i++)
    tensor_set_flat(t, i, vals[i]);
  return t;
}

/* x reshaped to [1, 1, 2, 3] (planes for the windows and the 2-D pads) */
static Tensor *plane(Tensor *x) { return ag_reshape(x, 4, (int64_t[]){1, 1, 2, 3}); }

static const TensorWindow window_1x2 = {
    .kernel = {1, 2}, .stride = {1, 1}, .padding = {0, 0}, .dilation = {1, 1}};

static Tensor *f_more(Tensor *const *x, void *ctx) {
  Tensor *a = x[0], *b = x[1], *t = NULL, *u = NULL, *out = NULL;
  const int64_t s23[] = {2, 3};
  switch (*(int *)ctx) {
  case 0: return ag_clamp_tensor(a, b, NULL); /* ClampBackward0 */
  case 1: { /* MaskedFillBackward0: a number; MaskedFillBackward1: a 0-d tensor with history */
    Tensor *mask = tensor_binary_scalar(BIN_GT, a, 0.0);
    Tensor *v = ag_sum(b, NULL, 0, false);
    t = tensor_scalar(DT_FLOAT64, 0.7);
    u = ag_masked_fill(a, mask, t, false);
    tensor_release(t);
    out = ag_masked_fill(u, mask, v, true);
    tensor_release(u);
    tensor_release(v);
    tensor_release(mask);
    return out;
  }
  case 2: return ag_constant_pad(a, 2, (int64_t[]){1, 2}, 0.5);
  case 3: return ag_mode_pad(a, 2, (int64_t[]){1, 1}, true);  /* ReflectionPad1D */
  case 4: return ag_mode_pad(a, 2, (int64_t[]){1, 2}, false); /* ReplicationPad1D */
  case 5:
  case 6: { /* ReflectionPad2D / ReplicationPad2D over [1, 2, 3] */
    t = ag_reshape(a, 3, (int64_t[]){1, 2, 3});
    out = ag_mode_pad(t, 4, (int64_t[]){1, 1, 1, 1}, *(int *)ctx == 5);
    tensor_release(t);
    return out;
  }
  case 7:
  case 8: { /* ReflectionPad3D / ReplicationPad3D over [1, 1, 2, 3] */
    t = plane(a);
    out = ag_mode_pad(t, 6, (int64_t[]){1, 1, 1, 1, 0, 0}, *(int *)ctx == 7);
    tensor_release(t);
    return out;
  }
  case 9: return ag_fused(FUSED_ADDCMUL, a, b, a, 0.5);
  case 10: return ag_fused(FUSED_ADDCDIV, a, a, b, 0.5);
  case 11: return ag_fused(FUSED_LERP, a, b, NULL, 0.3);
  case 12: return ag_fused(FUSED_LERP_TENSOR, a, b, b, 0);
  case 13: { /* ScatterAddBackward0 */
    Tensor *idx = int_tensor(2, s23, (double[]){1, 0, 1, 0, 0, 1});
    out = ag_scatter_add(a, 0, idx, b);
    tensor_release(idx);
    return out;
  }
  case 14:
  case 15: { /* ScatterBackward0 (src), ScatterBackward1 (a value) */
    Tensor *idx = int_tensor(2, s23, (double[]){1, 0, 1, 0, 1, 0});
    bool src = *(int *)ctx == 14;
    out = ag_scatter(a, 0, idx, src ? b : NULL, 0.5, SCATTER_SET, false);
    tensor_release(idx);
    return out;
  }
  case 16: { /* IndexAddBackward0 */
    Tensor *idx = int_tensor(1, (int64_t[]){3}, (double[]){2, 0, 1});
    out = ag_index_add(a, 1, idx, b, 2.0);
    tensor_release(idx);
    return out;
  }
  case 17: { /* EmbeddingBackward0 */
    Tensor *idx = int_tensor(1, (int64_t[]){3}, (double[]){1, 0, 1});
    out = ag_embedding(a, idx);
    tensor_release(idx);
    return out;
  }
  case 18: { /* ConvolutionBackward0: weight [2, 1, 1, 3] */
    t = plane(a);
    u = ag_reshape(b, 4, (int64_t[]){2, 1, 1, 3});
    TensorWindow w = {.kernel = {1, 3}, .stride = {1, 1}, .padding = {0, 0}, .dilation = {1, 1}};
    out = ag_convolution(t, u, NULL, &w, 1);
    break;
  }
  case 19: t = plane(a); out = ag_max_pool2d(t, &window_1x2, NULL); break;
  case 20: t = plane(a); out = ag_avg_pool2d(t, &window_1x2, true, 0); break;
  case 21: t = plane(a); out = ag_adaptive_avg_pool2d(t, 1, 2); break;
  case 22: return ag_batch_norm(a, NULL, NULL, NULL, NULL, true, 0.1, 1e-5);
  case 23: return ag_layer_norm(a, 1, (int64_t[]){3}, NULL, NULL, 1e-5);
  case 24: return ag_group_norm(a, 1, NULL, NULL, 1e-5);
  case 25: return ag_smooth_l1_loss(a, b, 1.0, RED_MEAN);
  case 26: return ag_huber_loss(a, b, 0.5, RED_SUM);
  case 27: { /* BinaryCrossEntropyWithLogitsBackward0 */
    Tensor *target = make(2, s23, (double[]){0, 1, 0.25, 1, 0, 0.5});
    out = ag_binary_cross_entropy_with_logits(a, target, NULL, NULL, RED_MEAN);
    tensor_release(target);
    return out;
  }
  case 28: { /* Im2ColBackward0 and Col2ImBackward0 */
    t = plane(a);
    u = ag_im2col(t, &window_1x2);
    out = ag_col2im(u, 2, 3, &window_1x2);
    break;
  }
  case 29: { /* NllLoss2DBackward0: [N, C, H, W] log-probabilities */
    Tensor *target = int_tensor(3, (int64_t[]){1, 1, 3}, (double[]){0, 1, 1});
    t = ag_reshape(a, 4, (int64_t[]){1, 2, 1, 3});
    out = ag_nll_loss(t, target, RED_MEAN);
    tensor_release(target);
    break;
  }
  case 30: { /* MulBackward1 and DivBackward1: cross_entropy with probabilities, smoothed */
    Tensor *target = make(2, s23, (double[]){0.2, 0.3, 0.5, 0.6, 0.3, 0.1});
    out = ag_cross_entropy_with(a, target, NULL, -100, 0.1, RED_MEAN);
    tensor_release(target);
    return out;
  }
  case 31: { /* CopyBackwards: copy_ of b into a's copy */
    t = ag_binary_scalar(BIN_MUL, a, 1.0);
    ck_assert(ag_copy_(t, b));
    return t;
  }
  case 32: { /* MulBackward1: cross_entropy with class indices, smoothed */
    Tensor *target = int_tensor(1, (int64_t[]){2}, (double[]){2, 0});
    out = ag_cross_entropy_with(a, target, NULL, -100, 0.1, RED_MEAN);
    tensor_release(target);
    return out;
  }
  case 33: { /* AliasBackward0: a[...] */
    IndexItem all = {.kind = IDX_ELLIPSIS};
    t = ag_index(a, &all, 1);
    out = ag_binary(BIN_MUL, t, b);
    break;
  }
  case 34:
  case 35:
  case 36:
  case 37: { /* Fill/Zero/Uniform/NormalBackward0: the old values' gradient is zero */
    TensorRng rng;
    rng_seed(&rng, 3); /* the same values on every call */
    t = ag_binary_scalar(BIN_MUL, a, 1.0);
    int k = *(int *)ctx;
    ck_assert(k == 34   ? ag_fill_(t, 0.5)
              : k == 35 ? ag_zero_(t)
              : k == 36 ? ag_uniform_(&rng, t, -1, 1)
                        : ag_normal_(&rng, t, 0, 1));
    out = ag_binary(BIN_MUL, t, b);
    break;
  }
  default: return NULL;
  }
  tensor_release(t);
  tensor_release(u);
  return out;
}

/* Every row of ops/activations.h, with its row's test parameters, and
 * whether it has an in-place form. */
static const struct {
  AgActivation a;
  double p[AG_ACT_MAX_PARAMS];
  bool inplace;
} registry_activations[] = {
#define ACTIVATION_TEST(C, NAME, name, node, formula, inplace, inode, iformula, params, test, ...) \
  {AG_ACT_##NAME, ACTIVATION_TEST_##test, ACTIVATION_INPLACE_##inplace},
#define ACTIVATION_TEST_TEST(p0, p1) {p0, p1}
#define ACTIVATION_INPLACE_INPLACE true
#define ACTIVATION_INPLACE_INPLACE_OWN_NODE true
#define ACTIVATION_INPLACE_NO_INPLACE false
    AG_ACTIVATION_REGISTRY(ACTIVATION_TEST, 0)
#undef ACTIVATION_TEST
};

static Tensor *f_activation(Tensor *const *x, void *ctx) {
  size_t row = *(size_t *)ctx;
  return ag_activation(registry_activations[row].a, x[0], registry_activations[row].p);
}

/* The in-place form, on a copy of x (a leaf cannot be written in place). */
static Tensor *f_activation_(Tensor *const *x, void *ctx) {
  size_t row = *(size_t *)ctx;
  Tensor *y = ag_binary_scalar(BIN_MUL, x[0], 1.0);
  if (y && !ag_activation_(registry_activations[row].a, y, registry_activations[row].p)) {
    tensor_release(y);
    return NULL;
  }
  return y;
}

/* values of both signs, none at a kink or a bound of the row's parameters */
START_TEST(registry_activation_ops) {
  for (size_t row = 0; row < sizeof registry_activations / sizeof registry_activations[0]; row++) {
    Tensor *x = leaf(2, (int64_t[]){2, 3}, -0.27);
    char name[48];
    snprintf(name, sizeof name, "activation row %zu", row);
    gradcheck(name, f_activation, &x, 1, &row);
    gradgradcheck(name, f_activation, &x, 1, &row);
    if (registry_activations[row].inplace) {
      snprintf(name, sizeof name, "activation row %zu in place", row);
      gradcheck(name, f_activation_, &x, 1, &row);
      gradgradcheck(name, f_activation_, &x, 1, &row);
    }
    tensor_release(x);
  }
}
END_TEST

START_TEST(more_node_kinds) {
  const char *only = getenv("AG_NODE_CASE"); /* one case, when debugging */
  for (int k = 0; k <= 37; k++) {
    if (only && atoi(only) != k) continue;
    /* values of both signs, none at a kink (0) and a and b nowhere equal */
    Tensor *x[2] = {leaf(2, (int64_t[]){2, 3}, -0.27), leaf(2, (int64_t[]){2, 3}, 0.2)};
    check_case("node", f_more, x, 2, k);
  }
}
END_TEST

/* forward_ad's views: make_dual (ViewBackward0) and unpack_dual's primal (Identity) */
static Tensor *f_dual_views(Tensor *const *x, void *ctx) {
  /* inside the gradcheck's own jvp check a level is open (one at a time):
   * there the views' tangents are checked by tests/torch/forward_ad_* */
  if (ag_fw_level() >= 0) return ag_unary(UN_SIN, x[0]);
  ck_assert(ag_fw_enter_level() == 0);
  Tensor *tangent = tensor_zeros(x[0]->dtype, x[0]->ndim, x[0]->shape);
  Tensor *dual = ag_make_dual(x[0], tangent);
  Tensor *primal = ag_unpack_primal(dual);
  Tensor *out = ag_unary(UN_SIN, primal);
  tensor_release(primal);
  tensor_release(dual);
  tensor_release(tangent);
  ck_assert(ag_fw_exit_level());
  return out;
}

START_TEST(dual_views) {
  Tensor *x = leaf(2, (int64_t[]){2, 3}, -0.4);
  gradcheck("make_dual / unpack_dual", f_dual_views, &x, 1, NULL);
  tensor_release(x);
}
END_TEST

/* The gradcheck itself must fail loudly on a wrong gradient. */
static Tensor *f_wrong(Tensor *const *x, void *ctx) {
  /* sin's value with exp's derivative: a deliberately inconsistent pair */
  Tensor *e = ag_unary(UN_EXP, x[0]);
  Tensor *d = tensor_unary(UN_SIN, x[0]);
  Tensor *diff = tensor_binary(BIN_SUB, d, e);
  Tensor *out = ag_binary(BIN_ADD, e, diff); /* value sin, gradient exp */
  tensor_release(e);
  tensor_release(d);
  tensor_release(diff);
  return out;
}

START_TEST(gradcheck_catches_a_wrong_gradient) {
  Tensor *x = leaf(1, (int64_t[]){3}, 0.3);
  char where[256] = "";
  ck_assert(!gradcheck_ok(f_wrong, &x, 1, NULL, 1e-5, 1e-3, where, sizeof where));
  ck_assert_msg(strstr(where, "analytic") != NULL, "%s", where);
  tensor_release(x);
}
END_TEST

/* The node kinds no gradcheck here visits, each with the reason. */
static const struct {
  AgNodeKind kind;
  const char *reason;
} unchecked_kinds[] = {
    {AG_NODE_AccumulateGrad, "the engine's own: every gradcheck ends in it"},
    {AG_NODE_CustomBackward, "runs the script's own backward (tests/scripts/autograd: custom Functions)"},
    {AG_NODE_NotImplemented, "backward fails by design, naming the op (tests/torch/floor_divide)"},
    {AG_NODE_Unique2Backward0, "PyTorch has no derivative either: backward fails (tests/torch/scatter_unique)"},
    {AG_NODE_UniqueDimBackward0, "as Unique2Backward0"},
    {AG_NODE_ToCopyBackward0, "float64 to float32 and back: finite differences are too coarse there; "
                              "dropout_and_dtype checks its gradient exactly"},
};

/* The kinds without a jvp rule (jvp_none in AG_NODE_KINDS), each with the
 * reason; PyTorch 1.13 has none for them either. */
static const struct {
  AgNodeKind kind;
  const char *reason;
} no_jvp_kinds[] = {
    {AG_NODE_AccumulateGrad, "a leaf's gradient sink, not an op"},
    {AG_NODE_CustomBackward, "an Ag Function has no jvp() (PyTorch: \"You must implement the jvp function\")"},
    {AG_NODE_NotImplemented, "not differentiable (floor_divide, remainder with a number first)"},
    {AG_NODE_Unique2Backward0, "PyTorch 1.13: \"Trying to use forward AD with _unique2 ... not been implemented yet\""},
    {AG_NODE_UniqueDimBackward0, "as Unique2Backward0"},
};

/* Fails naming each kind whose jvp is jvp_none without a stated reason. */
static int check_every_kind_has_a_jvp(void) {
  int missing = 0;
  for (int k = 0; k < AG_NODE_COUNT; k++) {
    if (ag_jvps[k] != jvp_none) continue;
    bool listed = false;
    for (size_t i = 0; i < sizeof no_jvp_kinds / sizeof no_jvp_kinds[0]; i++)
      listed = listed || no_jvp_kinds[i].kind == (AgNodeKind)k;
    if (listed) continue;
    fprintf(stderr, "node kind %s: no jvp rule (write one beside its vjp, or give the reason in "
                    "no_jvp_kinds)\n", ag_node_kind_name((AgNodeKind)k));
    missing++;
  }
  return missing;
}

/* Fails naming each kind neither visited nor given a reason. */
static int check_every_kind_visited(void) {
  for (size_t i = 0; i < sizeof unchecked_kinds / sizeof unchecked_kinds[0]; i++)
    kinds_visited[unchecked_kinds[i].kind] = 1;
  int missing = 0;
  for (int k = 0; k < AG_NODE_COUNT; k++) {
    if (kinds_visited[k]) continue;
    fprintf(stderr, "node kind %s: no gradcheck visits it (add one, or a reason to unchecked_kinds)\n",
            ag_node_kind_name((AgNodeKind)k));
    missing++;
  }
  return missing;
}

int main(void) {
  kinds_visited = mmap(NULL, AG_NODE_COUNT, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (kinds_visited == MAP_FAILED) return EXIT_FAILURE;
  Suite *s = suite_create("autograd_ops");
  TCase *tc = tcase_create("gradcheck");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, registry_unary_ops);
  tcase_add_test(tc, unary_ops_below_zero);
  tcase_add_test(tc, registry_binary_ops_broadcasting);
  tcase_add_test(tc, remainder_op);
  tcase_add_test(tc, scalar_operand_ops);
  tcase_add_test(tc, clamp_and_where);
  tcase_add_test(tc, reductions);
  tcase_add_test(tc, prod_with_and_without_zeros);
  tcase_add_test(tc, max_min);
  tcase_add_test(tc, sort_and_topk);
  tcase_add_test(tc, kthvalue_and_median);
  tcase_add_test(tc, flip_triangles_cumsum);
  tcase_add_test(tc, amax_amin);
  tcase_add_test(tc, repeat_ops);
  tcase_add_test(tc, kron_and_einsum);
  tcase_add_test(tc, shape_ops);
  tcase_add_test(tc, join_and_split);
  tcase_add_test(tc, indexing);
  tcase_add_test(tc, index_assignment);
  tcase_add_test(tc, writes_through_views);
  tcase_add_test(tc, matrix_products);
  tcase_add_test(tc, addmm_and_linear);
  tcase_add_test(tc, strided_leaf_inputs);
  tcase_add_test(tc, nn_functions);
  tcase_add_test(tc, dropout_and_dtype);
  tcase_add_test(tc, in_place_chain);
  tcase_add_test(tc, join_of_many_inputs);
  tcase_add_test(tc, more_node_kinds);
  tcase_add_test(tc, registry_activation_ops);
  tcase_add_test(tc, dual_views);
  tcase_add_test(tc, gradcheck_catches_a_wrong_gradient);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr) + check_every_kind_visited() + check_every_kind_has_a_jvp();
  srunner_free(sr);
  ag_free_caches();
  tensor_free_caches();
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
