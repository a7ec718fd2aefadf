/* chunk.h — a function's bytecode, its line table and its constants. */
#ifndef AG_CHUNK_H
#define AG_CHUNK_H

#include <stdint.h>

#include "value.h"

typedef struct AgVM AgVM;

typedef struct {
  int count;
  int capacity;
  uint8_t *code;
  int *lines; /* source line of each byte of code */
  int *cols;  /* source column of each byte (for error carets), 0 if unknown */
  int const_count;
  int const_capacity;
  Value *constants;
  /* Open-addressing hash set of the indices of the number and string
   * constants (-1 = empty; capacity a power of two, at most half full), so
   * that chunk_add_constant finds a duplicate without a linear search. */
  int *const_index;
  int const_index_capacity;
} Chunk;

void chunk_init(Chunk *chunk);
void chunk_free(AgVM *vm, Chunk *chunk);
void chunk_write(AgVM *vm, Chunk *chunk, uint8_t byte, int line, int col);
/* Adds v (reusing an equal number or string constant) and returns its index,
 * or -1 when the chunk already holds 65536 constants. */
int chunk_add_constant(AgVM *vm, Chunk *chunk, Value v);

#endif
