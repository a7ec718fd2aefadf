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
x = (torch.sin(torch.arange(12).float() * 0.9) * 3).reshape(3, 4).requires_grad_()
for y in [F.leaky_relu(x), F.leaky_relu(x, 0.3), F.elu(x), F.elu(x, alpha=0.5), F.silu(x), F.softplus(x), F.softplus(x, beta=2, threshold=1)]:
    P(y)
    x.grad = None
    (y * y).sum().backward()
    P(x.grad)
p = F.pad(x, [1, 2, 0, 1], value=-1.5)
P(p, p.grad_fn)
x.grad = None
(p * p).sum().backward()
P(x.grad)
P(F.pad(x, [-1, 1]), F.pad(x, [0, 0, -2, 0]).shape)
P(F.one_hot(torch.tensor([[0, 3], [1, 1]])), F.one_hot(torch.tensor([2]), num_classes=4))
P(F.embedding(torch.tensor([2, 0]), x), F.linear(x, torch.ones(2, 4)))
P(F.relu(x), F.gelu(x[0]), F.softmax(x, dim=1)[0], F.log_softmax(x, dim=0)[1])
P(F.conv2d(x.reshape(1, 1, 3, 4), torch.ones(1, 1, 2, 2)).grad_fn, F.max_pool2d(x.reshape(1, 3, 4), 2))
P(F.cross_entropy(x, torch.tensor([0, 3, 1])), F.mse_loss(x, torch.zeros(3, 4)))
P(nn.LeakyReLU(0.2)(x)[0], nn.ELU()(x)[1], nn.SiLU()(x)[2], nn.Softplus(beta=0.5)(x)[0])
u = nn.Unflatten(1, [2, 2])(x)
P(u.shape, u.grad_fn)
P(msg(lambda: F.one_hot(torch.tensor([-1]))))
P(msg(lambda: F.one_hot(torch.tensor([3]), num_classes=2)))
def r(m):
    return repr(m).replace("True", "true").replace("False", "false").replace("None", "nil")
for m in [nn.LeakyReLU(), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.SiLU(), nn.Softplus(), nn.Softplus(beta=2, threshold=10), nn.Unflatten(1, [2, 2]), nn.Identity()]:
    print(r(m))
