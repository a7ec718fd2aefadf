/* op_table.h — how each elementwise op of tensor/ is recorded (private to autograd/).
 *
 * One row per op, in the order of tensor/ops.h's TENSOR_UNARY_OPS and
 * TENSOR_BINARY_OPS (a static_assert in ops.c checks every row against its
 * enum): the node the op records, what that node saves for its formula,
 * and the same for the `tensor op number` form. The formula itself is the
 * node's row in AG_NODE_KINDS (autograd.h), which names its function in
 * derivatives.c. Adding an elementwise op is therefore: its kernel row in
 * tensor/ops.h, its row here, its node's row with the formula.
 *
 * What a slot holds, when it is saved:
 *   NEVER      not saved
 *   ALWAYS     saved whenever the node is recorded
 *   IF_SELF    only when self's gradient is wanted (it has an edge)
 *   IF_OTHER   only when other's gradient is wanted
 */
#ifndef AG_AUTOGRAD_OP_TABLE_H
#define AG_AUTOGRAD_OP_TABLE_H

/* Unary ops: X(op, node, saves) where saves is NOTHING, SELF (the input) or
 * RESULT (the output); NONE as node: the op is never recorded (bool result). */
#define AG_UNARY_OPS(X)                                                                          \
  X(NEG, NegBackward0, NOTHING)                                                                  \
  X(ABS, AbsBackward0, SELF)                                                                     \
  X(SQRT, SqrtBackward0, RESULT)                                                                 \
  X(EXP, ExpBackward0, RESULT)                                                                   \
  X(LOG, LogBackward0, SELF)                                                                     \
  X(SIN, SinBackward0, SELF)                                                                     \
  X(COS, CosBackward0, SELF)                                                                     \
  X(TAN, TanBackward0, RESULT)                                                                   \
  X(TANH, TanhBackward0, RESULT)                                                                 \
  X(SIGMOID, SigmoidBackward0, RESULT)                                                           \
  X(RELU, ReluBackward0, RESULT)                                                                 \
  X(GELU, GeluBackward0, SELF)                                                                   \
  X(SIGN, SignBackward0, NOTHING)                                                                \
  X(FLOOR, FloorBackward0, NOTHING)                                                              \
  X(CEIL, CeilBackward0, NOTHING)                                                                \
  X(ROUND, RoundBackward0, NOTHING)                                                              \
  X(LOGICAL_NOT, NONE, NOTHING)                                                                  \
  X(ISNAN, NONE, NOTHING)                                                                        \
  X(ISINF, NONE, NOTHING)                                                                        \
  X(ISFINITE, NONE, NOTHING)

/* Binary ops, tensor op tensor: X(op, node, self, other, result, other's
 * name), the three slots saved as the column says (saved[0] self, [1] other,
 * [2] result). Then `tensor op number`: NUMBER(op, node, form, saves) where
 * form is WRAPPED (PyTorch wraps the number as a tensor: an input without an
 * edge, [nil, 0]), ARGUMENT (a plain Scalar argument, no entry) or TENSOR (the
 * number becomes a 0-d tensor and the tensor form runs), and saves is
 * NOTHING, SELF, or NUMBER (the number, as PyTorch saves a wrapped scalar:
 * a second backward through the node fails). NONE: not differentiable.
 * NotImplemented (an op PyTorch has no derivative for): the node has an edge
 * to each input that requires grad only, and backward fails naming the op. */
#define AG_BINARY_OPS(X, NUMBER)                                                                 \
  X(ADD, AddBackward0, NEVER, NEVER, NEVER, "other")                                             \
  NUMBER(ADD, AddBackward0, WRAPPED, NOTHING)                                                    \
  X(SUB, SubBackward0, NEVER, NEVER, NEVER, "other")                                             \
  NUMBER(SUB, SubBackward0, WRAPPED, NOTHING)                                                    \
  X(MUL, MulBackward0, IF_OTHER, IF_SELF, NEVER, "other")                                        \
  NUMBER(MUL, MulBackward0, WRAPPED, NUMBER)                                                     \
  X(DIV, DivBackward0, IF_OTHER, ALWAYS, NEVER, "other")                                         \
  NUMBER(DIV, DivBackward0, WRAPPED, NUMBER)                                                     \
  X(POW, PowBackward1, ALWAYS, ALWAYS, IF_OTHER, "exponent")                                     \
  NUMBER(POW, PowBackward0, ARGUMENT, SELF)                                                      \
  X(MOD, RemainderBackward1, ALWAYS, ALWAYS, NEVER, "other")                                     \
  NUMBER(MOD, RemainderBackward0, ARGUMENT, NOTHING)                                             \
  X(FLOOR_DIVIDE, NotImplemented, NEVER, NEVER, NEVER, "other")                                  \
  NUMBER(FLOOR_DIVIDE, NotImplemented, ARGUMENT, NOTHING)                                         \
  X(MAXIMUM, MaximumBackward0, ALWAYS, ALWAYS, NEVER, "other")                                   \
  NUMBER(MAXIMUM, MaximumBackward0, TENSOR, NOTHING)                                             \
  X(MINIMUM, MinimumBackward0, ALWAYS, ALWAYS, NEVER, "other")                                   \
  NUMBER(MINIMUM, MinimumBackward0, TENSOR, NOTHING)                                             \
  X(XLOGY, XlogyBackward0, ALWAYS, ALWAYS, NEVER, "other")                                       \
  NUMBER(XLOGY, XlogyBackward0, TENSOR, NOTHING)                                                 \
  X(EQ, NONE, NEVER, NEVER, NEVER, "")                                                           \
  NUMBER(EQ, NONE, ARGUMENT, NOTHING)                                                            \
  X(NE, NONE, NEVER, NEVER, NEVER, "")                                                           \
  NUMBER(NE, NONE, ARGUMENT, NOTHING)                                                            \
  X(LT, NONE, NEVER, NEVER, NEVER, "")                                                           \
  NUMBER(LT, NONE, ARGUMENT, NOTHING)                                                            \
  X(LE, NONE, NEVER, NEVER, NEVER, "")                                                           \
  NUMBER(LE, NONE, ARGUMENT, NOTHING)                                                            \
  X(GT, NONE, NEVER, NEVER, NEVER, "")                                                           \
  NUMBER(GT, NONE, ARGUMENT, NOTHING)                                                            \
  X(GE, NONE, NEVER, NEVER, NEVER, "")                                                           \
  NUMBER(GE, NONE, ARGUMENT, NOTHING)                                                            \
  X(LOGICAL_AND, NONE, NEVER, NEVER, NEVER, "")                                                  \
  NUMBER(LOGICAL_AND, NONE, ARGUMENT, NOTHING)                                                   \
  X(LOGICAL_OR, NONE, NEVER, NEVER, NEVER, "")                                                   \
  NUMBER(LOGICAL_OR, NONE, ARGUMENT, NOTHING)

/* The slots of a binary node's saved values. */
enum { SAVED_SELF, SAVED_OTHER, SAVED_RESULT };

#endif
