/* io_internal.h — what the tensor file formats (io_npy.c, io_npz.c,
 * io_csv.c) share: error messages naming the file, little-endian fields,
 * whole-file reads and atomic writes (io_file.c). Not a public API. */
#ifndef AG_TENSOR_IO_INTERNAL_H
#define AG_TENSOR_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor/io.h"

/* Sets "PREFIX WHERE: MESSAGE" as the tensor error. */
void io_error(const char *prefix, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define READ_ERROR(where, ...) io_error("cannot read", where, __VA_ARGS__)
#define WRITE_ERROR(where, ...) io_error("cannot write", where, __VA_ARGS__)

/* ---- little-endian byte access ---- */

static inline bool host_is_little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

static inline uint64_t get_le(const uint8_t *p, int nbytes) {
  uint64_t v = 0;
  for (int i = nbytes - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static inline void put_le(uint8_t *p, uint64_t v, int nbytes) {
  for (int i = 0; i < nbytes; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline void reverse_bytes(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n / 2; i++) {
    uint8_t c = p[i];
    p[i] = p[n - 1 - i];
    p[n - 1 - i] = c;
  }
}

/* The whole file in a malloc'd buffer; false with the error set. Stops at
 * Ctrl-C, and at 4 GiB from a device or pipe. */
bool read_whole_file(const char *path, uint8_t **out, size_t *len);

/* A file written under a temporary name in the target's folder, fsync'd and
 * renamed over the target by atomic_commit, or removed by atomic_abort (which
 * every failing atomic_write and atomic_commit does itself). */
typedef struct {
  const char *path; /* the final name */
  char *tmp_path;   /* PATH.tmp.XXXXXX, removed unless committed; NULL: writing in place */
  char *target;     /* what a symlink PATH points to (renamed onto), or NULL */
  int fd;
} AtomicFile;

bool atomic_open(AtomicFile *af, const char *path);
bool atomic_write(AtomicFile *af, const void *data, size_t n);
bool atomic_commit(AtomicFile *af);
void atomic_abort(AtomicFile *af);

/* io_npy.c: the .npy magic, and a tensor as the bytes of a .npy file (NULL
 * with the error set), and back */
extern const char NPY_MAGIC[6];
uint8_t *npy_encode(const Tensor *t, size_t *len, const char *where);
Tensor *npy_decode(const uint8_t *buf, size_t len, const char *where);

#endif
