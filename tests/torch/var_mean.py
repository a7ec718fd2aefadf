# var_mean and std_mean: PyTorch's one Welford pass (its bits, not var()'s
# and mean()'s two passes), every argument form (dim, unbiased, correction,
# keepdim, the unbiased-only overload), float32 and float64, gradients;
# var/std with correction; torch.finfo and torch.iinfo.
# bit-exact on: avx2
# tolerance: rtol=1e-12 atol=1e-14
import torch
from agfmt import P, fmt

torch.manual_seed(0)
x32 = torch.randn(5, 9) * 3 + 1.7
x64 = torch.randn(3, 40, 17, dtype=torch.float64) * 2 - 0.3
long1 = torch.randn(1000, dtype=torch.float64) + 5
for x in [x32, x64, long1]:
    for f in [torch.var_mean, torch.std_mean]:
        v, m = f(x)
        print(fmt(v.item()), fmt(m.item()))
        for d in range(x.dim()):
            for c in [0, 1, 2]:
                v, m = f(x, d, correction=c)
                print(d, c, fmt(v.flatten()[:4].tolist()), fmt(m.flatten()[:4].tolist()))
P(*torch.var_mean(x32, [0, 1], False, True))
P(*torch.std_mean(x32, False))
P(*torch.var_mean(x32, dim=1, unbiased=False, keepdim=True))
P(*torch.std_mean(x32, (0,), keepdim=True, correction=3))
print(fmt(torch.var_mean(x32[:1, :1], None, correction=1)))  # one element: var nan
print(fmt(torch.var_mean(x32[:2, :2], None, correction=5)))  # N - correction < 0: inf
print(fmt(type(torch.var_mean(x32)).__name__))
print(fmt(x32.var(1, correction=2).tolist()), fmt(torch.std(x32, 0, correction=0).tolist()))
# gradients: var's (std's) and mean's add up
for f in [torch.var_mean, torch.std_mean]:
    a = x32.clone().requires_grad_()
    v, m = f(a, 1, correction=0)
    (v.sum() + 3 * m.sum()).backward()
    print(fmt(a.grad[:2].tolist()))
    b = x64[0].clone().requires_grad_()
    v, m = f(b)
    (v * m).backward()
    print(fmt(b.grad[:2, :3].tolist()))
# limits
for d in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    fi = torch.finfo(d)
    print(fi)
    print(fmt(fi.eps), fmt(fi.max), fmt(fi.min), fmt(fi.tiny), fmt(fi.smallest_normal),
          fmt(fi.resolution), fi.bits, fi.dtype)
for d in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]:
    ii = torch.iinfo(d)
    print(ii, ii.bits, ii.min, ii.max, ii.dtype)
print(torch.finfo())
print(fmt(torch.finfo(torch.float32) == torch.finfo(torch.float32)))
print(fmt(torch.ones(1) + torch.finfo(torch.float32).eps > 1), fmt(torch.iinfo(torch.int64).max > 2 ** 62))
for call in [lambda: torch.finfo(torch.int64), lambda: torch.iinfo(torch.float32),
             lambda: torch.iinfo(torch.bool)]:
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
