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
#include <string.h>

#include "vm/value.h"

/* v as a double when it is a fast number (a float tested first, then a
 * small int): one or two tests. */
static inline bool fastnum_double(Value v, double *d) {
  if (IS_FLOAT(v)) {
    *d = AS_FLOAT(v);
    return true;
  }
  if (!IS_SMALLINT(v)) return false;
  *d = (double)AS_SMALLINT(v);
  return true;
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
/* floor(a / b) and the remainder for small ints (|a|, |b| < 2^48) and b > 0,
 * without an integer division, whose latency a loop like
 * `acc = (acc + i) % m` would wait on: the quotient from a multiplication by
 * 1 / b (off that critical path when b is a constant) is within one of the
 * truth (|a / b| < 2^48, relative error about 2^-52), and one correction
 * each way makes it exact. A power of two (`i % 2`, `n // 8`) is a mask and
 * a shift (an arithmetic shift floors, in two's complement). */
static inline int64_t smallint_floordiv_pos(int64_t a, int64_t b, int64_t *rem) {
  if ((b & (b - 1)) == 0) {
    *rem = a & (b - 1);
    return a >> __builtin_ctzll((unsigned long long)b);
  }
  int64_t q = (int64_t)((double)a * (1.0 / (double)b));
  int64_t r = a - q * b;
  if (r < 0) {
    r += b;
    q--;
  } else if (r >= b) {
    r -= b;
    q++;
  }
  *rem = r;
  return q;
}
static inline int64_t smallint_mod(int64_t a, int64_t b) {
  int64_t r;
  if (b > 0) smallint_floordiv_pos(a, b, &r);
  else r = int_mod(a, b);
  return r;
}
static inline int64_t smallint_floordiv(int64_t a, int64_t b) {
  int64_t r;
  return b > 0 ? smallint_floordiv_pos(a, b, &r) : int_floordiv(a, b);
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

/* The float form of each operator. + - * / of two floats need not
 * canonicalise a NaN result (FLOAT_VAL does): their operands' NaNs are all
 * canonical already, and a NaN the hardware makes or propagates from them
 * (0x7ff8... or 0xfff8...) is never one of the tagged patterns. */
#define FLOAT_ADD(a, b) ((a) + (b))
#define FLOAT_SUBTRACT(a, b) ((a) - (b))
#define FLOAT_MULTIPLY(a, b) ((a) * (b))
#define FLOAT_FLOOR_DIVIDE(a, b) float_floordiv((a), (b))
#define FLOAT_MODULO(a, b) float_mod((a), (b))
static inline Value float_result(double d) {
  Value v;
  memcpy(&v, &d, sizeof v);
  return v;
}
#define FLOAT_RESULT_ADD float_result
#define FLOAT_RESULT_SUBTRACT float_result
#define FLOAT_RESULT_MULTIPLY float_result
#define FLOAT_RESULT_FLOOR_DIVIDE num_to_value
#define FLOAT_RESULT_MODULO num_to_value

/* The int form: a small-int result or false (overflow of the small range,
 * a zero divisor). + - * work on the shifted form (value.h). */
static inline bool int_ADD(Value a, Value b, Value *out) {
  int64_t r;
  if (__builtin_add_overflow(smallint_high(a), smallint_high(b), &r)) return false;
  *out = smallint_from_high(r);
  return true;
}
static inline bool int_SUBTRACT(Value a, Value b, Value *out) {
  int64_t r;
  if (__builtin_sub_overflow(smallint_high(a), smallint_high(b), &r)) return false;
  *out = smallint_from_high(r);
  return true;
}
static inline bool int_MULTIPLY(Value a, Value b, Value *out) {
  int64_t r;
  if (__builtin_mul_overflow(smallint_high(a), AS_SMALLINT(b), &r)) return false;
  *out = smallint_from_high(r);
  return true;
}
static inline bool int_FLOOR_DIVIDE(Value a, Value b, Value *out) {
  int64_t y = AS_SMALLINT(b);
  if (y == 0) return false;
  int64_t q = smallint_floordiv(AS_SMALLINT(a), y);
  if (!smallint_fits(q)) return false; /* -2^48 // -1 */
  *out = SMALLINT_VAL(q);
  return true;
}
static inline bool int_MODULO(Value a, Value b, Value *out) {
  int64_t y = AS_SMALLINT(b);
  if (y == 0) return false;
  *out = SMALLINT_VAL(smallint_mod(AS_SMALLINT(a), y));
  return true;
}

/* + - * // %: ints stay ints. Two ints, then two floats, are tested first:
 * the common cases take one test each. The float half of // and % (fmod) is
 * a function of its own (FLOAT_PART_NOINLINE), so that the int half inlines
 * into the dispatch loop's cases. */
#define FLOAT_PART_INLINE static inline
#define FLOAT_PART_NOINLINE static __attribute__((noinline, unused))
#define ARITH_INT_OP(name, zero_check, float_part)                                                 \
  float_part bool arith_float_##name(Value a, Value b, Value *out) {                               \
    double x, y;                                                                                   \
    if (!fastnum_double(a, &x) || !fastnum_double(b, &y)) return false;                            \
    if (zero_check && y == 0) return false;                                                        \
    *out = FLOAT_RESULT_##name(FLOAT_##name(x, y));                                                \
    return true;                                                                                   \
  }                                                                                                \
  static inline bool arith_##name(Value a, Value b, Value *out) {                                   \
    if (__builtin_expect(IS_SMALLINT(a) && IS_SMALLINT(b), 1)) return int_##name(a, b, out);       \
    return arith_float_##name(a, b, out);                                                          \
  }
ARITH_INT_OP(ADD, false, FLOAT_PART_INLINE)
ARITH_INT_OP(SUBTRACT, false, FLOAT_PART_INLINE)
ARITH_INT_OP(MULTIPLY, false, FLOAT_PART_INLINE)
ARITH_INT_OP(FLOOR_DIVIDE, true, FLOAT_PART_NOINLINE)
ARITH_INT_OP(MODULO, true, FLOAT_PART_NOINLINE)
#undef ARITH_INT_OP
#undef FLOAT_PART_INLINE
#undef FLOAT_PART_NOINLINE

/* / is always a float. */
static inline bool arith_DIVIDE(Value a, Value b, Value *out) {
  double x, y;
  if (!fastnum_double(a, &x) || !fastnum_double(b, &y) || y == 0) return false;
  *out = float_result(x / y);
  return true;
}

/* Comparisons on two fast numbers: 1 or 0, or -1 for the slow path. Small
 * ints convert to doubles exactly, so one double compare covers every mix. */
#define ARITH_COMPARE(name, op)                                                                    \
  static inline int compare_##name(Value a, Value b) {                                             \
    if (__builtin_expect(IS_SMALLINT(a) && IS_SMALLINT(b), 1)) {                                   \
      return smallint_high(a) op smallint_high(b);                                                 \
    }                                                                                              \
    double x_, y_;                                                                                 \
    if (!fastnum_double(a, &x_) || !fastnum_double(b, &y_)) return -1;                             \
    return x_ op y_;                                                                               \
  }
ARITH_COMPARE(LESS, <)
ARITH_COMPARE(LESS_EQUAL, <=)
ARITH_COMPARE(GREATER, >)
ARITH_COMPARE(GREATER_EQUAL, >=)
ARITH_COMPARE(EQUAL, ==)
ARITH_COMPARE(NOT_EQUAL, !=)
#undef ARITH_COMPARE

#endif
