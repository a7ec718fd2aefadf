# flip, tril, triu, cumsum: values, dtypes, views, gradients, errors (PyTorch 1.13)
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


x = torch.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -0.75, 2.5], [-2.0, 4.0, 1.0, 0.0]])
P(x.flip(0), x.flip([0, 1]), torch.flip(x, [-1]), x.t().flip(0), x.flip([]))
P(torch.arange(24).reshape(2, 3, 4).flip(1, 2))
P(torch.tensor(2.5).flip(0), torch.tensor([True, False, False]).flip(0))
P(x.tril(), x.tril(1), x.tril(-1), torch.tril(x, diagonal=5), x.tril(-5))
P(x.triu(), x.triu(2), x.triu(-1), torch.triu(x, diagonal=-5), x.t().triu())
P(torch.arange(12).reshape(2, 2, 3).tril(), torch.ones(2, 3, dtype=torch.bool).triu(1))
P(x.cumsum(0), x.cumsum(1), torch.cumsum(x, dim=-1), x.t().cumsum(0))
P(torch.tensor([1, 2, 3]).cumsum(0), torch.tensor([True, True, False, True]).cumsum(0))
P(torch.tensor([1, 2, 3]).cumsum(0, dtype=torch.float32), x.cumsum(1, dtype=torch.float64))
P(torch.tensor(1.5).cumsum(0), torch.ones(0).cumsum(0))
P(torch.tensor([0.1] * 10).cumsum(0))
P(torch.tensor([1e8, 1.0, 1.0, -1e8, 1.0]).cumsum(0))
w = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -0.75]], requires_grad=True)
c = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
for y in [w.flip(0), w.flip(0, 1), w.tril(), w.triu(1), w.cumsum(0), w.cumsum(1), w.cumsum(1, dtype=torch.float64)]:
    P(y.grad_fn)
    (y * c).sum().backward()
    P(w.grad)
    w.grad = None
P(msg(lambda: x.flip(2)))
P(msg(lambda: x.flip(0, 0)))
P(msg(lambda: torch.ones(3).tril()))
P(msg(lambda: torch.ones(3).triu()))
P(msg(lambda: x.cumsum(2)))
P(msg(lambda: x.cumsum(-3)))
