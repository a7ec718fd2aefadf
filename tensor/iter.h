/* iter.h — the strided loop under every elementwise kernel (internal to tensor/).
 *
 * A TensorIter walks up to ITER_MAX_OPS operands over one common shape: operand
 * 0 is the output, the others are inputs broadcast to that shape (stride 0 on
 * broadcast dimensions). Adjacent dimensions that are contiguous for every
 * operand are merged, so a contiguous tensor of any rank becomes one flat loop.
 * The work is cut into chunks of ITER_CHUNK elements: chunks run on all cores
 * (parallel.h) when the tensor is large, and each chunk polls the interrupt flag.
 * A 2-D loop where the output runs along rows but an input runs down columns
 * (a transposing copy) is walked in 32x32 tiles instead, so both stay in cache.
 * A kernel (IterInner) processes one run of n elements along the innermost
 * dimension, given a pointer and a byte stride per operand; kernels may run
 * on several threads at once and must not allocate or set the error.
 */
#ifndef AG_TENSOR_ITER_H
#define AG_TENSOR_ITER_H

#include "tensor/tensor.h"

#define ITER_MAX_OPS 4
#define ITER_CHUNK ((int64_t)1 << 16)
/* Below this many elements a loop stays on one thread: waking a worker costs
 * more than it saves. */
#define ITER_PARALLEL_MIN ((int64_t)1 << 18)

typedef struct {
  int nops;
  int ndim;
  int64_t numel;
  int64_t shape[TENSOR_MAX_DIMS];
  int64_t stride[ITER_MAX_OPS][TENSOR_MAX_DIMS]; /* bytes */
  char *base[ITER_MAX_OPS];
} TensorIter;

typedef void (*IterInner)(int64_t n, char *const *ptrs, const int64_t *strides, const void *ctx);

/* Starts an iteration over `shape`. */
void tensor_iter_init(TensorIter *it, int ndim, const int64_t *shape);
/* Adds an operand; t must broadcast to the iteration shape (caller checked). */
void tensor_iter_add(TensorIter *it, const Tensor *t);
/* Runs fn over every element; false with "Interrupted" if the user interrupted. */
bool tensor_iter_run(TensorIter *it, IterInner fn, const void *ctx);

/* The small-tensor shortcut (millions of 0-d ops in autograd scripts): when
 * out is contiguous and no bigger than one chunk, and every input is either
 * contiguous with out's shape or a single element, runs fn once over all
 * elements and returns true. Otherwise does nothing and returns false (the
 * caller then builds a TensorIter). */
bool tensor_iter_run_flat(IterInner fn, const void *ctx, Tensor *out, const Tensor *const *ins,
                          int nins);

/* Whether a long loop should stop: checked once per chunk by kernels that do
 * not go through iter_run. Sets the "Interrupted" error when true. */
bool tensor_check_interrupt(void);

#endif
