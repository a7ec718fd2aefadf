from agfmt import P
import math
import torch
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
linear = torch.nn.Linear(3, 1)
model = torch.nn.Sequential(linear, torch.nn.Flatten(0, 1))
with torch.no_grad():
    linear.weight.copy_(torch.tensor([[0.25, -0.5, 0.125]]))
    linear.bias.fill_(0.5)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-6
for t in range(2000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        P(f"{t} {loss.item():.5g}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
P(f'Result: y = {linear.bias.item():.4f} + {linear.weight[:, 0].item():.4f} x + {linear.weight[:, 1].item():.4f} x^2 + {linear.weight[:, 2].item():.4f} x^3')
P(linear.weight._version, linear.weight.is_leaf)
