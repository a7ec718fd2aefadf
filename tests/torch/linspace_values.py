# linspace's every bit: PyTorch 1.13's kernel computes blocks of 16 floats (8
# doubles) from one fused multiply-add each, the rest one fma per element, up
# from the start in the first half and down from the end in the second.
from agfmt import P
import math
import torch
cases = [(-math.pi, math.pi, 2000), (0, 1, 5), (-3.7, 11.1, 7), (-3.7, 11.1, 37),
         (2.5, -8.25, 100), (1e-3, 7.77, 255), (-1, 1, 16), (-1, 1, 17), (5, 5, 9),
         (0, 1, 1), (0, 1, 0)]
for dt in (torch.float32, torch.float64):
    for start, end, n in cases:
        x = torch.linspace(start, end, n, dtype=dt)
        P(n, x.tolist()[:20], x.tolist()[-20:], x.double().sum().item())
