# Tuples (booleans printed as ints: Python spells them True/False): displays, printing, indexing, slicing, +, *, comparisons, hashing.
t = (3, 1, 2)
print(t, (1,), (), (1, (2, 3)), [(1, 2)])
print(t[0], t[-1], t[1:], t[::-1], len(t), t + (4,), (0,) * 3)
print(t.count(1), t.index(2), int(2 in t), tuple(range(3)))
print([int(b) for b in [(1, 2) == (1, 2), (1, 2) != (1, 2.0), (1, 2) < (1, 3), (1, 2) < (1, 2, 0), (2,) > (1, 9)]])
print(sorted([(2, 1), (1, 5), (1, 2)]), max([(1, 9), (2, 0)]))
counts = {}
for w in [1, 2, 1, 1]:
    key = (w, w * w)
    counts[key] = counts.get(key, 0) + 1
print(counts)
print(int({(1, 2), (1, 2), (2, 1)} == {(2, 1), (1, 2)}), len({(1, 2), (1.0, 2)}))
print(str((1, 2.5)), tuple([4, 5]))
