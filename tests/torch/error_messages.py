from agfmt import P
import torch
import torch.nn.functional as F
def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:
        return str(e)
P(msg(lambda: torch.ones(2, 3) @ torch.ones(4, 5)))
P(msg(lambda: torch.ones(3) + torch.ones(4)))
P(msg(lambda: torch.ones(2, 3) + torch.ones(3, 2)))
P(msg(lambda: torch.ones(3)[5]))
P(msg(lambda: torch.ones(2, 3)[0, 7]))
P(msg(lambda: torch.ones(2, 3).sum(dim=2)))
P(msg(lambda: torch.ones(2, 3).view(4)))
P(msg(lambda: torch.ones(2, 3).t().view(6)))
P(msg(lambda: torch.dot(torch.ones(3), torch.ones(2))))
P(msg(lambda: torch.ones(2, 3).mean(dim=-3)))
P(msg(lambda: torch.ones(3).backward()))
P(msg(lambda: torch.tensor([1.0, 2.0], requires_grad=True).mul(2).backward()))
P(msg(lambda: torch.tensor(1.0).backward()))
P(msg(lambda: torch.tensor([1, 2], dtype=torch.int64, requires_grad=True)))
P(msg(lambda: torch.tensor([1.0], requires_grad=True).add_(1)))
P(msg(lambda: torch.ones(2, 3).expand(3, 3)))
P(msg(lambda: torch.ones(2, 3).permute([0, 0])))
P(msg(lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)])))
P(msg(lambda: torch.stack([torch.ones(2), torch.ones(3)])))
P(msg(lambda: torch.ones(2, 2).reshape(3, -1)))
P(msg(lambda: torch.ones(2, 3).transpose(0, 2)))
P(msg(lambda: torch.ones(2, 3).squeeze(3)))
P(msg(lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3]))))
P(msg(lambda: torch.ones(2)[torch.tensor([True, False, True])]))
P(msg(lambda: torch.mm(torch.ones(2), torch.ones(2, 2))))
P(msg(lambda: torch.ones(2, 3).item()))
