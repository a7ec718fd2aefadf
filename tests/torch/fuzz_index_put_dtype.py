# assignment through an index tensor or mask is index_put_: the value tensor's dtype must match,
# except a 0-d value under a bool mask alone (masked_fill_); basic indexing converts
import torch
from agfmt import P
c = torch.zeros(2, 3)
def put(f):
    try:
        f()
        P(c, c._version)
    except Exception as e:
        P("error:", str(e))
def f1(): c[torch.tensor([1, 0, 0]), torch.tensor([0])] = torch.tensor([1.5, 2, 3], dtype=torch.float64)
def f2(): c[torch.tensor([1])] = torch.tensor([1, 2, 3])
def f3(): c[torch.tensor([[True, False, True], [False, False, True]])] = torch.tensor(2.5, dtype=torch.float64)
def f4(): c[c == 0] = torch.tensor(True)
def f5(): c[torch.tensor([0]), 1:] = torch.tensor([-1.25, 0.5])
def f6(): c[1, :2] = torch.tensor([4, 5])
def f7(): c[torch.tensor([1]), 2] = 7
for f in [f1, f2, f3, f4, f5, f6, f7]:
    put(f)
