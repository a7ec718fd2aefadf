# optim.LBFGS against PyTorch 1.13: the Rosenbrock function and a small
# least-squares model, float32 and float64, with a fixed step (the default)
# and with line_search_fn="strong_wolfe"; history_size, max_iter, the loss
# step() returns and the state it keeps (Ag twin: optim_lbfgs.ag)
# bit-exact on: avx2
# tolerance: rtol=1e-5 atol=1e-6
import torch
import torch.optim as optim
from agfmt import P
def rosenbrock(xy):
    return (1 - xy[0]) ** 2 + 100 * (xy[1] - xy[0] ** 2) ** 2
for dtype in [torch.float32, torch.float64]:
    for ls in [None, "strong_wolfe"]:
        xy = torch.tensor([-1.5, 2.0], dtype=dtype, requires_grad=True)
        opt = optim.LBFGS([xy], lr=1, max_iter=20, history_size=10, line_search_fn=ls)
        def closure():
            opt.zero_grad()
            loss = rosenbrock(xy)
            loss.backward()
            return loss
        for k in range(4):
            loss = opt.step(closure)
            P(ls, loss.item(), xy.tolist())
        st = opt.state[xy]
        P(st["func_evals"], st["n_iter"], len(st["old_dirs"]))
torch.manual_seed(0)
x = torch.randn(20, 3, dtype=torch.float64)
y = x @ torch.tensor([[1.5], [-2.0], [0.5]], dtype=torch.float64) + 0.3 * torch.randn(20, 1, dtype=torch.float64)
for ls in [None, "strong_wolfe"]:
    torch.manual_seed(1)
    model = torch.nn.Linear(3, 1).double()
    opt = optim.LBFGS(model.parameters(), lr=0.8, max_iter=5, line_search_fn=ls)
    def closure():
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        return loss
    for k in range(3):
        P(ls, opt.step(closure).item())
    P(model.weight.tolist(), model.bias.tolist())
w = torch.tensor([0.5, -0.3, 0.8], requires_grad=True)
opt = optim.LBFGS([w], lr=0.5, max_iter=7, tolerance_grad=1e-5)
def closure2():
    opt.zero_grad()
    loss = (w.exp() - w * 2).sum() + (w ** 4).sum()
    loss.backward()
    return loss
for k in range(3):
    P(opt.step(closure2).item(), w.tolist())
