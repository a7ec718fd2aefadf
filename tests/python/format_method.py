# A class's __format__ (Ag: `fn format(spec)`) serves f-strings,
# str.format and format(), with the spec as written (nested fields
# replaced); !r and !s convert first. __str__ falls back to __repr__, never
# the other way; a container shows its items' __repr__.
def show(c):
    return "true" if c else "false"


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __format__(self, spec):
        if spec == "":
            return "$" + format(self.cents / 100, ".2f")
        if spec == "c":
            return str(self.cents) + "c"
        return format(self.cents / 100, spec)

    def __str__(self):
        return "Money"

    def __repr__(self):
        return "Money(" + str(self.cents) + ")"


m = Money(1234)
print(f"{m}", f"{m:c}", f"{m:>10.1f}|", format(m), format(m, ".3f"))
print("{} {:c} {!r} {!s}".format(m, m, m, m), "{0:{1}}".format(m, "c"), f"{m:{'c'}}")
print(f"{m!r}", f"{m!s:>8}|", f"{m=}", f"{m=:c}", str(m), repr(m), [m], (m,), {1: m})
print("%s %r" % (m, m), m)


class OnlyStr:
    def __str__(self):
        return "only str"


class OnlyRepr:
    def __repr__(self):
        return "only repr"


class Neither:
    pass


print(OnlyStr(), f"{OnlyStr()}", str(OnlyStr()), f"{OnlyStr()!s}")
print(OnlyRepr(), f"{OnlyRepr()}", str(OnlyRepr()), repr(OnlyRepr()), [OnlyRepr()], f"{OnlyRepr()!r}")
print(show("only str" in repr(OnlyStr())), show("only str" in str([OnlyStr()])), show(repr(Neither()) == str(Neither())))


class Sub(Money):
    def __str__(self):
        return "Sub"


print(f"{Sub(5)}", f"{Sub(5):c}", str(Sub(5)), f"{Sub(5)!s}", repr(Sub(5)))


class Bad:
    def __format__(self, spec):
        return 3


class Raises:
    def __format__(self, spec):
        raise ValueError("bad spec " + spec)


for thing in [OnlyStr(), Neither(), Bad()]:
    try:
        print(f"{thing:>5}")
    except TypeError:
        print("TypeError")
try:
    print(format(Raises(), "q"))
except ValueError as e:
    print(e)
print(repr(ValueError(3)), repr(KeyError(1, 2)), repr(ValueError()), [IndexError(7)])
