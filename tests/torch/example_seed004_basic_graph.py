# PyTorch twin of examples/seed004_basic_graph.ag
import torch
from agfmt import P, fmt

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = x * y + torch.pow(x, 2)
print(f"x: {fmt(x)}")
print(f"y: {fmt(y)}")
print(f"z = x * y + x^2: {fmt(z)}")
P("the inputs of the last addition:", z.grad_fn.next_functions)
z.backward()
print(f"dz/dx = {fmt(x.grad)}, dz/dy = {fmt(y.grad)}")
