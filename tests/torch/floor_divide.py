from agfmt import P
import torch
x = torch.tensor([5.0, -6.0, 7.5, -0.5], requires_grad=True)
t = torch.tensor([2.0, 4.0, -2.0, 1.0], requires_grad=True)
y = x // 2
P(y, y.grad_fn, y.grad_fn.next_functions)
P((x // t).grad_fn.next_functions, (x.detach() // t).grad_fn.next_functions)
r = 7 // x
P(r, r.grad_fn.next_functions)
try:
    y.sum().backward()
except RuntimeError as err:
    P(str(err))
P(torch.tensor([5, -6, 7]) // 2, torch.tensor([5, -6, 7]) // -2, torch.tensor([5, 6]) // 2.5)
P(torch.tensor([5, -6]) // torch.tensor([2.0, 4.0]), 7 // torch.tensor([2, -3]), 7.5 // torch.tensor([2, 3]))
P(torch.tensor([1.0, -1.0, 0.0]) // 0, torch.tensor([-0.5, 0.5]) // 1, torch.tensor([0.5]) // -1)
P(torch.tensor([True, False]) // 2, True // torch.tensor([2, 3]), torch.tensor([5, 6]) // torch.tensor(True))
P(torch.tensor([5.0, 7.0], dtype=torch.float64) // torch.tensor([-2.0, 0.5], dtype=torch.float64))
P(torch.floor_divide(torch.tensor([5.0, 7.0]), 2), torch.tensor([5.0]).floor_divide(torch.tensor([-2.0])))
a = torch.tensor([5, -7])
a //= 2
P(a)
b = torch.tensor([7.0, -7.0])
b.floor_divide_(2)
P(b)
z = x * 1
z //= 2
P(z, z.grad_fn, z.grad_fn.next_functions)
try:
    P(torch.tensor([True]) // torch.tensor([True]))
except RuntimeError as err:
    P(str(err))
try:
    P(torch.tensor([5, 6]) // 0)
except RuntimeError as err:
    P(str(err))
try:
    w = torch.tensor([5, 6])
    w //= 2.5
except RuntimeError as err:
    P(str(err))
try:
    x //= 2
except RuntimeError as err:
    P(str(err))
