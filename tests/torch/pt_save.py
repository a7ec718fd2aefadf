# A .pt file Ag writes loads in PyTorch 1.13 with the same values: this loads
# pt_files/from_ag.pt (written by pt_save.ag, which checks it writes the same
# bytes today) and prints what Ag prints after loading it back.
import torch
from agfmt import fmt

print("same bytes as pt_files/from_ag.pt:", "true")
x = torch.load("pt_files/from_ag.pt")
print(fmt(list(x.keys())))
for k in ["t", "row", "x64", "i64", "flags", "scalar", "empty", "expanded", "grad", "param"]:
    prefix = "Parameter containing:\n" if isinstance(x[k], torch.nn.Parameter) else ""
    print(k, prefix + fmt(x[k]))
print(fmt(x["t"].is_contiguous()), fmt(x["expanded"].is_contiguous()))
x["row"][0] = 100.0
print(fmt(x["t"]))
for item in x["nested"]:
    print(fmt(item) if not isinstance(item, dict) else "{\"k\": " + fmt(item["k"]) + "}")
copy = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
copy.load_state_dict(x["model"])
for k, v in copy.state_dict().items():
    print(k, fmt(v.tolist()))
