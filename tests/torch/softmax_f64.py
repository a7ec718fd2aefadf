# float64 softmax over the last dim to the last bit (tolist shows every value exactly), as
# PyTorch 1.13's vec_softmax_lastdim computes it on x86-64 with AVX2: the row's max, exp of
# x - max through SLEEF's expd4_u10 (Ag links the same SLEEF), a sum in 4 lanes folded lane
# by lane, then a multiplication by its reciprocal.
from agfmt import P
import torch


def data(n):
    a = torch.arange(n, dtype=torch.float64)
    return ((a * 7919) % 1013 - 506) / 97 + 1 / (a + 3)


for n in [2, 3, 4, 5, 7, 8, 9, 13, 37, 100]:
    P(n, torch.softmax(data(3 * n).reshape(3, n), -1).tolist())
