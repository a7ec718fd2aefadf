# A dimension out of range is an IndexError with PyTorch's message, for every function that
# takes a dim (reductions, shape functions, joins, selections), and a 0-d tensor's range is
# [-1, 0]; an index past a dimension's end is an IndexError too.
from agfmt import P
import torch

x = torch.zeros(2, 3)
for f in [lambda: x.mode(2), lambda: x.sum(5), lambda: x.size(3), lambda: x.max(3),
          lambda: x.unsqueeze(5), lambda: x.transpose(0, 4), lambda: torch.cat([x, x], 3),
          lambda: x.softmax(2), lambda: torch.tensor(1.0).sum(1), lambda: x.argmax(2),
          lambda: x.squeeze(4), lambda: x.flip(3), lambda: x.cumsum(2), lambda: x[5],
          lambda: x.narrow(2, 0, 1), lambda: x.mean(-3), lambda: x.norm(dim=3),
          lambda: torch.stack([x], 4), lambda: x.sort(2), lambda: x.topk(1, 2),
          lambda: x.kthvalue(1, 2), lambda: x.median(2), lambda: x.min(-3)]:
    try:
        f()
    except Exception as e:
        P(type(e).__name__, str(e))
