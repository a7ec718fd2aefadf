# PyTorch twin of examples/seed001_inspect_graph.ag
import torch
from agfmt import P

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = y * 3
P(z.grad_fn)
P(z.grad_fn.next_functions)
pow_node = z.grad_fn.next_functions[0][0]
P(pow_node, "is y.grad_fn:", pow_node is y.grad_fn)
P(pow_node.next_functions)
acc = pow_node.next_functions[0][0]
P(acc, acc.variable)
P("x:", x.is_leaf, x.grad_fn)
P("y:", y.is_leaf, y.grad_fn)
P("z:", z.is_leaf, z.grad_fn)
