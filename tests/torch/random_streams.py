# PyTorch twin of random_streams.ag: every random function of SPEC §12 over
# sizes 1, 2, 15, 16, 17, 1000 and several seeds, each value at full precision.
import torch
from agfmt import P

SIZES = [1, 2, 15, 16, 17, 1000]
SEEDS = [0, 1, 42, 2147483647]


def show(name, t):
    v = t.tolist()
    if len(v) <= 17:
        P(name, v)
        return
    s = 0.0
    for x in v:
        s += x
    P(name, v[::97], v[-17:], s)


for seed in SEEDS:
    for n in SIZES:
        for dt in [torch.float32, torch.float64]:
            d = "f32" if dt == torch.float32 else "f64"
            torch.manual_seed(seed)
            show(f"rand {seed} {n} {d}", torch.rand(n, dtype=dt))
            show(f"randn {seed} {n} {d}", torch.randn(n, dtype=dt))
            show(f"randn again {seed} {n} {d}", torch.randn(n, dtype=dt))
            show(f"uniform_ {seed} {n} {d}", torch.empty(n, dtype=dt).uniform_(-0.37, 0.55))
            show(f"normal_ {seed} {n} {d}", torch.empty(n, dtype=dt).normal_(0.3, 1.7))
            show(f"exponential_ {seed} {n} {d}", torch.empty(n, dtype=dt).exponential_(1.5))
            show(f"bernoulli p {seed} {n} {d}", torch.bernoulli(torch.rand(n, dtype=dt)).long())
            show(f"bernoulli_ {seed} {n} {d}", torch.empty(n, dtype=dt).bernoulli_(0.3).long())
            show(f"dropout {seed} {n} {d}", torch.nn.functional.dropout(torch.rand(n, dtype=dt), 0.3) + 0.25)
        torch.manual_seed(seed)
        show(f"randint {seed} {n}", torch.randint(3, 13, (n,)))
        show(f"randint wide {seed} {n}", torch.randint(-2**40, 2**40, (n,)))
        show(f"randint f32 {seed} {n}", torch.randint(0, 7, (n,), dtype=torch.float32).long())
        show(f"randperm {seed} {n}", torch.randperm(n))
        for dt in [torch.float32, torch.float64]:
            w = torch.rand(n, dtype=dt) + 0.01
            show(f"multinomial 1 {seed} {n}", torch.multinomial(w, 1))
            show(f"multinomial rep {seed} {n}", torch.multinomial(w, 20, True))
            show(f"multinomial norep {seed} {n}", torch.multinomial(w, min(n, 5)))

# 2-D shapes, strided fills and the Box-Muller cache
torch.manual_seed(3)
show("randn 2d", torch.randn(3, 5).flatten())
show("randn 4x4", torch.randn(4, 4).flatten())
t = torch.zeros(4, 5).t()
t.normal_()
show("normal_ transposed", t.flatten())
t = torch.zeros(6, 4)[:, ::2]
t.uniform_()
show("uniform_ strided", t.flatten())
show("randn 1", torch.randn(1))
show("randn 1 cached", torch.randn(1))
torch.manual_seed(3)
torch.randn(1)
torch.manual_seed(3)
show("cache cleared by manual_seed", torch.randn(1))
w = torch.rand(3, 6) + 0.1
show("multinomial 2d", torch.multinomial(w, 4).flatten())
show("multinomial 2d rep", torch.multinomial(w, 7, replacement=True).flatten())
show("bernoulli 2d", torch.bernoulli(torch.rand(3, 4, dtype=torch.float64)).long().flatten())
w = torch.rand(6, 3).t()
show("multinomial transposed", torch.multinomial(w, 2).flatten())
show("multinomial sliced", torch.multinomial(torch.rand(4, 6)[:, 1:5], 3).flatten())
show("multinomial transposed rep", torch.multinomial(w, 4, replacement=True).flatten())
torch.manual_seed(11)
show("random_ int64", torch.empty(4, dtype=torch.int64).random_())
show("random_ float32", torch.empty(3).random_())
show("random_ float64", torch.empty(3, dtype=torch.float64).random_())
show("random_ bool", torch.empty(6, dtype=torch.bool).random_().long())
show("random_ to", torch.empty(5, dtype=torch.int64).random_(7))
show("random_ from to", torch.empty(5).random_(-3, 3))
show("random_ wide", torch.empty(3, dtype=torch.int64).random_(-2**40, 2**40))
g = torch.Generator()
g.manual_seed(5)
show("random_ generator", torch.empty(3, dtype=torch.int64).random_(100, generator=g))
show("random_ strided", torch.zeros(3, 4, dtype=torch.int64).t().random_(1000).flatten())
