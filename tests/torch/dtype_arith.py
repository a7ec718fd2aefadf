# The narrow dtypes' arithmetic as PyTorch 1.13 computes it: integers wrap
# around on overflow, floor division and remainder follow the divisor's sign,
# true division gives float32; float16 and bfloat16 compute in float and round
# each result to nearest even (ties, subnormals, overflow to inf); conversions
# truncate toward zero and wrap; reductions (sum of integers is int64);
# printing (the dtype suffix, float16's digits); item() and tolist().
from agfmt import P
import torch

i8 = torch.tensor([127, -128, 100, -7, 7, 0], dtype=torch.int8)
P(i8, i8 + 1, i8 - 1, i8 * 2, -i8, i8.abs())
d = torch.tensor([2, -2, 3, -3, 5, 1], dtype=torch.int8)
P(i8 // d, i8 % d, i8 / d, torch.tensor([-128], dtype=torch.int8) // -1)
u8 = torch.tensor([0, 1, 128, 255], dtype=torch.uint8)
P(u8 + 1, u8 - 1, u8 * 3, u8 // 3, u8 % 7, u8 - 300, u8 + 0.5, u8 ** 2)
P(u8 + torch.tensor([1, -1, 2, -2], dtype=torch.int8), u8 < 128, u8.max(), u8.argmax(), u8.sum(), u8.prod())
i16 = torch.tensor([32767, -32768, 1000, -1000], dtype=torch.int16)
P(i16 + 1, i16 * 40, i16 // 7, i16 % -7, i16.sum(), i16.sum().dtype, i16.max(), i16.min())
i32 = torch.tensor([2147483647, -2147483648, 123456789, -5], dtype=torch.int32)
P(i32 + 1, i32 - 1, i32 * 3, i32 // 1000, i32 % 1000, i32.sum(), i32.cumsum(0), i32 / 7)
P(i32 * 2.5, i32 + torch.tensor(1, dtype=torch.int64), ~i32, ~u8, ~i8)
h = torch.tensor([1.0, 2049.0, 2051.0, 65504.0, 65519.0, 65520.0, 1e-7, 3e-8, -0.1, 0.3], dtype=torch.float16)
P(h)
P(h.tolist())
P(h * 3, h + 1, h / 3, h - 0.1)
P(h * h, h.sum(), h[:3].sum(), h.max(), h.min(), h.argmin(), h.abs(), -h)
P(torch.tensor([0.1, 0.2], dtype=torch.float16) + torch.tensor([0.2, 0.1], dtype=torch.float16))
P(torch.tensor([1, 2], dtype=torch.float16).mean(), torch.tensor([[1.5, 2.25], [3.0, 4.5]], dtype=torch.float16).sum(0))
b = torch.tensor([1.0, 1.0 / 3, 255.5, 1e30, -2.0, 1e-30], dtype=torch.bfloat16)
P(b, b.tolist(), b * 3, b + 1, b.sum())
f = torch.tensor([1.7, -1.7, 2.5, -2.5, 300.0, -300.0, 127.9, 0.0])
P(f.char(), f.short(), f.int(), f.half(), f.bfloat16(), f.to(torch.int8).to(torch.int32))
P(f.abs().byte())
P(torch.tensor([70000, -70000, 40000]).short(), torch.tensor([70000, 256, 257]).byte(), torch.tensor([2 ** 40 + 3]).int())
P(torch.tensor([True, False]).int(), torch.tensor([0, 3], dtype=torch.int8).bool(), torch.tensor([0.0, 0.5]).half().bool())
P(i8.tolist(), u8[2].item(), h[1].item(), b[1].item(), i8.element_size(), h.element_size(), i32.element_size())
P(i8.type(), u8.type(), i16.type(), i32.type(), h.type(), b.type())
P(torch.zeros(2, 0, dtype=torch.int8), torch.zeros(0, dtype=torch.float16), torch.ones(2, 2, dtype=torch.int32))
P(torch.tensor(5, dtype=torch.int16), torch.tensor(0.1, dtype=torch.float16), torch.tensor([1e-5, 1.0], dtype=torch.float16))
P(torch.arange(5, dtype=torch.int32), torch.arange(0, 1, 0.25, dtype=torch.float16), torch.full([2], -100, dtype=torch.int8))
P(torch.tensor([[1, 2], [3, 4]], dtype=torch.uint8).t().contiguous(), torch.cat([i8[:2], i8[:1]]), torch.stack([h[:2], h[:2]]))
m = torch.tensor([10, 20, 30, 40], dtype=torch.int16)
m[torch.tensor([True, False, True, False])] = 7
m[1] = -32768
P(m, m[torch.tensor([0, 2])], m[1:3], torch.where(m > 10, m, torch.zeros(4, dtype=torch.int16)))
P(torch.tensor([3, 1, 2], dtype=torch.int8).sort(), torch.tensor([3.5, 1.5, 2.5], dtype=torch.float16).sort(descending=True))
P(i16.clamp(-5, 5), i8.float().requires_grad_())
for f in [lambda: torch.full([1], 300, dtype=torch.int8), lambda: torch.zeros(1, dtype=torch.float16).fill_(70000.0),
          lambda: torch.tensor([40000], dtype=torch.int16), lambda: torch.tensor([256], dtype=torch.uint8),
          lambda: torch.ones(2, dtype=torch.int32).requires_grad_(), lambda: torch.ones(2, dtype=torch.int8).mean(),
          lambda: torch.tensor([1, 2], dtype=torch.uint8)[torch.tensor([0, 1], dtype=torch.int32)],
          lambda: torch.tensor([1.5], dtype=torch.float16).requires_grad_(), lambda: torch.full([1], -1, dtype=torch.uint8)]:
    try:
        P(f())
    except RuntimeError as e:
        P("error:", str(e))
    except IndexError as e:
        P("error:", str(e))
x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16, requires_grad=True)
y = (x * x * 3).sum()
y.backward()
P(y, x.grad)
