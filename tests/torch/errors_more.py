# error wording of matrix products, requires_grad paths, masks, embedding and masked_fill (PyTorch 1.13)
import torch
import torch.nn.functional as F


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


def setrg(t, flag):
    t.requires_grad = flag


def setidx(t, i, v):
    t[i] = v


ones = torch.ones
print(msg(lambda: torch.mv(ones(2, 3), ones(2))))
print(msg(lambda: ones(2, 3) @ ones(2)))
print(msg(lambda: ones(2) @ ones(3, 2)))
print(msg(lambda: ones(4, 2, 3) @ ones(2)))
print(msg(lambda: ones(4, 2, 3) @ ones(2, 2)))
print(msg(lambda: ones(4, 2, 3) @ ones(4, 2, 2)))
print(msg(lambda: ones(4, 2, 3) @ ones(5, 3, 2)))
print(msg(lambda: ones(2, 3) @ ones(4, 2, 2)))
print(msg(lambda: ones(2) @ ones(4, 3, 2)))
print(msg(lambda: ones(2, 3, requires_grad=True) @ ones(4, 3, 2).transpose(1, 2)))
print(msg(lambda: ones(4, 2, 3, requires_grad=True) @ ones(2)))
print(msg(lambda: torch.outer(ones(2, 2), ones(2))))
print(msg(lambda: torch.outer(ones(2), ones(2, 2))))
print(msg(lambda: ones(2, 2) @ ones(2, 2, dtype=torch.float64)))
print(msg(lambda: torch.mv(ones(2, 2, 2), ones(2))))
print(msg(lambda: torch.mv(ones(2), ones(2))))
print(msg(lambda: torch.mm(ones(2), ones(2, 2))))
print(msg(lambda: torch.mm(ones(2, 2), ones(2))))
print(msg(lambda: torch.bmm(ones(2, 2), ones(2, 2))))
print(msg(lambda: torch.bmm(ones(2, 2, 2), ones(2, 2))))
print(msg(lambda: torch.bmm(ones(2, 2, 3), ones(2, 2, 2))))
print(msg(lambda: torch.dot(ones(2, 2), ones(2))))
print(msg(lambda: torch.dot(ones(2), ones(3))))
print(msg(lambda: ones(3) @ ones(3, dtype=torch.float64)))
print(msg(lambda: ones(2, dtype=torch.int64).requires_grad_()))
print(msg(lambda: ones(2, dtype=torch.bool).requires_grad_()))
print(msg(lambda: ones(2, dtype=torch.int64).requires_grad_(False)))
print(msg(lambda: setrg(ones(2, dtype=torch.int64), True)))
print(msg(lambda: torch.zeros(2, dtype=torch.int64, requires_grad=True)))
print(msg(lambda: torch.arange(3, requires_grad=True)))
print(msg(lambda: torch.tensor([True], requires_grad=True)))
y = ones(2, requires_grad=True) * 2
print(msg(lambda: setrg(y, True)))
print(msg(lambda: setrg(y, False)))
print(msg(lambda: y.requires_grad_(False)))
print(msg(lambda: y.requires_grad_()))
print(msg(lambda: ones(2, 3)[torch.tensor([[True, False], [True, True]])]))
print(msg(lambda: ones(2, 3)[:, torch.tensor([True, False])]))
print(msg(lambda: ones(2, 3, 4)[0, torch.tensor([[True, False, True, True], [True, True, True, True]])]))
print(msg(lambda: ones(2, 3, 4)[:, torch.tensor([[True, False, True, True]])]))
print(msg(lambda: setidx(ones(2, 3), torch.tensor([[True, False], [True, True]]), 1.0)))
W = ones(4, 2, requires_grad=True)
print(msg(lambda: torch.embedding(W, torch.tensor([1.0, 2.0]))))
print(msg(lambda: torch.embedding(W, torch.tensor([True]))))
print(msg(lambda: torch.embedding(W, torch.tensor([4]))))
print(msg(lambda: torch.embedding(W, torch.tensor([-1]))))
print(msg(lambda: torch.embedding(ones(3), torch.tensor([0]))))
print(msg(lambda: ones(2, 3).masked_fill(torch.tensor([True, False]), 1.0)))
print(msg(lambda: ones(3).masked_fill(torch.tensor([True, False, True]), torch.tensor([3.0]))))
print(msg(lambda: F.linear(ones(2, 2), ones(3))))
print(msg(lambda: F.linear(ones(2, 2), ones(3, 3), ones(3))))
print(msg(lambda: [e for e in torch.tensor(3.0, requires_grad=True)]))
print(msg(lambda: len(torch.tensor(3.0))))
# gather's indices do not count from the end (as scatter's)
print(msg(lambda: torch.gather(ones(3), 0, torch.tensor([-1]))))
print(msg(lambda: ones(2, 3, requires_grad=True).gather(1, torch.tensor([[0, -2]]))))
print(msg(lambda: ones(2, 3).gather(0, torch.tensor([[0, 1, -3]]))))
