from agfmt import P
import torch
import torch.nn as nn
import torch.nn.functional as F
def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:
        return str(e).replace("torch.Size(", "").replace("])", "]")  # Ag has no torch.Size
def r(m):
    return repr(m).replace("True", "true").replace("False", "false").replace("None", "nil")
x = (torch.sin(torch.arange(4 * 3 * 2 * 3).float() * 0.37) * 2 + 0.5).reshape(4, 3, 2, 3).requires_grad_()
bn = nn.BatchNorm2d(3)
with torch.no_grad():
    bn.weight.copy_(torch.tensor([1.5, -0.5, 2.0]))
    bn.bias.copy_(torch.tensor([0.1, 0.2, -0.3]))
y = bn(x)
P(y.grad_fn, y.grad_fn.next_functions[1], y[1, 2])
P(bn.running_mean, bn.running_var, bn.num_batches_tracked)
(y * torch.cos(torch.arange(y.numel()).float()).reshape(y.shape)).sum().backward()
P(x.grad[2, 1], bn.weight.grad, bn.bias.grad)
bn(x * 0.5)
P(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
ye = bn(x)
P(ye.grad_fn, ye[0, 0])
x.grad = None
ye.sum().backward()
P(x.grad[0, 0])
cm = nn.BatchNorm1d(3, momentum=None, affine=False)
s = torch.cos(torch.arange(5 * 3).float()).reshape(5, 3).requires_grad_()
P(cm(s), cm.running_mean)
cm(s * 2)
P(cm.running_mean, cm.running_var, cm.num_batches_tracked)
P(cm(s).grad_fn.next_functions[1])
nt = nn.BatchNorm1d(3, track_running_stats=False)
P(nt.running_mean, list(nt.state_dict().keys()))
nt.eval()
P(nt(torch.cos(torch.arange(2 * 3 * 4).float()).reshape(2, 3, 4))[1])
ln = nn.LayerNorm([2, 3])
with torch.no_grad():
    ln.weight.copy_(torch.sin(torch.arange(6).float()).reshape(2, 3))
z = ln(x)
P(z.grad_fn, z[3, 1])
x.grad = None
(z * z).sum().backward()
P(x.grad[3, 1], ln.weight.grad, ln.bias.grad)
P(F.layer_norm(x, [3], eps=0.1)[0, 0])
gn = nn.GroupNorm(3, 3)
x6 = torch.sin(torch.arange(2 * 6 * 4).float()).reshape(2, 6, 4).requires_grad_()
gn6 = nn.GroupNorm(2, 6)
with torch.no_grad():
    gn6.weight.copy_(torch.arange(6).float() * 0.5)
    gn6.bias.copy_(torch.ones(6) * 0.25)
q = gn6(x6)
P(q.grad_fn, q[1])
(q * q).sum().backward()
P(x6.grad[0], gn6.weight.grad, gn6.bias.grad)
a = nn.AdaptiveAvgPool2d([2, 2])(x)
P(a.grad_fn, a[1])
x.grad = None
a.sum().backward()
P(x.grad[1, 0])
P(nn.AdaptiveAvgPool2d(1)(x).grad_fn, nn.AdaptiveAvgPool2d(1)(x)[0, :, 0, 0], F.adaptive_avg_pool2d(x, [3, None]).shape)
P(msg(lambda: nn.BatchNorm2d(3)(torch.ones(4, 3, 5))))
P(msg(lambda: nn.BatchNorm1d(3)(torch.ones(4, 3, 5, 5))))
P(msg(lambda: nn.BatchNorm2d(3)(torch.ones(4, 2, 5, 5))))
P(msg(lambda: nn.BatchNorm1d(3)(torch.ones(1, 3))))
P(msg(lambda: nn.LayerNorm(4)(torch.ones(4, 3))))
P(msg(lambda: nn.GroupNorm(2, 3)))
P(msg(lambda: nn.GroupNorm(2, 4)(torch.ones(2, 6, 3))))
P(msg(lambda: nn.AdaptiveAvgPool2d(2)(torch.ones(5))))
for m in [bn, cm, nt, ln, nn.LayerNorm(5, elementwise_affine=False), gn, nn.AdaptiveAvgPool2d([2, 3]), nn.AdaptiveAvgPool2d(1)]:
    print(r(m))
