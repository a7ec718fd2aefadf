/* descriptor.c — class members that are not plain methods, made by the
 * built-in decorators (Python's descriptors, for these three):
 *
 *   @property      a getter read as a field (obj.area), its setter given by
 *                  @area.setter; fields fget, fset (nil: read-only)
 *   @staticmethod  a function called without the receiver; field __func__
 *   @classmethod   a function called with the class as its first argument
 *
 * Each is an instance of a built-in class. Reading, setting and calling a
 * class member goes through here only when the member is an instance (the
 * dispatch loop's fast paths see closures), and setting a field checks for a
 * property only on classes that have one (ObjClass.has_properties). */
#include <string.h>

#include "vm/internal.h"

static Value field_of(AgVM *vm, Value obj, const char *name) {
  Value v = NIL_VAL;
  table_get(&AS_INSTANCE(obj)->fields, OBJ_VAL(obj_string(vm, name)), &v);
  return v;
}

static void set_field_of(AgVM *vm, Value obj, const char *name, Value v) {
  table_set(vm, &AS_INSTANCE(obj)->fields, OBJ_VAL(obj_string(vm, name)), v);
}

static bool is_kind(Value v, ObjClass *k) { return IS_INSTANCE(v) && AS_INSTANCE(v)->klass == k; }

bool vm_is_property(AgVM *vm, Value member) { return is_kind(member, vm->core.property_class); }

/* staticmethod(f), classmethod(f) */
static Value wrapper_init(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  set_field_of(vm, self, "__func__", args[0]);
  return NIL_VAL;
}

/* property(fget, fset=nil) */
static Value property_init(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  set_field_of(vm, self, "fget", args[0]);
  set_field_of(vm, self, "fset", argc > 1 ? args[1] : NIL_VAL);
  return NIL_VAL;
}

/* p.setter(f), p.getter(f): a new property with that function replaced. */
static Value property_with(AgVM *vm, Value self, const char *which, Value fn) {
  ObjInstance *p = obj_new_instance(vm, vm->core.property_class);
  vm_push_root(vm, OBJ_VAL(p));
  table_add_all(vm, &AS_INSTANCE(self)->fields, &p->fields);
  set_field_of(vm, OBJ_VAL(p), which, fn);
  vm_pop_root(vm);
  return OBJ_VAL(p);
}

static Value property_setter(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  return property_with(vm, self, "fset", args[0]);
}

static Value property_getter(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  return property_with(vm, self, "fget", args[0]);
}

static ObjClass *builtin_class(AgVM *vm, const char *name, AgNativeFn init, int max_args) {
  ObjClass *k = obj_new_class(vm, obj_string(vm, name));
  vm_define_builtin(vm, name, OBJ_VAL(k));
  ObjNative *n = obj_new_native(vm, "init", init, 1, max_args, false);
  table_set(vm, &k->methods, OBJ_VAL(vm->core.init_string), OBJ_VAL(n));
  k->init = OBJ_VAL(n);
  return k;
}

static void add_method(AgVM *vm, ObjClass *k, const char *name, AgNativeFn fn) {
  ObjNative *n = obj_new_native(vm, name, fn, 1, 1, false);
  vm_push_root(vm, OBJ_VAL(n));
  table_set(vm, &k->methods, OBJ_VAL(obj_string(vm, name)), OBJ_VAL(n));
  vm_pop_root(vm);
}

void vm_install_descriptors(AgVM *vm) {
  vm->core.property_class = builtin_class(vm, "property", property_init, 2);
  add_method(vm, vm->core.property_class, "setter", property_setter);
  add_method(vm, vm->core.property_class, "getter", property_getter);
  vm->core.staticmethod_class = builtin_class(vm, "staticmethod", wrapper_init, 1);
  vm->core.classmethod_class = builtin_class(vm, "classmethod", wrapper_init, 1);
}

static Value bind(AgVM *vm, Value receiver, Value method) {
  return OBJ_VAL(obj_new_bound_method(vm, receiver, method));
}

/* The class a classmethod receives: the receiver's, or the receiver itself. */
static Value class_of(Value receiver) {
  return IS_INSTANCE(receiver) ? OBJ_VAL(AS_INSTANCE(receiver)->klass) : receiver;
}

/* receiver.name where the class holds `member` under that name. */
Value vm_member_value(AgVM *vm, Value receiver, Value member) {
  bool plain_function = IS_CLOSURE(member) && !AS_CLOSURE(member)->function->is_method;
  if (plain_function && IS_CLASS(receiver)) return member; /* C.f is f, unbound */
  if (!IS_INSTANCE(member)) return bind(vm, receiver, member);
  ObjClass *kind = AS_INSTANCE(member)->klass;
  if (kind == vm->core.property_class) {
    if (!IS_INSTANCE(receiver)) return member; /* C.area is the property itself */
    Value getter = bind(vm, receiver, field_of(vm, member, "fget"));
    vm_push_root(vm, getter);
    Value v = vm_call(vm, getter, 0, NULL);
    vm_pop_root(vm);
    return v;
  }
  if (kind == vm->core.staticmethod_class) return field_of(vm, member, "__func__");
  if (kind == vm->core.classmethod_class) return bind(vm, class_of(receiver), field_of(vm, member, "__func__"));
  return bind(vm, receiver, member); /* any other callable: bound, as a function */
}

/* receiver.name(args) where the class holds `member`, an instance, under
 * that name; the receiver is in the callee slot. */
CallStatus vm_call_descriptor(AgVM *vm, Value member, Value receiver, int argc, int nkw,
                              ObjString *const *kwnames) {
  Value *slot = vm->exec.stack_top - argc - nkw - 1;
  ObjClass *kind = IS_INSTANCE(member) ? AS_INSTANCE(member)->klass : NULL;
  if (kind == vm->core.staticmethod_class) {
    *slot = field_of(vm, member, "__func__");
  } else if (kind == vm->core.classmethod_class) {
    *slot = bind(vm, class_of(receiver), field_of(vm, member, "__func__"));
  } else if (kind == vm->core.property_class) {
    *slot = vm_member_value(vm, receiver, member);
    if (IS_EXCEPTION(*slot)) return CALL_ERROR;
  } else { /* any other callable (a decorator's result): the receiver comes first */
    if (vm->exec.stack_top + 1 >= vm->exec.stack_limit) {
      vm_raise(vm, VM_ERR_RECURSION, "stack overflow");
      return CALL_ERROR;
    }
    Value *first = slot + 1;
    memmove(first + 1, first, sizeof(Value) * (size_t)(argc + nkw));
    *first = receiver;
    vm->exec.stack_top++;
    *slot = member;
    argc++;
  }
  return vm_call_value(vm, *slot, argc, nkw, kwnames);
}

/* obj.name = v where obj's class has properties: a property's setter runs. */
Value vm_set_instance_field(AgVM *vm, Value obj, ObjString *name, Value v) {
  ObjInstance *inst = AS_INSTANCE(obj);
  Value member;
  if (table_get(&inst->klass->methods, OBJ_VAL(name), &member) && vm_is_property(vm, member)) {
    Value fset = field_of(vm, member, "fset");
    if (IS_NIL(fset))
      return vm_raise(vm, VM_ERR_ATTRIBUTE, "property '%s' of '%s' object has no setter", name->chars, inst->klass->name->chars);
    Value setter = bind(vm, obj, fset);
    vm_push_root(vm, setter);
    Value r = vm_call(vm, setter, 1, &v);
    vm_pop_root(vm);
    return IS_EXCEPTION(r) ? r : v;
  }
  table_set(vm, &inst->fields, OBJ_VAL(name), v);
  return v;
}
