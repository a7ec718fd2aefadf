# x ** e for the exponents PyTorch 1.13 does not special-case, to the last bit: ATen's
# pow_tensor_scalar_optimized_kernel takes 16 floats (8 doubles) at a time through
# Vectorized::pow (SLEEF's powf8_u10 / powd4_u10 with AVX2) and the rest of each contiguous
# run through std::pow(x, double(e)); x ** 0 is 1 and x ** 1 a copy.
from agfmt import P
import torch

torch.manual_seed(3)
x = torch.randn(37) * 3
for e in [4, 5, 1.5, -3, 0.1, 2.5, 0, 1]:
    P(e, (x.abs() ** e).tolist())
    P(e, (x ** e).tolist())
d = torch.randn(13, dtype=torch.float64) * 2
for e in [4, -3, 0.3]:
    P(e, (d.abs() ** e).tolist())
m = torch.randn(4, 20)
P((m[:, :18].abs() ** 1.7).tolist())
P((m.t().abs() ** 1.7).tolist())
w = torch.randn(20, requires_grad=True)
(w ** 4).sum().backward()
P(w.grad.tolist())
v = torch.randn(20, requires_grad=True)
(v.abs() ** 2.5).sum().backward()
P(v.grad.tolist())
