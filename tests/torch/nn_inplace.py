# inplace= on nn.ReLU, LeakyReLU, ELU, Dropout and their functional forms:
# the input overwritten, the history ending in the activation's node, the
# gradients of the out-of-place forms (Ag twin: nn_inplace.ag)
from agfmt import P, msg
import torch
import torch.nn as nn
import torch.nn.functional as F
P(*[str(m).replace("True", "true").replace("False", "false") for m in [nn.ReLU(), nn.ReLU(inplace=True), nn.LeakyReLU(0.2, inplace=True), nn.ELU(inplace=True), nn.Dropout(inplace=True)]])
for i, m in enumerate([nn.ReLU(inplace=True), nn.LeakyReLU(0.2, inplace=True), nn.ELU(inplace=True)]):
    x = torch.tensor([-1.5, 2.0, 0.0, 0.5], dtype=torch.float64, requires_grad=True)
    y = x * 1
    z = m(y)
    P(z.detach(), y.detach(), y.grad_fn.name() if i == 0 else "")
    (z * torch.tensor([1.0, 2.0, 3.0, 4.0], dtype=torch.float64)).sum().backward()
    P(x.grad)
w = torch.tensor([-1.0, 2.0])
P(F.relu(w), w, F.relu(w, inplace=True), w)
w = torch.tensor([-1.0, 2.0])
P(F.leaky_relu(w, 0.1, True), w, F.elu(torch.tensor([-1.0]), inplace=True))
P(msg(lambda: nn.ReLU(inplace=True)(torch.ones(2, requires_grad=True))))
torch.manual_seed(0)
d = torch.ones(8)
r = F.dropout(d, 0.5, inplace=True)
P(d, r)
d = torch.ones(4)
P(F.dropout(d, 0.5, training=False, inplace=True), d)
drop = nn.Dropout(0.25, inplace=True)
x = torch.ones(6, dtype=torch.float64, requires_grad=True)
y = x * 2
drop(y)
y.sum().backward()
P(y, x.grad)
drop.eval()
P(drop(torch.ones(3)))
torch.manual_seed(1)
seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU(inplace=True), nn.Linear(4, 1))
out = seq(torch.ones(2, 3)).sum()
out.backward()
P(out, seq[0].weight.grad)
