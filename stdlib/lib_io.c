/* lib_io.c — save/load of tensors (.npy) and maps of tensors (.npz, state
 * dicts), of nested values of tensors in PyTorch's format (.pt, .pth), and
 * load_csv, over tensor/io.h. Paths are relative to the working directory.
 */
#include <stdlib.h>
#include <string.h>

#include "stdlib/lib_internal.h"
#include "tensor/io.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

static bool path_arg(AgVM *vm, const char *fname, Value v, const char **out) {
  if (IS_STRING(v)) {
    *out = AS_CSTRING(v);
    return true;
  }
  vm_raise(vm, VM_ERR_TYPE, "%s(): the path must be a string, not %s", fname, vm_type_name(v));
  return false;
}

/* A map of string -> tensor as parallel arrays (borrowed); false after throwing. */
static bool map_entries(AgVM *vm, ObjMap *m, const char ***names, Tensor ***ts, int *n) {
  Table *t = &m->table;
  *names = malloc(sizeof(char *) * (size_t)(t->count + 1));
  *ts = malloc(sizeof(Tensor *) * (size_t)(t->count + 1));
  *n = 0;
  if (*names == NULL || *ts == NULL) {
    vm_raise(vm, VM_ERR_MEMORY, "out of memory");
    return false;
  }
  for (int i = 0; i < t->used; i++) {
    TableEntry *e = &t->entries[i];
    if (IS_UNDEF(e->key)) continue;
    if (!IS_STRING(e->key) || !IS_TENSOR(e->value)) {
      vm_throw_error(vm, "save(): a map to save must map strings to tensors (key %s holds %s)",
                     IS_STRING(e->key) ? AS_CSTRING(e->key) : vm_type_name(e->key),
                     vm_type_name(e->value));
      return false;
    }
    (*names)[*n] = AS_CSTRING(e->key);
    (*ts)[(*n)++] = lib_t(e->value);
  }
  return true;
}

static Value save_map(AgVM *vm, ObjMap *m, const char *path, bool compressed) {
  const char **names = NULL;
  Tensor **ts = NULL;
  int n = 0;
  bool ok = map_entries(vm, m, &names, &ts, &n);
  if (ok && !tensor_save_npz(path, names, ts, n, compressed)) {
    lib_throw_tensor_error(vm);
    ok = false;
  }
  free(names);
  free(ts);
  return ok ? NIL_VAL : VM_EXCEPTION;
}

/* ---- PyTorch's files: Ag values to and from tensor/io.h's PtValue trees ---- */

/* Deeper nesting is refused (and a value holding itself ends there). */
enum { PT_MAX_DEPTH = 200 };

static PtValue *pt_of_value(AgVM *vm, PtDoc *doc, Value v, int depth);

static PtValue *pt_node(AgVM *vm, PtDoc *doc, PtKind kind) {
  PtValue *n = pt_new(doc, kind);
  if (!n) vm_throw_error(vm, "save(): out of memory");
  return n;
}

static bool pt_add_items(AgVM *vm, PtDoc *doc, PtValue *c, const Value *items, int n, int depth) {
  for (int i = 0; i < n; i++) {
    PtValue *item = pt_of_value(vm, doc, items[i], depth + 1);
    if (!item) return false;
    if (!pt_append(c, item)) {
      vm_throw_error(vm, "save(): out of memory");
      return false;
    }
  }
  return true;
}

static PtValue *pt_of_map(AgVM *vm, PtDoc *doc, ObjMap *m, int depth) {
  PtValue *n = pt_node(vm, doc, PT_DICT);
  for (int i = 0; n && i < m->table.used; i++) {
    TableEntry *e = &m->table.entries[i];
    if (IS_UNDEF(e->key)) continue;
    Value pair[2] = {e->key, e->value};
    if (!pt_add_items(vm, doc, n, pair, 2, depth)) return NULL;
  }
  return n;
}

static PtValue *pt_of_tensor(AgVM *vm, PtDoc *doc, Value v) {
  PtValue *n = pt_node(vm, doc, PT_TENSOR);
  if (!n) return NULL;
  n->t = tensor_retain(lib_t(v));
  n->requires_grad = ag_requires_grad(n->t);
  n->is_parameter = AS_TENSOR_OBJ(v)->is_parameter;
  return n;
}

static PtValue *pt_of_value(AgVM *vm, PtDoc *doc, Value v, int depth) {
  if (depth > PT_MAX_DEPTH) {
    vm_throw_error(vm, "save(): the value is nested more than %d deep (or holds itself)", PT_MAX_DEPTH);
    return NULL;
  }
  PtValue *n = NULL;
  if (IS_TENSOR(v)) return pt_of_tensor(vm, doc, v);
  if (IS_MAP(v)) return pt_of_map(vm, doc, AS_MAP(v), depth);
  if (IS_LIST(v)) {
    n = pt_node(vm, doc, PT_LIST);
    return n && pt_add_items(vm, doc, n, AS_LIST(v)->items, AS_LIST(v)->count, depth) ? n : NULL;
  }
  if (IS_NIL(v)) return pt_node(vm, doc, PT_NONE);
  if (IS_BOOL(v) || IS_INT(v)) {
    n = pt_node(vm, doc, IS_BOOL(v) ? PT_BOOL : PT_INT);
    if (n) n->i = IS_BOOL(v) ? AS_BOOL(v) : value_as_int(v);
    return n;
  }
  if (IS_FLOAT(v)) {
    n = pt_node(vm, doc, PT_FLOAT);
    if (n) n->f = AS_FLOAT(v);
    return n;
  }
  if (IS_STRING(v)) {
    n = pt_node(vm, doc, PT_STRING);
    size_t len = (size_t)AS_STRING(v)->length; /* it may hold NULs */
    if (n && !(n->s = malloc(len + 1))) {
      vm_throw_error(vm, "save(): out of memory");
      return NULL;
    }
    if (n) memcpy(n->s, AS_CSTRING(v), len + 1), n->len = len;
    return n;
  }
  vm_throw_error(vm, "save(): a .pt file holds tensors, maps, lists, numbers, strings, bools and "
                     "nil, not %s", vm_type_name(v));
  return NULL;
}

static Value save_pt(AgVM *vm, Value v, const char *path) {
  PtDoc doc = {0};
  PtValue *root = pt_of_value(vm, &doc, v, 0);
  bool ok = root && tensor_save_pt(path, root);
  pt_doc_free(&doc);
  if (root && !ok) return lib_throw_tensor_error(vm);
  return ok ? NIL_VAL : VM_EXCEPTION;
}

/* Loading: memo[id] is the value made of node id (a node reached twice, or a
 * cycle, is one value); made lists every value, rooted for the GC. */
typedef struct {
  Value *memo;
  ObjList *made;
  const char *path;
} PtLoad;

static Value value_of_pt(AgVM *vm, PtLoad *ld, const PtValue *n, int depth);

static Value pt_made(AgVM *vm, PtLoad *ld, const PtValue *n, Value v) {
  if (v == VM_EXCEPTION) return v;
  ld->memo[n->id] = v;
  obj_list_append(vm, ld->made, v);
  return v;
}

static Value value_of_pt_tensor(AgVM *vm, PtLoad *ld, const PtValue *n) {
  Value v = pt_made(vm, ld, n, lib_wrap(vm, tensor_retain(n->t)));
  if (v == VM_EXCEPTION) return v;
  Tensor *t = lib_t(v);
  if (n->requires_grad && !ag_set_requires_grad(t, true)) return lib_throw_tensor_error(vm);
  AS_TENSOR_OBJ(v)->is_parameter = n->is_parameter;
  return v;
}

static Value value_of_pt_container(AgVM *vm, PtLoad *ld, const PtValue *n, int depth) {
  if (n->kind == PT_DICT) {
    ObjMap *m = obj_new_map(vm);
    pt_made(vm, ld, n, OBJ_VAL(m));
    for (int i = 0; i + 1 < n->n; i += 2) {
      PtKind kind = n->items[i]->kind;
      if (kind != PT_STRING && kind != PT_INT && kind != PT_FLOAT && kind != PT_BOOL && kind != PT_NONE)
        return vm_throw_error(vm, "cannot read %s: a dict key that is not a string, number, bool "
                                  "or None", ld->path);
      Value key = value_of_pt(vm, ld, n->items[i], depth + 1);
      if (key == VM_EXCEPTION) return key;
      Value value = value_of_pt(vm, ld, n->items[i + 1], depth + 1);
      if (value == VM_EXCEPTION || !vm_map_put(vm, m, key, value)) return VM_EXCEPTION;
    }
    return OBJ_VAL(m);
  }
  ObjList *l = obj_new_list(vm); /* a tuple too, until Ag has tuples */
  pt_made(vm, ld, n, OBJ_VAL(l));
  for (int i = 0; i < n->n; i++) {
    Value item = value_of_pt(vm, ld, n->items[i], depth + 1);
    if (item == VM_EXCEPTION) return item;
    obj_list_append(vm, l, item);
  }
  return OBJ_VAL(l);
}

static Value value_of_pt(AgVM *vm, PtLoad *ld, const PtValue *n, int depth) {
  if (ld->memo[n->id] != UNDEF_VAL) return ld->memo[n->id];
  if (depth > PT_MAX_DEPTH)
    return vm_throw_error(vm, "cannot read %s: values nested more than %d deep",
                          ld->path, PT_MAX_DEPTH);
  switch (n->kind) {
  case PT_NONE: return NIL_VAL;
  case PT_BOOL: return BOOL_VAL(n->i != 0);
  case PT_INT: return pt_made(vm, ld, n, int_value(vm, n->i));
  case PT_FLOAT: return FLOAT_VAL(n->f);
  case PT_STRING:
    if (n->len > INT32_MAX) return vm_throw_error(vm, "cannot read %s: a string is too long", ld->path);
    return pt_made(vm, ld, n, OBJ_VAL(obj_copy_string(vm, n->s, (int)n->len)));
  case PT_TENSOR: return value_of_pt_tensor(vm, ld, n);
  case PT_LIST:
  case PT_TUPLE:
  case PT_DICT: return value_of_pt_container(vm, ld, n, depth);
  case PT_GLOBAL:
  case PT_STORAGE: break;
  }
  return vm_throw_error(vm, "cannot read %s: the pickle holds a storage or storage type "
                            "outside a tensor", ld->path);
}

static Value load_pt(AgVM *vm, const char *path) {
  PtDoc doc;
  if (!tensor_load_pt(path, &doc)) return lib_throw_tensor_error(vm);
  PtLoad ld = {malloc(((size_t)doc.count + 1) * sizeof(Value)), obj_new_list(vm), path};
  if (!ld.memo) {
    pt_doc_free(&doc);
    return vm_throw_error(vm, "load(): out of memory");
  }
  for (int i = 0; i < doc.count; i++) ld.memo[i] = UNDEF_VAL;
  vm_push_root(vm, OBJ_VAL(ld.made));
  Value v = value_of_pt(vm, &ld, doc.root, 0);
  vm_pop_root(vm);
  free(ld.memo);
  pt_doc_free(&doc);
  return v;
}

/* PyTorch's format for these names; NumPy's (by the value saved) for others. */
static bool is_pt_path(const char *path) {
  size_t n = strlen(path);
  return (n >= 3 && strcmp(path + n - 3, ".pt") == 0) || (n >= 4 && strcmp(path + n - 4, ".pth") == 0);
}

HELP("save", HELP_TENSORS, 0,
     "save(value, path, compressed=false)",
     "Writes value to path, replacing the file atomically. A path ending in .pt or .pth gets "
     "PyTorch's own format (what torch.save of PyTorch 1.13 writes, and torch.load reads): "
     "tensors, maps, lists, numbers, strings, bools and nil, nested; tensors keep their "
     "views (offset, size, stride) over shared storages, requires_grad and nn.Parameter; "
     "a map (a state dict) loads as a dict. Any other path: a tensor as NumPy .npy, or a map "
     "of tensors (a state dict) as .npz; compressed=true deflates the .npz members, as "
     "numpy.savez_compressed does.",
     "save(arange(3), \"x.npy\")\n"
     "print(load(\"x.npy\"))\n"
     "save({\"step\": 3, \"w\": ones(2)}, \"ckpt.pt\")\n"
     "print(load(\"ckpt.pt\"))")

/* save(value, path, compressed=false): compressed deflates the members of an
 * .npz, as numpy.savez_compressed does */
static Value native_save(NATIVE_ARGS) {
  static const char *const names[] = {"value", "path", "compressed"};
  Value v[3];
  const char *path;
  bool compressed;
  if (!lib_bind(vm, "save", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (!path_arg(vm, "save", v[1], &path) || !lib_flag(vm, v[2], false, &compressed))
    return VM_EXCEPTION;
  if (is_pt_path(path)) {
    if (compressed) return vm_throw_error(vm, "save(): compressed=true applies to .npz files, not .pt");
    return save_pt(vm, v[0], path);
  }
  if (IS_TENSOR(v[0])) {
    if (compressed)
      return vm_throw_error(vm, "save(): compressed=true applies to a map of tensors (.npz), not a tensor (.npy)");
    return tensor_save_npy(lib_t(v[0]), path) ? NIL_VAL : lib_throw_tensor_error(vm);
  }
  if (IS_MAP(v[0])) return save_map(vm, AS_MAP(v[0]), path, compressed);
  return vm_throw_error(vm, "save() can save a tensor (.npy) or a map of tensors (.npz), not %s "
                            "(a path ending in .pt or .pth saves nested values in PyTorch's format)",
                        vm_type_name(v[0]));
}

static Value load_map(AgVM *vm, const char *path) {
  char **names = NULL;
  Tensor **ts = NULL;
  int n = tensor_load_npz(path, &names, &ts);
  if (n < 0) return lib_throw_tensor_error(vm);
  ObjMap *m = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(m));
  for (int i = 0; i < n; i++) {
    Value key = OBJ_VAL(obj_string(vm, names[i]));
    vm_push_root(vm, key);
    Value t = OBJ_VAL(obj_new_tensor(vm, ts[i]));
    vm_push_root(vm, t);
    table_set(vm, &m->table, key, t);
    vm_pop_roots(vm, 2);
    free(names[i]);
  }
  vm_pop_root(vm);
  free(names);
  free(ts);
  return OBJ_VAL(m);
}

HELP("load", HELP_TENSORS, 0,
     "load(path)",
     "Reads a .npy file as a tensor, a .npz file as a map of tensors (NumPy's formats; "
     ".npz members stored or deflated), or a file torch.save wrote (PyTorch 1.6 and later: "
     "a zip of data.pkl, data/N, version) as the value saved, whatever the file's name: "
     "tensors (float32, float64, int64, bool; PyTorch's int32, int16, int8 and uint8 as "
     "int64) with their views and shared storages, requires_grad and nn.Parameter, maps "
     "(dict and OrderedDict: a state dict loads into load_state_dict), lists, tuples (as "
     "lists), numbers, strings, bools and None. The pickle in a .pt is read by a restricted "
     "unpickler: only the opcodes and globals torch.save writes for these values; any "
     "other global (os.system ...), opcode or storage type is an error naming the file and "
     "it, and nothing is ever called. A zip may hold at most 4 GiB uncompressed in all, and "
     "no two of its entries may share member data: beyond that, a clear error before "
     "anything is inflated. Ctrl-C stops a long load with Interrupted.",
     "save({\"w\": ones(2)}, \"state.npz\")\n"
     "print(load(\"state.npz\"))")

static Value native_load(NATIVE_ARGS) {
  const char *path;
  if (!path_arg(vm, "load", args[0], &path)) return VM_EXCEPTION;
  switch (tensor_file_kind(path)) {
  case TENSOR_FILE_NPY: return lib_wrap(vm, tensor_load_npy(path));
  case TENSOR_FILE_NPZ: return load_map(vm, path);
  case TENSOR_FILE_PT: return load_pt(vm, path);
  case TENSOR_FILE_PT_LEGACY:
    return vm_throw_error(vm, "cannot read %s: PyTorch's format before 1.6, which Ag does not "
                              "read (re-save it with torch.save of PyTorch 1.6 or later)", path);
  case TENSOR_FILE_OTHER:
    return vm_throw_error(vm, "load(): %s is neither a .npy, .npz nor PyTorch .pt file", path);
  case TENSOR_FILE_ERROR: break;
  }
  return lib_throw_tensor_error(vm);
}

HELP("load_csv", HELP_TENSORS, 0,
     "load_csv(path, header=true)",
     "Reads a CSV file of numbers as a float32 tensor [rows, columns], skipping the "
     "header line when header is true.",
     "# given data.csv with a header line:\n"
     "let data = load_csv(\"data.csv\")\n"
     "print(data.shape)")

static Value native_load_csv(NATIVE_ARGS) {
  static const char *const names[] = {"path", "header"};
  Value v[2];
  const char *path;
  bool header;
  if (!lib_bind(vm, "load_csv", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!path_arg(vm, "load_csv", v[0], &path) || !lib_flag(vm, v[1], true, &header)) return VM_EXCEPTION;
  return lib_wrap(vm, tensor_load_csv(path, header));
}

void lib_install_io(AgVM *vm) {
  vm_define_native(vm, "save", native_save, 2, 3, true);
  vm_define_native(vm, "load", native_load, 1, 1, false);
  vm_define_native(vm, "load_csv", native_load_csv, 1, 2, true);
}
