# CPython twin of str_format.ag: str.format's fields, conversions and nested specs
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
p = Point(3, 4.5)
print("{} and {}".format(1, 2.5))
print("{1} {0} {1}".format("a", "b"))
print("{name} is {age}".format(name="Ada", age=36))
print("{0[1]} {0[0]}".format([10, 20]))
print("{m[key]} {m[k2]:>4}".format(m={"key": "v", "k2": 7}))
print("{p.x},{p.y:.2f}".format(p=p))
print("{:>{w}}|{:^{w}.{pr}f}|".format("ab", 3.14159, w=9, pr=3))
print("{0:{1}}|".format(42, "+08d"))
print("{!s:>5}|{:x}".format(1.5, 255))
print("{{}} {{{}}}".format("x"))
print("{:,} {:_} {:,.2f}".format(1234567, 7654321, 98765.4321))
print("{:%} {:.0%} {:e}".format(0.5, 0.125, 12345.678))
print("{:b} {:#o} {:#X} {:c}".format(10, 64, 255, 97))
print("{:=+10.3f}|{:*<8}|{:~^9}|".format(-3.14159, "left", "mid"))
print("{0}{0}{0}".format("ab"))
