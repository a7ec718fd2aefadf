# A whole module saved by PyTorch 1.13 (torch.save(model), pt_files/gen_from_torch.py)
# loads into the script's own class Net: parameters, buffers, submodules
# (Sequential, ModuleList), plain fields, requires_grad and the training flag.
# needs: zlib
import sys
import torch
from agfmt import fmt

sys.path.insert(0, "pt_files")
from module_net import Net  # noqa: E402

Net.__module__ = "__main__"
m = torch.load("pt_files/module_from_torch.pt")
print(type(m).__name__, m.k, m.name, fmt(m.training), fmt(m.fc.training))
for name, p in m.named_parameters():
    if p.requires_grad:  # Ag's parameters() are the tensors that require grad
        print(name, fmt(p.tolist()))
print(fmt(m.heads[1].weight.requires_grad), fmt(m.heads[1].weight.tolist()))
for name, b in m.named_buffers():
    print(name, fmt(b))
print(type(m.body).__name__, len(m.body), type(m.heads).__name__, len(m.heads))
x = torch.tensor([[1.0, -2.0, 0.5], [0.25, 0.0, 3.0]])
print(fmt(m(x).detach().tolist()))
