# the losses' legacy size_average= and reduce= (PyTorch 1.13's rules: either
# given decides the reduction; reduction= is then ignored), in the functions
# and the modules (Ag twin: loss_legacy.ag; the warning text is checked by
# tests/scripts/nn/loss_legacy.ag)
import warnings
warnings.simplefilter("ignore")
from agfmt import P
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([[0.2, 0.7, -0.4], [1.5, -0.3, 0.8]])
y = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]])
p = torch.tensor([[0.2, 0.7, 0.4], [0.9, 0.3, 0.6]])
t = torch.tensor([2, 0])
for sa, r in [(None, None), (True, None), (False, None), (None, False), (False, True), (True, False), (False, False)]:
    P(sa, r)
    P(F.mse_loss(x, y, size_average=sa, reduce=r), F.l1_loss(x, y, size_average=sa, reduce=r, reduction="sum"))
    P(F.cross_entropy(x, t, size_average=sa, reduce=r), F.nll_loss(x.log_softmax(1), t, reduce=r, size_average=sa))
    P(F.binary_cross_entropy(p, y, size_average=sa, reduce=r), F.binary_cross_entropy_with_logits(x, y, size_average=sa, reduce=r))
    P(F.smooth_l1_loss(x, y, size_average=sa, reduce=r), F.kl_div(x.log_softmax(1), p, size_average=sa, reduce=r, reduction="batchmean"))
    P(nn.MSELoss(size_average=sa, reduce=r)(x, y), nn.L1Loss(sa, r)(x, y), nn.CrossEntropyLoss(size_average=sa, reduce=r)(x, t))
    P(nn.NLLLoss(None, sa, -100, r)(x.log_softmax(1), t), nn.BCELoss(size_average=sa, reduce=r)(p, y), nn.BCEWithLogitsLoss(reduce=r, size_average=sa)(x, y))
    P(nn.SmoothL1Loss(size_average=sa, reduce=r)(x, y), nn.KLDivLoss(size_average=sa, reduce=r)(x.log_softmax(1), p))
P(nn.MSELoss(size_average=False).reduction, nn.CrossEntropyLoss(reduce=False).reduction, nn.BCELoss(size_average=True, reduce=True, reduction="none").reduction)
