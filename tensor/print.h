/* print.h — PyTorch 1.13's tensor repr, with Ag's booleans and dtype names.
 *
 * tensor_repr(t, extras, n) gives exactly what PyTorch prints for
 * repr(t) (precision 4, scientific mode when the ratio of magnitudes asks
 * for it, integer-valued floats as `2.`, column alignment, wrapping at 80
 * columns, summarisation with `...` above 1000 elements), except that
 * booleans are `true`/`false` (same column widths as True/False) and the
 * dtype suffix reads `dtype=float64`. `extras` are further suffixes such as
 * "requires_grad=true" or "grad_fn=<AddBackward0>", appended after the dtype
 * suffix. The result is malloc'd; the caller frees it (NULL, with the tensor
 * error set, only if memory runs out or nextras is above 64).
 *
 * Suffixes follow PyTorch's order and wrapping: "size=(0, 3)" for empty
 * tensors that are not 1-D, then "dtype=..." (float64 only; for empty tensors
 * every dtype but float32), then the extras; a suffix that would pass column
 * 80 starts a new line indented under "tensor(". Numbers are formatted in the
 * C locale whatever LC_NUMERIC the embedder set.
 */
#ifndef AG_TENSOR_PRINT_H
#define AG_TENSOR_PRINT_H

#include "tensor.h"

/* PyTorch's torch.set_printoptions: digits after the point (0..30), the
 * element count above which a tensor is summarised (may be INFINITY), the
 * items kept at each end of a summarised dimension, the line width, and
 * scientific notation forced on (1), off (0) or chosen per tensor (-1). */
typedef struct {
  int precision;
  double threshold;
  int edgeitems;
  int linewidth;
  int sci_mode;
} TensorPrintOptions;
#define TENSOR_PRINT_DEFAULTS {4, 1000, 3, 80, -1}
TensorPrintOptions tensor_print_options(void);
void tensor_set_print_options(const TensorPrintOptions *o);

char *tensor_repr(const Tensor *t, const char *const *extras, int nextras);
/* The body alone, as str() of a tensor element list would show it, without
 * "tensor(" and suffixes: used by tests and the graph printer. */
char *tensor_body_str(const Tensor *t);

#endif
