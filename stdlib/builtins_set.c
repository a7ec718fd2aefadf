/* builtins_set.c — methods of sets (SPEC §5): add remove discard contains
 * union intersection difference copy clear. */
#include "stdlib/builtins_internal.h"
#include "vm/internal.h"

LIB_NATIVE(set_add) { return vm_set_add(vm, AS_SET(self), args[0]) ? NIL_VAL : VM_EXCEPTION; }

LIB_NATIVE(set_remove) {
  int found = vm_map_delete(vm, AS_SET(self), args[0], NULL);
  if (found != 0) return found < 0 ? VM_EXCEPTION : NIL_VAL;
  char shown[128];
  vm_short_repr(vm, args[0], shown, sizeof shown);
  return vm_raise(vm, VM_ERR_KEY, "set.remove(x): %s is not in the set", shown);
}

LIB_NATIVE(set_discard) { return vm_map_delete(vm, AS_SET(self), args[0], NULL) < 0 ? VM_EXCEPTION : NIL_VAL; }

LIB_NATIVE(set_contains) {
  int found = vm_map_find(vm, AS_SET(self), args[0], NULL);
  return found < 0 ? VM_EXCEPTION : BOOL_VAL(found);
}
LIB_NATIVE(set_union) { return vm_set_union(vm, AS_SET(self), args[0]); }
LIB_NATIVE(set_intersection) { return vm_set_filter(vm, AS_SET(self), args[0], true); }
LIB_NATIVE(set_difference) { return vm_set_filter(vm, AS_SET(self), args[0], false); }
LIB_NATIVE(set_copy) { return vm_new_set_of(vm, self); }

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
