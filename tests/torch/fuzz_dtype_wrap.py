# repr suffixes wrap where PyTorch's do: it counts "dtype=torch.float64"
import torch
from agfmt import P
x = torch.tensor([[0.5, -0.75, 1.25]], dtype=torch.float64, requires_grad=True)
P(x * 2)
P(torch.tensor([[1.5, -0.75, 0.25], [1, 1, 4]], dtype=torch.float64, requires_grad=True).sqrt())
P(torch.tensor([1.5, 2.5, 3.5, 4.5, 5.5], dtype=torch.float64, requires_grad=True) - 1)
P(torch.tensor([1.5, 2.5, 3.5, 4.5], dtype=torch.float64, requires_grad=True) + 1)
P(torch.zeros(0, 3, dtype=torch.int64), x.sum())
