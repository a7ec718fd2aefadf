/* number.c — Python's numbers (SPEC §2, §3, §11): the slow paths of int and
 * float arithmetic (boxed ints, bools, overflow, division by zero), exact
 * comparisons across int and float, the hash that makes 1 and 1.0 one map
 * key, and repr() of numbers. The inline fast paths are in arith.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/arith.h"
#include "vm/internal.h"
#include "vm/opcodes.h"

static Value overflow(AgVM *vm) { return vm_raise(vm, VM_ERR_OVERFLOW, "integer overflow"); }

static Value zero_division(AgVM *vm, const char *message) {
  ObjString *s = obj_string(vm, message);
  vm_push_root(vm, OBJ_VAL(s));
  ObjInstance *err = vm_new_error(vm, vm->core.zero_division_class, s);
  vm_pop_root(vm);
  return vm_throw(vm, OBJ_VAL(err));
}

/* An int or a bool (true/false act as 1/0 in arithmetic, as in Python). */
static bool is_intlike(Value v) { return IS_INT(v) || IS_BOOL(v); }
static int64_t intlike_of(Value v) { return IS_BOOL(v) ? (int64_t)AS_BOOL(v) : AS_INT(v); }
static double double_of(Value v) { return IS_BOOL(v) ? (double)AS_BOOL(v) : AS_NUMBER(v); }

/* base ** exp for ints, exp >= 0, by squaring; false on overflow. */
static bool int_pow(int64_t base, int64_t exp, int64_t *out) {
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1) {
      if (__builtin_mul_overflow(result, base, &result)) return false;
    }
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base)) return false;
  }
  *out = result;
  return true;
}

static Value int_op(AgVM *vm, int op, int64_t a, int64_t b) {
  int64_t r;
  switch (op) {
  case OP_ADD:
    if (__builtin_add_overflow(a, b, &r)) return overflow(vm);
    return INT_VAL(vm, r);
  case OP_SUBTRACT:
    if (__builtin_sub_overflow(a, b, &r)) return overflow(vm);
    return INT_VAL(vm, r);
  case OP_MULTIPLY:
    if (__builtin_mul_overflow(a, b, &r)) return overflow(vm);
    return INT_VAL(vm, r);
  case OP_DIVIDE:
    if (b == 0) return zero_division(vm, "division by zero");
    return FLOAT_VAL((double)a / (double)b);
  case OP_FLOOR_DIVIDE:
    if (b == 0) return zero_division(vm, "integer division or modulo by zero");
    if (a == INT64_MIN && b == -1) return overflow(vm);
    return INT_VAL(vm, int_floordiv(a, b));
  case OP_MODULO:
    if (b == 0) return zero_division(vm, "integer modulo by zero");
    return INT_VAL(vm, int_mod(a, b));
  case OP_POWER:
    if (b < 0) {
      if (a == 0) return zero_division(vm, "0.0 cannot be raised to a negative power");
      return FLOAT_VAL(pow((double)a, (double)b));
    }
    if (!int_pow(a, b, &r)) return overflow(vm);
    return INT_VAL(vm, r);
  case OP_LESS: return BOOL_VAL(a < b);
  case OP_LESS_EQUAL: return BOOL_VAL(a <= b);
  case OP_GREATER: return BOOL_VAL(a > b);
  case OP_GREATER_EQUAL: return BOOL_VAL(a >= b);
  default: return vm_raise(vm, VM_ERR_TYPE, "unsupported operand types for %s: 'int' and 'int'", vm_op_symbol(op));
  }
}

static Value float_op(AgVM *vm, int op, double a, double b) {
  switch (op) {
  case OP_ADD: return FLOAT_VAL(a + b);
  case OP_SUBTRACT: return FLOAT_VAL(a - b);
  case OP_MULTIPLY: return FLOAT_VAL(a * b);
  case OP_DIVIDE:
    if (b == 0) return zero_division(vm, "float division by zero");
    return FLOAT_VAL(a / b);
  case OP_FLOOR_DIVIDE:
    if (b == 0) return zero_division(vm, "float floor division by zero");
    return FLOAT_VAL(float_floordiv(a, b));
  case OP_MODULO:
    if (b == 0) return zero_division(vm, "float modulo by zero");
    return FLOAT_VAL(float_mod(a, b));
  case OP_POWER:
    if (a == 0 && b < 0) return zero_division(vm, "0.0 cannot be raised to a negative power");
    if (a < 0 && b != floor(b) && isfinite(b)) {
      return vm_raise(vm, VM_ERR_VALUE, "a negative number cannot be raised to a fractional power (the result is complex)");
    }
    return FLOAT_VAL(pow(a, b));
  default: return vm_raise(vm, VM_ERR_TYPE, "unsupported operand types for %s: 'float' and 'float'", vm_op_symbol(op));
  }
}

Value vm_number_op(AgVM *vm, int op, Value a, Value b) {
  switch (op) {
  case OP_LESS: return BOOL_VAL(vm_numbers_less(a, b));
  case OP_LESS_EQUAL: return BOOL_VAL(!vm_numbers_less(b, a) && !vm_number_is_nan(a) && !vm_number_is_nan(b));
  case OP_GREATER: return BOOL_VAL(vm_numbers_less(b, a));
  case OP_GREATER_EQUAL: return BOOL_VAL(!vm_numbers_less(a, b) && !vm_number_is_nan(a) && !vm_number_is_nan(b));
  default: break;
  }
  if (is_intlike(a) && is_intlike(b)) return int_op(vm, op, intlike_of(a), intlike_of(b));
  return float_op(vm, op, double_of(a), double_of(b));
}

Value vm_negate_number(AgVM *vm, Value a) {
  if (IS_FLOAT(a)) return FLOAT_VAL(-AS_FLOAT(a));
  int64_t i = intlike_of(a);
  if (i == INT64_MIN) return overflow(vm);
  return INT_VAL(vm, -i);
}

bool vm_number_is_nan(Value v) { return IS_FLOAT(v) && isnan(AS_FLOAT(v)); }

/* An int i against a float d, exactly (an int64 above 2^53 is not a double):
 * -1, 0 or 1, or 2 when d is nan. long double holds every int64 on the
 * usual hosts; where it is a plain double, ints above 2^53 round. */
static int compare_int_float(int64_t i, double d) {
  if (isnan(d)) return 2;
  long double x = (long double)i, y = (long double)d;
  return x < y ? -1 : x > y ? 1 : 0;
}

/* -1, 0, 1 (a <=> b), or 2 when unordered (nan). */
static int compare_numbers(Value a, Value b) {
  if (is_intlike(a) && is_intlike(b)) {
    int64_t x = intlike_of(a), y = intlike_of(b);
    return x < y ? -1 : x > y;
  }
  if (is_intlike(a)) return compare_int_float(intlike_of(a), AS_FLOAT(b));
  if (is_intlike(b)) {
    int c = compare_int_float(intlike_of(b), AS_FLOAT(a));
    return c == 2 ? 2 : -c;
  }
  double x = AS_FLOAT(a), y = AS_FLOAT(b);
  if (isnan(x) || isnan(y)) return 2;
  return x < y ? -1 : x > y;
}

bool vm_numbers_equal(Value a, Value b) { return compare_numbers(a, b) == 0; }
bool vm_numbers_less(Value a, Value b) { return compare_numbers(a, b) == -1; }

/* Equal numbers hash alike (1, 1.0 and true are one key, as in Python): an
 * integral float in the int64 range hashes as that int. */
uint64_t vm_number_key_bits(Value v) {
  if (IS_BOOL(v)) return (uint64_t)AS_BOOL(v);
  if (IS_INT(v)) return (uint64_t)AS_INT(v);
  double d = AS_FLOAT(v);
  if (d == trunc(d) && d >= -0x1p63 && d < 0x1p63) return (uint64_t)(int64_t)d;
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

/* ---- repr ---- */

int vm_format_int(int64_t i, char *buf, size_t size) { return snprintf(buf, size, "%lld", (long long)i); }

/* The digits of "%.*e" text `tmp` into `digits`; returns its exponent. */
static int split_scientific(const char *tmp, char *digits, size_t size) {
  const char *e = strchr(tmp, 'e');
  size_t n = 0;
  for (const char *p = tmp; p < e && n + 1 < size; p++) {
    if (*p >= '0' && *p <= '9') digits[n++] = *p;
  }
  digits[n] = '\0';
  return atoi(e + 1);
}

/* Whether digits d.ddd times 10^exponent reads back as d. */
static bool reads_back(const char *digits, int exponent, double d) {
  char tmp[48];
  snprintf(tmp, sizeof tmp, "%c.%se%d", digits[0], digits + 1, exponent);
  return strtod(tmp, NULL) == d;
}

/* Adds one to the last of the digits (9.99 becomes 1.00 with exponent + 1). */
static void increment_digits(char *digits, int *exponent) {
  int i = (int)strlen(digits) - 1;
  while (i >= 0 && digits[i] == '9') digits[i--] = '0';
  if (i >= 0) {
    digits[i]++;
    return;
  }
  digits[0] = '1'; /* all nines: 10.00 is 1.000 times ten */
  (*exponent)++;
}

/* Shortest "d.ddde±X" that reads back as d, and of those the nearest to d
 * (Python's repr): digits into `digits`, returns the decimal exponent. The
 * nearest decimal of each length is tried and, where it does not read back,
 * the one above it: at a power of two the doubles below d lie twice as close
 * as those above, so only a decimal above d may read back (2**-44 is
 * 5.684341886080802e-14, not ...8015e-14). */
static int shortest_digits(double d, char *digits, size_t size) {
  char tmp[40];
  int exponent = 0;
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
    exponent = split_scientific(tmp, digits, size);
    if (strtod(tmp, NULL) == d) break;
    char above[32];
    int above_exponent = exponent;
    snprintf(above, sizeof above, "%s", digits);
    increment_digits(above, &above_exponent);
    if (reads_back(above, above_exponent, d)) {
      snprintf(digits, size, "%s", above);
      exponent = above_exponent;
      break;
    }
  }
  size_t n = strlen(digits);
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = '\0';
  return exponent;
}

/* Python's repr of a float: the shortest digits that read back exactly, in
 * fixed notation for exponents -4 .. 15 (always with a `.`: 2.0), else
 * d.ddde±XX (1e-05, 1e+16). */
int vm_format_float(double d, char *buf, size_t size) {
  if (isnan(d)) return snprintf(buf, size, "nan");
  if (isinf(d)) return snprintf(buf, size, d > 0 ? "inf" : "-inf");
  if (d == 0) return snprintf(buf, size, signbit(d) ? "-0.0" : "0.0");
  const char *sign = d < 0 ? "-" : "";
  if (d == trunc(d) && fabs(d) < 1e16) return snprintf(buf, size, "%s%lld.0", sign, (long long)fabs(d));
  char digits[32];
  int exponent = shortest_digits(fabs(d), digits, sizeof digits);
  int n = (int)strlen(digits);
  if (exponent >= -4 && exponent < 0) {
    const char *zeros = &"000"[3 - (-exponent - 1)]; /* 0 to 3 zeros after the point */
    return snprintf(buf, size, "%s0.%s%s", sign, zeros, digits);
  }
  /* not integral here, so the digits run past the point */
  if (exponent >= 0 && exponent < 16) {
    return snprintf(buf, size, "%s%.*s.%s", sign, exponent + 1, digits, digits + exponent + 1);
  }
  const char *exp_sign = exponent < 0 ? "-" : "+";
  int mag = abs(exponent);
  if (n == 1) return snprintf(buf, size, "%s%se%s%02d", sign, digits, exp_sign, mag);
  return snprintf(buf, size, "%s%c.%se%s%02d", sign, digits[0], digits + 1, exp_sign, mag);
}

int vm_format_num(Value v, char *buf, size_t size) {
  if (IS_FLOAT(v)) return vm_format_float(AS_FLOAT(v), buf, size);
  return vm_format_int(AS_INT(v), buf, size);
}
