# PyTorch 1.13's type promotion across every pair of dtypes: two tensors with
# dimensions, a tensor with a 0-d tensor (which only counts when of a higher
# category), a tensor with a number (an int keeps an integer tensor's dtype, a
# float gives float32 unless the tensor is floating), and the in-place rule
# (a result of a higher category cannot be written into the left operand).
from agfmt import P
import torch

dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
for a in dtypes:
    x = torch.ones(2, dtype=a)
    row = []
    for b in dtypes:
        row.append((x + torch.ones(2, dtype=b)).dtype)
    P(a, row)
for a in dtypes:
    x = torch.ones(2, dtype=a)
    P(a, [(x * torch.tensor(1, dtype=b)).dtype for b in dtypes],
      [(torch.tensor(1, dtype=a) * torch.tensor(1, dtype=b)).dtype for b in dtypes])
for a in dtypes:
    x = torch.ones(2, dtype=a)
    P(a, (x + 1).dtype, (x + 2.5).dtype, (x * True).dtype, (1 - x.int()).dtype)
    P((x / 2).dtype, (x < 1).dtype, (x == x).dtype, x.sum().dtype, x.max().dtype)
for a in dtypes:
    ok = []
    for b in dtypes:
        y = torch.ones(2, dtype=a)
        try:
            y += torch.ones(2, dtype=b)
            ok.append(str(y.dtype).replace("torch.", ""))
        except RuntimeError as e:
            ok.append("error")
    P(a, ok)
try:
    y = torch.ones(2, dtype=torch.int32)
    y *= 1.5
except RuntimeError as e:
    P(str(e))
