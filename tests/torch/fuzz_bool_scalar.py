# true/false as an operand is a bool-typed number: bool_t + true stays bool, t - true is an error
import torch
from agfmt import P
b = torch.tensor([True, False]); i = torch.tensor([1, 2]); f = torch.tensor([0.5, 2])
P(b + True, b * False, i + True, b == True, True + b, b / True, i ** True, b > False, f * True, f / True, True * i, (True * i).dtype)
for g in [lambda: b - True, lambda: True - b, lambda: i - True, lambda: True - i, lambda: f - True, lambda: True - f, lambda: b % True, lambda: b ** True, lambda: i % True, lambda: f % True]:
    try:
        P(g())
    except Exception as e:
        P("error:", str(e))
for g in [lambda: torch.mul(b, True), lambda: b.add(False), lambda: i.mul(True), lambda: f.sub(True), lambda: f.mul(True), lambda: b.clone().add_(True), lambda: f.clone().sub_(True), lambda: i.clone().mul_(True), lambda: f.clone().div_(True)]:
    try:
        P(g())
    except Exception as e:
        P("error:", str(e))
