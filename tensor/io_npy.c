/* io_npy.c — NumPy .npy files (format v1.0 when writing; v1.0, v2.0 and v3.0
 * when reading): "\x93NUMPY" major minor, a little-endian header length (2
 * bytes in v1, 4 in v2/v3), then a Python dict literal {'descr': '<f4',
 * 'fortran_order': False, 'shape': (2, 3), } padded with spaces and a final
 * '\n' so the data starts at a multiple of 64 bytes; then the raw elements. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/io_internal.h"

enum {
  NPY_ALIGN = 64,
  NPY_MAX_HEADER = 1 << 16, /* a header longer than this is corrupt, not a big array */
  NPY_PREAMBLE_V1 = 10,     /* magic (6) + version (2) + u16 length */
  NPY_PREAMBLE_V2 = 12      /* magic (6) + version (2) + u32 length */
};

const char NPY_MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

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

/* NumPy's descr of dt without its byte order (the dtype table's), NULL if none. */
static const char *npy_type(DType dt) {
  static const char *const types[DT_COUNT] = {
#define DTYPE_NPY(e, name, ctype, kind, torch, compute, load, store, npy, ...) npy,
      AG_DTYPES(DTYPE_NPY)
#undef DTYPE_NPY
  };
  return types[dt];
}

/* '<f4', or '|b1' for one-byte elements (no byte order). */
static void npy_descr(DType dt, char *buf, size_t cap) {
  snprintf(buf, cap, "%c%s", dtype_size(dt) == 1 ? '|' : '<', npy_type(dt));
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
  char *dict = (char *)buf + NPY_PREAMBLE_V1, descr[8];
  npy_descr(t->dtype, descr, sizeof descr);
  int n = sprintf(dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
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
uint8_t *npy_encode(const Tensor *t, size_t *len, const char *where) {
  if (!npy_type(t->dtype)) {
    WRITE_ERROR(where, "NumPy has no %s dtype (convert the tensor first: t.float())",
                dtype_name(t->dtype));
    return NULL;
  }
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
  bool known = (ty->kind == 'f' && (ty->size == 2 || ty->size == 4 || ty->size == 8)) ||
               ((ty->kind == 'i' || ty->kind == 'u') &&
                (ty->size == 1 || ty->size == 2 || ty->size == 4 || ty->size == 8)) ||
               (ty->kind == 'b' && ty->size == 1);
  char digits[8];
  snprintf(digits, sizeof digits, "%d", ty->size);
  known = known && strcmp(descr + 2, digits) == 0;
  bool order_ok = order == '<' || order == '>' || order == '=' || (order == '|' && ty->size == 1);
  if (!known || !order_ok) {
    READ_ERROR(where,
               "unsupported dtype '%s' (Ag loads float16, float32, float64, bool and integer "
               "arrays, unsigned ones wider than a byte as int64)",
               descr);
    return false;
  }
  bool file_little = order == '<' || (order == '=' && host_is_little_endian());
  ty->swap = ty->size > 1 && order != '|' && file_little != host_is_little_endian();
  ty->dtype = DT_INT64; /* uint16, uint32, uint64: PyTorch has no such dtype */
  for (int dt = 0; dt < DT_COUNT; dt++)
    if (npy_type((DType)dt) && strcmp(npy_type((DType)dt), descr + 1) == 0) ty->dtype = (DType)dt;
  return true;
}

/* One file element (already in host byte order) stored into `dst` as t's dtype.
 * Returns false for a uint64 value beyond int64's range. */
static bool store_element(const NpyType *ty, const uint8_t *raw, uint8_t *dst) {
  if (ty->dtype != DT_INT64 || ty->kind == 'i') { /* the file's own dtype */
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
                     (ty->kind != 'u' || ty->size == 1);
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
Tensor *npy_decode(const uint8_t *buf, size_t len, const char *where) {
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
