/* elementwise.h — the registry of the elementwise ops: ONE row per op.
 *
 * Every layer reads the columns it knows and ignores the others, so this
 * file depends on nothing and is included from below (tensor/ops.h) as well
 * as from above:
 *   tensor/    the enum (UN_SQRT, BIN_ADD), the names, the kernels, the
 *              result dtype rule                         (tensor/elementwise.c)
 *   autograd/  the node kind, its derivative formula, what it saves, and
 *              the node-kind list itself                 (autograd/ops.c, autograd.h)
 *   stdlib/    the method and global `name` (and `name_` in place)
 *                                                        (stdlib/lib_internal.h, lib_methods.c)
 *   repl/      the :help entry and docs/reference.md     (repl/help_table.c)
 *   tests/     the gradient check of every differentiable row
 *                                                        (tests/unit/test_autograd_ops.c)
 * Adding a differentiable elementwise op is: its row here, its derivative
 * formula in autograd/derivatives.c (named in the row), a test (see
 * docs/internals.md, "Adding an op"). A row's position means nothing: every
 * rule is a column.
 *
 * The lists take a row macro and a client argument C passed to each row
 * unchanged (a consumer that expands a row into its own list's rows gets
 * that list's macro through C).
 *
 * ---- unary: U(C, ENUM, name, kernels, result, grad, node, formula, saves,
 *                inplace, bind, help) ----
 * kernels  the loop per input dtype (bool, int64, float32, float64),
 *          tensor/elementwise.c's names: FLOAT2(f) has float loops only
 *          (integers are computed in float32), VML(f) the same through
 *          PyTorch's vector math (tensor/transcend.c), KERNELS(b, i, f, d).
 * result   COMPUTE: the dtype computed in (the input's when the op has a
 *          loop for it, else float32); BOOL: a bool tensor.
 * grad     GRAD: recorded as `node` (PyTorch 1.13's name), whose backward is
 *          `formula` in derivatives.c; NO_GRAD: never recorded (node NONE).
 * saves    what the formula reads: NOTHING, SELF (the input), RESULT.
 * inplace  INPLACE: also the method `name_` (x.sqrt_()), PyTorch's in-place
 *          semantics (autograd/inplace.c); NO_INPLACE.
 * bind     the flags of lib_internal.h, the binding generated: LF_MGW
 *          (method and global, a number falls back to the VM's built-in),
 *          LF_MG (method and global); OWN: bound by hand (its row in
 *          LIB_TENSOR_FNS and its lt_name: round's decimals=).
 * help     HELP(section, signature, text, example): the :help entry.
 *          TABLE: the entry is still in repl/help_table.c.
 */
#ifndef AG_OPS_ELEMENTWISE_H
#define AG_OPS_ELEMENTWISE_H

#define AG_UNARY_REGISTRY(U, C)                                                                    \
  U(C, NEG, neg, INT_FLOAT(neg), COMPUTE, GRAD, NegBackward0, d_neg, NOTHING, INPLACE, LF_MG,     \
    TABLE)                                                                                         \
  U(C, ABS, abs, KERNELS(copy_b, abs_i, abs_f, abs_d), COMPUTE, GRAD, AbsBackward0, d_abs, SELF,   \
    INPLACE, LF_MGW, TABLE)                                                                        \
  U(C, SQRT, sqrt, FLOAT2(sqrt), COMPUTE, GRAD, SqrtBackward0, d_sqrt, RESULT, INPLACE, LF_MGW,    \
    TABLE)                                                                                         \
  U(C, EXP, exp, VML(exp), COMPUTE, GRAD, ExpBackward0, d_exp, RESULT, INPLACE, LF_MGW, TABLE)     \
  U(C, LOG, log, VML(log), COMPUTE, GRAD, LogBackward0, d_log, SELF, INPLACE, LF_MGW, TABLE)       \
  U(C, LOG10, log10, VML(log10), COMPUTE, GRAD, Log10Backward0, d_log10, SELF, INPLACE, LF_MG,     \
    HELP(HELP_TENSORS, "log10(t) / t.log10()",                                                     \
         "Base-10 logarithm of each element (integers give float32; Log10Backward0: "              \
         "g / (x ln 10)). t.log10_() in place.",                                                   \
         "print(log10(tensor([1.0, 100.0])))"))                                                    \
  U(C, LOG2, log2, VML(log2), COMPUTE, GRAD, Log2Backward0, d_log2, SELF, INPLACE, LF_MG,          \
    HELP(HELP_TENSORS, "log2(t) / t.log2()",                                                       \
         "Base-2 logarithm of each element (integers give float32; Log2Backward0: "                \
         "g / (x ln 2)). t.log2_() in place.",                                                     \
         "print(log2(tensor([1.0, 8.0])))"))                                                       \
  U(C, SIN, sin, VML(sin), COMPUTE, GRAD, SinBackward0, d_sin, SELF, INPLACE, LF_MGW, TABLE)       \
  U(C, COS, cos, VML(cos), COMPUTE, GRAD, CosBackward0, d_cos, SELF, INPLACE, LF_MGW, TABLE)       \
  U(C, TAN, tan, VML(tan), COMPUTE, GRAD, TanBackward0, d_tan, RESULT, INPLACE, LF_MGW, TABLE)     \
  U(C, TANH, tanh, VML(tanh), COMPUTE, GRAD, TanhBackward0, d_tanh, RESULT, INPLACE, LF_MGW,       \
    TABLE)                                                                                         \
  U(C, SIGMOID, sigmoid, VML(sigmoid), COMPUTE, GRAD, SigmoidBackward0, d_sigmoid, RESULT,         \
    INPLACE, LF_MG, TABLE)                                                                         \
  U(C, RELU, relu, KERNELS(copy_b, relu_i, relu_f, relu_d), COMPUTE, GRAD, ReluBackward0, d_relu,  \
    RESULT, INPLACE, LF_MG, TABLE)                                                                 \
  U(C, GELU, gelu, FLOAT2(gelu), COMPUTE, GRAD, GeluBackward0, d_gelu, SELF, NO_INPLACE, LF_MG,    \
    TABLE)                                                                                         \
  U(C, SIGN, sign, KERNELS(copy_b, sign_i, sign_f, sign_d), COMPUTE, GRAD, SignBackward0, d_zero,  \
    NOTHING, INPLACE, LF_MG, TABLE)                                                                \
  U(C, FLOOR, floor, SAME_FOR_INT(floor), COMPUTE, GRAD, FloorBackward0, d_zero, NOTHING, INPLACE, \
    LF_MGW, TABLE)                                                                                 \
  U(C, CEIL, ceil, SAME_FOR_INT(ceil), COMPUTE, GRAD, CeilBackward0, d_zero, NOTHING, INPLACE,     \
    LF_MGW, TABLE)                                                                                 \
  U(C, ROUND, round, SAME_FOR_INT(round), COMPUTE, GRAD, RoundBackward0, d_zero, NOTHING, INPLACE, \
    OWN, TABLE)                                                                                \
  U(C, LOGICAL_NOT, logical_not, ALL4(lnot), BOOL, NO_GRAD, NONE, none, NOTHING, INPLACE, LF_MG,   \
    TABLE)                                                                                         \
  U(C, ISNAN, isnan, KERNELS(false_b, false_i, isnan_f, isnan_d), BOOL, NO_GRAD, NONE, none,       \
    NOTHING, NO_INPLACE, LF_MG, TABLE)                                                             \
  U(C, ISINF, isinf, KERNELS(false_b, false_i, isinf_f, isinf_d), BOOL, NO_GRAD, NONE, none,       \
    NOTHING, NO_INPLACE, LF_MG, TABLE)                                                             \
  U(C, ISFINITE, isfinite, KERNELS(true_b, true_i, isfinite_f, isfinite_d), BOOL, NO_GRAD, NONE,   \
    none, NOTHING, NO_INPLACE, LF_MG, TABLE)

/* ---- binary, broadcasting: B(C, ENUM, name, symbol, kernels, result, grad,
 *      node, formula, self, other, res, other_name, number_form, number_node,
 *      number_saves, bind, help) ----
 * symbol   the script's operator that means the op ("+"), or NULL.
 * kernels  per operand dtype, as above: ALL4(f), NUM3(f) (no bool loop),
 *          FLOAT2(f); an input dtype without a loop is PyTorch's
 *          "NAME_cpu" not implemented error, unless the result rule
 *          computes in float.
 * result   PROMOTE: PyTorch's promoted dtype; TO_FLOAT: the same, integers
 *          and bools computed in float32 (true division, xlogy); BOOL: a
 *          bool tensor (the comparisons).
 * grad     GRAD (node and formula as for unary ops), NO_GRAD, or
 *          NOT_IMPLEMENTED (PyTorch has no derivative: backward fails
 *          naming the op; node NotImplemented).
 * self, other, res: when each slot is saved for the formula (saved[0] self,
 *          [1] other, [2] the result): NEVER, ALWAYS, IF_SELF (only when
 *          self's gradient is wanted), IF_OTHER; other_name names slot 1 in
 *          messages ("exponent").
 * number_form, number_node, number_saves: `tensor op number` —
 *          WRAPPED (PyTorch wraps the number as a tensor: an input without
 *          an edge), ARGUMENT (a plain Scalar argument) or TENSOR (the
 *          number becomes a 0-d tensor and the tensor form runs); the node
 *          it records (the same node, or one of AG_NODE_KINDS); what it
 *          saves: NOTHING, SELF, or NUMBER (the number, as PyTorch saves a
 *          wrapped scalar: a second backward through the node fails).
 * bind     OPERAND: method and global taking a tensor, number or bool
 *          (x.mul(2)); TENSORS: method and global, a number made a tensor
 *          of self's dtype (maximum); OWN: bound by hand; NO_BIND.
 */
#define AG_BINARY_REGISTRY(B, C)                                                                   \
  B(C, ADD, add, "+", ALL4(add), PROMOTE, GRAD, AddBackward0, d_add, NEVER, NEVER, NEVER,          \
    "other", WRAPPED, AddBackward0, NOTHING, OWN, TABLE)                                           \
  B(C, SUB, sub, "-", NUM3(sub), PROMOTE, GRAD, SubBackward0, d_sub, NEVER, NEVER, NEVER,          \
    "other", WRAPPED, SubBackward0, NOTHING, OPERAND, TABLE)                                       \
  B(C, MUL, mul, "*", ALL4(mul), PROMOTE, GRAD, MulBackward0, d_mul, IF_OTHER, IF_SELF, NEVER,     \
    "other", WRAPPED, MulBackward0, NUMBER, OPERAND, TABLE)                                        \
  B(C, DIV, div, "/", FLOAT2(div), TO_FLOAT, GRAD, DivBackward0, d_div, IF_OTHER, ALWAYS, NEVER,   \
    "other", WRAPPED, DivBackward0, NUMBER, OPERAND, TABLE)                                        \
  B(C, POW, pow, "**", NUM3(pow), PROMOTE, GRAD, PowBackward1, d_pow_tensor, ALWAYS, ALWAYS,       \
    IF_OTHER, "exponent", ARGUMENT, PowBackward0, SELF, OPERAND, TABLE)                            \
  B(C, MOD, remainder, "%", NUM3(mod), PROMOTE, GRAD, RemainderBackward1, d_remainder, ALWAYS,     \
    ALWAYS, NEVER, "other", ARGUMENT, RemainderBackward0, NOTHING, OPERAND, TABLE)                 \
  B(C, FLOOR_DIVIDE, floor_divide, "//", NUM3(floordiv), PROMOTE, NOT_IMPLEMENTED,                 \
    NotImplemented, none, NEVER, NEVER, NEVER, "other", ARGUMENT, NotImplemented, NOTHING,         \
    OPERAND, TABLE)                                                                                \
  B(C, MAXIMUM, maximum, NULL, ALL4(max), PROMOTE, GRAD, MaximumBackward0, d_maximum, ALWAYS,      \
    ALWAYS, NEVER, "other", TENSOR, MaximumBackward0, NOTHING, TENSORS, TABLE)                     \
  B(C, MINIMUM, minimum, NULL, ALL4(min), PROMOTE, GRAD, MinimumBackward0, d_minimum, ALWAYS,      \
    ALWAYS, NEVER, "other", TENSOR, MinimumBackward0, NOTHING, TENSORS, TABLE)                     \
  B(C, XLOGY, xlogy, NULL, FLOAT2(xlogy), TO_FLOAT, GRAD, XlogyBackward0, d_xlogy, ALWAYS,         \
    ALWAYS, NEVER, "other", TENSOR, XlogyBackward0, NOTHING, NO_BIND, TABLE)                       \
  B(C, LOGADDEXP, logaddexp, NULL, FLOAT2(logaddexp), PROMOTE, GRAD, LogaddexpBackward0,           \
    d_logaddexp, ALWAYS, ALWAYS, NEVER, "other", TENSOR, LogaddexpBackward0, NOTHING, TENSORS,     \
    HELP(HELP_TENSORS, "logaddexp(a, b) / a.logaddexp(b)",                                         \
         "log(exp(a) + exp(b)) of each pair of elements, broadcasting, computed without "          \
         "overflow (float tensors only, as in PyTorch; LogaddexpBackward0).",                      \
         "print(logaddexp(tensor([0.0, 1000.0]), tensor([0.0, 1000.0])))"))                        \
  B(C, EQ, eq, "==", ALL4(eq), BOOL, NO_GRAD, NONE, none, NEVER, NEVER, NEVER, "", ARGUMENT,       \
    NONE, NOTHING, OPERAND, TABLE)                                                                 \
  B(C, NE, ne, "!=", ALL4(ne), BOOL, NO_GRAD, NONE, none, NEVER, NEVER, NEVER, "", ARGUMENT,       \
    NONE, NOTHING, OPERAND, TABLE)                                                                 \
  B(C, LT, lt, "<", ALL4(lt), BOOL, NO_GRAD, NONE, none, NEVER, NEVER, NEVER, "", ARGUMENT,        \
    NONE, NOTHING, OPERAND, TABLE)                                                                 \
  B(C, LE, le, "<=", ALL4(le), BOOL, NO_GRAD, NONE, none, NEVER, NEVER, NEVER, "", ARGUMENT,       \
    NONE, NOTHING, OPERAND, TABLE)                                                                 \
  B(C, GT, gt, ">", ALL4(gt), BOOL, NO_GRAD, NONE, none, NEVER, NEVER, NEVER, "", ARGUMENT,        \
    NONE, NOTHING, OPERAND, TABLE)                                                                 \
  B(C, GE, ge, ">=", ALL4(ge), BOOL, NO_GRAD, NONE, none, NEVER, NEVER, NEVER, "", ARGUMENT,       \
    NONE, NOTHING, OPERAND, TABLE)                                                                 \
  B(C, LOGICAL_AND, logical_and, NULL, ALL4(land), BOOL, NO_GRAD, NONE, none, NEVER, NEVER,        \
    NEVER, "", ARGUMENT, NONE, NOTHING, TENSORS, TABLE)                                            \
  B(C, LOGICAL_OR, logical_or, NULL, ALL4(lor), BOOL, NO_GRAD, NONE, none, NEVER, NEVER, NEVER,    \
    "", ARGUMENT, NONE, NOTHING, TENSORS, TABLE)

#endif
