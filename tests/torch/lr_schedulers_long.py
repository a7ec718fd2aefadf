# learning rate schedulers over many epochs against PyTorch 1.13, every rate at full
# precision: the recursive forms (CosineAnnealingLR past several periods, its restart
# branch included; ExponentialLR, StepLR, MultiStepLR, LinearLR chained on the rate the
# step before) accumulate their roundings exactly as PyTorch's
import torch
import torch.optim as optim
from agfmt import P
S = optim.lr_scheduler
def run(name, make, steps):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([0.5], requires_grad=True)
    opt = optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.05}], lr=0.1, momentum=0.9)
    sched = make(opt)
    lrs = [sched.get_last_lr()]
    for i in range(steps):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    P(name)
    for lr in lrs:
        P(lr)
run("CosineAnnealingLR", lambda o: S.CosineAnnealingLR(o, T_max=7, eta_min=0.002), 60)
run("CosineAnnealingLR long", lambda o: S.CosineAnnealingLR(o, T_max=30), 130)
run("ExponentialLR", lambda o: S.ExponentialLR(o, gamma=0.97), 120)
run("StepLR", lambda o: S.StepLR(o, step_size=7, gamma=0.7), 70)
run("MultiStepLR", lambda o: S.MultiStepLR(o, milestones=[10, 25, 25, 60], gamma=0.45), 70)
run("LinearLR", lambda o: S.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=45), 60)
run("OneCycleLR", lambda o: S.OneCycleLR(o, max_lr=[0.4, 0.2], total_steps=150, pct_start=0.25), 150)
w = torch.tensor([1.0], requires_grad=True)
opt = optim.SGD([w], lr=1.0)
sched = S.ReduceLROnPlateau(opt, factor=0.7, patience=3, threshold=0.01, cooldown=2, min_lr=0.05)
for i in range(80):
    opt.step()
    sched.step(1.0 / (1 + (i % 17)) + 0.001 * i)
    P([g["lr"] for g in opt.param_groups], sched.num_bad_epochs)
