/* ops.c — differentiable elementwise ops, reductions, losses and casts.
 *
 * Each op runs the tensor/ computation and, when grad mode is on and an
 * input requires grad (and the result is a float tensor), records a node:
 * its inputs (edges), what its formula in derivatives.c needs (saved values
 * and params), and makes the result that node's output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

/* ---- recording helpers (shared with ops_shape.c and inplace.c) ---- */

/* A node with an edge to each input (NULL entries give no edge). */
static GradNode *record_node(AgNodeKind kind, Tensor *const *inputs, int nin, int nsaved,
                             int nout, bool with_params) {
  GradNode *n = node_new(kind, nin, nsaved, nout, with_params);
  if (!n) return NULL;
  node_set_inputs(n, inputs, nin);
  return n;
}

GradNode *ag_record_node(AgNodeKind kind, Tensor *const *inputs, int nin, int nsaved, int nout) {
  return record_node(kind, inputs, nin, nsaved, nout, false);
}

GradNode *ag_record_node_params(AgNodeKind kind, Tensor *const *inputs, int nin, int nsaved,
                                int nout) {
  return record_node(kind, inputs, nin, nsaved, nout, true);
}

static bool forward_nan_check(GradNode *n, const Tensor *out) {
  if (!ag_state()->anomaly_forward || !ag_any_nan(out)) return true; /* read inline: every op asks */
  tensor_set_error("Function '%s' produced nan values in its forward output (line %d).",
                   grad_node_name(n), n->line);
  return false;
}

/* A tensor/ op may hand back its input itself (a no-op view): the result must
 * be a tensor of its own, or recording would rewrite the input's history. */
Tensor *ag_fresh_result(Tensor *out) {
  if (!out || !out->meta) return out;
  Tensor *alias = tensor_alias(out);
  tensor_release(out);
  return alias;
}

/* Makes out the only output of n; on failure releases both and returns NULL. */
Tensor *ag_record_finish(GradNode *n, Tensor *out) {
  out = ag_fresh_result(out);
  if (!n || !out || !node_set_output(n, 0, out) || !forward_nan_check(n, out)) {
    if (n) node_finish(n);
    tensor_release(out);
    return NULL;
  }
  node_finish(n);
  return out;
}

void params_set_dims(AgParams *p, const int *dims, int ndims, int ndim) {
  if (!dims) {
    p->ndims = ndim;
    for (int d = 0; d < ndim; d++)
      p->dims[d] = d;
    p->flag = true; /* over everything */
    return;
  }
  p->ndims = ndims < TENSOR_MAX_DIMS ? ndims : TENSOR_MAX_DIMS; /* tensor/ checked them */
  for (int k = 0; k < p->ndims; k++)
    p->dims[k] = dims[k] < 0 ? dims[k] + ndim : dims[k];
}

/* ---- elementwise ---- */

static Tensor *ag_scalar_binary_reciprocal(Tensor *a);

/* How each elementwise op is recorded: the autograd columns of ops/elementwise.h. */
#define AG_NODE_NONE AG_NODE_COUNT /* never recorded */
typedef enum { SAVES_NOTHING, SAVES_SELF, SAVES_RESULT, SAVES_NUMBER } Saves;
typedef enum { NEVER, ALWAYS, IF_SELF, IF_OTHER } SaveWhen;
typedef enum { WRAPPED, ARGUMENT, TENSOR } NumberForm;

typedef struct {
  AgNodeKind kind;
  Saves saves;
} UnaryRule;

static const UnaryRule unary_rules[UN_COUNT] = {
#define UNARY_RULE(C, e, name, kernels, result, grad, node, formula, jvp, saves, ...)                   \
  [UN_##e] = {AG_NODE_##node, SAVES_##saves},
    AG_UNARY_REGISTRY(UNARY_RULE, 0)
#undef UNARY_RULE
};

typedef struct {
  AgNodeKind kind, number_kind;
  /* by which inputs have an edge (bit 0 self, bit 1 other): bit k set when
   * slot k (SAVED_SELF, SAVED_OTHER, SAVED_RESULT) is saved */
  uint8_t slots[4];
  int nsaved; /* slots up to the last one ever saved */
  const char *other_name;
  NumberForm number_form;
  Saves number_saves;
} BinaryRule;

#define NSAVED(self, other, result) ((result) != NEVER ? 3 : (self) != NEVER || (other) != NEVER ? 2 : 0)
#define SAVED_IF(when, edges)                                                                    \
  ((when) == ALWAYS || ((when) == IF_SELF && ((edges) & 1)) || ((when) == IF_OTHER && ((edges) & 2)))
#define SLOTS(edges, self, other, result)                                                        \
  (SAVED_IF(self, edges) | SAVED_IF(other, edges) << 1 | SAVED_IF(result, edges) << 2)
#define BINARY_RULE(C, e, name, symbol, kernels, result, grad, node, formula, jvp, self, other, res,   \
                    oname, nform, nnode, nsaves, ...)                                            \
  [BIN_##e] = {.kind = AG_NODE_##node,                                                           \
               .number_kind = AG_NODE_##nnode,                                                   \
               .slots = {SLOTS(0, self, other, res), SLOTS(1, self, other, res),                 \
                         SLOTS(2, self, other, res), SLOTS(3, self, other, res)},                \
               .nsaved = NSAVED(self, other, res),                                               \
               .other_name = oname,                                                              \
               .number_form = nform,                                                             \
               .number_saves = SAVES_##nsaves},
static const BinaryRule binary_rules[BIN_COUNT] = {AG_BINARY_REGISTRY(BINARY_RULE, 0)};
#undef BINARY_RULE
#undef NSAVED
#undef SLOTS
#undef SAVED_IF

bool ag_unary_saves_result(UnaryOp op) { return unary_rules[op].saves == SAVES_RESULT; }

bool ag_binary_saves_nothing(BinaryOp op, AgNodeKind *kind) {
  const BinaryRule *r = &binary_rules[op];
  *kind = r->kind;
  return r->kind != AG_NODE_NONE && r->kind != AG_NODE_NotImplemented && r->nsaved == 0;
}
bool ag_unary_saves_input(UnaryOp op) { return unary_rules[op].saves == SAVES_SELF; }

Tensor *ag_unary(UnaryOp op, Tensor *a) {
  Tensor *out = tensor_unary(op, a);
  const UnaryRule *r = &unary_rules[op];
  if (r->kind == AG_NODE_NONE || !ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node(r->kind, &a, 1, r->saves != SAVES_NOTHING, 1);
  if (n && r->saves == SAVES_SELF) node_save(n, 0, "self", a, false);
  if (n && r->saves == SAVES_RESULT) node_save(n, 0, "result", out, true);
  return ag_record_finish(n, out);
}

/* PyTorch's NotImplemented node of an op without a derivative: an edge to
 * each input that requires grad (NULL entries are numbers), no saved values. */
static Tensor *record_not_implemented(BinaryOp op, Tensor *const *ins, int n, Tensor *out) {
  Tensor *with_grad[2];
  int k = 0;
  for (int i = 0; i < n && k < 2; i++)
    if (ins[i] && (ag_requires_grad(ins[i]) || fw_tangent(ins[i]))) with_grad[k++] = ins[i];
  GradNode *node = ag_record_node_params(AG_NODE_NotImplemented, with_grad, k, 0, 1);
  if (node) node_params(node)->aten = tensor_binary_names[op];
  return ag_record_finish(node, out);
}

Tensor *ag_binary(BinaryOp op, Tensor *a, Tensor *b) {
  Tensor *out = tensor_binary(op, a, b);
  Tensor *ins[2] = {a, b};
  const BinaryRule *r = &binary_rules[op];
  if (r->kind == AG_NODE_NONE || !ag_record_wanted(ins, 2, out)) return out;
  if (r->kind == AG_NODE_NotImplemented) return record_not_implemented(op, ins, 2, out);
  GradNode *n = ag_record_node(r->kind, ins, 2, r->nsaved, 1);
  if (n && r->nsaved) { /* what the rule says the formula will read */
    unsigned slots = r->slots[(n->next[0].node != NULL) | (n->next[1].node != NULL) << 1];
    if (slots & 1u << SAVED_SELF) node_save(n, SAVED_SELF, "self", a, false);
    if (slots & 1u << SAVED_OTHER) node_save(n, SAVED_OTHER, r->other_name, b, false);
    if (slots & 1u << SAVED_RESULT) node_save(n, SAVED_RESULT, "result", out, true);
  }
  return ag_record_finish(n, out);
}

/* a op s, recorded as the rule's number form says. */
Tensor *ag_binary_scalar(BinaryOp op, Tensor *a, double s) {
  const BinaryRule *r = &binary_rules[op];
  if (r->number_form == TENSOR) {
    Tensor *st = tensor_scalar(a->dtype, s);
    Tensor *out = st ? ag_binary(op, a, st) : NULL;
    tensor_release(st);
    return out;
  }
  Tensor *out = tensor_binary_scalar(op, a, s);
  if (r->number_kind == AG_NODE_NONE || !ag_record_wanted(&a, 1, out)) return out;
  if (r->number_kind == AG_NODE_NotImplemented) return record_not_implemented(op, &a, 1, out);
  return ag_record_finish(ag_record_binary_scalar(op, a, s), out);
}

GradNode *ag_record_binary_scalar(BinaryOp op, Tensor *a, double s) {
  const BinaryRule *r = &binary_rules[op];
  Tensor *ins[2] = {a, NULL};
  GradNode *n = ag_record_node_params(r->number_kind, ins, r->number_form == WRAPPED ? 2 : 1, 1, 1);
  if (n) {
    node_params(n)->s0 = s;
    node_params(n)->flag = true; /* the other operand is the scalar s0 */
    if (r->number_saves == SAVES_SELF) node_save(n, 0, "self", a, false);
    n->has_saved = r->number_saves != SAVES_NOTHING;
  }
  return n;
}

bool ag_binary_scalar_keeps_no_tensor(BinaryOp op) {
  const BinaryRule *r = &binary_rules[op];
  return r->number_form != TENSOR && r->number_kind != AG_NODE_NONE &&
         r->number_kind != AG_NODE_NotImplemented && r->number_saves != SAVES_SELF;
}

/* s op a, named as PyTorch's reflected operators name them. */
Tensor *ag_scalar_binary(BinaryOp op, double s, Tensor *a) {
  switch (op) {
  case BIN_ADD:
  case BIN_MUL:
    return ag_binary_scalar(op, a, s); /* __radd__/__rmul__ */
  case BIN_DIV: {                      /* __rtruediv__: a.reciprocal() * s */
    Tensor *r = ag_scalar_binary_reciprocal(a);
    Tensor *out = r ? ag_binary_scalar(BIN_MUL, r, s) : NULL;
    tensor_release(r);
    return out;
  }
  case BIN_SUB:
  case BIN_POW: {
    Tensor *out = tensor_scalar_binary(op, s, a);
    if (!ag_record_wanted(&a, 1, out)) return out;
    GradNode *n =
        ag_record_node_params(op == BIN_SUB ? AG_NODE_RsubBackward1 : AG_NODE_PowBackward2, &a, 1, 1, 1);
    if (n) node_params(n)->s0 = s;
    if (n && op == BIN_POW) node_save(n, 0, "result", out, true);
    return ag_record_finish(n, out);
  }
  case BIN_MOD:            /* __rmod__: PyTorch has no derivative for remainder(Scalar, Tensor) */
  case BIN_FLOOR_DIVIDE: { /* __rfloordiv__: nor for floor_divide */
    Tensor *st = tensor_scalar(tensor_scalar_result_type(a->dtype, s), s);
    Tensor *out = st ? tensor_binary(op, st, a) : NULL;
    tensor_release(st);
    if (!ag_record_wanted(&a, 1, out)) return out;
    return record_not_implemented(op, &a, 1, out);
  }
  default: { /* a 0-d operand promotes like the number: 1.5 == int_t compares 1.5 */
    Tensor *st = tensor_scalar(tensor_scalar_result_type(a->dtype, s), s);
    Tensor *out = st ? ag_binary(op, st, a) : NULL;
    tensor_release(st);
    return out;
  }
  }
}

/* 1 / a, recorded as ReciprocalBackward0 (saves the result). */
static Tensor *ag_scalar_binary_reciprocal(Tensor *a) {
  Tensor *out = tensor_scalar_binary(BIN_DIV, 1.0, a);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node(AG_NODE_ReciprocalBackward0, &a, 1, 1, 1);
  if (n) node_save(n, 0, "result", out, true);
  return ag_record_finish(n, out);
}

static Tensor *clamp_record(AgNodeKind kind, Tensor *a, double lo, double hi) {
  Tensor *out = tensor_clamp(a, lo, hi);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &a, 1, 1, 1);
  if (n) {
    node_save(n, 0, "self", a, false);
    node_params(n)->s0 = lo;
    node_params(n)->s1 = hi;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_clamp(Tensor *a, double lo, double hi) {
  if (isnan(lo) && isnan(hi)) {
    tensor_set_error("torch.clamp: At least one of 'min' or 'max' must not be None");
    return NULL;
  }
  return clamp_record(AG_NODE_ClampBackward1, a, lo, hi);
}
Tensor *ag_clamp_tensor(Tensor *a, Tensor *lo, Tensor *hi) {
  if (!lo && !hi) {
    tensor_set_error("torch.clamp: At least one of 'min' or 'max' must not be None");
    return NULL;
  }
  Tensor *out = lo ? tensor_binary(BIN_MAXIMUM, a, lo) : tensor_retain(a);
  if (out && hi) {
    Tensor *next = tensor_binary(BIN_MINIMUM, out, hi);
    tensor_release(out);
    out = next;
  }
  Tensor *ins[3] = {a, lo, hi};
  if (!ag_record_wanted(ins, 3, out)) return ag_fresh_result(out);
  GradNode *n = ag_record_node_params(AG_NODE_ClampBackward0, ins, 3, 3, 1);
  if (n) {
    node_params(n)->i0 = lo != NULL;
    node_params(n)->i1 = hi != NULL;
    node_save(n, 0, "self", a, false);
    if (lo) node_save(n, 1, "min", lo, false);
    if (hi) node_save(n, 2, "max", hi, false);
  }
  return ag_record_finish(n, out);
}

Tensor *ag_clamp_min(Tensor *a, double lo) {
  return clamp_record(AG_NODE_ClampMinBackward0, a, lo, NAN);
}
Tensor *ag_clamp_max(Tensor *a, double hi) {
  return clamp_record(AG_NODE_ClampMaxBackward0, a, NAN, hi);
}

Tensor *ag_where(const Tensor *cond, Tensor *a, Tensor *b) {
  Tensor *out = tensor_where(cond, a, b);
  Tensor *ins[2] = {a, b};
  if (!ag_record_wanted(ins, 2, out)) return out;
  GradNode *n = ag_record_node(AG_NODE_WhereBackward0, ins, 2, 1, 1);
  if (n) node_save(n, 0, "condition", (Tensor *)cond, false);
  return ag_record_finish(n, out);
}

/* masked_fill(mask, value): MaskedFillBackward0 for a number value, and
 * MaskedFillBackward1 (an edge to the value) when the value is a tensor. The
 * result has the broadcast shape of self and mask, self's dtype. */
Tensor *ag_masked_fill(Tensor *a, const Tensor *mask, Tensor *value, bool value_is_tensor) {
  if (mask->dtype != DT_BOOL) {
    tensor_set_error("masked_fill_ only supports boolean masks, but got mask with dtype %s",
                     tensor_dtype_torch_name(mask->dtype));
    return NULL;
  }
  if (value->ndim != 0) {
    tensor_set_error("masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                     "with %d dimension(s).", value->ndim);
    return NULL;
  }
  Tensor *v = tensor_to_dtype(value, a->dtype);
  Tensor *out = v ? tensor_where(mask, v, a) : NULL;
  tensor_release(v);
  Tensor *ins[2] = {a, value};
  int nin = value_is_tensor ? 2 : 1;
  if (!ag_record_wanted(ins, nin, out)) return out;
  GradNode *n = ag_record_node(value_is_tensor ? AG_NODE_MaskedFillBackward1
                                               : AG_NODE_MaskedFillBackward0, ins, nin, 1, 1);
  if (n) node_save(n, 0, "mask", (Tensor *)mask, false);
  return ag_record_finish(n, out);
}

/* ---- reductions ---- */

static GradNode *reduction_record(AgNodeKind kind, Tensor *a, const int *dims, int ndims,
                                  bool keepdim) {
  GradNode *n = ag_record_node_params(kind, &a, 1, 2, 1);
  if (n) {
    params_set_dims(node_params(n), dims, ndims, a->ndim);
    node_params(n)->keepdim = keepdim;
  }
  return n;
}

Tensor *ag_sum(Tensor *a, const int *dims, int ndims, bool keepdim) {
  Tensor *out = tensor_sum(a, dims, ndims, keepdim);
  if (!ag_record_wanted(&a, 1, out)) return out;
  bool all = !dims;
  return ag_record_finish(
      reduction_record(all ? AG_NODE_SumBackward0 : AG_NODE_SumBackward1, a, dims, ndims, keepdim),
      out);
}

Tensor *ag_mean(Tensor *a, const int *dims, int ndims, bool keepdim) {
  Tensor *out = tensor_mean(a, dims, ndims, keepdim);
  if (!ag_record_wanted(&a, 1, out)) return out;
  bool all = !dims;
  return ag_record_finish(reduction_record(all ? AG_NODE_MeanBackward0 : AG_NODE_MeanBackward1, a,
                                           dims, ndims, keepdim),
                          out);
}

Tensor *ag_sum_to_shape(Tensor *a, int ndim, const int64_t *shape) {
  Tensor *out = tensor_sum_to_shape(a, ndim, shape);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_SumBackward1, &a, 1, 0, 1);
  if (n) node_params(n)->i0 = 1; /* "sum to size": the backward expands straight back */
  return ag_record_finish(n, out);
}

Tensor *ag_prod(Tensor *a, int dim, bool has_dim, bool keepdim) {
  Tensor *out = tensor_prod(a, dim, has_dim, keepdim);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n =
      ag_record_node_params(has_dim ? AG_NODE_ProdBackward1 : AG_NODE_ProdBackward0, &a, 1, 2, 1);
  if (n) {
    node_save(n, 0, "self", a, false);
    node_save(n, 1, "result", out, true);
    params_set_dims(node_params(n), has_dim ? &dim : NULL, 1, a->ndim);
    node_params(n)->keepdim = keepdim;
  }
  return ag_record_finish(n, out);
}

static Tensor *extreme(bool is_max, Tensor *a, int dim, bool has_dim, bool keepdim,
                       Tensor **indices) {
  Tensor *idx = NULL;
  Tensor *out = is_max ? tensor_max(a, dim, has_dim, keepdim, has_dim ? &idx : NULL)
                       : tensor_min(a, dim, has_dim, keepdim, has_dim ? &idx : NULL);
  if (indices) *indices = idx;
  if (!ag_record_wanted(&a, 1, out)) {
    if (!indices) tensor_release(idx);
    return out;
  }
  AgNodeKind kind = is_max ? (has_dim ? AG_NODE_MaxBackward0 : AG_NODE_MaxBackward1)
                           : (has_dim ? AG_NODE_MinBackward0 : AG_NODE_MinBackward1);
  GradNode *n = ag_record_node_params(kind, &a, 1, 2, 1);
  if (n && has_dim) {
    node_save(n, 0, "indices", idx, false);
    params_set_dims(node_params(n), &dim, 1, a->ndim);
    node_params(n)->keepdim = keepdim;
  } else if (n) {
    node_save(n, 0, "self", a, false);
    node_save(n, 1, "result", out, true);
  }
  if (!indices) tensor_release(idx);
  out = ag_record_finish(n, out);
  if (!out && indices) {
    tensor_release(*indices);
    *indices = NULL;
  }
  return out;
}

Tensor *ag_max(Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices) {
  return extreme(true, a, dim, has_dim, keepdim, indices);
}
Tensor *ag_min(Tensor *a, int dim, bool has_dim, bool keepdim, Tensor **indices) {
  return extreme(false, a, dim, has_dim, keepdim, indices);
}

static Tensor *moment_record(AgNodeKind kind, Tensor *a, Tensor *out, const int *dims, int ndims,
                             bool keepdim, double extra) {
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &a, 1, 2, 1);
  if (n) {
    node_save(n, 0, "self", a, false);
    if (kind != AG_NODE_VarBackward0) node_save(n, 1, "result", out, true);
    params_set_dims(node_params(n), dims, ndims, a->ndim);
    node_params(n)->keepdim = keepdim;
    node_params(n)->s0 = extra;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_var(Tensor *a, const int *dims, int ndims, double correction, bool keepdim) {
  Tensor *out = tensor_var(a, dims, ndims, correction, keepdim);
  return moment_record(AG_NODE_VarBackward0, a, out, dims, ndims, keepdim, correction);
}
Tensor *ag_std(Tensor *a, const int *dims, int ndims, double correction, bool keepdim) {
  Tensor *out = tensor_std(a, dims, ndims, correction, keepdim);
  return moment_record(AG_NODE_StdBackward0, a, out, dims, ndims, keepdim, correction);
}
Tensor *ag_var_mean(Tensor *a, const int *dims, int ndims, double correction, bool keepdim,
                    bool take_sqrt, Tensor **mean) {
  Tensor *m = NULL;
  Tensor *out = tensor_var_mean(a, dims, ndims, correction, keepdim, take_sqrt, &m);
  out = moment_record(take_sqrt ? AG_NODE_StdBackward0 : AG_NODE_VarBackward0, a, out, dims, ndims,
                      keepdim, correction);
  if (out && ag_record_wanted(&a, 1, m)) {
    AgNodeKind kind = dims ? AG_NODE_MeanBackward1 : AG_NODE_MeanBackward0;
    m = ag_record_finish(reduction_record(kind, a, dims, ndims, keepdim), m);
  }
  if (!out || !m) {
    tensor_release(out);
    tensor_release(m);
    return NULL;
  }
  *mean = m;
  return out;
}
Tensor *ag_norm(Tensor *a, double p, const int *dims, int ndims, bool keepdim) {
  Tensor *out = tensor_norm(a, p, dims, ndims, keepdim);
  return moment_record(AG_NODE_NormBackward1, a, out, dims, ndims, keepdim, p);
}
Tensor *ag_logsumexp(Tensor *a, const int *dims, int ndims, bool keepdim) {
  Tensor *out = tensor_logsumexp(a, dims, ndims, keepdim);
  return moment_record(AG_NODE_LogsumexpBackward0, a, out, dims, ndims, keepdim, 0);
}

/* ---- neural-network functions ---- */

static Tensor *softmax_record(AgNodeKind kind, Tensor *a, Tensor *out, int dim) {
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(kind, &a, 1, 1, 1);
  if (n) {
    node_save(n, 0, "result", out, true);
    node_params(n)->i0 = dim < 0 ? dim + a->ndim : dim;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_softmax(Tensor *a, int dim) {
  return softmax_record(AG_NODE_SoftmaxBackward0, a, tensor_softmax(a, dim), dim);
}
Tensor *ag_log_softmax(Tensor *a, int dim) {
  return softmax_record(AG_NODE_LogSoftmaxBackward0, a, tensor_log_softmax(a, dim), dim);
}

static Tensor *pair_loss_record(AgNodeKind kind, Tensor *a, Tensor *b, Tensor *out, Reduction r) {
  Tensor *ins[2] = {a, b};
  if (!ag_record_wanted(ins, 2, out)) return out;
  GradNode *n = ag_record_node_params(kind, ins, 2, 2, 1);
  if (n) {
    node_save(n, 0, "self", a, false);
    node_save(n, 1, "target", b, false);
    node_params(n)->red = r;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_mse_loss(Tensor *a, Tensor *b, Reduction r) {
  /* an int64 or bool operand takes part in the promoted float dtype, as in
   * PyTorch's kernel (it cannot need a gradient) */
  DType t = tensor_result_type(a, b);
  Tensor *ca = NULL, *cb = NULL;
  if (dtype_is_float(t) && !dtype_is_float(a->dtype)) a = ca = tensor_to_dtype(a, t);
  if (dtype_is_float(t) && !dtype_is_float(b->dtype)) b = cb = tensor_to_dtype(b, t);
  Tensor *out = a && b ? pair_loss_record(AG_NODE_MseLossBackward0, a, b, tensor_mse_loss(a, b, r), r)
                       : NULL;
  tensor_release(ca);
  tensor_release(cb);
  return out;
}

/* As ATen: the per-element loss, times weight in place (loss.mul_(weight)),
 * then the reduction; the node saves self, target and weight. */
Tensor *ag_binary_cross_entropy(Tensor *p, Tensor *target, Tensor *weight, Reduction r) {
  Tensor *out = tensor_binary_cross_entropy(p, target, weight ? RED_NONE : r);
  if (out && weight) {
    bool ok = tensor_binary_(BIN_MUL, out, weight);
    Tensor *reduced = !ok ? NULL
                      : r == RED_NONE ? tensor_retain(out)
                      : r == RED_MEAN ? tensor_mean(out, NULL, 0, false)
                                      : tensor_sum(out, NULL, 0, false);
    tensor_release(out);
    out = reduced;
  }
  Tensor *ins[2] = {p, target};
  if (!ag_record_wanted(ins, 2, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_BinaryCrossEntropyBackward0, ins, 2, 3, 1);
  if (n) {
    node_save(n, 0, "self", p, false);
    node_save(n, 1, "target", target, false);
    node_save(n, 2, "weight", weight, false);
    node_params(n)->red = r;
    node_params(n)->i0 = weight != NULL;
  }
  return ag_record_finish(n, out);
}

/* smooth_l1_loss / huber_loss: one node saving self and target, k (beta or
 * delta) in s0. */
static Tensor *robust_record(AgNodeKind kind, Tensor *a, Tensor *b, Tensor *out, double k,
                             Reduction r) {
  Tensor *ins[2] = {a, b};
  if (!ag_record_wanted(ins, 2, out)) return out;
  GradNode *n = ag_record_node_params(kind, ins, 2, 2, 1);
  if (n) {
    node_save(n, 0, "self", a, false);
    node_save(n, 1, "target", b, false);
    node_params(n)->red = r;
    node_params(n)->s0 = k;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_smooth_l1_loss(Tensor *a, Tensor *b, double beta, Reduction r) {
  if (beta < 0) {
    tensor_set_error("smooth_l1_loss does not support negative values for beta.");
    return NULL;
  }
  return robust_record(AG_NODE_SmoothL1LossBackward0, a, b,
                       tensor_smooth_l1_loss(a, b, beta, r), beta, r);
}

Tensor *ag_huber_loss(Tensor *a, Tensor *b, double delta, Reduction r) {
  if (!(delta > 0)) {
    tensor_set_error("huber_loss does not support non-positive values for delta.");
    return NULL;
  }
  return robust_record(AG_NODE_HuberLossBackward0, a, b, tensor_huber_loss(a, b, delta, r),
                       delta, r);
}

/* binary_cross_entropy_with_logits as PyTorch 1.13 computes it (op by op, so
 * float32 rounds as there): with m = max(-x, 0),
 *   (1 - t) x + m + log(exp(-m) + exp(-x - m))                  no pos_weight
 *   (1 - t) x + (1 + (pw - 1) t) (log(exp(-m) + exp(-x - m)) + m)  with it
 * times weight, then the reduction. */
static Tensor *bcel_forward(const Tensor *x, const Tensor *t, const Tensor *w, const Tensor *pw,
                            Reduction r) {
  Tensor *tmp[16] = {0};
  int k = 0;
#define T(e) (tmp[k++] = (e))
  Tensor *negx = T(tensor_unary(UN_NEG, x));
  Tensor *m = negx ? T(tensor_clamp(negx, 0, INFINITY)) : NULL;
  Tensor *negm = m ? T(tensor_unary(UN_NEG, m)) : NULL;
  Tensor *e1 = negm ? T(tensor_unary(UN_EXP, negm)) : NULL;
  Tensor *shifted = m ? T(tensor_binary(BIN_SUB, negx, m)) : NULL;
  Tensor *e2 = shifted ? T(tensor_unary(UN_EXP, shifted)) : NULL;
  Tensor *sum = e1 && e2 ? T(tensor_binary(BIN_ADD, e1, e2)) : NULL;
  Tensor *lse = sum ? T(tensor_unary(UN_LOG, sum)) : NULL;
  Tensor *one_t = T(tensor_scalar_binary(BIN_SUB, 1, t));
  Tensor *lin = one_t ? T(tensor_binary(BIN_MUL, one_t, x)) : NULL;
  Tensor *loss = NULL;
  if (lin && lse && !pw) {
    loss = tensor_binary(BIN_ADD, lin, m);
    if (loss && !tensor_binary_(BIN_ADD, loss, lse)) loss = (tensor_release(loss), NULL);
  } else if (lin && lse) {
    Tensor *pw1 = T(tensor_binary_scalar(BIN_SUB, pw, 1));
    Tensor *lw = pw1 ? T(tensor_binary(BIN_MUL, pw1, t)) : NULL;
    Tensor *term = lw ? T(tensor_binary(BIN_ADD, lse, m)) : NULL;
    if (term && tensor_binary_scalar_(BIN_ADD, lw, 1) && tensor_binary_(BIN_MUL, lw, term))
      loss = tensor_binary(BIN_ADD, lin, lw);
  }
#undef T
  for (int i = 0; i < k; i++)
    tensor_release(tmp[i]);
  if (loss && w) {
    Tensor *lwt = tensor_binary(BIN_MUL, loss, w);
    tensor_release(loss);
    loss = lwt;
  }
  if (!loss || r == RED_NONE) return loss;
  Tensor *red = r == RED_MEAN ? tensor_mean(loss, NULL, 0, false) : tensor_sum(loss, NULL, 0, false);
  tensor_release(loss);
  return red;
}

Tensor *ag_binary_cross_entropy_with_logits(Tensor *x, Tensor *t, Tensor *weight,
                                            Tensor *pos_weight, Reduction r) {
  if (!tensor_check_target_size(x, t)) return NULL;
  const Tensor *whole = !dtype_is_float(x->dtype) ? x : !dtype_is_float(t->dtype) ? t : NULL;
  if (whole) { /* PyTorch's in-place steps cannot hold the float result */
    tensor_set_error("result type Float can't be cast to the desired output type %s",
                     tensor_dtype_torch_name(whole->dtype));
    return NULL;
  }
  Tensor *out = bcel_forward(x, t, weight, pos_weight, r);
  Tensor *ins[2] = {x, t};
  if (!ag_record_wanted(ins, 2, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_BinaryCrossEntropyWithLogitsBackward0, ins, 2, 4, 1);
  if (n) {
    node_save(n, 0, "self", x, false);
    node_save(n, 1, "target", t, false);
    node_save(n, 2, "weight", weight, false);
    node_save(n, 3, "pos_weight", pos_weight, false);
    node_params(n)->red = r;
    node_params(n)->i0 = weight != NULL;
    node_params(n)->i1 = pos_weight != NULL;
  }
  return ag_record_finish(n, out);
}

static Tensor *reduce(Tensor *t, Reduction r) {
  if (r == RED_NONE) return tensor_retain(t);
  return r == RED_SUM ? ag_sum(t, NULL, 0, false) : ag_mean(t, NULL, 0, false);
}

/* kl_div as PyTorch 1.13 composes it: xlogy(t, t) - t * input, or with
 * log_target exp(t) * (t - input); then the reduction ("batchmean" is the
 * sum divided by the first size, as F.kl_div does). */
Tensor *ag_kl_div(Tensor *input, Tensor *target, Reduction r, bool batchmean, bool log_target) {
  /* the right operand first, as PyTorch's build computes it: the nodes'
   * order decides the order of the target's gradient sum in float32 */
  Tensor *a = NULL, *b;
  if (log_target) {
    b = ag_binary(BIN_SUB, target, input);
    a = b ? ag_unary(UN_EXP, target) : NULL;
  } else {
    b = ag_binary(BIN_MUL, target, input);
    a = b ? ag_binary(BIN_XLOGY, target, target) : NULL;
  }
  Tensor *pointwise = a ? ag_binary(log_target ? BIN_MUL : BIN_SUB, a, b) : NULL;
  tensor_release(a);
  tensor_release(b);
  Tensor *out = pointwise ? reduce(pointwise, r) : NULL;
  tensor_release(pointwise);
  if (out && batchmean && input->ndim != 0) {
    Tensor *mean = ag_binary_scalar(BIN_DIV, out, (double)input->shape[0]);
    tensor_release(out);
    out = mean;
  }
  return out;
}

/* As PyTorch 1.13 composes it: (a - b).abs() then the reduction. */
Tensor *ag_l1_loss(Tensor *a, Tensor *b, Reduction r) {
  if (!ag_should_record((Tensor *[2]){a, b}, 2)) return tensor_l1_loss(a, b, r);
  Tensor *d = ag_binary(BIN_SUB, a, b);
  Tensor *abs = d ? ag_unary(UN_ABS, d) : NULL;
  Tensor *out = abs ? reduce(abs, r) : NULL;
  tensor_release(d);
  tensor_release(abs);
  return out;
}

/* nll_loss / nll_loss2d of a 1-D, 2-D or 4-D input (NllLossBackward0,
 * NllLoss2DBackward0), saving what ATen's backward reads: the target, the
 * weight and the total weight (the mean's divisor). */
static Tensor *nll_loss_record(Tensor *logp, const Tensor *target, Tensor *weight,
                               int64_t ignore_index, Reduction r) {
  double total_weight;
  Tensor *out = tensor_nll_loss_weighted(logp, target, weight, ignore_index, r, &total_weight);
  if (!ag_record_wanted(&logp, 1, out)) return out;
  AgNodeKind kind = logp->ndim == 4 ? AG_NODE_NllLoss2DBackward0 : AG_NODE_NllLossBackward0;
  GradNode *n = ag_record_node_params(kind, &logp, 1, 2, 1);
  if (n) {
    node_save(n, 0, "target", (Tensor *)target, false);
    node_save(n, 1, "weight", weight, false);
    node_params(n)->red = r;
    node_params(n)->s0 = total_weight;
    node_params(n)->i0 = ignore_index;
    node_params(n)->i1 = weight != NULL;
  }
  return ag_record_finish(n, out);
}

/* A 3-D or more than 4-D input as ATen's nll_loss_nd runs it: viewed as
 * [N, C, 1, -1] with the target as [N, 1, -1] for nll_loss2d, the
 * unreduced loss viewed back to [N, d1, ...]. */
static Tensor *nll_loss_flattened(Tensor *logp, const Tensor *target, Tensor *weight,
                                  int64_t ignore_index, Reduction r) {
  int64_t n = logp->shape[0], c = logp->shape[1];
  bool same = target->ndim == logp->ndim - 1;
  for (int d = 1; same && d < target->ndim; d++)
    same = target->shape[d] == logp->shape[d + 1];
  if (!same) {
    int64_t want[TENSOR_MAX_DIMS];
    want[0] = n;
    for (int d = 2; d < logp->ndim; d++)
      want[d - 1] = logp->shape[d];
    char s1[256], s2[256];
    tensor_format_shape(s1, sizeof s1, logp->ndim - 1, want);
    tensor_format_shape(s2, sizeof s2, target->ndim, target->shape);
    tensor_set_error("Expected target size %s, got %s", s1, s2);
    return NULL;
  }
  bool empty = logp->numel == 0;
  int64_t in_shape[4] = {n, c, empty ? 0 : 1, empty ? 0 : -1};
  int64_t t_shape[3] = {n, target->numel == 0 ? 0 : 1, target->numel == 0 ? 0 : -1};
  Tensor *contiguous = ag_contiguous(logp);
  Tensor *in4 = contiguous ? ag_view(contiguous, 4, in_shape) : NULL;
  Tensor *t3 = in4 ? tensor_reshape(target, 3, t_shape) : NULL;
  Tensor *out = t3 ? nll_loss_record(in4, t3, weight, ignore_index, r) : NULL;
  if (out && r == RED_NONE) {
    Tensor *shaped = ag_view(out, target->ndim, target->shape);
    tensor_release(out);
    out = shaped;
  }
  tensor_release(contiguous);
  tensor_release(in4);
  tensor_release(t3);
  return out;
}

Tensor *ag_nll_loss_weighted(Tensor *logp, const Tensor *target, Tensor *weight,
                             int64_t ignore_index, Reduction r) {
  if (logp->ndim < 1) {
    tensor_set_error("Expected 1 or more dimensions (got %d)", logp->ndim);
    return NULL;
  }
  if (logp->ndim != 1 && target->ndim >= 1 && logp->shape[0] != target->shape[0]) {
    tensor_set_error("Expected input batch_size (%lld) to match target batch_size (%lld).",
                     (long long)logp->shape[0], (long long)target->shape[0]);
    return NULL;
  }
  if (logp->ndim == 3 || logp->ndim > 4)
    return nll_loss_flattened(logp, target, weight, ignore_index, r);
  return nll_loss_record(logp, target, weight, ignore_index, r);
}

Tensor *ag_nll_loss(Tensor *logp, const Tensor *target, Reduction r) {
  return ag_nll_loss_weighted(logp, target, NULL, NLL_DEFAULT_IGNORE_INDEX, r);
}

/* a / k as ATen's C++ calls it, div(Tensor, Scalar): DivBackward1, k kept in
 * the node (Python's `t / 2` wraps the number instead: DivBackward0). */
static Tensor *div_scalar_argument(Tensor *a, double k) {
  Tensor *out = tensor_binary_scalar(BIN_DIV, a, k);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_DivBackward1, &a, 1, 0, 1);
  if (n) node_params(n)->s0 = k;
  return ag_record_finish(n, out);
}

/* Class-probability targets as PyTorch 1.13's cross_entropy composes them
 * (any [N, C, d...] shape, the class dim 1, or 0 for a 1-D input): with
 * lp = log_softmax(logits) and t smoothed to t (1 - ls) + ls / C,
 *   mean: -(lp * t * w).sum() / (numel / C)   sum: -(...).sum()   none: -(...).sum(1)
 * where w, the class weights, is viewed as [1, C, 1...]. */
static Tensor *cross_entropy_probs(Tensor *logits, Tensor *target, Tensor *weight,
                                   double label_smoothing, Reduction r) {
  if (!dtype_is_float(target->dtype)) {
    tensor_set_error("Expected floating point type for target with class probabilities, got %s",
                     tensor_dtype_torch_name(target->dtype));
    return NULL;
  }
  int cdim = logits->ndim == 1 ? 0 : 1;
  int64_t classes = logits->shape[cdim];
  Tensor *tmp[8] = {0};
  int k = 0;
  Tensor *lp = tmp[k++] = ag_log_softmax(logits, cdim);
  Tensor *t = target;
  if (lp && label_smoothing > 0) {
    Tensor *kept = tmp[k++] = ag_binary_scalar(BIN_MUL, target, 1 - label_smoothing);
    t = kept ? (tmp[k++] = ag_binary_scalar(BIN_ADD, kept, label_smoothing / (double)classes)) : NULL;
  }
  Tensor *prod = lp && t ? (tmp[k++] = ag_binary(BIN_MUL, lp, t)) : NULL;
  if (prod && weight) {
    int64_t shape[TENSOR_MAX_DIMS];
    for (int d = 0; d < logits->ndim; d++)
      shape[d] = d == cdim ? weight->numel : 1;
    Tensor *w = tmp[k++] = ag_reshape(weight, logits->ndim, shape);
    prod = w ? (tmp[k++] = ag_binary(BIN_MUL, prod, w)) : NULL;
  }
  Tensor *out = NULL;
  if (prod) {
    Tensor *s = tmp[k++] = r == RED_NONE ? ag_sum(prod, &cdim, 1, false) : ag_sum(prod, NULL, 0, false);
    out = s ? ag_unary(UN_NEG, s) : NULL;
  }
  if (out && r == RED_MEAN) {
    /* no elements: 0 / 0, the nan PyTorch fills in */
    int64_t count = classes > 0 ? logits->numel / classes : 0;
    Tensor *mean = div_scalar_argument(out, (double)count);
    tensor_release(out);
    out = mean;
  }
  for (int i = 0; i < k; i++)
    tensor_release(tmp[i]);
  return out;
}

static bool same_shape(const Tensor *a, const Tensor *b) {
  return a->ndim == b->ndim && !memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof(int64_t));
}

/* a * k as ATen's C++ calls it, mul(Tensor, Scalar): MulBackward1. */
static Tensor *mul_scalar_argument(Tensor *a, double k) {
  Tensor *out = tensor_binary_scalar(BIN_MUL, a, k);
  if (!ag_record_wanted(&a, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_MulBackward1, &a, 1, 0, 1);
  if (n) {
    node_params(n)->s0 = k;
    node_params(n)->flag = true;
  }
  return ag_record_finish(n, out);
}

/* The divisor of label smoothing's mean: the summed weights of the kept
 * targets (weight.gather(0, target[target != ignore_index]).sum()), or
 * their count; a 0-d tensor, as ATen divides by one. */
static Tensor *kept_targets_total(const Tensor *target, const Tensor *weight,
                                  int64_t ignore_index) {
  if (!weight) {
    Tensor *kept_mask = tensor_binary_scalar(BIN_NE, target, (double)ignore_index);
    Tensor *out = kept_mask ? tensor_sum(kept_mask, NULL, 0, false) : NULL;
    tensor_release(kept_mask);
    return out;
  }
  int64_t kept = 0;
  for (int64_t i = 0; i < target->numel; i++)
    kept += (int64_t)tensor_get_flat(target, i) != ignore_index;
  Tensor *weights = tensor_empty(weight->dtype, 1, &kept);
  if (!weights) return NULL;
  for (int64_t i = 0, j = 0; i < target->numel; i++) {
    int64_t t = (int64_t)tensor_get_flat(target, i);
    if (t != ignore_index) tensor_set_flat(weights, j++, tensor_get_flat(weight, t));
  }
  Tensor *out = tensor_sum(weights, NULL, 0, false);
  tensor_release(weights);
  return out;
}

/* Class-index targets with label smoothing, as ATen's
 * cross_entropy_loss_label_smoothing composes it, with lp = log_softmax:
 *   (1 - ls) * nll_loss(lp, target, weight) + smooth * (ls / C)
 * where smooth = -(lp * w).sum(class dim), 0 at ignored targets, reduced
 * (its mean divided by the kept targets' total weight). */
static Tensor *cross_entropy_smoothed(Tensor *lp, const Tensor *target, Tensor *weight,
                                      int64_t ignore_index, double label_smoothing, Reduction r) {
  int cdim = lp->ndim == 1 ? 0 : 1;
  int64_t classes = lp->shape[cdim];
  Tensor *tmp[16] = {0}; /* room for every temporary below (13) */
  int k = 0;
#define T(e) (tmp[k++] = (e))
  Tensor *nll = T(ag_nll_loss_weighted(lp, target, weight, ignore_index, r));
  Tensor *ignored = nll ? T(tensor_binary_scalar(BIN_EQ, target, (double)ignore_index)) : NULL;
  Tensor *terms = lp;
  if (ignored && weight) {
    int64_t shape[TENSOR_MAX_DIMS];
    for (int d = 0; d < lp->ndim; d++)
      shape[d] = d == cdim ? weight->numel : 1;
    Tensor *w = T(ag_view(weight, lp->ndim, shape));
    terms = w ? T(ag_binary(BIN_MUL, lp, w)) : NULL;
  }
  Tensor *summed = ignored && terms ? T(ag_sum(terms, &cdim, 1, false)) : NULL;
  Tensor *smooth = summed ? T(ag_unary(UN_NEG, summed)) : NULL;
  Tensor *zero = smooth ? T(tensor_scalar(smooth->dtype, 0)) : NULL;
  Tensor *masked = zero ? T(ag_masked_fill(smooth, ignored, zero, false)) : NULL;
  Tensor *reduced = masked;
  if (masked && r != RED_NONE) {
    Tensor *total = T(ag_sum(masked, NULL, 0, false));
    Tensor *divisor = total && r == RED_MEAN ? T(kept_targets_total(target, weight, ignore_index)) : NULL;
    reduced = r == RED_SUM ? total : divisor ? T(ag_binary(BIN_DIV, total, divisor)) : NULL;
  }
  Tensor *kept = reduced ? T(mul_scalar_argument(nll, 1 - label_smoothing)) : NULL;
  Tensor *spread = kept ? T(mul_scalar_argument(reduced, label_smoothing / (double)classes)) : NULL;
#undef T
  Tensor *out = spread ? ag_binary(BIN_ADD, kept, spread) : NULL;
  for (int i = 0; i < k; i++)
    tensor_release(tmp[i]);
  return out;
}

Tensor *ag_cross_entropy_with(Tensor *logits, Tensor *target, Tensor *weight,
                              int64_t ignore_index, double label_smoothing, Reduction r) {
  if (logits->ndim >= 1 && same_shape(logits, target)) {
    if (ignore_index >= 0) {
      tensor_set_error("ignore_index is not supported for floating point target");
      return NULL;
    }
    return cross_entropy_probs(logits, target, weight, label_smoothing, r);
  }
  if (logits->ndim < 1) {
    tensor_set_error("Expected 1 or more dimensions (got %d)", logits->ndim);
    return NULL;
  }
  Tensor *lp = ag_log_softmax(logits, logits->ndim == 1 ? 0 : 1);
  Tensor *out = !lp                   ? NULL
                : label_smoothing > 0 ? cross_entropy_smoothed(lp, target, weight, ignore_index,
                                                               label_smoothing, r)
                                      : ag_nll_loss_weighted(lp, target, weight, ignore_index, r);
  tensor_release(lp);
  return out;
}

Tensor *ag_cross_entropy(Tensor *logits, const Tensor *target, Reduction r) {
  return ag_cross_entropy_with(logits, (Tensor *)target, NULL, NLL_DEFAULT_IGNORE_INDEX, 0, r);
}

Tensor *ag_dropout(TensorRng *rng, Tensor *a, double p, bool training) {
  if (p < 0 || p > 1) {
    tensor_set_error("dropout probability has to be between 0 and 1, but got %g", p);
    return NULL;
  }
  if (!training || p == 0 || a->numel == 0) return tensor_retain(a);
  Tensor *mask = tensor_dropout_mask(rng, a, p);
  Tensor *out = mask ? ag_binary(BIN_MUL, a, mask) : NULL;
  tensor_release(mask);
  return out;
}

/* ---- dtype, copies, history ---- */

Tensor *ag_to_dtype(Tensor *a, DType dt) {
  if (a->dtype == dt) return tensor_retain(a);
  Tensor *out = tensor_to_dtype(a, dt);
  if (!ag_record_wanted(&a, 1, out)) return out;
  return ag_record_finish(ag_record_node(AG_NODE_ToCopyBackward0, &a, 1, 0, 1), out);
}

Tensor *ag_clone(Tensor *a) {
  Tensor *out = tensor_clone(a);
  if (!ag_record_wanted(&a, 1, out)) return out;
  return ag_record_finish(ag_record_node(AG_NODE_CloneBackward0, &a, 1, 0, 1), out);
}

Tensor *ag_contiguous(Tensor *a) {
  if (tensor_is_contiguous(a)) return tensor_retain(a);
  return ag_clone(a);
}

Tensor *ag_detach(const Tensor *a) { return tensor_alias(a); }

bool ag_detach_(Tensor *a) {
  if (!a->meta) return true;
  AgMeta *m = meta_of(a);
  if (m->view_base) {
    tensor_set_error("Can't detach views in-place. Use detach() instead.");
    return false;
  }
  if (m->grad_fn && m->retains_grad && m->grad_fn->extra && m->grad_fn->extra->retain)
    m->grad_fn->extra->retain[m->output_nr] = NULL;
  grad_node_release(m->grad_fn);
  m->grad_fn = NULL;
  m->output_nr = 0;
  m->requires_grad = false;
  m->retains_grad = false;
  return true;
}

/* ---- internal differentiable helpers used by the formulas ---- */

/* Standard normal CDF via erfc: GELU's derivative needs it, tensor/ has no erf. */
static Tensor *normal_cdf_values(const Tensor *x) {
  if (!dtype_is_native(x->dtype)) { /* float16, bfloat16: in float32, rounded back */
    Tensor *wide = tensor_widen(x);
    Tensor *r = wide ? normal_cdf_values(wide) : NULL;
    tensor_release(wide);
    return tensor_narrow_to(r, x->dtype);
  }
  Tensor *c = tensor_contiguous(x);
  Tensor *out = c ? tensor_empty(x->dtype, x->ndim, x->shape) : NULL;
  if (!out) {
    tensor_release(c);
    return NULL;
  }
  if (x->dtype == DT_FLOAT32) {
    const float *src = tensor_data(c);
    float *dst = tensor_data(out);
    for (int64_t i = 0; i < x->numel; i++)
      dst[i] = (float)(0.5 * erfc(-src[i] * M_SQRT1_2));
  } else {
    const double *src = tensor_data(c);
    double *dst = tensor_data(out);
    for (int64_t i = 0; i < x->numel; i++)
      dst[i] = 0.5 * erfc(-src[i] * M_SQRT1_2);
  }
  tensor_release(c);
  return out;
}

Tensor *ag_normal_cdf(Tensor *x) {
  if (!dtype_is_float(x->dtype)) {
    tensor_set_error("normal_cdf expects a float tensor");
    return NULL;
  }
  Tensor *out = normal_cdf_values(x);
  if (!ag_record_wanted(&x, 1, out)) return out;
  GradNode *n = ag_record_node(AG_NODE_ErfBackward0, &x, 1, 1, 1);
  if (n) node_save(n, 0, "self", x, false);
  return ag_record_finish(n, out);
}

Tensor *ag_scatter_add_into(const AgInfo *in, int dim, const Tensor *index, Tensor *src) {
  return ag_scatter_into(in, dim, index, src, true);
}

Tensor *ag_scatter_into(const AgInfo *in, int dim, const Tensor *index, Tensor *src, bool add) {
  Tensor *zeros = tensor_zeros(src->dtype, in->ndim, info_shape(in));
  Tensor *out = !zeros ? NULL
                : add  ? tensor_scatter_add(zeros, dim, index, src)
                       : tensor_scatter_zeros(zeros, dim, index, src);
  tensor_release(zeros);
  if (!ag_record_wanted(&src, 1, out)) return out;
  GradNode *n = ag_record_node_params(AG_NODE_ScatterAddBackward0, &src, 1, 1, 1);
  if (n) {
    node_save(n, 0, "index", (Tensor *)index, false);
    node_params(n)->i0 = dim;
  }
  return ag_record_finish(n, out);
}

/* ---- the fused updates, out of place ---- */

/* a op'd with b (and c) by ATen's fused kernel (tensor_fused_ on a copy of
 * a broadcast to the operands' common shape), recorded as PyTorch names the op:
 * AddBackward0 keeping alpha, AddcmulBackward0, AddcdivBackward0 (tensor1
 * and tensor2 saved), LerpBackward0 (a number weight), LerpBackward1 (self,
 * end and weight saved). */
Tensor *ag_fused(FusedOp op, Tensor *a, Tensor *b, Tensor *c, double s) {
  bool three = op == FUSED_ADDCMUL || op == FUSED_ADDCDIV || op == FUSED_LERP_TENSOR;
  int ndim, ndim3;
  int64_t shape[TENSOR_MAX_DIMS], shape3[TENSOR_MAX_DIMS];
  if (!tensor_broadcast_shape(a->ndim, a->shape, b->ndim, b->shape, &ndim, shape)) return NULL;
  if (three && !tensor_broadcast_shape(ndim, shape, c->ndim, c->shape, &ndim3, shape3)) return NULL;
  Tensor *out = three ? tensor_zeros(a->dtype, ndim3, shape3) : tensor_zeros(a->dtype, ndim, shape);
  if (out && !(tensor_copy_(out, a) && tensor_fused_(op, out, b, c, s))) {
    tensor_release(out);
    out = NULL;
  }
  Tensor *ins[3] = {a, b, c};
  if (!ag_record_wanted(ins, three ? 3 : 2, out)) return out;
  static const AgNodeKind kinds[] = {AG_NODE_AddBackward0, AG_NODE_AddcmulBackward0,
                                     AG_NODE_AddcdivBackward0, AG_NODE_LerpBackward0,
                                     AG_NODE_LerpBackward1};
  int nsaved = op == FUSED_LERP_TENSOR ? 3 : three ? 2 : 0;
  GradNode *n = ag_record_node_params(kinds[op], ins, three ? 3 : 2, nsaved, 1);
  if (n && op == FUSED_ADD_SCALED) {
    node_params(n)->i2 = 1;
    node_params(n)->s1 = s;
  } else if (n && op == FUSED_LERP_TENSOR) {
    node_save(n, 0, "self", a, false);
    node_save(n, 1, "end", b, false);
    node_save(n, 2, "weight", c, false);
  } else if (n && three) {
    node_save(n, 0, "tensor1", b, false);
    node_save(n, 1, "tensor2", c, false);
  }
  if (n) node_params(n)->s0 = s;
  return ag_record_finish(n, out);
}
