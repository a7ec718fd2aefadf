# PyTorch twin of view_copy_base.ag: in-place writes with history through
# views of tensors that do not require grad.
import torch
from agfmt import P

t = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
out = torch.zeros(2, 3)
v = out.transpose(0, 1)
v.copy_(t)
P(out, out.grad_fn, v.grad_fn, out.requires_grad)
(out * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
P(t.grad)

s = torch.tensor([1.0, 2.0], requires_grad=True)
base = torch.zeros(3, 4)
row = base[1]
part = row[1:3]
other = base[2]
part.mul_(0).add_(s * 3)
P(base, base.grad_fn, part.grad_fn, other.grad_fn)
(base.sum() + other.sum() + row.pow(2).sum()).backward()
P(s.grad)

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.zeros(3, 3)
m[:, 1].add_(w * w)
flat = torch.zeros(6)
flat.view(2, 3)[0].copy_(w)
P(m, m.grad_fn, flat, flat.grad_fn)
(m.sum() + flat.sum() * 2).backward()
P(w.grad)

q = torch.zeros(2, 2)
q.t()[0].copy_(torch.ones(2))
P(q, q.grad_fn, q.requires_grad)
r = torch.zeros(2)
with torch.no_grad():
    r[0:1].copy_(w[0:1])
P(r, r.grad_fn)
