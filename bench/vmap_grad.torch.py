# vmap_grad: the PyTorch 1.13 + functorch twin of vmap_grad.ag.
import os
import sys
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
_t0 = time.perf_counter()
import torch
import torch.nn as nn
from functorch import grad, vmap
from torch.nn.utils.stateless import functional_call

torch.set_num_threads(int(os.environ.get("AG_BENCH_TORCH_THREADS", "2")))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
x = torch.randn(1000, 16)
y = torch.randn(1000, 1)
params = {name: p.detach() for name, p in model.named_parameters()}


def sample_loss(params, xi, yi):
    out = functional_call(model, params, (xi.unsqueeze(0),))
    return ((out - yi.unsqueeze(0)) ** 2).mean()


per_sample = vmap(grad(sample_loss), in_dims=(None, 0, 0))


def batched_step():
    model.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()


def median_seconds(f):
    times = []
    for rep in range(50):
        t0 = time.process_time()
        f()
        times.append(time.process_time() - t0)
    return sorted(times)[25]


grads = None


def vmap_step():
    global grads
    grads = per_sample(params, x, y)


t_vmap = median_seconds(vmap_step)
t_batched = median_seconds(batched_step)

per_sample_sum = sum(g.double().abs().sum().item() for g in grads.values())
mean_sum = sum(p.grad.double().abs().sum().item() for p in model.parameters())
print(f"vmap_grad samples={grads['0.weight'].shape[0]} per_sample_abs={per_sample_sum:.3f} batched_abs={mean_sum:.5f}")
print(f"vmap(grad) {t_vmap * 1000:.3f} ms, batched forward+backward {t_batched * 1000:.3f} ms (medians), ratio {t_vmap / t_batched:.2f}", file=sys.stderr)
print(f"bench_seconds={time.perf_counter() - _t0:.6f}", file=sys.stderr)
