/* tensor.c — Tensor/Storage lifetime, errors, dtypes and element access.
 *
 * Allocation is the hot path of small-tensor workloads (millions of 0-d ops)
 * and of big elementwise chains (fresh 40 MB buffers page-fault on first
 * touch). Three thread-local caches address that:
 *   - a free list of Tensor structs;
 *   - a free list of Storage blocks whose data (up to TENSOR_INLINE_BYTES) is
 *     stored inline, right after the Storage header, in the same allocation;
 *   - a small cache of recently freed large data buffers, bounded in total bytes.
 * The caches are per thread (only the thread running the VM allocates), and
 * are compiled out under AddressSanitizer so it still sees every use-after-free.
 */
#include "tensor/ag_assert.h"
#include "tensor/tensor.h"
#include "tensor/state.h"
#include "tensor/tensor_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t tensor_interrupt_requested = 0;

/* ---- errors ---- */

/* ---- the state (state.h) ---- */

static TensorState default_state;
_Thread_local TensorState *tensor_state_current = &default_state;

TensorState *tensor_state_make_current(TensorState *s) {
  TensorState *previous = tensor_state_current;
  tensor_state_current = s ? s : &default_state;
  return previous;
}

const char *tensor_error(void) { return tensor_state()->error_message; }
TensorErrorKind tensor_error_kind(void) { return (TensorErrorKind)tensor_state()->error_kind; }

static void set_error(TensorErrorKind kind, const char *fmt, va_list ap) {
  TensorState *st = tensor_state();
  vsnprintf(st->error_message, sizeof st->error_message, fmt, ap);
  st->error_kind = kind;
}

void tensor_set_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  set_error(TENSOR_ERR_RUNTIME, fmt, ap);
  va_end(ap);
}

void tensor_set_index_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  set_error(TENSOR_ERR_INDEX, fmt, ap);
  va_end(ap);
}

void tensor_set_not_implemented_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  set_error(TENSOR_ERR_NOT_IMPLEMENTED, fmt, ap);
  va_end(ap);
}

/* ---- dtypes ---- */

#define DT_PLAIN(x) (x) /* a table's load/store column: the value as it is stored */

static const char *const dtype_names[DT_COUNT] = {
#define DTYPE_NAME(e, name, ...) #name,
    AG_DTYPES(DTYPE_NAME)
#undef DTYPE_NAME
};
const unsigned char tensor_dtype_sizes[DT_COUNT] = {
#define DTYPE_SIZE(e, name, ctype, ...) sizeof(ctype),
    AG_DTYPES(DTYPE_SIZE)
#undef DTYPE_SIZE
};
static const DTypeKind dtype_kinds[DT_COUNT] = {
#define DTYPE_KIND(e, name, ctype, kind, ...) kind,
    AG_DTYPES(DTYPE_KIND)
#undef DTYPE_KIND
};
static const DType dtype_computes[DT_COUNT] = {
#define DTYPE_COMPUTE(e, name, ctype, kind, torch, compute, ...) compute,
    AG_DTYPES(DTYPE_COMPUTE)
#undef DTYPE_COMPUTE
};

static const char *const dtype_cnames[DT_COUNT] = {
#define DTYPE_CNAME(e, name, ctype, kind, torch, compute, load, store, npy, cname) cname,
    AG_DTYPES(DTYPE_CNAME)
#undef DTYPE_CNAME
};

const char *dtype_name(DType dt) { return dt < DT_COUNT ? dtype_names[dt] : "?"; }
DTypeKind dtype_kind(DType dt) { return dtype_kinds[dt]; }
DType dtype_compute(DType dt) { return dtype_computes[dt]; }

static bool dtype_is_unsigned(DType dt) { return dt == DT_BOOL || dt == DT_UINT8; }

/* PyTorch's promotion table: the higher category wins; within one, the wider
 * dtype, except that uint8 with int8 needs int16 (the first signed dtype
 * holding both) and float16 with bfloat16 needs float32. */
DType dtype_promote(DType a, DType b) {
  if (a == b) return a;
  if (dtype_kinds[a] != dtype_kinds[b]) return dtype_kinds[a] > dtype_kinds[b] ? a : b;
  size_t sa = dtype_size(a), sb = dtype_size(b);
  if (sa != sb) {
    /* a narrower unsigned dtype fits the wider signed one */
    return sa > sb ? a : b;
  }
  if (dtype_kinds[a] == DK_INT) /* uint8 and int8 */
    return dtype_is_unsigned(a) || dtype_is_unsigned(b) ? DT_INT16 : a;
  return DT_FLOAT32; /* float16 and bfloat16 */
}

/* The largest finite value of a float dtype, of an integer dtype the largest. */
static double dtype_max(DType dt) {
  switch (dt) {
  case DT_FLOAT16: return 65504.0;
  case DT_BFLOAT16: return 0x1.fep127;
  case DT_FLOAT32: return 0x1.fffffep127;
  case DT_FLOAT64: return INFINITY;
  default: return dtype_is_unsigned(dt) ? ldexp(1, 8 * (int)dtype_size(dt)) - 1
                                        : ldexp(1, 8 * (int)dtype_size(dt) - 1) - 1;
  }
}

bool dtype_value_fits(DType dt, double v, bool torch_name) {
  if (dt == DT_BOOL || dt == DT_INT64 || isnan(v) || (isinf(v) && dtype_is_float(dt))) return true;
  double max = dtype_max(dt);
  bool fits = dtype_is_unsigned(dt) ? v <= max && -v <= max
              : dtype_is_float(dt)  ? fabs(v) <= max
                                    : v <= max && v >= -max - 1;
  if (!fits)
    tensor_set_error("value cannot be converted to type %s without overflow",
                     torch_name ? dtype_names[dt] : dtype_cnames[dt]);
  return fits;
}

bool tensor_require_native_float(const Tensor *t, const char *kernel) {
  if (dtype_is_float(t->dtype) && dtype_is_native(t->dtype)) return true;
  tensor_set_error("\"%s\" not implemented for '%s'", kernel, tensor_dtype_torch_name(t->dtype));
  return false;
}

/* ---- float16 and bfloat16 ----
 * Bit manipulation, so that every compiler and target gives the same bits. */

static uint32_t float_bits(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

static float bits_float(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (man << 13)); /* inf, nan (payload kept) */
  if (exp != 0) return bits_float(sign | ((exp + 112) << 23) | (man << 13));
  return bits_float(sign | float_bits((float)man * 0x1p-24f)); /* zero, subnormal: exact */
}

uint16_t float_to_half(float f) {
  uint32_t bits = float_bits(f);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  uint32_t abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u) return sign | 0x7e00 | (uint16_t)((abs >> 13) & 0x3ff); /* nan */
  if (abs >= 0x477ff000u) return sign | 0x7c00; /* rounds to 65536 or beyond: inf */
  if (abs < 0x38800000u) /* below 2^-14: a subnormal half; the product is exact, lrintf rounds to even */
    return sign | (uint16_t)lrintf(bits_float(abs) * 0x1p24f);
  /* normal: drop 13 mantissa bits, rounding to nearest even */
  uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1);
  return sign | (uint16_t)((rounded - 0x38000000u) >> 13);
}

float bf16_to_float(uint16_t h) { return bits_float((uint32_t)h << 16); }

uint16_t float_to_bf16(float f) {
  if (isnan(f)) return 0x7fc0; /* PyTorch's canonical nan */
  uint32_t bits = float_bits(f);
  return (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}

/* ---- caches ---- */

#if defined(__SANITIZE_ADDRESS__)
#define TENSOR_USE_CACHES 0
#else
#define TENSOR_USE_CACHES 1
#endif

enum { TENSOR_POOL_MAX = 65536, STORAGE_POOL_MAX = 65536 };
#define BIG_CACHE_SLOTS TENSOR_BIG_CACHE_SLOTS
#define BIG_CACHE_MIN_BYTES ((size_t)1 << 20)
#define BIG_CACHE_MAX_TOTAL ((size_t)768 << 20)
/* Larger requests fail without asking malloc (AddressSanitizer's own limit),
 * as do those past the embedder's limit (tensor_set_allocation_limit); on a
 * 32-bit machine, half the address space. */
#if SIZE_MAX > 0xffffffffu
#define TENSOR_MAX_BYTES ((size_t)1 << 40)
#else
#define TENSOR_MAX_BYTES (SIZE_MAX / 2)
#endif
static size_t allocation_limit = TENSOR_MAX_BYTES;

void tensor_set_allocation_limit(size_t bytes) {
  allocation_limit = bytes == 0 || bytes > TENSOR_MAX_BYTES ? TENSOR_MAX_BYTES : bytes;
}

typedef TensorFreeBlock FreeBlock;
typedef TensorAllocCache AllocCache;

static Tensor *tensor_struct_alloc(void) {
  AllocCache *cache = &tensor_state()->cache;
  if (TENSOR_USE_CACHES && cache->tensors) {
    FreeBlock *b = cache->tensors;
    cache->tensors = b->next;
    cache->ntensors--;
    /* the next pop reads that block's link: fetch it while the VM works */
    if (cache->tensors) __builtin_prefetch(cache->tensors, 1);
    return (Tensor *)b;
  }
  return malloc(sizeof(Tensor));
}

static void free_list_push(FreeBlock **list, int *count, void *block) {
  FreeBlock *b = block;
  b->next = *list;
  *list = b;
  (*count)++;
}

static void tensor_struct_free(Tensor *t) {
  AllocCache *cache = &tensor_state()->cache;
  if (TENSOR_USE_CACHES && cache->ntensors < TENSOR_POOL_MAX && !cache->closed) {
    free_list_push(&cache->tensors, &cache->ntensors, t);
    return;
  }
  free(t);
}

/* Takes a cached big buffer of exactly `nbytes`-ish size (within 1/8 above). */
static void *big_cache_take(size_t nbytes, size_t *capacity) {
  AllocCache *cache = &tensor_state()->cache;
  int best = -1;
  for (int i = 0; i < BIG_CACHE_SLOTS; i++) {
    size_t sz = cache->big_size[i];
    if (cache->big[i] && sz >= nbytes && sz - nbytes <= nbytes / 8 &&
        (best < 0 || sz < cache->big_size[best]))
      best = i;
  }
  if (best < 0) return NULL;
  void *p = cache->big[best];
  *capacity = cache->big_size[best];
  cache->big[best] = NULL;
  cache->big_total -= *capacity;
  return p;
}

/* Keeps a freed big buffer for reuse; evicts older ones to stay in budget. */
static void big_cache_put(void *p, size_t capacity) {
  AllocCache *cache = &tensor_state()->cache;
  if (!TENSOR_USE_CACHES || cache->closed || capacity < BIG_CACHE_MIN_BYTES ||
      capacity > BIG_CACHE_MAX_TOTAL) {
    free(p);
    return;
  }
  for (int i = 0; i < BIG_CACHE_SLOTS && cache->big_total + capacity > BIG_CACHE_MAX_TOTAL; i++) {
    if (cache->big[i]) {
      free(cache->big[i]);
      cache->big_total -= cache->big_size[i];
      cache->big[i] = NULL;
    }
  }
  for (int i = 0; i < BIG_CACHE_SLOTS; i++) {
    if (!cache->big[i]) {
      cache->big[i] = p;
      cache->big_size[i] = capacity;
      cache->big_total += capacity;
      return;
    }
  }
  free(cache->big[0]);
  cache->big_total -= cache->big_size[0];
  cache->big[0] = p;
  cache->big_size[0] = capacity;
  cache->big_total += capacity;
}

void tensor_set_caches_enabled(bool enabled) { tensor_state()->cache.closed = !enabled; }

void tensor_free_caches(void) { tensor_state_free_caches(tensor_state()); }

void tensor_state_free_caches(TensorState *s) {
  AllocCache *cache = &s->cache;
  while (cache->tensors) {
    FreeBlock *b = cache->tensors;
    cache->tensors = b->next;
    free(b);
  }
  cache->ntensors = 0;
  while (cache->storages) {
    FreeBlock *b = cache->storages;
    cache->storages = b->next;
    free(b);
  }
  cache->nstorages = 0;
  for (int i = 0; i < BIG_CACHE_SLOTS; i++) {
    free(cache->big[i]);
    cache->big[i] = NULL;
  }
  cache->big_total = 0;
}

/* The inline block: header padded to 16 bytes, then the data. */
#define STORAGE_HEADER ((sizeof(Storage) + 15) & ~(size_t)15)

static Storage *storage_alloc_inline(bool zero) {
  AllocCache *cache = &tensor_state()->cache;
  Storage *s;
  if (TENSOR_USE_CACHES && cache->storages) {
    FreeBlock *b = cache->storages;
    cache->storages = b->next;
    cache->nstorages--;
    if (cache->storages) __builtin_prefetch(cache->storages, 1);
    s = (Storage *)b;
  } else {
    s = malloc(STORAGE_HEADER + TENSOR_INLINE_BYTES);
    if (!s) return NULL;
  }
  s->data = (char *)s + STORAGE_HEADER;
  s->capacity = TENSOR_INLINE_BYTES;
  s->is_inline = true;
  s->is_alias = false;
  if (zero) memset(s->data, 0, TENSOR_INLINE_BYTES);
  return s;
}

static void *data_alloc(size_t nbytes, bool zero, size_t *capacity) {
  AllocCache *cache = &tensor_state()->cache;
  void *p = TENSOR_USE_CACHES && nbytes >= BIG_CACHE_MIN_BYTES ? big_cache_take(nbytes, capacity)
                                                              : NULL;
  if (p) {
    if (zero) memset(p, 0, nbytes);
    return p;
  }
  *capacity = nbytes;
  p = zero ? calloc(1, nbytes) : malloc(nbytes);
  if (!p && nbytes >= BIG_CACHE_MIN_BYTES) { /* retry once without the cache's memory */
    for (int i = 0; i < BIG_CACHE_SLOTS; i++) {
      free(cache->big[i]);
      cache->big[i] = NULL;
    }
    cache->big_total = 0;
    p = zero ? calloc(1, nbytes) : malloc(nbytes);
  }
  return p;
}

/* PyTorch's words when its CPU allocator refuses a request. */
static void set_allocation_error(unsigned long long nbytes) {
  tensor_set_error("DefaultCPUAllocator: can't allocate memory: you tried to allocate %llu "
                   "bytes. Error code 12 (Cannot allocate memory)",
                   nbytes);
}

/* The bytes of the live storages of the current state, and their
 * high-water mark since the last reset (tensor_memory_stats). */
void tensor_memory_stats(size_t *live, size_t *peak) {
  const TensorState *st = tensor_state();
  if (live) *live = st->memory_live;
  if (peak) *peak = st->memory_peak;
}

void tensor_memory_reset_peak(void) { tensor_state()->memory_peak = tensor_state()->memory_live; }

static void memory_count(size_t nbytes) {
  TensorState *st = tensor_state();
  st->memory_live += nbytes;
  if (st->memory_live > st->memory_peak) st->memory_peak = st->memory_live;
}

/* A storage made under another state (a tensor that outlived its VM) may be
 * freed under this one: the count stops at zero rather than wrap. */
static void memory_uncount(TensorState *st, size_t nbytes) {
  st->memory_live -= nbytes < st->memory_live ? nbytes : st->memory_live;
}

Storage *tensor_storage_new(size_t nbytes, bool zero) {
  Storage *s = NULL;
  if (nbytes > allocation_limit) {
    /* fail early: no allocator should be asked for a terabyte */
  } else if (nbytes <= TENSOR_INLINE_BYTES) {
    s = storage_alloc_inline(zero);
  } else {
    s = malloc(sizeof(Storage));
    if (s) {
      s->is_inline = false;
      s->is_alias = false;
      s->data = data_alloc(nbytes, zero, &s->capacity);
      if (!s->data) {
        free(s);
        s = NULL;
      }
    }
  }
  if (!s) {
    set_allocation_error(nbytes);
    return NULL;
  }
  s->refcount = 1;
  s->nbytes = nbytes;
  s->version = 0;
  memory_count(nbytes);
  return s;
}

static void storage_release(Storage *s);

/* Frees a storage whose last reference went, but for the common case that
 * storage_release handles itself. */
static __attribute__((noinline)) void storage_free(Storage *s) {
  if (s->is_alias) {
    storage_release(s->owner);
    free(s);
    return;
  }
  memory_uncount(tensor_state(), s->nbytes);
  if (!s->is_inline) big_cache_put(s->data, s->capacity);
  free(s);
}

static void storage_release(Storage *s) {
  if (--s->refcount > 0) return;
  /* Most storages freed are a scalar op's inline block: back to the cache
   * here, the other cases out of line, so that this path (a collection runs
   * it for nearly every tensor) saves no registers. */
  TensorState *st = tensor_state();
  AllocCache *cache = &st->cache;
  if (TENSOR_USE_CACHES && s->is_inline && cache->nstorages < STORAGE_POOL_MAX && !cache->closed) {
    memory_uncount(st, s->nbytes);
    free_list_push(&cache->storages, &cache->nstorages, s);
    return;
  }
  storage_free(s);
}

/* ---- lifetime ---- */

void tensor_free(Tensor *t) {
  if (t->meta) t->meta->destroy(t->meta);
  storage_release(t->storage);
  tensor_struct_free(t);
}

/* ---- construction ---- */

bool tensor_check_shape(int ndim, const int64_t *shape, int64_t *numel) {
  if (ndim < 0 || ndim > TENSOR_MAX_DIMS) {
    tensor_set_error("tensors may have at most %d dimensions, got %d", TENSOR_MAX_DIMS, ndim);
    return false;
  }
  int64_t n = 1;
  bool overflow = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) {
      char buf[512];
      tensor_format_shape(buf, sizeof buf, ndim, shape);
      tensor_set_error("Trying to create tensor with negative dimension %lld: %s",
                       (long long)shape[i], buf);
      return false;
    }
    if (__builtin_mul_overflow(n, shape[i], &n)) overflow = true;
  }
  bool has_zero = false;
  for (int i = 0; i < ndim; i++) has_zero |= shape[i] == 0;
  if (overflow && !has_zero) {
    char buf[512];
    tensor_format_shape(buf, sizeof buf, ndim, shape);
    tensor_set_error("Storage size calculation overflowed with sizes=%s", buf); /* PyTorch's words */
    return false;
  }
  *numel = has_zero ? 0 : n; /* a zero anywhere makes the product 0 despite overflow */
  return true;
}

void tensor_format_shape(char *buf, size_t cap, int ndim, const int64_t *shape) {
  size_t len = 0;
  len += (size_t)snprintf(buf, cap, "[");
  for (int i = 0; i < ndim && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

void tensor_contiguous_strides(int ndim, const int64_t *shape, int64_t *stride) {
  int64_t s = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    stride[i] = s;
    s *= shape[i] > 0 ? shape[i] : 1;
  }
}

/* A new tensor's header: one reference, no offset, no autograd state. */
static inline void tensor_init_header(Tensor *t, DType dt, int ndim, int64_t numel, Storage *s) {
  t->refcount = 1;
  t->dtype = dt;
  t->ndim = ndim;
  t->numel = numel;
  t->offset = 0;
  t->storage = s;
  t->meta = NULL;
}

static Tensor *tensor_new_struct(DType dt, int ndim, const int64_t *shape, int64_t numel) {
  Tensor *t = tensor_struct_alloc();
  if (!t) {
    tensor_set_error("out of memory");
    return NULL;
  }
  tensor_init_header(t, dt, ndim, numel, NULL);
  if (ndim > 0) memcpy(t->shape, shape, (size_t)ndim * sizeof(int64_t));
  return t;
}

/* The hot path of scalar graphs: a contiguous tensor of a few dimensions
 * whose data fits inline, its struct and storage popped from the caches with
 * nothing to check (no dimension of at most 64 elements can overflow) and
 * only the fields a cached block lacks written. NULL when it does not apply.
 * Always inline: tensor_empty is then this path alone, without a frame. */
#define SMALL_MAX_DIMS 4
static inline __attribute__((always_inline)) Tensor *tensor_alloc_small(DType dt, int ndim,
                                                                       const int64_t *shape,
                                                                       bool zero) {
  AllocCache *cache = &tensor_state()->cache;
  if (!TENSOR_USE_CACHES || !cache->tensors || !cache->storages || ndim > SMALL_MAX_DIMS)
    return NULL;
  int64_t numel = 1;
  for (int i = 0; i < ndim; i++) {
    if ((uint64_t)shape[i] > TENSOR_INLINE_BYTES) return NULL; /* negative or large */
    numel *= shape[i];
  }
  size_t nbytes = (size_t)numel * dtype_size(dt);
  if (nbytes > TENSOR_INLINE_BYTES) return NULL;
  Storage *s = (Storage *)cache->storages; /* a cached inline block: data, capacity, flags set */
  cache->storages = cache->storages->next;
  cache->nstorages--;
  Tensor *t = (Tensor *)cache->tensors;
  cache->tensors = cache->tensors->next;
  cache->ntensors--;
  if (cache->tensors) __builtin_prefetch(cache->tensors, 1);
  if (cache->storages) __builtin_prefetch(cache->storages, 1);
  s->refcount = 1;
  s->nbytes = nbytes;
  s->version = 0;
  memory_count(nbytes);
  if (zero) memset(s->data, 0, TENSOR_INLINE_BYTES);
  tensor_init_header(t, dt, ndim, numel, s);
  int64_t stride = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    t->shape[i] = shape[i];
    t->stride[i] = stride;
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
  return t;
}

/* Everything else: checked shape and size, a storage of any size. Out of
 * line, so that tensor_alloc's fast path saves no registers. */
__attribute__((noinline)) static Tensor *tensor_alloc_general(DType dt, int ndim,
                                                             const int64_t *shape, bool zero) {
  int64_t numel;
  if (!tensor_check_shape(ndim, shape, &numel)) return NULL;
  /* In 64 bits, as PyTorch counts: a size_t of 32 bits (WebAssembly) would wrap. */
  int64_t nbytes;
  if (__builtin_mul_overflow(numel, (int64_t)dtype_size(dt), &nbytes)) {
    char buf[512];
    tensor_format_shape(buf, sizeof buf, ndim, shape);
    tensor_set_error("Storage size calculation overflowed with sizes=%s", buf); /* PyTorch's */
    return NULL;
  }
  if ((uint64_t)nbytes > (uint64_t)(PTRDIFF_MAX)) {
    set_allocation_error((unsigned long long)nbytes);
    return NULL;
  }
  Storage *s = tensor_storage_new((size_t)nbytes, zero);
  if (!s) return NULL;
  Tensor *t = tensor_new_struct(dt, ndim, shape, numel);
  if (!t) {
    storage_release(s);
    return NULL;
  }
  t->storage = s;
  tensor_contiguous_strides(ndim, shape, t->stride);
  return t;
}

static inline Tensor *tensor_alloc(DType dt, int ndim, const int64_t *shape, bool zero) {
  Tensor *small = tensor_alloc_small(dt, ndim, shape, zero);
  return small ? small : tensor_alloc_general(dt, ndim, shape, zero);
}

Tensor *tensor_empty(DType dt, int ndim, const int64_t *shape) {
  return tensor_alloc(dt, ndim, shape, false);
}

Tensor *tensor_zeros(DType dt, int ndim, const int64_t *shape) {
  return tensor_alloc(dt, ndim, shape, true);
}

Tensor *tensor_full(DType dt, int ndim, const int64_t *shape, double value) {
  if (!dtype_value_fits(dt, value, false)) return NULL;
  if (value == 0 && !signbit(value)) return tensor_zeros(dt, ndim, shape);
  Tensor *t = tensor_empty(dt, ndim, shape);
  if (t && !tensor_fill_raw(t, value)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

Tensor *tensor_scalar(DType dt, double value) {
  Tensor *t = tensor_empty(dt, 0, NULL);
  if (t) tensor_store_double(dt, tensor_data(t), value);
  return t;
}

Tensor *tensor_view_of(const Tensor *base, int ndim, const int64_t *shape, const int64_t *stride,
                       int64_t offset) {
  int64_t numel = 1;
  for (int i = 0; i < ndim; i++) numel *= shape[i];
  Tensor *t = tensor_new_struct(base->dtype, ndim, shape, numel);
  if (!t) return NULL;
  if (ndim > 0) memcpy(t->stride, stride, (size_t)ndim * sizeof(int64_t));
  t->offset = offset;
  t->storage = base->storage;
  t->storage->refcount++;
  return t;
}

Tensor *tensor_alias_unversioned(const Tensor *t) {
  Storage *owner = t->storage->is_alias ? t->storage->owner : t->storage;
  Storage *s = malloc(sizeof *s);
  Tensor *out = s ? tensor_view_of(t, t->ndim, t->shape, t->stride, t->offset) : NULL;
  if (!out) {
    free(s);
    tensor_set_error("out of memory");
    return NULL;
  }
  *s = (Storage){.refcount = 1, .nbytes = owner->nbytes, .data = owner->data, .owner = owner};
  s->is_alias = true;
  owner->refcount++;
  storage_release(out->storage); /* the view's reference to t's storage */
  out->storage = s;
  return out;
}

/* t takes src's elements, shape, strides and dtype (PyTorch's `t.data =
 * src`), under a version counter of its own that goes on from t's. */
bool tensor_set_data(Tensor *t, const Tensor *src) {
  Storage *owner = src->storage->is_alias ? src->storage->owner : src->storage;
  Storage *s = malloc(sizeof *s);
  if (!s) {
    tensor_set_error("out of memory");
    return false;
  }
  *s = (Storage){.refcount = 1, .nbytes = owner->nbytes, .data = owner->data, .owner = owner,
                 .version = t->storage->version};
  s->is_alias = true;
  owner->refcount++;
  storage_release(t->storage);
  t->storage = s;
  t->dtype = src->dtype;
  t->ndim = src->ndim;
  t->numel = src->numel;
  t->offset = src->offset;
  memcpy(t->shape, src->shape, sizeof t->shape);
  memcpy(t->stride, src->stride, sizeof t->stride);
  return true;
}

/* ---- element access ---- */

bool tensor_strides_contiguous(const Tensor *t) {
  if (t->numel == 0) return true;
  int64_t expected = 1;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->shape[i] == 1) continue;
    if (t->stride[i] != expected) return false;
    expected *= t->shape[i];
  }
  return true;
}

int64_t tensor_flat_offset(const Tensor *t, int64_t i) {
  int64_t off = t->offset;
  for (int d = t->ndim - 1; d >= 0; d--) {
    int64_t n = t->shape[d];
    off += (i % n) * t->stride[d];
    i /= n;
  }
  return off;
}

/* An integer dtype's value from a double: through int64 (x86's conversion,
 * as PyTorch shows), wrapping into the narrower type. float16 and bfloat16
 * round the double to float first, as c10::Half(double) does. */
#define STORE_INT(ctype, v) ((ctype)(uint64_t)tensor_double_to_i64(v))
#define STORE_VALUE(e, ctype, store, v)                                                     \
  (DT_##e == DT_BOOL ? (ctype)((v) != 0)                                                   \
   : dtype_kinds[DT_##e] == DK_INT ? STORE_INT(ctype, v) : (ctype)store(v))

double tensor_load_double(DType dt, const void *p) {
  switch (dt) {
#define DTYPE_LOAD(e, name, ctype, kind, torch, compute, load, store, ...)                        \
  case DT_##e: {                                                                           \
    ctype x;                                                                               \
    memcpy(&x, p, sizeof x);                                                               \
    return (double)load(x);                                                                \
  }
    AG_DTYPES(DTYPE_LOAD)
#undef DTYPE_LOAD
  default: return NAN;
  }
}

int64_t tensor_double_to_i64(double v) {
  /* x86's conversion gives INT64_MIN for NaN and out-of-range values (as PyTorch shows);
   * doing it explicitly avoids undefined behaviour. */
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
  return (int64_t)v;
}

void tensor_store_double(DType dt, void *p, double v) {
  switch (dt) {
#define DTYPE_STORE(e, name, ctype, kind, torch, compute, load, store, ...)                       \
  case DT_##e: {                                                                           \
    ctype x = STORE_VALUE(e, ctype, store, v);                                             \
    memcpy(p, &x, sizeof x);                                                               \
    return;                                                                                \
  }
    AG_DTYPES(DTYPE_STORE)
#undef DTYPE_STORE
  default: return;
  }
}

double tensor_get_flat(const Tensor *t, int64_t i) {
  const char *base = t->storage->data;
  return tensor_load_double(t->dtype, base + (size_t)tensor_flat_offset(t, i) * dtype_size(t->dtype));
}

int64_t tensor_get_flat_int(const Tensor *t, int64_t i) {
  const char *base = t->storage->data;
  const char *p = base + (size_t)tensor_flat_offset(t, i) * dtype_size(t->dtype);
  if (t->dtype == DT_INT64) {
    int64_t v;
    memcpy(&v, p, sizeof v);
    return v;
  }
  return (int64_t)tensor_load_double(t->dtype, p);
}

/* Integers are stored exactly (wrapping into narrower ones), others as doubles. */
static void store_int(DType dt, void *p, int64_t v) {
  switch (dt) {
#define DTYPE_STORE_INT(e, name, ctype, kind, ...)                                           \
  case DT_##e:                                                                             \
    if (kind == DK_INT) {                                                                  \
      ctype x = (ctype)(uint64_t)v;                                                        \
      memcpy(p, &x, sizeof x);                                                             \
      return;                                                                              \
    }                                                                                      \
    break;
    AG_DTYPES(DTYPE_STORE_INT)
#undef DTYPE_STORE_INT
  default: break;
  }
  tensor_store_double(dt, p, (double)v);
}

void tensor_set_flat_int(Tensor *t, int64_t i, int64_t v) {
  store_int(t->dtype, (char *)t->storage->data + (size_t)tensor_flat_offset(t, i) * dtype_size(t->dtype), v);
}

void tensor_set_flat(Tensor *t, int64_t i, double v) {
  char *base = t->storage->data;
  tensor_store_double(t->dtype, base + (size_t)tensor_flat_offset(t, i) * dtype_size(t->dtype), v);
}

double tensor_item(const Tensor *t) {
  if (t->numel != 1) {
    tensor_set_error("a Tensor with %lld elements cannot be converted to Scalar",
                     (long long)t->numel);
    return NAN;
  }
  return tensor_get_flat(t, 0);
}

void tensor_bump_version(Tensor *t) { t->storage->version++; }
