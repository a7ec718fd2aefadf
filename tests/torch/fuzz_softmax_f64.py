# float64 softmax along the last dim rounds as ATen: exp, a lane-by-lane sum, times the reciprocal
import torch
from agfmt import P
P(torch.softmax(torch.tensor([[0.5, 1.25, -0.75], [2.0, -1.0, 0.1], [0.3, 0.7, 1.1]], dtype=torch.float64), -1).tolist())
P(torch.softmax(torch.tensor([1, 2, 3, 4, 5], dtype=torch.float64), 0).tolist())
x = torch.tensor([[-0.75, -1.25, 2], [2, 4, -1]], dtype=torch.float64, requires_grad=True)
w = torch.tensor([[-0.5, -0.75], [2, 0.5], [1, 0.25]], dtype=torch.float64)
y = (x @ w).softmax(-1)
P(y.tolist()[0], y[0].sum())
