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
}

void chunk_free(AgVM *vm, Chunk *chunk) {
  AG_FREE_ARRAY(vm, uint8_t, chunk->code, chunk->capacity);
  AG_FREE_ARRAY(vm, int, chunk->lines, chunk->capacity);
  AG_FREE_ARRAY(vm, int, chunk->cols, chunk->capacity);
  AG_FREE_ARRAY(vm, Value, chunk->constants, chunk->const_capacity);
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

/* Numbers are equal constants only when their bits are (so 0 and -0 stay
 * apart); strings are interned, so bit equality is string equality. */
static int find_constant(const Chunk *chunk, Value v) {
  if (!IS_NUMBER(v) && !IS_STRING(v)) return -1;
  for (int i = 0; i < chunk->const_count; i++) {
    if (chunk->constants[i] == v) return i;
  }
  return -1;
}

int chunk_add_constant(AgVM *vm, Chunk *chunk, Value v) {
  int found = find_constant(chunk, v);
  if (found >= 0) return found;
  if (chunk->const_count >= 65536) return -1;
  if (chunk->const_count == chunk->const_capacity) {
    int old = chunk->const_capacity;
    int cap = AG_GROW_CAPACITY(old);
    /* v may be a fresh object only reachable from the caller: keep it alive
     * across the allocation. */
    vm_push_root(vm, v);
    chunk->constants = AG_GROW_ARRAY(vm, Value, chunk->constants, old, cap);
    vm_pop_root(vm);
    chunk->const_capacity = cap;
  }
  chunk->constants[chunk->const_count] = v;
  return chunk->const_count++;
}
