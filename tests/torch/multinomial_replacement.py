# multinomial with replacement: ATen's CPU kernel (a binary search of one
# 53-bit uniform per draw in the row's normalised cumulative sums, kept in the
# input's dtype), in every spelling of the call; one draw takes the
# exponential race as without replacement (Ag twin: multinomial_replacement.ag)
from agfmt import P
import torch
for seed in [0, 5, 123]:
    torch.manual_seed(seed)
    p = torch.rand(3, 40)
    P(torch.multinomial(p, 12, replacement=True))
    P(p.multinomial(12, True))
    P(p.multinomial(num_samples=1, replacement=True))
    q = torch.rand(500, dtype=torch.float64)
    P(torch.multinomial(q, 25, True))
    P(torch.multinomial(p.t()[:, :2], 6, replacement=True))
g = torch.Generator()
g.manual_seed(7)
P(torch.multinomial(torch.tensor([0.0, 0.3, 0.0, 0.7]), 16, True, generator=g))
P(torch.multinomial(torch.tensor([1e-30, 1.0, 1e-30], dtype=torch.float64), 8, replacement=True))
