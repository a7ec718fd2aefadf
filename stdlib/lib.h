/* lib.h — everything bound above the VM: tensors, autograd, the built-in
 * modules (nn, optim, autograd), files and reflection.
 *
 * main() calls lib_install once, after the VM's own built-ins and the
 * compile hook are in place (the embedded nn/optim/autograd sources are
 * compiled against the built-ins that exist at that moment).
 */
#ifndef AG_LIB_H
#define AG_LIB_H

#include "vm/vm.h"

void lib_install(AgVM *vm);

/* Hands a MIME bundle to its receiver (the notebook's display or result);
 * image/png data are the PNG's bytes. */
typedef void (*LibBundleSink)(AgVM *vm, void *ctx, int count, const char *const *types,
                              const char *const *data, const size_t *lengths);
/* Sends v's MIME bundle to send: repr as text/plain, and the pictures its
 * class draws (_repr_svg_, _repr_png_); NIL_VAL, or VM_EXCEPTION when a
 * picture method failed. */
Value lib_rich_bundle(AgVM *vm, Value v, ObjString *repr, LibBundleSink send, void *ctx);

#endif
