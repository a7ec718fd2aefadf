/* builtins_map.c — methods of maps: keys values items get has remove pop
 * update copy. */
#include "stdlib/builtins_internal.h"
#include "vm/internal.h"

typedef enum { WANT_KEYS, WANT_VALUES, WANT_ITEMS } MapView;

static Value map_view(AgVM *vm, ObjMap *m, MapView view) {
  ObjList *out = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(out));
  for (int i = 0; i < m->table.used; i++) {
    TableEntry *e = &m->table.entries[i];
    if (IS_UNDEF(e->key)) continue;
    Value v = view == WANT_KEYS ? e->key : view == WANT_VALUES ? e->value : obj_pair(vm, e->key, e->value);
    obj_list_append(vm, out, v);
  }
  vm_pop_root(vm);
  return OBJ_VAL(out);
}

HELP("map.keys", HELP_METHODS, 0,
     "m.keys()",
     "A list of the keys, in insertion order.",
     "print({\"a\": 1, \"b\": 2}.keys())")

LIB_NATIVE(map_keys) { return map_view(vm, AS_MAP(self), WANT_KEYS); }

HELP("map.values", HELP_METHODS, 0,
     "m.values()",
     "A list of the values, in insertion order.",
     "print({\"a\": 1, \"b\": 2}.values())")

LIB_NATIVE(map_values) { return map_view(vm, AS_MAP(self), WANT_VALUES); }

HELP("map.items", HELP_METHODS, 0,
     "m.items()",
     "A list of [key, value] pairs: `for k, v in m.items() { }`.",
     "for k, v in {\"lr\": 0.1}.items() { print(k, v) }")

LIB_NATIVE(map_items) { return map_view(vm, AS_MAP(self), WANT_ITEMS); }

HELP("map.get", HELP_METHODS, 0,
     "m.get(key, default=nil)",
     "The value for key, or default when the key is missing (m[key] would be an error).",
     "print({\"a\": 1}.get(\"b\", 0))")

LIB_NATIVE(map_get) {
  Value v;
  int found = vm_map_find(vm, AS_MAP(self), args[0], &v);
  if (found != 0) return found < 0 ? VM_EXCEPTION : v;
  return argc > 1 ? args[1] : NIL_VAL;
}

HELP("map.has", HELP_METHODS, 0,
     "m.has(key)",
     "True when the map holds key (the same as `key in m`).",
     "print({\"a\": 1}.has(\"a\"))")

LIB_NATIVE(map_has) {
  int found = vm_map_find(vm, AS_MAP(self), args[0], NULL);
  return found < 0 ? VM_EXCEPTION : BOOL_VAL(found);
}

static Value missing_key(AgVM *vm, Value key) {
  char shown[96];
  vm_short_repr(vm, key, shown, sizeof shown);
  return vm_raise(vm, VM_ERR_KEY, "key %s not found in map", shown);
}

HELP("map.remove", HELP_METHODS, 0,
     "m.remove(key)",
     "Removes key and returns its value.",
     "let m = {\"a\": 1, \"b\": 2}\n"
     "m.remove(\"a\")\n"
     "print(m)")

LIB_NATIVE(map_remove) {
  Value v;
  int found = vm_map_delete(vm, AS_MAP(self), args[0], &v);
  if (found != 0) return found < 0 ? VM_EXCEPTION : v;
  return missing_key(vm, args[0]);
}

HELP("map.pop", HELP_METHODS, 0,
     "m.pop(key, default)",
     "Removes key and returns its value; when key is missing, default if given, else an "
     "error.",
     "let m = {\"a\": 1}\n"
     "print(m.pop(\"a\"), m.pop(\"b\", 0), m)")

/* m.pop(k) removes and returns m[k]; m.pop(k, default) gives default when k is missing. */
LIB_NATIVE(map_pop) {
  Value v;
  int found = vm_map_delete(vm, AS_MAP(self), args[0], &v);
  if (found != 0) return found < 0 ? VM_EXCEPTION : v;
  return argc > 1 ? args[1] : missing_key(vm, args[0]);
}

HELP("map.update", HELP_METHODS, 0,
     "m.update(other)",
     "Sets every entry of the map other into m, in other's order.",
     "let m = {\"a\": 1}\n"
     "m.update({\"b\": 2, \"a\": 3})\n"
     "print(m)")

/* m.update(other): every entry of the map other, in its order. */
LIB_NATIVE(map_update) {
  if (!IS_MAP(args[0])) return vm_raise(vm, VM_ERR_TYPE, "update() expects a map, not %s", vm_type_name(args[0]));
  return vm_map_put_all(vm, AS_MAP(self), AS_MAP(args[0])) ? NIL_VAL : VM_EXCEPTION;
}

HELP("map.copy", HELP_METHODS, 0,
     "m.copy()",
     "A shallow copy of the map.",
     "print({\"a\": 1}.copy())")

LIB_NATIVE(map_copy) {
  ObjMap *out = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(out));
  bool ok = vm_map_put_all(vm, out, AS_MAP(self));
  vm_pop_root(vm);
  return ok ? OBJ_VAL(out) : VM_EXCEPTION;
}

void lib_install_map_methods(AgVM *vm) {
  Table *t = &vm->core.map_methods;
  vm_add_method(vm, t, "keys", map_keys, 0, 0, false);
  vm_add_method(vm, t, "values", map_values, 0, 0, false);
  vm_add_method(vm, t, "items", map_items, 0, 0, false);
  vm_add_method(vm, t, "get", map_get, 1, 2, false);
  vm_add_method(vm, t, "has", map_has, 1, 1, false);
  vm_add_method(vm, t, "remove", map_remove, 1, 1, false);
  vm_add_method(vm, t, "copy", map_copy, 0, 0, false);
  vm_add_method(vm, t, "pop", map_pop, 1, 2, false);
  vm_add_method(vm, t, "update", map_update, 1, 1, false);
}
