# Generators run their body only as items are drawn: the order of the
# side effects below is Python's.
def count(n):
    print("start", n)
    i = 0
    while i < n:
        print("before yield", i)
        yield i
        print("after yield", i)
        i += 1
    print("end", n)
    return n * 10


g = count(2)
print("made")
print("got", next(g))
print("got", next(g))
print("default", next(g, -1))
print("again", next(g, -2))

trace = []
def note(x):
    trace.append(x)
    return x * x

ge = (note(x) for x in [1, 2, 3, 4] if x % 2 == 0)
print("trace", trace)
print("first", next(ge), "trace", trace)
print("rest", list(ge), "trace", trace)

trace = []
print("any", 1 if any(note(x) > 3 for x in [1, 2, 3, 4]) else 0, "trace", trace)
trace = []
print("all", 1 if all(note(x) < 4 for x in [1, 2, 3, 4]) else 0, "trace", trace)

def echo():
    total = 0
    while True:
        v = yield total
        print("received", v if v is not None else "nothing")
        if v is None:
            return total
        total += v

e = echo()
print("primed", next(e))
print("sent", e.send(5))
print("sent", e.send(7))
try:
    e.send(None)
except StopIteration as stop:
    print("stopped with", stop.value)

def inner(n):
    for i in range(n):
        print("inner", i)
        yield i

def outer():
    for x in inner(2):
        print("outer got", x)
        yield x * 100

for y in outer():
    print("loop got", y)

m = map(note, [5, 6])
trace = []
print("map made", trace)
print("map first", next(m), trace)
z = zip([1, 2, 3], count(5))
print("zip first", sum(next(z)))
print("zip rest", [a + b for a, b in z])
