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

static ObjFunction *compile_module(AgVM *vm, ObjModule *module, const char *source, const char *display) {
  ObjModule *saved = vm->compiling_module;
  vm->compiling_module = module;
  vm->gc_paused++;
  ObjFunction *f = vm->compile_hook(vm, source, display);
  vm->gc_paused--;
  vm->compiling_module = saved;
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
  table_set(vm, &vm->modules, OBJ_VAL(abs), OBJ_VAL(module));
  ObjFunction *f = compile_module(vm, module, source, display);
  free(source);
  if (f == NULL) {
    table_remove(&vm->modules, OBJ_VAL(abs));
    vm_pop_root(vm);
    vm_raise(vm, VM_ERR_IMPORT, "cannot import \"%s\": it has syntax errors", display);
    return CALL_ERROR;
  }
  vm_push_root(vm, OBJ_VAL(f));
  ObjClosure *closure = obj_new_closure(vm, f);
  vm_pop_roots(vm, 2);
  *vm->stack_top++ = OBJ_VAL(closure);
  CallStatus s = vm_call_closure(vm, closure, 0, 0, NULL, false);
  if (s == CALL_FRAME) vm->frames[vm->frame_count - 1].module_init = module;
  else table_remove(&vm->modules, OBJ_VAL(abs));
  return s;
}

CallStatus vm_import(AgVM *vm, ObjString *path) {
  if (vm->compile_hook == NULL) {
    vm_raise(vm, VM_ERR_IMPORT, "import is not available (no compiler installed)");
    return CALL_ERROR;
  }
  ObjFunction *importer = vm->frames[vm->frame_count - 1].closure->function;
  char joined[PATH_MAX];
  join_path(importer->file ? importer->file->chars : NULL, path->chars, joined, sizeof joined);
  char resolved[PATH_MAX];
  if (realpath(joined, resolved) == NULL) {
    vm_raise(vm, VM_ERR_IMPORT, "cannot import \"%s\": %s", joined, strerror(errno));
    return CALL_ERROR;
  }
  ObjString *abs = obj_string(vm, resolved);
  Value existing;
  if (table_get(&vm->modules, OBJ_VAL(abs), &existing)) {
    ObjModule *m = AS_MODULE(existing);
    if (m->state == MODULE_LOADING) {
      vm_raise(vm, VM_ERR_IMPORT, "import cycle: \"%s\" is imported while it is still being run", joined);
      return CALL_ERROR;
    }
    *vm->stack_top++ = existing;
    return CALL_DONE;
  }
  vm_push_root(vm, OBJ_VAL(abs));
  CallStatus s = start_module(vm, abs, joined);
  vm_pop_root(vm);
  return s;
}
