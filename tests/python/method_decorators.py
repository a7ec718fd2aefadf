# Decorators on methods: a plain wrapper receives self first; property with a
# setter; staticmethod; classmethod receives the class (subclasses too);
# stacked decorators apply bottom-up, their expressions evaluated top-down.
order = []


def trace(tag):
    order.append("make " + tag)

    def deco(f):
        order.append("apply " + tag)

        def wrapper(*args, **kwargs):
            order.append("call " + tag + " " + str(len(args)))
            return f(*args, **kwargs)
        return wrapper
    return deco


class Circle:
    count = 0

    def __init__(self, r):
        self._r = r

    @property
    def radius(self):
        return self._r

    @radius.setter
    def radius(self, v):
        self._r = v * 2

    @property
    def area(self):
        return 3 * self._r * self._r

    @staticmethod
    def unit():
        return Circle(1)

    @classmethod
    def make(cls, r):
        return cls(r)

    @trace("a")
    @trace("b")
    def grow(self, k, by=1):
        self._r = self._r * k + by
        return self


class Ring(Circle):
    def name(self):
        return "ring"


c = Circle(2)
print(c.radius, c.area)
c.radius = 5
print(c.radius, c.area)
print(Circle.unit().radius, c.unit().radius, Circle.make(7).area)
print(Ring.make(3).name(), Ring.make(3).radius)
print(c.grow(2).radius, c.grow(1, by=0).radius)
print(Circle.grow(c, 1, 5).radius)
for line in order:
    print(line)
