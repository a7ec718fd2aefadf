"""Helpers for the PyTorch twins of tests/torch/*.ag: print values the way Ag
prints them, so `python3 NAME.py` writes the expected output of `ag NAME.ag`."""
import math

import torch


def fmt(v):
    if v is None:
        return "nil"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v:
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)  # Python's repr, as Ag prints a float: 2.0, -0.0, 1e-05
    if isinstance(v, str):
        return v
    if isinstance(v, torch.Tensor):
        s = torch.Tensor.__repr__(v)
        return s.replace("True", "true").replace("False", "false").replace("torch.", "")
    if isinstance(v, torch.dtype):
        return str(v).replace("torch.", "")
    if type(v).__module__ == "torch.return_types":  # max(dim), sort ...: PyTorch's named pairs
        return "torch.return_types.%s(\n%s)" % (
            type(v).__name__, ",\n".join("%s=%s" % (k, fmt(x)) for k, x in zip(("values", "indices"), v)))
    if isinstance(v, (list, torch.Size)) or (isinstance(v, tuple) and _is_edges(v)):
        return "[" + ", ".join(_items(v)) + "]"  # shapes and next_functions are lists in Ag
    if isinstance(v, tuple):
        return "(" + ", ".join(_items(v)) + ("," if len(v) == 1 else "") + ")"
    if hasattr(v, "next_functions"):
        return "<" + type(v).__name__ + ">"
    raise TypeError(type(v))


def _is_edge(e):
    return (isinstance(e, tuple) and len(e) == 2 and isinstance(e[1], int) and
            (e[0] is None or hasattr(e[0], "next_functions")))


def _is_edges(v):
    """A node's next_functions and their entries: Ag keeps them lists, [[node, input_nr], ...]."""
    return _is_edge(v) or (len(v) > 0 and all(_is_edge(e) for e in v))


def _items(v):
    return (('"%s"' % x) if isinstance(x, str) else fmt(x) for x in v)


def P(*vs, sep=" "):
    print(sep.join(fmt(v) for v in vs))


def has(fn, phrase):
    """Runs fn; returns whether it raised an error whose message contains phrase."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - any error is what we look at
        return phrase in str(e)
    return False


def msg(f):
    """The message of the exception f() raises ("no error" if none), as the
    Ag twins' msg(fn) gives e.message."""
    try:
        f()
        return "no error"
    except Exception as e:
        return str(e)


def error_of(f):
    """'no error', or the class and first line of what f() raised (Ag's twin
    prints type(e).__name__ + ": " + the first line of e.message)."""
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return type(e).__name__ + ": " + str(e).split("\n")[0]
