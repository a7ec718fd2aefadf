from agfmt import P
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * w).sum()
d = w.data
d.mul_(2)
P(w, w._version, d._version)
y.backward()
P(w.grad)
e = d[1:]
e.add_(1)
P(w, d._version, w._version, w.data._version)
P(w.data.requires_grad, w.data.is_leaf, w.data.grad_fn)

v = torch.tensor([1.0, 2.0], requires_grad=True)
z = (v * v).sum()
u = v.detach()
u.mul_(2)
P(v._version, u._version)
try:
    z.backward()
except RuntimeError as err:
    P(str(err)[0:96])
