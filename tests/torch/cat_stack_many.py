# backward through cat and stack of many inputs (more than any fixed number of
# temporaries), first and second order; an LSTM over 80 steps backpropagates
# through its whole output (Ag twin: cat_stack_many.ag)
from agfmt import P
import torch
xs = [torch.arange(3, dtype=torch.float64).mul(0.5).add(i * 0.01).requires_grad_() for i in range(130)]
y = (torch.cat(xs) * torch.arange(390, dtype=torch.float64)).sum() + torch.stack(xs, 1).pow(2).sum()
y.backward()
P(xs[0].grad, xs[64].grad, xs[129].grad)
xs2 = [torch.tensor([0.5 + i * 0.01], dtype=torch.float64, requires_grad=True) for i in range(100)]
s = torch.stack(xs2).pow(3).sum()
(g,) = torch.autograd.grad(s, xs2[99], create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), xs2[99])
P(g, gg)
P(torch.autograd.gradcheck(lambda *t: torch.cat(t).sin(), xs2[:70]))
P(torch.autograd.gradgradcheck(lambda *t: torch.stack(t).sin(), xs2[:70]))
torch.manual_seed(0)
lstm = torch.nn.LSTM(3, 4).double()
out, (h, c) = lstm(torch.randn(80, 2, 3, dtype=torch.float64))
out.pow(2).sum().backward()
P(lstm.weight_ih_l0.grad.sum(), lstm.bias_hh_l0.grad[:4])
