# median() (the lower median of every element, NaN if any) and median(dim,
# keepdim) with PyTorch 1.13's index among equal values (rank (n-1)/2 in
# index order; the first NaN); gradients (MedianBackward0 shares among the
# equal elements or the NaNs, MedianBackward1 selects), gradcheck and
# gradgradcheck in float64; errors (Ag twin: median.ag)
from agfmt import P, msg
import torch
torch.manual_seed(2)
x = torch.randint(0, 4, (6, 11)).float()
x[1, 3] = float("nan")
x[4, 0] = float("nan")
x[4, 7] = float("nan")
for dim in [0, 1, -1]:
    r = x.median(dim)
    P(dim, r[0].tolist(), r[1].tolist())
r = torch.median(x, 1, keepdim=True)
P(r[0].shape, r[1].tolist())
P(x.median(), x[:3].median(), torch.tensor([3, 1, 2, 5]).median(), torch.tensor([]).median(), torch.tensor(2.5).median(0))
y = torch.randint(0, 30, (4, 301)).double()
P(y.median(1)[1].tolist(), y.median().item())
w = torch.tensor([[0.5, -1.0, 2.0, 0.25, 2.0], [1.5, 0.75, -0.5, 3.0, 0.75]], dtype=torch.float64, requires_grad=True)
m = w.median()
P(m, m.grad_fn.name())
m.backward()
P(w.grad)
w.grad = None
v = w.median(1)[0]
P(v.grad_fn.name())
(v * torch.tensor([1.0, 2.0], dtype=torch.float64)).sum().backward()
P(w.grad)
u = torch.tensor([1.0, float("nan"), 2.0, float("nan")], requires_grad=True)
u.median().backward()
P(u.grad)
u2 = torch.tensor([1.0, float("nan"), 2.0], requires_grad=True)
u2.max().backward()
P(u2.grad)
q = torch.tensor([[0.3, -1.2, 2.5], [0.7, 1.1, -0.4]], dtype=torch.float64, requires_grad=True)
P(torch.autograd.gradcheck(lambda t: t.median(1)[0], [q]), torch.autograd.gradgradcheck(lambda t: t.median(0, True)[0], [q]))
P(torch.autograd.gradcheck(lambda t: t.median(), [q]), torch.autograd.gradgradcheck(lambda t: t.median(), [q]))
P(msg(lambda: torch.zeros(2, 0).median(1)), msg(lambda: x.median(2)))
