/* lib_repeat.c — diag, roll, repeat, repeat_interleave, kron
 * (LIB_TENSOR_FNS rows; tensor/repeat.c computes, autograd/ops_repeat.c
 * records). cumprod is beside cumsum in lib_sort.c; einsum, a global only,
 * in lib_create.c.
 */
#include "stdlib/lib_internal.h"

#define LT_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

/* An int or a list of ints (at most TENSOR_MAX_DIMS). */
static bool int_list(AgVM *vm, Value v, const char *what, int64_t *out, int *n) {
  if (!is_list_or_tuple(v)) {
    *n = 1;
    return lib_int(vm, v, what, &out[0]);
  }
  ObjList *l = AS_LIST(v);
  if (l->count > TENSOR_MAX_DIMS) {
    vm_throw_error(vm, "%s: at most %d values, got %d", what, TENSOR_MAX_DIMS, l->count);
    return false;
  }
  for (int i = 0; i < l->count; i++)
    if (!lib_int(vm, l->items[i], what, &out[i])) return false;
  *n = l->count;
  return true;
}

HELP("diag", HELP_TENSORS, HELP_TENSOR_METHOD,
     "diag(t, diagonal=0) / t.diag(diagonal=0)",
     "For a vector: the square matrix with it on diagonal `diagonal` (above the main one "
     "when positive, below when negative). For a matrix: that diagonal as a vector "
     "(DiagBackward0). Other ranks: \"matrix or a vector expected\".",
     "print(diag(tensor([1, 2])), diag(tensor([[1, 2], [3, 4]]), 1))")

/* diag(diagonal=0) */
Value lt_diag(LT_ARGS) {
  static const char *const names[] = {"diagonal"};
  Value v;
  int64_t k = 0;
  if (!lib_bind(vm, "diag", argc, args, kw, names, 1, &v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v) && !lib_int(vm, v, "diagonal", &k)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_diag(lib_t(self), k));
}

HELP("roll", HELP_TENSORS, HELP_TENSOR_METHOD,
     "roll(t, shifts, dims=nil) / t.roll(shifts, dims=nil)",
     "A copy with the elements shifted along dims, those pushed past the end coming back "
     "at the start (RollBackward0). shifts and dims are numbers or lists of the same "
     "length; without dims the flattened tensor is rolled and keeps its shape.",
     "print(tensor([[1, 2, 3], [4, 5, 6]]).roll(1, 1))")

/* roll(shifts, dims=nil): each an int or a list. */
Value lt_roll(LT_ARGS) {
  static const char *const names[] = {"shifts", "dims"};
  Value v[2];
  int64_t shifts[TENSOR_MAX_DIMS], dims64[TENSOR_MAX_DIMS];
  int nshifts, ndims = 0, dims[TENSOR_MAX_DIMS];
  if (!lib_bind(vm, "roll", argc, args, kw, names, 2, v)) return VM_EXCEPTION;
  if (IS_UNDEF(v[0])) return vm_raise(vm, VM_ERR_TYPE, "roll() missing required argument 'shifts'");
  if (!int_list(vm, v[0], "shifts", shifts, &nshifts)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && !IS_NIL(v[1]) && !int_list(vm, v[1], "dims", dims64, &ndims))
    return VM_EXCEPTION;
  for (int i = 0; i < ndims; i++) {
    if (dims64[i] < -(1 << 30) || dims64[i] > (1 << 30))
      return vm_raise(vm, VM_ERR_INDEX, "Dimension out of range (got %lld)", (long long)dims64[i]);
    dims[i] = (int)dims64[i];
  }
  lib_sync_line(vm);
  return lib_wrap(vm, ag_roll(lib_t(self), shifts, nshifts, dims, ndims));
}

HELP("Tensor.repeat", HELP_TENSOR, 0,
     "t.repeat(...sizes)",
     "A copy of t tiled sizes[d] times along each dim (RepeatBackward0); more sizes than "
     "t has dims add leading dims. Sizes may be given as numbers or one list.",
     "print(tensor([1, 2]).repeat(2, 2))")

/* repeat(*sizes): numbers or one list. */
Value lt_repeat(LT_ARGS) {
  int64_t sizes[TENSOR_MAX_DIMS];
  int n;
  if (argc == 0)
    return vm_raise(vm, VM_ERR_TYPE, "repeat() missing 1 required positional arguments: \"repeats\"");
  if (!lib_shape(vm, argc, args, &n, sizes)) return VM_EXCEPTION;
  lib_sync_line(vm);
  return lib_wrap(vm, ag_repeat(lib_t(self), sizes, n));
}

HELP("repeat_interleave", HELP_TENSORS, HELP_TENSOR_METHOD,
     "repeat_interleave(t, repeats, dim=nil, output_size=nil) / t.repeat_interleave(...)",
     "Each element (each slice along dim; without dim, of the flattened tensor) repeated "
     "`repeats` times in place: repeats is a number or an int64 tensor with one count per "
     "slice. Made of index_select, as in PyTorch (IndexSelectBackward0). "
     "repeat_interleave(counts) alone gives each index i counts[i] times.",
     "print(tensor([1, 2]).repeat_interleave(2), repeat_interleave(tensor([1, 0, 2])))")

/* repeat_interleave(repeats, dim=nil, output_size=nil): repeats an int or
 * an int64 tensor; without repeats (torch.repeat_interleave(counts)) the
 * tensor itself holds the counts and the result is the repeated indices. */
Value lt_repeat_interleave(LT_ARGS) {
  static const char *const names[] = {"repeats", "dim", "output_size"};
  Value v[3];
  int dim = 0;
  int64_t output_size = -1;
  if (!lib_bind(vm, "repeat_interleave", argc, args, kw, names, 3, v)) return VM_EXCEPTION;
  bool has_dim = !IS_UNDEF(v[1]) && !IS_NIL(v[1]);
  if (has_dim && !lib_dim(vm, v[1], &dim)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[2]) && !IS_NIL(v[2]) && !lib_int(vm, v[2], "output_size", &output_size))
    return VM_EXCEPTION;
  if (IS_UNDEF(v[0])) return lib_wrap(vm, tensor_repeat_interleave_index(lib_t(self), output_size));
  Tensor *repeats;
  if (IS_TENSOR(v[0])) {
    repeats = tensor_retain(lib_t(v[0]));
  } else {
    int64_t r;
    if (!lib_int(vm, v[0], "repeats", &r)) return VM_EXCEPTION;
    if (r < 0) return vm_throw_error(vm, "repeats can not be negative");
    repeats = tensor_full(DT_INT64, 1, (int64_t[1]){1}, 0);
    if (repeats) tensor_set_flat_int(repeats, 0, r); /* exact beyond 2^53 */
  }
  if (repeats == NULL) return lib_throw_tensor_error(vm);
  lib_sync_line(vm);
  Tensor *out = ag_repeat_interleave(lib_t(self), repeats, dim, has_dim, output_size);
  tensor_release(repeats);
  return lib_wrap(vm, out);
}

HELP("kron", HELP_TENSORS, HELP_TENSOR_METHOD,
     "kron(a, b) / a.kron(b)",
     "The Kronecker product: block (i, j, ...) is a[i, j, ...] * b, the ranks padded to "
     "the larger; recorded as PyTorch computes it, a product of two views "
     "(UnsafeViewBackward0 of MulBackward0).",
     "print(kron(eye(2), tensor([[1, 2], [3, 4]])))")

/* kron(other) */
Value lt_kron(LT_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "kron", "other", args[0]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_kron(lib_t(self), lib_t(args[0])));
}
