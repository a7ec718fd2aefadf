/* iter.c — the strided elementwise loop (see iter.h). */
#include "tensor/iter.h"
#include "tensor/parallel.h"

#include <stdatomic.h>

#include <string.h>

void tensor_iter_init(TensorIter *it, int ndim, const int64_t *shape) {
  it->nops = 0;
  it->ndim = ndim;
  it->numel = 1;
  for (int i = 0; i < ndim; i++) {
    it->shape[i] = shape[i];
    it->numel *= shape[i];
  }
}

void tensor_iter_add(TensorIter *it, const Tensor *t) {
  int k = it->nops++;
  size_t esize = dtype_size(t->dtype);
  int lead = it->ndim - t->ndim;
  for (int i = 0; i < it->ndim; i++) {
    int j = i - lead;
    bool broadcast = j < 0 || (t->shape[j] == 1 && it->shape[i] != 1);
    it->stride[k][i] = broadcast ? 0 : t->stride[j] * (int64_t)esize;
  }
  it->base[k] = (char *)t->storage->data + (size_t)t->offset * esize;
}

/* Drops size-1 dims and merges dim i into i+1 when every operand allows it. */
static void iter_coalesce(TensorIter *it) {
  int out = 0;
  for (int i = 0; i < it->ndim; i++) {
    if (it->shape[i] == 1) continue;
    if (out > 0) {
      int prev = out - 1;
      bool mergeable = true;
      for (int k = 0; k < it->nops; k++)
        if (it->stride[k][prev] != it->stride[k][i] * it->shape[i]) mergeable = false;
      if (mergeable) {
        it->shape[prev] *= it->shape[i];
        for (int k = 0; k < it->nops; k++) it->stride[k][prev] = it->stride[k][i];
        continue;
      }
    }
    it->shape[out] = it->shape[i];
    for (int k = 0; k < it->nops; k++) it->stride[k][out] = it->stride[k][i];
    out++;
  }
  if (out == 0) { /* a single element */
    it->shape[0] = 1;
    for (int k = 0; k < it->nops; k++) it->stride[k][0] = 0;
    out = 1;
  }
  it->ndim = out;
}

/* Runs elements [start, end) of the (coalesced) iteration. */
static void iter_run_range(const TensorIter *it, int64_t start, int64_t end, IterInner fn,
                           const void *ctx) {
  int nd = it->ndim, last = nd - 1;
  int64_t coord[TENSOR_MAX_DIMS];
  char *ptr[ITER_MAX_OPS];
  int64_t inner_stride[ITER_MAX_OPS];
  int64_t rem = start;
  for (int d = last; d >= 0; d--) {
    coord[d] = rem % it->shape[d];
    rem /= it->shape[d];
  }
  for (int k = 0; k < it->nops; k++) {
    ptr[k] = it->base[k];
    for (int d = 0; d < nd; d++) ptr[k] += coord[d] * it->stride[k][d];
    inner_stride[k] = it->stride[k][last];
  }
  int64_t i = start;
  while (i < end) {
    int64_t run = it->shape[last] - coord[last];
    if (run > end - i) run = end - i;
    fn(run, ptr, inner_stride, ctx);
    i += run;
    if (i >= end) break;
    /* advance the odometer by `run` along the last dim, carrying upward */
    coord[last] += run;
    for (int k = 0; k < it->nops; k++) ptr[k] += run * it->stride[k][last];
    for (int d = last; d > 0 && coord[d] == it->shape[d]; d--) {
      coord[d] = 0;
      coord[d - 1]++;
      for (int k = 0; k < it->nops; k++)
        ptr[k] += it->stride[k][d - 1] - it->shape[d] * it->stride[k][d];
    }
  }
}

bool tensor_check_interrupt(void) {
  if (!tensor_interrupt_requested) return false;
  tensor_set_error("Interrupted");
  return true;
}

typedef struct {
  const TensorIter *it;
  IterInner fn;
  const void *ctx;
  atomic_bool interrupted;
} IterJob;

static void iter_chunk(int64_t c, void *arg) {
  IterJob *job = arg;
  if (tensor_interrupt_requested) {
    atomic_store(&job->interrupted, true);
    return;
  }
  int64_t start = c * ITER_CHUNK, total = job->it->numel;
  int64_t end = start + ITER_CHUNK < total ? start + ITER_CHUNK : total;
  iter_run_range(job->it, start, end, job->fn, job->ctx);
}

/* A 2-D loop whose output runs along rows while an input runs down columns
 * (a transposing copy, x + x.T): walked in ITER_TILE x ITER_TILE tiles so
 * both sides stay in cache. Chunk b is the band of rows [b*TILE, (b+1)*TILE). */
#define ITER_TILE 32

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

static bool iter_is_transposing(const TensorIter *it) {
  if (it->ndim != 2 || it->numel < 4 * ITER_TILE * ITER_TILE) return false;
  bool out_by_rows = abs64(it->stride[0][1]) <= abs64(it->stride[0][0]);
  for (int k = 1; k < it->nops; k++) {
    if (it->stride[k][0] == 0 || it->stride[k][1] == 0) continue; /* broadcast: no reuse issue */
    if ((abs64(it->stride[k][1]) <= abs64(it->stride[k][0])) != out_by_rows) return true;
  }
  return false;
}

static void iter_band(int64_t band, void *arg) {
  IterJob *job = arg;
  const TensorIter *it = job->it;
  if (tensor_interrupt_requested) {
    atomic_store(&job->interrupted, true);
    return;
  }
  int64_t r0 = band * ITER_TILE, r1 = r0 + ITER_TILE < it->shape[0] ? r0 + ITER_TILE : it->shape[0];
  char *ptr[ITER_MAX_OPS];
  int64_t inner[ITER_MAX_OPS];
  for (int k = 0; k < it->nops; k++) inner[k] = it->stride[k][1];
  for (int64_t c0 = 0; c0 < it->shape[1]; c0 += ITER_TILE) {
    int64_t n = it->shape[1] - c0 < ITER_TILE ? it->shape[1] - c0 : ITER_TILE;
    for (int64_t r = r0; r < r1; r++) {
      for (int k = 0; k < it->nops; k++) ptr[k] = it->base[k] + r * it->stride[k][0] + c0 * inner[k];
      job->fn(n, ptr, inner, job->ctx);
    }
  }
}

static bool iter_run_tiled(TensorIter *it, IterInner fn, const void *ctx) {
  IterJob job = {.it = it, .fn = fn, .ctx = ctx};
  atomic_init(&job.interrupted, false);
  int64_t bands = (it->shape[0] + ITER_TILE - 1) / ITER_TILE;
  if (it->numel >= ITER_PARALLEL_MIN) {
    tensor_parallel_for(bands, iter_band, &job);
  } else {
    for (int64_t b = 0; b < bands; b++) iter_band(b, &job);
  }
  if (atomic_load(&job.interrupted)) tensor_set_error("Interrupted");
  return !atomic_load(&job.interrupted);
}

static bool same_shape(const Tensor *a, const Tensor *b) {
  return a->ndim == b->ndim && (a->ndim == 0 || !memcmp(a->shape, b->shape, (size_t)a->ndim * 8));
}

bool tensor_iter_run_flat(IterInner fn, const void *ctx, Tensor *out, const Tensor *const *ins,
                          int nins) {
  if (out->numel > ITER_CHUNK || !tensor_is_contiguous(out)) return false;
  char *ptr[ITER_MAX_OPS];
  int64_t stride[ITER_MAX_OPS];
  ptr[0] = tensor_data(out);
  stride[0] = (int64_t)dtype_size(out->dtype);
  for (int k = 0; k < nins; k++) {
    const Tensor *t = ins[k];
    if (t->numel == 1) {
      stride[k + 1] = 0; /* a broadcast single element */
    } else if (same_shape(t, out) && tensor_is_contiguous(t)) {
      stride[k + 1] = (int64_t)dtype_size(t->dtype);
    } else {
      return false;
    }
    ptr[k + 1] = tensor_data(t);
  }
  if (out->numel > 0) fn(out->numel, ptr, stride, ctx);
  return true;
}

bool tensor_iter_run(TensorIter *it, IterInner fn, const void *ctx) {
  if (it->numel == 0) return true;
  iter_coalesce(it);
  if (iter_is_transposing(it)) return iter_run_tiled(it, fn, ctx);
  int64_t total = it->numel;
  if (total <= ITER_CHUNK && it->ndim == 1) { /* one flat run: most small ops (0-d ones too) */
    int64_t inner[ITER_MAX_OPS];
    for (int k = 0; k < it->nops; k++) inner[k] = it->stride[k][0];
    fn(total, it->base, inner, ctx);
    return true;
  }
  if (total <= ITER_CHUNK) {
    iter_run_range(it, 0, total, fn, ctx);
    return true;
  }
  IterJob job = {.it = it, .fn = fn, .ctx = ctx};
  atomic_init(&job.interrupted, false);
  int64_t nchunks = (total + ITER_CHUNK - 1) / ITER_CHUNK;
  if (total >= ITER_PARALLEL_MIN) {
    tensor_parallel_for(nchunks, iter_chunk, &job);
  } else {
    for (int64_t c = 0; c < nchunks; c++) iter_chunk(c, &job);
  }
  if (atomic_load(&job.interrupted)) tensor_set_error("Interrupted");
  return !atomic_load(&job.interrupted);
}
