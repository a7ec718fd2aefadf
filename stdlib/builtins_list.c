/* builtins_list.c — methods of lists: append pop insert extend index
 * contains count remove copy reverse (and sort, in builtins.c); tuples
 * share the ones that only read: index contains count. */
#include <math.h>

#include "stdlib/builtins_internal.h"
#include "vm/internal.h"

HELP("list.append", HELP_METHODS, 0,
     "xs.append(v)",
     "Adds v at the end of the list (in place); returns nil.",
     "let xs = [1]\n"
     "xs.append(2)\n"
     "print(xs)")

LIB_NATIVE(list_append) {
  obj_list_append(vm, AS_LIST(self), args[0]);
  return NIL_VAL;
}

/* An index for pop/insert: integral, negative counts from the end. */
static bool position_arg(AgVM *vm, const char *fname, const Value *args, int i, int64_t *out) {
  return lib_int_arg(vm, fname, args, i, out);
}

HELP("list.pop", HELP_METHODS, 0,
     "xs.pop(i=-1)",
     "Removes and returns the item at index i (the last by default).",
     "let xs = [1, 2, 3]\n"
     "print(xs.pop(), xs.pop(0), xs)")

LIB_NATIVE(list_pop) {
  ObjList *l = AS_LIST(self);
  if (l->count == 0) return vm_raise(vm, VM_ERR_INDEX, "pop from an empty list");
  int64_t i = l->count - 1;
  if (argc > 0) {
    int64_t given;
    if (!position_arg(vm, "pop", args, 0, &given)) return VM_EXCEPTION;
    if (!vm_normalize_index((double)given, l->count, &i)) {
      return vm_raise(vm, VM_ERR_INDEX, "pop index %lld out of range for length %d", (long long)given, l->count);
    }
  }
  Value v = l->items[i];
  for (int64_t j = i; j < l->count - 1; j++) l->items[j] = l->items[j + 1];
  l->count--;
  return v;
}

HELP("list.insert", HELP_METHODS, 0,
     "xs.insert(i, v)",
     "Inserts v before index i.",
     "let xs = [1, 3]\n"
     "xs.insert(1, 2)\n"
     "print(xs)")

LIB_NATIVE(list_insert) {
  ObjList *l = AS_LIST(self);
  int64_t i;
  if (!position_arg(vm, "insert", args, 0, &i)) return VM_EXCEPTION;
  if (i < 0) i += l->count;
  if (i < 0) i = 0;
  if (i > l->count) i = l->count;
  obj_list_append(vm, l, args[1]); /* grows; then shift into place */
  for (int64_t j = l->count - 1; j > i; j--) l->items[j] = l->items[j - 1];
  l->items[i] = args[1];
  return NIL_VAL;
}

HELP("list.extend", HELP_METHODS, 0,
     "xs.extend(other)",
     "Appends every item of another list.",
     "let xs = [1]\n"
     "xs.extend([2, 3])\n"
     "print(xs)")

LIB_NATIVE(list_extend) { return vm_extend_list(vm, AS_LIST(self), args[0]) ? NIL_VAL : VM_EXCEPTION; }

/* The position of the first item == v (an instance's eq decides), -1 when
 * there is none, -2 after throwing. */
static int find_item(AgVM *vm, ObjList *l, Value v) {
  for (int i = 0; i < l->count; i++) {
    int eq = vm_equal(vm, l->items[i], v);
    if (eq != 0) return eq < 0 ? -2 : i;
  }
  return -1;
}

static Value not_in_list(AgVM *vm, const char *fname, Value v, Value self) {
  char shown[96];
  vm_short_repr(vm, v, shown, sizeof shown);
  return vm_raise(vm, VM_ERR_VALUE, "%s%s is not in the %s", fname, shown, vm_type_name(self));
}

HELP("list.index", HELP_METHODS, 0,
     "xs.index(v)",
     "The index of the first item equal to v; an error if there is none.",
     "print([\"a\", \"b\"].index(\"b\"))")

LIB_NATIVE(list_index) {
  int i = find_item(vm, AS_LIST(self), args[0]);
  if (i == -2) return VM_EXCEPTION;
  return i < 0 ? not_in_list(vm, "", args[0], self) : INT_VAL(vm, i);
}

HELP("list.contains", HELP_METHODS, 0,
     "xs.contains(v)",
     "True when an item equals v (the same as `v in xs`).",
     "print([1, 2].contains(2), 3 in [1, 2])")

LIB_NATIVE(list_contains) {
  int i = find_item(vm, AS_LIST(self), args[0]);
  return i == -2 ? VM_EXCEPTION : BOOL_VAL(i >= 0);
}

HELP("list.count", HELP_METHODS, 0,
     "xs.count(v)",
     "How many items equal v.",
     "print([1, 2, 1].count(1))")

LIB_NATIVE(list_count) {
  ObjList *l = AS_LIST(self);
  int n = 0;
  for (int i = 0; i < l->count; i++) {
    int eq = vm_equal(vm, l->items[i], args[0]);
    if (eq < 0) return VM_EXCEPTION;
    n += eq;
  }
  return INT_VAL(vm, n);
}

HELP("list.remove", HELP_METHODS, 0,
     "xs.remove(v)",
     "Removes the first item equal to v; an error if there is none.",
     "let xs = [1, 2, 1]\n"
     "xs.remove(1)\n"
     "print(xs)")

/* Removes the first item == v, as Python's list.remove. */
LIB_NATIVE(list_remove) {
  ObjList *l = AS_LIST(self);
  int i = find_item(vm, l, args[0]);
  if (i == -2) return VM_EXCEPTION;
  if (i < 0) return not_in_list(vm, "list.remove(x): ", args[0], self);
  for (int j = i; j < l->count - 1; j++) l->items[j] = l->items[j + 1];
  l->count--;
  return NIL_VAL;
}

HELP("list.copy", HELP_METHODS, 0,
     "xs.copy()",
     "A shallow copy of the list.",
     "let a = [1, 2]\n"
     "let b = a.copy()\n"
     "b.append(3)\n"
     "print(a, b)")

LIB_NATIVE(list_copy) {
  ObjList *l = AS_LIST(self);
  ObjList *out = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(out));
  for (int i = 0; i < l->count; i++) obj_list_append(vm, out, l->items[i]);
  vm_pop_root(vm);
  return OBJ_VAL(out);
}

HELP("list.reverse", HELP_METHODS, 0,
     "xs.reverse()",
     "Reverses the list in place.",
     "let xs = [1, 2, 3]\n"
     "xs.reverse()\n"
     "print(xs)")

LIB_NATIVE(list_reverse) {
  ObjList *l = AS_LIST(self);
  for (int i = 0, j = l->count - 1; i < j; i++, j--) {
    Value t = l->items[i];
    l->items[i] = l->items[j];
    l->items[j] = t;
  }
  return NIL_VAL;
}

void lib_install_list_methods(AgVM *vm) {
  Table *t = &vm->core.list_methods;
  vm_add_method(vm, t, "append", list_append, 1, 1, false);
  vm_add_method(vm, t, "pop", list_pop, 0, 1, false);
  vm_add_method(vm, t, "insert", list_insert, 2, 2, false);
  vm_add_method(vm, t, "extend", list_extend, 1, 1, false);
  vm_add_method(vm, t, "index", list_index, 1, 1, false);
  vm_add_method(vm, t, "contains", list_contains, 1, 1, false);
  vm_add_method(vm, t, "count", list_count, 1, 1, false);
  vm_add_method(vm, t, "remove", list_remove, 1, 1, false);
  vm_add_method(vm, t, "copy", list_copy, 0, 0, false);
  vm_add_method(vm, t, "reverse", list_reverse, 0, 0, false);
  t = &vm->core.tuple_methods;
  vm_add_method(vm, t, "index", list_index, 1, 1, false);
  vm_add_method(vm, t, "contains", list_contains, 1, 1, false);
  vm_add_method(vm, t, "count", list_count, 1, 1, false);
}
