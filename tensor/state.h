/* state.h — the tensor layer's mutable state, gathered in one struct.
 *
 * Everything tensor/ remembers between calls (the last error, the free lists
 * of tensor structs and buffers, the memory counters) lives in a TensorState.
 * The layer above owns one (the VM embeds one in its context, as ggml's ctx
 * or Lua's L) and makes it current for its thread with
 * tensor_state_make_current(); the functions of tensor/ reach it through
 * tensor_state(), one thread-local pointer. A thread that makes none current
 * uses the process's default state: the unit tests and tools that drive
 * tensor/ alone. Two such threads must each make their own state current.
 * The worker pool (parallel.h) touches no state.
 *
 * The fields are private to tensor.c; they are here only so that an owner
 * can embed the struct. */
#ifndef AG_TENSOR_STATE_H
#define AG_TENSOR_STATE_H

#include <stdbool.h>
#include <stddef.h>

#define TENSOR_ERROR_MAX 1024
#define TENSOR_BIG_CACHE_SLOTS 16

/* Free lists are linked through the first word of each freed block. */
typedef struct TensorFreeBlock {
  struct TensorFreeBlock *next;
} TensorFreeBlock;

/* Recycled tensor structs, inline storages and big buffers (tensor.c). */
typedef struct {
  TensorFreeBlock *tensors;
  int ntensors;
  TensorFreeBlock *storages;
  int nstorages;
  void *big[TENSOR_BIG_CACHE_SLOTS];
  size_t big_size[TENSOR_BIG_CACHE_SLOTS];
  size_t big_total;
  bool closed; /* freed blocks go back to the allocator (at VM teardown) */
} TensorAllocCache;

typedef struct TensorState {
  char error_message[TENSOR_ERROR_MAX]; /* the last failure's message (tensor_error) */
  int error_kind;                       /* its TensorErrorKind */
  TensorAllocCache cache;
  size_t memory_live, memory_peak; /* bytes of live storages, their high-water mark */
} TensorState;

/* The current state of this thread: never NULL. Inline: every allocation
 * reads it. */
extern _Thread_local TensorState *tensor_state_current;
static inline TensorState *tensor_state(void) { return tensor_state_current; }

/* Makes s (zeroed, or used before) current for this thread; NULL makes the
 * process's default current again. Returns the state current before. */
TensorState *tensor_state_make_current(TensorState *s);
/* Frees what s caches (s need not be current). */
void tensor_state_free_caches(TensorState *s);

#endif
