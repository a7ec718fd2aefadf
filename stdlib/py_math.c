/* py_math.c — the natives of Python's `math` (CPython 3.11's Modules/
 * mathmodule.c semantics): numbers in, a float out, "math domain error" where
 * CPython raises ValueError and "math range error" where it raises
 * OverflowError; floor/ceil/trunc and the integer functions give ints (Ag's
 * 64-bit ints: a result past them is "integer overflow"). The functions with
 * keywords or iterables (isclose, prod, fsum, dist ...) are in stdlib/math.ag. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "stdlib/lib_internal.h"
#include "stdlib/py_modules.h"

static bool number_arg(AgVM *vm, Value v, const char *fname, double *out) {
  if (IS_BOOL(v)) {
    *out = v == TRUE_VAL;
    return true;
  }
  if (IS_INT(v) || IS_FLOAT(v)) {
    *out = AS_NUMBER(v);
    return true;
  }
  vm_throw_error(vm, "math.%s(): must be a real number, not %s", fname, vm_type_name(v));
  return false;
}

static bool int_arg(AgVM *vm, Value v, const char *fname, int64_t *out) {
  if (IS_BOOL(v)) {
    *out = v == TRUE_VAL;
    return true;
  }
  if (IS_INT(v)) {
    *out = AS_INT(v);
    return true;
  }
  vm_throw_error(vm, "math.%s(): %s object cannot be interpreted as an integer", fname, vm_type_name(v));
  return false;
}

/* CPython's is_error/math_1: a NaN from a non-NaN input is a domain error; an
 * infinity from finite input a range error (or a domain error for a pole:
 * log(0), atanh(1)). */
static Value checked(AgVM *vm, double r, bool nan_in, bool finite_in, bool can_overflow) {
  if (isnan(r) && !nan_in) return vm_throw_error(vm, "math domain error");
  if (isinf(r) && finite_in)
    return vm_throw_error(vm, can_overflow ? "math range error" : "math domain error");
  return FLOAT_VAL(r);
}

/* ---- functions of one float ---- */

static double degrees(double x) { return x * (180.0 / M_PI); }
static double radians(double x) { return x * (M_PI / 180.0); }

/* Gamma at a pole (0 and the negative integers) is a domain error, as CPython's. */
static bool gamma_pole(double x) { return x <= 0 && x == floor(x); }

/* ---- gamma and lgamma: CPython's own Lanczos approximation (g = 6.0247,
 * N = 13; Modules/mathmodule.c), not the C library's, for CPython's digits ---- */

enum { LANCZOS_N = 13, GAMMA_INTEGRAL_N = 23 };
static const double lanczos_g = 6.024680040776729583740234375;
static const double lanczos_g_minus_half = 5.524680040776729583740234375;
static const double lanczos_num[LANCZOS_N] = {
    23531376880.410759688572007674451636754734846804940, 42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843, 17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708, 1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801, 31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768, 186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024, 210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408};
/* the denominator x (x+1) ... (x+11), as coefficients */
static const double lanczos_den[LANCZOS_N] = {0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0,
                                              45995730.0, 13339535.0, 2637558.0, 357423.0, 32670.0,
                                              1925.0, 66.0, 1.0};
static const double log_pi = 1.144729885849400174143427351353058711647;

/* The rational function of the Lanczos sum at x > 0 (in 1/x above 5, so
 * that it does not overflow). */
static double lanczos_sum(double x) {
  double num = 0.0, den = 0.0;
  if (x < 5.0) {
    for (int i = LANCZOS_N - 1; i >= 0; i--) num = num * x + lanczos_num[i], den = den * x + lanczos_den[i];
  } else {
    for (int i = 0; i < LANCZOS_N; i++) num = num / x + lanczos_num[i], den = den / x + lanczos_den[i];
  }
  return num / den;
}

/* sin(pi x), exact at the multiples of 1/2 */
static double sin_pi(double x) {
  double y = fmod(fabs(x), 2.0), r = 0;
  switch ((int)round(2.0 * y)) {
  case 0: r = sin(M_PI * y); break;
  case 1: r = cos(M_PI * (y - 0.5)); break;
  case 2: r = sin(M_PI * (1.0 - y)); break;
  case 3: r = -cos(M_PI * (y - 1.5)); break;
  default: r = sin(M_PI * (y - 2.0)); break;
  }
  return copysign(1.0, x) * r;
}

static double py_gamma(double x) {
  if (!isfinite(x)) return isnan(x) || x > 0 ? x : NAN;
  if (x == 0.0) return copysign(INFINITY, x);
  if (x == floor(x)) {
    if (x < 0.0) return NAN;
    if (x <= GAMMA_INTEGRAL_N) {
      double f = 1.0;
      for (int i = 2; i < (int)x; i++) f *= i; /* exact below 23! */
      return f;
    }
  }
  double absx = fabs(x);
  if (absx < 1e-20) return 1.0 / x;
  if (absx > 200.0) return x < 0.0 ? 0.0 / sin_pi(x) : INFINITY;
  double y = absx + lanczos_g_minus_half, z;
  /* the rounding error of y, as a correction (the order matters) */
  if (absx > lanczos_g_minus_half) {
    double q = y - absx;
    z = q - lanczos_g_minus_half;
  } else {
    double q = y - lanczos_g_minus_half;
    z = q - absx;
  }
  z = z * lanczos_g / y;
  double r;
  if (x < 0.0) {
    r = -M_PI / sin_pi(absx) / absx * exp(y) / lanczos_sum(absx);
    r -= z * r;
    if (absx < 140.0) {
      r /= pow(y, absx - 0.5);
    } else {
      double sqrtpow = pow(y, absx / 2.0 - 0.25);
      r /= sqrtpow;
      r /= sqrtpow;
    }
  } else {
    r = lanczos_sum(absx) / exp(y);
    r += z * r;
    if (absx < 140.0) {
      r *= pow(y, absx - 0.5);
    } else {
      double sqrtpow = pow(y, absx / 2.0 - 0.25);
      r *= sqrtpow;
      r *= sqrtpow;
    }
  }
  return r;
}

static double py_lgamma(double x) {
  if (!isfinite(x)) return isnan(x) ? x : INFINITY;
  if (x == floor(x) && x <= 2.0) return x <= 0.0 ? INFINITY : 0.0;
  double absx = fabs(x);
  if (absx < 1e-20) return -log(absx);
  double r = log(lanczos_sum(absx)) - lanczos_g;
  r += (absx - 0.5) * (log(absx + lanczos_g - 0.5) - 1);
  if (x < 0.0) r = log_pi - log(fabs(sin_pi(absx))) - log(absx) - r;
  return r;
}

static Value unary_call(AgVM *vm, Value arg, const char *name, double (*fn)(double), bool can_overflow) {
  double x;
  if (!number_arg(vm, arg, name, &x)) return VM_EXCEPTION;
  if ((fn == py_gamma || fn == py_lgamma) && gamma_pole(x)) return vm_throw_error(vm, "math domain error");
  if ((fn == sin || fn == cos || fn == tan) && isinf(x)) return vm_throw_error(vm, "math domain error");
  return checked(vm, fn(x), isnan(x), isfinite(x), can_overflow);
}

#define MATH_UNARY(X)                                                                               \
  X(sqrt, sqrt, false) X(exp, exp, true) X(exp2, exp2, true) X(expm1, expm1, true)                 \
  X(log2, log2, false) X(log10, log10, false) X(log1p, log1p, false) X(sin, sin, false)            \
  X(cos, cos, false) X(tan, tan, false) X(asin, asin, false) X(acos, acos, false)                  \
  X(atan, atan, false) X(sinh, sinh, true) X(cosh, cosh, true) X(tanh, tanh, false)                \
  X(asinh, asinh, false) X(acosh, acosh, false) X(atanh, atanh, false) X(erf, erf, false)          \
  X(erfc, erfc, false) X(gamma, py_gamma, true) X(lgamma, py_lgamma, true) X(fabs, fabs, false)         \
  X(degrees, degrees, true) X(radians, radians, false) X(cbrt, cbrt, false)

#define DEFINE_UNARY(name, fn, overflow)                                                            \
  static Value native_##name(NATIVE_ARGS) { return unary_call(vm, args[0], #name, fn, overflow); }
MATH_UNARY(DEFINE_UNARY)
#undef DEFINE_UNARY

/* log(x) or log(x, base), as CPython: log(x) / log(base). */
static Value native_log(NATIVE_ARGS) {
  double x, base = M_E;
  if (!number_arg(vm, args[0], "log", &x) || (argc > 1 && !number_arg(vm, args[1], "log", &base)))
    return VM_EXCEPTION;
  if (x <= 0 || (argc > 1 && base <= 0)) return vm_throw_error(vm, "math domain error");
  double num = log(x);
  if (argc == 1) return FLOAT_VAL(num);
  double den = log(base);
  if (den == 0) return vm_throw_error(vm, "float division by zero");
  return FLOAT_VAL(num / den);
}

/* ---- two floats ---- */

static bool two_numbers(AgVM *vm, const Value *args, const char *name, double *x, double *y) {
  return number_arg(vm, args[0], name, x) && number_arg(vm, args[1], name, y);
}

/* CPython's rule for two floats: a NaN from non-NaN inputs is a domain
 * error; for pow, an infinity from finite ones a range error (a domain error
 * at 0 ** negative). */
static Value binary_call(AgVM *vm, const Value *args, const char *name, double (*fn)(double, double),
                         bool can_overflow) {
  double x, y;
  if (!two_numbers(vm, args, name, &x, &y)) return VM_EXCEPTION;
  double r = fn(x, y);
  if (isnan(r) && !isnan(x) && !isnan(y)) return vm_throw_error(vm, "math domain error");
  if (can_overflow && isinf(r) && isfinite(x) && isfinite(y))
    return vm_throw_error(vm, x == 0 ? "math domain error" : "math range error");
  return FLOAT_VAL(r);
}

#define MATH_BINARY(X)                                                                              \
  X(pow, pow, true) X(atan2, atan2, false) X(fmod, fmod, false) X(copysign, copysign, false)       \
  X(remainder, remainder, false) X(nextafter, nextafter, false)

#define DEFINE_BINARY(name, fn, overflow)                                                           \
  static Value native_##name(NATIVE_ARGS) { return binary_call(vm, args, #name, fn, overflow); }
MATH_BINARY(DEFINE_BINARY)
#undef DEFINE_BINARY

static Value native_ldexp(NATIVE_ARGS) {
  double x;
  int64_t i;
  if (!number_arg(vm, args[0], "ldexp", &x) || !int_arg(vm, args[1], "ldexp", &i)) return VM_EXCEPTION;
  int e = i > INT32_MAX ? INT32_MAX : i < INT32_MIN ? INT32_MIN : (int)i;
  double r = ldexp(x, e);
  if (isinf(r) && isfinite(x)) return vm_throw_error(vm, "math range error");
  return FLOAT_VAL(r);
}

/* hypot(*coordinates): the Euclidean norm, scaled against overflow. */
static Value native_hypot(NATIVE_ARGS) {
  double r = 0;
  for (int i = 0; i < argc; i++) {
    double x;
    if (!number_arg(vm, args[i], "hypot", &x)) return VM_EXCEPTION;
    r = hypot(r, x);
  }
  return FLOAT_VAL(r);
}

static Value native_ulp(NATIVE_ARGS) {
  double x;
  if (!number_arg(vm, args[0], "ulp", &x)) return VM_EXCEPTION;
  if (isnan(x) || isinf(x)) return FLOAT_VAL(fabs(x));
  x = fabs(x);
  double next = nextafter(x, INFINITY);
  if (isinf(next)) return FLOAT_VAL(x - nextafter(x, -INFINITY));
  return FLOAT_VAL(next - x);
}

static Value pair(AgVM *vm, Value a, Value b) {
  vm_push_root(vm, a);
  vm_push_root(vm, b);
  ObjList *list = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(list));
  obj_list_append(vm, list, a);
  obj_list_append(vm, list, b);
  vm_pop_roots(vm, 3);
  return OBJ_VAL(list);
}

/* [m, e] with x == m * 2**e, 0.5 <= |m| < 1 (Python's tuple, as a list) */
static Value native_frexp(NATIVE_ARGS) {
  double x;
  if (!number_arg(vm, args[0], "frexp", &x)) return VM_EXCEPTION;
  int e = 0;
  double m = isfinite(x) ? frexp(x, &e) : x;
  return pair(vm, FLOAT_VAL(m), INT_VAL(vm, e));
}

/* [fractional part, integer part], both with x's sign (Python's tuple) */
static Value native_modf(NATIVE_ARGS) {
  double x, i;
  if (!number_arg(vm, args[0], "modf", &x)) return VM_EXCEPTION;
  if (isinf(x)) return pair(vm, FLOAT_VAL(copysign(0.0, x)), FLOAT_VAL(x));
  double f = modf(x, &i);
  return pair(vm, FLOAT_VAL(f), FLOAT_VAL(i));
}

/* ---- floats as ints ---- */

static Value float_to_int(AgVM *vm, double r) {
  if (isnan(r)) return vm_throw_error(vm, "cannot convert float NaN to integer");
  if (isinf(r)) return vm_throw_error(vm, "cannot convert float infinity to integer");
  if (r < -9223372036854775808.0 || r >= 9223372036854775808.0) return vm_throw_error(vm, "integer overflow");
  return INT_VAL(vm, (int64_t)r);
}

static Value rounded(AgVM *vm, Value v, const char *name, double (*fn)(double)) {
  if (IS_INT(v)) return v;
  double x;
  if (!number_arg(vm, v, name, &x)) return VM_EXCEPTION;
  return float_to_int(vm, fn(x));
}

static Value native_floor(NATIVE_ARGS) { return rounded(vm, args[0], "floor", floor); }
static Value native_ceil(NATIVE_ARGS) { return rounded(vm, args[0], "ceil", ceil); }
static Value native_trunc(NATIVE_ARGS) { return rounded(vm, args[0], "trunc", trunc); }

static Value native_isnan(NATIVE_ARGS) {
  double x;
  return number_arg(vm, args[0], "isnan", &x) ? BOOL_VAL(isnan(x)) : VM_EXCEPTION;
}
static Value native_isinf(NATIVE_ARGS) {
  double x;
  return number_arg(vm, args[0], "isinf", &x) ? BOOL_VAL(isinf(x)) : VM_EXCEPTION;
}
static Value native_isfinite(NATIVE_ARGS) {
  double x;
  return number_arg(vm, args[0], "isfinite", &x) ? BOOL_VAL(isfinite(x)) : VM_EXCEPTION;
}

/* ---- integer functions ---- */

static Value overflow(AgVM *vm) { return vm_throw_error(vm, "integer overflow"); }

static Value native_factorial(NATIVE_ARGS) {
  int64_t n, r = 1;
  if (!int_arg(vm, args[0], "factorial", &n)) return VM_EXCEPTION;
  if (n < 0) return vm_throw_error(vm, "factorial() not defined for negative values");
  for (int64_t i = 2; i <= n; i++) {
    if (__builtin_mul_overflow(r, i, &r)) return overflow(vm);
  }
  return INT_VAL(vm, r);
}

/* n! / (n-k)!, and with `divide` by k! as well: exact at every step
 * (the running product of i consecutive numbers is divisible by i!). */
static Value falling(AgVM *vm, const Value *args, int argc, const char *name, bool divide) {
  int64_t n, k;
  if (!int_arg(vm, args[0], name, &n)) return VM_EXCEPTION;
  k = n;
  if (argc > 1 && !IS_NIL(args[1]) && !int_arg(vm, args[1], name, &k)) return VM_EXCEPTION;
  if (n < 0) return vm_throw_error(vm, "n must be a non-negative integer");
  if (k < 0) return vm_throw_error(vm, "k must be a non-negative integer");
  if (k > n) return INT_VAL(vm, 0);
  if (divide && k > n - k) k = n - k;
  __int128 r = 1;
  for (int64_t i = 0; i < k; i++) {
    r *= n - i;
    if (divide) r /= i + 1;
    if (r > INT64_MAX) return overflow(vm);
  }
  return INT_VAL(vm, (int64_t)r);
}

static Value native_comb(NATIVE_ARGS) { return falling(vm, args, argc, "comb", true); }
static Value native_perm(NATIVE_ARGS) { return falling(vm, args, argc, "perm", false); }

static uint64_t gcd_u(uint64_t a, uint64_t b) {
  while (b != 0) {
    uint64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

static Value gcd_or_lcm(AgVM *vm, int argc, const Value *args, bool lcm) {
  uint64_t r = lcm ? 1 : 0;
  for (int i = 0; i < argc; i++) {
    int64_t v;
    if (!int_arg(vm, args[i], lcm ? "lcm" : "gcd", &v)) return VM_EXCEPTION;
    uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (!lcm) {
      r = gcd_u(r, a);
    } else if (a == 0 || r == 0) {
      r = 0;
    } else {
      uint64_t g = gcd_u(r, a), out;
      if (__builtin_mul_overflow(r / g, a, &out)) return overflow(vm);
      r = out;
    }
  }
  if (r > INT64_MAX) return overflow(vm);
  return INT_VAL(vm, (int64_t)r);
}

static Value native_gcd(NATIVE_ARGS) { return gcd_or_lcm(vm, argc, args, false); }
static Value native_lcm(NATIVE_ARGS) { return gcd_or_lcm(vm, argc, args, true); }

static Value native_isqrt(NATIVE_ARGS) {
  int64_t n;
  if (!int_arg(vm, args[0], "isqrt", &n)) return VM_EXCEPTION;
  if (n < 0) return vm_throw_error(vm, "isqrt() argument must be nonnegative");
  uint64_t r = (uint64_t)sqrtl((long double)n);
  while (r * r > (uint64_t)n) r--;
  while ((r + 1) * (r + 1) <= (uint64_t)n) r++;
  return INT_VAL(vm, (int64_t)r);
}

/* ---- fsum: Shewchuk's exact partial sums, as CPython's math.fsum ---- */

static Value native_fsum(NATIVE_ARGS) {
  if (!IS_LIST(args[0])) return vm_throw_error(vm, "math.fsum(): wants a list");
  ObjList *xs = AS_LIST(args[0]);
  double partials[64 + 2048 / 32]; /* at most ~ (exponent range / 53) + 1 partials live */
  int n = 0;
  double special = 0, inf_sum = 0;
  for (int i = 0; i < xs->count; i++) {
    double x;
    if (!number_arg(vm, xs->items[i], "fsum", &x)) return VM_EXCEPTION;
    if (!isfinite(x)) {
      if (isinf(x)) inf_sum += x;
      special += x;
      continue;
    }
    int j = 0;
    for (int k = 0; k < n; k++) {
      double y = partials[k];
      if (fabs(x) < fabs(y)) {
        double t = x;
        x = y, y = t;
      }
      double hi = x + y, lo = y - (hi - x);
      if (lo != 0.0) partials[j++] = lo;
      x = hi;
    }
    if (isinf(x)) return vm_throw_error(vm, "intermediate overflow in fsum");
    n = j;
    partials[n++] = x;
  }
  if (special != 0.0) {
    if (isnan(inf_sum)) return vm_throw_error(vm, "-inf + inf in fsum");
    return FLOAT_VAL(special);
  }
  double hi = 0.0;
  if (n > 0) {
    hi = partials[--n];
    double lo = 0;
    while (n > 0) { /* sum the partials from the top down, stopping at the first inexact sum */
      double x = hi, y = partials[--n];
      hi = x + y;
      double yr = hi - x;
      lo = y - yr;
      if (lo != 0.0) break;
    }
    /* round half-even: CPython's correction when the rest has the same sign */
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
      double y = lo * 2.0, x = hi + y, yr = x - hi;
      if (y == yr) hi = x;
    }
  }
  return FLOAT_VAL(hi);
}

void py_math_define(AgVM *vm, ObjModule *module) {
#define NATIVE_ENTRY(name, fn, overflow) {#name, native_##name, 1, 1},
#define BINARY_ENTRY(name, fn, overflow) {#name, native_##name, 2, 2},
  static const PyNative natives[] = {
      MATH_UNARY(NATIVE_ENTRY)
      MATH_BINARY(BINARY_ENTRY)
      {"log", native_log, 1, 2},          {"ldexp", native_ldexp, 2, 2},
      {"hypot", native_hypot, 0, 255},    {"ulp", native_ulp, 1, 1},
      {"floor", native_floor, 1, 1},      {"ceil", native_ceil, 1, 1},
      {"trunc", native_trunc, 1, 1},      {"isnan", native_isnan, 1, 1},
      {"isinf", native_isinf, 1, 1},      {"isfinite", native_isfinite, 1, 1},
      {"factorial", native_factorial, 1, 1}, {"comb", native_comb, 2, 2},
      {"perm", native_perm, 1, 2},        {"gcd", native_gcd, 0, 255},
      {"lcm", native_lcm, 0, 255},        {"isqrt", native_isqrt, 1, 1},
      {"_fsum", native_fsum, 1, 1},       {"frexp", native_frexp, 1, 1},
      {"modf", native_modf, 1, 1},
  };
#undef NATIVE_ENTRY
#undef BINARY_ENTRY
  py_define_natives(vm, module, natives, sizeof natives / sizeof natives[0]);
  static const struct {
    const char *name;
    double value;
  } constants[] = {{"pi", M_PI}, {"e", M_E}, {"tau", 2 * M_PI}, {"inf", INFINITY}, {"nan", NAN}};
  for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
    lib_module_define(vm, module, constants[i].name, FLOAT_VAL(constants[i].value));
}
