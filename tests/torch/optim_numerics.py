from agfmt import P
import torch
def run(make_opt):
    w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    c = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = make_opt([w, c])
    for step in range(4):
        opt.zero_grad()
        loss = ((w @ c - torch.tensor([0.5, 1.5])) ** 2).sum() + (w ** 4).mean()
        loss.backward()
        opt.step()
    P(w)
    P(c)
run(lambda ps: torch.optim.SGD(ps, lr=0.01))
run(lambda ps: torch.optim.SGD(ps, lr=0.01, momentum=0.9, weight_decay=0.1))
run(lambda ps: torch.optim.SGD(ps, lr=0.01, momentum=0.5, nesterov=True))
run(lambda ps: torch.optim.Adam(ps, lr=0.05))
run(lambda ps: torch.optim.Adam(ps, lr=0.05, weight_decay=0.2, betas=(0.8, 0.99)))
run(lambda ps: torch.optim.AdamW(ps, lr=0.05))
run(lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.5, eps=0.01))
