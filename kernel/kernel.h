/* kernel.h — the Ag side of the Jupyter kernel, called by the xeus glue
 * (xeus_glue.cpp). Plain C so that C++ sees nothing of the VM's headers.
 *
 * One AgKernel is one Ag session (the REPL's code path, repl/session.h):
 * globals persist between cells, a cell's last expression is shown as its
 * result, errors come back described. While a cell runs, what it writes to
 * stdout and stderr is sent to the `stream` callback in pieces: at most
 * every STREAM_INTERVAL_MS (a flusher thread), when STREAM_CHUNK bytes have
 * gathered (so a huge output never piles up in memory), and when the cell
 * ends. SIGINT (Jupyter's interrupt) stops the running cell with
 * `Interrupted`; one that arrives between cells, or that its cell outlives,
 * is dropped, never carried into the next cell. stdin is /dev/null: input()
 * returns nil (the notebook's input_request is not used).
 *
 * Every callback runs with the kernel's output lock held and never while
 * xeus itself publishes (only inside agk_execute), which is what makes
 * publishing from the flusher thread safe.
 */
#ifndef AG_KERNEL_H
#define AG_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct AgKernel AgKernel;

typedef struct {
  void *ctx;
  /* Text the cell wrote: name is "stdout" or "stderr". */
  void (*stream)(void *ctx, const char *name, const char *text, size_t length);
  /* A MIME bundle (count types with their data) to show; result: the
   * cell's value (execute_result), else display_data. */
  void (*display)(void *ctx, bool result, int count, const char *const *types,
                  const char *const *data, const size_t *lengths);
  /* A bundle shown in place (a progress bar): update false shows it under
   * display id `id`, true replaces what that id shows. */
  void (*display_in_place)(void *ctx, const char *id, bool update, int count,
                           const char *const *types, const char *const *data,
                           const size_t *lengths);
} AgKernelOutput;

/* How a cell ended; the strings are malloc'd (agk_cell_free). */
typedef struct {
  bool ok;
  char *ename;     /* "SyntaxError", "Error", "Interrupted" ... */
  char *evalue;    /* the message */
  char *traceback; /* Ag's report, lines separated by '\n' */
} AgCell;

AgKernel *agk_new(const AgKernelOutput *out);
void agk_free(AgKernel *k);

/* Runs one cell, compiled as "In[N]" (N = execution_count) so that
 * errors name cell lines. silent: no result shown. */
void agk_execute(AgKernel *k, const char *code, int execution_count, bool silent, AgCell *cell);
void agk_cell_free(AgCell *cell);

/* Completion of the word ending at byte `cursor`: the matches (a malloc'd
 * array of malloc'd strings, agk_strings_free) and where the word starts. */
char **agk_complete(AgKernel *k, const char *code, size_t cursor, size_t *start, size_t *count);
void agk_strings_free(char **strings, size_t count);

/* The help text (the REPL's :help) of the name around byte `cursor`,
 * malloc'd, or NULL when there is none. */
char *agk_inspect(AgKernel *k, const char *code, size_t cursor);

/* "complete", "incomplete" or "invalid": the compiler's continuation rule. */
const char *agk_is_complete(AgKernel *k, const char *code);

/* Byte offset of code point `cp` of UTF-8 `text`, and back. */
size_t agk_byte_offset(const char *text, size_t cp);
size_t agk_code_points(const char *text, size_t bytes);

const char *agk_version(void);

#ifdef __cplusplus
}
#endif

#endif
