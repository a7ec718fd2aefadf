/* quick_cases.h — the cases of the superinstructions (quicken.c), included
 * inside run() (vm.c) after the base opcodes: the forms below, one per kind
 * of sequence, instantiated from the rows of VM_QUICK_OPCODES (internal.h),
 * then the few cases written out. The macros are those of dispatch.h. ip is
 * past the fused opcode byte. Each takes its fast path on fast numbers
 * (arith.h), else it runs the first instruction of the sequence it replaced
 * and goes on with the rest (their bytes are unchanged), so every slow case
 * and every error is the base opcodes'.
 */

/* Each form makes the case of the quick opcode `name` from the base
 * operation(s) it fuses: op is ADD .. MODULO (arith_op) or LESS ..
 * NOT_EQUAL (compare_op). */

/* CONSTANT k; op */
#define CONST_ARITH(name, op)                                                                      \
  VM_QUICK_CASE(name) {                                                                            \
    Value r_;                                                                                      \
    if (arith_##op(sp[-1], CONSTANT_AT(0), &r_)) {                                                 \
      sp--;                                                                                        \
      ip += 3;                                                                                     \
      PUSH_OR_STORE(r_);                                                                           \
    } else {                                                                                       \
      PUSH(CONSTANT_AT(0));                                                                        \
      ip += 2;                                                                                     \
    }                                                                                              \
    VM_DISPATCH();                                                                                 \
  }
#define CONST_COMPARE(name, op)                                                                    \
  VM_QUICK_CASE(name) {                                                                            \
    int c_ = compare_##op(sp[-1], CONSTANT_AT(0));                                                 \
    if (c_ >= 0) {                                                                                 \
      sp--;                                                                                        \
      ip += 3;                                                                                     \
      PUSH_OR_STORE(BOOL_VAL(c_));                                                                 \
    } else {                                                                                       \
      PUSH(CONSTANT_AT(0));                                                                        \
      ip += 2;                                                                                     \
    }                                                                                              \
    VM_DISPATCH();                                                                                 \
  }
/* GET_LOCAL a; CONSTANT k; op */
#define LOCAL_CONST_ARITH(name, op)                                                                \
  VM_QUICK_CASE(name) {                                                                            \
    Value r_;                                                                                      \
    if (arith_##op(slots[ip[0]], CONSTANT_AT(2), &r_)) {                                           \
      ip += 5;                                                                                     \
      PUSH_OR_STORE(r_);                                                                           \
    } else {                                                                                       \
      PUSH(slots[ip[0]]);                                                                          \
      ip += 1;                                                                                     \
    }                                                                                              \
    VM_DISPATCH();                                                                                 \
  }
#define LOCAL_CONST_COMPARE(name, op)                                                              \
  VM_QUICK_CASE(name) {                                                                            \
    int c_ = compare_##op(slots[ip[0]], CONSTANT_AT(2));                                           \
    if (c_ >= 0) {                                                                                 \
      ip += 5;                                                                                     \
      PUSH_OR_STORE(BOOL_VAL(c_));                                                                 \
    } else {                                                                                       \
      PUSH(slots[ip[0]]);                                                                          \
      ip += 1;                                                                                     \
    }                                                                                              \
    VM_DISPATCH();                                                                                 \
  }
/* compare; JUMP_IF_FALSE: when the comparison is fast, jump on its result
 * (offset at ip + off, instruction length len) without making a bool, and
 * dispatch. Each way dispatches on its own: a branch, which the CPU
 * predicts, rather than a conditional move, which would make every later
 * load through ip wait for the comparison. */
#define JUMP_UNLESS(c, off, len)                                                                   \
  do {                                                                                             \
    if (c) {                                                                                       \
      ip += (len);                                                                                 \
      VM_DISPATCH();                                                                               \
    }                                                                                              \
    ip += (len) + ag_read_u16(ip + (off));                                                         \
    VM_DISPATCH();                                                                                 \
  } while (0)
#define COMPARE_JUMP(name, op)                                                                     \
  VM_QUICK_CASE(name) {                                                                            \
    int c_ = compare_##op(sp[-2], sp[-1]);                                                         \
    if (c_ < 0) goto L_##op;                                                                       \
    sp -= 2;                                                                                       \
    JUMP_UNLESS(c_, 1, 3);                                                                         \
    VM_DISPATCH();                                                                                 \
  }
/* CONSTANT k; compare; JUMP_IF_FALSE */
#define CONST_COMPARE_JUMP(name, op)                                                               \
  VM_QUICK_CASE(name) {                                                                            \
    int c_ = compare_##op(sp[-1], CONSTANT_AT(0));                                                 \
    if (c_ < 0) {                                                                                  \
      PUSH(CONSTANT_AT(0));                                                                        \
      ip += 2;                                                                                     \
      VM_DISPATCH();                                                                               \
    }                                                                                              \
    sp--;                                                                                          \
    JUMP_UNLESS(c_, 4, 6);                                                                         \
    VM_DISPATCH();                                                                                 \
  }
/* GET_LOCAL a; GET_LOCAL b; compare; JUMP_IF_FALSE */
#define LOCALS_COMPARE_JUMP(name, op)                                                              \
  VM_QUICK_CASE(name) {                                                                            \
    int c_ = compare_##op(slots[ip[0]], slots[ip[2]]);                                             \
    if (c_ < 0) goto Q_GET_LOCAL2;                                                                 \
    JUMP_UNLESS(c_, 5, 7);                                                                         \
    VM_DISPATCH();                                                                                 \
  }
/* GET_LOCAL a; CONSTANT k; compare; JUMP_IF_FALSE */
#define LOCAL_CONST_COMPARE_JUMP(name, op)                                                         \
  VM_QUICK_CASE(name) {                                                                            \
    int c_ = compare_##op(slots[ip[0]], CONSTANT_AT(2));                                           \
    if (c_ < 0) {                                                                                  \
      PUSH(slots[ip[0]]);                                                                          \
      ip += 1;                                                                                     \
      VM_DISPATCH();                                                                               \
    }                                                                                              \
    JUMP_UNLESS(c_, 6, 8);                                                                         \
    VM_DISPATCH();                                                                                 \
  }
/* GET_LOCAL a; GET_LOCAL b; op */
#define LOCALS_ARITH(name, op)                                                                     \
  VM_QUICK_CASE(name) {                                                                            \
    Value r_;                                                                                      \
    if (!arith_##op(slots[ip[0]], slots[ip[2]], &r_)) goto Q_GET_LOCAL2;                           \
    ip += 4;                                                                                       \
    PUSH_OR_STORE(r_);                                                                             \
    VM_DISPATCH();                                                                                 \
  }
/* GET_LOCAL a; GET_LOCAL b; CONSTANT k; op1; op2: a op2 (b op1 k) */
#define LOCAL_LOCAL_CONST(name, op2, op1)                                                          \
  VM_QUICK_CASE(name) {                                                                            \
    Value t_, r_;                                                                                  \
    if (!arith_##op1(slots[ip[2]], CONSTANT_AT(4), &t_) || !arith_##op2(slots[ip[0]], t_, &r_)) {  \
      goto Q_GET_LOCAL2;                                                                           \
    }                                                                                              \
    ip += 8;                                                                                       \
    PUSH_OR_STORE(r_);                                                                             \
    VM_DISPATCH();                                                                                 \
  }
/* GET_LOCAL a; CONSTANT k; MODULO; CONSTANT c; compare; JUMP_IF_FALSE: the
 * parity and divisibility tests (`if n % 2 == 0`) in one dispatch; else
 * the sequence from its LOCAL_CONST_MODULO. */
#define LOCAL_MODULO_COMPARE_JUMP(name, op)                                                        \
  VM_QUICK_CASE(name) {                                                                            \
    Value r_;                                                                                      \
    int c_ = -1;                                                                                   \
    if (arith_MODULO(slots[ip[0]], CONSTANT_AT(2), &r_)) c_ = compare_##op(r_, CONSTANT_AT(6));    \
    if (c_ < 0) goto Q_LOCAL_CONST_MODULO;                                                         \
    JUMP_UNLESS(c_, 10, 12);                                                                       \
  }
/* LOOP back to a loop's first instruction (a compare-and-jump, an
 * ITER_NEXT), run here without dispatching to it: it is at label. */
#define LOOP_TO(name, label)                                                                       \
  VM_QUICK_CASE(name) {                                                                            \
    LOOP_BACK();                                                                                   \
    ip++;                                                                                          \
    goto label;                                                                                    \
  }

/* The cases written out (WRITTEN_OUT in the table), then every other row's. */
VM_QUICK_CASE(SET_LOCAL_POP) {
  slots[ip[0]] = POP();
  ip += 2;
  VM_DISPATCH();
}
VM_QUICK_CASE(GET_LOCAL2) {
  PUSH(slots[ip[0]]);
  PUSH(slots[ip[2]]);
  ip += 3;
  VM_DISPATCH();
}
VM_QUICK_CASE(LOCAL_FIELD) {
  Value obj = slots[ip[0]];
  Value v;
  if (IS_INSTANCE(obj) && table_get(&AS_INSTANCE(obj)->fields, CONSTANT_AT(2), &v)) {
    PUSH(v);
    ip += 4;
  } else {
    PUSH(obj);
    ip += 1;
  }
  VM_DISPATCH();
}
#define WRITTEN_OUT(name, _)
#define QUICK_CASE_OF(name, form, ...) form(name, __VA_ARGS__)
VM_QUICK_OPCODES(QUICK_CASE_OF)

#undef CONST_ARITH
#undef CONST_COMPARE
#undef LOCAL_CONST_ARITH
#undef LOCAL_CONST_COMPARE
#undef JUMP_UNLESS
#undef COMPARE_JUMP
#undef CONST_COMPARE_JUMP
#undef LOCALS_COMPARE_JUMP
#undef LOCAL_CONST_COMPARE_JUMP
#undef LOCALS_ARITH
#undef LOCAL_LOCAL_CONST
#undef LOCAL_MODULO_COMPARE_JUMP
#undef LOOP_TO
#undef WRITTEN_OUT
#undef QUICK_CASE_OF
