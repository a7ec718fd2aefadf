# .pt files written by PyTorch 1.13 (pt_files/gen_from_torch.py) load with the
# same values, views, shared storages and requires_grad
import torch
from agfmt import fmt

x = torch.load("pt_files/from_torch.pt")
print(fmt(list(x.keys())))
for k in ["t", "row", "x64", "i64", "flags", "scalar", "empty", "expanded", "grad"]:
    print(k, fmt(x[k]))
print(fmt(x["t"].is_contiguous()), fmt(x["expanded"].is_contiguous()))
print(fmt(x["i32"]), fmt(x["u8"]), fmt(x["i8"]))  # their own dtypes, as saved
print(fmt(x["param"].detach()), fmt(x["param"].requires_grad))
print(fmt(x["t"].tolist()))
# shared storage: writing through one view shows in the other
x["row"][0] = 100.0
print(fmt(x["t"]))
for item in x["nested"]:
    print(fmt(item) if not isinstance(item, dict) else "{\"k\": " + fmt(item["k"]) + "}")
# a state dict from PyTorch into the same model, exactly (the weights' every bit)
sd = torch.load("pt_files/state_dict.pt")
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
model.load_state_dict(sd)
for k, v in model.state_dict().items():
    print(k, fmt(v.tolist()))
for k, v in x["model"].items():
    print(k, fmt(bool((v == sd[k]).all())))
