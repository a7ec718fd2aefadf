/* complete.h — Tab completion in the REPL (SPEC §10).
 *
 * Completes, at the start of a word: keywords, the session's globals and the
 * built-ins; after `NAME.` or `NAME.a.b.`: the fields and methods of that
 * value (instance fields, class methods, module members, the methods of
 * lists, maps and strings, tensor attributes and methods, graph node
 * members); `:` commands at the start of a line; help topics after `:help `
 * and file names after `:load `.
 *
 * The dotted prefix is resolved by looking names up in tables only: nothing
 * runs, so completing never has side effects.
 */
#ifndef AG_REPL_COMPLETE_H
#define AG_REPL_COMPLETE_H

#include <stddef.h>

#include "vm/vm.h"

/* Points Readline's completion at this VM. */
void complete_install(AgVM *vm);

/* The REPL's command names ("help", ...), NULL past the last (repl.c). */
const char *repl_command_name(size_t i);

#endif
