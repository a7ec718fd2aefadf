# reductions with keepdim on 3-D, softmax/log_softmax over every dim, cat/stack/split/chunk,
# gather/index_select, losses with every reduction, clamp with tensor bounds: values and gradients
from agfmt import P
import torch
import torch.nn.functional as F

base = torch.tensor([[[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.75, 3.0], [1.0, 1.0, -2.0, 0.5]],
                     [[2.5, 0.5, 1.0, -1.5], [0.0, -0.5, 0.75, 1.25], [-1.0, 2.0, 0.5, 0.25]]])


def fresh():
    return base.clone().requires_grad_()


for dim in [0, 1, 2, -1]:
    for keep in [False, True]:
        x = fresh()
        s = x.sum(dim=dim, keepdim=keep)
        m = x.mean(dim=dim, keepdim=keep)
        (s * s).sum().backward()
        P("sum", dim, keep, list(s.shape), s.grad_fn, x.grad[1])
        x = fresh()
        m = x.mean(dim=dim, keepdim=keep)
        (m * m).sum().backward()
        P("mean", dim, keep, list(m.shape), x.grad[0, 1])
        x = fresh()
        mx, ix = x.max(dim=dim, keepdim=keep)
        (mx * 2).sum().backward()
        P("max", dim, keep, mx.grad_fn, ix, x.grad[0])
        x = fresh()
        mn, inn = x.min(dim=dim, keepdim=keep)
        mn.sum().backward()
        P("min", dim, keep, inn, x.grad[1])
        x = fresh()
        pr = x.prod(dim=dim, keepdim=keep)
        pr.sum().backward()
        P("prod", dim, keep, pr.grad_fn, x.grad[0])
        x = fresh()
        sd = x.std(dim=dim, keepdim=keep)
        sd.sum().backward()
        P("std", dim, keep, list(sd.shape), x.grad[1, 0])
        x = fresh()
        va = x.var(dim=dim, keepdim=keep)
        va.sum().backward()
        P("var", dim, keep, x.grad[0, 2])
        x = fresh()
        lse = x.logsumexp(dim=dim, keepdim=keep)
        lse.sum().backward()
        P("lse", dim, keep, lse.grad_fn, x.grad[1, 2])
        x = fresh()
        nr = x.norm(dim=dim, keepdim=keep)
        nr.sum().backward()
        P("norm", dim, keep, nr.grad_fn, x.grad[0, 0])
        P("arg", dim, keep, base.argmax(dim=dim, keepdim=keep), base.argmin(dim=dim, keepdim=keep))
x = fresh()
P(x.sum(dim=[0, 2], keepdim=True), x.mean(dim=[1, 2]), x.max(), x.min(), x.prod(), x.std(), x.var(), x.norm())
for dim in [0, 1, 2, -1]:
    x = fresh()
    sm = F.softmax(x, dim=dim)
    (sm * torch.arange(4.0)).sum().backward()
    P("softmax", dim, sm[1, 2], x.grad[1, 2])
    x = fresh()
    ls = F.log_softmax(x, dim=dim)
    (ls * torch.arange(4.0)).sum().backward()
    P("log_softmax", dim, ls[0, 0], x.grad[0, 0], ls.grad_fn)
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[5.0, 6.0]], requires_grad=True)
c = torch.cat([a, b, a], dim=0)
(c * torch.arange(5.0).reshape(5, 1)).sum().backward()
P(c.grad_fn, a.grad, b.grad)
a.grad = None
st = torch.stack([a, a * 2], dim=1)
(st ** 2).sum().backward()
P(st.shape, st.grad_fn, a.grad)
a.grad = None
c2 = torch.cat([a, a], dim=-1)
pieces = c2.split(3, dim=1)
P([p.shape for p in pieces], pieces[1].grad_fn)
(pieces[0].sum() * 2 + pieces[1].sum() * 5).backward()
P(a.grad)
a.grad = None
ch = c2.chunk(2, dim=0)
(ch[1] * 3).sum().backward()
P(len(ch), ch[0].grad_fn, a.grad)
a.grad = None
sp = c2.split([1, 3], dim=1)
(sp[1] ** 2).sum().backward()
P(sp[1].grad_fn, a.grad)
a.grad = None
ub = c2.unbind(1)
(ub[0] + 2 * ub[3]).sum().backward()
P(len(ub), ub[2].grad_fn, a.grad)
g = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
idx = torch.tensor([[0, 0, 2], [1, 0, 1]])
ga = g.gather(1, idx)
(ga * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
P(ga, ga.grad_fn, g.grad)
g.grad = None
ga0 = g.gather(0, torch.tensor([[1, 0, 1]]))
ga0.sum().backward()
P(ga0, g.grad)
g.grad = None
isel = g.index_select(1, torch.tensor([2, 0, 2]))
(isel * isel).sum().backward()
P(isel, isel.grad_fn, g.grad)
g.grad = None
isel0 = g.index_select(0, torch.tensor([1, 1]))
isel0.sum().backward()
P(isel0.grad_fn, g.grad)
pred = torch.tensor([[0.2, 0.8, -0.5], [1.5, -1.0, 0.3]], requires_grad=True)
tgt = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])
cls = torch.tensor([1, 0])
prob = torch.tensor([[0.2, 0.7, 0.5], [0.9, 0.1, 0.4]], requires_grad=True)
for red in ["mean", "sum", "none"]:
    for name, fn in [("mse", lambda r: F.mse_loss(pred, tgt, reduction=r)),
                     ("l1", lambda r: F.l1_loss(pred, tgt, reduction=r)),
                     ("ce", lambda r: F.cross_entropy(pred, cls, reduction=r)),
                     ("nll", lambda r: F.nll_loss(F.log_softmax(pred, dim=1), cls, reduction=r)),
                     ("bce", lambda r: F.binary_cross_entropy(prob, tgt, reduction=r))]:
        pred.grad = None
        prob.grad = None
        loss = fn(red)
        (loss * 3).sum().backward()
        P(name, red, loss, pred.grad if name != "bce" else prob.grad)
x = torch.tensor([1.0, -2.0, 3.0, 0.5], requires_grad=True)
lo = torch.tensor([0.0, 0.0, 4.0, 0.5], requires_grad=True)
hi = torch.tensor([2.0, -1.0, 5.0, 0.25], requires_grad=True)
y = x.clamp(min=lo, max=hi)
y.sum().backward()
P(y, y.grad_fn, x.grad, lo.grad, hi.grad)
for t in [x, lo, hi]:
    t.grad = None
y = torch.clamp(x, max=hi)
(y * 2).sum().backward()
P(y, x.grad, lo.grad, hi.grad)
y = x.clamp(min=torch.tensor(0.75))
P(y, [n for n, _ in y.grad_fn.next_functions])
P(x.clamp(min=0.0, max=1.0).grad_fn, torch.clamp(x, min=2.0, max=1.0), torch.clamp(x, min=torch.tensor(2.0), max=torch.tensor(1.0)))
