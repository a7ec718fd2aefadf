# p.data assignable and p.data += x in place; normal(mean, std, size) in
# PyTorch's four overloads (same seed, same numbers); a range as an index
# (Ag twin: tensor_tail2.ag)
from agfmt import P, msg
import torch
p = torch.ones(3, requires_grad=True)
d = p.data
p.data += 1
P(p, d, p._version, p.is_leaf)
p.data = torch.zeros(5, dtype=torch.float64)
P(p, p.requires_grad, p.dtype, d)
p.sum().backward()
P(p.grad)
P(msg(lambda: setattr(p, "data", torch.zeros(2, dtype=torch.int64))))
q = torch.ones(2)
q.data = torch.arange(4)
P(q, q.dtype)
w = torch.nn.Linear(2, 1)
w.weight.data = torch.tensor([[0.5, -1.0]])
w.bias.data.fill_(0.25)
P(w(torch.ones(1, 2)), w.weight.requires_grad)
torch.manual_seed(0)
P(torch.normal(2.0, 3.0, (3,)), torch.normal(torch.tensor([1.0, 2.0]), 0.5), torch.normal(0.5, torch.tensor([1.0, 2.0])))
P(torch.normal(torch.zeros(2, 1), torch.ones(3)), torch.normal(torch.arange(20.)).tolist())
P(torch.normal(torch.tensor([0.0, 10.0]), torch.tensor([1.0, 0.1]), generator=torch.Generator().manual_seed(3)))
P(torch.normal(0.0, 1.0, size=(2,), dtype=torch.float64), torch.normal(1.0, 2.0, (40,)).tolist(), torch.normal(mean=torch.zeros(2, dtype=torch.float64), std=2.0))
P(msg(lambda: torch.normal(torch.zeros(2), -1.0)), msg(lambda: torch.normal(0.0, torch.tensor([-1.0, 1.0]))), msg(lambda: torch.normal(0.0, -1.0, (2,))))
P(msg(lambda: torch.normal(torch.zeros(2), torch.ones(3))))
x = torch.arange(10.)
P(x[range(1, 4)], x[range(8, 2, -3)], x[range(0)], torch.arange(6).view(2, 3)[:, range(1, 3)])
x[range(0, 10, 4)] = -1
P(x)
P(msg(lambda: x[range(9, 12)]))
