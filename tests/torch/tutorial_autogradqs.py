# The PyTorch tutorials' "Automatic Differentiation with torch.autograd"
# (beginner_source/basics/autogradqs_tutorial.py), its code cells; seeded,
# and printed through agfmt (a grad_fn without its address).
from agfmt import P, fmt
import torch

torch.manual_seed(0)

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

P(f"Gradient function for z = {fmt(z.grad_fn)}")
P(f"Gradient function for loss = {fmt(loss.grad_fn)}")

loss.backward()
P(w.grad)
P(b.grad)

z = torch.matmul(x, w)+b
P(z.requires_grad)

with torch.no_grad():
    z = torch.matmul(x, w)+b
P(z.requires_grad)

z = torch.matmul(x, w)+b
z_det = z.detach()
P(z_det.requires_grad)

inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
P(f"First call\n{fmt(inp.grad)}")
out.backward(torch.ones_like(out), retain_graph=True)
P(f"\nSecond call\n{fmt(inp.grad)}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
P(f"\nCall after zeroing gradients\n{fmt(inp.grad)}")
