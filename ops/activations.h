/* activations.h — the registry of the activations with number parameters
 * (torch.nn.functional's leaky_relu, elu, silu, softplus, hardtanh): ONE row
 * per op, as ops/elementwise.h is for the elementwise ops.
 *
 * Every layer reads the columns it knows and ignores the others, so this
 * file depends on nothing:
 *   autograd/  the enum (AG_ACT_LEAKY_RELU), the forward, the node kind and
 *              its derivative formula, and the node-kind list itself
 *                                                  (autograd/ops_act.c, autograd.h)
 *   stdlib/    F.NAME: its binding, parameters by name with their defaults,
 *              and inplace= when the row has it      (stdlib/lib_functional.c)
 *   repl/      the :help entry `nn.functional.NAME`  (repl/help_natives.c)
 *   tests/     the gradient check of every row      (tests/unit/test_autograd_ops.c)
 * Adding such an activation is: its row here, its forward act_NAME in
 * autograd/ops_act.c, its derivative formula in autograd/derivatives.c, a
 * test (docs/internals.md, "An op with parameters: hardtanh").
 *
 * ---- A(C, NAME, name, node, formula, inplace, inode, iformula, params, test, help) ----
 * NAME     the enum's suffix: AG_ACT_NAME.
 * name     F.name; the forward is act_name(x, p) of autograd/ops_act.c (the
 *          values, not recorded: its dtype checks and PyTorch's messages).
 * node     PyTorch 1.13's node name, recorded with the input saved as
 *          "self" and the parameters as s0, s1; formula: its derivative in
 *          derivatives.c (reading them through node_p(n)). Forward mode
 *          applies the formula to the tangent (jvp_diagonal).
 * inplace  INPLACE: F.name(..., inplace=false) may write into its input,
 *          whose history then ends in the row's node (PyTorch's name_);
 *          INPLACE_OWN_NODE: the same, recorded as the node inode, whose
 *          formula iformula reads the saved result instead of the input
 *          (PyTorch's LeakyReluBackward1); NO_INPLACE. inode and iformula
 *          are NONE unless INPLACE_OWN_NODE.
 * params   the number parameters after the input, by name with defaults:
 *          PARAMS0(), PARAMS1(n, d), PARAMS2(n1, d1, n2, d2).
 * test     TEST(p0, p1): the parameters of its gradient check, whose points
 *          are -0.27 -0.12 0.03 0.73 0.88 1.58: kinks and bounds off them.
 * help     HELP(signature, text, example): the :help entry.
 */
#ifndef AG_OPS_ACTIVATIONS_H
#define AG_OPS_ACTIVATIONS_H

#define AG_ACT_MAX_PARAMS 2

#define AG_ACTIVATION_REGISTRY(A, C)                                                               \
  A(C, LEAKY_RELU, leaky_relu, LeakyReluBackward0, d_leaky_relu,                                   \
    INPLACE_OWN_NODE, LeakyReluBackward1, d_leaky_relu_result,                                     \
    PARAMS1(negative_slope, 0.01), TEST(0.1, 0),                                                   \
    HELP("F.leaky_relu(input, negative_slope=0.01, inplace=false)",                                \
         "x where x > 0, else negative_slope * x (LeakyReluBackward0; in place "                   \
         "LeakyReluBackward1, which needs a slope >= 0). Float tensors only.",                     \
         "print(nn.functional.leaky_relu(tensor([-2.0, 3.0]), 0.1))"))                            \
  A(C, ELU, elu, EluBackward0, d_elu, INPLACE_OWN_NODE, EluBackward1, d_elu_result,                \
    PARAMS1(alpha, 1.0), TEST(1.0, 0),                                                             \
    HELP("F.elu(input, alpha=1, inplace=false)",                                                   \
         "x where x > 0, else alpha * (exp(x) - 1) (EluBackward0; in place EluBackward1, "         \
         "which needs alpha >= 0). Float tensors only.",                                           \
         "print(nn.functional.elu(tensor([-1.0, 2.0])))"))                                        \
  A(C, SILU, silu, SiluBackward0, d_silu, INPLACE, NONE, NONE, PARAMS0(), TEST(0, 0),              \
    HELP("F.silu(input, inplace=false)", "x * sigmoid(x), also called swish (SiluBackward0).",     \
         "print(nn.functional.silu(tensor([-1.0, 2.0])))"))                                       \
  A(C, SOFTPLUS, softplus, SoftplusBackward0, d_softplus, NO_INPLACE, NONE, NONE,                  \
    PARAMS2(beta, 1.0, threshold, 20.0), TEST(2.0, 20.0),                                          \
    HELP("F.softplus(input, beta=1, threshold=20)",                                                \
         "log(1 + exp(beta * x)) / beta, and x itself where beta * x > threshold "                 \
         "(SoftplusBackward0).",                                                                   \
         "print(nn.functional.softplus(tensor([-1.0, 30.0])))"))                                  \
  A(C, HARDTANH, hardtanh, HardtanhBackward0, d_hardtanh, INPLACE, NONE, NONE,                     \
    PARAMS2(min_val, -1.0, max_val, 1.0), TEST(-0.5, 0.8),                                         \
    HELP("F.hardtanh(input, min_val=-1, max_val=1, inplace=false)",                                \
         "x clamped to [min_val, max_val], as PyTorch's clamp (an integer tensor stays one), "     \
         "with a node of its own (HardtanhBackward0): the gradient is zero at the bounds, "        \
         "where clamp's is not.",                                                                  \
         "print(nn.functional.hardtanh(tensor([-2.0, 0.5, 3.0])))"))

/* The number of parameters of a row's params column. */
#define AG_ACT_NPARAMS(params) AG_ACT_NPARAMS_##params
#define AG_ACT_NPARAMS_PARAMS0() 0
#define AG_ACT_NPARAMS_PARAMS1(n, d) 1
#define AG_ACT_NPARAMS_PARAMS2(n1, d1, n2, d2) 2

#endif
