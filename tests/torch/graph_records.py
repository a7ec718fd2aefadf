# recorded graphs (whole trees) for matmul folding, basic indexing chains,
# iteration, linear, embedding, masked_fill and create_graph gradients
from agfmt import P
import torch
import torch.nn.functional as F


def tree(g):
    if g is None:
        return "nil"
    name = type(g).__name__
    if name == "AccumulateGrad":
        return "Acc"
    return name + "(" + ", ".join(tree(c) + ("" if i == 0 else ":" + str(i)) for c, i in g.next_functions) + ")"


def T(label, y):
    P(label, tree(y.grad_fn), list(y.shape))


x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([1.0, 2.0], requires_grad=True)
b3 = torch.arange(24.0).reshape(4, 2, 3).requires_grad_()
b4 = torch.ones(2, 4, 2, 3, requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
# matmul
T("b3@v", b3 @ v)
T("b3@xt", b3 @ x.t())
T("b3t@v", b3.transpose(0, 1) @ v)
T("v@xt", v @ x.t())
T("w@x", w @ x)
T("w@b3", w @ b3)
T("x@b3t", x @ b3.transpose(1, 2))
T("b4@v", b4 @ v)
T("b4@b3t", b4 @ b3.transpose(1, 2))
T("v@b3t", v @ b3.transpose(1, 2))
T("x@v", x @ v)
T("v@v", v @ v)
T("x@ones432", x @ torch.ones(4, 3, 2, requires_grad=True))
T("ones432t@xt", torch.ones(4, 3, 2, requires_grad=True).transpose(1, 2) @ x.t())
T("perm@x", torch.ones(3, 4, 2, requires_grad=True).permute(1, 0, 2) @ x)
T("b4@xt", b4 @ x.t())
y = x @ torch.arange(24.0).reshape(4, 3, 2).requires_grad_()
y.sum().backward()
P(x.grad)
x.grad = None
y = w @ b3
y.pow(2).sum().backward()
P(w.grad, b3.grad[1])
w.grad = None
b3.grad = None
# transposes
T("x.T", x.T)
T("v.T", v.T)
T("s.T", s.T)
T("b3.T", b3.T)
T("x.t()", x.t())
b3.T.sum(dim=0).pow(2).sum().backward()
P(b3.grad[0])
b3.grad = None
# basic indexing
T("x[0, 1]", x[0, 1])
T("x[:, 0]", x[:, 0])
T("x[0]", x[0])
T("x[None]", x[None])
T("x[:, 1:]", x[:, 1:])
T("x[1, ::2]", x[1, ::2])
T("x[:]", x[:])
T("x[:, :]", x[:, :])
T("x[0, :]", x[0, :])
T("x[None, 0]", x[None, 0])
T("x[0, None]", x[0, None])
T("x[:, None]", x[:, None])
T("x[1:, 0]", x[1:, 0])
T("x[::1]", x[::1])
T("x[0:2]", x[0:2])
T("x[:, 0:3]", x[:, 0:3])
T("x[0:2, 0:3]", x[0:2, 0:3])
T("x[0:2, 1]", x[0:2, 1])
T("x[0:10, 1]", x[0:10, 1])
T("x[-2:, 1]", x[-2:, 1])
T("x[:, -1]", x[:, -1])
T("x[0:2:2, 1]", x[0:2:2, 1])
T("s[None]", s[None])
T("x[1:, 0:3]", x[1:, 0:3])
T("x[-1, -1]", x[-1, -1])
(x[0:2, 0:3] * 2).sum().backward()
P(x.grad)
x.grad = None
# iteration: one UnbindBackward0 for all rows
rows = []
for r in x:
    rows.append(r)
P(rows[0].grad_fn is rows[1].grad_fn, len(rows))
T("row0+row1", rows[0] + rows[1])
acc = 0
for r in x:
    acc = acc + r * r
acc.sum().backward()
P(x.grad)
x.grad = None
for e in v:
    T("elem", e)
# linear as F.linear records it
W = torch.tensor([[0.5, -0.5, 1.0], [1.0, 1.0, -2.0]], requires_grad=True)
bias = torch.tensor([0.1, -0.2], requires_grad=True)
T("lin2", F.linear(x, W, bias))
T("lin2nb", F.linear(x, W))
T("lin1", F.linear(v, W, bias))
T("lin1nb", F.linear(v, W))
x3 = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
T("lin3", F.linear(x3, W, bias))
T("lin3nb", F.linear(x3, W))
T("lin3t", F.linear(x3.transpose(0, 1), W, bias))
x4 = torch.ones(2, 1, 2, 3, requires_grad=True)
T("lin4", F.linear(x4, W, bias))
out = F.linear(x3, W, bias)
out.pow(2).sum().backward()
P(W.grad, bias.grad)
P(x3.grad)
# embedding
E = torch.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]], requires_grad=True)
idx = torch.tensor([[1, 3], [1, 0]])
e = torch.embedding(E, idx)
T("emb", e)
P(e)
(e * torch.tensor([1.0, 10.0])).sum().backward()
P(E.grad)
T("emb0d", torch.embedding(E, torch.tensor(2)))
# masked_fill
m = torch.tensor([True, False, True])
mf = x.masked_fill(m, -1.0)
T("mf", mf)
P(mf)
val = torch.tensor(5.0, requires_grad=True)
mf2 = x.masked_fill(m, val)
T("mf2", mf2)
(mf2 * 2).sum().backward()
P(x.grad, val.grad)
x.grad = None
T("mf3", x.masked_fill(m, torch.tensor(3.0)))
T("mfb", torch.ones(3, requires_grad=True).masked_fill(torch.tensor([[True, False, False], [False, False, True]]), 0.0))
# create_graph: the first .grad is a copy (CopyBackwards), then sums
a = torch.tensor([1.0, 2.0], requires_grad=True)
(a ** 3).sum().backward(create_graph=True)
P(a.grad, a.grad._version, a.grad.grad_fn, [g for g, _ in a.grad.grad_fn.next_functions])
a.grad.sum().backward()
P(a.grad, a.grad.grad_fn, [g for g, _ in a.grad.grad_fn.next_functions])
c = torch.tensor(3.0, requires_grad=True)
(c * c).backward(create_graph=True)
P(c.grad, c.grad.is_leaf, c.grad.requires_grad)
(c * c * c).backward(create_graph=True)
P(c.grad, c.grad.grad_fn, [g for g, _ in c.grad.grad_fn.next_functions])
