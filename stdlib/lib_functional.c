/* lib_functional.c — the nn.functional module (functional.ag) and the
 * natives that exist only there: F.leaky_relu, F.elu, F.silu, F.softplus,
 * F.pad. The built-ins that already have torch.nn.functional's signature
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

static Value native_leaky_relu(NATIVE_ARGS) {
  static const char *const names[] = {"input", "negative_slope"};
  Value v[2];
  double slope;
  if (IS_EXCEPTION(activation(vm, "leaky_relu", argc, args, kw, names, 2, v)) ||
      !number_or(vm, v[1], "negative_slope", 0.01, &slope))
    return VM_EXCEPTION;
  return lib_wrap(vm, ag_leaky_relu(lib_t(v[0]), slope));
}

static Value native_elu(NATIVE_ARGS) {
  static const char *const names[] = {"input", "alpha"};
  Value v[2];
  double alpha;
  if (IS_EXCEPTION(activation(vm, "elu", argc, args, kw, names, 2, v)) ||
      !number_or(vm, v[1], "alpha", 1.0, &alpha))
    return VM_EXCEPTION;
  return lib_wrap(vm, ag_elu(lib_t(v[0]), alpha));
}

static Value native_silu(NATIVE_ARGS) {
  static const char *const names[] = {"input"};
  Value v[1];
  if (IS_EXCEPTION(activation(vm, "silu", argc, args, kw, names, 1, v))) return VM_EXCEPTION;
  return lib_wrap(vm, ag_silu(lib_t(v[0])));
}

static Value native_softplus(NATIVE_ARGS) {
  static const char *const names[] = {"input", "beta", "threshold"};
  Value v[3];
  double beta, threshold;
  if (IS_EXCEPTION(activation(vm, "softplus", argc, args, kw, names, 3, v)) ||
      !number_or(vm, v[1], "beta", 1.0, &beta) ||
      !number_or(vm, v[2], "threshold", 20.0, &threshold))
    return VM_EXCEPTION;
  return lib_wrap(vm, ag_softplus(lib_t(v[0]), beta, threshold));
}

/* pad(input, pad, mode="constant", value=0) */
static Value native_pad(NATIVE_ARGS) {
  static const char *const names[] = {"input", "pad", "mode", "value"};
  Value v[4];
  double value;
  int64_t pads[2 * TENSOR_MAX_DIMS];
  if (IS_EXCEPTION(activation(vm, "pad", argc, args, kw, names, 4, v))) return VM_EXCEPTION;
  if (!IS_LIST(v[1])) return lib_type_error(vm, "pad", "pad", v[1]);
  ObjList *l = AS_LIST(v[1]);
  if (l->count > 2 * TENSOR_MAX_DIMS || l->count % 2 != 0)
    return vm_throw_error(vm, "Padding length must be divisible by 2");
  for (int i = 0; i < l->count; i++)
    if (!lib_int(vm, l->items[i], "pad", &pads[i])) return VM_EXCEPTION;
  if (!IS_UNDEF(v[2]) && !(IS_STRING(v[2]) && strcmp(AS_CSTRING(v[2]), "constant") == 0))
    return vm_throw_error(vm, "pad: only mode=\"constant\" is supported");
  if (!number_or(vm, v[3], "value", 0, &value)) return VM_EXCEPTION;
  return lib_wrap(vm, ag_constant_pad(lib_t(v[0]), l->count, pads, value));
}

/* Built-ins whose signature is already torch.nn.functional's. */
static const char *const shared_builtins[] = {
    "relu", "tanh", "sigmoid", "gelu", "softmax", "log_softmax", "dropout", "linear",
    "conv1d", "conv2d", "max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d",
    "adaptive_avg_pool2d", "batch_norm", "layer_norm", "group_norm", "unfold", "fold",
    "mse_loss", "l1_loss", "cross_entropy", "nll_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div", "smooth_l1_loss", "huber_loss",
};

void lib_functional_define(AgVM *vm, ObjModule *module) {
  for (size_t i = 0; i < sizeof shared_builtins / sizeof shared_builtins[0]; i++) {
    Value v;
    ObjString *name = obj_string(vm, shared_builtins[i]);
    if (table_get(&vm->builtins, OBJ_VAL(name), &v)) lib_module_define(vm, module, shared_builtins[i], v);
  }
  Value emb; /* F.embedding (functional.ag) swaps its arguments */
  ObjString *emb_name = obj_string(vm, "embedding");
  if (table_get(&vm->builtins, OBJ_VAL(emb_name), &emb)) lib_module_define(vm, module, "_embedding", emb);
  static const struct {
    const char *name;
    AgNativeFn fn;
    int min, max;
  } natives[] = {
      {"leaky_relu", native_leaky_relu, 1, 2}, {"elu", native_elu, 1, 2},
      {"silu", native_silu, 1, 1},             {"softplus", native_softplus, 1, 3},
      {"pad", native_pad, 2, 4},
  };
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++) {
    ObjNative *n = obj_new_native(vm, natives[i].name, natives[i].fn, natives[i].min,
                                  natives[i].max, true);
    vm_push_root(vm, OBJ_VAL(n));
    lib_module_define(vm, module, natives[i].name, OBJ_VAL(n));
    vm_pop_root(vm);
  }
}
