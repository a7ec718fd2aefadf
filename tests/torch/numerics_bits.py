# float32 results to the last bit (full repr via tolist/item), in Ag's own order and SLEEF's on
# AVX2 (the BLAS products are numerics_blas): exp, log, sigmoid, softmax, log_softmax and their
# gradients, sums, means, var/std, norms, cross-entropy over a small batch
from agfmt import P
import torch
import torch.nn.functional as F

x = torch.arange(40).float() * 0.173 - 3.1
m = x.reshape(5, 8)
c = torch.arange(24).float().reshape(2, 3, 4) * 0.61 - 7.0
P(x.exp().tolist())
P(x.abs().log().tolist())
P(torch.sigmoid(x).tolist())
P(torch.sigmoid(x[:7]).tolist())
P(F.softmax(m, dim=1)[2].tolist(), F.softmax(m, dim=0)[:, 3].tolist())
P(F.log_softmax(m, dim=1)[4].tolist(), F.log_softmax(c, dim=0)[1, 2].tolist())
P(F.softmax(c, dim=1)[0].tolist())
P(x.sum().item(), x.mean().item(), m.sum(dim=1).tolist(), m.sum(dim=0).tolist(), m.mean(dim=1).tolist())
P(c.sum(dim=0).tolist(), c.sum(dim=[1, 2]).tolist(), c.mean(dim=-1).tolist())
P(x.var().item(), x.std().item(), m.std(dim=0).tolist(), m.var(dim=1).tolist())
w = m.clone().requires_grad_()
(F.softmax(w, dim=1) * torch.arange(8.0)).sum().backward()
P(w.grad[1].tolist())
w.grad = None
(F.log_softmax(w, dim=0) * torch.arange(8.0)).sum().backward()
P(w.grad[:, 5].tolist())
logits = m.clone().requires_grad_()
target = torch.tensor([1, 0, 7, 3, 5])
loss = F.cross_entropy(logits, target)
loss.backward()
P(loss.item(), logits.grad[0].tolist())
mse = F.mse_loss(m, torch.zeros(5, 8))
P(mse.item(), F.l1_loss(m, torch.ones(5, 8)).item())
t = x.clone().requires_grad_()
th = torch.tanh(t)
(th * torch.arange(40.0)).sum().backward()
P(th.tolist()[::3], t.grad.tolist()[::3])
t.grad = None
sg = torch.sigmoid(t)
(sg * torch.arange(40.0)).sum().backward()
P(t.grad.tolist()[::3])
P((x ** -0.5).abs()[::4].tolist(), (x.abs() + 1).pow(-2)[::4].tolist())
P(x.norm().item(), m.norm(dim=1).tolist(), m.norm(dim=0).tolist(), m.t().sum().item())
