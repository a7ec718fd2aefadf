# PyTorch twin of examples/seed004_ex1_sincos.ag
import math
import torch
from agfmt import P

x = torch.tensor(math.pi / 4, requires_grad=True)
f = torch.sin(x) * torch.cos(x)
print(f"f(pi/4) = {f.item():.4f}")
P("graph:", f.grad_fn, f.grad_fn.next_functions)
f.backward()
analytic = torch.cos(2 * x.detach())
P("f'(pi/4) is 0:", abs(x.grad.item()) < 1e-6)
P("cos(2 * pi/4) is 0:", abs(analytic.item()) < 1e-6)
xs = torch.tensor([0, math.pi / 6, math.pi / 3, math.pi / 2, 2], requires_grad=True)
(torch.sin(xs) * torch.cos(xs)).sum().backward()
P("autograd: ", xs.grad)
P("cos(2x):  ", torch.cos(2 * xs.detach()))
P("max difference < 1e-6:", (xs.grad - torch.cos(2 * xs.detach())).abs().max().item() < 1e-6)
