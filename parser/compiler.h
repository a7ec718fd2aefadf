/* compiler.h — source text to bytecode (the `parser/` component).
 *
 * A single-pass Pratt compiler in the manner of clox: it pulls tokens from the
 * lexer and emits bytecode (vm/opcodes.h) directly, resolving locals to stack
 * slots and captured variables to upvalues at compile time. Globals are
 * late-bound slots (vm_global_slot).
 *
 * Errors: every syntax error is reported as
 *     FILE:LINE:COL: error: MESSAGE
 *     <the source line>
 *     <spaces>^
 * to opts->errors; after an error the parser synchronises at the next
 * statement (panic mode), so one mistake gives one message and the rest of the
 * file is still checked (`ag --check` reports them all, up to PARSE_MAX_ERRORS;
 * finding each message's line goes on from the last, so reporting is linear).
 * Nesting too deep stops compilation at once, as does Ctrl-C (polled per token).
 */
#ifndef AG_COMPILER_H
#define AG_COMPILER_H

#include <stdbool.h>
#include <stdio.h>

#include "vm/object.h"

typedef struct {
  const char *file; /* shown in messages and tracebacks */
  bool repl;        /* expression statements at top level show their value (OP_REPL_SHOW) */
  FILE *errors;     /* where syntax errors go (stderr if NULL) */
  bool color;       /* colour the messages (terminal only, never with NO_COLOR) */
  /* With repl: only the input's last statement shows its value, when it is an
   * expression (a notebook cell, as IPython does). */
  bool show_last;
} CompileOptions;

typedef struct {
  ObjFunction *function; /* the module's top-level code, or NULL after any error */
  int error_count;
  /* true when the input ended inside an open bracket, block, string or
   * unfinished expression: the REPL reads another line instead of reporting. */
  bool incomplete;
  /* Ctrl-C stopped it (tensor_interrupt_requested, which is left set for the
   * caller to report and clear). */
  bool interrupted;
} CompileResult;

CompileResult compile_source(AgVM *vm, const char *source, const CompileOptions *opts);

#endif
