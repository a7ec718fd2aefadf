# anomaly detection: the backward node that returned nan, and which output (the key phrase; Ag adds the forward line)
import warnings
import torch
from agfmt import P

warnings.filterwarnings("ignore")


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


def run(f):
    with torch.autograd.detect_anomaly():
        return msg(f)


x = torch.tensor([0.0, 1.0], requires_grad=True)
print(run(lambda: torch.sqrt(x).sum().backward()))
x.grad = None
print(run(lambda: (x * torch.log(x)).sum().backward()))
x.grad = None
print(run(lambda: (x / x).sum().backward()))
x.grad = None
print(run(lambda: torch.sqrt(x - 1).sum().backward()))
x.grad = None
print(run(lambda: (x ** 0.5).sum().backward()))
x.grad = None
print(run(lambda: (x * 2).sum().backward()), x.grad)
x.grad = None
print(msg(lambda: torch.sqrt(x).sum().backward()), x.grad)
P(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    P(torch.is_anomaly_enabled())
P(torch.is_anomaly_enabled())
