# nn.MultiheadAttention (PyTorch 1.13): initial parameters after manual_seed, outputs and
# attention weights, parameter gradients; bool and float masks, key padding, batch_first,
# unbatched input, kdim/vdim, add_bias_kv, add_zero_attn, need_weights=False.
# tolerance: rtol=1e-4 atol=1e-4 (BLAS products and exp: a last printed digit may differ on another CPU)
import torch
import torch.nn as nn
from agfmt import P

torch.manual_seed(0)
m = nn.MultiheadAttention(4, 2)
P(m.in_proj_weight)
P(m.in_proj_bias)
P(m.out_proj.weight)
P(m.out_proj.bias)
P([name for name, _ in m.named_parameters()])
x = torch.randn(3, 2, 4)
out, w = m(x, x, x)
P(out)
P(w)
(out * torch.arange(24.0).view(3, 2, 4)).sum().backward()
P(m.in_proj_weight.grad)
P(m.in_proj_bias.grad)
P(m.out_proj.weight.grad)
P(m.out_proj.bias.grad)

# masks: a causal bool mask, padding of the second item's last key, both merged
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
pad = torch.tensor([[False, False, False], [False, False, True]])
P(m(x, x, x, attn_mask=causal)[1])
P(m(x, x, x, key_padding_mask=pad)[1])
P(m(x, x, x, key_padding_mask=pad, attn_mask=causal)[0])
fmask = torch.tensor([[0.0, -1.0, 0.5], [0.25, 0.0, -2.0], [1.0, 0.0, 0.0]])
P(m(x, x, x, attn_mask=fmask)[1])
P(m(x, x, x, attn_mask=fmask, key_padding_mask=pad)[1])
P(m(x, x, x, attn_mask=causal.unsqueeze(0).expand(4, 3, 3))[1])
P(m(x, x, x, key_padding_mask=pad.float() * -3.0)[1])
P(m(x, x, x, average_attn_weights=False)[1])
P(m(x, x, x, need_weights=False)[1])

# cross-attention, batch first: query [N, L, E], key = value [N, S, E]
torch.manual_seed(1)
bf = nn.MultiheadAttention(6, 3, batch_first=True)
q = torch.randn(2, 3, 6)
kv = torch.randn(2, 5, 6)
out, w = bf(q, kv, kv)
P(out)
P(w)
out.pow(2).sum().backward()
P(bf.in_proj_weight.grad)
P(bf.out_proj.bias.grad)
# self-attention, batch first, with padding
P(bf(q, q, q, key_padding_mask=torch.tensor([[False, True, False], [False, False, False]]))[0])

# unbatched [L, E]
P(m(x[:, 0], x[:, 0], x[:, 0])[0])
P(m(x[:, 1], x[:, 0], x[:, 0], key_padding_mask=torch.tensor([True, False, False]))[1])

# separate projections (kdim, vdim), learned key/value biases, a zero key, no bias
torch.manual_seed(2)
sep = nn.MultiheadAttention(4, 2, kdim=3, vdim=5, add_bias_kv=True, add_zero_attn=True)
P([name for name, _ in sep.named_parameters()])
P(sep.q_proj_weight)
P(sep.bias_k)
P(sep.bias_v)
q = torch.randn(2, 2, 4)
k = torch.randn(3, 2, 3)
v = torch.randn(3, 2, 5)
out, w = sep(q, k, v, key_padding_mask=torch.tensor([[False, False, True], [False, False, False]]))
P(out)
P(w)
out.sum().backward()
P(sep.k_proj_weight.grad)
P(sep.bias_v.grad)
torch.manual_seed(3)
nb = nn.MultiheadAttention(4, 1, bias=False)
P([name for name, _ in nb.named_parameters()])
P(nb(x, x, x)[0])

# dropout is off in eval mode
torch.manual_seed(4)
d = nn.MultiheadAttention(4, 2, dropout=0.5)
d.eval()
P(d(x, x, x)[1])
# dropout on the attention weights while training: PyTorch's random stream
torch.manual_seed(5)
d = nn.MultiheadAttention(4, 2, dropout=0.5)
out, w = d(x, x, x)
P(w)
P(out)
