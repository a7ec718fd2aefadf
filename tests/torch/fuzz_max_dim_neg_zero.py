# max(dim)/min(dim) backward writes the gradient (zeros.scatter_, as PyTorch): a -0 stays -0
import torch
from agfmt import P
x5 = torch.tensor([[3, 1.5, -0.5]], requires_grad=True)
x6 = torch.tensor([[-1.25]], requires_grad=True)
y = torch.relu(x6 * x5.max(dim=0, keepdim=True)[0])
y.sum().backward()
P(x5.grad, x6.grad)
z = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
(z.max(dim=1)[0] * torch.tensor([-0.0, 2.0])).sum().backward()
P(z.grad)
w = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
(torch.relu(-w.min(dim=0)[0]) * -1).sum().backward()
P(w.grad)
