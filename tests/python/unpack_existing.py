# Unpacking into names that exist: updated, never declared anew; the value
# first, then the targets left to right.
def pair():
    return 1, 2

a = 0
b = 0
a, b = pair()
print(a, b)
a, b = b, a
print(a, b)
[a, b] = [5, 6]
print(a, b)
c = 0
a, (b, c) = 1, (2, 3)
print(a, b, c)
a, *b = range(4)
print(a, b)
*a, b = (1, 2, 3)
print(a, b)
a = b = 7
print(a, b)
a, a = 1, 2
print(a)
xs = [1, 2, 3]
i = 0
i, xs[i] = 2, 9
print(i, xs)
xs[0], xs[2] = xs[2], xs[0]
print(xs)


class Cell:
    def __init__(self):
        self.h, self.c = 0, 0


cell = Cell()
cell.h, cell.c = cell.c + 5, cell.h + 1
print(cell.h, cell.c)


def local():
    x = 0
    y = 0
    for k in range(3):
        x, y = y + k, x
    return x, y


print(local())
print(divmod(17, 5), divmod(-7, 2))
for n, (p, q) in enumerate(zip([1, 2], (3, 4))):
    print(n, p, q)
print([m for m, _ in [(1, 2), (3, 4)]])
