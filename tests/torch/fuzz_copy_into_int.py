# copy_ and basic index assignment into int64/bool convert a requires_grad source and record nothing; add_ names the result type
import torch
from agfmt import P
t0 = torch.tensor([[-1.25], [4]], dtype=torch.float64, requires_grad=True)
c = torch.tensor([[[True, True, True], [False, False, False]]]); c.copy_(t0); P(c, c._version, c.requires_grad, c.grad_fn)
d = torch.tensor(0.5, dtype=torch.float64, requires_grad=True); c2 = torch.zeros(2, 3, dtype=torch.int64); c2.copy_(d * 4); P(c2, c2.requires_grad)
c3 = torch.zeros(2, 3, dtype=torch.int64); c3[0] = t0[1] * 2; P(c3, c3._version, c3.requires_grad)
try:
    c3[torch.tensor([0])] = t0[1]
except Exception as e: P("error:", str(e))
try:
    c3.add_(t0[0])
except Exception as e: P("error:", str(e))
f = torch.zeros(2, 3); f.copy_(t0); P(f, f.grad_fn)
