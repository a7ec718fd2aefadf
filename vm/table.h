/* table.h — the VM's one hash table: insertion-ordered, keyed by Value.
 *
 * Used for maps, instance fields, class methods, module namespaces and the
 * string intern set. Entries live in a dense array in insertion order (so
 * maps and fields iterate in the order they were set, as SPEC §3 and
 * nn.Module's parameter order need); removing an entry leaves a tombstone
 * (key UNDEF) that the next rebuild compacts away, so order is kept.
 *
 * Small tables (up to TABLE_LINEAR_MAX entries) have no index and are
 * searched linearly: an instance with a few fields costs one allocation and
 * no hashing. Larger ones add an open-addressing index (linear probing, load
 * factor at most 1/2) of positions into the entry array, each tagged with
 * its key's hash.
 *
 * Keys are strings (interned, so compared by pointer), numbers (compared by
 * value; -0 and 0 are the same key) and booleans. Other values hash by
 * identity.
 */
#ifndef AG_TABLE_H
#define AG_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "value.h"

typedef struct AgVM AgVM;
typedef struct ObjString ObjString;

#define TABLE_LINEAR_MAX 8

typedef struct {
  Value key; /* UNDEF_VAL: a removed entry (tombstone) */
  Value value;
} TableEntry;

typedef struct {
  int count;    /* live entries */
  int used;     /* entries[0..used) in use, tombstones included */
  int capacity; /* of entries */
  int index_mask;   /* index size - 1, or -1 when there is no index */
  TableEntry *entries;
  /* -1 = empty, else (hash << 32 | position in entries): the stored hash
   * lets a probe skip non-matching slots without touching the entries. */
  int64_t *index;
} Table;

void table_init(Table *t);
void table_free(AgVM *vm, Table *t);
uint32_t table_hash_value(Value key);
bool table_keys_equal(Value a, Value b);
/* Returns the entry for key, or NULL. */
TableEntry *table_find(const Table *t, Value key);
bool table_get(const Table *t, Value key, Value *out);
/* Inserts or overwrites; true when the key is new. */
bool table_set(AgVM *vm, Table *t, Value key, Value value);
bool table_remove(Table *t, Value key);
/* Shrinks t to twice its live entries (at least TABLE_SHRINK_MIN) when they
 * fill at most a quarter of it; allocates nothing. */
#define TABLE_SHRINK_MIN 64
void table_shrink(AgVM *vm, Table *t);
void table_add_all(AgVM *vm, const Table *from, Table *to);
/* The interned string with these bytes, or NULL (the intern set's lookup). */
ObjString *table_find_string(const Table *t, const char *chars, int length, uint32_t hash);
/* Iteration: for (int i = 0; i < t->used; i++) if (!IS_UNDEF(t->entries[i].key)) ... */

#endif
