#!/usr/bin/env python3
"""Differential testing of the language core with random programs.

Each program (globals, functions with locals and lists, a closure counter,
if/elif/else, for and while loops with break/continue, try/catch with error(),
arithmetic bounded with % 1000) is written twice, in Ag and in Python with
float arithmetic and Ag-style printing, and both stdouts must be equal.
Programs that disagree are kept in OUTDIR (NAME.ag and NAME.py) to reproduce.

usage: python3 tests/fuzz/diffprog.py AG_BINARY SEED COUNT [OUTDIR]
(not part of `make test`: it needs Python 3; run it after changing the
compiler or the VM.)"""
import random, subprocess, sys, os, math

PRELUDE = '''
import math
class AgErr(Exception):
    def __init__(self, m): self.message = m
def fmt(v):
    if isinstance(v, bool): return "true" if v else "false"
    if v is None: return "nil"
    if isinstance(v, float):
        if v != v: return "nan"
        if v == math.inf: return "inf"
        if v == -math.inf: return "-inf"
        r = repr(v)
        return r[:-2] if r.endswith(".0") else r
    if isinstance(v, str): return v
    if isinstance(v, list): return "[" + ", ".join(rep(x) for x in v) + "]"
    if isinstance(v, dict): return "{" + ", ".join(rep(k) + ": " + rep(x) for k, x in v.items()) + "}"
    return str(v)
def rep(v):
    if isinstance(v, str): return '"' + v + '"'
    return fmt(v)
def P(*a): print(" ".join(fmt(x) for x in a))
def agint(v): return float(int(v))
'''

class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.ag = []
        self.py = []
        self.funcs = []  # (name, nparams)
        self.uid = 0

    def fresh(self, p):
        self.uid += 1
        return f"{p}{self.uid}"

    def emit(self, ind, ag, py=None):
        self.ag.append("  " * ind + ag)
        self.py.append("    " * ind + (ag if py is None else py))

    # expressions return (ag, py)
    def num(self, vars, depth=0):
        r = self.r
        k = r.random()
        if depth > 2 or k < 0.25:
            v = float(r.randint(0, 20))
            return (str(int(v)), repr(v))
        if k < 0.5 and vars:
            v = r.choice(vars)
            return (v, v)
        if k < 0.8:
            a = self.num(vars, depth + 1); b = self.num(vars, depth + 1)
            op = r.choice(["+", "-", "*", "+", "-"])
            return (f"({a[0]} {op} {b[0]})", f"({a[1]} {op} {b[1]})")
        if k < 0.87:
            a = self.num(vars, depth + 1); d = r.choice([2, 3, 4, 8])
            op = r.choice(["/", "%"])
            return (f"({a[0]} {op} {d})", f"({a[1]} {op} {float(d)})")
        if k < 0.93 and self.funcs:
            name, n = r.choice(self.funcs)
            args = [self.num(vars, depth + 1) for _ in range(n)]
            return (f"{name}({', '.join(a[0] for a in args)})", f"{name}({', '.join(a[1] for a in args)})")
        a = self.num(vars, depth + 1)
        fn = r.choice(["abs", "floor", "int"])
        pyfn = {"abs": "abs", "floor": "agfloor", "int": "agint"}[fn]
        return (f"{fn}({a[0]})", f"{pyfn}({a[1]})")

    def cond(self, vars, depth=0):
        r = self.r
        k = r.random()
        if depth > 1 or k < 0.6:
            a = self.num(vars, 2); b = self.num(vars, 2)
            op = r.choice(["<", "<=", ">", ">=", "==", "!="])
            return (f"{a[0]} {op} {b[0]}", f"{a[1]} {op} {b[1]}")
        if k < 0.85:
            a = self.cond(vars, depth + 1); b = self.cond(vars, depth + 1)
            op = r.choice(["and", "or"])
            return (f"({a[0]} {op} {b[0]})", f"({a[1]} {op} {b[1]})")
        a = self.cond(vars, depth + 1)
        return (f"not ({a[0]})", f"not ({a[1]})")

    def block(self, ind, vars, lists, depth, in_loop, in_fn):
        for _ in range(self.r.randint(1, 4)):
            self.stmt(ind, vars, lists, depth, in_loop, in_fn)

    def stmt(self, ind, vars, lists, depth, in_loop, in_fn):
        r = self.r
        k = r.random()
        if k < 0.25 and vars:
            v = r.choice(vars); e = self.num(vars)
            op = r.choice(["=", "+=", "-=", "*="])
            self.emit(ind, f"{v} {op} {e[0]}", f"{v} {op} {e[1]}")
            self.emit(ind, f"{v} = {v} % 1000", f"{v} = {v} % 1000.0")
        elif k < 0.4:
            args = [self.num(vars) for _ in range(r.randint(1, 3))]
            if r.random() < 0.3:
                c = self.cond(vars)
                args.append(c)
            self.emit(ind, f"print({', '.join(a[0] for a in args)})", f"P({', '.join(a[1] for a in args)})")
        elif k < 0.5 and depth < 3:
            c = self.cond(vars)
            self.emit(ind, f"if {c[0]} {{", f"if {c[1]}:")
            self.block(ind + 1, vars, lists, depth + 1, in_loop, in_fn)
            if r.random() < 0.5:
                c2 = self.cond(vars)
                self.emit(ind, f"}} elif {c2[0]} {{", f"elif {c2[1]}:")
                self.block(ind + 1, vars, lists, depth + 1, in_loop, in_fn)
            if r.random() < 0.5:
                self.emit(ind, "} else {", "else:")
                self.block(ind + 1, vars, lists, depth + 1, in_loop, in_fn)
            self.emit(ind, "}", "pass")
        elif k < 0.58 and depth < 3:
            i = self.fresh("i"); n = r.randint(0, 5)
            self.emit(ind, f"for {i} in range({n}) {{", f"for {i} in range({n}):")
            self.emit(ind + 1, f"let {i}f = {i}", f"{i}f = float({i})")
            self.block(ind + 1, vars + [i + "f"], lists, depth + 1, True, in_fn)
            self.emit(ind, "}", "pass")
        elif k < 0.64 and depth < 3:
            w = self.fresh("w"); n = r.randint(0, 5)
            self.emit(ind, f"let {w} = 0", f"{w} = 0.0")
            self.emit(ind, f"while {w} < {n} {{", f"while {w} < {n}:")
            self.emit(ind + 1, f"{w} += 1", f"{w} += 1")
            self.block(ind + 1, vars + [w], lists, depth + 1, True, in_fn)
            self.emit(ind, "}", "pass")
        elif k < 0.68 and in_loop:
            c = self.cond(vars)
            kw = r.choice(["break", "continue"])
            self.emit(ind, f"if {c[0]} {{ {kw} }}", f"if {c[1]}: {kw}")
        elif k < 0.76 and lists:
            l = r.choice(lists); e = self.num(vars)
            if r.random() < 0.5:
                self.emit(ind, f"{l}.append({e[0]})", f"{l}.append({e[1]})")
            else:
                self.emit(ind, f"print(len({l}), {l}[int({e[0]}) % len({l})])",
                          f"P(float(len({l})), {l}[int({e[1]}) % len({l})])")
        elif k < 0.82:
            c = self.cond(vars); e = self.num(vars)
            self.emit(ind, "try {", "try:")
            self.emit(ind + 1, f"if {c[0]} {{ error(\"e\" + str({e[0]})) }}", f"if {c[1]}: raise AgErr(\"e\" + fmt({e[1]}))")
            self.emit(ind + 1, f"print(\"no error\")", f"P(\"no error\")")
            self.emit(ind, "} catch err {", "except AgErr as err:")
            self.emit(ind + 1, "print(err.message)", "P(err.message)")
            self.emit(ind, "}", "pass")
        elif k < 0.86 and in_fn:
            e = self.num(vars)
            self.emit(ind, f"return {e[0]}", f"return {e[1]}")
        elif k < 0.90:
            e = self.num(vars)
            kk = r.random()
            if kk < 0.4:
                self.emit(ind, f"obj.add({e[0]})", f"obj.add({e[1]})")
            elif kk < 0.7:
                self.emit(ind, f"obj.v += {e[0]}; obj.v = obj.v % 1000", f"obj.v += {e[1]}; obj.v = obj.v % 1000.0")
            else:
                self.emit(ind, f"print(obj.get(), obj.add(1).get())", f"P(obj.get(), obj.add(1.0).get())")
        elif k < 0.94:
            e = self.num(vars)
            key = (f"str(int({e[0]}) % 5)", f"fmt(agint({e[1]}) % 5.0)")
            kk = r.random()
            if kk < 0.4:
                # Python evaluates the value before the subscript, Ag left to right:
                # compute the value first so calls with prints run in the same order
                e2 = self.num(vars); t = self.fresh("t")
                self.emit(ind, f"let {t} = {e2[0]}", f"{t} = {e2[1]}")
                self.emit(ind, f"gm[{key[0]}] = {t}", f"gm[{key[1]}] = {t}")
            elif kk < 0.6:
                self.emit(ind, f"if gm.has({key[0]}) {{ gm.remove({key[0]}) }}", f"if {key[1]} in gm: del gm[{key[1]}]")
            elif kk < 0.8:
                self.emit(ind, f"print(gm.get({key[0]}, -1), len(gm))", f"P(gm.get({key[1]}, -1.0), float(len(gm)))")
            else:
                self.emit(ind, "print(gm, gm.keys())", "P(gm, list(gm.keys()))")
        elif k < 0.96:
            e = self.num(vars)
            self.emit(ind, f'print(f"x={{{e[0]}}}!")', f'P(f"x={{fmt({e[1]})}}!")')
        else:
            e = self.num(vars)
            self.emit(ind, f"print(\"v\" + str({e[0]}))", f"P(\"v\" + fmt({e[1]}))")

    def function(self):
        name = self.fresh("f"); n = self.r.randint(0, 3)
        params = [f"{name}p{j}" for j in range(n)]
        self.emit(0, f"fn {name}({', '.join(params)}) {{", f"def {name}({', '.join(params)}):")
        loc = self.fresh("loc")
        self.emit(1, f"let {loc} = {len(params)}", f"{loc} = {float(len(params))}")
        lst = self.fresh("lst")
        self.emit(1, f"let {lst} = [1, 2]", f"{lst} = [1.0, 2.0]")
        self.block(1, params + [loc], [lst], 1, False, True)
        e = self.num(params + [loc])
        self.emit(1, f"return {e[0]}", f"return {e[1]}")
        self.emit(0, "}", "")
        self.funcs.append((name, n))

    def program(self):
        gl = [f"g{j}" for j in range(3)]
        for j, g in enumerate(gl):
            self.emit(0, f"let {g} = {j + 1}", f"{g} = {float(j + 1)}")
        self.emit(0, "let gl = [3, 1, 4]", "gl = [3.0, 1.0, 4.0]")
        # closure counter template
        self.emit(0, "fn make_counter(s) {", "def make_counter(s):")
        self.emit(1, "let c = s", "c = s")
        self.emit(1, "return fn() { c += 1; return c }", "def _f():\n        nonlocal c\n        c += 1\n        return c\n    return _f")
        self.emit(0, "}", "")
        self.emit(0, "let ctr = make_counter(10)", "ctr = make_counter(10.0)")
        self.emit(0, "class Acc {", "class Acc:")
        self.emit(1, "fn init(v) { self.v = v }", "def __init__(self, v): self.v = v")
        self.emit(1, "fn add(x) { self.v = (self.v + x) % 1000; return self }",
                  "def add(self, x):\n        self.v = (self.v + x) % 1000.0\n        return self")
        self.emit(1, "fn get() { return self.v }", "def get(self): return self.v")
        self.emit(0, "}", "")
        self.emit(0, "class Acc2 : Acc {", "class Acc2(Acc):")
        self.emit(1, "fn add(x) { super.add(x * 2); return self }",
                  "def add(self, x):\n        super().add(x * 2.0)\n        return self")
        self.emit(0, "}", "")
        self.emit(0, "let obj = Acc2(1)", "obj = Acc2(1.0)")
        self.emit(0, "let gm = {}", "gm = {}")
        for _ in range(self.r.randint(1, 3)):
            self.function()
        for _ in range(self.r.randint(3, 8)):
            self.stmt(0, gl, ["gl"], 0, False, False)
            if self.r.random() < 0.2:
                self.emit(0, "print(ctr())", "P(ctr())")


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: diffprog.py AG_BINARY SEED COUNT [OUTDIR]")
    ag, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    outdir = sys.argv[4] if len(sys.argv) > 4 else "build/diffprog"
    os.makedirs(outdir, exist_ok=True)
    bad = 0
    for c in range(count):
        g = Gen(random.Random(seed * 100003 + c))
        g.program()
        agsrc = "\n".join(g.ag) + "\n"
        pysrc = PRELUDE + "def agfloor(v): return float(math.floor(v))\n" + "\n".join(g.py) + "\n"
        agf = f"{outdir}/p{c}.ag"; pyf = f"{outdir}/p{c}.py"
        open(agf, "w").write(agsrc); open(pyf, "w").write(pysrc)
        try:
            pyout = subprocess.run([sys.executable, pyf], capture_output=True, text=True, timeout=10)
        except subprocess.TimeoutExpired:
            continue
        if pyout.returncode != 0:  # a generator bug, not an Ag bug
            print("PYTHON FAILED", c, pyout.stderr.splitlines()[-1:] if pyout.stderr else "")
            continue
        agout = subprocess.run([ag, agf], capture_output=True, text=True, timeout=10)
        if agout.stdout != pyout.stdout or agout.returncode != 0:
            bad += 1
            print("MISMATCH", c, agf, "rc", agout.returncode, agout.stderr.splitlines()[:1])
        else:
            os.remove(agf); os.remove(pyf)
    print(f"{count - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)

main()
