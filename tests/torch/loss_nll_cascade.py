# nll_loss's reduced sums over many targets follow ATen's 8-level cascade of partial sums
# (2-D and 4-D inputs, with and without class weights, a target ignored now and then)
import torch
import torch.nn.functional as F
from agfmt import P
for n in [70000, 1100000]:
    x = ((torch.arange(n * 3) * 7919) % 1000 - 500).float() / 37.0
    t = (torch.arange(n) * 31) % 4 - 1
    w = torch.tensor([0.3, 1.7, 0.9])
    x2 = x.reshape([n, 3])
    P(n, F.nll_loss(x2, t, ignore_index=-1, reduction="sum").item(), F.nll_loss(x2, t, ignore_index=-1).item(),
      F.nll_loss(x2, t, w, ignore_index=-1).item())
    x4 = x.reshape([10, 3, n // 100, 10])
    t4 = t.reshape([10, n // 100, 10])
    P(F.nll_loss(x4, t4, w, ignore_index=-1).item(), F.nll_loss(x4, t4, ignore_index=-1, reduction="sum").item())
