# Optimizers step by step against PyTorch 1.13, every parameter's float32 bits after each
# of 5 steps: SGD (momentum, dampening, nesterov, weight_decay, maximize), Adam and AdamW
# (amsgrad, weight_decay, maximize), RMSprop (alpha, centered, momentum), Adagrad (lr_decay,
# initial_accumulator_value, weight_decay); parameter groups with their own options,
# add_param_group, state_dict() / load_state_dict() resuming mid-run; the fused updates
# add_(alpha=), addcmul_ and addcdiv_ round as ATen's kernels (one fma where it has one)
# bit-exact on: avx2
# tolerance: rtol=1e-6 atol=1e-7
import torch
import torch.optim as optim
from agfmt import P
a0 = [0.5, -1.25, 2.0, 0.3, -0.7, 1.1, 0.05, -2.2, 0.9, 1.7, -0.45, 0.33, 0.61, -1.9, 0.12, 0.8, -0.02,
      1.3, -0.6, 0.25, 2.4, -1.1, 0.7, 0.15, -0.35, 1.05, -0.85, 0.44, 0.9, -0.3, 1.6, 0.2, -0.75, 0.55, 1.15, -1.45, 0.01]
b0 = [[0.2, -0.4, 0.6], [1.5, -0.1, 0.05]]
def make():
    return [torch.tensor(a0, requires_grad=True), torch.tensor(b0, requires_grad=True)]
def set_grads(ps, k):
    with torch.no_grad():
        for i, p in enumerate(ps):
            p.grad = p * (0.3 + 0.1 * k) + (0.05 * (i + 1) - 0.02 * k)
def run(name, ps, opt, steps=5):
    P(name)
    for k in range(steps):
        set_grads(ps, k)
        opt.step()
        for p in ps:
            P(p.tolist())
cases = [
    ["SGD", lambda ps: optim.SGD(ps, lr=0.1)],
    ["SGD momentum", lambda ps: optim.SGD(ps, lr=0.05, momentum=0.9)],
    ["SGD dampening", lambda ps: optim.SGD(ps, lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.01)],
    ["SGD nesterov", lambda ps: optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.1)],
    ["SGD maximize", lambda ps: optim.SGD(ps, lr=0.03, momentum=0.5, maximize=True)],
    ["Adam", lambda ps: optim.Adam(ps, lr=0.01)],
    ["Adam amsgrad", lambda ps: optim.Adam(ps, lr=0.02, betas=[0.8, 0.99], amsgrad=True)],
    ["Adam weight_decay", lambda ps: optim.Adam(ps, lr=0.01, eps=1e-6, weight_decay=0.1, maximize=True)],
    ["AdamW", lambda ps: optim.AdamW(ps, lr=0.01)],
    ["AdamW amsgrad", lambda ps: optim.AdamW(ps, lr=0.03, weight_decay=0.2, amsgrad=True)],
    ["RMSprop", lambda ps: optim.RMSprop(ps, lr=0.01)],
    ["RMSprop centered", lambda ps: optim.RMSprop(ps, lr=0.01, alpha=0.9, centered=True)],
    ["RMSprop momentum", lambda ps: optim.RMSprop(ps, lr=0.005, momentum=0.9, weight_decay=0.05)],
    ["RMSprop all", lambda ps: optim.RMSprop(ps, lr=0.005, alpha=0.8, eps=1e-6, momentum=0.5, centered=True, weight_decay=0.01)],
    ["Adagrad", lambda ps: optim.Adagrad(ps, lr=0.1)],
    ["Adagrad lr_decay", lambda ps: optim.Adagrad(ps, lr=0.1, lr_decay=0.05, initial_accumulator_value=0.1, weight_decay=0.02)],
    ["SGD groups", lambda ps: optim.SGD([{"params": [ps[0]], "lr": 0.2}, {"params": [ps[1]], "momentum": 0.5}], lr=0.01, momentum=0.9)],
    ["Adam groups", lambda ps: optim.Adam([{"params": [ps[0]]}, {"params": ps[1], "lr": 0.1, "amsgrad": True}], lr=0.01)],
]
for c in cases:
    ps = make()
    run(c[0], ps, c[1](ps))
ps = make()
opt = optim.RMSprop([ps[0]], lr=0.01, momentum=0.9)
opt.add_param_group({"params": [ps[1]], "lr": 0.001})
P(len(opt.param_groups), opt.param_groups[1]["lr"], opt.param_groups[1]["momentum"], opt.param_groups[1]["alpha"])
run("RMSprop add_param_group", ps, opt)
for make_opt in [lambda ps: optim.Adam(ps, lr=0.01, amsgrad=True), lambda ps: optim.SGD(ps, lr=0.05, momentum=0.9),
                 lambda ps: optim.Adagrad(ps, lr=0.1), lambda ps: optim.RMSprop(ps, lr=0.01, centered=True, momentum=0.2)]:
    ps = make()
    opt = make_opt(ps)
    for k in range(3):
        set_grads(ps, k)
        opt.step()
    sd = opt.state_dict()
    P(sorted(sd.keys()), len(sd["state"]), sorted(sd["state"][0].keys()), sd["param_groups"][0]["params"])
    copies = [p.detach().clone().requires_grad_() for p in ps]
    resumed = make_opt(copies)
    resumed.load_state_dict(sd)
    for k in range(3, 5):
        set_grads(ps, k)
        opt.step()
        set_grads(copies, k)
        resumed.step()
    P(ps[0].tolist() == copies[0].tolist(), ps[1].tolist() == copies[1].tolist(), ps[0].tolist())
