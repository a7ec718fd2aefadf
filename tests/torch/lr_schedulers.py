from agfmt import P
import torch
S = torch.optim.lr_scheduler
def run(name, make, steps, make_opt=None):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([0.5], requires_grad=True)
    if make_opt is None:
        opt = torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.05}], lr=0.1, momentum=0.9)
    else:
        opt = make_opt([w, b])
    sched = make(opt)
    lrs = [sched.get_last_lr()]
    for i in range(steps):
        opt.zero_grad()
        ((w * w).sum() + b.sum()).backward()
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    print(name)
    for lr in lrs:
        P(lr)
    return opt
run("StepLR", lambda o: S.StepLR(o, step_size=3, gamma=0.5), 8)
run("MultiStepLR", lambda o: S.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.3), 7)
run("ExponentialLR", lambda o: S.ExponentialLR(o, gamma=0.9), 6)
run("CosineAnnealingLR", lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.001), 11)
run("LambdaLR", lambda o: S.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e), 5)
run("LambdaLR per group", lambda o: S.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: e + 1]), 4)
run("LinearLR", lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4), 7)
o1 = run("OneCycleLR", lambda o: S.OneCycleLR(o, max_lr=0.5, total_steps=10), 10)
P(o1.param_groups[0]["momentum"], o1.param_groups[1]["momentum"])
o2 = run("OneCycleLR linear three_phase Adam",
         lambda o: S.OneCycleLR(o, max_lr=[0.2, 0.1], epochs=3, steps_per_epoch=4, anneal_strategy="linear", three_phase=True),
         12, lambda ps: torch.optim.Adam([{"params": [ps[0]]}, {"params": [ps[1]]}], lr=0.01))
P(list(o2.param_groups[0]["betas"]))
def plateau(mode, metrics, *rest):
    w = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=1.0)
    sched = S.ReduceLROnPlateau(opt, mode, *rest)
    for m in metrics:
        opt.step()
        sched.step(m)
        P(sched._last_lr, sched.num_bad_epochs)  # 1.13 has no get_last_lr here; Ag adds it
plateau("min", [1.0, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.9], 0.5, 2)
plateau("max", [1.0, 1.00001, 0.9, 0.8, 1.2, 0.3, 0.2, 0.1], 0.1, 1, 1e-4, "abs", 1, 0.05)
