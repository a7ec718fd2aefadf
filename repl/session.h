/* session.h — running input in an interactive session: the one code path
 * the REPL (repl.c) and the notebook kernel (kernel/) share.
 *
 * Input is compiled in the main namespace with CompileOptions.repl, so
 * globals persist from one input to the next and an expression statement
 * shows its value (OP_REPL_SHOW, through vm->host.repl_print). The compiler's
 * continuation rule (CompileResult.incomplete) says whether an input needs
 * more lines. A run ends with the interrupt flag cleared, so a Ctrl-C (or
 * a notebook's interrupt) stops only the run it arrived in; the caller
 * clears it when the input begins (before compiling it), not here, so that
 * one arriving between the compilation and the run is not lost.
 */
#ifndef AG_REPL_SESSION_H
#define AG_REPL_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "parser/compiler.h"
#include "vm/vm.h"

#define AG_VERSION "0.1.0"

typedef enum { INPUT_COMPLETE, INPUT_INCOMPLETE, INPUT_INVALID } InputState;

/* An uncaught error of a run, described (all malloc'd; free with
 * session_error_free). */
typedef struct {
  char *name;    /* the error's class: "Error", "Interrupted" ... */
  char *message; /* Error.message or str(v) */
  char *report;  /* what the REPL prints: "FILE:LINE: error: ...", the traceback
                  * (coloured when vm->host.color) */
} SessionError;

/* Compiles `source` as input named `file` ("<stdin>", "In[3]"); syntax
 * errors go to *errors (malloc'd text, NULL if none; caller frees).
 * show_last: only the last statement shows its value (a notebook cell). */
CompileResult session_compile(AgVM *vm, const char *source, const char *file, bool show_last,
                              char **errors);

/* The compiler's continuation rule for `source`. */
InputState session_input_state(AgVM *vm, const char *source);

/* Runs compiled input. An uncaught error is described in *err when err is
 * not NULL, else printed to stderr. exit(code) returns VM_EXIT with the
 * code in vm->exc.exit_code. */
VmResult session_run(AgVM *vm, ObjFunction *function, SessionError *err);

/* The value of the expression `expr` in the session; false after
 * reporting a syntax or runtime error to stderr (or VM_EXIT's code in
 * *exit_code, when exit() ran). */
bool session_evaluate(AgVM *vm, const char *expr, Value *out, int *exit_code);

void session_error_free(SessionError *err);

#endif
