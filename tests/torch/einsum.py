# einsum: PyTorch 1.13's equation grammar (implicit and explicit output, repeated subscripts,
# ellipsis broadcasting), values, gradients, the nodes of its composition, errors
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


def chain(t):
    names = []
    n = t.grad_fn
    while n is not None and n.name() != "torch::autograd::AccumulateGrad":
        names.append(n.name())
        n = n.next_functions[0][0] if n.next_functions else None
    return " ".join(names)


a = torch.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -0.75]], requires_grad=True)
b = torch.tensor([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]], requires_grad=True)
s = torch.tensor([[1.0, 2.0, -3.0], [0.5, -0.25, 4.0], [2.0, 1.5, -1.0]], requires_grad=True)
v = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
w = torch.tensor([2.0, 0.25, -1.0], requires_grad=True)
t3 = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4).mul(0.25).requires_grad_()
u3 = torch.arange(24, dtype=torch.float32).reshape(2, 4, 3).sub(10).mul(0.5).requires_grad_()
cases = [
    ("ij,jk->ik", [a, b]), ("ij,jk", [a, b]), ("ij->ji", [a]), ("ij", [a]), ("ji", [a]),
    ("ij->", [a]), ("ij->j", [a]), ("ii", [s]), ("ii->i", [s]), ("i,i->", [v, w]), ("i,i", [v, w]),
    ("i,j->ij", [v, w]), ("i,j", [v, w]), ("ij,ij->ij", [a, a]), ("ij,ij->", [a, a]),
    ("bij,bjk->bik", [t3, u3]), ("bij,bjk", [t3, u3]), ("...ij,...jk->...ik", [t3, u3]),
    ("...ij,...jk", [a, b]), ("b...,b...->b", [t3, t3]), ("...,...->...", [v, w]),
    ("ijk->kji", [t3]), ("i...->...", [t3]), ("bii->bi", [torch.stack([s, s.t()]).detach().requires_grad_()]),
    ("ij,jk,kl->il", [a, b, torch.tensor([[1.0, 0.5, -1.0], [2.0, -0.5, 0.25]], requires_grad=True)]),
    ("i,i,i->", [v, w, v]), ("ij,kj->ik", [a, a]), ("Ab,bc->Ac", [a, b]), ("i j , j k -> i k", [a, b]),
    ("ij,j->i", [a, v]), ("ik,k", [b.t().detach().requires_grad_(), torch.tensor([1.0, -1.0, 2.0], requires_grad=True)]),
    ("bn,anm,bm->ba", [torch.ones(2, 3, requires_grad=True), torch.arange(24.0).reshape(4, 3, 2).requires_grad_(), torch.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)]),
    ("ii->", [s]), ("iij->j", [torch.stack([s, s]).permute(1, 2, 0).detach().requires_grad_()]), ("i,j,k->ijk", [v, w, v]),
]
for eq, ops in cases:
    y = torch.einsum(eq, *ops)
    P(eq, y, chain(y))
    y.backward(torch.arange(y.numel(), dtype=torch.float32).reshape(y.shape) * 0.5 + 1)
    P([o.grad for o in ops])
    for o in ops:
        o.grad = None
P(torch.einsum("ij,jk", [a, b]), torch.einsum("i,i", torch.tensor([1, 2]), torch.tensor([3, 4])))
P(torch.einsum("", torch.tensor(3.0)), torch.einsum("->", torch.tensor(3.0)), torch.einsum("i,i->i", torch.ones(3), torch.ones(1)))
P(torch.einsum("ij->", torch.ones(0, 3)), torch.einsum("ij,jk", torch.ones(2, 0), torch.ones(0, 3)))
P(msg(lambda: torch.einsum("ij,jk", a)))
P(msg(lambda: torch.einsum("ij", a, a)))
P(msg(lambda: torch.einsum("ijk", a)))
P(msg(lambda: torch.einsum("...ijk", a)))
P(msg(lambda: torch.einsum("ij,ij", a, b)))
P(msg(lambda: torch.einsum("ii", a)))
P(msg(lambda: torch.einsum("ij->k", a)))
P(msg(lambda: torch.einsum("ij->ii", a)))
P(msg(lambda: torch.einsum("i1", a)))
P(msg(lambda: torch.einsum("ij->j1", a)))
P(msg(lambda: torch.einsum("i.j", a)))
P(msg(lambda: torch.einsum("...i...", a)))
P(msg(lambda: torch.einsum("ij->..j.", a)))
P(msg(lambda: torch.einsum("...ij->......", a)))
P(msg(lambda: torch.einsum("...i,...i", torch.ones(2, 3), torch.ones(4, 3))))
P(msg(lambda: torch.einsum("i,i", torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))))
# the sublist form: each operand followed by its subscripts as ints (0-25: A-Z, 26-51: a-z)
y = torch.einsum(a, [0, 1], b, [1, 2], [0, 2])
P(y, chain(y))
P(torch.einsum(v, [8], w, [8]), torch.einsum(s, [30, 30]), torch.einsum(a, [0, 1], [1]))
P(msg(lambda: torch.einsum(a, [0, 60])))
P(msg(lambda: torch.einsum(a, [0, 1], b, [2, 2])))
# a diagonal is a view, as torch.diagonal: writing through einsum's result reaches its input
x = torch.ones(3, 3, requires_grad=True)
P(msg(lambda: torch.einsum("ii->i", x).mul_(2)))
z = x * 1
y = torch.einsum("ii->i", z)
y.mul_(2)
P(z, y.grad_fn, z.grad_fn)
z.sum().backward()
P(x.grad)
m = torch.zeros(3, 3)
torch.einsum("ii->i", m).add_(1)
P(m)
