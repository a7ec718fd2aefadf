# functorch 1.13's jvp and jacfwd (forward mode), and jacfwd(jacrev(f)) as a Hessian
import torch
import functorch as ft
from agfmt import P

torch.manual_seed(0)
x = torch.randn(3, dtype=torch.float64)
y = torch.randn(3, dtype=torch.float64)
t = torch.randn(3, dtype=torch.float64)


def f(a, b):
    return a.sin() * b + (a @ b) * a


out, jvp_out = ft.jvp(f, (x, y), (t, torch.zeros(3, dtype=torch.float64)))
P(out)
P(jvp_out)
out, jvp_out = ft.jvp(lambda a: a.exp().sum(), (x,), (t,))
P(out, jvp_out)
P(ft.jacfwd(f)(x, y))
P(ft.jacfwd(f, argnums=1)(x, y))
P(ft.jacfwd(lambda a: a.softmax(0))(x))
P(ft.jacfwd(ft.jacrev(lambda a: (a ** 3).sum() + a.prod()))(x))
P(ft.hessian(lambda a: (a ** 3).sum() + a.prod())(x))
m = torch.randn(2, 3, dtype=torch.float64)
P(ft.jacfwd(lambda w: torch.tanh(w @ x))(m).shape)
try:
    ft.jvp(f, x, t)
except RuntimeError as e:
    P(str(e))
