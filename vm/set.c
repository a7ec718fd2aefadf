/* set.c — the set type (SPEC §3): an insertion-ordered table whose keys are
 * the members (values nil), so members follow the rules of map keys.
 * Literals `{1, 2}` (OP_NEW_SET), set(iterable), and the operators `-` (difference), `&` (intersection), `|` (union),
 * `==`, `in`, len() and iteration; the methods live in stdlib/builtins_set.c. */
#include "vm/internal.h"

bool vm_set_add(AgVM *vm, ObjMap *set, Value v) {
  if (!vm_is_valid_map_key(v)) {
    vm_throw_error(vm, "unhashable type: '%s' (set members must be strings, numbers, booleans, nil or instances)",
                   vm_type_name(v));
    return false;
  }
  return vm_map_put(vm, set, v, NIL_VAL);
}

Value vm_make_set(AgVM *vm, const Value *items, int n) {
  ObjMap *s = obj_new_set(vm);
  vm_push_root(vm, OBJ_VAL(s));
  bool ok = true;
  for (int i = 0; i < n && ok; i++) ok = vm_set_add(vm, s, items[i]);
  vm_pop_root(vm);
  return ok ? OBJ_VAL(s) : VM_EXCEPTION;
}

bool vm_set_add_all(AgVM *vm, ObjMap *set, Value iterable) {
  if (IS_SET(iterable)) return vm_map_put_all(vm, set, AS_SET(iterable));
  ObjList *l = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(l));
  bool ok = vm_extend_list(vm, l, iterable);
  for (int i = 0; i < l->count && ok; i++) ok = vm_set_add(vm, set, l->items[i]);
  vm_pop_root(vm);
  return ok;
}

Value vm_new_set_of(AgVM *vm, Value iterable) {
  ObjMap *s = obj_new_set(vm);
  vm_push_root(vm, OBJ_VAL(s));
  bool ok = vm_set_add_all(vm, s, iterable);
  vm_pop_root(vm);
  return ok ? OBJ_VAL(s) : VM_EXCEPTION;
}

/* Members of a that are (keep = true) or are not (false) in b. */
Value vm_set_filter(AgVM *vm, ObjMap *a, Value b, bool keep) {
  Value other = IS_SET(b) ? b : vm_new_set_of(vm, b);
  if (IS_EXCEPTION(other)) return other;
  vm_push_root(vm, other);
  ObjMap *out = obj_new_set(vm);
  vm_push_root(vm, OBJ_VAL(out));
  for (int i = 0; i < a->table.used; i++) {
    Value k = a->table.entries[i].key;
    if (IS_UNDEF(k)) continue;
    int in = vm_map_find(vm, AS_SET(other), k, NULL);
    if (in < 0 || (in == keep && !vm_map_put(vm, out, k, NIL_VAL))) {
      vm_pop_roots(vm, 2);
      return VM_EXCEPTION;
    }
  }
  vm_pop_roots(vm, 2);
  return OBJ_VAL(out);
}

Value vm_set_union(AgVM *vm, ObjMap *a, Value b) {
  ObjMap *out = obj_new_set(vm);
  vm_push_root(vm, OBJ_VAL(out));
  bool ok = vm_map_put_all(vm, out, a) && vm_set_add_all(vm, out, b);
  vm_pop_root(vm);
  return ok ? OBJ_VAL(out) : VM_EXCEPTION;
}

/* a - b, a & b, a | b on two sets; UNDEF_VAL for any other operator or operand. */
Value vm_set_binary(AgVM *vm, int op, Value a, Value b) {
  if (!IS_SET(a) || !IS_SET(b)) return UNDEF_VAL;
  if (op == OP_SUBTRACT) return vm_set_filter(vm, AS_SET(a), b, false);
  if (op == OP_BIT_AND) return vm_set_filter(vm, AS_SET(a), b, true);
  if (op == OP_BIT_OR) return vm_set_union(vm, AS_SET(a), b);
  return UNDEF_VAL;
}

/* s -= t removes t's members from s itself. */
Value vm_set_inplace(AgVM *vm, int op, Value a, Value b) {
  if (op != OP_SUBTRACT || !IS_SET(b)) return vm_binary_op(vm, op, a, b);
  Table *other = &AS_SET(b)->table;
  for (int i = 0; i < other->used; i++) {
    if (!IS_UNDEF(other->entries[i].key) && vm_map_delete(vm, AS_SET(a), other->entries[i].key, NULL) < 0) {
      return VM_EXCEPTION;
    }
  }
  return a;
}
