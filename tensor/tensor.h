/* tensor.h — Ag's strided n-dimensional arrays (the `tensor/` component).
 *
 * tensor/ knows nothing of autograd or the VM. It offers:
 *   - the Tensor and Storage structs (reference counted, views share storage);
 *   - dtypes float32 (default), float64, int64 and bool with PyTorch's promotion;
 *   - every forward computation of SPEC §6 (ops.h), printing (print.h),
 *     random numbers (random.h) and file formats (io.h).
 *
 * Ownership: every function that returns a Tensor* returns a NEW reference
 * (refcount already counted for the caller), or NULL after setting the error
 * message (tensor_error()). Arguments are borrowed. tensor_release() drops a
 * reference; the last release frees the tensor and, if it was the last view,
 * its storage.
 *
 * Autograd attaches its per-tensor state through `meta` (an opaque TensorMeta
 * whose first field is its destructor), so this component never sees it.
 *
 * Allocation: Tensor structs, small storages (data inline, up to
 * TENSOR_INLINE_BYTES) and recently freed large buffers are recycled through
 * per-thread caches (bounded; off under AddressSanitizer), so millions of 0-d
 * ops never reach malloc and big temporaries don't page-fault every time.
 * A request above 1 TiB fails with PyTorch's allocator message, never a crash.
 *
 * Threads: loops over large tensors (>= 256K elements) are cut into chunks
 * run by a small pool of sleeping worker threads plus the caller (see
 * parallel.h), and so are batches of matrix products, with OpenBLAS held to
 * one thread meanwhile (blas.h, docs/performance.md); everything else, and
 * every tensor allocation, stays on the caller.
 *
 * Errors: a failing function returns NULL (or false / -1) and records a message
 * in a thread-local buffer, like errno. Messages use PyTorch's wording where
 * PyTorch has one.
 */
#ifndef AG_TENSOR_H
#define AG_TENSOR_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define TENSOR_MAX_DIMS 16

typedef enum { DT_BOOL, DT_INT64, DT_FLOAT32, DT_FLOAT64, DT_COUNT } DType;

typedef struct Storage {
  int64_t refcount;
  size_t nbytes;
  void *data;
  /* The version counter of every view of this storage: each in-place write
   * through any view bumps it (autograd compares it with the version a saved
   * tensor had). */
  int64_t version;
  union {
    size_t capacity;       /* bytes allocated for data (>= nbytes) */
    struct Storage *owner; /* is_alias: the storage whose elements these are (retained) */
  };
  bool is_inline; /* data lives in the same allocation, right after this header */
  /* The elements of another storage under a version counter of their own:
   * what `.data` hands out, so that writing through it is not seen by
   * autograd's checks (PyTorch's `.data`; `detach()` shares the counter). */
  bool is_alias;
} Storage;

/* Data of at most this many bytes is stored inline with its Storage header. */
#define TENSOR_INLINE_BYTES 64

typedef struct TensorMeta TensorMeta;
struct TensorMeta {
  void (*destroy)(TensorMeta *meta); /* called when the tensor is freed */
};

typedef struct Tensor {
  int64_t refcount;
  DType dtype;
  int ndim;
  int64_t numel;
  int64_t offset; /* in elements, into storage */
  /* storage and meta come before the shape so that a small tensor's every
   * field fits in the first cache line (backward reads millions of them cold) */
  Storage *storage;
  TensorMeta *meta; /* owned; NULL unless autograd attached state */
  int64_t shape[TENSOR_MAX_DIMS];
  int64_t stride[TENSOR_MAX_DIMS]; /* in elements */
} Tensor;

/* ---- errors ----
 * The last failure's message, and its kind: the layers above raise the
 * error class PyTorch raises for it (an index out of bounds is IndexError,
 * most others RuntimeError). */
typedef enum { TENSOR_ERR_RUNTIME, TENSOR_ERR_INDEX } TensorErrorKind;
const char *tensor_error(void);                     /* last message */
TensorErrorKind tensor_error_kind(void);            /* last message's kind */
void tensor_set_error(const char *fmt, ...)         /* printf-style; TENSOR_ERR_RUNTIME */
    __attribute__((format(printf, 1, 2)));
void tensor_set_index_error(const char *fmt, ...)   /* TENSOR_ERR_INDEX */
    __attribute__((format(printf, 1, 2)));

/* ---- interruption ----
 * The one Ctrl-C flag of the process. It lives here, in the lowest layer, so
 * that every long loop polls the same flag: tensor kernels and BLAS blocks,
 * the autograd engine, and above them the VM's loops and calls, sort, file
 * and import reads and the compiler. The embedder's SIGINT handler sets it;
 * a kernel that sees it stops with the error "Interrupted" and leaves it
 * set. Only the layer that reports to the user clears it (the VM, when it
 * throws its Interrupted exception), so one Ctrl-C is delivered exactly once. */
extern volatile sig_atomic_t tensor_interrupt_requested;

/* ---- dtypes ---- */
const char *dtype_name(DType dt);   /* "float32", "float64", "int64", "bool" */
size_t dtype_size(DType dt);
bool dtype_is_float(DType dt);
DType dtype_promote(DType a, DType b); /* PyTorch's promotion of two tensors */

/* The largest storage one tensor may allocate (0: no limit but the 1 TiB
 * that no allocator should be asked for); beyond it, the allocation fails
 * with PyTorch's "can't allocate memory" error. Process-wide. */
void tensor_set_allocation_limit(size_t bytes);

/* Memory accounting of this thread: the bytes of the storages alive now
 * (views and aliases count nothing more) and the most alive at once since
 * the last reset_peak (which starts the mark again from what is alive). */
void tensor_memory_stats(size_t *live, size_t *peak);
void tensor_memory_reset_peak(void);

/* ---- lifetime ---- */
Tensor *tensor_retain(Tensor *t);
void tensor_release(Tensor *t);
/* Bytes this tensor holds: its struct, its storage's header and the part of
 * the storage it spans (a view does not count its base's other elements). */
size_t tensor_footprint(const Tensor *t);
/* Frees this thread's caches of tensor structs and buffers (at exit; optional). */
void tensor_free_caches(void);
/* While disabled (e.g. during VM teardown), freed tensors and buffers are not cached. */
void tensor_set_caches_enabled(bool enabled);

/* ---- construction ---- */
/* A new contiguous tensor, uninitialised / zeroed. A shape whose byte size
 * overflows or cannot be allocated is an error, never a crash. */
Tensor *tensor_empty(DType dt, int ndim, const int64_t *shape);
Tensor *tensor_zeros(DType dt, int ndim, const int64_t *shape);
Tensor *tensor_full(DType dt, int ndim, const int64_t *shape, double value);
Tensor *tensor_scalar(DType dt, double value); /* 0-d */
/* A view sharing `base`'s storage with the given geometry (no checks). */
Tensor *tensor_view_of(const Tensor *base, int ndim, const int64_t *shape,
                       const int64_t *stride, int64_t offset);

/* ---- element access ---- */
bool tensor_is_contiguous(const Tensor *t);
/* "[2, 3]" into buf (truncated to cap), as PyTorch writes sizes in messages. */
void tensor_format_shape(char *buf, size_t cap, int ndim, const int64_t *shape);
double tensor_get_flat(const Tensor *t, int64_t i); /* i-th element in row-major order */
int64_t tensor_get_flat_int(const Tensor *t, int64_t i); /* exact for int64 (truncates floats) */
void tensor_set_flat(Tensor *t, int64_t i, double v);
void tensor_set_flat_int(Tensor *t, int64_t i, int64_t v); /* exact for int64 */
double tensor_item(const Tensor *t); /* error unless numel == 1: returns NAN, check tensor_error */
static inline void *tensor_data(const Tensor *t) {
  return (char *)t->storage->data + (size_t)t->offset * (t->dtype == DT_FLOAT32 ? 4
                                                           : t->dtype == DT_BOOL ? 1 : 8);
}
void tensor_bump_version(Tensor *t);
static inline int64_t tensor_version(const Tensor *t) { return t->storage->version; }

#endif
