# gelu's backward (GeluBackward0) to the last bit, printed with tolist. PyTorch 1.13 hands a
# contiguous float32 input of more than one element to oneDNN (its own erf and exp); anything
# else goes to ATen's kernel: per innermost run 16 floats / 8 doubles at a time by the vector
# formula (SLEEF's erf and exp, one FMA), the rest by the C library's erf and exp.
from agfmt import P
import torch
import torch.nn.functional as F

inf, nan = float("inf"), float("nan")


def gb(x, g):
    b = x.detach().requires_grad_()
    F.gelu(b).backward(g)
    return b.grad.tolist()


# the gradient of y.sum() is one value broadcast; of a view, through the base
def gsum(x):
    b = x.detach().requires_grad_()
    F.gelu(b).sum().backward()
    return b.grad.tolist()


def gview(base, f):
    b = base.detach().requires_grad_()
    v = f(b)
    F.gelu(v).backward((torch.arange(v.numel()).reshape(v.shape) * 0.37 - 3.1).to(v.dtype))
    return b.grad.tolist()


special = [-0.75, -0.7500001, -0.74999994, -0.5, -1.0, -2.0, -3.0, -4.0, -5.5, -7.0, -9.0, -10.0, -13.0, -20.0, -40.0, 0.0, -0.0, 1e-7, -1e-7, 1e-30, -1e-40, 0.5, 1.0, 2.3, 4.0, 6.0, 9.5, 13.0, 88.0, -88.0, 1e30, -1e30, 3e38, -3e38, inf, -inf, nan, 0.3]
for dt in [torch.float32, torch.float64]:
    x = torch.tensor(special, dtype=dt)
    g = (torch.arange(x.numel()) * 0.61 - 7.3).to(dt)
    P(dt, gsum(x))
    P(gb(x, g))
    # each value alone: ATen's scalar formula
    one = []
    for v in special:
        one.append(gsum(torch.tensor([v], dtype=dt))[0])
    P(one)
    # every size 1..40: the vector part and the scalar tail
    t = (torch.arange(40) * 0.173 - 3.7).to(dt)
    gt = (torch.arange(40) * -0.29 + 5.1).to(dt)
    for k in range(1, 41):
        P(k, gb(t[:k], gt[:k]), gsum(t[:k]))
    # strided views: ATen's kernel, a run of 20 (16 + 4) per row, a row per element
    m = (torch.arange(120) * 0.071 - 4.2).to(dt).reshape(6, 20)
    P(gview(m, lambda b: b[:, :]))
    P(gview(m, lambda b: b[:, 1:19]))
    P(gview(m, lambda b: b[::2]))
    P(gview(m, lambda b: b[:, ::3]))
    P(gview(m, lambda b: b.t()))
    P(gview(m, lambda b: b[2]))
    P(gview(m, lambda b: b[2:3, 5:6]))
    # a gradient broadcast along rows (from sum over a dim)
    b = m.detach().requires_grad_()
    F.gelu(b).sum(1).backward((torch.arange(6) * 0.5 - 1).to(dt))
    P(b.grad.tolist())
    c = m.detach().requires_grad_()
    F.gelu(c).sum(0).backward((torch.arange(20) * 0.25 - 2).to(dt))
    P(c.grad.tolist())
    # x and its gradient permuted alike: ATen's runs follow memory order
    gm = (torch.arange(120) * 0.37 - 3.1).to(dt).reshape(20, 6)
    p = m.reshape(20, 6).detach().requires_grad_()
    F.gelu(p.t()).backward(gm.t())
    P(p.grad.tolist())
    q = m.reshape(20, 6).detach().requires_grad_()
    F.gelu(q.t()[:, 2:19]).backward(gm.t()[:, 2:19])
    P(q.grad.tolist())
    # x broadcast (ATen's vector formula with x's stride 0)
    xb = torch.tensor([[-0.75], [1.3]], dtype=dt).requires_grad_()
    e = xb.expand(2, 40)
    e.retain_grad()
    F.gelu(e).backward((torch.arange(80) * 0.37 - 3.1).to(dt).reshape(2, 40))
    P(e.grad.tolist())
    # large: 100000 elements (whole vector steps in each of two threads' halves)
    big = (torch.arange(100000) * 0.00013 - 6.5).to(dt)
    r = gsum(big)
    P(r[:5], r[32760:32776], r[99990:])
    gbig = gb(big, (torch.arange(100000) * 0.00007 - 3).to(dt))
    P(gbig[49990:50010], gbig[65530:65540], gbig[99984:])
