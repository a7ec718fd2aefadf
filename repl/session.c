/* session.c — compiling and running interactive input (see session.h). */
#include "repl/session.h"

#include <stdlib.h>
#include <string.h>

#include "tensor/tensor.h"
#include "vm/buffer.h"
#include "vm/memory.h"

CompileResult session_compile(AgVM *vm, const char *source, const char *file, bool show_last,
                              char **errors) {
  size_t len = 0;
  *errors = NULL;
  FILE *err = open_memstream(errors, &len);
  CompileOptions opts = {file, true, err ? err : stderr, vm->host.color, show_last};
  vm->globals.compiling_module = vm->globals.main_module;
  vm->gc.paused++;
  CompileResult result = compile_source(vm, source, &opts);
  vm->gc.paused--;
  if (err != NULL) fclose(err);
  if (*errors != NULL && (*errors)[0] == '\0') {
    free(*errors);
    *errors = NULL;
  }
  return result;
}

InputState session_input_state(AgVM *vm, const char *source) {
  char *errors = NULL;
  bool color = vm->host.color;
  vm->host.color = false;
  CompileResult r = session_compile(vm, source, "<input>", false, &errors);
  vm->host.color = color;
  free(errors);
  if (r.incomplete) return INPUT_INCOMPLETE;
  return r.error_count > 0 ? INPUT_INVALID : INPUT_COMPLETE;
}

static void clear_interrupt(void) {
  tensor_interrupt_requested = 0;
}

/* An uncaught error as the notebook shows it: its class's name as ename
 * (TypeError, IndexError ...; "Error" for a plain error()), its message and
 * Ag's report. */
static void describe_error(AgVM *vm, SessionError *err) {
  Value exc = vm->exc.value;
  vm_push_root(vm, exc);
  err->name = strdup(vm_exception_class_name(vm, exc));
  err->message = strdup(vm_exception_message(vm, exc));
  size_t len = 0;
  err->report = NULL;
  FILE *out = open_memstream(&err->report, &len);
  if (out != NULL) {
    vm_report_exception(vm, out, vm->host.color);
    fclose(out);
  } else {
    vm_take_exception(vm);
  }
  vm_pop_root(vm);
}

/* The result of a call made for a run: an uncaught error reported or described. */
static VmResult finish_run(AgVM *vm, Value result, SessionError *err) {
  clear_interrupt();
  if (!IS_EXCEPTION(result)) return VM_OK;
  if (vm->exc.exiting) {
    vm_take_exception(vm);
    vm->exc.exiting = false;
    return VM_EXIT;
  }
  Value exc = vm->exc.value;
  vm->exc.uncaught_interrupt = IS_INSTANCE(exc) && AS_INSTANCE(exc)->klass == vm->core.interrupted_class;
  if (err != NULL) describe_error(vm, err);
  else vm_report_exception(vm, stderr, vm->host.color);
  return VM_RUNTIME_ERROR;
}

static Value call_function(AgVM *vm, ObjFunction *function) {
  vm_push_root(vm, OBJ_VAL(function));
  ObjClosure *closure = obj_new_closure(vm, function);
  vm_pop_root(vm);
  return vm_call(vm, OBJ_VAL(closure), 0, NULL);
}

VmResult session_run(AgVM *vm, ObjFunction *function, SessionError *err) {
  if (err != NULL) memset(err, 0, sizeof *err);
  return finish_run(vm, call_function(vm, function), err);
}

bool session_evaluate(AgVM *vm, const char *expr, Value *out, int *exit_code) {
  VmBuf source;
  vm_buf_init(&source);
  vm_buf_printf(&source, "return (%s\n)\n", expr);
  char *errors = NULL;
  size_t len = 0;
  FILE *err = open_memstream(&errors, &len);
  CompileOptions opts = {"<stdin>", false, err ? err : stderr, vm->host.color, false};
  vm->globals.compiling_module = vm->globals.main_module;
  vm->gc.paused++;
  CompileResult result = compile_source(vm, source.data, &opts);
  vm->gc.paused--;
  if (err != NULL) fclose(err);
  vm_buf_free(&source);
  if (result.error_count > 0 || result.function == NULL) {
    fputs(errors ? errors : "", stderr);
    free(errors);
    return false;
  }
  free(errors);
  *out = call_function(vm, result.function);
  if (!IS_EXCEPTION(*out)) {
    clear_interrupt();
    return true;
  }
  if (finish_run(vm, *out, NULL) == VM_EXIT) *exit_code = vm->exc.exit_code;
  return false;
}

void session_error_free(SessionError *err) {
  free(err->name);
  free(err->message);
  free(err->report);
  memset(err, 0, sizeof *err);
}
