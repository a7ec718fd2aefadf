/* protocol.c — operator methods (SPEC §4) and augmented assignment.
 *
 * The dispatch loop's slow paths (ops.c) come here when an operand is an
 * instance: `a + b` calls a.add(b), and when a has no `add` or it returns
 * NotImplemented, b.radd(a); comparisons reflect to the mirrored method
 * (a < b tries b.gt(a)), `!=` falls back to `not a.eq(b)`, and `==` to
 * identity. Each method runs as an ordinary Ag call, so an error inside it
 * carries its own line and the traceback shows the operator's line too. */
#include "vm/internal.h"
#include "vm/protocol.h"

/* The class's method `m`, when v is an instance whose class defines it. */
static bool find_method(AgVM *vm, Value v, VmMethod m, Value *method) {
  return IS_INSTANCE(v) && table_get(&AS_INSTANCE(v)->klass->methods, OBJ_VAL(vm->core.method_names[m]), method);
}

bool vm_has_method(AgVM *vm, Value v, VmMethod m) {
  Value method;
  return find_method(vm, v, m, &method);
}

Value vm_call_method_named(AgVM *vm, Value receiver, VmMethod m, int argc, const Value *args) {
  return vm_invoke(vm, receiver, vm->core.method_names[m], argc, args, NULL);
}

/* recv.m(arg) when recv's class defines m, else UNDEF_VAL (no such method). */
static Value try_method(AgVM *vm, Value recv, VmMethod m, Value arg) {
  if (!vm_has_method(vm, recv, m)) return UNDEF_VAL;
  return vm_call_method_named(vm, recv, m, 1, &arg);
}

/* The methods of a binary operator: forward, reflected (or the mirrored
 * comparison), in place; -1 where there is none. */
typedef struct {
  int forward, reflected, inplace;
} OpMethods;

static OpMethods op_methods(int op) {
  switch (op) {
  case OP_ADD: return (OpMethods){VM_M_ADD, VM_M_RADD, VM_M_IADD};
  case OP_SUBTRACT: return (OpMethods){VM_M_SUB, VM_M_RSUB, VM_M_ISUB};
  case OP_MULTIPLY: return (OpMethods){VM_M_MUL, VM_M_RMUL, VM_M_IMUL};
  case OP_DIVIDE: return (OpMethods){VM_M_DIV, VM_M_RDIV, VM_M_IDIV};
  case OP_MODULO: return (OpMethods){VM_M_MOD, VM_M_RMOD, VM_M_IMOD};
  case OP_POWER: return (OpMethods){VM_M_POW, VM_M_RPOW, VM_M_IPOW};
  case OP_MATMUL: return (OpMethods){VM_M_MATMUL, VM_M_RMATMUL, VM_M_IMATMUL};
  case OP_FLOOR_DIVIDE: return (OpMethods){VM_M_FLOORDIV, VM_M_RFLOORDIV, VM_M_IFLOORDIV};
  case OP_BIT_OR: return (OpMethods){VM_M_OR, VM_M_ROR, VM_M_IOR};
  case OP_BIT_AND: return (OpMethods){VM_M_AND, VM_M_RAND, VM_M_IAND};
  case OP_BIT_XOR: return (OpMethods){VM_M_XOR, VM_M_RXOR, VM_M_IXOR};
  case OP_EQUAL: return (OpMethods){VM_M_EQ, VM_M_EQ, -1};
  case OP_NOT_EQUAL: return (OpMethods){VM_M_NE, VM_M_NE, -1};
  case OP_LESS: return (OpMethods){VM_M_LT, VM_M_GT, -1};
  case OP_LESS_EQUAL: return (OpMethods){VM_M_LE, VM_M_GE, -1};
  case OP_GREATER: return (OpMethods){VM_M_GT, VM_M_LT, -1};
  case OP_GREATER_EQUAL: return (OpMethods){VM_M_GE, VM_M_LE, -1};
  default: return (OpMethods){-1, -1, -1};
  }
}

static bool same_class(Value a, Value b) {
  return IS_INSTANCE(a) && IS_INSTANCE(b) && AS_INSTANCE(a)->klass == AS_INSTANCE(b)->klass;
}

/* a OP b through the operands' methods: the result, VM_EXCEPTION, or
 * UNDEF_VAL when neither operand has a method that took it. */
static Value binary_methods(AgVM *vm, int op, Value a, Value b) {
  OpMethods m = op_methods(op);
  if (m.forward < 0) return UNDEF_VAL;
  Value r = try_method(vm, a, (VmMethod)m.forward, b);
  if (IS_EXCEPTION(r) || (!IS_UNDEF(r) && r != vm->core.not_implemented)) return r;
  /* Python tries the reflected arithmetic of a different type only;
   * comparisons reflect always (a > b is b.lt(a)). */
  bool comparison = m.inplace < 0;
  if (comparison || !same_class(a, b)) {
    Value rr = try_method(vm, b, (VmMethod)m.reflected, a);
    if (!IS_UNDEF(rr) && rr != vm->core.not_implemented) return rr;
  }
  return UNDEF_VAL;
}

/* truthy(v) of a value a method returned, kept alive while bool() runs. */
int vm_truthy_rooted(AgVM *vm, Value v) {
  vm_push_root(vm, v);
  int t = vm_truthy(vm, v);
  vm_pop_root(vm);
  return t;
}

Value vm_binary_method(AgVM *vm, int op, Value a, Value b) {
  Value r = binary_methods(vm, op, a, b);
  if (!IS_UNDEF(r) || op != OP_NOT_EQUAL) return r;
  /* no `ne`: the negation of `eq`, as Python's default __ne__ */
  r = binary_methods(vm, OP_EQUAL, a, b);
  if (IS_UNDEF(r) || IS_EXCEPTION(r)) return r;
  int t = vm_truthy_rooted(vm, r);
  return t < 0 ? VM_EXCEPTION : BOOL_VAL(!t);
}

Value vm_unary_method(AgVM *vm, VmMethod m, Value a) {
  if (!vm_has_method(vm, a, m)) return UNDEF_VAL;
  return vm_call_method_named(vm, a, m, 0, NULL);
}

/* A method that must return a value of one kind (bool, len, hash): the
 * script's mistake is named with its class and method. */
static Value checked_result(AgVM *vm, Value self, VmMethod m, Value r, bool ok, const char *want) {
  if (IS_EXCEPTION(r) || ok) return r;
  return vm_raise(vm, VM_ERR_TYPE, "%s.%s() should return %s, not %s", AS_INSTANCE(self)->klass->name->chars,
                        vm->core.method_names[m]->chars, want, vm_type_name(r));
}

static bool is_count(Value v) { return IS_INT(v); }

int vm_instance_truthy(AgVM *vm, Value v) {
  Value r = vm_unary_method(vm, VM_M_BOOL, v);
  if (!IS_UNDEF(r)) {
    r = checked_result(vm, v, VM_M_BOOL, r, IS_BOOL(r), "a bool");
    return IS_EXCEPTION(r) ? -1 : AS_BOOL(r);
  }
  if (!vm_has_method(vm, v, VM_M_LEN)) return 1;
  int64_t n = vm_instance_length(vm, v);
  return n < 0 ? -1 : n != 0;
}

int64_t vm_instance_length(AgVM *vm, Value v) {
  Value r = vm_unary_method(vm, VM_M_LEN, v);
  if (IS_UNDEF(r)) {
    vm_raise(vm, VM_ERR_TYPE, "object of type %s has no len()", vm_type_name(v));
    return -1;
  }
  r = checked_result(vm, v, VM_M_LEN, r, is_count(r) && AS_NUMBER(r) >= 0, "a non-negative integer");
  return IS_EXCEPTION(r) ? -1 : AS_INT(r);
}

/* ---- equality and hashing that may call eq / hash ---- */

int vm_equal(AgVM *vm, Value a, Value b) {
  if (!IS_INSTANCE(a) && !IS_INSTANCE(b)) return vm_values_equal(a, b);
  if (a == b) return 1;
  Value r = binary_methods(vm, OP_EQUAL, a, b);
  if (IS_UNDEF(r)) return 0;
  if (IS_EXCEPTION(r)) return -1;
  return vm_truthy_rooted(vm, r);
}

/* ---- augmented assignment ---- */

/* t |= m, t &= m, t ^= m (bool tensors, no autograd): t.copy_(t op m), in
 * place as PyTorch's bitwise_or_ ... */
static Value tensor_bitwise_inplace(AgVM *vm, int op, Value a, Value b) {
  Value r = vm_binary_op(vm, op, a, b);
  if (IS_EXCEPTION(r)) return r;
  vm_push_root(vm, r);
  Value done = vm->plugins.tensor->invoke(vm, a, obj_string(vm, "copy_"), 1, &r, NULL);
  vm_pop_root(vm);
  return done;
}

/* An instance b may define the reflected operator (a = a OP b asks it). */
static Value tensor_inplace(AgVM *vm, int op, Value a, Value b) {
  if (vm_is_bitwise_op(op) && !IS_INSTANCE(b)) return tensor_bitwise_inplace(vm, op, a, b);
  if (IS_INSTANCE(b)) return vm_binary_op(vm, op, a, b);
  if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
  Value r = vm->plugins.tensor->inplace(vm, op, a, b);
  return IS_UNDEF(r) ? vm_binary_op(vm, op, a, b) : r;
}

/* xs *= n repeats xs in place. */
static Value list_repeat_in_place(AgVM *vm, Value a, Value b) {
  Value r = vm_binary_op(vm, OP_MULTIPLY, a, b);
  if (IS_EXCEPTION(r)) return r;
  ObjList *dst = AS_LIST(a), *src = AS_LIST(r);
  dst->count = 0;
  vm_push_root(vm, r);
  for (int i = 0; i < src->count; i++) obj_list_append(vm, dst, src->items[i]);
  vm_pop_root(vm);
  return a;
}

Value vm_inplace_op(AgVM *vm, int op, Value a, Value b) {
  if (IS_TENSOR(a)) return tensor_inplace(vm, op, a, b);
  if (IS_LIST(a) && op == OP_ADD) return vm_extend_list(vm, AS_LIST(a), b) ? a : VM_EXCEPTION;
  if (IS_LIST(a) && op == OP_MULTIPLY && IS_NUMBER(b)) return list_repeat_in_place(vm, a, b);
  if (IS_SET(a)) return vm_set_inplace(vm, op, a, b);
  OpMethods m = op_methods(op);
  if (m.inplace >= 0) {
    Value r = try_method(vm, a, (VmMethod)m.inplace, b);
    if (IS_EXCEPTION(r) || (!IS_UNDEF(r) && r != vm->core.not_implemented)) return r;
  }
  return vm_binary_op(vm, op, a, b);
}
