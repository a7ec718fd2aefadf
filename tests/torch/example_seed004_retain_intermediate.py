# PyTorch twin of examples/seed004_retain_intermediate.ag
import torch
from agfmt import P, fmt

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y ** 3
y.retain_grad()
y_val = y.detach().item()
P("y =", y_val)
z.backward(retain_graph=True)
print(f"First backward: x.grad = {fmt(x.grad)}")
print(f"dz/dy = 3 y^2 = {fmt(y.grad)}")
x.grad.zero_()
z.backward()
print(f"Second backward: x.grad = {fmt(x.grad)}")
