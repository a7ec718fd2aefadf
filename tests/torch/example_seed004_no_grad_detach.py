# PyTorch twin of examples/seed004_no_grad_detach.ag
import torch
from agfmt import fmt

x = torch.tensor(2.0, requires_grad=True)
y = x * 2
print(f"With tracking: {fmt(y.requires_grad)}, grad_fn: {fmt(y.grad_fn)}")
with torch.no_grad():
    z = x * 2
print(f"Without tracking: {fmt(z.requires_grad)}, grad_fn: {fmt(z.grad_fn)}")
w = x.detach() * 2
print(f"With detach(): {fmt(w.requires_grad)}, grad_fn: {fmt(w.grad_fn)}")
xd = x.detach()
xd.add_(1)
print(f"after xd.add_(1): x = {fmt(x)}")
