# multinomial: sampling from 10^6 float32 weights (a scrambled ramp, not
# normalised), 5 times each: 10^5 draws with replacement (binary search of
# the cumulative sums) and 1000 without (the exponential race + topk).
# The sampled indices are PyTorch's for the same seed, so s agrees.
import os
import sys
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402

torch.set_num_threads(int(os.environ.get("AG_BENCH_TORCH_THREADS", "2")))
_t0 = time.perf_counter()
torch.manual_seed(0)
w = torch.sin(torch.arange(1000000).float() * 12.9898) * 43758.5453
w = w - w.floor() + 0.001
s = 0
for rep in range(5):
    s = s + w.multinomial(100000, replacement=True).sum().item()
    s = s + w.multinomial(1000).sum().item()
print(f"multinomial n=1000000 reps=5 s={s}")
print(f"bench_seconds={time.perf_counter() - _t0:.6f}", file=sys.stderr)
