from agfmt import P
import torch
from torch.autograd.functional import jacobian, hessian
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, [x], create_graph=True)
P(g)
g2, = torch.autograd.grad(g.sum(), [x])
P(g2, x.grad)
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
z = a * a * b + b.exp()
z.backward(create_graph=True)
P(a.grad, b.grad)
ga = a.grad
a.grad = None
b.grad = None
ga.backward()
P(a.grad, b.grad)
P(jacobian(lambda v: v ** 2 + v.sum(), torch.tensor([1.0, 2.0])))
P(hessian(lambda v: (v ** 3).sum() + v[0] * v[1], torch.tensor([1.0, 2.0])))
p = torch.tensor([1.0, -1.0], requires_grad=True)
q = p * 2
q.retain_grad()
r = q.exp()
r.register_hook(lambda g: g * 0 + 1)
r.sum().backward()
P(q.grad, p.grad)
u = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([3.0, 4.0], requires_grad=True)
(u * v).sum().backward(inputs=[u])
P(u.grad, v.grad)
w = u * 2
w.detach_()
P(w.requires_grad, w.grad_fn, w.is_leaf)
s = torch.tensor([4.0, 9.0], requires_grad=True)
out = s.sqrt() * s
out.backward(gradient=torch.tensor([1.0, 0.5]))
P(s.grad)
gs, = torch.autograd.grad([s.sum() * 2, (s * s).sum()], [s], grad_outputs=[torch.tensor(1.0), torch.tensor(2.0)])
P(gs)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
n = m.t() @ m
n.backward(gradient=torch.ones(2, 2))
P(m.grad)
