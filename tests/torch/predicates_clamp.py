# isnan, isinf, isfinite, logical_and, logical_or (functions and methods), clamp_min, clamp_max (PyTorch 1.13)
from agfmt import P
import torch

x = torch.tensor([1.0, float("nan"), float("inf"), float("-inf"), -0.0, 0.5])
d = x.double()
P(x.isnan(), torch.isinf(x), x.isfinite(), d.isnan(), d.isinf(), torch.isfinite(d))
P(torch.tensor([1, -2]).isnan(), torch.tensor([1, -2]).isinf(), torch.tensor([1, -2]).isfinite())
P(torch.tensor([True, False]).isnan(), torch.tensor([True, False]).isfinite())
P(x.t().isnan(), torch.tensor(float("nan")).isnan())
a = torch.tensor([True, False, True, False])
b = torch.tensor([True, True, False, False])
P(torch.logical_and(a, b), a.logical_or(b), torch.logical_or(a, b), a.logical_and(b))
P(torch.tensor([[1.0], [0.0]]).logical_and(torch.tensor([2.0, 0.0, -1.0])))
P(torch.logical_or(torch.tensor([0, 3]), torch.tensor([0.0, 0.0])))
w = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -0.75]], requires_grad=True)
for y in [w.clamp_min(0.0), torch.clamp_min(w, 0.3), w.clamp_max(1.0), torch.clamp_max(w, -1.0)]:
    P(y, y.grad_fn)
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    P(w.grad)
    w.grad = None
P(torch.tensor([1, 5, -3]).clamp_min(0), torch.tensor([1, 5, -3]).clamp_max(2))
