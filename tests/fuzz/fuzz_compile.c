/* fuzz_compile.c — libFuzzer harness: compiles the input without running
 * it, as the REPL does (expression statements echo, `incomplete` input) and
 * as `ag --check` does, and disassembles what compiles. */
#include "tests/fuzz/fuzz_common.h"

#include "parser/compiler.h"
#include "vm/debug.h"
#include "vm/vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_setup();
  static FILE *sink;
  if (sink == NULL) sink = fopen("/dev/null", "w");
  char *source = fuzz_string(data, size);
  AgVM *vm = vm_new();
  fuzz_arm(1000);
  for (int repl = 0; repl < 2; repl++) {
    CompileOptions opts = {repl ? "<stdin>" : "fuzz.ag", repl, sink, false, false};
    vm->gc.paused++;
    CompileResult r = compile_source(vm, source, &opts);
    if (r.function != NULL) dis_function_vm(sink, vm, r.function);
    vm->gc.paused--;
  }
  fuzz_disarm();
  vm_free(vm);
  free(source);
  return 0;
}
