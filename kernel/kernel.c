/* kernel.c — an Ag session for the Jupyter kernel (see kernel.h). */
#include "kernel/kernel.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "repl/complete.h"
#include "repl/help.h"
#include "repl/session.h"
#include "stdlib/builtins.h"
#include "stdlib/lib.h"
#include "tensor/tensor.h"
#include "vm/buffer.h"
#include "vm/memory.h"

#define STREAM_INTERVAL_MS 50
#define STREAM_CHUNK (1024 * 1024)

typedef struct {
  struct AgKernel *kernel;
  const char *name; /* "stdout", "stderr" */
  VmBuf pending;
  FILE *file; /* the FILE installed as stdout / stderr */
} Stream;

struct AgKernel {
  AgVM *vm;
  AgKernelOutput out;
  pthread_mutex_t lock; /* the streams and every callback */
  pthread_cond_t wake;
  Stream streams[2];
  FILE *log;           /* where output outside a cell goes: the kernel's own stderr */
  bool running;        /* a cell runs: output goes to the callbacks */
  bool silent;
  int execution_count;
  bool stopping;
  pthread_t flusher, interrupter;
  bool shown_result;
};

/* The signal thread needs to know whether a cell runs; one kernel per process. */
static atomic_bool cell_running;

/* ---- output ---- */

/* The length of text[0..n) without an incomplete UTF-8 sequence at its end. */
static size_t utf8_complete_prefix(const char *text, size_t n) {
  size_t i = n, back = 0;
  while (i > 0 && back < 4 && ((unsigned char)text[i - 1] & 0xC0) == 0x80) {
    i--;
    back++;
  }
  if (i == 0) return n;
  unsigned char lead = (unsigned char)text[i - 1];
  size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  return need > back + 1 ? i - 1 : n;
}

/* Sends what `s` holds (lock held); an incomplete UTF-8 character at the
 * end waits for its other bytes unless `all`. */
static void stream_send(AgKernel *k, Stream *s, bool all) {
  if (s->pending.length == 0) return;
  size_t n = all ? s->pending.length : utf8_complete_prefix(s->pending.data, s->pending.length);
  if (n == 0) return;
  if (k->running) k->out.stream(k->out.ctx, s->name, s->pending.data, n);
  else fwrite(s->pending.data, 1, n, k->log);
  memmove(s->pending.data, s->pending.data + n, s->pending.length - n);
  s->pending.length -= n;
}

static void streams_send(AgKernel *k, bool all) {
  for (int i = 0; i < 2; i++) stream_send(k, &k->streams[i], all);
}

static ssize_t stream_write(void *cookie, const char *buf, size_t size) {
  Stream *s = cookie;
  AgKernel *k = s->kernel;
  pthread_mutex_lock(&k->lock);
  Stream *other = &k->streams[s == &k->streams[0] ? 1 : 0];
  stream_send(k, other, true); /* keeps stdout and stderr in the order written */
  vm_buf_add(&s->pending, buf, size);
  if (s->pending.length >= STREAM_CHUNK || !k->running) stream_send(k, s, !k->running);
  pthread_mutex_unlock(&k->lock);
  return (ssize_t)size;
}

/* stdout and stderr become FILEs that write into the streams; line
 * buffered, so each line reaches a stream as it is written. */
static bool install_streams(AgKernel *k) {
  static const char *const names[2] = {"stdout", "stderr"};
  for (int i = 0; i < 2; i++) {
    Stream *s = &k->streams[i];
    s->kernel = k;
    s->name = names[i];
    vm_buf_init(&s->pending);
    cookie_io_functions_t io = {.read = NULL, .write = stream_write, .seek = NULL, .close = NULL};
    s->file = fopencookie(s, "w", io);
    if (s->file == NULL) return false;
    setvbuf(s->file, NULL, _IOLBF, 8192);
  }
  fflush(stdout);
  fflush(stderr);
  stdout = k->streams[0].file;
  stderr = k->streams[1].file;
  return true;
}

static void *flusher_main(void *arg) {
  AgKernel *k = arg;
  pthread_mutex_lock(&k->lock);
  while (!k->stopping) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += STREAM_INTERVAL_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&k->wake, &k->lock, &until);
    if (!k->running) continue;
    /* A line still in stdio's buffer (print(end="")) is flushed by the cell
     * itself; here only what has reached the streams is sent. */
    streams_send(k, false);
  }
  pthread_mutex_unlock(&k->lock);
  return NULL;
}

/* ---- interrupts: SIGINT is blocked in every thread and taken here ---- */

static void *interrupter_main(void *arg) {
  (void)arg;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  for (;;) {
    int sig;
    if (sigwait(&set, &sig) != 0) continue;
    if (sig == SIGINT && atomic_load(&cell_running)) {
      tensor_interrupt_requested = 1;
    }
  }
  return NULL;
}

/* ---- showing values ---- */

/* A MIME bundle from the cell (vm->display): display_data. */
static void show_bundle(AgVM *vm, int count, const char *const *types, const char *const *data,
                        const size_t *lengths) {
  AgKernel *k = vm->host;
  fflush(stdout); /* before the lock: the streams' writes take it */
  fflush(stderr);
  pthread_mutex_lock(&k->lock);
  streams_send(k, true);
  if (k->running) k->out.display(k->out.ctx, false, count, types, data, lengths);
  pthread_mutex_unlock(&k->lock);
}

/* v._repr_svg_() when v's class has one (a plot figure), else nil. */
static Value svg_of(AgVM *vm, Value v) {
  Value method;
  if (!IS_INSTANCE(v)) return NIL_VAL;
  ObjString *name = obj_string(vm, "_repr_svg_");
  if (!table_get(&AS_INSTANCE(v)->klass->methods, OBJ_VAL(name), &method)) return NIL_VAL;
  vm_push_root(vm, v);
  Value svg = vm_invoke(vm, v, name, 0, NULL, NULL);
  vm_pop_root(vm);
  if (IS_STRING(svg)) return svg;
  if (IS_EXCEPTION(svg)) vm_report_exception(vm, stderr, false);
  return NIL_VAL;
}

/* vm->repl_print: the cell's last expression (show_last compiles only that
 * one to show) as the cell's result: its repr, and SVG when it has one. */
static void show_result(AgVM *vm, Value v, ObjString *repr) {
  AgKernel *k = vm->host;
  if (k->silent) return;
  vm_push_root(vm, OBJ_VAL(repr));
  Value svg = svg_of(vm, v);
  const char *types[2] = {"text/plain", "image/svg+xml"};
  const char *data[2] = {repr->chars, IS_STRING(svg) ? AS_CSTRING(svg) : ""};
  size_t lengths[2] = {(size_t)repr->length, IS_STRING(svg) ? (size_t)AS_STRING(svg)->length : 0};
  fflush(stdout); /* before the lock: the streams' writes take it */
  fflush(stderr);
  pthread_mutex_lock(&k->lock);
  streams_send(k, true);
  if (k->running) k->out.display(k->out.ctx, true, IS_STRING(svg) ? 2 : 1, types, data, lengths);
  pthread_mutex_unlock(&k->lock);
  vm_pop_root(vm);
}

/* ---- the session ---- */

static void lock_init(AgKernel *k) {
  pthread_mutex_init(&k->lock, NULL);
  pthread_cond_init(&k->wake, NULL);
}

AgKernel *agk_new(const AgKernelOutput *out) {
  AgKernel *k = calloc(1, sizeof *k);
  if (k == NULL) return NULL;
  k->out = *out;
  lock_init(k);
  int fd = dup(STDERR_FILENO);
  k->log = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (k->log == NULL) k->log = stderr;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, NULL); /* before any thread starts: all inherit it */
  signal(SIGPIPE, SIG_IGN);
  /* Jupyter gives the kernel a pipe nobody writes to as stdin: input() would
   * wait for ever, past any interrupt. It reads end of input (nil) instead. */
  if (freopen("/dev/null", "r", stdin) == NULL) clearerr(stdin);
  k->vm = vm_new();
  lib_install_builtins(k->vm);
  lib_install(k->vm);
  lib_set_args(k->vm, NULL, 0, NULL);
  k->vm->host = k;
  k->vm->repl_print = show_result;
  k->vm->display = show_bundle;
  if (!install_streams(k) || pthread_create(&k->flusher, NULL, flusher_main, k) != 0 ||
      pthread_create(&k->interrupter, NULL, interrupter_main, NULL) != 0) {
    fprintf(k->log, "ag-kernel: cannot set up the output streams: %s\n", strerror(errno));
    exit(1);
  }
  return k;
}

void agk_free(AgKernel *k) {
  fflush(stdout);
  fflush(stderr);
  pthread_mutex_lock(&k->lock);
  k->stopping = true;
  pthread_cond_signal(&k->wake);
  pthread_mutex_unlock(&k->lock);
  pthread_join(k->flusher, NULL);
  vm_free(k->vm);
  free(k);
}

/* The lines of a compile report: the first message after "error: ". */
static char *first_message(const char *report) {
  const char *m = strstr(report, "error: ");
  m = m ? m + 7 : report;
  return strndup(m, strcspn(m, "\n"));
}

static void begin_cell(AgKernel *k, int execution_count, bool silent) {
  pthread_mutex_lock(&k->lock);
  k->running = true;
  k->silent = silent;
  k->execution_count = execution_count;
  pthread_mutex_unlock(&k->lock);
  atomic_store(&cell_running, true);
}

static void end_cell(AgKernel *k) {
  atomic_store(&cell_running, false);
  fflush(stdout);
  fflush(stderr);
  pthread_mutex_lock(&k->lock);
  streams_send(k, true);
  k->running = false;
  pthread_mutex_unlock(&k->lock);
  tensor_interrupt_requested = 0;
}

static void syntax_error(AgCell *cell, const char *errors) {
  cell->ename = strdup("SyntaxError");
  cell->evalue = first_message(errors);
  cell->traceback = strdup(errors);
}

static void run_cell(AgKernel *k, ObjFunction *fn, AgCell *cell) {
  SessionError err;
  VmResult r = session_run(k->vm, fn, &err);
  if (r == VM_RUNTIME_ERROR) {
    cell->ename = err.name;
    cell->evalue = err.message;
    cell->traceback = err.report;
    return;
  }
  if (r == VM_EXIT) {
    fprintf(stderr, "exit(%d): a notebook's session goes on; restart the kernel to end it\n",
            k->vm->exit_code);
  }
  cell->ok = true;
}

void agk_execute(AgKernel *k, const char *code, int execution_count, bool silent, AgCell *cell) {
  memset(cell, 0, sizeof *cell);
  char file[32];
  snprintf(file, sizeof file, "In[%d]", execution_count);
  char *errors = NULL;
  CompileResult r = session_compile(k->vm, code, file, true, &errors);
  if (r.error_count > 0 || r.function == NULL) {
    syntax_error(cell, errors ? errors : "error: the cell does not compile\n");
  } else {
    begin_cell(k, execution_count, silent);
    run_cell(k, r.function, cell);
    end_cell(k);
  }
  free(errors);
}

void agk_cell_free(AgCell *cell) {
  free(cell->ename);
  free(cell->evalue);
  free(cell->traceback);
  memset(cell, 0, sizeof *cell);
}

/* ---- completion, inspection, continuation ---- */

char **agk_complete(AgKernel *k, const char *code, size_t cursor, size_t *start, size_t *count) {
  size_t len = strlen(code);
  if (cursor > len) cursor = len;
  char *line = strndup(code, cursor);
  *start = complete_word_start(line, cursor);
  Candidates c = {0};
  complete_collect(k->vm, line, *start, line + *start, NULL, &c);
  char **matches = calloc(c.count + 1, sizeof *matches);
  *count = 0;
  char match[512];
  for (size_t i = 0; matches != NULL && i < c.count; i++) {
    if (complete_matches(&c, i, line + *start, match, sizeof match)) matches[(*count)++] = strdup(match);
  }
  candidates_free(&c);
  free(line);
  return matches;
}

void agk_strings_free(char **strings, size_t count) {
  for (size_t i = 0; i < count; i++) free(strings[i]);
  free(strings);
}

static bool is_name_char(char ch) {
  return ch == '_' || ch == '.' || ch == ':' || (ch >= 'a' && ch <= 'z') ||
         (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* The help of `topic` (or of its last dotted part: x.backward finds
 * Tensor.backward), or NULL. */
static char *help_text(const char *topic) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (out == NULL) return NULL;
  const char *dot = strrchr(topic, '.');
  int found = help_show(out, topic, false);
  if (found == 0 && dot != NULL && dot[1] != '\0') {
    fclose(out);
    free(text);
    text = NULL;
    out = open_memstream(&text, &len);
    if (out == NULL) return NULL;
    found = help_show(out, dot + 1, false);
  }
  fclose(out);
  if (found > 0) return text;
  free(text);
  return NULL;
}

char *agk_inspect(AgKernel *k, const char *code, size_t cursor) {
  (void)k;
  size_t len = strlen(code);
  if (cursor > len) cursor = len;
  size_t a = cursor, b = cursor;
  while (a > 0 && is_name_char(code[a - 1])) a--;
  while (b < len && is_name_char(code[b])) b++;
  while (a < b && (code[a] == '.' || code[a] == ':')) a++;
  while (b > a && code[b - 1] == '.') b--;
  if (a == b) return NULL;
  char *topic = strndup(code + a, b - a);
  char *text = topic ? help_text(topic) : NULL;
  free(topic);
  return text;
}

const char *agk_is_complete(AgKernel *k, const char *code) {
  switch (session_input_state(k->vm, code)) {
  case INPUT_COMPLETE: return "complete";
  case INPUT_INCOMPLETE: return "incomplete";
  case INPUT_INVALID: break;
  }
  return "invalid";
}

size_t agk_byte_offset(const char *text, size_t cp) {
  size_t i = 0;
  for (; text[i] != '\0' && cp > 0; cp--) {
    i++;
    while (((unsigned char)text[i] & 0xC0) == 0x80) i++;
  }
  return i;
}

size_t agk_code_points(const char *text, size_t bytes) {
  size_t n = 0;
  for (size_t i = 0; i < bytes && text[i] != '\0'; i++) n += ((unsigned char)text[i] & 0xC0) != 0x80;
  return n;
}

const char *agk_version(void) { return AG_VERSION; }
