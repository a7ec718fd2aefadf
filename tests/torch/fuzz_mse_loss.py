# mse_loss: gradients of both operands as PyTorch's mse_loss_backward (a zero difference gives +0);
# an int64 or bool operand is promoted; l1_loss keeps the errors and dtypes of (a - b).abs()
import torch
import torch.nn.functional as F
from agfmt import P
x = torch.tensor([1.5, 0.5, 0.25], requires_grad=True)
y = torch.tensor([-0.75, 0.5, 0.25], requires_grad=True)
F.mse_loss(x, y).backward()
P(x.grad, y.grad)
c = torch.tensor([[1, -0.5, 0.5], [-0.75, -1, -0.75]], dtype=torch.float64)
z = torch.tensor([[4, 0.25, 0.5], [1, -2, -0.75]], dtype=torch.float64, requires_grad=True)
F.mse_loss(c, z, reduction="sum").backward()
P(z.grad)
f = torch.tensor([0.5, -1.25])
i = torch.tensor([1, 2])
b = torch.tensor([True, False])
def show(g):
    try:
        r = g()
        P(r, r.dtype)
    except Exception as e:
        P("error:", str(e))
show(lambda: F.mse_loss(f, i))
show(lambda: F.mse_loss(b, f.double(), reduction="none"))
show(lambda: F.mse_loss(i, i))
show(lambda: F.mse_loss(i, b))
show(lambda: F.l1_loss(f.double(), i))
show(lambda: F.l1_loss(i, i, reduction="none"))
show(lambda: F.l1_loss(i, i))
