# the tensor API's long tail: narrow, nelement, view_as, new_zeros/ones/full/
# empty/tensor, size= on creation functions, axis=/keepdims= as dim=/keepdim=,
# the legacy constructors LongTensor/FloatTensor/DoubleTensor and
# autograd.Variable (Ag twin: tensor_tail.ag)
from agfmt import P
import torch
from torch.autograd import Variable
def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:
        return str(e)
x = torch.arange(12.).view(3, 4)
P(x.narrow(1, -2, 2), x.narrow(0, 1, 0).shape, torch.narrow(x, 0, torch.tensor(1), 2), x.narrow(1, 4, 0).shape)
P(msg(lambda: x.narrow(1, 3, 2)))
P(msg(lambda: x.narrow(2, 0, 1)))
P(msg(lambda: x.narrow(1, -5, 1)))
P(msg(lambda: x.narrow(0, 0, -1)))
n = x.narrow(1, 1, 2)
n.mul_(10)
P(x)
w = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
w.narrow(0, 1, 2).pow(2).sum().backward()
P(w.grad)
P(torch.autograd.gradcheck(lambda t: t.narrow(0, 1, 2).sin(), [w]), torch.autograd.gradgradcheck(lambda t: t.narrow(0, 1, 2).sin(), [w]))
P(x.nelement(), torch.zeros(0, 3).nelement())
y = torch.arange(6.).requires_grad_()
v = y.view_as(torch.zeros(2, 3))
P(v, v.grad_fn.name())
P(msg(lambda: torch.zeros(2, 3).t().view_as(torch.zeros(6))))
P(x.new_zeros(2, 3), x.long().new_ones((2,)), x.new_full((2,), 7), x.long().new_full([2], 7.9))
P(x.new_tensor([1, 2]), x.new_zeros(2, dtype=torch.int64), x.new_ones([2, 1], dtype=torch.float64))
P(x.new_tensor([1, 2], requires_grad=True), x.new_zeros(size=(1, 2)), x.new_empty(2).shape)
P(torch.zeros(size=(2,)), torch.ones(size=[1, 2], dtype=torch.int64), torch.empty(size=(3,)).shape)
torch.manual_seed(0)
P(torch.rand(size=(3,)), torch.randn(size=[2, 2]), torch.randint(0, 10, size=(4,)), torch.randint(5, size=(3,)))
P(msg(lambda: torch.zeros(2, size=(3,))) != "no error")
P(x.sum(axis=1), x.sum(dim=0, keepdims=True), x.mean(axis=0), x.argmax(axis=1), x.softmax(axis=0)[0])
P(x.std(axis=1, keepdims=True), x.logsumexp(axis=1), x.amax(axis=0, keepdims=True), x.prod(axis=1))
P(torch.LongTensor([1.7, 2.2]), torch.LongTensor(2, 3).shape, torch.FloatTensor([[1, 2]]), torch.DoubleTensor(2).dtype)
P(torch.LongTensor(), torch.FloatTensor([True, False]), torch.DoubleTensor([[1, 2], [3, 4]]))
f = torch.tensor([1.0, 2.0])
torch.FloatTensor(f).add_(1)
P(f)
t = torch.ones(2)
v1 = Variable(t)
v2 = Variable(t, requires_grad=True)
P(v1.requires_grad, v2.requires_grad, t.requires_grad, v2, v2.grad_fn)
v2.data.add_(1)
P(t)
z = torch.ones(2, requires_grad=True) * 2
P(Variable(z).requires_grad, Variable(z).grad_fn, torch.autograd.Variable(z, requires_grad=True).is_leaf)
