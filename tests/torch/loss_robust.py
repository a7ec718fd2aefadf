# smooth_l1_loss (beta), huber_loss (delta), binary_cross_entropy_with_logits (weight,
# pos_weight): values and gradients of both operands at full precision, float32 and
# float64, every reduction, node names (beta 0 stays SmoothL1LossBackward0)
import torch
import torch.nn as nn
import torch.nn.functional as F
from agfmt import P
xs = [[-3.1, -1.2, -0.45, 0.0], [0.3, 0.95, 1.7, 12.5], [-40.0, 25.0, 0.05, -0.6]]
ys = [[-1.0, 0.4, -0.5, 0.8], [0.3, -0.2, 2.9, 1.0], [1.0, 0.0, 0.25, -0.1]]
ts = [[1.0, 0.0, 1.0, 0.0], [0.5, 1.0, 0.0, 0.25], [1.0, 0.0, 1.0, 1.0]]
def run(name, f, dt):
    for red in ["mean", "sum", "none"]:
        x = torch.tensor(xs, dtype=dt, requires_grad=True)
        y = torch.tensor(ys, dtype=dt, requires_grad=True)
        out = f(x, y, red)
        P(name, red, out.grad_fn)
        P(out.tolist())
        out.sum().backward()
        P(x.grad.tolist())
        P(None if y.grad is None else y.grad.tolist())
for dt in [torch.float32, torch.float64]:
    P(dt)
    run("smooth_l1", lambda x, y, r: F.smooth_l1_loss(x, y, reduction=r), dt)
    run("smooth_l1 beta=0.5", lambda x, y, r: F.smooth_l1_loss(x, y, reduction=r, beta=0.5), dt)
    run("smooth_l1 beta=0", lambda x, y, r: F.smooth_l1_loss(x, y, reduction=r, beta=0.0), dt)
    run("huber", lambda x, y, r: F.huber_loss(x, y, reduction=r), dt)
    run("huber delta=2.5", lambda x, y, r: F.huber_loss(x, y, reduction=r, delta=2.5), dt)
    t = torch.tensor(ts, dtype=dt)
    w = torch.tensor([0.5, 2.0, 1.0, 0.25], dtype=dt)
    pw = torch.tensor([3.0, 0.5, 1.0, 2.0], dtype=dt)
    run("bce_logits", lambda x, y, r: F.binary_cross_entropy_with_logits(x, torch.sigmoid(y), reduction=r), dt)
    run("bce_logits target", lambda x, y, r: F.binary_cross_entropy_with_logits(x, t, reduction=r), dt)
    run("bce_logits weight", lambda x, y, r: F.binary_cross_entropy_with_logits(x, t, weight=w, reduction=r), dt)
    run("bce_logits pos_weight", lambda x, y, r: F.binary_cross_entropy_with_logits(x, t, pos_weight=pw, reduction=r), dt)
    run("bce_logits both", lambda x, y, r: F.binary_cross_entropy_with_logits(x, t, w, pos_weight=pw, reduction=r), dt)
    run("BCEWithLogitsLoss", lambda x, y, r: nn.BCEWithLogitsLoss(reduction=r, pos_weight=pw)(x, t), dt)
    run("SmoothL1Loss", lambda x, y, r: nn.SmoothL1Loss(reduction=r, beta=2.0)(x, y), dt)
    run("HuberLoss", lambda x, y, r: nn.HuberLoss(reduction=r, delta=0.5)(x, y), dt)
