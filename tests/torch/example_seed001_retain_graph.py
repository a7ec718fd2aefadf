# PyTorch twin of examples/seed001_retain_graph.ag (Ag spells True as true in the message)
import torch
from agfmt import P

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
y.backward(retain_graph=True)
P("after the first backward:", x.grad)
y.backward()
P("after the second backward:", x.grad)

x.grad = None
w = x ** 2
w.backward()
try:
    w.backward()
except RuntimeError as e:
    P("error:", str(e).replace("retain_graph=True", "retain_graph=true"))

x.grad = None
w2 = x ** 2
w2.backward()
P("after a new forward pass:", x.grad)
