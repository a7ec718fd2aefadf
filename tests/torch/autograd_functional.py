# autograd.functional: vjp, jvp, vhp, hvp, jacobian and hessian; a tensor or a tuple in and out, create_graph, strict, vectorize, and the errors
import torch
from torch.autograd.functional import vjp, jvp, vhp, hvp, jacobian, hessian
from agfmt import P, error_of as msg


def exp_reducer(x):
    return x.exp().sum(dim=1)


def adder(x, y):
    return 2 * x + 3 * y


def pow_reducer(x):
    return x.pow(3).sum()


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


def two_outputs(x, y):
    return (x * y, x.sin() + y)


def linear(x):
    return 3 * x


def ignores_y(x, y):
    return x * x


x = torch.arange(6, dtype=torch.float64).reshape(2, 3) / 5
a = torch.tensor([0.5, -1.0, 2.0])
b = torch.tensor([1.5, 0.25, -0.5])
v2 = torch.ones(2, dtype=torch.float64)
v23 = torch.ones(2, 3, dtype=torch.float64)

P(vjp(exp_reducer, x, v2))
P(vjp(exp_reducer, x, v2, create_graph=True))
P(vjp(adder, (a, b), torch.ones(3)))
P(vjp(pow_reducer, a))
P(vjp(two_outputs, (a, b), (torch.ones(3), torch.tensor([1.0, 2.0, 3.0]))))
P(vjp(ignores_y, (a, b), torch.ones(3)))
P(msg(lambda: vjp(ignores_y, (a, b), torch.ones(3), strict=True)))
P(msg(lambda: vjp(lambda t: torch.ones(3), a, torch.ones(3), strict=True)))
P(msg(lambda: vjp(exp_reducer, x)))
P(msg(lambda: vjp(exp_reducer, x, torch.ones(3, dtype=torch.float64))))
P(msg(lambda: vjp(two_outputs, (a, b), (torch.ones(3),))))
P(msg(lambda: vjp(two_outputs, (a, b), (torch.ones(3), torch.ones(2)))))
P(msg(lambda: vjp(exp_reducer, [x], v2)))
P(msg(lambda: vjp(adder, (a, 2.0), torch.ones(3))))
P(msg(lambda: vjp(lambda t: 3, a)))

P(jvp(exp_reducer, x, v23))
P(jvp(exp_reducer, x, v23, create_graph=True))
P(jvp(adder, (a, b), (torch.ones(3), torch.tensor([1.0, 0.0, -1.0]))))
P(jvp(two_outputs, (a, b), (torch.ones(3), torch.ones(3))))
P(jvp(lambda t: t * t, torch.tensor(3.0)))
P(jvp(ignores_y, (a, b), (torch.ones(3), torch.ones(3))))
P(msg(lambda: jvp(linear, a, torch.ones(3), strict=True)))
P(msg(lambda: jvp(lambda t: t.detach(), a, torch.ones(3), strict=True)))
P(msg(lambda: jvp(exp_reducer, x)))
P(msg(lambda: jvp(adder, (a, b), torch.ones(3))))

P(jacobian(exp_reducer, x))
P(jacobian(exp_reducer, x, create_graph=True))
P(jacobian(exp_reducer, x, vectorize=True))
P(jacobian(adder, (a, b)))
P(jacobian(two_outputs, (a, b)))
P(jacobian(two_outputs, (a, b), vectorize=True))
P(jacobian(ignores_y, (a, b)))
P(jacobian(ignores_y, (a, b), vectorize=True))
P(jacobian(lambda t: t.sum(), a))
P(msg(lambda: jacobian(ignores_y, (a, b), strict=True)))
P(msg(lambda: jacobian(ignores_y, (a, b), strict=True, vectorize=True)))
P(msg(lambda: jacobian(linear, a, create_graph=True, strict=True)))
P(msg(lambda: jacobian(linear, a, strategy="sideways")))
P(msg(lambda: jacobian(linear, a, strategy="forward-mode", create_graph=True)))
P(msg(lambda: jacobian(linear, a, strategy="forward-mode", strict=True)))
P(msg(lambda: jacobian(linear, a, strategy="forward-mode")))

P(hessian(pow_reducer, a))
P(hessian(pow_reducer, a, create_graph=True))
P(hessian(pow_reducer, a, vectorize=True))
P(hessian(pow_adder_reducer, (a, b)))
P(hessian(lambda t: (t.exp() * t).sum(), x))
P(msg(lambda: hessian(lambda t: t * 2, a)))
P(msg(lambda: hessian(lambda t: (t * 2, t), a)))
P(msg(lambda: hessian(lambda t: t.sum() * 2, a, strict=True)))
P(msg(lambda: hessian(lambda t, u: (t * t).sum(), (a, b), strict=True)))

P(vhp(pow_reducer, a, torch.ones(3)))
P(vhp(pow_reducer, a, torch.ones(3), create_graph=True))
P(vhp(pow_adder_reducer, (a, b), (torch.ones(3), torch.tensor([1.0, 2.0, 3.0]))))
P(vhp(lambda t: t ** 4, torch.tensor(2.0)))
P(hvp(pow_reducer, a, torch.ones(3)))
P(hvp(pow_reducer, a, torch.ones(3), create_graph=True))
P(hvp(pow_adder_reducer, (a, b), (torch.ones(3), torch.tensor([1.0, 2.0, 3.0]))))
P(hvp(lambda t: t ** 4, torch.tensor(2.0)))
P(hvp(lambda t, u: (t * t).sum(), (a, b), (torch.ones(3), torch.ones(3))))
P(msg(lambda: vhp(lambda t: (t * t).sum(), a, torch.ones(3), strict=True)))
P(msg(lambda: hvp(lambda t: (t * 2).sum(), a, torch.ones(3), strict=True)))
P(msg(lambda: hvp(lambda t, u: (t * t).sum(), (a, b), (torch.ones(3), torch.ones(3)), strict=True)))
P(msg(lambda: vhp(pow_reducer, a)))
P(msg(lambda: hvp(lambda t: t * t, a, torch.ones(3))))
P(msg(lambda: vhp(lambda t: (t, t), a, torch.ones(3))))
P(msg(lambda: hvp(pow_reducer, a, torch.ones(2))))

# captured tensors stay apart from the inputs, and the results carry no history without create_graph
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out, g = vjp(lambda t: (t * w).sum(), w)
P(out, g, g.requires_grad, w.grad)
out, g = vjp(lambda t: (t * w).sum(), w, create_graph=True)
P(out.requires_grad, g.requires_grad)
with torch.no_grad():
    P(jacobian(lambda t: t * t, a), hvp(pow_reducer, a, torch.ones(3)))
