/* types.c — Python's type objects: what type(x) returns and isinstance takes.
 *
 * An instance's type is its class. Every other value's type is a built-in
 * class named as Python names it (int str list dict set tuple range slice
 * function NoneType type module Tensor ...), except floats and booleans,
 * whose types are the dtypes `float` and `bool` that already convert
 * (float(x), bool(x)). A built-in class that has a conversion (int(x),
 * str(x), list(x) ... were natives) calls it: its `convert`. They print as
 * Python's `<class 'int'>`. */
#include "vm/internal.h"

static const char *const type_names[VM_TYPE_COUNT] = {
#define VM_TYPE_NAME(e, name) name,
    VM_TYPE_NAMES(VM_TYPE_NAME)
#undef VM_TYPE_NAME
};

/* The built-in class named `name`; the native bound to that name so far (int,
 * str ...) becomes its conversion, and the class takes the name's place. */
static void install_type(AgVM *vm, int kind) {
  const char *name = type_names[kind];
  ObjClass *k = obj_new_class(vm, obj_string(vm, name));
  vm->type_objects[kind] = OBJ_VAL(k);
  vm_push_root(vm, OBJ_VAL(k));
  Value existing;
  ObjString *s = obj_string(vm, name);
  bool bound = table_get(&vm->builtins, OBJ_VAL(s), &existing);
  if (bound && IS_NATIVE(existing)) k->convert = existing;
  /* Python has no built-in names for these (types.FunctionType ...) */
  bool unnamed = kind == VM_TYPE_FUNCTION || kind == VM_TYPE_NONE || kind == VM_TYPE_MODULE || kind == VM_TYPE_NODE;
  if (!unnamed && (!bound || IS_NATIVE(existing))) vm_define_builtin(vm, name, OBJ_VAL(k));
  vm_pop_root(vm);
}

bool vm_is_builtin_type(AgVM *vm, const ObjClass *k) {
  for (int kind = 0; kind < VM_TYPE_COUNT; kind++)
    if (IS_CLASS(vm->type_objects[kind]) && AS_CLASS(vm->type_objects[kind]) == k) return true;
  return false;
}

void vm_install_types(AgVM *vm) {
  for (int kind = 0; kind < VM_TYPE_COUNT; kind++) install_type(vm, kind);
}

static Value builtin_type(AgVM *vm, int kind) {
  return IS_NIL(vm->type_objects[kind]) ? OBJ_VAL(vm->dtypes[DT_FLOAT32]) : vm->type_objects[kind];
}

Value vm_type_of(AgVM *vm, Value v) {
  if (IS_FLOAT(v)) return OBJ_VAL(vm->dtypes[DT_FLOAT32]);
  if (IS_BOOL(v)) return OBJ_VAL(vm->dtypes[DT_BOOL]);
  if (IS_INT(v)) return builtin_type(vm, VM_TYPE_INT);
  if (IS_NIL(v) || !IS_OBJ(v)) return builtin_type(vm, VM_TYPE_NONE);
  switch (OBJ_TYPE(v)) {
  case OBJ_INSTANCE: return OBJ_VAL(AS_INSTANCE(v)->klass);
  case OBJ_STRING: return builtin_type(vm, VM_TYPE_STR);
  case OBJ_LIST: return builtin_type(vm, VM_TYPE_LIST);
  case OBJ_MAP: return builtin_type(vm, VM_TYPE_DICT);
  case OBJ_SET: return builtin_type(vm, VM_TYPE_SET);
  case OBJ_RANGE: return builtin_type(vm, VM_TYPE_RANGE);
  case OBJ_SLICE: return builtin_type(vm, VM_TYPE_SLICE);
  case OBJ_CLASS: return builtin_type(vm, VM_TYPE_TYPE);
  case OBJ_MODULE: return builtin_type(vm, VM_TYPE_MODULE);
  case OBJ_TENSOR: return builtin_type(vm, VM_TYPE_TENSOR);
  case OBJ_NODE: return builtin_type(vm, VM_TYPE_NODE);
  case OBJ_DTYPE: return builtin_type(vm, VM_TYPE_DTYPE);
  default: return builtin_type(vm, VM_TYPE_FUNCTION);
  }
}

/* isinstance(v, t) for one type object t (a class or the dtypes float and
 * bool): 1, 0, or -1 when t is not a type. A bool is an int, as in Python. */
int vm_is_instance(AgVM *vm, Value v, Value t) {
  if (IS_DTYPE(t)) return vm_values_equal(vm_type_of(vm, v), t);
  if (!IS_CLASS(t)) return -1;
  if (IS_INSTANCE(v)) {
    for (ObjClass *k = AS_INSTANCE(v)->klass; k != NULL; k = k->parent)
      if (k == AS_CLASS(t)) return 1;
    return 0;
  }
  if (IS_BOOL(v) && vm_values_equal(t, vm->type_objects[VM_TYPE_INT])) return 1;
  return vm_values_equal(vm_type_of(vm, v), t);
}
