# deep_chain: one deep graph of small float32 ops, h = tanh(W @ h + b) with
# W 16x16 and h 16x16 (a 16x16 matmul, a bias, a tanh), 5000 steps deep, then
# backward through all 15000 recorded ops; 3 times, each a fresh graph.
import os
import sys
import time

# Idle OpenMP threads must not spin against OpenBLAS's threads on the 2 shared
# cores (see ../../shared/bench/README.md).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402

# 2 threads (the machine's cores); AG_BENCH_TORCH_THREADS overrides
torch.set_num_threads(int(os.environ.get("AG_BENCH_TORCH_THREADS", "2")))
_t0 = time.perf_counter()  # in-process time, reported on stderr for run.sh's net column
W = (torch.sin(torch.arange(256).float() * 0.37) * 0.05).reshape(16, 16).requires_grad_()
b = (torch.cos(torch.arange(16).float() * 0.5) * 0.1).requires_grad_()
x = torch.sin(torch.arange(256).float() * 0.11).reshape(16, 16)
out = 0
for rep in range(3):
    h = x
    for step in range(5000):
        h = torch.tanh(W @ h + b)
    loss = h.sum()
    loss.backward()
    out = loss.item()
gw = W.grad.abs().sum().item()
gb = b.grad.abs().sum().item()
print(f"deep_chain depth=5000 reps=3 loss={out:.5f} gw={gw:.5f} gb={gb:.5f}")
print(f"bench_seconds={time.perf_counter() - _t0:.6f}", file=sys.stderr)
