/* table.c — the insertion-ordered hash table (see table.h). */
#include "vm/table.h"

#include <string.h>

#include "vm/memory.h"
#include "vm/object.h"
#include "vm/vm.h"

void table_init(Table *t) {
  t->count = 0;
  t->used = 0;
  t->capacity = 0;
  t->index_mask = -1;
  t->entries = NULL;
  t->index = NULL;
}

void table_free(AgVM *vm, Table *t) {
  AG_FREE_ARRAY(vm, TableEntry, t->entries, t->capacity);
  if (t->index) AG_FREE_ARRAY(vm, int64_t, t->index, t->index_mask + 1);
  table_init(t);
}

static uint32_t hash_bits(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (uint32_t)x;
}

/* Tuples nested deeper than this hash by their outer levels only (equal
 * tuples still hash alike; a tuple cannot contain itself). */
#define TUPLE_HASH_DEPTH 32

/* A tuple hashes by its items, so equal tuples are one key. */
static uint32_t tuple_hash(const ObjList *t, int depth) {
  uint64_t h = 0x345678u + (uint64_t)t->count;
  if (depth > TUPLE_HASH_DEPTH) return hash_bits(h);
  for (int i = 0; i < t->count; i++) {
    Value v = t->items[i];
    h = h * 1000003u ^ (IS_TUPLE(v) ? tuple_hash(AS_TUPLE(v), depth + 1) : table_hash_value(v));
  }
  return hash_bits(h);
}

/* Numbers hash by value (vm_number_key_bits), so 1, 1.0 and true (and 0,
 * -0.0 and false) are one key, as in Python. */
uint32_t table_hash_value(Value key) {
  if (IS_SMALLINT(key)) return hash_bits((uint64_t)AS_SMALLINT(key));
  if (IS_OBJ(key)) {
    if (AS_OBJ(key)->type == OBJ_STRING) return AS_STRING(key)->hash;
    if (AS_OBJ(key)->type == OBJ_INT) return hash_bits((uint64_t)AS_INT(key));
    if (AS_OBJ(key)->type == OBJ_TUPLE) return tuple_hash(AS_TUPLE(key), 0);
    return hash_bits((uint64_t)(uintptr_t)AS_OBJ(key));
  }
  if (IS_FLOAT(key) || IS_BOOL(key)) return hash_bits(vm_number_key_bits(key));
  return hash_bits(key);
}

static bool is_numeric_key(Value v) { return IS_NUMBER(v) || IS_BOOL(v); }

/* The equality of every key but a tuple: identity, or numbers by value. */
static inline bool plain_keys_equal(Value a, Value b) {
  if (a == b) return true;
  return is_numeric_key(a) && is_numeric_key(b) && vm_numbers_equal(a, b);
}

bool table_keys_equal(Value a, Value b) {
  return plain_keys_equal(a, b) || (IS_TUPLE(a) && IS_TUPLE(b) && vm_values_equal(a, b));
}

/* The walk of find_position with the key equality `eq`, specialised for
 * each: only a tuple key pays for comparing tuples by value. */
static inline __attribute__((always_inline)) int find_with(const Table *t, Value key,
                                                            bool (*eq)(Value, Value)) {
  if (t->index == NULL) {
    for (int i = 0; i < t->used; i++) {
      if (eq(t->entries[i].key, key)) return i;
    }
    return -1;
  }
  uint32_t hash = table_hash_value(key);
  uint32_t slot = hash & (uint32_t)t->index_mask;
  for (;;) {
    int64_t tagged = t->index[slot];
    if (tagged == -1) return -1;
    int pos = (int)(tagged & 0xffffffff);
    if ((uint32_t)(tagged >> 32) == hash && eq(t->entries[pos].key, key)) return pos;
    slot = (slot + 1) & (uint32_t)t->index_mask;
  }
}

static int find_tuple_position(const Table *t, Value key) { return find_with(t, key, table_keys_equal); }

/* A tuple missed by identity is looked for again by value: only misses pay
 * for the test. */
static int find_position(const Table *t, Value key) {
  int pos = find_with(t, key, plain_keys_equal);
  return pos >= 0 || !IS_TUPLE(key) ? pos : find_tuple_position(t, key);
}

TableEntry *table_find(const Table *t, Value key) {
  if (t->count == 0) return NULL;
  int pos = find_position(t, key);
  return pos < 0 ? NULL : &t->entries[pos];
}

bool table_get(const Table *t, Value key, Value *out) {
  TableEntry *e = table_find(t, key);
  if (e == NULL) return false;
  *out = e->value;
  return true;
}

static void index_insert(Table *t, Value key, int32_t pos) {
  uint32_t hash = table_hash_value(key);
  uint32_t slot = hash & (uint32_t)t->index_mask;
  while (t->index[slot] != -1) slot = (slot + 1) & (uint32_t)t->index_mask;
  t->index[slot] = (int64_t)((uint64_t)hash << 32 | (uint32_t)pos);
}

/* Compacts tombstones away, resizes the entry array to hold `capacity`, and
 * rebuilds the index when the table is large enough to need one. */
static void rebuild(AgVM *vm, Table *t, int capacity) {
  /* No collection while the arrays are swapped: one would shrink this very
   * table when it is the intern set (remove_white_strings), freeing the
   * entries being indexed below. */
  vm->gc.paused++;
  TableEntry *entries = AG_ALLOCATE(vm, TableEntry, capacity);
  int n = 0;
  for (int i = 0; i < t->used; i++) {
    if (!IS_UNDEF(t->entries[i].key)) entries[n++] = t->entries[i];
  }
  AG_FREE_ARRAY(vm, TableEntry, t->entries, t->capacity);
  if (t->index) AG_FREE_ARRAY(vm, int64_t, t->index, t->index_mask + 1);
  t->entries = entries;
  t->capacity = capacity;
  t->used = n;
  t->count = n;
  t->index = NULL;
  t->index_mask = -1;
  if (capacity > TABLE_LINEAR_MAX) {
    int size = 16;
    while (size < capacity * 2) size *= 2;
    t->index = AG_ALLOCATE(vm, int64_t, size);
    memset(t->index, 0xff, sizeof(int64_t) * (size_t)size);
    t->index_mask = size - 1;
    for (int i = 0; i < n; i++) index_insert(t, entries[i].key, i);
  }
  vm->gc.paused--;
}

bool table_set(AgVM *vm, Table *t, Value key, Value value) {
  TableEntry *e = table_find(t, key);
  if (e != NULL) {
    e->value = value;
    return false;
  }
  if (t->used == t->capacity) {
    /* Grow only when live entries fill half or more; else compacting is enough. */
    int cap = t->count * 2 >= t->capacity ? AG_GROW_CAPACITY(t->capacity) : t->capacity;
    if (cap < 4) cap = 4;
    /* The new pair may be reachable from nowhere else yet. */
    vm_push_root(vm, key);
    vm_push_root(vm, value);
    rebuild(vm, t, cap);
    vm_pop_roots(vm, 2);
  }
  int pos = t->used++;
  t->entries[pos].key = key;
  t->entries[pos].value = value;
  t->count++;
  if (t->index) index_insert(t, key, pos);
  return true;
}

/* Gives back the room of removed entries once live ones fill at most a
 * quarter of the table, in place: the entries move down in order, the
 * arrays shrink (shrinking allocates nothing, so this may run inside a
 * collection) and the index is rebuilt. */
void table_shrink(AgVM *vm, Table *t) {
  int capacity = t->count * 2 < TABLE_SHRINK_MIN ? TABLE_SHRINK_MIN : t->count * 2;
  if (t->capacity < 2 * capacity) return;
  int n = 0;
  for (int i = 0; i < t->used; i++) {
    if (!IS_UNDEF(t->entries[i].key)) t->entries[n++] = t->entries[i];
  }
  t->entries = AG_GROW_ARRAY(vm, TableEntry, t->entries, t->capacity, capacity);
  t->capacity = capacity;
  t->used = t->count = n;
  if (t->index == NULL) return; /* (a table this large always has one) */
  int size = 16; /* the positions moved: the index is rebuilt, smaller if it can be */
  while (size < capacity * 2) size *= 2;
  if (size < t->index_mask + 1) {
    t->index = AG_GROW_ARRAY(vm, int64_t, t->index, t->index_mask + 1, size);
    t->index_mask = size - 1;
  }
  memset(t->index, 0xff, sizeof(int64_t) * (size_t)(t->index_mask + 1));
  for (int i = 0; i < n; i++) index_insert(t, t->entries[i].key, i);
}

bool table_remove(Table *t, Value key) {
  TableEntry *e = table_find(t, key);
  if (e == NULL) return false;
  /* The index keeps pointing at the tombstone, so probe chains stay intact. */
  e->key = UNDEF_VAL;
  e->value = NIL_VAL;
  t->count--;
  return true;
}

void table_add_all(AgVM *vm, const Table *from, Table *to) {
  for (int i = 0; i < from->used; i++) {
    const TableEntry *e = &from->entries[i];
    if (!IS_UNDEF(e->key)) table_set(vm, to, e->key, e->value);
  }
}

static bool string_matches(Value key, const char *chars, int length, uint32_t hash) {
  if (!IS_OBJ(key) || AS_OBJ(key)->type != OBJ_STRING) return false;
  ObjString *s = AS_STRING(key);
  return s->hash == hash && s->length == length && memcmp(s->chars, chars, (size_t)length) == 0;
}

ObjString *table_find_string(const Table *t, const char *chars, int length, uint32_t hash) {
  if (t->count == 0) return NULL;
  if (t->index == NULL) {
    for (int i = 0; i < t->used; i++) {
      if (string_matches(t->entries[i].key, chars, length, hash)) return AS_STRING(t->entries[i].key);
    }
    return NULL;
  }
  uint32_t slot = hash & (uint32_t)t->index_mask;
  for (;;) {
    int64_t tagged = t->index[slot];
    if (tagged == -1) return NULL;
    int pos = (int)(tagged & 0xffffffff);
    if ((uint32_t)(tagged >> 32) == hash && string_matches(t->entries[pos].key, chars, length, hash)) {
      return AS_STRING(t->entries[pos].key);
    }
    slot = (slot + 1) & (uint32_t)t->index_mask;
  }
}
