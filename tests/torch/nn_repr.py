from agfmt import P
import torch.nn as nn
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.head = nn.Sequential(nn.Linear(3, 1, bias=False), nn.Sigmoid())
def r(m):
    return repr(m).replace("True", "true").replace("False", "false")
print(r(MLP()))
print(r(nn.Sequential(nn.Linear(4, 2), nn.Tanh(), nn.Dropout(0.25), nn.Softmax(dim=1), nn.LogSoftmax(dim=0))))
print(" ".join(r(m) for m in [nn.Embedding(10, 3), nn.RNNCell(3, 4), nn.LSTMCell(2, 5), nn.Flatten(), nn.GELU()]))
print(" ".join(r(m) for m in [nn.MSELoss(), nn.CrossEntropyLoss(), nn.L1Loss(), nn.NLLLoss(), nn.BCELoss()]))
