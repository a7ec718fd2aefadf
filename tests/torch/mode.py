# mode(dim=-1, keepdim=False): the most frequent value along dim (the smallest of a tie) and
# the index ATen's CPU kernel reports for it (the last of its run after libstdc++'s std::sort
# of (value, index) pairs by value: for long slices with repeats not simply the last index),
# as torch.return_types.mode; its gradient goes to that index (ModeBackward0).
from agfmt import P, msg
import torch

P(torch.mode(torch.tensor([1, 2, 2, 3])), torch.tensor([3.0, 1.0, 3.0, 1.0]).mode())
x = torch.tensor([[1.0, 5.0, 5.0, 2.0], [3.0, 3.0, 2.0, 2.0], [7.0, 8.0, 9.0, 9.0]])
P(x.mode(), x.mode(0), x.mode(dim=1, keepdim=True), x.mode(-2).indices)
v, i = torch.mode(x, 1)
P(v, i, torch.mode(torch.tensor(4.0)))
torch.manual_seed(0)
for n in [17, 40, 100, 333]:
    r = torch.randint(0, 6, (3, n))
    m = r.mode(1)
    P(n, m.values, m.indices)
    P(r.double().mode(1).indices, r.t().mode(0).indices)
g = torch.tensor([[1.0, 2.0, 2.0], [4.0, 4.0, 6.0]], requires_grad=True)
g.mode(1).values.sum().backward()
P(g.grad, g.mode(1).values.grad_fn)
P(msg(lambda: torch.zeros(2, 0).mode(1)))
P(msg(lambda: x.mode(2)))
