# PyTorch twin of nn_rnn_errors.ag: messages of the recurrent layers.
import torch
import torch.nn as nn
from agfmt import P


def show(f):
    try:
        P(f())
    except Exception as e:  # noqa: BLE001 - the message is what we look at
        P("error:", str(e))


zeros = torch.zeros
lstm = nn.LSTM(3, 4)
gru = nn.GRU(3, 4)
rnn = nn.RNN(3, 4, num_layers=2, bidirectional=True)
show(lambda: lstm(zeros(5, 2, 5)))
show(lambda: lstm(zeros(5, 2, 3, 1)))
show(lambda: gru(zeros(3)))
show(lambda: lstm(zeros(5, 2, 3), (zeros(1, 3, 4), zeros(1, 2, 4))))
show(lambda: lstm(zeros(5, 2, 3), (zeros(1, 2, 4), zeros(1, 2, 5))))
show(lambda: lstm(zeros(5, 2, 3), (zeros(1, 2, 4), zeros(2, 4))))
show(lambda: lstm(zeros(5, 3), (zeros(1, 2, 4), zeros(2, 4))))
show(lambda: lstm(zeros(0, 2, 3)))
show(lambda: gru(zeros(5, 2, 3), zeros(2, 2, 4)))
show(lambda: gru(zeros(5, 2, 3), zeros(2, 4)))
show(lambda: gru(zeros(5, 3), zeros(1, 2, 4)))
show(lambda: gru(zeros(5, 3), zeros(4)))
show(lambda: rnn(zeros(5, 2, 3), zeros(2, 2, 4)))
show(lambda: nn.GRU(3, 4, batch_first=True)(zeros(5, 2, 3), zeros(1, 2, 4)))
show(lambda: nn.GRUCell(3, 4)(zeros(2, 5)))
show(lambda: nn.GRUCell(3, 4)(zeros(2, 3), zeros(2, 5)))
show(lambda: nn.GRUCell(3, 4)(zeros(2, 3), zeros(3, 4)))
show(lambda: nn.GRUCell(3, 4)(zeros(2, 3, 3)))
show(lambda: nn.GRUCell(3, 4)(zeros(3), zeros(2, 4)))
show(lambda: nn.GRUCell(3, 4)(zeros(2, 3), zeros(4)))
show(lambda: nn.LSTMCell(3, 4)(zeros(2, 3), (zeros(2, 4), zeros(2, 5))))
show(lambda: nn.LSTMCell(3, 4)(zeros(2, 3, 1)))
show(lambda: nn.RNNCell(3, 4)(zeros(5)))
show(lambda: nn.RNNCell(3, 4, nonlinearity="foo")(zeros(3)))
show(lambda: nn.RNN(3, 4, nonlinearity="foo"))
show(lambda: nn.LSTM(3, 4, dropout=1.5))
show(lambda: nn.GRU(3, 4, dropout=True))
show(lambda: nn.LSTM(3, 4, proj_size=-1))
show(lambda: nn.LSTM(3, 4, proj_size=4))
show(lambda: nn.LSTM(3, 4, proj_size=2)(zeros(5, 2, 3), (zeros(1, 2, 4), zeros(1, 2, 4))))
show(lambda: nn.LSTM(3, 4, proj_size=2)(zeros(5, 2, 3), (zeros(1, 2, 2), zeros(1, 2, 2))))
