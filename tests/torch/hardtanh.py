# F.hardtanh and nn.Hardtanh (PyTorch 1.13): clamp's values, HardtanhBackward0's gradient (none at
# or beyond the bounds, where clamp's passes), integers kept, bools refused, in place.
from agfmt import P
import torch
import torch.nn as nn
import torch.nn.functional as F


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e)


x = torch.tensor([-3.0, -2.0, -0.5, 0.5, 2.0, 3.0, float("nan")], requires_grad=True)
y = F.hardtanh(x, -2.0, 2.0)
P(y, y.grad_fn)
y.sum().backward()
P(x.grad)
x.grad = None
c = torch.clamp(x, -2.0, 2.0)
c.sum().backward()
P(x.grad)
P(F.hardtanh(torch.tensor([-1.5, 0.25, 1.5])), F.hardtanh(torch.tensor([-3, 0, 2])))
P(F.hardtanh(torch.tensor([[0.5, -4.0]], dtype=torch.float64), min_val=-0.25, max_val=0.75))
P(msg(lambda: F.hardtanh(torch.tensor([True]))))
m = nn.Hardtanh(-2.0, 2.0)
P(str(m), str(nn.Hardtanh()), m(torch.tensor([-5.0, 1.0])))
a = torch.tensor([-3.0, 0.5, 4.0], requires_grad=True)
b = a * 2
r = F.hardtanh(b, inplace=True)
P(b, b.grad_fn, r is b)
b.sum().backward()
P(a.grad)
P(str(nn.Hardtanh(inplace=True)))
