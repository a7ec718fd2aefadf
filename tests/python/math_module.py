# CPython 3.11's math module on a spread of arguments (twin: math_module.ag).
import math

def b(x):  # Ag's spelling of booleans
    return 'true' if x else 'false'

print(math.pi, math.e, math.tau, math.inf, -math.inf)
print(math.floor(2.5), math.floor(-2.5), math.ceil(2.1), math.ceil(-2.1), math.trunc(-3.9), math.floor(7))
for x in [0.5, 1, 2.0, 10, 1e-8, 123.456]:
    print(x, math.sqrt(x), math.exp(x), math.log(x), math.log2(x), math.log10(x), math.log1p(x), math.expm1(x))
    print(math.sin(x), math.cos(x), math.tan(x), math.atan(x), math.sinh(x), math.cosh(x), math.tanh(x))
    print(math.asinh(x), math.erf(x), math.erfc(x), math.gamma(x), math.lgamma(x), math.degrees(x), math.radians(x))
print(math.log(8, 2), math.log(100, 10), math.log(2, 0.5), math.pow(2, 10), math.pow(2.5, -1.5))
print(math.asin(0.5), math.acos(0.5), math.acosh(2), math.atanh(0.5), math.atan2(1, -1), math.atan2(-0.0, -1))
print(math.hypot(3, 4), math.hypot(1, 2, 3), math.hypot(), math.dist([0, 0], [3, 4]))
print(math.fabs(-3), math.fmod(7, 3), math.fmod(-7, 3), math.copysign(2, -0.0), math.remainder(7, 4))
print(b(math.isnan(math.nan)), b(math.isinf(-math.inf)), b(math.isfinite(1e308)), b(math.isclose(1, 1 + 1e-10)), b(math.isclose(1, 1.1)))
print(b(math.isclose(0, 1e-12, abs_tol=1e-9)), b(math.isclose(100, 101, rel_tol=0.02)))
print(math.factorial(0), math.factorial(20), math.comb(10, 3), math.comb(60, 30), math.comb(5, 7), math.perm(5, 2), math.perm(6))
print(math.gcd(12, 18), math.gcd(-4, 6, 10), math.gcd(), math.lcm(4, 6), math.lcm(3, 5, 7), math.lcm(), math.isqrt(99))
print(math.prod([1, 2, 3, 4]), math.prod([0.5, 4], start=3), math.prod([]))
print(math.fsum([0.1] * 10), sum([0.1] * 10), math.fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]))
print(list(math.frexp(8.0)), list(math.frexp(-0.3)), math.ldexp(0.5, 4), list(math.modf(-3.25)), list(math.modf(2.0)))
print(math.cbrt(27), math.exp2(10), math.nextafter(1, 2), math.ulp(1.0))
for f, args in [(math.sqrt, [-1]), (math.log, [0]), (math.log, [-1]), (math.exp, [1000]), (math.acos, [2]),
                (math.gamma, [0]), (math.gamma, [-2]), (math.pow, [0, -1]), (math.fmod, [1, 0]), (math.factorial, [-1]),
                (math.sin, [math.inf]), (math.atanh, [1])]:
    try:
        print(f(*args))
    except (ValueError, OverflowError) as e:
        print(str(e))
