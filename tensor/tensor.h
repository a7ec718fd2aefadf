/* tensor.h — Ag's strided n-dimensional arrays (the `tensor/` component).
 *
 * tensor/ knows nothing of autograd or the VM. It offers:
 *   - the Tensor and Storage structs (reference counted, views share storage);
 *   - PyTorch's dtypes (float32 the default; the table AG_DTYPES) and promotion;
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
 * the caches of the current TensorState (state.h; bounded, off under
 * AddressSanitizer), so millions of 0-d ops never reach malloc and big
 * temporaries don't page-fault every time.
 * A request above 1 TiB fails with PyTorch's allocator message, never a crash.
 *
 * Threads: loops over large tensors (>= 256K elements) are cut into chunks
 * run by a small pool of sleeping worker threads plus the caller (see
 * parallel.h), and so are batches of matrix products, with OpenBLAS held to
 * one thread meanwhile (blas.h, docs/performance.md); everything else, and
 * every tensor allocation, stays on the caller.
 *
 * Errors: a failing function returns NULL (or false / -1) and records a message
 * in the current TensorState (state.h), like errno. Messages use PyTorch's
 * wording where PyTorch has one.
 */
#ifndef AG_TENSOR_H
#define AG_TENSOR_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor/ag_assert.h"

#define TENSOR_MAX_DIMS 16

/* ---- the dtype table: ONE row per dtype ----
 * Everything that differs between dtypes is a column here (or generated from
 * one: the conversion kernels of convert.c, the element access of tensor.c,
 * the promotion of dtype_promote); adding a dtype is adding its row.
 *   X(ENUM, name, ctype, kind, torch, compute, load, store, npy, cname)
 * ENUM     DT_ENUM. The first four keep their positions: tables indexed by
 *          dtype that only list those four leave the others NULL (no kernel).
 * name     Ag's and PyTorch's name (`int32`, printed `torch.int32`)
 * ctype    the C type an element is stored as (float16 and bfloat16: their bits)
 * kind     DK_BOOL, DK_INT, DK_FLOAT: PyTorch's categories for promotion
 * torch    PyTorch's scalar type in messages ("not implemented for 'Int'")
 * compute  the dtype whose kernels compute this one: a narrow dtype is
 *          widened, computed and narrowed back. That is PyTorch's result:
 *          integer arithmetic wraps modulo 2^bits either way, and PyTorch
 *          computes float16 and bfloat16 in float and rounds each result.
 * load     element bits -> float (for float16/bfloat16), or the plain value
 * store    float -> element bits, rounded to nearest even
 * npy      NumPy's descr without its byte order ("i4": '<i4'), NULL if NumPy
 *          has no such dtype
 * cname    ATen's C type, in its overflow messages ("int8_t", "at::Half") */
#define AG_DTYPES(X)                                                                               \
  X(BOOL, bool, uint8_t, DK_BOOL, "Bool", DT_BOOL, DT_PLAIN, DT_PLAIN, "b1", "bool")               \
  X(INT64, int64, int64_t, DK_INT, "Long", DT_INT64, DT_PLAIN, DT_PLAIN, "i8", "int64_t")          \
  X(FLOAT32, float32, float, DK_FLOAT, "Float", DT_FLOAT32, DT_PLAIN, DT_PLAIN, "f4", "float")     \
  X(FLOAT64, float64, double, DK_FLOAT, "Double", DT_FLOAT64, DT_PLAIN, DT_PLAIN, "f8", "double")  \
  X(UINT8, uint8, uint8_t, DK_INT, "Byte", DT_INT64, DT_PLAIN, DT_PLAIN, "u1", "uint8_t")          \
  X(INT8, int8, int8_t, DK_INT, "Char", DT_INT64, DT_PLAIN, DT_PLAIN, "i1", "int8_t")              \
  X(INT16, int16, int16_t, DK_INT, "Short", DT_INT64, DT_PLAIN, DT_PLAIN, "i2", "int16_t")         \
  X(INT32, int32, int32_t, DK_INT, "Int", DT_INT64, DT_PLAIN, DT_PLAIN, "i4", "int")               \
  X(FLOAT16, float16, uint16_t, DK_FLOAT, "Half", DT_FLOAT32, half_to_float, float_to_half,        \
    "f2", "at::Half")                                                                              \
  X(BFLOAT16, bfloat16, uint16_t, DK_FLOAT, "BFloat16", DT_FLOAT32, bf16_to_float,                 \
    float_to_bf16, NULL, "at::BFloat16")

typedef enum {
#define DTYPE_ENUM(e, ...) DT_##e,
  AG_DTYPES(DTYPE_ENUM)
#undef DTYPE_ENUM
  DT_COUNT
} DType;

typedef enum { DK_BOOL, DK_INT, DK_FLOAT } DTypeKind;

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
typedef enum { TENSOR_ERR_RUNTIME, TENSOR_ERR_INDEX, TENSOR_ERR_NOT_IMPLEMENTED } TensorErrorKind;
const char *tensor_error(void);                     /* last message */
TensorErrorKind tensor_error_kind(void);            /* last message's kind */
void tensor_set_error(const char *fmt, ...)         /* printf-style; TENSOR_ERR_RUNTIME */
    __attribute__((format(printf, 1, 2)));
void tensor_set_index_error(const char *fmt, ...)   /* TENSOR_ERR_INDEX */
    __attribute__((format(printf, 1, 2)));
void tensor_set_not_implemented_error(const char *fmt, ...) /* TENSOR_ERR_NOT_IMPLEMENTED */
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
const char *dtype_name(DType dt);   /* "float32", "int8", "bool", ... (the table's name) */
extern const unsigned char tensor_dtype_sizes[DT_COUNT];
static inline size_t dtype_size(DType dt) { return tensor_dtype_sizes[dt]; }
DTypeKind dtype_kind(DType dt);
static inline bool dtype_is_float(DType dt) { /* float16, bfloat16, float32, float64 */
  return dt == DT_FLOAT32 || dt == DT_FLOAT64 || dt == DT_FLOAT16 || dt == DT_BFLOAT16;
}
DType dtype_promote(DType a, DType b); /* PyTorch's promotion of two tensors */
/* The dtype whose kernels compute dt (dt itself for the four native ones). */
DType dtype_compute(DType dt);
/* Whether dt has kernels of its own (bool, int64, float32, float64). */
static inline bool dtype_is_native(DType dt) { return dt <= DT_FLOAT64; }
/* Whether v converts to dt without overflow (c10's checked_convert: an
 * unsigned dtype takes negative values that wrap, a float dtype takes the
 * infinities and nan); false after setting PyTorch's error, which names the
 * type as `name` (true: the dtype's name, "int8"; false: ATen's C type,
 * "int8_t"). int64 and bool take every value Ag gives them. */
bool dtype_value_fits(DType dt, double v, bool torch_name);
/* Whether a tensor of dt used as an index is a mask: bool, and uint8 (which
 * PyTorch 1.13 still takes as a mask, deprecated). */
static inline bool dtype_is_mask(DType dt) { return dt == DT_BOOL || dt == DT_UINT8; }
/* IEEE binary16 and bfloat16 bits <-> float, rounding to nearest even
 * (PyTorch's c10::Half and c10::BFloat16 conversions). */
float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bf16_to_float(uint16_t h);
uint16_t float_to_bf16(float f);

/* The largest storage one tensor may allocate (0: no limit but the 1 TiB
 * that no allocator should be asked for); beyond it, the allocation fails
 * with PyTorch's "can't allocate memory" error. Process-wide. */
void tensor_set_allocation_limit(size_t bytes);

/* Memory accounting of the current TensorState: the bytes of the storages
 * alive now (views and aliases count nothing more) and the most alive at once
 * since the last reset_peak (which starts the mark again from what is alive). */
void tensor_memory_stats(size_t *live, size_t *peak);
void tensor_memory_reset_peak(void);

/* ---- lifetime ----
 * Inline: a scalar graph takes and drops millions of references. */
void tensor_free(Tensor *t); /* the last reference's work (tensor_release calls it) */
static inline Tensor *tensor_retain(Tensor *t) {
  if (t) t->refcount++;
  return t;
}
static inline void tensor_release(Tensor *t) {
  AG_ASSERT(!t || t->refcount > 0); /* released once more than retained */
  if (t && --t->refcount == 0) tensor_free(t);
}
/* Bytes this tensor holds: its struct, its storage's header and the part of
 * the storage it spans (a view does not count its base's other elements). */
static inline size_t tensor_footprint(const Tensor *t) {
  size_t bytes = sizeof(Tensor);
  if (!t->storage) return bytes;
  size_t own = (size_t)t->numel * dtype_size(t->dtype);
  return bytes + sizeof(Storage) + (own < t->storage->nbytes ? own : t->storage->nbytes);
}
/* Frees the current state's caches of tensor structs and buffers (at exit; optional). */
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
bool tensor_strides_contiguous(const Tensor *t); /* tensor_is_contiguous's general case */
/* Inline: a single element (every tensor of a scalar graph) is contiguous
 * whatever its strides. */
static inline bool tensor_is_contiguous(const Tensor *t) {
  return t->numel <= 1 || tensor_strides_contiguous(t);
}
/* "[2, 3]" into buf (truncated to cap), as PyTorch writes sizes in messages. */
void tensor_format_shape(char *buf, size_t cap, int ndim, const int64_t *shape);
double tensor_get_flat(const Tensor *t, int64_t i); /* i-th element in row-major order */
int64_t tensor_get_flat_int(const Tensor *t, int64_t i); /* exact for int64 (truncates floats) */
void tensor_set_flat(Tensor *t, int64_t i, double v);
void tensor_set_flat_int(Tensor *t, int64_t i, int64_t v); /* exact for int64 */
double tensor_item(const Tensor *t); /* error unless numel == 1: returns NAN, check tensor_error */
static inline void *tensor_data(const Tensor *t) {
  return (char *)t->storage->data + (size_t)t->offset * dtype_size(t->dtype);
}
void tensor_bump_version(Tensor *t);
static inline int64_t tensor_version(const Tensor *t) { return t->storage->version; }

#endif
