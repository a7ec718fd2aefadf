# The activations of ops/activations.h in place (inplace=True), as PyTorch 1.13: the input is
# overwritten, its history ends in the activation's node, and the gradient flows through it.
from agfmt import P
import torch
import torch.nn.functional as F

w = torch.tensor([-1.5, -0.25, 0.5, 2.0], requires_grad=True)
for name in ["leaky_relu", "elu", "silu", "hardtanh"]:
    x = w * 1.0
    y = getattr(F, name)(x, inplace=True)
    P(name, y is x, x, x.grad_fn)
    y.sum().backward()
    P(w.grad)
    w.grad = None
x = w * 1.0
F.leaky_relu(x, 0.2, True)
P(x)
x = w * 1.0
F.hardtanh(x, -0.5, 1.0, True)
P(x)
for f, a in [(F.leaky_relu, -0.2), (F.elu, -0.5)]:
    x = w * 1.0
    y = f(x, a, True)
    try:
        y.sum().backward()
    except RuntimeError as e:
        P(str(e))
