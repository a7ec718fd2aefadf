# log_softmax forward and backward in float64 and float32 on the last dim, on other dims
# (ATen's _vec_logsoftmax: SLEEF's exp in vector lanes, the C library's exp in each chunk's
# scalar tail, SLEEF's log for every sum), on a size-1 inner dim and on transposed inputs;
# every value at full precision (tolist)
# bit-exact on: avx2
# tolerance: rtol=1e-6 atol=1e-7
import torch
from agfmt import P


def data(n, k):
    a = torch.arange(n, dtype=torch.float64)
    return ((a * k) % 1013 - 506) / 97 + 1 / (a + 3)


# last: how many positions of the last dim to print (all of them when None)
def run(shape, dim, dt, transpose, last=None):
    n = 1
    for s in shape:
        n *= s
    x = data(n, 7919).reshape(shape).to(dt).requires_grad_()
    g = data(n, 3571).reshape(shape).to(dt)
    xi, gi = (x.transpose(0, 1), g.transpose(0, 1)) if transpose else (x, g)
    y = xi.log_softmax(dim)
    P(dt, shape, dim, transpose, y.grad_fn)
    y.backward(gi)
    if last is None:
        P(y.tolist())
        P(x.grad.tolist())
    else:
        w = shape[-1]
        P(y.detach()[:, :, w - last:].tolist())
        P(x.grad[:, :, w - last:].tolist())


for dt in [torch.float64, torch.float32]:
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 13, 37, 100]:
        run([3, n], -1, dt, False)
    run([5, 6], 0, dt, False)
    run([4, 9, 3], 1, dt, False)
    run([3, 11, 1], 1, dt, False)
    run([2, 13, 10], 1, dt, False)
    run([6, 7], 0, dt, True)
    run([5, 12, 2], 1, dt, True)
    # 400 rows of 45 positions: ATen's chunks of positions are 40 wide in float64 (the
    # last 5 positions a chunk of their own: one vector of 4, one scalar), 80 in float32
    run([1, 400, 45], 1, dt, False, 6)
