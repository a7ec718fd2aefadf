# recorded a += b, a -= b and a OP= number on non-leaves: values, nodes, versions, gradients and errors
import torch
from agfmt import P, msg


w = torch.tensor([0.5, -1.25, 2.0], requires_grad=True)
acc = w[0] * 0
for v in torch.tensor([0.1, 0.7, 0.3]):
    acc += v * w[1]
    acc -= v * w[2]
P(acc, acc.grad_fn, acc._version, acc.item())
acc.backward()
P(w.grad)

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * 3
y += x
y -= torch.tensor(0.5, requires_grad=True)
y += torch.tensor([[0.25]])
P(y, y.grad_fn, y._version)
y.sum().backward()
P(x.grad)

p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
q = p * 1
q += q
P(q, q.grad_fn)
r = q * 1
r += r.flip(0)
P(r)
r.sum().backward()
P(p.grad)

z = torch.zeros(3)
m = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z += m * 2
P(z, z.grad_fn, z.requires_grad, z.is_leaf)
z.sum().backward()
P(m.grad)

base = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = base * 1
view = c[1]
view += base[0]
P(c, c.grad_fn, view.grad_fn)
c.sum().backward()
P(base.grad)

s = torch.tensor([2.0, 3.0], requires_grad=True)
t = s * s
t.retain_grad()
t += s
t.sum().backward()
P(t.grad, s.grad)

f32 = torch.tensor([1.5, 2.5], requires_grad=True) * 1
f32 += torch.tensor([0.1, 0.2], dtype=torch.float64)
P(f32, f32.dtype)
f64 = torch.tensor([1.5, 2.5], dtype=torch.float64, requires_grad=True) * 1
f64 -= torch.tensor([0.1, 0.2])
P(f64, f64.dtype)

n32 = torch.tensor([0.3, -1.7, 2.9], requires_grad=True)
u = n32 * 1.1
u += 0.7
u -= 1.3
u *= 3.3
u /= 0.7
u %= 1.9
P(u, u.grad_fn, u._version, u[0].item(), u[2].item())
u.sum().backward()
P(n32.grad)
n64 = torch.tensor([0.3, -1.7, 2.9], dtype=torch.float64, requires_grad=True)
v64 = n64 / 3
v64 *= 0.1
v64 += 1e-3
P(v64, v64.grad_fn, v64[1].item())
v64.sum().backward()
P(n64.grad)
sv = torch.tensor([1.0, 2.0], requires_grad=True) * 1
sv *= 2
first = sv.grad_fn
sv *= 5
P(sv, first, sv.grad_fn.next_functions[0][0] == first)

leaf = torch.tensor([1.0], requires_grad=True)


def add_leaf():
    global leaf
    leaf += 1


small = torch.tensor([1.0], requires_grad=True) * 1


def add_small():
    global small
    small += torch.tensor([1.0, 2.0])


ints = torch.tensor([1, 2])


def add_ints():
    global ints
    ints += torch.tensor([1.0, 2.0], requires_grad=True)


P(msg(add_leaf))
P(msg(add_small))
P(msg(add_ints))
P(small, small._version)
