# map, filter, zip, iter, next, dict, lambda and the consumers of iterables,
# as Python 3 has them.
xs = [3, 1, 4, 1, 5, 9, 2, 6]
print(list(map(lambda x: x * 2, xs)))
print(list(map(lambda a, b: a * b, xs, range(3))))
print(list(filter(lambda x: x > 2, xs)), list(filter(None, [0, 1, 0, 2])))
print([a + b for a, b in zip(xs, [10, 20, 30])])
print(sum(x * x for x in xs), max(x % 5 for x in xs), min(abs(x - 4) for x in xs))
print(sorted(xs, key=lambda x: -x), sorted((x for x in xs), reverse=True))
print(sum(range(5), 100), sum(map(lambda x: x, xs)), len(list(zip(xs, xs[2:]))))
print(sorted(set(x % 3 for x in xs)))
pairs = dict(zip([1, 2, 3], [7, 8, 9]))
print(pairs, dict([[4, 16], [5, 25]]), dict(pairs))
it = iter(xs)
print(next(it), next(it), list(it), next(it, -1))
words = ["pear", "fig", "banana", "kiwi"]
print(max(len(w) for w in words), "-".join(w.upper() for w in words if len(w) == 4))
print("".join(c for c in "generator" if c not in "aeiou"))
print(1 if 4 in (x for x in xs) else 0, 1 if 7 in map(lambda x: x + 1, xs) else 0)
lazy = map(lambda x: x * 10, xs)
print(next(lazy), next(lazy), sum(lazy))
f = lambda x, y=2: x ** y
print(f(3), f(3, 3), f(y=0, x=5), (lambda: 42)())
fs = [lambda x, k=k: x + k for k in range(3)]
print([g(10) for g in fs])
print(list(map(len, words)), 1 if list(enumerate(map(len, words))) == list(enumerate([4, 3, 6, 4])) else 0)

class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1

print(list(Countdown(3)), sum(Countdown(4)), [x * 2 for x in Countdown(2)])
c = Countdown(1)
print(next(c), next(c, -1))
print(list(zip([1, 2], [3, 4], [5, 6])), list(enumerate([7, 8], 1)), dict(enumerate([9])))
