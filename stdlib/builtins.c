/* builtins.c — the global functions and constants of SPEC §5 (see
 * builtins.h). */
#include "stdlib/builtins.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parser/compiler.h"
#include "stdlib/builtins_internal.h"
#include "vm/arith.h"
#include "vm/buffer.h"
#include "vm/internal.h"
#include "vm/opcodes.h"

/* ---- output and input ---- */

static bool write_value(AgVM *vm, FILE *out, Value v) {
  Value s = vm_to_str(vm, v);
  if (IS_EXCEPTION(s)) return false;
  fwrite(AS_CSTRING(s), 1, (size_t)AS_STRING(s)->length, out);
  return true;
}

static FILE *stream_of(AgVM *vm, Value file) {
  if (IS_UNDEF(file) || IS_NIL(file) || (IS_INSTANCE(file) && AS_INSTANCE(file) == vm->core.stdout_obj)) return stdout;
  if (IS_INSTANCE(file) && AS_INSTANCE(file) == vm->core.stderr_obj) return stderr;
  return NULL;
}

/* print(..., file=f) for a file from open(): the text goes through f.write. */
static Value print_to_file(AgVM *vm, Value f, int argc, const Value *args, Value sep, Value end) {
  for (int i = 0; i < argc; i++) {
    Value s = i > 0 ? sep : NIL_VAL;
    if (i > 0 && IS_EXCEPTION(lib_file_write(vm, f, s))) return VM_EXCEPTION;
    s = vm_to_str(vm, args[i]);
    if (IS_EXCEPTION(s)) return VM_EXCEPTION;
    vm_push_root(vm, s);
    Value written = lib_file_write(vm, f, s);
    vm_pop_root(vm);
    if (IS_EXCEPTION(written)) return VM_EXCEPTION;
  }
  return IS_EXCEPTION(lib_file_write(vm, f, end)) ? VM_EXCEPTION : NIL_VAL;
}

static Value print_values(AgVM *vm, Value file, int argc, const Value *args, Value sep, Value end) {
  if (lib_is_file(vm, file)) return print_to_file(vm, file, argc, args, sep, end);
  FILE *out = stream_of(vm, file);
  if (out == NULL) {
    return vm_raise(vm, VM_ERR_TYPE, "print() file must be stdout, stderr or a file from open(), not %s",
                          vm_type_name(file));
  }
  for (int i = 0; i < argc; i++) {
    if (i > 0 && !write_value(vm, out, sep)) return VM_EXCEPTION;
    if (!write_value(vm, out, args[i])) return VM_EXCEPTION;
  }
  return write_value(vm, out, end) ? NIL_VAL : VM_EXCEPTION;
}

HELP("print", HELP_BUILTINS, 0,
     "print(...vs, sep=\" \", end=\"\\n\", file=stdout, flush=false)",
     "Writes the values, each converted with str(), separated by sep and followed by end. "
     "file=stderr writes to standard error, file=f to a file from open(); flush=true "
     "pushes the output out at once (a progress line seen while a loop runs).",
     "print(\"loss\", 0.25, [1, 2])\n"
     "print(\"no newline\", end=\"\")")

LIB_NATIVE(lib_print) {
  static const char *const names[] = {"sep", "end", "file", "flush", NULL};
  Value opt[4];
  if (!vm_parse_kwargs(vm, "print", kw, names, opt)) return VM_EXCEPTION;
  /* rooted at once: making `end` and str() of the values may collect */
  Value sep = IS_UNDEF(opt[0]) || IS_NIL(opt[0]) ? OBJ_VAL(obj_string(vm, " ")) : opt[0];
  vm_push_root(vm, sep);
  Value end = IS_UNDEF(opt[1]) || IS_NIL(opt[1]) ? OBJ_VAL(obj_string(vm, "\n")) : opt[1];
  vm_push_root(vm, end);
  Value r;
  if (!IS_STRING(sep) || !IS_STRING(end)) {
    r = vm_raise(vm, VM_ERR_TYPE, "print() %s must be a string, not %s", IS_STRING(sep) ? "end" : "sep",
                       vm_type_name(IS_STRING(sep) ? end : sep));
  } else if (!IS_UNDEF(opt[3]) && !IS_BOOL(opt[3])) {
    r = vm_raise(vm, VM_ERR_TYPE, "print() flush must be a bool");
  } else {
    FILE *stream = stream_of(vm, opt[2]);
    if (stream == stdout || stream == stderr) vm_end_progress_line(vm); /* below a bar, not after it */
    r = print_values(vm, opt[2], argc, args, sep, end);
  }
  vm_pop_roots(vm, 2);
  FILE *out = stream_of(vm, opt[2]); /* NULL for a file from open(), which writes at once */
  if (!IS_EXCEPTION(r) && IS_BOOL(opt[3]) && AS_BOOL(opt[3]) && out != NULL) fflush(out);
  return r;
}

HELP("input", HELP_BUILTINS, 0,
     "input(prompt=\"\")",
     "Writes the prompt, reads one line from standard input and returns it without the "
     "newline; nil at end of input.",
     "let name = input(\"name? \")")

LIB_NATIVE(lib_input) {
  if (argc > 0) {
    if (!write_value(vm, stdout, args[0])) return VM_EXCEPTION;
  }
  fflush(stdout);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, stdin);
  if (n < 0) {
    free(line);
    return NIL_VAL;
  }
  if (n > 0 && line[n - 1] == '\n') n--;
  ObjString *s = obj_copy_string(vm, line, (int)n);
  free(line);
  return OBJ_VAL(s);
}

LIB_NATIVE(lib_stream_write) {
  FILE *out = stream_of(vm, self);
  if (out == NULL) return vm_raise(vm, VM_ERR_TYPE, "write() needs stdout or stderr");
  for (int i = 0; i < argc; i++) {
    if (!write_value(vm, out, args[i])) return VM_EXCEPTION;
  }
  return NIL_VAL;
}

LIB_NATIVE(lib_stream_flush) {
  FILE *out = stream_of(vm, self);
  if (out) fflush(out);
  return NIL_VAL;
}

/* ---- sequences ---- */

HELP("len", HELP_BUILTINS, 0,
     "len(x)",
     "The number of items of a list, map, string (in bytes) or range, or the size of a "
     "tensor's first dimension.",
     "print(len([1, 2, 3]), len(\"abc\"), len({\"a\": 1}))")

LIB_NATIVE(lib_len) {
  int64_t n = vm_length(vm, args[0]);
  return n < 0 ? VM_EXCEPTION : INT_VAL(vm, n);
}

HELP("range", HELP_BUILTINS, 0,
     "range(n) / range(start, stop, step=1)",
     "A lazy sequence of numbers from start (default 0) up to but not including stop, for "
     "`for` loops, len() and indexing.",
     "for i in range(3) { print(i) }\n"
     "print(len(range(0, 10, 2)))")

LIB_NATIVE(lib_range) {
  int64_t a[3] = {0, 0, 1};
  for (int i = 0; i < argc; i++) {
    if (!lib_int_arg(vm, "range", args, i, &a[i])) return VM_EXCEPTION;
  }
  if (argc == 1) {
    a[1] = a[0];
    a[0] = 0;
  }
  if (a[2] == 0) return vm_raise(vm, VM_ERR_VALUE, "range() step cannot be zero");
  return OBJ_VAL(obj_new_range(vm, a[0], a[1], a[2]));
}

HELP("divmod", HELP_BUILTINS, 0,
     "divmod(a, b)",
     "The tuple (a // b, a % b), as Python's.",
     "let q, r = divmod(17, 5)\nprint(q, r)")

/* divmod(a, b): (a // b, a % b), Python's. */
LIB_NATIVE(lib_divmod) {
  Value q = vm_binary_op(vm, OP_FLOOR_DIVIDE, args[0], args[1]);
  if (IS_EXCEPTION(q)) return q;
  vm_push_root(vm, q);
  Value r = vm_binary_op(vm, OP_MODULO, args[0], args[1]);
  vm_pop_root(vm);
  return IS_EXCEPTION(r) ? r : obj_pair(vm, q, r);
}

/* Sorts `list` in place (sorted() passes a fresh copy, list.sort() itself). */
static Value sort_list(AgVM *vm, ObjList *list, Value key, Value reverse) {
  if (!IS_UNDEF(reverse) && !IS_BOOL(reverse)) return vm_raise(vm, VM_ERR_TYPE, "sorted() reverse must be a bool");
  bool rev = IS_BOOL(reverse) && AS_BOOL(reverse);
  if (IS_UNDEF(key) || IS_NIL(key)) {
    return lib_sort_values(vm, list->items, NULL, list->count, rev) ? OBJ_VAL(list) : VM_EXCEPTION;
  }
  ObjList *keys = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(keys));
  for (int i = 0; i < list->count; i++) {
    Value k = vm_call(vm, key, 1, &list->items[i]);
    if (IS_EXCEPTION(k)) {
      vm_pop_root(vm);
      return k;
    }
    obj_list_append(vm, keys, k);
  }
  if (keys->count != list->count) {
    vm_pop_root(vm);
    return vm_raise(vm, VM_ERR_VALUE, "the list changed size while its sort keys were computed");
  }
  bool ok = lib_sort_values(vm, list->items, keys->items, list->count, rev);
  vm_pop_root(vm);
  return ok ? OBJ_VAL(list) : VM_EXCEPTION;
}

HELP("sorted", HELP_BUILTINS, 0,
     "sorted(xs, key=nil, reverse=false)",
     "A new sorted list of the items; key is a function giving the value to compare, "
     "reverse sorts descending.",
     "print(sorted([3, 1, 2]), sorted([\"bb\", \"a\"], key=len, reverse=true))")

LIB_NATIVE(lib_sorted) {
  static const char *const names[] = {"key", "reverse", NULL};
  Value opt[2];
  if (!vm_parse_kwargs(vm, "sorted", kw, names, opt)) return VM_EXCEPTION;
  Value copy = lib_to_list(vm, args[0]);
  if (IS_EXCEPTION(copy)) return copy;
  vm_push_root(vm, copy);
  Value r = sort_list(vm, AS_LIST(copy), opt[0], opt[1]);
  vm_pop_root(vm);
  return r;
}

HELP("list.sort", HELP_METHODS, 0,
     "xs.sort(key=nil, reverse=false)",
     "Sorts the list in place (see sorted() for a new list).",
     "let xs = [3, 1, 2]\n"
     "xs.sort()\n"
     "print(xs)")

LIB_NATIVE(lib_list_sort) {
  static const char *const names[] = {"key", "reverse", NULL};
  Value opt[2];
  if (!vm_parse_kwargs(vm, "sort", kw, names, opt)) return VM_EXCEPTION;
  Value r = sort_list(vm, AS_LIST(self), opt[0], opt[1]);
  return IS_EXCEPTION(r) ? r : NIL_VAL;
}

/* ---- conversions ---- */

HELP("str", HELP_BUILTINS, 0,
     "str(v)",
     "The value as a string, as print shows it (an instance's str method when it has one, "
     "else its repr method).",
     "print(str(0.1) + \"!\", str([1, \"a\"]))")

LIB_NATIVE(lib_str) { return argc == 0 ? OBJ_VAL(obj_string(vm, "")) : vm_to_str(vm, args[0]); }

HELP("format", HELP_BUILTINS, 0,
     "format(v, spec=\"\")",
     "v formatted with Python's format spec, [[fill]align][sign][z][#][0][width][,|_]"
     "[.precision][type], as f\"{v:spec}\" does; CPython's output. The same engine runs "
     "s.format(...) (fields {}, {0}, {name}, {0[1]}, {p.x}, !r !s, nested {w} in a spec) and "
     "FORMAT % values (printf-style: %d %s %r %f %e %g %x %o %c %%, flags, width, precision, "
     "%(name)s with a map). An instance's format(spec) method is called when it has one.",
     "print(format(1234567, \",\"), format(255, \"#x\"), format(0.256, \".1%\"))\n"
     "print(\"{:>6.2f}|{}\".format(3.14159, \"a\"), \"%05.1f %s\" % (2.25, \"ok\"))")

/* format(v, spec=""): Python's format (vm/format.c). */
LIB_NATIVE(lib_format) {
  if (argc < 2) return vm_format_value(vm, args[0], "");
  if (!IS_STRING(args[1]))
    return vm_raise(vm, VM_ERR_TYPE, "format() argument 2 must be str, not %s", vm_type_name(args[1]));
  return vm_format_value(vm, args[0], AS_CSTRING(args[1]));
}

HELP("repr", HELP_BUILTINS, 0,
     "repr(v)",
     "The value as source-like text: strings are quoted, tensors print as PyTorch does, an "
     "instance through its repr method (never its str), else <Point instance>.",
     "print(repr(\"hi\"), repr(1.5))")

LIB_NATIVE(lib_repr) { return vm_to_repr(vm, args[0]); }

/* Parses a whole string (surrounding spaces allowed, `_` between digits as in
 * literals is not): an int when it is one, else a float; false if neither. */
static bool parse_number(const char *s, bool *is_int, int64_t *i, double *d) {
  while (isspace((unsigned char)*s)) s++;
  if (*s == '\0') return false;
  char *end;
  errno = 0;
  const char *digits = *s == '-' || *s == '+' ? s + 1 : s;
  bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  long long v = strtoll(s, &end, hex ? 16 : 10);
  const char *rest = end;
  while (isspace((unsigned char)*rest)) rest++;
  if (end != s && *rest == '\0' && errno == 0) {
    *is_int = true;
    *i = v;
    return true;
  }
  if (hex) return false;
  *d = strtod(s, &end);
  while (isspace((unsigned char)*end)) end++;
  *is_int = false;
  return end != s && *end == '\0';
}

static Value parse_error_value(AgVM *vm, const char *fname, Value v, const char *what) {
  char shown[96];
  vm_short_repr(vm, v, shown, sizeof shown);
  return vm_raise(vm, VM_ERR_VALUE, "%s() cannot parse %s as %s", fname, shown, what);
}

/* A float's integral value as an int: inf, nan and floats beyond int64 are errors. */
static Value float_to_int(AgVM *vm, const char *fname, double d) {
  if (!isfinite(d)) return vm_raise(vm, VM_ERR_VALUE, "%s() cannot convert float %s to an int", fname, isnan(d) ? "nan" : "inf");
  if (d >= 0x1p63 || d < -0x1p63) return vm_raise(vm, VM_ERR_OVERFLOW, "integer overflow");
  return INT_VAL(vm, (int64_t)d);
}

/* The number a one-element tensor holds (an int, a float or a bool). */
static Value tensor_number(AgVM *vm, Value v) { return vm_invoke_cstr(vm, v, "item", 0, NULL); }

static bool is_tensor_value(Value v) { return IS_TENSOR(v) || IS_NODE(v); }

HELP("num", HELP_BUILTINS, 0,
     "num(s)",
     "Parses a string as a number: an int when it is written as one (\"7\", \"0x1F\"), "
     "else a float (\"2.5\", \"1e-3\", \"inf\"); surrounding blanks allowed. A number "
     "is returned as it is.",
     "print(num(\"2.5\") + 1, num(\"0x1F\"))")

/* num(x): a number as is; a string parsed to an int or a float. */
LIB_NATIVE(lib_num) {
  Value v = args[0];
  if (IS_NUMBER(v)) return v;
  if (IS_BOOL(v)) return INT_VAL(vm, AS_BOOL(v));
  if (IS_STRING(v)) {
    bool is_int;
    int64_t i;
    double d;
    if (!parse_number(AS_CSTRING(v), &is_int, &i, &d)) return parse_error_value(vm, "num", v, "a number");
    return is_int ? INT_VAL(vm, i) : FLOAT_VAL(d);
  }
  if (IS_TENSOR(v)) return tensor_number(vm, v);
  return vm_raise(vm, VM_ERR_TYPE, "num() cannot convert %s to a number", vm_type_name(v));
}

HELP("int", HELP_BUILTINS, 0,
     "int(x)",
     "An int (64-bit): truncates a float toward zero, parses a string of an int, takes "
     "the value of a one-element tensor. inf, nan and floats beyond int64 are errors. "
     "Where a dtype is expected, int means int64 (ones(2, dtype=int), t.to(int)), as "
     "Python's int in PyTorch.",
     "print(int(2.9), int(-2.9), int(\"7\"), int(true), ones(2, dtype=int))")

/* int(x): truncates a number toward zero, parses a string of an int. */
LIB_NATIVE(lib_int) {
  Value v = argc == 0 ? INT_VAL(vm, 0) : args[0];
  if (IS_TENSOR(v)) {
    v = tensor_number(vm, v);
    if (IS_EXCEPTION(v)) return v;
  }
  if (IS_INT(v)) return v;
  if (IS_BOOL(v)) return INT_VAL(vm, AS_BOOL(v));
  if (IS_FLOAT(v)) return float_to_int(vm, "int", trunc(AS_FLOAT(v)));
  if (IS_STRING(v)) {
    bool is_int;
    int64_t i;
    double d;
    if (!parse_number(AS_CSTRING(v), &is_int, &i, &d) || !is_int) return parse_error_value(vm, "int", v, "an int");
    return INT_VAL(vm, i);
  }
  return vm_raise(vm, VM_ERR_TYPE, "int() cannot convert %s to an int", vm_type_name(v));
}

HELP("float", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "float(x) / float (dtype) / t.float()",
     "Called, x as a float (a number, a string such as \"1e-3\" or \"inf\", a "
     "one-element tensor). As a value, another name for float32 (as PyTorch's "
     "torch.float); as a method, converts a tensor to float32.",
     "print(float(3), float(\"2.5\"), arange(3).float())")

/* float(x): a number as a float, a string parsed ("1e-3", "inf", "nan"). */
LIB_NATIVE(lib_float) {
  if (argc == 0) return FLOAT_VAL(0.0);
  Value v = args[0];
  if (IS_TENSOR(v)) {
    v = tensor_number(vm, v);
    if (IS_EXCEPTION(v)) return v;
  }
  if (IS_NUMBER(v)) return FLOAT_VAL(AS_NUMBER(v));
  if (IS_BOOL(v)) return FLOAT_VAL(AS_BOOL(v) ? 1.0 : 0.0);
  if (IS_STRING(v)) {
    bool is_int;
    int64_t i;
    double d;
    if (!parse_number(AS_CSTRING(v), &is_int, &i, &d)) return parse_error_value(vm, "float", v, "a float");
    return FLOAT_VAL(is_int ? (double)i : d);
  }
  return vm_raise(vm, VM_ERR_TYPE, "float() cannot convert %s to a float", vm_type_name(v));
}

HELP("bool", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "bool(x) / bool (dtype) / t.bool()",
     "Called, the truthiness of x as true or false (as Python's bool). As a value, the "
     "boolean dtype; comparisons give bool tensors. As a method, converts a tensor to "
     "bool.",
     "print(bool([]), bool(2), tensor([0, 2]).bool())")

/* bool(x): truthiness. */
LIB_NATIVE(lib_bool) {
  if (argc == 0) return FALSE_VAL;
  int t = vm_truthy(vm, args[0]);
  return t < 0 ? VM_EXCEPTION : BOOL_VAL(t);
}

HELP("type", HELP_BUILTINS, 0,
     "type(v)",
     "The type of v: an instance's class; for other values a built-in type (int, str, "
     "list, dict, set, Tensor, ... ; float and bool equal those dtypes). It prints as "
     "Ag's name of the kind (\"int\" \"string\" \"map\" \"nil\" \"tensor\", the class name) "
     "and equals that name too; type(v).__name__ is Python's name; a built-in type "
     "converts when called (int(\"3\")).",
     "print(type(1), type(1) == int, type(zeros(2)) == Tensor, type(\"a\"), type(\"a\").__name__)")

LIB_NATIVE(lib_type) { return vm_type_of(vm, args[0]); }

HELP("isinstance", HELP_BUILTINS, 0,
     "isinstance(v, cls)",
     "True when v is an instance of class cls or of a subclass of it. cls may also be a "
     "built-in type, as in Python: int (true for bools too), float, bool, str, list, dict, "
     "set, tuple, Tensor; or a tuple or list of classes and types (isinstance(x, (int, float))).",
     "class A {}\n"
     "class B : A {}\n"
     "print(isinstance(B(), A), isinstance(1, A))")

/* isinstance(v, cls): v is an instance of cls or of a class derived from it. */
LIB_NATIVE(lib_isinstance) {
  if (!IS_CLASS(args[1])) return vm_raise(vm, VM_ERR_TYPE, "isinstance() expects a class as argument 2, not %s", vm_type_name(args[1]));
  if (!IS_INSTANCE(args[0])) return FALSE_VAL;
  for (ObjClass *k = AS_INSTANCE(args[0])->klass; k != NULL; k = k->parent) {
    if (k == AS_CLASS(args[1])) return TRUE_VAL;
  }
  return FALSE_VAL;
}

HELP("vars", HELP_BUILTINS, 0,
     "vars(obj)",
     "A map of an instance's fields (in the order assigned), or of a module's globals.",
     "class P { fn init() { self.x = 1; self.y = 2 } }\n"
     "print(vars(P()))")

/* vars(instance): its fields as a map, in assignment order. */
LIB_NATIVE(lib_vars) {
  if (!IS_INSTANCE(args[0])) return vm_raise(vm, VM_ERR_TYPE, "vars() expects an instance, not %s", vm_type_name(args[0]));
  ObjMap *m = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(m));
  table_add_all(vm, &AS_INSTANCE(args[0])->fields, &m->table);
  vm_pop_root(vm);
  return OBJ_VAL(m);
}

/* ---- errors and control ---- */

HELP("assert", HELP_BUILTINS, 0,
     "assert cond, message   /   assert(cond, message=\"assertion failed\")",
     "Throws an AssertionError with the message when cond is falsy. Python's statement "
     "form evaluates the message only then (and without one the error has none); the "
     "call form is the built-in function, with the same meaning.",
     "assert 1 + 1 == 2, \"arithmetic is broken\"\nassert(1 + 1 == 2, \"arithmetic is broken\")")

LIB_NATIVE(lib_assert) {
  int t = vm_truthy(vm, args[0]);
  if (t < 0) return VM_EXCEPTION;
  if (t) return NIL_VAL;
  if (argc < 2) return vm_raise(vm, VM_ERR_ASSERTION, "assertion failed");
  Value message = vm_to_str(vm, args[1]);
  if (IS_EXCEPTION(message)) return message;
  return vm_throw(vm, OBJ_VAL(vm_new_error(vm, vm->core.error_classes[VM_ERR_ASSERTION], AS_STRING(message))));
}

HELP("error", HELP_BUILTINS, 0,
     "error(message)",
     "Throws an Error (the base class, as Python's raise Exception(message)) with that "
     "message (catch it with try/catch; e.message reads it). throw ValueError(message) "
     "throws one of Python's classes.",
     "try { error(\"bad input\") } catch e { print(e.message) }")

/* error(message): an Error (the base class), as Python's raise Exception(message). */
LIB_NATIVE(lib_error) {
  Value message = vm_to_str(vm, args[0]);
  if (IS_EXCEPTION(message)) return message;
  return vm_throw(vm, OBJ_VAL(vm_new_error(vm, vm->core.error_class, AS_STRING(message))));
}

HELP("clock", HELP_BUILTINS, 0,
     "clock()",
     "Seconds from a monotonic clock, for timing code.",
     "let t0 = clock()\n"
     "let dt = clock() - t0\n"
     "print(dt >= 0)")

LIB_NATIVE(lib_clock) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return FLOAT_VAL((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
}

HELP("exit", HELP_BUILTINS, 0,
     "exit(code=0)",
     "Ends the program with that exit status (in the REPL: ends the session).",
     "if false { exit(3) }")

LIB_NATIVE(lib_exit) {
  int64_t code = 0;
  if (argc > 0 && !lib_int_arg(vm, "exit", args, 0, &code)) return VM_EXCEPTION;
  vm->exc.exit_code = (int)code;
  vm->exc.exiting = true;
  vm->exc.pending = true;
  vm->exc.value = NIL_VAL;
  return VM_EXCEPTION;
}

/* ---- min / max / sum ---- */

/* The one argument of min/max/sum as a list: a list itself, any other
 * iterable's items (a generator, a range, a set ...). */
static Value items_of(AgVM *vm, Value iterable) {
  return is_list_or_tuple(iterable) ? iterable : lib_to_list(vm, iterable);
}

static Value key_of(AgVM *vm, Value key, Value item) { return IS_NIL(key) ? item : vm_call(vm, key, 1, &item); }

/* The item of items[0..n) whose key (key(item), or the item itself when key
 * is nil) is the largest (want_max) or smallest; the first of equal ones. */
static Value extreme_of(AgVM *vm, const char *fname, const Value *items, int n, Value key, bool want_max) {
  if (n == 0) return vm_raise(vm, VM_ERR_VALUE, "%s() arg is an empty sequence", fname);
  Value best = items[0], best_key = key_of(vm, key, best);
  if (IS_EXCEPTION(best_key)) return best_key;
  vm_push_root(vm, best_key);
  for (int i = 1; i < n && !IS_EXCEPTION(best); i++) {
    Value k = key_of(vm, key, items[i]);
    if (IS_EXCEPTION(k)) {
      best = k;
      break;
    }
    vm_push_root(vm, k);
    int better = want_max ? vm_less_than(vm, best_key, k) : vm_less_than(vm, k, best_key);
    vm_pop_roots(vm, 2);
    if (better > 0) best = items[i], best_key = k;
    if (better < 0) best = VM_EXCEPTION;
    vm_push_root(vm, best_key);
  }
  vm_pop_root(vm);
  return best;
}

/* min/max(iterable, key=nil, default=...) or of several arguments, as
 * Python's; of one tensor, the tensor's own min/max. */
static Value extreme(AgVM *vm, const char *fname, int argc, const Value *args, const AgKwargs *kw, bool want_max) {
  if (argc == 1 && is_tensor_value(args[0])) { /* torch.max(t, dim=...) */
    vm_push_root(vm, args[0]);
    ObjString *name = obj_string(vm, fname);
    vm_pop_root(vm);
    return vm_invoke(vm, args[0], name, 0, NULL, kw);
  }
  static const char *const names[] = {"key", "default", NULL};
  Value opt[2];
  if (!vm_parse_kwargs(vm, fname, kw, names, opt)) return VM_EXCEPTION;
  Value key = IS_UNDEF(opt[0]) ? NIL_VAL : opt[0];
  if (argc != 1) return extreme_of(vm, fname, args, argc, key, want_max);
  /* a copy when key() runs: it might change the list being walked */
  Value list = IS_NIL(key) ? items_of(vm, args[0]) : lib_to_list(vm, args[0]);
  if (IS_EXCEPTION(list)) return list;
  if (AS_LIST(list)->count == 0 && !IS_UNDEF(opt[1])) return opt[1];
  vm_push_root(vm, list);
  Value r = extreme_of(vm, fname, AS_LIST(list)->items, AS_LIST(list)->count, key, want_max);
  vm_pop_root(vm);
  return r;
}

HELP("min", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "min(...xs) / min(iterable, key=nil, default=...) / min(t, dim=nil, keepdim=false)",
     "The smallest of several values or of the items of any iterable, compared by key(item) "
     "when key is given (the first of equal ones); default for an empty one. On a tensor: the smallest element, or "
     "with dim= torch.return_types.min(values, indices) along that dimension (.values, "
     ".indices; it unpacks as a pair).",
     "print(min(3, 1, 2), min([4, 5]))\n"
     "print(tensor([[1.0, 5.0], [3.0, 2.0]]).min(dim=1))")

LIB_NATIVE(lib_min) { return extreme(vm, "min", argc, args, kw, false); }

HELP("max", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "max(...xs) / max(iterable, key=nil, default=...) / max(t, dim=nil, keepdim=false)",
     "The largest of several values or of the items of any iterable, compared by key(item) "
     "when key is given (the first of equal ones); default for an empty one. On a tensor: the largest element, or "
     "with dim= torch.return_types.max(values, indices) along that dimension (.values, "
     ".indices; it unpacks as a pair).",
     "print(max(3, 1, 2))\n"
     "print(tensor([[1.0, 5.0], [3.0, 2.0]]).max(dim=0))")

LIB_NATIVE(lib_max) { return extreme(vm, "max", argc, args, kw, true); }

static Value sum_values(AgVM *vm, int argc, const Value *args);

/* sum(x, start) sums the items of x when x is iterable and not a list
 * (a list's case is sum_values' own). */
static bool value_is_iterable(AgVM *vm, Value v) {
  if (IS_INSTANCE(v)) return vm_has_method(vm, v, VM_M_ITER);
  return IS_GENERATOR(v) || IS_RANGE(v) || IS_SET(v) || IS_MAP(v);
}

HELP("sum", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "sum(list) / sum(list, start) / sum(...xs) / sum(t, dim=nil, keepdim=false)",
     "The sum of a list or of several numbers; sum(list, start) adds the items to start, "
     "as Python's (sum(neurons, bias) of instances with add/radd). On a tensor: the sum of "
     "all elements, or "
     "along dim (a number or a list of dims); keepdim keeps reduced dims as size 1.",
     "print(sum([1, 2, 3]))\n"
     "print(ones(2, 3).sum(dim=0))")

LIB_NATIVE(lib_sum) {
  if (argc == 1 && is_tensor_value(args[0])) return vm_invoke_cstr(vm, args[0], "sum", 0, NULL);
  if (argc > 2 || is_list_or_tuple(args[0]) || (argc == 2 && !value_is_iterable(vm, args[0]))) return sum_values(vm, argc, args);
  /* sum(iterable) and sum(iterable, start) of any other iterable */
  Value list = items_of(vm, args[0]);
  if (IS_EXCEPTION(list)) return list;
  vm_push_root(vm, list);
  Value both[2] = {list, argc == 2 ? args[1] : INT_VAL(vm, 0)};
  Value r = sum_values(vm, 2, both);
  vm_pop_root(vm);
  return r;
}

static Value sum_values(AgVM *vm, int argc, const Value *args) {
  /* sum(list, start) is Python's: start + list[0] + ...; otherwise the
   * arguments are the numbers to add */
  bool with_start = argc == 2 && is_list_or_tuple(args[0]);
  ObjList *list = argc == 1 || with_start ? AS_LIST(args[0]) : NULL;
  int n = list ? list->count : argc;
  Value total = with_start ? args[1] : INT_VAL(vm, 0);
  /* Items are re-read each time: adding tensors may run code that changes the list. */
  for (int i = 0; i < n && (list == NULL || i < list->count); i++) {
    Value item = list ? list->items[i] : args[i];
    vm_push_root(vm, total);
    Value next = vm_binary_op(vm, OP_ADD, total, item);
    vm_pop_root(vm);
    if (IS_EXCEPTION(next)) return next;
    total = next;
  }
  return total;
}

/* ---- math on numbers (tensors: the method of the same name) ---- */

typedef double (*MathFn)(double);

static Value math1(AgVM *vm, const char *fname, MathFn fn, Value x) {
  if (IS_NUMBER(x) || IS_BOOL(x)) return FLOAT_VAL(fn(IS_BOOL(x) ? AS_BOOL(x) : AS_NUMBER(x)));
  if (is_tensor_value(x)) return vm_invoke_cstr(vm, x, fname, 0, NULL);
  return vm_raise(vm, VM_ERR_TYPE, "%s() expects a number or a tensor, not %s", fname, vm_type_name(x));
}

#define MATH_NATIVE(name, fn) \
  LIB_NATIVE(lib_##name) { return math1(vm, #name, fn, args[0]); }
/* floor and ceil give ints, as Python's math.floor / math.ceil. */
static Value rounded(AgVM *vm, const char *fname, double (*fn)(double), Value x) {
  if (IS_INT(x)) return x;
  if (IS_BOOL(x)) return INT_VAL(vm, AS_BOOL(x));
  if (IS_FLOAT(x)) return float_to_int(vm, fname, fn(AS_FLOAT(x)));
  if (is_tensor_value(x)) return vm_invoke_cstr(vm, x, fname, 0, NULL);
  return vm_raise(vm, VM_ERR_TYPE, "%s() expects a number or a tensor, not %s", fname, vm_type_name(x));
}
LIB_NATIVE(lib_floor) { return rounded(vm, "floor", floor, args[0]); }
LIB_NATIVE(lib_ceil) { return rounded(vm, "ceil", ceil, args[0]); }

/* abs keeps an int an int; an instance's abs method is called (SPEC §4). */
LIB_NATIVE(lib_abs) {
  Value x = args[0];
  Value r = vm_unary_method(vm, VM_M_ABS, x);
  if (!IS_UNDEF(r)) return r;
  if (IS_BOOL(x)) return INT_VAL(vm, AS_BOOL(x));
  if (IS_INT(x)) {
    if (AS_INT(x) == INT64_MIN) return vm_raise(vm, VM_ERR_OVERFLOW, "integer overflow");
    return AS_INT(x) < 0 ? INT_VAL(vm, -AS_INT(x)) : x;
  }
  return math1(vm, "abs", fabs, x);
}
MATH_NATIVE(sqrt, sqrt)
MATH_NATIVE(exp, exp)
MATH_NATIVE(log, log)
MATH_NATIVE(sin, sin)
MATH_NATIVE(cos, cos)
MATH_NATIVE(tan, tan)
MATH_NATIVE(tanh, tanh)

HELP("erf", HELP_BUILTINS, 0,
     "erf(x)",
     "The error function of a number (Python's math.erf).",
     "print(erf(0.5))")

/* erf of a number (Python's math.erf; nn.init.trunc_normal_ needs it) */
LIB_NATIVE(lib_erf) {
  if (!IS_NUMBER(args[0]) && !IS_BOOL(args[0]))
    return vm_raise(vm, VM_ERR_TYPE, "erf() expects a number, not %s", vm_type_name(args[0]));
  return FLOAT_VAL(erf(IS_BOOL(args[0]) ? AS_BOOL(args[0]) : AS_NUMBER(args[0])));
}

/* round(i, digits) of an int: itself for digits >= 0, else to a multiple of
 * 10^-digits, half to even (an int, as Python's). */
static Value round_int(AgVM *vm, int64_t i, int64_t digits) {
  if (digits >= 0) return INT_VAL(vm, i);
  if (digits < -18) return INT_VAL(vm, 0);
  int64_t p = 1;
  for (int64_t k = 0; k < -digits; k++) p *= 10;
  int64_t q = int_floordiv(i, p), r = int_mod(i, p);
  if (2 * r > p || (2 * r == p && (q & 1))) q++;
  int64_t out;
  if (__builtin_mul_overflow(q, p, &out)) return vm_raise(vm, VM_ERR_OVERFLOW, "integer overflow");
  return INT_VAL(vm, out);
}

/* Half to even, as Python's round(): an int without ndigits; with them a
 * float, rounded as the exact binary value is (printf's correctly rounded
 * conversion, as CPython's). */
LIB_NATIVE(lib_round) {
  if (is_tensor_value(args[0])) return vm_invoke_cstr(vm, args[0], "round", 0, NULL);
  bool no_digits = argc < 2 || IS_NIL(args[1]);
  if (IS_INT(args[0]) || IS_BOOL(args[0])) {
    if (no_digits) return IS_BOOL(args[0]) ? INT_VAL(vm, AS_BOOL(args[0])) : args[0];
  }
  double x;
  if (!lib_number_arg(vm, "round", args, 0, &x)) return VM_EXCEPTION;
  if (no_digits) {
    if (!isfinite(x)) return vm_raise(vm, VM_ERR_VALUE, "cannot convert float %s to integer", isnan(x) ? "nan" : "infinity");
    return float_to_int(vm, "round", nearbyint(x));
  }
  int64_t digits;
  if (!lib_int_arg(vm, "round", args, 1, &digits)) return VM_EXCEPTION;
  if (IS_INT(args[0])) return round_int(vm, AS_INT(args[0]), digits);
  if (!isfinite(x) || digits > 300) return FLOAT_VAL(x);
  if (digits < -300) return FLOAT_VAL(0.0 * x);
  if (digits >= 0) {
    char buf[400];
    snprintf(buf, sizeof buf, "%.*f", (int)digits, x);
    return FLOAT_VAL(strtod(buf, NULL));
  }
  double scale = pow(10, (double)-digits);
  return FLOAT_VAL(nearbyint(x / scale) * scale);
}

/* ---- the compile hook ---- */

static ObjFunction *compile_hook(AgVM *vm, const char *source, const char *file) {
  CompileOptions opts = {file, false, stderr, false, false};
  const char *no_color = getenv("NO_COLOR");
  opts.color = isatty(2) && (no_color == NULL || no_color[0] == '\0');
  CompileResult r = compile_source(vm, source, &opts);
  return r.error_count > 0 ? NULL : r.function;
}

/* ---- installation ---- */

void lib_set_args(AgVM *vm, const char *script, int argc, char **argv) {
  ObjList *list = obj_new_list(vm);
  vm->host.args = list;
  for (int i = 0; i < argc; i++) obj_list_append(vm, list, OBJ_VAL(obj_string(vm, argv[i])));
  HELP("args", HELP_BUILTINS, 0,
       "args",
       "The list of command-line arguments given after the script's name (`ag train.ag 10` "
       "gives [\"10\"]).",
       "print(len(args) >= 0)")
  vm_define_builtin(vm, "args", OBJ_VAL(list));
  ObjList *with_script = obj_new_list(vm);
  vm->host.argv = with_script;
  obj_list_append(vm, with_script, OBJ_VAL(obj_string(vm, script != NULL ? script : "")));
  for (int i = 0; i < argc; i++) obj_list_append(vm, with_script, list->items[i]);
}

static ObjInstance *make_stream(AgVM *vm, ObjClass *klass, const char *name) {
  ObjInstance *s = obj_new_instance(vm, klass);
  vm_push_root(vm, OBJ_VAL(s));
  table_set(vm, &s->fields, OBJ_VAL(obj_string(vm, "name")), OBJ_VAL(obj_string(vm, name)));
  vm_define_builtin(vm, name, OBJ_VAL(s));
  vm_pop_root(vm);
  return s;
}

static void install_streams(AgVM *vm) {
  ObjClass *file = obj_new_class(vm, obj_string(vm, "File"));
  vm_push_root(vm, OBJ_VAL(file));
  vm_add_method(vm, &file->methods, "write", lib_stream_write, 0, -1, false);
  vm_add_method(vm, &file->methods, "flush", lib_stream_flush, 0, 0, false);
  HELP("stdout", HELP_BUILTINS, 0,
       "stdout",
       "The standard output stream, for print(..., file=stdout).",
       "print(\"to stdout\", file=stdout)")
  HELP("stderr", HELP_BUILTINS, 0,
       "stderr",
       "The standard error stream: print(..., file=stderr) writes warnings and diagnostics.",
       "print(\"a warning\", file=stderr)")
  vm->core.stdout_obj = make_stream(vm, file, "stdout");
  vm->core.stderr_obj = make_stream(vm, file, "stderr");
  vm_pop_root(vm);
}

static void install_constants(AgVM *vm) {
  HELP("pi", HELP_BUILTINS, 0,
       "pi",
       "The number pi (3.141592653589793).",
       "print(pi)")
  vm_define_builtin(vm, "pi", FLOAT_VAL(3.14159265358979323846));
  HELP("inf", HELP_BUILTINS, 0,
       "inf",
       "Positive infinity; -inf is negative infinity.",
       "print(inf > 1e308, -inf)")
  vm_define_builtin(vm, "inf", FLOAT_VAL(INFINITY));
  HELP("nan", HELP_BUILTINS, 0,
       "nan",
       "Not-a-number (never equal to itself).",
       "print(nan == nan)")
  vm_define_builtin(vm, "nan", FLOAT_VAL(NAN));
}

static void install_functions(AgVM *vm) {
  vm_define_native(vm, "print", lib_print, 0, -1, true);
  vm_define_native(vm, "input", lib_input, 0, 1, false);
  vm_define_native(vm, "len", lib_len, 1, 1, false);
  vm_define_native(vm, "range", lib_range, 1, 3, false);
  vm_define_native(vm, "divmod", lib_divmod, 2, 2, false);
  vm_define_native(vm, "sorted", lib_sorted, 1, 1, true);
  vm_define_native(vm, "str", lib_str, 0, 1, false);
  vm_define_native(vm, "repr", lib_repr, 1, 1, false);
  vm_define_native(vm, "format", lib_format, 1, 2, false);
  vm_define_native(vm, "num", lib_num, 1, 1, false);
  /* float and bool are dtypes too (SPEC §11): calling those dtypes converts.
   * int stays a function, which a dtype argument takes as int64 (lib_dtype),
   * as PyTorch takes Python's int. */
  vm->core.dtype_call[DT_INT64] = OBJ_VAL(vm_define_native(vm, "int", lib_int, 0, 1, false));
  vm->core.dtype_call[DT_FLOAT32] = vm->core.dtype_call[DT_FLOAT64] =
      OBJ_VAL(obj_new_native(vm, "float", lib_float, 0, 1, false));
  vm->core.dtype_call[DT_BOOL] = OBJ_VAL(obj_new_native(vm, "bool", lib_bool, 0, 1, false));
  vm_define_native(vm, "type", lib_type, 1, 1, false);
  vm_define_native(vm, "isinstance", lib_isinstance, 2, 2, false);
  vm_define_native(vm, "vars", lib_vars, 1, 1, false);
  vm_define_native(vm, "assert", lib_assert, 1, 2, false);
  vm_define_native(vm, "error", lib_error, 1, 1, false);
  vm_define_native(vm, "clock", lib_clock, 0, 0, false);
  vm_define_native(vm, "exit", lib_exit, 0, 1, false);
  vm_define_native(vm, "min", lib_min, 1, -1, true);
  vm_define_native(vm, "max", lib_max, 1, -1, true);
  vm_define_native(vm, "sum", lib_sum, 1, -1, false);
  vm_define_native(vm, "abs", lib_abs, 1, 1, false);
  vm_define_native(vm, "round", lib_round, 1, 2, false);
  vm_define_native(vm, "floor", lib_floor, 1, 1, false);
  vm_define_native(vm, "ceil", lib_ceil, 1, 1, false);
  vm_define_native(vm, "sqrt", lib_sqrt, 1, 1, false);
  vm_define_native(vm, "exp", lib_exp, 1, 1, false);
  vm_define_native(vm, "log", lib_log, 1, 1, false);
  vm_define_native(vm, "sin", lib_sin, 1, 1, false);
  vm_define_native(vm, "cos", lib_cos, 1, 1, false);
  vm_define_native(vm, "tan", lib_tan, 1, 1, false);
  vm_define_native(vm, "tanh", lib_tanh, 1, 1, false);
  vm_define_native(vm, "erf", lib_erf, 1, 1, false);
}

void lib_install_builtins(AgVM *vm) {
  vm->gc.paused++; /* nothing made here is rooted until it is bound */
  vm->plugins.compile = compile_hook;
  install_functions(vm);
  install_constants(vm);
  install_streams(vm);
  lib_install_list_methods(vm);
  vm_add_method(vm, &vm->core.list_methods, "sort", lib_list_sort, 0, 0, true);
  lib_install_map_methods(vm);
  lib_install_string_methods(vm);
  lib_install_set_methods(vm);
  lib_install_seq_builtins(vm);
  lib_install_files(vm);
  if (vm->host.args == NULL) lib_set_args(vm, NULL, 0, NULL);
  vm->gc.paused--;
}
