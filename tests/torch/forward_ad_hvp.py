# forward-over-reverse (PyTorch 1.13): a dual tensor through backward gives a Hessian-vector product
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from agfmt import P

torch.manual_seed(0)
x0 = torch.randn(4, dtype=torch.float64, requires_grad=True)
v = torch.tensor([1.0, -0.5, 0.25, 2.0], dtype=torch.float64)


def f(x):
    return (x.sin() * x.exp()).sum() + (x @ x) ** 2 / 3 - x.logsumexp(0)


with fwAD.dual_level():
    x = fwAD.make_dual(x0, v)
    g = torch.autograd.grad(f(x), x, create_graph=True)[0]
    P("hvp, create_graph", fwAD.unpack_dual(g).tangent.detach())
    g = torch.autograd.grad(f(x), x)[0]
    P("hvp", fwAD.unpack_dual(g).tangent)
    P("gradient", fwAD.unpack_dual(g).primal)

# the same product through an MLP's parameters: the curvature along v
torch.manual_seed(1)
w1 = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
w2 = torch.randn(1, 5, dtype=torch.float64, requires_grad=True)
inp = torch.randn(8, 3, dtype=torch.float64)
target = torch.randn(8, 1, dtype=torch.float64)
v1 = torch.randn(5, 3, dtype=torch.float64)
with fwAD.dual_level():
    d1 = fwAD.make_dual(w1, v1)
    loss = ((torch.tanh(inp @ d1.t()) @ w2.t() - target) ** 2).mean()
    g1, g2 = torch.autograd.grad(loss, [d1, w2])
    P("mlp hvp w1", fwAD.unpack_dual(g1).tangent)
    P("mlp hvp w2", fwAD.unpack_dual(g2).tangent)

# reverse-over-forward: backward through a tangent
y = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(y, torch.ones(2, dtype=torch.float64))
    t = fwAD.unpack_dual((d ** 3).sum()).tangent
    t.backward()
P("d/dy of the jvp", y.grad)
