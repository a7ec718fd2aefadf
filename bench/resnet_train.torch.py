# resnet_train: a small ResNet (a 3->16 stem, a residual block 16->16 and one
# 16->32 with stride 2 and a 1x1 projection, BatchNorm after every
# convolution, global average pooling, Linear 32->10) on a fixed synthetic
# batch of 32 3x16x16 images, cross_entropy, Adam lr 1e-3, 20 steps.
# Parameters are set deterministically, so the first loss is comparable.
import os
import sys
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

torch.set_num_threads(int(os.environ.get("AG_BENCH_TORCH_THREADS", "2")))
_t0 = time.perf_counter()
X = torch.sin(torch.arange(32 * 3 * 16 * 16).float() * 0.013).reshape(32, 3, 16, 16)
Y = torch.arange(32) % 10


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False),
                                          nn.BatchNorm2d(cout))

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(h)) + self.shortcut(x))


model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
    Block(16, 16, 1), Block(16, 32, 2),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_((torch.sin(torch.arange(p.numel()).float() * 0.37 + i) * 0.2).reshape(p.shape))
opt = torch.optim.Adam(model.parameters(), lr=0.001)
first = None
last = None
for step in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), Y)
    loss.backward()
    opt.step()
    if step == 0:
        first = loss.item()
    last = loss.item()
decreased = "yes" if last < first else "no"
print(f"resnet_train steps=20 first={first:.4f} decreased={decreased}")
print(f"bench_seconds={time.perf_counter() - _t0:.6f}", file=sys.stderr)
