# PyTorch twin of examples/rnn_sequence_sum.ag: the same seed gives the same
# initial weights and training sequences (Ag draws PyTorch's random streams).
import torch
import torch.nn as nn
from agfmt import P

torch.manual_seed(0)


def make_batch(count, steps):
    x = torch.rand(count, steps, 1) - 0.5
    return (x, x.sum(dim=1))


class SumRNN(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        self.cell = nn.RNNCell(1, hidden)
        self.readout = nn.Linear(hidden, 1)

    def forward(self, x):
        h = torch.zeros(x.shape[0], self.hidden)
        for step in range(x.shape[1]):
            h = self.cell(x[:, step], h)
        return self.readout(h)


model = SumRNN(16)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
batches = []
for length in range(1, 9):
    batches.append(make_batch(64, length))


def count_nodes(root, name):
    seen = set()
    todo = [root]
    count = 0
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if type(node).__name__ == name:
            count += 1
        for edge in node.next_functions:
            todo.append(edge[0])
    return count


for length in [3, 7]:
    x, y = batches[length - 1]
    print(f"length {length}: {count_nodes(model(x).grad_fn, 'TanhBackward0')} RNN cells in the graph")


def mean_loss():
    with torch.no_grad():
        total = 0
        for x, y in batches:
            total += loss_fn(model(x), y).item()
        return total / len(batches)


before = mean_loss()
for epoch in range(300):
    if epoch == 200:
        opt.param_groups[0]["lr"] = 0.001
    for x, y in batches:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
after = mean_loss()
P("loss decreased:", after < before)
P("final loss < 0.01:", after < 0.01)
P("final loss < 0.005:", after < 0.005)

tests = [[0.3], [0.2, -0.4], [0.1, 0.2, 0.3], [-0.5, 0.5, 0.4, 0.3, -0.1], [0.4, -0.3, 0.2, -0.1, 0.3, 0.1, -0.2]]
with torch.no_grad():
    for seq in tests:
        x = torch.tensor(seq).reshape(1, len(seq), 1)
        predicted = model(x).item()
        print(f"sum of {seq} = {sum(seq):.2f}, predicted {predicted:.1f}")
