/* test_format.c — vm/format.c (Python's format spec mini-language, the %
 * operator, str.format), the error classes (vm/errors.c: raising by kind,
 * the class name the kernel reports, catching by class) and the name hints
 * of vm/suggest.c. Each test makes a fresh VM. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/builtins.h"
#include "vm/internal.h"
#include "vm/vm.h"

static AgVM *new_vm(void) {
  AgVM *vm = vm_new();
  lib_install_builtins(vm);
  return vm;
}

/* format(v, spec) must give `want`. */
static void check_format(AgVM *vm, Value v, const char *spec, const char *want) {
  Value s = vm_format_value(vm, v, spec);
  ck_assert_msg(IS_STRING(s), "format(_, '%s') threw", spec);
  ck_assert_str_eq(AS_CSTRING(s), want);
}

/* The class name of the error the last call threw, taken. */
static const char *thrown_class(AgVM *vm) {
  ck_assert(vm->exc.pending);
  return vm_exception_class_name(vm, vm_take_exception(vm));
}

START_TEST(ints_in_every_base) {
  AgVM *vm = new_vm();
  check_format(vm, INT_VAL(vm, 255), "", "255");
  check_format(vm, INT_VAL(vm, 255), "#x", "0xff");
  check_format(vm, INT_VAL(vm, 255), "#X", "0XFF");
  check_format(vm, INT_VAL(vm, 255), "08b", "11111111");
  check_format(vm, INT_VAL(vm, 5), "#06b", "0b0101");
  check_format(vm, INT_VAL(vm, 8), "#o", "0o10");
  check_format(vm, INT_VAL(vm, -42), "+d", "-42");
  check_format(vm, INT_VAL(vm, 42), " d", " 42");
  check_format(vm, INT_VAL(vm, 97), "c", "a");
  check_format(vm, INT_VAL(vm, 955), "c", "\xce\xbb");
  check_format(vm, INT_VAL(vm, INT64_MIN), "", "-9223372036854775808");
  check_format(vm, TRUE_VAL, "d", "1");
  vm_free(vm);
}
END_TEST

START_TEST(grouping_and_zero_padding) {
  AgVM *vm = new_vm();
  check_format(vm, INT_VAL(vm, 1234567), ",", "1,234,567");
  check_format(vm, INT_VAL(vm, 1234567), "_", "1_234_567");
  check_format(vm, INT_VAL(vm, 255), "_b", "1111_1111");
  check_format(vm, INT_VAL(vm, 1234), "08,", "0,001,234"); /* CPython pads with grouped zeros */
  check_format(vm, INT_VAL(vm, -3), "05", "-0003");
  check_format(vm, INT_VAL(vm, 3), "x<5", "3xxxx");
  check_format(vm, INT_VAL(vm, 3), "*^6", "**3***");
  check_format(vm, FLOAT_VAL(98765.4321), ",.2f", "98,765.43");
  vm_free(vm);
}
END_TEST

START_TEST(floats_round_as_cpython) {
  AgVM *vm = new_vm();
  check_format(vm, FLOAT_VAL(2.675), ".2f", "2.67");
  check_format(vm, FLOAT_VAL(0.125), ".2f", "0.12");
  check_format(vm, FLOAT_VAL(1e16), "", "1e+16");
  check_format(vm, FLOAT_VAL(1e16), "#", "1.e+16");
  check_format(vm, FLOAT_VAL(100.0), ".3", "1e+02");
  check_format(vm, FLOAT_VAL(10.0), ".3", "10.0");
  check_format(vm, FLOAT_VAL(10.0), "#.2", "1.0e+01");
  check_format(vm, FLOAT_VAL(0.256), ".1%", "25.6%");
  check_format(vm, FLOAT_VAL(12345.678), ".3e", "1.235e+04");
  check_format(vm, FLOAT_VAL(12345.678), "G", "12345.7");
  check_format(vm, FLOAT_VAL(-0.0), "", "-0.0");
  check_format(vm, FLOAT_VAL(-0.0001), "z.2f", "0.00");
  check_format(vm, FLOAT_VAL(-1.0 / 0.0), "F", "-INF");
  check_format(vm, INT_VAL(vm, 3), ".2f", "3.00");
  vm_free(vm);
}
END_TEST

START_TEST(strings_align_by_characters) {
  AgVM *vm = new_vm();
  Value s = OBJ_VAL(obj_string(vm, "h\xc3\xa9llo")); /* héllo: 5 characters, 6 bytes */
  vm_push_root(vm, s);
  check_format(vm, s, ">7", "  h\xc3\xa9llo");
  check_format(vm, s, ".2", "h\xc3\xa9");
  check_format(vm, s, "\xc3\xa9^9", "\xc3\xa9\xc3\xa9h\xc3\xa9llo\xc3\xa9\xc3\xa9");
  vm_pop_root(vm);
  vm_free(vm);
}
END_TEST

START_TEST(bad_specs_are_value_errors) {
  AgVM *vm = new_vm();
  const char *specs[] = {"d", ".", "xx", "999999999"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    ck_assert(IS_EXCEPTION(vm_format_value(vm, FLOAT_VAL(1.5), specs[i])));
    ck_assert_str_eq(thrown_class(vm), "ValueError");
  }
  ck_assert(IS_EXCEPTION(vm_format_value(vm, OBJ_VAL(obj_string(vm, "s")), "+")));
  ck_assert_str_eq(thrown_class(vm), "ValueError");
  vm_free(vm);
}
END_TEST

START_TEST(percent_operator) {
  AgVM *vm = new_vm();
  ObjString *f = obj_string(vm, "%5.1f|%-4d|%#x|%%");
  vm_push_root(vm, OBJ_VAL(f));
  ck_assert(IS_EXCEPTION(vm_format_percent(vm, f, FLOAT_VAL(2.25)))); /* one value for three conversions */
  ck_assert_str_eq(thrown_class(vm), "TypeError");
  Value s = vm_format_percent(vm, obj_string(vm, "%5.1f|"), FLOAT_VAL(2.25));
  ck_assert_str_eq(AS_CSTRING(s), "  2.2|");
  s = vm_format_percent(vm, obj_string(vm, "%.3d %c"), INT_VAL(vm, 7));
  ck_assert(IS_EXCEPTION(s));
  ck_assert_str_eq(thrown_class(vm), "TypeError");
  s = vm_format_percent(vm, obj_string(vm, "%q"), INT_VAL(vm, 7));
  ck_assert(IS_EXCEPTION(s));
  ck_assert_str_eq(thrown_class(vm), "ValueError");
  vm_pop_root(vm);
  vm_free(vm);
}
END_TEST

START_TEST(format_method_fields) {
  AgVM *vm = new_vm();
  Value args[2] = {INT_VAL(vm, 7), FLOAT_VAL(0.5)};
  Value s = vm_format_method(vm, obj_string(vm, "{1:.0%} {0:>3} {{}}"), 2, args, NULL);
  ck_assert_str_eq(AS_CSTRING(s), "50%   7 {}");
  ck_assert(IS_EXCEPTION(vm_format_method(vm, obj_string(vm, "{2}"), 2, args, NULL)));
  ck_assert_str_eq(thrown_class(vm), "IndexError");
  ck_assert(IS_EXCEPTION(vm_format_method(vm, obj_string(vm, "{name}"), 2, args, NULL)));
  ck_assert_str_eq(thrown_class(vm), "KeyError");
  ck_assert(IS_EXCEPTION(vm_format_method(vm, obj_string(vm, "{0:{0:{0}}}"), 2, args, NULL)));
  ck_assert_str_eq(thrown_class(vm), "ValueError"); /* Max string recursion exceeded */
  vm_free(vm);
}
END_TEST

START_TEST(raising_by_kind_names_the_class) {
  AgVM *vm = new_vm();
  vm_raise(vm, VM_ERR_KEY, "key %d", 3);
  Value e = vm->exc.value;
  ck_assert_str_eq(thrown_class(vm), "KeyError");
  ck_assert_str_eq(vm_exception_message(vm, e), "key 3");
  ck_assert_int_eq(vm_catches(vm, e, OBJ_VAL(vm->core.error_classes[VM_ERR_LOOKUP])), 1);
  ck_assert_int_eq(vm_catches(vm, e, OBJ_VAL(vm->core.error_classes[VM_ERR_INDEX])), 0);
  ck_assert_int_eq(vm_catches(vm, e, OBJ_VAL(vm->core.error_class)), 1);
  ck_assert_int_eq(vm_catches(vm, e, INT_VAL(vm, 3)), -1);
  ck_assert_str_eq(thrown_class(vm), "TypeError");
  vm_throw(vm, OBJ_VAL(obj_string(vm, "plain")));
  ck_assert_str_eq(thrown_class(vm), "string");
  vm_free(vm);
}
END_TEST

START_TEST(suggestions_are_close_names) {
  VmSuggest s;
  char buf[64];
  vm_suggest_begin(&s, "prnt");
  vm_suggest_add(&s, "len");
  vm_suggest_add(&s, "print");
  ck_assert_str_eq(vm_suggest_hint(&s, buf, sizeof buf), "; did you mean `print`?");
  vm_suggest_begin(&s, "gard");
  vm_suggest_add(&s, "grad");
  ck_assert_str_eq(vm_suggest_hint(&s, buf, sizeof buf), "; did you mean `grad`?");
  vm_suggest_begin(&s, "x");
  vm_suggest_add(&s, "t"); /* one-letter names are not guessed */
  ck_assert_str_eq(vm_suggest_hint(&s, buf, sizeof buf), "");
  vm_suggest_begin(&s, "zzzz");
  vm_suggest_add(&s, "print");
  ck_assert_str_eq(vm_suggest_hint(&s, buf, sizeof buf), "");
}
END_TEST

static Suite *format_suite(void) {
  Suite *s = suite_create("format");
  TCase *spec = tcase_create("spec");
  tcase_add_test(spec, ints_in_every_base);
  tcase_add_test(spec, grouping_and_zero_padding);
  tcase_add_test(spec, floats_round_as_cpython);
  tcase_add_test(spec, strings_align_by_characters);
  tcase_add_test(spec, bad_specs_are_value_errors);
  suite_add_tcase(s, spec);
  TCase *ops = tcase_create("operators");
  tcase_add_test(ops, percent_operator);
  tcase_add_test(ops, format_method_fields);
  suite_add_tcase(s, ops);
  TCase *errors = tcase_create("errors");
  tcase_add_test(errors, raising_by_kind_names_the_class);
  tcase_add_test(errors, suggestions_are_close_names);
  suite_add_tcase(s, errors);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(format_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
