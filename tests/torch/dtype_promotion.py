# result dtypes and values of binary ops over every pair of dtypes, and with numbers
from agfmt import P
import torch


def msg(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


def mk(dt):
    if dt == torch.bool:
        return torch.tensor([True, False, True])
    return torch.tensor([3, 2, 5], dtype=dt)


dts = [torch.bool, torch.int64, torch.float32, torch.float64]
ops = [
    ("+", lambda a, b: a + b),
    ("-", lambda a, b: a - b),
    ("*", lambda a, b: a * b),
    ("/", lambda a, b: a / b),
    ("**", lambda a, b: a ** b),
    ("%", lambda a, b: a % b),
    ("maximum", lambda a, b: torch.maximum(a, b)),
    ("==", lambda a, b: a == b),
    ("<", lambda a, b: a < b),
]
for name, op in ops:
    for da in dts:
        for db in dts:
            r = msg(lambda: op(mk(da), mk(db)))
            if isinstance(r, torch.Tensor):
                P(name, da, db, r.dtype, r)
            else:
                P(name, da, db, r)
nums = [("+", lambda a, s: a + s), ("*", lambda a, s: a * s), ("/", lambda a, s: a / s),
        ("**", lambda a, s: a ** s), ("r-", lambda a, s: s - a), ("r/", lambda a, s: s / a),
        ("%", lambda a, s: a % s), ("<", lambda a, s: a < s)]
for name, op in nums:
    for da in dts[1:]:
        for s in [2, 2.5]:
            r = msg(lambda: op(mk(da), s))
            if isinstance(r, torch.Tensor):
                P(name, da, s, r.dtype, r)
            else:
                P(name, da, s, r)
for name, op in nums:
    r = msg(lambda: op(mk(torch.bool), 2.5))
    P(name, "bool", 2.5, r.dtype if isinstance(r, torch.Tensor) else "", r)
