# PyTorch twin of examples/seed004_grad_accumulation.ag
import torch
from agfmt import fmt

x = torch.tensor(2.0, requires_grad=True)
y = x * 2
y.backward(retain_graph=True)
print(f"Gradient after first backward: {fmt(x.grad)}")
y.backward(retain_graph=True)
print(f"Gradient after second backward: {fmt(x.grad)}")
x.grad.zero_()
print(f"Gradient after reset: {fmt(x.grad)}")
y.backward()
print(f"Gradient after new backward: {fmt(x.grad)}")
