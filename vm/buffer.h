/* buffer.h — a growable byte buffer for building strings in C (str(), repr(),
 * f-strings, join). Plain malloc: it is never seen by the collector, and the
 * finished text becomes an interned ObjString with vm_buf_to_string(). */
#ifndef AG_VM_BUFFER_H
#define AG_VM_BUFFER_H

#include <stddef.h>

#include "vm/object.h"

typedef struct {
  char *data;
  size_t length;
  size_t capacity;
} VmBuf;

void vm_buf_init(VmBuf *b);
void vm_buf_free(VmBuf *b);
void vm_buf_add(VmBuf *b, const char *s, size_t n);
void vm_buf_adds(VmBuf *b, const char *s);
void vm_buf_addc(VmBuf *b, char c);
void vm_buf_printf(VmBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Interns the text and frees the buffer. */
ObjString *vm_buf_to_string(AgVM *vm, VmBuf *b);

#endif
