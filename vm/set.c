/* set.c — the set type (SPEC §3): an insertion-ordered table whose keys are
 * the members (values nil), so members follow the rules of map keys.
 * Literals `{1, 2}` (OP_NEW_SET), set(iterable), and the operators `-`
 * (difference), `&` (intersection), `|` (union), `^` (symmetric difference)
 * with their in-place forms `-= &= |= ^=`, `==`, `in`, len() and iteration;
 * the methods live in stdlib/builtins_set.c. */
#include "vm/internal.h"

bool vm_set_add(AgVM *vm, ObjMap *set, Value v) {
  if (!vm_is_valid_map_key(v)) {
    vm_raise(vm, VM_ERR_TYPE, "unhashable type: '%s' (set members must be strings, numbers, booleans, nil or instances)",
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

/* The members of b that are not in a, added to out. */
static bool add_missing(AgVM *vm, ObjMap *out, ObjMap *a, ObjMap *b) {
  for (int i = 0; i < b->table.used; i++) {
    Value k = b->table.entries[i].key;
    if (IS_UNDEF(k)) continue;
    int in = vm_map_find(vm, a, k, NULL);
    if (in < 0 || (in == 0 && !vm_map_put(vm, out, k, NIL_VAL))) return false;
  }
  return true;
}

/* a ^ b: the members of exactly one of them, a's first, in their orders. */
static Value symmetric_difference(AgVM *vm, ObjMap *a, ObjMap *b) {
  Value out = vm_set_filter(vm, a, OBJ_VAL(b), false);
  if (IS_EXCEPTION(out)) return out;
  vm_push_root(vm, out);
  bool ok = add_missing(vm, AS_SET(out), a, b);
  vm_pop_root(vm);
  return ok ? out : VM_EXCEPTION;
}

/* a - b, a & b, a | b, a ^ b on two sets; UNDEF_VAL for any other operator or operand. */
Value vm_set_binary(AgVM *vm, int op, Value a, Value b) {
  if (!IS_SET(a) || !IS_SET(b)) return UNDEF_VAL;
  if (op == OP_SUBTRACT) return vm_set_filter(vm, AS_SET(a), b, false);
  if (op == OP_BIT_AND) return vm_set_filter(vm, AS_SET(a), b, true);
  if (op == OP_BIT_OR) return vm_set_union(vm, AS_SET(a), b);
  if (op == OP_BIT_XOR) return symmetric_difference(vm, AS_SET(a), AS_SET(b));
  return UNDEF_VAL;
}

/* Removes from s the members of b (keep = false) or those not in b (true). */
static bool remove_members(AgVM *vm, ObjMap *s, ObjMap *b, bool keep) {
  ObjList *doomed = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(doomed));
  bool ok = true;
  for (int i = 0; ok && i < s->table.used; i++) {
    Value k = s->table.entries[i].key;
    if (IS_UNDEF(k)) continue;
    int in = vm_map_find(vm, b, k, NULL);
    ok = in >= 0;
    if (ok && in != keep) obj_list_append(vm, doomed, k);
  }
  for (int i = 0; ok && i < doomed->count; i++) ok = vm_map_delete(vm, s, doomed->items[i], NULL) >= 0;
  vm_pop_root(vm);
  return ok;
}

/* s -= t, s &= t, s |= t, s ^= t change s itself (t a set, as Python's). */
Value vm_set_inplace(AgVM *vm, int op, Value a, Value b) {
  bool set_op = op == OP_SUBTRACT || vm_is_bitwise_op(op);
  if (!set_op || !IS_SET(b)) return vm_binary_op(vm, op, a, b);
  ObjMap *s = AS_SET(a), *t = AS_SET(b);
  bool ok;
  if (op == OP_SUBTRACT) ok = remove_members(vm, s, t, false);
  else if (op == OP_BIT_AND) ok = remove_members(vm, s, t, true);
  else if (op == OP_BIT_OR) ok = vm_map_put_all(vm, s, t);
  else { /* ^=: what both hold goes, what only t holds comes */
    Value common = vm_set_filter(vm, s, b, true);
    if (IS_EXCEPTION(common)) return common;
    vm_push_root(vm, common);
    ok = add_missing(vm, s, s, t) && remove_members(vm, s, AS_SET(common), false);
    vm_pop_root(vm);
  }
  return ok ? a : VM_EXCEPTION;
}
