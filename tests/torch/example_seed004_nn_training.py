# PyTorch twin of examples/seed004_nn_training.ag. PyTorch's random generator
# differs from Ag's, so the initial weights are Ag's after manual_seed(0),
# copied here (printed by Ag with tolist(), exact float32 values).
import torch
import torch.nn as nn
import torch.optim as optim
from agfmt import P

AG_INIT = {
    "0.weight": [[0.14320749044418335, 0.3504054546356201], [-0.5614145398139954, -0.11796093732118607], [0.32950717210769653, 0.7067509889602661], [-0.11000959575176239, 0.05042356252670288], [0.5027771592140198, 0.5923546552658081]],
    "0.bias": [-0.5454657673835754, -0.6120266318321228, -0.5562461018562317, 0.21896712481975555, -0.005574679467827082],
    "2.weight": [[-0.18213650584220886, 0.1828530728816986, -0.2784474194049835, 0.044525716453790665, -0.3955172002315521]],
    "2.bias": [-0.1678534597158432],
}

model = nn.Sequential(
    nn.Linear(2, 5),
    nn.ReLU(),
    nn.Linear(5, 1)
)
model.load_state_dict({k: torch.tensor(v) for k, v in AG_INIT.items()})
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
