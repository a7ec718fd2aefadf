# module API against PyTorch: named_modules, children, apply, state_dict's order (each module's
# parameters, its buffers, then its submodules'), double/float, Sequential
# indexing and append, nn.init's functions after a seed, the repr of nested containers
import torch
import torch.nn as nn
from agfmt import P, fmt
from torch.nn import init
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(3, 1), nn.Linear(3, 2)])
        self.d = nn.ModuleDict({"a": nn.Tanh()})
        self.register_buffer("scale", torch.ones(1))
n = Net()
P([k for k, _ in n.named_modules()])
P([type(m).__name__ for m in n.children()])
P([k for k, _ in n.named_parameters()])
P(list(n.state_dict().keys()))
P([k for k, _ in n.named_buffers()])
seen = []
n.apply(lambda m: seen.append(type(m).__name__))
P(seen)
P(n.double().scale.dtype, n.body[0].weight.dtype)
P(n.float().scale.dtype)
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
P(type(s[-1]).__name__, len(s[1:]), len(s))
s.append(nn.Sigmoid())
P(len(s))
torch.manual_seed(0)
w = torch.empty(3, 5)
P(init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("selu"), init.calculate_gain("tanh"))
P(init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")[0])
P(init.xavier_normal_(w, gain=2)[0])
P(init.eye_(torch.empty(2, 3)))
P(init.trunc_normal_(w, std=0.5)[0])
P(init.kaiming_uniform_(torch.empty(2, 3, 3, 3))[0, 0, 0])
P(init.normal_(w, 1, 2)[0])
print(repr(n).replace("True", "true").replace("False", "false"))
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2), nn.Linear(2, 1))
P(list(m.state_dict().keys()))
P(list(nn.BatchNorm1d(2, track_running_stats=False).state_dict().keys()))
# register_parameter, add_module and their checks
mod = nn.Module()
def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).replace("torch.FloatTensor", "tensor").replace("torch.nn.Parameter or None", "nn.Parameter or nil").strip("'").replace("\\'", "'")
P(msg(lambda: mod.register_parameter("w", torch.ones(2))))
P(msg(lambda: mod.add_module("x", torch.ones(2))))
P(msg(lambda: mod.add_module("a.b", nn.ReLU())))
mod.register_parameter("w", nn.Parameter(torch.ones(2)))
mod.add_module("act", nn.ReLU())
mod.register_parameter("nothing", None)
print(repr(mod), fmt([k for k, _ in mod.named_parameters()]))
# Sequential insert, extend, pop; ModuleList pop; ModuleDict pop and clear
s = nn.Sequential(nn.ReLU(), nn.Tanh())
s.insert(0, nn.Sigmoid())
s.extend([nn.ReLU()])
print(len(s), s.pop(1), s)
ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
print(ml.pop(0), len(ml))
md = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Tanh()})
print(md.pop("a"), len(md))
md.clear()
print(len(md))
