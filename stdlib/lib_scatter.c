/* lib_scatter.c — scatter, scatter_add, index_add, masked_fill_ (and their
 * in-place forms), nonzero, unique, bincount, isclose/allclose (LIB_TENSOR_FNS
 * rows) and the global meshgrid. tensor/index.c and count.c compute,
 * autograd/ops_scatter.c records. */
#include <stdlib.h>
#include <string.h>

#include "stdlib/lib_internal.h"

#define LT_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw
#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

static Value in_place_result(AgVM *vm, bool ok, Value self) {
  return ok ? self : lib_throw_tensor_error(vm);
}

/* ---- scatter(dim, index, src | value, reduce=nil) ---- */

typedef struct {
  int dim;
  const Tensor *index;
  Tensor *src; /* NULL: value */
  double value;
  TensorScatterMode mode;
  bool reduce;
} ScatterArgs;

static bool scatter_reduce_mode(AgVM *vm, Value v, ScatterArgs *s) {
  if (IS_UNDEF(v) || IS_NIL(v)) return true;
  const char *name = IS_STRING(v) ? AS_CSTRING(v) : "";
  if (strcmp(name, "add") && strcmp(name, "multiply")) {
    vm_throw_error(vm, "reduce argument must be either add or multiply.");
    return false;
  }
  s->reduce = true;
  s->mode = name[0] == 'a' ? SCATTER_ADD : SCATTER_MUL;
  return true;
}

/* scatter binds (dim, index, src) with value= as another name for the third;
 * scatter_add (no_value) takes a src tensor only. */
static bool scatter_args(AgVM *vm, const char *fname, bool no_value, int argc, const Value *args,
                         const AgKwargs *kw, ScatterArgs *s) {
  static const char *const names[] = {"dim", "index", "src", "value", "reduce"};
  Value v[5];
  if (!lib_bind(vm, fname, argc, args, kw, names, no_value ? 3 : 5, v)) return false;
  *s = (ScatterArgs){.mode = SCATTER_SET};
  if (IS_UNDEF(v[0]) || IS_UNDEF(v[1]) || (IS_UNDEF(v[2]) && (no_value || IS_UNDEF(v[3])))) {
    vm_raise(vm, VM_ERR_TYPE, "%s() missing required arguments: dim, index and %s", fname,
                   no_value ? "src" : "src or value");
    return false;
  }
  if (!lib_dim(vm, v[0], &s->dim)) return false;
  if (!IS_TENSOR(v[1])) {
    lib_type_error(vm, fname, "index", v[1]);
    return false;
  }
  s->index = lib_t(v[1]);
  Value third = IS_UNDEF(v[2]) ? v[3] : v[2];
  if (IS_TENSOR(third)) {
    s->src = lib_t(third);
  } else if (no_value) {
    lib_type_error(vm, fname, "src", third);
    return false;
  } else if (!lib_number(vm, third, "value", &s->value)) {
    return false;
  }
  return no_value || scatter_reduce_mode(vm, v[4], s);
}

static Tensor *scatter_of(Tensor *t, void *ctx) {
  const ScatterArgs *s = ctx;
  return ag_scatter(t, s->dim, s->index, s->src, s->value, s->mode, s->reduce);
}

static Tensor *scatter_add_of(Tensor *t, void *ctx) {
  const ScatterArgs *s = ctx;
  return ag_scatter_add(t, s->dim, s->index, s->src);
}

/* scatter / scatter_add, out of place or in place (fname ends in '_'). */
static Value scatter_fn(AgVM *vm, Value self, const char *fname, bool add, int argc,
                        const Value *args, const AgKwargs *kw) {
  ScatterArgs s;
  if (!scatter_args(vm, fname, add, argc, args, kw, &s)) return VM_EXCEPTION;
  lib_sync_line(vm);
  AgOutOfPlace op = add ? scatter_add_of : scatter_of;
  if (fname[strlen(fname) - 1] != '_') return lib_wrap(vm, op(lib_t(self), &s));
  return in_place_result(vm, ag_apply_inplace(lib_t(self), s.src, op, &s), self);
}

HELP("scatter", HELP_TENSORS, HELP_TENSOR_METHOD,
     "scatter(t, dim, index, src or value, reduce=nil) / t.scatter(dim, index, src)",
     "A copy of t with src's elements (or the number value) written along dim at the "
     "positions of an int64 index tensor (index's shape; out-of-range indices are an "
     "error). reduce=\"add\" or \"multiply\" combines instead of writing (PyTorch has no "
     "derivative for that form). Records ScatterBackward0 (src) or ScatterBackward1 "
     "(value).",
     "let t = zeros(2, 3)\n"
     "print(t.scatter(1, tensor([[2], [0]]), tensor([[5.0], [6.0]])))")

Value lt_scatter(LT_ARGS) { return scatter_fn(vm, self, "scatter", false, argc, args, kw); }

HELP("Tensor.scatter_", HELP_TENSOR, 0,
     "t.scatter_(dim, index, src or value, reduce=nil)",
     "scatter in place: writes (or with reduce= adds or multiplies) into t itself.",
     "let t = zeros(3)\n"
     "print(t.scatter_(0, tensor([2, 0]), tensor([5.0, 6.0])))")

Value lt_scatter_(LT_ARGS) { return scatter_fn(vm, self, "scatter_", false, argc, args, kw); }

HELP("scatter_add", HELP_TENSORS, HELP_TENSOR_METHOD,
     "scatter_add(t, dim, index, src) / t.scatter_add(dim, index, src)",
     "A copy of t with src's elements added at index along dim; repeated indices "
     "accumulate (ScatterAddBackward0).",
     "print(zeros(3).scatter_add(0, tensor([0, 2, 0]), tensor([1.0, 2.0, 3.0])))")

Value lt_scatter_add(LT_ARGS) { return scatter_fn(vm, self, "scatter_add", true, argc, args, kw); }

HELP("Tensor.scatter_add_", HELP_TENSOR, 0,
     "t.scatter_add_(dim, index, src)",
     "scatter_add in place: repeated indices accumulate into t.",
     "let t = zeros(3)\n"
     "print(t.scatter_add_(0, tensor([1, 1]), tensor([5.0, 6.0])))")

Value lt_scatter_add_(LT_ARGS) { return scatter_fn(vm, self, "scatter_add_", true, argc, args, kw); }

/* ---- index_add(dim, index, source, alpha=1) ---- */

typedef struct {
  int dim;
  const Tensor *index;
  Tensor *source;
  double alpha;
} IndexAddArgs;

static bool index_add_args(AgVM *vm, const char *fname, int argc, const Value *args,
                           const AgKwargs *kw, IndexAddArgs *a) {
  static const char *const names[] = {"dim", "index", "source", "alpha"};
  Value v[4];
  if (!lib_bind(vm, fname, argc, args, kw, names, 4, v)) return false;
  if (IS_UNDEF(v[0]) || IS_UNDEF(v[1]) || IS_UNDEF(v[2])) {
    vm_raise(vm, VM_ERR_TYPE, "%s() missing required arguments: dim, index and source", fname);
    return false;
  }
  a->alpha = 1;
  if (!lib_dim(vm, v[0], &a->dim) || (!IS_UNDEF(v[3]) && !lib_number(vm, v[3], "alpha", &a->alpha)))
    return false;
  if (!IS_TENSOR(v[1]) || !IS_TENSOR(v[2])) {
    lib_type_error(vm, fname, IS_TENSOR(v[1]) ? "source" : "index", IS_TENSOR(v[1]) ? v[2] : v[1]);
    return false;
  }
  a->index = lib_t(v[1]);
  a->source = lib_t(v[2]);
  return true;
}

static Tensor *index_add_of(Tensor *t, void *ctx) {
  const IndexAddArgs *a = ctx;
  return ag_index_add(t, a->dim, a->index, a->source, a->alpha);
}

HELP("index_add", HELP_TENSORS, HELP_TENSOR_METHOD,
     "index_add(t, dim, index, source, alpha=1) / t.index_add(dim, index, source, alpha=1)",
     "A copy of t with alpha times slice i of source added to slice index[i] along dim "
     "(IndexAddBackward0).",
     "print(zeros(3, 2).index_add(0, tensor([2, 0, 2]), ones(3, 2), alpha=2))")

Value lt_index_add(LT_ARGS) {
  IndexAddArgs a;
  if (!index_add_args(vm, "index_add", argc, args, kw, &a)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, index_add_of(lib_t(self), &a));
}

HELP("Tensor.index_add_", HELP_TENSOR, 0,
     "t.index_add_(dim, index, source, alpha=1)",
     "index_add in place.",
     "let t = zeros(2, 2)\n"
     "print(t.index_add_(0, tensor([1, 1]), ones(2, 2)))")

Value lt_index_add_(LT_ARGS) {
  IndexAddArgs a;
  if (!index_add_args(vm, "index_add_", argc, args, kw, &a)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return in_place_result(vm, ag_apply_inplace(lib_t(self), a.source, index_add_of, &a), self);
}

/* ---- masked_fill_(mask, value) ---- */

typedef struct {
  const Tensor *mask;
  Tensor *value;
  bool value_is_tensor;
} MaskedFillArgs;

static Tensor *masked_fill_of(Tensor *t, void *ctx) {
  const MaskedFillArgs *m = ctx;
  return ag_masked_fill(t, m->mask, m->value, m->value_is_tensor);
}

HELP("Tensor.masked_fill_", HELP_TENSOR, 0,
     "t.masked_fill_(mask, value)",
     "masked_fill in place (a version bump; MaskedFillBackward0 becomes t's history).",
     "let t = tensor([1.0, 2.0, 3.0])\n"
     "print(t.masked_fill_(t > 1, 0), t._version)")

Value lt_masked_fill_(LT_ARGS) {
  static const char *const names[] = {"mask", "value"};
  Value v[2];
  if (!lib_bind(vm, "masked_fill_", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (!IS_TENSOR(v[0])) return lib_type_error(vm, "masked_fill_", "mask", v[0]);
  if (IS_UNDEF(v[1])) return vm_raise(vm, VM_ERR_TYPE, "masked_fill_() missing required argument 'value'");
  MaskedFillArgs m = {lib_t(v[0]), NULL, IS_TENSOR(v[1])};
  m.value = m.value_is_tensor ? tensor_retain(lib_t(v[1]))
                              : lib_as_tensor(vm, v[1], lib_t(self)->dtype, "masked_fill_");
  if (!m.value) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *t = lib_t(self);
  bool ok = ag_apply_inplace(t, m.value_is_tensor ? m.value : NULL, masked_fill_of, &m);
  tensor_release(m.value);
  return in_place_result(vm, ok, self);
}

/* ---- nonzero(as_tuple=false) ---- */

/* as_tuple: one 1-D tensor of coordinates per dimension (a 0-d tensor
 * counts as 1-D, as PyTorch's). */
static Value nonzero_columns(AgVM *vm, Tensor *t) {
  int64_t one = 1;
  Tensor *flat = t->ndim ? tensor_retain(t) : tensor_reshape(t, 1, &one);
  Tensor *nz = flat ? tensor_nonzero(flat) : NULL;
  int ndim = flat ? flat->ndim : 0;
  tensor_release(flat);
  Tensor **cols = nz ? calloc((size_t)ndim, sizeof(Tensor *)) : NULL;
  bool ok = cols != NULL;
  for (int d = 0; ok && d < ndim; d++) {
    Tensor *col = tensor_select(nz, 1, d);
    cols[d] = col ? tensor_clone(col) : NULL;
    tensor_release(col);
    ok = cols[d] != NULL;
  }
  tensor_release(nz);
  if (!ok) {
    for (int d = 0; cols && d < ndim; d++) tensor_release(cols[d]);
    free(cols);
    return lib_throw_tensor_error(vm);
  }
  return lib_tensor_list(vm, cols, ndim);
}

HELP("nonzero", HELP_TENSORS, HELP_TENSOR_METHOD,
     "nonzero(t, as_tuple=false) / t.nonzero(as_tuple=false)",
     "The coordinates of the nonzero elements as an [n, ndim] int64 tensor in row-major "
     "order; as_tuple=true gives a list of one index tensor per dimension (usable as "
     "t[...] indices).",
     "print(tensor([[1, 0], [0, 3]]).nonzero())")

Value lt_nonzero(LT_ARGS) {
  static const char *const names[] = {"as_tuple"};
  Value v;
  bool as_tuple;
  if (!lib_bind(vm, "nonzero", argc, args, kw, names, 1, &v) || !lib_flag(vm, v, false, &as_tuple))
    return VM_EXCEPTION;
  return as_tuple ? nonzero_columns(vm, lib_t(self)) : lib_wrap(vm, tensor_nonzero(lib_t(self)));
}

/* ---- unique(sorted=true, return_inverse=false, return_counts=false, dim=nil) ---- */

HELP("unique", HELP_TENSORS, HELP_TENSOR_METHOD,
     "unique(t, sorted=true, return_inverse=false, return_counts=false, dim=nil)",
     "The distinct elements of t in ascending order (flattened), or with dim its distinct "
     "slices along dim. With return_inverse / return_counts a list [values, inverse, "
     "counts]: where each element went, how often each value occurs. sorted=false gives "
     "the sorted order too (PyTorch leaves it unspecified). Not differentiable "
     "(Unique2Backward0 fails, as PyTorch's).",
     "print(unique(tensor([3, 1, 3, 2]), return_counts=true))")

Value lt_unique(LT_ARGS) {
  static const char *const names[] = {"sorted", "return_inverse", "return_counts", "dim"};
  Value v[4];
  bool sorted, want_inverse, want_counts;
  int dim = 0;
  if (!lib_bind(vm, "unique", argc, args, kw, names, 4, v) || !lib_flag(vm, v[0], true, &sorted) ||
      !lib_flag(vm, v[1], false, &want_inverse) || !lib_flag(vm, v[2], false, &want_counts))
    return VM_EXCEPTION;
  bool has_dim = !IS_UNDEF(v[3]) && !IS_NIL(v[3]);
  if (has_dim && !lib_dim(vm, v[3], &dim)) return VM_EXCEPTION;
  lib_sync_line(vm);
  Tensor *inverse = NULL, *counts = NULL;
  Tensor *values = ag_unique(lib_t(self), dim, has_dim, want_inverse ? &inverse : NULL,
                             want_counts ? &counts : NULL);
  if (!values) return lib_throw_tensor_error(vm);
  if (!want_inverse && !want_counts) return lib_wrap(vm, values);
  Tensor **parts = malloc(3 * sizeof(Tensor *));
  if (!parts) {
    tensor_release(values);
    tensor_release(inverse);
    tensor_release(counts);
    return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  }
  int n = 0;
  parts[n++] = values;
  if (want_inverse) parts[n++] = inverse;
  if (want_counts) parts[n++] = counts;
  return lib_tensor_list(vm, parts, n);
}

/* ---- bincount(weights=nil, minlength=0) ---- */

HELP("bincount", HELP_TENSORS, HELP_TENSOR_METHOD,
     "bincount(t, weights=nil, minlength=0) / t.bincount(...)",
     "How often each value 0..max occurs in a 1-D non-negative int64 tensor (at least "
     "minlength counts); with weights the sum of the weights of each value (float32 "
     "weights give float32, others float64).",
     "print(bincount(tensor([1, 1, 3]), minlength=5))")

Value lt_bincount(LT_ARGS) {
  static const char *const names[] = {"weights", "minlength"};
  Value v[2];
  int64_t minlength = 0;
  if (!lib_bind(vm, "bincount", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  bool has_weights = !IS_UNDEF(v[0]) && !IS_NIL(v[0]);
  if (has_weights && !IS_TENSOR(v[0])) return lib_type_error(vm, "bincount", "weights", v[0]);
  if (!IS_UNDEF(v[1]) && !lib_int(vm, v[1], "minlength", &minlength)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_bincount(lib_t(self), has_weights ? lib_t(v[0]) : NULL, minlength));
}

/* ---- isclose / allclose(other, rtol=1e-05, atol=1e-08, equal_nan=false) ---- */

static Tensor *close_of(AgVM *vm, const char *fname, Value self, int argc, const Value *args,
                        const AgKwargs *kw) {
  static const char *const names[] = {"other", "rtol", "atol", "equal_nan"};
  Value v[4];
  double rtol = 1e-05, atol = 1e-08;
  bool equal_nan;
  if (!lib_bind(vm, fname, argc, args, kw, names, 4, v)) return NULL;
  if (!IS_TENSOR(v[0])) {
    lib_type_error(vm, fname, "other", v[0]);
    return NULL;
  }
  if ((!IS_UNDEF(v[1]) && !lib_number(vm, v[1], "rtol", &rtol)) ||
      (!IS_UNDEF(v[2]) && !lib_number(vm, v[2], "atol", &atol)) ||
      !lib_flag(vm, v[3], false, &equal_nan))
    return NULL;
  Tensor *close = tensor_isclose(lib_t(self), lib_t(v[0]), rtol, atol, equal_nan);
  if (!close) lib_throw_tensor_error(vm);
  return close;
}

HELP("isclose", HELP_TENSORS, HELP_TENSOR_METHOD,
     "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false) / a.isclose(b, ...)",
     "Elementwise |a - b| <= atol + rtol * |b| as a bool tensor (a and b of one dtype, "
     "broadcast); equal infinities are close, NaNs only with equal_nan.",
     "print(isclose(tensor([1.0, 2.0]), tensor([1.000001, 2.1])))")

Value lt_isclose(LT_ARGS) {
  Tensor *close = close_of(vm, "isclose", self, argc, args, kw);
  return close ? lib_wrap(vm, close) : VM_EXCEPTION;
}

HELP("allclose", HELP_TENSORS, HELP_TENSOR_METHOD,
     "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=false) / a.allclose(b, ...)",
     "true when isclose holds for every element (a boolean, not a tensor).",
     "print(allclose(tensor([1.0, 2.0]), tensor([1.0, 2.000001])))")

Value lt_allclose(LT_ARGS) {
  Tensor *close = close_of(vm, "allclose", self, argc, args, kw);
  if (!close) return VM_EXCEPTION;
  bool all = true;
  for (int64_t i = 0; all && i < close->numel; i++) all = tensor_get_flat(close, i) != 0;
  tensor_release(close);
  return BOOL_VAL(all);
}

/* ---- meshgrid(*tensors, indexing=) ---- */

/* The inputs: the tensors given one by one, or one list of them. */
static int meshgrid_inputs(AgVM *vm, int argc, const Value *args, const Value **items) {
  if (argc == 1 && is_list_or_tuple(args[0])) {
    *items = AS_LIST(args[0])->items;
    argc = AS_LIST(args[0])->count;
  } else {
    *items = args;
  }
  if (argc == 0) {
    vm_throw_error(vm, "meshgrid expects a non-empty TensorList");
    return -1;
  }
  for (int i = 0; i < argc; i++) {
    if (!IS_TENSOR((*items)[i])) {
      vm_raise(vm, VM_ERR_TYPE, "meshgrid(): expected Tensor as element %d in argument 0, but got %s", i,
                     vm_type_name((*items)[i]));
      return -1;
    }
    Tensor *t = lib_t((*items)[i]);
    if (t->ndim > 1) {
      char s[256];
      tensor_format_shape(s, sizeof s, t->ndim, t->shape);
      vm_throw_error(vm, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a "
                         "tensor of shape %s", s);
      return -1;
    }
    if (t->dtype != lib_t((*items)[0])->dtype) {
      vm_throw_error(vm, "meshgrid expects all tensors to have the same dtype");
      return -1;
    }
  }
  if (argc > TENSOR_MAX_DIMS) {
    vm_throw_error(vm, "meshgrid: at most %d tensors", TENSOR_MAX_DIMS);
    return -1;
  }
  return argc;
}

HELP("meshgrid", HELP_TENSORS, 0,
     "meshgrid(*tensors, indexing=\"ij\")",
     "Grids from 0-D or 1-D tensors (given one by one or as one list): grid i holds "
     "tensor i along dimension i, expanded over the others; indexing=\"xy\" swaps the "
     "first two dimensions (Cartesian, as NumPy). Without indexing= it warns once, as "
     "PyTorch 1.13, and uses \"ij\".",
     "let g = meshgrid(tensor([1, 2]), tensor([3, 4, 5]), indexing=\"ij\")\n"
     "print(g[0].shape, g[1][0])")

/* "ij": grid i is input i viewed along dim i and expanded to every input's
 * length; "xy" swaps the first two inputs first and the first two grids
 * after, as ATen does. */
static Value native_meshgrid(NATIVE_ARGS) {
  const Value *items;
  int n = meshgrid_inputs(vm, argc, args, &items);
  if (n < 0) return VM_EXCEPTION;
  bool xy = false;
  if (kw && kw->count) {
    if (kw->count > 1 || strcmp(kw->names[0]->chars, "indexing"))
      return vm_raise(vm, VM_ERR_TYPE, "meshgrid() got an unexpected keyword argument '%s'",
                            kw->count > 1 && !strcmp(kw->names[0]->chars, "indexing")
                                ? kw->names[1]->chars : kw->names[0]->chars);
    Value ix = kw->values[0];
    const char *s = IS_STRING(ix) ? AS_CSTRING(ix) : "";
    if (strcmp(s, "ij") && strcmp(s, "xy"))
      return vm_throw_error(vm, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                                "received: %s", IS_STRING(ix) ? s : vm_type_name(ix));
    xy = s[0] == 'x';
  } else if (!lib_state(vm)->warned_meshgrid_indexing) {
    lib_state(vm)->warned_meshgrid_indexing = true;
    fprintf(stderr, "%s:%d: UserWarning: torch.meshgrid: in an upcoming release, it will be "
                    "required to pass the indexing argument.\n",
            lib_current_file(vm), lib_current_line(vm));
  }
  Tensor *in[TENSOR_MAX_DIMS];
  for (int i = 0; i < n; i++) in[i] = lib_t(items[i]);
  bool swap = xy && n >= 2;
  if (swap) {
    Tensor *t = in[0];
    in[0] = in[1];
    in[1] = t;
  }
  int64_t shape[TENSOR_MAX_DIMS];
  for (int i = 0; i < n; i++) shape[i] = in[i]->numel;
  Tensor **grids = calloc((size_t)n, sizeof(Tensor *));
  if (!grids) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  lib_sync_line(vm);
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    int64_t view[TENSOR_MAX_DIMS];
    for (int d = 0; d < n; d++) view[d] = d == i ? shape[i] : 1;
    Tensor *v = ag_view(in[i], n, view);
    grids[i] = v ? ag_expand(v, n, shape) : NULL;
    tensor_release(v);
    ok = grids[i] != NULL;
  }
  if (!ok) {
    for (int i = 0; i < n; i++) tensor_release(grids[i]);
    free(grids);
    return lib_throw_tensor_error(vm);
  }
  if (swap) {
    Tensor *t = grids[0];
    grids[0] = grids[1];
    grids[1] = t;
  }
  return lib_tensor_list(vm, grids, n);
}

void lib_install_scatter(AgVM *vm) {
  vm_define_native(vm, "meshgrid", native_meshgrid, 0, -1, true);
}
