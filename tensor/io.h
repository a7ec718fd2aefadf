/* io.h — tensor files: NumPy .npy and .npz, PyTorch .pt, and CSV.
 *
 * Every writer writes to a temporary file in the same folder (PATH.tmp.XXXXXX),
 * fsyncs it and renames it into place, so an interrupted write never leaves a
 * half-written file under the real name; on failure the temporary is removed.
 * Readers check every header field and length: a truncated or corrupt file is
 * a clear error naming the file ("cannot read PATH: ..."), never a crash.
 *
 * .npy: written as format 1.0 with descr '<f4' '<f8' '<i8' '|b1'; read from
 * versions 1.0-3.0, C or Fortran order, either byte order; integer arrays of
 * any width (i1..i8, u1..u8) load as int64.
 * .npz: a zip archive of NAME.npy members, like numpy.savez (written stored or
 * deflated, without zip64, so at most 4 GiB; read stored or deflated, with zlib, at most
 * 4 GiB uncompressed in all, no two entries sharing member data, stopping at
 * Ctrl-C with the error "Interrupted"). CSV: numbers separated by commas, one
 * row per line, blank lines skipped, parsed in the C locale.
 *
 * io_file.c holds the reading and atomic writing, io_npy.c, io_npz.c (with
 * the zip reader and writer .pt shares), io_pt.c and io_csv.c one format each.
 */
#ifndef AG_TENSOR_IO_H
#define AG_TENSOR_IO_H

#include "tensor.h"

bool tensor_save_npy(const Tensor *t, const char *path);
Tensor *tensor_load_npy(const char *path);
/* Writes names[i] as member "names[i].npy", stored as numpy.savez does or,
 * compressed, deflated as numpy.savez_compressed does; names must be distinct. */
bool tensor_save_npz(const char *path, const char *const *names, Tensor *const *ts, int n,
                     bool compressed);
/* returns the member count (>= 0) or -1; *names and *ts are malloc'd arrays of
 * malloc'd names and new references, which the caller frees/releases. Members
 * may be stored (numpy.savez) or deflated (numpy.savez_compressed); names are
 * the member names without ".npy", in archive order. */
int tensor_load_npz(const char *path, char ***names, Tensor ***ts);
/* What a file holds, judged by its first bytes as numpy.load does (so a
 * misnamed file still loads): lets load() return a tensor or a map. A zip
 * whose first member is PREFIX/data.pkl is PyTorch's; a bare pickle is
 * PyTorch's format before 1.6 (_LEGACY). */
typedef enum { TENSOR_FILE_NPY, TENSOR_FILE_NPZ, TENSOR_FILE_PT, TENSOR_FILE_PT_LEGACY, TENSOR_FILE_OTHER, TENSOR_FILE_ERROR } TensorFileKind;
TensorFileKind tensor_file_kind(const char *path); /* _ERROR: cannot open (error set) */
/* ---- PyTorch's files (io_pt.c) ----
 * torch.save's zip format as PyTorch 1.13 writes it: PREFIX/data.pkl (a
 * pickle, protocol 2), PREFIX/data/KEY (each storage's raw little-endian
 * bytes) and PREFIX/version. What the pickle holds is a PtValue tree: nested
 * lists, tuples, dicts (keys in order), strings, ints, floats, bools, None and
 * tensors, each tensor a view (offset, size, stride) of a storage that other
 * tensors of the file may share. Reading runs a restricted unpickler: only
 * protocol-2 opcodes torch.save emits and only the globals it writes for these
 * values (collections.OrderedDict, torch._utils._rebuild_tensor_v2 and
 * _rebuild_parameter, torch.FloatStorage ...); anything else is refused with
 * an error naming the file and the opcode or global, never executed.
 * Storages of torch.IntStorage, ShortStorage, CharStorage and ByteStorage
 * load as int64, as .npy integer arrays do.
 * A whole module (torch.save(model)) is an object: a class named by module
 * and name (__main__.Net, torch.nn.modules.linear.Linear) and its state, the
 * module's __dict__; the unpickler only records the names (NEWOBJ of a class
 * of __main__, torch.nn or torch.nn.modules.*, then BUILD), it never looks
 * them up: the caller decides which classes it builds. */
typedef enum {
  PT_NONE, PT_BOOL, PT_INT, PT_FLOAT, PT_STRING, PT_LIST, PT_TUPLE, PT_DICT, PT_TENSOR,
  PT_SET,    /* builtins.set: items as a list's */
  PT_OBJECT, /* s: the class's name, module: its module; items[0] (n == 1): its state */
  PT_GLOBAL, PT_STORAGE /* only while unpickling */
} PtKind;

typedef struct PtValue PtValue;
struct PtValue {
  PtKind kind;
  int id;                 /* its index in the PtDoc: a node reached twice is one object */
  int64_t i;              /* BOOL, INT; GLOBAL: which one; DICT: 1 for an OrderedDict */
  double f;               /* FLOAT */
  char *s;                /* STRING: UTF-8, NUL-terminated, len bytes; OBJECT: class name */
  size_t len;
  char *module;           /* OBJECT: the module of its class */
  PtValue **items;        /* LIST, TUPLE; DICT: key, value, key, value ... */
  int n, cap;             /* items in use (a DICT: twice its entries) */
  Tensor *t;              /* TENSOR (a view of its storage); STORAGE: the whole storage */
  bool requires_grad;     /* TENSOR */
  bool is_parameter;      /* TENSOR: torch.nn.Parameter */
};

/* The nodes of one tree: freed together. */
typedef struct {
  PtValue **nodes;
  int count, cap;
  PtValue *root;
} PtDoc;

PtValue *pt_new(PtDoc *doc, PtKind kind); /* NULL: out of memory (error set) */
bool pt_append(PtValue *container, PtValue *item);
void pt_doc_free(PtDoc *doc);
bool tensor_save_pt(const char *path, const PtValue *root);
bool tensor_load_pt(const char *path, PtDoc *doc); /* doc->root set; false: error set, doc freed */
/* The same from a file's bytes already in memory (an open file); path names it in errors. */
bool tensor_load_pt_bytes(const char *path, const uint8_t *data, size_t len, PtDoc *doc);

/* A float32 2-D tensor of the numeric cells; header=true skips the first line. */
Tensor *tensor_load_csv(const char *path, bool header);

#endif
