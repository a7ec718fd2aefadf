# float32 matrix products (mm, mv, bmm, vector @ matrix) to full precision: BLAS sums in an
# order of its own, which differs between OpenBLAS's kernels for different CPUs (PyTorch on a
# Haswell and on a Skylake-X print different last bits of m[:, :3] @ x[:3]), so they are
# compared within a tolerance on every machine.
from agfmt import P
import torch

x = torch.arange(40).float() * 0.173 - 3.1
m = x.reshape(5, 8)
c = torch.arange(24).float().reshape(2, 3, 4) * 0.61 - 7.0
b1 = c * 0.3
b2 = (torch.arange(24).float().reshape(2, 4, 3) * 0.41 - 3.0)
P((b1 @ b2).reshape(-1).tolist()[::2], torch.bmm(b1, b2)[1, 2].tolist())
P((m @ m.t())[1].tolist(), (m[:, :3] @ x[:3]).tolist(), (x[:5] @ m).tolist())
