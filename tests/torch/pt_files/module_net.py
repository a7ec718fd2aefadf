"""The module class that pt_module_load.py and pt_module_save.py (and their
Ag twins) share: torch.save(model) names it __main__.Net, so each script
defines it (importing this file) before loading."""
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 4)
        self.body = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
        self.heads = torch.nn.ModuleList([torch.nn.Linear(4, 2), torch.nn.Linear(4, 1)])
        self.register_buffer("scale", torch.tensor([2.0]))
        self.k = 3
        self.name = "net"

    def forward(self, x):
        h = self.body(self.fc(x)) * self.scale
        return torch.cat([head(h) for head in self.heads], 1) * self.k


def report(m):
    """What both cases print of a loaded Net, as their Ag twins print it."""
    from agfmt import fmt  # tests/torch's, where the cases run (not gen_from_torch.py)
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
