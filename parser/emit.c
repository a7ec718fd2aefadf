/* emit.c — writing bytecode for the compiler, with the stack-depth bookkeeping
 * described in internal.h. */
#include <limits.h>
#include <string.h>

#include "parser/internal.h"
#include "tensor/ag_assert.h"

static const int op_effects[OP_COUNT] = {
#define AG_OPCODE_EFFECT(name, operands, effect) effect,
    AG_OPCODES(AG_OPCODE_EFFECT)
#undef AG_OPCODE_EFFECT
};

Chunk *emit_chunk(Parser *p) { return &p->fc->function->chunk; }

int emit_offset(Parser *p) { return emit_chunk(p)->count; }

void emit_insert_op(Parser *p, int offset, OpCode op) {
  Chunk *c = emit_chunk(p);
  emit_byte(p, (uint8_t)op); /* grows the arrays; then everything after offset moves up */
  int n = c->count - 1 - offset;
  int line = offset < c->count - 1 ? c->lines[offset] : c->lines[c->count - 1];
  int col = offset < c->count - 1 ? c->cols[offset] : c->cols[c->count - 1];
  memmove(c->code + offset + 1, c->code + offset, (size_t)n);
  memmove(c->lines + offset + 1, c->lines + offset, sizeof(int) * (size_t)n);
  memmove(c->cols + offset + 1, c->cols + offset, sizeof(int) * (size_t)n);
  c->code[offset] = (uint8_t)op;
  c->lines[offset] = line;
  c->cols[offset] = col;
}

void emit_adjust_depth(Parser *p, int delta) {
  FnCompiler *fc = p->fc;
  fc->depth += delta;
  if (fc->depth > fc->function->max_slots) fc->function->max_slots = fc->depth;
}

/* Bytes carry the position of the token that produced them: an operator or a
 * call's '(' when the parser set one (p->at), else the last token read. */
void emit_byte(Parser *p, uint8_t byte) {
  int line = p->at_line ? p->at_line : p->previous.line;
  int col = p->at_line ? p->at_col : p->previous.col;
  chunk_write(p->vm, emit_chunk(p), byte, line, col);
}

void emit_op(Parser *p, OpCode op) {
  AG_ASSERT(op_effects[op] != VAR); /* those ops say their own effect */
  emit_byte(p, (uint8_t)op);
  emit_adjust_depth(p, op_effects[op]);
}

void emit_op_var(Parser *p, OpCode op, int effect) {
  emit_byte(p, (uint8_t)op);
  emit_adjust_depth(p, effect);
}

void emit_u8(Parser *p, int v) { emit_byte(p, (uint8_t)v); }

void emit_u16(Parser *p, int v) {
  uint8_t bytes[2];
  ag_write_u16(bytes, v);
  emit_byte(p, bytes[0]);
  emit_byte(p, bytes[1]);
}

void emit_op_u8(Parser *p, OpCode op, int operand) {
  emit_op(p, op);
  emit_u8(p, operand);
}

void emit_op_u16(Parser *p, OpCode op, int operand) {
  emit_op(p, op);
  emit_u16(p, operand);
}

int emit_constant_index(Parser *p, Value v) {
  int index = chunk_add_constant(p->vm, emit_chunk(p), v);
  if (index < 0) {
    if (!p->fc->too_many_constants) parse_error(p, "too many constants in one function (the limit is 65536)");
    p->fc->too_many_constants = true; /* one message per function */
    return 0;
  }
  return index;
}

void emit_constant(Parser *p, Value v) { emit_op_u16(p, OP_CONSTANT, emit_constant_index(p, v)); }

int emit_name_constant(Parser *p, const char *chars, int length) {
  return emit_constant_index(p, OBJ_VAL(parse_intern(p, chars, length)));
}

/* AND and OR (VAR in the table) pop their operand on the fall-through path,
 * which is the one compiled next. */
int emit_jump(Parser *p, OpCode op) {
  if (op_effects[op] == VAR) emit_op_var(p, op, -1);
  else emit_op(p, op);
  emit_u16(p, 0xffff);
  return emit_offset(p) - 2;
}

void emit_patch_jump(Parser *p, int offset) {
  int distance = emit_offset(p) - offset - 2;
  if (distance > UINT16_MAX) {
    parse_error(p, "too much code to jump over (a block is larger than 65535 bytes)");
    return;
  }
  Chunk *c = emit_chunk(p);
  ag_write_u16(c->code + offset, distance);
}

void emit_loop(Parser *p, int start) {
  emit_op(p, OP_LOOP);
  int distance = emit_offset(p) - start + 2;
  if (distance > UINT16_MAX) {
    parse_error(p, "loop body too large (more than 65535 bytes)");
    distance = 0;
  }
  emit_u16(p, distance);
}
