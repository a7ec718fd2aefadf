# NumPy as PyTorch lessons use it (twin numpy_bridge.ag): NumPy's default
# dtypes, its functions on numbers and arrays, the legacy numpy.random, and
# the bridge from_numpy / Tensor.numpy() sharing storage. Arrays are printed
# as the tensors Ag's arrays are (torch.from_numpy), scalars as floats.
from agfmt import P, msg
import numpy as np
import torch


def A(a):
    return torch.from_numpy(np.asarray(a))


def S(x):
    return x.item() if hasattr(x, "item") else x


P(A(np.array([[1, 2], [3, 4]])), A(np.array([1.5, 2])), A(np.array([3.3], dtype=np.float32)))
P(A(np.array([True, False])), A(np.array([1, 2], dtype=np.float64)), A(np.asarray([0.1, 0.2])))
P(S(np.exp(1.0)), S(np.exp(2)), S(np.log(1.0)), S(np.sqrt(2)), S(np.tanh(0.5)), S(np.abs(-3)))
P(A(np.exp([0.0, 1.0])), A(np.sqrt(np.array([4, 9]))), A(np.log2(np.array([1.0, 8.0]))), A(np.sin(np.array([0.5]))))
P(A(np.abs(np.array([-1, 2]))), A(np.square(np.array([3, -2]))), A(np.floor(np.array([1.5, -1.5]))))
P(A(np.zeros(3)), A(np.ones((2, 2))), A(np.zeros(2, dtype=np.int64)), A(np.eye(2)), A(np.full((2,), 7)))
P(A(np.arange(5)), A(np.arange(2, 8, 3)), A(np.arange(0.0, 1.0, 0.25)), A(np.linspace(0, 1, 5)))
P(A(np.linspace(0, 1, 4, endpoint=False)))
x = np.array([[1.0, 5.0], [3.0, 2.0]])
P(S(np.sum(x)), S(np.mean(np.array([1, 2]))), S(np.max(x)), S(np.min(x)), S(np.argmax(x)))
P(A(np.sum(x, axis=0)), A(np.mean(x, axis=1)), A(np.max(x, axis=1)), A(np.argmin(x, axis=0)))
P(A(np.dot(x, x)), A(np.matmul(x, np.array([1.0, 1.0]))), A(np.maximum(x, 2.5)), A(np.clip(x, 2, 4)))
P(A(np.reshape(np.arange(6), (2, 3))), A(np.transpose(x)), A(np.concatenate([x, x])), A(np.stack([x, x], axis=1)).shape)
np.random.seed(0)
P(S(np.random.rand()), A(np.random.rand(3)), A(np.random.randn(2, 2)), S(np.random.randn()))
P(A(np.random.random((2,))), A(np.random.normal(1.0, 2.0, 3)), A(np.random.uniform(-1, 1, size=2)))
np.random.seed(12345)
P(A(np.random.randn(5)), A(np.random.rand(2, 3)))
P(msg(lambda: np.random.seed(-1)))
# the bridge: one storage, and no graph in a NumPy array
a = np.zeros(3)
t = torch.from_numpy(a)
t[0] = 5
P(A(a), t.dtype)
u = torch.ones(2)
v = u.numpy()
v[1] = 3
P(u, A(v))
w = torch.ones(2, requires_grad=True)
P(msg(lambda: w.numpy()))
P(A(w.detach().numpy()))
P(torch.tensor([1.0]).is_floating_point(), torch.tensor([1]).is_floating_point(), torch.is_floating_point(torch.zeros(1, dtype=torch.float64)))
np.save("/tmp/ag_numpy_bridge", np.arange(3.0))
P(A(np.load("/tmp/ag_numpy_bridge.npy")))
