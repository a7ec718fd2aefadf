# PyTorch twin of data_loader.ag: utils.data's batches, shuffled orders and
# splits, and the random numbers drawn after them.
import torch
from torch.utils.data import Dataset, TensorDataset, DataLoader, Subset, random_split
from agfmt import P

torch.manual_seed(0)
x = torch.arange(20, dtype=torch.float32).view(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
P("len", len(ds))
item = ds[3]
P("item", item[0], item[1])

# sequential batches; the last one smaller, or dropped
for xb, yb in DataLoader(ds, batch_size=4):
    P("seq", xb.shape[0], yb)
P("drop_last", [yb.tolist() for _, yb in DataLoader(ds, batch_size=4, drop_last=True)])
P("lens", len(DataLoader(ds, batch_size=4)), len(DataLoader(ds, batch_size=4, drop_last=True)),
  len(DataLoader(ds, batch_size=5)), len(DataLoader(ds)))
P("after sequential", torch.rand(2))

# shuffled: the global generator, then a generator of the loader's own
torch.manual_seed(1)
loader = DataLoader(ds, batch_size=3, shuffle=True)
for epoch in range(2):
    P("epoch", epoch, [yb.tolist() for _, yb in loader])
P("after shuffle", torch.rand(2))
g = torch.Generator()
g.manual_seed(7)
loader = DataLoader(ds, batch_size=5, shuffle=True, generator=g)
P("own generator", [yb.tolist() for _, yb in loader], [yb.tolist() for _, yb in loader])
P("generator after", torch.rand(2, generator=g))
loader = DataLoader(ds, batch_size=4, shuffle=True, drop_last=True, generator=g)
P("drop_last shuffled", [yb.tolist() for _, yb in loader])
P("generator after drop_last", torch.rand(2, generator=g))
P("global untouched", torch.rand(2))

# the batch is a copy: writing it leaves the dataset alone
for xb, yb in DataLoader(ds, batch_size=10):
    xb.zero_()
P("dataset kept", x[9])

# a Dataset subclass with getitem/len, default collation of numbers, lists and maps
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __getitem__(self, i):
        return {"x": float(i), "sq": i * i, "pair": [i, torch.tensor([i, -i])]}
    def __len__(self):
        return self.n

torch.manual_seed(2)
for b in DataLoader(Squares(5), batch_size=2, shuffle=True):
    P("map batch", b["x"], b["sq"], b["pair"][0], b["pair"][1])
P("collate_fn", [b for b in DataLoader(Squares(4), batch_size=3, collate_fn=lambda items: len(items))])
P("no batching", [b["sq"] for b in DataLoader(Squares(3), batch_size=None)])

# random_split: lengths and fractions
torch.manual_seed(3)
a, b = random_split(range(10), [7, 3])
P("split", a.indices, b.indices, len(a), len(b))
parts = random_split(ds, [0.5, 0.3, 0.2])
P("fractions", [p.indices for p in parts])
parts = random_split(ds, [0.34, 0.33, 0.33])
P("remainder", [len(p) for p in parts])
g = torch.Generator()
g.manual_seed(42)
a, b = random_split(ds, [8, 2], generator=g)
P("split generator", a.indices, b.indices, b[1][1])
sub = Subset(ds, [9, 0])
P("subset", len(sub), sub[0][1], [yb.tolist() for _, yb in DataLoader(sub, batch_size=2)])
P("after split", torch.rand(1))

# Subsets of Subsets (random_split of a split), and negative indices
torch.manual_seed(4)
train, test = random_split(ds, [6, 4])
inner, _ = random_split(train, [4, 2])
P("nested", [[xb.tolist(), yb.tolist()] for xb, yb in DataLoader(inner, batch_size=3, shuffle=True)])
P("negative", [yb.tolist() for _, yb in DataLoader(Subset(ds, [-1, 2, -3]), batch_size=2)])
P("empty subset", len(DataLoader(Subset(ds, []), batch_size=2)), [b for b in DataLoader(Subset(ds, []), batch_size=2)])
