from agfmt import P
import torch
import torch.nn as nn
import torch.nn.functional as F
def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:
        return str(e)
def fill(module):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_((torch.sin(torch.arange(p.numel()).float() * 0.7 + i).reshape(p.shape) * 0.5))
    return module
x = torch.sin(torch.arange(2 * 3 * 6 * 5).float() * 0.3).reshape(2, 3, 6, 5).requires_grad_()
conv = fill(nn.Conv2d(3, 4, 3, stride=[2, 1], padding=1, dilation=[1, 2]))
y = conv(x)
P(y.shape, y.grad_fn, y[0, :, 1])
(y * y.detach()).sum().backward()
P(conv.weight.grad[1], conv.bias.grad, x.grad[1, 2])
g = fill(nn.Conv2d(3, 6, [3, 2], padding="same", groups=3, bias=False))
yg = g(x)
P(yg.shape, yg.grad_fn.next_functions[2], yg[1, 4])
c1 = fill(nn.Conv1d(3, 2, 4, padding="same"))
s = torch.cos(torch.arange(2 * 3 * 7).float()).reshape(2, 3, 7).requires_grad_()
z = c1(s)
P(z.shape, z)
z.sum().backward()
P(c1.weight.grad, s.grad[0])
P(fill(nn.Conv2d(3, 2, 2))(x[0]).shape)
m = F.max_pool2d(x, 2)
P(m.grad_fn, m[1, 0])
m2 = nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)(x)
P(m2.shape, m2[0, 1])
x.grad = None
m2.sum().backward()
P(x.grad[0, 1])
v, i = F.max_pool2d(x, [2, 3], return_indices=True)
P(v.shape, i[0, 0])
a = nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)(x)
P(a.grad_fn, a[1, 2])
x.grad = None
a.sum().backward()
P(x.grad[1, 2])
P(F.avg_pool2d(x, 2, divisor_override=3)[0, 0])
P(nn.MaxPool1d(2)(s).grad_fn, nn.MaxPool1d(3, stride=2)(s)[1], nn.AvgPool1d(3, padding=1)(s)[0])
u = F.unfold(x, 2, padding=1, stride=2)
P(u.shape, u.grad_fn, u[0, 5])
f = F.fold(u, [6, 5], 2, padding=1, stride=2)
P(f.grad_fn, (f - x).abs().max())
P(msg(lambda: conv(torch.ones(2, 4, 6, 6))))
P(msg(lambda: conv(torch.ones(6, 6))))
P(msg(lambda: conv(torch.ones(1, 1, 3, 6, 6))))
P(msg(lambda: fill(nn.Conv2d(3, 2, 3))(torch.ones(1, 3, 2, 2))))
P(msg(lambda: nn.Conv2d(3, 6, 3, groups=2)))
P(msg(lambda: nn.Conv2d(4, 6, 3, groups=4)))
P(msg(lambda: F.conv2d(torch.ones(1, 4, 5, 5), torch.ones(6, 2, 3, 3), groups=3)))
P(msg(lambda: nn.Conv2d(3, 8, 3, padding="same", stride=2)))
P(msg(lambda: F.conv2d(torch.ones(1, 3, 5, 5), torch.ones(8, 3, 3, 3), stride=0)))
P(msg(lambda: F.conv2d(torch.ones(1, 3, 5, 5), torch.ones(8, 3, 3, 3), padding=-1)))
P(msg(lambda: F.conv2d(torch.ones(1, 3, 5, 5), torch.ones(8, 3, 3, 3), bias=torch.ones(7))))
P(F.conv2d(torch.ones(1, 3, 5, 5), torch.ones(8, 3, 3, 3), stride=2**50).shape)
P(msg(lambda: nn.Conv1d(3, 8, 3)(torch.ones(2, 3, 10, 3))))
P(msg(lambda: nn.MaxPool2d(2)(torch.ones(5, 5))))
P(msg(lambda: nn.MaxPool2d(6)(torch.ones(1, 3, 5, 5))))
P(msg(lambda: nn.MaxPool2d(3, padding=2)(torch.ones(1, 3, 5, 5))))
P(msg(lambda: nn.MaxPool2d(2, stride=0)(torch.ones(1, 3, 5, 5))))
def r(m):
    return repr(m).replace("True", "true").replace("False", "false")
for mod in [conv, g, c1, nn.Conv2d(2, 4, 1, bias=False), nn.MaxPool2d(2), nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), nn.AvgPool2d(2), nn.AvgPool1d(3, padding=1), nn.MaxPool1d(2)]:
    print(r(mod))
