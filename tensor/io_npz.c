/* io_npz.c — NumPy .npz files: a zip archive of NAME.npy members.
 *
 * Written stored (uncompressed), as numpy.savez writes it, or deflated, as
 * numpy.savez_compressed does, without zip64 (so at most 4 GiB). Read stored or deflated (numpy.savez_compressed), with zlib
 * doing inflate and CRC-32. The reader trusts the central directory (numpy's
 * local headers may carry zip64 placeholders) and checks, before inflating
 * anything, that no two entries share member data (each member is read at
 * most once: an archive of many entries pointing at one big member would
 * otherwise multiply it) and that the members' uncompressed sizes add up to
 * at most NPZ_MAX_TOTAL; then every member's CRC-32. Inflate runs a megabyte
 * at a time and stops at Ctrl-C. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensor/io_internal.h"

/* The zip records (PKWARE APPNOTE 4.3) */
enum {
  ZIP_LOCAL_SIG = 0x04034b50,
  ZIP_CENTRAL_SIG = 0x02014b50,
  ZIP_END_SIG = 0x06054b50,
  ZIP64_END_SIG = 0x06064b50,
  ZIP64_LOCATOR_SIG = 0x07064b50,
  ZIP_LOCAL_SIZE = 30,
  ZIP_CENTRAL_SIZE = 46,
  ZIP_END_SIZE = 22,
  ZIP_STORED = 0,
  ZIP_DEFLATED = 8,
  ZIP_VERSION = 20,        /* 2.0: what Python's zipfile writes for stored members */
  ZIP_MADE_BY_UNIX = 0x0314 /* unix, version 2.0 */
};

#ifdef AG_HAVE_ZLIB /* a build without zlib (see the Makefile) refuses .npz below */
#include <zlib.h>

/* The most uncompressed data one .npz may hold, all members together: the
 * 4 GiB save() can write (docs/reference.md, load). */
#define NPZ_MAX_TOTAL ((uint64_t)4 << 30)

/* zlib's lengths are unsigned ints: big buffers go through in steps */
enum { ZLIB_STEP = 1 << 30, INFLATE_STEP = 1 << 20 };

static uint64_t crc32_of(const uint8_t *p, size_t n) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (n > 0) {
    uInt step = n > ZLIB_STEP ? ZLIB_STEP : (uInt)n;
    crc = crc32(crc, p, step);
    p += step;
    n -= step;
  }
  return crc;
}

/* ---- .npz writing ---- */


#define ZIP_MAX32 0xFFFFFFFFu

static void dos_time(uint16_t *time_out, uint16_t *date_out) {
  time_t now = time(NULL);
  struct tm tm;
  if (!localtime_r(&now, &tm) || tm.tm_year < 80) {
    *time_out = 0;
    *date_out = (1 << 5) | 1; /* 1980-01-01 */
    return;
  }
  *time_out = (uint16_t)((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
  *date_out = (uint16_t)(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
}

/* The fields local and central headers share, from "version needed" on. */
static void put_common_fields(uint8_t *p, const ZipMember *m, uint16_t tm, uint16_t dt) {
  put_le(p, ZIP_VERSION, 2);
  put_le(p + 2, 0, 2); /* flags */
  put_le(p + 4, m->method, 2);
  put_le(p + 6, tm, 2);
  put_le(p + 8, dt, 2);
  put_le(p + 10, m->crc, 4);
  put_le(p + 14, m->comp_size, 4);
  put_le(p + 18, m->size, 4); /* uncompressed */
  put_le(p + 22, strlen(m->name), 2);
  put_le(p + 24, 0, 2); /* extra field length */
}

static bool zip_write_member(AtomicFile *af, ZipMember *m, const uint8_t *data, uint16_t tm,
                             uint16_t dt) {
  uint8_t hdr[ZIP_LOCAL_SIZE];
  put_le(hdr, ZIP_LOCAL_SIG, 4);
  put_common_fields(hdr + 4, m, tm, dt);
  return atomic_write(af, hdr, sizeof hdr) && atomic_write(af, m->name, strlen(m->name)) &&
         atomic_write(af, data, m->comp_size);
}

static bool zip_write_directory(AtomicFile *af, const ZipMember *ms, int n, uint32_t cd_offset,
                                uint16_t tm, uint16_t dt) {
  uint32_t cd_size = 0;
  for (int i = 0; i < n; i++) {
    uint8_t hdr[ZIP_CENTRAL_SIZE] = {0};
    put_le(hdr, ZIP_CENTRAL_SIG, 4);
    put_le(hdr + 4, ZIP_MADE_BY_UNIX, 2);
    put_common_fields(hdr + 6, &ms[i], tm, dt);
    put_le(hdr + 38, (uint32_t)0100644 << 16, 4); /* external attributes: a 0644 file */
    put_le(hdr + 42, ms[i].offset, 4);
    size_t name_len = strlen(ms[i].name);
    if (!atomic_write(af, hdr, sizeof hdr) || !atomic_write(af, ms[i].name, name_len))
      return false;
    cd_size += (uint32_t)(sizeof hdr + name_len);
  }
  uint8_t end[ZIP_END_SIZE] = {0};
  put_le(end, ZIP_END_SIG, 4);
  put_le(end + 8, (uint64_t)n, 2);
  put_le(end + 10, (uint64_t)n, 2);
  put_le(end + 12, cd_size, 4);
  put_le(end + 16, cd_offset, 4);
  return atomic_write(af, end, sizeof end);
}

/* Member names: "NAME.npy", distinct and short enough for a zip entry. */
static bool npz_member_names(const char *path, const char *const *names, int n, char **out) {
  for (int i = 0; i < n; i++) {
    size_t len = strlen(names[i]);
    if (len > 0xFFFF - 4) {
      WRITE_ERROR(path, "the name '%.40s...' is too long", names[i]);
      return false;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(names[i], names[j]) == 0) {
        WRITE_ERROR(path, "the name '%s' appears twice", names[i]);
        return false;
      }
    out[i] = malloc(len + 5);
    if (!out[i]) {
      WRITE_ERROR(path, "out of memory");
      return false;
    }
    memcpy(out[i], names[i], len);
    memcpy(out[i] + len, ".npy", 5);
  }
  return true;
}

/* Raw DEFLATE of n bytes at zlib's default level (what numpy.savez_compressed
 * gets from Python's zipfile), a megabyte at a time, polling Ctrl-C; a
 * malloc'd buffer, or NULL with the error set. */
static uint8_t *deflate_all(const uint8_t *in, size_t n, size_t *out_len, const char *where) {
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    WRITE_ERROR(where, "out of memory");
    return NULL;
  }
  size_t cap = (size_t)deflateBound(&zs, (uLong)n);
  uint8_t *out = malloc(cap);
  size_t in_pos = 0;
  int rc = out ? Z_OK : Z_MEM_ERROR;
  zs.next_out = out;
  while (rc == Z_OK && !tensor_interrupt_requested) {
    if (zs.avail_in == 0 && in_pos < n) {
      size_t step = n - in_pos > INFLATE_STEP ? INFLATE_STEP : n - in_pos;
      zs.next_in = (Bytef *)(in + in_pos);
      zs.avail_in = (uInt)step;
      in_pos += step;
    }
    if (zs.avail_out == 0) { /* deflateBound's room suffices: this runs out only past 4 GiB steps */
      size_t room = cap - (size_t)(zs.next_out - out);
      zs.avail_out = (uInt)(room > ZLIB_STEP ? ZLIB_STEP : room);
    }
    rc = deflate(&zs, in_pos == n ? Z_FINISH : Z_NO_FLUSH);
  }
  *out_len = out ? (size_t)(zs.next_out - out) : 0;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    if (tensor_interrupt_requested) tensor_set_error("Interrupted");
    else WRITE_ERROR(where, rc == Z_MEM_ERROR ? "out of memory" : "compression failed");
    free(out);
    return NULL;
  }
  return out;
}

/* Appends one member of len bytes, deflated when compressed (and it fits in
 * zlib's reach) or else stored, checking the archive stays within the 4 GiB
 * that a zip without zip64 records can address; aborts the file on failure. */
bool zip_add_member(ZipWriter *w, const char *name, const uint8_t *bytes, size_t len,
                    bool compressed) {
  ZipMember *m = &w->ms[w->n];
  size_t packed_len = 0;
  uint8_t *packed = NULL;
  if (compressed && len < ZIP_MAX32) {
    packed = deflate_all(bytes, len, &packed_len, w->af.path);
    if (!packed) {
      atomic_abort(&w->af);
      return false;
    }
  }
  uint64_t end = w->offset + ZIP_LOCAL_SIZE + strlen(name) + (packed ? packed_len : len);
  if (end >= ZIP_MAX32 || len >= ZIP_MAX32) {
    WRITE_ERROR(w->af.path, "the archive would exceed 4 GiB, which zip writing without zip64 does not support");
    free(packed);
    atomic_abort(&w->af);
    return false;
  }
  m->name = strdup(name);
  if (!m->name) {
    WRITE_ERROR(w->af.path, "out of memory");
    free(packed);
    atomic_abort(&w->af);
    return false;
  }
  w->n++;
  m->method = packed ? ZIP_DEFLATED : ZIP_STORED;
  m->crc = (uint32_t)crc32_of(bytes, len);
  m->size = (uint32_t)len;
  m->comp_size = (uint32_t)(packed ? packed_len : len);
  m->offset = (uint32_t)w->offset;
  bool ok = zip_write_member(&w->af, m, packed ? packed : bytes, w->tm, w->dt);
  free(packed);
  w->offset = end;
  return ok;
}

bool zip_writer_open(ZipWriter *w, const char *path, int max_members) {
  memset(w, 0, sizeof *w);
  w->ms = calloc((size_t)max_members + 1, sizeof *w->ms);
  if (!w->ms) {
    WRITE_ERROR(path, "out of memory");
    return false;
  }
  dos_time(&w->tm, &w->dt);
  if (!atomic_open(&w->af, path)) {
    free(w->ms);
    w->ms = NULL;
    return false;
  }
  return true;
}

/* Writes the central directory and renames the file into place; ok false:
 * the file was already aborted. Frees the writer either way. */
bool zip_writer_close(ZipWriter *w, bool ok) {
  /* the directory itself must also start and end below 4 GiB */
  if (ok && w->offset + (uint64_t)w->n * (ZIP_CENTRAL_SIZE + 0xFFFF) >= ZIP_MAX32) {
    WRITE_ERROR(w->af.path, "the archive would exceed 4 GiB, which zip writing without zip64 does not support");
    atomic_abort(&w->af);
    ok = false;
  }
  ok = ok && zip_write_directory(&w->af, w->ms, w->n, (uint32_t)w->offset, w->tm, w->dt) &&
       atomic_commit(&w->af);
  for (int i = 0; i < w->n; i++) free(w->ms[i].name);
  free(w->ms);
  w->ms = NULL;
  return ok;
}

static bool npz_add(ZipWriter *w, const char *name, const Tensor *t, bool compressed) {
  size_t len;
  uint8_t *bytes = npy_encode(t, &len, w->af.path);
  if (!bytes) {
    atomic_abort(&w->af);
    return false;
  }
  bool ok = zip_add_member(w, name, bytes, len, compressed);
  free(bytes);
  return ok;
}

bool tensor_save_npz(const char *path, const char *const *names, Tensor *const *ts, int n,
                     bool compressed) {
  if (n < 0 || n >= 0xFFFF) {
    WRITE_ERROR(path, "an .npz file holds at most 65534 arrays, not %d", n);
    return false;
  }
  char **member_names = calloc((size_t)n + 1, sizeof *member_names);
  if (!member_names) {
    WRITE_ERROR(path, "out of memory");
    return false;
  }
  ZipWriter w;
  bool ok = npz_member_names(path, names, n, member_names) && zip_writer_open(&w, path, n);
  if (ok) {
    for (int i = 0; ok && i < n; i++) ok = npz_add(&w, member_names[i], ts[i], compressed);
    ok = zip_writer_close(&w, ok);
  }
  for (int i = 0; i < n; i++) free(member_names[i]);
  free(member_names);
  return ok;
}

/* ---- inflate, for numpy.savez_compressed members ---- */

/* Inflates a raw DEFLATE stream that must produce exactly `size` bytes, a
 * megabyte at a time, polling Ctrl-C in between. Returns a malloc'd buffer,
 * or NULL with the error set ("Interrupted" for Ctrl-C). */
static uint8_t *inflate_member(const uint8_t *in, size_t in_len, size_t size, const char *where) {
  /* DEFLATE cannot expand more than 1032:1; a larger claim is corrupt, and
   * refusing it keeps a tiny file from making us allocate gigabytes. */
  if (size / 1032 > in_len + 1) {
    READ_ERROR(where, "corrupt zip: impossible uncompressed size %zu", size);
    return NULL;
  }
  /* one byte more than announced, to notice a stream that runs on */
  uint8_t *out = size < SIZE_MAX ? malloc(size + 1) : NULL;
  z_stream zs;
  memset(&zs, 0, sizeof zs);
  if (!out || inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
    READ_ERROR(where, "out of memory");
    free(out);
    return NULL;
  }
  const char *problem = NULL;
  size_t in_pos = 0, out_pos = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END && !problem) {
    if (tensor_interrupt_requested) break;
    if (zs.avail_in == 0) {
      size_t n = in_len - in_pos > ZLIB_STEP ? ZLIB_STEP : in_len - in_pos;
      zs.next_in = (Bytef *)(in + in_pos);
      zs.avail_in = (uInt)n;
      in_pos += n;
    }
    size_t room = size + 1 - out_pos;
    zs.next_out = out + out_pos;
    zs.avail_out = (uInt)(room > INFLATE_STEP ? INFLATE_STEP : room);
    rc = inflate(&zs, Z_NO_FLUSH);
    out_pos = (size_t)(zs.next_out - out);
    if (out_pos > size) problem = "more data than the member's size";
    else if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_pos == in_len)
      problem = "the compressed data ends early";
    else if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
      problem = rc == Z_MEM_ERROR ? "out of memory" : zs.msg ? zs.msg : "invalid data";
  }
  inflateEnd(&zs);
  if (!problem && rc == Z_STREAM_END && out_pos != size) problem = "less data than the member's size";
  if (problem || rc != Z_STREAM_END) {
    if (problem) READ_ERROR(where, "corrupt compressed member: %s", problem);
    else tensor_set_error("Interrupted");
    free(out);
    return NULL;
  }
  return out;
}

/* ---- .npz reading ---- */

/* The end-of-central-directory record: the last signature that fits, found by
 * scanning back over a possible archive comment (at most 65535 bytes). */
static bool zip_find_end(const ZipArchive *z, size_t *pos) {
  if (z->len < ZIP_END_SIZE) return false;
  size_t lowest = z->len > ZIP_END_SIZE + 0xFFFF ? z->len - ZIP_END_SIZE - 0xFFFF : 0;
  for (size_t p = z->len - ZIP_END_SIZE + 1; p-- > lowest;) {
    if (get_le(z->buf + p, 4) == ZIP_END_SIG &&
        p + ZIP_END_SIZE + get_le(z->buf + p + 20, 2) <= z->len) {
      *pos = p;
      return true;
    }
  }
  return false;
}

/* Replaces the 16/32-bit directory figures by the zip64 record's, when the
 * classic record says "see zip64" (0xFFFF / 0xFFFFFFFF). */
static bool zip_read_zip64_end(const ZipArchive *z, size_t end_pos, ZipDirectory *d) {
  if (end_pos < 20 || get_le(z->buf + end_pos - 20, 4) != ZIP64_LOCATOR_SIG) {
    READ_ERROR(z->path, "corrupt zip: a zip64 size is announced but no zip64 record found");
    return false;
  }
  uint64_t rec = get_le(z->buf + end_pos - 20 + 8, 8);
  if (rec > end_pos - 20 || end_pos - 20 - rec < 56 || get_le(z->buf + rec, 4) != ZIP64_END_SIG) {
    READ_ERROR(z->path, "corrupt zip: bad zip64 end record");
    return false;
  }
  d->entries = get_le(z->buf + rec + 32, 8);
  d->cd_size = get_le(z->buf + rec + 40, 8);
  d->cd_offset = get_le(z->buf + rec + 48, 8);
  return true;
}

bool zip_read_directory(const ZipArchive *z, ZipDirectory *d, size_t *end_pos) {
  if (!zip_find_end(z, end_pos)) {
    READ_ERROR(z->path, "no zip end-of-directory record (a truncated file, or not a zip archive)");
    return false;
  }
  const uint8_t *e = z->buf + *end_pos;
  if (get_le(e + 4, 2) != 0 || get_le(e + 6, 2) != 0) {
    READ_ERROR(z->path, "multi-disk zip archives are not supported");
    return false;
  }
  d->entries = get_le(e + 10, 2);
  d->cd_size = get_le(e + 12, 4);
  d->cd_offset = get_le(e + 16, 4);
  if ((d->entries == 0xFFFF || d->cd_size == ZIP_MAX32 || d->cd_offset == ZIP_MAX32) &&
      !zip_read_zip64_end(z, *end_pos, d))
    return false;
  if (d->cd_offset > *end_pos || d->cd_size > *end_pos - d->cd_offset ||
      d->entries > d->cd_size / ZIP_CENTRAL_SIZE || d->entries >= INT32_MAX) {
    READ_ERROR(z->path, "corrupt zip: the central directory lies outside the file");
    return false;
  }
  return true;
}

static bool zip_apply_zip64_extra(const uint8_t *extra, size_t len, ZipEntry *e) {
  while (len >= 4) {
    uint16_t id = (uint16_t)get_le(extra, 2);
    size_t size = get_le(extra + 2, 2);
    if (size > len - 4) return false;
    if (id == 0x0001) {
      const uint8_t *p = extra + 4, *end = p + size;
      uint64_t *fields[3] = {&e->size, &e->comp_size, &e->local_offset};
      for (int i = 0; i < 3; i++) {
        if (*fields[i] != ZIP_MAX32) continue;
        if (end - p < 8) return false;
        *fields[i] = get_le(p, 8);
        p += 8;
      }
    }
    extra += 4 + size;
    len -= 4 + size;
  }
  return true;
}

static bool zip_parse_entry(const ZipArchive *z, const uint8_t *p, size_t room, ZipEntry *e,
                            size_t *entry_len) {
  if (room < ZIP_CENTRAL_SIZE || get_le(p, 4) != ZIP_CENTRAL_SIG) {
    READ_ERROR(z->path, "corrupt zip: bad central directory entry");
    return false;
  }
  e->flags = (uint16_t)get_le(p + 8, 2);
  e->method = (uint16_t)get_le(p + 10, 2);
  e->crc = (uint32_t)get_le(p + 16, 4);
  e->comp_size = get_le(p + 20, 4);
  e->size = get_le(p + 24, 4);
  e->name_len = get_le(p + 28, 2);
  size_t extra_len = get_le(p + 30, 2), comment_len = get_le(p + 32, 2);
  e->local_offset = get_le(p + 42, 4);
  e->name = (const char *)p + ZIP_CENTRAL_SIZE;
  *entry_len = ZIP_CENTRAL_SIZE + e->name_len + extra_len + comment_len;
  if (*entry_len > room ||
      !zip_apply_zip64_extra(p + ZIP_CENTRAL_SIZE + e->name_len, extra_len, e)) {
    READ_ERROR(z->path, "corrupt zip: a central directory entry overruns the directory");
    return false;
  }
  return true;
}

/* The member's raw (possibly compressed) bytes, after checking bounds. */
static const uint8_t *zip_member_raw(const ZipArchive *z, const ZipEntry *e, const char *where) {
  if (e->flags & 1) {
    READ_ERROR(where, "encrypted members are not supported");
    return NULL;
  }
  if (e->method != ZIP_STORED && e->method != ZIP_DEFLATED) {
    READ_ERROR(where, "unsupported zip compression method %u", e->method);
    return NULL;
  }
  if (e->local_offset > z->len || z->len - e->local_offset < ZIP_LOCAL_SIZE ||
      get_le(z->buf + e->local_offset, 4) != ZIP_LOCAL_SIG) {
    READ_ERROR(where, "corrupt zip: bad local header");
    return NULL;
  }
  const uint8_t *local = z->buf + e->local_offset;
  uint64_t start = e->local_offset + ZIP_LOCAL_SIZE + get_le(local + 26, 2) + get_le(local + 28, 2);
  bool sizes_ok = e->method == ZIP_DEFLATED || e->comp_size == e->size;
  if (!sizes_ok || start > z->len || e->comp_size > z->len - start) {
    READ_ERROR(where, "corrupt zip: member data lies outside the file");
    return NULL;
  }
  return z->buf + start;
}

/* The member's uncompressed bytes with their CRC-32 checked: a pointer into
 * the archive for a stored member, or a buffer left in *owned (the caller
 * frees it) for a deflated one (numpy.savez_compressed). */
const uint8_t *zip_member_bytes(const ZipArchive *z, const ZipEntry *e, const char *where,
                                       uint8_t **owned) {
  *owned = NULL;
  const uint8_t *raw = zip_member_raw(z, e, where);
  if (!raw) return NULL;
  const uint8_t *data = raw;
  if (e->method == ZIP_DEFLATED) {
    data = *owned = inflate_member(raw, (size_t)e->comp_size, (size_t)e->size, where);
    if (!data) return NULL;
  }
  if (crc32_of(data, (size_t)e->size) != e->crc) {
    READ_ERROR(where, "CRC-32 mismatch: the member is corrupt");
    free(*owned);
    *owned = NULL;
    return NULL;
  }
  return data;
}

/* Loads one member into names[i]/ts[i]. */
static bool npz_load_member(const ZipArchive *z, const ZipEntry *e, char **name, Tensor **t) {
  char where[512];
  snprintf(where, sizeof where, "%s (member '%.*s')", z->path, (int)(e->name_len > 200 ? 200 : e->name_len),
           e->name);
  if (e->name_len < 4 || memcmp(e->name + e->name_len - 4, ".npy", 4) != 0) {
    READ_ERROR(where, "not a .npy member");
    return false;
  }
  uint8_t *owned;
  const uint8_t *data = zip_member_bytes(z, e, where, &owned);
  if (!data) return false;
  *name = strndup(e->name, e->name_len - 4);
  *t = *name ? npy_decode(data, (size_t)e->size, where) : NULL;
  if (!*name) READ_ERROR(where, "out of memory");
  free(owned);
  if (!*t) {
    free(*name);
    *name = NULL;
    return false;
  }
  return true;
}

static void free_members(char **names, Tensor **ts, int n) {
  for (int i = 0; i < n; i++) {
    free(names[i]);
    tensor_release(ts[i]);
  }
  free(names);
  free(ts);
}

/* Every central-directory entry, parsed; NULL with the error set. */
ZipEntry *zip_read_entries(const ZipArchive *z, const ZipDirectory *d) {
  int n = (int)d->entries;
  ZipEntry *es = calloc((size_t)n + 1, sizeof *es);
  if (!es) {
    READ_ERROR(z->path, "out of memory");
    return NULL;
  }
  const uint8_t *p = z->buf + d->cd_offset;
  size_t room = (size_t)d->cd_size;
  for (int i = 0; i < n; i++) {
    size_t used;
    if (!zip_parse_entry(z, p, room, &es[i], &used)) {
      free(es);
      return NULL;
    }
    p += used;
    room -= used;
  }
  return es;
}

static int by_local_offset(const void *a, const void *b) {
  const ZipEntry *x = *(const ZipEntry *const *)a, *y = *(const ZipEntry *const *)b;
  if (x->local_offset != y->local_offset) return x->local_offset < y->local_offset ? -1 : 1;
  return x < y ? -1 : x > y; /* then in directory order, so that errors name the first two */
}

/* Before anything is inflated: the members' sizes add up to at most
 * NPZ_MAX_TOTAL, and no two entries share member data, so that each member
 * is read at most once. */
bool zip_check_entries(const ZipArchive *z, ZipEntry *es, int n) {
  uint64_t total = 0;
  for (int i = 0; i < n; i++) {
    if (es[i].size >= SIZE_MAX) { /* a 32-bit machine */
      READ_ERROR(z->path, "a member is too large for this machine's memory");
      return false;
    }
    total += es[i].size < NPZ_MAX_TOTAL ? es[i].size : NPZ_MAX_TOTAL + 1;
    if (total > NPZ_MAX_TOTAL) {
      READ_ERROR(z->path, "the members hold more than %d GiB uncompressed, the most load() reads",
                 (int)(NPZ_MAX_TOTAL >> 30));
      return false;
    }
  }
  const ZipEntry **order = malloc(((size_t)n + 1) * sizeof *order);
  if (!order) {
    READ_ERROR(z->path, "out of memory");
    return false;
  }
  for (int i = 0; i < n; i++) order[i] = &es[i];
  qsort(order, (size_t)n, sizeof *order, by_local_offset);
  bool ok = true;
  for (int i = 0; ok && i + 1 < n; i++) {
    const ZipEntry *a = order[i], *b = order[i + 1];
    uint64_t gap = b->local_offset - a->local_offset;
    if (gap < ZIP_LOCAL_SIZE || gap - ZIP_LOCAL_SIZE < a->comp_size) {
      READ_ERROR(z->path, "corrupt zip: members '%.*s' and '%.*s' share their data",
                 (int)(a->name_len > 100 ? 100 : a->name_len), a->name,
                 (int)(b->name_len > 100 ? 100 : b->name_len), b->name);
      ok = false;
    }
  }
  free(order);
  return ok;
}

static int npz_load_all(const ZipArchive *z, const ZipDirectory *d, char ***names_out,
                        Tensor ***ts_out) {
  int n = (int)d->entries;
  ZipEntry *es = zip_read_entries(z, d);
  if (!es || !zip_check_entries(z, es, n)) {
    free(es);
    return -1;
  }
  char **names = calloc((size_t)n + 1, sizeof *names);
  Tensor **ts = calloc((size_t)n + 1, sizeof *ts);
  if (!names || !ts) {
    free(names);
    free(ts);
    free(es);
    READ_ERROR(z->path, "out of memory");
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (!npz_load_member(z, &es[i], &names[i], &ts[i])) {
      free_members(names, ts, i);
      free(es);
      return -1;
    }
  }
  free(es);
  *names_out = names;
  *ts_out = ts;
  return n;
}

int tensor_load_npz(const char *path, char ***names, Tensor ***ts) {
  uint8_t *buf;
  size_t len;
  if (!read_whole_file(path, &buf, &len)) return -1;
  ZipArchive z = {buf, len, path};
  ZipDirectory d;
  size_t end_pos;
  int n = -1;
  if (zip_read_directory(&z, &d, &end_pos)) n = npz_load_all(&z, &d, names, ts);
  free(buf);
  return n;
}

#else
bool tensor_save_npz(const char *path, const char *const *names, Tensor *const *ts, int n,
                     bool compressed) {
  (void)names, (void)ts, (void)n, (void)compressed;
  tensor_set_error("cannot write %s: .npz files need zlib, which this build of Ag lacks", path);
  return false;
}

int tensor_load_npz(const char *path, char ***names, Tensor ***ts) {
  (void)names, (void)ts;
  tensor_set_error("cannot read %s: .npz files need zlib, which this build of Ag lacks", path);
  return -1;
}
#endif

/* ---- sniffing ---- */

TensorFileKind tensor_file_kind(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    READ_ERROR(path, "%s", strerror(errno));
    return TENSOR_FILE_ERROR;
  }
  unsigned char head[ZIP_LOCAL_SIZE + 256] = {0};
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (n >= 6 && memcmp(head, NPY_MAGIC, sizeof NPY_MAGIC) == 0) return TENSOR_FILE_NPY;
  /* torch.save's format before 1.6: a pickled magic number (a LONG1) first */
  if (n >= 3 && head[0] == 0x80 && head[1] == 2 && head[2] == 0x8a) return TENSOR_FILE_PT_LEGACY;
  /* a zip starts with a local header, or is empty (only the end record);
   * PyTorch's first member is PREFIX/data.pkl */
  if (n >= ZIP_LOCAL_SIZE && get_le(head, 4) == ZIP_LOCAL_SIG) {
    size_t name_len = get_le(head + 26, 2);
    const char *name = (const char *)head + ZIP_LOCAL_SIZE;
    if (name_len <= n - ZIP_LOCAL_SIZE && name_len > 9 && memchr(name, '/', name_len) &&
        memcmp(name + name_len - 9, "/data.pkl", 9) == 0)
      return TENSOR_FILE_PT;
  }
  if (n >= 4 && (get_le(head, 4) == ZIP_LOCAL_SIG || get_le(head, 4) == ZIP_END_SIG))
    return TENSOR_FILE_NPZ;
  return TENSOR_FILE_OTHER;
}
