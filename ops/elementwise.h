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
 *   repl/      the :help entry and docs/reference.md     (repl/help_natives.c)
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
 * ---- unary: U(C, ENUM, name, kernels, result, grad, node, formula, jvp, saves,
 *                inplace, bind, help) ----
 * kernels  the loop per input dtype (bool, int64, float32, float64),
 *          tensor/elementwise.c's names: FLOAT2(f) has float loops only
 *          (integers are computed in float32), VML(f) the same through
 *          PyTorch's vector math (tensor/transcend.c), KERNELS(b, i, f, d).
 * result   COMPUTE: the dtype computed in (the input's when the op has a
 *          loop for it, else float32); BOOL: a bool tensor.
 * grad     GRAD: recorded as `node` (PyTorch 1.13's name), whose backward is
 *          `formula` in derivatives.c; NO_GRAD: never recorded (node NONE).
 * jvp      the forward-mode rule beside it (derivatives.c, j_NAME): the
 *          tangent of the result from the input's tangent (PyTorch's
 *          "result:" formula in derivatives.yaml); none for NO_GRAD rows.
 * saves    what the formula reads: NOTHING, SELF (the input), RESULT.
 * inplace  INPLACE: also the method `name_` (x.sqrt_()), PyTorch's in-place
 *          semantics (autograd/inplace.c); NO_INPLACE.
 * bind     the flags of lib_internal.h, the binding generated: LF_MGW
 *          (method and global, a number falls back to the VM's built-in),
 *          LF_MG (method and global); OWN: bound by hand (its row in
 *          LIB_TENSOR_FNS and its lt_name: round's decimals=).
 * help     HELP(section, signature, text, example): the :help entry and
 *          docs/reference.md's (repl/help_natives.c puts it in its table);
 *          NO_HELP for a row that is not bound.
 */
#ifndef AG_OPS_ELEMENTWISE_H
#define AG_OPS_ELEMENTWISE_H

#define AG_UNARY_REGISTRY(U, C)                                                                    \
  U(C, NEG, neg, INT_FLOAT(neg), COMPUTE, GRAD, NegBackward0, d_neg, j_neg, NOTHING, INPLACE, LF_MG, \
    HELP(HELP_TENSORS,                                                                             \
         "neg(t) / t.neg()",                                                                       \
         "-t elementwise (NegBackward0).",                                                         \
         "print(tensor([1.0, -2.0]).neg())"))                                                      \
  U(C, ABS, abs, KERNELS(copy_b, abs_i, abs_f, abs_d), COMPUTE, GRAD, AbsBackward0, d_abs, j_abs, SELF, \
    INPLACE, LF_MGW,                                                                               \
    HELP(HELP_BUILTINS,                                                                            \
         "abs(x)",                                                                                 \
         "Absolute value of a number or, elementwise, of a tensor.",                               \
         "print(abs(-2), abs(tensor([-1.0, 2.0])))"))                                              \
  U(C, SQRT, sqrt, FLOAT2(sqrt), COMPUTE, GRAD, SqrtBackward0, d_sqrt, j_sqrt, RESULT, INPLACE, LF_MGW, \
    HELP(HELP_BUILTINS,                                                                            \
         "sqrt(x)",                                                                                \
         "Square root of a number or, elementwise, of a tensor (differentiable: "                  \
         "SqrtBackward0).",                                                                        \
         "print(sqrt(16), sqrt(tensor([4.0, 9.0])))"))                                             \
  U(C, EXP, exp, VML(exp), COMPUTE, GRAD, ExpBackward0, d_exp, j_exp, RESULT, INPLACE, LF_MGW,     \
    HELP(HELP_BUILTINS,                                                                            \
         "exp(x)",                                                                                 \
         "e to the power x (number or tensor, elementwise; ExpBackward0).",                        \
         "print(exp(0), exp(tensor([0.0, 1.0])))"))                                                \
  U(C, LOG, log, VML(log), COMPUTE, GRAD, LogBackward0, d_log, j_log, SELF, INPLACE, LF_MGW,       \
    HELP(HELP_BUILTINS,                                                                            \
         "log(x)",                                                                                 \
         "Natural logarithm (number or tensor, elementwise; LogBackward0).",                       \
         "print(log(1), log(tensor([1.0, 2.0])))"))                                                \
  U(C, LOG10, log10, VML(log10), COMPUTE, GRAD, Log10Backward0, d_log10, j_log10, SELF, INPLACE, LF_MG, \
    HELP(HELP_TENSORS, "log10(t) / t.log10()",                                                     \
         "Base-10 logarithm of each element (integers give float32; Log10Backward0: "              \
         "g / (x ln 10)). t.log10_() in place.",                                                   \
         "print(log10(tensor([1.0, 100.0])))"))                                                    \
  U(C, LOG2, log2, VML(log2), COMPUTE, GRAD, Log2Backward0, d_log2, j_log2, SELF, INPLACE, LF_MG,  \
    HELP(HELP_TENSORS, "log2(t) / t.log2()",                                                       \
         "Base-2 logarithm of each element (integers give float32; Log2Backward0: "                \
         "g / (x ln 2)). t.log2_() in place.",                                                     \
         "print(log2(tensor([1.0, 8.0])))"))                                                       \
  U(C, SIN, sin, VML(sin), COMPUTE, GRAD, SinBackward0, d_sin, j_sin, SELF, INPLACE, LF_MGW,       \
    HELP(HELP_BUILTINS,                                                                            \
         "sin(x)",                                                                                 \
         "Sine of radians (number or tensor).",                                                    \
         "print(sin(0), sin(tensor([0.0, pi / 2])))"))                                             \
  U(C, COS, cos, VML(cos), COMPUTE, GRAD, CosBackward0, d_cos, j_cos, SELF, INPLACE, LF_MGW,       \
    HELP(HELP_BUILTINS,                                                                            \
         "cos(x)",                                                                                 \
         "Cosine of radians (number or tensor).",                                                  \
         "print(cos(0))"))                                                                         \
  U(C, TAN, tan, VML(tan), COMPUTE, GRAD, TanBackward0, d_tan, j_tan, RESULT, INPLACE, LF_MGW,     \
    HELP(HELP_BUILTINS,                                                                            \
         "tan(x)",                                                                                 \
         "Tangent of radians (number or tensor).",                                                 \
         "print(tan(0))"))                                                                         \
  U(C, TANH, tanh, VML(tanh), COMPUTE, GRAD, TanhBackward0, d_tanh, j_tanh, RESULT, INPLACE, LF_MGW, \
    HELP(HELP_BUILTINS,                                                                            \
         "tanh(x)",                                                                                \
         "Hyperbolic tangent (number or tensor; TanhBackward0).",                                  \
         "print(tanh(tensor([0.0, 1.0])))"))                                                       \
  U(C, SIGMOID, sigmoid, VML(sigmoid), COMPUTE, GRAD, SigmoidBackward0, d_sigmoid, j_sigmoid, RESULT, \
    INPLACE, LF_MG,                                                                                \
    HELP(HELP_TENSORS,                                                                             \
         "sigmoid(t) / t.sigmoid()",                                                               \
         "1 / (1 + exp(-t)), elementwise (SigmoidBackward0).",                                     \
         "print(sigmoid(tensor([0.0])))"))                                                         \
  U(C, RELU, relu, KERNELS(copy_b, relu_i, relu_f, relu_d), COMPUTE, GRAD, ReluBackward0, d_relu, j_relu, \
    RESULT, INPLACE, LF_MG,                                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "relu(t) / t.relu()",                                                                     \
         "max(t, 0) elementwise (ReluBackward0).",                                                 \
         "print(relu(tensor([-1.0, 2.0])))"))                                                      \
  U(C, GELU, gelu, FLOAT2(gelu), COMPUTE, GRAD, GeluBackward0, d_gelu, j_gelu, SELF, NO_INPLACE, LF_MG, \
    HELP(HELP_TENSORS,                                                                             \
         "gelu(t) / t.gelu()",                                                                     \
         "The Gaussian error linear unit (exact erf form, GeluBackward0).",                        \
         "print(gelu(tensor([0.0, 1.0])))"))                                                       \
  U(C, SIGN, sign, KERNELS(copy_b, sign_i, sign_f, sign_d), COMPUTE, GRAD, SignBackward0, d_zero, j_zero, \
    NOTHING, INPLACE, LF_MG,                                                                       \
    HELP(HELP_TENSORS,                                                                             \
         "sign(t) / t.sign()",                                                                     \
         "-1, 0 or 1 by the sign of each element.",                                                \
         "print(tensor([-3.0, 0.0, 2.0]).sign())"))                                                \
  U(C, FLOOR, floor, SAME_FOR_INT(floor), COMPUTE, GRAD, FloorBackward0, d_zero, j_zero, NOTHING, INPLACE, \
    LF_MGW,                                                                                        \
    HELP(HELP_BUILTINS,                                                                            \
         "floor(x)",                                                                               \
         "Largest int not above x (an int for a number; a tensor elementwise).",                   \
         "print(floor(-1.5))"))                                                                    \
  U(C, CEIL, ceil, SAME_FOR_INT(ceil), COMPUTE, GRAD, CeilBackward0, d_zero, j_zero, NOTHING, INPLACE, \
    LF_MGW,                                                                                        \
    HELP(HELP_BUILTINS,                                                                            \
         "ceil(x)",                                                                                \
         "Smallest int not below x (an int for a number; a tensor elementwise).",                  \
         "print(ceil(1.2))"))                                                                      \
  U(C, ROUND, round, SAME_FOR_INT(round), COMPUTE, GRAD, RoundBackward0, d_zero, j_zero, NOTHING, INPLACE, \
    OWN,                                                                                           \
    HELP(HELP_BUILTINS,                                                                            \
         "round(x) / round(x, ndigits)",                                                           \
         "Rounds to the nearest int, halves to even (an int, as Python's); with ndigits, a "       \
         "float rounded to that many decimals. On a tensor: elementwise.",                         \
         "print(round(2.5), round(3.5), round(2.675, 2), round(tensor([0.4, 1.6])))"))             \
  U(C, LOGICAL_NOT, logical_not, ALL4(lnot), BOOL, NO_GRAD, NONE, none, none, NOTHING, INPLACE, LF_MG, \
    HELP(HELP_TENSORS,                                                                             \
         "logical_not(t) / t.logical_not()",                                                       \
         "Elementwise not, as a bool tensor.",                                                     \
         "print(tensor([true, false]).logical_not())"))                                            \
  U(C, ISNAN, isnan, KERNELS(false_b, false_i, isnan_f, isnan_d), BOOL, NO_GRAD, NONE, none, none, \
    NOTHING, NO_INPLACE, LF_MG,                                                                    \
    HELP(HELP_TENSORS,                                                                             \
         "isnan(t) / t.isnan()",                                                                   \
         "A bool tensor: true where an element is NaN (never for integers and bools).",            \
         "print(tensor([1.0, nan]).isnan())"))                                                     \
  U(C, ISINF, isinf, KERNELS(false_b, false_i, isinf_f, isinf_d), BOOL, NO_GRAD, NONE, none, none, \
    NOTHING, NO_INPLACE, LF_MG,                                                                    \
    HELP(HELP_TENSORS,                                                                             \
         "isinf(t) / t.isinf()",                                                                   \
         "A bool tensor: true where an element is inf or -inf.",                                   \
         "print(tensor([1.0, -inf]).isinf())"))                                                    \
  U(C, ISFINITE, isfinite, KERNELS(true_b, true_i, isfinite_f, isfinite_d), BOOL, NO_GRAD, NONE,   \
    none, none, NOTHING, NO_INPLACE, LF_MG,                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "isfinite(t) / t.isfinite()",                                                             \
         "A bool tensor: true where an element is neither NaN nor infinite.",                      \
         "print(tensor([1.0, inf, nan]).isfinite())"))                                             \

/* ---- binary, broadcasting: B(C, ENUM, name, symbol, kernels, result, grad,
 *      node, formula, jvp, self, other, res, other_name, number_form, number_node,
 *      number_saves, bind, help) ----
 * symbol   the script's operator that means the op ("+"), or NULL.
 * kernels  per operand dtype, as above: ALL4(f), NUM3(f) (no bool loop),
 *          FLOAT2(f); an input dtype without a loop is PyTorch's
 *          "NAME_cpu" not implemented error, unless the result rule
 *          computes in float.
 * result   PROMOTE: PyTorch's promoted dtype; TO_FLOAT: the same, integers
 *          and bools computed in float32 (true division, xlogy); BOOL: a
 *          bool tensor (the comparisons).
 * grad     GRAD (node, formula and jvp as for unary ops), NO_GRAD, or
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
  B(C, ADD, add, "+", ALL4(add), PROMOTE, GRAD, AddBackward0, d_add, j_add, NEVER, NEVER, NEVER,   \
    "other", WRAPPED, AddBackward0, NOTHING, OWN,                                                  \
    HELP(HELP_TENSORS,                                                                             \
         "add(a, b, alpha=1) / a.add(b, alpha=1)",                                                 \
         "a + b with broadcasting (AddBackward0); with alpha, a + alpha * b rounded once (a "      \
         "fused multiply-add, as ATen's kernel).",                                                 \
         "print(ones(2).add(1))\n"                                                                 \
         "print(ones(2).add(tensor([1.0, 2.0]), alpha=0.5))"))                                     \
  B(C, SUB, sub, "-", NUM3(sub), PROMOTE, GRAD, SubBackward0, d_sub, j_sub, NEVER, NEVER, NEVER,   \
    "other", WRAPPED, SubBackward0, NOTHING, OPERAND,                                              \
    HELP(HELP_TENSORS,                                                                             \
         "sub(a, b) / a.sub(b)",                                                                   \
         "a - b with broadcasting (SubBackward0).",                                                \
         "print(ones(2).sub(3))"))                                                                 \
  B(C, MUL, mul, "*", ALL4(mul), PROMOTE, GRAD, MulBackward0, d_mul, j_mul, IF_OTHER, IF_SELF, NEVER, \
    "other", WRAPPED, MulBackward0, NUMBER, OPERAND,                                               \
    HELP(HELP_TENSORS,                                                                             \
         "mul(a, b) / a.mul(b)",                                                                   \
         "a * b elementwise with broadcasting (MulBackward0).",                                    \
         "print(tensor([1.0, 2.0]).mul(tensor([3.0, 4.0])))"))                                     \
  B(C, DIV, div, "/", FLOAT2(div), TO_FLOAT, GRAD, DivBackward0, d_div, j_div, IF_OTHER, ALWAYS, NEVER, \
    "other", WRAPPED, DivBackward0, NUMBER, OPERAND,                                               \
    HELP(HELP_TENSORS,                                                                             \
         "div(a, b) / a.div(b)",                                                                   \
         "a / b elementwise with broadcasting (DivBackward0); integer tensors give float32.",      \
         "print(tensor([1.0, 2.0]).div(2))"))                                                      \
  B(C, POW, pow, "**", NUM3(pow), PROMOTE, GRAD, PowBackward1, d_pow_tensor, j_pow_tensor, ALWAYS, ALWAYS, \
    IF_OTHER, "exponent", ARGUMENT, PowBackward0, SELF, OPERAND,                                   \
    HELP(HELP_TENSORS,                                                                             \
         "pow(t, exponent) / t.pow(exponent)",                                                     \
         "t ** exponent elementwise (PowBackward0 / PowBackward1).",                               \
         "print(tensor([2.0, 3.0]).pow(2))"))                                                      \
  B(C, MOD, remainder, "%", NUM3(mod), PROMOTE, GRAD, RemainderBackward1, d_remainder, j_remainder, ALWAYS, \
    ALWAYS, NEVER, "other", ARGUMENT, RemainderBackward0, NOTHING, OPERAND,                        \
    HELP(HELP_TENSORS,                                                                             \
         "remainder(a, b) / a.remainder(b)",                                                       \
         "a % b elementwise, with the sign of the divisor as Python's.",                           \
         "print(tensor([5.0, -5.0]).remainder(3))"))                                               \
  B(C, FLOOR_DIVIDE, floor_divide, "//", NUM3(floordiv), PROMOTE, NOT_IMPLEMENTED,                 \
    NotImplemented, none, none, NEVER, NEVER, NEVER, "other", ARGUMENT, NotImplemented, NOTHING,   \
    OPERAND,                                                                                       \
    HELP(HELP_TENSORS,                                                                             \
         "floor_divide(a, b) / a.floor_divide(b)",                                                 \
         "a // b elementwise: the quotient rounded toward minus infinity, as PyTorch 1.13's "      \
         "floor_divide "                                                                           \
         "(an int tensor by 0 is ZeroDivisionError). No derivative: the node is "                  \
         "NotImplemented.",                                                                        \
         "print(tensor([7, -7]).floor_divide(2))"))                                                \
  B(C, MAXIMUM, maximum, NULL, ALL4(max), PROMOTE, GRAD, MaximumBackward0, d_maximum, j_maximum, ALWAYS, \
    ALWAYS, NEVER, "other", TENSOR, MaximumBackward0, NOTHING, TENSORS,                            \
    HELP(HELP_TENSORS,                                                                             \
         "maximum(a, b) / a.maximum(b)",                                                           \
         "The elementwise larger of two tensors (broadcasting).",                                  \
         "print(maximum(tensor([1.0, 5.0]), tensor([3.0, 2.0])))"))                                \
  B(C, MINIMUM, minimum, NULL, ALL4(min), PROMOTE, GRAD, MinimumBackward0, d_minimum, j_minimum, ALWAYS, \
    ALWAYS, NEVER, "other", TENSOR, MinimumBackward0, NOTHING, TENSORS,                            \
    HELP(HELP_TENSORS,                                                                             \
         "minimum(a, b) / a.minimum(b)",                                                           \
         "The elementwise smaller of two tensors (broadcasting).",                                 \
         "print(minimum(tensor([1.0, 5.0]), tensor([3.0, 2.0])))"))                                \
  B(C, XLOGY, xlogy, NULL, FLOAT2(xlogy), TO_FLOAT, GRAD, XlogyBackward0, d_xlogy, j_xlogy, ALWAYS, \
    ALWAYS, NEVER, "other", TENSOR, XlogyBackward0, NOTHING, NO_BIND, NO_HELP)                     \
  B(C, LOGADDEXP, logaddexp, NULL, FLOAT2(logaddexp), PROMOTE, GRAD, LogaddexpBackward0,           \
    d_logaddexp, j_logaddexp, ALWAYS, ALWAYS, NEVER, "other", TENSOR, LogaddexpBackward0, NOTHING, TENSORS, \
    HELP(HELP_TENSORS, "logaddexp(a, b) / a.logaddexp(b)",                                         \
         "log(exp(a) + exp(b)) of each pair of elements, broadcasting, computed without "          \
         "overflow (float tensors only, as in PyTorch; LogaddexpBackward0).",                      \
         "print(logaddexp(tensor([0.0, 1000.0]), tensor([0.0, 1000.0])))"))                        \
  B(C, EQ, eq, "==", ALL4(eq), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER, NEVER, "", ARGUMENT, \
    NONE, NOTHING, OPERAND,                                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "eq(a, b) / a.eq(b)",                                                                     \
         "a == b elementwise (a bool tensor, no gradient).",                                       \
         "print(tensor([1, 2]).eq(tensor([1, 3])))"))                                              \
  B(C, NE, ne, "!=", ALL4(ne), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER, NEVER, "", ARGUMENT, \
    NONE, NOTHING, OPERAND,                                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "ne(a, b) / a.ne(b)",                                                                     \
         "a != b elementwise (bool).",                                                             \
         "print(tensor([1, 2]).ne(1))"))                                                           \
  B(C, LT, lt, "<", ALL4(lt), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER, NEVER, "", ARGUMENT,  \
    NONE, NOTHING, OPERAND,                                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "lt(a, b) / a.lt(b)",                                                                     \
         "a < b elementwise (bool).",                                                              \
         "print(tensor([1, 2]).lt(2))"))                                                           \
  B(C, LE, le, "<=", ALL4(le), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER, NEVER, "", ARGUMENT, \
    NONE, NOTHING, OPERAND,                                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "le(a, b) / a.le(b)",                                                                     \
         "a <= b elementwise (bool).",                                                             \
         "print(tensor([1, 2]).le(1))"))                                                           \
  B(C, GT, gt, ">", ALL4(gt), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER, NEVER, "", ARGUMENT,  \
    NONE, NOTHING, OPERAND,                                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "gt(a, b) / a.gt(b)",                                                                     \
         "a > b elementwise (bool).",                                                              \
         "print(tensor([1, 2]).gt(1))"))                                                           \
  B(C, GE, ge, ">=", ALL4(ge), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER, NEVER, "", ARGUMENT, \
    NONE, NOTHING, OPERAND,                                                                        \
    HELP(HELP_TENSORS,                                                                             \
         "ge(a, b) / a.ge(b)",                                                                     \
         "a >= b elementwise (bool).",                                                             \
         "print(tensor([1, 2]).ge(2))"))                                                           \
  B(C, LOGICAL_AND, logical_and, NULL, ALL4(land), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER,  \
    NEVER, "", ARGUMENT, NONE, NOTHING, TENSORS,                                                   \
    HELP(HELP_TENSORS,                                                                             \
         "logical_and(a, b) / a.logical_and(b)",                                                   \
         "Elementwise `a and b` of the truth of each element (nonzero), broadcasting: a bool "     \
         "tensor.",                                                                                \
         "print(logical_and(tensor([true, false]), tensor([true, true])))"))                       \
  B(C, LOGICAL_OR, logical_or, NULL, ALL4(lor), BOOL, NO_GRAD, NONE, none, none, NEVER, NEVER, NEVER, \
    "", ARGUMENT, NONE, NOTHING, TENSORS,                                                          \
    HELP(HELP_TENSORS,                                                                             \
         "logical_or(a, b) / a.logical_or(b)",                                                     \
         "Elementwise `a or b` of the truth of each element (nonzero), broadcasting: a bool "      \
         "tensor.",                                                                                \
         "print(tensor([0, 2]).logical_or(tensor([0, 0])))"))                                      \

#endif
