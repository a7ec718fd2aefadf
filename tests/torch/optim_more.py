# Adadelta, Adamax, NAdam, RAdam, ASGD and Rprop step by step against PyTorch 1.13,
# every parameter's float32 bits after each of 8 steps (gradients that change sign, so
# Rprop's step sizes shrink and grow), their options; ASGD's running average; and
# state_dict() / load_state_dict() resuming mid-run
# bit-exact on: avx2
# tolerance: rtol=1e-6 atol=1e-7
import torch
import torch.optim as optim
from agfmt import P, msg
a0 = [0.5, -1.25, 2.0, 0.3, -0.7, 1.1, 0.05, -2.2, 0.9, 1.7, -0.45, 0.33, 0.61, -1.9, 0.12, 0.8, -0.02]
b0 = [[0.2, -0.4, 0.6], [1.5, -0.1, 0.05]]
def make():
    return [torch.tensor(a0, requires_grad=True), torch.tensor(b0, requires_grad=True)]
def set_grads(ps, k):
    with torch.no_grad():
        for i, p in enumerate(ps):
            p.grad = p * (0.3 - 0.1 * k) + (0.05 * (i + 1) - 0.02 * k)
def run(name, ps, opt, steps=8):
    P(name)
    for k in range(steps):
        set_grads(ps, k)
        opt.step()
        for p in ps:
            P(p.tolist())
cases = [
    ["Adadelta", lambda ps: optim.Adadelta(ps)],
    ["Adadelta options", lambda ps: optim.Adadelta(ps, lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1, maximize=True)],
    ["Adamax", lambda ps: optim.Adamax(ps)],
    ["Adamax options", lambda ps: optim.Adamax(ps, lr=0.01, betas=[0.8, 0.95], eps=1e-6, weight_decay=0.05, maximize=True)],
    ["NAdam", lambda ps: optim.NAdam(ps)],
    ["NAdam options", lambda ps: optim.NAdam(ps, lr=0.01, betas=[0.85, 0.99], weight_decay=0.1, momentum_decay=0.01)],
    ["RAdam", lambda ps: optim.RAdam(ps, lr=0.01)],
    ["RAdam short", lambda ps: optim.RAdam(ps, lr=0.02, betas=[0.5, 0.9], weight_decay=0.05)],
    ["ASGD", lambda ps: optim.ASGD(ps)],
    ["ASGD averaging", lambda ps: optim.ASGD(ps, lr=0.05, lambd=0.01, alpha=0.5, t0=2, weight_decay=0.01, maximize=True)],
    ["Rprop", lambda ps: optim.Rprop(ps)],
    ["Rprop options", lambda ps: optim.Rprop(ps, lr=0.05, etas=[0.3, 1.5], step_sizes=[0.01, 0.2], maximize=True)],
]
for c in cases:
    ps = make()
    run(c[0], ps, c[1](ps))
opt = optim.ASGD(make(), lr=0.05, t0=2)
ps = opt.param_groups[0]["params"]
run("ASGD state", ps, opt, 5)
P(opt.state[ps[0]]["ax"].tolist(), opt.state[ps[0]]["eta"].item(), opt.state[ps[0]]["mu"].item(), opt.state[ps[0]]["step"].item())
for make_opt in [lambda ps: optim.Adadelta(ps), lambda ps: optim.NAdam(ps, lr=0.01), lambda ps: optim.Rprop(ps, lr=0.05)]:
    ps = make()
    opt = make_opt(ps)
    for k in range(3):
        set_grads(ps, k)
        opt.step()
    copies = [p.detach().clone().requires_grad_() for p in ps]
    resumed = make_opt(copies)
    resumed.load_state_dict(opt.state_dict())
    for k in range(3, 6):
        set_grads(ps, k)
        opt.step()
        set_grads(copies, k)
        resumed.step()
    P(ps[0].tolist() == copies[0].tolist(), ps[1].tolist() == copies[1].tolist(), ps[0].tolist())
p = [torch.zeros(2, requires_grad=True)]
P(msg(lambda: optim.Adadelta(p, rho=1.5)), msg(lambda: optim.Rprop(p, etas=(1.5, 2.0))), msg(lambda: optim.NAdam(p, momentum_decay=-1)))
P(msg(lambda: optim.Adamax(p, betas=(1.0, 0.9))), msg(lambda: optim.RAdam(p, lr=-1)), msg(lambda: optim.ASGD(p, weight_decay=-1)))
