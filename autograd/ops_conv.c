/* ops_conv.c — differentiable sliding-window ops: im2col/col2im (F.unfold,
 * F.fold), convolution, max and average pooling.
 *
 * A node keeps its window (kernel, stride, padding, dilation, ceil_mode) in
 * its params' geom block (int64s, so huge strides survive); the formulas in
 * derivatives.c read it back with ag_window_of.
 */
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

enum { WINDOW_INTS = 11 };

static bool store_window(GradNode *n, const TensorWindow *w) {
  int64_t *g = malloc(WINDOW_INTS * sizeof *g);
  if (!g) {
    tensor_set_error("out of memory");
    return false;
  }
  for (int d = 0; d < 2; d++) {
    g[d] = w->kernel[d];
    g[2 + d] = w->stride[d];
    g[4 + d] = w->padding[d];
    g[6 + d] = w->dilation[d];
    g[8 + d] = w->padding_end[d];
  }
  g[10] = w->ceil_mode;
  node_params(n)->geom = g;
  return true;
}

TensorWindow ag_window_of(const GradNode *n) {
  const int64_t *g = node_p(n)->geom;
  TensorWindow w;
  for (int d = 0; d < 2; d++) {
    w.kernel[d] = g[d];
    w.stride[d] = g[2 + d];
    w.padding[d] = g[4 + d];
    w.dilation[d] = g[6 + d];
    w.padding_end[d] = g[8 + d];
  }
  w.ceil_mode = g[10] != 0;
  return w;
}

/* A node with params and the window; NULL (nothing recorded) when out of memory. */
static GradNode *window_node(AgNodeKind kind, Tensor *const *ins, int nin, int nsaved,
                             const TensorWindow *w) {
  GradNode *n = ag_record_node_params(kind, ins, nin, nsaved, 1);
  if (n && !store_window(n, w)) {
    node_finish(n);
    return NULL;
  }
  return n;
}

Tensor *ag_im2col(Tensor *x, const TensorWindow *w) {
  Tensor *out = tensor_im2col(x, w);
  if (!ag_record_wanted(&x, 1, out)) return out;
  GradNode *n = window_node(AG_NODE_Im2ColBackward0, &x, 1, 0, w);
  if (!n) {
    tensor_release(out);
    return NULL;
  }
  return ag_record_finish(n, out);
}

Tensor *ag_col2im(Tensor *cols, int64_t h, int64_t wd, const TensorWindow *w) {
  Tensor *out = tensor_col2im(cols, h, wd, w);
  if (!ag_record_wanted(&cols, 1, out)) return out;
  GradNode *n = window_node(AG_NODE_Col2ImBackward0, &cols, 1, 0, w);
  if (!n) {
    tensor_release(out);
    return NULL;
  }
  return ag_record_finish(n, out);
}

/* A 1-D input [N, C, L] as [N, C, 1, L] (tensor level: no node). */
static Tensor *as_plane(const Tensor *t) {
  if (t->ndim != 3) return tensor_retain((Tensor *)t);
  int64_t shape[4] = {t->shape[0], t->shape[1], 1, t->shape[2]};
  return tensor_reshape(t, 4, shape);
}

static Tensor *from_plane(Tensor *out, int ndim) {
  if (!out || ndim != 3) return out;
  int64_t shape[3] = {out->shape[0], out->shape[1], out->shape[3]};
  Tensor *r = tensor_reshape(out, 3, shape);
  tensor_release(out);
  return r;
}

Tensor *ag_convolution(Tensor *x, Tensor *weight, Tensor *bias, const TensorWindow *w, int groups) {
  Tensor *x4 = as_plane(x), *w4 = as_plane(weight);
  Tensor *out = x4 && w4 ? from_plane(tensor_conv2d(x4, w4, bias, w, groups), x->ndim) : NULL;
  tensor_release(x4);
  tensor_release(w4);
  Tensor *ins[3] = {x, weight, bias};
  if (!ag_record_wanted(ins, 3, out)) return out;
  GradNode *n = window_node(AG_NODE_ConvolutionBackward0, ins, 3, 2, w);
  if (!n) {
    tensor_release(out);
    return NULL;
  }
  node_save(n, 0, "input", x, false);
  node_save(n, 1, "weight", weight, false);
  node_params(n)->i0 = groups;
  return ag_record_finish(n, out);
}

/* indices may be NULL; else it receives the positions (F.max_pool2d(return_indices=true)). */
Tensor *ag_max_pool2d(Tensor *x, const TensorWindow *w, Tensor **indices) {
  Tensor *idx = NULL;
  Tensor *out = tensor_max_pool2d(x, w, &idx);
  GradNode *n = NULL;
  if (ag_record_wanted(&x, 1, out)) {
    n = window_node(AG_NODE_MaxPool2DWithIndicesBackward0, &x, 1, 1, w);
    if (n) node_save(n, 0, "result1", idx, false);
    out = n ? ag_record_finish(n, out) : (tensor_release(out), NULL);
  }
  if (out && indices) *indices = idx;
  else tensor_release(idx);
  return out;
}

Tensor *ag_avg_pool2d(Tensor *x, const TensorWindow *w, bool count_include_pad,
                      int64_t divisor_override) {
  Tensor *out = tensor_avg_pool2d(x, w, count_include_pad, divisor_override);
  if (!ag_record_wanted(&x, 1, out)) return out;
  GradNode *n = window_node(AG_NODE_AvgPool2DBackward0, &x, 1, 0, w);
  if (!n) {
    tensor_release(out);
    return NULL;
  }
  node_params(n)->flag = count_include_pad;
  node_params(n)->i0 = divisor_override;
  return ag_record_finish(n, out);
}

Tensor *ag_adaptive_avg_pool2d(Tensor *x, int64_t oh, int64_t ow) {
  if (oh == 1 && ow == 1 && x->ndim >= 3 && dtype_is_float(x->dtype)) /* as PyTorch: a mean */
    return ag_mean(x, (int[]){-1, -2}, 2, true);
  Tensor *out = tensor_adaptive_avg_pool2d(x, oh, ow);
  if (!ag_record_wanted(&x, 1, out)) return out;
  return ag_record_finish(ag_record_node(AG_NODE_AdaptiveAvgPool2DBackward0, &x, 1, 0, 1), out);
}

Tensor *ag_adaptive_avg_pool2d_backward(Tensor *g, int64_t h, int64_t wd) {
  Tensor *out = tensor_adaptive_avg_pool2d_backward(g, h, wd);
  if (!ag_record_wanted(&g, 1, out)) return out;
  return ag_record_finish(ag_record_node(AG_NODE_AdaptiveAvgPool2DBackwardBackward0, &g, 1, 0, 1),
                          out);
}

/* max_pool2d's backward as a differentiable op (its derivative gathers at
 * the same indices): MaxPool2DWithIndicesBackwardBackward0. */
Tensor *ag_max_pool2d_backward(Tensor *g, const Tensor *indices, const AgInfo *in) {
  Tensor *out = tensor_max_pool2d_backward(g, indices, in->ndim, info_shape(in));
  if (!ag_record_wanted(&g, 1, out)) return out;
  GradNode *n = ag_record_node(AG_NODE_MaxPool2DWithIndicesBackwardBackward0, &g, 1, 1, 1);
  if (n) node_save(n, 0, "indices", (Tensor *)indices, false);
  return ag_record_finish(n, out);
}
