# PyTorch twin of examples/seed000_no_grad.ag
import torch
from agfmt import P, fmt

weights = torch.tensor([0.5, -1.0, 2.0, 0.0, 1.0], requires_grad=True)


def dynamic_model(x, threshold=0.5):
    result = 0
    for val in x:
        if val > threshold:
            result += val * weights[0]
        else:
            result += val * weights[1]
    return result


input_data = torch.tensor([0.1, 0.8, 0.2, 0.9])
with torch.no_grad():
    prediction = dynamic_model(input_data)
    P("grad mode inside no_grad:", torch.is_grad_enabled())
P("grad mode after the block:", torch.is_grad_enabled())
P("prediction:", prediction)
print(f"requires_grad: {fmt(prediction.requires_grad)}, grad_fn: {fmt(prediction.grad_fn)}")
try:
    prediction.backward()
except RuntimeError as e:
    P("backward() fails:", str(e))
loss = dynamic_model(input_data)
P("with grad:", loss)
loss.backward()
P("weights.grad:", weights.grad)
