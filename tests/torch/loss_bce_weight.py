# binary_cross_entropy / nn.BCELoss with weight (full and broadcast), every reduction,
# float32 and float64: values and both operands' gradients under an upstream 0.7, to the bit
# bit-exact on: avx2
# tolerance: rtol=1e-6 atol=1e-7
import torch
import torch.nn as nn
import torch.nn.functional as F
from agfmt import P
ps = [[0.9, 0.3, 0.05, 0.5], [0.2, 0.7, 0.999, 0.01], [0.6, 0.4, 0.35, 0.8]]
ts = [[1.0, 0.0, 0.25, 1.0], [0.0, 0.5, 1.0, 0.0], [0.75, 0.1, 0.0, 1.0]]
ws = [[0.5, 2.0, 1.0, 0.25], [1.5, 0.1, 3.0, 1.0], [0.2, 0.2, 0.9, 1.1]]
def run(name, f, dt):
    for red in ["mean", "sum", "none"]:
        p = torch.tensor(ps, dtype=dt, requires_grad=True)
        t = torch.tensor(ts, dtype=dt, requires_grad=True)
        out = f(p, t, red)
        P(name, red, out.grad_fn)
        P(out.tolist())
        (out * 0.7).sum().backward()
        P(p.grad.tolist())
        P(t.grad.tolist())
for dt in [torch.float32, torch.float64]:
    P(dt)
    w = torch.tensor(ws, dtype=dt)
    wrow = torch.tensor([0.5, 2.0, 1.0, 0.25], dtype=dt)
    run("plain", lambda p, t, r: F.binary_cross_entropy(p, t, reduction=r), dt)
    run("weight", lambda p, t, r: F.binary_cross_entropy(p, t, w, reduction=r), dt)
    run("row weight", lambda p, t, r: F.binary_cross_entropy(p, t, weight=wrow, reduction=r), dt)
    run("BCELoss", lambda p, t, r: nn.BCELoss(weight=wrow, reduction=r)(p, t), dt)
try:
    F.binary_cross_entropy(torch.tensor([0.5, 0.5, 0.5]), torch.tensor([1.0, 0.0, 1.0]), weight=torch.ones(2))
except Exception as e:
    P("error:", str(e))
