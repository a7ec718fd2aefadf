# sort, argsort and topk: values, indices, dims, descending, NaN and -0.0, dtypes, gradients, errors (PyTorch 1.13)
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


def show(r):
    P(r[0], r[1])


x = torch.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -0.75, 2.5], [-2.0, 4.0, 1.0, 0.0]])
show(torch.sort(x))
show(x.sort(0))
show(x.sort(dim=1, descending=True))
show(x.sort(-2, True))
P(x.argsort(), torch.argsort(x, dim=0, descending=True))
t = torch.tensor([2.0, 1.0, 2.0, 1.0, float("nan"), -0.0, 0.0, -1.0, float("inf"), float("-inf")])
show(t.sort(stable=True))
show(t.sort(descending=True, stable=True))
show(torch.tensor([3, -5, 2, 3, 0, -5], dtype=torch.int64).sort(stable=True))
show(torch.tensor([True, False, True, False]).sort(stable=True))
show(torch.tensor([0.1, -0.3, 0.2], dtype=torch.float64).sort(descending=True))
show(torch.tensor(3.5).sort())
show(torch.ones(0, 3).sort(0))
long = torch.arange(100, dtype=torch.float32).remainder(7) * torch.arange(100, dtype=torch.float32)
show(long.sort(stable=True))
show(long.sort(descending=True, stable=True))
P(x.t().sort(1)[1])
show(torch.topk(x, 2))
show(x.topk(1, dim=0))
show(x.topk(3, largest=False))
show(x.topk(k=2, dim=0, largest=True, sorted=True))
show(t.topk(2))
show(t.topk(3, largest=False))
show(long.topk(5))
show(x.topk(0))
show(torch.tensor(2.5).topk(1))
w = torch.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -0.75, 2.5]], requires_grad=True)
r = w.sort(1, descending=True)
v = r[0]
P(v.grad_fn)
(v * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
P(w.grad)
w.grad = None
r = w.topk(2, dim=0, largest=False)
v = r[0]
P(v.grad_fn)
(v * torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])).sum().backward()
P(w.grad)
w.grad = None
r = w.topk(2)
v = r[0]
(v ** 2).sum().backward()
P(w.grad)
P(msg(lambda: x.topk(5)))
P(msg(lambda: x.topk(-1)))
P(msg(lambda: x.topk(1, dim=2)))
P(msg(lambda: x.sort(2)))
P(msg(lambda: x.argsort(dim=-3)))
P(msg(lambda: torch.tensor(1.0).topk(2)))
