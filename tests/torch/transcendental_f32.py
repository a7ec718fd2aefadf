# float32 sin, cos, tan, exp, log, tanh, sigmoid and gelu to the last bit (tolist shows every
# value exactly). PyTorch 1.13 runs them through SLEEF's AVX2 kernels in groups of 8 counted from
# the start of each innermost run (sin/cos/tan reduce a whole group by Payne-Hanek once a lane
# is 125 or more), sigmoid and gelu through cpu_kernel_vec (16 at a time by the vector formula,
# the rest by the C library); a contiguous float32 gelu of more than one element goes to oneDNN.
from agfmt import P
import torch
import torch.nn.functional as F

inf, nan = float("inf"), float("nan")
small = torch.arange(24).float() * 0.37 - 4.3
big = torch.tensor([1e4, -1e4, 1e6, 12345.678, -98765.4, 1e30, -3e38, 125, 124.9, 39000.5, 8e6, 1e10, 2.5e-3, -7.25, 100000, 3.3e5])
pio2 = torch.tensor([1.5707964, 3.1415927, 4.712389, 6.2831855, -1.5707964, 78.53982, 1570.7964, 157079.63, 1.5707963, 3.1415925, 10000000, -1.5707961])
special = torch.tensor([0.0, -0.0, inf, -inf, nan, 1e-40, -1e-45, 3.4e38, 88.7, -88.7, 1e-7, -5.5])
for x in [small, big, pio2, special]:
    P(torch.sin(x).tolist())
    P(torch.cos(x).tolist())
    P(torch.tan(x).tolist())
    P(torch.exp(x).tolist(), torch.log(x.abs()).tolist())
    P(torch.tanh(x).tolist(), torch.sigmoid(x).tolist(), F.gelu(x).tolist())
# one value alone, then next to a large one: the group is reduced the other way
P(torch.sin(torch.tensor([-2.5668182])).tolist(), torch.sin(torch.tensor([-2.5668182, 1000])).tolist())
P(torch.cos(torch.tensor([0.075731076])).tolist(), torch.cos(torch.tensor([0.075731076, 1000])).tolist())
# tails of every length 1..17: the last group padded with zeros, sigmoid's and gelu's scalar tail
t = torch.arange(17).float() * 61.3 - 400
for k in range(1, 18):
    P(k, torch.sin(t[:k]).tolist(), torch.tan(t[:k]).tolist(), torch.sigmoid(t[:k] * 0.02).tolist(), F.gelu(t[:k] * 0.01).tolist())
# strided and transposed views: the groups follow the input's memory order
m = (torch.arange(60).float() * 7.9 - 200).reshape(6, 10)
P(torch.sin(m[:, ::2]).tolist())
P(torch.cos(m.t()).tolist())
P(F.gelu((m * 0.02).t()).tolist())
P(torch.sigmoid(m[1:, 3:] * 0.05).tolist(), F.gelu(m[::2] * 0.03).tolist())
