# A for loop's variable keeps its last value after the loop: a global at
# top level, a local in a function; one that exists is updated; break
# leaves the value it had; tuple targets too.
for item in [1, 2, 3]:
    pass
print(item)

total = 0
for total in range(5):
    if total == 3:
        break
print(total)


def last(xs):
    for x in xs:
        pass
    return x


print(last([4, 5, 6]))


def nested():
    for i in range(2):
        for j in range(3):
            pass
    return i, j


print(nested())

for i, (a, b) in enumerate([(1, 2), (3, 4)]):
    pass
print(i, a, b)

for k, v in {"x": 1, "y": 2}.items():
    pass
print(k, v)

n = 10
for n in []:
    pass
print(n)


def shadow():
    y = 100
    for y in range(3):
        y = y * 10
    return y


print(shadow())
