# kl_div / nn.KLDivLoss: PyTorch 1.13's composition (xlogy(t, t) - t * input, or with
# log_target exp(t) * (t - input)), every reduction and batchmean, node names, values and
# gradients of both operands at full precision, float32 and float64; zero targets
import torch
import torch.nn as nn
import torch.nn.functional as F
import warnings
from agfmt import P
warnings.simplefilter("ignore")
xs = [[-1.2, -0.3, -2.5, -0.9], [-0.05, -3.1, -1.4, -0.7], [-2.2, -0.6, -1.1, -4.0]]
ts = [[0.1, 0.4, 0.0, 0.5], [0.25, 0.25, 0.3, 0.2], [0.0, 0.0, 0.9, 0.1]]
lts = [[-2.3, -0.9, -1.6, -0.7], [-1.4, -1.4, -1.2, -1.6], [-3.0, -5.5, -0.1, -2.3]]
def run(name, f, dt, tvals):
    for red in ["mean", "sum", "none", "batchmean"]:
        x = torch.tensor(xs, dtype=dt, requires_grad=True)
        t = torch.tensor(tvals, dtype=dt, requires_grad=True)
        out = f(x, t, red)
        P(name, red, out.grad_fn)
        P(out.tolist())
        out.sum().backward()
        P(x.grad.tolist())
        P(t.grad.tolist())
for dt in [torch.float32, torch.float64]:
    P(dt)
    run("kl_div", lambda x, t, r: F.kl_div(x, t, reduction=r), dt, ts)
    run("kl_div log_target", lambda x, t, r: F.kl_div(x, t, reduction=r, log_target=True), dt, lts)
    run("KLDivLoss", lambda x, t, r: nn.KLDivLoss(reduction=r)(x, t), dt, ts)
    run("KLDivLoss log_target", lambda x, t, r: nn.KLDivLoss(reduction=r, log_target=True)(x, t), dt, lts)
x1 = torch.tensor([-0.5, -1.5], requires_grad=True)
P(F.kl_div(x1, torch.tensor([0.5, 0.5]), reduction="batchmean"))
def show(f):
    try:
        P(f())
    except Exception as e:
        P("error:", str(e))
show(lambda: F.kl_div(x1, torch.tensor([0.5, 0.5]), reduction="avg"))
