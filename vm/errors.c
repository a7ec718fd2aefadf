/* errors.c — Error values, tracebacks, throwing and reporting uncaught errors.
 *
 * A runtime error is an instance of the built-in class Error (or a subclass)
 * with fields `message` (a string) and `traceback` (a list of
 * [function, file, line] lists, outermost call first), captured when the
 * error is made or first thrown. Thrown non-Error values keep their
 * traceback on the VM (vm->exc.trace) while they are in flight.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vm/buffer.h"
#include "vm/memory.h"
#include "vm/vm.h"

/* Frames kept at each end of a very deep traceback (stack overflow). */
#define TRACE_KEEP 25

static int frame_line(const CallFrame *frame) {
  const Chunk *chunk = &frame->closure->function->chunk;
  int offset = (int)(frame->ip - chunk->code) - 1;
  if (offset < 0) offset = 0;
  if (offset >= chunk->count) offset = chunk->count - 1;
  return chunk->count > 0 ? chunk->lines[offset] : frame->closure->function->line;
}

static Value trace_entry(AgVM *vm, const CallFrame *frame) {
  ObjFunction *f = frame->closure->function;
  ObjList *entry = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(entry));
  ObjString *name = f->name ? f->name : obj_string(vm, "<script>");
  obj_list_append(vm, entry, OBJ_VAL(name));
  obj_list_append(vm, entry, f->file ? OBJ_VAL(f->file) : OBJ_VAL(obj_string(vm, "<input>")));
  obj_list_append(vm, entry, INT_VAL(vm, frame_line(frame)));
  vm_pop_root(vm);
  return OBJ_VAL(entry);
}

/* The current call stack as a traceback list, outermost first. */
static ObjList *capture_trace(AgVM *vm) {
  ObjList *trace = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(trace));
  int n = vm->exec.frame_count;
  for (int i = 0; i < n; i++) {
    if (n > 2 * TRACE_KEEP && i == TRACE_KEEP) {
      obj_list_append(vm, trace, INT_VAL(vm, n - 2 * TRACE_KEEP)); /* "... N more" */
      i = n - TRACE_KEEP - 1;
      continue;
    }
    obj_list_append(vm, trace, trace_entry(vm, &vm->exec.frames[i]));
  }
  vm_pop_root(vm);
  return trace;
}

static bool is_error_instance(AgVM *vm, Value v) {
  if (!IS_INSTANCE(v)) return false;
  for (ObjClass *k = AS_INSTANCE(v)->klass; k != NULL; k = k->parent) {
    if (k == vm->core.error_class) return true;
  }
  return false;
}

ObjInstance *vm_new_error(AgVM *vm, ObjClass *klass, ObjString *message) {
  vm_push_root(vm, OBJ_VAL(message));
  ObjInstance *err = obj_new_instance(vm, klass);
  vm_push_root(vm, OBJ_VAL(err));
  table_set(vm, &err->fields, OBJ_VAL(vm->core.message_string), OBJ_VAL(message));
  ObjList *trace = capture_trace(vm);
  table_set(vm, &err->fields, OBJ_VAL(vm->core.traceback_string), OBJ_VAL(trace));
  vm_pop_roots(vm, 2);
  return err;
}

Value vm_throw(AgVM *vm, Value thrown) {
  vm->exc.value = thrown;
  vm->exc.pending = true;
  vm->exc.trace = NULL;
  if (is_error_instance(vm, thrown)) {
    Value trace;
    ObjInstance *err = AS_INSTANCE(thrown);
    if (!table_get(&err->fields, OBJ_VAL(vm->core.traceback_string), &trace) || IS_NIL(trace)) {
      ObjList *t = capture_trace(vm);
      table_set(vm, &err->fields, OBJ_VAL(vm->core.traceback_string), OBJ_VAL(t));
    }
  } else {
    vm->exc.trace = capture_trace(vm);
  }
  return VM_EXCEPTION;
}

Value vm_throw_interrupted(AgVM *vm) {
  tensor_interrupt_requested = 0;
  ObjInstance *err = vm_new_error(vm, vm->core.interrupted_class, obj_string(vm, "Interrupted"));
  return vm_throw(vm, OBJ_VAL(err));
}

Value vm_throw_memory_error(AgVM *vm, double bytes) {
  char buf[96];
  snprintf(buf, sizeof buf, bytes < 1e15 ? "out of memory (allocating %.0f bytes)" : "out of memory (allocating %.3g bytes)", bytes);
  ObjInstance *err = vm_new_error(vm, vm->core.memory_error_class, obj_string(vm, buf));
  return vm_throw(vm, OBJ_VAL(err));
}

static Value raise_v(AgVM *vm, VmErrorKind kind, const char *fmt, va_list ap) {
  if (tensor_interrupt_requested) return vm_throw_interrupted(vm);
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  ObjString *message = obj_string(vm, buf);
  ObjInstance *err = vm_new_error(vm, vm->core.error_classes[kind], message);
  return vm_throw(vm, OBJ_VAL(err));
}

Value vm_raise(AgVM *vm, VmErrorKind kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Value v = raise_v(vm, kind, fmt, ap);
  va_end(ap);
  return v;
}

Value vm_throw_error(AgVM *vm, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Value v = raise_v(vm, VM_ERR_RUNTIME, fmt, ap);
  va_end(ap);
  return v;
}

Value vm_take_exception(AgVM *vm) {
  Value v = vm->exc.value;
  vm->exc.value = NIL_VAL;
  vm->exc.pending = false;
  return v;
}

const char *vm_exception_message(AgVM *vm, Value exc) {
  Value message;
  if (IS_INSTANCE(exc) && table_get(&AS_INSTANCE(exc)->fields, OBJ_VAL(vm->core.message_string), &message) &&
      IS_STRING(message)) {
    return AS_CSTRING(message);
  }
  vm_push_root(vm, exc);
  Value s = vm_to_str(vm, exc);
  vm_pop_root(vm);
  if (IS_EXCEPTION(s)) {
    vm_take_exception(vm);
    return "(an error that cannot be shown)";
  }
  return AS_CSTRING(s);
}

const char *vm_exception_class_name(AgVM *vm, Value exc) {
  return IS_INSTANCE(exc) ? AS_INSTANCE(exc)->klass->name->chars : vm_type_name(exc);
}

/* ---- reporting ---- */

static ObjList *trace_of(AgVM *vm, Value exc) {
  Value trace;
  if (IS_INSTANCE(exc) && table_get(&AS_INSTANCE(exc)->fields, OBJ_VAL(vm->core.traceback_string), &trace) &&
      IS_LIST(trace)) {
    return AS_LIST(trace);
  }
  return vm->exc.trace;
}

static bool trace_entry_ok(Value e) {
  return IS_LIST(e) && AS_LIST(e)->count == 3 && IS_STRING(AS_LIST(e)->items[0]) &&
         IS_STRING(AS_LIST(e)->items[1]) && IS_NUMBER(AS_LIST(e)->items[2]);
}

static void print_trace(FILE *out, ObjList *trace) {
  fprintf(out, "Traceback (innermost last):\n");
  for (int i = 0; i < trace->count; i++) {
    Value e = trace->items[i];
    if (IS_NUMBER(e)) {
      fprintf(out, "  ... %.0f more calls ...\n", AS_NUMBER(e));
    } else if (trace_entry_ok(e)) {
      ObjList *l = AS_LIST(e);
      fprintf(out, "  in %s at %s:%.0f\n", AS_CSTRING(l->items[0]), AS_CSTRING(l->items[1]),
              AS_NUMBER(l->items[2]));
    }
  }
}

void vm_add_library_file(AgVM *vm, const char *file) {
  if (vm->globals.library_file_count < (int)(sizeof vm->globals.library_files / sizeof vm->globals.library_files[0]))
    vm->globals.library_files[vm->globals.library_file_count++] = obj_string(vm, file);
}

static bool in_library(AgVM *vm, Value entry) {
  ObjString *file = AS_STRING(AS_LIST(entry)->items[1]);
  for (int i = 0; i < vm->globals.library_file_count; i++)
    if (strcmp(vm->globals.library_files[i]->chars, file->chars) == 0) return true;
  return false;
}

/* The entry an error is reported at: the innermost one outside the library
 * (an error inside nn.ag names the user's line that called the layer). */
static Value report_entry(AgVM *vm, ObjList *trace) {
  Value last = NIL_VAL;
  for (int i = trace ? trace->count - 1 : -1; i >= 0; i--) {
    Value e = trace->items[i];
    if (!trace_entry_ok(e)) continue;
    if (IS_NIL(last)) last = e;
    if (!in_library(vm, e)) return e;
  }
  return last;
}

void vm_end_progress_line(AgVM *vm) {
  if (!vm->host.progress_line_open) return;
  vm->host.progress_line_open = false;
  fputc('\n', stderr);
  fflush(stderr);
}

void vm_report_exception(AgVM *vm, FILE *out, bool color) {
  if (!vm->exc.pending) return;
  vm_end_progress_line(vm);
  Value exc = vm->exc.value;
  vm_push_root(vm, exc);
  ObjList *trace = trace_of(vm, exc);
  vm_push_root(vm, trace ? OBJ_VAL(trace) : NIL_VAL);
  const char *message = vm_exception_message(vm, exc);
  fflush(stdout);
  Value last = report_entry(vm, trace);
  if (trace_entry_ok(last)) {
    fprintf(out, "%s:%.0f: ", AS_CSTRING(AS_LIST(last)->items[1]), AS_NUMBER(AS_LIST(last)->items[2]));
  }
  fprintf(out, "%serror:%s %s\n", color ? "\033[1;31m" : "", color ? "\033[0m" : "", message);
  if (trace && trace->count > 0) print_trace(out, trace);
  vm_pop_roots(vm, 2);
  vm_take_exception(vm);
  vm->exc.trace = NULL;
}

/* ---- class Error ---- */

/* Error(ARGS...): as Python's BaseException, `args` keeps the arguments
 * (a tuple) and the message is "" for none, str(arg) for one, str(args) for
 * several. */
static Value error_init(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  Value arg_tuple = OBJ_VAL(obj_new_tuple(vm, args, argc));
  vm_push_root(vm, arg_tuple);
  Value message = argc == 0 ? OBJ_VAL(obj_string(vm, "")) : argc == 1 ? args[0] : arg_tuple;
  if (!IS_STRING(message)) message = vm_to_str(vm, message);
  if (!IS_EXCEPTION(message) && IS_INSTANCE(self)) {
    ObjInstance *err = AS_INSTANCE(self);
    vm_push_root(vm, message);
    table_set(vm, &err->fields, OBJ_VAL(vm->core.message_string), message);
    table_set(vm, &err->fields, OBJ_VAL(obj_string(vm, "args")), arg_tuple);
    table_set(vm, &err->fields, OBJ_VAL(vm->core.traceback_string), NIL_VAL);
    vm_pop_root(vm);
  }
  vm_pop_root(vm);
  return IS_EXCEPTION(message) ? message : NIL_VAL;
}

static Value error_str(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  return OBJ_VAL(obj_string(vm, vm_exception_message(vm, self)));
}

/* repr(e) as Python's: the class's name and the arguments, ValueError("x")
 * (one argument's repr in parentheses, else the tuple of them). */
static Value error_repr(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  if (!IS_INSTANCE(self)) return vm_to_repr(vm, self);
  ObjInstance *err = AS_INSTANCE(self);
  Value arg_tuple;
  vm_push_root(vm, self);
  bool has_args = table_get(&err->fields, OBJ_VAL(obj_string(vm, "args")), &arg_tuple) && IS_TUPLE(arg_tuple);
  vm_pop_root(vm);
  if (!has_args) return OBJ_VAL(obj_string(vm, err->klass->name->chars));
  bool one = AS_LIST(arg_tuple)->count == 1;
  Value shown = vm_to_repr(vm, one ? AS_LIST(arg_tuple)->items[0] : arg_tuple);
  if (IS_EXCEPTION(shown)) return shown;
  VmBuf b;
  vm_buf_init(&b);
  vm_buf_printf(&b, one ? "%s(%s)" : "%s%s", err->klass->name->chars, AS_CSTRING(shown));
  vm_push_root(vm, shown);
  Value r = OBJ_VAL(vm_buf_to_string(vm, &b));
  vm_pop_root(vm);
  return r;
}

static Value singleton_str(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  return OBJ_VAL(obj_string(vm, self == vm->core.ellipsis ? "Ellipsis" : "NotImplemented"));
}

/* The one instance of a class of its own, printed as its name. */
static Value singleton(AgVM *vm, const char *class_name) {
  ObjClass *k = obj_new_class(vm, obj_string(vm, class_name));
  vm_push_root(vm, OBJ_VAL(k));
  ObjNative *repr = obj_new_native(vm, "repr", singleton_str, 0, 0, false); /* str() too */
  table_set(vm, &k->methods, OBJ_VAL(vm->core.repr_string), OBJ_VAL(repr));
  Value v = OBJ_VAL(obj_new_instance(vm, k));
  vm_pop_root(vm);
  return v;
}

/* NotImplemented, which an operator method returns to let the other
 * operand try (SPEC §4), and Ellipsis, the value of `...` in an index. */
static void install_singletons(AgVM *vm) {
  vm->core.not_implemented = singleton(vm, "NotImplementedType");
  vm_define_builtin(vm, "NotImplemented", vm->core.not_implemented);
  vm->core.ellipsis = singleton(vm, "ellipsis");
  vm_define_builtin(vm, "Ellipsis", vm->core.ellipsis);
}

static ObjClass *define_class(AgVM *vm, const char *name, ObjClass *parent) {
  ObjClass *k = obj_new_class(vm, obj_string(vm, name));
  vm_define_builtin(vm, name, OBJ_VAL(k));
  if (parent) {
    table_add_all(vm, &parent->methods, &k->methods);
    k->parent = parent;
    k->init = parent->init;
  }
  return k;
}

static void install_error_base(AgVM *vm) {
  vm->core.error_class = define_class(vm, "Error", NULL);
  vm->core.error_classes[VM_ERR_ERROR] = vm->core.error_class;
  ObjNative *init = obj_new_native(vm, "init", error_init, 0, -1, false);
  table_set(vm, &vm->core.error_class->methods, OBJ_VAL(vm->core.init_string), OBJ_VAL(init));
  vm->core.error_class->init = OBJ_VAL(init);
  ObjNative *str = obj_new_native(vm, "str", error_str, 0, 0, false);
  table_set(vm, &vm->core.error_class->methods, OBJ_VAL(vm->core.str_string), OBJ_VAL(str));
  ObjNative *repr = obj_new_native(vm, "repr", error_repr, 0, 0, false);
  table_set(vm, &vm->core.error_class->methods, OBJ_VAL(vm->core.repr_string), OBJ_VAL(repr));
}

/* Error and the classes of VM_ERROR_CLASSES, parents before children. */
static void install_error_classes(AgVM *vm) {
  install_error_base(vm);
#define VM_ERROR_DEFINE(kind, name, parent)                                                 \
  if (VM_ERR_##kind != VM_ERR_ERROR)                                                      \
    vm->core.error_classes[VM_ERR_##kind] = define_class(vm, name, vm->core.error_classes[VM_ERR_##parent]);
  VM_ERROR_CLASSES(VM_ERROR_DEFINE)
#undef VM_ERROR_DEFINE
  /* Python's name for Ctrl-C, so that `catch KeyboardInterrupt` works */
  vm_define_builtin(vm, "KeyboardInterrupt", OBJ_VAL(vm->core.error_classes[VM_ERR_INTERRUPTED]));
  vm->core.interrupted_class = vm->core.error_classes[VM_ERR_INTERRUPTED];
  vm->core.memory_error_class = vm->core.error_classes[VM_ERR_MEMORY];
  vm->core.stop_iteration_class = vm->core.error_classes[VM_ERR_STOP_ITERATION];
  vm->core.zero_division_class = vm->core.error_classes[VM_ERR_ZERO_DIVISION];
}

void vm_install_core(AgVM *vm) {
  install_error_classes(vm);
  vm->oom.spare_error = vm_new_error(vm, vm->core.memory_error_class, obj_string(vm, "out of memory"));
  install_singletons(vm);
}
