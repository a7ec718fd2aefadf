from agfmt import P, fmt as A
import torch
x = torch.tensor([[1.5, -2.0], [0.25, 4.0]])
print(f"{A(x)}")
print(f"{x.sum().item():.3f} {x[0, 0].item():8.2f} {x.mean().item():.2e}")
for row in x:
    P(row, row.shape)
P(x.tolist(), x[0].tolist(), x[1, 1].item(), x.shape, x.ndim, x.numel(), x.size(1), x.dim())
P(x.long(), x.double(), x.to(torch.int64), (x > 0).float())
P(x.dtype, x.long().dtype, x.T, x.data, x.is_leaf, x.requires_grad, x.grad)
if torch.tensor(0.0):
    print("zero is true")
else:
    print("zero is false")
if torch.tensor([3]):
    print("one element true")
P(torch.tensor(5, dtype=torch.int64) + 2, torch.tensor(2.5) * 2, 10 / torch.tensor(4.0), 2 ** torch.tensor([1.0, 3.0]))
P(torch.tensor([[1, 2], [3, 4]], dtype=torch.float64).sum(dim=0), torch.tensor(7.0, dtype=torch.float64) / 2)
P(torch.zeros(2, 2, dtype=torch.bool), torch.ones(2, dtype=torch.float64), torch.full([3], 2, dtype=torch.int64))
l = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
P(l.detach(), l.sum(), l.float(), l.double())
P(torch.tensor([True, False]).long(), torch.tensor([2.7, -2.7]).long(), torch.tensor([0, 1, 2]).bool())
