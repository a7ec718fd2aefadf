# the fused in-place updates of the optimizers round as ATen's kernels: add_(alpha=) and
# addcmul_ one fma, addcdiv_ none, lerp_ ATen's two forms (fma on each side of weight 0.5),
# with a number or a tensor as weight; float32 and float64, 37 elements (vector lanes and
# scalar tail), a broadcast operand, under no_grad and (composed, AddBackward0) recorded
# bit-exact on: avx2
# tolerance: rtol=1e-6 atol=1e-7
import torch
from agfmt import P
n = 37
def whole(t):
    return "-" if t is None else t.tolist()
def first(t):
    return "-" if t is None else t.tolist()[0]
def vals(k, dt):
    return torch.tensor(((torch.arange(n) * k) % 23 - 11).tolist(), dtype=dt) / 7.0 + 0.013 * k
for dt in [torch.float32, torch.float64]:
    P(dt)
    a = vals(5, dt)
    b = vals(3, dt)
    c = vals(7, dt).abs() + 0.25
    for alpha in [0.1, -0.37, 1, 2.5]:
        P("add_", alpha, a.clone().add_(b, alpha=alpha).tolist())
        P("addcmul_", alpha, a.clone().addcmul_(b, c, value=alpha).tolist())
        P("addcdiv_", alpha, a.clone().addcdiv_(b, c, value=alpha).tolist())
    for w in [0.3, 0.5, 0.7, -0.7, 1.2]:
        P("lerp_", w, a.clone().lerp_(b, w).tolist())
    P("lerp_ tensor", a.clone().lerp_(b, c - 0.9).tolist())
    row = torch.tensor([0.25, -1.5, 0.75], dtype=dt)
    P("broadcast", a[:36].reshape([12, 3]).clone().add_(row, alpha=0.3).tolist())
    P("broadcast addcmul_", a[:36].reshape([12, 3]).clone().addcmul_(row, b[:3], value=-0.2).tolist())
    P("number", a.clone().add_(2.0, alpha=0.3).tolist()[:3])
    leaf = a.clone().requires_grad_()
    y = leaf * 1.0
    y.addcmul_(b, c, value=0.5)
    y.sum().backward()
    P(y.grad_fn, leaf.grad.tolist()[:3])
    x = a[:36].reshape([12, 3]).clone().requires_grad_()
    y = row.clone().requires_grad_()
    z = c[:36].reshape([12, 3]).clone().requires_grad_()
    outs = [x.add(y, alpha=-0.6), torch.add(x, y, alpha=1.5), torch.addcmul(x, y, z, value=0.7), x.addcdiv(y, z, value=-1.2),
            torch.lerp(x, y, 0.35), x.lerp(y, 0.85), torch.lerp(x, y, z - 1.0), torch.addcmul(row, x, z)]
    for o in outs:
        P(o.grad_fn, o.tolist()[0])
        (o * o).sum().backward()
        P(first(x.grad), whole(y.grad), first(z.grad))
        x.grad = None
        y.grad = None
        z.grad = None
