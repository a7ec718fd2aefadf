#!/usr/bin/python3
"""Differential fuzzer between Ag and PyTorch 1.13.

Each random program (tensor creation in every dtype, elementwise ops and
comparisons over all dtype pairs and with numbers, reductions with dim and
keepdim, shape ops, indexing and index assignment, matmul, softmax, losses,
and autograd: random expression trees over requires_grad leaves, backward,
.grad, grad_fn names, next_functions, is_leaf, _version) is written twice: as
Ag and as Python using tests/torch/agfmt.py, so both print the same text when
Ag computes what PyTorch computes. The same seed always gives the same pair.
Every statement is guarded: an error prints "error" in both languages (only
whether both raised is compared). Mismatching pairs are saved as
OUTDIR/sSEED.ag, .py, .ag.out, .py.out.

usage: /usr/bin/python3 tests/fuzz/torchdiff.py [--ag ./ag] [--seed S]
           [--count N] [--jobs J] [--out build/torchdiff] [--show SEED]
--show SEED prints the pair of one seed without running it.
Not part of `make test`: it needs PyTorch."""
import argparse
import contextlib
import io
import os
import random
import subprocess
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
TORCH_DIR = os.path.join(os.path.dirname(HERE), "torch")

NICE = [0.5, -1.25, 2, 1, -0.75, 3, -2, 1.5, 0.25, -1, -0.5, 4]
NICE_NZ = NICE
INTS = [-3, -2, -1, 0, 1, 2, 3, 4]
DTYPES = ["float32", "float64", "int64", "bool"]
FLOATS = ["float32", "float64"]
SHAPES = [[], [3], [4], [2, 3], [1, 3], [2, 1], [3, 1], [2, 2], [2, 2, 3], [1, 2, 3]]


def num(v):
    if isinstance(v, bool):
        return v
    if float(v) == int(v):
        return str(int(v))
    return repr(float(v))


class E:
    """An expression in both languages."""
    def __init__(self, a, p, dtype=None, shape=None, grad=False):
        self.a, self.p, self.dtype, self.shape, self.grad = a, p, dtype, shape, grad


def bcast(s1, s2):
    r = []
    for i in range(max(len(s1), len(s2))):
        a = s1[len(s1) - 1 - i] if i < len(s1) else 1
        b = s2[len(s2) - 1 - i] if i < len(s2) else 1
        if a != b and a != 1 and b != 1:
            return None
        r.append(max(a, b))
    return r[::-1]


def promote(d1, d2):
    order = ["bool", "int64", "float32", "float64"]
    return order[max(order.index(d1), order.index(d2))]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.ag = []
        self.py = []
        self.pool = []
        self.n = 0

    # ---- emitting -----------------------------------------------------
    def emit(self, a, p):
        self.ag.append(a)
        self.py.append(p)

    def guard(self, a_stmts, p_stmts):
        """statements run under try; an error prints "error" in both."""
        mark = "@%d" % (len(self.ag) + 1)
        self.ag.append("print(\"%s\"); try { " % mark + "; ".join(a_stmts) + " } catch e { print(\"error\") }")
        self.py.append("P(\"%s\")" % mark)
        self.py.append("try:")
        for s in p_stmts:
            self.py.append("    " + s)
        self.py.append("except Exception:\n    P(\"error\")")

    def show(self, *es):
        self.guard(["print(" + ", ".join(e.a for e in es) + ")"],
                   ["P(" + ", ".join(e.p for e in es) + ")"])

    def fresh(self, prefix="v"):
        self.n += 1
        return "%s%d" % (prefix, self.n)

    def bind(self, name, e):
        """name = e, guarded; name is nil/None when e fails."""
        self.emit("let %s = nil" % name, "%s = None" % name)
        self.guard(["%s = %s" % (name, e.a)], ["%s = %s" % (name, e.p)])
        return E(name, name, e.dtype, e.shape, e.grad)

    # ---- values -------------------------------------------------------
    def pick(self, xs):
        return self.r.choice(xs)

    def scalar(self, dtype="float32"):
        r = self.r
        if dtype == "bool":
            v = r.random() < 0.5
            return ("true" if v else "false"), ("True" if v else "False")
        if dtype == "int64":
            v = r.choice(INTS)
            return str(v), str(v)
        v = r.choice(NICE)
        return num(v), num(v)

    def data(self, shape, dtype, pyfloat=False):
        if not shape:
            a, p = self.scalar(dtype)
            if pyfloat and "." not in p and "e" not in p:
                p += ".0"
            return a, p
        parts = [self.data(shape[1:], dtype, pyfloat) for _ in range(shape[0])]
        return "[" + ", ".join(x[0] for x in parts) + "]", "[" + ", ".join(x[1] for x in parts) + "]"

    def leaf(self, dtype=None, shape=None, grad=None):
        r = self.r
        dtype = dtype or r.choice(DTYPES)
        shape = shape if shape is not None else r.choice(SHAPES)
        if grad is None:
            grad = dtype in FLOATS and r.random() < 0.3
        if dtype == "float32" and not grad and r.random() < 0.3:
            a, p = self.data(shape, dtype, pyfloat=True)
            return E("tensor(%s)" % a, "torch.tensor(%s)" % p, dtype, shape)
        a, p = self.data(shape, dtype)
        ka = ", dtype=%s" % dtype
        kp = ", dtype=torch.%s" % dtype
        if grad:
            ka += ", requires_grad=true"
            kp += ", requires_grad=True"
        return E("tensor(%s%s)" % (a, ka), "torch.tensor(%s%s)" % (p, kp), dtype, shape, grad)

    def operand(self, like=None):
        """a pool tensor (preferably broadcastable with like) or a number."""
        r = self.r
        if r.random() < 0.2:
            if r.random() < 0.1:
                return E("true", "True", "bool", None)
            v = r.choice(NICE + [0])
            return E(num(v), num(v), "number", None)
        if like is not None and like.shape is not None and r.random() < 0.85:
            ok = [t for t in self.pool if bcast(t.shape, like.shape) is not None]
            if ok:
                return r.choice(ok)
        return r.choice(self.pool)

    # ---- statements ---------------------------------------------------
    def st_create(self):
        r = self.r
        k = r.randrange(9)
        dt = r.choice(DTYPES)
        if k == 0:
            self.show(self.leaf())
        elif k == 1:
            f = r.choice(["zeros", "ones"])
            shape = r.choice(SHAPES[1:])
            s = ", ".join(map(str, shape))
            self.show(E("%s(%s, dtype=%s)" % (f, s, dt), "torch.%s(%s, dtype=torch.%s)" % (f, s, dt)))
        elif k == 2:
            a, b, st = r.choice([(0, 5, 1), (1, 4, 1), (-2, 3, 2), (0, 1, 0.25), (2, -1, -1), (0.5, 3, 1)])
            self.show(E("arange(%s, %s, %s)" % (num(a), num(b), num(st)),
                        "torch.arange(%s, %s, %s)" % (num(a), num(b), num(st))))
            n = r.choice([0, 1, 3, 4.0])
            self.show(E("arange(%s)" % num(n), "torch.arange(%s)" % num(n)))
        elif k == 3:
            a, b, n = r.choice([(0, 1, 5), (-1, 1, 3), (2, 3, 1), (0, 2, 4)])
            self.show(E("linspace(%s, %s, %d)" % (num(a), num(b), n),
                        "torch.linspace(%s, %s, %d)" % (num(a), num(b), n)))
        elif k == 4:
            n = r.choice([1, 2, 3])
            self.show(E("eye(%d)" % n, "torch.eye(%d)" % n))
            self.show(E("eye(%d, dtype=%s)" % (n, dt), "torch.eye(%d, dtype=torch.%s)" % (n, dt)))
        elif k == 5:
            shape = r.choice(SHAPES[1:])
            v = r.choice(NICE)
            pv = num(v) if "." in num(v) else num(v) + ".0"
            self.show(E("full(%s, %s)" % (shape, num(v)), "torch.full(%s, %s)" % (shape, pv)))
            a, p = self.scalar(dt)
            self.show(E("full(%s, %s, dtype=%s)" % (shape, a, dt),
                        "torch.full(%s, %s, dtype=torch.%s)" % (shape, p, dt)))
        elif k == 6:
            t = r.choice(self.pool)
            f = r.choice(["zeros_like", "ones_like"])
            self.show(E("%s(%s)" % (f, t.a), "torch.%s(%s)" % (f, t.p)))
        elif k == 7:
            t = r.choice(self.pool)
            d2 = r.choice(DTYPES)
            m = r.choice(["float()", "double()", "long()", "to(%s)" % d2])
            mp = m.replace("to(", "to(torch.")
            e = E("%s.%s" % (t.a, m), "%s.%s" % (t.p, mp))
            self.show(e, E(e.a + ".dtype", e.p + ".dtype"))
        else:
            t = r.choice(self.pool)
            self.show(E(t.a + ".dtype", t.p + ".dtype"), E(t.a + ".shape", t.p + ".shape"),
                      E(t.a + ".ndim", t.p + ".ndim"), E(t.a + ".numel()", t.p + ".numel()"),
                      E(t.a + ".requires_grad", t.p + ".requires_grad"),
                      E(t.a + ".is_leaf", t.p + ".is_leaf"))
            if not t.shape:
                self.show(E(t.a + ".item()", t.p + ".item()"))
            else:
                self.show(E(t.a + ".tolist()", t.p + ".tolist()"))

    BIN = ["+", "-", "*", "/", "**", "%", "==", "!=", "<", "<=", ">", ">="]
    BINF = ["maximum", "minimum", "pow", "add", "sub", "mul", "div"]

    def st_binary(self):
        r = self.r
        a = r.choice(self.pool)
        b = self.operand(a)
        if r.random() < 0.3 and b.dtype != "number":
            a, b = b, a
        elif r.random() < 0.2:
            a, b = b, a
        if a.dtype in ("number", "bool") and a.shape is None and b.shape is None:
            b = r.choice(self.pool)
        if r.random() < 0.75:
            op = r.choice(self.BIN)
            e = E("%s %s %s" % (a.a, op, b.a), "%s %s %s" % (a.p, op, b.p))
        else:
            f = r.choice(self.BINF)
            if a.shape is None:
                a, b = b, a
            if f in ("maximum", "minimum") and b.shape is None:
                b = r.choice(self.pool)
            if r.random() < 0.5:
                e = E("%s.%s(%s)" % (a.a, f, b.a), "%s.%s(%s)" % (a.p, f, b.p))
            else:
                e = E("%s(%s, %s)" % (f, a.a, b.a), "torch.%s(%s, %s)" % (f, a.p, b.p))
        if r.random() < 0.3:
            self.show(E(e.a, e.p), E("(%s).dtype" % e.a, "(%s).dtype" % e.p))
        else:
            self.show(e)

    UN = ["neg", "abs", "sqrt", "exp", "log", "sin", "cos", "tanh", "sigmoid", "relu",
          "floor", "ceil", "round", "tan", "gelu"]

    def st_unary(self):
        r = self.r
        t = r.choice(self.pool)
        f = r.choice(self.UN + ["clamp"])
        if f == "clamp":
            lo, hi = sorted([r.choice(NICE), r.choice(NICE)])
            k = r.randrange(3)
            args = ["min=%s" % num(lo), "max=%s" % num(hi)]
            args = args[:1] if k == 0 else args[1:] if k == 1 else args
            s = ", ".join(args)
            self.show(E("%s.clamp(%s)" % (t.a, s), "%s.clamp(%s)" % (t.p, s)))
            return
        if f == "gelu" or f == "relu" and r.random() < 0.5:
            mod = "torch.nn.functional." if f == "gelu" else "torch."
            self.show(E("%s(%s)" % (f, t.a), "%s%s(%s)" % (mod, f, t.p)))
        elif r.random() < 0.5 and f in ("abs", "sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "round", "floor", "ceil", "sigmoid"):
            self.show(E("%s(%s)" % (f, t.a), "torch.%s(%s)" % (f, t.p)))
        else:
            self.show(E("%s.%s()" % (t.a, f), "%s.%s()" % (t.p, f)))
        if r.random() < 0.2:
            self.show(E("-%s" % t.a, "-%s" % t.p))

    RED = ["sum", "mean", "prod", "max", "min", "argmax", "argmin", "std", "var", "norm", "logsumexp"]

    def st_reduce(self):
        r = self.r
        t = r.choice(self.pool)
        f = r.choice(self.RED)
        nd = len(t.shape)
        args_a, args_p = [], []
        if f == "logsumexp" or r.random() < 0.7:
            d = r.randrange(-nd, nd) if nd else r.choice([0, -1])
            if r.random() < 0.7:
                args_a.append("dim=%d" % d)
                args_p.append("dim=%d" % d)
            else:
                args_a.append("%d" % d)
                args_p.append("%d" % d)
            if r.random() < 0.5:
                k = r.random() < 0.5
                args_a.append("keepdim=%s" % ("true" if k else "false"))
                args_p.append("keepdim=%s" % ("True" if k else "False"))
        self.show(E("%s.%s(%s)" % (t.a, f, ", ".join(args_a)), "%s.%s(%s)" % (t.p, f, ", ".join(args_p))))

    def st_shape(self):
        r = self.r
        t = r.choice(self.pool)
        nd = len(t.shape)
        n = 1
        for s in t.shape:
            n *= s
        k = r.randrange(12)
        if k == 0:
            shapes = [[n], [-1], [1, n], [n, 1], [-1, 1]]
            if n % 2 == 0:
                shapes += [[2, n // 2], [2, -1], [-1, 2], [1, 2, -1]]
            s = r.choice(shapes)
            m = r.choice(["reshape", "view"])
            args = ", ".join(map(str, s))
            self.show(E("%s.%s(%s)" % (t.a, m, args), "%s.%s(%s)" % (t.p, m, args)))
        elif k == 1:
            self.show(E(t.a + ".flatten()", t.p + ".flatten()"))
        elif k == 2:
            if nd and r.random() < 0.6:
                d = r.randrange(-nd, nd)
                self.show(E("%s.squeeze(%d)" % (t.a, d), "%s.squeeze(%d)" % (t.p, d)))
            else:
                self.show(E(t.a + ".squeeze()", t.p + ".squeeze()"))
        elif k == 3:
            d = r.randrange(-nd - 1, nd + 1)
            self.show(E("%s.unsqueeze(%d)" % (t.a, d), "%s.unsqueeze(%d)" % (t.p, d)))
        elif k == 4 and nd:
            a, b = r.randrange(-nd, nd), r.randrange(-nd, nd)
            self.show(E("%s.transpose(%d, %d)" % (t.a, a, b), "%s.transpose(%d, %d)" % (t.p, a, b)))
        elif k == 5 and nd:
            p = list(range(nd))
            r.shuffle(p)
            s = ", ".join(map(str, p))
            self.show(E("%s.permute(%s)" % (t.a, s), "%s.permute(%s)" % (t.p, s)))
        elif k == 6:
            m = r.choice(["t()", "T"]) if nd <= 2 else "T"
            if m == "T" and nd > 2:
                return
            self.show(E("%s.%s" % (t.a, m), "%s.%s" % (t.p, m)))
        elif k == 7:
            target = [2] + [r.choice([s, -1]) if s != 1 else r.choice([1, 3]) for s in t.shape]
            s = ", ".join(map(str, target))
            self.show(E("%s.expand(%s)" % (t.a, s), "%s.expand(%s)" % (t.p, s)))
        elif k == 8:
            u = r.choice([x for x in self.pool if x.dtype == t.dtype] if r.random() < 0.7 else self.pool)
            d = r.randrange(-nd, nd) if nd else 0
            f = r.choice(["cat", "stack"])
            self.show(E("%s([%s, %s], dim=%d)" % (f, t.a, u.a, d), "torch.%s([%s, %s], dim=%d)" % (f, t.p, u.p, d)))
        elif k == 9 and nd:
            d = r.randrange(-nd, nd)
            f = r.choice(["split", "chunk"])
            s = r.choice([1, 2, 3])
            self.show(E("%s.%s(%d, dim=%d)" % (t.a, f, s, d), "%s.%s(%d, dim=%d)" % (t.p, f, s, d)))
        elif k == 10:
            self.show(E(t.a + ".contiguous()", t.p + ".contiguous()"), E(t.a + ".clone()", t.p + ".clone()"))
        else:
            if nd:
                d = r.randrange(nd)
                self.show(E("%s.size(%d)" % (t.a, d), "%s.size(%d)" % (t.p, d)), E(t.a + ".dim()", t.p + ".dim()"))

    def index_item(self, size):
        r = self.r
        k = r.randrange(6)
        if k == 0:
            i = r.randrange(-size, size)
            return str(i), str(i)
        if k == 1:
            return ":", ":"
        if k == 2:
            a = r.choice(["", "0", "1", "-1", "-2"])
            b = r.choice(["", "1", "2", "-1", "3"])
            c = r.choice(["", ":2", ":1", ":3"])
            s = a + ":" + b + c
            return s, s
        if k == 3:
            return "nil", "None"
        if k == 4:
            ids = [r.randrange(-size, size) for _ in range(r.randrange(1, 4))]
            s = ", ".join(map(str, ids))
            return "tensor([%s], dtype=int64)" % s, "torch.tensor([%s], dtype=torch.int64)" % s
        i = r.randrange(size)
        return str(i), str(i)

    def index_expr(self, t):
        r = self.r
        nd = len(t.shape)
        if nd and r.random() < 0.15:
            # boolean mask of the full shape
            m_a, m_p = self.data(t.shape, "bool")
            return "tensor(%s)" % m_a, "torch.tensor(%s)" % m_p
        if nd and r.random() < 0.1:
            s = self.r.choice([">", "<", "=="])
            v = num(r.choice([0, 1, 0.5]))
            return "%s %s %s" % (t.a, s, v), "%s %s %s" % (t.p, s, v)
        items = []
        for d in range(r.randrange(1, max(2, nd + 1))):
            size = t.shape[d] if d < nd else 1
            items.append(self.index_item(size))
        return ", ".join(i[0] for i in items), ", ".join(i[1] for i in items)

    def st_index(self):
        r = self.r
        t = r.choice(self.pool)
        ia, ip = self.index_expr(t)
        if r.random() < 0.5:
            self.show(E("%s[%s]" % (t.a, ia), "%s[%s]" % (t.p, ip)))
            return
        c = self.fresh("c")
        self.emit("let %s = %s.detach().clone()" % (c, t.a) if t.grad else "let %s = %s.clone()" % (c, t.a),
                  "%s = %s.detach().clone()" % (c, t.p) if t.grad else "%s = %s.clone()" % (c, t.p))
        if r.random() < 0.5:
            va, vp = self.scalar(r.choice([t.dtype, "float32", "int64"]))
            if vp in ("True", "False") and t.dtype != "bool":
                va, vp = "1", "1"
        else:
            v = r.choice(self.pool)
            va, vp = v.a, v.p
            if v.grad:
                va += ".detach()"
                vp += ".detach()"
        self.guard(["%s[%s] = %s" % (c, ia, va), "print(%s, %s._version)" % (c, c)],
                   ["%s[%s] = %s" % (c, ip, vp), "P(%s, %s._version)" % (c, c)])

    MM = [([3], [3]), ([2, 3], [3]), ([3], [3, 2]), ([2, 3], [3, 4]), ([2, 2, 3], [3, 2]),
          ([2, 2, 3], [2, 3, 1]), ([3], [2, 3, 2]), ([1, 3], [3, 1]), ([2, 3], [2, 3]), ([2, 2, 3], [3])]

    def st_matmul(self):
        r = self.r
        sa, sb = r.choice(self.MM)
        dt = r.choice(["float32", "float32", "float64", "int64"])
        dt2 = dt if r.random() < 0.85 else r.choice(DTYPES)
        a = self.leaf(dt, sa, grad=False)
        b = self.leaf(dt2, sb, grad=False)
        k = r.randrange(3)
        if k == 0:
            self.show(E("%s @ %s" % (a.a, b.a), "%s @ %s" % (a.p, b.p)))
        elif k == 1:
            self.show(E("matmul(%s, %s)" % (a.a, b.a), "torch.matmul(%s, %s)" % (a.p, b.p)))
        else:
            f = {1: {1: "dot"}, 2: {1: "mv", 2: "mm"}, 3: {3: "bmm"}}.get(len(sa), {}).get(len(sb), "outer")
            if r.random() < 0.2:
                f = r.choice(["dot", "mv", "mm", "bmm", "outer"])
            self.show(E("%s(%s, %s)" % (f, a.a, b.a), "torch.%s(%s, %s)" % (f, a.p, b.p)))

    def st_nn(self):
        r = self.r
        k = r.randrange(7)
        if k <= 1:
            t = r.choice(self.pool)
            nd = len(t.shape)
            d = r.randrange(-nd, nd) if nd else 0
            f = r.choice(["softmax", "log_softmax"])
            if r.random() < 0.5:
                self.show(E("%s(%s, %d)" % (f, t.a, d), "torch.%s(%s, %d)" % (f, t.p, d)))
            else:
                self.show(E("%s.%s(%d)" % (t.a, f, d), "%s.%s(%d)" % (t.p, f, d)))
            return
        red = r.choice([None, "mean", "sum", "none"])
        ra = ", reduction=\"%s\"" % red if red else ""
        F = "torch.nn.functional."
        if k == 2:
            f = r.choice(["mse_loss", "l1_loss"])
            shape = r.choice(SHAPES)
            a = self.leaf(r.choice(FLOATS), shape)
            b = self.leaf(a.dtype if r.random() < 0.8 else r.choice(DTYPES), shape if r.random() < 0.9 else r.choice(SHAPES))
            self.show(E("%s(%s, %s%s)" % (f, a.a, b.a, ra), "%s%s(%s, %s%s)" % (F, f, a.p, b.p, ra)))
        elif k in (3, 4):
            n, c = r.choice([(1, 3), (2, 3), (3, 2)])
            x = self.leaf(r.choice(FLOATS), [n, c])
            tg = [r.randrange(c) for _ in range(n)]
            if r.random() < 0.1:
                tg[0] = c
            ta = "tensor(%s, dtype=int64)" % tg
            tp = "torch.tensor(%s, dtype=torch.int64)" % tg
            if r.random() < 0.15:
                x = self.leaf(r.choice(FLOATS), [c])
                ta = "tensor(%d, dtype=int64)" % tg[0]
                tp = "torch.tensor(%d, dtype=torch.int64)" % tg[0]
            f = "cross_entropy" if k == 3 else "nll_loss"
            xa, xp = x.a, x.p
            if f == "nll_loss":
                xa, xp = "log_softmax(%s, -1)" % xa, "torch.log_softmax(%s, -1)" % xp
            self.show(E("%s(%s, %s%s)" % (f, xa, ta, ra), "%s%s(%s, %s%s)" % (F, f, xp, tp, ra)))
        elif k == 5:
            shape = r.choice(SHAPES)
            x = self.leaf(r.choice(FLOATS), shape)
            tg = self.leaf(x.dtype, shape, grad=False)
            ya, yp = "sigmoid(%s)" % x.a, "torch.sigmoid(%s)" % x.p
            self.show(E("binary_cross_entropy(%s, sigmoid(%s)%s)" % (ya, tg.a, ra),
                        "%sbinary_cross_entropy(%s, torch.sigmoid(%s)%s)" % (F, yp, tg.p, ra)))
        else:
            t = r.choice(self.pool)
            c = r.choice(self.pool)
            o = self.operand(t)
            self.show(E("where(%s > 0, %s, %s)" % (c.a, t.a, o.a), "torch.where(%s > 0, %s, %s)" % (c.p, t.p, o.p)))

    # ---- autograd -----------------------------------------------------
    def diff_expr(self, leaves, depth):
        """a random differentiable expression; returns E with shape."""
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            if r.random() < 0.15:
                c = self.leaf(leaves[0].dtype, r.choice([[], leaves[0].shape]), grad=False)
                return c
            return r.choice(leaves)
        k = r.randrange(14)
        x = self.diff_expr(leaves, depth - 1)
        if k <= 3:
            y = self.diff_expr(leaves, depth - 1)
            if bcast(x.shape, y.shape) is None:
                y = r.choice(leaves)
                if bcast(x.shape, y.shape) is None:
                    return x
            op = r.choice(["+", "-", "*", "/", "*"])
            if op == "/":
                y = E("(%s).exp()" % y.a, "(%s).exp()" % y.p, y.dtype, y.shape)
            return E("(%s %s %s)" % (x.a, op, y.a), "(%s %s %s)" % (x.p, op, y.p), x.dtype, bcast(x.shape, y.shape))
        if k == 4:
            op = r.choice(["+", "-", "*", "/", "r-", "r*", "r/"])
            v = num(r.choice([0.5, 2, -1.5, 3, 1, -1]))
            if op.startswith("r"):
                if op == "r/":
                    x = E("(%s).exp()" % x.a, "(%s).exp()" % x.p, x.dtype, x.shape)
                return E("(%s %s %s)" % (v, op[1], x.a), "(%s %s %s)" % (v, op[1], x.p), x.dtype, x.shape)
            return E("(%s %s %s)" % (x.a, op, v), "(%s %s %s)" % (x.p, op, v), x.dtype, x.shape)
        if k == 5:
            e = r.choice(["2", "3", "0.5", "-1", "2.5"])
            if e in ("0.5", "2.5", "-1"):
                x = E("((%s).exp() + 0.5)" % x.a, "((%s).exp() + 0.5)" % x.p, x.dtype, x.shape)
            if r.random() < 0.5:
                return E("(%s ** %s)" % (x.a, e), "(%s ** %s)" % (x.p, e), x.dtype, x.shape)
            return E("%s.pow(%s)" % (x.a, e), "%s.pow(%s)" % (x.p, e), x.dtype, x.shape)
        if k == 6:
            f = r.choice(["exp", "tanh", "sigmoid", "sin", "cos", "neg", "abs", "relu"])
            if f in ("relu", "abs"):
                return E("%s(%s)" % (f, x.a), "torch.%s(%s)" % (f, x.p), x.dtype, x.shape)
            return E("%s.%s()" % (x.a, f), "%s.%s()" % (x.p, f), x.dtype, x.shape)
        if k == 7:
            f = r.choice(["sqrt", "log"])
            x = E("(%s).exp()" % x.a, "(%s).exp()" % x.p, x.dtype, x.shape)
            return E("%s.%s()" % (x.a, f), "%s.%s()" % (x.p, f), x.dtype, x.shape)
        if k == 8 and x.shape:
            nd = len(x.shape)
            d = r.randrange(-nd, nd)
            f = r.choice(["sum", "mean", "softmax", "log_softmax", "logsumexp", "max", "prod", "norm", "std"])
            kd = r.random() < 0.4
            if f in ("softmax", "log_softmax"):
                return E("%s.%s(%d)" % (x.a, f, d), "%s.%s(%d)" % (x.p, f, d), x.dtype, x.shape)
            if f == "std" and x.shape[d] < 2:
                f = "sum"
            shape = list(x.shape)
            if kd:
                shape[d] = 1
            else:
                del shape[d]
            sa = "%s.%s(dim=%d, keepdim=%s)" % (x.a, f, d, "true" if kd else "false")
            sp = "%s.%s(dim=%d, keepdim=%s)" % (x.p, f, d, "True" if kd else "False")
            if f == "max":
                sa += "[0]"
                sp += "[0]"
            return E(sa, sp, x.dtype, shape)
        if k == 9 and x.shape:
            nd = len(x.shape)
            m = r.randrange(5)
            if m == 0:
                return E("%s[0]" % x.a, "%s[0]" % x.p, x.dtype, x.shape[1:])
            if m == 1 and nd >= 2:
                return E("%s.transpose(0, 1)" % x.a, "%s.transpose(0, 1)" % x.p, x.dtype,
                         [x.shape[1], x.shape[0]] + x.shape[2:])
            if m == 2:
                return E("%s.unsqueeze(0)" % x.a, "%s.unsqueeze(0)" % x.p, x.dtype, [1] + x.shape)
            if m == 3:
                n = 1
                for s in x.shape:
                    n *= s
                return E("%s.reshape(-1)" % x.a, "%s.reshape(-1)" % x.p, x.dtype, [n])
            return E("%s[..., -1:]" % x.a if False else "%s[-1:]" % x.a, "%s[-1:]" % x.p, x.dtype, [1] + x.shape[1:])
        if k == 10:
            lo, hi = sorted(r.sample([-1, -0.5, 0.25, 1.75, 2.5], 2))
            return E("%s.clamp(min=%s, max=%s)" % (x.a, num(lo), num(hi)), "%s.clamp(min=%s, max=%s)" % (x.p, num(lo), num(hi)), x.dtype, x.shape)
        if k == 11:
            y = self.diff_expr(leaves, depth - 1)
            if x.shape == y.shape:
                f = r.choice(["maximum", "minimum", "stack", "cat", "where"])
                if f in ("maximum", "minimum"):
                    return E("%s(%s, %s)" % (f, x.a, y.a), "torch.%s(%s, %s)" % (f, x.p, y.p), x.dtype, x.shape)
                if f == "where":
                    return E("where(%s > %s, %s, %s)" % (x.a, y.a, x.a, y.a), "torch.where(%s > %s, %s, %s)" % (x.p, y.p, x.p, y.p), x.dtype, x.shape)
                if f == "stack":
                    return E("stack([%s, %s])" % (x.a, y.a), "torch.stack([%s, %s])" % (x.p, y.p), x.dtype, [2] + x.shape)
                if x.shape:
                    return E("cat([%s, %s])" % (x.a, y.a), "torch.cat([%s, %s])" % (x.p, y.p), x.dtype, [2 * x.shape[0]] + x.shape[1:])
            return x
        if k == 12 and len(x.shape) in (1, 2):
            w = self.leaf(x.dtype, [x.shape[-1], 2], grad=r.random() < 0.5)
            leaves.append(w) if w.grad else None
            return E("(%s @ %s)" % (x.a, w.a), "(%s @ %s)" % (x.p, w.p), x.dtype, x.shape[:-1] + [2])
        if k == 13:
            f = r.choice(["mse_loss", "l1_loss"])
            y = r.choice(leaves)
            if y.shape == x.shape:
                return E("%s(%s, %s)" % (f, x.a, y.a), "torch.nn.functional.%s(%s, %s)" % (f, x.p, y.p), x.dtype, [])
        return x

    def node_walk(self, ya, yp, depth):
        self.show(E(ya, yp))
        self.show(E(ya + ".next_functions", yp + ".next_functions"))
        if depth > 0:
            self.guard(["for p in %s.next_functions { if p[0] != nil { print(p[0], p[0].next_functions) } }" % ya],
                       ["for p in %s.next_functions:\n        if p[0] is not None: P(p[0], p[0].next_functions)" % yp])

    def st_autograd(self):
        r = self.r
        dt = r.choice(FLOATS)
        shape = r.choice([[], [3], [2, 3], [2, 2], [1, 3], [2, 1]])
        leaves = []
        for i in range(r.randrange(1, 4)):
            s = shape if i == 0 or r.random() < 0.6 else r.choice([shape[1:], [1] + shape, shape[:1] + [1] * (len(shape) - 1)])
            lv = self.leaf(dt, s, grad=True)
            name = self.fresh("x")
            self.emit("let %s = %s" % (name, lv.a), "%s = %s" % (name, lv.p))
            leaves.append(E(name, name, dt, s, True))
        ex = self.diff_expr(leaves, r.randrange(1, 5))
        y = self.bind(self.fresh("y"), ex)
        self.show(y)
        self.show(E(y.a + ".requires_grad", y.p + ".requires_grad"), E(y.a + ".is_leaf", y.p + ".is_leaf"))
        self.node_walk(y.a + ".grad_fn", y.p + ".grad_fn", 1)
        red = r.choice(["sum()", "mean()", "sum()"])
        if r.random() < 0.3 and y.shape == []:
            self.guard(["%s.backward()" % y.a], ["%s.backward()" % y.p])
        elif r.random() < 0.15:
            ga, gp = self.data(y.shape or [], dt)
            self.guard(["%s.backward(tensor(%s, dtype=%s))" % (y.a, ga, dt)],
                       ["%s.backward(torch.tensor(%s, dtype=torch.%s))" % (y.p, gp, dt)])
        else:
            L = self.bind(self.fresh("L"), E("%s.%s" % (y.a, red), "%s.%s" % (y.p, red)))
            self.show(L)
            self.guard(["%s.backward()" % L.a], ["%s.backward()" % L.p])
        for lv in leaves:
            self.show(E(lv.a + ".grad", lv.p + ".grad"))
        if r.random() < 0.3:
            # in-place on a non-leaf and its version counter
            z = self.fresh("z")
            lv = leaves[0]
            f = r.choice(["add_", "sub_", "mul_", "div_"])
            v = num(r.choice([2, 0.5, -1.5]))
            self.emit("let %s = %s * 1" % (z, lv.a), "%s = %s * 1" % (z, lv.p))
            self.show(E(z + "._version", z + "._version"))
            self.guard(["%s.%s(%s)" % (z, f, v)], ["%s.%s(%s)" % (z, f, v)])
            self.show(E(z, z), E(z + "._version", z + "._version"), E(z + ".grad_fn", z + ".grad_fn"))
            self.node_walk(z + ".grad_fn", z + ".grad_fn", 0)
            if r.random() < 0.5:
                w = self.fresh("w")
                self.emit("let %s = %s * %s" % (w, lv.a, lv.a), "%s = %s * %s" % (w, lv.p, lv.p))
                self.show(E(w + ".grad_fn", w + ".grad_fn"))
                self.guard(["%s.mul_(2)" % w, "%s.sum().backward()" % w, "print(%s.grad)" % lv.a],
                           ["%s.mul_(2)" % w, "%s.sum().backward()" % w, "P(%s.grad)" % lv.p])
        if r.random() < 0.2:
            lv = leaves[0]
            self.guard(["%s.add_(1)" % lv.a], ["%s.add_(1)" % lv.p])
            self.guard(["with no_grad() { %s.mul_(2) }" % lv.a, "print(%s, %s._version)" % (lv.a, lv.a)],
                       ["with torch.no_grad(): %s.mul_(2)" % lv.p, "P(%s, %s._version)" % (lv.p, lv.p)])
        if r.random() < 0.2:
            lv = leaves[0]
            d = self.fresh("d")
            self.emit("let %s = %s.detach()" % (d, lv.a), "%s = %s.detach()" % (d, lv.p))
            self.show(E(d + ".requires_grad", d + ".requires_grad"), E(d + ".is_leaf", d + ".is_leaf"), E(d + ".grad_fn", d + ".grad_fn"))

    def st_inplace(self):
        r = self.r
        t = r.choice(self.pool)
        c = self.fresh("c")
        self.emit("let %s = %s.detach().clone()" % (c, t.a), "%s = %s.detach().clone()" % (c, t.p))
        f = r.choice(["add_", "sub_", "mul_", "div_", "clamp_", "zero_", "fill_", "copy_"])
        if f == "zero_":
            args_a = args_p = ""
        elif f == "clamp_":
            args_a = args_p = "min=%s" % num(r.choice(NICE))
        elif f == "fill_":
            args_a = args_p = num(r.choice(NICE))
        else:
            o = self.operand(t)
            args_a, args_p = o.a, o.p
        self.guard(["%s.%s(%s)" % (c, f, args_a), "print(%s, %s._version, %s.dtype)" % (c, c, c)],
                   ["%s.%s(%s)" % (c, f, args_p), "P(%s, %s._version, %s.dtype)" % (c, c, c)])

    def st_select(self):
        r = self.r
        t = r.choice(self.pool)
        nd = len(t.shape)
        if not nd:
            return
        d = r.randrange(-nd, nd)
        size = t.shape[d]
        if r.random() < 0.5:
            ids = [r.randrange(size) for _ in range(r.randrange(1, 4))]
            self.show(E("index_select(%s, %d, tensor(%s, dtype=int64))" % (t.a, d, ids),
                        "torch.index_select(%s, %d, torch.tensor(%s, dtype=torch.int64))" % (t.p, d, ids)))
        else:
            shape = list(t.shape)
            shape[d] = r.randrange(1, 3)
            ia, ip = self.data(shape, "int64")
            ia = ia.replace("-1", "0").replace("-2", "1").replace("-3", "0").replace("4", "0")
            ip = ip.replace("-1", "0").replace("-2", "1").replace("-3", "0").replace("4", "0")
            self.show(E("gather(%s, %d, tensor(%s, dtype=int64))" % (t.a, d, ia),
                        "torch.gather(%s, %d, torch.tensor(%s, dtype=torch.int64))" % (t.p, d, ip)))

    NODE_OPS = [("%s.T", "%s.T"), ("%s.t()", "%s.t()"), ("%s[0]", "%s[0]"), ("%s[:, 1:]", "%s[:, 1:]"),
                ("%s[nil]", "%s[None]"), ("%s.reshape(-1)", "%s.reshape(-1)"), ("%s.view(-1)", "%s.view(-1)"),
                ("%s.flatten()", "%s.flatten()"), ("%s.unsqueeze(0)", "%s.unsqueeze(0)"),
                ("%s.squeeze()", "%s.squeeze()"), ("%s.squeeze(0)", "%s.squeeze(0)"),
                ("%s.expand(2, 2, 3)", "%s.expand(2, 2, 3)"), ("%s.permute(1, 0)", "%s.permute(1, 0)"),
                ("%s.transpose(0, 1)", "%s.transpose(0, 1)"), ("%s.sum()", "%s.sum()"),
                ("%s.sum(dim=0)", "%s.sum(dim=0)"), ("%s.mean()", "%s.mean()"), ("%s.mean(dim=1)", "%s.mean(dim=1)"),
                ("%s.prod()", "%s.prod()"), ("%s.prod(dim=1)", "%s.prod(dim=1)"), ("%s.max()", "%s.max()"),
                ("%s.max(dim=1)[0]", "%s.max(dim=1)[0]"), ("%s.min()", "%s.min()"), ("%s.std()", "%s.std()"),
                ("%s.var(dim=0)", "%s.var(dim=0)"), ("%s.norm()", "%s.norm()"), ("%s.norm(dim=1)", "%s.norm(dim=1)"),
                ("%s.logsumexp(dim=1)", "%s.logsumexp(dim=1)"), ("softmax(%s, 1)", "torch.softmax(%s, 1)"),
                ("log_softmax(%s, 0)", "torch.log_softmax(%s, 0)"), ("%s * 2", "%s * 2"), ("2 * %s", "2 * %s"),
                ("%s + 1", "%s + 1"), ("1 + %s", "1 + %s"), ("%s - 1", "%s - 1"), ("1 - %s", "1 - %s"),
                ("%s / 2", "%s / 2"), ("2 / %s", "2 / %s"), ("%s ** 2", "%s ** 2"), ("2 ** %s", "2 ** %s"),
                ("%s ** %s", "%s ** %s"), ("-%s", "-%s"), ("%s.pow(3)", "%s.pow(3)"), ("%s %% 2", "%s %% 2"),
                ("%s.abs()", "%s.abs()"), ("%s.exp()", "%s.exp()"), ("%s.log()", "%s.log()"), ("%s.sqrt()", "%s.sqrt()"),
                ("%s.sin()", "%s.sin()"), ("%s.cos()", "%s.cos()"), ("%s.tan()", "%s.tan()"), ("%s.tanh()", "%s.tanh()"),
                ("%s.sigmoid()", "%s.sigmoid()"), ("relu(%s)", "torch.relu(%s)"), ("gelu(%s)", "torch.nn.functional.gelu(%s)"),
                ("%s.clamp(min=0)", "%s.clamp(min=0)"), ("%s.clamp(max=1)", "%s.clamp(max=1)"),
                ("%s.clamp(min=-1, max=1)", "%s.clamp(min=-1, max=1)"), ("%s.floor()", "%s.floor()"),
                ("%s.round()", "%s.round()"), ("%s.sign()", "%s.sign()"), ("%s.clone()", "%s.clone()"),
                ("%s.contiguous()", "%s.contiguous()"), ("%s.double()", "%s.double()"), ("%s.float()", "%s.float()"),
                ("%s.to(float64)", "%s.to(torch.float64)"), ("%s @ %s.T", "%s @ %s.T"), ("%s.T @ %s", "%s.T @ %s"),
                ("%s[0] @ %s[1]", "%s[0] @ %s[1]"), ("%s @ %s[0]", "%s @ %s[0]"), ("mm(%s, %s.t())", "torch.mm(%s, %s.t())"),
                ("dot(%s[0], %s[1])", "torch.dot(%s[0], %s[1])"), ("outer(%s[0], %s[1])", "torch.outer(%s[0], %s[1])"),
                ("cat([%s, %s])", "torch.cat([%s, %s])"), ("stack([%s, %s], dim=1)", "torch.stack([%s, %s], dim=1)"),
                ("%s.split(1)[0]", "%s.split(1)[0]"), ("%s.chunk(2, dim=1)[1]", "%s.chunk(2, dim=1)[1]"),
                ("maximum(%s, %s * 2)", "torch.maximum(%s, %s * 2)"), ("minimum(%s, %s.exp())", "torch.minimum(%s, %s.exp())"),
                ("where(%s > 0, %s, 0)", "torch.where(%s > 0, %s, 0)"), ("where(%s > 0, %s, %s * 3)", "torch.where(%s > 0, %s, %s * 3)"),
                ("%s[%s > 0]", "%s[%s > 0]"), ("%s[tensor([1, 0], dtype=int64)]", "%s[torch.tensor([1, 0])]"),
                ("index_select(%s, 1, tensor([0, 2], dtype=int64))", "torch.index_select(%s, 1, torch.tensor([0, 2]))"),
                ("gather(%s, 1, tensor([[0], [2]], dtype=int64))", "torch.gather(%s, 1, torch.tensor([[0], [2]]))"),
                ("mse_loss(%s, %s.detach() * 2)", "torch.nn.functional.mse_loss(%s, %s.detach() * 2)"),
                ("l1_loss(%s, zeros(2, 3))", "torch.nn.functional.l1_loss(%s, torch.zeros(2, 3))"),
                ("cross_entropy(%s, tensor([0, 2], dtype=int64))", "torch.nn.functional.cross_entropy(%s, torch.tensor([0, 2]))"),
                ("nll_loss(%s, tensor([1, 2], dtype=int64))", "torch.nn.functional.nll_loss(%s, torch.tensor([1, 2]))"),
                ("binary_cross_entropy(%s.sigmoid(), ones(2, 3))", "torch.nn.functional.binary_cross_entropy(%s.sigmoid(), torch.ones(2, 3))"),
                ("dropout(%s, 0, true)", "torch.nn.functional.dropout(%s, 0.0, True)"),
                ("%s.detach()", "%s.detach()"), ("%s.data", "%s.data")]

    def st_nodes(self):
        r = self.r
        dt = r.choice(FLOATS)
        x = self.fresh("n")
        a, p = self.data([2, 3], dt)
        self.emit("let %s = tensor(%s, dtype=%s, requires_grad=true)" % (x, a, dt),
                  "%s = torch.tensor(%s, dtype=torch.%s, requires_grad=True)" % (x, p, dt))
        base_a, base_p = x, x
        if r.random() < 0.4:
            base_a, base_p = "(%s * 1)" % x, "(%s * 1)" % x
        for _ in range(r.randrange(1, 4)):
            fa, fp = r.choice(self.NODE_OPS)
            k = fa.count("%s")
            y = self.fresh("o")
            self.emit("let %s = nil" % y, "%s = None" % y)
            self.guard(["%s = %s" % (y, fa % ((base_a,) * k)),
                        "print(%s, %s.grad_fn, %s.requires_grad, %s.is_leaf)" % (y, y, y, y)],
                       ["%s = %s" % (y, fp % ((base_p,) * k)),
                        "P(%s, %s.grad_fn, %s.requires_grad, %s.is_leaf)" % (y, y, y, y)])
            self.guard(["print(%s.grad_fn.next_functions)" % y], ["P(%s.grad_fn.next_functions)" % y])
            if r.random() < 0.5:
                self.guard(["%s.sum().backward()" % y, "print(%s.grad)" % x],
                           ["%s.sum().backward()" % y, "P(%s.grad)" % x])

    def st_print(self):
        """repr layouts: magnitudes, -0, nan/inf, integer widths, summarisation."""
        r = self.r
        k = r.randrange(4)
        if k == 0:
            vals = [r.choice([0.5, -1.25, 1e-5, 3e5, 123.5, -0.0, 1e-8, 2.5e7, 0.1, 1 / 3.0, 100, -7])
                    for _ in range(r.randrange(1, 7))]
            sa = ", ".join("-0.0" if v == 0 and str(v).startswith("-") else repr(float(v)) for v in vals)
            if r.random() < 0.2:
                sa += ", inf" if r.random() < 0.5 else ", nan"
            sp = sa.replace("inf", "float('inf')").replace("nan", "float('nan')")
            dt = r.choice(FLOATS)
            self.show(E("tensor([%s], dtype=%s)" % (sa, dt), "torch.tensor([%s], dtype=torch.%s)" % (sp, dt)))
        elif k == 1:
            vals = [r.choice([0, -1, 12, 123456, -98765, 7, 10 ** 9]) for _ in range(r.randrange(1, 7))]
            s_ = ", ".join(map(str, vals))
            self.show(E("tensor([%s], dtype=int64)" % s_, "torch.tensor([%s], dtype=torch.int64)" % s_))
        elif k == 2:
            n = r.choice([999, 1000, 1001, 2000])
            self.show(E("arange(%d)" % n, "torch.arange(%d)" % n))
            self.show(E("arange(%d).float() / 8" % n, "torch.arange(%d).float() / 8" % n))
        else:
            a, b = r.choice([(10, 200), (40, 30), (3, 400), (1, 1001)])
            self.show(E("arange(%d).reshape(%d, %d) * 0.5" % (a * b, a, b),
                        "torch.arange(%d).reshape(%d, %d) * 0.5" % (a * b, a, b)))

    def program(self):
        r = self.r
        for i in range(r.randrange(3, 7)):
            e = self.leaf()
            name = "t%d" % i
            self.emit("let %s = %s" % (name, e.a), "%s = %s" % (name, e.p))
            self.pool.append(E(name, name, e.dtype, e.shape, e.grad))
        sts = [(self.st_create, 2), (self.st_binary, 6), (self.st_unary, 3), (self.st_reduce, 4),
               (self.st_shape, 3), (self.st_index, 3), (self.st_matmul, 2), (self.st_nn, 3),
               (self.st_autograd, 5), (self.st_inplace, 2), (self.st_select, 1), (self.st_nodes, 4), (self.st_print, 1)]
        fs = [f for f, w in sts for _ in range(w)]
        for _ in range(r.randrange(4, 12)):
            r.choice(fs)()
        ag = "\n".join(self.ag) + "\n"
        py = ("import sys\nsys.path.insert(0, %r)\nimport torch\nfrom agfmt import P\n" % TORCH_DIR
              + "\n".join(self.py) + "\n")
        return ag, py


def gen(seed):
    return Gen(seed).program()


def run_py(src):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(src, "<torchdiff>", "exec"), {"__name__": "torchdiff"})
        except Exception as e:  # noqa: BLE001
            print("PYTHON-UNCAUGHT", type(e).__name__, e)
    import torch
    torch.set_grad_enabled(True)
    return buf.getvalue()


def run_ag(ag, src):
    import time
    for _ in range(30):  # the binary may be being relinked by a concurrent build
        try:
            p = subprocess.run([ag], input=src.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=30, env=dict(os.environ, NO_COLOR="1"))
            break
        except subprocess.TimeoutExpired:
            return "AG-TIMEOUT\n"
        except OSError:
            time.sleep(1)
    else:
        return "AG-NOT-RUNNABLE\n"
    out = p.stdout.decode(errors="replace")
    if p.returncode != 0:
        out += "AG-EXIT %d %s\n" % (p.returncode, p.stderr.decode(errors="replace")[:300])
    return out


def check(args_seed):
    ag, seed, outdir = args_seed
    a, p = gen(seed)
    po = run_py(p)
    ao = run_ag(ag, a)
    if po == ao:
        return seed, True
    os.makedirs(outdir, exist_ok=True)
    base = os.path.join(outdir, "s%d" % seed)
    for ext, txt in ((".ag", a), (".py", p), (".ag.out", ao), (".py.out", po)):
        with open(base + ext, "w") as f:
            f.write(txt)
    return seed, False


def _init():
    import torch
    torch.set_num_threads(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ag", default="./ag")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--out", default="build/torchdiff")
    ap.add_argument("--show", type=int)
    o = ap.parse_args()
    if o.show is not None:
        a, p = gen(o.show)
        print(a)
        print("# ---- python ----")
        print(p)
        return
    ag = os.path.abspath(o.ag)
    work = [(ag, s, o.out) for s in range(o.seed, o.seed + o.count)]
    bad = []
    if o.jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(o.jobs, initializer=_init) as pool:
            for seed, ok in pool.imap_unordered(check, work, chunksize=4):
                if not ok:
                    bad.append(seed)
    else:
        _init()
        for w in work:
            seed, ok = check(w)
            if not ok:
                bad.append(seed)
    bad.sort()
    print("%d programs, %d mismatches%s" % (len(work), len(bad), (": " + " ".join(map(str, bad[:50]))) if bad else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
