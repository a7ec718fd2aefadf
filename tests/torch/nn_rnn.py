# PyTorch twin of nn_rnn.ag: recurrent layers seeded as PyTorch.
import torch
import torch.nn as nn
from agfmt import P


def grads(module):
    for name, p in module.named_parameters():
        P(name, p.grad)


torch.manual_seed(0)
cell = nn.GRUCell(3, 4)
for name, p in cell.named_parameters():
    P(name, p)
x = torch.randn(2, 3, requires_grad=True)
h = torch.randn(2, 4)
h1 = cell(x, h)
h2 = cell(x, h1)
P(h1, h2)
(h2 * h2).sum().backward()
grads(cell)
P(x.grad)
P(cell(torch.randn(3)), cell(torch.randn(3), torch.randn(4)))

torch.manual_seed(1)
rnn = nn.RNN(3, 5, num_layers=2)
xs = torch.randn(4, 2, 3)
out, h_n = rnn(xs)
P(out, h_n)
out.pow(2).sum().backward()
grads(rnn)

torch.manual_seed(2)
rnn_relu = nn.RNN(3, 4, nonlinearity="relu", bidirectional=True, bias=False)
h0 = torch.randn(2, 2, 4, requires_grad=True)
out_r, h_r = rnn_relu(torch.randn(3, 2, 3), h0)
P(out_r, h_r)
(out_r.sum() + h_r.pow(2).sum()).backward()
grads(rnn_relu)
P(h0.grad)

torch.manual_seed(3)
lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True)
xb = torch.randn(2, 5, 3, requires_grad=True)
state0 = [torch.randn(4, 2, 4), torch.randn(4, 2, 4, requires_grad=True)]
out_l, hc = lstm(xb, tuple(state0))
P(out_l, hc[0], hc[1])
(out_l.pow(2).sum() + hc[1].sum()).backward()
grads(lstm)
P(xb.grad, state0[1].grad)

torch.manual_seed(4)
lstm1 = nn.LSTM(2, 3)
out_u, hc_u = lstm1(torch.randn(4, 2))
P(out_u, hc_u[0], hc_u[1])
out_z, hc_z = lstm1(torch.randn(4, 2), (torch.randn(1, 3), torch.randn(1, 3)))
P(out_z, list(hc_z))

torch.manual_seed(5)
gru = nn.GRU(3, 4, num_layers=2, dropout=0.5)
xg = torch.randn(6, 3, 3)
out_g, h_g = gru(xg)
P(out_g, h_g)
out_g.sum().backward()
grads(gru)
gru.eval()
out_e, h_e = gru(xg, h_g.detach())
P(out_e, h_e)

torch.manual_seed(6)
gru_b = nn.GRU(2, 3, bidirectional=True, batch_first=True)
out_gb, h_gb = gru_b(torch.randn(5, 2))
P(out_gb, h_gb)

# float64 (double()), every digit of a few sums
torch.manual_seed(7)
lstm_d = nn.LSTM(3, 4, num_layers=2, bidirectional=True).double()
xd = torch.randn(5, 2, 3, dtype=torch.float64)
out_d, hc_d = lstm_d(xd)
P(out_d.sum().item(), hc_d[0].sum().item(), hc_d[1].sum().item())
out_d.pow(2).sum().backward()
P([p.grad.sum().item() for _, p in lstm_d.named_parameters()])

# proj_size: h projected to 2 features by weight_hr, c keeps 5
torch.manual_seed(8)
lstm_p = nn.LSTM(3, 5, num_layers=2, proj_size=2, bidirectional=True)
P(str(lstm_p).replace("True", "true"), [name for name, _ in lstm_p.named_parameters()][:5])
xp = torch.randn(4, 2, 3)
out_p, hc_p = lstm_p(xp, (torch.randn(4, 2, 2), torch.randn(4, 2, 5)))
P(out_p, hc_p[0], hc_p[1])
(out_p.sum() + hc_p[1].sum()).backward()
grads(lstm_p)
