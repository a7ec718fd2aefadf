/* test_vm.c — the VM core: values and printing, strings and tables, the
 * collector (stress mode, roots, pins), calls built by hand and from source,
 * and runtime errors. Each test makes a fresh VM. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/compiler.h"
#include "stdlib/builtins.h"
#include "vm/memory.h"
#include "vm/opcodes.h"
#include "vm/vm.h"

/* ---- helpers ---- */

static AgVM *new_vm(void) {
  AgVM *vm = vm_new();
  lib_install_builtins(vm);
  return vm;
}

static void emit(AgVM *vm, ObjFunction *f, int byte) { chunk_write(vm, &f->chunk, (uint8_t)byte, 1, 1); }

static void emit_u16(AgVM *vm, ObjFunction *f, int v) {
  uint8_t bytes[2];
  ag_write_u16(bytes, v);
  emit(vm, f, bytes[0]);
  emit(vm, f, bytes[1]);
}

/* A function with named parameters; the caller fills its code. */
static ObjFunction *new_function(AgVM *vm, const char *name, int arity, const char *const *params) {
  ObjFunction *f = obj_new_function(vm);
  vm_push_root(vm, OBJ_VAL(f));
  f->name = obj_string(vm, name);
  f->file = obj_string(vm, "test.ag");
  f->arity = arity;
  f->max_slots = 16;
  f->param_names = AG_ALLOCATE(vm, ObjString *, arity);
  for (int i = 0; i < arity; i++) f->param_names[i] = NULL;
  for (int i = 0; i < arity; i++) f->param_names[i] = obj_string(vm, params[i]);
  vm_pop_root(vm);
  return f;
}

/* Runs Ag source in the main namespace; returns the VmResult. Errors go to
 * a temporary file so tests stay quiet. */
static VmResult run_source(AgVM *vm, const char *source) {
  FILE *saved = stderr;
  stderr = tmpfile();
  VmResult r = vm_run_source(vm, source, "test.ag");
  fclose(stderr);
  stderr = saved;
  return r;
}

static Value global(AgVM *vm, const char *name) {
  Value v = NIL_VAL;
  ck_assert_msg(vm_get_global(vm, name, &v), "global %s is not set", name);
  return v;
}

static const char *str_of(AgVM *vm, Value v) {
  Value s = vm_to_str(vm, v);
  ck_assert(!IS_EXCEPTION(s));
  return AS_CSTRING(s);
}

/* ---- values ---- */

static const char *type_name_of(Value v) { return vm_type_name(v); }

static const char *fmt(double d) {
  static char buf[64];
  vm_format_float(d, buf, sizeof buf);
  return buf;
}

START_TEST(numbers_print_shortest) {
  ck_assert_str_eq(fmt(3), "3.0");
  ck_assert_str_eq(fmt(-0.0), "-0.0");
  ck_assert_str_eq(fmt(0.0), "0.0");
  ck_assert_str_eq(fmt(1e15), "1000000000000000.0");
  ck_assert_str_eq(fmt(0.00012), "0.00012");
  ck_assert_str_eq(fmt(-2.5e-300), "-2.5e-300");
  ck_assert_str_eq(fmt(0.1), "0.1");
  ck_assert_str_eq(fmt(1e-5), "1e-05");
  ck_assert_str_eq(fmt(0.0001), "0.0001");
  ck_assert_str_eq(fmt(1e16), "1e+16");
  ck_assert_str_eq(fmt(9007199254740992.0), "9007199254740992.0");
  ck_assert_str_eq(fmt(0.1 + 0.2), "0.30000000000000004");
  ck_assert_str_eq(fmt(1.5e-7), "1.5e-07");
  ck_assert_str_eq(fmt(123.456), "123.456");
  ck_assert_str_eq(fmt(1.0 / 3), "0.3333333333333333");
  ck_assert_str_eq(fmt(2.5e20), "2.5e+20");
  ck_assert_str_eq(fmt(INFINITY), "inf");
  ck_assert_str_eq(fmt(-INFINITY), "-inf");
  ck_assert_str_eq(fmt(NAN), "nan");
  ck_assert_str_eq(fmt(-NAN), "nan");
  /* powers of two whose rounded 16 digits miss and the ones a unit above read back */
  ck_assert_str_eq(fmt(ldexp(1, -24)), "5.960464477539063e-08");
  ck_assert_str_eq(fmt(-ldexp(1, -791)), "-7.678447687145631e-239");
}
END_TEST

START_TEST(nan_boxing_round_trips) {
  ck_assert(IS_NUMBER(FLOAT_VAL(1.5)));
  ck_assert(IS_NUMBER(FLOAT_VAL(NAN)));
  ck_assert(!IS_NIL(FLOAT_VAL(NAN)));
  ck_assert(IS_BOOL(TRUE_VAL) && IS_BOOL(FALSE_VAL) && !IS_BOOL(NIL_VAL));
  ck_assert(!IS_OBJ(FLOAT_VAL(-1.0)));
  ck_assert(AS_NUMBER(FLOAT_VAL(-2.25)) == -2.25);
}
END_TEST

START_TEST(ints_are_their_own_subtype) {
  AgVM *vm = new_vm();
  int64_t samples[] = {0, 1, -1, 42, AG_SMALLINT_MAX, AG_SMALLINT_MIN, AG_SMALLINT_MAX + 1,
                       AG_SMALLINT_MIN - 1, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
    Value v = INT_VAL(vm, samples[i]);
    ck_assert(IS_INT(v) && IS_NUMBER(v) && !IS_FLOAT(v) && !IS_BOOL(v) && !IS_NIL(v));
    ck_assert(AS_INT(v) == samples[i]);
    ck_assert(IS_SMALLINT(v) == smallint_fits(samples[i])); /* boxed only outside the small range */
    ck_assert(vm_values_equal(v, INT_VAL(vm, samples[i])));
  }
  ck_assert(!IS_INT(FLOAT_VAL(1.0)) && !IS_INT(TRUE_VAL) && !IS_INT(VM_EXCEPTION));
  ck_assert(vm_values_equal(SMALLINT_VAL(3), FLOAT_VAL(3.0)));
  ck_assert(!vm_values_equal(INT_VAL(vm, INT64_MAX), FLOAT_VAL(9223372036854775808.0)));
  ck_assert(vm_numbers_less(INT_VAL(vm, INT64_MAX), FLOAT_VAL(9223372036854775808.0)));
  ck_assert(vm_number_key_bits(SMALLINT_VAL(7)) == vm_number_key_bits(FLOAT_VAL(7.0)));
  ck_assert_str_eq(type_name_of(SMALLINT_VAL(1)), "int");
  ck_assert_str_eq(type_name_of(INT_VAL(vm, INT64_MIN)), "int");
  ck_assert_str_eq(type_name_of(FLOAT_VAL(1)), "float");
  vm_free(vm);
}
END_TEST

START_TEST(python_arithmetic) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(run_source(vm, "let a = [7 // 2, -7 // 2, 7 % -3, -7 % 3, 2 ** 10, true + 1]\n"
                                  "let b = [7 / 2, 6 / 3, 2 ** -1, -7.5 // 2, 7.5 % -2]\n"
                                  "let c = 9223372036854775807\n"
                                  "let big = 2 ** 62 - 1 + 2 ** 62\n"),
                   VM_OK);
  ck_assert_str_eq(str_of(vm, global(vm, "a")), "[3, -4, -2, 2, 1024, 2]");
  ck_assert_str_eq(str_of(vm, global(vm, "b")), "[3.5, 2.0, 0.5, -4.0, -0.5]");
  ck_assert(AS_INT(global(vm, "c")) == INT64_MAX);
  ck_assert(AS_INT(global(vm, "big")) == INT64_MAX);
  ck_assert_int_eq(run_source(vm, "let o = 9223372036854775807 + 1\n"), VM_RUNTIME_ERROR);
  ck_assert_int_eq(run_source(vm, "let z = 1 // 0\n"), VM_RUNTIME_ERROR);
  ck_assert_int_eq(run_source(vm, "let i = [1, 2][1.0]\n"), VM_RUNTIME_ERROR);
  vm_free(vm);
}
END_TEST

START_TEST(truthiness_and_equality) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(vm_truthy(vm, NIL_VAL), 0);
  ck_assert_int_eq(vm_truthy(vm, FLOAT_VAL(0)), 0);
  ck_assert_int_eq(vm_truthy(vm, FLOAT_VAL(2)), 1);
  ck_assert_int_eq(vm_truthy(vm, OBJ_VAL(obj_string(vm, ""))), 0);
  ck_assert_int_eq(vm_truthy(vm, OBJ_VAL(obj_new_list(vm))), 0);
  ck_assert_int_eq(vm_truthy(vm, OBJ_VAL(obj_new_map(vm))), 0);
  ck_assert(vm_values_equal(FLOAT_VAL(1), FLOAT_VAL(1.0)));
  ck_assert(!vm_values_equal(FLOAT_VAL(NAN), FLOAT_VAL(NAN)));
  ck_assert(vm_values_equal(OBJ_VAL(obj_string(vm, "ab")), OBJ_VAL(obj_string(vm, "ab"))));
  ck_assert(vm_values_equal(FLOAT_VAL(1), TRUE_VAL)); /* Python's: true == 1.0 */
  ck_assert(vm_values_equal(FALSE_VAL, FLOAT_VAL(-0.0)));
  ck_assert(!vm_values_equal(FLOAT_VAL(2), TRUE_VAL));
  ck_assert_int_eq(run_source(vm, "let a = {\"x\": [1, 2], \"y\": 3}\n"
                                  "let b = {\"y\": 3, \"x\": [1, 2]}\n"
                                  "let same = a == b and [1, [2]] == [1, [2]] and not ([1] == [2])\n"),
                   VM_OK);
  ck_assert(global(vm, "same") == TRUE_VAL);
  vm_free(vm);
}
END_TEST

START_TEST(tuples_print_compare_and_hash) {
  AgVM *vm = new_vm();
  Value items[3] = {SMALLINT_VAL(1), OBJ_VAL(obj_string(vm, "a")), NIL_VAL};
  vm_push_root(vm, items[1]);
  ObjList *t = obj_new_tuple(vm, items, 3);
  vm_push_root(vm, OBJ_VAL(t));
  ObjList *same = obj_new_tuple(vm, items, 3);
  vm_push_root(vm, OBJ_VAL(same));
  ObjList *one = obj_new_tuple(vm, items, 1);
  vm_push_root(vm, OBJ_VAL(one));
  ck_assert_str_eq(vm_type_name(OBJ_VAL(t)), "tuple");
  ck_assert_str_eq(str_of(vm, OBJ_VAL(t)), "(1, \"a\", nil)");
  ck_assert_str_eq(str_of(vm, OBJ_VAL(one)), "(1,)");
  ck_assert_str_eq(str_of(vm, OBJ_VAL(obj_new_tuple(vm, NULL, 0))), "()");
  ck_assert(vm_values_equal(OBJ_VAL(t), OBJ_VAL(same)));
  ck_assert(!vm_values_equal(OBJ_VAL(t), OBJ_VAL(one)));
  /* equal tuples are one key: same hash, keys equal */
  ck_assert_uint_eq(table_hash_value(OBJ_VAL(t)), table_hash_value(OBJ_VAL(same)));
  ck_assert(table_keys_equal(OBJ_VAL(t), OBJ_VAL(same)));
  ck_assert(!table_keys_equal(OBJ_VAL(t), OBJ_VAL(one)));
  ck_assert_int_eq(vm_less_than(vm, OBJ_VAL(one), OBJ_VAL(t)), 1); /* a prefix sorts first */
  vm_pop_roots(vm, 4);
  vm_free(vm);
}
END_TEST

START_TEST(tuples_are_collected_and_traced) {
  AgVM *vm = new_vm();
  vm->gc.stress = true;
  Value item = OBJ_VAL(obj_string(vm, "held by a tuple"));
  vm_push_root(vm, item);
  ObjList *t = obj_new_tuple(vm, &item, 1);
  vm_pop_root(vm);
  vm_push_root(vm, OBJ_VAL(t));
  for (int i = 0; i < 100; i++) obj_printf_string(vm, "garbage %d", i);
  vm_collect_garbage(vm);
  ck_assert_str_eq(AS_CSTRING(t->items[0]), "held by a tuple");
  size_t held = vm->gc.bytes_allocated;
  vm_pop_root(vm);
  vm_collect_garbage(vm);
  ck_assert(vm->gc.bytes_allocated < held);
  ck_assert_int_eq(run_source(vm, "let m = {}\nfor i in range(50) { m[(i % 5, \"k\")] = (i, [i]) }\n"
                                  "let a, [b] = m[(4, \"k\")]\n"),
                   VM_OK);
  ck_assert_int_eq(AS_MAP(global(vm, "m"))->table.count, 5);
  ck_assert_int_eq((int)AS_INT(global(vm, "b")), 49);
  vm_free(vm);
}
END_TEST

START_TEST(str_and_repr) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(run_source(vm, "let v = [1, \"a\\n\", nil, true, {\"k\": 2.5}]\n"
                                  "class P { }\nlet p = P()\n"),
                   VM_OK);
  ck_assert_str_eq(str_of(vm, global(vm, "v")), "[1, \"a\\n\", nil, true, {\"k\": 2.5}]");
  ck_assert_str_eq(str_of(vm, global(vm, "p")), "<P instance>");
  ck_assert_str_eq(str_of(vm, global(vm, "P")), "P");
  Value r = vm_to_repr(vm, OBJ_VAL(obj_string(vm, "q\"")));
  ck_assert_str_eq(AS_CSTRING(r), "\"q\\\"\"");
  vm_free(vm);
}
END_TEST

START_TEST(format_specs) {
  AgVM *vm = new_vm();
  struct {
    bool is_int;
    double v;
    const char *spec, *want;
  } cases[] = {{false, 0.123456, ".4f", "0.1235"}, {true, 7, "5d", "    7"},
               {false, 0.123456, ".3e", "1.235e-01"}, {false, -0.5, ".3e", "-5.000e-01"},
               {true, 1234567, ",", "1,234,567"}, {false, 0.25, ".1%", "25.0%"},
               {true, 3, "<4", "3   "}, {true, 3, "^5", "  3  "}, {true, 3, "*>4", "***3"},
               {true, -3, "05", "-0003"}, {true, 3, "+", "+3"}, {false, 1e-5, "g", "1e-05"},
               {false, 2, "5", "  2.0"}, {true, 2, ".2f", "2.00"}, {false, -0.0, "", "-0.0"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    Value v = cases[i].is_int ? SMALLINT_VAL((int64_t)cases[i].v) : FLOAT_VAL(cases[i].v);
    Value s = vm_format_value(vm, v, cases[i].spec);
    ck_assert(!IS_EXCEPTION(s));
    ck_assert_str_eq(AS_CSTRING(s), cases[i].want);
  }
  Value s = vm_format_value(vm, OBJ_VAL(obj_string(vm, "ab")), ">4");
  ck_assert_str_eq(AS_CSTRING(s), "  ab");
  ck_assert(IS_EXCEPTION(vm_format_value(vm, FLOAT_VAL(2.5), "d")));
  vm_take_exception(vm);
  ck_assert(IS_EXCEPTION(vm_format_value(vm, OBJ_VAL(obj_string(vm, "x")), ".2f")));
  vm_take_exception(vm);
  vm_free(vm);
}
END_TEST

/* ---- strings and tables ---- */

START_TEST(strings_are_interned) {
  AgVM *vm = new_vm();
  ObjString *a = obj_string(vm, "hello");
  ObjString *b = obj_copy_string(vm, "hello world", 5);
  ck_assert_ptr_eq(a, b);
  ck_assert_uint_eq(a->hash, obj_hash_bytes("hello", 5));
  ck_assert_int_eq(a->length, 5);
  ck_assert_ptr_ne(a, obj_string(vm, "hellO"));
  vm_free(vm);
}
END_TEST

START_TEST(table_keeps_insertion_order) {
  AgVM *vm = new_vm();
  ObjMap *m = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(m));
  for (int i = 0; i < 100; i++) table_set(vm, &m->table, FLOAT_VAL(99 - i), FLOAT_VAL(i));
  ck_assert_int_eq(m->table.count, 100);
  for (int i = 0; i < 100; i += 2) ck_assert(table_remove(&m->table, FLOAT_VAL(i)));
  ck_assert_int_eq(m->table.count, 50);
  table_set(vm, &m->table, FLOAT_VAL(-0.0), TRUE_VAL); /* -0 and 0 are one key */
  Value v;
  ck_assert(table_get(&m->table, FLOAT_VAL(0), &v) && v == TRUE_VAL);
  ck_assert(table_get(&m->table, FALSE_VAL, &v) && v == TRUE_VAL); /* false is the key 0 too */
  ck_assert_uint_eq(table_hash_value(TRUE_VAL), table_hash_value(FLOAT_VAL(1)));
  int seen = 0;
  double last = 1000;
  for (int i = 0; i < m->table.used; i++) {
    TableEntry *e = &m->table.entries[i];
    if (IS_UNDEF(e->key) || AS_NUMBER(e->key) == 0) continue;
    ck_assert(AS_NUMBER(e->key) < last); /* still in insertion order: 99, 97, ... */
    last = AS_NUMBER(e->key);
    seen++;
  }
  ck_assert_int_eq(seen, 50);
  ck_assert(!table_get(&m->table, FLOAT_VAL(98), &v));
  ck_assert(table_get(&m->table, FLOAT_VAL(97), &v) && AS_NUMBER(v) == 2);
  vm_pop_root(vm);
  vm_free(vm);
}
END_TEST

START_TEST(table_shrinks_to_its_live_entries) {
  AgVM *vm = new_vm();
  ObjMap *m = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(m));
  for (int i = 0; i < 1000; i++) table_set(vm, &m->table, SMALLINT_VAL(i), SMALLINT_VAL(i * 2));
  int full = m->table.capacity;
  table_shrink(vm, &m->table); /* all live: nothing to give back */
  ck_assert_int_eq(m->table.capacity, full);
  for (int i = 0; i < 1000; i++)
    if (i % 50 != 7) ck_assert(table_remove(&m->table, SMALLINT_VAL(i)));
  size_t before = vm->gc.bytes_allocated;
  table_shrink(vm, &m->table);
  ck_assert_int_eq(m->table.count, 20);
  ck_assert_int_eq(m->table.used, 20); /* the tombstones are gone */
  ck_assert_int_le(m->table.capacity, TABLE_SHRINK_MIN);
  ck_assert_uint_lt(vm->gc.bytes_allocated, before);
  for (int i = 0; i < m->table.used; i++) /* in insertion order, each found again */
    ck_assert(AS_SMALLINT(m->table.entries[i].key) == 50 * i + 7);
  Value v;
  ck_assert(table_get(&m->table, SMALLINT_VAL(507), &v) && AS_SMALLINT(v) == 1014);
  ck_assert(!table_get(&m->table, SMALLINT_VAL(508), &v));
  for (int i = 0; i < 200; i++) table_set(vm, &m->table, SMALLINT_VAL(-i - 1), NIL_VAL); /* grows again */
  ck_assert_int_eq(m->table.count, 220);
  ck_assert(table_get(&m->table, SMALLINT_VAL(-200), &v) && table_get(&m->table, SMALLINT_VAL(957), &v));
  vm_pop_root(vm);
  vm_free(vm);
}
END_TEST

/* A collection drops the dead strings from the intern set and shrinks it:
 * its size follows the live strings, not the most that ever lived. */
START_TEST(gc_shrinks_the_intern_set) {
  AgVM *vm = new_vm();
  vm_collect_garbage(vm);
  int base = vm->gc.strings.capacity;
  char buf[32];
  for (int i = 0; i < 20000; i++) {
    snprintf(buf, sizeof buf, "s%d", i);
    obj_string(vm, buf);
  }
  ck_assert_int_gt(vm->gc.strings.count, 20000);
  vm_collect_garbage(vm);
  ck_assert_int_le(vm->gc.strings.capacity, base < 2 * TABLE_SHRINK_MIN ? 4 * TABLE_SHRINK_MIN : 2 * base);
  ck_assert_ptr_null(table_find_string(&vm->gc.strings, "s19999", 6, obj_hash_bytes("s19999", 6)));
  vm_free(vm);
}
END_TEST

/* A collection that starts while the intern set grows (the rebuild
 * allocates) must not shrink the set under the rebuild: the kernel crashed
 * on this after printing numbers for a while. */
START_TEST(gc_while_the_intern_set_grows) {
  AgVM *vm = new_vm();
  char buf[32];
  vm->gc.paused++; /* dead strings fill the set up to its last slot ... */
  for (int i = 0; i < 50000 || vm->gc.strings.used < vm->gc.strings.capacity - 1; i++) {
    snprintf(buf, sizeof buf, "dead %d", i);
    obj_string(vm, buf);
  }
  ObjString *s = obj_string(vm, "the string that grows it"); /* ... this one takes it */
  vm_push_root(vm, OBJ_VAL(s));
  table_remove(&vm->gc.strings, OBJ_VAL(s));
  vm->gc.paused--;
  vm->gc.stress = true; /* so each allocation of the rebuild collects */
  table_set(vm, &vm->gc.strings, OBJ_VAL(s), NIL_VAL);
  ck_assert_ptr_eq(table_find_string(&vm->gc.strings, s->chars, s->length, s->hash), s);
  vm_collect_garbage(vm);
  ck_assert_ptr_eq(table_find_string(&vm->gc.strings, s->chars, s->length, s->hash), s);
  ck_assert_ptr_null(table_find_string(&vm->gc.strings, "dead 7", 6, obj_hash_bytes("dead 7", 6)));
  vm_pop_root(vm);
  vm_free(vm);
}
END_TEST

/* ---- the collector ---- */

START_TEST(gc_frees_garbage_and_keeps_roots) {
  AgVM *vm = new_vm();
  ObjList *kept = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(kept));
  for (int i = 0; i < 1000; i++) {
    obj_list_append(vm, kept, OBJ_VAL(obj_printf_string(vm, "kept %d", i)));
    obj_printf_string(vm, "garbage %d", i);
  }
  vm_collect_garbage(vm);
  size_t after = vm->gc.bytes_allocated;
  ck_assert(table_find_string(&vm->gc.strings, "garbage 5", 9, obj_hash_bytes("garbage 5", 9)) == NULL);
  ck_assert_str_eq(AS_CSTRING(kept->items[999]), "kept 999");
  vm_pop_root(vm);
  vm_collect_garbage(vm);
  ck_assert(vm->gc.bytes_allocated < after);
  vm_free(vm);
}
END_TEST

START_TEST(gc_pins_survive) {
  AgVM *vm = new_vm();
  vm->gc.stress = true;
  uint32_t h = vm_pin(vm, OBJ_VAL(obj_string(vm, "pinned value")));
  uint32_t h2 = vm_pin(vm, OBJ_VAL(obj_new_list(vm)));
  for (int i = 0; i < 50; i++) obj_printf_string(vm, "churn %d", i);
  ck_assert_str_eq(AS_CSTRING(vm_pinned(vm, h)), "pinned value");
  ck_assert(IS_LIST(vm_pinned(vm, h2)));
  vm_unpin(vm, h);
  uint32_t h3 = vm_pin(vm, FLOAT_VAL(1)); /* reuses the freed handle */
  ck_assert_uint_eq(h3, h);
  vm_unpin(vm, h2);
  vm_unpin(vm, h3);
  vm_free(vm);
}
END_TEST

START_TEST(gc_stress_runs_programs) {
  AgVM *vm = new_vm();
  vm->gc.stress = true;
  ck_assert_int_eq(run_source(vm, "class Node { fn init(v, next) { self.v = v; self.next = next } }\n"
                                  "let head = nil\n"
                                  "for i in range(200) { head = Node(f\"n{i}\", head) }\n"
                                  "let m = {}\n"
                                  "for i in range(100) { m[str(i)] = [i, str(i) + \"!\"] }\n"
                                  "let parts = []\n"
                                  "while head != nil { parts.append(head.v); head = head.next }\n"
                                  "let joined = \",\".join(sorted(parts)[0:3])\n"
                                  "let got = m[\"42\"][1]\n"),
                   VM_OK);
  ck_assert_str_eq(AS_CSTRING(global(vm, "joined")), "n0,n1,n10");
  ck_assert_str_eq(AS_CSTRING(global(vm, "got")), "42!");
  vm_free(vm);
}
END_TEST

START_TEST(external_bytes_count_toward_trigger) {
  AgVM *vm = new_vm();
  size_t before = vm->gc.bytes_allocated;
  vm_add_external_bytes(vm, 1 << 20);
  ck_assert_uint_eq(vm->gc.bytes_allocated, before + (1 << 20));
  vm_add_external_bytes(vm, -(1 << 20));
  ck_assert_uint_eq(vm->gc.bytes_allocated, before);
  vm_free(vm);
}
END_TEST

/* Tensor bytes alone start a collection, well before the heap's own
 * threshold: freed big buffers are then reused instead of faulted anew. */
START_TEST(tensor_bytes_start_a_collection) {
  AgVM *vm = new_vm();
  vm_collect_garbage(vm);
  vm->gc.next_gc = SIZE_MAX; /* only the tensor bytes can start one */
  size_t step = vm->gc.external_next_gc;
  ck_assert_uint_ge(step, VM_GC_EXTERNAL_STEP);
  vm_add_external_bytes(vm, (ptrdiff_t)step - 1);
  obj_string(vm, "below the step");
  ck_assert_uint_eq(vm->gc.external_since_gc, step - 1);
  vm_add_external_bytes(vm, 1);
  obj_string(vm, "at the step");
  ck_assert_uint_eq(vm->gc.external_since_gc, 0); /* collected */
  vm_add_external_bytes(vm, -(ptrdiff_t)step);
  ck_assert_uint_eq(vm->gc.external_live, 0);
  vm_free(vm);
}
END_TEST

/* ---- calls ---- */

/* fn add(a, b) { return a + b } built by hand */
static ObjFunction *hand_add(AgVM *vm) {
  static const char *const params[] = {"a", "b"};
  ObjFunction *f = new_function(vm, "add", 2, params);
  vm_push_root(vm, OBJ_VAL(f));
  emit(vm, f, OP_GET_LOCAL);
  emit(vm, f, 1);
  emit(vm, f, OP_GET_LOCAL);
  emit(vm, f, 2);
  emit(vm, f, OP_ADD);
  emit(vm, f, OP_RETURN);
  vm_pop_root(vm);
  return f;
}

START_TEST(call_hand_built_function) {
  AgVM *vm = new_vm();
  ObjFunction *f = hand_add(vm);
  vm_push_root(vm, OBJ_VAL(f));
  ObjClosure *c = obj_new_closure(vm, f);
  vm_push_root(vm, OBJ_VAL(c));
  Value args[3] = {FLOAT_VAL(2), FLOAT_VAL(40), FLOAT_VAL(1)};
  Value r = vm_call(vm, OBJ_VAL(c), 2, args);
  ck_assert(IS_NUMBER(r) && AS_NUMBER(r) == 42);
  /* keyword binding by parameter name */
  ObjString *names[1] = {obj_string(vm, "b")};
  AgKwargs kw = {1, names, &args[1]};
  r = vm_call_kw(vm, OBJ_VAL(c), 1, args, &kw);
  ck_assert(IS_NUMBER(r) && AS_NUMBER(r) == 42);
  /* errors name the function */
  r = vm_call(vm, OBJ_VAL(c), 3, args);
  ck_assert(IS_EXCEPTION(r));
  ck_assert_str_eq(vm_exception_message(vm, vm_take_exception(vm)), "add() takes 2 arguments but 3 were given");
  r = vm_call(vm, OBJ_VAL(c), 1, args);
  ck_assert(IS_EXCEPTION(r));
  ck_assert_str_eq(vm_exception_message(vm, vm_take_exception(vm)), "add() missing 1 required positional argument: 'b'");
  names[0] = obj_string(vm, "c");
  r = vm_call_kw(vm, OBJ_VAL(c), 2, args, &kw);
  ck_assert(IS_EXCEPTION(r));
  ck_assert_str_eq(vm_exception_message(vm, vm_take_exception(vm)), "add() got an unexpected keyword argument 'c'");
  ck_assert_int_eq(vm->exec.frame_count, 0);
  ck_assert_ptr_eq(vm->exec.stack_top, vm->exec.stack);
  vm_pop_roots(vm, 2);
  vm_free(vm);
}
END_TEST

/* fn g(a, b=5) { return a + b }: a prologue OP_DEFAULT skipping b's default */
START_TEST(defaults_from_prologue) {
  AgVM *vm = new_vm();
  static const char *const params[] = {"a", "b"};
  ObjFunction *f = new_function(vm, "g", 2, params);
  vm_push_root(vm, OBJ_VAL(f));
  int five = chunk_add_constant(vm, &f->chunk, FLOAT_VAL(5));
  emit(vm, f, OP_DEFAULT);
  emit(vm, f, 2);
  emit_u16(vm, f, 6);
  emit(vm, f, OP_CONSTANT);
  emit_u16(vm, f, five);
  emit(vm, f, OP_SET_LOCAL);
  emit(vm, f, 2);
  emit(vm, f, OP_POP);
  emit(vm, f, OP_GET_LOCAL);
  emit(vm, f, 1);
  emit(vm, f, OP_GET_LOCAL);
  emit(vm, f, 2);
  emit(vm, f, OP_ADD);
  emit(vm, f, OP_RETURN);
  ObjClosure *c = obj_new_closure(vm, f);
  vm_push_root(vm, OBJ_VAL(c));
  Value args[2] = {FLOAT_VAL(1), FLOAT_VAL(2)};
  ck_assert(AS_NUMBER(vm_call(vm, OBJ_VAL(c), 1, args)) == 6);
  ck_assert(AS_NUMBER(vm_call(vm, OBJ_VAL(c), 2, args)) == 3);
  ObjString *names[1] = {obj_string(vm, "a")};
  AgKwargs kw = {1, names, &args[1]};
  ck_assert(AS_NUMBER(vm_call_kw(vm, OBJ_VAL(c), 0, args, &kw)) == 7);
  ck_assert(IS_EXCEPTION(vm_call(vm, OBJ_VAL(c), 0, args)));
  ck_assert_str_eq(vm_exception_message(vm, vm_take_exception(vm)), "g() missing 1 required positional argument: 'a'");
  ck_assert(IS_EXCEPTION(vm_call_kw(vm, OBJ_VAL(c), 1, args, &kw)));
  ck_assert_str_eq(vm_exception_message(vm, vm_take_exception(vm)), "g() got multiple values for argument 'a'");
  vm_pop_roots(vm, 2);
  vm_free(vm);
}
END_TEST

START_TEST(globals_are_slots) {
  AgVM *vm = new_vm();
  ObjString *name = obj_string(vm, "answer");
  int slot = vm_global_slot(vm, name);
  ck_assert_int_eq(vm_global_slot(vm, name), slot);
  ck_assert(IS_UNDEF(vm->globals.values[slot]));
  /* a slot for a built-in starts as the built-in */
  int print_slot = vm_global_slot(vm, obj_string(vm, "print"));
  ck_assert(IS_NATIVE(vm->globals.values[print_slot]));
  ck_assert_int_eq(run_source(vm, "let answer = 6 * 7\n"), VM_OK);
  ck_assert(AS_NUMBER(vm->globals.values[slot]) == 42);
  vm_free(vm);
}
END_TEST

static Value native_sum_kw(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  double total = 0;
  for (int i = 0; i < argc; i++) total += AS_NUMBER(args[i]);
  static const char *const names[] = {"scale", NULL};
  Value opt[1];
  if (!vm_parse_kwargs(vm, "sum_kw", kw, names, opt)) return VM_EXCEPTION;
  if (!IS_UNDEF(opt[0])) total *= AS_NUMBER(opt[0]);
  return FLOAT_VAL(total);
}

START_TEST(natives_take_keywords) {
  AgVM *vm = new_vm();
  vm_define_native(vm, "sum_kw", native_sum_kw, 0, -1, true);
  ck_assert_int_eq(run_source(vm, "let r = sum_kw(1, 2, 3, scale=10)\n"), VM_OK);
  ck_assert(AS_NUMBER(global(vm, "r")) == 60);
  ck_assert_int_eq(run_source(vm, "let e = nil\ntry { sum_kw(1, bogus=2) } catch err { e = err.message }\n"), VM_OK);
  ck_assert_str_eq(AS_CSTRING(global(vm, "e")), "unexpected keyword argument 'bogus' in call to sum_kw()");
  vm_free(vm);
}
END_TEST

START_TEST(classes_methods_and_closures) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(run_source(vm, "class A { fn init(x) { self.x = x } fn get() { return self.x } fn who() { return \"A\" } }\n"
                                  "class B : A { fn init(x) { super.init(x * 2) } fn who() { return \"B\" + super.who() } }\n"
                                  "class F { fn apply(v) { return [self == F, v] } }\n"
                                  "let b = B(5)\nlet got = b.get()\nlet who = b.who()\nlet applied = F.apply(3)\n"
                                  "fn counter() { let n = 0; return fn() { n += 1; return n } }\n"
                                  "let c = counter(); c(); let count = c()\n"),
                   VM_OK);
  ck_assert(AS_NUMBER(global(vm, "got")) == 10);
  ck_assert_str_eq(AS_CSTRING(global(vm, "who")), "BA");
  ck_assert_str_eq(str_of(vm, global(vm, "applied")), "[true, 3]");
  ck_assert(AS_NUMBER(global(vm, "count")) == 2);
  vm_free(vm);
}
END_TEST

static Value native_calls_back(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  Value arg = FLOAT_VAL(20);
  return vm_call(vm, args[0], 1, &arg);
}

START_TEST(natives_call_back_into_ag) {
  AgVM *vm = new_vm();
  vm_define_native(vm, "call_with_20", native_calls_back, 1, 1, false);
  ck_assert_int_eq(run_source(vm, "let r = call_with_20(fn(x) { return x + 1 })\n"
                                  "let caught = nil\n"
                                  "try { call_with_20(fn(x) { error(\"inner\") }) } catch e { caught = e.message }\n"),
                   VM_OK);
  ck_assert(AS_NUMBER(global(vm, "r")) == 21);
  ck_assert_str_eq(AS_CSTRING(global(vm, "caught")), "inner");
  vm_free(vm);
}
END_TEST

/* Fused opcodes give the same results as the plain ones, also when their
 * fast path does not apply (strings, tensors-to-be, missing fields). */
START_TEST(superinstructions_keep_semantics) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(run_source(vm, "fn f(x) { let y = x + 1; if y == 3 { return \"three\" }; return y }\n"
                                  "class P { fn init() { self.v = 4 } }\n"
                                  "fn g(p) { let n = 0; while n < 3 { n = n + 1 }; return [p.v, n, p.v * 2 > 7] }\n"
                                  "let r = [f(2), f(5), f(0.5), g(P())]\n"
                                  "let e = nil\ntry { f(nil) } catch err { e = err.message }\n"),
                   VM_OK);
  ck_assert_str_eq(str_of(vm, global(vm, "r")), "[\"three\", 6, 1.5, [4, 3, true]]");
  ck_assert_str_eq(AS_CSTRING(global(vm, "e")), "unsupported operand types for +: 'nil' and 'int'");
  ObjFunction *f = AS_CLOSURE(global(vm, "f"))->function;
  bool fused = false;
  for (int i = 0; i < f->chunk.count; i++) fused |= f->chunk.code[i] >= OP_COUNT;
  ck_assert_msg(fused, "f was not quickened");
  vm_free(vm);
}
END_TEST

/* ---- errors ---- */

START_TEST(runtime_errors_are_catchable) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(run_source(vm, "let msgs = []\n"
                                  "try { undefined_name } catch e { msgs.append(e.message) }\n"
                                  "try { 1 + \"a\" } catch e { msgs.append(e.message) }\n"
                                  "try { [1, 2][5] } catch e { msgs.append(e.message) }\n"
                                  "try { {\"a\": 1}[\"x\"] } catch e { msgs.append(e.message) }\n"
                                  "try { 3() } catch e { msgs.append(e.message) }\n"
                                  "fn f() { return f() }\n"
                                  "try { f() } catch e { msgs.append(e.message) }\n"
                                  "try { throw 42 } catch e { msgs.append(e) }\n"),
                   VM_OK);
  ObjList *msgs = AS_LIST(global(vm, "msgs"));
  ck_assert_int_eq(msgs->count, 7);
  ck_assert_str_eq(AS_CSTRING(msgs->items[0]), "undefined variable 'undefined_name'");
  ck_assert_str_eq(AS_CSTRING(msgs->items[1]), "unsupported operand types for +: 'int' and 'string'");
  ck_assert_str_eq(AS_CSTRING(msgs->items[2]), "list index 5 out of range for length 2");
  ck_assert_str_eq(AS_CSTRING(msgs->items[3]), "key \"x\" not found in map");
  ck_assert_str_eq(AS_CSTRING(msgs->items[4]), "cannot call int");
  ck_assert_str_eq(AS_CSTRING(msgs->items[5]), "stack overflow");
  ck_assert(AS_NUMBER(msgs->items[6]) == 42);
  ck_assert_int_eq(vm->exec.handler_count, 0);
  vm_free(vm);
}
END_TEST

START_TEST(uncaught_error_reports_traceback) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(run_source(vm, "fn inner() {\n  error(\"boom\")\n}\nfn outer() { inner() }\nlet x = 1\n"), VM_OK);
  Value outer = global(vm, "outer");
  Value r = vm_call(vm, outer, 0, NULL);
  ck_assert(IS_EXCEPTION(r));
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  vm_report_exception(vm, out, false);
  fclose(out);
  ck_assert_str_eq(text, "test.ag:2: error: boom\n"
                         "Traceback (innermost last):\n"
                         "  in outer at test.ag:4\n"
                         "  in inner at test.ag:2\n");
  free(text);
  ck_assert(!vm->exc.pending);
  vm_free(vm);
}
END_TEST

START_TEST(interrupt_flag_raises_interrupted) {
  AgVM *vm = new_vm();
  tensor_interrupt_requested = 1;
  VmResult r = run_source(vm, "let i = 0\nwhile true { i += 1 }\n");
  ck_assert_int_eq(r, VM_RUNTIME_ERROR);
  ck_assert(vm->exc.uncaught_interrupt);
  ck_assert_int_eq(tensor_interrupt_requested, 0);
  vm_free(vm);
}
END_TEST

/* A native or kernel that failed while a Ctrl-C was pending reports it as
 * any error; the VM makes it the one Interrupted, and the next error is plain. */
START_TEST(pending_interrupt_turns_an_error_into_interrupted_once) {
  AgVM *vm = new_vm();
  tensor_interrupt_requested = 1;
  vm_throw_error(vm, "Interrupted");
  Value first = vm_take_exception(vm);
  ck_assert(IS_INSTANCE(first) && AS_INSTANCE(first)->klass == vm->core.interrupted_class);
  ck_assert_int_eq(tensor_interrupt_requested, 0);
  vm_throw_error(vm, "boom");
  Value second = vm_take_exception(vm);
  ck_assert(IS_INSTANCE(second) && AS_INSTANCE(second)->klass == vm->core.error_classes[VM_ERR_RUNTIME]);
  vm_free(vm);
}
END_TEST

START_TEST(exit_unwinds_past_handlers) {
  AgVM *vm = new_vm();
  VmResult r = run_source(vm, "try { exit(4) } catch e { print(\"not reached\") }\n");
  ck_assert_int_eq(r, VM_EXIT);
  ck_assert_int_eq(vm->exc.exit_code, 4);
  vm_free(vm);
}
END_TEST

/* ---- generators ---- */

START_TEST(generators_resume_from_c) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(run_source(vm, "fn count(n) { let i = 0\n while i < n { yield i * 10; i += 1 }\n return \"end\" }\n"
                                  "let g = count(3)\n"),
                   VM_OK);
  Value g = global(vm, "g");
  ck_assert(IS_GENERATOR(g));
  Value item;
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(vm_generator_next(vm, AS_GENERATOR(g), &item), 1);
    ck_assert_int_eq(AS_INT(item), i * 10);
  }
  ck_assert_int_eq(vm_generator_next(vm, AS_GENERATOR(g), &item), 0);
  ck_assert_int_eq(vm_generator_next(vm, AS_GENERATOR(g), &item), 0); /* done stays done */
  ck_assert(IS_EXCEPTION(vm_generator_send(vm, AS_GENERATOR(g), NIL_VAL)));
  Value exc = vm_take_exception(vm);
  ck_assert(IS_INSTANCE(exc) && AS_INSTANCE(exc)->klass == vm->core.stop_iteration_class);
  ck_assert_int_eq(vm->exec.frame_count, 0);
  ck_assert_int_eq(vm->exec.handler_count, 0);
  vm_free(vm);
}
END_TEST

/* The suspended frame lives only in the generator: every collection must
 * find its values, and a closure over its locals must outlive it. */
START_TEST(generators_survive_gc_stress) {
  AgVM *vm = new_vm();
  vm->gc.stress = true;
  ck_assert_int_eq(run_source(vm, "let keep = nil\n"
                                  "fn make(n) {\n"
                                  "  let acc = []\n"
                                  "  keep = fn() { return len(acc) }\n"
                                  "  for i in range(n) {\n"
                                  "    try { acc.append(f\"s{i}\"); yield [i, str(i) + \"!\"] } catch e { }\n"
                                  "  }\n"
                                  "}\n"
                                  "let got = \",\".join(x[1] for x in make(30) if x[0] % 10 == 0)\n"
                                  "let g = make(5)\n"
                                  "next(g)\n"
                                  "next(g)\n"
                                  "g = nil\n"),
                   VM_OK);
  ck_assert_str_eq(AS_CSTRING(global(vm, "got")), "0!,10!,20!");
  vm_collect_garbage(vm);
  ck_assert_int_eq(run_source(vm, "let n = keep()\n"), VM_OK);
  ck_assert_int_eq(AS_INT(global(vm, "n")), 2);
  vm_free(vm);
}
END_TEST

static Suite *vm_suite(void) {
  Suite *s = suite_create("vm");
  TCase *values = tcase_create("values");
  tcase_add_test(values, numbers_print_shortest);
  tcase_add_test(values, nan_boxing_round_trips);
  tcase_add_test(values, ints_are_their_own_subtype);
  tcase_add_test(values, python_arithmetic);
  tcase_add_test(values, truthiness_and_equality);
  tcase_add_test(values, str_and_repr);
  tcase_add_test(values, tuples_print_compare_and_hash);
  tcase_add_test(values, format_specs);
  suite_add_tcase(s, values);
  TCase *tables = tcase_create("strings_tables");
  tcase_add_test(tables, strings_are_interned);
  tcase_add_test(tables, table_keeps_insertion_order);
  tcase_add_test(tables, table_shrinks_to_its_live_entries);
  suite_add_tcase(s, tables);
  TCase *gc = tcase_create("gc");
  tcase_add_test(gc, gc_frees_garbage_and_keeps_roots);
  tcase_add_test(gc, gc_shrinks_the_intern_set);
  tcase_add_test(gc, gc_while_the_intern_set_grows);
  tcase_add_test(gc, gc_pins_survive);
  tcase_add_test(gc, tuples_are_collected_and_traced);
  tcase_add_test(gc, gc_stress_runs_programs);
  tcase_add_test(gc, external_bytes_count_toward_trigger);
  tcase_add_test(gc, tensor_bytes_start_a_collection);
  tcase_set_timeout(gc, 60);
  suite_add_tcase(s, gc);
  TCase *calls = tcase_create("calls");
  tcase_add_test(calls, call_hand_built_function);
  tcase_add_test(calls, defaults_from_prologue);
  tcase_add_test(calls, globals_are_slots);
  tcase_add_test(calls, natives_take_keywords);
  tcase_add_test(calls, classes_methods_and_closures);
  tcase_add_test(calls, natives_call_back_into_ag);
  tcase_add_test(calls, superinstructions_keep_semantics);
  tcase_add_test(calls, generators_resume_from_c);
  tcase_add_test(calls, generators_survive_gc_stress);
  suite_add_tcase(s, calls);
  TCase *errors = tcase_create("errors");
  tcase_add_test(errors, runtime_errors_are_catchable);
  tcase_add_test(errors, uncaught_error_reports_traceback);
  tcase_add_test(errors, interrupt_flag_raises_interrupted);
  tcase_add_test(errors, pending_interrupt_turns_an_error_into_interrupted_once);
  tcase_add_test(errors, exit_unwinds_past_handlers);
  tcase_set_timeout(errors, 30);
  suite_add_tcase(s, errors);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(vm_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
