# PyTorch twin of examples/seed004_custom_relu.ag
import torch
from agfmt import P, fmt


class CustomReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        output = input.clamp(min=0)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


input = torch.tensor([-1.5, 0.0, 2.0, -0.25, 0.75], requires_grad=True)
output = CustomReLU.apply(input)
print(f"Input: {fmt(input)}")
print(f"Output after CustomReLU: {fmt(output)}")
output.sum().backward()
print(f"Gradient of input: {fmt(input.grad)}")
input2 = input.detach().clone().requires_grad_(True)
output2 = torch.relu(input2)
output2.sum().backward()
P("same output as relu:", (output == output2).all().item())
print(f"relu's gradient: {fmt(input2.grad)}")
