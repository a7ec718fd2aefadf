# binary_cross_entropy takes no other target dtype than the input's (no promotion), after the size check
import torch
import torch.nn.functional as F
from agfmt import P
x = torch.tensor([0.3, 0.6], dtype=torch.float64)
for pr in [[x, torch.ones(2)], [x.float(), torch.ones(2, dtype=torch.float64)], [x.float(), torch.ones(2, dtype=torch.int64)], [x, torch.ones(2, dtype=torch.bool)], [torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64)], [torch.ones(2), torch.ones(3, dtype=torch.float64)], [x, x]]:
    try:
        P(F.binary_cross_entropy(pr[0], pr[1]))
    except Exception as e:
        P("error:", str(e))
