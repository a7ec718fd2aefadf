/* arith.h — the fast paths of number arithmetic that the dispatch loop
 * inlines (Python's rules, SPEC §11; the slow paths are in number.c).
 *
 * A "fast number" is a float or a small int (value.h). On two small ints
 * + - * // % stay ints; on a small int and a float the int converts exactly
 * (it has at most 49 bits). Each arith_X(a, b, &out) returns true with the
 * result in out, or false when the operands are anything else (boxed ints,
 * bools, tensors, strings ...) or the result needs the slow path (it does
 * not fit a small int, or it is an error such as a division by zero), so the
 * caller runs vm_binary_op, which knows every case and raises the errors.
 */
#ifndef AG_VM_ARITH_H
#define AG_VM_ARITH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "vm/value.h"

#define IS_FASTNUM(v) (IS_FLOAT(v) || IS_SMALLINT(v))
static inline double fastnum_as_double(Value v) {
  return IS_SMALLINT(v) ? (double)AS_SMALLINT(v) : AS_FLOAT(v);
}

/* a // b and a % b for ints, b != 0, with the sign of the divisor
 * (INT64_MIN // -1 is left to the caller: it overflows). */
static inline int64_t int_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}
static inline int64_t int_mod(int64_t a, int64_t b) {
  if (b == -1) return 0; /* INT64_MIN % -1 is undefined in C */
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
/* Python's float % and //, b != 0 (CPython's float_divmod). */
static inline double float_mod(double a, double b) {
  double r = fmod(a, b);
  if (r != 0) {
    if ((b < 0) != (r < 0)) r += b;
  } else {
    r = copysign(0.0, b);
  }
  return r;
}
static inline double float_floordiv(double a, double b) {
  double mod = fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0) return copysign(0.0, a / b);
  double floored = floor(div);
  if (div - floored > 0.5) floored += 1.0;
  return floored;
}

/* The int and the float form of each operator. */
#define INT_ADD(a, b, r) (*(r) = (a) + (b), true)
#define INT_SUBTRACT(a, b, r) (*(r) = (a) - (b), true)
#define INT_MULTIPLY(a, b, r) (!__builtin_mul_overflow((a), (b), (r)))
#define INT_FLOOR_DIVIDE(a, b, r) ((b) != 0 && (*(r) = int_floordiv((a), (b)), true))
#define INT_MODULO(a, b, r) ((b) != 0 && (*(r) = int_mod((a), (b)), true))
#define FLOAT_ADD(a, b) ((a) + (b))
#define FLOAT_SUBTRACT(a, b) ((a) - (b))
#define FLOAT_MULTIPLY(a, b) ((a) * (b))
#define FLOAT_FLOOR_DIVIDE(a, b) float_floordiv((a), (b))
#define FLOAT_MODULO(a, b) float_mod((a), (b))

/* + - * // %: ints stay ints. */
#define ARITH_INT_OP(name, zero_check)                                                             \
  static inline bool arith_##name(Value a, Value b, Value *out) {                                   \
    if (IS_SMALLINT(a) && IS_SMALLINT(b)) {                                                        \
      int64_t r;                                                                                   \
      if (!INT_##name(AS_SMALLINT(a), AS_SMALLINT(b), &r) || !smallint_fits(r)) return false;      \
      *out = SMALLINT_VAL(r);                                                                      \
      return true;                                                                                 \
    }                                                                                              \
    if (!(IS_FASTNUM(a) && IS_FASTNUM(b))) return false;                                           \
    double y = fastnum_as_double(b);                                                               \
    if (zero_check && y == 0) return false;                                                        \
    *out = FLOAT_VAL(FLOAT_##name(fastnum_as_double(a), y));                                       \
    return true;                                                                                   \
  }
ARITH_INT_OP(ADD, false)
ARITH_INT_OP(SUBTRACT, false)
ARITH_INT_OP(MULTIPLY, false)
ARITH_INT_OP(FLOOR_DIVIDE, true)
ARITH_INT_OP(MODULO, true)
#undef ARITH_INT_OP

/* / is always a float. */
static inline bool arith_DIVIDE(Value a, Value b, Value *out) {
  if (!(IS_FASTNUM(a) && IS_FASTNUM(b))) return false;
  double y = fastnum_as_double(b);
  if (y == 0) return false;
  *out = FLOAT_VAL(fastnum_as_double(a) / y);
  return true;
}

/* Comparisons on two fast numbers: 1 or 0, or -1 for the slow path. Small
 * ints convert to doubles exactly, so one double compare covers every mix. */
#define ARITH_COMPARE(name, op)                                                                    \
  static inline int compare_##name(Value a, Value b) {                                             \
    if (IS_SMALLINT(a) && IS_SMALLINT(b)) return AS_SMALLINT(a) op AS_SMALLINT(b);                 \
    if (!(IS_FASTNUM(a) && IS_FASTNUM(b))) return -1;                                              \
    return fastnum_as_double(a) op fastnum_as_double(b);                                           \
  }
ARITH_COMPARE(LESS, <)
ARITH_COMPARE(LESS_EQUAL, <=)
ARITH_COMPARE(GREATER, >)
ARITH_COMPARE(GREATER_EQUAL, >=)
ARITH_COMPARE(EQUAL, ==)
ARITH_COMPARE(NOT_EQUAL, !=)
#undef ARITH_COMPARE

#endif
