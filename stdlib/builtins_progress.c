/* builtins_progress.c — progress(iterable, desc=nil, total=nil): a progress
 * bar in the manner of Python's tqdm, drawn on standard error while a `for`
 * loop takes the items:
 *
 *   train:  40%|██████████▍               | 37/92 [00:01<00:01, 35.20it/s]
 *
 * (desc, percent, bar, count/total, elapsed<left, rate; without a total only
 * the count, elapsed time and rate). The line is redrawn at most 10 times a
 * second, and ended with a newline when the items run out, or by the next
 * print or error report (vm_end_progress_line) when the loop stops early.
 *
 * Only a terminal gets a bar: when standard error is a pipe or a file,
 * progress() returns the iterable itself, so a script's logs and tests see
 * nothing but the script's own output. In a notebook (vm->host.display_in_place)
 * the bar is an output of the cell, replaced in place at each redraw as
 * tqdm's notebook bar is: text/html (an HTML <progress> with the same
 * figures) and text/plain (the terminal's line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/ioctl.h>
#endif

#include "stdlib/builtins_internal.h"
#include "vm/buffer.h"
#include "vm/internal.h"

#define REDRAW_SECONDS 0.1
#define DEFAULT_COLUMNS 80

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The terminal's width on standard error, DEFAULT_COLUMNS when unknown. */
static int terminal_columns(void) {
#ifdef TIOCGWINSZ
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
#endif
  return DEFAULT_COLUMNS;
}

/* Whether the locale's characters are UTF-8 (then the bar is drawn with
 * Unicode block elements, else with '#'). */
static bool utf8_locale(void) {
  const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = getenv(names[i]);
    if (v == NULL || v[0] == '\0') continue;
    return strcasestr(v, "utf-8") != NULL || strcasestr(v, "utf8") != NULL;
  }
  return false;
}

/* ---- the state of one bar, kept in the instance's hidden fields ---- */

typedef struct {
  int64_t n;       /* items taken so far */
  int64_t total;   /* -1: unknown */
  double start;    /* clock at the first item */
  double drawn_at; /* clock of the last redraw */
  int64_t width;   /* length of the last line drawn, to blank what it leaves */
} Bar;

static const char *const FIELD_ITERATOR = " iterator", *const FIELD_DESC = " desc",
                         *const FIELD_DISPLAY_ID = " display id",
                         *const FIELD_N = " n", *const FIELD_TOTAL = " total",
                         *const FIELD_START = " start", *const FIELD_DRAWN = " drawn",
                         *const FIELD_WIDTH = " width", *const FIELD_FINISHED = " finished";

static double number_field(AgVM *vm, Value inst, const char *name) {
  Value v = lib_field(vm, inst, name);
  return IS_NUMBER(v) ? AS_NUMBER(v) : 0;
}

static Bar load_bar(AgVM *vm, Value inst) {
  Value total = lib_field(vm, inst, FIELD_TOTAL);
  return (Bar){(int64_t)number_field(vm, inst, FIELD_N), IS_NUMBER(total) ? (int64_t)AS_NUMBER(total) : -1,
               number_field(vm, inst, FIELD_START), number_field(vm, inst, FIELD_DRAWN),
               (int64_t)number_field(vm, inst, FIELD_WIDTH)};
}

static void store_bar(AgVM *vm, Value inst, const Bar *b) {
  lib_set_field(vm, inst, FIELD_N, INT_VAL(vm, b->n));
  lib_set_field(vm, inst, FIELD_START, FLOAT_VAL(b->start));
  lib_set_field(vm, inst, FIELD_DRAWN, FLOAT_VAL(b->drawn_at));
  lib_set_field(vm, inst, FIELD_WIDTH, INT_VAL(vm, b->width));
}

/* ---- drawing ---- */

/* Seconds as tqdm writes them: mm:ss, or h:mm:ss from an hour on. */
static void format_duration(char *out, size_t size, double seconds) {
  long s = seconds < 0 ? 0 : (long)seconds;
  if (s >= 3600)
    snprintf(out, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    snprintf(out, size, "%02ld:%02ld", s / 60, s % 60);
}

/* The bar's cells, `cells` wide, filled to `fraction`: full blocks, then one
 * of the eighth blocks for the part of a cell, then blanks. */
static void append_bar(char *out, size_t size, double fraction, int cells, bool unicode) {
  static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  size_t len = strlen(out);
  int filled_eighths = (int)(fraction * cells * 8);
  for (int i = 0; i < cells && len + 4 < size; i++) {
    int here = filled_eighths - i * 8; /* eighths of this cell that are filled */
    const char *cell = here >= 8 ? (unicode ? "█" : "#") : here > 0 && unicode ? eighths[here] : " ";
    len += (size_t)snprintf(out + len, size - len, "%s", cell);
  }
}

/* The figures after the bar: "37/92 [00:01<00:01, 35.20it/s]" (count,
 * elapsed<left, rate), or "37it [00:01, 35.20it/s]" without a total. */
static void format_figures(char *out, size_t size, const Bar *b, double now) {
  double elapsed = now - b->start;
  char rate[32], spent[24], left[24];
  if (b->n == 0 || elapsed <= 0)
    snprintf(rate, sizeof rate, "?it/s");
  else if (b->n / elapsed >= 1)
    snprintf(rate, sizeof rate, "%.2fit/s", b->n / elapsed);
  else
    snprintf(rate, sizeof rate, "%.2fs/it", elapsed / b->n);
  format_duration(spent, sizeof spent, elapsed);
  if (b->total < 0) {
    snprintf(out, size, "%lldit [%s, %s]", (long long)b->n, spent, rate);
    return;
  }
  if (b->n == 0 || elapsed <= 0)
    snprintf(left, sizeof left, "?");
  else
    format_duration(left, sizeof left, (double)(b->total - b->n) * elapsed / (double)b->n);
  snprintf(out, size, "%lld/%lld [%s<%s, %s]", (long long)b->n, (long long)b->total, spent, left, rate);
}

/* The share of the total taken, 0..1 (1 for a total of 0). */
static double fraction_done(const Bar *b) {
  double fraction = b->total > 0 ? (double)b->n / (double)b->total : 1.0;
  return fraction > 1 ? 1 : fraction;
}

/* The whole line for the bar's state at `now`. */
static void format_line(char *line, size_t size, const char *desc, const Bar *b, double now) {
  char prefix[256] = "", figures[128];
  if (desc != NULL) snprintf(prefix, sizeof prefix, "%s: ", desc);
  format_figures(figures, sizeof figures, b, now);
  if (b->total < 0) {
    snprintf(line, size, "%s%s", prefix, figures);
    return;
  }
  double fraction = fraction_done(b);
  char tail[160];
  snprintf(tail, sizeof tail, "| %s", figures);
  snprintf(line, size, "%s%3d%%|", prefix, (int)(fraction * 100));
  /* the bar takes what the terminal's width leaves (one column spare) */
  int cells = terminal_columns() - 1 - (int)strlen(line) - (int)strlen(tail);
  if (cells < 1) cells = 1;
  if (cells > 200) cells = 200;
  append_bar(line, size, fraction, cells, utf8_locale());
  size_t len = strlen(line);
  snprintf(line + len, size - len, "%s", tail);
}

/* text with &, < and > escaped for HTML, appended to out. */
static void add_html_text(VmBuf *out, const char *text) {
  for (; *text; text++) {
    if (*text == '<') vm_buf_printf(out, "&lt;");
    else if (*text == '>') vm_buf_printf(out, "&gt;");
    else if (*text == '&') vm_buf_printf(out, "&amp;");
    else vm_buf_add(out, text, 1);
  }
}

/* The bar as HTML, as tqdm's notebook bar: desc, an HTML <progress>
 * (indeterminate without a total), the percentage and the figures. */
static void format_html(VmBuf *out, const char *desc, const Bar *b, double now) {
  char figures[128];
  format_figures(figures, sizeof figures, b, now);
  vm_buf_printf(out, "<div class=\"ag-progress\" style=\"font-family: monospace\">");
  if (desc != NULL) {
    add_html_text(out, desc);
    vm_buf_printf(out, ": ");
  }
  if (b->total < 0) {
    vm_buf_printf(out, "<progress style=\"width: 40ex\"></progress> ");
  } else {
    double fraction = fraction_done(b);
    vm_buf_printf(out, "<progress value=\"%lld\" max=\"%lld\" style=\"width: 40ex\"></progress> %d%% ",
                  (long long)b->n, (long long)(b->total > 0 ? b->total : 1), (int)(fraction * 100));
  }
  add_html_text(out, figures);
  vm_buf_printf(out, "</div>");
}

/* The bar in a notebook: shown, then replaced in place at each redraw. */
static void draw_in_notebook(AgVM *vm, Value inst, const char *desc, const char *line, const Bar *b,
                             double now, bool final) {
  Value id = lib_field(vm, inst, FIELD_DISPLAY_ID);
  if (!IS_STRING(id)) return;
  VmBuf html;
  vm_buf_init(&html);
  format_html(&html, desc, b, now);
  const char *types[2] = {"text/html", "text/plain"};
  const char *data[2] = {html.data, line};
  size_t lengths[2] = {html.length, strlen(line)};
  fflush(stdout); /* the script's own output first */
  vm->host.display_in_place(vm, AS_CSTRING(id), final, 2, types, data, lengths);
  vm_buf_free(&html);
}

/* Redraws the line over the previous one (blanking what is left of it);
 * final: the items ran out. */
static void draw(AgVM *vm, Value inst, Bar *b, double now, bool final) {
  Value desc = lib_field(vm, inst, FIELD_DESC);
  char line[1024];
  format_line(line, sizeof line, IS_STRING(desc) ? AS_CSTRING(desc) : NULL, b, now);
  b->drawn_at = now;
  if (vm->host.display_in_place != NULL) {
    draw_in_notebook(vm, inst, IS_STRING(desc) ? AS_CSTRING(desc) : NULL, line, b, now, final);
    return;
  }
  int64_t width = (int64_t)strlen(line);
  int64_t blank = b->width > width ? b->width - width : 0;
  fflush(stdout); /* the script's own output first */
  fprintf(stderr, "\r%s%*s", line, (int)blank, "");
  fflush(stderr);
  vm->host.progress_line_open = true;
  b->width = width;
}

/* ---- the iterator ---- */

LIB_NATIVE(progress_iter) { return self; }

LIB_NATIVE(progress_len) {
  Value total = lib_field(vm, self, FIELD_TOTAL);
  if (!IS_NUMBER(total)) return vm_throw_error(vm, "this progress bar has no total: give progress(..., total=N)");
  return total;
}

static Value stop_iteration(AgVM *vm) {
  ObjString *message = obj_string(vm, "the iterator is exhausted");
  vm_push_root(vm, OBJ_VAL(message));
  Value e = OBJ_VAL(vm_new_error(vm, vm->core.stop_iteration_class, message));
  vm_pop_root(vm);
  return vm_throw(vm, e);
}

/* The next item of the wrapped iterator, counting it; at the end the bar is
 * drawn complete and its line ended. */
LIB_NATIVE(progress_next) {
  Bar b = load_bar(vm, self);
  if (!IS_NIL(lib_field(vm, self, FIELD_FINISHED))) return stop_iteration(vm);
  Value item;
  int status = vm_iterator_next(vm, lib_field(vm, self, FIELD_ITERATOR), &item);
  double now = now_seconds();
  if (status != 1) { /* the end, or an error from the items: end the line first */
    Value thrown = status < 0 ? vm_take_exception(vm) : NIL_VAL;
    vm_push_root(vm, thrown);
    draw(vm, self, &b, now, true);
    vm_end_progress_line(vm);
    lib_set_field(vm, self, FIELD_FINISHED, BOOL_VAL(true));
    vm_pop_root(vm);
    return status < 0 ? vm_throw(vm, thrown) : stop_iteration(vm);
  }
  vm_push_root(vm, item);
  b.n++;
  if (now - b.drawn_at >= REDRAW_SECONDS || b.n == b.total) draw(vm, self, &b, now, false);
  store_bar(vm, self, &b);
  vm_pop_root(vm);
  return item;
}

/* The number of items, or -1 when the iterable does not know it. */
static int64_t known_length(AgVM *vm, Value iterable) {
  if (IS_INSTANCE(iterable) && !vm_has_method(vm, iterable, VM_M_LEN)) return -1;
  int64_t n = vm_length(vm, iterable);
  if (n < 0) vm_take_exception(vm); /* no len: a bar without a total, as tqdm */
  return n;
}

HELP("progress", HELP_BUILTINS, 0,
     "progress(iterable, desc=nil, total=nil)",
     "Wraps a list, range, DataLoader or any iterable for a `for` loop and draws a "
     "progress bar on standard error as the items are taken, as Python's tqdm: desc, "
     "percent, bar, count/total, elapsed and time left, rate in items a second; "
     "redrawn at most 10 times a second, the line ended when the items run out. total "
     "defaults to len(iterable) (none: count and rate only). In a notebook the bar is "
     "an output of the cell updated in place (an HTML progress bar with the same "
     "figures), shown stopped when an interrupt or error ends the loop. Elsewhere, when "
     "standard error is not a terminal (a pipe, a file, a test) it draws nothing and "
     "returns the iterable itself.",
     "let total = 0\n"
     "for x in progress(range(100), desc=\"sum\") { total += x }\n"
     "print(total)")

LIB_NATIVE(lib_progress) {
  static const char *const names[] = {"desc", "total", NULL};
  Value opt[2];
  if (!vm_parse_kwargs(vm, "progress", kw, names, opt)) return VM_EXCEPTION;
  Value desc = IS_UNDEF(opt[0]) ? NIL_VAL : opt[0], total = IS_UNDEF(opt[1]) ? NIL_VAL : opt[1];
  if (!IS_NIL(desc) && !IS_STRING(desc))
    return vm_raise(vm, VM_ERR_TYPE, "progress(): desc must be a string, not %s", vm_type_name(desc));
  if (!IS_NIL(total) && !IS_INT(total))
    return vm_raise(vm, VM_ERR_TYPE, "progress(): total must be an int, not %s", vm_type_name(total));
  if (!IS_NIL(total) && AS_INT(total) < 0)
    return vm_raise(vm, VM_ERR_VALUE, "progress(): total must not be negative, got %lld", (long long)AS_INT(total));
  bool notebook = vm->host.display_in_place != NULL;
  if (!notebook && !isatty(STDERR_FILENO)) return args[0]; /* no terminal: the items alone */
  Value iterator = lib_make_iterator(vm, args[0]);
  if (IS_EXCEPTION(iterator)) return iterator;
  vm_push_root(vm, iterator);
  if (IS_NIL(total)) {
    int64_t n = known_length(vm, args[0]);
    if (n >= 0) total = INT_VAL(vm, n);
  }
  vm_push_root(vm, total);
  Value inst = OBJ_VAL(obj_new_instance(vm, vm->core.progress_class));
  vm_push_root(vm, inst);
  lib_set_field(vm, inst, FIELD_ITERATOR, iterator);
  lib_set_field(vm, inst, FIELD_DESC, desc);
  lib_set_field(vm, inst, FIELD_TOTAL, total);
  if (notebook) {
    static unsigned long bars; /* the notebook's display ids, one per bar */
    char id[48];
    snprintf(id, sizeof id, "ag-progress-%d-%lu", (int)getpid(), ++bars);
    lib_set_field(vm, inst, FIELD_DISPLAY_ID, OBJ_VAL(obj_string(vm, id)));
  }
  Bar b = {0, IS_NIL(total) ? -1 : (int64_t)AS_NUMBER(total), now_seconds(), 0, 0};
  draw(vm, inst, &b, b.start, false); /* 0% at once: the first item may take long */
  store_bar(vm, inst, &b);
  vm_pop_roots(vm, 3);
  return inst;
}

void lib_install_progress(AgVM *vm) {
  ObjClass *klass = obj_new_class(vm, obj_string(vm, "progress"));
  vm->core.progress_class = klass;
  vm_add_method(vm, &klass->methods, "iter", progress_iter, 0, 0, false);
  vm_add_method(vm, &klass->methods, "next", progress_next, 0, 0, false);
  vm_add_method(vm, &klass->methods, "len", progress_len, 0, 0, false);
  vm_define_native(vm, "progress", lib_progress, 1, 1, true);
}
