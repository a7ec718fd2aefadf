/* keys.c — map keys and set members that an instance's hash/eq decide
 * (SPEC §3): an instance whose class defines `hash` is the same key as a
 * stored instance with an equal hash() for which `eq` says true, as in
 * Python. Other keys (strings, numbers, booleans, nil, instances without
 * hash, by identity) go straight to the table.
 *
 * The table itself keys by identity; a map with such keys keeps a side map
 * `by_hash` from hash() to the stored keys with that hash, so a lookup calls
 * hash() once and eq() only on the keys that share its hash. */
#include "vm/internal.h"

static bool hashes_by_method(AgVM *vm, Value key) { return vm_has_method(vm, key, VM_M_HASH); }

/* key.hash() as a number key of by_hash; false after throwing. */
static bool user_hash(AgVM *vm, Value key, Value *out) {
  Value h = vm_call_method_named(vm, key, VM_M_HASH, 0, NULL);
  if (IS_EXCEPTION(h)) return false;
  if (!IS_INT(h)) {
    vm_raise(vm, VM_ERR_TYPE, "%s.hash() should return an integer, not %s", vm_type_name(key), vm_type_name(h));
    return false;
  }
  *out = h;
  return true;
}

/* The keys stored with hash h (a list in m->by_hash), or NULL. */
static ObjList *bucket(ObjMap *m, Value h) {
  Value l;
  if (m->by_hash == NULL || !table_get(&m->by_hash->table, h, &l)) return NULL;
  return AS_LIST(l);
}

/* The stored key equal to key: 1 (in *stored), 0 none, -1 after throwing.
 * *h is key's hash for a caller that inserts. */
static int find_hashed(AgVM *vm, ObjMap *m, Value key, Value *h, Value *stored) {
  if (!user_hash(vm, key, h)) return -1;
  ObjList *l = bucket(m, *h);
  for (int i = 0; l != NULL && i < l->count; i++) {
    Value candidate = l->items[i];
    int eq = vm_equal(vm, key, candidate);
    if (eq < 0) return -1;
    if (eq) {
      *stored = candidate;
      return 1;
    }
  }
  return 0;
}

int vm_map_find(AgVM *vm, ObjMap *m, Value key, Value *value) {
  Value h, stored = key;
  if (hashes_by_method(vm, key)) {
    int found = find_hashed(vm, m, key, &h, &stored);
    if (found <= 0) return found;
  }
  Value v;
  if (!table_get(&m->table, stored, &v)) return 0;
  if (value) *value = v;
  return 1;
}

bool vm_map_put(AgVM *vm, ObjMap *m, Value key, Value value) {
  if (!vm_is_valid_map_key(key)) {
    vm_map_key_error(vm, key);
    return false;
  }
  if (!hashes_by_method(vm, key)) {
    table_set(vm, &m->table, key, value);
    return true;
  }
  Value h, stored = key;
  int found = find_hashed(vm, m, key, &h, &stored);
  if (found < 0) return false;
  if (found == 0) {
    vm_push_root(vm, key);
    vm_push_root(vm, value);
    if (m->by_hash == NULL) m->by_hash = obj_new_map(vm);
    ObjList *l = bucket(m, h);
    if (l == NULL) {
      l = obj_new_list(vm);
      table_set(vm, &m->by_hash->table, h, OBJ_VAL(l));
    }
    obj_list_append(vm, l, key);
    vm_pop_roots(vm, 2);
  }
  table_set(vm, &m->table, stored, value);
  return true;
}

int vm_map_delete(AgVM *vm, ObjMap *m, Value key, Value *value) {
  Value h, stored = key;
  if (hashes_by_method(vm, key)) {
    int found = find_hashed(vm, m, key, &h, &stored);
    if (found <= 0) return found;
    ObjList *l = bucket(m, h);
    for (int i = 0; i < l->count; i++) {
      if (l->items[i] != stored) continue;
      l->items[i] = l->items[--l->count];
      break;
    }
  }
  Value v;
  if (!table_get(&m->table, stored, &v)) return 0;
  if (value) *value = v;
  table_remove(&m->table, stored);
  return 1;
}

bool vm_map_put_all(AgVM *vm, ObjMap *dst, ObjMap *src) {
  if (src->by_hash == NULL) { /* no key needs hash(): the entries as they are */
    table_add_all(vm, &src->table, &dst->table);
    return true;
  }
  for (int i = 0; i < src->table.used; i++) {
    TableEntry *e = &src->table.entries[i];
    if (!IS_UNDEF(e->key) && !vm_map_put(vm, dst, e->key, e->value)) return false;
  }
  return true;
}
