"""Writes the .pt fixtures that tests/torch/pt_load.ag reads, with PyTorch 1.13
(run by tools/regen-pt-fixtures.sh; the files are committed, so the tests need
no PyTorch)."""
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))


def mixed():
    base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    return {
        "model": model().state_dict(),   # an OrderedDict with _metadata (BUILD)
        "t": base.t(),                   # non-contiguous: strides (1, 4)
        "row": base[1],                  # offset 4, the same storage as "t"
        "x64": torch.arange(6, dtype=torch.float64).reshape(2, 3) / 3,
        "i64": torch.tensor([-3, 0, 2**40]),
        "flags": torch.tensor([True, False, True]),
        "i32": torch.tensor([1, -2, 2**31 - 1], dtype=torch.int32),
        "u8": torch.tensor([0, 255], dtype=torch.uint8),
        "i8": torch.tensor([-128, 127], dtype=torch.int8),
        "scalar": torch.tensor(3.5),
        "empty": torch.zeros(0, 3),
        "expanded": torch.tensor([1.0, 2.0]).expand(3, 2),  # stride 0
        "grad": torch.ones(2, requires_grad=True),
        "param": torch.nn.Parameter(torch.tensor([0.5, -1.0])),
        "nested": [1, 2.5, "text", None, True, False, (1, "two"), {"k": [3]}, -7, 2**40, -2**40, 1e-300],
    }


def whole_module():
    """A whole module (torch.save(model)): its class is __main__.Net."""
    torch.manual_seed(0)
    net = Net()
    net.heads[1].weight.requires_grad_(False)
    net.eval()
    return net


if __name__ == "__main__":
    from module_net import Net  # __main__.Net, as pt_module_load.ag defines it
    Net.__module__ = "__main__"
    torch.save(whole_module(), os.path.join(HERE, "module_from_torch.pt"))
    torch.save(mixed(), os.path.join(HERE, "from_torch.pt"))
    torch.save(model().state_dict(), os.path.join(HERE, "state_dict.pt"))
