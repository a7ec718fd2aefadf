/* builtins_file.c — open(path, mode) and text files (SPEC §5).
 *
 * A file is an instance of the built-in class `file`. Reading ("r") takes
 * the whole file at open, so read(), readline(), readlines() and iteration
 * by lines work on one string; only a regular file of at most
 * AG_FILE_READ_MAX bytes can be opened, so a device, a directory or a huge
 * file is a clear error instead of a hang or an exhausted memory. Writing
 * ("w", or "a" which starts from the old contents) goes to a temporary file
 * beside path that close() renames over path, so an interrupted run never
 * leaves half a file: a file still open when the program ends is renamed
 * then if the program ended without an uncaught error, else removed
 * (lib_finish_files). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stdlib/builtins_internal.h"
#include "vm/internal.h"

#define AG_FILE_READ_MAX ((int64_t)64 << 20) /* 64 MiB */

static bool is_closed(AgVM *vm, Value f) { return AS_BOOL(lib_field(vm, f, "closed")); }

static const char *path_of(AgVM *vm, Value f) { return AS_CSTRING(lib_field(vm, f, "name")); }

static Value closed_error(AgVM *vm, Value f, const char *op) {
  return vm_raise(vm, VM_ERR_VALUE, "%s() on a closed file ('%s')", op, path_of(vm, f));
}

static bool is_writer(AgVM *vm, Value f) { return IS_NUMBER(lib_field(vm, f, " fd")); }

/* ---- reading ---- */

/* The whole file, or NULL after throwing: only a regular file up to the limit. */
static ObjString *read_whole(AgVM *vm, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    vm_raise(vm, VM_ERR_OS, "cannot open '%s': %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    vm_raise(vm, VM_ERR_OS, "cannot read '%s': not a regular file", path);
    return NULL;
  }
  if ((int64_t)st.st_size > AG_FILE_READ_MAX) {
    close(fd);
    vm_raise(vm, VM_ERR_OS, "cannot read '%s': %lld bytes is more than open() reads (64 MiB)", path,
                   (long long)st.st_size);
    return NULL;
  }
  size_t size = (size_t)st.st_size, got = 0;
  char *data = malloc(size + 1);
  ssize_t n = 1;
  while (data != NULL && got < size && (n = read(fd, data + got, size - got)) > 0) got += (size_t)n;
  close(fd);
  if (data == NULL || n < 0) {
    free(data);
    vm_raise(vm, VM_ERR_OS, "cannot read '%s': %s", path, data == NULL ? "out of memory" : strerror(errno));
    return NULL;
  }
  data[got] = '\0';
  return obj_take_string(vm, data, (int)got);
}

/* The rest from the read position up to and including the next newline
 * (all of it when whole), advancing the position; "" at the end. */
static Value take(AgVM *vm, Value f, const char *op, bool whole) {
  if (is_closed(vm, f)) return closed_error(vm, f, op);
  if (is_writer(vm, f)) return vm_raise(vm, VM_ERR_OS, "%s(): '%s' is open for writing", op, path_of(vm, f));
  ObjString *data = AS_STRING(lib_field(vm, f, " data"));
  int pos = (int)AS_NUMBER(lib_field(vm, f, " pos")), end = data->length;
  if (!whole) {
    const char *nl = memchr(data->chars + pos, '\n', (size_t)(data->length - pos));
    if (nl != NULL) end = (int)(nl - data->chars) + 1;
  }
  lib_set_field(vm, f, " pos", INT_VAL(vm, end));
  return OBJ_VAL(obj_copy_string(vm, data->chars + pos, end - pos));
}

LIB_NATIVE(file_read) { return take(vm, self, "read", true); }
LIB_NATIVE(file_readline) { return take(vm, self, "readline", false); }

LIB_NATIVE(file_readlines) {
  ObjList *lines = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(lines));
  for (;;) {
    Value line = take(vm, self, "readlines", false);
    if (IS_EXCEPTION(line) || AS_STRING(line)->length == 0) {
      vm_pop_root(vm);
      return IS_EXCEPTION(line) ? line : OBJ_VAL(lines);
    }
    obj_list_append(vm, lines, line);
  }
}

/* for line in f: the iteration protocol, a line at a time. */
LIB_NATIVE(file_iter) { return self; }

LIB_NATIVE(file_next) {
  Value line = take(vm, self, "next", false);
  if (IS_EXCEPTION(line) || AS_STRING(line)->length > 0) return line;
  return vm_throw(vm, OBJ_VAL(vm_new_error(vm, vm->core.stop_iteration_class, obj_string(vm, "end of file"))));
}

/* ---- writing ---- */

LIB_NATIVE(file_write) {
  if (is_closed(vm, self)) return closed_error(vm, self, "write");
  if (!is_writer(vm, self)) return vm_raise(vm, VM_ERR_OS, "write(): '%s' is open for reading", path_of(vm, self));
  ObjString *s;
  if (!lib_string_arg(vm, "write", args, 0, &s)) return VM_EXCEPTION;
  int fd = (int)AS_NUMBER(lib_field(vm, self, " fd"));
  size_t done = 0;
  while (done < (size_t)s->length) {
    ssize_t n = write(fd, s->chars + done, (size_t)s->length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return vm_raise(vm, VM_ERR_OS, "cannot write '%s': %s", path_of(vm, self), strerror(errno));
    done += (size_t)n;
  }
  return INT_VAL(vm, s->length);
}

LIB_NATIVE(file_flush) { return NIL_VAL; } /* write() hands the bytes to the system at once */

/* Ends a file: a writer's temporary file is renamed over its path (commit)
 * or removed. Returns false with errno set when the rename failed. */
static bool finish(AgVM *vm, Value f, bool commit) {
  bool ok = true;
  if (is_writer(vm, f)) {
    int fd = (int)AS_NUMBER(lib_field(vm, f, " fd"));
    const char *tmp = AS_CSTRING(lib_field(vm, f, " tmp"));
    ok = fsync(fd) == 0 || errno == EINVAL;
    ok = close(fd) == 0 && ok;
    if (commit && ok) ok = rename(tmp, path_of(vm, f)) == 0;
    if (!commit || !ok) {
      int saved = errno;
      unlink(tmp);
      errno = saved;
    }
  }
  lib_set_field(vm, f, "closed", TRUE_VAL);
  ObjList *open_files = vm->core.open_files;
  for (int i = 0; open_files != NULL && i < open_files->count; i++) {
    if (open_files->items[i] == f) {
      open_files->items[i] = open_files->items[--open_files->count];
      break;
    }
  }
  return ok;
}

LIB_NATIVE(file_close) {
  if (is_closed(vm, self)) return NIL_VAL;
  if (!finish(vm, self, true)) return vm_raise(vm, VM_ERR_OS, "cannot write '%s': %s", path_of(vm, self), strerror(errno));
  return NIL_VAL;
}

/* with open(...) as f { }: enter() gives the file, exit() closes it. */
LIB_NATIVE(file_enter) { return self; }

void lib_finish_files(AgVM *vm, bool commit) {
  while (vm->core.open_files != NULL && vm->core.open_files->count > 0) {
    finish(vm, vm->core.open_files->items[vm->core.open_files->count - 1], commit);
  }
}

/* ---- open ---- */

/* The process's umask, read without changing it (umask() sets it). */
static mode_t umask_value(void) {
  mode_t u = umask(022);
  umask(u);
  return u;
}

static int copy_old_contents(AgVM *vm, const char *path, bool append, int fd, ObjString *tmp);

/* A temporary file beside path (same directory, so rename is atomic),
 * holding the old contents when appending. Returns its fd, or -1 after
 * throwing; *tmp_out is the name. */
static int open_temporary(AgVM *vm, const char *path, bool append, ObjString **tmp_out) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  if (tmp == NULL) {
    vm_raise(vm, VM_ERR_MEMORY, "out of memory");
    return -1;
  }
  snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    vm_raise(vm, VM_ERR_OS, "cannot open '%s' for writing: %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  *tmp_out = obj_copy_string(vm, tmp, (int)strlen(tmp));
  free(tmp);
  vm_push_root(vm, OBJ_VAL(*tmp_out)); /* reading the old contents may collect */
  int result = copy_old_contents(vm, path, append, fd, *tmp_out);
  vm_pop_root(vm);
  return result;
}

/* The rest of open_temporary: the file's mode, and for "a" its contents. */
static int copy_old_contents(AgVM *vm, const char *path, bool append, int fd, ObjString *tmp) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) fchmod(fd, st.st_mode & 07777); /* keep its permissions */
  else fchmod(fd, 0666 & ~umask_value());
  if (!append || access(path, F_OK) != 0) return fd;
  ObjString *old = read_whole(vm, path);
  if (old == NULL || write(fd, old->chars, (size_t)old->length) != old->length) {
    close(fd);
    unlink(tmp->chars);
    if (old != NULL) vm_raise(vm, VM_ERR_OS, "cannot append to '%s': %s", path, strerror(errno));
    return -1;
  }
  return fd;
}

HELP("open", HELP_BUILTINS, 0,
     "open(path, mode=\"r\")",
     "A text file. \"r\" reads: read(), readline(), readlines(), and `for line in f`; only "
     "a regular file of at most 64 MiB. \"w\" writes and \"a\" appends: write(s), and "
     "print(..., file=f); the text goes to a temporary file beside path that close() "
     "renames over it, so an interrupted run never leaves half a file (a file left open "
     "is renamed when the program ends without an uncaught error, else dropped). Use "
     "`with open(path, \"w\") as f { }` to close it on every way out.",
     "with open(\"/tmp/ag_help_open.txt\", \"w\") as f { f.write(\"a\\nb\\n\") }\n"
     "for line in open(\"/tmp/ag_help_open.txt\") { print(line.strip()) }")

LIB_NATIVE(lib_open) {
  ObjString *path, *mode = NULL;
  if (!lib_string_arg(vm, "open", args, 0, &path)) return VM_EXCEPTION;
  if (argc > 1 && !lib_string_arg(vm, "open", args, 1, &mode)) return VM_EXCEPTION;
  const char *m = mode ? mode->chars : "r";
  bool reading = strcmp(m, "r") == 0, writing = strcmp(m, "w") == 0, appending = strcmp(m, "a") == 0;
  if (!reading && !writing && !appending) {
    return vm_raise(vm, VM_ERR_VALUE, "open() mode must be \"r\", \"w\" or \"a\" (text files), not \"%s\"", m);
  }
  ObjInstance *f = obj_new_instance(vm, vm->core.file_class);
  Value fv = OBJ_VAL(f);
  vm_push_root(vm, fv);
  lib_set_field(vm, fv, "name", OBJ_VAL(path));
  lib_set_field(vm, fv, "mode", OBJ_VAL(obj_string(vm, m)));
  lib_set_field(vm, fv, "closed", FALSE_VAL);
  Value result = fv;
  if (reading) {
    ObjString *data = read_whole(vm, path->chars);
    if (data == NULL) result = VM_EXCEPTION;
    else lib_set_field(vm, fv, " data", OBJ_VAL(data)), lib_set_field(vm, fv, " pos", INT_VAL(vm, 0));
  } else {
    ObjString *tmp = NULL;
    int fd = open_temporary(vm, path->chars, appending, &tmp);
    if (fd < 0) {
      result = VM_EXCEPTION;
    } else {
      lib_set_field(vm, fv, " tmp", OBJ_VAL(tmp));
      lib_set_field(vm, fv, " fd", INT_VAL(vm, fd));
      obj_list_append(vm, vm->core.open_files, fv);
    }
  }
  vm_pop_root(vm);
  return result;
}

bool lib_is_file(AgVM *vm, Value v) { return IS_INSTANCE(v) && AS_INSTANCE(v)->klass == vm->core.file_class; }

Value lib_file_write(AgVM *vm, Value f, Value s) { return file_write(vm, f, 1, &s, NULL); }

void lib_install_files(AgVM *vm) {
  ObjClass *k = obj_new_class(vm, obj_string(vm, "file"));
  vm->core.file_class = k;
  vm->core.open_files = obj_new_list(vm);
  vm_add_method(vm, &k->methods, "read", file_read, 0, 0, false);
  vm_add_method(vm, &k->methods, "readline", file_readline, 0, 0, false);
  vm_add_method(vm, &k->methods, "readlines", file_readlines, 0, 0, false);
  vm_add_method(vm, &k->methods, "write", file_write, 1, 1, false);
  vm_add_method(vm, &k->methods, "flush", file_flush, 0, 0, false);
  vm_add_method(vm, &k->methods, "close", file_close, 0, 0, false);
  vm_add_method(vm, &k->methods, "enter", file_enter, 0, 0, false);
  vm_add_method(vm, &k->methods, "exit", file_close, 0, 0, false);
  vm_add_method(vm, &k->methods, "iter", file_iter, 0, 0, false);
  vm_add_method(vm, &k->methods, "next", file_next, 0, 0, false);
  vm_define_native(vm, "open", lib_open, 1, 2, false);
}
