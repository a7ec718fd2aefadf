/* lib_index.c — t[...] and t[...] = v: script index values (numbers,
 * slices, nil for a new axis, bool masks, int64 tensors, lists of integers)
 * become IndexItems for autograd's ag_index / ag_index_put_. The common
 * t[i] goes straight to a select.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stdlib/lib_internal.h"

typedef struct {
  IndexItem items[TENSOR_MAX_DIMS + 1];
  Tensor *owned[TENSOR_MAX_DIMS + 1]; /* tensors made from lists */
  int n, nowned;
} Index;

static void index_free(Index *ix) {
  for (int i = 0; i < ix->nowned; i++) tensor_release(ix->owned[i]);
}

static bool slice_bound(AgVM *vm, Value v, int64_t *out, bool *has) {
  *has = !IS_NIL(v);
  if (!*has) return true;
  return lib_int(vm, v, "slice indices", out);
}

static bool slice_item(AgVM *vm, ObjSlice *s, IndexItem *it) {
  bool has_step;
  it->kind = IDX_SLICE;
  if (!slice_bound(vm, s->start, &it->start, &it->has_start)) return false;
  if (!slice_bound(vm, s->stop, &it->stop, &it->has_stop)) return false;
  if (!slice_bound(vm, s->step, &it->step, &has_step)) return false;
  if (!has_step) it->step = 1;
  if (it->step > 0) return true;
  vm_throw_error(vm, "step must be greater than zero");
  return false;
}

/* A list of integers (or booleans) indexes like an int64 tensor (a mask). */
static bool list_item(AgVM *vm, Value v, Index *ix, IndexItem *it) {
  Tensor *t = lib_tensor_from_value(vm, v, false, DT_INT64);
  if (t == NULL) return false;
  if (t->dtype == DT_FLOAT32) {
    Tensor *l = tensor_to_dtype(t, DT_INT64);
    tensor_release(t);
    if (l == NULL) {
      lib_throw_tensor_error(vm);
      return false;
    }
    t = l;
  }
  ix->owned[ix->nowned++] = t;
  it->kind = IDX_TENSOR;
  it->tensor = t;
  return true;
}

/* A range indexes as the int64 tensor of its elements, as PyTorch treats a
 * Python range (a sequence of integers): a copy, not a view. */
static bool range_item(AgVM *vm, ObjRange *r, Index *ix, IndexItem *it) {
  int64_t n = 0;
  if (r->step > 0 && r->stop > r->start) n = (r->stop - r->start - 1) / r->step + 1;
  if (r->step < 0 && r->start > r->stop) n = (r->start - r->stop - 1) / -r->step + 1;
  Tensor *t = tensor_empty(DT_INT64, 1, &n);
  if (t == NULL) {
    lib_throw_tensor_error(vm);
    return false;
  }
  int64_t *p = tensor_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = r->start + i * r->step;
  ix->owned[ix->nowned++] = t;
  it->kind = IDX_TENSOR;
  it->tensor = t;
  return true;
}

static bool bad_index(AgVM *vm, const char *got) {
  vm_throw_error(vm, "only integers, slices (`:`), nil, bool masks, int64 tensors, lists and ranges "
                     "are valid indices (got %s)", got);
  return false;
}

static bool index_item(AgVM *vm, Value v, Index *ix, IndexItem *it) {
  memset(it, 0, sizeof *it);
  if (IS_INT(v)) {
    it->kind = IDX_INT;
    it->i = AS_INT(v);
    return true;
  }
  if (IS_FLOAT(v)) return bad_index(vm, "float"); /* even an integral one, as PyTorch */
  if (IS_NIL(v)) {
    it->kind = IDX_NEWAXIS;
    return true;
  }
  if (v == vm->core.ellipsis) {
    it->kind = IDX_ELLIPSIS;
    return true;
  }
  if (IS_SLICE(v)) return slice_item(vm, AS_SLICE(v), it);
  if (IS_LIST(v)) return list_item(vm, v, ix, it);
  if (IS_RANGE(v)) return range_item(vm, AS_RANGE(v), ix, it);
  if (!IS_TENSOR(v)) return bad_index(vm, vm_type_name(v));
  it->kind = IDX_TENSOR;
  it->tensor = lib_t(v);
  return true;
}

static bool build_index(AgVM *vm, int n, const Value *index, Index *ix) {
  ix->n = 0;
  ix->nowned = 0;
  if (n > TENSOR_MAX_DIMS + 1) {
    vm_raise(vm, VM_ERR_INDEX, "too many indices for tensor");
    return false;
  }
  for (int i = 0; i < n; i++) {
    if (!index_item(vm, index[i], ix, &ix->items[i])) {
      index_free(ix);
      return false;
    }
    ix->n++;
  }
  return true;
}

Value lib_get_index(AgVM *vm, Value obj, int n, const Value *index) {
  if (!IS_TENSOR(obj)) return vm_raise(vm, VM_ERR_TYPE, "'node' object is not subscriptable");
  lib_sync_line(vm);
  Tensor *t = lib_t(obj);
  if (n == 1 && IS_INT(index[0]) && t->ndim > 0) { /* the common t[i] */
    return lib_wrap(vm, ag_select(t, 0, AS_INT(index[0])));
  }
  Index ix;
  if (!build_index(vm, n, index, &ix)) return VM_EXCEPTION;
  Tensor *r = ag_index(t, ix.items, ix.n);
  index_free(&ix);
  return lib_wrap(vm, r);
}

Value lib_set_index(AgVM *vm, Value obj, int n, const Value *index, Value v) {
  if (!IS_TENSOR(obj)) return vm_raise(vm, VM_ERR_TYPE, "'node' object does not support item assignment");
  lib_sync_line(vm);
  Tensor *t = lib_t(obj);
  if (!IS_TENSOR(v) && !IS_NUMBER(v) && !IS_BOOL(v) && !IS_LIST(v))
    return vm_raise(vm, VM_ERR_TYPE, "can't assign a %s to a tensor", vm_type_name(v));
  if (IS_NUMBER(v) && !dtype_value_fits(t->dtype, AS_NUMBER(v), false)) /* t[0] = 300 in int8 */
    return lib_throw_tensor_error(vm);
  Tensor *src = lib_as_tensor(vm, v, t->dtype, "index assignment");
  if (src == NULL) return VM_EXCEPTION;
  Index ix;
  if (!build_index(vm, n, index, &ix)) {
    tensor_release(src);
    return VM_EXCEPTION;
  }
  /* Advanced indexing is index_put_, which takes no other dtype (PyTorch's
   * one exception: a bool mask alone with a 0-d value is masked_fill_). */
  bool advanced = false;
  for (int i = 0; i < ix.n; i++) advanced |= ix.items[i].kind == IDX_TENSOR;
  if (advanced && IS_TENSOR(v) && src->dtype != t->dtype &&
      !(ix.n == 1 && dtype_is_mask(ix.items[0].tensor->dtype) && src->ndim == 0)) {
    index_free(&ix);
    tensor_release(src);
    return vm_throw_error(vm, "Index put requires the source and destination dtypes match, got %s "
                              "for the destination and %s for the source.",
                          tensor_dtype_torch_name(t->dtype), tensor_dtype_torch_name(src->dtype));
  }
  bool ok = ag_index_put_(t, ix.items, ix.n, src);
  index_free(&ix);
  tensor_release(src);
  if (!ok) return lib_throw_tensor_error(vm);
  return v;
}

