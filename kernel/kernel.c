/* kernel.c — an Ag session for the Jupyter kernel (see kernel.h). */
#include "kernel/kernel.h"

#include <errno.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "repl/complete.h"
#include "repl/help.h"
#include "repl/session.h"
#include "autograd/autograd.h"
#include "stdlib/builtins.h"
#include "stdlib/graph.h"
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

#define BUNDLE_MAX 8

/* A bundle shown in place (progress()), as last sent, until it is final. */
typedef struct InPlace {
  struct InPlace *next;
  char *id;
  int count;
  char *types[BUNDLE_MAX], *data[BUNDLE_MAX];
} InPlace;

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
  char **sources; /* the code of cell In[N] at sources[N], for quoting in errors */
  int source_count;
  /* The cells run, in order, each with the id of the first graph node it
   * could make: node ids increase, so a node's cell is the last one whose
   * first id is not above the node's (graph labels say "In[7]:5"). */
  struct {
    int cell;
    uint64_t first_node;
  } *runs;
  int run_count, run_capacity;
  InPlace *in_place; /* the bundles shown in place by the running cell, not final */
};

/* Whether a cell runs, for the signal thread (one kernel per process). It
 * changes only together with the VM's interrupt flag, under interrupt_lock. */
static pthread_mutex_t interrupt_lock = PTHREAD_MUTEX_INITIALIZER;
static bool cell_running;

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

/* ---- interrupts ----
 * SIGINT is blocked in every thread; it waits, pending, on a signalfd.
 * A pending SIGINT is taken off (read) only under interrupt_lock: by the
 * interrupter thread, which raises the VM's interrupt flag when a cell
 * runs, and by a cell's start and end, which drop what is pending and
 * clear the flag in the same critical section that marks the cell running
 * or not. So whatever the timing, a SIGINT that arrives while a cell runs
 * (from its compilation to its last output) stops that cell or, when the
 * cell ends first, is dropped with it; one that arrives between cells is
 * dropped; none ever reaches a later cell. */

static int interrupt_fd = -1; /* signalfd of SIGINT, non-blocking */

/* Takes one pending SIGINT; false when none is pending. */
static bool take_interrupt(void) {
  struct signalfd_siginfo info;
  return read(interrupt_fd, &info, sizeof info) == (ssize_t)sizeof info;
}

static void *interrupter_main(void *arg) {
  (void)arg;
  for (;;) {
    struct pollfd wait = {.fd = interrupt_fd, .events = POLLIN};
    if (poll(&wait, 1, -1) <= 0) continue; /* reads nothing: the signal stays pending */
    pthread_mutex_lock(&interrupt_lock);
    while (take_interrupt()) {
      if (cell_running) tensor_interrupt_requested = 1;
    }
    pthread_mutex_unlock(&interrupt_lock);
  }
  return NULL;
}

static void set_cell_running(bool running) {
  pthread_mutex_lock(&interrupt_lock);
  while (take_interrupt()) {
  }
  cell_running = running;
  tensor_interrupt_requested = 0;
  pthread_mutex_unlock(&interrupt_lock);
}

/* Blocks SIGINT (before any thread starts: all inherit it) and opens its
 * signalfd; false with errno set when it cannot. */
static bool catch_interrupts(void) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  signal(SIGINT, SIG_DFL); /* an inherited SIG_IGN would discard it */
  interrupt_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  return interrupt_fd >= 0;
}

/* ---- showing values ---- */

/* data in base64, malloc'd: the protocol's form of binary MIME data. */
static char *base64(const char *data, size_t n) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
  if (out == NULL) return NULL;
  const unsigned char *in = (const unsigned char *)data;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                 (i + 2 < n ? in[i + 2] : 0);
    *o++ = digits[v >> 18 & 63];
    *o++ = digits[v >> 12 & 63];
    *o++ = i + 1 < n ? digits[v >> 6 & 63] : '=';
    *o++ = i + 2 < n ? digits[v & 63] : '=';
  }
  *o = '\0';
  return out;
}

/* Sends a MIME bundle (result: the cell's value, else display_data), PNG
 * data base64-encoded; what the cell wrote before it goes first. */
static void send_bundle(AgKernel *k, bool result, int count, const char *const *types,
                        const char *const *data, const size_t *lengths) {
  const char *sent[BUNDLE_MAX];
  size_t sent_lengths[BUNDLE_MAX];
  char *encoded[BUNDLE_MAX] = {0};
  if (count > BUNDLE_MAX) count = BUNDLE_MAX;
  for (int i = 0; i < count; i++) {
    bool binary = strcmp(types[i], "image/png") == 0;
    encoded[i] = binary ? base64(data[i], lengths[i]) : NULL;
    sent[i] = encoded[i] ? encoded[i] : data[i];
    sent_lengths[i] = encoded[i] ? strlen(encoded[i]) : lengths[i];
  }
  fflush(stdout); /* before the lock: the streams' writes take it */
  fflush(stderr);
  pthread_mutex_lock(&k->lock);
  streams_send(k, true);
  if (k->running) k->out.display(k->out.ctx, result, count, types, sent, sent_lengths);
  pthread_mutex_unlock(&k->lock);
  for (int i = 0; i < count; i++) free(encoded[i]);
}

/* A MIME bundle from the cell (vm->host.display): display_data. */
static void show_bundle(AgVM *vm, int count, const char *const *types, const char *const *data,
                        const size_t *lengths) {
  send_bundle(vm->host.data, false, count, types, data, lengths);
}

static void send_result(AgVM *vm, void *ctx, int count, const char *const *types,
                        const char *const *data, const size_t *lengths) {
  (void)ctx;
  send_bundle(vm->host.data, true, count, types, data, lengths);
}

static InPlace **find_in_place(AgKernel *k, const char *id) {
  InPlace **p = &k->in_place;
  while (*p != NULL && strcmp((*p)->id, id) != 0) p = &(*p)->next;
  return p;
}

static void in_place_free(InPlace *b) {
  for (int i = 0; i < b->count; i++) {
    free(b->types[i]);
    free(b->data[i]);
  }
  free(b->id);
  free(b);
}

/* Keeps the bundle last shown under id (lock held), or forgets it when final. */
static bool remember_in_place(AgKernel *k, const char *id, bool final, int count,
                              const char *const *types, const char *const *data) {
  InPlace **p = find_in_place(k, id), *b = *p;
  bool update = b != NULL;
  if (b != NULL) {
    *p = b->next;
    in_place_free(b);
  }
  b = final ? NULL : calloc(1, sizeof *b);
  if (b == NULL) return update;
  b->id = strdup(id);
  b->count = count < BUNDLE_MAX ? count : BUNDLE_MAX;
  for (int i = 0; i < b->count; i++) {
    b->types[i] = strdup(types[i]);
    b->data[i] = strdup(data[i]);
  }
  b->next = k->in_place;
  k->in_place = b;
  return update;
}

/* vm->host.display_in_place: progress() in a notebook. */
static void show_in_place(AgVM *vm, const char *id, bool final, int count, const char *const *types,
                          const char *const *data, const size_t *lengths) {
  AgKernel *k = vm->host.data;
  fflush(stdout); /* before the lock: the streams' writes take it */
  fflush(stderr);
  pthread_mutex_lock(&k->lock);
  streams_send(k, true);
  bool update = remember_in_place(k, id, final, count, types, data);
  if (k->running) k->out.display_in_place(k->out.ctx, id, update, count, types, data, lengths);
  pthread_mutex_unlock(&k->lock);
}

/* At the end of a cell (lock held): the bars its loop left running are
 * shown stopped when the cell failed (an interrupt), then forgotten. */
static void stop_in_place(AgKernel *k, bool failed) {
  while (k->in_place != NULL) {
    InPlace *b = k->in_place;
    k->in_place = b->next;
    for (int i = 0; failed && i < b->count; i++) {
      bool html = strcmp(b->types[i], "text/html") == 0;
      char *stopped = NULL;
      if (asprintf(&stopped, html ? "<div style=\"color: #c00\">%s</div>" : "%s (stopped)",
                   b->data[i]) < 0)
        continue;
      free(b->data[i]);
      b->data[i] = stopped;
    }
    size_t lengths[BUNDLE_MAX];
    for (int i = 0; i < b->count; i++) lengths[i] = strlen(b->data[i]);
    if (failed) k->out.display_in_place(k->out.ctx, b->id, true, b->count,
                                        (const char *const *)b->types,
                                        (const char *const *)b->data, lengths);
    in_place_free(b);
  }
}

/* vm->host.repl_print: the cell's last expression (show_last compiles only that
 * one to show) as the cell's result: its repr, and its pictures when it
 * draws (a plot figure). */
static void show_result(AgVM *vm, Value v, ObjString *repr) {
  AgKernel *k = vm->host.data;
  if (k->silent) return;
  if (IS_EXCEPTION(lib_rich_bundle(vm, v, repr, send_result, NULL))) {
    vm_report_exception(vm, stderr, false);
  }
}

/* ---- which cell made a graph node ---- */

static AgKernel *the_kernel; /* graph_set_source_namer's callback has no context */

static void note_cell_run(AgKernel *k, int cell) {
  if (k->run_count == k->run_capacity) {
    int capacity = k->run_capacity ? 2 * k->run_capacity : 64;
    void *grown = realloc(k->runs, (size_t)capacity * sizeof *k->runs);
    if (grown == NULL) return;
    k->runs = grown;
    k->run_capacity = capacity;
  }
  k->runs[k->run_count].cell = cell;
  k->runs[k->run_count++].first_node = grad_node_last_id() + 1;
}

/* graph labels' source: "In[N]" of the cell that made node `id`. */
static const char *cell_of_node(uint64_t id) {
  static char name[32];
  AgKernel *k = the_kernel;
  int lo = 0, hi = k ? k->run_count : 0; /* the last run with first_node <= id */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (k->runs[mid].first_node <= id) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  snprintf(name, sizeof name, "In[%d]", k->runs[lo - 1].cell);
  return name;
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
  if (!catch_interrupts()) {
    fprintf(k->log, "ag-kernel: cannot take interrupts: %s\n", strerror(errno));
    exit(1);
  }
  signal(SIGPIPE, SIG_IGN);
  /* Jupyter gives the kernel a pipe nobody writes to as stdin: input() would
   * wait for ever, past any interrupt. It reads end of input (nil) instead. */
  if (freopen("/dev/null", "r", stdin) == NULL) clearerr(stdin);
  k->vm = vm_new();
  lib_install_builtins(k->vm);
  lib_install(k->vm);
  lib_set_args(k->vm, NULL, 0, NULL);
  const char *no_color = getenv("NO_COLOR");
  k->vm->host.color = no_color == NULL || no_color[0] == '\0'; /* Jupyter renders ANSI colour */
  k->vm->host.data = k;
  k->vm->host.repl_print = show_result;
  k->vm->host.display = show_bundle;
  k->vm->host.display_in_place = show_in_place;
  the_kernel = k;
  graph_set_source_namer(cell_of_node);
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
  for (int i = 0; i < k->source_count; i++) free(k->sources[i]);
  free(k->sources);
  free(k->runs);
  graph_set_source_namer(NULL);
  the_kernel = NULL;
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
  set_cell_running(true);
}

static void end_cell(AgKernel *k, bool failed) {
  set_cell_running(false);
  fflush(stdout);
  fflush(stderr);
  pthread_mutex_lock(&k->lock);
  streams_send(k, true);
  stop_in_place(k, failed);
  k->running = false;
  pthread_mutex_unlock(&k->lock);
}

/* A cell that did not compile: a syntax error, or an interrupt that
 * stopped the compiler. */
static void compile_error(AgCell *cell, const CompileResult *r, const char *errors) {
  cell->ename = strdup(r->interrupted ? "Interrupted" : "SyntaxError");
  cell->evalue = r->interrupted ? strdup("Interrupted") : first_message(errors);
  cell->traceback = strdup(errors);
}

/* Keeps the code of cell In[n] for with_source_line. */
static void keep_source(AgKernel *k, int n, const char *code) {
  if (n < 0 || n > 1000000) return;
  if (n >= k->source_count) {
    char **grown = realloc(k->sources, (size_t)(n + 1) * sizeof *grown);
    if (grown == NULL) return;
    memset(grown + k->source_count, 0, (size_t)(n + 1 - k->source_count) * sizeof *grown);
    k->sources = grown;
    k->source_count = n + 1;
  }
  free(k->sources[n]);
  k->sources[n] = strdup(code);
}

/* Line `line` (from 1) of cell In[n] without its indentation, or NULL. */
static char *source_line(AgKernel *k, int n, int line) {
  const char *p = n >= 0 && n < k->source_count ? k->sources[n] : NULL;
  for (int i = 1; p != NULL && i < line; i++) {
    p = strchr(p, '\n');
    if (p != NULL) p++;
  }
  if (p == NULL) return NULL;
  p += strspn(p, " \t");
  size_t length = strcspn(p, "\n");
  while (length > 0 && (p[length - 1] == ' ' || p[length - 1] == '\r')) length--;
  return length > 0 ? strndup(p, length) : NULL;
}

/* The report of a runtime error with the failing line of its cell quoted
 * under the first line and underlined with carets, as Python does:
 *   In[3]:2: error: int has no attribute 'nope'
 *       return v.nope
 *       ^^^^^^^^^^^^^
 * (report itself when the error is not in a cell of this session). */
static char *with_source_line(AgKernel *k, char *report) {
  int n = 0, line = 0;
  char *text = report && sscanf(report, "In[%d]:%d:", &n, &line) == 2 ? source_line(k, n, line) : NULL;
  if (text == NULL) return report;
  size_t first = strcspn(report, "\n");
  VmBuf out;
  vm_buf_init(&out);
  vm_buf_add(&out, report, first);
  vm_buf_printf(&out, "\n    %s\n    %s", text, k->vm->host.color ? "\033[1;31m" : "");
  for (const char *c = text; *c; c++) {
    if (((unsigned char)*c & 0xC0) != 0x80) vm_buf_add(&out, "^", 1);
  }
  vm_buf_printf(&out, "%s%s", k->vm->host.color ? "\033[0m" : "", report[first] ? "" : "\n");
  vm_buf_add(&out, report + first, strlen(report + first) + 1);
  free(text);
  free(report);
  return out.data;
}

static void run_cell(AgKernel *k, ObjFunction *fn, AgCell *cell) {
  SessionError err;
  VmResult r = session_run(k->vm, fn, &err);
  if (r == VM_RUNTIME_ERROR) {
    cell->ename = err.name;
    cell->evalue = err.message;
    cell->traceback = with_source_line(k, err.report);
    return;
  }
  if (r == VM_EXIT) {
    fprintf(stderr, "exit(%d): a notebook's session goes on; restart the kernel to end it\n",
            k->vm->exc.exit_code);
  }
  cell->ok = true;
}

void agk_execute(AgKernel *k, const char *code, int execution_count, bool silent, AgCell *cell) {
  memset(cell, 0, sizeof *cell);
  char file[32];
  snprintf(file, sizeof file, "In[%d]", execution_count);
  char *errors = NULL;
  keep_source(k, execution_count, code);
  note_cell_run(k, execution_count);
  begin_cell(k, execution_count, silent); /* an interrupt stops a long compilation too */
  CompileResult r = session_compile(k->vm, code, file, true, &errors);
  if (r.error_count > 0 || r.function == NULL) {
    compile_error(cell, &r, errors ? errors : "error: the cell does not compile\n");
  } else {
    run_cell(k, r.function, cell);
  }
  end_cell(k, !cell->ok);
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

/* The dotted name around byte `cursor` of code ("x.backward"), or NULL. */
static char *name_at(const char *code, size_t cursor) {
  size_t a = cursor, b = cursor;
  while (a > 0 && is_name_char(code[a - 1])) a--;
  while (code[b] != '\0' && is_name_char(code[b])) b++;
  while (a < b && (code[a] == '.' || code[a] == ':')) a++;
  while (b > a && code[b - 1] == '.') b--;
  return a < b ? strndup(code + a, b - a) : NULL;
}

/* The name of the function whose call's parentheses hold byte `cursor`
 * (`lin.forward(x, |`), or NULL. Brackets of lists and maps inside the
 * call are skipped; strings are not told apart. */
static char *callee_at(const char *code, size_t cursor) {
  int depth = 0;
  for (size_t i = cursor; i > 0; i--) {
    char ch = code[i - 1];
    if (ch == ')' || ch == ']' || ch == '}') depth++;
    else if ((ch == '(' || ch == '[' || ch == '{') && depth > 0) depth--;
    else if (ch == '(') {
      size_t end = i - 1;
      while (end > 0 && (code[end - 1] == ' ' || code[end - 1] == '\t')) end--;
      return end > 0 && is_name_char(code[end - 1]) ? name_at(code, end) : NULL;
    }
  }
  return NULL;
}

/* The comment that documents the definition at `line` of cell In[n]: the
 * `#` lines just above it, else the first line of its body when that is
 * a comment; malloc'd, without the `#`s, or NULL. */
static char *definition_comment(AgKernel *k, int n, int line) {
  VmBuf out;
  vm_buf_init(&out);
  int first = line;
  for (char *above; first > 1 && (above = source_line(k, n, first - 1)) != NULL; first--) {
    bool comment = above[0] == '#';
    free(above);
    if (!comment) break;
  }
  if (first == line) first = line + 1; /* none above: the body's first line */
  for (int i = first; i <= line + 1; i++) {
    char *text = i == line ? NULL : source_line(k, n, i);
    if (text != NULL && text[0] == '#') vm_buf_printf(&out, "%s\n", text + 1 + (text[1] == ' '));
    bool stop = text == NULL || text[0] != '#';
    free(text);
    if (stop && (i > line || out.length > 0)) break;
  }
  if (out.length == 0) {
    vm_buf_free(&out);
    return NULL;
  }
  return out.data;
}

/* The cell and line of a definition made in this session, false when it
 * was not made in a cell ("In[N]"). */
static bool cell_of(const ObjFunction *f, int *n) {
  return f->file != NULL && sscanf(f->file->chars, "In[%d]", n) == 1;
}

/* "name(a, b, ...rest)" and the comment of a function or class defined in
 * one of the session's cells; NULL for anything else. */
static char *user_help(AgKernel *k, Value v) {
  const char *kind = "";
  ObjString *name = NULL;
  if (IS_BOUND_METHOD(v)) v = AS_BOUND_METHOD(v)->method;
  if (IS_CLASS(v)) {
    kind = "class ";
    name = AS_CLASS(v)->name;
    v = AS_CLASS(v)->init;
  }
  if (!IS_CLOSURE(v)) return NULL;
  ObjFunction *f = AS_CLOSURE(v)->function;
  int n;
  if (!cell_of(f, &n)) return NULL;
  VmBuf out;
  vm_buf_init(&out);
  vm_buf_printf(&out, "%s%s(", kind, name ? name->chars : f->name ? f->name->chars : "?");
  int params = f->arity + (f->has_rest ? 1 : 0);
  for (int i = 0; i < params && f->param_names; i++) {
    vm_buf_printf(&out, "%s%s%s", i ? ", " : "", i == f->arity ? "..." : "", f->param_names[i]->chars);
  }
  vm_buf_printf(&out, ")\n");
  /* a class's comment is at its `class` line, above init's */
  int line = f->line;
  for (int i = line; name != NULL && i > 0; i--) {
    char *text = source_line(k, n, i);
    bool found = text && strncmp(text, "class ", 6) == 0;
    free(text);
    if (found) {
      line = i;
      break;
    }
  }
  char *comment = definition_comment(k, n, line);
  if (comment) vm_buf_printf(&out, "\n%s", comment);
  free(comment);
  return out.data;
}

/* The :help text of the class of the instance named path[0..len), or NULL. */
static char *class_help(AgKernel *k, const char *path, size_t len) {
  Value v;
  if (!complete_resolve(k->vm, path, len, &v) || !IS_INSTANCE(v)) return NULL;
  return help_text(AS_INSTANCE(v)->klass->name->chars);
}

/* What Shift-Tab shows for `topic`: the signature and comment of the
 * user's own function or class; else its :help text; else, for an object
 * of the library or its method (lin, lin.forward), its class's. */
static char *describe(AgKernel *k, const char *topic) {
  Value v;
  size_t len = strlen(topic);
  const char *dot = strrchr(topic, '.');
  char *text = complete_resolve(k->vm, topic, len, &v) ? user_help(k, v) : NULL;
  if (text == NULL) text = help_text(topic);
  if (text == NULL) text = class_help(k, topic, len);
  if (text == NULL && dot != NULL) text = class_help(k, topic, (size_t)(dot - topic));
  return text;
}

/* The name at the cursor when it names something of the session (or when
 * the cursor is in no call), else the function whose call's arguments hold
 * the cursor: `tensor([1], requires_grad` shows tensor, as IPython does. */
char *agk_inspect(AgKernel *k, const char *code, size_t cursor) {
  size_t len = strlen(code);
  if (cursor > len) cursor = len;
  char *name = name_at(code, cursor), *callee = callee_at(code, cursor);
  Value v;
  bool named = name != NULL && (callee == NULL || complete_resolve(k->vm, name, strlen(name), &v));
  char *text = named ? describe(k, name) : NULL;
  if (text == NULL && callee != NULL) text = describe(k, callee);
  free(name);
  free(callee);
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
