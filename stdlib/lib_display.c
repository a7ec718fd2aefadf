/* lib_display.c — rich output: display(v), and gnuplot for the plot module
 * (stdlib/plot.ag).
 *
 * In a notebook (vm->host.display set by the kernel) display() sends a MIME
 * bundle: the value's repr as text/plain, and image/svg+xml and image/png
 * when the value is an instance whose class has `_repr_svg_` and
 * `_repr_png_` (IPython's names; plot figures have both: a notebook that is
 * not trusted hides SVG, PNG always shows). On a terminal it prints the
 * repr, as IPython's display does.
 *
 * gnuplot runs as a child process with the script on stdin (a temporary
 * file, so no pipe can fill up) and its output in a temporary file; it is
 * optional at run time, like Graphviz: a clear error when it is missing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stdlib/lib.h"
#include "stdlib/lib_internal.h"
#include "stdlib/program.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

bool lib_display_bundle(AgVM *vm, int count, const char *const *types, const char *const *data,
                        const size_t *lengths) {
  if (vm->host.display == NULL) return false;
  fflush(stdout);
  vm->host.display(vm, count, types, data, lengths);
  return true;
}

/* v.METHOD() (_repr_svg_, _repr_png_) when v's class has it: a string,
 * nil, or VM_EXCEPTION. */
static Value picture_of(AgVM *vm, Value v, const char *method) {
  Value found;
  if (!IS_INSTANCE(v)) return NIL_VAL;
  ObjString *name = obj_string(vm, method);
  if (!table_get(&AS_INSTANCE(v)->klass->methods, OBJ_VAL(name), &found)) return NIL_VAL;
  Value picture = vm_invoke(vm, v, name, 0, NULL, NULL);
  if (IS_EXCEPTION(picture) || IS_NIL(picture) || IS_STRING(picture)) return picture;
  return vm_raise(vm, VM_ERR_TYPE, "%s() must return a string, not %s", method, vm_type_name(picture));
}

Value lib_rich_bundle(AgVM *vm, Value v, ObjString *repr, LibBundleSink send, void *ctx) {
  static const char *const methods[] = {"_repr_svg_", "_repr_png_"};
  static const char *const mimes[] = {"image/svg+xml", "image/png"};
  const char *types[3] = {"text/plain"};
  const char *data[3] = {repr->chars};
  size_t lengths[3] = {(size_t)repr->length};
  int count = 1;
  vm_push_root(vm, OBJ_VAL(repr));
  for (int i = 0; i < 2; i++) {
    Value picture = picture_of(vm, v, methods[i]);
    if (IS_EXCEPTION(picture)) {
      vm_pop_roots(vm, count);
      return picture;
    }
    if (!IS_STRING(picture)) continue;
    vm_push_root(vm, picture);
    types[count] = mimes[i];
    data[count] = AS_CSTRING(picture);
    lengths[count++] = (size_t)AS_STRING(picture)->length;
  }
  send(vm, ctx, count, types, data, lengths);
  vm_pop_roots(vm, count);
  return NIL_VAL;
}

static void send_to_display(AgVM *vm, void *ctx, int count, const char *const *types,
                            const char *const *data, const size_t *lengths) {
  (void)ctx;
  lib_display_bundle(vm, count, types, data, lengths);
}

static Value display_one(AgVM *vm, Value v) {
  Value repr = vm_to_repr(vm, v);
  if (IS_EXCEPTION(repr)) return repr;
  if (vm->host.display != NULL) return lib_rich_bundle(vm, v, AS_STRING(repr), send_to_display, NULL);
  fwrite(AS_CSTRING(repr), 1, (size_t)AS_STRING(repr)->length, stdout);
  fputc('\n', stdout);
  return NIL_VAL;
}

HELP("display", HELP_GRAPH, 0,
     "display(...vs)",
     "Shows each value: in a notebook as output of the cell (its repr, and a picture for "
     "values that have one, such as plot figures: a class draws one with _repr_svg_() "
     "returning SVG text and _repr_png_() returning PNG bytes), on a terminal its repr on "
     "a line.",
     "display(tensor([1.5, 2.5]), \"text\")")

static Value native_display(NATIVE_ARGS) {
  for (int i = 0; i < argc; i++) {
    if (IS_EXCEPTION(display_one(vm, args[i]))) return VM_EXCEPTION;
  }
  return NIL_VAL;
}

/* ---- gnuplot ---- */

static int run_gnuplot(const char *exe, int in_fd, int out_fd, int err_fd) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    char *const argv[] = {"gnuplot", NULL};
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) _exit(126);
    execv(exe, argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

static Value gnuplot_failed(AgVM *vm, int status, FILE *err) {
  size_t n = 0;
  char *text = program_read_back(err, &n);
  char *line = text;
  /* gnuplot echoes the failing line and a caret before its message */
  for (char *p = text; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
    if (strncmp(p, "\"-\" line", 8) == 0 || strstr(p, "line ") == p) line = p;
  }
  Value r;
  if (status < 0) r = vm_throw_error(vm, "plot: cannot run gnuplot: %s", strerror(errno));
  else if (text && text[0]) r = vm_throw_error(vm, "plot: gnuplot failed: %.*s", (int)strcspn(line, "\n"), line);
  else r = vm_throw_error(vm, "plot: gnuplot failed (status %d)", status);
  free(text);
  return r;
}

/* _gnuplot(script): what gnuplot writes to stdout for `script` (a string,
 * binary for PNG); an error when it writes nothing. */
static Value native_gnuplot(NATIVE_ARGS) {
  if (!IS_STRING(args[0])) return vm_raise(vm, VM_ERR_TYPE, "_gnuplot(): the script must be a string");
  if (vm->host.draws_sources) /* the web page: no process can be started there */
    return vm_throw_error(vm, "plot: SVG and PNG files of a plot (plot.save, fig.svg(), fig.png()) "
                              "are not available in the browser (no gnuplot there); plot.show() "
                              "draws the plot in the page");
  char *exe = program_find("gnuplot");
  if (exe == NULL)
    return vm_throw_error(vm, "plot: gnuplot was not found; install gnuplot (Debian: gnuplot-nox) to draw plots");
  FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
  Value result = NIL_VAL;
  if (!in || !out || !err) {
    result = vm_throw_error(vm, "plot: cannot create a temporary file: %s", strerror(errno));
  } else {
    fwrite(AS_CSTRING(args[0]), 1, (size_t)AS_STRING(args[0])->length, in);
    fflush(in);
    rewind(in);
    fflush(stdout);
    int status = run_gnuplot(exe, fileno(in), fileno(out), fileno(err));
    size_t n = 0;
    char *data = status == 0 ? program_read_back(out, &n) : NULL;
    if (data != NULL && n > 0 && n < INT32_MAX) result = OBJ_VAL(obj_copy_string(vm, data, (int)n));
    else result = gnuplot_failed(vm, status, err);
    free(data);
  }
  if (in) fclose(in);
  if (out) fclose(out);
  if (err) fclose(err);
  free(exe);
  return result;
}

/* _write_file(path, text): text into path through a temporary file renamed
 * into place, so a failed write leaves no half file. */
static Value native_write_file(NATIVE_ARGS) {
  if (!IS_STRING(args[0]) || !IS_STRING(args[1]))
    return vm_raise(vm, VM_ERR_TYPE, "_write_file(): path and text must be strings");
  const char *path = AS_CSTRING(args[0]);
  char *tmp = NULL;
  if (asprintf(&tmp, "%s.tmpXXXXXX", path) < 0) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  int fd = mkstemp(tmp);
  bool ok = fd >= 0;
  if (ok) {
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* mkstemp makes it private; a saved plot is an ordinary file */
    size_t n = (size_t)AS_STRING(args[1])->length, done = 0;
    const char *data = AS_CSTRING(args[1]);
    while (ok && done < n) {
      ssize_t w = write(fd, data + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      ok = w > 0;
      if (ok) done += (size_t)w;
    }
    ok = close(fd) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
  }
  int e = errno;
  free(tmp);
  if (!ok) return vm_raise(vm, VM_ERR_OS, "cannot write %s: %s", path, strerror(e));
  return NIL_VAL;
}

/* _temp_path(suffix): a new empty file in $TMPDIR (or /tmp), its path. */
static Value native_temp_path(NATIVE_ARGS) {
  if (!IS_STRING(args[0])) return vm_raise(vm, VM_ERR_TYPE, "_temp_path(): the suffix must be a string");
  const char *dir = getenv("TMPDIR");
  char *path = NULL;
  if (asprintf(&path, "%s/ag-plot-XXXXXX%s", dir && *dir ? dir : "/tmp", AS_CSTRING(args[0])) < 0)
    return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  int fd = mkstemps(path, AS_STRING(args[0])->length);
  if (fd < 0) {
    int e = errno;
    free(path);
    return vm_throw_error(vm, "cannot create a file for the plot: %s", strerror(e));
  }
  close(fd);
  Value s = OBJ_VAL(obj_string(vm, path));
  free(path);
  return s;
}

/* _notebook(): whether pictures can be shown inline (a notebook). */
static Value native_notebook(NATIVE_ARGS) {
  return BOOL_VAL(vm->host.display != NULL);
}

/* _display_image(svg, png): shows the picture in the notebook; false on a
 * terminal. */
static Value native_display_image(NATIVE_ARGS) {
  if (!IS_STRING(args[0]) || !IS_STRING(args[1]))
    return vm_raise(vm, VM_ERR_TYPE, "_display_image(): the images must be strings");
  const char *types[3] = {"image/svg+xml", "image/png", "text/plain"};
  const char *data[3] = {AS_CSTRING(args[0]), AS_CSTRING(args[1]), "<plot>"};
  size_t lengths[3] = {(size_t)AS_STRING(args[0])->length, (size_t)AS_STRING(args[1])->length, 6};
  return BOOL_VAL(lib_display_bundle(vm, 3, types, data, lengths));
}

/* _display_figure(json, text): hands the figure's data to a host that draws
 * plots itself (the web page); false, and nothing shown, elsewhere. */
static Value native_display_figure(NATIVE_ARGS) {
  if (!IS_STRING(args[0]) || !IS_STRING(args[1]))
    return vm_raise(vm, VM_ERR_TYPE, "_display_figure(): the figure's data and text must be strings");
  if (!vm->host.draws_sources) return FALSE_VAL;
  const char *types[2] = {"application/vnd.ag.plot+json", "text/plain"};
  const char *data[2] = {AS_CSTRING(args[0]), AS_CSTRING(args[1])};
  size_t lengths[2] = {(size_t)AS_STRING(args[0])->length, (size_t)AS_STRING(args[1])->length};
  return BOOL_VAL(lib_display_bundle(vm, 2, types, data, lengths));
}

void lib_install_display(AgVM *vm) {
  vm_define_native(vm, "display", native_display, 0, -1, false);
}

void lib_install_plot_module(AgVM *vm, ObjModule *module) {
  static const struct {
    const char *name;
    AgNativeFn fn;
    int min, max;
  } natives[] = {
      {"_gnuplot", native_gnuplot, 1, 1},
      {"_write_file", native_write_file, 2, 2},
      {"_temp_path", native_temp_path, 1, 1},
      {"_notebook", native_notebook, 0, 0},
      {"_display_image", native_display_image, 2, 2},
      {"_display_figure", native_display_figure, 2, 2},
  };
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++) {
    ObjNative *n = obj_new_native(vm, natives[i].name, natives[i].fn, natives[i].min, natives[i].max,
                                  false);
    vm_push_root(vm, OBJ_VAL(n));
    lib_module_define(vm, module, natives[i].name, OBJ_VAL(n));
    vm_pop_root(vm);
  }
}
