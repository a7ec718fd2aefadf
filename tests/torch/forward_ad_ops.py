# forward_ad (PyTorch 1.13): the tangent of every kind of op, from make_dual through unpack_dual, float64
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from agfmt import P

torch.manual_seed(0)
a = torch.randn(3, 4, dtype=torch.float64)
ta = torch.randn(3, 4, dtype=torch.float64)
b = torch.randn(4, dtype=torch.float64)
tb = torch.randn(4, dtype=torch.float64)
m = torch.randn(4, 2, dtype=torch.float64)
tm = torch.randn(4, 2, dtype=torch.float64)
pos = a.abs() + 0.5


def jvp(f, *pairs):
    with fwAD.dual_level():
        duals = [fwAD.make_dual(p, t) for p, t in pairs]
        out = f(*duals)
        return fwAD.unpack_dual(out).tangent


P("elementwise")
for name in ["neg", "abs", "exp", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "floor", "sign"]:
    P(name, jvp(lambda x: getattr(x, name)(), (a, ta)))
for name in ["sqrt", "log", "log2", "log10"]:
    P(name, jvp(lambda x: getattr(x, name)(), (pos, ta)))
P("gelu", jvp(F.gelu, (a, ta)))
P("add", jvp(lambda x, y: x + y, (a, ta), (b, tb)))
P("sub", jvp(lambda x, y: x - y * 2, (a, ta), (b, tb)))
P("mul", jvp(lambda x, y: x * y, (a, ta), (b, tb)))
P("div", jvp(lambda x, y: x / y, (a, ta), (b, tb)))
P("pow", jvp(lambda x, y: x ** y, (pos, ta), (b, tb)))
P("pow scalar", jvp(lambda x: x ** 3 + 2 ** x, (a, ta)))
P("rsub rdiv", jvp(lambda x: 1 - x + 1 / (x + 5), (a, ta)))
P("maximum", jvp(lambda x, y: torch.maximum(x, y), (a, ta), (b, tb)))
P("logaddexp", jvp(lambda x, y: torch.logaddexp(x, y), (a, ta), (b, tb)))
P("clamp", jvp(lambda x: x.clamp(-0.5, 0.5), (a, ta)))
P("where", jvp(lambda x, y: torch.where(x > 0, x, y), (a, ta), (b, tb)))
P("plain operand", jvp(lambda x: x * b + a, (a, ta)))

P("reductions")
P("sum", jvp(lambda x: x.sum(), (a, ta)), jvp(lambda x: x.sum(1), (a, ta)))
P("mean", jvp(lambda x: x.mean(0), (a, ta)))
P("prod", jvp(lambda x: x.prod(1), (a, ta)))
P("max", jvp(lambda x: x.max(), (a, ta)), jvp(lambda x: x.max(1)[0], (a, ta)))
P("var std", jvp(lambda x: x.var(1), (a, ta)), jvp(lambda x: x.std(), (a, ta)))
P("norm", jvp(lambda x: x.norm(), (a, ta)))
P("logsumexp", jvp(lambda x: x.logsumexp(1), (a, ta)))
P("cumsum", jvp(lambda x: x.cumsum(1), (a, ta)))

P("shapes")
P("reshape t", jvp(lambda x: x.reshape(2, 6).t(), (a, ta)))
P("permute", jvp(lambda x: x.unsqueeze(0).permute(2, 0, 1).squeeze(1), (a, ta)))
P("expand", jvp(lambda x: x.expand(2, 4), (b, tb)))
P("cat stack", jvp(lambda x, y: torch.cat([x, y.unsqueeze(0)]), (a, ta), (b, tb)))
P("split", jvp(lambda x: x.split(2, 1)[1], (a, ta)), jvp(lambda x: x.unbind(0)[2], (a, ta)))
P("index", jvp(lambda x: x[1:, [0, 2]], (a, ta)), jvp(lambda x: x[-1], (a, ta)))
P("gather", jvp(lambda x: x.gather(1, torch.tensor([[0], [3], [1]])), (a, ta)))
P("flip roll tril", jvp(lambda x: x.flip(0).roll(1, 1).tril(), (a, ta)))

P("products")
P("matmul", jvp(lambda x, y: x @ y, (a, ta), (m, tm)))
P("mv dot", jvp(lambda x, y: x @ y, (a, ta), (b, tb)), jvp(lambda x: x @ x, (b, tb)))
P("bmm", jvp(lambda x: torch.bmm(x, x.transpose(1, 2)), (a.reshape(3, 2, 2), ta.reshape(3, 2, 2))))

P("nn")
P("softmax", jvp(lambda x: x.softmax(1), (a, ta)))
P("log_softmax", jvp(lambda x: F.log_softmax(x, 0), (a, ta)))
P("linear", jvp(lambda x, w: F.linear(x, w), (a, ta), (m.t().contiguous(), tm.t().contiguous())))
P("mse", jvp(lambda x: F.mse_loss(x, torch.zeros(3, 4, dtype=torch.float64)), (a, ta)))
P("cross_entropy", jvp(lambda x: F.cross_entropy(x, torch.tensor([0, 3, 1])), (a, ta)))
P("leaky elu silu softplus",
  jvp(lambda x: F.leaky_relu(x, 0.1) + F.elu(x) + F.silu(x) + F.softplus(x), (a, ta)))
img = torch.randn(1, 2, 5, 5, dtype=torch.float64)
timg = torch.randn(1, 2, 5, 5, dtype=torch.float64)
w = torch.randn(3, 2, 3, 3, dtype=torch.float64)
tw = torch.randn(3, 2, 3, 3, dtype=torch.float64)
P("conv2d", jvp(lambda x, k: F.conv2d(x, k, padding=1).sum((2, 3)), (img, timg), (w, tw)))
P("max_pool2d", jvp(lambda x: F.max_pool2d(x, 2), (img, timg)))
P("layer_norm", jvp(lambda x: F.layer_norm(x, [4]), (a, ta)))

P("modes")
with fwAD.dual_level():
    x = fwAD.make_dual(a, ta)
    with torch.no_grad():
        P("no_grad", fwAD.unpack_dual(x * 2).tangent[0])
    y = x.clone()
    y.mul_(3)
    y.exp_()
    P("in place", fwAD.unpack_dual(y).tangent[0])
    P("plain", fwAD.unpack_dual(a).tangent, fwAD.unpack_dual(x.argmax()).tangent,
      fwAD.unpack_dual(x > 0).tangent)
    p, t = fwAD.unpack_dual(x)
    P("pair", p[0], t[0])
P("after the level", fwAD.unpack_dual(x).tangent, fwAD.unpack_dual(y).tangent)
