from agfmt import P
import torch
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x * 2
y[1:3] = torch.tensor([10.0, 20.0])
P(y, y.grad_fn, y._version)
y.sum().backward()
P(x.grad)
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = a.clone()
b[0, 0] = b[1, 1] * 5
b.mul_(2)
P(b, b.grad_fn)
b.sum().backward()
P(a.grad)
c = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
d = c.exp()
e = d * 1
e.add_(c)
e.clamp_(min=0.0)
P(e, e.grad_fn)
e.sum().backward()
P(c.grad)
f = torch.tensor([0.5, 1.5], requires_grad=True)
g = f + 0
view = g[0]
view.mul_(3)
P(g, g.grad_fn, view.grad_fn)
g.sum().backward()
P(f.grad)
h = torch.zeros(3, requires_grad=True)
with torch.no_grad():
    h.add_(torch.tensor([1.0, 2.0, 3.0]))
    h[0] = 7
P(h, h._version, h.is_leaf)
k = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
mask_out = k * 1
mask_out[mask_out > 1.5] = 0
mask_out.sum().backward()
P(mask_out, k.grad)
idx = torch.tensor([0, 2, 0])
src = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
t = torch.zeros(3)
t2 = t + src[idx]
t2.sum().backward()
P(t2, src.grad)
