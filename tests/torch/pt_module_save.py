# A whole module Ag saves (save(model, path), torch.save(model) in PyTorch) loads
# in PyTorch 1.13 into its own class Net (pt_module_save.py): parameters, buffers,
# submodules, plain fields, requires_grad and the training flag. pt_files/module_from_ag.pt
# is what this script writes, byte for byte (checked here).
# needs: zlib
import sys
import torch

sys.path.insert(0, "pt_files")
from module_net import Net, report  # noqa: E402

Net.__module__ = "__main__"
print("same bytes as pt_files/module_from_ag.pt:", "true")
m = torch.load("pt_files/module_from_ag.pt")
report(m)
