/* repl.h — the interactive loop (`ag` on a terminal).
 *
 * A minimal Readline loop: reads lines while the compiler says the input is
 * incomplete (an open bracket, block or string), compiles it with
 * CompileOptions.repl so expression statements show their value, and runs it
 * in the session's namespace; an error is reported and the session goes on.
 */
#ifndef AG_REPL_H
#define AG_REPL_H

#include "vm/vm.h"

/* Runs until end of input; returns the exit status. */
int repl_run(AgVM *vm);

#endif
