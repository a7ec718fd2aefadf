# torch as a module: import forms, torch.X, Size, device, cuda, backends,
# Tensor, set_printoptions (twin: torch_module.ag).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim
from torch.utils.data import DataLoader, TensorDataset
from torch.optim.lr_scheduler import StepLR
from agfmt import P

torch.manual_seed(0)
t = torch.randn(3, 4)
P(t.shape, t.size(), t.size(1), t.shape == torch.Size([3, 4]), list(torch.Size([2, 5])))
P(str(torch.device("cpu")), torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())
P(isinstance(t, torch.Tensor), isinstance([1], torch.Tensor), torch.is_tensor(t), torch.float32, torch.long)
P(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape)
lin = nn.Linear(4, 2)
P(F.relu(lin(t)).shape, torch.tanh(torch.tensor([0.5])))
opt = optim.SGD(lin.parameters(), lr=0.1)
sched = StepLR(opt, step_size=1, gamma=0.5)
loader = DataLoader(TensorDataset(torch.arange(6.0)), batch_size=4)
P([b[0].shape for b in loader])
torch.set_printoptions(precision=2)
P(t)
torch.set_printoptions(sci_mode=False)
P(torch.tensor([1e-6, 1.0, 123456.0]))
torch.set_printoptions(threshold=5, edgeitems=2)  # sci_mode back to automatic
P(torch.tensor([1e-6, 1.0]))
P(torch.arange(10.0))
torch.set_printoptions(profile="default")
P(torch.arange(10.0), torch.tensor([1e-6, 1.0]))
torch.set_printoptions(linewidth=30)
P(torch.arange(12.0))
torch.set_printoptions(profile="short")
P(torch.tensor([3.14159, 2.71828]))
torch.set_printoptions(profile="default", linewidth=80)
