# PyTorch twin of examples/seed004_requires_grad.ag
import torch
from agfmt import fmt

a = torch.tensor(2.0)
b = a * 3
print(f"b: {fmt(b)}")
print(f"b.requires_grad: {fmt(b.requires_grad)}")
print(f"b has grad_fn: {fmt(b.grad_fn is not None)}")
c = torch.tensor(2.0, requires_grad=True)
d = c * 3
print(f"d: {fmt(d)}")
print(f"d.requires_grad: {fmt(d.requires_grad)}")
print(f"d has grad_fn: {fmt(d.grad_fn is not None)}")
e = b + d
print(f"e = b + d: {fmt(e)}")
a.requires_grad = True
print(f"a * 3 now: {fmt(a * 3)}")
