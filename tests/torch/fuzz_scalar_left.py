# number OP tensor for ==, !=, %, < with a non-integral number and an integer or bool tensor
import torch
from agfmt import P
i = torch.tensor([-3, 1, 2])
b = torch.tensor([True, False])
P(1.5 != i, 1.5 == i, 1 == i, 2.5 % i, (2.5 % i).dtype, 1.5 < i, 0.5 >= i)
P(0.5 == b, 1 == b, 0.5 != b, 2 % i, (2 % i).dtype)
