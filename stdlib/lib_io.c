/* lib_io.c — save/load of tensors (.npy) and maps of tensors (.npz, state
 * dicts), and load_csv, over tensor/io.h. Paths are relative to the working
 * directory.
 */
#include <stdlib.h>

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
  if (IS_TENSOR(v[0])) {
    if (compressed)
      return vm_throw_error(vm, "save(): compressed=true applies to a map of tensors (.npz), not a tensor (.npy)");
    return tensor_save_npy(lib_t(v[0]), path) ? NIL_VAL : lib_throw_tensor_error(vm);
  }
  if (IS_MAP(v[0])) return save_map(vm, AS_MAP(v[0]), path, compressed);
  return vm_throw_error(vm, "save() can save a tensor (.npy) or a map of tensors (.npz), not %s",
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

static Value native_load(NATIVE_ARGS) {
  const char *path;
  if (!path_arg(vm, "load", args[0], &path)) return VM_EXCEPTION;
  switch (tensor_file_kind(path)) {
  case TENSOR_FILE_NPY: return lib_wrap(vm, tensor_load_npy(path));
  case TENSOR_FILE_NPZ: return load_map(vm, path);
  case TENSOR_FILE_OTHER:
    return vm_throw_error(vm, "load(): %s is neither a .npy nor a .npz file", path);
  case TENSOR_FILE_ERROR: break;
  }
  return lib_throw_tensor_error(vm);
}

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
