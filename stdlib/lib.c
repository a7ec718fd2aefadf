/* lib.c — lib_install: the per-VM library state, the built-in modules
 * (nn, optim, autograd: the embedded stdlib .ag files, each compiled into its own
 * namespace), source(), and the reflection built-ins nn.ag relies on
 * (vars, isinstance, getattr, hasattr, setattr, delattr, callable).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__ /* mallopt is glibc's; other C libraries keep their defaults */
#include <malloc.h>
#endif

#include "stdlib/embedded.h"
#include "stdlib/lib.h"
#include "stdlib/lib_graph.h"
#include "stdlib/lib_internal.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

/* ---- state ---- */

static void mark_table_entries(AgVM *vm, const Table *t) {
  for (int i = 0; i < t->used; i++) {
    vm_mark_value(vm, t->entries[i].key);
    vm_mark_value(vm, t->entries[i].value);
  }
}

static void state_mark(AgVM *vm, void *state) {
  LibState *st = state;
  mark_table_entries(vm, &st->tensor_names);
  mark_table_entries(vm, &st->node_names);
  for (int i = 0; i < LT_COUNT; i++) {
    vm_mark_object(vm, (Obj *)st->methods[i]);
    vm_mark_object(vm, (Obj *)st->wrapped[i]);
  }
  Obj *objs[] = {(Obj *)st->function_class,  (Obj *)st->ctx_class,     (Obj *)st->handle_class,
                 (Obj *)st->autograd_module, (Obj *)st->s_forward,     (Obj *)st->s_backward,
                 (Obj *)st->s_saved_tensors, (Obj *)st->s_needs_input_grad, (Obj *)st->s_mode,
                 (Obj *)st->s_prev,          (Obj *)st->s_tensor,      (Obj *)st->s_id,
                 (Obj *)st->generator_class, (Obj *)st->default_generator, (Obj *)st->s_state,
                 (Obj *)st->s_packed_saved};
  for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) vm_mark_object(vm, objs[i]);
  for (int i = 0; i < 4; i++) vm_mark_object(vm, (Obj *)st->context_classes[i]);
  vm_mark_object(vm, (Obj *)st->grad_mode_function_class);
}

/* backward(create_graph=true) gives a leaf a .grad whose graph leads back to
 * the leaf (PyTorch warns of the same reference cycle). At teardown every
 * tensor the script still holds drops its .grad, so such cycles are freed
 * with everything else instead of outliving the VM. */
static void drop_grads_of_live_tensors(AgVM *vm) {
  for (Obj *o = vm->gc.objects; o != NULL; o = o->next) {
    if (o->type != OBJ_TENSOR) continue;
    Tensor *t = ((ObjTensor *)o)->tensor;
    if (t != NULL && ag_get_grad(t) != NULL) ag_set_grad(t, NULL);
  }
}

static void state_free(AgVM *vm, void *state) {
  LibState *st = state;
  drop_grads_of_live_tensors(vm);
  table_free(vm, &st->tensor_names);
  table_free(vm, &st->node_names);
  free(st);
  /* The VM frees its objects (tensors, graphs) after this: let those go
   * straight back to the allocator, so that nothing stays cached at exit. */
  ag_set_caches_enabled(false);
  tensor_set_caches_enabled(false);
  ag_free_caches();
  tensor_free_caches();
}

static void state_new(AgVM *vm) {
  LibState *st = calloc(1, sizeof *st);
  if (st == NULL) vm_out_of_memory(vm, sizeof *st);
  table_init(&st->tensor_names);
  table_init(&st->node_names);
  ag_set_caches_enabled(true); /* after an earlier VM's teardown */
  tensor_set_caches_enabled(true);
  vm->plugins.lib_state = st;
  vm->plugins.lib_state_free = state_free;
  vm->plugins.lib_state_mark = state_mark;
}

/* ---- built-in modules ---- */

void lib_module_define(AgVM *vm, ObjModule *module, const char *name, Value value) {
  vm_push_root(vm, value);
  ObjModule *saved = vm->globals.compiling_module;
  vm->globals.compiling_module = module;
  ObjString *s = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(s));
  int slot = vm_global_slot(vm, s);
  vm->globals.values[slot] = value;
  vm->globals.compiling_module = saved;
  vm_pop_roots(vm, 2);
}

static const char *embedded_text(const char *file) {
  for (const EmbeddedFile *f = ag_embedded_files; f->name != NULL; f++) {
    if (strcmp(f->name, file) == 0) return f->text;
  }
  return NULL;
}

/* The file of a built-in module: stdlib/NAME.ag, NAME the last part of a
 * submodule's name (nn.init: init.ag), unless a file of the whole name with
 * `_` for `.` is embedded (autograd.functional: autograd_functional.ag, as
 * nn.functional has functional.ag). */
static void module_file(const char *module_name, char *file, size_t size) {
  snprintf(file, size, "%s", module_name);
  for (char *p = file; *p; p++)
    if (*p == '.') *p = '_';
  strncat(file, ".ag", size - strlen(file) - 1);
  if (embedded_text(file) != NULL) return;
  const char *dot = strrchr(module_name, '.');
  snprintf(file, size, "%s.ag", dot != NULL ? dot + 1 : module_name);
}

/* Compiles and runs a built-in module's file in `module` (the module loader,
 * at the module's first use); false after throwing. */
static bool run_module(AgVM *vm, ObjModule *module) {
  char file[64];
  module_file(module->name->chars, file, sizeof file);
  const char *text = embedded_text(file);
  if (text == NULL || vm->plugins.compile == NULL) {
    vm_raise(vm, VM_ERR_IMPORT, "module %s: no embedded %s", module->name->chars, file);
    return false;
  }
  ObjFunction *fn = vm_compile_module(vm, module, text, file);
  if (fn == NULL) { /* only if the embedded library itself is broken (or Ctrl-C) */
    vm_raise(vm, VM_ERR_IMPORT, "module %s: %s does not compile", module->name->chars, file);
    return false;
  }
  vm_push_root(vm, OBJ_VAL(fn));
  ObjClosure *closure = obj_new_closure(vm, fn);
  vm_pop_root(vm);
  vm_push_root(vm, OBJ_VAL(closure));
  Value r = vm_call(vm, OBJ_VAL(closure), 0, NULL);
  vm_pop_root(vm);
  return !IS_EXCEPTION(r);
}

static ObjModule *new_module(AgVM *vm, const char *name) {
  ObjString *s = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(s));
  ObjModule *m = obj_new_module(vm, s, NULL);
  vm_pop_root(vm);
  return m;
}

/* func._set_batching(cls, dispatch, passthrough, random): func.ag's
 * BatchedTensor class, the function that applies batching rules, the natives
 * that are no tensor operations and the random ones (see vm->vmap.batched_class). */
static Value native_set_batching(NATIVE_ARGS) {
  if (!IS_CLASS(args[0]) || !IS_CLOSURE(args[1]) || !IS_LIST(args[2]) || !IS_LIST(args[3]))
    return vm_raise(vm, VM_ERR_TYPE,
                    "_set_batching(cls, dispatch, passthrough, random): a class, a function and two lists expected");
  vm->vmap.batched_class = AS_CLASS(args[0]);
  vm->vmap.dispatch = args[1];
  vm->vmap.passthrough = AS_LIST(args[2]);
  vm->vmap.random = AS_LIST(args[3]);
  return NIL_VAL;
}

/* func._set_vmap_depth(n): how many vmaps are running (vm->vmap.depth). */
static Value native_set_vmap_depth(NATIVE_ARGS) {
  if (!IS_INT(args[0])) return vm_raise(vm, VM_ERR_TYPE, "_set_vmap_depth(n): an int expected");
  vm->vmap.depth = (int)AS_INT(args[0]);
  return NIL_VAL;
}

static void func_define(AgVM *vm, ObjModule *m) {
  ObjNative *set = obj_new_native(vm, "_set_batching", native_set_batching, 4, 4, false);
  vm_push_root(vm, OBJ_VAL(set));
  lib_module_define(vm, m, "_set_batching", OBJ_VAL(set));
  vm_pop_root(vm);
  ObjNative *depth = obj_new_native(vm, "_set_vmap_depth", native_set_vmap_depth, 1, 1, false);
  vm_push_root(vm, OBJ_VAL(depth));
  lib_module_define(vm, m, "_set_vmap_depth", OBJ_VAL(depth));
  vm_pop_root(vm);
}

/* Defines the module; its file runs at its first use (run_module). A
 * submodule (nn.init), when given, is defined in it under `sub_name` first,
 * so its code can use it; a submodule itself is not a built-in name. */
static ObjModule *install_module(AgVM *vm, const char *name, ObjModule *sub, const char *sub_name) {
  char file[64];
  module_file(name, file, sizeof file);
  vm_add_library_file(vm, file);
  ObjModule *m = new_module(vm, name);
  m->state = MODULE_UNLOADED;
  vm_push_root(vm, OBJ_VAL(m));
  if (strcmp(name, "autograd") == 0) {
    lib_state(vm)->autograd_module = m;
    lib_install_autograd_module(vm, m);
  }
  if (strcmp(name, "plot") == 0) lib_install_plot_module(vm, m);
  if (strcmp(name, "autograd.forward_ad") == 0) lib_forward_ad_define(vm, m);
  if (strcmp(name, "func") == 0) func_define(vm, m);
  if (strcmp(name, "nn.functional") == 0) lib_functional_define(vm, m);
  if (strcmp(name, "nn") == 0) lib_nn_define(vm, m);
  if (strcmp(name, "random") == 0) py_random_define(vm, m);
  if (strcmp(name, "numpy") == 0) py_numpy_define(vm, m);
  if (strcmp(name, "unicodedata") == 0) py_unicodedata_define(vm, m);
  if (strcmp(name, "math") == 0) py_math_define(vm, m);
  if (strcmp(name, "time") == 0 || strcmp(name, "os") == 0 || strcmp(name, "sys") == 0 ||
      strcmp(name, "gc") == 0)
    py_system_define(vm, m);
  m->builtin_members = strcmp(name, "torch") == 0; /* torch.randn is randn */
  if (sub != NULL) lib_module_define(vm, m, sub_name, OBJ_VAL(sub));
  if (strchr(name, '.') == NULL) vm_define_builtin(vm, name, OBJ_VAL(m));
  vm_pop_root(vm);
  return m;
}

/* autograd and its submodules autograd.functional (Jacobians, Hessians
 * and their products) and autograd.graph (saved-tensor hooks). */
static void install_autograd(AgVM *vm) {
  ObjModule *autograd = install_module(vm, "autograd", NULL, NULL);
  vm_push_root(vm, OBJ_VAL(autograd));
  static const char *const subs[] = {"functional", "graph", "forward_ad"};
  for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "autograd.%s", subs[i]);
    ObjModule *sub = install_module(vm, name, NULL, NULL);
    lib_module_define(vm, autograd, subs[i], OBJ_VAL(sub));
  }
  vm_pop_root(vm);
}

/* `utils`, PyTorch's torch.utils: a module of no code of its own that holds
 * utils.data (data.ag), so a script names utils.data.DataLoader. */
static void install_utils(AgVM *vm) {
  ObjModule *utils = new_module(vm, "utils");
  utils->state = MODULE_LOADED;
  vm_push_root(vm, OBJ_VAL(utils));
  ObjModule *data = install_module(vm, "utils.data", NULL, NULL);
  lib_module_define(vm, utils, "data", OBJ_VAL(data));
  ObjModule *checkpoint = install_module(vm, "utils.checkpoint", NULL, NULL);
  lib_module_define(vm, utils, "checkpoint", OBJ_VAL(checkpoint));
  HELP("utils", HELP_BUILTINS, 0,
       "utils",
       "PyTorch's torch.utils: the module that holds utils.data (datasets and batch "
       "loading) and utils.checkpoint (activation checkpointing). PyTorch's `from torch.utils.data import DataLoader` is "
       "`utils.data.DataLoader` here, or `let data = utils.data` then `data.DataLoader`.",
       "let data = utils.data\n"
       "print(len(data.TensorDataset(zeros(5, 2))))")
  vm_define_builtin(vm, "utils", OBJ_VAL(utils));
  vm_pop_root(vm);
}

/* ---- source() ---- */

/* The index just past the brace that closes the first `{` at or after i,
 * skipping strings and comments; -1 if unbalanced. */
static long balanced_end(const char *s, long i) {
  int depth = 0;
  for (; s[i] != '\0'; i++) {
    char c = s[i];
    if (c == '#') {
      while (s[i + 1] != '\0' && s[i + 1] != '\n') i++;
    } else if (c == '"' || c == '\'') {
      for (i++; s[i] != '\0' && s[i] != c; i++) {
        if (s[i] == '\\' && s[i + 1] != '\0') i++;
      }
      if (s[i] == '\0') return -1;
    } else if (c == '{') {
      depth++;
    } else if (c == '}' && --depth == 0) {
      return i + 1;
    }
  }
  return -1;
}

static long line_start(const char *s, int line) {
  long i = 0;
  for (int l = 1; l < line && s[i] != '\0'; i++) {
    if (s[i] == '\n') l++;
  }
  return i;
}

/* Moves back over the comment lines right above a definition. */
static long with_comments(const char *s, long start) {
  while (start > 0) {
    long prev = start - 1; /* the '\n' ending the line above */
    while (prev > 0 && s[prev - 1] != '\n') prev--;
    long k = prev;
    while (s[k] == ' ' || s[k] == '\t') k++;
    if (s[k] != '#') break;
    start = prev;
  }
  return start;
}

/* The line where `keyword NAME` starts a definition, or 0. */
static int find_definition(const char *s, const char *keyword, const char *name) {
  size_t kl = strlen(keyword), nl = strlen(name);
  int line = 1;
  for (const char *p = s; *p != '\0'; line++) {
    const char *q = p;
    while (*q == ' ' || *q == '\t') q++;
    if (strncmp(q, keyword, kl) == 0 && q[kl] == ' ') {
      q += kl;
      while (*q == ' ') q++;
      if (strncmp(q, name, nl) == 0 && !isalnum((unsigned char)q[nl]) && q[nl] != '_') return line;
    }
    p = strchr(p, '\n');
    if (p == NULL) break;
    p++;
  }
  return 0;
}

static Value cut_source(AgVM *vm, const char *text, int line, const char *what) {
  long start = line_start(text, line);
  long end = balanced_end(text, start);
  if (end < 0) return vm_throw_error(vm, "source(): could not find the source of %s", what);
  start = with_comments(text, start);
  return OBJ_VAL(obj_copy_string(vm, text + start, (int)(end - start)));
}

/* The text of the file a function was compiled from (embedded or on disk). */
static const char *function_text(ObjFunction *f, char **owned) {
  *owned = NULL;
  if (f->file == NULL) return NULL;
  const char *text = embedded_text(f->file->chars);
  if (text != NULL) return text;
  *owned = vm_read_file(f->file->chars, NULL);
  return *owned;
}

static Value source_of_function(AgVM *vm, ObjFunction *f) {
  char *owned;
  const char *text = function_text(f, &owned);
  const char *name = f->name ? f->name->chars : "<script>";
  if (text == NULL) return vm_throw_error(vm, "source(): the source of %s is not available", name);
  Value r = cut_source(vm, text, f->line, name);
  free(owned);
  return r;
}

/* A class: its file is that of any of its (or its parents') methods. */
static Value source_of_class(AgVM *vm, ObjClass *k) {
  const char *name = k->name->chars;
  for (int i = 0; i < k->methods.used; i++) {
    Value m = k->methods.entries[i].value;
    if (IS_UNDEF(k->methods.entries[i].key) || !IS_CLOSURE(m)) continue;
    char *owned;
    const char *text = function_text(AS_CLOSURE(m)->function, &owned);
    int line = text ? find_definition(text, "class", name) : 0;
    if (line > 0) {
      Value r = cut_source(vm, text, line, name);
      free(owned);
      return r;
    }
    free(owned);
  }
  for (const EmbeddedFile *f = ag_embedded_files; f->name != NULL; f++) {
    int line = find_definition(f->text, "class", name);
    if (line > 0) return cut_source(vm, f->text, line, name);
  }
  return vm_throw_error(vm, "source(): the source of class %s is not available", name);
}

HELP("source", HELP_GRAPH, 0,
     "source(f)",
     "The Ag source text of a function or class, such as the library's own nn.Linear.",
     "print(source(nn.ReLU))")

static Value native_source(NATIVE_ARGS) {
  Value v = args[0];
  if (IS_BOUND_METHOD(v)) v = AS_BOUND_METHOD(v)->method;
  if (IS_CLOSURE(v)) return source_of_function(vm, AS_CLOSURE(v)->function);
  if (IS_CLASS(v)) return source_of_class(vm, AS_CLASS(v));
  if (IS_NATIVE(v))
    return vm_throw_error(vm, "source(): %s is built in (written in C), it has no Ag source",
                          AS_NATIVE(v)->name->chars);
  return vm_raise(vm, VM_ERR_TYPE, "source() expects a function or a class, not %s", vm_type_name(v));
}

/* ---- reflection ---- */

static Value native_vars(NATIVE_ARGS) {
  if (!IS_INSTANCE(args[0]))
    return vm_raise(vm, VM_ERR_TYPE, "vars() argument must be an instance, not %s", vm_type_name(args[0]));
  ObjMap *m = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(m));
  table_add_all(vm, &AS_INSTANCE(args[0])->fields, &m->table);
  vm_pop_root(vm);
  return OBJ_VAL(m);
}

static Value native_isinstance(NATIVE_ARGS) {
  Value cls = args[1];
  const Value *classes = &cls;
  int n = 1;
  if (is_list_or_tuple(cls)) {
    classes = AS_LIST(cls)->items;
    n = AS_LIST(cls)->count;
  }
  for (int i = 0; i < n; i++) {
    int is = vm_is_instance(vm, args[0], classes[i]);
    if (is < 0)
      return vm_raise(vm, VM_ERR_TYPE, "isinstance() arg 2 must be a class or a list of classes, not %s",
                            vm_type_name(classes[i]));
    if (is) return TRUE_VAL;
  }
  return FALSE_VAL;
}

HELP("id", HELP_BUILTINS, 0,
     "id(x)",
     "An int naming the identity of x: two values have the same id when they are the "
     "same object (two variables holding one tensor), as Python's id.",
     "let t = tensor([1.0])\n"
     "let u = t\n"
     "print(id(t) == id(u), id(t) == id(tensor([1.0])))")

/* id(x): an int naming x's identity, as Python's (two tensor values that wrap
 * the same tensor have the same id; optim uses it to find a parameter given
 * twice). */
static Value native_id(NATIVE_ARGS) {
  Value v = args[0];
  uintptr_t identity = (uintptr_t)v;
  if (IS_TENSOR(v)) {
    identity = (uintptr_t)lib_t(v);
  } else if (IS_OBJ(v)) {
    identity = (uintptr_t)AS_OBJ(v);
  }
  return INT_VAL(vm, (int64_t)(identity & 0x7fffffffffffffffu));
}

/* The innermost frame outside the embedded library (nn.ag, optim.ag, ...):
 * where a warning raised inside a library layer is reported. */
static const CallFrame *user_frame(AgVM *vm) {
  for (int i = vm->exec.frame_count - 1; i >= 0; i--) {
    const ObjFunction *f = vm->exec.frames[i].closure->function;
    if (f->file == NULL || embedded_text(f->file->chars) == NULL) return &vm->exec.frames[i];
  }
  return vm->exec.frame_count > 0 ? &vm->exec.frames[0] : NULL;
}

/* "FILE:LINE: UserWarning: message" on stderr, at the user's line when
 * called inside the library, as PyTorch's warnings.warn: what warn(message)
 * and the library's own warnings print. */
void lib_user_warning(AgVM *vm, const char *msg) {
  const CallFrame *frame = user_frame(vm);
  const char *file = "<input>";
  int line = 0;
  if (frame != NULL) {
    const ObjFunction *f = frame->closure->function;
    if (f->file != NULL) file = f->file->chars;
    long offset = (long)(frame->ip - f->chunk.code) - 1;
    if (offset < 0) offset = 0;
    if (f->chunk.count > 0) line = f->chunk.lines[offset < f->chunk.count ? offset : f->chunk.count - 1];
  }
  fflush(stdout);
  fprintf(stderr, "%s:%d: UserWarning: %s\n", file, line, msg);
}

HELP("warn", HELP_BUILTINS, 0,
     "warn(message)",
     "Writes \"FILE:LINE: UserWarning: message\" to standard error, as Python's "
     "warnings.warn; called inside the library (nn, optim), LINE is the script's line "
     "that called it.",
     "warn(\"this learning rate looks large\")")

static Value native_warn(NATIVE_ARGS) {
  if (!IS_STRING(args[0]))
    return vm_raise(vm, VM_ERR_TYPE, "warn(): the message must be a string, not %s", vm_type_name(args[0]));
  lib_user_warning(vm, AS_CSTRING(args[0]));
  return NIL_VAL;
}

/* The attribute name argument of getattr and its kin. */
static bool attr_name(AgVM *vm, const char *fname, Value name) {
  if (IS_STRING(name)) return true;
  vm_raise(vm, VM_ERR_TYPE, "%s(): attribute name must be string, not '%s'", fname, vm_type_name(name));
  return false;
}

HELP("getattr", HELP_GRAPH, 0,
     "getattr(obj, name, default)",
     "obj.name for a name in a string, on instances, classes, modules and tensors; with a "
     "default, a missing attribute gives it instead of an error (Python's getattr).",
     "class P { fn init() { self.x = 1 } }\n"
     "print(getattr(P(), \"x\"), getattr(P(), \"z\", 0), getattr(nn, \"Linear\"))")

/* getattr(obj, name[, default]): obj.name, or default when obj has no such
 * attribute (the lookup's error is dropped). */
static Value native_getattr(NATIVE_ARGS) {
  if (!attr_name(vm, "getattr", args[1])) return VM_EXCEPTION;
  Value v = vm_get_attr(vm, args[0], AS_STRING(args[1]));
  if (!IS_EXCEPTION(v) || argc < 3) return v;
  vm_take_exception(vm);
  return args[2];
}

HELP("hasattr", HELP_GRAPH, 0,
     "hasattr(obj, name)",
     "Whether obj.name can be read (a field, a method, a module's global ...).",
     "class P { fn init() { self.x = 1 } }\n"
     "print(hasattr(P(), \"x\"), hasattr(P(), \"y\"))")

static Value native_hasattr(NATIVE_ARGS) {
  if (!attr_name(vm, "hasattr", args[1])) return VM_EXCEPTION;
  Value v = vm_get_attr(vm, args[0], AS_STRING(args[1]));
  if (!IS_EXCEPTION(v)) return TRUE_VAL;
  vm_take_exception(vm);
  return FALSE_VAL;
}

HELP("setattr", HELP_GRAPH, 0,
     "setattr(obj, name, value)",
     "obj.name = value for a name in a string (a property's setter runs).",
     "class P {}\n"
     "let p = P()\n"
     "setattr(p, \"w\", 3)\n"
     "print(p.w)")

static Value native_setattr(NATIVE_ARGS) {
  if (!attr_name(vm, "setattr", args[1])) return VM_EXCEPTION;
  Value r = vm_set_attr(vm, args[0], AS_STRING(args[1]), args[2]);
  return IS_EXCEPTION(r) ? r : NIL_VAL;
}

HELP("getfield", HELP_GRAPH, 0,
     "getfield(obj, name, default)",
     "Ag's earlier name of getattr, kept so that scripts written with it still run: the "
     "same function (getfield is getattr).",
     "print(getfield(nn, \"Linear\") is getattr(nn, \"Linear\"))")

HELP("setfield", HELP_GRAPH, 0,
     "setfield(obj, name, value)",
     "Ag's earlier name of setattr, kept so that scripts written with it still run: the "
     "same function.",
     "class P {}\n"
     "let p = P()\n"
     "setfield(p, \"w\", 3)\n"
     "print(p.w)")

/* name: the built-in `current` under the earlier name scripts may use. */
static void define_older_name(AgVM *vm, const char *name, const char *current) {
  Value v;
  if (table_get(&vm->globals.builtins, OBJ_VAL(obj_string(vm, current)), &v)) vm_define_builtin(vm, name, v);
}

HELP("delattr", HELP_GRAPH, 0,
     "delattr(obj, name)",
     "Removes an instance's field; a missing one is an error.",
     "class P { fn init() { self.x = 1 } }\n"
     "let p = P()\n"
     "delattr(p, \"x\")\n"
     "print(hasattr(p, \"x\"))")

/* delattr(obj, name): removes an instance's field. */
static Value native_delattr(NATIVE_ARGS) {
  if (!attr_name(vm, "delattr", args[1])) return VM_EXCEPTION;
  if (!IS_INSTANCE(args[0]))
    return vm_raise(vm, VM_ERR_TYPE, "delattr(): cannot delete attributes of %s", vm_type_name(args[0]));
  if (!table_remove(&AS_INSTANCE(args[0])->fields, args[1]))
    return vm_raise(vm, VM_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", vm_type_name(args[0]), AS_CSTRING(args[1]));
  return NIL_VAL;
}

HELP("callable", HELP_BUILTINS, 0,
     "callable(v)",
     "True when v can be called: a function, a class, a bound method, an instance "
     "whose class has call.",
     "print(callable(print), callable(3))")

static Value native_callable(NATIVE_ARGS) {
  Value v = args[0];
  if (IS_CLOSURE(v) || IS_NATIVE(v) || IS_BOUND_METHOD(v) || IS_CLASS(v) || IS_DTYPE(v)) return TRUE_VAL;
  if (!IS_INSTANCE(v)) return FALSE_VAL;
  Value call;
  return BOOL_VAL(table_get(&AS_INSTANCE(v)->klass->methods, OBJ_VAL(vm->core.call_string), &call));
}

/* ---- installation ---- */

/* A training loop frees and re-allocates the same graph every step: keep
 * freed memory in the process instead of returning it to the kernel and
 * faulting fresh zeroed pages back in (that was a quarter of the time of a
 * scalar autograd loop). The heap grows in 64 MB steps (address space only:
 * pages are faulted as used), so a growing graph costs few brk calls.
 * Transparent huge pages were tried and dropped: on this project's VMs a
 * huge page freshly taken after another process freed memory costs more to
 * fault than the 4 KB faults it saves (scalar_graph 0.17 -> 0.14 s right
 * after a PyTorch run). */
static void tune_malloc(void) {
#ifdef __GLIBC__
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
#endif
}

void lib_install(AgVM *vm) {
  tune_malloc();
  state_new(vm);
  tensor_set_allocation_limit(vm->oom.limit); /* AG_MEMORY_LIMIT bounds a tensor too */
  lib_install_tensor(vm);
  lib_install_random(vm);
  lib_install_create(vm);
  lib_install_nnfunc(vm);
  lib_install_conv(vm);
  lib_install_scatter(vm);
  lib_install_io(vm);
  lib_install_autograd(vm);
  vm_define_native(vm, "source", native_source, 1, 1, false);
  vm_define_native(vm, "vars", native_vars, 1, 1, false);
  vm_define_native(vm, "isinstance", native_isinstance, 2, 2, false);
  vm_define_native(vm, "id", native_id, 1, 1, false);
  vm_define_native(vm, "warn", native_warn, 1, 1, false);
  vm_define_native(vm, "getattr", native_getattr, 2, 3, false);
  vm_define_native(vm, "hasattr", native_hasattr, 2, 2, false);
  vm_define_native(vm, "setattr", native_setattr, 3, 3, false);
  vm_define_native(vm, "delattr", native_delattr, 2, 2, false);
  define_older_name(vm, "getfield", "getattr");
  define_older_name(vm, "setfield", "setattr");
  vm_define_native(vm, "callable", native_callable, 1, 1, false);
  lib_graph_install(vm);
  lib_install_display(vm);
  lib_install_torch(vm);
  vm_install_types(vm); /* after the natives that become types' conversions (int, Tensor ...) */
  /* The Ag-written modules last: they compile against every built-in above,
   * at their first use (creating a VM stays cheap: a fuzzer makes one per
   * input). A submodule is defined in its parent before the parent's code
   * runs, so that code may use it. */
  vm->plugins.module_loader = run_module;
  install_autograd(vm);
  ObjModule *init = install_module(vm, "nn.init", NULL, NULL);
  vm_push_root(vm, OBJ_VAL(init));
  ObjModule *functional = install_module(vm, "nn.functional", NULL, NULL);
  vm_push_root(vm, OBJ_VAL(functional));
  ObjModule *nn = install_module(vm, "nn", init, "init");
  vm_push_root(vm, OBJ_VAL(nn));
  lib_module_define(vm, nn, "functional", OBJ_VAL(functional));
  ObjModule *utils = install_module(vm, "nn.utils", NULL, NULL);
  lib_module_define(vm, nn, "utils", OBJ_VAL(utils));
  vm_pop_roots(vm, 3);
  install_module(vm, "plot", NULL, NULL);
  ObjModule *optim = install_module(vm, "optim", NULL, NULL);
  vm_push_root(vm, OBJ_VAL(optim));
  /* optim.lr_scheduler sees optim (for optim.Optimizer), and optim holds it */
  ObjModule *schedulers = install_module(vm, "optim.lr_scheduler", optim, "optim");
  lib_module_define(vm, optim, "lr_scheduler", OBJ_VAL(schedulers));
  vm_pop_root(vm);
  install_utils(vm);
  /* func (torch.func), also named functorch as PyTorch 1.13's package */
  HELP("functorch", HELP_AUTOGRAD, 0,
       "functorch",
       "The module func under the name of PyTorch 1.13's package: `import functorch` then "
       "functorch.vmap, functorch.grad ...",
       "import functorch\n"
       "print(functorch.vmap(fn(r) { return r.sum() })(ones(2, 3)))")
  vm_define_builtin(vm, "functorch", OBJ_VAL(install_module(vm, "func", NULL, NULL)));
  /* PyTorch's own namespace, and the Python modules that lessons import */
  static const char *const more[] = {"cuda", "backends", "torch", "random", "math", "time",
                                     "string", "collections", "itertools", "sys", "os", "gc",
                                     "numpy", "unicodedata"};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) install_module(vm, more[i], NULL, NULL);
  Value numpy;
  table_get(&vm->globals.builtins, OBJ_VAL(obj_string(vm, "numpy")), &numpy);
  HELP("np", HELP_BUILTINS, 0,
       "np",
       "The numpy module under NumPy's usual name (:help numpy).",
       "print(np.pi)")
  vm_define_builtin(vm, "np", numpy); /* NumPy's usual name, as lessons write it */
}
