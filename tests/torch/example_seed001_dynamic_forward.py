# PyTorch twin of examples/seed001_dynamic_forward.ag
import torch
from agfmt import P


def dynamic_forward(x, use_extra_layer):
    y = x * 2
    if use_extra_layer:
        y = y + 1
    return y


x = torch.tensor(3.0, requires_grad=True)
result = dynamic_forward(x, use_extra_layer=True)
result.backward()
P(x.grad)
P("with the extra layer:", result, result.grad_fn)

x2 = torch.tensor(3.0, requires_grad=True)
result2 = dynamic_forward(x2, use_extra_layer=False)
result2.backward()
P(x2.grad)
P("without it:", result2, result2.grad_fn)
