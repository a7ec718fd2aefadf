# PyTorch twin of examples/seed000_pitfalls.ag
import torch
from agfmt import P, fmt

w = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])
for step in range(3):
    loss = (w * x).sum()
    loss.backward()
    print(f"step {step}: w.grad = {fmt(w.grad)}")
for step in range(3):
    w.grad = None
    loss = (w * x).sum()
    loss.backward()
    print(f"zeroed, step {step}: w.grad = {fmt(w.grad)}")

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.exp()
b.mul_(2)
try:
    b.sum().backward()
except RuntimeError as e:
    P("in-place error:", str(e).startswith("one of the variables needed for gradient computation has been modified by an inplace operation"))
c = a.exp() * 2
c.sum().backward()
P("out-of-place gradient:", a.grad)

d = (a * a).sum()
d.backward(retain_graph=True)
d.backward()
try:
    d.backward()
except RuntimeError as e:
    P("third backward:", str(e).startswith("Trying to backward through the graph a second time"))
