/* types.c — what type(x) returns and isinstance takes.
 *
 * An instance's type is its class. Every other value's type is a built-in
 * class: Python's name as __name__ (int str list dict set range type Tensor
 * ...; those that are Python builtins are bound to that name), printed as
 * Ag's name of the kind (int string list map set ... nil class tensor), which
 * it also equals (type(s) == "string", as type() used to give names), so
 * both `type(3) == int` and the old `type(x) == "int"` hold. A built-in type
 * that had a conversion (int(x), str(x), list(x) were natives) calls it: its
 * `convert`. The types of floats and booleans equal the dtypes `float` and
 * `bool`, which keep those names (type(1.5) == float). */
#include "vm/internal.h"

static const struct {
  const char *name, *shown;
  bool global;
} types[VM_TYPE_COUNT] = {
#define VM_TYPE_ENTRY(e, name, shown, global) {name, shown, global},
    VM_TYPE_NAMES(VM_TYPE_ENTRY)
#undef VM_TYPE_ENTRY
};

/* The built-in class of `kind`; a native bound to its name so far (int, str
 * ...) becomes its conversion, and the class takes the name's place. */
static void install_type(AgVM *vm, int kind) {
  ObjString *name = obj_string(vm, types[kind].name);
  vm_push_root(vm, OBJ_VAL(name)); /* while the class is allocated */
  ObjClass *k = obj_new_class(vm, name);
  vm->core.type_objects[kind] = OBJ_VAL(k);
  vm_pop_root(vm);
  k->shown_name = obj_string(vm, types[kind].shown);
  k->dtype_alias = kind == VM_TYPE_FLOAT ? DT_FLOAT32 : kind == VM_TYPE_BOOL ? DT_BOOL : -1;
  Value existing;
  bool bound = table_get(&vm->globals.builtins, OBJ_VAL(k->name), &existing);
  if (bound && IS_NATIVE(existing)) k->convert = existing;
  if (types[kind].global && (!bound || IS_NATIVE(existing))) vm_define_builtin(vm, types[kind].name, OBJ_VAL(k));
}

void vm_install_types(AgVM *vm) {
  for (int kind = 0; kind < VM_TYPE_COUNT; kind++) install_type(vm, kind);
}

bool vm_is_builtin_type(AgVM *vm, const ObjClass *k) { return k->shown_name != NULL; }

static Value builtin_type(AgVM *vm, int kind) {
  return IS_NIL(vm->core.type_objects[kind]) ? NIL_VAL : vm->core.type_objects[kind];
}

Value vm_type_of(AgVM *vm, Value v) {
  if (IS_FLOAT(v)) return builtin_type(vm, VM_TYPE_FLOAT);
  if (IS_BOOL(v)) return builtin_type(vm, VM_TYPE_BOOL);
  if (IS_INT(v)) return builtin_type(vm, VM_TYPE_INT);
  if (IS_NIL(v) || !IS_OBJ(v)) return builtin_type(vm, VM_TYPE_NONE);
  switch (OBJ_TYPE(v)) {
  case OBJ_INSTANCE: return OBJ_VAL(AS_INSTANCE(v)->klass);
  case OBJ_STRING: return builtin_type(vm, VM_TYPE_STR);
  case OBJ_LIST: return builtin_type(vm, VM_TYPE_LIST);
  case OBJ_TUPLE: return builtin_type(vm, VM_TYPE_TUPLE);
  case OBJ_MAP: return builtin_type(vm, VM_TYPE_DICT);
  case OBJ_SET: return builtin_type(vm, VM_TYPE_SET);
  case OBJ_RANGE: return builtin_type(vm, VM_TYPE_RANGE);
  case OBJ_SLICE: return builtin_type(vm, VM_TYPE_SLICE);
  case OBJ_CLASS: return builtin_type(vm, VM_TYPE_TYPE);
  case OBJ_MODULE: return builtin_type(vm, VM_TYPE_MODULE);
  case OBJ_TENSOR: return builtin_type(vm, VM_TYPE_TENSOR);
  case OBJ_NODE: return builtin_type(vm, VM_TYPE_NODE);
  case OBJ_DTYPE: return builtin_type(vm, VM_TYPE_DTYPE);
  case OBJ_GENERATOR: return builtin_type(vm, VM_TYPE_GENERATOR);
  default: return builtin_type(vm, VM_TYPE_FUNCTION);
  }
}

/* isinstance(v, t) for one type t (a class, or the dtypes float and bool):
 * 1, 0, or -1 when t is not a type. A bool is an int, as in Python. */
int vm_is_instance(AgVM *vm, Value v, Value t) {
  if (IS_DTYPE(t)) return vm_values_equal(vm_type_of(vm, v), t);
  if (!IS_CLASS(t)) return -1;
  if (IS_INSTANCE(v)) {
    for (ObjClass *k = AS_INSTANCE(v)->klass; k != NULL; k = k->parent)
      if (k == AS_CLASS(t)) return 1;
    return 0;
  }
  if (IS_BOOL(v) && t == vm->core.type_objects[VM_TYPE_INT]) return 1;
  return vm_type_of(vm, v) == t;
}
