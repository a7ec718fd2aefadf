# amax, amin and trace: dims, keepdim, NaN, dtypes, ties sharing the gradient, errors (PyTorch 1.13)
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


x = torch.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -0.75, 2.5], [-2.0, 4.0, 1.0, 0.0]])
P(x.amax(), x.amin(), x.amax(0), x.amin(1), torch.amax(x, dim=-1, keepdim=True))
P(x.amax([0, 1]), x.amin(dim=[1, 0], keepdim=True), x.t().amax(1))
P(torch.arange(24).reshape(2, 3, 4).amax([0, 2]), torch.tensor([[True, False], [False, False]]).amax(1))
P(torch.tensor([1.0, float("nan"), 3.0]).amax(), torch.tensor([[1.0, float("nan")], [2.0, 0.0]]).amin(1))
P(torch.tensor(2.5).amax(), torch.ones(0, 3).amax(1), torch.tensor(2.5).amin(0))
w = torch.tensor([[2.0, 5.0, 5.0], [1.0, 1.0, 0.0]], requires_grad=True)
for y in [w.amax(), w.amax(1), w.amin(0, keepdim=True), w.amin([0, 1])]:
    P(y, y.grad_fn)
    y.sum().backward()
    P(w.grad)
    w.grad = None
P(msg(lambda: x.amax(2)))
P(msg(lambda: x.amax([0, 0])))
P(msg(lambda: torch.ones(0, 3).amax(0)))
P(msg(lambda: torch.ones(0, 3).amin()))
P(x.trace(), torch.trace(x.t()), torch.tensor([[1, 2], [3, 4]]).trace(), torch.ones(0, 2).trace())
P(x[:, 1:].trace(), x.double().trace())
t = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -0.75]], requires_grad=True)
y = t.trace()
P(y, y.grad_fn)
y.backward()
P(t.grad)
P(msg(lambda: torch.ones(3).trace()))
P(msg(lambda: torch.ones(2, 2, 2).trace()))
P(msg(lambda: torch.tensor([[True]]).trace()))
