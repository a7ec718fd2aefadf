/* io_file.c — how every tensor file is read and written: whole into memory
 * (so every length can be checked against the bytes actually present before
 * anything is allocated from it), and out through a temporary file in the
 * target's folder that is fsync'd and renamed over the target, or removed on
 * any failure, so an interrupted write never leaves a half-written file. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensor/io_internal.h"

void io_error(const char *prefix, const char *where, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  tensor_set_error("%s %s: %s", prefix, where, msg);
}

/* ---- whole files in, atomic files out ---- */

/* Doubles the buffer; false (buffer untouched) if memory runs out. */
static bool grow_buffer(uint8_t **buf, size_t *cap) {
  uint8_t *grown = *cap <= SIZE_MAX / 2 ? realloc(*buf, *cap * 2) : NULL;
  if (!grown) return false;
  *buf = grown;
  *cap *= 2;
  return true;
}

bool read_whole_file(const char *path, uint8_t **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    READ_ERROR(path, "%s", strerror(errno));
    return false;
  }
  /* a regular file's size gives the buffer in one go; pipes grow it */
  struct stat st;
  size_t cap = 1 << 16, n = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < SIZE_MAX / 2)
    cap = (size_t)st.st_size + 1;
  uint8_t *buf = malloc(cap);
  const char *problem = buf ? NULL : "out of memory";
  while (!problem) {
    /* an endless device (/dev/zero) or pipe: stop on Ctrl-C, and at 4 GiB */
    if (tensor_interrupt_requested) {
      problem = "Interrupted";
      break;
    }
    if (n == cap && (uint64_t)n >= ((uint64_t)1 << 32) && !(fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))) {
      problem = "more than 4 GiB from a device or pipe";
      break;
    }
    if (n == cap && !grow_buffer(&buf, &cap)) problem = "out of memory";
    size_t got = problem ? 0 : fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0 && !problem) problem = ferror(f) ? strerror(errno) : NULL;
    if (got == 0) break;
  }
  fclose(f);
  if (problem) {
    READ_ERROR(path, "%s", problem);
    free(buf);
    return false;
  }
  *out = buf;
  *len = n;
  return true;
}

bool atomic_open(AtomicFile *af, const char *path) {
  af->path = path;
  af->fd = -1;
  af->tmp_path = af->target = NULL;
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    /* a device or FIFO (/dev/null, /dev/full, a pipe) is written in place, as
     * open() would: renaming a file over it would replace the device node */
    af->fd = open(path, O_WRONLY | O_TRUNC);
    if (af->fd < 0) {
      WRITE_ERROR(path, "%s", strerror(errno));
      return false;
    }
    return true;
  }
  struct stat lst;
  if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && (af->target = realpath(path, NULL)))
    path = af->target; /* replace the file the link names, not the link */
  size_t n = strlen(path);
  af->tmp_path = malloc(n + sizeof ".tmp.XXXXXX");
  if (!af->tmp_path) {
    WRITE_ERROR(path, "out of memory");
    return false;
  }
  memcpy(af->tmp_path, path, n);
  memcpy(af->tmp_path + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
  af->fd = mkstemp(af->tmp_path);
  if (af->fd < 0) {
    WRITE_ERROR(af->path, "cannot create a temporary file next to it: %s", strerror(errno));
    free(af->tmp_path);
    af->tmp_path = NULL;
    free(af->target);
    af->target = NULL;
    return false;
  }
  return true;
}

void atomic_abort(AtomicFile *af) {
  if (af->fd >= 0) close(af->fd);
  if (af->tmp_path) unlink(af->tmp_path);
  free(af->tmp_path);
  af->tmp_path = NULL;
  free(af->target);
  af->target = NULL;
  af->fd = -1;
}

bool atomic_write(AtomicFile *af, const void *data, size_t n) {
  const uint8_t *p = data;
  while (n > 0) {
    ssize_t w = write(af->fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      WRITE_ERROR(af->path, "%s", w < 0 ? strerror(errno) : "write failed");
      atomic_abort(af);
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

/* A new file gets mode 0644 (mkstemp makes 0600); a replaced one keeps its mode. */
static mode_t target_mode(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
  return 0644;
}

/* Makes the data durable, then puts it in place under the real name. */
bool atomic_commit(AtomicFile *af) {
  const char *step = NULL;
  if (!af->tmp_path) { /* written in place (a device or FIFO) */
    int rc = close(af->fd);
    af->fd = -1;
    if (rc == 0) return true;
    WRITE_ERROR(af->path, "close failed: %s", strerror(errno));
    return false;
  }
  const char *dest = af->target ? af->target : af->path;
  if (fchmod(af->fd, target_mode(dest)) != 0) step = "fchmod";
  else if (fsync(af->fd) != 0) step = "fsync";
  else if (close(af->fd) != 0) step = "close";
  if (!step) af->fd = -1; /* closed */
  if (!step && rename(af->tmp_path, dest) != 0) step = "rename";
  if (step) {
    WRITE_ERROR(af->path, "%s failed: %s", step, strerror(errno));
    atomic_abort(af);
    return false;
  }
  free(af->tmp_path);
  af->tmp_path = NULL;
  free(af->target);
  af->target = NULL;
  return true;
}
