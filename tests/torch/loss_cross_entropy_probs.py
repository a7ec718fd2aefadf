# cross_entropy / nn.CrossEntropyLoss with class-probability targets: weight, label_smoothing,
# [N, C], [C] and [N, C, d...] inputs, every reduction; node names, values and gradients of
# both operands at full precision in float32 (float64 gradients differ from PyTorch's in the
# last bit, and so does a 3-D 'none' sum over the class dim: checked by gradcheck instead)
import torch
import torch.nn as nn
import torch.nn.functional as F
from agfmt import P
xs = [[1.2, -0.3, 2.5, 0.1], [-0.05, 3.1, -1.4, 0.7], [2.2, 0.6, -1.1, -4.0]]
ps = [[0.1, 0.4, 0.0, 0.5], [0.25, 0.25, 0.3, 0.2], [0.0, 0.0, 0.9, 0.1]]
x3 = [[[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0]], [[0.1, 0.2], [-0.3, 1.1], [0.9, -2.2]]]
p3 = [[[0.2, 0.5], [0.3, 0.25], [0.5, 0.25]], [[1.0, 0.0], [0.0, 0.6], [0.0, 0.4]]]
def run(name, f, dt, xv, pv, reds=["mean", "sum", "none"]):
    for red in reds:
        x = torch.tensor(xv, dtype=dt, requires_grad=True)
        p = torch.tensor(pv, dtype=dt, requires_grad=True)
        out = f(x, p, red)
        P(name, red, out.grad_fn)
        P(out.tolist())
        out.sum().backward()
        P(x.grad.tolist())
        P(p.grad.tolist())
for dt in [torch.float32]:
    P(dt)
    w = torch.tensor([0.5, 2.0, 1.0, 0.25], dtype=dt)
    w3 = torch.tensor([1.5, 0.5, 2.0], dtype=dt)
    run("probs", lambda x, p, r: F.cross_entropy(x, p, reduction=r), dt, xs, ps)
    run("probs weight", lambda x, p, r: F.cross_entropy(x, p, w, reduction=r), dt, xs, ps)
    run("probs smoothing", lambda x, p, r: F.cross_entropy(x, p, reduction=r, label_smoothing=0.1), dt, xs, ps)
    run("probs both", lambda x, p, r: F.cross_entropy(x, p, weight=w, reduction=r, label_smoothing=0.25), dt, xs, ps)
    run("probs 1-D", lambda x, p, r: F.cross_entropy(x, p, reduction=r), dt, xs[0], ps[0])
    run("probs 3-D", lambda x, p, r: F.cross_entropy(x, p, w3, reduction=r, label_smoothing=0.2), dt, x3, p3, ["mean", "sum"])
    run("CrossEntropyLoss", lambda x, p, r: nn.CrossEntropyLoss(weight=w, reduction=r, label_smoothing=0.05)(x, p), dt, xs, ps)
def show(f):
    try:
        P(f())
    except Exception as e:
        P("error:", str(e))
show(lambda: F.cross_entropy(torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.long)))
show(lambda: F.cross_entropy(torch.zeros(2, 3), torch.zeros(2, 3), label_smoothing=1.5))
show(lambda: F.cross_entropy(torch.zeros(0, 3), torch.zeros(0, 3)))
