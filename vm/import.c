/* import.c — `import "path" as name`: each file runs once, in its own
 * namespace, resolved relative to the importing file; cycles are errors. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vm/internal.h"

/* The importing file's directory joined with `path` (absolute paths stay). */
static void join_path(const char *importer, const char *path, char *out, size_t size) {
  if (path[0] == '/' || importer == NULL) {
    snprintf(out, size, "%s", path);
    return;
  }
  char dir_buf[PATH_MAX];
  snprintf(dir_buf, sizeof dir_buf, "%s", importer);
  const char *dir = dirname(dir_buf);
  if (strcmp(dir, ".") == 0) snprintf(out, size, "%s", path);
  else snprintf(out, size, "%s/%s", dir, path);
}

/* "lib/util.ag" -> "util" */
static ObjString *module_name(AgVM *vm, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 3 && strcmp(base + n - 3, ".ag") == 0) n -= 3;
  return obj_copy_string(vm, base, (int)n);
}

ObjFunction *vm_compile_module(AgVM *vm, ObjModule *module, const char *source, const char *display) {
  ObjModule *saved = vm->globals.compiling_module;
  vm->globals.compiling_module = module;
  vm->gc.paused++;
  ObjFunction *f = vm->plugins.compile(vm, source, display);
  vm->gc.paused--;
  vm->globals.compiling_module = saved;
  return f;
}

/* Registers the module, compiles it and pushes a frame running its top level. */
static CallStatus start_module(AgVM *vm, ObjString *abs, const char *display) {
  struct stat st;
  if (stat(abs->chars, &st) == 0 && !S_ISREG(st.st_mode)) {
    vm_raise(vm, VM_ERR_IMPORT, "cannot import \"%s\": not a regular file", display);
    return CALL_ERROR;
  }
  if (stat(abs->chars, &st) == 0 && (uint64_t)st.st_size > VM_SOURCE_MAX) { /* without reading it */
    vm_raise(vm, VM_ERR_IMPORT, "cannot import \"%s\": %s", display, vm_read_problem(EFBIG));
    return CALL_ERROR;
  }
  char *source = vm_read_file(abs->chars, NULL);
  if (source == NULL) { /* EINTR: vm_throw_error makes it the pending Interrupted */
    vm_raise(vm, VM_ERR_IMPORT, "cannot import \"%s\": %s", display, vm_read_problem(errno));
    return CALL_ERROR;
  }
  ObjString *name = module_name(vm, display);
  vm_push_root(vm, OBJ_VAL(name));
  ObjModule *module = obj_new_module(vm, name, abs);
  vm_pop_root(vm);
  vm_push_root(vm, OBJ_VAL(module));
  table_set(vm, &vm->globals.modules, OBJ_VAL(abs), OBJ_VAL(module));
  ObjFunction *f = vm_compile_module(vm, module, source, display);
  free(source);
  if (f == NULL) {
    table_remove(&vm->globals.modules, OBJ_VAL(abs));
    vm_pop_root(vm);
    vm_raise(vm, VM_ERR_IMPORT, "cannot import \"%s\": it has syntax errors", display);
    return CALL_ERROR;
  }
  vm_push_root(vm, OBJ_VAL(f));
  ObjClosure *closure = obj_new_closure(vm, f);
  vm_pop_roots(vm, 2);
  *vm->exec.stack_top++ = OBJ_VAL(closure);
  CallStatus s = vm_call_closure(vm, closure, 0, 0, NULL, false);
  if (s == CALL_FRAME) vm->exec.frames[vm->exec.frame_count - 1].module_init = module;
  else table_remove(&vm->globals.modules, OBJ_VAL(abs));
  return s;
}

CallStatus vm_import(AgVM *vm, ObjString *path) {
  if (vm->plugins.compile == NULL) {
    vm_raise(vm, VM_ERR_IMPORT, "import is not available (no compiler installed)");
    return CALL_ERROR;
  }
  ObjFunction *importer = vm->exec.frames[vm->exec.frame_count - 1].closure->function;
  char joined[PATH_MAX];
  join_path(importer->file ? importer->file->chars : NULL, path->chars, joined, sizeof joined);
  char resolved[PATH_MAX];
  if (realpath(joined, resolved) == NULL) {
    vm_raise(vm, VM_ERR_IMPORT, "cannot import \"%s\": %s", joined, strerror(errno));
    return CALL_ERROR;
  }
  ObjString *abs = obj_string(vm, resolved);
  Value existing;
  if (table_get(&vm->globals.modules, OBJ_VAL(abs), &existing)) {
    ObjModule *m = AS_MODULE(existing);
    if (m->state == MODULE_LOADING) {
      vm_raise(vm, VM_ERR_IMPORT, "import cycle: \"%s\" is imported while it is still being run", joined);
      return CALL_ERROR;
    }
    *vm->exec.stack_top++ = existing;
    return CALL_DONE;
  }
  vm_push_root(vm, OBJ_VAL(abs));
  CallStatus s = start_module(vm, abs, joined);
  vm_pop_root(vm);
  return s;
}

/* ---- Python's `import torch.nn as nn`: Ag's built-in modules ---- */

/* What Ag offers for a Python module it does not have. */
static const char *missing_module_hint(const char *name) {
  static const struct { const char *module, *hint; } hints[] = {
      {"torchvision", "no datasets or models are built in: build the tensors and use "
                      "utils.data (TensorDataset, DataLoader)"},
      {"matplotlib", "use plot (plot.line, plot.scatter ...)"},
      {"pandas", "read CSV files into tensors with load(\"file.csv\")"},
      {"argparse", "sys.argv (or args) holds the script's arguments"},
      {"copy", "t.clone() copies a tensor, xs.copy() a list or map"},
  };
  for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
    if (strcmp(hints[i].module, name) == 0) return hints[i].hint;
  }
  return "Ag's modules are torch (nn, optim, utils.data, autograd), random, math, time, "
         "string, collections, itertools, sys, os, numpy and unicodedata; an Ag file is imported as import \"file.ag\" as name";
}

static Value no_module(AgVM *vm, const char *dotted, const char *first) {
  return vm_raise(vm, VM_ERR_IMPORT, "no module named '%s' in Ag: %s", dotted, missing_module_hint(first));
}

/* The module path's first name, for the hint ("numpy" of numpy.linalg). */
static void first_name(const char *dotted, char *out, size_t size) {
  size_t n = strcspn(dotted, ".");
  if (n >= size) n = size - 1;
  memcpy(out, dotted, n);
  out[n] = '\0';
}

/* One step down the path: v's member `name` into *next (false after throwing). */
static bool member_of(AgVM *vm, Value v, ObjString *name, bool last, bool member,
                      const char *dotted, size_t consumed, Value *next) {
  if (!IS_MODULE(v)) { /* torch.cuda: an object with members */
    *next = vm_get_attr(vm, v, name);
    return !IS_EXCEPTION(*next);
  }
  if (vm_module_member(vm, AS_MODULE(v), name, next)) return true;
  if (vm->exc.pending) return false;
  char first[64];
  first_name(dotted, first, sizeof first);
  if (member && last)
    vm_raise(vm, VM_ERR_IMPORT, "cannot import name '%s' from '%.*s'", name->chars, (int)consumed - 1, dotted);
  else no_module(vm, dotted, first);
  return false;
}

Value vm_import_name(AgVM *vm, ObjString *path, bool member) {
  const char *dotted = path->chars;
  char first[64];
  first_name(dotted, first, sizeof first);
  Value v;
  size_t n = strcspn(dotted, ".");
  ObjString *name = obj_copy_string(vm, dotted, (int)n);
  if (!table_get(&vm->globals.builtins, OBJ_VAL(name), &v) || !IS_MODULE(v)) return no_module(vm, dotted, first);
  while (dotted[n] != '\0') {
    size_t start = n + 1;
    n = start + strcspn(dotted + start, ".");
    name = obj_copy_string(vm, dotted + start, (int)(n - start));
    vm_push_root(vm, OBJ_VAL(name));
    Value next;
    bool ok = member_of(vm, v, name, dotted[n] == '\0', member, dotted, start, &next);
    vm_pop_root(vm);
    if (!ok) return VM_EXCEPTION;
    v = next;
  }
  if (IS_MODULE(v) && !vm_load_module(vm, AS_MODULE(v))) return VM_EXCEPTION;
  return v;
}
