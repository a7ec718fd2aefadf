# PyTorch twin of examples/seed004_ex5_higher_order.ag
import warnings
import torch
from agfmt import P, fmt

warnings.simplefilter("ignore")  # PyTorch warns about backward(create_graph=True) on leaves
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
y.backward(create_graph=True)
dy = x.grad
print(f"dy/dx = 3x^2 = {fmt(dy.item())}")
P("the gradient has a graph:", dy.requires_grad, dy.grad_fn is not None)
d2y, = torch.autograd.grad(dy, x, create_graph=True)
print(f"d2y/dx2 = 6x = {fmt(d2y)}")
d3y, = torch.autograd.grad(d2y, x)
print(f"d3y/dx3 = 6 = {fmt(d3y)}")
P("x.grad is still the first derivative:", x.grad.item())
xs = torch.tensor([-1.0, 0.0, 1.0, 2.0, 3.0], requires_grad=True)
ys = xs ** 3
g1, = torch.autograd.grad(ys.sum(), xs, create_graph=True)
g2, = torch.autograd.grad(g1.sum(), xs, create_graph=True)
g3, = torch.autograd.grad(g2.sum(), xs)
P("x:     ", xs.detach())
P("3x^2:  ", g1.detach())
P("6x:    ", g2.detach())
P("6:     ", g3)
z = torch.tensor(2.0, requires_grad=True)
w = z ** 3
w.backward(retain_graph=True)
P("with retain_graph:", z.grad, "requires_grad:", z.grad.requires_grad)
w.backward()
P("a second backward adds up:", z.grad)
