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

#endif
