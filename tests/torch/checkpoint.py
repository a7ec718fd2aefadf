# utils.checkpoint (reentrant and not, random state preserved, checkpoint_sequential) and autograd.graph.saved_tensors_hooks / save_on_cpu
import warnings
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
from agfmt import P, error_of as msg

warnings.filterwarnings("ignore")


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Dropout(0.5), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 3))
x = torch.randn(5, 4, requires_grad=True)


def grads():
    g = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
    for p in net.parameters():
        p.grad = None
    x.grad = None
    return g


def same(a, b):
    return all(bool((p == q).all()) for p, q in zip(a, b))


torch.manual_seed(1)
plain_out = net(x)
plain_out.pow(2).sum().backward()
plain = grads()
after_plain = torch.rand(2)

torch.manual_seed(1)
out = checkpoint(net, x)
P(out.grad_fn, bool((out == plain_out).all()))
out.pow(2).sum().backward()
P(same(grads(), plain), bool((torch.rand(2) == after_plain).all()))

torch.manual_seed(1)
out = checkpoint(net, x, use_reentrant=False)
P(out.grad_fn, bool((out == plain_out).all()))
out.pow(2).sum().backward()
P(same(grads(), plain), bool((torch.rand(2) == after_plain).all()))

# without preserving the random state, the recomputed dropout draws new masks
torch.manual_seed(1)
out = checkpoint(net, x, preserve_rng_state=False)
out.pow(2).sum().backward()
P(same(grads(), plain))

torch.manual_seed(1)
out = checkpoint_sequential(net, 3, x)
P(out.grad_fn, bool((out == plain_out).all()))
out.pow(2).sum().backward()
P(same(grads(), plain))

torch.manual_seed(1)
out = checkpoint_sequential(net, 2, x, preserve_rng_state=True)
out.pow(2).sum().backward()
P(same(grads(), plain))

# several inputs and outputs, non-tensor arguments, keywords (non-reentrant only)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)


def two(u, v, scale, shift=0.0):
    return (u * v).exp() * scale + shift, u.sin() * v


o1, o2 = checkpoint(two, a, b, 2.0)
(o1.sum() + o2.sum()).backward()
P(o1, o2, a.grad, b.grad)
a.grad = None
b.grad = None
o1, o2 = checkpoint(two, a, b, 2.0, use_reentrant=False, shift=1.0)
(o1.sum() + o2.sum()).backward()
P(o1, o2, a.grad, b.grad)
a.grad = None
b.grad = None
P(msg(lambda: checkpoint(two, a, b, 2.0, shift=1.0)))
y = checkpoint(two, a, b, 2.0, use_reentrant=False)[0].sum()
y.backward(retain_graph=True)
P(msg(lambda: y.backward()))
a.grad = None
b.grad = None

# saved_tensors_hooks: every saved tensor goes through pack, and unpack gives it back
packed = []


def pack(t):
    packed.append(t)
    return len(packed) - 1


def unpack(i):
    return packed[i]


with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (a * b).exp().sum()
P(len(packed), sorted(t.tolist() for t in packed))
y.backward()
P(a.grad, b.grad)
a.grad = None
b.grad = None

# a pack that scales and an unpack that undoes it: the same gradients
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 4):
    y = (a * b).pow(3).sum()
y.backward()
P(a.grad, b.grad)
a.grad = None
b.grad = None

# the innermost pair applies; outside the block nothing is packed
calls = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: calls.append("outer") or t, lambda t: t):
    with torch.autograd.graph.saved_tensors_hooks(lambda t: calls.append("inner") or t, lambda t: t):
        y = a.exp()
    z = a.sin()
w = a.cos()
P(calls)
(y.sum() + z.sum() + w.sum()).backward()
P(a.grad)
a.grad = None

# what unpack returns is what backward uses
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: torch.ones_like(t)):
    y = (a * a).sum()
y.backward()
P(a.grad)
a.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 3):
    y = (a * b).sum()
P(msg(lambda: y.backward()))
a.grad = None
b.grad = None

with torch.autograd.graph.save_on_cpu():
    y = (a * b).tanh().sum()
y.backward()
P(a.grad, b.grad)

# reentrant checkpointing serves backward() alone; the non-reentrant form also autograd.grad
a.grad = None
b.grad = None
P(msg(lambda: torch.autograd.grad(checkpoint(two, a, b, 2.0)[0].sum(), [a])))
P(msg(lambda: checkpoint(two, a, b, 2.0)[0].sum().backward(inputs=[a])))
P(torch.autograd.grad(checkpoint(two, a, b, 2.0, use_reentrant=False)[0].sum(), [a])[0], a.grad)

# a custom Function's save_for_backward goes through the hooks too, so the non-reentrant checkpoint recomputes it
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t, None)
        return t ** 3

    @staticmethod
    def backward(ctx, g):
        t, none = ctx.saved_tensors
        return 3 * t * t * g


log = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: log.append("pack") or t * 10, lambda p: log.append("unpack") or p / 10):
    y = Cube.apply(a)
P(log)
y.sum().backward()
P(a.grad, log)
a.grad = None
z = checkpoint(lambda t: Cube.apply(t.sin()), a, use_reentrant=False)
z.sum().backward()
P(a.grad)
a.grad = None
Cube.apply(a.sin()).sum().backward()
P(a.grad)
a.grad = None
