from agfmt import P
import torch.nn as nn
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.head = nn.Sequential(nn.Linear(3, 1, bias=False), nn.Sigmoid())
def r(m):
    return repr(m).replace("True", "true").replace("False", "false").replace("None", "nil")
print(r(MLP()))
print(r(nn.Sequential(nn.Linear(4, 2), nn.Tanh(), nn.Dropout(0.25), nn.Softmax(dim=1), nn.LogSoftmax(dim=0))))
print(" ".join(r(m) for m in [nn.Embedding(10, 3), nn.RNNCell(3, 4), nn.LSTMCell(2, 5), nn.Flatten(), nn.GELU()]))
print(" ".join(r(m) for m in [nn.MSELoss(), nn.CrossEntropyLoss(), nn.L1Loss(), nn.NLLLoss(), nn.BCELoss()]))
# every layer's settings
layers = [nn.Identity(), nn.LeakyReLU(), nn.LeakyReLU(0.2), nn.ELU(), nn.ELU(alpha=0.5), nn.SiLU(),
          nn.Softplus(), nn.Softplus(beta=2, threshold=10), nn.Unflatten(1, [2, 3]),
          nn.Conv1d(2, 4, 3), nn.Conv1d(2, 4, 3, stride=2, padding=1, dilation=2, groups=2, bias=False),
          nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(1, 6, (5, 3), stride=(2, 1), padding="same" if False else 0),
          nn.Conv2d(2, 2, 3, padding="same"), nn.Conv2d(4, 4, 3, groups=4, dilation=2),
          nn.MaxPool1d(2), nn.MaxPool2d(2), nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True),
          nn.AvgPool1d(3), nn.AvgPool1d(3, stride=1, padding=1), nn.AvgPool2d(2), nn.AvgPool2d(3, stride=2, padding=1),
          nn.AdaptiveAvgPool2d(1), nn.AdaptiveAvgPool2d([2, 3]),
          nn.BatchNorm1d(4), nn.BatchNorm2d(8, eps=1e-3, momentum=None, affine=False, track_running_stats=False),
          nn.LayerNorm(5), nn.LayerNorm([2, 3], elementwise_affine=False), nn.GroupNorm(2, 4), nn.GroupNorm(1, 3, affine=False),
          nn.Dropout(), nn.Embedding(5, 2), nn.Tanh(), nn.Sigmoid(), nn.Softmax(), nn.ReLU(),
          nn.SmoothL1Loss(), nn.HuberLoss(), nn.KLDivLoss(), nn.BCEWithLogitsLoss(),
          nn.MultiheadAttention(4, 2), nn.MultiheadAttention(6, 3, kdim=2, vdim=3, bias=False)]
for layer in layers:
    print(r(layer))
print(r(nn.ModuleList([nn.Linear(2, 2), nn.ModuleList([nn.ReLU()])])))
print(r(nn.ModuleDict({"conv": nn.Conv2d(1, 2, 3), "act": nn.ReLU()})))
print(r(nn.Sequential()))
print(r(nn.ModuleList()))
# nn.Parameter prints as "Parameter containing:" then the tensor, also inside a list;
# anything computed from it is a plain tensor (Ag's layers hold plain tensors: SPEC 8)
import torch
from agfmt import fmt


def PP(v):
    """Prints v as PyTorch does, a Parameter with its prefix (agfmt prints the tensor)."""
    def one(x):
        text = fmt(x)
        return "Parameter containing:\n" + text if isinstance(x, nn.Parameter) else text
    print("[" + ", ".join(one(x) for x in v) + "]" if isinstance(v, list) else one(v))


p = nn.Parameter(torch.ones(2))
PP(p)
PP([p, torch.zeros(1)])
PP(nn.Parameter(torch.ones(2, 2, dtype=torch.float64), requires_grad=False))
PP(p * 2)
PP(p.detach())
with torch.no_grad():
    p.add_(1)
PP(p)
PP(p.requires_grad_(False))
class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.full((2,), 0.5))
PP(Scaled().double().scale)
PP(Scaled().state_dict()["scale"])
