# Chained comparisons: a < b < c is a < b and b < c, b evaluated once,
# stopping at the first false link (later operands are not evaluated).
seen = []


def f(x):
    seen.append(x)
    return x


def yes(c):
    return "yes" if c else "no"


p = 0.5
print(yes(0 <= p <= 1), yes(0 <= p < 0.2), yes(1 < 2 < 3 < 4), yes(1 < 3 < 2 < 4))
print(yes(f(1) < f(2) < f(0) < f(5)), len(seen), seen[-1])
seen = []
print(yes(f(1) < f(2) <= f(2) != f(3)), len(seen))
print(yes(1 == 1 != 2), yes(1 in [1] not in [[2]]), yes(2 not in [1] in [True]))
print(yes(3 > 2 == 2), yes(not 1 < 2 < 3), yes(1 < 2 > 0 < 5 >= 5))
print((1 < 2 < 3) + 1, (3 < 2 < 1) + 1)
x = 5
print(yes(0 < x < 10 and 10 > x > 0), yes(0 < x < 10 or x > 100))
