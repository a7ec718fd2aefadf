# CPython 3.11's collections, itertools and string, printed in Ag's spelling
# (lists for the tuples Ag's versions give as lists, double quotes, true/false); twin: collections_itertools.ag.
import collections, itertools, string, json

def spell(x):  # Ag's spelling: true/false, double-quoted strings in containers
    if isinstance(x, bool):
        return "true" if x else "false"
    return json.dumps(x) if isinstance(x, (list, dict)) else x

def show(*xs):
    print(*[spell(x) for x in xs])

def lists(it):
    return [list(x) if isinstance(x, tuple) else x for x in it]

def tuples(it):  # a list of tuples, spelled as Ag prints it: [("a", 5), ...]
    return "[" + ", ".join("(" + ", ".join(json.dumps(e) for e in t) + ("," if len(t) == 1 else "") + ")" for t in it) + "]"

c = collections.Counter("abracadabra")
show(c["a"], c["z"], tuples(c.most_common(3)), len(c), sorted(c.elements()), c.total())
c.update("aaz")
c.update({"q": 3})
c.subtract("ab")
show(tuples(c.most_common()))
show(tuples((collections.Counter("aab") + collections.Counter("bcc")).most_common()))
show(tuples((collections.Counter("aaab") - collections.Counter("ab")).most_common()))
show(tuples((collections.Counter("aab") | collections.Counter("bbb")).most_common()))
show(tuples((collections.Counter("aab") & collections.Counter("abb")).most_common()))
words = "the cat and the hat and the bat".split()
show(tuples(collections.Counter(words).most_common(2)))

d = collections.defaultdict(list)
for k, v in [("a", 1), ("b", 2), ("a", 3)]:
    d[k].append(v)
show(dict(d), "a" in d, "z" in d, len(d))
n = collections.defaultdict(int)
for ch in "mississippi":
    n[ch] += 1
show(dict(n))

o = collections.OrderedDict()
o["x"] = 1; o["y"] = 2; o["z"] = 3
o.move_to_end("x")
show(list(o.keys()))
o.move_to_end("z", last=False)
show(list(o.keys()), list(o.popitem()), list(o.popitem(last=False)))

Point = collections.namedtuple("Point", "x y")
p = Point(1, 2)
show(str(p), p.x, p[1], list(p), p == Point(1, 2), len(p), p._asdict())
P3 = collections.namedtuple("P3", ["a", "b", "c"], defaults=[0])
show(str(P3(1, 2)), str(P3._make([4, 5, 6])))

q = collections.deque([1, 2, 3], maxlen=4)
q.append(4); q.append(5); q.appendleft(0)
show(list(q), q.maxlen, q.popleft(), q.pop(), list(q))
r = collections.deque(range(6))
r.rotate(2); show(list(r))
r.rotate(-3); show(list(r), r[0], r[-1], len(r))
r.extendleft([10, 11]); show(list(r))
for i in range(100):
    r.append(i); r.popleft()
show(list(r), len(r))

show(list(itertools.islice(itertools.count(5, 2), 4)), list(itertools.islice("abcdefgh", 2, 7, 2)))
show(list(itertools.islice(range(10), None)), list(itertools.islice(range(10), 3, None)))
show(list(itertools.chain([1, 2], "ab", range(2))), list(itertools.chain.from_iterable(["xy", [3]])))
show(list(itertools.accumulate([3, 1, 4, 1, 5])), list(itertools.accumulate([3, 1, 4], max)),
     list(itertools.accumulate([1, 2], initial=100)))
show(lists(itertools.product("ab", range(2))), lists(itertools.product([0, 1], repeat=2)))
show(lists(itertools.permutations("abc")), lists(itertools.permutations(range(4), 2)))
show(lists(itertools.combinations(range(5), 3)), lists(itertools.combinations_with_replacement("xy", 3)))
show(list(itertools.repeat("k", 3)), list(itertools.islice(itertools.cycle([1, 2, 3]), 7)))
show(lists(itertools.zip_longest([1, 2, 3], "ab", fillvalue=0)), lists(itertools.pairwise("abcd")))
show(list(itertools.takewhile(lambda x: x < 3, [1, 2, 3, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 3, 1])))
show(list(itertools.filterfalse(lambda x: x % 2, range(7))), list(itertools.compress("abcdef", [1, 0, 1, 0, 1, 1])))
show(list(itertools.starmap(pow, [(2, 3), (3, 2)])), [[k, list(g)] for k, g in itertools.groupby("aabbbc")])
it = itertools.count()
show(next(it), next(it), next(it))

show(string.ascii_letters, string.digits, string.hexdigits, string.octdigits)
show(string.punctuation, [ord(ch) for ch in string.whitespace], len(string.printable), string.capwords(" hello   wORLD  x"))
