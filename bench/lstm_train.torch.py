# lstm_train: a full-sequence 2-layer nn.LSTM (input 64, hidden 128) over a
# fixed synthetic batch of 32 sequences of 35 steps, a Linear head 128->10 on
# every step's output, cross_entropy, backward and an SGD step (lr 0.1), 30
# steps. Parameters are set deterministically, so the first loss is comparable.
import os
import sys
import time

# Idle OpenMP threads must not spin against OpenBLAS's threads on the 2 shared
# cores (see ../../shared/bench/README.md).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

# 2 threads (the machine's cores); AG_BENCH_TORCH_THREADS overrides
torch.set_num_threads(int(os.environ.get("AG_BENCH_TORCH_THREADS", "2")))
_t0 = time.perf_counter()  # in-process time, reported on stderr for run.sh's net column
T, B, I, H, C = 35, 32, 64, 128, 10
X = torch.sin(torch.arange(T * B * I).float() * 0.013).reshape(T, B, I)
Y = torch.arange(T * B) % C

lstm = nn.LSTM(I, H, num_layers=2)
head = nn.Linear(H, C)
params = list(lstm.parameters()) + list(head.parameters())
with torch.no_grad():
    for i, p in enumerate(params):
        p.copy_((torch.sin(torch.arange(p.numel()).float() * 0.37 + i) * 0.1).reshape(p.shape))
opt = torch.optim.SGD(params, lr=0.1)
first = None
last = None
for step in range(30):
    opt.zero_grad()
    out, state = lstm(X)
    loss = F.cross_entropy(head(out).reshape(T * B, C), Y)
    loss.backward()
    opt.step()
    if step == 0:
        first = loss.item()
    last = loss.item()
decreased = "yes" if last < first else "no"
print(f"lstm_train steps=30 first={first:.4f} last={last:.4f} decreased={decreased}")
print(f"bench_seconds={time.perf_counter() - _t0:.6f}", file=sys.stderr)
