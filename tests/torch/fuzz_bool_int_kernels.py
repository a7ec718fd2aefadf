# unary ops and argmax/argmin PyTorch has no bool (gelu: no integer) kernel for; clamp of bool by numbers
import torch
from agfmt import P
b = torch.tensor([[True, False], [True, True]])
def try_(f):
    try:
        P(f())
    except Exception as e:
        P("error:", str(e))
try_(lambda: b.abs())
try_(lambda: b.floor())
try_(lambda: b.ceil())
try_(lambda: b.round())
try_(lambda: torch.relu(b))
try_(lambda: b.argmax())
try_(lambda: b.argmin(dim=0))
try_(lambda: torch.nn.functional.gelu(b))
try_(lambda: torch.nn.functional.gelu(b.long()))
try_(lambda: b.long().abs())
try_(lambda: b.max(dim=0))
try_(lambda: b.sign())
try_(lambda: b.clamp(max=2))
try_(lambda: b.clamp(min=0.5))
try_(lambda: b.clamp(min=0, max=1))
try_(lambda: torch.tensor([[True, True, True]]).argmin(0))
try_(lambda: torch.tensor([[True, False]]).argmax(0, keepdim=True))
try_(lambda: torch.tensor([[True, False]]).argmax(1))
try_(lambda: torch.tensor(True).argmax(0))
