# sort_topk: sort, argsort and topk of 10^6 float32 values (sin of a
# scrambled ramp: no order to exploit), 5 times each; topk k=10 and 1000.
import os
import sys
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402

torch.set_num_threads(int(os.environ.get("AG_BENCH_TORCH_THREADS", "2")))
_t0 = time.perf_counter()
x = torch.sin(torch.arange(1000000).float() * 12.9898) * 43758.5453
x = x - x.floor()
s = 0.0
for rep in range(5):
    r = x.sort()
    s = s + r[0][500000].item()
    s = s + x.argsort(descending=True)[0].item() * 0.000001
    s = s + x.topk(10)[0][9].item()
    s = s + x.topk(1000, largest=False)[0][999].item()
print(f"sort_topk n=1000000 reps=5 s={s:.5f}")
print(f"bench_seconds={time.perf_counter() - _t0:.6f}", file=sys.stderr)
