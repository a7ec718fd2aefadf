/* repl.h — the interactive loop (`ag` on a terminal, SPEC §10).
 *
 * GNU Readline through its callback interface, so Ctrl-C at the prompt is
 * ours to handle (the line is dropped, a fresh prompt appears) and no
 * signal handler of readline's runs during a script. The compiler decides
 * when an input is complete (CompileResult.incomplete): until then the
 * prompt is `... `. Input is compiled with CompileOptions.repl, so an
 * expression statement shows its value (not nil) and `_` holds it.
 *
 * While code runs, SIGINT sets the VM's and the tensor library's interrupt
 * flags; the run stops with an `Interrupted` error and the session goes on.
 *
 * Lines starting with `:` are commands: :help [NAME], :graph EXPR,
 * :load FILE, :quit (see repl_command in repl.c).
 *
 * History lives in $AG_HISTORY or ~/.ag_history, one line an entry: read at
 * start, this session's lines appended at exit (so sessions share it).
 */
#ifndef AG_REPL_H
#define AG_REPL_H

#include "vm/vm.h"

/* Runs until end of input (Ctrl-D) or :quit; returns the exit status. */
int repl_run(AgVM *vm);

#endif
