# func (functorch 1.13): grad with argnums and has_aux, grad_and_value,
# nested grad, vjp, jacrev, hessian, functional_call; no graph left behind.
from agfmt import P
import torch
import torch.nn as nn
from functorch import grad, grad_and_value, vjp, jacrev, hessian
from torch.nn.utils.stateless import functional_call

x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([0.5, -1.0, 2.0])


def f(x):
    return (x ** 3).sum()


g = grad(f)(x)
P(g, g.requires_grad, g.grad_fn is None)
P(grad(lambda a, b: (a * b.sin()).sum(), argnums=1)(x, y))
ga, gb = grad(lambda a, b: (a * a * b).sum(), argnums=(0, 1))(x, y)
P(ga, gb)
gx, aux = grad(lambda a: ((a ** 2).sum(), a.mean()), has_aux=True)(x)
P(gx, aux)
gv = grad_and_value(f)(x)
P(gv[0], gv[1])
(g2, (v2, aux2)) = grad_and_value(lambda a: ((a.exp()).sum(), a * 2), has_aux=True)(x)
P(g2, v2, aux2)
P(grad(grad(lambda t: t.sin() * t))(torch.tensor(0.7)))
P(grad(grad(grad(lambda t: t ** 4)))(torch.tensor(2.0)))
P(jacrev(grad(f))(x))
P(hessian(lambda v: (v ** 3).sum() + v[0] * v[1])(torch.tensor([1.0, 2.0])))
P(grad(lambda a: grad(lambda b: (a * b).sum())(a).sum())(x))

out, vjp_fn = vjp(lambda a: a.sin() * 2, x)
P(out, vjp_fn(torch.ones(3)))
out, vjp_fn = vjp(lambda a, b: (a * b, a + b), x, y)
P(out, vjp_fn((torch.ones(3), torch.tensor([1.0, 0.0, 2.0]))))
out, vjp_fn, aux = vjp(lambda a: (a ** 2, a.sum()), x, has_aux=True)
P(out, aux, vjp_fn(torch.ones(3)))

P(jacrev(lambda a: a ** 2 + a.sum())(torch.tensor([1.0, 2.0])))
P(jacrev(lambda a, b: a * b, argnums=(0, 1))(x, y))
P(jacrev(lambda m: m @ m)(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
P(jacrev(lambda a: a.sum(), argnums=0)(x))

torch.manual_seed(0)
model = nn.Linear(3, 2)
params = {name: p.detach() for name, p in model.named_parameters()}
params2 = {"weight": torch.ones(2, 3), "bias": torch.zeros(2)}
P(functional_call(model, params2, (x,)))
P(model(x))


def loss(params, inp):
    return functional_call(model, params, (inp,)).pow(2).sum()


gs = grad(loss)(params, x)
P(gs["weight"], gs["bias"])
P(model.weight.grad)

# an input that requires grad: ordinary autograd differentiates the result
xr = torch.tensor([1.0, 2.0], requires_grad=True)
gr = grad(lambda v: (v ** 3).sum())(xr)
P(gr)
gr.sum().backward()
P(xr.grad)
