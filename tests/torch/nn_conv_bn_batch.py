# convolution and BatchNorm on a batch big enough that Ag spreads the samples' products and the channels over its worker pool: losses, parameter gradients and input gradients over Adam steps
# tolerance: rtol=1e-4 atol=1e-6 (PyTorch convolves a batch with oneDNN, whose order of sums is not Ag's)
import torch, torch.nn as nn, torch.nn.functional as F
x = torch.sin(torch.arange(16 * 3 * 16 * 16.0) * 0.013).reshape(16, 3, 16, 16).requires_grad_()
y = torch.arange(16) % 10
c1 = nn.Conv2d(3, 8, 3, padding=1, bias=False); b1 = nn.BatchNorm2d(8)
c2 = nn.Conv2d(8, 16, 3, padding=1, bias=False); b2 = nn.BatchNorm2d(16)
head = nn.Linear(16, 10)
params = list(c1.parameters()) + list(b1.parameters()) + list(c2.parameters()) + list(b2.parameters()) + list(head.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_((torch.sin(torch.arange(p.numel()).float() * 0.37 + i) * 0.2).reshape(p.shape))
opt = torch.optim.Adam(params, lr=0.01)
for step in range(3):
    opt.zero_grad()
    x.grad = None
    h = F.max_pool2d(F.relu(b1(c1(x))), 2)
    h = F.relu(b2(c2(h)))
    loss = F.cross_entropy(head(h.mean([2, 3])), y)
    loss.backward()
    print(step, loss.item())
    print(c1.weight.grad.abs().sum().item(), c2.weight.grad.abs().sum().item(), b1.weight.grad.abs().sum().item(), b2.bias.grad.abs().sum().item())
    print(x.grad.abs().sum().item(), (x.grad[3, 1, 5, 2:6] * 10000).tolist())
    opt.step()
print(b2.running_mean[:4].tolist(), b2.running_var[:4].tolist())
