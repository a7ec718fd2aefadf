# PyTorch twin of data_samplers.ag: samplers and DataLoader options.
import torch
from torch.utils.data import (BatchSampler, DataLoader, Dataset, RandomSampler, SequentialSampler,
                              SubsetRandomSampler, TensorDataset)
from agfmt import P


def msg(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001
        return str(e).split("\n")[0]


ds = TensorDataset(torch.arange(10, dtype=torch.float32), torch.arange(10))


def ys(loader):
    return [yb.tolist() for _, yb in loader]


torch.manual_seed(5)
loader = DataLoader(ds, batch_size=3, shuffle=True, num_workers=2, pin_memory=True)
P("workers", ys(loader), ys(loader), torch.rand(2), len(loader))
g = torch.Generator()
g.manual_seed(3)
loader = DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, generator=g, persistent_workers=True, prefetch_factor=4)
P("workers generator", ys(loader), torch.rand(2, generator=g), torch.rand(1))

torch.manual_seed(6)
P("sequential", [i for i in SequentialSampler(range(4))], len(SequentialSampler(range(4))))
rs = RandomSampler(ds)
P("random", [i for i in rs], [i for i in rs], len(rs), torch.rand(1))
P("random loader", ys(DataLoader(ds, batch_size=4, sampler=RandomSampler(ds))), torch.rand(1))
g = torch.Generator()
g.manual_seed(11)
P("random generator", ys(DataLoader(ds, batch_size=4, drop_last=True, sampler=RandomSampler(ds, generator=g))), torch.rand(1, generator=g), torch.rand(1))
P("replacement", [i for i in RandomSampler(ds, replacement=True, num_samples=40)], torch.rand(1))
P("more samples", [i for i in RandomSampler(ds, num_samples=13)], torch.rand(1))
P("subset random", [i for i in SubsetRandomSampler([7, 3, 5, 1])], torch.rand(1))
P("list sampler", ys(DataLoader(ds, batch_size=2, sampler=[3, 1, 4, 1, 5])), len(DataLoader(ds, batch_size=2, sampler=[3, 1, 4, 1, 5])))
P("unbatched sampler", [yb for _, yb in DataLoader(ds, batch_size=None, sampler=[2, 0])])

P("batch sampler", [b for b in BatchSampler(range(7), 3, False)], [b for b in BatchSampler(range(7), 3, True)],
  len(BatchSampler(range(7), 3, False)), len(BatchSampler(range(7), 3, True)))
torch.manual_seed(7)
loader = DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), 3, True))
P("random batches", ys(loader), len(loader), torch.rand(1))
loader = DataLoader(ds, batch_sampler=[[9, 8], [0], [-1, 2]])
P("given batches", ys(loader), len(loader), torch.rand(1))


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return [float(i), i * i]

    def __len__(self):
        return self.n


P("dataset batches", [b for b in DataLoader(Squares(6), batch_sampler=[[5, 1], [2, 3, 4]])])
P("dataset sampler", [b for b in DataLoader(Squares(6), batch_size=2, sampler=SubsetRandomSampler([0, 2, 4]))], torch.rand(1))

print(msg(lambda: DataLoader(ds, persistent_workers=True)))
print(msg(lambda: DataLoader(ds, prefetch_factor=3)))
print(msg(lambda: DataLoader(ds, prefetch_factor=None)))
print(msg(lambda: DataLoader(ds, num_workers=-1)))
print(msg(lambda: DataLoader(ds, sampler=[0, 1], shuffle=True)))
print(msg(lambda: DataLoader(ds, batch_sampler=[[0]], batch_size=2)))
print(msg(lambda: DataLoader(ds, batch_sampler=[[0]], batch_size=None)))
print(msg(lambda: DataLoader(ds, batch_sampler=[[0]], shuffle=True)))
print(msg(lambda: DataLoader(ds, batch_sampler=[[0]], sampler=[0])))
print(msg(lambda: DataLoader(ds, batch_sampler=[[0]], drop_last=True)))
print(msg(lambda: DataLoader(ds, batch_size=None, drop_last=True)))
print(msg(lambda: RandomSampler(ds, num_samples=0)))
print(msg(lambda: RandomSampler(ds, replacement=1)))
print(msg(lambda: BatchSampler(range(3), 0, False)))
print(msg(lambda: BatchSampler(range(3), 2, 1)))
