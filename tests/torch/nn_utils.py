from agfmt import P
import torch
nn = torch.nn
def grads():
    w = torch.tensor([[0.5, -1.5, 2.0], [0.25, 3.0, -0.75]], requires_grad=True)
    b = torch.tensor([1.0, -2.0], requires_grad=True)
    frozen = torch.tensor([1.0], requires_grad=True)
    ((w @ torch.tensor([1.0, 2.0, -1.0]) + b) ** 3).sum().backward()
    return [w, b, frozen]
for norm_type in [2, 1, float("inf"), 3.5]:
    ps = grads()
    total = nn.utils.clip_grad_norm_(ps, 5.0, norm_type=norm_type)
    P(total.item(), ps[0].grad.tolist(), ps[1].grad.tolist(), ps[2].grad)
ps = grads()
P(nn.utils.clip_grad_norm_(ps[0], 1000.0).item(), ps[0].grad.tolist())
P(nn.utils.clip_grad_norm_([ps[2]], 1.0))
ps = grads()
nn.utils.clip_grad_value_(ps, 10.0)
P(ps[0].grad.tolist(), ps[1].grad.tolist())
model = nn.Linear(3, 2)
v = nn.utils.parameters_to_vector(model.parameters())
P(list(v.shape), v.grad_fn)
nn.utils.vector_to_parameters(torch.arange(8) * 0.5, model.parameters())
P(model.weight.detach())
P(model.bias.detach())
