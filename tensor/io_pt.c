/* io_pt.c — PyTorch's files (torch.save / torch.load of PyTorch 1.13): a zip
 * archive (io_npz.c's reader and writer) of PREFIX/data.pkl, a pickle of
 * protocol 2, PREFIX/data/KEY, each storage's raw little-endian elements, and
 * PREFIX/version. See io.h for what the pickle may hold.
 *
 * The unpickler is a stack machine over the opcodes below and nothing else;
 * a GLOBAL is looked up in a fixed table of what torch.save writes for
 * tensors and dicts, and REDUCE applies only those (building tree nodes):
 * nothing named in a file is ever called. Every node is allocated in the
 * PtDoc, at most a few per pickle byte, so memory stays a small multiple of
 * the file's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/ag_assert.h"
#include "tensor/io_internal.h"

/* ---- the tree ---- */

PtValue *pt_new(PtDoc *doc, PtKind kind) {
  if (doc->count == doc->cap) {
    int cap = doc->cap ? doc->cap * 2 : 64;
    PtValue **nodes = realloc(doc->nodes, (size_t)cap * sizeof *nodes);
    if (!nodes) goto oom;
    doc->nodes = nodes;
    doc->cap = cap;
  }
  PtValue *v = calloc(1, sizeof *v);
  if (!v) goto oom;
  v->kind = kind;
  v->id = doc->count;
  doc->nodes[doc->count++] = v;
  return v;
oom:
  tensor_set_error("out of memory");
  return NULL;
}

bool pt_append(PtValue *c, PtValue *item) {
  if (c->n == c->cap) {
    int cap = c->cap ? c->cap * 2 : 4;
    PtValue **items = cap > 0 ? realloc(c->items, (size_t)cap * sizeof *items) : NULL;
    if (!items) {
      tensor_set_error("out of memory");
      return false;
    }
    c->items = items;
    c->cap = cap;
  }
  c->items[c->n++] = item;
  return true;
}

void pt_doc_free(PtDoc *doc) {
  for (int i = 0; i < doc->count; i++) {
    PtValue *v = doc->nodes[i];
    free(v->s);
    free(v->module);
    free(v->items);
    if (v->t) tensor_release(v->t);
    free(v);
  }
  free(doc->nodes);
  *doc = (PtDoc){0};
}

/* ---- storage types ---- */

typedef struct {
  const char *name; /* torch.NAME */
  DType dtype;
  int file_size;    /* bytes per element in the file */
} StorageType;

/* One per dtype, named as PyTorch names them: torch.IntStorage, torch.HalfStorage. */
static const StorageType STORAGE_TYPES[] = {
#define DTYPE_STORAGE(e, name, ctype, kind, torch, ...) {torch "Storage", DT_##e, (int)sizeof(ctype)},
    AG_DTYPES(DTYPE_STORAGE)
#undef DTYPE_STORAGE
};
enum { N_STORAGE_TYPES = sizeof STORAGE_TYPES / sizeof STORAGE_TYPES[0] };

/* The globals a file may name: PT_GLOBAL's i. G_CLASS: a module's class
 * (its names in s and module), only ever recorded. */
enum { G_ORDERED_DICT, G_REBUILD_TENSOR, G_REBUILD_PARAMETER, G_SET, G_CLASS,
       G_STORAGE /* + type index */ };

static const char *storage_type_name(DType dt) {
  for (int i = 0; i < N_STORAGE_TYPES; i++)
    if (STORAGE_TYPES[i].dtype == dt) return STORAGE_TYPES[i].name;
  return NULL;
}

/* ---- writing ---- */

typedef struct {
  uint8_t *data;
  size_t len, cap;
  bool failed;
} Bytes;

static void put_bytes(Bytes *b, const void *p, size_t n) {
  if (b->failed) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    uint8_t *data = realloc(b->data, cap);
    if (!data) {
      b->failed = true;
      return;
    }
    b->data = data;
    b->cap = cap;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

static void put_op(Bytes *b, uint8_t op) { put_bytes(b, &op, 1); }

static void put_int(Bytes *b, int64_t i) {
  uint8_t buf[9];
  if (i >= 0 && i < 256) {
    buf[0] = 'K'; /* BININT1 */
    buf[1] = (uint8_t)i;
    put_bytes(b, buf, 2);
  } else if (i >= INT32_MIN && i <= INT32_MAX) {
    buf[0] = 'J'; /* BININT */
    put_le(buf + 1, (uint64_t)i, 4);
    put_bytes(b, buf, 5);
  } else {
    uint8_t head[2] = {0x8a, 8}; /* LONG1, 8 bytes of two's complement */
    put_bytes(b, head, 2);
    put_le(buf, (uint64_t)i, 8);
    put_bytes(b, buf, 8);
  }
}

static void put_string(Bytes *b, const char *s, size_t len) {
  uint8_t head[5] = {'X'}; /* BINUNICODE */
  put_le(head + 1, len, 4);
  put_bytes(b, head, 5);
  put_bytes(b, s, len);
}

static void put_global(Bytes *b, const char *module, const char *name) {
  put_op(b, 'c');
  put_bytes(b, module, strlen(module));
  put_op(b, '\n');
  put_bytes(b, name, strlen(name));
  put_op(b, '\n');
}

static void put_empty_ordered_dict(Bytes *b) {
  put_global(b, "collections", "OrderedDict");
  put_op(b, ')'); /* EMPTY_TUPLE */
  put_op(b, 'R'); /* REDUCE */
}

/* The storages a tree's tensors use, each once, keyed by its position. */
typedef struct {
  const Storage **storages;
  const Tensor **firsts; /* the first tensor seen on each: its dtype and data */
  int n, cap;
} StorageSet;

static const Storage *storage_identity(const Tensor *t) {
  return t->storage->is_alias ? t->storage->owner : t->storage;
}

/* The key of t's storage, adding it when new; -1 when out of memory. */
static int storage_key(StorageSet *set, const Tensor *t) {
  const Storage *s = storage_identity(t);
  for (int i = 0; i < set->n; i++)
    if (set->storages[i] == s && set->firsts[i]->dtype == t->dtype) return i;
  if (set->n == set->cap) {
    int cap = set->cap ? set->cap * 2 : 8;
    const Storage **ss = realloc(set->storages, (size_t)cap * sizeof *ss);
    if (ss) set->storages = ss;
    const Tensor **fs = realloc(set->firsts, (size_t)cap * sizeof *fs);
    if (fs) set->firsts = fs;
    if (!ss || !fs) return -1;
    set->cap = cap;
  }
  set->storages[set->n] = s;
  set->firsts[set->n] = t;
  return set->n++;
}

static int64_t storage_numel(const Tensor *t) {
  return (int64_t)(storage_identity(t)->nbytes / dtype_size(t->dtype));
}

static bool pickle_tensor(Bytes *b, StorageSet *set, const PtValue *v) {
  const Tensor *t = v->t;
  if (!storage_type_name(t->dtype)) {
    tensor_set_error("a tensor of dtype %s has no PyTorch storage type here", dtype_name(t->dtype));
    return false;
  }
  int key = storage_key(set, t);
  if (key < 0) {
    tensor_set_error("out of memory");
    return false;
  }
  if (v->is_parameter) put_global(b, "torch._utils", "_rebuild_parameter");
  if (v->is_parameter) put_op(b, '(');
  put_global(b, "torch._utils", "_rebuild_tensor_v2");
  put_op(b, '('); /* MARK: the arguments */
  put_op(b, '('); /* the persistent id ('storage', type, key, location, numel) */
  put_string(b, "storage", 7);
  put_global(b, "torch", storage_type_name(t->dtype));
  char key_text[24];
  int key_len = snprintf(key_text, sizeof key_text, "%d", key);
  put_string(b, key_text, (size_t)key_len);
  put_string(b, "cpu", 3);
  put_int(b, storage_numel(t));
  put_op(b, 't');
  put_op(b, 'Q'); /* BINPERSID */
  put_int(b, t->offset);
  put_op(b, '(');
  for (int d = 0; d < t->ndim; d++) put_int(b, t->shape[d]);
  put_op(b, 't');
  put_op(b, '(');
  for (int d = 0; d < t->ndim; d++) put_int(b, t->stride[d]);
  put_op(b, 't');
  put_op(b, v->requires_grad && !v->is_parameter ? 0x88 : 0x89);
  put_empty_ordered_dict(b); /* backward hooks */
  put_op(b, 't');
  put_op(b, 'R');
  if (v->is_parameter) {
    put_op(b, v->requires_grad ? 0x88 : 0x89);
    put_empty_ordered_dict(b);
    put_op(b, 't');
    put_op(b, 'R');
  }
  return true;
}

static bool pickle_value(Bytes *b, StorageSet *set, const PtValue *v);

/* MARK, the items, then op (APPENDS, SETITEMS); nothing for none. */
static bool pickle_items(Bytes *b, StorageSet *set, const PtValue *v, uint8_t op) {
  if (v->n == 0) return true;
  put_op(b, '(');
  for (int i = 0; i < v->n; i++)
    if (!pickle_value(b, set, v->items[i])) return false;
  put_op(b, op);
  return true;
}

/* As pickle writes an instance with protocol 2: copyreg.__newobj__(cls)
 * (GLOBAL, EMPTY_TUPLE, NEWOBJ), then its __dict__ by BUILD. */
static bool pickle_object(Bytes *b, StorageSet *set, const PtValue *v) {
  put_global(b, v->module, v->s);
  put_op(b, ')');
  put_op(b, 0x81); /* NEWOBJ */
  if (v->n == 0) return true;
  if (!pickle_value(b, set, v->items[0])) return false;
  put_op(b, 'b'); /* BUILD */
  return true;
}

/* The tree's depth is bounded by whoever built it (lib_io.c). */
static bool pickle_value(Bytes *b, StorageSet *set, const PtValue *v) {
  uint8_t buf[9];
  switch (v->kind) {
  case PT_NONE: put_op(b, 'N'); return true;
  case PT_BOOL: put_op(b, v->i ? 0x88 : 0x89); return true;
  case PT_INT: put_int(b, v->i); return true;
  case PT_FLOAT: {
    uint64_t bits;
    memcpy(&bits, &v->f, 8);
    buf[0] = 'G'; /* BINFLOAT: big-endian */
    for (int i = 0; i < 8; i++) buf[1 + i] = (uint8_t)(bits >> (56 - 8 * i));
    put_bytes(b, buf, 9);
    return true;
  }
  case PT_STRING: put_string(b, v->s, v->len); return true;
  case PT_TENSOR: return pickle_tensor(b, set, v);
  case PT_LIST: put_op(b, ']'); return pickle_items(b, set, v, 'e'); /* APPENDS */
  case PT_DICT:
    if (v->i) put_empty_ordered_dict(b);
    else put_op(b, '}');
    return pickle_items(b, set, v, 'u'); /* SETITEMS */
  case PT_SET: /* set([items]): how pickle's protocol 2 writes a set */
    put_global(b, "__builtin__", "set");
    put_op(b, ']');
    if (!pickle_items(b, set, v, 'e')) return false;
    put_op(b, 0x85); /* TUPLE1 */
    put_op(b, 'R');
    return true;
  case PT_OBJECT: return pickle_object(b, set, v);
  case PT_TUPLE:
    put_op(b, '(');
    for (int i = 0; i < v->n; i++)
      if (!pickle_value(b, set, v->items[i])) return false;
    put_op(b, 't');
    return true;
  case PT_GLOBAL:
  case PT_STORAGE: break;
  }
  AG_ASSERT(!"a node the writer knows (globals and storages are only read)");
  tensor_set_error("internal error: a reader-only node in a tree to save");
  return false;
}

#ifdef AG_HAVE_ZLIB /* writing needs zlib's CRC-32 */
/* A storage's elements as little-endian bytes: its own memory on a
 * little-endian machine, else a swapped copy left in *owned. */
static const uint8_t *storage_bytes(const Tensor *t, uint8_t **owned) {
  const Storage *s = storage_identity(t);
  *owned = NULL;
  if (host_is_little_endian() || dtype_size(t->dtype) == 1) return s->data;
  *owned = malloc(s->nbytes + 1);
  if (!*owned) return NULL;
  memcpy(*owned, s->data, s->nbytes);
  size_t es = dtype_size(t->dtype);
  for (size_t i = 0; i + es <= s->nbytes; i += es) reverse_bytes(*owned + i, es);
  return *owned;
}

static bool write_archive(const char *path, const Bytes *pickle, const StorageSet *set) {
  ZipWriter w;
  if (!zip_writer_open(&w, path, set->n + 2)) return false;
  /* a fixed time, as PyTorch writes none: the same values give the same bytes */
  w.tm = 0;
  w.dt = (1 << 5) | 1; /* 1980-01-01 */
  bool ok = zip_add_member(&w, "archive/data.pkl", pickle->data, pickle->len, false);
  for (int i = 0; ok && i < set->n; i++) {
    char name[40];
    snprintf(name, sizeof name, "archive/data/%d", i);
    uint8_t *owned;
    const uint8_t *bytes = storage_bytes(set->firsts[i], &owned);
    if (!bytes) {
      WRITE_ERROR(path, "out of memory");
      atomic_abort(&w.af);
      ok = false;
      break;
    }
    ok = zip_add_member(&w, name, bytes, set->storages[i]->nbytes, false);
    free(owned);
  }
  ok = ok && zip_add_member(&w, "archive/version", (const uint8_t *)"3\n", 2, false);
  return zip_writer_close(&w, ok);
}
#else
static bool write_archive(const char *path, const Bytes *pickle, const StorageSet *set) {
  (void)pickle, (void)set;
  tensor_set_error("cannot write %s: .pt files need zlib, which this build of Ag lacks", path);
  return false;
}
#endif

bool tensor_save_pt(const char *path, const PtValue *root) {
  Bytes pickle = {0};
  StorageSet set = {0};
  uint8_t proto[2] = {0x80, 2};
  put_bytes(&pickle, proto, 2);
  bool ok = pickle_value(&pickle, &set, root);
  put_op(&pickle, '.');
  if (ok && pickle.failed) {
    WRITE_ERROR(path, "out of memory");
    ok = false;
  } else if (!ok) {
    WRITE_ERROR(path, "%s", tensor_error());
  }
  ok = ok && write_archive(path, &pickle, &set);
  free(pickle.data);
  free(set.storages);
  free(set.firsts);
  return ok;
}

/* ---- reading ---- */

#ifdef AG_HAVE_ZLIB
typedef struct {
  const ZipArchive *z;
  const ZipEntry **by_name; /* the entries sorted by name */
  PtValue **storages;       /* per entry of by_name: its storage once loaded */
  int n_entries;
  char prefix[256];         /* "PREFIX/" */
  const uint8_t *p, *start, *end; /* the pickle */
  PtDoc *doc;
  PtValue **stack;
  int sp, stack_cap;
  int *marks;
  int n_marks, marks_cap;
  PtValue **memo;
  size_t memo_len;
} Unpickler;

#define FAIL(u, ...) (READ_ERROR((u)->z->path, __VA_ARGS__), false)

static int by_name(const void *a, const void *b) {
  const ZipEntry *x = *(const ZipEntry *const *)a, *y = *(const ZipEntry *const *)b;
  size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
  int c = memcmp(x->name, y->name, n);
  return c ? c : (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

/* The index in u->by_name of the member PREFIX/name, or -1. */
static int find_member(const Unpickler *u, const char *name) {
  char full[512];
  int len = snprintf(full, sizeof full, "%s%s", u->prefix, name);
  if (len < 0 || (size_t)len >= sizeof full) return -1;
  ZipEntry key = {.name = full, .name_len = (size_t)len};
  const ZipEntry *kp = &key;
  const ZipEntry **hit = bsearch(&kp, u->by_name, (size_t)u->n_entries, sizeof *u->by_name, by_name);
  return hit ? (int)(hit - u->by_name) : -1;
}

static bool push(Unpickler *u, PtValue *v) {
  if (!v) return false;
  if (u->sp == u->stack_cap) {
    int cap = u->stack_cap ? u->stack_cap * 2 : 64;
    PtValue **s = realloc(u->stack, (size_t)cap * sizeof *s);
    if (!s) return FAIL(u, "out of memory");
    u->stack = s;
    u->stack_cap = cap;
  }
  u->stack[u->sp++] = v;
  return true;
}

static PtValue *pop(Unpickler *u, const char *op) {
  int floor = u->n_marks ? u->marks[u->n_marks - 1] : 0;
  if (u->sp <= floor) {
    READ_ERROR(u->z->path, "corrupt pickle: %s finds the stack empty", op);
    return NULL;
  }
  return u->stack[--u->sp];
}

/* The items since the last MARK; false when there is no mark. */
static bool pop_mark(Unpickler *u, const char *op, int *from) {
  if (u->n_marks == 0) return FAIL(u, "corrupt pickle: %s without a MARK", op);
  *from = u->marks[--u->n_marks];
  return true;
}

static bool need(Unpickler *u, size_t n) {
  if ((size_t)(u->end - u->p) < n) return FAIL(u, "corrupt pickle: data.pkl ends early");
  return true;
}

/* The most values one pickle may hold: a state dict of 100,000 tensors
 * takes about 1.5 million; the cap keeps a hostile pickle of a few megabytes
 * from taking gigabytes (a value costs about 150 bytes here). */
enum { PT_MAX_VALUES = 4 << 20 };

static PtValue *new_node(Unpickler *u, PtKind kind) {
  if (u->doc->count >= PT_MAX_VALUES) {
    READ_ERROR(u->z->path, "the pickle holds more than %d values", PT_MAX_VALUES);
    return NULL;
  }
  PtValue *v = pt_new(u->doc, kind);
  if (!v) READ_ERROR(u->z->path, "out of memory");
  return v;
}

static bool push_int(Unpickler *u, int64_t i) {
  PtValue *v = new_node(u, PT_INT);
  if (v) v->i = i;
  return push(u, v);
}

/* At most 100 bytes of a name from the file, '?' for each unprintable one. */
static void printable(char out[101], const char *s, int len) {
  int n = len > 100 ? 100 : len;
  for (int i = 0; i < n; i++) out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
  out[n] = 0;
}

static bool is_identifier(const char *s, int len, bool dotted) {
  if (len == 0 || len > 200) return false;
  for (int i = 0; i < len; i++) {
    char c = s[i];
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (i > 0 && ((c >= '0' && c <= '9') || (dotted && c == '.' && s[i - 1] != '.')));
    if (!ok) return false;
  }
  return s[len - 1] != '.';
}

static bool same(const char *s, int len, const char *lit) {
  return (size_t)len == strlen(lit) && memcmp(s, lit, (size_t)len) == 0;
}

/* A module's class: one of the script (__main__) or of torch.nn, only named
 * here (the caller decides what it builds). */
static bool is_module_class(const char *module, int mlen, const char *name, int nlen) {
  bool torch_nn = same(module, mlen, "torch.nn") ||
                  (mlen > 17 && memcmp(module, "torch.nn.modules.", 17) == 0);
  return (same(module, mlen, "__main__") || torch_nn) && is_identifier(module, mlen, true) &&
         is_identifier(name, nlen, false);
}

static PtValue *class_node(Unpickler *u, const char *module, int mlen, const char *name, int nlen) {
  PtValue *g = new_node(u, PT_GLOBAL);
  if (!g) return NULL;
  g->i = G_CLASS;
  g->module = strndup(module, (size_t)mlen);
  g->s = strndup(name, (size_t)nlen);
  if (!g->module || !g->s) {
    READ_ERROR(u->z->path, "out of memory");
    return NULL;
  }
  return g;
}

static bool op_global(Unpickler *u) {
  const uint8_t *nl1 = memchr(u->p, '\n', (size_t)(u->end - u->p));
  const uint8_t *nl2 = nl1 ? memchr(nl1 + 1, '\n', (size_t)(u->end - nl1 - 1)) : NULL;
  if (!nl2) return FAIL(u, "corrupt pickle: a GLOBAL runs past the end of data.pkl");
  int mlen = (int)(nl1 - u->p), nlen = (int)(nl2 - nl1 - 1);
  const char *module = (const char *)u->p, *name = (const char *)nl1 + 1;
  u->p = nl2 + 1;
  int which = -1;
  if (mlen == 11 && memcmp(module, "collections", 11) == 0 && nlen == 11 &&
      memcmp(name, "OrderedDict", 11) == 0)
    which = G_ORDERED_DICT;
  else if (mlen == 12 && memcmp(module, "torch._utils", 12) == 0) {
    if (nlen == 18 && memcmp(name, "_rebuild_tensor_v2", 18) == 0) which = G_REBUILD_TENSOR;
    if (nlen == 18 && memcmp(name, "_rebuild_parameter", 18) == 0) which = G_REBUILD_PARAMETER;
  } else if (mlen == 5 && memcmp(module, "torch", 5) == 0) {
    for (int i = 0; i < N_STORAGE_TYPES; i++)
      if ((size_t)nlen == strlen(STORAGE_TYPES[i].name) &&
          memcmp(name, STORAGE_TYPES[i].name, (size_t)nlen) == 0)
        which = G_STORAGE + i;
  } else if ((same(module, mlen, "__builtin__") || same(module, mlen, "builtins")) &&
             same(name, nlen, "set")) {
    which = G_SET;
  } else if (is_module_class(module, mlen, name, nlen)) {
    return push(u, class_node(u, module, mlen, name, nlen));
  }
  if (which < 0 && mlen == 5 && memcmp(module, "torch", 5) == 0 && nlen > 7 &&
      memcmp(name + nlen - 7, "Storage", 7) == 0) {
    char shown[101];
    printable(shown, name, nlen);
    return FAIL(u, "unsupported storage type torch.%s (Ag reads Float, Double, Half, BFloat16, "
                   "Long, Int, Short, Char, Byte and BoolStorage)", shown);
  }
  if (which < 0) {
    char shown[2][101];
    printable(shown[0], module, mlen);
    printable(shown[1], name, nlen);
    return FAIL(u, "refusing the pickle global '%s.%s': a .pt file may only name "
                   "collections.OrderedDict, builtins.set, torch._utils._rebuild_tensor_v2, "
                   "torch._utils._rebuild_parameter, torch's storage types (Float, Double, "
                   "Half, BFloat16, Long, Int, Short, Char, Byte, BoolStorage) and the classes "
                   "of modules (__main__.NAME, torch.nn.NAME)", shown[0], shown[1]);
  }
  PtValue *g = new_node(u, PT_GLOBAL);
  if (g) g->i = which;
  return push(u, g);
}

/* Loads the storage a persistent id names, once per key: shared storages
 * stay shared. */
static PtValue *load_storage(Unpickler *u, const PtValue *pid) {
  PtValue **it = pid->items;
  if (pid->kind != PT_TUPLE || pid->n != 5 || it[0]->kind != PT_STRING ||
      strcmp(it[0]->s, "storage") != 0 || it[1]->kind != PT_GLOBAL || it[1]->i < G_STORAGE ||
      it[2]->kind != PT_STRING || it[3]->kind != PT_STRING || it[4]->kind != PT_INT) {
    READ_ERROR(u->z->path, "unsupported persistent id: expected ('storage', storage type, key, "
                           "location, size)");
    return NULL;
  }
  const StorageType *type = &STORAGE_TYPES[it[1]->i - G_STORAGE];
  char member[300];
  snprintf(member, sizeof member, "data/%.200s", it[2]->s);
  int idx = find_member(u, member);
  if (idx < 0) {
    READ_ERROR(u->z->path, "missing member %s%s", u->prefix, member);
    return NULL;
  }
  if (u->storages[idx]) {
    if (u->storages[idx]->t->dtype != type->dtype) {
      READ_ERROR(u->z->path, "storage %s is used with two different types", member);
      return NULL;
    }
    return u->storages[idx];
  }
  const ZipEntry *e = u->by_name[idx];
  int64_t numel = it[4]->i;
  if (numel < 0 || e->size % (uint64_t)type->file_size != 0 ||
      e->size / (uint64_t)type->file_size != (uint64_t)numel) {
    READ_ERROR(u->z->path, "storage %s%s holds %llu bytes, not the %lld elements of torch.%s it "
                           "claims", u->prefix, member, (unsigned long long)e->size,
               (long long)numel, type->name);
    return NULL;
  }
  char where[1024];
  snprintf(where, sizeof where, "%.400s (member '%s%s')", u->z->path, u->prefix, member);
  uint8_t *owned;
  const uint8_t *bytes = zip_member_bytes(u->z, e, where, &owned);
  if (!bytes) return NULL;
  Tensor *t = tensor_empty(type->dtype, 1, &numel);
  PtValue *v = t ? new_node(u, PT_STORAGE) : NULL;
  if (!t || !v) {
    if (!t) READ_ERROR(u->z->path, "%s", tensor_error());
    if (t) tensor_release(t);
    free(owned);
    return NULL;
  }
  v->t = t;
  uint8_t *out = tensor_data(t);
  size_t out_size = dtype_size(type->dtype);
  for (int64_t i = 0; i < numel; i++) {
    const uint8_t *src = bytes + (size_t)i * (size_t)type->file_size;
    memcpy(out + (size_t)i * out_size, src, out_size);
    if (!host_is_little_endian()) reverse_bytes(out + (size_t)i * out_size, out_size);
  }
  free(owned);
  u->storages[idx] = v;
  return v;
}

static bool int_tuple(const PtValue *v, int64_t *out, int max) {
  if (v->kind != PT_TUPLE || v->n > max) return false;
  for (int i = 0; i < v->n; i++) {
    if (v->items[i]->kind != PT_INT) return false;
    out[i] = v->items[i]->i;
  }
  return true;
}

static bool empty_hooks(const PtValue *v) { return v->kind == PT_DICT && v->n == 0; }

/* A PT_TENSOR node: a new view of base's storage. */
static PtValue *tensor_node(Unpickler *u, const Tensor *base, int ndim, const int64_t *shape,
                            const int64_t *stride, int64_t offset, bool requires_grad) {
  Tensor *t = tensor_view_of(base, ndim, shape, stride, offset);
  PtValue *v = t ? new_node(u, PT_TENSOR) : NULL;
  if (!v) {
    if (t) tensor_release(t);
    else READ_ERROR(u->z->path, "out of memory");
    return NULL;
  }
  v->t = t;
  v->requires_grad = requires_grad;
  return v;
}

/* _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata]),
 * after checking that every element lies inside the storage. */
static PtValue *rebuild_tensor(Unpickler *u, const PtValue *args) {
  int64_t shape[TENSOR_MAX_DIMS], stride[TENSOR_MAX_DIMS];
  PtValue **a = args->items;
  if ((args->n != 6 && args->n != 7) || a[0]->kind != PT_STORAGE || a[1]->kind != PT_INT ||
      !int_tuple(a[2], shape, TENSOR_MAX_DIMS) || !int_tuple(a[3], stride, TENSOR_MAX_DIMS) ||
      a[2]->n != a[3]->n || a[4]->kind != PT_BOOL || !empty_hooks(a[5]) ||
      (args->n == 7 && a[6]->kind != PT_NONE && !empty_hooks(a[6]))) {
    READ_ERROR(u->z->path, "unsupported arguments to torch._utils._rebuild_tensor_v2 (at most %d "
                           "dimensions, no backward hooks or metadata)", TENSOR_MAX_DIMS);
    return NULL;
  }
  const Tensor *base = a[0]->t;
  int ndim = a[2]->n;
  int64_t offset = a[1]->i, last = offset, numel = 1;
  bool bad = offset < 0;
  for (int d = 0; d < ndim && !bad; d++) {
    int64_t span;
    bad = shape[d] < 0 || stride[d] < 0 || __builtin_mul_overflow(numel, shape[d], &numel);
    if (!bad && shape[d] > 0)
      bad = __builtin_mul_overflow(shape[d] - 1, stride[d], &span) ||
            __builtin_add_overflow(last, span, &last);
  }
  if (bad || (numel > 0 && last >= base->numel) || offset > base->numel) {
    READ_ERROR(u->z->path, "a tensor's size, stride and offset reach outside its storage of %lld "
                           "elements", (long long)base->numel);
    return NULL;
  }
  return tensor_node(u, base, ndim, shape, stride, offset, a[4]->i != 0);
}

static PtValue *rebuild_parameter(Unpickler *u, const PtValue *args) {
  PtValue **a = args->items;
  if (args->n != 3 || a[0]->kind != PT_TENSOR || a[1]->kind != PT_BOOL || !empty_hooks(a[2])) {
    READ_ERROR(u->z->path, "unsupported arguments to torch._utils._rebuild_parameter");
    return NULL;
  }
  const Tensor *data = a[0]->t;
  PtValue *v = tensor_node(u, data, data->ndim, data->shape, data->stride, data->offset, a[1]->i != 0);
  if (v) v->is_parameter = true;
  return v;
}

/* set() or set(list): what pickle writes for a set. */
static PtValue *new_set(Unpickler *u, const PtValue *args) {
  if (args->n > 1 || (args->n == 1 && args->items[0]->kind != PT_LIST)) {
    READ_ERROR(u->z->path, "unsupported arguments to builtins.set (a list)");
    return NULL;
  }
  PtValue *out = new_node(u, PT_SET);
  for (int i = 0; out && args->n == 1 && i < args->items[0]->n; i++)
    if (!pt_append(out, args->items[0]->items[i])) {
      READ_ERROR(u->z->path, "out of memory");
      return NULL;
    }
  return out;
}

/* NEWOBJ: cls.__new__(cls) of a module's class, with no arguments; an object
 * with its class's names, its state coming by BUILD. */
static bool op_newobj(Unpickler *u) {
  PtValue *args = pop(u, "NEWOBJ"), *cls = args ? pop(u, "NEWOBJ") : NULL;
  if (!cls) return false;
  if (cls->kind != PT_GLOBAL || cls->i != G_CLASS || args->kind != PT_TUPLE || args->n != 0)
    return FAIL(u, "unsupported NEWOBJ: only a module's class, with no arguments");
  PtValue *obj = new_node(u, PT_OBJECT);
  if (!obj) return false;
  obj->module = strdup(cls->module);
  obj->s = strdup(cls->s);
  if (!obj->module || !obj->s) return FAIL(u, "out of memory");
  return push(u, obj);
}

static bool op_reduce(Unpickler *u) {
  PtValue *args = pop(u, "REDUCE"), *fn = args ? pop(u, "REDUCE") : NULL;
  if (!fn) return false;
  if (fn->kind != PT_GLOBAL || args->kind != PT_TUPLE)
    return FAIL(u, "corrupt pickle: REDUCE needs a global and a tuple of arguments");
  PtValue *out = NULL;
  if (fn->i == G_ORDERED_DICT) {
    if (args->n != 0) return FAIL(u, "unsupported arguments to collections.OrderedDict");
    out = new_node(u, PT_DICT);
    if (out) out->i = 1;
  } else if (fn->i == G_SET) {
    out = new_set(u, args);
    if (!out) return false;
  } else if (fn->i == G_CLASS) {
    return FAIL(u, "refusing to call %s.%s: a module's class is only instantiated empty (NEWOBJ)",
                fn->module, fn->s);
  } else if (fn->i == G_REBUILD_TENSOR) {
    out = rebuild_tensor(u, args);
  } else if (fn->i == G_REBUILD_PARAMETER) {
    out = rebuild_parameter(u, args);
  } else {
    return FAIL(u, "refusing to call torch.%s: storages come only as persistent ids",
                STORAGE_TYPES[fn->i - G_STORAGE].name);
  }
  return push(u, out);
}

/* The container items since the last MARK go into: APPENDS, SETITEMS. */
static bool op_extend(Unpickler *u, PtKind kind, const char *op) {
  int from;
  if (!pop_mark(u, op, &from)) return false;
  int count = u->sp - from;
  if (from == 0 || u->stack[from - 1]->kind != kind)
    return FAIL(u, "corrupt pickle: %s needs a %s below its MARK", op,
                kind == PT_LIST ? "list" : "dict");
  if (kind == PT_DICT && count % 2) return FAIL(u, "corrupt pickle: SETITEMS with an odd count");
  for (int i = from; i < u->sp; i++)
    if (!pt_append(u->stack[from - 1], u->stack[i])) return FAIL(u, "out of memory");
  u->sp = from;
  return true;
}

/* APPEND and SETITEM: the last 1 or 2 items into the container below them. */
static bool op_add(Unpickler *u, PtKind kind, int count, const char *op) {
  int floor = u->n_marks ? u->marks[u->n_marks - 1] : 0;
  if (u->sp - count - 1 < floor || u->stack[u->sp - count - 1]->kind != kind)
    return FAIL(u, "corrupt pickle: %s needs a %s and its items", op,
                kind == PT_LIST ? "list" : "dict");
  for (int i = u->sp - count; i < u->sp; i++)
    if (!pt_append(u->stack[u->sp - count - 1], u->stack[i])) return FAIL(u, "out of memory");
  u->sp -= count;
  return true;
}

static bool op_tuple(Unpickler *u, int count) {
  int from;
  if (count < 0) {
    if (!pop_mark(u, "TUPLE", &from)) return false;
  } else {
    int floor = u->n_marks ? u->marks[u->n_marks - 1] : 0;
    if (u->sp - count < floor) return FAIL(u, "corrupt pickle: TUPLE%d finds too few items", count);
    from = u->sp - count;
  }
  PtValue *t = new_node(u, PT_TUPLE);
  if (!t) return false;
  for (int i = from; i < u->sp; i++)
    if (!pt_append(t, u->stack[i])) return FAIL(u, "out of memory");
  u->sp = from;
  return push(u, t);
}

static bool op_mark(Unpickler *u) {
  if (u->n_marks == u->marks_cap) {
    int cap = u->marks_cap ? u->marks_cap * 2 : 16;
    int *m = realloc(u->marks, (size_t)cap * sizeof *m);
    if (!m) return FAIL(u, "out of memory");
    u->marks = m;
    u->marks_cap = cap;
  }
  u->marks[u->n_marks++] = u->sp;
  return true;
}

static bool op_put(Unpickler *u, uint64_t idx) {
  if (u->sp == 0) return FAIL(u, "corrupt pickle: a memo PUT with an empty stack");
  /* torch.save numbers its memo entries 0, 1, 2 ..., one per value at most */
  if (idx > (uint64_t)u->doc->count)
    return FAIL(u, "corrupt pickle: memo index %llu out of range", (unsigned long long)idx);
  if (idx >= u->memo_len) {
    size_t len = (size_t)idx * 2 + 16;
    PtValue **m = realloc(u->memo, len * sizeof *m);
    if (!m) return FAIL(u, "out of memory");
    memset(m + u->memo_len, 0, (len - u->memo_len) * sizeof *m);
    u->memo = m;
    u->memo_len = len;
  }
  u->memo[idx] = u->stack[u->sp - 1];
  return true;
}

static bool op_get(Unpickler *u, uint64_t idx) {
  if (idx >= u->memo_len || !u->memo[idx])
    return FAIL(u, "corrupt pickle: memo entry %llu is not defined", (unsigned long long)idx);
  return push(u, u->memo[idx]);
}

/* BUILD on an OrderedDict: the state torch.save adds to a state dict (its
 * _metadata of module versions), which Ag has no use for; on an object: its
 * __dict__, once. */
static bool op_build(Unpickler *u) {
  PtValue *state = pop(u, "BUILD");
  if (!state) return false;
  PtValue *target = u->sp > 0 ? u->stack[u->sp - 1] : NULL;
  if (target && target->kind == PT_OBJECT) {
    if (state->kind != PT_DICT || target->n != 0)
      return FAIL(u, "unsupported BUILD: an object's state is one dict");
    return pt_append(target, state) || FAIL(u, "out of memory");
  }
  if (u->sp == 0 || u->stack[u->sp - 1]->kind != PT_DICT || state->kind != PT_DICT)
    return FAIL(u, "unsupported BUILD: only a dict's attributes (a state dict's _metadata) may be set");
  return true;
}

static bool op_string(Unpickler *u) {
  if (!need(u, 4)) return false;
  uint64_t len = get_le(u->p, 4);
  u->p += 4;
  if (!need(u, len)) return false;
  PtValue *v = new_node(u, PT_STRING);
  if (!v || !(v->s = malloc(len + 1))) return v ? FAIL(u, "out of memory") : false;
  memcpy(v->s, u->p, len);
  v->s[len] = 0;
  v->len = len;
  u->p += len;
  return push(u, v);
}

static bool op_long1(Unpickler *u) {
  if (!need(u, 1)) return false;
  int n = *u->p++;
  if (!need(u, (size_t)n)) return false;
  if (n > 8) return FAIL(u, "an integer of %d bytes does not fit in 64 bits", n);
  uint64_t raw = n ? get_le(u->p, n) : 0;
  if (n > 0 && n < 8 && (raw >> (8 * n - 1))) raw -= (uint64_t)1 << (8 * n);
  u->p += n;
  return push_int(u, (int64_t)raw);
}

static bool op_float(Unpickler *u) {
  if (!need(u, 8)) return false;
  uint64_t bits = 0;
  for (int i = 0; i < 8; i++) bits = bits << 8 | u->p[i];
  u->p += 8;
  PtValue *v = new_node(u, PT_FLOAT);
  if (v) memcpy(&v->f, &bits, 8);
  return push(u, v);
}

static bool op_persid(Unpickler *u) {
  PtValue *pid = pop(u, "BINPERSID");
  return pid && push(u, load_storage(u, pid));
}

/* One opcode; *done at STOP. */
static bool step(Unpickler *u, bool *done) {
  size_t at = (size_t)(u->p - u->start);
  uint8_t op = *u->p++;
  switch (op) {
  case 0x80: /* PROTO */
    if (!need(u, 1)) return false;
    if (*u->p > 2) return FAIL(u, "pickle protocol %d: torch.save writes protocol 2", *u->p);
    u->p++;
    return true;
  case '.': *done = true; return true;
  case '(': return op_mark(u);
  case '}': return push(u, new_node(u, PT_DICT));
  case ']': return push(u, new_node(u, PT_LIST));
  case ')': return op_tuple(u, 0);
  case 't': return op_tuple(u, -1);
  case 0x85: return op_tuple(u, 1);
  case 0x86: return op_tuple(u, 2);
  case 0x87: return op_tuple(u, 3);
  case 'N': return push(u, new_node(u, PT_NONE));
  case 0x88:
  case 0x89: {
    PtValue *v = new_node(u, PT_BOOL);
    if (v) v->i = op == 0x88;
    return push(u, v);
  }
  case 'K': return need(u, 1) && (u->p += 1, push_int(u, u->p[-1]));
  case 'M': return need(u, 2) && (u->p += 2, push_int(u, (int64_t)get_le(u->p - 2, 2)));
  case 'J': return need(u, 4) && (u->p += 4, push_int(u, (int32_t)(uint32_t)get_le(u->p - 4, 4)));
  case 0x8a: return op_long1(u);
  case 'G': return op_float(u);
  case 'X': return op_string(u);
  case 'q': return need(u, 1) && (u->p += 1, op_put(u, u->p[-1]));
  case 'r': return need(u, 4) && (u->p += 4, op_put(u, get_le(u->p - 4, 4)));
  case 'h': return need(u, 1) && (u->p += 1, op_get(u, u->p[-1]));
  case 'j': return need(u, 4) && (u->p += 4, op_get(u, get_le(u->p - 4, 4)));
  case 'a': return op_add(u, PT_LIST, 1, "APPEND");
  case 'e': return op_extend(u, PT_LIST, "APPENDS");
  case 's': return op_add(u, PT_DICT, 2, "SETITEM");
  case 'u': return op_extend(u, PT_DICT, "SETITEMS");
  case 'c': return op_global(u);
  case 'R': return op_reduce(u);
  case 'b': return op_build(u);
  case 0x81: return op_newobj(u);
  case 'Q': return op_persid(u);
  default: {
    char shown[8] = "";
    if (op >= 0x20 && op < 0x7f) snprintf(shown, sizeof shown, " ('%c')", op);
    return FAIL(u, "refusing pickle opcode 0x%02x%s at byte %zu of data.pkl: not one torch.save "
                   "writes", op, shown, at);
  }
  }
}

static bool unpickle(Unpickler *u) {
  bool done = false;
  while (!done) {
    if (tensor_interrupt_requested) {
      tensor_set_error("Interrupted");
      return false;
    }
    if (u->p >= u->end) return FAIL(u, "corrupt pickle: data.pkl ends without STOP");
    if (!step(u, &done)) return false;
  }
  if (u->sp != 1 || u->n_marks != 0) return FAIL(u, "corrupt pickle: STOP leaves %d values", u->sp);
  PtValue *root = u->stack[0];
  if (root->kind == PT_GLOBAL || root->kind == PT_STORAGE)
    return FAIL(u, "the pickle holds a bare global or storage, not a value");
  u->doc->root = root;
  return true;
}

/* The archive's prefix (what its first member's name has before '/'), its
 * version record and its pickle. */
static bool open_archive(Unpickler *u, const uint8_t **pickle, size_t *pickle_len, uint8_t **owned) {
  const ZipEntry *first = u->n_entries ? u->by_name[0] : NULL;
  for (int i = 0; i < u->n_entries; i++)
    if (u->by_name[i]->local_offset < first->local_offset) first = u->by_name[i];
  const char *slash = first ? memchr(first->name, '/', first->name_len) : NULL;
  if (!slash || slash - first->name + 2 > (long)sizeof u->prefix)
    return FAIL(u, "not a PyTorch archive (no PREFIX/data.pkl member)");
  memcpy(u->prefix, first->name, (size_t)(slash - first->name) + 1);
  u->prefix[slash - first->name + 1] = 0;
  int version = find_member(u, "version");
  if (version < 0) version = find_member(u, ".data/version");
  int data = find_member(u, "data.pkl");
  if (data < 0 || version < 0)
    return FAIL(u, "not a PyTorch archive: missing member %s%s", u->prefix,
                data < 0 ? "data.pkl" : "version");
  uint8_t *vowned;
  const uint8_t *v = zip_member_bytes(u->z, u->by_name[version], u->z->path, &vowned);
  if (!v) return false;
  int number = 0;
  size_t vlen = (size_t)u->by_name[version]->size;
  for (size_t i = 0; i < vlen && v[i] >= '0' && v[i] <= '9' && number < 1000; i++)
    number = number * 10 + (v[i] - '0');
  free(vowned);
  if (number < 1 || number > 10)
    return FAIL(u, "unsupported PyTorch archive version (PyTorch 1.13 writes 3)");
  *pickle = zip_member_bytes(u->z, u->by_name[data], u->z->path, owned);
  *pickle_len = (size_t)u->by_name[data]->size;
  return *pickle != NULL;
}

static bool load_from_zip(const ZipArchive *z, PtDoc *doc) {
  ZipDirectory d;
  size_t end_pos;
  if (!zip_read_directory(z, &d, &end_pos)) return false;
  Unpickler u = {.z = z, .doc = doc, .n_entries = (int)d.entries};
  ZipEntry *es = zip_read_entries(z, &d);
  bool ok = es && zip_check_entries(z, es, u.n_entries);
  if (ok) {
    u.by_name = malloc(((size_t)u.n_entries + 1) * sizeof *u.by_name);
    u.storages = calloc((size_t)u.n_entries + 1, sizeof *u.storages);
    ok = u.by_name && u.storages;
    if (!ok) READ_ERROR(z->path, "out of memory");
  }
  uint8_t *owned = NULL;
  if (ok) {
    for (int i = 0; i < u.n_entries; i++) u.by_name[i] = &es[i];
    qsort(u.by_name, (size_t)u.n_entries, sizeof *u.by_name, by_name);
    size_t len;
    ok = open_archive(&u, &u.start, &len, &owned);
    if (ok) {
      u.p = u.start;
      u.end = u.start + len;
      ok = unpickle(&u);
    }
  }
  free(owned);
  free(u.stack);
  free(u.marks);
  free(u.memo);
  free(u.by_name);
  free(u.storages);
  free(es);
  return ok;
}

bool tensor_load_pt_bytes(const char *path, const uint8_t *data, size_t len, PtDoc *doc) {
  *doc = (PtDoc){0};
  ZipArchive z = {data, len, path};
  bool ok = load_from_zip(&z, doc);
  if (!ok) pt_doc_free(doc);
  return ok;
}

bool tensor_load_pt(const char *path, PtDoc *doc) {
  *doc = (PtDoc){0};
  uint8_t *buf;
  size_t len;
  if (!read_whole_file(path, &buf, &len)) return false;
  bool ok = tensor_load_pt_bytes(path, buf, len, doc);
  free(buf);
  return ok;
}
#else
bool tensor_load_pt_bytes(const char *path, const uint8_t *data, size_t len, PtDoc *doc) {
  (void)data, (void)len;
  return tensor_load_pt(path, doc);
}

bool tensor_load_pt(const char *path, PtDoc *doc) {
  *doc = (PtDoc){0};
  tensor_set_error("cannot read %s: .pt files need zlib, which this build of Ag lacks", path);
  return false;
}
#endif
