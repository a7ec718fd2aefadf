# F.pad's reflect, replicate and circular modes (PyTorch 1.13): values and gradients over
# 1, 2 and 3 padded dims, batched and unbatched, negative amounts (crops), the nodes
# recorded (ReflectionPad2DBackward0 ..., CopySlices for circular), double backward, and
# PyTorch's messages for bad pads.
import torch
import torch.nn.functional as F
from agfmt import P


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


torch.manual_seed(0)
x = torch.randn(1, 2, 3, 4, requires_grad=True)
w = torch.arange(1.0, 1 + 2 * 6 * 7).view(1, 2, 6, 7)
for mode in ["reflect", "replicate", "circular"]:
    y = F.pad(x, [2, 1, 1, 2], mode=mode)
    P(y, y.grad_fn)
    (y * w).sum().backward()
    P(x.grad)
    x.grad = None
seq = torch.arange(5.0).view(1, 5)
P(F.pad(seq, [3, 2], mode="reflect"), F.pad(seq, [3, 2], mode="replicate"))
P(F.pad(seq.view(1, 1, 5), [3, 2], mode="circular"), F.pad(seq.view(1, 1, 5), [-2, 1], mode="circular"))
P(F.pad(seq, [-1, 2], mode="reflect"), F.pad(seq, [-2, -1], mode="replicate"))
v = torch.randn(1, 1, 2, 3, 3, dtype=torch.float64, requires_grad=True)
for mode in ["reflect", "replicate", "circular"]:
    y = F.pad(v, [1, 1, 2, 0, 1, 1], mode=mode)
    P(y.shape, y.grad_fn, F.pad(v[0], [1, 1, 2, 0, 1, 1], mode=mode).grad_fn if mode != "circular" else "")
    g, = torch.autograd.grad((y * y).sum(), v, create_graph=True)
    P(g.grad_fn)
    P(g)
    g2, = torch.autograd.grad(g.sum(), v)
    P(g2)
P(F.pad(x[0], [1, 1], mode="reflect").grad_fn, F.pad(x[0, 0], [1, 1], mode="replicate").grad_fn)
e = torch.ones(2, 3, 4)
P(msg(lambda: F.pad(e, [1, 1], mode="reflect", value=1)))
P(msg(lambda: F.pad(e, [4, 0], mode="reflect")))
P(msg(lambda: F.pad(e, [1, 1, 3, 0], mode="reflect")))
P(msg(lambda: F.pad(e.view(1, 2, 3, 4), [4, 1, 0, 0], mode="reflect")))
P(msg(lambda: F.pad(e.view(1, 2, 3, 4), [0, 0, 0, 3], mode="reflect")))
P(msg(lambda: F.pad(e.view(1, 1, 2, 3, 4), [0, 0, 0, 0, 2, 0], mode="reflect")))
P(msg(lambda: F.pad(e, [1, 1], mode="foo")))
P(msg(lambda: F.pad(e[0, 0], [1, 1], mode="reflect")))
P(msg(lambda: F.pad(e, [1, 1, 1, 1, 1, 1, 1, 1], mode="replicate")))
P(msg(lambda: F.pad(e[0], [1, 1], mode="circular")))
P(msg(lambda: F.pad(e, [5, 0], mode="circular")))
P(msg(lambda: F.pad(e, [-5, 0], mode="circular")))
P(msg(lambda: F.pad(e, [-4, 0], mode="replicate")))
P(msg(lambda: F.pad(e, [1, 1], mode="replicate", value=0)))
