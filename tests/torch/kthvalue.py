# kthvalue(k, dim, keepdim): values and the index PyTorch 1.13's
# quickselect picks among equal values, NaN largest, every dim and k;
# the gradient goes to the selected element (KthvalueBackward0), gradcheck
# and gradgradcheck in float64; errors (Ag twin: kthvalue.ag)
from agfmt import P, msg
import torch
torch.manual_seed(0)
x = torch.randint(0, 4, (5, 9)).float()
for dim in [0, 1, -1]:
    n = x.shape[dim]
    for k in range(1, n + 1):
        r = x.kthvalue(k, dim)
        P(dim, k, r[0].tolist(), r[1].tolist())
y = torch.randint(0, 50, (3, 200)).double()
r = torch.kthvalue(y, 77, 1, keepdim=True)
P(r[0].tolist(), r[1].tolist())
z = torch.tensor([2.0, float("nan"), -0.0, 0.0, 1.0, float("nan"), -1.0])
for k in range(1, 8):
    r = z.kthvalue(k)
    P(k, r[0].item(), r[1].item())
P(torch.arange(5).kthvalue(3), torch.tensor(7.5).kthvalue(1))
w = torch.tensor([[0.5, -1.0, 2.0, 0.25], [1.5, 0.75, -0.5, 3.0]], dtype=torch.float64, requires_grad=True)
v = w.kthvalue(2, 1)[0]
P(v, v.grad_fn.name())
(v * torch.tensor([1.0, 2.0], dtype=torch.float64)).sum().backward()
P(w.grad)
w.grad = None
w.kthvalue(1, 0, keepdim=True)[0].sum().backward()
P(w.grad)
P(torch.autograd.gradcheck(lambda t: t.kthvalue(3, 1)[0], [w]), torch.autograd.gradgradcheck(lambda t: t.kthvalue(2, 0, True)[0], [w]))
P(msg(lambda: x.kthvalue(10, 1)), msg(lambda: x.kthvalue(0)), msg(lambda: torch.zeros(0).kthvalue(1)), msg(lambda: x.kthvalue(1, 2)))
