# smooth_l1_loss, huber_loss, binary_cross_entropy_with_logits: PyTorch's errors for
# shape, dtype and parameter mistakes, and for a bad reduction in the module forms
import torch
import torch.nn as nn
import torch.nn.functional as F
from agfmt import P
x = torch.zeros(3)
t = torch.zeros(2)
i = torch.zeros(3, dtype=torch.long)
def show(f):
    try:
        P(f())
    except Exception as e:
        P("error:", str(e))
show(lambda: F.binary_cross_entropy_with_logits(x, t))
show(lambda: F.binary_cross_entropy_with_logits(i, i))
show(lambda: F.smooth_l1_loss(x, x, beta=-1.0))
show(lambda: F.huber_loss(x, x, delta=0.0))
show(lambda: F.huber_loss(x, x, delta=-1.0))
show(lambda: F.smooth_l1_loss(i, i))
show(lambda: F.huber_loss(i, i))
show(lambda: F.huber_loss(torch.zeros(3, 2), torch.zeros(4, 2)))
show(lambda: nn.HuberLoss(reduction="avg")(x, x))
show(lambda: nn.SmoothL1Loss(reduction="avg")(x, x))
show(lambda: nn.BCEWithLogitsLoss(reduction="avg")(x, x))
