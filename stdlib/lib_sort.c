/* lib_sort.c — sort, argsort, topk, flip, tril/triu, cumsum/cumprod (LIB_TENSOR_FNS
 * rows and amax/amin, trace; tensor/sort.c, reorder.c, scan.c, amax.c compute, autograd/ops_sort.c
 * records). sort, topk, kthvalue and median return
 * PyTorch's named pairs (torch.return_types), as max(dim) does. */
#include <stdlib.h>

#include "stdlib/lib_internal.h"

#define LT_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

/* dim (default -1) from v[0], flags from v[1..nflags] with their defaults. */
static bool dim_and_flags(AgVM *vm, const Value *v, int *dim, int nflags, const bool *dflt,
                          bool *flags) {
  if (IS_UNDEF(v[0]) || IS_NIL(v[0])) *dim = -1;
  else if (!lib_dim(vm, v[0], dim)) return false;
  for (int i = 0; i < nflags; i++)
    if (!lib_flag(vm, v[1 + i], dflt[i], &flags[i])) return false;
  return true;
}

/* torch.return_types.NAME(values=, indices=) */
static Value pair_or_throw(AgVM *vm, const char *name, Tensor *values, Tensor *indices) {
  if (values == NULL) return lib_throw_tensor_error(vm);
  return lib_named_pair(vm, name, values, indices);
}

/* sort(dim=-1, descending=false, stable=false): always stable (tensor/sort.c). */
Value lt_sort(LT_ARGS) {
  static const char *const names[] = {"dim", "descending", "stable"};
  static const bool dflt[] = {false, false};
  Value v[3];
  int dim;
  bool flags[2];
  if (!lib_bind(vm, "sort", argc, args, kw, names, 3, v) ||
      !dim_and_flags(vm, v, &dim, 2, dflt, flags))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *indices = NULL;
  Tensor *values = ag_sort(lib_t(self), dim, flags[0], &indices);
  return pair_or_throw(vm, "sort", values, indices);
}

Value lt_argsort(LT_ARGS) {
  static const char *const names[] = {"dim", "descending", "stable"};
  static const bool dflt[] = {false, false};
  Value v[3];
  int dim;
  bool flags[2];
  if (!lib_bind(vm, "argsort", argc, args, kw, names, 3, v) ||
      !dim_and_flags(vm, v, &dim, 2, dflt, flags))
    return VM_EXCEPTION;
  return lib_wrap(vm, tensor_argsort(lib_t(self), dim, flags[0]));
}

/* topk(k, dim=-1, largest=true, sorted=true): the result is always sorted. */
Value lt_topk(LT_ARGS) {
  static const char *const names[] = {"k", "dim", "largest", "sorted"};
  static const bool dflt[] = {true, true};
  Value v[4];
  int64_t k;
  int dim;
  bool flags[2];
  if (!lib_bind(vm, "topk", argc, args, kw, names, 4, v)) return VM_EXCEPTION;
  if (IS_UNDEF(v[0])) return vm_raise(vm, VM_ERR_TYPE, "topk() missing required argument 'k'");
  if (!lib_int(vm, v[0], "k", &k) || !dim_and_flags(vm, v + 1, &dim, 2, dflt, flags))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *indices = NULL;
  Tensor *values = ag_topk(lib_t(self), k, dim, flags[0], &indices);
  return pair_or_throw(vm, "topk", values, indices);
}

/* kthvalue(k, dim=-1, keepdim=false) -> [values, indices] */
Value lt_kthvalue(LT_ARGS) {
  static const char *const names[] = {"k", "dim", "keepdim"};
  static const bool dflt[] = {false};
  Value v[3];
  int64_t k;
  int dim;
  bool keepdim;
  if (!lib_bind(vm, "kthvalue", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  if (IS_UNDEF(v[0])) return vm_raise(vm, VM_ERR_TYPE, "kthvalue() missing required argument 'k'");
  if (!lib_int(vm, v[0], "k", &k) || !dim_and_flags(vm, v + 1, &dim, 1, dflt, &keepdim))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *indices = NULL;
  Tensor *values = ag_kthvalue(lib_t(self), k, dim, keepdim, &indices);
  return pair_or_throw(vm, "kthvalue", values, indices);
}

/* mode(dim=-1, keepdim=false) -> torch.return_types.mode(values, indices) */
Value lt_mode(LT_ARGS) {
  static const char *const names[] = {"dim", "keepdim"};
  static const bool dflt[] = {false};
  Value v[2];
  int dim;
  bool keepdim;
  if (!lib_bind(vm, "mode", argc, args, kw, names, 2, v) || !dim_and_flags(vm, v, &dim, 1, dflt, &keepdim))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *indices = NULL;
  Tensor *values = ag_mode(lib_t(self), dim, keepdim, &indices);
  return pair_or_throw(vm, "mode", values, indices);
}

/* median() -> the lower median of every element; median(dim, keepdim=false)
 * -> [values, indices] */
Value lt_median(LT_ARGS) {
  static const char *const names[] = {"dim", "keepdim"};
  static const bool dflt[] = {false};
  Value v[2];
  int dim;
  bool keepdim;
  if (!lib_bind(vm, "median", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  bool has_dim = !IS_UNDEF(v[0]) && !IS_NIL(v[0]);
  if (!dim_and_flags(vm, v, &dim, 1, dflt, &keepdim)) return VM_EXCEPTION;
  lib_sync_line(vm);
  if (!has_dim) return lib_wrap(vm, ag_median(lib_t(self), 0, false, false, NULL));
  Tensor *indices = NULL;
  Tensor *values = ag_median(lib_t(self), dim, true, keepdim, &indices);
  return pair_or_throw(vm, "median", values, indices);
}

/* flip(dims): a list, or the dims one by one (x.flip(0, 1)). */
Value lt_flip(LT_ARGS) {
  int dims[TENSOR_MAX_DIMS], ndims = 0;
  Value v = UNDEF_VAL;
  if (argc > 1) {
    if (argc > TENSOR_MAX_DIMS) return vm_throw_error(vm, "too many dimensions: %d", argc);
    for (int i = 0; i < argc; i++)
      if (!lib_dim(vm, args[i], &dims[i])) return VM_EXCEPTION;
    ndims = argc;
  } else {
    static const char *const names[] = {"dims"};
    if (!lib_bind(vm, "flip", argc, args, kw, names, 1, &v)) return VM_EXCEPTION;
    if (IS_UNDEF(v)) return vm_raise(vm, VM_ERR_TYPE, "flip() missing required argument 'dims'");
    if (!lib_dims(vm, v, dims, &ndims)) return VM_EXCEPTION;
  }
  lib_sync_line(vm);
  return lib_wrap(vm, ag_flip(lib_t(self), dims, ndims));
}

static Value triangle_fn(AgVM *vm, Value self, bool lower, int argc, const Value *args,
                         const AgKwargs *kw) {
  const char *fname = lower ? "tril" : "triu";
  static const char *const names[] = {"diagonal"};
  Value v;
  int64_t diagonal = 0;
  if (!lib_bind(vm, fname, argc, args, kw, names, 1, &v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v) && !lib_int(vm, v, "diagonal", &diagonal)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  return lib_wrap(vm, lower ? ag_tril(t, diagonal) : ag_triu(t, diagonal));
}

Value lt_tril(LT_ARGS) { return triangle_fn(vm, self, true, argc, args, kw); }
Value lt_triu(LT_ARGS) { return triangle_fn(vm, self, false, argc, args, kw); }

/* cumsum(dim, dtype=nil), cumprod(dim, dtype=nil) */
static Value scan_fn(AgVM *vm, Value self, bool product, int argc, const Value *args,
                     const AgKwargs *kw) {
  const char *fname = product ? "cumprod" : "cumsum";
  static const char *const names[] = {"dim", "dtype"};
  Value v[2];
  int dim;
  DType dtype = DT_COUNT;
  if (!lib_bind(vm, fname, argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (IS_UNDEF(v[0])) return vm_raise(vm, VM_ERR_TYPE, "%s() missing required argument 'dim'", fname);
  if (!lib_dim(vm, v[0], &dim) || !lib_dtype(vm, v[1], &dtype)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  return lib_wrap(vm, product ? ag_cumprod(t, dim, dtype) : ag_cumsum(t, dim, dtype));
}

Value lt_cumsum(LT_ARGS) { return scan_fn(vm, self, false, argc, args, kw); }
Value lt_cumprod(LT_ARGS) { return scan_fn(vm, self, true, argc, args, kw); }

/* amax(dim=(), keepdim=false): dim a number or a list, () or nil for all. */
static Value amax_fn(AgVM *vm, Value self, bool is_max, int argc, const Value *args,
                     const AgKwargs *kw) {
  const char *fname = is_max ? "amax" : "amin";
  static const char *const names[] = {"dim", "keepdim"};
  Value v[2];
  int dims[TENSOR_MAX_DIMS], ndims;
  bool keepdim;
  if (!lib_bind(vm, fname, argc, args, kw, names, 2, v) || !lib_dims(vm, v[0], dims, &ndims) ||
      !lib_flag(vm, v[1], false, &keepdim))
    return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  return lib_wrap(vm, is_max ? ag_amax(t, dims, ndims, keepdim) : ag_amin(t, dims, ndims, keepdim));
}

Value lt_amax(LT_ARGS) { return amax_fn(vm, self, true, argc, args, kw); }
Value lt_amin(LT_ARGS) { return amax_fn(vm, self, false, argc, args, kw); }

Value lt_trace(LT_ARGS) {
  if (kw && kw->count) return vm_raise(vm, VM_ERR_TYPE, "trace() got an unexpected keyword argument '%s'", kw->names[0]->chars);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_trace(lib_t(self)));
}
