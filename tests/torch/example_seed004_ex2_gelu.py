# PyTorch twin of examples/seed004_ex2_gelu.ag
import math
import torch
import torch.nn.functional as F
from agfmt import P

c = math.sqrt(2 / math.pi)
k = 0.044715


class GELU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        u = c * (x + k * x ** 3)
        return 0.5 * x * (1 + torch.tanh(u))

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        t = torch.tanh(c * (x + k * x ** 3))
        du_dx = c * (1 + 3 * k * x ** 2)
        dgelu = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * du_dx
        return grad_output * dgelu


x = torch.tensor([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0], requires_grad=True)
y = GELU.apply(x)
P("gelu(x):", y)
y.sum().backward()
P("gelu'(x):", x.grad)
x64 = torch.tensor([-2.5, -0.7, 0.1, 0.9, 2.2], dtype=torch.float64, requires_grad=True)
P("gradcheck:", torch.autograd.gradcheck(lambda t: GELU.apply(t), [x64], eps=1e-6, atol=1e-5, rtol=1e-3))
x2 = x.detach().clone().requires_grad_(True)
y2 = 0.5 * x2 * (1 + torch.tanh(c * (x2 + k * x2 ** 3)))
y2.sum().backward()
P("same gradient as autograd's:", (x.grad - x2.grad).abs().max().item() < 1e-6)
P("close to the built-in gelu:", (y - F.gelu(x)).abs().max().item() < 1e-3)


class BadGELU(GELU):
    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * 0.5 * (1 + torch.tanh(c * (x + k * x ** 3)))


try:
    torch.autograd.gradcheck(lambda t: BadGELU.apply(t), [x64], eps=1e-6, atol=1e-5, rtol=1e-3)
    print("gradcheck passed?!")
except Exception as e:
    P("gradcheck catches the wrong backward:", str(e).startswith("Jacobian mismatch"))
