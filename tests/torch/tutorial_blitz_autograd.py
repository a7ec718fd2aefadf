# The PyTorch 60-minute blitz's "Autograd: automatic differentiation"
# (beginner_source/blitz/autograd_tutorial.py); seeded, printed through agfmt.
from agfmt import P, fmt
import torch

torch.manual_seed(0)

###############################################################
# Create a tensor and set requires_grad=True to track computation with it
x = torch.ones(2, 2, requires_grad=True)
P(x)

###############################################################
# Do an operation of tensor:
y = x + 2
P(y)

###############################################################
# ``y`` was created as a result of an operation, so it has a ``grad_fn``.
P(y.grad_fn)

###############################################################
# Do more operations on y
z = y * y * 3
out = z.mean()

P(z, out)

################################################################
# ``.requires_grad_( ... )`` changes an existing Tensor's ``requires_grad``
# flag in-place. The input flag defaults to ``True`` if not given.
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
P(a.requires_grad)
a.requires_grad_(True)
P(a.requires_grad)
b = (a * a).sum()
P(b.grad_fn)

###############################################################
# Gradients
# ---------
# Let's backprop now
# Because ``out`` contains a single scalar, ``out.backward()`` is
# equivalent to ``out.backward(torch.tensor(1))``.

out.backward()

###############################################################
# print gradients d(out)/dx
#

P(x.grad)

###############################################################
# You can do many crazy things with autograd!


x = torch.randn(3, requires_grad=True)

y = x * 2
while y.data.norm() < 1000:
    y = y * 2

P(y)

###############################################################
#
gradients = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(gradients)

P(x.grad)

###############################################################
# You can also stops autograd from tracking history on Tensors
# with requires_grad=True by wrapping the code block in
# ``with torch.no_grad():``
P(x.requires_grad)
P((x ** 2).requires_grad)

with torch.no_grad():
    P((x ** 2).requires_grad)

# The tutorial as it reads today ("A Gentle Introduction to torch.autograd"),
# its code up to the torchvision model it fine-tunes:
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
# check if collected gradients are correct
P(9*a**2 == a.grad)
P(-2*b == b.grad)

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)

a = x + y
P(f"Does `a` require gradients?: {fmt(a.requires_grad)}")
b = x + z
P(f"Does `b` require gradients?: {fmt(b.requires_grad)}")
