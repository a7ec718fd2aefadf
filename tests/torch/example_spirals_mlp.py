# PyTorch twin of examples/spirals_mlp.ag (PyTorch's initial weights differ from Ag's; the printed facts do not)
import math
import torch
import torch.nn as nn
from agfmt import P

torch.manual_seed(0)
n = 100
t = torch.linspace(0.25, 1, n) * (3.5 * math.pi)
r = t / (3.5 * math.pi)
spiral_a = torch.stack([r * torch.cos(t), r * torch.sin(t)], dim=1)
spiral_b = -spiral_a
X = torch.cat([spiral_a, spiral_b]) * 2
y = torch.cat([torch.zeros(n, dtype=torch.int64), torch.ones(n, dtype=torch.int64)])
P("data:", list(X.shape), list(y.shape), y.dtype)


class MLP(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(2, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 2)

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        h = torch.tanh(self.fc2(h))
        return self.out(h)


model = MLP(64)
P("parameters:", sum(p.numel() for p in model.parameters()))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.01)


def accuracy():
    with torch.no_grad():
        predicted = model(X).argmax(dim=1)
        return (predicted == y).float().mean().item()


first_loss = None
for epoch in range(400):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    if epoch == 0:
        first_loss = loss.item()
    loss.backward()
    opt.step()

acc = accuracy()
P("loss decreased:", loss.item() < first_loss)
P("accuracy >= 0.95:", acc >= 0.95)
print(f"accuracy: {acc:.2f}")
