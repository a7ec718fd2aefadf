# PyTorch twin of examples/seed004_control_flow.ag
import torch
from agfmt import fmt


def dynamic_computation(x, condition):
    result = x * 2
    if condition > 0:
        result = result * x
    else:
        result = result + x
    return result


x = torch.tensor(3.0, requires_grad=True)
y_positive = dynamic_computation(x, 1)
y_positive.backward()
grad_positive = x.grad.clone()
x.grad.zero_()
y_negative = dynamic_computation(x, -1)
y_negative.backward()
grad_negative = x.grad.clone()
print(f"x: {fmt(x)}")
print(f"y when condition > 0: {fmt(y_positive)}")
print(f"Gradient when condition > 0: {fmt(grad_positive)}")
print(f"y when condition <= 0: {fmt(y_negative)}")
print(f"Gradient when condition <= 0: {fmt(grad_negative)}")
