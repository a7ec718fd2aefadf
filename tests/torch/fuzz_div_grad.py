# DivBackward0 rounds as PyTorch: grad / other and -grad * ((self / other) / other); x / 3 divides
import torch
from agfmt import P
x = torch.tensor([[-0.75, 4], [0.25, 2]], dtype=torch.float64, requires_grad=True)
c = torch.tensor([[-0.75, 0.5], [0.5, 0.25]], dtype=torch.float64)
y = (x * x) / torch.maximum(x, c).exp()
y.sum().backward()
P(x.grad)
a = torch.tensor([0.1, 0.7, -1.3], requires_grad=True)
b = torch.tensor([0.3, 1.7, 2.9], requires_grad=True)
(a / b * a).sum().backward()
P(a.grad.tolist(), b.grad.tolist())
a.grad = None
(a / 3).sum().backward()
P(a.grad.tolist())
