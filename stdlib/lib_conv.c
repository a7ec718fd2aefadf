/* lib_conv.c — the sliding-window and normalisation functions as globals
 * (torch.conv2d, torch.max_pool2d, ...): conv1d conv2d max_pool1d max_pool2d
 * avg_pool1d avg_pool2d adaptive_avg_pool2d unfold fold batch_norm
 * layer_norm group_norm. nn.functional and the layers of nn.ag call these.
 *
 * A window argument is a number or a list of one per spatial dim (PyTorch's
 * int-or-tuple). 1-D functions run as 2-D ones on planes of height 1; an
 * unbatched input (no N) gets one, as PyTorch's unsqueeze(0)/squeeze(0).
 */
#include <stdio.h>
#include <string.h>

#include "stdlib/lib_internal.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

/* v (number or list of `dims` numbers) into out[2 - dims .. 1]; undefined: dflt. */
static bool pair_arg(AgVM *vm, const char *fname, const char *name, Value v, int dims,
                     int64_t dflt, int64_t *out) {
  if (IS_UNDEF(v) || IS_NIL(v)) {
    out[2 - dims] = out[1] = dflt;
    return true;
  }
  if (is_list_or_tuple(v)) {
    ObjList *l = AS_LIST(v);
    if (l->count != dims && l->count != 1) {
      vm_throw_error(vm, "%s: expected %s to be a single integer value or a list of %d values to "
                         "match the convolution dimensions, but got a list of %d",
                     fname, name, dims, l->count);
      return false;
    }
    for (int d = 0; d < dims; d++)
      if (!lib_int(vm, l->items[l->count == 1 ? 0 : d], name, &out[2 - dims + d])) return false;
    return true;
  }
  int64_t k;
  if (!lib_int(vm, v, name, &k)) return false;
  out[2 - dims] = out[1] = k;
  return true;
}

/* A window with the neutral height of a 1-D one. */
static TensorWindow window_init(void) {
  TensorWindow w = {{1, 1}, {1, 1}, {0, 0}, {1, 1}, {0, 0}, false};
  return w;
}

static void pad_both(TensorWindow *w) { memcpy(w->padding_end, w->padding, sizeof w->padding); }

/* x with a batch dim (unsqueeze(0)) when it has `dims` + 1 dims. */
static Tensor *batched(Tensor *x, int dims, bool *added) {
  *added = x->ndim == dims + 1;
  return *added ? ag_unsqueeze(x, 0) : tensor_retain(x);
}
static Value unbatched(AgVM *vm, Tensor *out, bool added) {
  if (out && added) {
    Tensor *r = ag_squeeze(out, 0, true);
    tensor_release(out);
    out = r;
  }
  return lib_wrap(vm, out);
}

static bool check_dims(AgVM *vm, const Tensor *x, int dims, const char *fname) {
  if (x->ndim == dims + 1 || x->ndim == dims + 2) return true;
  char shape[96];
  tensor_format_shape(shape, sizeof shape, x->ndim, x->shape);
  vm_throw_error(vm, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s",
                 dims + 1, dims + 2, fname, shape);
  return false;
}

/* ---- convolution ---- */

/* padding="same"/"valid" or numbers; "same" may pad more after the input. */
static bool conv_padding(AgVM *vm, const char *fname, Value v, int dims, const Tensor *weight,
                         TensorWindow *w) {
  if (!IS_STRING(v)) {
    if (!pair_arg(vm, fname, "padding", v, dims, 0, w->padding)) return false;
    pad_both(w);
    return true;
  }
  const char *s = AS_CSTRING(v);
  if (strcmp(s, "valid") == 0) return true;
  if (strcmp(s, "same") != 0) {
    vm_throw_error(vm, "Invalid padding string '%s', should be one of {'valid', 'same'}", s);
    return false;
  }
  for (int d = 2 - dims; d < 2; d++) {
    if (w->stride[d] != 1) {
      vm_throw_error(vm, "padding='same' is not supported for strided convolutions");
      return false;
    }
    int64_t k = weight->shape[weight->ndim - 2 + d], total;
    if (__builtin_mul_overflow(w->dilation[d], k - 1, &total)) {
      vm_throw_error(vm, "%s: the kernel is too large", fname);
      return false;
    }
    w->padding[d] = total / 2;
    w->padding_end[d] = total - total / 2;
  }
  return true;
}

/* PyTorch's check that the kernel has no empty dimension (conv1d's is a
 * height-1 conv2d in its message). */
static bool conv_kernel_nonempty(AgVM *vm, const Tensor *weight, int dims) {
  int64_t kh = dims == 1 ? 1 : weight->shape[weight->ndim - 2], kw = weight->shape[weight->ndim - 1];
  if (kh > 0 && kw > 0) return true;
  vm_throw_error(vm, "kernel size should be greater than zero, but got kernel_height: %lld "
                     "kernel_width: %lld", (long long)kh, (long long)kw);
  return false;
}

/* PyTorch's check that the dilated kernel, (k - 1) * dilation + 1, fits the
 * padded input; the message shows the dilated size as PyTorch's does (the
 * kernel's own size where that product overflows). */
static bool conv_fits(AgVM *vm, const Tensor *x, const Tensor *weight, const TensorWindow *w,
                      int dims) {
  char in[64] = "", kern[64] = "";
  bool fits = true;
  for (int d = 2 - dims; d < 2; d++) {
    int64_t size = x->shape[x->ndim - 2 + d] + w->padding[d] + w->padding_end[d];
    int64_t k = weight->shape[weight->ndim - 2 + d], span, shown = k;
    if (__builtin_mul_overflow(w->dilation[d], k - 1, &span)) {
      fits = false;
    } else {
      shown = span + 1;
      if (shown > size) fits = false;
    }
    size_t a = strlen(in), b = strlen(kern);
    snprintf(in + a, sizeof in - a, "%s%lld", d > 2 - dims ? " x " : "", (long long)size);
    snprintf(kern + b, sizeof kern - b, "%s%lld", d > 2 - dims ? " x " : "", (long long)shown);
  }
  if (fits) return true;
  vm_throw_error(vm, "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel "
                     "size can't be greater than actual input size", in, kern);
  return false;
}

static Value conv(AgVM *vm, const char *fname, int dims, int argc, const Value *args,
                  const AgKwargs *kw) {
  static const char *const names[] = {"input", "weight", "bias", "stride", "padding", "dilation",
                                      "groups"};
  Value v[7];
  if (!lib_bind(vm, fname, argc, args, kw, names, 7, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "weight", v[1]);
  bool has_bias = !IS_UNDEF(v[2]) && !IS_NIL(v[2]);
  if (has_bias && !IS_TENSOR(v[2])) return lib_type_error(vm, fname, "bias", v[2]);
  Tensor *x = lib_t(v[0]), *weight = lib_t(v[1]);
  TensorWindow w = window_init();
  int64_t groups = 1;
  if (!pair_arg(vm, fname, "stride", v[3], dims, 1, w.stride) ||
      !pair_arg(vm, fname, "dilation", v[5], dims, 1, w.dilation) ||
      (!IS_UNDEF(v[6]) && !lib_int(vm, v[6], "groups", &groups)))
    return VM_EXCEPTION;
  if (!check_dims(vm, x, dims, fname)) return VM_EXCEPTION;
  if (weight->ndim != dims + 2) {
    char ws[96];
    tensor_format_shape(ws, sizeof ws, weight->ndim, weight->shape);
    return vm_throw_error(vm, "Expected %d-dimensional weight for %dD convolution, but got "
                              "%d-dimensional weight of size %s instead",
                          dims + 2, dims, weight->ndim, ws);
  }
  for (int d = 2 - dims; d < 2; d++) {
    if (w.stride[d] <= 0) return vm_throw_error(vm, "non-positive stride is not supported");
    if (w.dilation[d] <= 0)
      return vm_throw_error(vm, "dilation should be greater than zero, but got %lld",
                            (long long)w.dilation[d]);
    w.kernel[d] = weight->shape[weight->ndim - 2 + d];
  }
  if (!conv_padding(vm, fname, v[4], dims, weight, &w)) return VM_EXCEPTION;
  for (int d = 0; d < 2; d++)
    if (w.padding[d] < 0) return vm_throw_error(vm, "negative padding is not supported");
  if (groups < 1 || groups > INT32_MAX)
    return vm_throw_error(vm, "non-positive groups is not supported");
  lib_sync_line(vm);
  bool added;
  Tensor *xb = batched(x, dims, &added);
  if (!xb) return lib_throw_tensor_error(vm);
  Tensor *out = NULL;
  if (xb->shape[1] == weight->shape[1] * groups &&
      (!conv_fits(vm, xb, weight, &w, dims) || !conv_kernel_nonempty(vm, weight, dims))) {
    tensor_release(xb);
    return VM_EXCEPTION;
  }
  out = ag_convolution(xb, weight, has_bias ? lib_t(v[2]) : NULL, &w, (int)groups);
  tensor_release(xb);
  return unbatched(vm, out, added);
}

HELP("conv1d", HELP_TENSORS, 0,
     "conv1d(input, weight, bias=nil, stride=1, padding=0, dilation=1, groups=1)",
     "1-D convolution of input [N, C, L] or [C, L] with weight [O, C/groups, k]; options as "
     "conv2d.",
     "print(conv1d(ones(1, 2, 5), ones(3, 2, 2)).shape)")

static Value native_conv1d(NATIVE_ARGS) { return conv(vm, "conv1d", 1, argc, args, kw); }

HELP("conv2d", HELP_TENSORS, 0,
     "conv2d(input, weight, bias=nil, stride=1, padding=0, dilation=1, groups=1)",
     "2-D convolution (cross-correlation, as PyTorch) of input [N, C, H, W] or [C, H, W] with "
     "weight [O, C/groups, kh, kw]: im2col and one BLAS product per sample and group. "
     "stride, padding and dilation are numbers or [h, w]; padding=\"same\" keeps the size "
     "(stride 1), \"valid\" is 0. Recorded as ConvolutionBackward0, twice differentiable.",
     "print(conv2d(ones(1, 1, 4, 4), ones(2, 1, 3, 3), padding=1).shape)")

static Value native_conv2d(NATIVE_ARGS) { return conv(vm, "conv2d", 2, argc, args, kw); }

/* ---- pooling ---- */

/* kernel_size, stride (default: kernel_size), padding, [dilation], ceil_mode. */
static bool pool_window(AgVM *vm, const char *fname, int dims, const Value *v, bool dilation,
                        TensorWindow *w) {
  if (!pair_arg(vm, fname, "kernel_size", v[1], dims, 1, w->kernel)) return false;
  if (IS_UNDEF(v[2]) || IS_NIL(v[2]) || (is_list_or_tuple(v[2]) && AS_LIST(v[2])->count == 0))
    memcpy(w->stride, w->kernel, sizeof w->stride);
  else if (!pair_arg(vm, fname, "stride", v[2], dims, 1, w->stride))
    return false;
  if (!pair_arg(vm, fname, "padding", v[3], dims, 0, w->padding)) return false;
  pad_both(w);
  if (dilation && !pair_arg(vm, fname, "dilation", v[4], dims, 1, w->dilation)) return false;
  return lib_flag(vm, v[dilation ? 5 : 4], false, &w->ceil_mode);
}

/* A 1-D pool as PyTorch runs it: unsqueeze(-2), the 2-D pool, squeeze(-2). */
static Value pool_result(AgVM *vm, Tensor *out, int dims) {
  if (out && dims == 1) {
    Tensor *r = ag_squeeze(out, out->ndim - 2, true);
    tensor_release(out);
    out = r;
  }
  return lib_wrap(vm, out);
}

static Tensor *as_2d_pool_input(AgVM *vm, Tensor *x, int dims, const char *fname) {
  if (dims == 2) return tensor_retain(x);
  if (x->ndim != 2 && x->ndim != 3) {
    char shape[96];
    tensor_format_shape(shape, sizeof shape, x->ndim, x->shape);
    vm_throw_error(vm, "%s() Expected 2D or 3D input tensor, but got %s", fname, shape);
    return NULL;
  }
  Tensor *r = ag_unsqueeze(x, x->ndim - 1);
  if (!r) lib_throw_tensor_error(vm);
  return r;
}

static Value max_pool(AgVM *vm, const char *fname, int dims, int argc, const Value *args,
                      const AgKwargs *kw) {
  static const char *const names[] = {"input", "kernel_size", "stride", "padding", "dilation",
                                      "ceil_mode", "return_indices"};
  Value v[7];
  TensorWindow w = window_init();
  bool return_indices;
  if (!lib_bind(vm, fname, argc, args, kw, names, 7, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!pool_window(vm, fname, dims, v, true, &w) || !lib_flag(vm, v[6], false, &return_indices))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *x = as_2d_pool_input(vm, lib_t(v[0]), dims, fname);
  if (!x) return VM_EXCEPTION;
  Tensor *indices = NULL;
  Tensor *out = ag_max_pool2d(x, &w, return_indices ? &indices : NULL);
  tensor_release(x);
  Value result = pool_result(vm, out, dims);
  if (!return_indices || IS_EXCEPTION(result)) {
    tensor_release(indices);
    return result;
  }
  if (dims == 1) {
    Tensor *r = tensor_squeeze(indices, indices->ndim - 2, true);
    tensor_release(indices);
    indices = r;
  }
  vm_push_root(vm, result);
  Value idx = lib_wrap(vm, indices);
  if (IS_EXCEPTION(idx)) {
    vm_pop_root(vm);
    return idx;
  }
  Value pair = obj_pair(vm, result, idx); /* (output, indices), as PyTorch's */
  vm_pop_root(vm);
  return pair;
}

HELP("max_pool1d", HELP_TENSORS, 0,
     "max_pool1d(input, kernel_size, stride=kernel_size, padding=0, dilation=1, ceil_mode=false, "
     "return_indices=false)",
     "max_pool2d over input [C, L] or [N, C, L], as PyTorch runs it (on a height of 1).",
     "print(max_pool1d(tensor([[1.0, 3.0, 2.0, 0.0]]), 2))")

static Value native_max_pool1d(NATIVE_ARGS) { return max_pool(vm, "max_pool1d", 1, argc, args, kw); }

HELP("max_pool2d", HELP_TENSORS, 0,
     "max_pool2d(input, kernel_size, stride=kernel_size, padding=0, dilation=1, ceil_mode=false, "
     "return_indices=false)",
     "The maximum of each window of input [C, H, W] or [N, C, H, W] (a NaN wins); with "
     "return_indices, [values, indices] where indices are positions y * W + x in each plane. "
     "Recorded as MaxPool2DWithIndicesBackward0.",
     "print(max_pool2d(arange(16).float().reshape(1, 4, 4), 2))")

static Value native_max_pool2d(NATIVE_ARGS) { return max_pool(vm, "max_pool2d", 2, argc, args, kw); }

static Value avg_pool(AgVM *vm, const char *fname, int dims, int argc, const Value *args,
                      const AgKwargs *kw) {
  static const char *const names[] = {"input", "kernel_size", "stride", "padding", "ceil_mode",
                                      "count_include_pad", "divisor_override"};
  Value v[7];
  TensorWindow w = window_init();
  bool include_pad;
  int64_t divisor = 0;
  if (!lib_bind(vm, fname, argc, args, kw, names, 7, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!pool_window(vm, fname, dims, v, false, &w) || !lib_flag(vm, v[5], true, &include_pad))
    return VM_EXCEPTION;
  if (!IS_UNDEF(v[6]) && !IS_NIL(v[6])) {
    if (!lib_int(vm, v[6], "divisor_override", &divisor)) return VM_EXCEPTION;
    if (divisor <= 0) return vm_throw_error(vm, "divisor must be not zero");
  }
  lib_sync_line(vm);
  Tensor *x = as_2d_pool_input(vm, lib_t(v[0]), dims, fname);
  if (!x) return VM_EXCEPTION;
  Tensor *out = ag_avg_pool2d(x, &w, include_pad, divisor);
  tensor_release(x);
  return pool_result(vm, out, dims);
}

HELP("avg_pool1d", HELP_TENSORS, 0,
     "avg_pool1d(input, kernel_size, stride=kernel_size, padding=0, ceil_mode=false, "
     "count_include_pad=true)",
     "avg_pool2d over input [C, L] or [N, C, L].",
     "print(avg_pool1d(tensor([[1.0, 3.0, 2.0, 0.0]]), 2))")

static Value native_avg_pool1d(NATIVE_ARGS) { return avg_pool(vm, "avg_pool1d", 1, argc, args, kw); }

HELP("avg_pool2d", HELP_TENSORS, 0,
     "avg_pool2d(input, kernel_size, stride=kernel_size, padding=0, ceil_mode=false, "
     "count_include_pad=true, divisor_override=nil)",
     "The mean of each window of input [C, H, W] or [N, C, H, W]; padded zeros count unless "
     "count_include_pad=false. Recorded as AvgPool2DBackward0.",
     "print(avg_pool2d(arange(16).float().reshape(1, 4, 4), 2))")

static Value native_avg_pool2d(NATIVE_ARGS) { return avg_pool(vm, "avg_pool2d", 2, argc, args, kw); }

/* ---- unfold / fold ---- */

static bool unfold_window(AgVM *vm, const char *fname, const Value *v, TensorWindow *w) {
  if (!pair_arg(vm, fname, "kernel_size", v[0], 2, 1, w->kernel) ||
      !pair_arg(vm, fname, "dilation", v[1], 2, 1, w->dilation) ||
      !pair_arg(vm, fname, "padding", v[2], 2, 0, w->padding) ||
      !pair_arg(vm, fname, "stride", v[3], 2, 1, w->stride))
    return false;
  pad_both(w);
  for (int d = 0; d < 2; d++)
    if (w->kernel[d] <= 0 || w->dilation[d] <= 0 || w->stride[d] <= 0 || w->padding[d] < 0) {
      vm_throw_error(vm, "%s: kernel_size, dilation and stride must be greater than zero and "
                         "padding non-negative", fname);
      return false;
    }
  return true;
}

HELP("unfold", HELP_TENSORS, 0,
     "unfold(input, kernel_size, dilation=1, padding=0, stride=1)",
     "The sliding blocks of input [N, C, H, W] as columns [N, C * kh * kw, L] (im2col, "
     "PyTorch's F.unfold; Im2ColBackward0).",
     "print(unfold(ones(1, 2, 3, 3), 2).shape)")

/* unfold(input, kernel_size, dilation=1, padding=0, stride=1) */
static Value native_unfold(NATIVE_ARGS) {
  static const char *const names[] = {"input", "kernel_size", "dilation", "padding", "stride"};
  Value v[5];
  TensorWindow w = window_init();
  if (!lib_bind(vm, "unfold", argc, args, kw, names, 5, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "unfold", "input", v[0]);
  if (!unfold_window(vm, "unfold", v + 1, &w)) return VM_EXCEPTION;
  lib_sync_line(vm);
  bool added;
  Tensor *x = lib_t(v[0]);
  if (x->ndim != 3 && x->ndim != 4) {
    char shape[96];
    tensor_format_shape(shape, sizeof shape, x->ndim, x->shape);
    return vm_throw_error(vm, "Input Error: Only 3D or 4D input Tensors are supported (got %dD)",
                          x->ndim);
  }
  Tensor *xb = batched(x, 2, &added);
  Tensor *out = xb ? ag_im2col(xb, &w) : NULL;
  tensor_release(xb);
  return unbatched(vm, out, added);
}

HELP("fold", HELP_TENSORS, 0,
     "fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)",
     "The inverse layout of unfold: columns [N, C * kh * kw, L] summed back into "
     "[N, C, H, W] (col2im, PyTorch's F.fold; Col2ImBackward0).",
     "print(fold(ones(1, 4, 4), [3, 3], 2))")

/* fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1) */
static Value native_fold(NATIVE_ARGS) {
  static const char *const names[] = {"input", "output_size", "kernel_size", "dilation", "padding",
                                      "stride"};
  Value v[6];
  TensorWindow w = window_init();
  int64_t size[2];
  if (!lib_bind(vm, "fold", argc, args, kw, names, 6, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "fold", "input", v[0]);
  if (!pair_arg(vm, "fold", "output_size", v[1], 2, 1, size) ||
      !unfold_window(vm, "fold", v + 2, &w))
    return VM_EXCEPTION;
  Tensor *x = lib_t(v[0]);
  if (x->ndim != 2 && x->ndim != 3)
    return vm_throw_error(vm, "Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                              "supported (got %dD)", x->ndim);
  if (size[0] <= 0 || size[1] <= 0) return vm_throw_error(vm, "fold: output_size must be positive");
  lib_sync_line(vm);
  bool added;
  Tensor *xb = batched(x, 1, &added);
  Tensor *out = xb ? ag_col2im(xb, size[0], size[1], &w) : NULL;
  tensor_release(xb);
  return unbatched(vm, out, added);
}

HELP("adaptive_avg_pool2d", HELP_TENSORS, 0,
     "adaptive_avg_pool2d(input, output_size)",
     "Averages input [C, H, W] or [N, C, H, W] over output_size cells ([oh, ow] or one "
     "number; nil keeps that size): cell i covers rows floor(i H / oh) to ceil((i + 1) H / oh). "
     "Recorded as AdaptiveAvgPool2DBackward0 (a mean for output_size 1, as PyTorch).",
     "print(adaptive_avg_pool2d(arange(16).float().reshape(1, 4, 4), 2))")

/* adaptive_avg_pool2d(input, output_size): a size of nil keeps the input's. */
static Value native_adaptive_avg_pool2d(NATIVE_ARGS) {
  static const char *const names[] = {"input", "output_size"};
  Value v[2];
  if (!lib_bind(vm, "adaptive_avg_pool2d", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "adaptive_avg_pool2d", "input", v[0]);
  Tensor *x = lib_t(v[0]);
  int64_t size[2] = {0, 0};
  bool keep[2] = {false, false};
  if (is_list_or_tuple(v[1]) && AS_LIST(v[1])->count == 2) {
    for (int d = 0; d < 2; d++) {
      Value item = AS_LIST(v[1])->items[d];
      keep[d] = IS_NIL(item);
      if (!keep[d] && !lib_int(vm, item, "output_size", &size[d])) return VM_EXCEPTION;
    }
  } else if (!pair_arg(vm, "adaptive_avg_pool2d", "output_size", v[1], 2, 1, size)) {
    return VM_EXCEPTION;
  }
  for (int d = 0; d < 2; d++)
    if (keep[d] && x->ndim >= 2) size[d] = x->shape[x->ndim - 2 + d];
  lib_sync_line(vm);
  return lib_wrap(vm, ag_adaptive_avg_pool2d(x, size[0], size[1]));
}

static bool optional_tensor(AgVM *vm, const char *fname, const char *name, Value v, Tensor **out) {
  *out = NULL;
  if (IS_UNDEF(v) || IS_NIL(v)) return true;
  if (!IS_TENSOR(v)) {
    lib_type_error(vm, fname, name, v);
    return false;
  }
  *out = lib_t(v);
  return true;
}

static bool eps_arg(AgVM *vm, Value v, double *eps) {
  *eps = 1e-5;
  return IS_UNDEF(v) || lib_number(vm, v, "eps", eps);
}

HELP("batch_norm", HELP_TENSORS, 0,
     "batch_norm(input, running_mean, running_var, weight=nil, bias=nil, training=false, "
     "momentum=0.1, eps=1e-5)",
     "Normalises each channel of input [N, C, ...]: with training by the batch's mean and "
     "(biased) variance, updating running_mean/running_var in place as (1 - momentum) running + "
     "momentum batch (unbiased variance); without, by the running statistics. Then "
     "* weight + bias per channel. Recorded as NativeBatchNormBackward0.",
     "print(batch_norm(tensor([[1.0, 2.0], [3.0, 6.0]]), nil, nil, training=true))")

/* batch_norm(input, running_mean, running_var, weight=nil, bias=nil,
 * training=false, momentum=0.1, eps=1e-5), as F.batch_norm */
static Value native_batch_norm(NATIVE_ARGS) {
  static const char *const names[] = {"input", "running_mean", "running_var", "weight", "bias",
                                      "training", "momentum", "eps"};
  Value v[8];
  Tensor *t[5];
  bool training;
  double momentum = 0.1, eps;
  if (!lib_bind(vm, "batch_norm", argc, args, kw, names, 8, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "batch_norm", "input", v[0]);
  for (int i = 1; i < 5; i++)
    if (!optional_tensor(vm, "batch_norm", names[i], v[i], &t[i])) return VM_EXCEPTION;
  if (!lib_flag(vm, v[5], false, &training) || !eps_arg(vm, v[7], &eps) ||
      (!IS_UNDEF(v[6]) && !IS_NIL(v[6]) && !lib_number(vm, v[6], "momentum", &momentum)))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_batch_norm(lib_t(v[0]), t[1], t[2], t[3], t[4], training, momentum, eps));
}

HELP("layer_norm", HELP_TENSORS, 0,
     "layer_norm(input, normalized_shape, weight=nil, bias=nil, eps=1e-5)",
     "Normalises each sample over its last dims (normalized_shape, a number or a list), then "
     "* weight + bias (of that shape). Recorded as NativeLayerNormBackward0.",
     "print(layer_norm(tensor([[1.0, 2.0, 3.0]]), 3))")

/* layer_norm(input, normalized_shape, weight=nil, bias=nil, eps=1e-5) */
static Value native_layer_norm(NATIVE_ARGS) {
  static const char *const names[] = {"input", "normalized_shape", "weight", "bias", "eps"};
  Value v[5];
  Tensor *weight, *bias;
  double eps;
  int64_t shape[TENSOR_MAX_DIMS];
  int nnorm = 0;
  if (!lib_bind(vm, "layer_norm", argc, args, kw, names, 5, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "layer_norm", "input", v[0]);
  if (is_list_or_tuple(v[1])) {
    ObjList *l = AS_LIST(v[1]);
    if (l->count > TENSOR_MAX_DIMS) return vm_throw_error(vm, "layer_norm: normalized_shape has too many dims");
    for (int i = 0; i < l->count; i++)
      if (!lib_int(vm, l->items[i], "normalized_shape", &shape[nnorm++])) return VM_EXCEPTION;
  } else if (!lib_int(vm, v[1], "normalized_shape", &shape[nnorm++])) {
    return VM_EXCEPTION;
  }
  if (!optional_tensor(vm, "layer_norm", "weight", v[2], &weight) ||
      !optional_tensor(vm, "layer_norm", "bias", v[3], &bias) || !eps_arg(vm, v[4], &eps))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_layer_norm(lib_t(v[0]), nnorm, shape, weight, bias, eps));
}

HELP("group_norm", HELP_TENSORS, 0,
     "group_norm(input, num_groups, weight=nil, bias=nil, eps=1e-5)",
     "Normalises each sample of input [N, C, ...] over groups of C / num_groups channels, then "
     "* weight + bias per channel. Recorded as NativeGroupNormBackward0.",
     "print(group_norm(arange(8).float().reshape(1, 4, 2), 2))")

/* group_norm(input, num_groups, weight=nil, bias=nil, eps=1e-5) */
static Value native_group_norm(NATIVE_ARGS) {
  static const char *const names[] = {"input", "num_groups", "weight", "bias", "eps"};
  Value v[5];
  Tensor *weight, *bias;
  double eps;
  int64_t groups;
  if (!lib_bind(vm, "group_norm", argc, args, kw, names, 5, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "group_norm", "input", v[0]);
  if (!lib_int(vm, v[1], "num_groups", &groups) ||
      !optional_tensor(vm, "group_norm", "weight", v[2], &weight) ||
      !optional_tensor(vm, "group_norm", "bias", v[3], &bias) || !eps_arg(vm, v[4], &eps))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_group_norm(lib_t(v[0]), groups, weight, bias, eps));
}

void lib_install_conv(AgVM *vm) {
  vm_define_native(vm, "conv1d", native_conv1d, 2, 7, true);
  vm_define_native(vm, "conv2d", native_conv2d, 2, 7, true);
  vm_define_native(vm, "max_pool1d", native_max_pool1d, 2, 7, true);
  vm_define_native(vm, "max_pool2d", native_max_pool2d, 2, 7, true);
  vm_define_native(vm, "avg_pool1d", native_avg_pool1d, 2, 7, true);
  vm_define_native(vm, "avg_pool2d", native_avg_pool2d, 2, 7, true);
  vm_define_native(vm, "adaptive_avg_pool2d", native_adaptive_avg_pool2d, 2, 2, true);
  vm_define_native(vm, "batch_norm", native_batch_norm, 3, 8, true);
  vm_define_native(vm, "layer_norm", native_layer_norm, 2, 5, true);
  vm_define_native(vm, "group_norm", native_group_norm, 2, 5, true);
  vm_define_native(vm, "unfold", native_unfold, 2, 5, true);
  vm_define_native(vm, "fold", native_fold, 3, 6, true);
}
