# relu's gradient is threshold_backward(g, result, 0): zero where the result is <= 0, the
# gradient elsewhere, a NaN result included; the same under create_graph; a max_pool2d
# window holding the NaN sends its gradient there
import torch
import torch.nn.functional as F
from agfmt import P
nan, inf = float("nan"), float("inf")
x = torch.tensor([nan, -1.0, 2.0, 0.0, -0.0, inf, -inf], requires_grad=True)
g = torch.tensor([3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
torch.relu(x).backward(g)
P(x.grad)
x2 = x.detach().double().requires_grad_()
(d,) = torch.autograd.grad(torch.relu(x2), [x2], g.double(), create_graph=True)
P(d.detach())
m = torch.sin(torch.arange(96).float() * 0.7).reshape(2, 3, 4, 4)
m[0, 0, 0, 0] = nan
x3 = m.requires_grad_()
y = F.max_pool2d(torch.relu(x3), 2)
y.backward(torch.ones(y.shape))
P(x3.grad.sum(), x3.grad[0, 0, 0, 0])
