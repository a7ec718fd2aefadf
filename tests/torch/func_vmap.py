# func.vmap (functorch 1.13): in_dims and out_dims, broadcasting, nesting,
# matmul in every rank combination, reductions, shape ops, indexing, conv,
# the nn functions, and vmap(grad(f)) for per-sample gradients.
from agfmt import P
import torch
import torch.nn as nn
import torch.nn.functional as F
from functorch import vmap, grad
from torch.nn.utils.stateless import functional_call

torch.manual_seed(0)
a = torch.randn(4, 3)
b = torch.randn(4, 3)
w = torch.randn(3)
P(vmap(lambda u, v: u * v + 1)(a, b))
P(vmap(lambda u: u * w)(a))
P(vmap(lambda u, v: u + v, in_dims=(0, None))(a, w))
P(vmap(lambda u: u.sum(), in_dims=1)(a))
P(vmap(lambda u: u * 2, in_dims=1, out_dims=1)(a))
P(vmap(lambda u: (u.exp(), u.sum()), out_dims=(1, 0))(a))
P(vmap(lambda u, v: u.unsqueeze(1) + v)(a, b).shape)
P(vmap(lambda u: u.sum(0))(torch.randn(2, 3, 4)))
P(vmap(lambda d: d["x"] * d["y"])({"x": a, "y": b}))
P(vmap(lambda pair: pair[0] - pair[1])((a, b)))

m = torch.randn(4, 3, 2)
P(vmap(lambda u, v: u @ v)(a, m))
P(vmap(lambda v: v @ torch.ones(2))(m))
P(vmap(lambda v: torch.ones(5, 3) @ v)(m).shape)
P(vmap(lambda u: u @ w)(a))
P(vmap(torch.dot)(a, b))
P(vmap(torch.mm)(torch.randn(4, 2, 3), m).shape)
P(vmap(lambda u: torch.outer(u, w))(a).shape)
lin = nn.Linear(3, 2)
P(vmap(lin)(a))
P(vmap(lambda u: F.linear(u, torch.ones(5, 3)))(torch.randn(4, 6, 3)).shape)

t = torch.randn(4, 2, 3)
P(vmap(lambda u: u.sum())(t))
P(vmap(lambda u: u.mean(-1))(t))
P(vmap(lambda u: u.sum(dim=(0, 1), keepdim=True))(t).shape)
P(vmap(lambda u: u.max(1))(t))
P(vmap(lambda u: u.amax())(t))
P(vmap(lambda u: u.argmax())(t))
P(vmap(lambda u: u.std(1))(t))
P(vmap(lambda u: u.norm())(t))
P(vmap(lambda u: u.softmax(-1))(t))
P(vmap(lambda u: F.log_softmax(u, dim=0))(t))
P(vmap(lambda u: u.cumsum(1))(t))
P(vmap(lambda u: u.logsumexp(1))(t))

P(vmap(lambda u: u.view(6))(t))
P(vmap(lambda u: u.reshape(3, -1))(t).shape)
P(vmap(lambda u: u.t())(t).shape)
P(vmap(lambda u: u.transpose(0, 1))(t).shape)
P(vmap(lambda u: u.permute(1, 0))(t).shape)
P(vmap(lambda u: u.unsqueeze(-1))(t).shape)
P(vmap(lambda u: u.unsqueeze(0).squeeze())(t).shape)
P(vmap(lambda u: u.flatten())(t).shape)
P(vmap(lambda u: u.expand(5, 2, 3))(t).shape)
P(vmap(lambda u: u[1])(t))
P(vmap(lambda u: u[:, 1:])(t))
P(vmap(lambda u: torch.cat([u, u * 2], 1))(t).shape)
P(vmap(lambda u: torch.stack([u, w.expand(2, 3)]))(t).shape)
P(vmap(lambda u, i: u[i.unsqueeze(0)])(a, torch.tensor([0, 2, 1, 1])))
P(vmap(lambda u: torch.where(u > 0, u, torch.zeros(3)))(a))
P(vmap(lambda u: u.clamp(min=-0.5, max=0.5))(a))

W = torch.arange(12.0).view(4, 3)
P(vmap(lambda i: W[i])(torch.tensor([[1], [3]])))
P(vmap(lambda i: F.embedding(i, W))(torch.tensor([[1, 2], [3, 0]])))
emb = nn.Embedding(4, 3)
P(vmap(emb)(torch.tensor([[1, 2], [3, 0]])))

img = torch.randn(4, 1, 5, 5)
conv = nn.Conv2d(1, 2, 3)
P(vmap(conv)(img).shape)
P(vmap(lambda u: F.max_pool2d(conv(u), 2))(img))

logits = torch.randn(4, 5)
target = torch.tensor([1, 0, 4, 2])
P(vmap(F.cross_entropy)(logits, target))
P(vmap(lambda u, v: F.cross_entropy(u.unsqueeze(0), v.unsqueeze(0)))(logits, target))
P(vmap(lambda u, v: F.mse_loss(u, v))(a, b))
P(vmap(lambda u, v: F.l1_loss(u, v, reduction="sum"))(a, b))
P(vmap(lambda u: F.relu(u) + torch.sigmoid(u) + torch.tanh(u))(a))

P(vmap(vmap(lambda u, v: u * v))(torch.randn(2, 3, 4), torch.randn(2, 3, 4)).shape)
P(vmap(vmap(lambda u: u.sum()))(t))
P(vmap(vmap(lambda u, v: u @ v, in_dims=(0, None)), in_dims=(None, 0))(a, m))

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = {name: p.detach() for name, p in model.named_parameters()}
xs = torch.randn(5, 3)
ys = torch.tensor([0, 1, 1, 0, 1])


def loss(params, x, y):
    out = functional_call(model, params, (x.unsqueeze(0),))
    return F.cross_entropy(out, y.unsqueeze(0))


per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, xs, ys)
for name in ["0.weight", "0.bias", "2.weight", "2.bias"]:
    P(name, per_sample[name])
P(vmap(grad(lambda u: (u ** 3).sum()))(a))
P(grad(lambda u: vmap(lambda r: r.sin().sum())(u).sum())(a))

torch.manual_seed(0)
P(vmap(lambda u: u + torch.randn(3), randomness="different")(torch.zeros(2, 3)))
P(vmap(lambda u: u + torch.rand(3), randomness="same")(torch.zeros(2, 3)))
P(vmap(lambda u: F.dropout(u, 0.5, training=False))(torch.ones(2, 3)))

# per-sample gradients of a small CNN: the conv's weights per sample
torch.manual_seed(2)
cnn = nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 4 * 4, 2))
cnn_params = {name: p.detach() for name, p in cnn.named_parameters()}
imgs = torch.randn(4, 1, 6, 6)
labels = torch.tensor([0, 1, 1, 0])


def cnn_loss(params, img, y):
    return F.cross_entropy(functional_call(cnn, params, (img.unsqueeze(0),)), y.unsqueeze(0))


cnn_grads = vmap(grad(cnn_loss), in_dims=(None, 0, 0))(cnn_params, imgs, labels)
P(cnn_grads["0.weight"][2], cnn_grads["0.bias"])
