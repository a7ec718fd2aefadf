# `is` and `is not` compare identity: the same object, not equal contents.
# Objects (lists, dicts, instances, functions, classes) and None/True/False,
# whose identity Python defines; numbers and strings are left out on
# purpose (CPython's answer there depends on its caches; Ag's rule is in
# docs/language.md and tests/scripts/lang/comparisons/identity.ag).
def show(c):
    return "true" if c else "false"


a = [1, 2]
b = a
c = [1, 2]
print(show(a is b), show(a is c), show(a == c), show(a is not c), show(a is not b))
b.append(3)
print(a, show(a is b))
m = {"k": 1}
n = dict(m)
print(show(m is m), show(m is n), show(m == n))
x = None
print(show(x is None), show(x is not None), show(a is None), show(a is not None))
print(show(True is True), show(False is not True), show((1 < 2) is True))


class Point:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return True


p = Point(1)
q = Point(1)
print(show(p == q), show(p is q), show(p is p), show(type(p) is Point), show(type(p) is not Point))


def f():
    return 1


g = f
print(show(f is g), show(f is not g), show(print is print))
# a comparison: chains like the others, below `not`
print(show(a is b is a), show(a is b is c), show(not a is c), show(a is c == False))
seen = []


def get(v):
    seen.append(len(seen))
    return v


print(show(get(a) is get(c) is get(b)), seen)
items = [a, c, x]
print([i for i, v in enumerate(items) if v is a], [i for i, v in enumerate(items) if v is not None])
print(show([] is []), show(a[0:] is a), show(list(a) is a))
