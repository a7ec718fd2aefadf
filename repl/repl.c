/* repl.c — the interactive loop (see repl.h). */
#include "repl/repl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "parser/compiler.h"
#include "vm/buffer.h"

/* Compiles the input; syntax errors are held back (in `errors`) so an
 * incomplete input can simply read more. */
static CompileResult compile_input(AgVM *vm, const char *source, char **errors, size_t *errors_len) {
  FILE *err = open_memstream(errors, errors_len);
  CompileOptions opts = {"<stdin>", true, err ? err : stderr, vm->color};
  vm->compiling_module = vm->main_module;
  vm->gc_paused++;
  CompileResult r = compile_source(vm, source, &opts);
  vm->gc_paused--;
  if (err) fclose(err);
  return r;
}

/* Returns false at end of input. */
static bool read_statement(VmBuf *input) {
  const char *prompt = input->length == 0 ? ">>> " : "... ";
  char *line = readline(prompt);
  if (line == NULL) return false;
  vm_buf_adds(input, line);
  vm_buf_addc(input, '\n');
  free(line);
  return true;
}

/* Runs one complete input; returns -1 to go on, or the exit status after exit(). */
static int run_input(AgVM *vm, VmBuf *input, CompileResult r, const char *errors) {
  if (input->length > 1) {
    input->data[input->length - 1] = '\0';
    add_history(input->data);
  }
  if (r.error_count > 0 || r.function == NULL) {
    fputs(errors ? errors : "", stderr);
    return -1;
  }
  vm_interrupt_requested = 0;
  if (vm_run_function(vm, r.function) == VM_EXIT) return vm->exit_code;
  fflush(stdout);
  return -1;
}

int repl_run(AgVM *vm) {
  VmBuf input;
  vm_buf_init(&input);
  int status = -1;
  while (status < 0 && read_statement(&input)) {
    char *errors = NULL;
    size_t errors_len = 0;
    CompileResult r = compile_input(vm, input.data, &errors, &errors_len);
    if (r.incomplete) {
      free(errors);
      continue;
    }
    status = run_input(vm, &input, r, errors);
    free(errors);
    vm_buf_free(&input);
  }
  vm_buf_free(&input);
  if (status < 0) fputc('\n', stdout);
  return status < 0 ? 0 : status;
}
