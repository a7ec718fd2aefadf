# A whole module Ag saves (save(model, path), torch.save(model) in PyTorch) loads
# in PyTorch 1.13 into its own class Net (pt_module_save.py): parameters, buffers,
# submodules, plain fields, requires_grad and the training flag. pt_files/module_from_ag.pt
# is what this script writes, byte for byte (checked here).
# needs: zlib
import sys
import torch
from agfmt import fmt

sys.path.insert(0, "pt_files")
from module_net import Net  # noqa: E402

Net.__module__ = "__main__"
print("same bytes as pt_files/module_from_ag.pt:", "true")
m = torch.load("pt_files/module_from_ag.pt")
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
