# cumprod, diag, roll, repeat, repeat_interleave, kron: values, gradients, node names, errors (PyTorch 1.13)
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


x = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -0.75]], requires_grad=True)
g = torch.tensor([[1.0, 2.0, -1.0], [0.5, -2.0, 4.0]])
# cumprod, with zeros in the input (ATen's cumprod_backward)
for v in [x, torch.tensor([[2.0, 0.0, 3.0, 0.5], [0.0, 4.0, 0.0, 2.0]], requires_grad=True),
          torch.tensor([1.5, 0.0, -2.0, 0.0, 4.0], dtype=torch.float64, requires_grad=True)]:
    for d in range(v.dim()):
        y = torch.cumprod(v, d)
        P(y, y.grad_fn)
        y.backward(torch.ones_like(y) * 0.5 + torch.arange(y.numel()).reshape(y.shape) * 0.25)
        P(v.grad)
        v.grad = None
P(torch.tensor([1, 2, 3]).cumprod(0), torch.tensor([True, True]).cumprod(0), torch.tensor([1, 2, 3]).cumprod(0, dtype=torch.float64))
P(torch.tensor(3.0).cumprod(0), x.cumprod(-1))
P(msg(lambda: torch.cumprod(x, 2)))
P(msg(lambda: x.cumprod(-3)))
# diag
y = x.diag()
P(y, y.grad_fn)
y.backward(torch.tensor([2.0, -1.0]))
P(x.grad)
x.grad = None
y = torch.diag(x, 1)
P(y, y.grad_fn)
y.backward(torch.tensor([2.0, -1.0]))
P(x.grad)
x.grad = None
v = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
for k in [0, 1, -2]:
    y = torch.diag(v, k)
    P(y, y.grad_fn)
    y.backward(torch.arange(y.numel(), dtype=torch.float32).reshape(y.shape))
    P(v.grad)
    v.grad = None
P(x.diag(-1), x.diag(2), x.diag(3), x.diag(-2), torch.tensor([[1, 2], [3, 4]]).diag())
P(msg(lambda: torch.diag(torch.ones(2, 2, 2))))
P(msg(lambda: torch.diag(torch.tensor(3.0))))
# roll
for args in [(1,), (-4,), (1, 0), (2, 1), ([1, -1], [0, 1]), ([1, 1], [1, 1])]:
    y = x.roll(*args)
    P(y, y.grad_fn)
    y.backward(g)
    P(x.grad)
    x.grad = None
P(torch.roll(torch.arange(6), 2), torch.roll(torch.tensor(3.0), 1), torch.roll(torch.ones(0, 2), 1, 0))
P(msg(lambda: x.roll(1, 2)))
P(msg(lambda: x.roll([1, 2], [0])))
P(msg(lambda: x.roll([1, 2])))
P(msg(lambda: x.roll([])))
# repeat
for sizes in [(2, 1), (1, 2), (2, 1, 2), (0, 2)]:
    y = x.repeat(*sizes)
    P(y.shape, y.grad_fn)
    y.backward(torch.arange(y.numel(), dtype=torch.float32).reshape(y.shape))
    P(x.grad)
    x.grad = None
P(x.repeat([2, 2]), torch.tensor(3.0).repeat(2, 2), torch.tensor([True, False]).repeat(2))
P(msg(lambda: x.repeat(2)))
P(msg(lambda: x.repeat(-1, 2)))
# repeat_interleave
for args, kwargs in [((2,), {}), ((2, 0), {}), ((torch.tensor([1, 0, 2]), 1), {}),
                     ((torch.tensor([3]),), {"dim": 0}), ((torch.tensor(2),), {"dim": -1, "output_size": 6})]:
    y = x.repeat_interleave(*args, **kwargs)
    P(y, y.grad_fn)
    y.backward(torch.ones_like(y) * 0.5 + torch.arange(y.numel()).reshape(y.shape) * 0.25)
    P(x.grad)
    x.grad = None
P(torch.repeat_interleave(torch.tensor([1, 2, 0, 3])), torch.repeat_interleave(x.detach(), 2, dim=1).shape)
P(torch.tensor(3.0).repeat_interleave(2), torch.arange(3).repeat_interleave(torch.tensor([2, 0, 1])))
P(msg(lambda: x.repeat_interleave(-1)))
P(msg(lambda: x.repeat_interleave(2, 2)))
P(msg(lambda: x.repeat_interleave(torch.tensor([1, 2]), 1)))
P(msg(lambda: x.repeat_interleave(torch.tensor([[1, 2]]), 0)))
P(msg(lambda: x.repeat_interleave(torch.tensor([1.0, 2.0]), 0)))
P(msg(lambda: x.repeat_interleave(torch.tensor([1, -2]), 0)))
P(msg(lambda: x.repeat_interleave(2, 0, output_size=5)))
P(msg(lambda: torch.repeat_interleave(torch.tensor([[1, 2]]))))
P(msg(lambda: torch.tensor(3.0).repeat_interleave(2, 0)))
P(torch.ones(2, 3).kron(torch.ones(0)), torch.ones(2, 2).roll(1, dims=None), torch.ones(3).cumprod(dim=0, dtype=torch.int64))
# kron
b = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
for l, r in [(x, b), (b, x), (torch.tensor([1.0, 2.0]), b), (b, torch.tensor(2.0))]:
    y = torch.kron(l, r)
    P(y, y.grad_fn, y.grad_fn.next_functions[0][0])
    y.backward(torch.arange(y.numel(), dtype=torch.float32).reshape(y.shape))
    P(x.grad, b.grad)
    x.grad = None
    b.grad = None
P(torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 10]])), torch.tensor([1, 2]).kron(torch.tensor([1.5])))
