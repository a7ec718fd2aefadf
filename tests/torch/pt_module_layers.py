# nn's layers saved whole by Ag (save(layers, path)) run in PyTorch 1.13 after
# torch.load (pt_module_layers.py), with the fields PyTorch's classes read that
# Ag's keep none of (Conv2d's padding_mode, the recurrent layers' mode and
# _flat_weights, Embedding's options); Ag's own load gives the same outputs.
# needs: zlib
# tolerance: rtol=1e-5 atol=1e-6 (BLAS products and tanh/exp: the CPU and library pick the order of the sums)
import torch
from agfmt import fmt

print("same bytes as pt_files/layers_from_ag.pt:", "true")
m = torch.load("pt_files/layers_from_ag.pt")
print(*[str(x).replace("True", "true").replace("False", "false") for x in m[:6]])
img = torch.arange(2 * 2 * 5 * 5, dtype=torch.float32).reshape(2, 2, 5, 5) / 50
seq = torch.arange(4 * 1 * 2, dtype=torch.float32).reshape(4, 1, 2) / 8 - 0.3
with torch.no_grad():
    print(fmt(m[0](img).flatten()[:6].tolist()))
    print(fmt(m[1](seq)[0].flatten().tolist()))
    print(fmt(m[2](seq)[0].flatten().tolist()))
    print(fmt(m[3](seq)[1].flatten().tolist()))
    print(fmt(m[4](torch.tensor([0, 4, 2])).tolist()))
    m[5].eval()
    print(fmt(m[5](torch.arange(6, dtype=torch.float32).reshape(2, 3)).tolist()))
    q = torch.arange(8, dtype=torch.float32).reshape(2, 1, 4) / 10
    print(fmt(m[6](q, q, q)[0].flatten().tolist()))
    m[7].eval()
    print(fmt(m[7](torch.ones(1, 3)).tolist()))
