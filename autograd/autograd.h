/* autograd.h — define-by-run automatic differentiation (the `autograd/` component).
 *
 * (Contract stub: the autograd component fills this header in; the VM relies
 * only on the declarations below to hold graph nodes as script values.)
 */
#ifndef AG_AUTOGRAD_H
#define AG_AUTOGRAD_H

#include "tensor/tensor.h"

typedef struct GradNode GradNode;

GradNode *grad_node_retain(GradNode *node);
void grad_node_release(GradNode *node);

#endif
