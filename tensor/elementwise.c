/* elementwise.c — broadcasting, unary and binary elementwise ops, clamp, where. */
#include "tensor/iter.h"
#include "tensor/ops.h"
#include "tensor/tensor_internal.h"

#include <math.h>
#include <string.h>

const char *const tensor_unary_names[UN_COUNT] = {
#define X(e, n) n,
    TENSOR_UNARY_OPS(X)
#undef X
};
const char *const tensor_binary_names[BIN_COUNT] = {
#define X(e, n) n,
    TENSOR_BINARY_OPS(X)
#undef X
};

bool tensor_broadcast_shape(int na, const int64_t *sa, int nb, const int64_t *sb, int *nout,
                            int64_t *out) {
  int n = na > nb ? na : nb;
  for (int i = 0; i < n; i++) {
    int ia = i - (n - na), ib = i - (n - nb);
    int64_t a = ia >= 0 ? sa[ia] : 1, b = ib >= 0 ? sb[ib] : 1;
    if (a != b && a != 1 && b != 1) {
      tensor_set_error("The size of tensor a (%lld) must match the size of tensor b (%lld) at "
                       "non-singleton dimension %d",
                       (long long)a, (long long)b, i);
      return false;
    }
    out[i] = a == 1 ? b : a;
  }
  *nout = n;
  return true;
}

bool tensor_check_broadcasts_to(const Tensor *src, const Tensor *dst) {
  int nd;
  int64_t shape[TENSOR_MAX_DIMS];
  if (!tensor_broadcast_shape(dst->ndim, dst->shape, src->ndim, src->shape, &nd, shape))
    return false;
  if (nd != dst->ndim || memcmp(shape, dst->shape, (size_t)nd * sizeof(int64_t)) != 0) {
    char a[256], b[256];
    tensor_format_shape(a, sizeof a, dst->ndim, dst->shape);
    tensor_format_shape(b, sizeof b, nd, shape);
    tensor_set_error("output with shape %s doesn't match the broadcast shape %s", a, b);
    return false;
  }
  return true;
}

bool tensor_wrap_dim(int *dim, int ndim) {
  int n = ndim > 0 ? ndim : 1;
  if (*dim < -n || *dim >= n) {
    tensor_set_error("Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                     -n, n - 1, *dim);
    return false;
  }
  if (*dim < 0) *dim += n;
  return true;
}
