# a small MLP (Linear, tanh, cross_entropy, SGD) and Adam/SGD-momentum steps: losses and parameters to the last bit
import torch, torch.nn as nn, torch.nn.functional as F
x = (torch.arange(64.0).reshape(16, 4) * 0.37) % 3 - 1.5
y = torch.arange(16) % 3
l1 = nn.Linear(4, 8); l2 = nn.Linear(8, 3)
with torch.no_grad():
    l1.weight.copy_((torch.arange(32.0).reshape(8, 4) * 0.13) % 1 - 0.5); l1.bias.copy_(torch.arange(8.0) * 0.01)
    l2.weight.copy_((torch.arange(24.0).reshape(3, 8) * 0.29) % 1 - 0.5); l2.bias.fill_(0.1)
opt = torch.optim.SGD(list(l1.parameters()) + list(l2.parameters()), lr=0.5)
for step in range(6):
    opt.zero_grad()
    out = l2(torch.tanh(l1(x)))
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(loss.item(), l2.bias.tolist())
import torch  # noqa: E401
w = torch.tensor([0.5, -1.25, 2.0, 0.3], requires_grad=True)
opt = torch.optim.Adam([w], lr=0.01)
for step in range(5):
    opt.zero_grad()
    loss = ((w * torch.tensor([1.5, -0.5, 0.25, 2.0]) - 1.0) ** 2).mean()
    loss.backward()
    opt.step()
    print(loss.item(), w.tolist())
w2 = torch.tensor([0.5, -1.25, 2.0, 0.3], requires_grad=True)
opt = torch.optim.SGD([w2], lr=0.1, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = ((w2 * torch.tensor([1.5, -0.5, 0.25, 2.0]) - 1.0) ** 2).mean()
    loss.backward()
    opt.step()
    print(loss.item(), w2.tolist())
