/* test_compiler.c — the compiler: bytecode shapes, error reports, the REPL's
 * `incomplete`, the disassembler, and small programs run end to end on a
 * fresh VM (core language only, no library functions). */
#include <check.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/compiler.h"
#include "vm/debug.h"
#include "vm/internal.h"
#include "vm/opcodes.h"
#include "tensor/tensor.h"
#include "vm/vm.h"

static AgVM *vm;

static void setup(void) { vm = vm_new(); }
static void teardown(void) { vm_free(vm); }

typedef struct {
  CompileResult result;
  char *errors; /* malloc'd text written to opts.errors */
} Compiled;

static Compiled compile_text(const char *src, bool repl) {
  Compiled c;
  size_t len = 0;
  c.errors = NULL;
  FILE *err = open_memstream(&c.errors, &len);
  CompileOptions opts = {"t.ag", repl, err, false, false};
  c.result = compile_source(vm, src, &opts);
  fclose(err);
  return c;
}

static ObjFunction *compile_ok(const char *src) {
  Compiled c = compile_text(src, false);
  ck_assert_msg(c.result.function != NULL, "did not compile:\n%s", c.errors);
  ck_assert_int_eq(c.result.error_count, 0);
  free(c.errors);
  return c.result.function;
}

/* The messages for a source that must fail; caller frees. */
static char *compile_errors(const char *src, int expected_count, bool expected_incomplete) {
  Compiled c = compile_text(src, false);
  ck_assert_msg(c.result.function == NULL, "compiled but should not: %s", src);
  ck_assert_msg(c.result.error_count == expected_count, "%s: %d errors, expected %d:\n%s", src,
                c.result.error_count, expected_count, c.errors);
  ck_assert_msg(c.result.incomplete == expected_incomplete, "%s: incomplete should be %d", src,
                expected_incomplete);
  return c.errors;
}

static void expect_error(const char *src, const char *message) {
  char *errors = compile_errors(src, 1, false);
  ck_assert_msg(strstr(errors, message) != NULL, "%s: expected '%s' in:\n%s", src, message, errors);
  free(errors);
}

static ObjFunction *find_function(ObjFunction *in, const char *name) {
  for (int i = 0; i < in->chunk.const_count; i++) {
    Value v = in->chunk.constants[i];
    if (!IS_FUNCTION(v)) continue;
    ObjFunction *f = AS_FUNCTION(v);
    if (f->name != NULL && strcmp(f->name->chars, name) == 0) return f;
    ObjFunction *inner = find_function(f, name);
    if (inner != NULL) return inner;
  }
  return NULL;
}

static bool has_opcode(ObjFunction *fn, OpCode op) {
  Chunk *c = &fn->chunk;
  for (int offset = 0; offset < c->count;) {
    if (c->code[offset] == op) return true;
    FILE *null = fopen("/dev/null", "w");
    offset = dis_instruction(null, NULL, c, offset);
    fclose(null);
  }
  return false;
}

/* Runs src; returns global `name` (the test fails if the run fails). */
static Value run_and_get(const char *src, const char *name) {
  ObjFunction *fn = compile_ok(src);
  ck_assert_int_eq(vm_run_function(vm, fn), VM_OK);
  Value v;
  ck_assert_msg(vm_get_global(vm, name, &v), "no global %s", name);
  return v;
}

static void expect_true(const char *src) { ck_assert(run_and_get(src, "ok") == TRUE_VAL); }

/* ---- bytecode ---- */

START_TEST(compound_assign_on_a_local_is_five_instructions) {
  ObjFunction *f = find_function(compile_ok("fn f(i) { i += 1 }"), "f");
  ck_assert_ptr_nonnull(f);
  const uint8_t *code = f->chunk.code;
  ck_assert_int_eq(code[0], OP_GET_LOCAL);
  ck_assert_int_eq(code[1], 1);
  ck_assert_int_eq(code[2], OP_CONSTANT);
  ck_assert_int_eq(code[5], OP_INPLACE_ADD); /* in place where the value allows (SPEC §4) */
  ck_assert_int_eq(code[6], OP_SET_LOCAL);
  ck_assert_int_eq(code[7], 1);
  ck_assert_int_eq(code[8], OP_POP);
  ck_assert_int_eq(code[9], OP_NIL);
  ck_assert_int_eq(code[10], OP_RETURN);
  ck_assert_int_eq(f->chunk.count, 11);
  /* and it is fused as `i = i + 1` is, for numbers */
  vm_quicken(f);
  ck_assert_int_eq(code[0], QOP_LOCAL_CONST_ADD);
  ck_assert_int_eq(code[6], QOP_SET_LOCAL_POP);
}
END_TEST

/* `if n % 2 == 0` quickens into one compare-and-jump on the local; the
 * instructions after it keep their bytes (and quickened forms). */
START_TEST(modulo_test_is_one_superinstruction) {
  ObjFunction *f = find_function(compile_ok("fn f(n) { if n % 2 == 0 { return 1 }\n if n % 3 != 1 { return 2 }\n return 3 }"), "f");
  ck_assert_ptr_nonnull(f);
  const uint8_t *code = f->chunk.code;
  ck_assert_int_eq(code[0], OP_GET_LOCAL);
  ck_assert_int_eq(code[5], OP_MODULO);
  ck_assert_int_eq(code[9], OP_EQUAL);
  ck_assert_int_eq(code[10], OP_JUMP_IF_FALSE);
  vm_quicken(f);
  ck_assert_int_eq(code[0], QOP_LOCAL_CONST_MODULO_CONST_EQUAL_JUMP);
  ck_assert_int_eq(code[6], QOP_CONST_EQUAL_JUMP); /* the fallback's own fused rest */
  int second = 13 + ag_read_u16(code + 11); /* past `return 1`: the second test */
  ck_assert_int_eq(code[second], QOP_LOCAL_CONST_MODULO_CONST_NOT_EQUAL_JUMP);
  expect_true("fn g(n) { if n % 2 == 0 { return \"even\" } else { return \"odd\" } }\n"
              "let ok = g(4) == \"even\" and g(-3) == \"odd\" and g(2.0) == \"even\" and g(2 ** 60 + 1) == \"odd\"");
}
END_TEST

START_TEST(power_binds_tighter_than_unary_minus) {
  ObjFunction *fn = compile_ok("-2 ** 2");
  const uint8_t *code = fn->chunk.code;
  ck_assert_int_eq(code[0], OP_CONSTANT);
  ck_assert_int_eq(code[3], OP_CONSTANT);
  ck_assert_int_eq(code[6], OP_POWER);
  ck_assert_int_eq(code[7], OP_NEGATE);
}
END_TEST

/* Python's order: | looser than ^ looser than &, all looser than + -; ~ is unary. */
START_TEST(bitwise_precedence_is_pythons) {
  ObjFunction *fn = compile_ok("a | b ^ c & d");
  const uint8_t *code = fn->chunk.code;
  int n = fn->chunk.count;
  ck_assert_int_eq(code[n - 6], OP_BIT_AND); /* then POP NIL RETURN */
  ck_assert_int_eq(code[n - 5], OP_BIT_XOR);
  ck_assert_int_eq(code[n - 4], OP_BIT_OR);
  ck_assert(has_opcode(compile_ok("~x"), OP_INVERT));
  ck_assert(has_opcode(compile_ok("s ^= 1"), OP_INPLACE_BIT_XOR));
  expect_true("let ok = (1 | 2 ^ 3 & 4) == 3 and (1 + 2 ^ 3) == 0 and ~1 + 1 == -1 and -~2 == 3");
}
END_TEST

START_TEST(negative_literals_are_constants) {
  ObjFunction *fn = compile_ok("xs[-1]");
  ck_assert(!has_opcode(fn, OP_NEGATE));
  ck_assert(fn->chunk.constants[0] == SMALLINT_VAL(-1));
  ck_assert(has_opcode(compile_ok("-2 ** 2"), OP_NEGATE));
  ck_assert(has_opcode(compile_ok("-x"), OP_NEGATE));
  expect_true("let ok = -2 ** 2 == -4 and -3 - -3 == 0 and 2 ** -1 == 0.5 and [1, 2][-1] == 2");
}
END_TEST

START_TEST(functions_record_parameters) {
  ObjFunction *f = find_function(compile_ok("fn f(a, b=1, ...rest) { return a }"), "f");
  ck_assert_int_eq(f->arity, 2);
  ck_assert(f->has_rest);
  ck_assert_str_eq(f->param_names[0]->chars, "a");
  ck_assert_str_eq(f->param_names[2]->chars, "rest");
  ck_assert_int_eq(f->chunk.code[0], OP_DEFAULT); /* the prologue comes first */
  ck_assert_int_eq(f->chunk.code[1], 2);
  ck_assert_int_eq(f->line, 1);
  ck_assert_str_eq(f->file->chars, "t.ag");
}
END_TEST

START_TEST(max_slots_counts_locals_and_temporaries) {
  ObjFunction *f = find_function(compile_ok("fn f(a) { return [a, a, a] }"), "f");
  ck_assert_int_eq(f->max_slots, 5); /* callee, a, three items */
  ObjFunction *g = find_function(compile_ok("fn g() { let x = 1\n let y = 2\n return x }"), "g");
  ck_assert_int_eq(g->max_slots, 4);
}
END_TEST

START_TEST(calls_pick_the_right_opcode) {
  ObjFunction *fn = compile_ok("f(1)\nf(1, k=2)\nf(...xs)\no.m(1)\no.m(k=1)");
  ck_assert(has_opcode(fn, OP_CALL));
  ck_assert(has_opcode(fn, OP_CALL_KW));
  ck_assert(has_opcode(fn, OP_CALL_SPREAD));
  ck_assert(has_opcode(fn, OP_INVOKE));
  ck_assert(!has_opcode(compile_ok("o.m(k=1)"), OP_INVOKE));
}
END_TEST

START_TEST(multi_index_uses_the_n_forms) {
  ObjFunction *fn = compile_ok("t[0, 1:] = v\nt[1, ::2]\nt[0, 1] += 1");
  ck_assert(has_opcode(fn, OP_SET_INDEX_N));
  ck_assert(has_opcode(fn, OP_GET_INDEX_N));
  ck_assert(has_opcode(fn, OP_SLICE));
}
END_TEST

START_TEST(repl_mode_shows_expressions_but_not_assignments) {
  Compiled c = compile_text("1 + 2", true);
  ck_assert(has_opcode(c.result.function, OP_REPL_SHOW));
  free(c.errors);
  c = compile_text("x = 3", true);
  ck_assert(!has_opcode(c.result.function, OP_REPL_SHOW));
  free(c.errors);
  c = compile_text("1 + 2", false);
  ck_assert(!has_opcode(c.result.function, OP_REPL_SHOW));
  free(c.errors);
  c = compile_text("m[1] = 2\nm.a += 1", true);
  ck_assert(!has_opcode(c.result.function, OP_REPL_SHOW));
  free(c.errors);
  c = compile_text("f(fn() { x = 1 })", true); /* the call's value is shown */
  ck_assert(has_opcode(c.result.function, OP_REPL_SHOW));
  free(c.errors);
}
END_TEST

static int count_opcode(ObjFunction *fn, OpCode op) {
  Chunk *c = &fn->chunk;
  int n = 0;
  FILE *null = fopen("/dev/null", "w");
  for (int offset = 0; offset < c->count;) {
    n += c->code[offset] == op;
    offset = dis_instruction(null, NULL, c, offset);
  }
  fclose(null);
  return n;
}

/* A notebook cell (show_last): only its last statement shows, if an expression. */
static int shows_of_cell(const char *src) {
  char *errors = NULL;
  size_t len = 0;
  FILE *err = open_memstream(&errors, &len);
  CompileOptions opts = {"In[1]", true, err, false, true};
  CompileResult r = compile_source(vm, src, &opts);
  fclose(err);
  ck_assert_msg(r.function != NULL, "did not compile:\n%s", errors);
  free(errors);
  return count_opcode(r.function, OP_REPL_SHOW);
}

START_TEST(show_last_shows_only_the_last_statement) {
  ck_assert_int_eq(shows_of_cell("1 + 2\n3 + 4"), 1);
  ck_assert_int_eq(shows_of_cell("1 + 2\nlet y = 3"), 0);
  ck_assert_int_eq(shows_of_cell("1\nprint(2)\n3"), 1);
  ck_assert_int_eq(shows_of_cell("if true { 1 }\n2"), 1);
  ck_assert_int_eq(shows_of_cell("2\nfn f() { return 1 }"), 0);
  ck_assert_int_eq(shows_of_cell("2\n\n# a comment\n"), 1);
}
END_TEST

START_TEST(bytes_carry_lines) {
  ObjFunction *fn = compile_ok("let a = 1\n\nlet b = a +\n  2");
  Chunk *c = &fn->chunk;
  bool saw_add = false;
  for (int offset = 0; offset < c->count; offset++) {
    if (c->code[offset] == OP_ADD) {
      ck_assert_int_eq(c->lines[offset], 3);
      ck_assert_int_eq(c->cols[offset], 11);
      saw_add = true;
      break;
    }
  }
  ck_assert(saw_add);
}
END_TEST

START_TEST(disassembler_shows_every_function) {
  ObjFunction *fn = compile_ok("fn add(a, b=1) { return a + b }\nlet s = f\"{add(1):.2f}\"");
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  dis_function(out, fn);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "== <script> t.ag"));
  ck_assert_ptr_nonnull(strstr(text, "== fn add(a, b) t.ag:1"));
  ck_assert_ptr_nonnull(strstr(text, "DEFAULT"));
  ck_assert_ptr_nonnull(strstr(text, "FORMAT"));
  ck_assert_ptr_nonnull(strstr(text, "\":.2f\""));
  ck_assert_ptr_nonnull(strstr(text, "CLOSURE"));
  ck_assert_ptr_nonnull(strstr(text, "<fn add>"));
  free(text);
}
END_TEST

START_TEST(disassembler_shows_captures_and_jump_targets) {
  ObjFunction *fn = compile_ok("fn outer(a) {\n  return fn() { return a }\n}\nwhile false { }");
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  dis_function_vm(out, vm, fn);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "|  capture local 1"));
  ck_assert_ptr_nonnull(strstr(text, "GET_UPVALUE       0"));
  ck_assert_ptr_nonnull(strstr(text, "JUMP_IF_FALSE"));
  ck_assert_ptr_nonnull(strstr(text, "-> 00"));
  ck_assert_ptr_nonnull(strstr(text, "DEFINE_GLOBAL")); /* with a VM, globals show their names */
  ck_assert_ptr_nonnull(strstr(text, "outer\n"));
  free(text);
}
END_TEST

START_TEST(colored_errors) {
  size_t len = 0;
  char *text = NULL;
  FILE *err = open_memstream(&text, &len);
  CompileOptions opts = {"c.ag", false, err, true, false};
  CompileResult r = compile_source(vm, "let = 1", &opts);
  fclose(err);
  ck_assert_int_eq(r.error_count, 1);
  ck_assert_ptr_nonnull(strstr(text, "\033[31merror:"));
  ck_assert_ptr_nonnull(strstr(text, "\033[1;32m^"));
  free(text);
}
END_TEST

/* ---- stack depth, checked by walking every path of the bytecode ---- */

static const int table_effects[OP_COUNT] = {
#define EFFECT(name, operands, effect) effect,
    AG_OPCODES(EFFECT)
#undef EFFECT
};
static const int table_operands[OP_COUNT] = {
#define OPERANDS(name, operands, effect) operands,
    AG_OPCODES(OPERANDS)
#undef OPERANDS
};

static int instruction_length(const Chunk *c, int at) {
  int n = 1 + table_operands[c->code[at]];
  if (c->code[at] == OP_CLOSURE) {
    ObjFunction *f = AS_FUNCTION(c->constants[ag_read_u16(c->code + at + 1)]);
    n += 2 * f->upvalue_count;
  }
  return n;
}

/* The effect on the fall-through path. */
static int fallthrough_effect(const uint8_t *ip) {
  switch (*ip) {
  case OP_GET_INDEX_N: case OP_CALL: return -ip[1];
  case OP_SET_INDEX_N: return -ip[1] - 1;
  case OP_CALL_KW: return -ip[1] - ip[2];
  case OP_CALL_SPREAD: return -ip[1] - 1;
  case OP_INVOKE: return -ip[3];
  case OP_SUPER_INVOKE: return -ip[3] - 1;
  case OP_LIST: case OP_TUPLE: return 1 - ag_read_u16(ip + 1);
  case OP_MAP: return 1 - 2 * ag_read_u16(ip + 1);
  case OP_NEW_SET: return 1 - ag_read_u16(ip + 1);
  case OP_UNPACK: return ip[1];
  case OP_UNPACK_STAR: return ip[1] + ip[2] + 1;
  case OP_BUILD_STRING: return 1 - ip[1];
  case OP_AND: case OP_OR: return -1;
  case OP_ITER_NEXT: return 1;
  default: return table_effects[*ip];
  }
}

/* Records `depth` at `target`; every path must agree. Returns true when the
 * target is new (to be walked). */
static bool reach(int *depths, int target, int depth, int count) {
  ck_assert_int_ge(target, 0);
  ck_assert_int_le(target, count);
  if (depths[target] >= 0) {
    ck_assert_msg(depths[target] == depth, "paths meet at %d with depths %d and %d", target, depths[target], depth);
    return false;
  }
  depths[target] = depth;
  return true;
}

static int walk_successors(const Chunk *c, int at, int depth, int *depths, int *work, int n) {
  const uint8_t *ip = &c->code[at];
  int next = at + instruction_length(c, at);
  if (*ip == OP_RETURN || *ip == OP_THROW) return n;
  int after = depth + fallthrough_effect(ip);
  int jump = *ip == OP_ITER_NEXT_LOCAL ? ag_read_u16(ip + 3) : table_operands[*ip] >= 2 ? ag_read_u16(ip + 1) : 0;
  switch (*ip) {
  case OP_JUMP: if (reach(depths, next + jump, depth, c->count)) work[n++] = next + jump; return n;
  case OP_LOOP: if (reach(depths, next - jump, depth, c->count)) work[n++] = next - jump; return n;
  case OP_JUMP_IF_FALSE: case OP_AND: case OP_OR: case OP_TRY: {
    int taken = *ip == OP_JUMP_IF_FALSE ? depth - 1 : *ip == OP_TRY ? depth + 1 : depth;
    if (reach(depths, next + jump, taken, c->count)) work[n++] = next + jump;
    break;
  }
  case OP_DEFAULT: case OP_ITER_NEXT: {
    int target = next + ag_read_u16(ip + 2);
    if (reach(depths, target, depth, c->count)) work[n++] = target;
    break;
  }
  case OP_ITER_NEXT_LOCAL:
    if (reach(depths, next + jump, depth, c->count)) work[n++] = next + jump;
    break;
  default: break;
  }
  if (reach(depths, next, after, c->count)) work[n++] = next;
  return n;
}

/* Every path through fn (and its nested functions) agrees on the stack
 * depth at each instruction, and none exceeds max_slots. */
static void verify_stack_depths(ObjFunction *fn) {
  const Chunk *c = &fn->chunk;
  int *depths = malloc(sizeof(int) * (size_t)(c->count + 1));
  int *work = malloc(sizeof(int) * (size_t)(c->count + 1) * 2);
  for (int i = 0; i <= c->count; i++) depths[i] = -1;
  int n = 0;
  depths[0] = 1 + fn->arity + (fn->has_rest ? 1 : 0);
  work[n++] = 0;
  while (n > 0) {
    int at = work[--n];
    if (at >= c->count) continue;
    ck_assert_int_le(depths[at], fn->max_slots);
    n = walk_successors(c, at, depths[at], depths, work, n);
  }
  free(depths);
  free(work);
  for (int i = 0; i < c->const_count; i++)
    if (IS_FUNCTION(c->constants[i])) verify_stack_depths(AS_FUNCTION(c->constants[i]));
}

START_TEST(stack_depths_agree_on_every_path) {
  static const char *programs[] = {
      "fn f(a, b=[1, 2], ...r) { for x, y in r { if x { continue }; return [x, y] } }",
      "let t = 0\nt[0, 1:] += 1\nt[1] -= 2\nt.a *= 3\nlet [p, q] = [1, 2]",
      "fn g() { with c() as v { while v { try { break } catch e { throw e } } }; return 1 }",
      "fn h(x) { return x and g(1, k=2) or [...x, 1] or {1: 2} or f\"{x:.2f}{x}\" }",
      "class A : B { fn init() { super.init(1) }\n fn m() { return super.m(k=1) + super.n(...xs) } }",
      "for i in range(3) { with a() { with b() { if i { break } else { continue } } } }",
  };
  for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) verify_stack_depths(compile_ok(programs[i]));
}
END_TEST

/* The same check over every script of the test suite and the library. */
START_TEST(stack_depths_of_the_script_corpus) {
  glob_t g;
  int found = glob("tests/scripts/*/*/*.ag", 0, NULL, &g);
  glob("stdlib/*.ag", found == 0 ? GLOB_APPEND : 0, NULL, &g);
  int checked = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    char *src = vm_read_file(g.gl_pathv[i], NULL);
    if (src == NULL) continue;
    Compiled c = compile_text(src, false);
    if (c.result.function != NULL) {
      verify_stack_depths(c.result.function);
      checked++;
    }
    free(c.errors);
    free(src);
  }
  globfree(&g);
  ck_assert_msg(checked > 0, "no scripts found (run from the repository root)");
}
END_TEST

/* ---- errors ---- */

START_TEST(error_format_has_position_line_and_caret) {
  char *errors = compile_errors("let ok = 1\nlet a = )", 1, false);
  ck_assert_str_eq(errors, "t.ag:2:9: error: expected expression\nlet a = )\n        ^\n");
  free(errors);
}
END_TEST

START_TEST(caret_keeps_tabs) {
  char *errors = compile_errors("\tlet = 1", 1, false);
  ck_assert_str_eq(errors, "t.ag:1:6: error: expected a variable name after 'let'\n\tlet = 1\n\t    ^\n");
  free(errors);
}
END_TEST

START_TEST(each_mistake_reports_once) {
  char *errors = compile_errors("let a = )\nlet b = 2\nlet c = (1 +)\nfn f() {\n  let = 1\n}\nlet if = 3", 4, false);
  ck_assert_ptr_nonnull(strstr(errors, "t.ag:1:9:"));
  ck_assert_ptr_nonnull(strstr(errors, "t.ag:3:13:"));
  ck_assert_ptr_nonnull(strstr(errors, "t.ag:5:7:"));
  ck_assert_ptr_nonnull(strstr(errors, "t.ag:7:5:"));
  free(errors);
}
END_TEST

START_TEST(incomplete_input) {
  static const char *open[] = {"if x {", "foo(1,", "let x = 1 +", "print(\"abc", "[1, 2", "class A {\n fn f() {",
                               "let m = {", "x = f\"{y"};
  for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) free(compile_errors(open[i], 1, true));
  static const char *wrong[] = {"let = 1", "foo(1))", "if x { ) }", "f\"{1 +}\""};
  for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) free(compile_errors(wrong[i], 1, false));
}
END_TEST

START_TEST(messages_in_plain_words) {
  expect_error("break", "'break' outside a loop");
  expect_error("while true { fn f() { continue } }", "'continue' outside a loop");
  expect_error("1 = 2", "invalid assignment target");
  expect_error("a + b += 1", "invalid assignment target");
  expect_error("f(1 2)", "expected ')' after arguments");
  expect_error("fn f() { let x = x }", "can't use local variable 'x' in its own initializer");
  expect_error("class A { fn init() { return 1 } }", "'init' cannot return a value");
  expect_error("self", "'self' used outside a class method");
  expect_error("class A { fn f() { super.f() } }", "'super' used in a class without a parent class");
  expect_error("fn f(a, a) {}", "duplicate parameter 'a'");
  expect_error("fn f(**k, b) {}", "no parameter may follow '**k'");
  expect_error("@d\nlet x = 1", "a decorator must be followed by a function definition");
  expect_error("f(k=1, 2)", "positional argument after keyword arguments");
  expect_error("f(k=1, k=2)", "keyword argument 'k' given twice");
  expect_error("else { }", "'else' without a matching 'if'");
  expect_error("let x = 1 2", "expected a newline or ';' after the statement");
  expect_error("x = \"a\\qb\"", "invalid escape sequence");
  expect_error("import 3 as y", "expected a module name or a file path (a string) after 'import'");
  expect_error("from torch import *", "'from torch import *' is not supported");
  expect_error("from torch nn", "expected 'import' after the module name");
  expect_error("}", "unexpected '}'");
}
END_TEST

START_TEST(too_many_locals) {
  char src[8192];
  int n = snprintf(src, sizeof src, "fn f() {\n");
  for (int i = 0; i < 300; i++) n += snprintf(src + n, sizeof src - (size_t)n, "let v%d = %d\n", i, i);
  snprintf(src + n, sizeof src - (size_t)n, "}\n");
  expect_error(src, "too many local variables");
}
END_TEST

START_TEST(deep_nesting_is_an_error_not_a_crash) {
  char src[4096];
  memset(src, '(', 3000);
  src[3000] = '\0';
  Compiled c = compile_text(src, false);
  ck_assert_ptr_null(c.result.function);
  ck_assert_ptr_nonnull(strstr(c.errors, "nested too deeply"));
  free(c.errors);
}
END_TEST

/* 32,000 open braces then 32,000 closing ones: one fatal error, not one per '}'. */
START_TEST(deep_nesting_stops_compilation) {
  enum { N = 32000 };
  char *src = malloc(2 * N + 1);
  memset(src, '{', N);
  memset(src + N, '}', N);
  src[2 * N] = '\0';
  Compiled c = compile_text(src, false);
  ck_assert_ptr_null(c.result.function);
  ck_assert_int_eq(c.result.error_count, 1);
  ck_assert_ptr_nonnull(strstr(c.errors, "nested too deeply"));
  free(c.errors);
  free(src);
}
END_TEST

/* Nesting too deep inside an f-string's field stops the whole compilation
 * (the string's own tokens, put back after the field, once kept it going). */
START_TEST(deep_nesting_in_an_fstring_field_stops_compilation) {
  char src[2048];
  int n = snprintf(src, sizeof src, "print(f\"[{");
  for (int i = 0; i < 300; i++) n += snprintf(src + n, sizeof src - (size_t)n, "not ");
  snprintf(src + n, sizeof src - (size_t)n, "1}]\")\nprint(1)\n");
  Compiled c = compile_text(src, false);
  ck_assert_ptr_null(c.result.function);
  ck_assert_int_eq(c.result.error_count, 1);
  ck_assert_ptr_nonnull(strstr(c.errors, "nested too deeply"));
  free(c.errors);
}
END_TEST

/* 100,000 errors: the first PARSE_MAX_ERRORS are reported, then it stops. */
START_TEST(error_limit_stops_compilation) {
  enum { N = 100000 };
  char *src = malloc(2 * N + 1);
  for (int i = 0; i < N; i++) memcpy(src + 2 * i, ")\n", 2);
  src[2 * N] = '\0';
  Compiled c = compile_text(src, false);
  ck_assert_ptr_null(c.result.function);
  ck_assert_int_eq(c.result.error_count, 50);
  ck_assert_ptr_nonnull(strstr(c.errors, "t.ag:50:1: error: "));
  ck_assert_ptr_nonnull(strstr(c.errors, "t.ag: too many errors (50), stopping\n"));
  free(c.errors);
  free(src);
}
END_TEST

/* Ctrl-C (the flag a SIGINT handler sets) stops the compiler at its next
 * token; the flag is left for the caller (the VM) to report and clear. */
START_TEST(interrupt_stops_compilation) {
  tensor_interrupt_requested = 1;
  Compiled c = compile_text("let x = 1\nlet y = (\n", true);
  ck_assert(c.result.interrupted);
  ck_assert(!c.result.incomplete);
  ck_assert_ptr_null(c.result.function);
  ck_assert_ptr_nonnull(strstr(c.errors, "error: interrupted while compiling"));
  ck_assert_int_eq(tensor_interrupt_requested, 1);
  tensor_interrupt_requested = 0;
  free(c.errors);
}
END_TEST

static ObjFunction *quiet_compile_hook(AgVM *hook_vm, const char *source, const char *file) {
  FILE *sink = fopen("/dev/null", "w");
  CompileOptions opts = {file, false, sink, false, false};
  CompileResult r = compile_source(hook_vm, source, &opts);
  fclose(sink);
  return r.function;
}

/* The same Ctrl-C through the VM: a runtime error with the interrupt flagged (exit 130). */
START_TEST(interrupted_compilation_is_an_uncaught_interrupt) {
  vm->plugins.compile = quiet_compile_hook;
  tensor_interrupt_requested = 1;
  VmResult r = vm_run_source(vm, "let a = 1\n", "t.ag");
  ck_assert_int_eq(r, VM_RUNTIME_ERROR);
  ck_assert(vm->exc.uncaught_interrupt);
  ck_assert_int_eq(tensor_interrupt_requested, 0);
}
END_TEST

START_TEST(top_level_globals_may_be_redeclared) {
  compile_ok("let x = 1\nlet x = x + 1\nfn f() {}\nfn f() {}");
}
END_TEST

/* ---- programs ---- */

START_TEST(arithmetic_and_logic) {
  expect_true("let ok = -2 ** 2 == -4 and 2 ** 3 ** 2 == 512 and 2 ** -1 == 0.5 and (not 1 == 2)\n"
              "ok = ok and 7 % 3 == 1 and 10 - 4 - 3 == 3 and 1 + 2 * 3 == 7 and (nil or \"d\") == \"d\"\n"
              "ok = ok and (0 and 1) == 0 and 3 in [1, 3] and 4 not in [1, 3] and 0x1F + 1_000 == 1031");
}
END_TEST

START_TEST(closures_capture_each_iteration) {
  expect_true("let fs = [0]\nfor i in [1, 2, 3] { fs = fs + [fn() { return i }] }\n"
              "let ok = fs[1]() * 100 + fs[2]() * 10 + fs[3]() == 123");
}
END_TEST

START_TEST(closures_under_stress_gc) {
  vm->gc.stress = true;
  expect_true("fn counter() {\n let n = 0\n return fn() { n += 1\n return n }\n}\n"
              "let c = counter()\nc()\nc()\nlet ok = c() == 3");
}
END_TEST

START_TEST(defaults_keywords_rest_and_spread) {
  expect_true("fn f(a, b=a * 2, ...rest) { return [a, b, rest] }\n"
              "let ok = f(1) == [1, 2, []] and f(1, b=5) == [1, 5, []]\n"
              "ok = ok and f(...[1, 2, 3, 4]) == [1, 2, [3, 4]] and f(0, ...[7], 8) == [0, 7, [8]]\n"
              "ok = ok and f(b=3, a=4) == [4, 3, []] and [0, ...[1, 2], 3] == [0, 1, 2, 3]");
}
END_TEST

START_TEST(with_exits_on_every_way_out) {
  ck_assert_str_eq(AS_CSTRING(run_and_get(
                       "let log = \"\"\n"
                       "class C {\n fn enter() { log = log + \"<\" }\n fn exit() { log = log + \">\" }\n}\n"
                       "for i in [1, 2, 3] {\n with C() {\n  if i == 2 { continue }\n"
                       "  if i == 3 { break }\n  log = log + \"b\"\n }\n}\n"
                       "fn g() { with C() { return \"r\" } }\nlet r = g()\nlog = log + r\n"
                       "try { with C() { throw \"x\" } } catch e { log = log + e }\n",
                       "log")),
                   "<b><><><>r<>x");
}
END_TEST

START_TEST(try_catch_and_rethrow) {
  expect_true("let got = nil\ntry {\n try { throw 1 } catch e { throw e + 1 }\n} catch e2 { got = e2 }\n"
              "fn f() { for x in [1, 2] { try { return x * 10 } catch e { } } }\n"
              "let ok = got == 2 and f() == 10");
}
END_TEST

START_TEST(classes_and_super) {
  expect_true("class A {\n fn init(x) { self.x = x }\n fn get() { return self.x }\n}\n"
              "class B : A {\n fn init(x) { super.init(x * 2) }\n fn get() { return super.get() + 1 }\n"
              " fn later() { let s = fn() { return self.x }\n return s() }\n}\n"
              "let b = B(5)\nb.x += 1\nlet ok = b.get() == 12 and b.later() == 11");
}
END_TEST

START_TEST(indexing_and_destructuring) {
  expect_true("let m = [[1, 2], [3, 4]]\nm[1][0] += 10\nm[0][1] *= 3\n"
              "let [a, b] = m\nfn g() { let [x, y] = [5, 6]\n return x * y }\n"
              "let pairs = 0\nfor p, q in [[1, 2], [3, 4]] { pairs = pairs + p * q }\n"
              "let ok = m == [[1, 6], [13, 4]] and a == [1, 6] and g() == 30 and pairs == 14");
}
END_TEST

START_TEST(fstrings_run) {
  expect_true("let n = 7\nlet ok = f\"n = {n}, {n + 1}\" == \"n = 7, 8\" and f\"{{}}\" == \"{}\" and f\"\" == \"\"");
}
END_TEST

START_TEST(top_level_return_ends_the_script) {
  ck_assert(run_and_get("let x = 1\nif x { return }\nx = 2", "x") == SMALLINT_VAL(1));
}
END_TEST

START_TEST(while_break_continue) {
  expect_true("let i = 0\nlet s = 0\nwhile true {\n i += 1\n if i % 2 == 0 { continue }\n"
              " if i > 9 { break }\n s += i\n}\nlet ok = s == 25");
}
END_TEST

static Suite *compiler_suite(void) {
  Suite *s = suite_create("compiler");
  TCase *code = tcase_create("bytecode");
  tcase_add_checked_fixture(code, setup, teardown);
  tcase_add_test(code, compound_assign_on_a_local_is_five_instructions);
  tcase_add_test(code, modulo_test_is_one_superinstruction);
  tcase_add_test(code, power_binds_tighter_than_unary_minus);
  tcase_add_test(code, bitwise_precedence_is_pythons);
  tcase_add_test(code, negative_literals_are_constants);
  tcase_add_test(code, functions_record_parameters);
  tcase_add_test(code, max_slots_counts_locals_and_temporaries);
  tcase_add_test(code, calls_pick_the_right_opcode);
  tcase_add_test(code, multi_index_uses_the_n_forms);
  tcase_add_test(code, repl_mode_shows_expressions_but_not_assignments);
  tcase_add_test(code, show_last_shows_only_the_last_statement);
  tcase_add_test(code, bytes_carry_lines);
  tcase_add_test(code, disassembler_shows_every_function);
  tcase_add_test(code, disassembler_shows_captures_and_jump_targets);
  tcase_add_test(code, stack_depths_agree_on_every_path);
  tcase_add_test(code, stack_depths_of_the_script_corpus);
  suite_add_tcase(s, code);
  TCase *errors = tcase_create("errors");
  tcase_add_checked_fixture(errors, setup, teardown);
  tcase_add_test(errors, error_format_has_position_line_and_caret);
  tcase_add_test(errors, caret_keeps_tabs);
  tcase_add_test(errors, colored_errors);
  tcase_add_test(errors, each_mistake_reports_once);
  tcase_add_test(errors, incomplete_input);
  tcase_add_test(errors, messages_in_plain_words);
  tcase_add_test(errors, too_many_locals);
  tcase_add_test(errors, deep_nesting_is_an_error_not_a_crash);
  tcase_add_test(errors, deep_nesting_stops_compilation);
  tcase_add_test(errors, deep_nesting_in_an_fstring_field_stops_compilation);
  tcase_add_test(errors, error_limit_stops_compilation);
  tcase_add_test(errors, interrupt_stops_compilation);
  tcase_add_test(errors, interrupted_compilation_is_an_uncaught_interrupt);
  tcase_add_test(errors, top_level_globals_may_be_redeclared);
  suite_add_tcase(s, errors);
  TCase *run = tcase_create("programs");
  tcase_add_checked_fixture(run, setup, teardown);
  tcase_add_test(run, arithmetic_and_logic);
  tcase_add_test(run, closures_capture_each_iteration);
  tcase_add_test(run, closures_under_stress_gc);
  tcase_add_test(run, defaults_keywords_rest_and_spread);
  tcase_add_test(run, with_exits_on_every_way_out);
  tcase_add_test(run, try_catch_and_rethrow);
  tcase_add_test(run, classes_and_super);
  tcase_add_test(run, indexing_and_destructuring);
  tcase_add_test(run, fstrings_run);
  tcase_add_test(run, top_level_return_ends_the_script);
  tcase_add_test(run, while_break_continue);
  suite_add_tcase(s, run);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(compiler_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
