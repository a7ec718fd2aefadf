/* repl.c — the interactive loop (see repl.h). */
#include "repl/repl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#include "parser/compiler.h"
#include "repl/complete.h"
#include "repl/help.h"
#include "repl/line_editor.h"
#include "repl/session.h"
#include "stdlib/lib_graph.h"
#include "tensor/tensor.h"
#include "vm/buffer.h"
#include "vm/memory.h"

/* Readline needs \001 \002 around invisible prompt characters to keep its
 * column count right; without it they are not printed. */
#define PROMPT_MAIN ">>> "
#define PROMPT_MORE "... "
#ifdef AG_NO_READLINE
#define INVISIBLE(s) s
#else
#define INVISIBLE(s) "\001" s "\002"
#endif
#define COLOR_PROMPT INVISIBLE("\033[1;32m")
#define COLOR_MORE INVISIBLE("\033[1;33m")
#define COLOR_PROMPT_END INVISIBLE("\033[0m")
#define COLOR_ERROR "\033[1;31m"
#define COLOR_VALUE "\033[36m"
#define COLOR_RESET "\033[0m"

#define HISTORY_MAX 2000
/* Ctrl-C presses during one run that leave ag when the run does not stop
 * (blocked in a system call). */
#define INTERRUPTS_TO_LEAVE 3

typedef struct {
  AgVM *vm;
  VmBuf pending;      /* lines of a statement the compiler says is incomplete */
  bool color;         /* colour on stdout (prompts, shown tensors) */
  char *history_path; /* NULL: no history file */
  int history_added;  /* entries added this session, appended at exit */
  int block_entries;  /* entries added for the lines of the pending input */
  int status;         /* the exit status once the session ends, else -1 */
} Repl;

typedef enum { READ_LINE, READ_EOF, READ_INTERRUPTED } ReadResult;

/* ---- signals ---- */

static volatile sig_atomic_t prompt_interrupted;
static volatile sig_atomic_t run_interrupts;
#ifndef AG_NO_READLINE
static volatile sig_atomic_t window_resized;
#endif

static void on_prompt_sigint(int sig) {
  (void)sig;
  prompt_interrupted = 1;
}

/* During a run: ask the VM and the tensor loops to stop at their next poll. */
static void on_run_sigint(int sig) {
  (void)sig;
  tensor_interrupt_requested = 1;
  if (run_interrupts == 0) {
    ssize_t ignored = write(STDERR_FILENO, "\n", 1); /* the report starts after the echoed ^C */
    (void)ignored;
  }
  if (++run_interrupts >= INTERRUPTS_TO_LEAVE) {
    static const char msg[] = "\nag: interrupted again and again; leaving\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(130);
  }
}

#ifndef AG_NO_READLINE
static void on_sigwinch(int sig) {
  (void)sig;
  window_resized = 1;
}
#endif

static void set_handler(int sig, void (*fn)(int), bool restart) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = restart ? SA_RESTART : 0;
  sigaction(sig, &sa, NULL);
}

static void begin_run(void) {
  tensor_interrupt_requested = 0;
  run_interrupts = 0;
  set_handler(SIGINT, on_run_sigint, true);
}

static void end_run(void) {
  fflush(stdout);
  fflush(stderr);
  set_handler(SIGINT, on_prompt_sigint, false);
  tensor_interrupt_requested = 0;
}

/* ---- messages ---- */

static void report_error(Repl *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void report_error(Repl *r, const char *fmt, ...) {
  bool color = r->vm->host.color;
  fprintf(stderr, "%serror:%s ", color ? COLOR_ERROR : "", color ? COLOR_RESET : "");
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* vm->host.repl_print: shown tensors and graph nodes in colour. */
static void print_shown_in_color(AgVM *vm, Value v, ObjString *repr) {
  (void)vm;
  bool tint = IS_TENSOR(v) || IS_NODE(v);
  if (tint) fputs(COLOR_VALUE, stdout);
  fwrite(repr->chars, 1, (size_t)repr->length, stdout);
  if (tint) fputs(COLOR_RESET, stdout);
  fputc('\n', stdout);
}

/* ---- history ---- */

static char *history_file(void) {
  const char *env = getenv("AG_HISTORY");
  if (env != NULL && env[0] != '\0') return strdup(env);
  const char *home = getenv("HOME");
  if (home == NULL || home[0] == '\0') return NULL;
  size_t n = strlen(home) + sizeof "/.ag_history";
  char *path = malloc(n);
  if (path != NULL) snprintf(path, n, "%s/.ag_history", home);
  return path;
}

#ifndef AG_NO_READLINE
static void history_warn(const char *what, const char *path, int err) {
  fprintf(stderr, "ag: warning: cannot %s history file %s: %s\n", what, path, strerror(err));
}

static void history_load(Repl *r) {
  using_history();
  if (r->history_path == NULL) return;
  int err = read_history(r->history_path);
  if (err != 0 && err != ENOENT) history_warn("read", r->history_path, err);
}

/* Appends this session's entries, so concurrent sessions keep each other's. */
static void history_save(Repl *r) {
  if (r->history_path == NULL || r->history_added == 0) return;
  int fd = open(r->history_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0) {
    history_warn("write", r->history_path, errno);
    return;
  }
  close(fd);
  int n = r->history_added < history_length ? r->history_added : history_length;
  int err = append_history(n, r->history_path);
  if (err != 0) history_warn("write", r->history_path, err);
  else history_truncate_file(r->history_path, HISTORY_MAX);
}

static void history_remember(Repl *r, const char *line) {
  if (line[strspn(line, " \t")] == '\0') return;
  HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
  if (last != NULL && strcmp(last->line, line) == 0) return;
  add_history(line);
  r->history_added++;
  r->block_entries++;
}

/* The lines of a multi-line input, remembered one by one as typed, become
 * one entry: Ctrl-P brings the whole block back. (The history file keeps
 * one line a line, so that files written before stay readable: a block
 * comes back from it line by line.) */
static void history_keep_block(Repl *r, const char *block) {
#ifdef LINE_EDITOR_MULTILINE_HISTORY
  for (; r->block_entries > 0 && history_length > 0; r->block_entries--, r->history_added--) {
    HIST_ENTRY *gone = remove_history(history_length - 1);
    if (gone != NULL) free_history_entry(gone);
  }
  history_remember(r, block);
#else
  (void)r, (void)block; /* libedit: the lines stay separate entries */
#endif
}
#else
/* Without a line editor there is no history to keep. */
static void history_load(Repl *r) { (void)r; }
static void history_save(Repl *r) { (void)r; }
static void history_remember(Repl *r, const char *line) { (void)r, (void)line; }
static void history_keep_block(Repl *r, const char *block) { (void)r, (void)block; }
#endif

static void make_prompt(const Repl *r, char *out, size_t size) {
  vm_end_progress_line(r->vm); /* a bar a loop left unfinished (break) */
  bool more = r->pending.length > 0;
  const char *text = more ? PROMPT_MORE : PROMPT_MAIN;
  if (r->color) {
    snprintf(out, size, "%s%s%s", more ? COLOR_MORE : COLOR_PROMPT, text, COLOR_PROMPT_END);
  } else {
    snprintf(out, size, "%s", text);
  }
}

#ifndef AG_NO_READLINE
/* ---- reading a line (readline's callback interface) ---- */

static char *line_read;
static bool line_done;

static void on_line(char *line) {
  rl_callback_handler_remove();
  line_read = line;
  line_done = true;
}

/* Ctrl-C at the prompt: drop the line, echo ^C, go to a fresh line. */
static void cancel_line(void) {
  rl_free_line_state();
  LINE_EDITOR_SIGCLEANUP();
  rl_echo_signal_char(SIGINT);
  rl_callback_handler_remove();
  rl_replace_line("", 0); /* after the echo, so the typed text stays on screen */
  fputc('\n', rl_outstream ? rl_outstream : stdout);
  fflush(rl_outstream ? rl_outstream : stdout);
}

/* Waits for keys with SIGINT and SIGWINCH blocked except inside pselect, so
 * a signal is never missed between the flag check and the wait. */
static ReadResult wait_for_line(void) {
  int fd = fileno(rl_instream ? rl_instream : stdin);
  sigset_t block, orig;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGWINCH);
  sigprocmask(SIG_BLOCK, &block, &orig);
  ReadResult result = READ_LINE;
  while (!line_done) {
    if (prompt_interrupted) {
      cancel_line();
      result = READ_INTERRUPTED;
      break;
    }
    if (window_resized) {
      window_resized = 0;
      rl_resize_terminal();
    }
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fd, &fds);
    int n = pselect(fd + 1, &fds, NULL, NULL, NULL, &orig);
    if (n > 0) rl_callback_read_char();
    else if (n < 0 && errno != EINTR) break; /* the terminal is gone */
  }
  sigprocmask(SIG_SETMASK, &orig, NULL);
  if (result == READ_INTERRUPTED) return result;
  if (!line_done) rl_callback_handler_remove();
  return line_done && line_read != NULL ? READ_LINE : READ_EOF;
}

static ReadResult read_line(const Repl *r, char **out) {
  char prompt[64];
  make_prompt(r, prompt, sizeof prompt);
  line_read = NULL;
  line_done = false;
  prompt_interrupted = 0;
  rl_callback_handler_install(prompt, on_line);
  ReadResult result = wait_for_line();
  *out = result == READ_LINE ? line_read : NULL;
  if (result != READ_LINE) free(line_read);
  return result;
}
#else
/* ---- reading a line: plain stdin, no line editor ---- */

/* SIGINT (installed without SA_RESTART) ends the read with EINTR: the line
 * typed so far is dropped, as with Readline. */
static ReadResult read_line(const Repl *r, char **out) {
  char prompt[64];
  make_prompt(r, prompt, sizeof prompt);
  fputs(prompt, stdout);
  fflush(stdout);
  prompt_interrupted = 0;
  char *line = NULL;
  size_t cap = 0;
  errno = 0;
  ssize_t n = getline(&line, &cap, stdin);
  if (n < 0) {
    free(line);
    bool interrupted = prompt_interrupted || errno == EINTR;
    clearerr(stdin);
    if (interrupted) fputs("\n", stdout); /* the terminal has echoed the ^C */
    return interrupted ? READ_INTERRUPTED : READ_EOF;
  }
  if (n > 0 && line[n - 1] == '\n') line[n - 1] = '\0';
  *out = line;
  return READ_LINE;
}
#endif

/* ---- compiling and running (repl/session.c) ---- */

static void run_function(Repl *r, ObjFunction *function) {
  begin_run();
  VmResult result = session_run(r->vm, function, NULL);
  end_run();
  if (result == VM_EXIT) r->status = r->vm->exc.exit_code;
}

/* Compiles and runs the pending statement once the compiler says it is
 * complete. */
static void submit_pending(Repl *r) {
  char *errors = NULL;
  begin_run(); /* Ctrl-C stops a long compilation too */
  CompileResult result = session_compile(r->vm, r->pending.data, "<stdin>", false, &errors);
  end_run();
  if (result.incomplete) {
    free(errors);
    return;
  }
  r->pending.length = 0;
  if (result.error_count > 0 || result.function == NULL) fputs(errors ? errors : "", stderr);
  else run_function(r, result.function);
  free(errors);
}

/* Evaluates an expression in the session: false after reporting an error. */
static bool evaluate(Repl *r, const char *expr, Value *out) {
  begin_run();
  bool ok = session_evaluate(r->vm, expr, out, &r->status);
  end_run();
  return ok;
}

/* ---- commands ---- */

static void cmd_help(Repl *r, const char *arg) {
  help_show(stdout, arg, r->color);
}

static void cmd_graph(Repl *r, const char *arg) {
  if (arg[0] == '\0') {
    report_error(r, "usage: :graph EXPR (a tensor or a graph node)");
    return;
  }
  Value v;
  if (!evaluate(r, arg, &v)) return;
  if (!IS_TENSOR(v) && !IS_NODE(v)) {
    report_error(r, ":graph needs a tensor or a graph node, not %s", vm_type_name(v));
    return;
  }
  vm_push_root(r->vm, v);
  if (!lib_graph_print(r->vm, stdout, v)) report_error(r, "%s", tensor_error());
  vm_pop_root(r->vm);
  fflush(stdout);
}

static void cmd_load(Repl *r, const char *arg) {
  if (arg[0] == '\0') {
    report_error(r, "usage: :load FILE");
    return;
  }
  begin_run(); /* Ctrl-C stops the read too (e.g. of a pipe) */
  char *source = vm_read_file(arg, NULL);
  if (source == NULL) {
    report_error(r, "cannot open %s: %s", arg, vm_read_problem(errno));
    end_run();
    return;
  }
  VmResult result = vm_run_source(r->vm, source, arg);
  end_run();
  free(source);
  if (result == VM_EXIT) r->status = r->vm->exc.exit_code;
}

static void cmd_quit(Repl *r, const char *arg) {
  (void)arg;
  r->status = 0;
}

typedef struct {
  const char *name;
  void (*run)(Repl *r, const char *arg);
} Command;

static const Command commands[] = {
    {"help", cmd_help},
    {"graph", cmd_graph},
    {"load", cmd_load},
    {"quit", cmd_quit},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])


/* The command named by `word` or by a unique prefix of it (:q, :h). */
static const Command *find_command(const char *word, size_t len) {
  const Command *found = NULL;
  for (size_t i = 0; i < COMMAND_COUNT; i++) {
    if (strncmp(commands[i].name, word, len) != 0) continue;
    if (strlen(commands[i].name) == len) return &commands[i];
    if (found != NULL) return NULL;
    found = &commands[i];
  }
  return found;
}

/* `:NAME ARG`: ARG is the rest of the line without surrounding blanks. */
static void run_command(Repl *r, const char *line) {
  const char *word = line + 1;
  size_t len = strcspn(word, " \t");
  char *arg = strdup(word + len + strspn(word + len, " \t"));
  if (arg == NULL) return;
  size_t end = strlen(arg);
  while (end > 0 && (arg[end - 1] == ' ' || arg[end - 1] == '\t')) arg[--end] = '\0';
  const Command *c = len > 0 ? find_command(word, len) : NULL;
  if (c != NULL) {
    c->run(r, arg);
  } else {
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)len, word);
    report_error(r, "unknown command ':%s' (commands: :help :graph :load :quit)", name);
  }
  free(arg);
}

/* ---- completion through Readline (repl/complete.c) ---- */
#ifndef AG_NO_READLINE /* without a line editor there is nothing to complete */
static const char *const command_names[] = {"help", "graph", "load", "quit", NULL};
_Static_assert(sizeof command_names / sizeof command_names[0] == COMMAND_COUNT + 1,
               "command_names lists every command");

/* Readline's completion callbacks take no context pointer, so the VM being
 * completed against and the candidates are kept here (one REPL per process). */
static AgVM *completion_vm;
static Candidates current;

static char *next_candidate(const char *text, int state) {
  static size_t index;
  if (state == 0) index = 0;
  char match[512];
  while (index < current.count) {
    if (complete_matches(&current, index++, text, match, sizeof match)) return strdup(match);
  }
  return NULL;
}

static char **attempt_completion(const char *text, int start, int end) {
  (void)end;
  rl_attempted_completion_over = 1; /* never fall back to file names */
  rl_completion_append_character = '\0'; /* readline resets it before each completion */
  CompleteKind kind =
      complete_collect(completion_vm, rl_line_buffer, (size_t)start, text, command_names, &current);
  if (kind == COMPLETE_FILES) return rl_completion_matches(text, rl_filename_completion_function);
  return rl_completion_matches(text, next_candidate);
}

static void complete_install(AgVM *vm) {
  completion_vm = vm;
  rl_attempted_completion_function = attempt_completion;
  rl_completer_word_break_characters = COMPLETE_WORD_BREAKS;
}
#endif

/* ---- the loop ---- */

static void handle_line(Repl *r, char *line) {
  if (r->pending.length == 0) r->block_entries = 0;
  history_remember(r, line);
  const char *text = line + strspn(line, " \t");
  if (r->pending.length == 0 && text[0] == ':') {
    run_command(r, text);
    return;
  }
  if (r->pending.length == 0 && text[0] == '\0') return;
  vm_buf_adds(&r->pending, line);
  vm_buf_addc(&r->pending, '\n');
  size_t length = r->pending.length;
  char *block = length > strlen(line) + 1 ? strndup(r->pending.data, length - 1) : NULL;
  submit_pending(r);
  if (block != NULL && r->pending.length == 0) history_keep_block(r, block);
  free(block);
}

static void setup_readline(Repl *r) {
#ifndef AG_NO_READLINE
  rl_readline_name = "ag";
  rl_catch_signals = 0; /* SIGINT and SIGWINCH are handled here */
  rl_catch_sigwinch = 0;
  set_handler(SIGWINCH, on_sigwinch, true);
  complete_install(r->vm);
#endif
  set_handler(SIGINT, on_prompt_sigint, false);
  if (r->color) r->vm->host.repl_print = print_shown_in_color;
}

static bool stdout_wants_color(void) {
  const char *no_color = getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && (no_color == NULL || no_color[0] == '\0');
}

int repl_run(AgVM *vm) {
  Repl r = {.vm = vm, .color = stdout_wants_color(), .history_path = history_file(), .status = -1};
  vm_buf_init(&r.pending);
  setup_readline(&r);
  history_load(&r);
  if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
    printf("Ag %s: tensors and autograd. :help for help, Ctrl-D to leave.\n", AG_VERSION);
  }
  while (r.status < 0) {
    char *line = NULL;
    ReadResult got = read_line(&r, &line);
    if (got == READ_EOF) break;
    if (got == READ_INTERRUPTED) {
      r.pending.length = 0;
      continue;
    }
    handle_line(&r, line);
    free(line);
  }
  if (r.status < 0) fputc('\n', stdout);
  history_save(&r);
  free(r.history_path);
  vm_buf_free(&r.pending);
#ifndef AG_NO_READLINE
  candidates_free(&current);
#endif
  vm->host.repl_print = NULL;
  return r.status < 0 ? 0 : r.status;
}
