/* buffer.c — the growable byte buffer (buffer.h). */
#include "vm/buffer.h"

#include "vm/memory.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vm_buf_init(VmBuf *b) {
  b->data = NULL;
  b->length = 0;
  b->capacity = 0;
}

void vm_buf_free(VmBuf *b) {
  free(b->data);
  vm_buf_init(b);
}

static void reserve(VmBuf *b, size_t extra) {
  if (b->length + extra + 1 <= b->capacity) return;
  size_t cap = b->capacity < 64 ? 64 : b->capacity;
  while (cap < b->length + extra + 1) cap *= 2;
  char *grown = realloc(b->data, cap);
  if (grown == NULL) vm_out_of_memory_here(cap); /* b->data is lost: the jump abandons its owner too */
  b->data = grown;
  b->capacity = cap;
}

void vm_buf_add(VmBuf *b, const char *s, size_t n) {
  reserve(b, n);
  memcpy(b->data + b->length, s, n);
  b->length += n;
  b->data[b->length] = '\0';
}

void vm_buf_adds(VmBuf *b, const char *s) { vm_buf_add(b, s, strlen(s)); }

void vm_buf_addc(VmBuf *b, char c) { vm_buf_add(b, &c, 1); }

void vm_buf_printf(VmBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n <= 0) return;
  reserve(b, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(b->data + b->length, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->length += (size_t)n;
}

ObjString *vm_buf_to_string(AgVM *vm, VmBuf *b) {
  if (b->length > (size_t)1 << 30) { /* string lengths are ints */
    size_t n = b->length;
    vm_buf_free(b);
    vm_out_of_memory(vm, n);
  }
  vm_hold_scratch(vm, b->data, 0);
  ObjString *s = obj_copy_string(vm, b->data ? b->data : "", (int)b->length);
  vm_hold_scratch(vm, NULL, 0);
  vm_buf_free(b);
  return s;
}

