# CPython twin of fstring_specs.ag: f-string format specs, {x=}, conversions
x = 3.14159
n = 42
p = 0.256
name = "Ada"
print(f"{x=}")
print(f"{x=:.2f}")
print(f"{x = :.3e}")
print(f"{n=}|{n = }|{n=:>5}|")
print(f"{name!s:>6}|{name:<6}|")
print(f"{n:b} {n:o} {n:x} {n:#X} {n:08b}")
print(f"{p:.1%} {p:%} {p:10.2%}|")
print(f"{1234567.891:,.2f} {1234567:_d} {-7:+05d}")
print(f"{x:10.4f}|{x:<10.2f}|{x:^10.1f}|{x:*>10.3}|")
print(f"{1e-7} {1e22} {0.1 + 0.2} {2.0 ** 0.5} {1 / 3}")
print(f"{2.675:.2f} {0.125:.2f} {0.375:.2f} {1.5:.0f} {2.5:.0f}")
print(f"{n!s}|{x!s:>10}|")
w = 9
d = 3
print(f"[{x:{w}.{d}f}] [{x:>{w}}] [{'ab':{'*'}^{w}}] [{x!r:>{w}}] [{x=:{w}.2f}] [{n:0{w}d}]")
