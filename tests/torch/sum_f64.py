# float64 sum and mean to the last bit, as PyTorch 1.13 (one thread, AVX2): ATen's
# cascade_sum with 4 interleaved accumulators, each a 4-level cascade, in 4-double vector
# lanes over contiguous runs; TensorIterator puts the reduced dims innermost and coalesces.
# The values mix magnitudes so that any other order of the additions shows in the digits.
from agfmt import P
import torch


def data(n):
    a = torch.arange(n, dtype=torch.float64)
    return ((a * 7919) % 1013 - 506) / 37 * ((a % 5) * (a % 5) * 1000 + 1) + 1 / (a + 3)


# a full sum of every length: the vector part, the ILP rows, the scalar tail, the cascade levels
for n in list(range(1, 71)) + [127, 128, 129, 130, 1000, 4097, 100000, 1000000]:
    x = data(n)
    P(n, x.sum().item(), x.mean().item())
for r, c in [(3, 5), (7, 4), (5, 17), (33, 9), (64, 40), (100, 3), (4, 1000), (1000, 4), (130, 37), (17, 250), (2, 70)]:
    m = data(r * c).reshape(r, c)
    P(r, c, m.sum(0).tolist(), m.sum(1).tolist(), m.sum(0, keepdim=True).tolist())
    P(m.mean(0).tolist(), m.mean(1, keepdim=True).tolist(), m.mean().item())
    t = m.t()
    P(t.sum().item(), t.sum(0).tolist(), t.sum(1).tolist())
    P(m[:, ::2].sum().item(), m[:, ::2].sum(0).tolist(), m[:, ::2].sum(1).tolist())
    P(m[::2].sum().item(), m[::2].sum(0).tolist(), m[::2].sum(1).tolist())
x = data(3001)
P(x[::3].sum().item(), x[1::7].sum().item(), x[5:2900].sum().item())
b = data(4 * 5 * 6 * 7).reshape(4, 5, 6, 7)
P(b.sum([0, 1]).tolist(), b.sum([2, 3]).tolist(), b.sum(2).tolist())
P(b.sum([0, 2]).tolist(), b.sum([1, 3]).tolist(), b.permute(2, 0, 3, 1).sum([0, 1]).tolist())
P(b.permute(3, 1, 0, 2).sum().item(), b.transpose(1, 3).sum(1).tolist())
