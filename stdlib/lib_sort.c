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

HELP("sort", HELP_TENSORS, HELP_TENSOR_METHOD,
     "sort(t, dim=-1, descending=false, stable=false) / t.sort(...)",
     "torch.return_types.sort(values, indices): t sorted along dim and the int64 positions "
     "the values came from (.values, .indices; it unpacks as a pair) "
     "(SortBackward0). NaN sorts above inf, -0.0 equals 0.0. Always stable: equal values keep "
     "their order (PyTorch leaves it unspecified without stable=true).",
     "let r = tensor([3.0, 1.0, 2.0]).sort()\n"
     "print(r.values, r.indices)")

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

HELP("argsort", HELP_TENSORS, HELP_TENSOR_METHOD,
     "argsort(t, dim=-1, descending=false, stable=false) / t.argsort(...)",
     "The indices of sort(t, dim, descending) alone (int64, not differentiable).",
     "print(tensor([3.0, 1.0, 2.0]).argsort(descending=true))")

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

HELP("topk", HELP_TENSORS, HELP_TENSOR_METHOD,
     "topk(t, k, dim=-1, largest=true, sorted=true) / t.topk(k, ...)",
     "torch.return_types.topk(values, indices): the k largest (largest=false: smallest) "
     "elements along dim, in "
     "sorted order, ties by position (TopkBackward0). Error \"selected index k out of "
     "range\" unless 0 <= k <= size.",
     "let r = tensor([1.0, 5.0, 3.0, 4.0]).topk(2)\n"
     "print(r.values, r.indices)")

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

HELP("kthvalue", HELP_TENSORS, HELP_TENSOR_METHOD,
     "kthvalue(t, k, dim=-1, keepdim=false) / t.kthvalue(k, dim=-1, keepdim=false)",
     "torch.return_types.kthvalue(values, indices): the k-th smallest element (k from 1) "
     "along dim and its position; "
     "NaN counts as the largest, and among equal values the index is the one PyTorch 1.13 "
     "picks. The gradient goes to the selected elements.",
     "print(tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]).kthvalue(2, 1))")

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

HELP("mode", HELP_TENSORS, HELP_TENSOR_METHOD,
     "mode(t, dim=-1, keepdim=false) / t.mode(dim=-1, keepdim=false)",
     "torch.return_types.mode(values, indices): the most frequent value along dim (the "
     "smallest of those equally frequent) and the index of it PyTorch 1.13 reports (the "
     "last of its run once ATen's CPU kernel has sorted the slice). The gradient goes to "
     "that element (ModeBackward0).",
     "print(tensor([1, 2, 2, 3]).mode())")

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

HELP("median", HELP_TENSORS, HELP_TENSOR_METHOD,
     "median(t) / median(t, dim, keepdim=false) / t.median(dim=nil, keepdim=false)",
     "The lower median of every element (NaN if there is one); with dim, "
     "torch.return_types.median(values, indices) along it, the index among equal values the one PyTorch 1.13 gives (the "
     "first NaN when there is one). median() shares its gradient among the elements "
     "equal to it; median(dim) gives it to the selected ones.",
     "print(tensor([3.0, 1.0, 2.0, 4.0]).median(), tensor([[3.0, 1.0, 2.0]]).median(1))")

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

HELP("flip", HELP_TENSORS, HELP_TENSOR_METHOD,
     "flip(t, dims) / t.flip(dims) / t.flip(d0, d1, ...)",
     "A copy of t reversed along each of dims (FlipBackward0).",
     "print(tensor([[1, 2], [3, 4]]).flip(1))")

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

HELP("tril", HELP_TENSORS, HELP_TENSOR_METHOD,
     "tril(t, diagonal=0) / t.tril(diagonal=0)",
     "The lower triangle of the last two dims: elements with column - row <= diagonal "
     "kept, the rest zero (TrilBackward0).",
     "print(ones(3, 3).tril())")

Value lt_tril(LT_ARGS) { return triangle_fn(vm, self, true, argc, args, kw); }

HELP("triu", HELP_TENSORS, HELP_TENSOR_METHOD,
     "triu(t, diagonal=0) / t.triu(diagonal=0)",
     "The upper triangle of the last two dims: elements with column - row >= diagonal "
     "kept, the rest zero (TriuBackward0).",
     "print(ones(3, 3).triu(1))")

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

HELP("cumsum", HELP_TENSORS, HELP_TENSOR_METHOD,
     "cumsum(t, dim, dtype=nil) / t.cumsum(dim, dtype=nil)",
     "Running sums along dim (CumsumBackward0), accumulated in double as PyTorch; an "
     "integer or bool tensor gives int64 unless dtype= says otherwise.",
     "print(tensor([1, 2, 3, 4]).cumsum(0))")

Value lt_cumsum(LT_ARGS) { return scan_fn(vm, self, false, argc, args, kw); }

HELP("cumprod", HELP_TENSORS, HELP_TENSOR_METHOD,
     "cumprod(t, dim, dtype=nil) / t.cumprod(dim, dtype=nil)",
     "Running products along dim (CumprodBackward0), accumulated in double as PyTorch; an "
     "integer or bool tensor gives int64 unless dtype= says otherwise. The gradient is "
     "right where the input holds zeros too (ATen's cumprod_backward).",
     "print(tensor([1.0, 2.0, 3.0, 4.0]).cumprod(0))")

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

HELP("amax", HELP_TENSORS, HELP_TENSOR_METHOD,
     "amax(t, dim=[], keepdim=false) / t.amax(...)",
     "The largest values over dim (a number or a list; all dims when empty), no indices; "
     "the gradient is shared evenly among tied elements (AmaxBackward0).",
     "print(tensor([[1.0, 5.0], [7.0, 2.0]]).amax(1))")

Value lt_amax(LT_ARGS) { return amax_fn(vm, self, true, argc, args, kw); }

HELP("amin", HELP_TENSORS, HELP_TENSOR_METHOD,
     "amin(t, dim=[], keepdim=false) / t.amin(...)",
     "The smallest values over dim, as amax (AminBackward0).",
     "print(tensor([[1.0, 5.0], [7.0, 2.0]]).amin([0, 1]))")

Value lt_amin(LT_ARGS) { return amax_fn(vm, self, false, argc, args, kw); }

HELP("trace", HELP_TENSORS, HELP_TENSOR_METHOD,
     "trace(t) / t.trace()",
     "The sum of the diagonal of a 2-D tensor (TraceBackward0); int64 for integers.",
     "print(tensor([[1, 2], [3, 4]]).trace())")

Value lt_trace(LT_ARGS) {
  if (kw && kw->count) return vm_raise(vm, VM_ERR_TYPE, "trace() got an unexpected keyword argument '%s'", kw->names[0]->chars);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_trace(lib_t(self)));
}
