/* lib_nnfunc.c — the neural-network functions of SPEC §6 as globals:
 * mse_loss, l1_loss, cross_entropy, nll_loss, binary_cross_entropy,
 * binary_cross_entropy_with_logits, smooth_l1_loss, huber_loss, kl_div,
 * dropout and linear. (softmax/log_softmax and the activations are tensor
 * functions in LIB_TENSOR_FNS, so they are methods as well.)
 */
#include <stdio.h>
#include <string.h>

#include "stdlib/lib_internal.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

static bool reduction_of(AgVM *vm, Value v, Reduction *out) {
  *out = RED_MEAN;
  if (IS_UNDEF(v)) return true;
  const char *s = IS_STRING(v) ? AS_CSTRING(v) : "";
  if (strcmp(s, "mean") == 0) *out = RED_MEAN;
  else if (strcmp(s, "sum") == 0) *out = RED_SUM;
  else if (strcmp(s, "none") == 0) *out = RED_NONE;
  else {
    Value shown = vm_to_str(vm, v);
    if (IS_EXCEPTION(shown)) return false;
    vm_raise(vm, VM_ERR_VALUE, "%s is not a valid value for reduction", AS_CSTRING(shown));
    return false;
  }
  return true;
}

typedef Tensor *(*LossFn)(Tensor *input, Tensor *target, Reduction r);

/* fname(input, target, reduction="mean") with two tensors. */
static Value loss(AgVM *vm, const char *fname, LossFn fn, int argc, const Value *args,
                  const AgKwargs *kw) {
  static const char *const names[] = {"input", "target", "reduction"};
  Value v[3];
  Reduction r;
  if (!lib_bind(vm, fname, argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!reduction_of(vm, v[2], &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, fn(lib_t(v[0]), lib_t(v[1]), r));
}

/* An optional tensor argument: absent or nil gives NULL. */
static bool optional_tensor(AgVM *vm, const char *fname, const char *what, Value v, Tensor **out) {
  *out = NULL;
  if (IS_UNDEF(v) || IS_NIL(v)) return true;
  if (!IS_TENSOR(v)) {
    lib_type_error(vm, fname, what, v);
    return false;
  }
  *out = lib_t(v);
  return true;
}

static Value native_mse_loss(NATIVE_ARGS) { return loss(vm, "mse_loss", ag_mse_loss, argc, args, kw); }
static Value native_l1_loss(NATIVE_ARGS) { return loss(vm, "l1_loss", ag_l1_loss, argc, args, kw); }
/* An optional integer argument (absent: fallback). */
static bool optional_int(AgVM *vm, Value v, const char *what, int64_t fallback, int64_t *out) {
  *out = fallback;
  if (IS_UNDEF(v)) return true;
  double d;
  if (!lib_number(vm, v, what, &d)) return false;
  if (d != (double)(int64_t)d) {
    vm_raise(vm, VM_ERR_TYPE, "%s must be an integer, got %g", what, d);
    return false;
  }
  *out = (int64_t)d;
  return true;
}

/* cross_entropy(input, target, weight=nil, ignore_index=-100, reduction="mean",
 * label_smoothing=0.0), PyTorch's order of the arguments (size_average and
 * reduce, deprecated there, are left out). */
static Value native_cross_entropy(NATIVE_ARGS) {
  static const char *const names[] = {"input", "target", "weight", "ignore_index", "reduction",
                                      "label_smoothing"};
  Value v[6];
  Reduction r;
  Tensor *w;
  double ls = 0;
  int64_t ignore_index;
  if (!lib_bind(vm, "cross_entropy", argc, args, kw, names, 6, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "cross_entropy", "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "cross_entropy", "target", v[1]);
  if (!optional_tensor(vm, "cross_entropy", "weight", v[2], &w)) return VM_EXCEPTION;
  if (!optional_int(vm, v[3], "ignore_index", NLL_DEFAULT_IGNORE_INDEX, &ignore_index))
    return VM_EXCEPTION;
  if (!reduction_of(vm, v[4], &r)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[5]) && !lib_number(vm, v[5], "label_smoothing", &ls)) return VM_EXCEPTION;
  /* PyTorch 1.13 checks only the upper bound; a negative value smooths nothing */
  if (ls > 1)
    return vm_raise(vm, VM_ERR_VALUE, "label_smoothing must be between 0.0 and 1.0. Got: %g", ls);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_cross_entropy_with(lib_t(v[0]), lib_t(v[1]), w, ignore_index, ls, r));
}

/* nll_loss(input, target, weight=nil, ignore_index=-100, reduction="mean") */
static Value native_nll_loss(NATIVE_ARGS) {
  static const char *const names[] = {"input", "target", "weight", "ignore_index", "reduction"};
  Value v[5];
  Reduction r;
  Tensor *w;
  int64_t ignore_index;
  if (!lib_bind(vm, "nll_loss", argc, args, kw, names, 5, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "nll_loss", "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "nll_loss", "target", v[1]);
  if (!optional_tensor(vm, "nll_loss", "weight", v[2], &w)) return VM_EXCEPTION;
  if (!optional_int(vm, v[3], "ignore_index", NLL_DEFAULT_IGNORE_INDEX, &ignore_index))
    return VM_EXCEPTION;
  if (!reduction_of(vm, v[4], &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_nll_loss_weighted(lib_t(v[0]), lib_t(v[1]), w, ignore_index, r));
}
/* binary_cross_entropy(input, target, weight=nil, reduction="mean") */
static Value native_binary_cross_entropy(NATIVE_ARGS) {
  static const char *const fname = "binary_cross_entropy";
  static const char *const names[] = {"input", "target", "weight", "reduction"};
  Value v[4];
  Reduction r;
  Tensor *w;
  if (!lib_bind(vm, fname, argc, args, kw, names, 4, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!optional_tensor(vm, fname, "weight", v[2], &w)) return VM_EXCEPTION;
  if (!reduction_of(vm, v[3], &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_binary_cross_entropy(lib_t(v[0]), lib_t(v[1]), w, r));
}

/* binary_cross_entropy_with_logits(input, target, weight=nil, reduction="mean", pos_weight=nil) */
static Value native_bce_with_logits(NATIVE_ARGS) {
  static const char *const fname = "binary_cross_entropy_with_logits";
  static const char *const names[] = {"input", "target", "weight", "reduction", "pos_weight"};
  Value v[5];
  Reduction r;
  Tensor *w, *pw;
  if (!lib_bind(vm, fname, argc, args, kw, names, 5, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!optional_tensor(vm, fname, "weight", v[2], &w)) return VM_EXCEPTION;
  if (!reduction_of(vm, v[3], &r)) return VM_EXCEPTION;
  if (!optional_tensor(vm, fname, "pos_weight", v[4], &pw)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_binary_cross_entropy_with_logits(lib_t(v[0]), lib_t(v[1]), w, pw, r));
}

typedef Tensor *(*RobustFn)(Tensor *a, Tensor *b, double k, Reduction r);

/* fname(input, target, reduction="mean", <k>=1.0): smooth_l1_loss (beta), huber_loss (delta) */
static Value robust_loss(AgVM *vm, const char *fname, const char *kname, RobustFn fn, int argc,
                         const Value *args, const AgKwargs *kw) {
  const char *const names[] = {"input", "target", "reduction", kname};
  Value v[4];
  Reduction r;
  double k = 1.0;
  if (!lib_bind(vm, fname, argc, args, kw, names, 4, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!reduction_of(vm, v[2], &r)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[3]) && !lib_number(vm, v[3], kname, &k)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, fn(lib_t(v[0]), lib_t(v[1]), k, r));
}

static Value native_smooth_l1_loss(NATIVE_ARGS) {
  return robust_loss(vm, "smooth_l1_loss", "beta", ag_smooth_l1_loss, argc, args, kw);
}
static Value native_huber_loss(NATIVE_ARGS) {
  return robust_loss(vm, "huber_loss", "delta", ag_huber_loss, argc, args, kw);
}

/* kl_div(input, target, reduction="mean", log_target=false); reduction may
 * also be "batchmean". "mean" warns once, as PyTorch 1.13 does. */
static Value native_kl_div(NATIVE_ARGS) {
  static const char *const names[] = {"input", "target", "reduction", "log_target"};
  Value v[4];
  Reduction r = RED_MEAN;
  bool batchmean, log_target;
  if (!lib_bind(vm, "kl_div", argc, args, kw, names, 4, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "kl_div", "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "kl_div", "target", v[1]);
  batchmean = IS_STRING(v[2]) && strcmp(AS_CSTRING(v[2]), "batchmean") == 0;
  if (!batchmean && !reduction_of(vm, v[2], &r)) return VM_EXCEPTION;
  if (!lib_flag(vm, v[3], false, &log_target)) return VM_EXCEPTION;
  LibState *st = lib_state(vm);
  if (!batchmean && r == RED_MEAN && !st->warned_kl_div_mean) {
    st->warned_kl_div_mean = true;
    fprintf(stderr,
            "%s:%d: UserWarning: reduction: 'mean' divides the total loss by both the batch "
            "size and the support size.'batchmean' divides only by the batch size, and aligns "
            "with the KL div math definition.'mean' will be changed to behave the same as "
            "'batchmean' in the next major release.\n",
            lib_current_file(vm), lib_current_line(vm));
  }
  lib_sync_line(vm);
  return lib_wrap(vm, ag_kl_div(lib_t(v[0]), lib_t(v[1]), r, batchmean, log_target));
}

/* dropout(x, p=0.5, training=true) */
static Value native_dropout(NATIVE_ARGS) {
  static const char *const names[] = {"input", "p", "training"};
  Value v[3];
  double p = 0.5;
  bool training;
  if (!lib_bind(vm, "dropout", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "dropout", "input", v[0]);
  if (!IS_UNDEF(v[1]) && !lib_number(vm, v[1], "p", &p)) return VM_EXCEPTION;
  if (!lib_flag(vm, v[2], true, &training)) return VM_EXCEPTION;
  if (!(p >= 0 && p <= 1))
    return vm_raise(vm, VM_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %g", p);
  TensorRng *rng = lib_rng(vm, NIL_VAL, "dropout");
  if (rng == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_dropout(rng, lib_t(v[0]), p, training));
}

/* linear(x, w, b=nil) = x @ w.T + b, recorded as F.linear in PyTorch 1.13
 * (AddmmBackward0 for a 2-D x with a bias; see ag_linear). */
static Value native_linear(NATIVE_ARGS) {
  static const char *const names[] = {"input", "weight", "bias"};
  Value v[3];
  if (!lib_bind(vm, "linear", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "linear", "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "linear", "weight", v[1]);
  bool has_bias = !IS_UNDEF(v[2]) && !IS_NIL(v[2]);
  if (has_bias && !IS_TENSOR(v[2])) return lib_type_error(vm, "linear", "bias", v[2]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_linear(lib_t(v[0]), lib_t(v[1]), has_bias ? lib_t(v[2]) : NULL));
}

/* embedding(weight, indices): rows of weight (torch.embedding's order). */
static Value native_embedding(NATIVE_ARGS) {
  static const char *const names[] = {"weight", "indices"};
  Value v[2];
  if (!lib_bind(vm, "embedding", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "embedding", "weight", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "embedding", "indices", v[1]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_embedding(lib_t(v[0]), lib_t(v[1])));
}

/* nn._mark_parameter(t): marks the tensor value t as an nn.Parameter (it
 * prints as one) and returns it; nn.Parameter (nn.ag) calls it. */
static Value native_mark_parameter(NATIVE_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "Parameter", "data", args[0]);
  AS_TENSOR_OBJ(args[0])->is_parameter = true;
  return args[0];
}

/* nn._is_parameter(v): whether v is a tensor nn.Parameter made. */
static Value native_is_parameter(NATIVE_ARGS) {
  return BOOL_VAL(IS_TENSOR(args[0]) && AS_TENSOR_OBJ(args[0])->is_parameter);
}

void lib_nn_define(AgVM *vm, ObjModule *module) {
  static const struct {
    const char *name;
    AgNativeFn fn;
  } natives[] = {{"_mark_parameter", native_mark_parameter}, {"_is_parameter", native_is_parameter}};
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++) {
    ObjNative *n = obj_new_native(vm, natives[i].name, natives[i].fn, 1, 1, false);
    vm_push_root(vm, OBJ_VAL(n));
    lib_module_define(vm, module, natives[i].name, OBJ_VAL(n));
    vm_pop_root(vm);
  }
}

void lib_install_nnfunc(AgVM *vm) {
  vm_define_native(vm, "mse_loss", native_mse_loss, 2, 3, true);
  vm_define_native(vm, "l1_loss", native_l1_loss, 2, 3, true);
  vm_define_native(vm, "cross_entropy", native_cross_entropy, 2, 6, true);
  vm_define_native(vm, "nll_loss", native_nll_loss, 2, 5, true);
  vm_define_native(vm, "binary_cross_entropy", native_binary_cross_entropy, 2, 4, true);
  vm_define_native(vm, "binary_cross_entropy_with_logits", native_bce_with_logits, 2, 5, true);
  vm_define_native(vm, "kl_div", native_kl_div, 2, 4, true);
  vm_define_native(vm, "smooth_l1_loss", native_smooth_l1_loss, 2, 4, true);
  vm_define_native(vm, "huber_loss", native_huber_loss, 2, 4, true);
  vm_define_native(vm, "dropout", native_dropout, 1, 3, true);
  vm_define_native(vm, "linear", native_linear, 2, 3, true);
  vm_define_native(vm, "embedding", native_embedding, 2, 2, true);
}
