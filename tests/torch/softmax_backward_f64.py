from agfmt import P
import torch
x1 = torch.tensor([[2, 3], [-2, 3]], dtype=torch.float64, requires_grad=True)
x2 = torch.tensor([[-2, -0.75], [-1.25, -1.25]], dtype=torch.float64, requires_grad=True)
y = x1 * x2.softmax(0).exp().log()
y.sum().backward()
P(x2.grad)
P(x2.grad.tolist())
a = torch.tensor([[0.5, -1.5, 2.25], [1.0, 0.125, -0.75], [3.0, -2.0, 0.3]], dtype=torch.float64, requires_grad=True)
g = torch.tensor([[1.5, -0.25, 2.0], [0.1, 0.7, -1.3], [2.2, 0.9, 0.4]], dtype=torch.float64)
a.softmax(0).backward(g)
P(a.grad.tolist())
a.grad = None
a.log_softmax(0).backward(g)
P(a.grad.tolist())
