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
