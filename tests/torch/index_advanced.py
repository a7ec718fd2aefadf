# advanced indexing as PyTorch runs it: basic items first (recorded views), then one IndexBackward0;
# PyTorch's result placement, 0-d index tensors as selects, gradients
from agfmt import P
import torch


def tree(g):
    if g is None:
        return "nil"
    name = type(g).__name__
    if name == "AccumulateGrad":
        return "Acc"
    return name + "(" + ", ".join(tree(c) for c, _ in g.next_functions) + ")"


a = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
i = torch.tensor([1, 0])
m = torch.tensor([True, False, True])
r = a[i]
P("a[i]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[:, i]
P("a[:, i]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[0, :, torch.tensor([2, 0])]
P("a[0, :, torch.tensor([2, 0])]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[i, 1]
P("a[i, 1]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[:, m]
P("a[:, m]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[1, m]
P("a[1, m]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[torch.tensor([0, 1])]
P("a[torch.tensor([0, 1])]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[0:2, i]
P("a[0:2, i]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[:, :, torch.tensor([3, 1])]
P("a[:, :, torch.tensor([3, 1])]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[None, i]
P("a[None, i]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[i, :, 1:3]
P("a[i, :, 1:3]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[:, 1, i]
P("a[:, 1, i]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[i, :, torch.tensor([3, 0])]
P("a[i, :, torch.tensor([3, 0])]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[torch.tensor(1)]
P("a[torch.tensor(1)]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
r = a[:, torch.tensor(2)]
P("a[:, torch.tensor(2)]", tree(r.grad_fn), list(r.shape), r.sum().item())
r.sum().backward()
P(a.grad)
with torch.no_grad():
    P(a[0, :, torch.tensor([2, 0])], list(a[:, 1, i].shape))
