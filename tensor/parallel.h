/* parallel.h — the worker pool that spreads big tensor loops over the cores
 * (internal to tensor/).
 *
 * A process-wide pool of (cores - 1) threads, started on first use; the
 * calling thread works too. Idle workers sleep on a condition variable
 * instead of spinning, so between parallel loops they leave the cores to the
 * VM and to OpenBLAS's own threads (OpenMP's spin-waiting next to OpenBLAS
 * made small training loops ten times slower on two cores).
 *
 * tensor_parallel_for runs body(c, ctx) once for every chunk c in [0, n), in
 * any order and on any thread, and returns when all are done. A call made
 * while another is running (from a body, or a second thread) runs serially.
 */
#ifndef AG_TENSOR_PARALLEL_H
#define AG_TENSOR_PARALLEL_H

#include <stdint.h>

typedef void (*ParallelBody)(int64_t chunk, void *ctx);

void tensor_parallel_for(int64_t nchunks, ParallelBody body, void *ctx);
/* Threads that tensor_parallel_for uses, the caller included (>= 1). */
int tensor_parallel_threads(void);

#endif
