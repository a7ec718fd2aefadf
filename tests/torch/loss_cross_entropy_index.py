# cross_entropy / nll_loss with class-index targets: weight, ignore_index (the default -100
# and another), label_smoothing with both, all targets ignored, (C) with a 0-d target,
# [N, C, d] (viewed for nll_loss2d), [N, C, H, W] (NllLoss2DBackward0) and 5-D inputs, every
# reduction; node names, values and the input's gradient under an upstream 0.7, to the bit
# bit-exact on: avx2
# tolerance: rtol=1e-6 atol=1e-7
import torch
import torch.nn as nn
import torch.nn.functional as F
from agfmt import P
xs = [[1.2, -0.3, 2.5, 0.1], [-0.05, 3.1, -1.4, 0.7], [2.2, 0.6, -1.1, -4.0], [0.3, 0.3, 0.9, -0.2], [1.0, -2.0, 0.5, 0.25]]
ts = [2, -100, 0, 3, 1]
x4 = [[[[0.5, -1.0, 0.2], [1.5, 0.25, -0.1]], [[-0.75, 2.0, 0.3], [0.1, 0.2, 0.6]], [[-0.3, 1.1, -0.9], [0.9, -2.2, 0.4]]],
      [[[0.7, 0.1, -0.5], [0.2, 0.3, 0.8]], [[1.2, -0.4, 0.0], [-1.1, 0.5, 0.9]], [[0.6, 0.6, 0.1], [0.3, -0.7, 1.4]]]]
t4 = [[[0, 2, 1], [-100, 1, 2]], [[2, 2, 0], [1, -100, 0]]]
def run(name, f, dt, xv, tv, reds=["mean", "sum", "none"]):
    for red in reds:
        x = torch.tensor(xv, dtype=dt, requires_grad=True)
        t = torch.tensor(tv, dtype=torch.int64)
        out = f(x, t, red)
        P(name, red, out.grad_fn)
        P(out.tolist())
        (out * 0.7).sum().backward()
        P(x.grad.tolist())
for dt in [torch.float32, torch.float64]:
    P(dt)
    w = torch.tensor([0.5, 2.0, 1.0, 0.25], dtype=dt)
    w3 = torch.tensor([1.5, 0.5, 2.0], dtype=dt)
    run("index", lambda x, t, r: F.cross_entropy(x, t, reduction=r), dt, xs, ts)
    run("weight", lambda x, t, r: F.cross_entropy(x, t, w, reduction=r), dt, xs, ts)
    run("ignore 3", lambda x, t, r: F.cross_entropy(x, t, w, ignore_index=3, reduction=r), dt, xs, [2, 1, 0, 3, 3])
    run("all ignored", lambda x, t, r: F.cross_entropy(x, t, reduction=r), dt, xs[:2], [-100, -100])
    run("all ignored weight", lambda x, t, r: F.cross_entropy(x, t, w, reduction=r), dt, xs[:2], [-100, -100])
    run("smoothing", lambda x, t, r: F.cross_entropy(x, t, reduction=r, label_smoothing=0.1), dt, xs, ts)
    run("smoothing weight", lambda x, t, r: F.cross_entropy(x, t, weight=w, reduction=r, label_smoothing=0.25), dt, xs, ts)
    run("smoothing all ignored", lambda x, t, r: F.cross_entropy(x, t, reduction=r, label_smoothing=0.25), dt, xs[:2], [-100, -100])
    run("1-D", lambda x, t, r: F.cross_entropy(x, t, w, reduction=r), dt, xs[0], 2)
    run("1-D ignored", lambda x, t, r: F.cross_entropy(x, t, reduction=r), dt, xs[0], -100)
    run("1-D smoothing", lambda x, t, r: F.cross_entropy(x, t, w, reduction=r, label_smoothing=0.3), dt, xs[0], 1)
    run("4-D", lambda x, t, r: F.cross_entropy(x, t, reduction=r), dt, x4, t4)
    run("4-D weight", lambda x, t, r: F.cross_entropy(x, t, w3, reduction=r), dt, x4, t4)
    run("4-D smoothing", lambda x, t, r: F.cross_entropy(x, t, w3, reduction=r, label_smoothing=0.2), dt, x4, t4)
    x3 = torch.tensor(x4, dtype=dt).reshape([2, 3, 6]).tolist()
    t3 = torch.tensor(t4).reshape([2, 6]).tolist()
    run("3-D", lambda x, t, r: F.cross_entropy(x, t, w3, reduction=r), dt, x3, t3)
    run("3-D smoothing", lambda x, t, r: F.cross_entropy(x, t, reduction=r, label_smoothing=0.1), dt, x3, t3)
    x5 = torch.tensor(x4, dtype=dt).reshape([2, 3, 2, 3, 1]).tolist()
    t5 = torch.tensor(t4).reshape([2, 2, 3, 1]).tolist()
    run("5-D", lambda x, t, r: F.cross_entropy(x, t, w3, reduction=r), dt, x5, t5)
    run("nll_loss", lambda x, t, r: F.nll_loss(F.log_softmax(x, 1), t, w, reduction=r), dt, xs, ts)
    run("nll_loss ignore 0", lambda x, t, r: F.nll_loss(x, t, ignore_index=0, reduction=r), dt, xs, [0, 1, 0, 3, 2])
    run("nll_loss 4-D", lambda x, t, r: F.nll_loss(x, t, w3, reduction=r), dt, x4, t4)
    run("NLLLoss", lambda x, t, r: nn.NLLLoss(weight=w, ignore_index=3, reduction=r)(x, t), dt, xs, [2, 1, 0, 3, 3])
    run("CrossEntropyLoss", lambda x, t, r: nn.CrossEntropyLoss(weight=w, reduction=r, label_smoothing=0.05)(x, t), dt, xs, ts)
# float64 nll_loss on its own as well (cross_entropy above runs in float64 too)
w64 = torch.tensor([0.5, 2.0, 1.0, 0.25], dtype=torch.float64)
run("f64 nll_loss", lambda x, t, r: F.nll_loss(x, t, w64, ignore_index=0, reduction=r), torch.float64, xs, [0, 1, 0, 3, 2])
run("f64 nll_loss 4-D", lambda x, t, r: F.nll_loss(x, t, w64[:3], reduction=r), torch.float64, x4, t4)
def show(f):
    try:
        P(f())
    except Exception as e:
        P("error:", str(e).split("\n")[0])
x = torch.zeros(3, 4)
L = torch.tensor
show(lambda: F.nll_loss(x, L([0, 1, 2]), weight=torch.ones(3)))
show(lambda: F.cross_entropy(x, L([0, 1, 2]), weight=torch.ones(2, 2), label_smoothing=0.1))
show(lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 6, dtype=torch.int64)))
show(lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(3, 4, 5, dtype=torch.int64)))
show(lambda: F.nll_loss(torch.zeros(2, 3, 5), torch.zeros(2, 4, dtype=torch.int64)))
show(lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 5, dtype=torch.int64), weight=torch.ones(4)))
show(lambda: F.nll_loss(torch.zeros(2, 3, 4, 5), torch.full([2, 4, 5], 7, dtype=torch.int64)))
show(lambda: F.cross_entropy(x, L([0, 1])))
show(lambda: F.cross_entropy(x, L([0, 1, 9]), label_smoothing=0.1))
show(lambda: F.nll_loss(L(1.0), L(0)))
show(lambda: F.nll_loss(x, L([0, 1, 2]), reduction="avg"))
show(lambda: F.nll_loss(torch.zeros(0, 3), L([], dtype=torch.int64)))
show(lambda: F.cross_entropy(torch.zeros(0, 3, 2), torch.zeros(0, 2, dtype=torch.int64), reduction="sum"))
show(lambda: F.cross_entropy(torch.zeros(2, 3), torch.zeros(2, 3), ignore_index=1))
show(lambda: F.cross_entropy(torch.zeros(2, 3), torch.zeros(2, 3), ignore_index=-5))
show(lambda: F.cross_entropy(L([[1.0, 2.0, 3.0]]), L([2]), label_smoothing=-0.5))
show(lambda: F.cross_entropy(torch.zeros(2, 3), L([0, 1]), label_smoothing=1.5))
show(lambda: F.nll_loss(torch.zeros(2, 3), L([0.0, 1.0])))
show(lambda: F.nll_loss(torch.zeros(2, 3), L([0, 1]), weight=torch.ones(3, dtype=torch.float64)))
show(lambda: F.nll_loss(torch.zeros(1, 3, 2, 2), torch.zeros(1, 2, 2, dtype=torch.int64), weight=torch.ones(3, dtype=torch.float64)))
