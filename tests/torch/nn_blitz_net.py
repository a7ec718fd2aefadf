# The PyTorch blitz tutorial's Net (neural_networks_tutorial), with fixed parameters
from agfmt import P
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x
net = Net()
print(repr(net).replace("True", "true"))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_((torch.sin(torch.arange(p.numel()).float() * 0.37 + i) * 0.2).reshape(p.shape))
params = list(net.parameters())
P(len(params), params[0].size())
input = torch.sin(torch.arange(32 * 32).float() * 0.1).reshape(1, 1, 32, 32)
out = net(input)
P(out)
net.zero_grad()
out.backward(torch.cos(torch.arange(10).float()).reshape(1, 10))
output = net(input)
target = torch.sin(torch.arange(10).float()).view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
P(loss)
P(loss.grad_fn)
P(loss.grad_fn.next_functions[0][0])
P(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad(set_to_none=True)  # Ag's default, as PyTorch 2 (1.13 fills zeros)
P(net.conv1.bias.grad)
loss.backward()
P(net.conv1.bias.grad)
optimizer = optim.SGD(net.parameters(), lr=0.01)
for step in range(3):
    optimizer.zero_grad()
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    P(loss)
P([name for name, _ in net.named_modules()], len(list(net.modules())))
net.double()
P(net.fc1.weight.dtype, net(input.double()).dtype, net.fc1.weight.requires_grad)
