#!/usr/bin/env python3
"""Generate random Ag programs that stress tensors, autograd and the bindings.

usage: gen_tensor_programs.py SEED [STATEMENTS]       one program to stdout
       gen_tensor_programs.py --batch SEED COUNT DIR [STATEMENTS]
                                     DIR/case_NNNNN.ag, programs of seeds SEED*100000+i
       gen_tensor_programs.py --corrupt DIR             the malformed input files
The same seed always gives the same program.
The program expects one argument: a writable scratch directory (for save/load),
which may already hold the corrupt files written by write_corrupt_files().

Every statement is wrapped in try/catch: errors are expected and printed;
only crashes, hangs, sanitizer reports and leaks count as failures.
Standard library only.
"""
import os
import random
import sys

NPOOL = 8
DTYPES = ["float32", "float64", "int64", "bool"]
UNARY = ["neg", "abs", "sqrt", "exp", "log", "sin", "cos", "tan", "tanh",
         "sigmoid", "relu", "gelu", "float", "double", "long", "clone",
         "detach", "contiguous", "flatten", "squeeze", "t", "numel", "dim",
         "item", "tolist", "sum", "mean", "prod", "max", "min", "argmax",
         "argmin", "std", "var", "norm", "logsumexp", "isnan", "nonzero",
         "unique", "bincount"]
BINOPS = ["+", "-", "*", "/", "**", "%", "//", "@", "==", "!=", "<", "<=", ">", ">=",
          "|", "&", "^"]
BINFN = ["maximum", "minimum", "pow", "matmul", "mm", "bmm", "mv", "dot",
         "outer", "mse_loss", "l1_loss", "cross_entropy", "nll_loss",
         "binary_cross_entropy", "index_select", "gather", "isclose",
         "allclose", "scatter", "scatter_add", "index_add", "masked_fill"]
REDUCE = ["sum", "mean", "prod", "max", "min", "argmax", "argmin", "std",
          "var", "norm", "logsumexp"]
INPLACE = ["add_", "sub_", "mul_", "div_", "pow_", "remainder_", "floor_divide_"]
AUGMENTED = ["+=", "-=", "*=", "/=", "%=", "**=", "@=", "//=", "|=", "&=", "^="]
CORRUPT = ["trunc.npy", "garbage.npy", "badhdr.npy", "hugeshape.npy",
           "trunc.npz", "garbage.npz", "empty.npy", "badcsv.csv", "negshape.npy",
           "baddtype.npy", "nul.npy", "fortran.npy"]


def npy_header(descr, shape, fortran=False):
    shp = "(" + "".join("%d, " % s for s in shape).rstrip(" ")
    if len(shape) > 1:
        shp = shp.rstrip(",")
    shp += ")"
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shp)
    total = 10 + len(d) + 1
    pad = (64 - total % 64) % 64
    d = d + " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + len(d).to_bytes(2, "little") + d.encode()


def write_corrupt_files(directory):
    """Malformed .npy/.npz/.csv files for the load() statements."""
    good = npy_header("<f4", (2, 3)) + bytes(24)
    files = {
        "trunc.npy": good[:len(good) - 7],
        "garbage.npy": bytes(random.Random(7).randrange(256) for _ in range(300)),
        "badhdr.npy": b"\x93NUMPY\x01\x00\xff\xff{'descr': '<f4'",
        "hugeshape.npy": npy_header("<f4", (1 << 40, 1 << 40)) + bytes(16),
        "negshape.npy": npy_header("<f4", (-3, 2)),
        "baddtype.npy": npy_header("<c16", (2,)) + bytes(32),
        "empty.npy": b"",
        "nul.npy": npy_header("<f8", (0, 5)),
        "fortran.npy": npy_header("<i8", (2, 2), fortran=True) + bytes(32),
        "trunc.npz": b"PK\x03\x04" + bytes(20),
        "garbage.npz": b"PK\x05\x06" + bytes(18) + b"\xff" * 40,
        "badcsv.csv": b"a,b\n1,2\n3\n,,,\n1e999,nan\n\"x\n",
    }
    for name, data in files.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)


class Gen:
    def __init__(self, seed, nstmt):
        self.r = random.Random(seed)
        self.seed = seed
        self.nstmt = nstmt
        self.out = []
        self.nfile = 0

    # ---- small pieces -------------------------------------------------
    def v(self):
        return "v%d" % self.r.randrange(NPOOL)

    def num(self):
        r = self.r.random()
        if r < 0.5:
            return str(self.r.choice([0, 1, 2, -1, 3, 0.5, -2.5, 10]))
        if r < 0.7:
            return self.r.choice(["nan", "inf", "-inf", "1e308", "-1e-300", "1e38", "0.0"])
        return "%.3g" % self.r.uniform(-5, 5)

    def dim(self):
        r = self.r.random()
        if r < 0.75:
            return str(self.r.randint(-3, 3))
        return self.r.choice(["7", "-7", "100", "0.5", "nil", '"a"', "1e300"])

    def small(self):
        return self.r.choice([0, 1, 1, 2, 2, 3, 4, 5])

    def shape(self, allow_huge=True):
        r = self.r.random()
        if allow_huge and r < 0.03:
            return self.r.choice(["1e6, 1e6", "1e10", "-1", "2, -3", "1e20, 1e20, 1e20",
                                  "0.5", "nan", "inf", "4611686018427387904, 4",
                                  "65536, 65536, 65536", "[]", '"x"'])
        n = self.r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6])
        if n == 0:
            return "[]"
        return ", ".join(str(self.small()) for _ in range(n))

    def dtype_kw(self):
        if self.r.random() < 0.5:
            return ""
        return ", dtype=" + self.r.choice(DTYPES)

    def rg_kw(self):
        return ", requires_grad=true" if self.r.random() < 0.3 else ""

    def nested(self, depth=0):
        r = self.r.random()
        if depth > 3 or r < 0.3:
            return self.r.choice([self.num(), "true", "false", self.num()])
        n = self.r.choice([0, 1, 2, 3])
        if self.r.random() < 0.1:   # ragged
            return "[" + ", ".join(self.nested(depth + 1) for _ in range(n)) + "]"
        inner = self.nested(depth + 1)
        return "[" + ", ".join([inner] * n) + "]"

    def creation(self):
        c = self.r.randrange(16)
        s = self.shape()
        if c == 0: return "zeros(%s%s%s)" % (s, self.dtype_kw(), self.rg_kw())
        if c == 1: return "ones([%s]%s%s)" % (s, self.dtype_kw(), self.rg_kw())
        if c == 2: return "randn(%s%s)" % (s, self.rg_kw())
        if c == 3: return "rand(%s%s)" % (s, self.dtype_kw())
        if c == 4: return "full([%s], %s%s)" % (s, self.num(), self.dtype_kw())
        if c == 5: return "arange(%s)" % self.r.choice(["6", "0", "2, 9, 3", "5, 0, -1", "0, 1, 0.25", "1e12", "0, 5, 0", "nan"])
        if c == 6: return "linspace(%s, %s, %d)" % (self.num(), self.num(), self.r.choice([0, 1, 5, -1]))
        if c == 7: return "eye(%s)" % self.r.choice(["3", "0", "1", "-1", "2.5"])
        if c == 8: return "randint(%d, %d, [%s])" % (self.r.randint(-3, 3), self.r.randint(-3, 6), s)
        if c == 9: return "tensor(%s%s%s)" % (self.nested(), self.dtype_kw(), self.rg_kw())
        if c == 10: return "zeros_like(%s%s)" % (self.v(), self.dtype_kw())
        if c == 11: return "ones_like(%s)" % self.v()
        if c == 12: return "tensor(%s%s)" % (self.num(), self.dtype_kw())
        if c == 13: return "randn(%s, requires_grad=true)" % self.shape(False)
        if c == 14: return "tensor(%s)" % self.v()
        return "%s.to(%s)" % (self.v(), self.r.choice(DTYPES))

    def index_item(self):
        c = self.r.randrange(12)
        if c < 3: return str(self.r.randint(-4, 4))
        if c == 3: return self.r.choice(["100", "-100", "0.5", "nan", '"s"', "true"])
        if c == 4: return ":"
        if c == 5:
            return "%s:%s:%s" % (self.r.choice(["", "0", "1", "-1", "-9"]),
                                 self.r.choice(["", "2", "-1", "99"]),
                                 self.r.choice(["", "1", "2", "-1", "0", "3"]))
        if c == 6: return "nil"
        if c == 7: return "%s > 0" % self.v()
        if c == 8: return "tensor([%s], dtype=int64)" % ", ".join(str(self.r.randint(-4, 4)) for _ in range(self.r.randrange(4)))
        if c == 9: return self.v()
        if c == 10: return "tensor([true, false])"
        return "%d:%d" % (self.r.randint(-3, 3), self.r.randint(-3, 3))

    def index(self):
        n = self.r.choice([1, 1, 2, 2, 3, 4])
        return ", ".join(self.index_item() for _ in range(n))

    def dims_list(self):
        n = self.r.choice([0, 1, 2, 3, 4])
        return ", ".join(self.dim() for _ in range(n))

    # ---- expressions -----------------------------------------------------
    def expr(self):
        c = self.r.randrange(32)
        a, b = self.v(), self.v()
        if c < 5: return self.creation()
        if c < 6:
            op = self.r.choice(BINOPS)
            lhs = a if self.r.random() < 0.8 else self.num()
            rhs = b if self.r.random() < 0.7 else self.num()
            return "%s %s %s" % (lhs, op, rhs)
        if c == 6:
            m = self.r.choice(UNARY)
            return "%s.%s()" % (a, m)
        if c == 7:
            m = self.r.choice(REDUCE)
            kw = []
            if self.r.random() < 0.7: kw.append("dim=" + self.dim())
            if self.r.random() < 0.5: kw.append("keepdim=" + self.r.choice(["true", "false"]))
            return "%s.%s(%s)" % (a, m, ", ".join(kw))
        if c == 8:
            return "%s.%s(%s)" % (a, self.r.choice(["reshape", "view"]),
                                  self.r.choice([self.dims_list(), "-1", "-1, -1", "[%s]" % self.dims_list(), "0, -1", "2, -1"]))
        if c == 9:
            return "%s.transpose(%s, %s)" % (a, self.dim(), self.dim())
        if c == 10:
            return "%s.permute(%s)" % (a, self.dims_list())
        if c == 11:
            return "%s.expand(%s)" % (a, self.r.choice([self.shape(False), "-1, " + self.shape(False), "-1"]))
        if c == 12:
            fn = self.r.choice(["cat", "stack"])
            items = ", ".join(self.v() for _ in range(self.r.randrange(4)))
            return "%s([%s], dim=%s)" % (fn, items, self.dim())
        if c == 13:
            return "%s.%s(%s%s)" % (a, self.r.choice(["split", "chunk"]),
                                   self.r.choice(["1", "2", "0", "-1", "3", "[1, 2]", "[0]", "[5, -1]"]),
                                   self.r.choice(["", ", dim=" + self.dim()]))
        if c == 14:
            return "%s[%s]" % (a, self.index())
        if c == 15:
            return "%s @ %s" % (a, b)
        if c == 16:
            f = self.r.choice(BINFN)
            if f in ("index_select", "gather"):
                return "%s(%s, %s, %s)" % (f, a, self.dim(), b)
            if f in ("scatter", "scatter_add", "index_add"):
                return "%s(%s, %s, %s, %s)" % (f, a, self.dim(), b, self.r.choice([self.v(), a, self.num()]))
            if f == "masked_fill":
                return "%s(%s, %s, %s)" % (f, a, self.r.choice([b, b + " > 0"]), self.num())
            return "%s(%s, %s)" % (f, a, b)
        if c == 17:
            return "%s.unsqueeze(%s)" % (a, self.dim())
        if c == 18:
            return "%s.squeeze(%s)" % (a, self.dim())
        if c == 19:
            return "where(%s, %s, %s)" % (self.r.choice([a + " > 0", a, "true"]), b, self.r.choice([self.v(), self.num()]))
        if c == 20:
            kw = self.r.choice(["min=%s" % self.num(), "max=%s" % self.num(), "min=%s, max=%s" % (self.num(), self.num()), ""])
            return "%s.clamp(%s)" % (a, kw)
        if c == 21:
            f = self.r.choice(["softmax", "log_softmax"])
            return "%s(%s, %s)" % (f, a, self.dim())
        if c == 22:
            return "dropout(%s, %s, %s)" % (a, self.r.choice(["0", "0.5", "1", "1.5", "-1", "nan"]), self.r.choice(["true", "false"]))
        if c == 23:
            return "%s.%s" % (a, self.r.choice(["T", "data", "grad", "grad_fn", "shape", "ndim", "dtype", "is_leaf", "_version", "requires_grad"]))
        if c == 24:
            return "%s(%s)" % (self.r.choice(["abs", "sqrt", "exp", "log", "sin", "tanh", "floor", "round", "ceil"]), a)
        if c == 25:
            return "%s.size(%s)" % (a, self.dim())
        if c == 26:
            return "%s.max(dim=%s)[%s]" % (a, self.dim(), self.r.choice(["0", "1"]))
        if c == 27:
            return "%s.flatten()" % a
        if c == 28:
            return "%s.expand(%s).contiguous()" % (a, self.shape(False))
        return "%s.pow(%s)" % (a, self.num())

    # ---- statements ------------------------------------------------------
    def stmt(self):
        c = self.r.randrange(42)
        a, b = self.v(), self.v()
        if c < 14:
            return "%s = %s" % (a, self.expr())
        if c == 14:
            return "%s[%s] = %s" % (a, self.index(), self.r.choice([self.num(), b, "tensor(%s)" % self.nested()]))
        if c == 15:
            return "%s.%s(%s)" % (a, self.r.choice(INPLACE), self.r.choice([b, self.num()]))
        if c == 16:
            # detach_() only on a fresh non-leaf: a leaf that stops requiring grad is
            # the cycle described at `requires_grad = true` below
            if self.r.random() < 0.2:
                return "%s = (%s * 1).detach_()" % (a, b)
            return "%s.%s()" % (a, self.r.choice(["zero_", "requires_grad_", "retain_grad", "normal_", "uniform_"]))
        if c == 17:
            return "%s.fill_(%s)" % (a, self.num())
        if c == 18:
            return "%s.copy_(%s)" % (a, b)
        if c == 19:
            return "%s.clamp_(min=%s)" % (a, self.num())
        if c == 20:
            # Not backward(create_graph=true): it makes the reference cycle leaf ->
            # .grad -> graph -> leaf, a leak in PyTorch too (autograd.grad covers it)
            kw = self.r.choice(["", "retain_graph=true", "gradient=%s" % b, "inputs=[%s]" % b])
            tgt = self.r.choice([a, a + ".sum()", "(%s * %s).sum()" % (a, b), a + ".mean()"])
            return "%s.backward(%s)" % (tgt, kw)
        if c == 21:
            kw = self.r.choice(["", ", retain_graph=true", ", create_graph=true", ", allow_unused=true",
                                ", grad_outputs=[%s]" % self.v(), ", create_graph=true, allow_unused=true"])
            return "let gs = autograd.grad(%s, [%s]%s); print(len(gs))" % (
                self.r.choice([a + ".sum()", a, "[%s.sum(), %s.sum()]" % (a, b)]), ", ".join(self.v() for _ in range(self.r.randint(0, 3))), kw)
        if c == 22:
            body = self.r.choice(['throw "hook boom"', "return g * 2", "return 5", "return zeros(7)",
                                  "return nil", "return g.sum()", "return [g]", "%s.add_(1)" % b,
                                  "return g.double()", "return g.long()"])
            return "%s.register_hook(fn(g) { %s })" % (a, body)
        if c == 23:
            return "with no_grad() { %s = %s }" % (a, self.expr())
        if c == 24:
            return self.custom_function()
        if c == 25:
            return self.io()
        if c == 26:
            return self.printing()
        if c == 27:
            return self.nn_stmt()
        if c == 28:
            return self.optim_stmt()
        if c == 29:
            return "%s = %s.requires_grad_()" % (a, self.creation())
        if c == 30:
            # b.detach(): a grad with history back to a is a reference cycle (as in PyTorch)
            return "%s.grad = %s" % (a, self.r.choice([b + ".detach()", a, "nil", "zeros(3)", "5"]))
        if c == 31:
            return "for r in %s { %s = r }" % (a, b)
        if c == 32:
            return "if %s { print(1) } else { print(0) }" % a
        if c == 33:
            return "%s = %s.detach()" % (a, b)
        if c == 34:
            return "print_graph(%s)" % a
        if c == 35:
            return "let s = to_dot(%s); print(len(s) > 0)" % a
        if c == 36:
            return "with autograd.detect_anomaly() { (%s).sum().backward() }" % self.expr()
        if c == 37:
            # Not `= false`: a leaf that stops requiring grad and is then written in
            # place from its own history is a cycle (leaf -> grad_fn -> ... ->
            # AccumulateGrad -> leaf), as in PyTorch
            return "%s.requires_grad = true" % a
        if c == 38:
            return "%s = %s.%s(%s)" % (a, a, self.r.choice(["add_", "mul_"]), self.num())
        if c >= 39:
            return self.extra()
        return "%s = %s" % (a, self.expr())

    def extra(self):
        """Rarer combinations: views written in place, graph inspection after
        backward, higher order, the Ag-written autograd helpers."""
        a, b = self.v(), self.v()
        c = self.r.randrange(26)
        if c == 22:  # augmented assignment: in place on tensors (SPEC §4)
            return "%s %s %s" % (a, self.r.choice(AUGMENTED), self.r.choice([b, self.num(), self.expr()]))
        if c == 23:
            return "%s[%s] %s %s" % (a, self.index(), self.r.choice(AUGMENTED), self.r.choice([b, self.num()]))
        if c == 24:
            return "with no_grad() { %s -= %s * (%s.grad if %s.grad != nil else 1) }" % (a, self.num(), a, a)
        if c == 25:
            return "let cs = [r.sum() for r in %s if r.numel() > 0]; print(len(cs), any([c > 0 for c in cs]))" % a
        if c == 16:
            return "let y = %s * 1; y[%s] = %s; y.sum().backward(); print(%s.grad)" % (a, self.index(), b, b)
        if c == 17:
            return "with no_grad() { let w = %s%s; w[%s] = %s }" % (a, self.r.choice(["", ".T", "[0]", ".view(-1)"]), self.index(), self.num())
        if c == 18:
            return "let y = %s.T.T%s; y.mul_(2); y.sum().backward(); print(%s.grad_fn)" % (
                a + self.r.choice(["", " * 1"]), self.r.choice(["", ".T", "[0]", "[::2]"]), a)
        if c == 19:
            return "let w = (%s * 1)[%s]; w.register_hook(fn(g) { return g * 2 }); (w * %s).sum().backward()" % (a, self.index(), b)
        if c == 20:
            return "%s = %s(%s, %s, %s).sum(); %s.backward()" % (a, self.r.choice(["gather", "index_select"]), b, self.dim(), self.v(), a)
        if c == 21:
            return "let w = %s.expand(%s); w.add_(1)" % (a, self.shape(False))
        if c == 0:
            return "let w = %s[%s]; w.%s(%s); print(%s._version, w._version)" % (
                a, self.index(), self.r.choice(["mul_", "add_", "fill_", "clamp_"]), self.num(), a)
        if c == 1:
            return "let w = %s.%s; w.add_(%s)" % (a, self.r.choice(["T", "t()", "view(-1)", "expand(2, -1)", "unsqueeze(0)", "transpose(0, -1)", "diagonal()", "flatten()", "squeeze()"]), b)
        if c == 2:
            return "let y = (%s * %s).sum(); y.backward(retain_graph=true); y.backward(); print(y.grad_fn.next_functions)" % (a, b)
        if c == 3:
            return "let y = (%s.exp() * 2).sum(); y.backward(); y.backward()" % a
        if c == 4:
            return "let [g] = autograd.grad((%s ** 3).sum(), [%s], create_graph=true); let [g2] = autograd.grad(g.sum(), [%s], create_graph=true); print(g2)" % (a, a, a)
        if c == 5:
            return "print(autograd.gradcheck(fn(x) { return %s }, [%s.double().detach().requires_grad_()]))" % (
                self.r.choice(["x.sin()", "x * x", "x.sum(dim=0)", "x.softmax(0)", "x.abs()", "x.sqrt()", "x.max()", "x.norm()", "x[0]"]), a)
        if c == 6:
            return "print(autograd.jacobian(fn(x) { return %s }, %s))" % (self.r.choice(["x * 2", "x.sum()", "x.exp()", "5", "nil"]), a)
        if c == 7:
            return "print(autograd.hessian(fn(x) { return %s }, %s))" % (self.r.choice(["(x ** 3).sum()", "x", "x.sum()"]), a)
        if c == 8:
            return "let n = %s.grad_fn; while n != nil { print(n, n.name(), n.line); let nf = n.next_functions; n = nil; if len(nf) > 0 { n = nf[0][0] } }" % a
        if c == 9:
            return "let h = %s.register_hook(fn(g) { return g }); h.remove(); h.remove(); (%s * 1).sum().backward()" % (a, a)
        if c == 10:
            return "%s.retain_grad(); (%s * 2).sum().backward(); print(%s.grad)" % (a, a, a)
        if c == 11:
            return "let y = %s * 2; y.sum().backward(); print_graph(y); print(to_dot(y))" % a
        if c == 12:
            return "%s[%s] = %s[%s]" % (a, self.index(), b, self.index())
        if c == 13:
            return "let parts = %s.%s(%s); for p in parts { p.%s(1) }; print(len(parts))" % (
                a, self.r.choice(["split", "chunk"]), self.r.choice(["1", "2", "3"]), self.r.choice(["add_", "mul_"]))
        if c == 14:
            return "%s = %s.view(%s).%s(%s)" % (a, b, self.r.choice(["-1", "1, -1", "-1, 1"]), "expand", self.r.choice(["3, -1", "-1, 4", "2, 3, -1"]))
        return "with set_grad_enabled(%s) { %s = %s }" % (self.r.choice(["true", "false", "1", "nil"]), a, self.expr())

    def printing(self):
        a = self.v()
        c = self.r.randrange(6)
        if c == 0: return "print(%s)" % a
        if c == 1: return 'print(f"{%s:%s}")' % (a, self.r.choice([".4f", "5d", ".3e", "10.2f", ".0f", "x", "", ">8", ".100f", "d"]))
        if c == 2: return "print(str(%s), repr(%s))" % (a, a)
        if c == 3: return "print(%s.tolist())" % a
        if c == 4: return 'print(f"{%s}")' % a
        return "print(%s.shape, %s.dtype, %s.requires_grad, %s.grad_fn)" % (a, a, a, a)

    def io(self):
        a, b = self.v(), self.v()
        c = self.r.randrange(8)
        self.nfile += 1
        if c == 0:
            return 'save(%s, D + "/f%d.npy"); %s = load(D + "/f%d.npy")' % (a, self.nfile, b, self.nfile)
        if c == 1:
            return 'save({"a": %s, "b": %s}, D + "/m%d.npz"); let m = load(D + "/m%d.npz"); %s = m["a"]' % (a, b, self.nfile, self.nfile, a)
        if c == 2:
            return '%s = load(D + "/%s")' % (a, self.r.choice(CORRUPT))
        if c == 3:
            return 'save(%s, D + "/%s")' % (a, self.r.choice(["nodir/x.npy", "x.txt", "", "x.npz", "f.npy"]))
        if c == 4:
            return '%s = load_csv(D + "/%s"%s)' % (a, self.r.choice(["badcsv.csv", "garbage.npy", "empty.npy", "nothere.csv"]), self.r.choice(["", ", header=false"]))
        if c == 5:
            return 'save(%s, "/proc/self/nope.npy")' % a
        if c == 6:
            return 'save({"x": %s, 1: %s}, D + "/odd.npz")' % (a, b)
        return 'let m = load(D + "/%s"); print(type(m))' % self.r.choice(CORRUPT)

    def custom_function(self):
        a, b = self.v(), self.v()
        n = self.r.randint(1, 3)
        params = ", ".join("x%d" % i for i in range(n))
        fwd = self.r.choice(["return x0 * 2", "return [x0, x0]", "return 5", "return nil",
                             "ctx.save_for_backward(x0); return x0 * x0", "return x0",
                             'throw "fwd boom"', "return x0.detach()", "return [x0 * 1]",
                             "ctx.save_for_backward(x0, 3); return x0 + 1"])
        bwd = self.r.choice(["return g", "return [g, g, g, g]", "return zeros(9, 9)", "return 3",
                             "return nil", 'throw "bwd boom"', "return [nil]", "return g.sum()",
                             "let [s] = ctx.saved_tensors; return g * s", "return g.long()",
                             "return [g, nil]", "return [1, 2]", "return ctx", "return g.double()"])
        nargs = n if self.r.random() < 0.8 else self.r.randint(0, 3)
        args = ", ".join(self.r.choice([self.v(), self.v(), self.v(), self.num(), "nil"]) for _ in range(nargs))
        name = "F%d" % self.r.randrange(100000)
        return ("class %s : Function { fn forward(ctx, %s) { %s } fn backward(ctx, g) { %s } }; "
                "%s = %s.apply(%s); %s.sum().backward()" % (name, params, fwd, bwd, a, name, args, a))

    def nn_stmt(self):
        a = self.v()
        c = self.r.randrange(10)
        i, o = self.r.choice([0, 1, 2, 3, 4]), self.r.choice([0, 1, 2, 3])
        if c == 0: return "%s = nn.Linear(%d, %d)(%s)" % (a, i, o, self.v())
        if c == 1: return "%s = nn.Sequential(nn.Linear(%d, %d), nn.ReLU(), nn.Linear(%d, 2))(%s)" % (a, i, o, o, self.v())
        if c == 2: return "%s = nn.Embedding(%d, %d)(%s)" % (a, i, o, self.v())
        if c == 3: return "%s = nn.RNNCell(%d, %d)(%s)" % (a, i, o, self.v())
        if c == 4: return "let hc = nn.LSTMCell(%d, %d)(%s); %s = hc[0]" % (i, o, self.v(), a)
        if c == 5: return "%s = nn.CrossEntropyLoss()(%s, %s)" % (a, self.v(), self.v())
        if c == 6: return "%s = nn.%s()(%s, %s)" % (a, self.r.choice(["MSELoss", "L1Loss", "NLLLoss", "BCELoss"]), self.v(), self.v())
        if c == 7: return "%s = nn.Flatten()(%s)" % (a, self.v())
        if c == 8: return "%s = nn.%s(%s)(%s)" % (a, self.r.choice(["Softmax", "LogSoftmax"]), self.dim(), self.v())
        return "let mod = nn.Linear(%d, %d); mod.load_state_dict({\"weight\": %s})" % (i, o, self.v())

    def optim_stmt(self):
        a, b = self.v(), self.v()
        opt = self.r.choice(["optim.SGD([%s, %s], 0.1, momentum=0.9)" % (a, b), "optim.Adam([%s], lr=0.01)" % a,
                             "optim.AdamW([%s, %s])" % (a, b), "optim.SGD([%s], %s, weight_decay=0.1, nesterov=true, momentum=0.5)" % (a, self.num()),
                             "optim.Adam([])", "optim.SGD([5, nil], 0.1)"])
        return "let opt = %s; opt.step(); opt.zero_grad(); opt.step()" % opt

    def program(self):
        w = self.out.append
        w("# generated by tests/fuzz/gen_tensor_programs.py seed %d" % self.seed)
        w('let D = "/tmp"\nif len(args) > 0 { D = args[0] }')
        w("manual_seed(%d)" % self.seed)
        for i in range(NPOOL):
            w("let v%d = nil; try { v%d = %s } catch e { v%d = randn(2, 3) }" % (i, i, self.r.choice(["randn(%s, requires_grad=true)" % self.shape(False),
                                                   "randn(%s)" % self.shape(False),
                                                   "tensor(%s)" % self.nested(),
                                                   "arange(%d)" % self.small(),
                                                   "randn(%s, dtype=float64, requires_grad=true)" % self.shape(False)]), i))
        w("let nerr = 0")
        for k in range(self.nstmt):
            s = self.stmt()
            w("try { %s } catch e { nerr += 1; if type(e) == \"Error\" { print(\"E%d\", e.message) } else { print(\"T%d\", e) } }" % (s, k, k))
        w('print("done", nerr)')
        return "\n".join(self.out) + "\n"


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--corrupt":
        write_corrupt_files(sys.argv[2])
        return
    if len(sys.argv) >= 5 and sys.argv[1] == "--batch":
        base, count, directory = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        nstmt = int(sys.argv[5]) if len(sys.argv) > 5 else 40
        for i in range(count):
            with open(os.path.join(directory, "case_%05d.ag" % i), "w") as f:
                f.write(Gen(base * 100000 + i, nstmt).program())
        return
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        sys.exit(2)
    seed = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    sys.stdout.write(Gen(seed, n).program())


if __name__ == "__main__":
    main()
