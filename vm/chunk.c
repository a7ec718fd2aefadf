/* chunk.c — growing a function's bytecode, line table and constant pool. */
#include "vm/chunk.h"

#include "vm/memory.h"
#include "vm/vm.h"

void chunk_init(Chunk *chunk) {
  chunk->count = 0;
  chunk->capacity = 0;
  chunk->code = NULL;
  chunk->lines = NULL;
  chunk->cols = NULL;
  chunk->const_count = 0;
  chunk->const_capacity = 0;
  chunk->constants = NULL;
  chunk->const_index = NULL;
  chunk->const_index_capacity = 0;
}

void chunk_free(AgVM *vm, Chunk *chunk) {
  AG_FREE_ARRAY(vm, uint8_t, chunk->code, chunk->capacity);
  AG_FREE_ARRAY(vm, int, chunk->lines, chunk->capacity);
  AG_FREE_ARRAY(vm, int, chunk->cols, chunk->capacity);
  AG_FREE_ARRAY(vm, Value, chunk->constants, chunk->const_capacity);
  AG_FREE_ARRAY(vm, int, chunk->const_index, chunk->const_index_capacity);
  chunk_init(chunk);
}

void chunk_write(AgVM *vm, Chunk *chunk, uint8_t byte, int line, int col) {
  if (chunk->count == chunk->capacity) {
    int old = chunk->capacity;
    chunk->capacity = AG_GROW_CAPACITY(old);
    chunk->code = AG_GROW_ARRAY(vm, uint8_t, chunk->code, old, chunk->capacity);
    chunk->lines = AG_GROW_ARRAY(vm, int, chunk->lines, old, chunk->capacity);
    chunk->cols = AG_GROW_ARRAY(vm, int, chunk->cols, old, chunk->capacity);
  }
  chunk->code[chunk->count] = byte;
  chunk->lines[chunk->count] = line;
  chunk->cols[chunk->count] = col;
  chunk->count++;
}

/* Numbers and strings are the constants worth sharing (functions, lists of
 * keyword names ... are added once each). */
static bool is_shared_constant(Value v) { return IS_NUMBER(v) || IS_STRING(v); }

/* A constant's hash is a mix of its bits: numbers are equal constants only
 * when their bits are (so 0 and -0 stay apart), and strings are interned,
 * so bit equality is string equality. */
static uint32_t constant_hash(Value v) {
  uint64_t h = v * 0x9e3779b97f4a7c15u;
  return (uint32_t)(h >> 32);
}

/* The slot of chunk->const_index where v's index is, or the empty slot
 * where it would go. */
static int index_slot(const Chunk *chunk, Value v) {
  int mask = chunk->const_index_capacity - 1;
  int i = (int)(constant_hash(v) & (uint32_t)mask);
  while (chunk->const_index[i] >= 0 && chunk->constants[chunk->const_index[i]] != v) i = (i + 1) & mask;
  return i;
}

/* Doubles the index (the caller keeps the new constant rooted) and puts
 * every shared constant back in. */
static void grow_index(AgVM *vm, Chunk *chunk) {
  int old = chunk->const_index_capacity;
  int cap = old == 0 ? 16 : old * 2;
  AG_FREE_ARRAY(vm, int, chunk->const_index, old);
  chunk->const_index = AG_ALLOCATE(vm, int, cap);
  chunk->const_index_capacity = cap;
  for (int i = 0; i < cap; i++) chunk->const_index[i] = -1;
  for (int k = 0; k < chunk->const_count; k++) {
    if (is_shared_constant(chunk->constants[k])) chunk->const_index[index_slot(chunk, chunk->constants[k])] = k;
  }
}

static void append_constant(AgVM *vm, Chunk *chunk, Value v) {
  if (chunk->const_count == chunk->const_capacity) {
    int old = chunk->const_capacity;
    int cap = AG_GROW_CAPACITY(old);
    chunk->constants = AG_GROW_ARRAY(vm, Value, chunk->constants, old, cap);
    chunk->const_capacity = cap;
  }
  chunk->constants[chunk->const_count++] = v;
}

int chunk_add_constant(AgVM *vm, Chunk *chunk, Value v) {
  bool shared = is_shared_constant(v);
  if (shared && chunk->const_index_capacity > 0) {
    int found = chunk->const_index[index_slot(chunk, v)];
    if (found >= 0) return found;
  }
  if (chunk->const_count >= 65536) return -1;
  /* v may be a fresh object only reachable from the caller: keep it alive
   * across the allocations. */
  vm_push_root(vm, v);
  append_constant(vm, chunk, v);
  if (shared) {
    /* At most half full, so probes stay short and always end. */
    if (2 * (chunk->const_count + 1) > chunk->const_index_capacity) grow_index(vm, chunk);
    else chunk->const_index[index_slot(chunk, v)] = chunk->const_count - 1;
  }
  vm_pop_root(vm);
  return chunk->const_count - 1;
}
