# PyTorch twin of examples/seed000_dynamic_model.ag
import torch
from agfmt import P, fmt

torch.manual_seed(0)
weights = torch.randn(5, requires_grad=True)


def dynamic_model(x, threshold=0.5):
    result = 0
    for val in x:
        if val > threshold:
            result += val * weights[0]
        else:
            result += val * weights[1]
    return result


input_data = torch.tensor([0.1, 0.8, 0.2, 0.9])
loss = dynamic_model(input_data)
loss.backward()
print(f"Gradients for weights: {fmt(weights.grad)}")
P("weights.grad is set:", weights.grad is not None)

weights.grad = None
loss2 = dynamic_model(torch.tensor([0.7, 0.6, 0.9]))
loss2.backward()
print(f"Gradients for another input: {fmt(weights.grad)}")

weights.grad = None
loss3 = dynamic_model(torch.tensor([0.7, 0.6]), threshold=0.65)
loss3.backward()
print(f"With threshold 0.65: {fmt(weights.grad)}")
