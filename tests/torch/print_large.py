from agfmt import P
import torch
P(torch.arange(2000).reshape(40, 50))
P((torch.arange(3000).float() / 3).reshape(3, 1000))
P(torch.arange(1001, dtype=torch.float64) * 1e-6)
P(torch.sin(torch.arange(60).float()).reshape(3, 4, 5))
P(torch.randn(100, 100).shape, (torch.arange(1500) % 2 == 0))
P(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64) / 3)
P(torch.arange(30).float().reshape(2, 15) * 1000.5)
P(torch.tensor([-1e-10, 5e10]), torch.tensor([1e-3, 1e3]))
P(torch.ones(5, 5, 5, 5).sum(dim=0))
