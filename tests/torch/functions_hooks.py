# custom Functions (needs_input_grad, saved tensors, several inputs/outputs, errors),
# hooks (order, replacement, leaves and non-leaves, removal), retain_grad, no_grad in functions
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_backward(a, b)
        ctx.k = k
        P("needs", list(ctx.needs_input_grad))
        return a * b + k

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        P("backward sees", g, ctx.k)
        return g * b, g * a, None


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0])
y = MulAdd.apply(a, b, 2.0)
P(y, y.grad_fn, [n for n, _ in y.grad_fn.next_functions])
y.sum().backward()
P(a.grad, b.grad)
b2 = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
y = MulAdd.apply(a, b2, 1.0)
P([n for n, _ in y.grad_fn.next_functions])
(y * y).sum().backward()
P(a.grad, b2.grad)
with torch.no_grad():
    y = MulAdd.apply(a, b2, 0.0)
P(y.requires_grad, y.grad_fn)


class Split2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        P("grads in", g1, g2)
        return g1 * 2 + g2 * 3


x = torch.tensor([1.0, -1.0], requires_grad=True)
u, w = Split2.apply(x)
P(u.grad_fn is w.grad_fn, u, w)
u.sum().backward()
P(x.grad)
x.grad = None
u, w = Split2.apply(x)
(u.sum() + 10 * w.sum()).backward()
P(x.grad)


class WrongCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, p, q):
        return p + q

    @staticmethod
    def backward(ctx, g):
        return g


class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, p):
        return p * 1

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


p = torch.ones(3, requires_grad=True)
q = torch.ones(3, requires_grad=True)
print(msg(lambda: WrongCount.apply(p, q).sum().backward()))
print(msg(lambda: WrongShape.apply(p).sum().backward()))


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


t = torch.tensor([3.0], requires_grad=True)
z = Twice.apply(t)
z.backward(retain_graph=True)
z.backward()
P(t.grad)
z = Twice.apply(t)
z.backward()
print(msg(lambda: z.backward())[:60])

# hooks
h = torch.tensor([1.0, 2.0], requires_grad=True)
h.register_hook(lambda g: P("leaf1", g))
h.register_hook(lambda g: g * 10)
h.register_hook(lambda g: P("leaf3", g))
m = h * h
m.register_hook(lambda g: P("mid1", g) or g + 1)
m.register_hook(lambda g: P("mid2", g))
out = m.sum()
out.backward()
P(h.grad)
k = torch.tensor([1.0, 2.0], requires_grad=True)
handle = k.register_hook(lambda g: g * 100)
(k * 2).sum().backward()
P(k.grad)
handle.remove()
(k * 2).sum().backward()
P(k.grad)
print(msg(lambda: torch.ones(2).register_hook(lambda g: g)))

# retain_grad
r = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
s1 = r * 2
s1.retain_grad()
s2 = s1.exp()
s2.retain_grad()
s3 = s2.sum()
s3.retain_grad()
s3.backward()
P(s1.grad, s2.grad, s3.grad, s1.is_leaf, s1.retains_grad, r.retains_grad)
r.retain_grad()
P(r.retains_grad)


# no_grad inside functions
def f(v):
    with torch.no_grad():
        c = v * 2
    return v * c


nv = torch.tensor([1.0, 2.0], requires_grad=True)
o = f(nv)
o.sum().backward()
P(nv.grad, o.grad_fn, torch.is_grad_enabled())


def g(v):
    with torch.no_grad():
        with torch.enable_grad():
            d = v * 3
        e = v * 4
    return d, e


d, e = g(nv)
P(d.grad_fn, e.grad_fn, e.requires_grad)
with torch.no_grad():
    P((nv * 2).requires_grad)
    with torch.set_grad_enabled(True):
        P((nv * 2).requires_grad)
P(torch.is_grad_enabled())
