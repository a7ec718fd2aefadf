/* state.c — creating and freeing a VM, global slots and namespaces. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vm/memory.h"
#include "vm/vm.h"

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n, size);
  if (p == NULL) vm_out_of_memory(NULL, n * size);
  return p;
}

/* The value stack (8 MB) and the frames are mapped, not calloc'd: the pages
 * a program never reaches cost nothing, where calloc would clear all of them
 * (and AddressSanitizer would shade all of them) for every VM made. */
static void *map_zeroed(size_t n, size_t size) {
  void *p = mmap(NULL, n * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    fprintf(stderr, "ag: out of memory\n");
    exit(1);
  }
  return p;
}

/* AG_MEMORY_LIMIT: bytes, with an optional K, M or G (binary); 0 for none.
 * By default the machine's physical memory: a list that outgrows it is a
 * MemoryError, not a machine swapping to a halt. */
static size_t memory_limit(void) {
  const char *s = getenv("AG_MEMORY_LIMIT");
  if (s != NULL && s[0] != '\0') {
    char *end;
    double v = strtod(s, &end);
    double unit = *end == 'K' || *end == 'k' ? 1024.0 : *end == 'M' || *end == 'm' ? 1048576.0
                  : *end == 'G' || *end == 'g' ? 1073741824.0 : 1.0;
    if (v >= 0 && v * unit < 1.8e19) return (size_t)(v * unit);
  }
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
}

static void init_tables(AgVM *vm) {
  table_init(&vm->globals.builtins);
  table_init(&vm->globals.modules);
  table_init(&vm->core.list_methods);
  table_init(&vm->core.tuple_methods);
  table_init(&vm->core.generator_methods);
  table_init(&vm->core.map_methods);
  table_init(&vm->core.set_methods);
  table_init(&vm->core.string_methods);
  table_init(&vm->gc.strings);
}

static void init_names(AgVM *vm) {
  vm->core.init_string = obj_string(vm, "init");
  vm->core.call_string = obj_string(vm, "call");
  vm->core.str_string = obj_string(vm, "str");
  vm->core.message_string = obj_string(vm, "message");
  vm->core.traceback_string = obj_string(vm, "traceback");
  vm->core.enter_string = obj_string(vm, "enter");
  vm->core.exit_string = obj_string(vm, "exit");
  vm->core.repr_string = obj_string(vm, "repr");
  static const char *const method_names[] = {
#define VM_METHOD_STRING(e, name) name,
      VM_METHOD_NAMES(VM_METHOD_STRING)
#undef VM_METHOD_STRING
  };
  for (int i = 0; i < VM_METHOD_COUNT; i++) vm->core.method_names[i] = obj_string(vm, method_names[i]);
  vm->core.not_implemented = NIL_VAL;
  vm->core.ellipsis = NIL_VAL;
  vm->vmap.batched_class = NULL;
  vm->vmap.dispatch = NIL_VAL;
  vm->vmap.passthrough = NULL;
  vm->vmap.random = NULL;
  vm->vmap.depth = 0;
  for (int i = 0; i < DT_COUNT; i++) vm->core.dtype_call[i] = NIL_VAL;
  for (int i = 0; i < VM_TYPE_COUNT; i++) vm->core.type_objects[i] = NIL_VAL;
  for (int i = 0; i < DT_COUNT; i++) vm->core.dtypes[i] = obj_new_dtype(vm, (DType)i);
  vm->globals.main_module = obj_new_module(vm, obj_string(vm, "<script>"), NULL);
  vm->globals.main_module->state = MODULE_LOADED;
  vm->globals.compiling_module = vm->globals.main_module;
}

void vm_install_core(AgVM *vm); /* errors.c: class Error, Interrupted */
void vm_install_descriptors(AgVM *vm); /* descriptor.c: property, staticmethod, classmethod */

/* An environment switch: set, and neither empty nor "0". */
static bool env_flag(const char *name) {
  const char *s = getenv(name);
  return s != NULL && s[0] != '\0' && strcmp(s, "0") != 0;
}

AgVM *vm_new(void) {
  AgVM *vm = xcalloc(1, sizeof(AgVM));
  vm->exec.stack = map_zeroed(VM_STACK_MAX, sizeof(Value));
  vm->exec.stack_top = vm->exec.stack;
  vm->exec.stack_limit = vm->exec.stack + VM_STACK_MAX;
  vm->exec.frames = map_zeroed(VM_FRAMES_MAX, sizeof(CallFrame));
  vm->exc.value = NIL_VAL;
  vm->gc.next_gc = 1024 * 1024;
  vm->oom.limit = memory_limit();
  vm->gc.stress = env_flag("AG_GC_STRESS");
  vm->exec.quicken = !env_flag("AG_NO_QUICKEN");
  vm_make_current(vm);
  init_tables(vm);
  vm->gc.paused++; /* nothing is rooted until the VM is set up */
  init_names(vm);
  vm_install_core(vm);
  vm_install_descriptors(vm);
  vm->gc.paused--;
  return vm;
}

void vm_free(AgVM *vm) {
  if (vm == NULL) return;
  AgVM *previous = vm_make_current(vm); /* what its objects hold is freed in its context */
  if (vm->plugins.lib_state_free != NULL) vm->plugins.lib_state_free(vm, vm->plugins.lib_state);
  vm->plugins.lib_state = NULL;
  vm->plugins.lib_state_mark = NULL;
  vm->exec.stack_top = vm->exec.stack;
  table_free(vm, &vm->globals.builtins);
  table_free(vm, &vm->globals.modules);
  table_free(vm, &vm->core.list_methods);
  table_free(vm, &vm->core.tuple_methods);
  table_free(vm, &vm->core.generator_methods);
  table_free(vm, &vm->core.map_methods);
  table_free(vm, &vm->core.set_methods);
  table_free(vm, &vm->core.string_methods);
  table_free(vm, &vm->gc.strings);
  vm_free_objects(vm);
  free(vm->globals.values);
  free(vm->globals.names);
  free(vm->exec.handlers);
  free(vm->gc.temp_roots);
  free(vm->gc.pins);
  free(vm->gc.pin_free);
  munmap(vm->exec.frames, VM_FRAMES_MAX * sizeof(CallFrame));
  munmap(vm->exec.stack, VM_STACK_MAX * sizeof(Value));
  ag_free_caches();
  tensor_free_caches();
  vm_make_current(previous != vm ? previous : NULL);
  free(vm);
}

/* ---- globals ---- */

static int new_global_slot(AgVM *vm, ObjString *name, Value initial) {
  if (vm->globals.count == vm->globals.capacity) {
    int cap = vm->globals.capacity < 64 ? 64 : vm->globals.capacity * 2;
    Value *globals = realloc(vm->globals.values, sizeof(Value) * (size_t)cap);
    ObjString **names = realloc(vm->globals.names, sizeof(ObjString *) * (size_t)cap);
    if (globals != NULL) vm->globals.values = globals; /* each may have moved, even if the other failed */
    if (names != NULL) vm->globals.names = names;
    if (globals == NULL || names == NULL) vm_out_of_memory(vm, (sizeof(Value) + sizeof(ObjString *)) * (size_t)cap);
    vm->globals.capacity = cap;
  }
  vm->globals.values[vm->globals.count] = initial;
  vm->globals.names[vm->globals.count] = name;
  return vm->globals.count++;
}

static int module_slot(AgVM *vm, ObjModule *module, ObjString *name) {
  Value slot;
  if (table_get(&module->names, OBJ_VAL(name), &slot)) return (int)AS_NUMBER(slot);
  Value initial = UNDEF_VAL;
  table_get(&vm->globals.builtins, OBJ_VAL(name), &initial);
  int index = new_global_slot(vm, name, initial);
  vm_push_root(vm, OBJ_VAL(name));
  table_set(vm, &module->names, OBJ_VAL(name), INT_VAL(vm, index));
  vm_pop_root(vm);
  return index;
}

int vm_global_slot(AgVM *vm, ObjString *name) {
  return module_slot(vm, vm->globals.compiling_module, name);
}

void vm_define_builtin(AgVM *vm, const char *name, Value value) {
  vm_push_root(vm, value);
  ObjString *s = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(s));
  table_set(vm, &vm->globals.builtins, OBJ_VAL(s), value);
  /* Namespaces that already use the name see the built-in unless they set it. */
  Value slot;
  if (table_get(&vm->globals.main_module->names, OBJ_VAL(s), &slot) && IS_UNDEF(vm->globals.values[(int)AS_NUMBER(slot)])) {
    vm->globals.values[(int)AS_NUMBER(slot)] = value;
  }
  vm_pop_roots(vm, 2);
}

ObjNative *vm_define_native(AgVM *vm, const char *name, AgNativeFn fn, int min_args, int max_args,
                            bool takes_kwargs) {
  ObjNative *n = obj_new_native(vm, name, fn, min_args, max_args, takes_kwargs);
  vm_define_builtin(vm, name, OBJ_VAL(n));
  return n;
}

void vm_set_global(AgVM *vm, const char *name, Value value) {
  vm_push_root(vm, value);
  ObjString *s = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(s));
  int slot = module_slot(vm, vm->globals.main_module, s);
  vm->globals.values[slot] = value;
  vm_pop_roots(vm, 2);
}

bool vm_get_global(AgVM *vm, const char *name, Value *out) {
  ObjString *s = obj_string(vm, name);
  Value slot;
  if (!table_get(&vm->globals.main_module->names, OBJ_VAL(s), &slot)) {
    return table_get(&vm->globals.builtins, OBJ_VAL(s), out);
  }
  Value v = vm->globals.values[(int)AS_NUMBER(slot)];
  if (IS_UNDEF(v)) return false;
  *out = v;
  return true;
}

void vm_add_method(AgVM *vm, Table *methods, const char *name, AgNativeFn fn, int min_args,
                   int max_args, bool takes_kwargs) {
  ObjNative *n = obj_new_native(vm, name, fn, min_args, max_args, takes_kwargs);
  vm_push_root(vm, OBJ_VAL(n));
  table_set(vm, methods, OBJ_VAL(n->name), OBJ_VAL(n));
  vm_pop_root(vm);
}

ObjDType *vm_dtype(AgVM *vm, DType dt) { return vm->core.dtypes[dt]; }

bool vm_parse_kwargs(AgVM *vm, const char *fname, const AgKwargs *kw, const char *const *names, Value *out) {
  int n = 0;
  while (names[n] != NULL) out[n++] = UNDEF_VAL;
  for (int k = 0; kw != NULL && k < kw->count; k++) {
    int found = -1;
    for (int i = 0; i < n && found < 0; i++) {
      if (strcmp(kw->names[k]->chars, names[i]) == 0) found = i;
    }
    if (found < 0) {
      vm_raise(vm, VM_ERR_TYPE, "unexpected keyword argument '%s' in call to %s()", kw->names[k]->chars, fname);
      return false;
    }
    out[found] = kw->values[k];
  }
  return true;
}
