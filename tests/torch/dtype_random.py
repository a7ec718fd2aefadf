# Random draws into the narrow dtypes, as PyTorch 1.13 draws them: random_()
# over each dtype's range, float16/bfloat16 uniforms from 11 (8) bits of one
# 32-bit draw, randint into any dtype.
from agfmt import P
import torch

for dt in [torch.int32, torch.int16, torch.int8, torch.uint8, torch.float16, torch.bfloat16]:
    torch.manual_seed(0)
    P(dt, torch.empty(5, dtype=dt).random_(), torch.empty(3, dtype=dt).random_(0, 100),
      torch.randint(-5, 5, [4], dtype=dt) if dt != torch.uint8 else torch.randint(0, 9, [4], dtype=dt))
torch.manual_seed(1)
P(torch.rand(4, dtype=torch.float16), torch.rand(2, 3, dtype=torch.bfloat16))
P(torch.empty(5, dtype=torch.float16).uniform_(-3, 7), torch.empty(3, dtype=torch.bfloat16).uniform_(0.5, 0.75))
P(torch.zeros(2, 4, dtype=torch.float16).t().uniform_())
