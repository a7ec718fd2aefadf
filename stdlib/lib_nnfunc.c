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

/* PyTorch's legacy size_average= and reduce= (torch/nn/_reduction.py's
 * legacy_get_string): when either is given (not nil) they decide the
 * reduction, whatever reduction= says: "mean" if both are true (an absent
 * one counts as true), "sum" if only reduce is, else "none"; and the
 * deprecation warning is shown, once per reduction named, as Python shows
 * a warning once per place and text. Returns "" when neither is given. */
static const char *legacy_reduction_name(AgVM *vm, Value size_average, Value reduce) {
  bool has_sa = !IS_UNDEF(size_average) && !IS_NIL(size_average);
  bool has_r = !IS_UNDEF(reduce) && !IS_NIL(reduce);
  if (!has_sa && !has_r) return "";
  bool sa = true, r = true;
  if ((has_sa && !lib_flag(vm, size_average, true, &sa)) || (has_r && !lib_flag(vm, reduce, true, &r)))
    return NULL;
  int which = sa && r ? 0 : r ? 1 : 2;
  static const char *const names[] = {"mean", "sum", "none"};
  LibState *st = lib_state(vm);
  if (!st->warned_legacy_reduction[which]) {
    st->warned_legacy_reduction[which] = true;
    char msg[128];
    snprintf(msg, sizeof msg,
             "size_average and reduce args will be deprecated, please use reduction='%s' instead.",
             names[which]);
    lib_user_warning(vm, msg);
  }
  return names[which];
}

/* The reduction of a loss: the legacy size_average= / reduce= when given,
 * else reduction=. */
static bool loss_reduction(AgVM *vm, Value reduction, Value size_average, Value reduce, Reduction *out) {
  const char *legacy = legacy_reduction_name(vm, size_average, reduce);
  if (legacy == NULL) return false;
  if (*legacy) reduction = OBJ_VAL(obj_string(vm, legacy));
  return reduction_of(vm, reduction, out);
}

/* nn's _legacy_reduction(size_average, reduce): the reduction the loss
 * modules take from the legacy arguments ("" when neither is given). */
static Value native_legacy_reduction(NATIVE_ARGS) {
  const char *name = legacy_reduction_name(vm, args[0], args[1]);
  return name ? OBJ_VAL(obj_string(vm, name)) : VM_EXCEPTION;
}

typedef Tensor *(*LossFn)(Tensor *input, Tensor *target, Reduction r);

/* fname(input, target, reduction="mean") with two tensors (and the legacy
 * size_average=, reduce= keywords of every loss that has them). */
static Value loss(AgVM *vm, const char *fname, LossFn fn, int argc, const Value *args,
                  const AgKwargs *kw) {
  static const char *const names[] = {"input", "target", "reduction", "size_average", "reduce"};
  Value v[5];
  Reduction r;
  if (!lib_bind(vm, fname, argc, args, kw, names, 5, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!loss_reduction(vm, v[2], v[3], v[4], &r)) return VM_EXCEPTION;
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

HELP("mse_loss", HELP_TENSORS, 0,
     "mse_loss(input, target, reduction=\"mean\")",
     "Mean squared error; reduction \"mean\", \"sum\" or \"none\". Every loss but "
     "huber_loss (functions and nn modules) also takes PyTorch's legacy size_average= and "
     "reduce=: either given sets the reduction (\"mean\" when both are true, \"sum\" when "
     "only reduce is, else \"none\") and warns, as PyTorch 1.13, that they are deprecated.",
     "print(mse_loss(tensor([1.0, 2.0]), tensor([1.0, 4.0])))")

static Value native_mse_loss(NATIVE_ARGS) { return loss(vm, "mse_loss", ag_mse_loss, argc, args, kw); }

HELP("l1_loss", HELP_TENSORS, 0,
     "l1_loss(input, target, reduction=\"mean\")",
     "Mean absolute error; reduction \"mean\", \"sum\" or \"none\".",
     "print(l1_loss(tensor([1.0, 2.0]), tensor([1.0, 4.0])))")

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

HELP("cross_entropy", HELP_TENSORS, 0,
     "cross_entropy(logits, target, weight=nil, ignore_index=-100, reduction=\"mean\", "
     "label_smoothing=0.0)",
     "Softmax cross-entropy: log_softmax over the class dim (1, or 0 for a [C] input) then "
     "nll_loss, with int64 class indices as target ([N], [N, d...] or 0-d), or against class "
     "probabilities of the logits' shape. weight (one per class), ignore_index (targets "
     "that count for nothing; the mean divides by the kept targets' weights, nan when all "
     "are ignored) and label_smoothing apply as in PyTorch 1.13, its numbers to the bit.",
     "print(cross_entropy(tensor([[2.0, 0.0], [0.0, 2.0]]), tensor([0, -100])))")

/* cross_entropy(input, target, weight=nil, ignore_index=-100, reduction="mean",
 * label_smoothing=0.0), PyTorch's order of the arguments (size_average and
 * reduce, deprecated there, are left out). */
static Value native_cross_entropy(NATIVE_ARGS) {
  static const char *const names[] = {"input", "target", "weight", "ignore_index", "reduction",
                                      "label_smoothing", "size_average", "reduce"};
  Value v[8];
  Reduction r;
  Tensor *w;
  double ls = 0;
  int64_t ignore_index;
  if (!lib_bind(vm, "cross_entropy", argc, args, kw, names, 8, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "cross_entropy", "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "cross_entropy", "target", v[1]);
  if (!optional_tensor(vm, "cross_entropy", "weight", v[2], &w)) return VM_EXCEPTION;
  if (!optional_int(vm, v[3], "ignore_index", NLL_DEFAULT_IGNORE_INDEX, &ignore_index))
    return VM_EXCEPTION;
  if (!loss_reduction(vm, v[4], v[6], v[7], &r)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[5]) && !lib_number(vm, v[5], "label_smoothing", &ls)) return VM_EXCEPTION;
  /* PyTorch 1.13 checks only the upper bound; a negative value smooths nothing */
  if (ls > 1)
    return vm_raise(vm, VM_ERR_VALUE, "label_smoothing must be between 0.0 and 1.0. Got: %g", ls);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_cross_entropy_with(lib_t(v[0]), lib_t(v[1]), w, ignore_index, ls, r));
}

HELP("nll_loss", HELP_TENSORS, 0,
     "nll_loss(log_probs, target, weight=nil, ignore_index=-100, reduction=\"mean\")",
     "Negative log-likelihood of log-probabilities ([C], [N, C] or [N, C, d...]) against "
     "int64 class indices: -log_probs[target] * weight[target], 0 where target == "
     "ignore_index; the mean divides by the summed weights of the kept targets "
     "(NllLossBackward0, NllLoss2DBackward0 for a 4-D input, as PyTorch).",
     "print(nll_loss(log_softmax(zeros(2, 2), 1), tensor([0, 1]), weight=tensor([1.0, 3.0])))")

/* nll_loss(input, target, weight=nil, ignore_index=-100, reduction="mean") */
static Value native_nll_loss(NATIVE_ARGS) {
  static const char *const names[] = {"input", "target", "weight", "ignore_index", "reduction",
                                      "size_average", "reduce"};
  Value v[7];
  Reduction r;
  Tensor *w;
  int64_t ignore_index;
  if (!lib_bind(vm, "nll_loss", argc, args, kw, names, 7, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "nll_loss", "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "nll_loss", "target", v[1]);
  if (!optional_tensor(vm, "nll_loss", "weight", v[2], &w)) return VM_EXCEPTION;
  if (!optional_int(vm, v[3], "ignore_index", NLL_DEFAULT_IGNORE_INDEX, &ignore_index))
    return VM_EXCEPTION;
  if (!loss_reduction(vm, v[4], v[5], v[6], &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_nll_loss_weighted(lib_t(v[0]), lib_t(v[1]), w, ignore_index, r));
}

HELP("binary_cross_entropy", HELP_TENSORS, 0,
     "binary_cross_entropy(probs, target, weight=nil, reduction=\"mean\")",
     "Binary cross-entropy of probabilities in [0, 1] against targets of the same shape, "
     "each log clamped at -100; weight (broadcast to the input) multiplies each element's "
     "loss before the reduction.",
     "print(binary_cross_entropy(tensor([0.5, 0.9]), tensor([1.0, 1.0]), weight=tensor([1.0, 2.0])))")

/* binary_cross_entropy(input, target, weight=nil, reduction="mean") */
static Value native_binary_cross_entropy(NATIVE_ARGS) {
  static const char *const fname = "binary_cross_entropy";
  static const char *const names[] = {"input", "target", "weight", "reduction", "size_average", "reduce"};
  Value v[6];
  Reduction r;
  Tensor *w;
  if (!lib_bind(vm, fname, argc, args, kw, names, 6, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!optional_tensor(vm, fname, "weight", v[2], &w)) return VM_EXCEPTION;
  if (!loss_reduction(vm, v[3], v[4], v[5], &r)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_binary_cross_entropy(lib_t(v[0]), lib_t(v[1]), w, r));
}

HELP("binary_cross_entropy_with_logits", HELP_TENSORS, 0,
     "binary_cross_entropy_with_logits(logits, target, weight=nil, reduction=\"mean\", "
     "pos_weight=nil)",
     "Binary cross-entropy of sigmoid(logits), computed stably from the logits; weight scales "
     "each element, pos_weight the positive term of each class (both broadcast; no gradient). "
     "BinaryCrossEntropyWithLogitsBackward0.",
     "print(binary_cross_entropy_with_logits(tensor([0.0, 2.0]), tensor([1.0, 0.0])))")

/* binary_cross_entropy_with_logits(input, target, weight=nil, reduction="mean", pos_weight=nil) */
static Value native_bce_with_logits(NATIVE_ARGS) {
  static const char *const fname = "binary_cross_entropy_with_logits";
  static const char *const names[] = {"input", "target", "weight", "reduction", "pos_weight",
                                      "size_average", "reduce"};
  Value v[7];
  Reduction r;
  Tensor *w, *pw;
  if (!lib_bind(vm, fname, argc, args, kw, names, 7, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!optional_tensor(vm, fname, "weight", v[2], &w)) return VM_EXCEPTION;
  if (!loss_reduction(vm, v[3], v[5], v[6], &r)) return VM_EXCEPTION;
  if (!optional_tensor(vm, fname, "pos_weight", v[4], &pw)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_binary_cross_entropy_with_logits(lib_t(v[0]), lib_t(v[1]), w, pw, r));
}

typedef Tensor *(*RobustFn)(Tensor *a, Tensor *b, double k, Reduction r);

/* fname(input, target, reduction="mean", <k>=1.0): smooth_l1_loss (beta,
 * and the legacy size_average=, reduce=), huber_loss (delta, no legacy) */
static Value robust_loss(AgVM *vm, const char *fname, const char *kname, RobustFn fn, int argc,
                         const Value *args, const AgKwargs *kw, bool legacy) {
  const char *const names[] = {"input", "target", "reduction", kname, "size_average", "reduce"};
  Value v[6];
  Reduction r;
  double k = 1.0;
  if (!lib_bind(vm, fname, argc, args, kw, names, legacy ? 6 : 4, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, fname, "target", v[1]);
  if (!loss_reduction(vm, v[2], legacy ? v[4] : UNDEF_VAL, legacy ? v[5] : UNDEF_VAL, &r))
    return VM_EXCEPTION;
  if (!IS_UNDEF(v[3]) && !lib_number(vm, v[3], kname, &k)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, fn(lib_t(v[0]), lib_t(v[1]), k, r));
}

HELP("smooth_l1_loss", HELP_TENSORS, 0,
     "smooth_l1_loss(input, target, reduction=\"mean\", beta=1.0)",
     "0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (d = input - target); "
     "beta 0 is the L1 loss. SmoothL1LossBackward0.",
     "print(smooth_l1_loss(tensor([0.5, 3.0]), zeros(2)))")

static Value native_smooth_l1_loss(NATIVE_ARGS) {
  return robust_loss(vm, "smooth_l1_loss", "beta", ag_smooth_l1_loss, argc, args, kw, true);
}

HELP("huber_loss", HELP_TENSORS, 0,
     "huber_loss(input, target, reduction=\"mean\", delta=1.0)",
     "0.5 d^2 where |d| < delta, delta (|d| - 0.5 delta) elsewhere (d = input - target). "
     "HuberLossBackward0.",
     "print(huber_loss(tensor([0.5, 3.0]), zeros(2), delta=2.0))")

static Value native_huber_loss(NATIVE_ARGS) {
  return robust_loss(vm, "huber_loss", "delta", ag_huber_loss, argc, args, kw, false);
}

HELP("kl_div", HELP_TENSORS, 0,
     "kl_div(log_probs, target, reduction=\"mean\", log_target=false)",
     "Kullback-Leibler divergence: target * (log(target) - input) (0 where target is 0), or "
     "with log_target exp(target) * (target - input). reduction \"batchmean\" divides the "
     "sum by the batch size (KL's definition); \"mean\" divides by the element count and "
     "warns, as PyTorch 1.13 does.",
     "print(kl_div(log_softmax(tensor([[1.0, 2.0]]), 1), tensor([[0.5, 0.5]]), "
     "reduction=\"batchmean\"))")

/* kl_div(input, target, reduction="mean", log_target=false); reduction may
 * also be "batchmean" (the sum divided by the batch size). "mean" warns
 * once, as PyTorch 1.13 does. The legacy size_average=/reduce= set the
 * reduction; reduction="batchmean" still divides by the batch size then,
 * as in PyTorch's F.kl_div. */
static Value native_kl_div(NATIVE_ARGS) {
  static const char *const names[] = {"input", "target", "reduction", "log_target", "size_average", "reduce"};
  Value v[6];
  Reduction r = RED_SUM;
  bool log_target;
  if (!lib_bind(vm, "kl_div", argc, args, kw, names, 6, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "kl_div", "input", v[0]);
  if (!IS_TENSOR(v[1])) return lib_type_error(vm, "kl_div", "target", v[1]);
  if (!lib_flag(vm, v[3], false, &log_target)) return VM_EXCEPTION;
  const char *legacy = legacy_reduction_name(vm, v[4], v[5]);
  if (legacy == NULL) return VM_EXCEPTION;
  bool batchmean = IS_STRING(v[2]) && strcmp(AS_CSTRING(v[2]), "batchmean") == 0;
  if (*legacy) {
    if (!reduction_of(vm, OBJ_VAL(obj_string(vm, legacy)), &r)) return VM_EXCEPTION;
  } else if (!batchmean) {
    if (!reduction_of(vm, v[2], &r)) return VM_EXCEPTION;
    LibState *st = lib_state(vm);
    if (r == RED_MEAN && !st->warned_kl_div_mean) {
      st->warned_kl_div_mean = true;
      lib_user_warning(vm, "reduction: 'mean' divides the total loss by both the batch size and the "
                           "support size.'batchmean' divides only by the batch size, and aligns with the "
                           "KL div math definition.'mean' will be changed to behave the same as "
                           "'batchmean' in the next major release.");
    }
  }
  lib_sync_line(vm);
  return lib_wrap(vm, ag_kl_div(lib_t(v[0]), lib_t(v[1]), r, batchmean, log_target));
}

typedef struct {
  TensorRng *rng;
  double p;
} DropoutArgs;

static Tensor *dropout_of(Tensor *x, void *ctx) {
  const DropoutArgs *d = ctx;
  return ag_dropout(d->rng, x, d->p, true);
}

/* dropout(x, p=0.5, training=true), and F.dropout's inplace=false after
 * them (with_inplace): in place, x's values are replaced and its history
 * ends in the dropout node; outside training x comes back untouched. */
Value lib_dropout(AgVM *vm, const char *fname, int argc, const Value *args, const AgKwargs *kw,
                  bool with_inplace) {
  static const char *const names[] = {"input", "p", "training", "inplace"};
  Value v[4];
  double p = 0.5;
  bool training, inplace;
  if (!lib_bind(vm, fname, argc, args, kw, names, with_inplace ? 4 : 3, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  if (!IS_UNDEF(v[1]) && !lib_number(vm, v[1], "p", &p)) return VM_EXCEPTION;
  if (!lib_flag(vm, v[2], true, &training)) return VM_EXCEPTION;
  if (!lib_flag(vm, with_inplace ? v[3] : UNDEF_VAL, false, &inplace)) return VM_EXCEPTION;
  if (!(p >= 0 && p <= 1))
    return vm_raise(vm, VM_ERR_VALUE, "dropout probability has to be between 0 and 1, but got %g", p);
  TensorRng *rng = lib_rng(vm, NIL_VAL, fname);
  if (rng == NULL) return VM_EXCEPTION;
  lib_sync_line(vm);
  if (!inplace) return lib_wrap(vm, ag_dropout(rng, lib_t(v[0]), p, training));
  if (!training || p == 0 || lib_t(v[0])->numel == 0) return v[0];
  DropoutArgs d = {rng, p};
  return ag_apply_inplace(lib_t(v[0]), NULL, dropout_of, &d) ? v[0] : lib_throw_tensor_error(vm);
}

static Value native_dropout(NATIVE_ARGS) { return lib_dropout(vm, "dropout", argc, args, kw, false); }

HELP("linear", HELP_TENSORS, 0,
     "linear(x, weight, bias=nil)",
     "x @ weight.T + bias, the function behind nn.Linear.",
     "print(linear(ones(1, 2), ones(3, 2), zeros(3)))")

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

HELP("embedding", HELP_TENSORS, 0,
     "embedding(weight, indices)",
     "Rows of weight picked by the int64 tensor indices: the function behind nn.Embedding. "
     "Its backward adds each gradient row into the row it came from (EmbeddingBackward0).",
     "print(embedding(eye(3), tensor([2, 0], dtype=int64)))")

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
    int nargs;
  } natives[] = {{"_mark_parameter", native_mark_parameter, 1},
                 {"_is_parameter", native_is_parameter, 1},
                 {"_legacy_reduction", native_legacy_reduction, 2}};
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++) {
    ObjNative *n = obj_new_native(vm, natives[i].name, natives[i].fn, natives[i].nargs, natives[i].nargs, false);
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
