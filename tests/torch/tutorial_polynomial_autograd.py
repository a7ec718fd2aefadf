from agfmt import P
import math
import torch
dtype = torch.float
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
# torch.manual_seed(0); torch.randn(()) four times
a = torch.tensor(1.5409960746765137, dtype=dtype, requires_grad=True)
b = torch.tensor(-0.293428897857666, dtype=dtype, requires_grad=True)
c = torch.tensor(-2.1787893772125244, dtype=dtype, requires_grad=True)
d = torch.tensor(0.5684312582015991, dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        P(f"{t} {loss.item():.5g}")
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
P(f'Result: y = {a.item():.4f} + {b.item():.4f} x + {c.item():.4f} x^2 + {d.item():.4f} x^3')
P(a.is_leaf, a.requires_grad, a._version)
