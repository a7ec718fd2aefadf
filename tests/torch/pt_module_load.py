# A whole module saved by PyTorch 1.13 (torch.save(model), pt_files/gen_from_torch.py)
# loads into the script's own class Net: parameters, buffers, submodules
# (Sequential, ModuleList), plain fields, requires_grad and the training flag.
# needs: zlib
import sys
import torch

sys.path.insert(0, "pt_files")
from module_net import Net, report  # noqa: E402

Net.__module__ = "__main__"
m = torch.load("pt_files/module_from_torch.pt")
report(m)
