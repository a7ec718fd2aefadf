/* lib_io.c — save/load of tensors (.npy) and maps of tensors (.npz, state
 * dicts), of nested values of tensors and whole modules in PyTorch's format
 * (.pt, .pth, any other name for other values, or a file open()ed "wb"/"rb"),
 * and load_csv, over tensor/io.h. Paths are relative to the working
 * directory. A module goes through nn.Module's _pt_state()/_pt_restore()
 * (stdlib/nn.ag), which hold what PyTorch's __dict__ of each class has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stdlib/builtins_internal.h"

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

/* ---- whole modules: a class of the script (__main__.NAME) or of nn
 * (torch.nn.NAME), with the state nn.Module's _pt_state() gives ---- */

/* nn.NAME, or false when nn has no member of that name. */
static bool nn_member(AgVM *vm, const char *name, Value *out) {
  Value nn;
  if (!table_get(&vm->globals.builtins, OBJ_VAL(obj_string(vm, "nn")), &nn) || !IS_MODULE(nn)) return false;
  return vm_module_member(vm, AS_MODULE(nn), obj_string(vm, name), out);
}

static bool is_module_class(AgVM *vm, ObjClass *k) {
  Value base;
  if (!nn_member(vm, "Module", &base) || !IS_CLASS(base)) return false;
  for (; k != NULL; k = k->parent)
    if (k == AS_CLASS(base)) return true;
  return false;
}

/* PyTorch's entries of a module's __dict__ that Ag keeps none of (hooks):
 * written empty, as an nn.Module without hooks has them. */
static bool pt_add_hook_entries(AgVM *vm, PtDoc *doc, PtValue *state) {
  static const char *const names[] = {
      "_non_persistent_buffers_set", "_backward_hooks", "_is_full_backward_hook", "_forward_hooks",
      "_forward_pre_hooks", "_state_dict_hooks", "_load_state_dict_pre_hooks",
      "_load_state_dict_post_hooks"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    PtKind kind = i == 0 ? PT_SET : i == 2 ? PT_NONE : PT_DICT;
    PtValue *key = pt_node(vm, doc, PT_STRING);
    PtValue *value = key ? pt_node(vm, doc, kind) : NULL;
    if (!value) return false;
    value->i = kind == PT_DICT; /* an OrderedDict */
    key->s = strdup(names[i]);
    key->len = strlen(names[i]);
    if (!key->s || !pt_append(state, key) || !pt_append(state, value)) {
      vm_throw_error(vm, "save(): out of memory");
      return false;
    }
  }
  return true;
}

/* The module's __dict__ from the map _pt_state() gives: _parameters,
 * _buffers and _modules as OrderedDicts, the hooks before _modules. */
static PtValue *pt_of_module_state(AgVM *vm, PtDoc *doc, ObjMap *m, int depth) {
  PtValue *state = pt_of_map(vm, doc, m, depth);
  if (!state) return NULL;
  PtValue *entries = pt_node(vm, doc, PT_DICT);
  for (int i = 0; entries && i + 1 < state->n; i += 2) {
    PtValue *key = state->items[i], *value = state->items[i + 1];
    bool internal = key->kind == PT_STRING && value->kind == PT_DICT &&
                    (strcmp(key->s, "_parameters") == 0 || strcmp(key->s, "_buffers") == 0 ||
                     strcmp(key->s, "_modules") == 0);
    if (internal) value->i = 1;
    if (internal && strcmp(key->s, "_modules") == 0 && !pt_add_hook_entries(vm, doc, entries)) return NULL;
    if (!pt_append(entries, key) || !pt_append(entries, value)) {
      vm_throw_error(vm, "save(): out of memory");
      return NULL;
    }
  }
  return entries;
}

/* Where PyTorch finds a class of nn's: torch.nn.NAME, but for the one
 * torch.nn does not export. */
static const char *torch_module_of(const char *name) {
  return strcmp(name, "NonDynamicallyQuantizableLinear") == 0 ? "torch.nn.modules.linear" : "torch.nn";
}

static PtValue *pt_of_module(AgVM *vm, PtDoc *doc, Value v, int depth) {
  ObjClass *k = AS_INSTANCE(v)->klass;
  Value same;
  bool builtin = nn_member(vm, k->name->chars, &same) && IS_CLASS(same) && AS_CLASS(same) == k;
  if (vm->exc.pending) return NULL;
  const char *module = builtin ? torch_module_of(k->name->chars) : "__main__";
  PtValue *n = pt_node(vm, doc, PT_OBJECT);
  if (!n || !(n->s = strdup(k->name->chars)) || !(n->module = strdup(module))) {
    if (n) vm_throw_error(vm, "save(): out of memory");
    return NULL;
  }
  Value state = vm_invoke_cstr(vm, v, "_pt_state", 0, NULL);
  if (state == VM_EXCEPTION) return NULL;
  if (!IS_MAP(state)) {
    vm_throw_error(vm, "save(): %s._pt_state() must return a map, not %s", k->name->chars, vm_type_name(state));
    return NULL;
  }
  vm_push_root(vm, state);
  PtValue *dict = pt_of_module_state(vm, doc, AS_MAP(state), depth + 1);
  vm_pop_root(vm);
  if (!dict || !pt_append(n, dict)) {
    if (dict) vm_throw_error(vm, "save(): out of memory");
    return NULL;
  }
  return n;
}

static PtValue *pt_of_value(AgVM *vm, PtDoc *doc, Value v, int depth) {
  if (depth > PT_MAX_DEPTH) {
    vm_throw_error(vm, "save(): the value is nested more than %d deep (or holds itself)", PT_MAX_DEPTH);
    return NULL;
  }
  PtValue *n = NULL;
  if (IS_TENSOR(v)) return pt_of_tensor(vm, doc, v);
  if (IS_INSTANCE(v) && is_module_class(vm, AS_INSTANCE(v)->klass)) return pt_of_module(vm, doc, v, depth);
  if (IS_MAP(v)) return pt_of_map(vm, doc, AS_MAP(v), depth);
  if (is_list_or_tuple(v)) {
    n = pt_node(vm, doc, IS_TUPLE(v) ? PT_TUPLE : PT_LIST);
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
  vm_throw_error(vm, "save(): a .pt file holds modules, tensors, maps, lists, numbers, strings, "
                     "bools and nil, not %s", vm_type_name(v));
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
  bool weights_only; /* modules refused, as torch.load(weights_only=True) */
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
  ObjList *l = obj_new_list(vm);
  /* a list is known before its items (it may hold itself); a tuple, made of
   * them, after (its items stay rooted in l meanwhile) */
  if (n->kind != PT_TUPLE) pt_made(vm, ld, n, OBJ_VAL(l));
  else vm_push_root(vm, OBJ_VAL(l));
  for (int i = 0; i < n->n; i++) {
    Value item = value_of_pt(vm, ld, n->items[i], depth + 1);
    if (item == VM_EXCEPTION) break;
    obj_list_append(vm, l, item);
  }
  if (n->kind != PT_TUPLE) return l->count == n->n ? OBJ_VAL(l) : VM_EXCEPTION;
  Value tuple = l->count == n->n ? OBJ_VAL(obj_new_tuple(vm, l->items, l->count)) : VM_EXCEPTION;
  vm_pop_root(vm);
  return pt_made(vm, ld, n, tuple);
}

/* The Ag class a module object of the file names: a class of the script
 * (__main__.NAME) or of nn (torch.nn.NAME, torch.nn.modules.FILE.NAME), and
 * a subclass of nn.Module; NULL after throwing. Nothing else is built. */
static ObjClass *module_class_of(AgVM *vm, PtLoad *ld, const PtValue *n) {
  bool of_script = strcmp(n->module, "__main__") == 0;
  Value k = NIL_VAL;
  bool found = of_script ? vm_get_global(vm, n->s, &k) : nn_member(vm, n->s, &k);
  if (vm->exc.pending) return NULL;
  if (found && IS_CLASS(k) && is_module_class(vm, AS_CLASS(k))) return AS_CLASS(k);
  if (of_script)
    vm_throw_error(vm, "cannot read %s: it holds a module of class __main__.%s, which is not a class "
                       "of nn.Module this script defines (define it before load())", ld->path, n->s);
  else
    vm_throw_error(vm, "cannot read %s: it holds a %s.%s, which is not a module class of Ag's nn",
                   ld->path, n->module, n->s);
  return NULL;
}

/* An instance of the class, its init() not run, given its fields by the
 * class's _pt_restore(state) (nn.Module's): the file's names pick only
 * which of the script's module classes is built. */
static Value value_of_pt_module(AgVM *vm, PtLoad *ld, const PtValue *n, int depth) {
  if (ld->weights_only)
    return vm_throw_error(vm, "cannot read %s with weights_only=true: it holds a module (%s.%s)",
                          ld->path, n->module, n->s);
  ObjClass *k = module_class_of(vm, ld, n);
  if (!k) return VM_EXCEPTION;
  Value obj = pt_made(vm, ld, n, OBJ_VAL(obj_new_instance(vm, k)));
  Value state = NIL_VAL;
  if (n->n == 1) state = value_of_pt(vm, ld, n->items[0], depth + 1);
  if (state == VM_EXCEPTION) return state;
  if (!IS_MAP(state))
    return vm_throw_error(vm, "cannot read %s: a module of class %s without its state (a dict)",
                          ld->path, n->s);
  Value done = vm_invoke_cstr(vm, obj, "_pt_restore", 1, &state);
  return done == VM_EXCEPTION ? done : obj;
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
  case PT_SET: /* loaded as a list (PyTorch's only set here, of buffer names, is dropped) */
  case PT_DICT: return value_of_pt_container(vm, ld, n, depth);
  case PT_OBJECT: return value_of_pt_module(vm, ld, n, depth);
  case PT_GLOBAL:
  case PT_STORAGE: break;
  }
  return vm_throw_error(vm, "cannot read %s: the pickle holds a storage or storage type "
                            "outside a tensor", ld->path);
}

/* The value of a loaded tree, which it frees. */
static Value value_of_doc(AgVM *vm, PtDoc *doc, const char *path, bool weights_only) {
  PtLoad ld = {malloc(((size_t)doc->count + 1) * sizeof(Value)), obj_new_list(vm), path, weights_only};
  if (!ld.memo) {
    pt_doc_free(doc);
    return vm_throw_error(vm, "load(): out of memory");
  }
  for (int i = 0; i < doc->count; i++) ld.memo[i] = UNDEF_VAL;
  vm_push_root(vm, OBJ_VAL(ld.made));
  Value v = value_of_pt(vm, &ld, doc->root, 0);
  vm_pop_root(vm);
  free(ld.memo);
  pt_doc_free(doc);
  return v;
}

static Value load_pt(AgVM *vm, const char *path, bool weights_only) {
  PtDoc doc;
  if (!tensor_load_pt(path, &doc)) return lib_throw_tensor_error(vm);
  return value_of_doc(vm, &doc, path, weights_only);
}

static bool ends_with(const char *path, const char *suffix) {
  size_t n = strlen(path), k = strlen(suffix);
  return n >= k && strcmp(path + n - k, suffix) == 0;
}

/* torch.save(value, f) into a file open()ed for writing ("wb"): the archive
 * is made beside it under a name of its own, then written to f. */
static Value save_pt_to_file(AgVM *vm, Value v, Value f) {
  const char *name = lib_file_name(vm, f);
  size_t n = strlen(name);
  char *tmp = malloc(n + 20);
  if (!tmp) return vm_throw_error(vm, "save(): out of memory");
  snprintf(tmp, n + 20, "%s.pt.XXXXXX", name);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return vm_raise(vm, VM_ERR_OS, "cannot write '%s': %s", name, strerror(errno));
  }
  close(fd);
  Value result = save_pt(vm, v, tmp);
  size_t len = 0;
  char *bytes = result == VM_EXCEPTION ? NULL : vm_read_file(tmp, &len);
  unlink(tmp);
  free(tmp);
  if (result == VM_EXCEPTION) return result;
  if (!bytes || len > INT32_MAX) {
    free(bytes);
    return vm_raise(vm, VM_ERR_OS, "cannot write '%s': the archive could not be read back", name);
  }
  Value data = OBJ_VAL(obj_take_string(vm, bytes, (int)len));
  vm_push_root(vm, data);
  result = lib_file_write(vm, f, data);
  vm_pop_root(vm);
  return result == VM_EXCEPTION ? result : NIL_VAL;
}

HELP("save", HELP_TENSORS, 0,
     "save(value, path_or_file, compressed=false)",
     "Writes value to path, replacing the file atomically. A path ending in .pt or .pth gets "
     "PyTorch's own format (what torch.save of PyTorch 1.13 writes, and torch.load reads): "
     "whole modules (torch.save(model): the module's class by name, __main__.NAME for a "
     "class of the script, torch.nn.NAME for nn's, with its parameters, buffers, submodules "
     "and other fields), tensors, maps, lists, numbers, strings, bools and nil, nested; "
     "tensors keep their views (offset, size, stride) over shared storages, requires_grad "
     "and nn.Parameter; a map (a state dict) loads as a dict. Any other path: a tensor as "
     "NumPy .npy, a map of tensors (a state dict) as .npz (compressed=true deflates the "
     "members, as numpy.savez_compressed does), and anything else (a module, a list) in "
     "PyTorch's format; a file open()ed \"wb\" gets PyTorch's format.",
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
  if (!lib_flag(vm, v[2], false, &compressed)) return VM_EXCEPTION;
  if (lib_is_file(vm, v[1])) {
    if (compressed) return vm_throw_error(vm, "save(): compressed=true applies to .npz files, not to an open file");
    return save_pt_to_file(vm, v[0], v[1]);
  }
  if (!path_arg(vm, "save", v[1], &path)) return VM_EXCEPTION;
  bool numpy_path = ends_with(path, ".npy") || ends_with(path, ".npz");
  bool pt = ends_with(path, ".pt") || ends_with(path, ".pth") ||
            (!numpy_path && !IS_TENSOR(v[0]) && !IS_MAP(v[0]));
  if (pt) {
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

/* torch.load(f) of a file open()ed for reading ("rb"): the rest of its bytes. */
static Value load_pt_from_file(AgVM *vm, Value f, bool weights_only) {
  const char *data;
  size_t len;
  if (!lib_file_take_bytes(vm, f, "load", &data, &len)) return VM_EXCEPTION;
  PtDoc doc;
  if (!tensor_load_pt_bytes(lib_file_name(vm, f), (const uint8_t *)data, len, &doc))
    return lib_throw_tensor_error(vm);
  return value_of_doc(vm, &doc, lib_file_name(vm, f), weights_only);
}

HELP("load", HELP_TENSORS, 0,
     "load(path_or_file, map_location=nil, weights_only=false)",
     "Reads a .npy file as a tensor, a .npz file as a map of tensors (NumPy's formats; "
     ".npz members stored or deflated), or a file torch.save wrote (PyTorch 1.6 and later: "
     "a zip of data.pkl, data/N, version) as the value saved, whatever the file's name: "
     "tensors (float32, float64, int64, bool; PyTorch's int32, int16, int8 and uint8 as "
     "int64) with their views and shared storages, requires_grad and nn.Parameter, maps "
     "(dict and OrderedDict: a state dict loads into load_state_dict), lists, tuples, "
     "numbers, strings, bools and None, and whole modules: a module's class must be "
     "one the script defines (a subclass of nn.Module of the same name as __main__.NAME) or "
     "nn's; the instance is made without running its init() and given the saved parameters, "
     "buffers, submodules and fields (PyTorch's hooks are dropped). A file open()ed \"rb\" "
     "reads PyTorch's format from where it stands. map_location may only name the CPU "
     "(\"cpu\", device(\"cpu\")), where everything loads; weights_only=true refuses a "
     "file that holds a module. The pickle in a .pt is read by a "
     "restricted unpickler: only the opcodes and globals torch.save writes for these values; "
     "any other global (os.system ...), opcode or storage type is an error naming the file "
     "and it, and nothing the file names is ever called. A zip may hold at most 4 GiB uncompressed in all, and "
     "no two of its entries may share member data: beyond that, a clear error before "
     "anything is inflated. Ctrl-C stops a long load with Interrupted.",
     "save({\"w\": ones(2)}, \"state.npz\")\n"
     "print(load(\"state.npz\"))")

/* load(path_or_file, map_location=nil, weights_only=false): map_location
 * may only say the CPU, where everything loads anyway; weights_only refuses
 * modules (Ag's unpickler builds nothing else that PyTorch's would refuse). */
static Value native_load(NATIVE_ARGS) {
  static const char *const names[] = {"f", "map_location", "weights_only"};
  Value v[3];
  const char *path;
  bool weights_only;
  if (!lib_bind(vm, "load", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (!lib_device(vm, v[1]) || !lib_flag(vm, v[2], false, &weights_only)) return VM_EXCEPTION;
  if (lib_is_file(vm, v[0])) return load_pt_from_file(vm, v[0], weights_only);
  if (!path_arg(vm, "load", v[0], &path)) return VM_EXCEPTION;
  switch (tensor_file_kind(path)) {
  case TENSOR_FILE_NPY: return lib_wrap(vm, tensor_load_npy(path));
  case TENSOR_FILE_NPZ: return load_map(vm, path);
  case TENSOR_FILE_PT: return load_pt(vm, path, weights_only);
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
  vm_define_native(vm, "load", native_load, 1, 3, true);
  vm_define_native(vm, "load_csv", native_load_csv, 1, 2, true);
}
