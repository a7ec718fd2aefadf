/* quicken.c — superinstructions written into a function's code in place
 * (see VM_QUICK_OPCODES in internal.h).
 *
 * Only the first opcode byte of a sequence (two to five instructions, or a
 * LOOP and the loop condition it jumps back to) is overwritten; operands and
 * the other instructions stay, so instruction boundaries, jump targets and
 * the line table are unchanged, and a fused opcode that cannot take its fast
 * path (an operand is not a number, a field is missing) simply runs the
 * original first instruction and continues with the rest. */
#include "vm/internal.h"

static const uint8_t operand_bytes[OP_COUNT] = {
#define AG_OPERAND_BYTES(name, operands, effect) operands,
    AG_OPCODES(AG_OPERAND_BYTES)
#undef AG_OPERAND_BYTES
};

/* Bytes of the instruction at pos, or 0 if it cannot be decoded. */
static int instruction_length(const ObjFunction *f, int pos) {
  const Chunk *c = &f->chunk;
  int op = c->code[pos];
  if (op >= OP_COUNT) return 0;
  int len = 1 + operand_bytes[op];
  if (op == OP_CLOSURE) {
    if (pos + 2 >= c->count) return 0;
    int k = ag_read_u16(c->code + pos + 1);
    if (k >= c->const_count || !IS_FUNCTION(c->constants[k])) return 0;
    len += 2 * AS_FUNCTION(c->constants[k])->upvalue_count;
  }
  return pos + len <= c->count ? len : 0;
}

/* An augmented assignment's opcode fuses as its plain op: on numbers, the
 * only operands the fused fast paths take, `a += b` is `a = a + b`; any
 * other operand falls back to the INPLACE_ byte itself. */
_Static_assert(OP_INPLACE_MODULO - OP_INPLACE_ADD == OP_MODULO - OP_ADD, "INPLACE_ADD .. INPLACE_MODULO");
static int plain_op(int op) {
  return op >= OP_INPLACE_ADD && op <= OP_INPLACE_MODULO ? op - OP_INPLACE_ADD + OP_ADD : op;
}

static int const_fused(int op) {
  switch (plain_op(op)) {
  case OP_ADD: return QOP_CONST_ADD;
  case OP_SUBTRACT: return QOP_CONST_SUBTRACT;
  case OP_MULTIPLY: return QOP_CONST_MULTIPLY;
  case OP_DIVIDE: return QOP_CONST_DIVIDE;
  case OP_MODULO: return QOP_CONST_MODULO;
  case OP_LESS: return QOP_CONST_LESS;
  case OP_LESS_EQUAL: return QOP_CONST_LESS_EQUAL;
  case OP_GREATER: return QOP_CONST_GREATER;
  case OP_GREATER_EQUAL: return QOP_CONST_GREATER_EQUAL;
  case OP_EQUAL: return QOP_CONST_EQUAL;
  case OP_NOT_EQUAL: return QOP_CONST_NOT_EQUAL;
  default: return -1;
  }
}

static int jump_fused(int op) {
  switch (op) {
  case OP_LESS: return QOP_LESS_JUMP;
  case OP_LESS_EQUAL: return QOP_LESS_EQUAL_JUMP;
  case OP_GREATER: return QOP_GREATER_JUMP;
  case OP_GREATER_EQUAL: return QOP_GREATER_EQUAL_JUMP;
  case OP_EQUAL: return QOP_EQUAL_JUMP;
  case OP_NOT_EQUAL: return QOP_NOT_EQUAL_JUMP;
  default: return -1;
  }
}

static bool is_number_constant(const Chunk *c, int pos) {
  if (c->code[pos] != OP_CONSTANT) return false;
  int k = ag_read_u16(c->code + pos + 1);
  return k < c->const_count && IS_NUMBER(c->constants[k]);
}

/* The fused form of `CONSTANT number (at pos); op`, or -1. */
static int const_op_fused(const Chunk *c, int pos, int op) {
  (void)c;
  (void)pos;
  return const_fused(op);
}

/* CONSTANT number; op [; JUMP_IF_FALSE] */
static int constant_fused(const Chunk *c, int pos, int next, int third) {
  int op = c->code[next];
  if (third >= 0 && c->code[third] == OP_JUMP_IF_FALSE && jump_fused(op) >= 0) {
    return jump_fused(op) - QOP_LESS_JUMP + QOP_CONST_LESS_JUMP;
  }
  return const_op_fused(c, pos, op);
}

/* MODULO at third; CONSTANT number; EQUAL or NOT_EQUAL; JUMP_IF_FALSE: the
 * test of `if n % k == c` after GET_LOCAL n; CONSTANT k, or -1. */
static int modulo_test_fused(const Chunk *c, int third) {
  int cmp = third + 4, jump = third + 5;
  if (c->code[third] != OP_MODULO || jump + 2 >= c->count || !is_number_constant(c, third + 1) ||
      c->code[jump] != OP_JUMP_IF_FALSE)
    return -1;
  if (c->code[cmp] == OP_EQUAL) return QOP_LOCAL_CONST_MODULO_CONST_EQUAL_JUMP;
  if (c->code[cmp] == OP_NOT_EQUAL) return QOP_LOCAL_CONST_MODULO_CONST_NOT_EQUAL_JUMP;
  return -1;
}

/* GET_LOCAL a; CONSTANT number; op at third [; JUMP_IF_FALSE] (`if n < 2`)
 * [; CONSTANT number; == or !=; JUMP_IF_FALSE after a MODULO] */
static int local_const_fused(const Chunk *c, int third) {
  int op = c->code[third];
  if (third + 3 < c->count && c->code[third + 1] == OP_JUMP_IF_FALSE && jump_fused(op) >= 0) {
    return jump_fused(op) - QOP_LESS_JUMP + QOP_LOCAL_CONST_LESS_JUMP;
  }
  int test = modulo_test_fused(c, third);
  if (test >= 0) return test;
  return const_fused(op) - QOP_CONST_ADD + QOP_LOCAL_CONST_ADD;
}

/* The opcode arithmetic below relies on these orders. */
_Static_assert(OP_MODULO - OP_ADD == 4, "ADD .. MODULO are consecutive");
_Static_assert(QOP_LOCALS_MODULO - QOP_LOCALS_ADD == 4, "LOCALS_ADD .. LOCALS_MODULO");
_Static_assert(QOP_LOCAL_MODULO_LOCAL_CONST_MODULO - QOP_LOCAL_ADD_LOCAL_CONST_ADD == 24,
               "VM_LOCAL_LOCAL_CONST_FORMS is 5 x 5");
_Static_assert(QOP_LOOP_LOCAL_CONST_NOT_EQUAL_JUMP - QOP_LOOP_LOCALS_LESS_JUMP ==
                   QOP_LOCAL_CONST_NOT_EQUAL_JUMP - QOP_LOCALS_LESS_JUMP,
               "VM_LOOP_HEADS follows the compare-and-jump opcodes");

static bool is_arith(int op) { return plain_op(op) >= OP_ADD && plain_op(op) <= OP_MODULO; }

/* GET_LOCAL a; GET_LOCAL b (at next) [; compare; JUMP_IF_FALSE] (`while i < n`)
 * [; arithmetic] (`i * j`) [; CONSTANT number; arithmetic; arithmetic]
 * (`i + j * 3`). */
static int locals_fused(const Chunk *c, int next) {
  int third = next + 2;
  if (third + 3 < c->count && c->code[third + 1] == OP_JUMP_IF_FALSE && jump_fused(c->code[third]) >= 0) {
    return jump_fused(c->code[third]) - QOP_LESS_JUMP + QOP_LOCALS_LESS_JUMP;
  }
  if (third < c->count && is_arith(c->code[third])) return QOP_LOCALS_ADD + plain_op(c->code[third]) - OP_ADD;
  if (third + 4 < c->count && is_number_constant(c, third) && is_arith(c->code[third + 3]) &&
      is_arith(c->code[third + 4])) {
    int op1 = plain_op(c->code[third + 3]) - OP_ADD, op2 = plain_op(c->code[third + 4]) - OP_ADD;
    return QOP_LOCAL_ADD_LOCAL_CONST_ADD + 5 * op2 + op1;
  }
  return QOP_GET_LOCAL2;
}

/* GET_LOCAL a; GET_LOCAL b | GET_FIELD name | CONSTANT number; op */
static int local_fused(const Chunk *c, int next, int third) {
  int second = c->code[next];
  if (second == OP_GET_LOCAL) return locals_fused(c, next);
  if (second == OP_GET_FIELD) return QOP_LOCAL_FIELD;
  if (third >= 0 && is_number_constant(c, next) && const_op_fused(c, next, c->code[third]) >= 0) {
    return local_const_fused(c, third);
  }
  return -1;
}

/* LOOP back to target: LOOP_<head> when the loop begins with its condition
 * fused into a compare-and-jump (VM_LOOP_HEADS), or with ITER_NEXT. That
 * instruction was quickened already, being earlier in the code. */
static int loop_fused(const Chunk *c, int target) {
  if (target < 0) return -1;
  int head = c->code[target];
  if (head == OP_ITER_NEXT) return QOP_LOOP_ITER_NEXT;
  if (head == OP_ITER_NEXT_LOCAL) return QOP_LOOP_ITER_NEXT_LOCAL;
  if (head >= QOP_LOCALS_LESS_JUMP && head <= QOP_LOCALS_NOT_EQUAL_JUMP) {
    return QOP_LOOP_LOCALS_LESS_JUMP + head - QOP_LOCALS_LESS_JUMP;
  }
  if (head >= QOP_LOCAL_CONST_LESS_JUMP && head <= QOP_LOCAL_CONST_NOT_EQUAL_JUMP) {
    return QOP_LOOP_LOCAL_CONST_LESS_JUMP + head - QOP_LOCAL_CONST_LESS_JUMP;
  }
  return -1;
}

/* The fused opcode for the instructions at pos, next and third (-1 when
 * there is no third), or -1. */
static int fused_opcode(const ObjFunction *f, int pos, int next, int third) {
  const Chunk *c = &f->chunk;
  int first = c->code[pos], second = c->code[next];
  switch (first) {
  case OP_LOOP: return loop_fused(c, next - ag_read_u16(c->code + pos + 1));
  case OP_SET_LOCAL: return second == OP_POP ? QOP_SET_LOCAL_POP : -1;
  case OP_GET_LOCAL: return local_fused(c, next, third);
  case OP_CONSTANT: return is_number_constant(c, pos) ? constant_fused(c, pos, next, third) : -1;
  default: return second == OP_JUMP_IF_FALSE ? jump_fused(first) : -1;
  }
}

void vm_quicken(ObjFunction *f) {
  f->quickened = true;
  Chunk *c = &f->chunk;
  int pos = 0;
  int len = c->count > 0 ? instruction_length(f, 0) : 0;
  while (len > 0 && pos + len < c->count) {
    int next = pos + len;
    int next_len = instruction_length(f, next);
    if (next_len == 0) return; /* undecodable: leave the rest alone */
    int third = next + next_len < c->count ? next + next_len : -1;
    if (third >= 0 && instruction_length(f, third) == 0) third = -1;
    int fused = fused_opcode(f, pos, next, third);
    if (fused >= 0) c->code[pos] = (uint8_t)fused;
    pos = next;
    len = next_len;
  }
}
