# random.Random(seed): generators of their own with the module's methods,
# independent of each other and of the module (twin: random_instances.ag).
import random

random.seed(5)
a = random.Random(42)
b = random.Random(42)
print(a.random(), random.random(), b.random())
print(a.randint(1, 6), a.choice([1, 2, 3]), a.uniform(2, 3), a.gauss(0, 1))
xs = list(range(8))
b.shuffle(xs)
print(xs, b.sample(range(10), 3), b.randrange(0, 100, 5))
c = random.Random()
c.seed(7)
print(c.random(), c.getrandbits(12), c.choices(range(5), k=3))
s = c.getstate()
first = c.random()
c.setstate(s)
print(str(c.random() == first).lower(), random.random())
print(str(random.Random(3.0).random() == random.Random(3).random()).lower())
