# scatter, scatter_add, index_add, masked_fill (and their in-place forms), nonzero, unique,
# bincount, isclose/allclose, meshgrid: values, gradients, node names, errors (PyTorch 1.13)
import warnings

from agfmt import P
import torch

warnings.simplefilter("ignore")


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


x = torch.zeros(3, 4)
src = torch.arange(12.0).reshape(3, 4)
idx = torch.tensor([[0, 1, 2, 0], [1, 2, 0, 1]])
P(x.scatter(0, idx, src), x.scatter(1, torch.tensor([[3], [0], [1]]), 7.5))
P(torch.scatter(x + 1, 0, idx, src, reduce="add"), (x + 2).scatter(0, idx, 3.0, reduce="multiply"))
P(torch.ones(3).scatter(0, torch.tensor([1, 1]), torch.tensor([5.0, 3.0]), reduce="multiply"))
P(torch.arange(12).reshape(3, 4).scatter(0, idx, 2.5), torch.zeros(()).scatter(0, torch.tensor(0), torch.tensor(5.0)))
P(torch.zeros(3).scatter(0, torch.tensor([], dtype=torch.int64), torch.tensor([1.0])))
P(x.scatter_add(0, idx, src), torch.scatter_add(torch.ones(2, 3), 1, torch.tensor([[0, 0, 2], [1, 1, 1]]), torch.ones(2, 3)))
P(x.index_add(0, torch.tensor([0, 2]), src[:2]), torch.index_add(x, 1, torch.tensor([0, 0, 3]), src[:, :3], alpha=2))
P(torch.arange(6).index_add(0, torch.tensor([0, 2, 2]), torch.tensor([1, 2, 3]), alpha=2))
P(torch.zeros(()).index_add(0, torch.tensor([0]), torch.tensor(5.0)), torch.zeros(3).index_add(0, torch.tensor(1), torch.tensor(5.0)))
P(torch.masked_fill(src, src > 5, -1.0), src.masked_fill(torch.tensor([True, False, True, False]), 0.5))
y = torch.zeros(3)
P(y.scatter_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0])), y._version)
P(y.scatter_add_(0, torch.tensor([1, 1]), torch.tensor([4.0, 5.0])), y._version)
P(y.index_add_(0, torch.tensor([2]), torch.tensor([10.0]), alpha=-1), y._version)
P(y.masked_fill_(y > 2, 0.0), y._version)
P(y.scatter_(0, torch.tensor([1]), 6.0, reduce="add"), y._version)

# gradients and nodes
w = torch.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -0.75, 2.5], [-2.0, 4.0, 1.0, 0.0]], requires_grad=True)
s = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], requires_grad=True)
g = torch.tensor([[1.0, 2.0, 3.0, 4.0], [0.5, 0.25, 0.125, 2.0], [-1.0, -2.0, 3.0, 1.0]])
for name, f in [
    ("scatter", lambda: w.scatter(0, idx, s)),
    ("scatter value", lambda: w.scatter(0, idx, 9.0)),
    ("scatter_add", lambda: w.scatter_add(0, idx, s)),
    ("index_add", lambda: w.index_add(0, torch.tensor([2, 0]), s, alpha=-2)),
    ("masked_fill", lambda: w.masked_fill(w > 1, 0.0)),
]:
    out = f()
    P(name, out.grad_fn, [n[0] is not None for n in out.grad_fn.next_functions])
    out.backward(g)
    P(w.grad, s.grad)
    w.grad = None
    s.grad = None
c = w.clone()
c.scatter_(1, torch.tensor([[3], [0], [1]]), torch.cat([s[:, :1], s[:1, 1:2]]))
P(c.grad_fn, c._version)
c.backward(g)
P(w.grad, s.grad)
w.grad = None
s.grad = None
c = w * 1
c.index_add_(1, torch.tensor([1, 1]), s.t()[:3])
P(c.grad_fn)
c.backward(g)
P(w.grad, s.grad)
w.grad = None
s.grad = None
P(w.scatter(0, idx, s, reduce="add").grad_fn, msg(lambda: w.scatter(0, idx, 2.0, reduce="multiply").sum().backward()))
P(msg(lambda: w.scatter_(0, idx, 1.0)), msg(lambda: w.index_add_(0, torch.tensor([0]), torch.ones(1, 4))))
P(msg(lambda: w.masked_fill_(w > 0, 1.0)), msg(lambda: w.scatter_add_(0, idx, s)))
P(msg(lambda: w.scatter(0, idx, torch.ones(3, 4, requires_grad=True)).sum().backward()))

# errors
P(msg(lambda: x.scatter(0, idx.float(), src)), msg(lambda: x.scatter(0, torch.tensor([[5, 0]]), src)))
P(msg(lambda: x.scatter(0, torch.tensor([[-1, 0]]), src)), msg(lambda: x.scatter(0, torch.tensor([0, 1]), src)))
P(msg(lambda: x.scatter(0, torch.zeros(4, 4, dtype=torch.long), src)))
P(msg(lambda: x.scatter(0, torch.zeros(2, 4, dtype=torch.long), src[:1])))
P(msg(lambda: x.scatter(0, idx, src.double())), msg(lambda: x.scatter(2, idx, src)))
P(msg(lambda: x.scatter(0, idx, src, reduce="mean")), msg(lambda: x.scatter_add(0, idx, src.double())))
P(msg(lambda: x.scatter_add(0, torch.tensor([[5, 0]]), src)), msg(lambda: x.scatter_add(0, torch.zeros(2, 5, dtype=torch.long), src)))
P(msg(lambda: torch.ones(3).scatter(0, torch.tensor([1, 1]), torch.tensor(3.0))))
P(msg(lambda: x.index_add(0, torch.tensor([0, 3]), src[:2])), msg(lambda: x.index_add(0, torch.tensor([0, -1]), src[:2])))
P(msg(lambda: x.index_add(0, torch.tensor([0.0, 2]), src[:2])), msg(lambda: x.index_add(0, torch.tensor([[0, 2]]), src[:2])))
P(msg(lambda: x.index_add(0, torch.tensor([0, 2, 1]), src[:2])), msg(lambda: x.index_add(0, torch.tensor([0, 2]), src[:2, :3])))
P(msg(lambda: x.index_add(0, torch.tensor([0, 2]), src[:2].double())), msg(lambda: x.index_add(2, torch.tensor([0, 2]), src[:2])))
P(msg(lambda: torch.zeros(3, 1).masked_fill_(torch.ones(3, 2, dtype=torch.bool), 2.0)))

# nonzero
P(torch.nonzero(torch.tensor([[1, 0], [0, 3]])), torch.tensor([[1, 0], [0, 3]]).nonzero(as_tuple=True))
P(torch.nonzero(torch.tensor(5)), torch.nonzero(torch.tensor(0)), torch.nonzero(torch.tensor(5), as_tuple=True))
P(torch.nonzero(torch.tensor([0.0, 1.5, float("nan"), -0.0])), torch.nonzero(torch.zeros(2, 3)))
P(torch.zeros(2, 3).nonzero(as_tuple=True), torch.tensor([[True, False, True]]).nonzero())
P(torch.nonzero(torch.arange(24).reshape(2, 3, 4) % 7 == 0))

# unique
P(torch.unique(torch.tensor([3, 1, 2, 3, 1])), torch.tensor([3, 1, 2, 3, 1]).unique(return_inverse=True, return_counts=True))
P(torch.unique(torch.tensor([[3, 1], [1, 3]]), return_inverse=True), torch.unique(torch.tensor(5), return_inverse=True))
P(torch.unique(torch.tensor([True, False, True]), return_counts=True), torch.unique(torch.tensor([-0.0, 0.0, 1.0]), return_counts=True))
P(torch.unique(torch.tensor([2.5, -1.0, 2.5, 7.0]), sorted=True, return_counts=True))
P(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_inverse=True, return_counts=True))
P(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=1, return_inverse=True, return_counts=True))
P(torch.unique(torch.tensor([[3, 1], [1, 1], [3, 1]]), dim=-2, return_inverse=True, return_counts=True))
P(torch.unique(torch.zeros(0, 3), dim=0, return_counts=True), torch.unique(torch.zeros(0, 3), return_counts=True, return_inverse=True))
P(torch.arange(24).reshape(2, 3, 4).remainder(3).unique(dim=2, return_counts=True))
P(msg(lambda: torch.unique(torch.zeros(2, 0), dim=0)), msg(lambda: torch.unique(torch.tensor([[1, 2]]), dim=2)))
P(msg(lambda: torch.unique(torch.tensor(5), dim=0)), torch.unique(torch.tensor([[2, 1], [2, 1]]).t(), dim=1), torch.arange(6.0).reshape(2, 3).t().unique(dim=0))
P(torch.unique(w).grad_fn, torch.unique(w, dim=0).grad_fn, torch.unique(w, return_inverse=True)[1].grad_fn)
P(msg(lambda: torch.unique(w).sum().backward()), msg(lambda: torch.unique(w, dim=1).sum().backward()))

# bincount
P(torch.bincount(torch.tensor([1, 1, 3]), minlength=6), torch.tensor([1, 1, 3]).bincount(weights=torch.tensor([0.5, 1.0, 2.0])))
P(torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)))
P(torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([1, 2, 3])), torch.bincount(torch.tensor([], dtype=torch.int64)))
P(torch.bincount(torch.tensor([0, 4, 4, 2]), minlength=2), torch.bincount(torch.tensor([], dtype=torch.int64), minlength=3))
P(msg(lambda: torch.bincount(torch.tensor([1, -1, 3]))), msg(lambda: torch.bincount(torch.tensor([[1, 1, 3]]))))
P(msg(lambda: torch.bincount(torch.tensor([1.0, 1, 3]))), msg(lambda: torch.bincount(torch.tensor([True, False]))))
P(msg(lambda: torch.bincount(torch.tensor([1, 1, 3]), weights=torch.tensor([1.0, 2]))), msg(lambda: torch.bincount(torch.tensor([1, 1, 3]), minlength=-1)))
bw = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
P(torch.bincount(torch.tensor([1, 1, 3]), weights=bw).grad_fn, msg(lambda: torch.bincount(torch.tensor([1, 1, 3]), weights=bw).sum().backward()))

# isclose / allclose
P(torch.isclose(torch.tensor([1e-8, 1.0, 100.0]), torch.tensor([0.0, 1.00001, 100.001])), torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.00001])))
inf = float("inf")
nan = float("nan")
P(torch.isclose(torch.tensor([1.0, inf, -inf, inf, nan]), torch.tensor([1.0, inf, inf, 1e30, nan])))
P(torch.isclose(torch.tensor([1.0, nan]), torch.tensor([1.0, nan]), equal_nan=True), torch.tensor([1.0, nan]).allclose(torch.tensor([1.0, nan]), equal_nan=True))
P(torch.isclose(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]), atol=1), torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])))
P(torch.isclose(torch.tensor(1.0), torch.tensor([1.0, 2.0])), torch.isclose(torch.tensor([True]), torch.tensor([True])))
P(torch.isclose(torch.tensor([1.0, 1.1]), torch.tensor([1.05, 1.0]), rtol=0.1, atol=0), torch.isclose(torch.tensor([1.0, 1.1]), torch.tensor([1.0, 1.0]), rtol=0, atol=0))
P(torch.allclose(torch.tensor([1.0, 1.1], dtype=torch.float64), torch.tensor([1.0, 1.0], dtype=torch.float64), atol=0.2))
P(msg(lambda: torch.isclose(torch.ones(2), torch.ones(2, dtype=torch.float64))), msg(lambda: torch.isclose(torch.ones(2), torch.ones(3))))
P(msg(lambda: torch.isclose(torch.ones(2), torch.ones(2), rtol=-1)), msg(lambda: torch.allclose(torch.ones(2), torch.ones(2), atol=-0.5)))

# meshgrid
P(torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij"))
P(torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="xy"))
P([t.shape for t in torch.meshgrid(torch.ones(2), torch.ones(3), torch.ones(4), indexing="xy")], torch.meshgrid(torch.ones(2), indexing="xy"))
P(torch.meshgrid([torch.tensor(1.0), torch.tensor([3.0, 4.0])], indexing="ij"))
ma = torch.tensor([1.0, 2.0], requires_grad=True)
mb = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)
gx, gy = torch.meshgrid(ma, mb, indexing="xy")
P(gx.grad_fn, gx.grad_fn.next_functions[0][0], gy.grad_fn)
(gx * gy).sum().backward()
P(ma.grad, mb.grad)
P(msg(lambda: torch.meshgrid(torch.ones(2), torch.ones(3, dtype=torch.int64), indexing="ij")), msg(lambda: torch.meshgrid(indexing="ij")))
P(msg(lambda: torch.meshgrid(torch.ones(2), indexing="foo")))

# multinomial on 10^6 weights: the sampled indices are PyTorch's
torch.manual_seed(0)
# weights from integer arithmetic and one correctly rounded division: the same bits on every CPU
mw = (torch.arange(1000000) * 7919 % 1000003).float() / 1000003 + 0.001
r = mw.multinomial(100000, replacement=True)
P(r[:5], r[-3:], r.sum())
r = mw.multinomial(1000)
P(r[:5], r[-3:], r.sum(), r.unique().numel())
r = torch.multinomial(mw.double().reshape(1000, 1000), 3)
P(r[:2], r.sum())
P(msg(lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 1)), msg(lambda: torch.multinomial(torch.tensor([0.5, -0.1]), 2, True)))
P(msg(lambda: torch.multinomial(torch.tensor([0.5, inf]), 1)), msg(lambda: torch.multinomial(torch.tensor([0.5, nan]), 2, True)))
P(msg(lambda: torch.multinomial(torch.zeros(3), 1)), msg(lambda: torch.multinomial(torch.zeros(3), 2, True)))
P(msg(lambda: torch.multinomial(torch.ones(3), 4)), msg(lambda: torch.multinomial(torch.ones(3), 0)))
