/* line_editor.h — the line-editing library the REPL is built with.
 *
 * GNU Readline by default; libedit's Readline interface instead with
 * AG_LIBEDIT (Debian's libedit-dev keeps it as <editline/readline.h>; macOS's
 * own libedit answers to <readline/readline.h>, so there nothing changes);
 * none with AG_NO_READLINE (plain lines from stdin: no editing, history or
 * completion). See the Makefile's READLINE. */
#ifndef AG_REPL_LINE_EDITOR_H
#define AG_REPL_LINE_EDITOR_H

#ifndef AG_NO_READLINE
#if defined(AG_LIBEDIT) && !defined(__APPLE__)
#include <editline/readline.h>
#else
#include <readline/history.h>
#include <readline/readline.h>
#endif

/* rl_callback_sigcleanup came with GNU Readline 7.0; libedit (which calls
 * itself Readline 4.2) has none and needs none: it keeps no state of a key
 * sequence half read that a signal could leave behind. */
#if defined(RL_READLINE_VERSION) && RL_READLINE_VERSION >= 0x0700
#define LINE_EDITOR_SIGCLEANUP() rl_callback_sigcleanup()
/* GNU Readline's remove_history and free_history_entry (multi-line entries). */
#define LINE_EDITOR_MULTILINE_HISTORY 1
#else
#define LINE_EDITOR_SIGCLEANUP() ((void)0)
#endif
#endif

#endif
