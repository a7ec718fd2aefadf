/* builtins_set.c — methods of sets (SPEC §5): add remove discard contains
 * union intersection difference copy clear. */
#include "stdlib/builtins_internal.h"
#include "vm/internal.h"

HELP("set.add", HELP_METHODS, 0,
     "s.add(v)",
     "Adds v to the set (nothing happens when it is there already).",
     "let s = {1}\n"
     "s.add(2)\n"
     "s.add(1)\n"
     "print(s)")

LIB_NATIVE(set_add) { return vm_set_add(vm, AS_SET(self), args[0]) ? NIL_VAL : VM_EXCEPTION; }

HELP("set.remove", HELP_METHODS, 0,
     "s.remove(v)",
     "Removes v; an error when it is not in the set (see discard).",
     "let s = {1, 2}\n"
     "s.remove(1)\n"
     "print(s)")

LIB_NATIVE(set_remove) {
  int found = vm_map_delete(vm, AS_SET(self), args[0], NULL);
  if (found != 0) return found < 0 ? VM_EXCEPTION : NIL_VAL;
  char shown[128];
  vm_short_repr(vm, args[0], shown, sizeof shown);
  return vm_raise(vm, VM_ERR_KEY, "set.remove(x): %s is not in the set", shown);
}

HELP("set.discard", HELP_METHODS, 0,
     "s.discard(v)",
     "Removes v when it is in the set.",
     "let s = {1}\n"
     "s.discard(5)\n"
     "print(s)")

LIB_NATIVE(set_discard) { return vm_map_delete(vm, AS_SET(self), args[0], NULL) < 0 ? VM_EXCEPTION : NIL_VAL; }

HELP("set.contains", HELP_METHODS, 0,
     "s.contains(v)",
     "True when v is in the set (the same as `v in s`).",
     "print({1, 2}.contains(2))")

LIB_NATIVE(set_contains) {
  int found = vm_map_find(vm, AS_SET(self), args[0], NULL);
  return found < 0 ? VM_EXCEPTION : BOOL_VAL(found);
}

HELP("set.union", HELP_METHODS, 0,
     "s.union(other)",
     "A new set of the members of s, then those of the iterable other (also s | other "
     "for two sets).",
     "print({1, 2}.union([2, 3]))")

LIB_NATIVE(set_union) { return vm_set_union(vm, AS_SET(self), args[0]); }

HELP("set.intersection", HELP_METHODS, 0,
     "s.intersection(other)",
     "A new set of the members of s that are also in the iterable other (also s & other "
     "for two sets).",
     "print({1, 2, 3}.intersection({2, 3, 4}))")

LIB_NATIVE(set_intersection) { return vm_set_filter(vm, AS_SET(self), args[0], true); }

HELP("set.difference", HELP_METHODS, 0,
     "s.difference(other)",
     "A new set of the members of s that are not in the iterable other (also s - other "
     "for two sets; s -= other removes them from s).",
     "print({1, 2, 3}.difference([2]), {1, 2} - {1})")

LIB_NATIVE(set_difference) { return vm_set_filter(vm, AS_SET(self), args[0], false); }

HELP("set.copy", HELP_METHODS, 0,
     "s.copy()",
     "A shallow copy of the set.",
     "print({1, 2}.copy())")

LIB_NATIVE(set_copy) { return vm_new_set_of(vm, self); }

HELP("set.clear", HELP_METHODS, 0,
     "s.clear()",
     "Removes every member.",
     "let s = {1, 2}\n"
     "s.clear()\n"
     "print(s)")

LIB_NATIVE(set_clear) {
  table_free(vm, &AS_SET(self)->table);
  AS_SET(self)->by_hash = NULL;
  return NIL_VAL;
}

void lib_install_set_methods(AgVM *vm) {
  Table *t = &vm->core.set_methods;
  vm_add_method(vm, t, "add", set_add, 1, 1, false);
  vm_add_method(vm, t, "remove", set_remove, 1, 1, false);
  vm_add_method(vm, t, "discard", set_discard, 1, 1, false);
  vm_add_method(vm, t, "contains", set_contains, 1, 1, false);
  vm_add_method(vm, t, "union", set_union, 1, 1, false);
  vm_add_method(vm, t, "intersection", set_intersection, 1, 1, false);
  vm_add_method(vm, t, "difference", set_difference, 1, 1, false);
  vm_add_method(vm, t, "copy", set_copy, 0, 0, false);
  vm_add_method(vm, t, "clear", set_clear, 0, 0, false);
}
