# float64 sin, cos, tan, exp, log, tanh, sigmoid and gelu to the last bit, as PyTorch 1.13
# computes them: SLEEF's AVX2 kernels in groups of 4 from the start of each run (sin/cos/tan
# switch their reduction for the whole group at 15, at 1e14 and beyond), sigmoid and gelu by
# the vector formula 8 at a time and the C library on the rest.
from agfmt import P
import torch
import torch.nn.functional as F

inf, nan = float("inf"), float("nan")
f64 = torch.float64
small = torch.arange(24).double() * 0.37 - 4.3
big = torch.tensor([14.9, 15, 15.1, -20.5, 1e4, 1e6, 123456789.125, 1e14, -1e14, 3e15, 1e30, -1e300, 1.7e308, 709.78, -745.1, 1e-310], dtype=f64)
pio2 = torch.tensor([1.5707963267948966, 3.141592653589793, 4.71238898038469, 6.283185307179586, -1.5707963267948966, 78.53981633974483, 1570.7963267948965, 157079.63267948965, 7.0685834705770345, 1e22], dtype=f64)
special = torch.tensor([0.0, -0.0, inf, -inf, nan, 4.9e-324, -2.2250738585072014e-308, 18.7, 18.72, 2.5, 3.7, 6.0], dtype=f64)
for x in [small, big, pio2, special]:
    P(torch.sin(x).tolist())
    P(torch.cos(x).tolist())
    P(torch.tan(x).tolist())
    P(torch.exp(x).tolist(), torch.log(x.abs()).tolist())
    P(torch.tanh(x).tolist(), torch.sigmoid(x).tolist(), F.gelu(x).tolist())
# one value alone, then next to a large one
P(torch.sin(torch.tensor([0.7], dtype=f64)).tolist(), torch.sin(torch.tensor([0.7, 1e16], dtype=f64)).tolist())
# tails of every length 1..9: the last group padded with zeros, sigmoid's and gelu's scalar tail
t = torch.arange(9).double() * 61.3 - 250
for k in range(1, 10):
    P(k, torch.sin(t[:k]).tolist(), torch.cos(t[:k] * 0.1).tolist(), torch.sigmoid(t[:k] * 0.05).tolist(), F.gelu(t[:k] * 0.01).tolist())
# strided and transposed views
m = (torch.arange(60).double() * 7.9 - 200).reshape(6, 10)
P(torch.sin(m[:, ::2]).tolist())
P(torch.tan(m.t()).tolist())
P(F.gelu((m * 0.02).t()).tolist(), torch.sigmoid(m[1:, 3:] * 0.05).tolist())
