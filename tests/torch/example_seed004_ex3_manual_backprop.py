# PyTorch twin of examples/seed004_ex3_manual_backprop.ag
import torch
from agfmt import P

X = torch.tensor([[0.5, -1.0], [1.5, 0.25], [-0.5, 2.0], [1.0, 1.0]])
Y = torch.tensor([[1.0], [0.0], [0.5], [-0.5]])
W1 = torch.tensor([[0.2, -0.3, 0.5], [0.4, 0.1, -0.2]], requires_grad=True)
b1 = torch.tensor([0.1, -0.1, 0.05], requires_grad=True)
W2 = torch.tensor([[0.3], [-0.6], [0.8]], requires_grad=True)
b2 = torch.tensor([0.2], requires_grad=True)
params = [W1, b1, W2, b2]


def forward():
    h_pre = X @ W1 + b1
    h = torch.relu(h_pre)
    out = h @ W2 + b2
    loss = ((out - Y) ** 2).mean()
    return {"h_pre": h_pre, "h": h, "out": out, "loss": loss}


def manual_backward(v):
    n = v["out"].numel()
    d_out = 2 * (v["out"] - Y) / n
    dW2 = v["h"].T @ d_out
    db2 = d_out.sum(dim=0)
    d_h = d_out @ W2.T
    d_hpre = d_h * (v["h_pre"] > 0)
    dW1 = X.T @ d_hpre
    db1 = d_hpre.sum(dim=0)
    return [dW1, db1, dW2, db2]


v = forward()
print(f"initial loss: {v['loss'].item():.4f}")
v["loss"].backward()
grads = manual_backward(v)
names = ["W1", "b1", "W2", "b2"]
for i, p in enumerate(params):
    same = (grads[i] - p.grad).abs().max().item() < 1e-6
    print(f"d loss / d {names[i]} matches autograd: {'true' if same else 'false'}")
P("dW1 by hand:", grads[0].detach())
with torch.no_grad():
    for step in range(1, 151):
        state = forward()
        g = manual_backward(state)
        for i, p in enumerate(params):
            p.sub_(0.1 * g[i])
        if step % 25 == 0:
            print(f"step {step}: loss {state['loss'].item():.4f}")
    error = (forward()["out"] - Y).abs().max().item()
    P("every prediction within 0.05 of its target:", error < 0.05)
