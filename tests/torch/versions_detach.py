# detach()/.data share storage; the version counter after every in-place op; in-place errors
from agfmt import P
import torch


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = x.detach()
P(d.requires_grad, d.is_leaf, d.grad_fn, d._version)
d[0] = 10.0
P(x, x._version, d._version)
dd = x.data
dd.mul_(2)
P(x, dd.requires_grad)
y = x * 1
yd = y.detach()
yd.add_(1)
P(y, y._version)
t = torch.zeros(3)
v = [t._version]
t.add_(1); v.append(t._version)
t.sub_(torch.ones(3)); v.append(t._version)
t.mul_(2); v.append(t._version)
t.div_(2); v.append(t._version)
t.zero_(); v.append(t._version)
t.fill_(3); v.append(t._version)
t.copy_(torch.ones(3)); v.append(t._version)
t.clamp_(0, 0.5); v.append(t._version)
t.normal_(); v.append(t._version)
t.uniform_(); v.append(t._version)
t[0] = 1; v.append(t._version)
t[1:] = torch.tensor([2.0, 3.0]); v.append(t._version)
t[t > 1] = 0; v.append(t._version)
t.requires_grad_(); v.append(t._version)
P(v)
u = torch.ones(2, 3)
view = u[0]
view.add_(1)
P(u._version, view._version, u)
tv = u.t()
tv.mul_(3)
P(u._version, tv._version, u)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
c = b * b
b.add_(1)
P(b._version, b.grad_fn)
print(msg(lambda: c.sum().backward())[:110])
a2 = torch.tensor([1.0, 2.0], requires_grad=True)
b2 = a2.exp()
b2.mul_(2)
print(msg(lambda: b2.sum().backward())[:110])
a3 = torch.tensor([1.0, 2.0], requires_grad=True)
b3 = a3 + 1
b3.mul_(2)
b3.sum().backward()
P(a3.grad, b3.grad_fn, b3._version)
print(msg(lambda: a3.add_(1)))
print(msg(lambda: a3[0].mul_(2)))
with torch.no_grad():
    a3.add_(1)
P(a3, a3._version, a3.requires_grad, a3.is_leaf)
a4 = torch.tensor([1.0, 2.0], requires_grad=True)
a4.detach_()
P(a4.requires_grad, a4.is_leaf)
e = torch.tensor([1.0, 2.0], requires_grad=True)
f = e * 3
f.detach_()
P(f.requires_grad, f.grad_fn, f.is_leaf)
g = torch.tensor([1.0, 2.0], requires_grad=True).clone()
h = g.detach()
P(h.requires_grad, g.requires_grad, g.grad_fn)
