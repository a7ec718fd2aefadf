# PyTorch twin of examples/seed004_nn_training.ag: with manual_seed(0) in both,
# the layers start from the same weights and print the same losses.
import torch
import torch.nn as nn
import torch.optim as optim
from agfmt import P

torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(2, 5),
    nn.ReLU(),
    nn.Linear(5, 1)
)
print(str(model).replace("True", "true"))

x = torch.tensor([[0.5, 0.3], [0.2, 0.8]], requires_grad=True)
target = torch.tensor([[0.8], [0.2]])
criterion = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)

output = model(x)
loss = criterion(output, target)
before = loss.item()
print(f"Loss before backward: {before:.4f}")
optimizer.zero_grad()
loss.backward()
optimizer.step()
output = model(x)
loss = criterion(output, target)
print(f"Loss after one step: {loss.item():.4f}")
P("loss decreased:", loss.item() < before)
P("x.grad shape:", list(x.grad.shape))
for step in range(2, 21):
    optimizer.zero_grad()
    loss = criterion(model(x), target)
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        print(f"step {step}: loss {loss.item():.4f}")
