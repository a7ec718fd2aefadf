/* builtins_util.c — argument checks, iteration into lists and the stable
 * sort shared by the core library. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stdlib/builtins_internal.h"
#include "vm/internal.h"

static bool type_error(AgVM *vm, const char *fname, int i, const char *wanted, Value got) {
  vm_throw_error(vm, "%s() expects %s for argument %d, not %s", fname, wanted, i + 1, vm_type_name(got));
  return false;
}

bool lib_number_arg(AgVM *vm, const char *fname, const Value *args, int i, double *out) {
  if (IS_BOOL(args[i])) {
    *out = AS_BOOL(args[i]);
    return true;
  }
  if (!IS_NUMBER(args[i])) return type_error(vm, fname, i, "a number", args[i]);
  *out = AS_NUMBER(args[i]);
  return true;
}

/* An int (or a bool, as Python's int subclass); a float is an error even
 * when integral, as Python's "'float' object cannot be interpreted as an
 * integer". */
bool lib_int_arg(AgVM *vm, const char *fname, const Value *args, int i, int64_t *out) {
  if (IS_BOOL(args[i])) {
    *out = AS_BOOL(args[i]);
    return true;
  }
  if (!IS_INT(args[i])) return type_error(vm, fname, i, "an int", args[i]);
  *out = AS_INT(args[i]);
  return true;
}

bool lib_string_arg(AgVM *vm, const char *fname, const Value *args, int i, ObjString **out) {
  if (!IS_STRING(args[i])) return type_error(vm, fname, i, "a string", args[i]);
  *out = AS_STRING(args[i]);
  return true;
}

bool lib_list_arg(AgVM *vm, const char *fname, const Value *args, int i, ObjList **out) {
  if (!is_list_or_tuple(args[i])) return type_error(vm, fname, i, "a list", args[i]);
  *out = AS_LIST(args[i]);
  return true;
}

Value lib_to_list(AgVM *vm, Value iterable) {
  ObjList *list = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(list));
  bool ok = vm_extend_list(vm, list, iterable);
  vm_pop_root(vm);
  return ok ? OBJ_VAL(list) : VM_EXCEPTION;
}

/* ---- stable merge sort of an index permutation (values never move while
 * comparisons run, so a throwing comparison leaves everything intact) ---- */

typedef struct {
  AgVM *vm;
  const Value *keys;
  bool reverse;
  bool failed;
  bool interrupted; /* Ctrl-C: a sort of 10^8 items, or of long strings, takes a while */
} SortContext;

static bool sort_less(SortContext *c, int a, int b) {
  if (c->failed) return false;
  if (tensor_interrupt_requested) {
    c->failed = c->interrupted = true;
    return false;
  }
  int lt = c->reverse ? vm_less_than(c->vm, c->keys[b], c->keys[a]) : vm_less_than(c->vm, c->keys[a], c->keys[b]);
  if (lt < 0) c->failed = true;
  return lt == 1;
}

static void merge_sort(SortContext *c, int *idx, int *tmp, int n) {
  if (n < 2) return;
  int mid = n / 2;
  merge_sort(c, idx, tmp, mid);
  merge_sort(c, idx + mid, tmp, n - mid);
  int i = 0, j = mid, k = 0;
  while (i < mid && j < n) {
    /* take from the right only when strictly less: stability */
    if (sort_less(c, idx[j], idx[i])) tmp[k++] = idx[j++];
    else tmp[k++] = idx[i++];
  }
  while (i < mid) tmp[k++] = idx[i++];
  while (j < n) tmp[k++] = idx[j++];
  memcpy(idx, tmp, sizeof(int) * (size_t)n);
}

bool lib_sort_values(AgVM *vm, Value *items, Value *keys, int n, bool reverse) {
  if (n < 2) return true;
  int *idx = malloc(sizeof(int) * (size_t)n);
  int *tmp = malloc(sizeof(int) * (size_t)n);
  Value *sorted = malloc(sizeof(Value) * (size_t)n);
  if (idx == NULL || tmp == NULL || sorted == NULL) {
    free(idx);
    free(tmp);
    free(sorted);
    vm_throw_memory_error(vm, (sizeof(int) * 2 + sizeof(Value)) * (size_t)n);
    return false;
  }
  for (int i = 0; i < n; i++) idx[i] = i;
  SortContext c = {vm, keys ? keys : items, reverse, false, false};
  merge_sort(&c, idx, tmp, n);
  if (c.interrupted) vm_throw_interrupted(vm);
  if (!c.failed) {
    for (int i = 0; i < n; i++) sorted[i] = items[idx[i]];
    memcpy(items, sorted, sizeof(Value) * (size_t)n);
  }
  free(idx);
  free(tmp);
  free(sorted);
  return !c.failed;
}
