# PyTorch twin of examples/seed004_backward.ag
import torch
from agfmt import P, fmt

x = torch.tensor(2.0, requires_grad=True)
y = x * 2 + x ** 2
y.backward()
print(f"x: {fmt(x)}")
print(f"y = 2x + x^2: {fmt(y)}")
print(f"dy/dx = 2 + 2x = {fmt(x.grad)}")
for value in [-1.0, 0.0, 0.5, 3.0]:
    xv = torch.tensor(float(value), requires_grad=True)
    yv = xv * 2 + xv ** 2
    yv.backward()
    print(f"x = {fmt(value)}: dy/dx = {fmt(xv.grad.item())}, expected {fmt(2 + 2 * value)}")
P("x.grad requires grad:", x.grad.requires_grad)
