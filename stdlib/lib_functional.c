/* lib_functional.c — the nn.functional module (functional.ag) and the
 * natives that exist only there: F.relu(inplace=), F.dropout, F.pad and the
 * activations of ops/activations.h (F.leaky_relu, F.elu, ...), bound from
 * their rows. The built-ins that already have torch.nn.functional's signature
 * (conv2d, max_pool2d, batch_norm, cross_entropy, ...) are put into the
 * module under their own names.
 */
#include <string.h>

#include "stdlib/lib_internal.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

static bool number_or(AgVM *vm, Value v, const char *what, double dflt, double *out) {
  *out = dflt;
  return IS_UNDEF(v) || lib_number(vm, v, what, out);
}

static Value activation(AgVM *vm, const char *fname, int argc, const Value *args,
                        const AgKwargs *kw, const char *const *names, int n, Value *v) {
  if (!lib_bind(vm, fname, argc, args, kw, names, n, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, fname, "input", v[0]);
  lib_sync_line(vm);
  return NIL_VAL;
}

/* out of place, or (inplace=true) through fn written into x, whose history
 * then ends in fn's node, as PyTorch's relu_, leaky_relu_ and elu_ do. */
static Value activate(AgVM *vm, Value x, Value inplace, Tensor *(*fn)(Tensor *x, void *ctx),
                      void *ctx) {
  bool in_place;
  if (!lib_flag(vm, inplace, false, &in_place)) return VM_EXCEPTION;
  if (!in_place) return lib_wrap(vm, fn(lib_t(x), ctx));
  return ag_apply_inplace(lib_t(x), NULL, fn, ctx) ? x : lib_throw_tensor_error(vm);
}

static Tensor *relu_of(Tensor *x, void *unused) { return ag_unary(UN_RELU, x); }

static Value native_relu(NATIVE_ARGS) {
  static const char *const names[] = {"input", "inplace"};
  Value v[2];
  if (IS_EXCEPTION(activation(vm, "relu", argc, args, kw, names, 2, v))) return VM_EXCEPTION;
  return activate(vm, v[0], v[1], relu_of, NULL);
}

HELP("dropout", HELP_TENSORS, 0,
     "dropout(t, p=0.5, training=true)",
     "Zeroes each element with probability p and scales the rest by 1/(1-p) while "
     "training; the identity otherwise.",
     "print(dropout(ones(4), 0.5, false))")

static Value native_dropout(NATIVE_ARGS) { return lib_dropout(vm, "dropout", argc, args, kw, true); }

/* ---- the activations of ops/activations.h: one binding for every row ---- */

/* F.NAME's parameters by name, with their defaults, and whether it takes inplace=. */
typedef struct {
  const char *name;
  int nparams;
  const char *param[AG_ACT_MAX_PARAMS];
  double dflt[AG_ACT_MAX_PARAMS];
  bool inplace;
} ActivationBinding;

#define BIND_PARAMS0() 0, {NULL}, {0}
#define BIND_PARAMS1(n, d) 1, {#n}, {d}
#define BIND_PARAMS2(n1, d1, n2, d2) 2, {#n1, #n2}, {d1, d2}
#define BIND_INPLACE true
#define BIND_INPLACE_OWN_NODE true
#define BIND_NO_INPLACE false
static const ActivationBinding activation_bindings[AG_ACT_COUNT] = {
#define ACTIVATION_BINDING(C, NAME, name, node, formula, inplace, inode, iformula, params, ...)     \
  [AG_ACT_##NAME] = {#name, BIND_##params, BIND_##inplace},
    AG_ACTIVATION_REGISTRY(ACTIVATION_BINDING, 0)
#undef ACTIVATION_BINDING
};

/* F.NAME(input, parameters..., inplace=false): out of place, or written
 * into its input, whose history then ends in the activation's node, as
 * PyTorch's leaky_relu_ and elu_ do. */
static Value bind_activation(AgVM *vm, AgActivation a, int argc, const Value *args,
                             const AgKwargs *kw) {
  const ActivationBinding *b = &activation_bindings[a];
  const char *names[2 + AG_ACT_MAX_PARAMS];
  Value v[2 + AG_ACT_MAX_PARAMS];
  int n = 0;
  names[n++] = "input";
  for (int i = 0; i < b->nparams; i++) names[n++] = b->param[i];
  if (b->inplace) names[n++] = "inplace";
  if (IS_EXCEPTION(activation(vm, b->name, argc, args, kw, names, n, v))) return VM_EXCEPTION;
  double p[AG_ACT_MAX_PARAMS] = {0};
  for (int i = 0; i < b->nparams; i++)
    if (!number_or(vm, v[1 + i], b->param[i], b->dflt[i], &p[i])) return VM_EXCEPTION;
  bool inplace = false;
  if (b->inplace && !lib_flag(vm, v[1 + b->nparams], false, &inplace)) return VM_EXCEPTION;
  if (!inplace) return lib_wrap(vm, ag_activation(a, lib_t(v[0]), p));
  return ag_activation_(a, lib_t(v[0]), p) ? v[0] : lib_throw_tensor_error(vm);
}

#define ACTIVATION_NATIVE(C, NAME, name, ...)                                                     \
  static Value native_##name(NATIVE_ARGS) { return bind_activation(vm, AG_ACT_##NAME, argc, args, kw); }
AG_ACTIVATION_REGISTRY(ACTIVATION_NATIVE, 0)
#undef ACTIVATION_NATIVE

static const AgNativeFn activation_natives[AG_ACT_COUNT] = {
#define ACTIVATION_FN(C, NAME, name, ...) [AG_ACT_##NAME] = native_##name,
    AG_ACTIVATION_REGISTRY(ACTIVATION_FN, 0)
#undef ACTIVATION_FN
};

static void define_native(AgVM *vm, ObjModule *module, const char *name, AgNativeFn fn, int min,
                          int max) {
  ObjNative *n = obj_new_native(vm, name, fn, min, max, true);
  vm_push_root(vm, OBJ_VAL(n));
  lib_module_define(vm, module, name, OBJ_VAL(n));
  vm_pop_root(vm);
}

/* PyTorch's check of a reflect pad: each amount less than its dim's size.
 * Its message names the argument (#4 the last dim's pads, #6, #8) and the
 * input by its sizes, or by its rank for a 2-d pad (PyTorch's own words). */
static bool reflect_pads_fit(AgVM *vm, const Tensor *x, int npads, const int64_t *pads) {
  for (int k = 0; k < npads / 2; k++) {
    int d = x->ndim - 1 - k;
    int64_t left = pads[2 * k], right = pads[2 * k + 1];
    if (left < x->shape[d] && right < x->shape[d]) continue;
    char input[128];
    if (npads == 4) snprintf(input, sizeof input, "%d", x->ndim);
    else tensor_format_shape(input, sizeof input, x->ndim, x->shape);
    vm_throw_error(vm, "Argument #%d: Padding size should be less than the corresponding input "
                       "dimension, but got: padding (%lld, %lld) at dimension %d of input %s",
                   4 + 2 * k, (long long)left, (long long)right, d, input);
    return false;
  }
  return true;
}

/* Every padded dim keeps at least one element (reflect, replicate) or does
 * not wrap around more than once and keeps none or more (circular). */
static bool mode_pads_fit(AgVM *vm, const Tensor *x, int npads, const int64_t *pads,
                          bool circular) {
  static const char axis[] = "WHD";
  for (int k = 0; k < npads / 2; k++) {
    int d = x->ndim - 1 - k;
    int64_t n = x->shape[d], left = pads[2 * k], right = pads[2 * k + 1], size;
    if (circular && (left > n || right > n)) {
      vm_throw_error(vm, "Padding value causes wrapping around more than once.");
      return false;
    }
    bool overflow = __builtin_add_overflow(n, left, &size) || __builtin_add_overflow(size, right, &size);
    if (!overflow && size >= (circular ? 0 : 1)) continue;
    if (circular) vm_throw_error(vm, "Negative padding value is resulting in an empty dimension");
    else if (overflow) vm_throw_error(vm, "pad: the padded size of dimension %d overflows", d);
    else vm_throw_error(vm, "input (%c: %lld) is too small. Calculated output %c: %lld", axis[k],
                        (long long)n, axis[k], (long long)size);
    return false;
  }
  return true;
}

/* reflect, replicate, circular: the last npads/2 (1 to 3) dims of a batched
 * or unbatched input (circular: batched only), with PyTorch's checks. */
static Value mode_pad(AgVM *vm, Tensor *x, const char *mode, int npads, const int64_t *pads) {
  int k = npads / 2;
  if (k > x->ndim) return vm_throw_error(vm, "Padding length too large");
  if (npads == 0 || npads > 6 || (x->ndim != k + 1 && x->ndim != k + 2))
    return vm_throw_error(vm, "Only 2D, 3D, 4D, 5D padding with non-constant padding are "
                              "supported for now");
  bool circular = strcmp(mode, "circular") == 0, reflect = strcmp(mode, "reflect") == 0;
  if (circular && npads + 4 != 2 * x->ndim)
    return vm_throw_error(vm, "Invalid padding size, expected %d but got %d", 2 * (x->ndim - 2),
                          npads);
  if ((reflect && !reflect_pads_fit(vm, x, npads, pads)) || !mode_pads_fit(vm, x, npads, pads, circular))
    return VM_EXCEPTION;
  if (circular) return lib_wrap(vm, ag_circular_pad(x, npads, pads));
  return lib_wrap(vm, ag_mode_pad(x, npads, pads, reflect));
}

/* pad(input, pad, mode="constant", value=0): mode also "reflect",
 * "replicate" or "circular" (which take no value but 0). */
static Value native_pad(NATIVE_ARGS) {
  static const char *const names[] = {"input", "pad", "mode", "value"};
  Value v[4];
  double value;
  int64_t pads[2 * TENSOR_MAX_DIMS];
  if (IS_EXCEPTION(activation(vm, "pad", argc, args, kw, names, 4, v))) return VM_EXCEPTION;
  if (!is_list_or_tuple(v[1])) return lib_type_error(vm, "pad", "pad", v[1]);
  ObjList *l = AS_LIST(v[1]);
  if (l->count > 2 * TENSOR_MAX_DIMS || l->count % 2 != 0)
    return vm_throw_error(vm, "Padding length must be divisible by 2");
  for (int i = 0; i < l->count; i++)
    if (!lib_int(vm, l->items[i], "pad", &pads[i])) return VM_EXCEPTION;
  const char *mode = "constant";
  if (!IS_UNDEF(v[2])) {
    if (!IS_STRING(v[2]))
      return vm_raise(vm, VM_ERR_TYPE, "pad(): argument 'mode' must be str, not %s", vm_type_name(v[2]));
    mode = AS_CSTRING(v[2]);
  }
  static const char *const modes[] = {"constant", "reflect", "replicate", "circular"};
  bool known = false;
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) known |= strcmp(mode, modes[i]) == 0;
  if (!known) return vm_throw_error(vm, "Unrecognised padding mode %s", mode);
  if (!number_or(vm, v[3], "value", 0, &value)) return VM_EXCEPTION;
  if (strcmp(mode, "constant") == 0)
    return lib_wrap(vm, ag_constant_pad(lib_t(v[0]), l->count, pads, value));
  if (value != 0)
    return vm_throw_error(vm, "Padding mode \"%s\" doesn't take in value argument", mode);
  return mode_pad(vm, lib_t(v[0]), mode, l->count, pads);
}

/* Built-ins whose signature is already torch.nn.functional's. */
static const char *const shared_builtins[] = {
    "tanh", "sigmoid", "gelu", "softmax", "log_softmax", "linear",
    "conv1d", "conv2d", "max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d",
    "adaptive_avg_pool2d", "batch_norm", "layer_norm", "group_norm", "unfold", "fold",
    "mse_loss", "l1_loss", "cross_entropy", "nll_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div", "smooth_l1_loss", "huber_loss",
};

void lib_functional_define(AgVM *vm, ObjModule *module) {
  for (size_t i = 0; i < sizeof shared_builtins / sizeof shared_builtins[0]; i++) {
    Value v;
    ObjString *name = obj_string(vm, shared_builtins[i]);
    if (table_get(&vm->globals.builtins, OBJ_VAL(name), &v)) lib_module_define(vm, module, shared_builtins[i], v);
  }
  Value emb; /* F.embedding (functional.ag) swaps its arguments */
  ObjString *emb_name = obj_string(vm, "embedding");
  if (table_get(&vm->globals.builtins, OBJ_VAL(emb_name), &emb)) lib_module_define(vm, module, "_embedding", emb);
  define_native(vm, module, "relu", native_relu, 1, 2);
  define_native(vm, module, "dropout", native_dropout, 1, 4);
  define_native(vm, module, "pad", native_pad, 2, 4);
  for (int a = 0; a < AG_ACT_COUNT; a++) {
    const ActivationBinding *b = &activation_bindings[a];
    define_native(vm, module, b->name, activation_natives[a], 1, 1 + b->nparams + b->inplace);
  }
}
