/* parallel.c — a sleeping worker pool for big tensor loops (see parallel.h). */
#include "tensor/parallel.h"
#include "tensor/state.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

#define POOL_MAX_WORKERS 15

/* The pool: the one piece of process-wide state in tensor/ besides the
 * interrupt flag, guarded by `lock`. A worker joins the current job only
 * while it is open; the caller closes it once it has no chunks left to claim
 * and no worker is inside, so it never waits for a worker that has not woken. */
static struct {
  pthread_once_t once;
  pthread_mutex_t lock;
  pthread_cond_t work, done;
  int nworkers;
  uint64_t generation; /* bumped for every job */
  bool open;
  int inside; /* workers running chunks of the current job */
  ParallelBody body;
  void *ctx;
  int64_t nchunks;
  atomic_int_fast64_t next_chunk;
  atomic_bool busy;
} pool = {.once = PTHREAD_ONCE_INIT,
          .lock = PTHREAD_MUTEX_INITIALIZER,
          .work = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static void run_chunks(ParallelBody body, void *ctx, int64_t n) {
  int64_t c;
  while ((c = atomic_fetch_add(&pool.next_chunk, 1)) < n) body(c, ctx);
}

static void *worker_main(void *arg) {
  (void)arg;
  /* Chunks may allocate (a BLAS operand made contiguous) or fail: each
   * worker has its own TensorState (on its stack: a worker never returns),
   * never the default the caller may be using. */
  TensorState own = {0};
  tensor_state_make_current(&own);
  uint64_t seen = 0;
  pthread_mutex_lock(&pool.lock);
  for (;;) {
    while (pool.generation == seen || !pool.open) {
      seen = pool.open ? seen : pool.generation;
      pthread_cond_wait(&pool.work, &pool.lock);
    }
    seen = pool.generation;
    ParallelBody body = pool.body;
    void *ctx = pool.ctx;
    int64_t n = pool.nchunks;
    pool.inside++;
    pthread_mutex_unlock(&pool.lock);
    run_chunks(body, ctx, n);
    pthread_mutex_lock(&pool.lock);
    if (--pool.inside == 0) pthread_cond_signal(&pool.done);
  }
  return NULL;
}

static void pool_start(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int want = cores > 1 ? (int)(cores - 1) : 0;
  if (want > POOL_MAX_WORKERS) want = POOL_MAX_WORKERS;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (int i = 0; i < want; i++) {
    pthread_t t;
    if (pthread_create(&t, &attr, worker_main, NULL) != 0) break;
    pool.nworkers++;
  }
  pthread_attr_destroy(&attr);
}

int tensor_parallel_threads(void) {
  pthread_once(&pool.once, pool_start);
  return pool.nworkers + 1;
}

void tensor_parallel_for(int64_t nchunks, ParallelBody body, void *ctx) {
  bool expected = false;
  if (nchunks <= 1 || tensor_parallel_threads() == 1 ||
      !atomic_compare_exchange_strong(&pool.busy, &expected, true)) {
    for (int64_t c = 0; c < nchunks; c++) body(c, ctx);
    return;
  }
  pthread_mutex_lock(&pool.lock);
  pool.body = body;
  pool.ctx = ctx;
  pool.nchunks = nchunks;
  atomic_store(&pool.next_chunk, 0);
  pool.generation++;
  pool.open = true;
  pthread_cond_broadcast(&pool.work);
  pthread_mutex_unlock(&pool.lock);
  run_chunks(body, ctx, nchunks);
  pthread_mutex_lock(&pool.lock);
  while (pool.inside > 0) pthread_cond_wait(&pool.done, &pool.lock);
  pool.open = false;
  pthread_mutex_unlock(&pool.lock);
  atomic_store(&pool.busy, false);
}
