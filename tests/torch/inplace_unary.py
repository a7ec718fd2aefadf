# bit-exact on: avx2
# tolerance: rtol=2e-6 atol=1e-6
# The ops added through the registry (ops/elementwise.h): log10, log2, logaddexp, and every
# in-place unary method, with PyTorch's in-place autograd: the node of the op, the gradient
# through it, the version check of what it saved, the leaf and dtype errors (PyTorch 1.13).
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e)


x = torch.arange(12).float() * 3.7 + 0.01
P(torch.log10(x).tolist())
P(torch.log2(x).tolist())
P(x.double().log10().tolist(), x.double().log2().tolist())
P(torch.log10(torch.tensor([1, 10, 1000])), torch.log2(torch.tensor([True, False])))
P(torch.log10(torch.tensor([0.0, -1.0, float("inf")])), torch.log2(torch.tensor([0.0, -1.0])))
xs = torch.tensor([0.5, 2.0, 4.0], requires_grad=True)
(torch.log10(xs) + torch.log2(xs)).sum().backward()
P(xs.grad, torch.log10(xs).grad_fn, torch.log2(xs).grad_fn)

# every in-place unary method: value, node and gradient
names = ["sqrt_", "exp_", "log_", "log10_", "log2_", "sin_", "cos_", "tan_", "tanh_",
         "sigmoid_", "relu_", "abs_", "neg_", "sign_", "floor_", "ceil_", "round_"]
for name in names:
    a = torch.tensor([0.25, 1.5, 3.0], requires_grad=True)
    b = a * 1
    r = getattr(b, name)()
    P(name, b, r is b, b.grad_fn)
    b.sum().backward()
    P(a.grad)

# what the formula saved was overwritten: the version check fails as in PyTorch
for name in ["exp_", "sqrt_", "tanh_", "sigmoid_", "relu_", "tan_"]:
    a = torch.tensor([0.5, 2.0], requires_grad=True)
    b = a * 1
    getattr(b, name)()
    b.mul_(2)
    P(name, msg(lambda: b.sum().backward()).split(" instead.")[0])
# the input saved (log_, sin_) is the old value, which the op itself overwrote
a = torch.tensor([0.5, 2.0], requires_grad=True)
b = a * 1
c = b * 1
c.log_()
c.sum().backward()
P(a.grad)
# a leaf that requires grad, an integer tensor given a float result
P(msg(lambda: torch.tensor([1.0], requires_grad=True).exp_()))
P(msg(lambda: torch.tensor([1, 4]).sqrt_()))
P(msg(lambda: torch.tensor([True]).neg_()))
i = torch.tensor([-3, 2])
i.abs_()
i.neg_()
P(i)
f = torch.tensor([0.0, 2.0])
f.logical_not_()
P(f)
w = torch.tensor([0.25, 4.0], requires_grad=True)
with torch.no_grad():
    w.sqrt_()
P(w, w.requires_grad, w.grad_fn)

# logaddexp: values, the infinities, broadcasting, gradients, dtype errors
p0 = torch.tensor([0.0, 1.0, -2.0, 1000.0, float("inf"), float("-inf"), float("inf")])
q0 = torch.tensor([0.0, 3.0, -2.5, 1000.0, float("inf"), float("-inf"), float("-inf")])
P(torch.logaddexp(p0, q0).tolist(), p0.double().logaddexp(q0.double()).tolist())
P(torch.logaddexp(torch.tensor([[0.5], [1.5]]), torch.tensor([1.0, 2.0, 3.0])))
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0, -1.0], requires_grad=True)
r = torch.logaddexp(p, q)
P(r, r.grad_fn)
r.sum().backward()
P(p.grad, q.grad)
P(msg(lambda: torch.logaddexp(torch.tensor([1, 2]), torch.tensor([3, 4]))))
P(msg(lambda: torch.logaddexp(torch.tensor([True]), torch.tensor([True]))))
P(torch.logaddexp(torch.tensor([1.0, 2.0]), torch.tensor([3, 4])))
