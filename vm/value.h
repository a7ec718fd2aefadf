/* value.h — the Ag value: a NaN-boxed 64-bit word.
 *
 * Every Ag value fits in a uint64_t:
 *   - a float is the IEEE double itself (any bit pattern that is not one of
 *     our quiet-NaN tags below; real NaNs produced by arithmetic are
 *     canonicalised to AG_CANON_NAN, which is an ordinary float);
 *   - an int in [-2^48, 2^48) ("small int") is the quiet-NaN bits plus bit 49,
 *     with the int in the low 49 bits (two's complement); an int outside that
 *     range is a heap object (ObjInt, object.h), so every int64 is an int.
 *     An int that fits the small form always has it, so two ints are equal
 *     exactly when their bits are, unless both are boxed;
 *   - nil, false, true and UNDEF are quiet NaNs with a small tag in the low bits;
 *   - an object is the sign bit plus the quiet-NaN bits plus a 48-bit pointer.
 *
 * UNDEF never escapes to scripts: it marks a global slot that has no value yet
 * and a parameter that the caller did not pass (so the callee's prologue can
 * evaluate the default expression, see OP_DEFAULT in opcodes.h).
 *
 * Why NaN-boxing: a value is one register, numbers need no allocation, and a
 * type test is one mask-and-compare, which keeps the dispatch loop fast.
 * Ints and floats are two subtypes of number, as in Lua 5.4: the loop does int
 * arithmetic on small ints directly (vm/arith.h), with no conversion.
 */
#ifndef AG_VALUE_H
#define AG_VALUE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t Value;
typedef struct Obj Obj;

#define AG_SIGN_BIT ((uint64_t)0x8000000000000000)
#define AG_QNAN ((uint64_t)0x7ffc000000000000)

#define AG_TAG_NIL 1
#define AG_TAG_FALSE 2
#define AG_TAG_TRUE 3
#define AG_TAG_UNDEF 4

/* The one NaN bit pattern arithmetic results are normalised to. It differs from
 * AG_QNAN so that it never collides with a tagged value. */
#define AG_CANON_NAN ((uint64_t)0x7ff8000000000000)

#define NIL_VAL ((Value)(AG_QNAN | AG_TAG_NIL))
#define FALSE_VAL ((Value)(AG_QNAN | AG_TAG_FALSE))
#define TRUE_VAL ((Value)(AG_QNAN | AG_TAG_TRUE))
#define UNDEF_VAL ((Value)(AG_QNAN | AG_TAG_UNDEF))
#define BOOL_VAL(b) ((b) ? TRUE_VAL : FALSE_VAL)
#define OBJ_VAL(obj) ((Value)(AG_SIGN_BIT | AG_QNAN | (uint64_t)(uintptr_t)(obj)))

/* Small ints: bit 49 set on top of the quiet-NaN bits, the sign bit clear. */
#define AG_INT_TAG ((uint64_t)0x7ffe000000000000)
#define AG_INT_MASK ((uint64_t)0xfffe000000000000)
#define AG_SMALLINT_PAYLOAD ((uint64_t)0x0001ffffffffffff)
#define AG_SMALLINT_MAX (((int64_t)1 << 48) - 1)
#define AG_SMALLINT_MIN (-((int64_t)1 << 48))

#define IS_FLOAT(v) (((v) & AG_QNAN) != AG_QNAN)
#define IS_SMALLINT(v) (((v) & AG_INT_MASK) == AG_INT_TAG)
#define IS_NIL(v) ((v) == NIL_VAL)
#define IS_BOOL(v) (((v) | 1) == TRUE_VAL)
#define IS_UNDEF(v) ((v) == UNDEF_VAL)
#define IS_OBJ(v) (((v) & (AG_QNAN | AG_SIGN_BIT)) == (AG_QNAN | AG_SIGN_BIT))

#define AS_BOOL(v) ((v) == TRUE_VAL)
#define AS_OBJ(v) ((Obj *)(uintptr_t)((v) & ~(AG_SIGN_BIT | AG_QNAN)))

static inline double value_to_num(Value v) {
  double d;
  memcpy(&d, &v, sizeof d);
  return d;
}

static inline Value num_to_value(double d) {
  Value v;
  memcpy(&v, &d, sizeof v);
  /* Any NaN (including negative or payload-carrying ones) becomes the canonical
   * NaN, so it can never be mistaken for a tagged value. Every bit pattern
   * with all the AG_QNAN bits set is a NaN, so `d != d` (one compare on the
   * hot arithmetic paths) covers the tagged patterns too. */
  if (d != d) v = AG_CANON_NAN;
  return v;
}

static inline bool smallint_fits(int64_t i) { return i >= AG_SMALLINT_MIN && i <= AG_SMALLINT_MAX; }
static inline int64_t smallint_of(Value v) {
  /* sign-extend the 49-bit payload */
  return (int64_t)((v & AG_SMALLINT_PAYLOAD) ^ ((uint64_t)1 << 48)) - ((int64_t)1 << 48);
}
static inline Value smallint_value(int64_t i) { return AG_INT_TAG | ((uint64_t)i & AG_SMALLINT_PAYLOAD); }

#define AS_FLOAT(v) value_to_num(v)
#define FLOAT_VAL(d) num_to_value(d)
#define AS_SMALLINT(v) smallint_of(v)
#define SMALLINT_VAL(i) smallint_value(i)

#endif
