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

/* ---- zip archives (io_npz.c; need zlib, AG_HAVE_ZLIB): .npz and .pt ---- */

typedef struct {
  char *name;
  uint16_t method;
  uint32_t crc, size, comp_size, offset;
} ZipMember;

/* Writes an archive member by member (stored, or deflated when asked) to a
 * temporary file renamed into place by zip_writer_close. */
typedef struct {
  AtomicFile af;
  ZipMember *ms; /* room for max_members */
  int n;
  uint64_t offset;
  uint16_t tm, dt;
} ZipWriter;

bool zip_writer_open(ZipWriter *w, const char *path, int max_members);
bool zip_add_member(ZipWriter *w, const char *name, const uint8_t *bytes, size_t len,
                    bool compressed);
bool zip_writer_close(ZipWriter *w, bool ok);

typedef struct {
  const uint8_t *buf;
  size_t len;
  const char *path;
} ZipArchive;

typedef struct {
  uint64_t entries, cd_offset, cd_size;
} ZipDirectory;

/* One central-directory entry, with zip64 extra fields applied. */
typedef struct {
  uint16_t flags, method;
  uint32_t crc;
  uint64_t comp_size, size, local_offset;
  const char *name;
  size_t name_len;
} ZipEntry;

bool zip_read_directory(const ZipArchive *z, ZipDirectory *d, size_t *end_pos);
/* every entry of the directory, malloc'd; NULL with the error set */
ZipEntry *zip_read_entries(const ZipArchive *z, const ZipDirectory *d);
/* before reading members: sizes add up to at most 4 GiB, no shared member data */
bool zip_check_entries(const ZipArchive *z, ZipEntry *es, int n);
/* the member's uncompressed, CRC-checked bytes: into the archive, or in *owned */
const uint8_t *zip_member_bytes(const ZipArchive *z, const ZipEntry *e, const char *where,
                                uint8_t **owned);

#endif
