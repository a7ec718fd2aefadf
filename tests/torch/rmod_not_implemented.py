from agfmt import P
import torch
t = torch.tensor([1.5, 2.0, -3.0], requires_grad=True)
y = 5 % t
P(y, y.grad_fn, y.grad_fn.next_functions)
z = True % torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)
P(z, z.dtype)
w = t % 2
P(w.grad_fn)
try:
    (y * 2).sum().backward()
except RuntimeError as err:
    P(str(err))
(w * 2).sum().backward()
P(t.grad)
