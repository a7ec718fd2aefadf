# makemore: the training loop of examples/names.ag — a character MLP
# (Embedding 25x10, Linear 30->64, tanh, Linear 64->25, cross_entropy, Adam
# lr 0.01) over 2923 examples of 3 context characters, served by
# torch.utils.data.DataLoader in shuffled batches of 32, 8 epochs (736 steps).
import os
import sys
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

torch.set_num_threads(int(os.environ.get("AG_BENCH_TORCH_THREADS", "2")))
_t0 = time.perf_counter()
torch.manual_seed(42)
n = 2923
X = (torch.arange(n * 3) * 2654435761 % 4093 % 25).view(n, 3)
Y = (X[:, 2] + torch.arange(n) * 40503 % 4091 % 3) % 25
loader = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True)
emb = nn.Embedding(25, 10)
hidden = nn.Linear(30, 64)
out = nn.Linear(64, 25)
params = list(emb.parameters()) + list(hidden.parameters()) + list(out.parameters())
opt = torch.optim.Adam(params, lr=0.01)
first = None
last = 0.0
steps = 0
for epoch in range(8):
    total = 0.0
    for xb, yb in loader:
        e = emb(xb)
        h = torch.tanh(hidden(e.view(e.shape[0], -1)))
        loss = F.cross_entropy(out(h), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if first is None:
            first = loss.item()
        total += loss.item()
        steps += 1
    last = total / len(loader)
print(f"makemore steps={steps} first={first:.4f} last_epoch={last:.2f}")
print(f"bench_seconds={time.perf_counter() - _t0:.6f}", file=sys.stderr)
