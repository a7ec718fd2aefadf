/* fuzz_run.c — libFuzzer harness: runs the input as an Ag program, in a
 * fresh VM per input (making one costs about 0.05 ms: the Ag-written modules
 * load at their first use), with the watchdog's Ctrl-C after 200 ms, a
 * 256 MiB memory limit (so a list doubling is a MemoryError, quickly), and
 * output and error reports sent nowhere. Any crash, sanitizer report, leak
 * or hang is a bug. */
#include "tests/fuzz/fuzz_common.h"

#include "parser/compiler.h"
#include "stdlib/builtins.h"
#include "stdlib/lib.h"
#include "vm/vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_setup();
  static FILE *sink;
  if (sink == NULL) sink = fopen("/dev/null", "w");
  char *source = fuzz_string(data, size);
  AgVM *vm = vm_new();
  vm->oom.limit = (size_t)256 << 20;
  lib_install_builtins(vm);
  lib_install(vm);
  fuzz_arm(200);
  CompileOptions opts = {"fuzz.ag", false, sink, false, false};
  vm->gc.paused++;
  CompileResult r = compile_source(vm, source, &opts);
  vm->gc.paused--;
  if (r.function != NULL) {
    Value fn = OBJ_VAL(r.function);
    vm_push_root(vm, fn);
    ObjClosure *closure = obj_new_closure(vm, r.function);
    vm_pop_root(vm);
    Value result = vm_call(vm, OBJ_VAL(closure), 0, NULL);
    if (IS_EXCEPTION(result)) {
      if (vm->exc.exiting) vm_take_exception(vm);
      else vm_report_exception(vm, sink, false);
    }
  }
  fuzz_disarm();
  vm_free(vm);
  free(source);
  return 0;
}
