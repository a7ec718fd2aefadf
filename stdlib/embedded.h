/* embedded.h — the Ag library files compiled into the binary.
 *
 * tools/embed.sh turns every .ag file of stdlib/ into a C string at build time
 * (build/MODE/gen/embedded.c); the VM loads them as the built-in modules
 * (`nn`, `optim`, ...) so students can read the library's source with
 * source(...) while needing nothing but the one `ag` binary.
 */
#ifndef AG_EMBEDDED_H
#define AG_EMBEDDED_H

typedef struct {
  const char *name; /* file name, e.g. "nn.ag" */
  const char *text; /* the whole source */
} EmbeddedFile;

extern const EmbeddedFile ag_embedded_files[]; /* ends with {NULL, NULL} */

#endif
