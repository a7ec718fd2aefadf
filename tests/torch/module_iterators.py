# parameters(), named_parameters(), children(), named_children(), modules(),
# named_modules(), buffers(), named_buffers() are iterators, as PyTorch's
# generators: next(), list(), for, enumerate, optimizers and clip_grad_norm_
# take them (Ag twin: module_iterators.ag)
from agfmt import P
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Linear(3, 1))
it = m.parameters()
P(next(it).shape, next(it).shape, len(list(it)), len(list(m.parameters())))
P([n for n, p in m.named_parameters()])
for i, p in enumerate(m.parameters()):
    P(i, p.shape)
P([n for n, c in m.named_children()], len(list(m.children())), len(list(m.modules())))
P([n for n, c in m.named_modules()], [n for n, b in m.named_buffers()], len(list(m.buffers())))
P(next(m.buffers()), next(nn.ReLU().parameters(), "none"))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
loss = m(torch.ones(4, 2) * torch.arange(4.).view(4, 1)).pow(2).sum()
loss.backward()
P(torch.nn.utils.clip_grad_norm_(m.parameters(), 0.5))
opt.step()
P(next(m.parameters()))
