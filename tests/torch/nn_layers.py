from agfmt import P
import torch
import torch.nn as nn
import torch.nn.functional as F
def fill(module):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_((torch.sin(torch.arange(p.numel()).float() * 0.7 + i).reshape(p.shape) * 0.5))
    return module
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
lin = fill(nn.Linear(3, 2))
y = lin(x)
P(y)
y.sum().backward()
P(lin.weight.grad, lin.bias.grad)
rnn = fill(nn.RNNCell(3, 4))
h = rnn(x)
h = rnn(x, h)
P(h)
h.pow(2).sum().backward()
P(rnn.weight_hh.grad)
lstm = fill(nn.LSTMCell(3, 2))
hh, cc = lstm(x)
hh2, cc2 = lstm(x, (hh, cc))
P(hh2, cc2)
(hh2.sum() + cc2.sum()).backward()
P(lstm.bias_ih.grad)
emb = fill(nn.Embedding(5, 3))
e = emb(torch.tensor([[1, 4], [0, 1]]))
P(e)
e.sum().backward()
P(emb.weight.grad)
seq = fill(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2), nn.Sigmoid()))
P(seq(x))
P(list(seq.state_dict().keys()))
drop = nn.Dropout(0.5)
drop.eval()
P(drop(x), nn.Flatten()(torch.ones(2, 3, 4)).shape, nn.Softmax(dim=1)(x), nn.GELU()(x))
target = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]])
for red in ["mean", "sum", "none"]:
    P(nn.MSELoss(reduction=red)(x, target), nn.L1Loss(reduction=red)(x, target))
    P(nn.CrossEntropyLoss(reduction=red)(x, torch.tensor([2, 0])))
    P(nn.NLLLoss(reduction=red)(F.log_softmax(x, 1), torch.tensor([1, 2])))
    P(nn.BCELoss(reduction=red)(torch.sigmoid(x), target))
