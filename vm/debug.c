/* debug.c — the disassembler; see debug.h. */
#include "vm/debug.h"

#include <string.h>

#include "vm/opcodes.h"
#include "vm/vm.h"

static const char *const op_names[OP_COUNT] = {
#define AG_OPCODE_NAME(name, operands, effect) #name,
    AG_OPCODES(AG_OPCODE_NAME)
#undef AG_OPCODE_NAME
};

static const int op_operand_bytes[OP_COUNT] = {
#define AG_OPCODE_OPERANDS(name, operands, effect) operands,
    AG_OPCODES(AG_OPCODE_OPERANDS)
#undef AG_OPCODE_OPERANDS
};

/* ---- values ---- */

static void print_number(FILE *out, Value v) {
  char buf[64];
  vm_format_num(v, buf, sizeof buf);
  fputs(buf, out);
}

static void print_quoted(FILE *out, const ObjString *s) {
  fputc('"', out);
  for (int i = 0; i < s->length; i++) {
    unsigned char c = (unsigned char)s->chars[i];
    if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
    else if (c == '\n') fputs("\\n", out);
    else if (c == '\t') fputs("\\t", out);
    else if (c < 0x20 || c == 0x7f) fprintf(out, "\\x%02x", c);
    else fputc(c, out);
  }
  fputc('"', out);
}

static void print_constant(FILE *out, Value v) {
  if (IS_NUMBER(v)) print_number(out, v);
  else if (IS_NIL(v)) fputs("nil", out);
  else if (IS_BOOL(v)) fputs(AS_BOOL(v) ? "true" : "false", out);
  else if (IS_STRING(v)) print_quoted(out, AS_STRING(v));
  else if (IS_FUNCTION(v)) {
    ObjFunction *fn = AS_FUNCTION(v);
    fprintf(out, "<fn %s>", fn->name ? fn->name->chars : "<script>");
  } else if (IS_LIST(v)) {
    ObjList *list = AS_LIST(v);
    fputc('[', out);
    for (int i = 0; i < list->count; i++) {
      if (i > 0) fputs(", ", out);
      print_constant(out, list->items[i]);
    }
    fputc(']', out);
  } else {
    fputs("<object>", out);
  }
}

/* ---- operands ---- */

static int read_u16(const Chunk *c, int at) { return ag_read_u16(c->code + at); }

static void constant_operand(FILE *out, const Chunk *c, int k) {
  fprintf(out, "%5d  ", k);
  if (k < c->const_count) print_constant(out, c->constants[k]);
  else fputs("<bad constant>", out);
}

static void global_operand(FILE *out, AgVM *vm, int slot) {
  fprintf(out, "%5d", slot);
  if (vm != NULL && slot < vm->globals.count && vm->globals.names[slot] != NULL)
    fprintf(out, "  %s", vm->globals.names[slot]->chars);
}

static void jump_operand(FILE *out, int offset, int distance, int sign) {
  fprintf(out, "%5d  -> %04d", distance, offset + sign * distance);
}

static int closure_operands(FILE *out, const Chunk *c, int offset) {
  int k = read_u16(c, offset + 1);
  constant_operand(out, c, k);
  offset += 3;
  if (k >= c->const_count || !IS_FUNCTION(c->constants[k])) return offset;
  ObjFunction *fn = AS_FUNCTION(c->constants[k]);
  for (int i = 0; i < fn->upvalue_count && offset + 1 < c->count; i++, offset += 2)
    fprintf(out, "\n%18s%s %d", "|  capture ", c->code[offset] ? "local" : "upvalue", c->code[offset + 1]);
  return offset;
}

/* Decodes the operands of the instruction at offset; returns the next offset. */
/* A local slot; a parameter's slot is shown with its name. */
static void local_operand(FILE *out, const ObjFunction *fn, int slot) {
  fprintf(out, "%5d", slot);
  int params = fn ? obj_param_count(fn) : 0;
  if (fn != NULL && fn->param_names != NULL && slot >= 1 && slot <= params)
    fprintf(out, "  %s", fn->param_names[slot - 1]->chars);
}

static int print_operands(FILE *out, AgVM *vm, const ObjFunction *fn, const Chunk *c, int offset) {
  OpCode op = (OpCode)c->code[offset];
  int a = offset + 1;
  int next = a + op_operand_bytes[op];
  switch (op) {
  case OP_CONSTANT: case OP_GET_FIELD: case OP_SET_FIELD: case OP_GET_SUPER: case OP_CLASS:
  case OP_METHOD: case OP_FORMAT: case OP_FORMAT_SPEC: case OP_IMPORT:
    constant_operand(out, c, read_u16(c, a));
    break;
  case OP_IMPORT_NAME:
    constant_operand(out, c, read_u16(c, a));
    if (c->code[a + 2]) fprintf(out, " (member)");
    break;
  case OP_GET_GLOBAL: case OP_SET_GLOBAL: case OP_DEFINE_GLOBAL:
    global_operand(out, vm, read_u16(c, a));
    break;
  case OP_JUMP: case OP_JUMP_IF_FALSE: case OP_AND: case OP_OR: case OP_TRY:
    jump_operand(out, next, read_u16(c, a), 1);
    break;
  case OP_LOOP: jump_operand(out, next, read_u16(c, a), -1); break;
  case OP_LIST: case OP_TUPLE: case OP_MAP: fprintf(out, "%5d", read_u16(c, a)); break;
  case OP_GET_LOCAL: case OP_SET_LOCAL: local_operand(out, fn, c->code[a]); break;
  case OP_CALL_KW:
    fprintf(out, "%5d %d  ", c->code[a], c->code[a + 1]);
    print_constant(out, c->constants[read_u16(c, a + 2)]);
    break;
  case OP_CALL_SPREAD:
    fprintf(out, "%5d  ", c->code[a]);
    print_constant(out, c->constants[read_u16(c, a + 1)]);
    break;
  case OP_INVOKE: case OP_SUPER_INVOKE:
    fprintf(out, "%5d  ", c->code[a + 2]);
    print_constant(out, c->constants[read_u16(c, a)]);
    break;
  case OP_DEFAULT: case OP_ITER_NEXT:
    fprintf(out, "%5d  ", c->code[a]);
    jump_operand(out, next, read_u16(c, a + 1), 1);
    break;
  case OP_ITER_NEXT_LOCAL:
    fprintf(out, "%5d ", c->code[a]);
    local_operand(out, fn, c->code[a + 1]);
    fputs("  ", out);
    jump_operand(out, next, read_u16(c, a + 2), 1);
    break;
  case OP_CLOSURE: return closure_operands(out, c, offset);
  default:
    if (op_operand_bytes[op] == 1) fprintf(out, "%5d", c->code[a]);
    else if (op_operand_bytes[op] == 2) fprintf(out, "%5d", read_u16(c, a));
    break;
  }
  return next;
}

static int instruction(FILE *out, AgVM *vm, const ObjFunction *fn, const Chunk *chunk, int offset) {
  fprintf(out, "%04d ", offset);
  if (offset > 0 && chunk->lines[offset] == chunk->lines[offset - 1]) fprintf(out, "%8s  ", "|");
  else fprintf(out, "%4d:%-3d  ", chunk->lines[offset], chunk->cols[offset]);
  uint8_t byte = chunk->code[offset];
  if (byte >= OP_COUNT) {
    fprintf(out, "<bad opcode %d>\n", byte);
    return offset + 1;
  }
  fprintf(out, "%-14s", op_names[byte]);
  int next = offset + 1 + op_operand_bytes[byte] > chunk->count ? chunk->count : print_operands(out, vm, fn, chunk, offset);
  fputc('\n', out);
  return next;
}

int dis_instruction(FILE *out, AgVM *vm, const Chunk *chunk, int offset) {
  return instruction(out, vm, NULL, chunk, offset);
}

static void print_header(FILE *out, const ObjFunction *fn) {
  const char *file = fn->file ? fn->file->chars : "?";
  if (fn->name == NULL) {
    fprintf(out, "== <script> %s  slots %d ==\n", file, fn->max_slots);
    return;
  }
  fprintf(out, "== fn %s(", fn->name->chars);
  int names = obj_param_count(fn);
  for (int i = 0; i < names && fn->param_names; i++) {
    const char *mark = i < fn->arity ? "" : i == fn->arity && fn->has_rest ? "*" : "**";
    fprintf(out, "%s%s%s", i ? ", " : "", mark, fn->param_names[i]->chars);
  }
  fprintf(out, ") %s:%d  slots %d, upvalues %d ==\n", file, fn->line, fn->max_slots, fn->upvalue_count);
}

void dis_function_vm(FILE *out, AgVM *vm, ObjFunction *fn) {
  print_header(out, fn);
  const Chunk *c = &fn->chunk;
  for (int offset = 0; offset < c->count;) offset = instruction(out, vm, fn, c, offset);
  for (int i = 0; i < c->const_count; i++) {
    if (!IS_FUNCTION(c->constants[i])) continue;
    fputc('\n', out);
    dis_function_vm(out, vm, AS_FUNCTION(c->constants[i]));
  }
}

void dis_function(FILE *out, ObjFunction *fn) { dis_function_vm(out, NULL, fn); }
