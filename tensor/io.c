/* io.c — NumPy .npy/.npz files and CSV, written atomically, read defensively.
 *
 * .npy (NumPy format v1.0 when writing; v1.0, v2.0 and v3.0 when reading):
 *   "\x93NUMPY" major minor, a little-endian header length (2 bytes in v1, 4 in
 *   v2/v3), then a Python dict literal {'descr': '<f4', 'fortran_order': False,
 *   'shape': (2, 3), } padded with spaces and a final '\n' so the data starts at
 *   a multiple of 64 bytes; then the raw elements.
 * .npz: a zip archive of NAME.npy members, stored uncompressed, as numpy.savez
 *   writes it. The reader trusts the central directory (numpy's local headers
 *   may carry zip64 placeholders), checks every member's CRC-32, and also
 *   inflates deflated members (numpy.savez_compressed).
 *
 * Files are read whole into memory and parsed from there, so every length can
 * be checked against the bytes actually present before anything is allocated
 * from it. Writers go through a temporary file in the target's folder that is
 * fsync'd and renamed over the target, or removed on any failure.
 */
#include "tensor/io.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
  NPY_ALIGN = 64,
  NPY_MAX_HEADER = 1 << 16, /* a header longer than this is corrupt, not a big array */
  NPY_PREAMBLE_V1 = 10,     /* magic (6) + version (2) + u16 length */
  NPY_PREAMBLE_V2 = 12      /* magic (6) + version (2) + u32 length */
};

static const char NPY_MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* Sets "PREFIX WHERE: MESSAGE" as the tensor error. */
static void io_error(const char *prefix, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void io_error(const char *prefix, const char *where, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tensor_set_error("%s %s: %s", prefix, where, msg);
}

#define READ_ERROR(where, ...) io_error("cannot read", where, __VA_ARGS__)
#define WRITE_ERROR(where, ...) io_error("cannot write", where, __VA_ARGS__)

/* ---- little-endian byte access ---- */

static bool host_is_little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

static uint64_t get_le(const uint8_t *p, int nbytes) {
  uint64_t v = 0;
  for (int i = nbytes - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static void put_le(uint8_t *p, uint64_t v, int nbytes) {
  for (int i = 0; i < nbytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void reverse_bytes(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n / 2; i++) {
    uint8_t c = p[i];
    p[i] = p[n - 1 - i];
    p[n - 1 - i] = c;
  }
}

/* ---- whole files in, atomic files out ---- */

/* Doubles the buffer; false (buffer untouched) if memory runs out. */
static bool grow_buffer(uint8_t **buf, size_t *cap) {
  uint8_t *grown = *cap <= SIZE_MAX / 2 ? realloc(*buf, *cap * 2) : NULL;
  if (!grown) return false;
  *buf = grown;
  *cap *= 2;
  return true;
}

static bool read_whole_file(const char *path, uint8_t **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    READ_ERROR(path, "%s", strerror(errno));
    return false;
  }
  /* a regular file's size gives the buffer in one go; pipes grow it */
  struct stat st;
  size_t cap = 1 << 16, n = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < SIZE_MAX / 2)
    cap = (size_t)st.st_size + 1;
  uint8_t *buf = malloc(cap);
  const char *problem = buf ? NULL : "out of memory";
  while (!problem) {
    /* an endless device (/dev/zero) or pipe: stop on Ctrl-C, and at 4 GiB */
    if (tensor_interrupt_requested) {
      problem = "Interrupted";
      break;
    }
    if (n == cap && (uint64_t)n >= ((uint64_t)1 << 32) && !(fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))) {
      problem = "more than 4 GiB from a device or pipe";
      break;
    }
    if (n == cap && !grow_buffer(&buf, &cap)) problem = "out of memory";
    size_t got = problem ? 0 : fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0 && !problem) problem = ferror(f) ? strerror(errno) : NULL;
    if (got == 0) break;
  }
  fclose(f);
  if (problem) {
    READ_ERROR(path, "%s", problem);
    free(buf);
    return false;
  }
  *out = buf;
  *len = n;
  return true;
}

typedef struct {
  const char *path; /* the final name */
  char *tmp_path;   /* PATH.tmp.XXXXXX, removed unless committed; NULL: writing in place */
  char *target;     /* what a symlink PATH points to (renamed onto), or NULL */
  int fd;
} AtomicFile;

static bool atomic_open(AtomicFile *af, const char *path) {
  af->path = path;
  af->fd = -1;
  af->tmp_path = af->target = NULL;
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    /* a device or FIFO (/dev/null, /dev/full, a pipe) is written in place, as
     * open() would: renaming a file over it would replace the device node */
    af->fd = open(path, O_WRONLY | O_TRUNC);
    if (af->fd < 0) {
      WRITE_ERROR(path, "%s", strerror(errno));
      return false;
    }
    return true;
  }
  struct stat lst;
  if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && (af->target = realpath(path, NULL)))
    path = af->target; /* replace the file the link names, not the link */
  size_t n = strlen(path);
  af->tmp_path = malloc(n + sizeof ".tmp.XXXXXX");
  if (!af->tmp_path) {
    WRITE_ERROR(path, "out of memory");
    return false;
  }
  memcpy(af->tmp_path, path, n);
  memcpy(af->tmp_path + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
  af->fd = mkstemp(af->tmp_path);
  if (af->fd < 0) {
    WRITE_ERROR(af->path, "cannot create a temporary file next to it: %s", strerror(errno));
    free(af->tmp_path);
    af->tmp_path = NULL;
    free(af->target);
    af->target = NULL;
    return false;
  }
  return true;
}

static void atomic_abort(AtomicFile *af) {
  if (af->fd >= 0) close(af->fd);
  if (af->tmp_path) unlink(af->tmp_path);
  free(af->tmp_path);
  af->tmp_path = NULL;
  free(af->target);
  af->target = NULL;
  af->fd = -1;
}

static bool atomic_write(AtomicFile *af, const void *data, size_t n) {
  const uint8_t *p = data;
  while (n > 0) {
    ssize_t w = write(af->fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      WRITE_ERROR(af->path, "%s", w < 0 ? strerror(errno) : "write failed");
      atomic_abort(af);
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

/* A new file gets mode 0644 (mkstemp makes 0600); a replaced one keeps its mode. */
static mode_t target_mode(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
  return 0644;
}

/* Makes the data durable, then puts it in place under the real name. */
static bool atomic_commit(AtomicFile *af) {
  const char *step = NULL;
  if (!af->tmp_path) { /* written in place (a device or FIFO) */
    int rc = close(af->fd);
    af->fd = -1;
    if (rc == 0) return true;
    WRITE_ERROR(af->path, "close failed: %s", strerror(errno));
    return false;
  }
  const char *dest = af->target ? af->target : af->path;
  if (fchmod(af->fd, target_mode(dest)) != 0) step = "fchmod";
  else if (fsync(af->fd) != 0) step = "fsync";
  else if (close(af->fd) != 0) step = "close";
  if (!step) af->fd = -1; /* closed */
  if (!step && rename(af->tmp_path, dest) != 0) step = "rename";
  if (step) {
    WRITE_ERROR(af->path, "%s failed: %s", step, strerror(errno));
    atomic_abort(af);
    return false;
  }
  free(af->tmp_path);
  af->tmp_path = NULL;
  free(af->target);
  af->target = NULL;
  return true;
}

/* ---- elements <-> little-endian bytes ---- */

/* Storage offset of the next element in row-major order (an odometer over
 * the tensor's shape), so strided views are written without a copy. */
typedef struct {
  const Tensor *t;
  int64_t index[TENSOR_MAX_DIMS];
  int64_t offset;
} RowMajorWalk;

static int64_t walk_next(RowMajorWalk *w) {
  int64_t here = w->offset;
  for (int d = w->t->ndim - 1; d >= 0; d--) {
    w->offset += w->t->stride[d];
    if (++w->index[d] < w->t->shape[d]) break;
    w->offset -= w->t->stride[d] * w->t->shape[d];
    w->index[d] = 0;
  }
  return here;
}

static void encode_elements(const Tensor *t, uint8_t *dst) {
  size_t size = dtype_size(t->dtype);
  bool swap = !host_is_little_endian();
  if (tensor_is_contiguous(t) && !swap && t->dtype != DT_BOOL) { /* the common case */
    if (t->numel) memcpy(dst, tensor_data(t), (size_t)t->numel * size);
    return;
  }
  const uint8_t *base = t->storage->data;
  RowMajorWalk w = {.t = t, .offset = t->offset};
  for (int64_t i = 0; i < t->numel; i++, dst += size) {
    const uint8_t *src = base + (size_t)walk_next(&w) * size;
    if (t->dtype == DT_BOOL) {
      *dst = *src != 0;
      continue;
    }
    memcpy(dst, src, size);
    if (swap) reverse_bytes(dst, size);
  }
}

/* ---- .npy encoding ---- */

static const char *npy_descr(DType dt) {
  switch (dt) {
  case DT_FLOAT32: return "<f4";
  case DT_FLOAT64: return "<f8";
  case DT_INT64: return "<i8";
  default: return "|b1";
  }
}

/* Python's repr of the shape tuple: (), (3,), (2, 3). */
static size_t format_shape_tuple(char *buf, size_t cap, int ndim, const int64_t *shape) {
  size_t used = (size_t)snprintf(buf, cap, "(");
  for (int d = 0; d < ndim && used < cap; d++)
    used += (size_t)snprintf(buf + used, cap - used, "%s%" PRId64, d ? ", " : "", shape[d]);
  if (used < cap) used += (size_t)snprintf(buf + used, cap - used, ndim == 1 ? ",)" : ")");
  return used;
}

/* Magic, version 1.0, length and padded dict; returns the byte count. The
 * buffer must hold NPY_ALIGN * 8 bytes (a 16-d shape needs under 500). */
static size_t npy_header(const Tensor *t, uint8_t *buf) {
  char shape[TENSOR_MAX_DIMS * 24 + 8];
  format_shape_tuple(shape, sizeof shape, t->ndim, t->shape);
  char *dict = (char *)buf + NPY_PREAMBLE_V1;
  int n = sprintf(dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                  npy_descr(t->dtype), shape);
  size_t total = NPY_PREAMBLE_V1 + (size_t)n + 1; /* + the final newline */
  size_t padded = (total + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
  memset(dict + n, ' ', padded - total);
  buf[padded - 1] = '\n';
  memcpy(buf, NPY_MAGIC, sizeof NPY_MAGIC);
  buf[6] = 1;
  buf[7] = 0;
  put_le(buf + 8, padded - NPY_PREAMBLE_V1, 2);
  return padded;
}

/* The whole .npy file in memory (malloc'd), or NULL. */
static uint8_t *npy_encode(const Tensor *t, size_t *len, const char *where) {
  uint8_t header[NPY_ALIGN * 8];
  size_t hlen = npy_header(t, header);
  size_t data_len = (size_t)t->numel * dtype_size(t->dtype);
  uint8_t *buf = malloc(hlen + data_len);
  if (!buf) {
    WRITE_ERROR(where, "out of memory");
    return NULL;
  }
  memcpy(buf, header, hlen);
  encode_elements(t, buf + hlen);
  *len = hlen + data_len;
  return buf;
}

bool tensor_save_npy(const Tensor *t, const char *path) {
  size_t len;
  uint8_t *bytes = npy_encode(t, &len, path);
  if (!bytes) return false;
  AtomicFile af;
  bool ok = atomic_open(&af, path) && atomic_write(&af, bytes, len) && atomic_commit(&af);
  free(bytes);
  return ok;
}

/* ---- .npy header parsing: a small reader for the dict literal ---- */

typedef struct {
  const char *p, *end;
  const char *where;
  bool failed;
} HeaderScan;

typedef struct {
  char descr[16];
  bool fortran_order;
  int ndim;
  int64_t shape[TENSOR_MAX_DIMS];
} NpyHeader;

static void scan_fail(HeaderScan *s, const char *what) {
  if (!s->failed) READ_ERROR(s->where, "malformed .npy header: %s", what);
  s->failed = true;
}

static void skip_space(HeaderScan *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
    s->p++;
}

static bool expect_char(HeaderScan *s, char c, const char *what) {
  skip_space(s);
  if (s->p < s->end && *s->p == c) {
    s->p++;
    return true;
  }
  scan_fail(s, what);
  return false;
}

/* A quoted Python string without escapes (numpy never writes any). */
static bool scan_string(HeaderScan *s, char *out, size_t cap) {
  skip_space(s);
  if (s->p >= s->end || (*s->p != '\'' && *s->p != '"')) {
    scan_fail(s, "expected a quoted string");
    return false;
  }
  char quote = *s->p++;
  size_t n = 0;
  while (s->p < s->end && *s->p != quote) {
    if (n + 1 >= cap || *s->p == '\\') {
      scan_fail(s, "unexpected string");
      return false;
    }
    out[n++] = *s->p++;
  }
  out[n] = '\0';
  return expect_char(s, quote, "unterminated string");
}

static bool scan_word(HeaderScan *s, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(s->end - s->p) >= n && memcmp(s->p, word, n) == 0) {
    s->p += n;
    return true;
  }
  return false;
}

static bool scan_bool(HeaderScan *s, bool *out) {
  skip_space(s);
  if (scan_word(s, "True")) *out = true;
  else if (scan_word(s, "False")) *out = false;
  else scan_fail(s, "'fortran_order' must be True or False");
  return !s->failed;
}

static bool scan_dim(HeaderScan *s, int64_t *out) {
  skip_space(s);
  if (s->p >= s->end || *s->p < '0' || *s->p > '9') {
    scan_fail(s, "a shape entry is not a non-negative integer");
    return false;
  }
  int64_t v = 0;
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
    if (v > (INT64_MAX - 9) / 10) {
      scan_fail(s, "a shape entry is absurdly large");
      return false;
    }
    v = v * 10 + (*s->p++ - '0');
  }
  if (s->p < s->end && *s->p == 'L') s->p++; /* Python 2 wrote (2L, 3L) */
  *out = v;
  return true;
}

/* (), (3,), (2, 3) and (2, 3,) */
static bool scan_shape(HeaderScan *s, NpyHeader *h) {
  if (!expect_char(s, '(', "'shape' must be a tuple")) return false;
  h->ndim = 0;
  for (;;) {
    skip_space(s);
    if (s->p < s->end && *s->p == ')') break;
    if (h->ndim == TENSOR_MAX_DIMS) {
      READ_ERROR(s->where, "the array has more than %d dimensions", TENSOR_MAX_DIMS);
      s->failed = true;
      return false;
    }
    if (!scan_dim(s, &h->shape[h->ndim++])) return false;
    skip_space(s);
    if (s->p < s->end && *s->p == ',') s->p++;
    else if (s->p >= s->end || *s->p != ')') {
      scan_fail(s, "expected ',' or ')' in 'shape'");
      return false;
    }
  }
  s->p++;
  return true;
}

enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };

static bool scan_entry(HeaderScan *s, NpyHeader *h, int *seen) {
  char key[32];
  if (!scan_string(s, key, sizeof key) || !expect_char(s, ':', "expected ':' after a key"))
    return false;
  int bit = strcmp(key, "descr") == 0           ? KEY_DESCR
            : strcmp(key, "fortran_order") == 0 ? KEY_FORTRAN
            : strcmp(key, "shape") == 0         ? KEY_SHAPE
                                                : 0;
  if (!bit || (*seen & bit)) {
    READ_ERROR(s->where, "malformed .npy header: %s key '%s'", bit ? "repeated" : "unexpected",
               key);
    s->failed = true;
    return false;
  }
  *seen |= bit;
  if (bit == KEY_DESCR) {
    skip_space(s);
    if (s->p < s->end && *s->p == '[') {
      READ_ERROR(s->where, "structured arrays are not supported");
      s->failed = true;
      return false;
    }
    return scan_string(s, h->descr, sizeof h->descr);
  }
  return bit == KEY_FORTRAN ? scan_bool(s, &h->fortran_order) : scan_shape(s, h);
}

static bool parse_header_dict(const char *text, size_t len, const char *where, NpyHeader *h) {
  HeaderScan s = {text, text + len, where, false};
  int seen = 0;
  if (!expect_char(&s, '{', "expected '{'")) return false;
  for (;;) {
    skip_space(&s);
    if (s.p < s.end && *s.p == '}') break;
    if (!scan_entry(&s, h, &seen)) return false;
    skip_space(&s);
    if (s.p < s.end && *s.p == ',') s.p++;
    else if (s.p >= s.end || *s.p != '}') {
      scan_fail(&s, "expected ',' or '}'");
      return false;
    }
  }
  s.p++;
  skip_space(&s);
  if (s.p != s.end) scan_fail(&s, "text after the closing '}'");
  else if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE))
    scan_fail(&s, "it needs the keys 'descr', 'fortran_order' and 'shape'");
  return !s.failed;
}

/* ---- .npy decoding ---- */

/* What a descr like '<f4' means and which Ag dtype it loads as. */
typedef struct {
  char kind; /* 'f', 'i', 'u' or 'b' */
  int size;  /* bytes per element */
  bool swap; /* the file's byte order differs from the host's */
  DType dtype;
} NpyType;

static bool decode_descr(const char *descr, const char *where, NpyType *ty) {
  char order = descr[0];
  ty->kind = order ? descr[1] : '\0';
  ty->size = ty->kind ? atoi(descr + 2) : 0;
  bool known = (ty->kind == 'f' && (ty->size == 4 || ty->size == 8)) ||
               ((ty->kind == 'i' || ty->kind == 'u') &&
                (ty->size == 1 || ty->size == 2 || ty->size == 4 || ty->size == 8)) ||
               (ty->kind == 'b' && ty->size == 1);
  char digits[8];
  snprintf(digits, sizeof digits, "%d", ty->size);
  known = known && strcmp(descr + 2, digits) == 0;
  bool order_ok = order == '<' || order == '>' || order == '=' || (order == '|' && ty->size == 1);
  if (!known || !order_ok) {
    READ_ERROR(where,
               "unsupported dtype '%s' (Ag loads float32, float64, bool and integer arrays, "
               "integers as int64)",
               descr);
    return false;
  }
  bool file_little = order == '<' || (order == '=' && host_is_little_endian());
  ty->swap = ty->size > 1 && order != '|' && file_little != host_is_little_endian();
  ty->dtype = ty->kind == 'f' ? (ty->size == 4 ? DT_FLOAT32 : DT_FLOAT64)
              : ty->kind == 'b' ? DT_BOOL
                                : DT_INT64;
  return true;
}

/* One file element (already in host byte order) stored into `dst` as t's dtype.
 * Returns false for a uint64 value beyond int64's range. */
static bool store_element(const NpyType *ty, const uint8_t *raw, uint8_t *dst) {
  if (ty->kind == 'f' || ty->kind == 'b') {
    memcpy(dst, raw, (size_t)ty->size);
    if (ty->kind == 'b') *dst = *dst != 0;
    return true;
  }
  int64_t v;
  switch (ty->size) {
  case 1: v = ty->kind == 'i' ? (int64_t)(int8_t)raw[0] : (int64_t)raw[0]; break;
  case 2: {
    uint16_t u;
    memcpy(&u, raw, 2);
    v = ty->kind == 'i' ? (int64_t)(int16_t)u : (int64_t)u;
    break;
  }
  case 4: {
    uint32_t u;
    memcpy(&u, raw, 4);
    v = ty->kind == 'i' ? (int64_t)(int32_t)u : (int64_t)u;
    break;
  }
  default: {
    uint64_t u;
    memcpy(&u, raw, 8);
    if (ty->kind == 'u' && u > (uint64_t)INT64_MAX) return false;
    v = (int64_t)u;
  }
  }
  memcpy(dst, &v, sizeof v);
  return true;
}

/* Row-major position of the k-th element of a Fortran-ordered file, advanced
 * like an odometer whose first digit turns fastest. */
typedef struct {
  const Tensor *t;
  int64_t index[TENSOR_MAX_DIMS];
  int64_t row_stride[TENSOR_MAX_DIMS];
  int64_t position;
} FortranWalk;

static void fortran_walk_init(FortranWalk *w, const Tensor *t) {
  memset(w, 0, sizeof *w);
  w->t = t;
  int64_t stride = 1;
  for (int d = t->ndim - 1; d >= 0; d--) {
    w->row_stride[d] = stride;
    stride *= t->shape[d];
  }
}

static int64_t fortran_walk_next(FortranWalk *w) {
  int64_t here = w->position;
  for (int d = 0; d < w->t->ndim; d++) {
    w->position += w->row_stride[d];
    if (++w->index[d] < w->t->shape[d]) break;
    w->position -= w->row_stride[d] * w->t->shape[d];
    w->index[d] = 0;
  }
  return here;
}

static bool decode_elements(const uint8_t *src, const NpyType *ty, bool fortran, Tensor *t,
                            const char *where) {
  uint8_t *base = tensor_data(t);
  size_t out_size = dtype_size(t->dtype);
  bool same_layout = !fortran && !ty->swap && (size_t)ty->size == out_size && ty->kind != 'b' &&
                     ty->kind != 'u';
  if (same_layout) { /* the common case: the file holds our exact bytes */
    if (t->numel) memcpy(base, src, (size_t)t->numel * out_size);
    return true;
  }
  FortranWalk w;
  if (fortran) fortran_walk_init(&w, t);
  for (int64_t k = 0; k < t->numel; k++, src += ty->size) {
    uint8_t raw[8];
    memcpy(raw, src, (size_t)ty->size);
    if (ty->swap) reverse_bytes(raw, (size_t)ty->size);
    int64_t pos = fortran ? fortran_walk_next(&w) : k;
    if (!store_element(ty, raw, base + (size_t)pos * out_size)) {
      READ_ERROR(where, "a uint64 value does not fit in int64");
      return false;
    }
  }
  return true;
}

/* Element count of the shape, or -1 if it overflows (a corrupt header). */
static int64_t shape_numel(const NpyHeader *h) {
  int64_t n = 1;
  bool overflow = false;
  for (int d = 0; d < h->ndim; d++) {
    if (h->shape[d] != 0 && n > INT64_MAX / 8 / h->shape[d]) overflow = true;
    else n *= h->shape[d];
  }
  return overflow ? -1 : n;
}

/* Splits the preamble: returns the header dict's text and where data starts. */
static bool npy_split(const uint8_t *buf, size_t len, const char *where, const char **dict,
                      size_t *dict_len, size_t *data_start) {
  if (len < NPY_PREAMBLE_V1 || memcmp(buf, NPY_MAGIC, sizeof NPY_MAGIC) != 0) {
    READ_ERROR(where, "not a .npy file (%s)", len < NPY_PREAMBLE_V1 ? "too short" : "bad magic");
    return false;
  }
  int major = buf[6];
  if (major < 1 || major > 3) {
    READ_ERROR(where, "unsupported .npy format version %d.%d", major, buf[7]);
    return false;
  }
  size_t preamble = major == 1 ? NPY_PREAMBLE_V1 : NPY_PREAMBLE_V2;
  if (len < preamble) {
    READ_ERROR(where, "truncated .npy header");
    return false;
  }
  uint64_t hlen = get_le(buf + 8, major == 1 ? 2 : 4);
  if (hlen > NPY_MAX_HEADER) {
    READ_ERROR(where, ".npy header too long (%" PRIu64 " bytes)", hlen);
    return false;
  }
  if (hlen > len - preamble) {
    READ_ERROR(where, "truncated .npy header (%" PRIu64 " bytes announced, %zu present)", hlen,
               len - preamble);
    return false;
  }
  *dict = (const char *)buf + preamble;
  *dict_len = (size_t)hlen;
  *data_start = preamble + (size_t)hlen;
  return true;
}

/* A tensor from the bytes of a whole .npy file; `where` names it in errors. */
static Tensor *npy_decode(const uint8_t *buf, size_t len, const char *where) {
  const char *dict;
  size_t dict_len, data_start;
  NpyHeader h;
  NpyType ty;
  if (!npy_split(buf, len, where, &dict, &dict_len, &data_start) ||
      !parse_header_dict(dict, dict_len, where, &h) || !decode_descr(h.descr, where, &ty))
    return NULL;
  int64_t numel = shape_numel(&h);
  uint64_t needed = numel < 0 ? UINT64_MAX : (uint64_t)numel * (uint64_t)ty.size;
  if (needed != len - data_start) {
    char shape[TENSOR_MAX_DIMS * 24 + 8];
    format_shape_tuple(shape, sizeof shape, h.ndim, h.shape);
    READ_ERROR(where, "%s: shape %s of '%s' needs %s%" PRIu64 " bytes of data, the file has %zu",
               needed > len - data_start ? "truncated" : "corrupt", shape, h.descr,
               numel < 0 ? "over " : "", numel < 0 ? (uint64_t)INT64_MAX : needed,
               len - data_start);
    return NULL;
  }
  Tensor *t = tensor_empty(ty.dtype, h.ndim, h.shape);
  if (!t) return NULL;
  if (!decode_elements(buf + data_start, &ty, h.fortran_order, t, where)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

Tensor *tensor_load_npy(const char *path) {
  uint8_t *buf;
  size_t len;
  if (!read_whole_file(path, &buf, &len)) return NULL;
  Tensor *t = npy_decode(buf, len, path);
  free(buf);
  return t;
}

/* ---- CRC-32 (the zip/PNG polynomial 0xEDB88320) ---- */

/* Table-driven, a byte at a time; the 1 KiB table is rebuilt per call (a few
 * microseconds) rather than kept as mutable global state. */
static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n) {
  uint32_t table[256];
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    table[i] = c;
  }
  crc = ~crc;
  while (n--) crc = (crc >> 8) ^ table[(crc ^ *p++) & 0xFF];
  return ~crc;
}

/* ---- .npz writing ---- */

enum {
  ZIP_LOCAL_SIG = 0x04034b50,
  ZIP_CENTRAL_SIG = 0x02014b50,
  ZIP_END_SIG = 0x06054b50,
  ZIP64_END_SIG = 0x06064b50,
  ZIP64_LOCATOR_SIG = 0x07064b50,
  ZIP_LOCAL_SIZE = 30,
  ZIP_CENTRAL_SIZE = 46,
  ZIP_END_SIZE = 22,
  ZIP_STORED = 0,
  ZIP_DEFLATED = 8,
  ZIP_VERSION = 20,        /* 2.0: what Python's zipfile writes for stored members */
  ZIP_MADE_BY_UNIX = 0x0314 /* unix, version 2.0 */
};

#define ZIP_MAX32 0xFFFFFFFFu

typedef struct {
  char *name; /* NAME.npy */
  uint32_t crc, size, offset;
} ZipMember;

static void dos_time(uint16_t *time_out, uint16_t *date_out) {
  time_t now = time(NULL);
  struct tm tm;
  if (!localtime_r(&now, &tm) || tm.tm_year < 80) {
    *time_out = 0;
    *date_out = (1 << 5) | 1; /* 1980-01-01 */
    return;
  }
  *time_out = (uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  *date_out = (uint16_t)(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
}

/* The fields local and central headers share, from "version needed" on. */
static void put_common_fields(uint8_t *p, const ZipMember *m, uint16_t tm, uint16_t dt) {
  put_le(p, ZIP_VERSION, 2);
  put_le(p + 2, 0, 2); /* flags */
  put_le(p + 4, 0, 2); /* method: stored */
  put_le(p + 6, tm, 2);
  put_le(p + 8, dt, 2);
  put_le(p + 10, m->crc, 4);
  put_le(p + 14, m->size, 4); /* compressed */
  put_le(p + 18, m->size, 4); /* uncompressed */
  put_le(p + 22, strlen(m->name), 2);
  put_le(p + 24, 0, 2); /* extra field length */
}

static bool zip_write_member(AtomicFile *af, ZipMember *m, const uint8_t *data, uint16_t tm,
                             uint16_t dt) {
  uint8_t hdr[ZIP_LOCAL_SIZE];
  put_le(hdr, ZIP_LOCAL_SIG, 4);
  put_common_fields(hdr + 4, m, tm, dt);
  return atomic_write(af, hdr, sizeof hdr) && atomic_write(af, m->name, strlen(m->name)) &&
         atomic_write(af, data, m->size);
}

static bool zip_write_directory(AtomicFile *af, const ZipMember *ms, int n, uint32_t cd_offset,
                                uint16_t tm, uint16_t dt) {
  uint32_t cd_size = 0;
  for (int i = 0; i < n; i++) {
    uint8_t hdr[ZIP_CENTRAL_SIZE] = {0};
    put_le(hdr, ZIP_CENTRAL_SIG, 4);
    put_le(hdr + 4, ZIP_MADE_BY_UNIX, 2);
    put_common_fields(hdr + 6, &ms[i], tm, dt);
    put_le(hdr + 38, (uint32_t)0100644 << 16, 4); /* external attributes: a 0644 file */
    put_le(hdr + 42, ms[i].offset, 4);
    size_t name_len = strlen(ms[i].name);
    if (!atomic_write(af, hdr, sizeof hdr) || !atomic_write(af, ms[i].name, name_len))
      return false;
    cd_size += (uint32_t)(sizeof hdr + name_len);
  }
  uint8_t end[ZIP_END_SIZE] = {0};
  put_le(end, ZIP_END_SIG, 4);
  put_le(end + 8, (uint64_t)n, 2);
  put_le(end + 10, (uint64_t)n, 2);
  put_le(end + 12, cd_size, 4);
  put_le(end + 16, cd_offset, 4);
  return atomic_write(af, end, sizeof end);
}

/* Member names: "NAME.npy", distinct and short enough for a zip entry. */
static bool npz_member_names(const char *path, const char *const *names, int n, ZipMember *ms) {
  for (int i = 0; i < n; i++) {
    size_t len = strlen(names[i]);
    if (len > 0xFFFF - 4) {
      WRITE_ERROR(path, "the name '%.40s...' is too long", names[i]);
      return false;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(names[i], names[j]) == 0) {
        WRITE_ERROR(path, "the name '%s' appears twice", names[i]);
        return false;
      }
    ms[i].name = malloc(len + 5);
    if (!ms[i].name) {
      WRITE_ERROR(path, "out of memory");
      return false;
    }
    memcpy(ms[i].name, names[i], len);
    memcpy(ms[i].name + len, ".npy", 5);
  }
  return true;
}

/* Appends one member, checking the archive stays within the 4 GiB that a
 * zip without zip64 records can address. */
static bool npz_add(AtomicFile *af, ZipMember *m, const Tensor *t, uint64_t *offset, uint16_t tm,
                    uint16_t dt) {
  size_t len;
  uint8_t *bytes = npy_encode(t, &len, af->path);
  if (!bytes) {
    atomic_abort(af);
    return false;
  }
  uint64_t end = *offset + ZIP_LOCAL_SIZE + strlen(m->name) + len;
  if (end >= ZIP_MAX32) {
    WRITE_ERROR(af->path, "the archive would exceed 4 GiB, which .npz writing does not support");
    free(bytes);
    atomic_abort(af);
    return false;
  }
  m->crc = crc32_update(0, bytes, len);
  m->size = (uint32_t)len;
  m->offset = (uint32_t)*offset;
  bool ok = zip_write_member(af, m, bytes, tm, dt);
  free(bytes);
  *offset = end;
  return ok;
}

bool tensor_save_npz(const char *path, const char *const *names, Tensor *const *ts, int n) {
  if (n < 0 || n >= 0xFFFF) {
    WRITE_ERROR(path, "an .npz file holds at most 65534 arrays, not %d", n);
    return false;
  }
  ZipMember *ms = calloc((size_t)n + 1, sizeof *ms);
  if (!ms) {
    WRITE_ERROR(path, "out of memory");
    return false;
  }
  uint16_t tm, dt;
  dos_time(&tm, &dt);
  AtomicFile af;
  uint64_t offset = 0;
  bool ok = npz_member_names(path, names, n, ms) && atomic_open(&af, path);
  for (int i = 0; ok && i < n; i++) ok = npz_add(&af, &ms[i], ts[i], &offset, tm, dt);
  /* the directory itself must also start and end below 4 GiB */
  if (ok && offset + (uint64_t)n * (ZIP_CENTRAL_SIZE + 0xFFFF) >= ZIP_MAX32) {
    WRITE_ERROR(path, "the archive would exceed 4 GiB, which .npz writing does not support");
    atomic_abort(&af);
    ok = false;
  }
  ok = ok && zip_write_directory(&af, ms, n, (uint32_t)offset, tm, dt) && atomic_commit(&af);
  for (int i = 0; i < n; i++) free(ms[i].name);
  free(ms);
  return ok;
}

/* ---- inflate (RFC 1951), for numpy.savez_compressed members ----
 *
 * A small, careful decoder in the manner of zlib's "puff": canonical Huffman
 * codes decoded a bit at a time. Every input read and every output write is
 * bounds-checked, since the stream comes from an untrusted file. */

enum { INFLATE_MAX_BITS = 15, INFLATE_MAX_LITLEN = 288, INFLATE_MAX_DIST = 30 };

typedef struct {
  const uint8_t *in;
  size_t in_len, in_pos;
  uint32_t bit_buf;
  int bit_count;
  uint8_t *out;
  size_t out_len, out_pos;
  const char *problem; /* set on the first error */
} Inflater;

typedef struct {
  int16_t count[INFLATE_MAX_BITS + 1]; /* number of codes of each length */
  int16_t symbol[INFLATE_MAX_LITLEN];  /* symbols ordered by code */
} Huffman;

static void inflate_fail(Inflater *s, const char *problem) {
  if (!s->problem) s->problem = problem;
}

/* `need` bits (up to 16), least significant first, as DEFLATE packs them. */
static uint32_t inflate_bits(Inflater *s, int need) {
  while (s->bit_count < need) {
    if (s->in_pos == s->in_len) {
      inflate_fail(s, "the compressed data ends early");
      return 0;
    }
    s->bit_buf |= (uint32_t)s->in[s->in_pos++] << s->bit_count;
    s->bit_count += 8;
  }
  uint32_t v = s->bit_buf & ((1u << need) - 1);
  s->bit_buf >>= need;
  s->bit_count -= need;
  return v;
}

/* Builds the decoding tables from code lengths. Returns the unused code space:
 * 0 for a complete code, > 0 for an incomplete one, < 0 if over-subscribed. */
static int huffman_build(Huffman *h, const uint8_t *lengths, int n) {
  memset(h->count, 0, sizeof h->count);
  for (int i = 0; i < n; i++) h->count[lengths[i]]++;
  if (h->count[0] == n) return 0; /* no codes: complete, but unusable */
  int left = 1;
  for (int len = 1; len <= INFLATE_MAX_BITS; len++) {
    left = left * 2 - h->count[len];
    if (left < 0) return left;
  }
  int16_t offsets[INFLATE_MAX_BITS + 1];
  offsets[1] = 0;
  for (int len = 1; len < INFLATE_MAX_BITS; len++) offsets[len + 1] = offsets[len] + h->count[len];
  for (int i = 0; i < n; i++)
    if (lengths[i]) h->symbol[offsets[lengths[i]]++] = (int16_t)i;
  return left;
}

/* The next symbol, walking the canonical code one bit at a time. */
static int huffman_decode(Inflater *s, const Huffman *h) {
  int code = 0, first = 0, index = 0;
  for (int len = 1; len <= INFLATE_MAX_BITS; len++) {
    code |= (int)inflate_bits(s, 1);
    if (s->problem) return -1;
    int count = h->count[len];
    if (code - count < first) return h->symbol[index + (code - first)];
    index += count;
    first = (first + count) << 1;
    code <<= 1;
  }
  inflate_fail(s, "invalid Huffman code");
  return -1;
}

static void inflate_stored(Inflater *s) {
  s->bit_buf = 0; /* a stored block starts at a byte boundary */
  s->bit_count = 0;
  if (s->in_len - s->in_pos < 4) {
    inflate_fail(s, "the compressed data ends early");
    return;
  }
  size_t len = get_le(s->in + s->in_pos, 2), nlen = get_le(s->in + s->in_pos + 2, 2);
  s->in_pos += 4;
  if (len != (~nlen & 0xFFFF)) inflate_fail(s, "a stored block's length check fails");
  else if (len > s->in_len - s->in_pos) inflate_fail(s, "the compressed data ends early");
  else if (len > s->out_len - s->out_pos) inflate_fail(s, "more data than the member's size");
  if (s->problem) return;
  memcpy(s->out + s->out_pos, s->in + s->in_pos, len);
  s->in_pos += len;
  s->out_pos += len;
}

static const uint16_t LENGTH_BASE[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,
                                         15, 17, 19, 23, 27, 31, 35, 43, 51,  59,
                                         67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t LENGTH_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t DIST_BASE[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                       33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t DIST_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* A back-reference: copy `len` bytes from `dist` bytes back in the output. */
static void inflate_copy(Inflater *s, int len_symbol, const Huffman *dist_code) {
  int li = len_symbol - 257;
  if (li >= 29) {
    inflate_fail(s, "invalid length symbol");
    return;
  }
  size_t len = LENGTH_BASE[li] + inflate_bits(s, LENGTH_EXTRA[li]);
  int di = huffman_decode(s, dist_code);
  if (s->problem) return;
  if (di >= INFLATE_MAX_DIST) {
    inflate_fail(s, "invalid distance symbol");
    return;
  }
  size_t dist = DIST_BASE[di] + inflate_bits(s, DIST_EXTRA[di]);
  if (s->problem) return;
  if (dist > s->out_pos) inflate_fail(s, "a distance reaches before the start");
  else if (len > s->out_len - s->out_pos) inflate_fail(s, "more data than the member's size");
  for (; !s->problem && len > 0; len--, s->out_pos++) s->out[s->out_pos] = s->out[s->out_pos - dist];
}

static void inflate_codes(Inflater *s, const Huffman *lit_code, const Huffman *dist_code) {
  for (;;) {
    int symbol = huffman_decode(s, lit_code);
    if (s->problem || symbol == 256) return;
    if (symbol < 256) {
      if (s->out_pos == s->out_len) {
        inflate_fail(s, "more data than the member's size");
        return;
      }
      s->out[s->out_pos++] = (uint8_t)symbol;
    } else {
      inflate_copy(s, symbol, dist_code);
      if (s->problem) return;
    }
  }
}

static void inflate_fixed(Inflater *s) {
  uint8_t lengths[INFLATE_MAX_LITLEN];
  Huffman lit_code, dist_code;
  for (int i = 0; i < INFLATE_MAX_LITLEN; i++)
    lengths[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  huffman_build(&lit_code, lengths, INFLATE_MAX_LITLEN);
  memset(lengths, 5, INFLATE_MAX_DIST);
  huffman_build(&dist_code, lengths, INFLATE_MAX_DIST);
  inflate_codes(s, &lit_code, &dist_code);
}

/* Reads the literal/length and distance code lengths, themselves Huffman
 * coded with run-length symbols 16 (repeat), 17 and 18 (zeros). */
static bool inflate_read_lengths(Inflater *s, uint8_t *lengths, int total) {
  static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  uint8_t cl_lengths[19] = {0};
  int ncode = (int)inflate_bits(s, 4) + 4;
  for (int i = 0; i < ncode; i++) cl_lengths[order[i]] = (uint8_t)inflate_bits(s, 3);
  Huffman cl_code;
  if (s->problem) return false;
  if (huffman_build(&cl_code, cl_lengths, 19) != 0) {
    inflate_fail(s, "invalid code-length code");
    return false;
  }
  for (int i = 0; i < total && !s->problem;) {
    int symbol = huffman_decode(s, &cl_code);
    if (symbol < 16) {
      if (symbol >= 0) lengths[i++] = (uint8_t)symbol;
      continue;
    }
    if (symbol == 16 && i == 0) {
      inflate_fail(s, "a repeat with no previous length");
      break;
    }
    uint8_t value = symbol == 16 ? lengths[i - 1] : 0;
    int repeat = symbol == 16 ? 3 + (int)inflate_bits(s, 2)
                 : symbol == 17 ? 3 + (int)inflate_bits(s, 3)
                                : 11 + (int)inflate_bits(s, 7);
    if (i + repeat > total) inflate_fail(s, "too many code lengths");
    while (!s->problem && repeat--) lengths[i++] = value;
  }
  return !s->problem;
}

/* An incomplete code is allowed only when it is a single one-bit code. */
static bool huffman_usable(const Huffman *h, int left, int n) {
  return left == 0 || (left > 0 && n - h->count[0] == 1 && h->count[1] == 1);
}

static void inflate_dynamic(Inflater *s) {
  int nlen = (int)inflate_bits(s, 5) + 257;
  int ndist = (int)inflate_bits(s, 5) + 1;
  if (s->problem) return;
  if (nlen > 286 || ndist > INFLATE_MAX_DIST) {
    inflate_fail(s, "too many length or distance codes");
    return;
  }
  uint8_t lengths[INFLATE_MAX_LITLEN + INFLATE_MAX_DIST] = {0};
  if (!inflate_read_lengths(s, lengths, nlen + ndist)) return;
  if (lengths[256] == 0) {
    inflate_fail(s, "no end-of-block code");
    return;
  }
  Huffman lit_code, dist_code;
  int lit_left = huffman_build(&lit_code, lengths, nlen);
  int dist_left = huffman_build(&dist_code, lengths + nlen, ndist);
  if (!huffman_usable(&lit_code, lit_left, nlen) || !huffman_usable(&dist_code, dist_left, ndist)) {
    inflate_fail(s, "invalid Huffman code lengths");
    return;
  }
  inflate_codes(s, &lit_code, &dist_code);
}

/* Inflates a raw DEFLATE stream that must produce exactly `size` bytes.
 * Returns a malloc'd buffer, or NULL with the error set. */
static uint8_t *inflate_member(const uint8_t *in, size_t in_len, size_t size, const char *where) {
  /* DEFLATE cannot expand more than 1032:1; a larger claim is corrupt, and
   * refusing it keeps a tiny file from making us allocate gigabytes. */
  if (size / 1032 > in_len + 1) {
    READ_ERROR(where, "corrupt zip: impossible uncompressed size %zu", size);
    return NULL;
  }
  Inflater s = {.in = in, .in_len = in_len, .out_len = size};
  s.out = malloc(size ? size : 1);
  if (!s.out) {
    READ_ERROR(where, "out of memory");
    return NULL;
  }
  bool last = false;
  while (!last && !s.problem) {
    last = inflate_bits(&s, 1);
    uint32_t type = inflate_bits(&s, 2);
    if (s.problem) break;
    if (type == 0) inflate_stored(&s);
    else if (type == 1) inflate_fixed(&s);
    else if (type == 2) inflate_dynamic(&s);
    else inflate_fail(&s, "invalid block type");
  }
  if (!s.problem && s.out_pos != size) s.problem = "less data than the member's size";
  if (s.problem) {
    READ_ERROR(where, "corrupt compressed member: %s", s.problem);
    free(s.out);
    return NULL;
  }
  return s.out;
}

/* ---- .npz reading ---- */

typedef struct {
  const uint8_t *buf;
  size_t len;
  const char *path;
} ZipArchive;

typedef struct {
  uint64_t entries, cd_offset, cd_size;
} ZipDirectory;

/* The end-of-central-directory record: the last signature that fits, found by
 * scanning back over a possible archive comment (at most 65535 bytes). */
static bool zip_find_end(const ZipArchive *z, size_t *pos) {
  if (z->len < ZIP_END_SIZE) return false;
  size_t lowest = z->len > ZIP_END_SIZE + 0xFFFF ? z->len - ZIP_END_SIZE - 0xFFFF : 0;
  for (size_t p = z->len - ZIP_END_SIZE + 1; p-- > lowest;) {
    if (get_le(z->buf + p, 4) == ZIP_END_SIG &&
        p + ZIP_END_SIZE + get_le(z->buf + p + 20, 2) <= z->len) {
      *pos = p;
      return true;
    }
  }
  return false;
}

/* Replaces the 16/32-bit directory figures by the zip64 record's, when the
 * classic record says "see zip64" (0xFFFF / 0xFFFFFFFF). */
static bool zip_read_zip64_end(const ZipArchive *z, size_t end_pos, ZipDirectory *d) {
  if (end_pos < 20 || get_le(z->buf + end_pos - 20, 4) != ZIP64_LOCATOR_SIG) {
    READ_ERROR(z->path, "corrupt zip: a zip64 size is announced but no zip64 record found");
    return false;
  }
  uint64_t rec = get_le(z->buf + end_pos - 20 + 8, 8);
  if (rec > end_pos - 20 || end_pos - 20 - rec < 56 || get_le(z->buf + rec, 4) != ZIP64_END_SIG) {
    READ_ERROR(z->path, "corrupt zip: bad zip64 end record");
    return false;
  }
  d->entries = get_le(z->buf + rec + 32, 8);
  d->cd_size = get_le(z->buf + rec + 40, 8);
  d->cd_offset = get_le(z->buf + rec + 48, 8);
  return true;
}

static bool zip_read_directory(const ZipArchive *z, ZipDirectory *d, size_t *end_pos) {
  if (!zip_find_end(z, end_pos)) {
    READ_ERROR(z->path, "not an .npz file (no zip end-of-directory record)");
    return false;
  }
  const uint8_t *e = z->buf + *end_pos;
  if (get_le(e + 4, 2) != 0 || get_le(e + 6, 2) != 0) {
    READ_ERROR(z->path, "multi-disk zip archives are not supported");
    return false;
  }
  d->entries = get_le(e + 10, 2);
  d->cd_size = get_le(e + 12, 4);
  d->cd_offset = get_le(e + 16, 4);
  if ((d->entries == 0xFFFF || d->cd_size == ZIP_MAX32 || d->cd_offset == ZIP_MAX32) &&
      !zip_read_zip64_end(z, *end_pos, d))
    return false;
  if (d->cd_offset > *end_pos || d->cd_size > *end_pos - d->cd_offset ||
      d->entries > d->cd_size / ZIP_CENTRAL_SIZE || d->entries >= INT32_MAX) {
    READ_ERROR(z->path, "corrupt zip: the central directory lies outside the file");
    return false;
  }
  return true;
}

/* One central-directory entry, with zip64 extra fields applied. */
typedef struct {
  uint16_t flags, method;
  uint32_t crc;
  uint64_t comp_size, size, local_offset;
  const char *name;
  size_t name_len;
} ZipEntry;

static bool zip_apply_zip64_extra(const uint8_t *extra, size_t len, ZipEntry *e) {
  while (len >= 4) {
    uint16_t id = (uint16_t)get_le(extra, 2);
    size_t size = get_le(extra + 2, 2);
    if (size > len - 4) return false;
    if (id == 0x0001) {
      const uint8_t *p = extra + 4, *end = p + size;
      uint64_t *fields[3] = {&e->size, &e->comp_size, &e->local_offset};
      for (int i = 0; i < 3; i++) {
        if (*fields[i] != ZIP_MAX32) continue;
        if (end - p < 8) return false;
        *fields[i] = get_le(p, 8);
        p += 8;
      }
    }
    extra += 4 + size;
    len -= 4 + size;
  }
  return true;
}

static bool zip_parse_entry(const ZipArchive *z, const uint8_t *p, size_t room, ZipEntry *e,
                            size_t *entry_len) {
  if (room < ZIP_CENTRAL_SIZE || get_le(p, 4) != ZIP_CENTRAL_SIG) {
    READ_ERROR(z->path, "corrupt zip: bad central directory entry");
    return false;
  }
  e->flags = (uint16_t)get_le(p + 8, 2);
  e->method = (uint16_t)get_le(p + 10, 2);
  e->crc = (uint32_t)get_le(p + 16, 4);
  e->comp_size = get_le(p + 20, 4);
  e->size = get_le(p + 24, 4);
  e->name_len = get_le(p + 28, 2);
  size_t extra_len = get_le(p + 30, 2), comment_len = get_le(p + 32, 2);
  e->local_offset = get_le(p + 42, 4);
  e->name = (const char *)p + ZIP_CENTRAL_SIZE;
  *entry_len = ZIP_CENTRAL_SIZE + e->name_len + extra_len + comment_len;
  if (*entry_len > room ||
      !zip_apply_zip64_extra(p + ZIP_CENTRAL_SIZE + e->name_len, extra_len, e)) {
    READ_ERROR(z->path, "corrupt zip: a central directory entry overruns the directory");
    return false;
  }
  return true;
}

/* The member's raw (possibly compressed) bytes, after checking bounds. */
static const uint8_t *zip_member_raw(const ZipArchive *z, const ZipEntry *e, const char *where) {
  if (e->flags & 1) {
    READ_ERROR(where, "encrypted members are not supported");
    return NULL;
  }
  if (e->method != ZIP_STORED && e->method != ZIP_DEFLATED) {
    READ_ERROR(where, "unsupported zip compression method %u", e->method);
    return NULL;
  }
  if (e->local_offset > z->len || z->len - e->local_offset < ZIP_LOCAL_SIZE ||
      get_le(z->buf + e->local_offset, 4) != ZIP_LOCAL_SIG) {
    READ_ERROR(where, "corrupt zip: bad local header");
    return NULL;
  }
  const uint8_t *local = z->buf + e->local_offset;
  uint64_t start = e->local_offset + ZIP_LOCAL_SIZE + get_le(local + 26, 2) + get_le(local + 28, 2);
  bool sizes_ok = e->method == ZIP_DEFLATED || e->comp_size == e->size;
  if (!sizes_ok || start > z->len || e->comp_size > z->len - start) {
    READ_ERROR(where, "corrupt zip: member data lies outside the file");
    return NULL;
  }
  return z->buf + start;
}

/* The member's uncompressed bytes with their CRC-32 checked: a pointer into
 * the archive for a stored member, or a buffer left in *owned (the caller
 * frees it) for a deflated one (numpy.savez_compressed). */
static const uint8_t *zip_member_bytes(const ZipArchive *z, const ZipEntry *e, const char *where,
                                       uint8_t **owned) {
  *owned = NULL;
  const uint8_t *raw = zip_member_raw(z, e, where);
  if (!raw) return NULL;
  const uint8_t *data = raw;
  if (e->method == ZIP_DEFLATED) {
    data = *owned = inflate_member(raw, (size_t)e->comp_size, (size_t)e->size, where);
    if (!data) return NULL;
  }
  if (crc32_update(0, data, (size_t)e->size) != e->crc) {
    READ_ERROR(where, "CRC-32 mismatch: the member is corrupt");
    free(*owned);
    *owned = NULL;
    return NULL;
  }
  return data;
}

/* Loads one member into names[i]/ts[i]. */
static bool npz_load_member(const ZipArchive *z, const ZipEntry *e, char **name, Tensor **t) {
  char where[512];
  snprintf(where, sizeof where, "%s (member '%.*s')", z->path, (int)(e->name_len > 200 ? 200 : e->name_len),
           e->name);
  if (e->name_len < 4 || memcmp(e->name + e->name_len - 4, ".npy", 4) != 0) {
    READ_ERROR(where, "not a .npy member");
    return false;
  }
  uint8_t *owned;
  const uint8_t *data = zip_member_bytes(z, e, where, &owned);
  if (!data) return false;
  *name = strndup(e->name, e->name_len - 4);
  *t = *name ? npy_decode(data, (size_t)e->size, where) : NULL;
  if (!*name) READ_ERROR(where, "out of memory");
  free(owned);
  if (!*t) {
    free(*name);
    *name = NULL;
    return false;
  }
  return true;
}

static void free_members(char **names, Tensor **ts, int n) {
  for (int i = 0; i < n; i++) {
    free(names[i]);
    tensor_release(ts[i]);
  }
  free(names);
  free(ts);
}

static int npz_load_all(const ZipArchive *z, const ZipDirectory *d, char ***names_out,
                        Tensor ***ts_out) {
  int n = (int)d->entries;
  char **names = calloc((size_t)n + 1, sizeof *names);
  Tensor **ts = calloc((size_t)n + 1, sizeof *ts);
  if (!names || !ts) {
    free(names);
    free(ts);
    READ_ERROR(z->path, "out of memory");
    return -1;
  }
  const uint8_t *p = z->buf + d->cd_offset;
  size_t room = (size_t)d->cd_size;
  for (int i = 0; i < n; i++) {
    ZipEntry e;
    size_t used;
    if (!zip_parse_entry(z, p, room, &e, &used) || !npz_load_member(z, &e, &names[i], &ts[i])) {
      free_members(names, ts, i);
      return -1;
    }
    p += used;
    room -= used;
  }
  *names_out = names;
  *ts_out = ts;
  return n;
}

int tensor_load_npz(const char *path, char ***names, Tensor ***ts) {
  uint8_t *buf;
  size_t len;
  if (!read_whole_file(path, &buf, &len)) return -1;
  ZipArchive z = {buf, len, path};
  ZipDirectory d;
  size_t end_pos;
  int n = -1;
  if (zip_read_directory(&z, &d, &end_pos)) n = npz_load_all(&z, &d, names, ts);
  free(buf);
  return n;
}

/* ---- sniffing ---- */

TensorFileKind tensor_file_kind(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    READ_ERROR(path, "%s", strerror(errno));
    return TENSOR_FILE_ERROR;
  }
  unsigned char head[6] = {0};
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (n == sizeof head && memcmp(head, NPY_MAGIC, sizeof NPY_MAGIC) == 0) return TENSOR_FILE_NPY;
  /* a zip starts with a local header, or is empty (only the end record) */
  if (n >= 4 && (get_le(head, 4) == ZIP_LOCAL_SIG || get_le(head, 4) == ZIP_END_SIG))
    return TENSOR_FILE_NPZ;
  return TENSOR_FILE_OTHER;
}

/* ---- CSV ---- */

typedef struct {
  float *values;
  size_t count, cap;
  int64_t rows, cols; /* cols < 0 until the first row fixes it */
} CsvTable;

static bool csv_push(CsvTable *tab, float v) {
  if (tab->count == tab->cap) {
    size_t cap = tab->cap ? tab->cap * 2 : 256;
    float *grown = realloc(tab->values, cap * sizeof *grown);
    if (!grown) return false;
    tab->values = grown;
    tab->cap = cap;
  }
  tab->values[tab->count++] = v;
  return true;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Trims blanks and one pair of double quotes around a cell. */
static void trim_cell(const char **start, const char **end) {
  while (*start < *end && is_blank(**start)) (*start)++;
  while (*end > *start && is_blank((*end)[-1])) (*end)--;
  if (*end - *start >= 2 && **start == '"' && (*end)[-1] == '"') {
    (*start)++;
    (*end)--;
  }
}

static int64_t count_cells(const char *line, const char *end) {
  int64_t n = 1;
  for (const char *p = line; p < end; p++) n += *p == ',';
  return n;
}

static bool line_is_blank(const char *line, const char *end) {
  while (line < end && is_blank(*line)) line++;
  return line == end;
}

/* The number in [s, e) (already trimmed), parsed in the C locale so that a
 * locale with a decimal comma cannot change the result. */
static bool csv_number(const char *s, const char *e, locale_t c_locale, double *out) {
  char text[128];
  size_t n = (size_t)(e - s);
  if (n == 0 || n >= sizeof text) return false;
  memcpy(text, s, n);
  text[n] = '\0';
  char *stop;
  *out = strtod_l(text, &stop, c_locale);
  return *stop == '\0';
}

/* Parses one data line into the table; false with an error naming the cell. */
static bool csv_parse_line(CsvTable *tab, const char *line, const char *end, const char *path,
                           int64_t lineno, locale_t c_locale) {
  int64_t cells = count_cells(line, end);
  if (tab->cols >= 0 && cells != tab->cols) {
    tensor_set_error("cannot read %s: line %" PRId64 ": expected %" PRId64 " values, found %" PRId64,
                     path, lineno, tab->cols, cells);
    return false;
  }
  const char *cell = line;
  for (int64_t c = 0; c < cells; c++) {
    const char *cell_end = memchr(cell, ',', (size_t)(end - cell));
    if (!cell_end) cell_end = end;
    const char *s = cell, *e = cell_end;
    trim_cell(&s, &e);
    double v;
    if (!csv_number(s, e, c_locale, &v)) {
      int shown = e - s > 40 ? 40 : (int)(e - s);
      tensor_set_error("cannot read %s: line %" PRId64 ", column %" PRId64
                       ": cannot parse '%.*s' as a number",
                       path, lineno, c + 1, shown, s);
      return false;
    }
    if (!csv_push(tab, (float)v)) {
      tensor_set_error("cannot read %s: out of memory", path);
      return false;
    }
    cell = cell_end + 1;
  }
  tab->cols = cells;
  tab->rows++;
  return true;
}

static bool csv_parse(CsvTable *tab, const char *text, size_t len, const char *path, bool header) {
  locale_t c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (!c_locale) {
    tensor_set_error("cannot read %s: cannot create the C locale", path);
    return false;
  }
  const char *p = text, *end = text + len;
  if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3; /* a UTF-8 byte-order mark */
  bool ok = true;
  for (int64_t lineno = 1; ok && p < end; lineno++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    if (header && lineno == 1) {
      if (!line_is_blank(p, line_end)) tab->cols = count_cells(p, line_end);
    } else if (!line_is_blank(p, line_end)) {
      ok = csv_parse_line(tab, p, line_end, path, lineno, c_locale);
    }
    p = nl ? nl + 1 : end;
  }
  freelocale(c_locale);
  return ok;
}

Tensor *tensor_load_csv(const char *path, bool header) {
  uint8_t *buf;
  size_t len;
  if (!read_whole_file(path, &buf, &len)) return NULL;
  if (memchr(buf, '\0', len)) {
    tensor_set_error("cannot read %s: not a text file (it contains NUL bytes)", path);
    free(buf);
    return NULL;
  }
  CsvTable tab = {NULL, 0, 0, 0, -1};
  Tensor *t = NULL;
  if (csv_parse(&tab, (const char *)buf, len, path, header)) {
    int64_t shape[2] = {tab.rows, tab.cols < 0 ? 0 : tab.cols};
    t = tensor_empty(DT_FLOAT32, 2, shape);
    if (t && tab.count) memcpy(tensor_data(t), tab.values, tab.count * sizeof(float));
  }
  free(tab.values);
  free(buf);
  return t;
}
