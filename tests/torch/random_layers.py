# PyTorch twin of random_layers.ag: seeded layers, nn.init and Generator objects.
import math
import torch
import torch.nn as nn
from agfmt import P

torch.manual_seed(0)
lin = nn.Linear(3, 2)
P("linear weight", lin.weight.tolist())
P("linear bias", lin.bias.tolist())
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3), nn.ReLU(), nn.Linear(3, 1))
for name, p in model.named_parameters():
    P(name, p.flatten().tolist())
P("no bias", nn.Linear(2, 2, bias=False).weight.tolist())
P("embedding", nn.Embedding(3, 2).weight.tolist())
P("rnn cell", [p.flatten().tolist() for p in nn.RNNCell(2, 3).parameters()])
P("lstm cell", [p.flatten().sum().item() for p in nn.LSTMCell(2, 3).parameters()])

init = nn.init
torch.manual_seed(1)
w = torch.empty(3, 5)
P("gains", [init.calculate_gain(n) for n in ["linear", "sigmoid", "tanh", "relu", "selu"]],
  init.calculate_gain("leaky_relu"), init.calculate_gain("leaky_relu", 0.2))
P("fans", list(init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 5))))
P("uniform_", init.uniform_(w, -2, 3).tolist())
P("normal_", init.normal_(w, 0.5, 2.0).tolist())
P("xavier_uniform_", init.xavier_uniform_(w).tolist())
P("xavier_normal_", init.xavier_normal_(w, gain=2.0).tolist())
P("kaiming_uniform_", init.kaiming_uniform_(w).tolist())
P("kaiming_uniform_ fan_out relu", init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu").tolist())
P("kaiming_normal_", init.kaiming_normal_(w, a=0.1).tolist())
P("kaiming 4d", init.kaiming_uniform_(torch.empty(2, 3, 2, 2), a=math.sqrt(5)).flatten().tolist())
P("constant_", init.constant_(torch.empty(2), 0.25).tolist())
P("eye_", init.eye_(torch.empty(2, 3)).long().tolist())
P("zeros_ ones_", init.zeros_(torch.empty(2)).long().tolist(), init.ones_(torch.empty(2)).long().tolist())

# Generators: their own streams, state save and restore
g = torch.Generator()
P("fresh generator seed", g.initial_seed())
g.manual_seed(2147483647)
P("generator rand", torch.rand(3, generator=g).tolist())
P("generator randn", torch.randn(20, generator=g)[:4].tolist())
P("generator randint", torch.randint(0, 27, (5,), generator=g).tolist())
P("generator randperm", torch.randperm(6, generator=g).tolist())
P("generator multinomial", torch.multinomial(torch.tensor([0.1, 0.5, 0.4]), 6, replacement=True, generator=g).tolist())
P("generator normal_", torch.empty(3).normal_(generator=g).tolist())
P("generator uniform_", torch.empty(3).uniform_(-1, 1, generator=g).tolist())
P("generator bernoulli", torch.bernoulli(torch.full((6,), 0.5), generator=g).long().tolist())
P("generator exponential_", torch.empty(2).exponential_(generator=g).tolist())
s = g.get_state()
P("state size", s.numel())
a = torch.randn(3, generator=g).tolist()
g.set_state(s)
P("restored", torch.randn(3, generator=g).tolist() == a)
torch.manual_seed(5)
torch.randn(1)  # leaves Box-Muller's second value in the cache
s = torch.get_rng_state()
P("state bytes", s[:20].long().tolist(), s[5040:5056].long().tolist())
b = torch.randn(2).tolist()
torch.set_rng_state(s)
P("restored with cache", torch.randn(2).tolist() == b)
torch.manual_seed(-1)
P("negative seed", torch.initial_seed() == 2**64 - 1, torch.rand(2).tolist())
torch.manual_seed(3.7)
P("float seed truncated", torch.initial_seed(), torch.rand(1).tolist())
P("returns a generator", type(torch.manual_seed(0)).__name__ == "Generator")

# trunc_normal_ (uniforms through erfinv) and erfinv_ itself
for seed, shape, dt in [(0, (3, 5), torch.float32), (1, (17,), torch.float32), (2, (16,), torch.float64)]:
    torch.manual_seed(seed)
    P("trunc_normal_", seed, init.trunc_normal_(torch.empty(shape, dtype=dt), std=0.02).flatten().tolist())
    P("trunc_normal_ wide", seed, init.trunc_normal_(torch.empty(shape, dtype=dt), 0.5, 2.0, -1, 3).flatten().tolist())
    P("erfinv_", torch.empty(shape, dtype=dt).uniform_(-0.999, 0.999).erfinv_().flatten().tolist())
P("erfinv_ edges", torch.tensor([-1.0, 1.0, 0.7, -0.7]).erfinv_().tolist())
P("erf", math.erf(0.5), math.erf(-1.25))

# nn.Dropout's mask while training, the identity in eval mode
torch.manual_seed(4)
drop = nn.Dropout(0.25)
x = torch.rand(2, 9)
P("dropout module", (drop(x) + 0.125).flatten().tolist())
drop.eval()
P("dropout eval", drop(x).tolist() == x.tolist())

# orthogonal_: the Q of a normal matrix's QR (LAPACK's geqrf/orgqr), signs from R
torch.manual_seed(6)
P("orthogonal_ wide", init.orthogonal_(torch.empty(3, 5)).flatten().tolist())
P("orthogonal_ tall", init.orthogonal_(torch.empty(6, 2, dtype=torch.float64), gain=1.5).flatten().tolist())
P("orthogonal_ 3d", init.orthogonal_(torch.empty(4, 2, 3)).flatten().tolist())
big = init.orthogonal_(torch.empty(40, 70)).flatten().tolist()
s = 0.0
for v in big:
    s += v * v
P("orthogonal_ big", big[::101], s)
