# CPython 3.11's random module after seed(n), for several seeds: every
# function of the module that Ag's random reproduces (twin: random_seeds.ag).
import random

def show(*xs):
    print(*xs)

for s in [0, 1, 42, 12345, -7, 2**40 + 3, 2**63 - 1]:
    random.seed(s)
    show("seed", s)
    show("random", random.random(), random.random())
    show("getrandbits", [random.getrandbits(k) for k in [0, 1, 7, 31, 32, 33, 53, 63]])
    show("randint", [random.randint(1, 6) for _ in range(8)], random.randint(-10**12, 10**12))
    show("randrange", random.randrange(10), random.randrange(5, 50), random.randrange(0, 100, 7),
         random.randrange(50, 0, -3), random.randrange(1000000007))
    xs = list(range(20))
    random.shuffle(xs)
    show("shuffle", xs)
    show("choice", random.choice(xs), random.choice(range(3, 1000)))
    show("choices", random.choices(range(10), k=5))
    show("weights", random.choices(range(4), [1, 0, 3.5, 2], k=6))
    show("cum_weights", random.choices(range(3), cum_weights=[1, 5, 6], k=6))
    show("sample small", random.sample(range(30), 5), random.sample(xs, 20))
    show("sample large", random.sample(range(100000), 8), random.sample(range(10**9), 3))
    show("sample counts", random.sample([10, 20, 30], 4, counts=[1, 2, 3]))
    show("uniform", random.uniform(-2, 3), random.uniform(5, 5))
    show("gauss", random.gauss(), random.gauss(1, 2), random.gauss(0, 1))
    show("normalvariate", random.normalvariate(0, 1), random.normalvariate(3, 0.5))
    show("expovariate", random.expovariate(1.5))
    show("triangular", random.triangular(), random.triangular(0, 10, 8))
    show("gammavariate", random.gammavariate(0.5, 1), random.gammavariate(1.0, 2), random.gammavariate(3, 1))
    show("betavariate", random.betavariate(2, 3))
    show("others", random.lognormvariate(0, 1), random.paretovariate(2), random.weibullvariate(1, 2),
         random.vonmisesvariate(1, 4))

# seed() forgets the cached gauss value; getstate/setstate give it back
random.seed(5)
a = random.gauss()
random.seed(5)
show("gauss after reseed", 1 if random.gauss() == a else 0)
st = random.getstate()
first = [random.random(), random.gauss(), random.gauss()]
random.setstate(st)
show("setstate", 1 if [random.random(), random.gauss(), random.gauss()] == first else 0)

# a float seeds with its hash (3.0 as 3), infinities with +-314159
for s in [3.0, 2.5, -0.1, 1e300, 123456.789, float("inf"), float("-inf"), 1e-300]:
    random.seed(s)
    show("float seed", s, random.random(), random.randrange(1000))
