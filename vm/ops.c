/* ops.c — slow paths of the dispatch loop: operators on non-numbers,
 * attribute access, indexing, slicing and iteration (see internal.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vm/buffer.h"
#include "vm/internal.h"
#include "vm/opcodes.h"

/* The source spelling of an operator opcode, for error messages. */
const char *vm_op_symbol(int op) {
  switch (op) {
  case OP_ADD: return "+";
  case OP_SUBTRACT: return "-";
  case OP_MULTIPLY: return "*";
  case OP_DIVIDE: return "/";
  case OP_MODULO: return "%";
  case OP_FLOOR_DIVIDE: return "//";
  case OP_POWER: return "**";
  case OP_MATMUL: return "@";
  case OP_BIT_OR: return "|";
  case OP_BIT_AND: return "&";
  case OP_BIT_XOR: return "^";
  case OP_INVERT: return "~";
  case OP_LESS: return "<";
  case OP_LESS_EQUAL: return "<=";
  case OP_GREATER: return ">";
  case OP_GREATER_EQUAL: return ">=";
  case OP_EQUAL: return "==";
  case OP_NOT_EQUAL: return "!=";
  case OP_IN: return "in";
  case OP_NEGATE: return "-";
  case OP_POSITIVE: return "+";
  default: return "?";
  }
}

Value vm_tensors_unavailable(AgVM *vm) {
  return vm_throw_error(vm, "tensor operations are not available (no tensor library installed)");
}

static bool is_tensorish(Value v) { return IS_TENSOR(v) || IS_NODE(v); }

static Value operand_error(AgVM *vm, int op, Value a, Value b) {
  return vm_raise(vm, VM_ERR_TYPE, "unsupported operand types for %s: '%s' and '%s'", vm_op_symbol(op),
                        vm_type_name(a), vm_type_name(b));
}

bool vm_is_bitwise_op(int op) { return op == OP_BIT_OR || op == OP_BIT_AND || op == OP_BIT_XOR; }

static int64_t bitwise_int(int op, int64_t x, int64_t y) {
  return op == OP_BIT_OR ? x | y : op == OP_BIT_AND ? x & y : x ^ y;
}

/* a | b, a & b, a ^ b: of two booleans a boolean, else bitwise of ints (a
 * boolean taking part as 0 or 1), as Python's. */
static Value bitwise(AgVM *vm, int op, Value a, Value b) {
  if (IS_BOOL(a) && IS_BOOL(b)) return BOOL_VAL(bitwise_int(op, AS_BOOL(a), AS_BOOL(b)));
  int64_t x = IS_BOOL(a) ? AS_BOOL(a) : AS_INT(a), y = IS_BOOL(b) ? AS_BOOL(b) : AS_INT(b);
  return INT_VAL(vm, bitwise_int(op, x, y));
}

static Value concat_strings(AgVM *vm, ObjString *a, ObjString *b) {
  if ((int64_t)a->length + b->length > (int64_t)1 << 30) return vm_raise(vm, VM_ERR_MEMORY, "string too long");
  int length = a->length + b->length;
  char *chars = AG_ALLOCATE(vm, char, length + 1);
  memcpy(chars, a->chars, (size_t)a->length);
  memcpy(chars + a->length, b->chars, (size_t)b->length);
  chars[length] = '\0';
  return OBJ_VAL(obj_take_string(vm, chars, length));
}

static Value concat_lists(AgVM *vm, ObjList *a, ObjList *b) {
  ObjList *out = obj_new_list(vm);
  int n = a->count + b->count;
  vm_push_root(vm, OBJ_VAL(out));
  out->items = AG_ALLOCATE(vm, Value, n);
  vm_pop_root(vm);
  out->capacity = n;
  if (a->count > 0) memcpy(out->items, a->items, sizeof(Value) * (size_t)a->count);
  if (b->count > 0) memcpy(out->items + a->count, b->items, sizeof(Value) * (size_t)b->count);
  out->count = n;
  return OBJ_VAL(out);
}

/* "ab" * 3 and [0] * 3, as in Python. */
static Value repeat(AgVM *vm, Value seq, Value times) {
  if (!IS_INT(times) && !IS_BOOL(times)) {
    return vm_raise(vm, VM_ERR_TYPE, "can't multiply sequence by non-int of type '%s'", vm_type_name(times));
  }
  int64_t t = IS_BOOL(times) ? AS_BOOL(times) : AS_INT(times);
  int64_t n = t < 0 ? 0 : t;
  /* lengths are ints: a string past 2^30 bytes or a list past 2^28 items is
   * more than Ag can hold (MemoryError, as Python's for a repeat that large) */
  if (IS_STRING(seq)) {
    ObjString *s = AS_STRING(seq);
    if (s->length > 0 && n > ((int64_t)1 << 30) / s->length) return vm_throw_memory_error(vm, (double)n * s->length);
    VmBuf b;
    vm_buf_init(&b);
    for (int64_t i = 0; i < n; i++) vm_buf_add(&b, s->chars, (size_t)s->length);
    return OBJ_VAL(vm_buf_to_string(vm, &b));
  }
  ObjList *src = AS_LIST(seq);
  if (src->count > 0 && n > ((int64_t)1 << 28) / src->count)
    return vm_throw_memory_error(vm, (double)n * src->count * sizeof(Value));
  ObjList *out = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(out));
  for (int64_t i = 0; i < n; i++) {
    for (int j = 0; j < src->count; j++) obj_list_append(vm, out, src->items[j]);
    if (tensor_interrupt_requested) { /* [0] * 2 ** 28 takes a while */
      vm_pop_root(vm);
      return vm_throw_interrupted(vm);
    }
  }
  vm_pop_root(vm);
  return IS_TUPLE(seq) ? vm_list_to_tuple(vm, OBJ_VAL(out)) : OBJ_VAL(out);
}

/* item in xs for any iterable: walks it up to the first equal item, as
 * Python does (an iterator or generator is consumed that far). */
static int equals_item(AgVM *vm, Value next, void *item) { return vm_equal(vm, *(Value *)item, next); }

static Value iterable_contains(AgVM *vm, Value item, Value container) {
  int found = vm_iterate(vm, container, equals_item, &item);
  return found < 0 ? VM_EXCEPTION : BOOL_VAL(found);
}

/* `item in obj` for an instance: obj.contains(item), else a walk of obj's
 * iteration comparing with ==, as Python's. */
static Value instance_contains(AgVM *vm, Value item, Value container) {
  Value r = vm_has_method(vm, container, VM_M_CONTAINS)
                ? vm_call_method_named(vm, container, VM_M_CONTAINS, 1, &item)
                : UNDEF_VAL;
  if (IS_EXCEPTION(r)) return r;
  if (!IS_UNDEF(r)) {
    int t = vm_truthy_rooted(vm, r);
    return t < 0 ? VM_EXCEPTION : BOOL_VAL(t);
  }
  return iterable_contains(vm, item, container);
}

static Value contains(AgVM *vm, Value item, Value container) {
  if (is_list_or_tuple(container)) {
    ObjList *l = AS_LIST(container);
    for (int i = 0; i < l->count; i++) {
      int eq = vm_equal(vm, item, l->items[i]);
      if (eq != 0) return eq < 0 ? VM_EXCEPTION : TRUE_VAL;
    }
    return FALSE_VAL;
  }
  if (IS_INSTANCE(container)) return instance_contains(vm, item, container);
  if (IS_GENERATOR(container)) return iterable_contains(vm, item, container);
  if (IS_MAP(container) || IS_SET(container)) {
    int found = vm_map_find(vm, AS_MAP(container), item, NULL);
    return found < 0 ? VM_EXCEPTION : BOOL_VAL(found);
  }
  if (IS_STRING(container)) {
    if (!IS_STRING(item)) return vm_raise(vm, VM_ERR_TYPE, "'in <string>' needs a string on the left, not %s", vm_type_name(item));
    return BOOL_VAL(strstr(AS_CSTRING(container), AS_CSTRING(item)) != NULL);
  }
  if (IS_RANGE(container)) {
    ObjRange *r = AS_RANGE(container);
    int64_t n = obj_range_length(r);
    if (IS_FLOAT(item) && AS_FLOAT(item) == trunc(AS_FLOAT(item)) && fabs(AS_FLOAT(item)) < 0x1p63) {
      item = INT_VAL(vm, (int64_t)AS_FLOAT(item));
    }
    if (!IS_INT(item) || n == 0) return FALSE_VAL;
    int64_t v = AS_INT(item), last = obj_range_item(r, n - 1);
    bool inside = r->step > 0 ? v >= r->start && v <= last : v <= r->start && v >= last;
    return BOOL_VAL(inside && ((uint64_t)v - (uint64_t)r->start) % (uint64_t)(r->step > 0 ? r->step : -r->step) == 0);
  }
  return vm_raise(vm, VM_ERR_TYPE, "argument of type %s is not iterable", vm_type_name(container));
}

static Value compare(AgVM *vm, int op, Value a, Value b) {
  bool ok = (IS_STRING(a) && IS_STRING(b)) || (IS_LIST(a) && IS_LIST(b)) || (IS_TUPLE(a) && IS_TUPLE(b));
  if (!ok) return operand_error(vm, op, a, b);
  bool swap = op == OP_GREATER || op == OP_LESS_EQUAL;
  int lt = swap ? vm_less_than(vm, b, a) : vm_less_than(vm, a, b);
  if (lt < 0) return VM_EXCEPTION;
  if (op == OP_LESS || op == OP_GREATER) return BOOL_VAL(lt);
  return BOOL_VAL(!lt);
}

Value vm_binary_op(AgVM *vm, int op, Value a, Value b) {
  if (op == OP_MODULO && IS_STRING(a)) return vm_format_percent(vm, AS_STRING(a), b); /* "%d" % n */
  if ((IS_INSTANCE(a) || IS_INSTANCE(b)) && op != OP_IN) {
    Value r = vm_binary_method(vm, op, a, b);
    if (!IS_UNDEF(r)) return r;
  }
  if (IS_SET(a) && IS_SET(b)) {
    Value r = vm_set_binary(vm, op, a, b);
    if (!IS_UNDEF(r)) return r;
  }
  if (is_tensorish(a) || is_tensorish(b)) {
    if (op == OP_IN && !is_tensorish(b)) return contains(vm, a, b);
    if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
    return vm->plugins.tensor->binary(vm, op, a, b);
  }
  if (op == OP_EQUAL) return BOOL_VAL(vm_values_equal(a, b));
  if (op == OP_NOT_EQUAL) return BOOL_VAL(!vm_values_equal(a, b));
  if (op == OP_IN) return contains(vm, a, b);
  bool a_int = IS_INT(a) || IS_BOOL(a), b_int = IS_INT(b) || IS_BOOL(b);
  if (vm_is_bitwise_op(op) && a_int && b_int) return bitwise(vm, op, a, b);
  bool a_num = IS_NUMBER(a) || IS_BOOL(a), b_num = IS_NUMBER(b) || IS_BOOL(b);
  if (a_num && b_num && op != OP_MATMUL && !vm_is_bitwise_op(op)) return vm_number_op(vm, op, a, b);
  switch (op) {
  case OP_ADD:
    if (IS_STRING(a) && IS_STRING(b)) return concat_strings(vm, AS_STRING(a), AS_STRING(b));
    if (IS_LIST(a) && IS_LIST(b)) return concat_lists(vm, AS_LIST(a), AS_LIST(b));
    if (IS_TUPLE(a) && IS_TUPLE(b)) return vm_list_to_tuple(vm, concat_lists(vm, AS_LIST(a), AS_LIST(b)));
    break;
  case OP_MULTIPLY:
    if ((IS_STRING(a) || is_list_or_tuple(a)) && b_num) return repeat(vm, a, b);
    if ((IS_STRING(b) || is_list_or_tuple(b)) && a_num) return repeat(vm, b, a);
    break;
  case OP_LESS:
  case OP_LESS_EQUAL:
  case OP_GREATER:
  case OP_GREATER_EQUAL: return compare(vm, op, a, b);
  default: break;
  }
  return operand_error(vm, op, a, b);
}

/* ~a: Python's bitwise not of an int (a boolean as 0 or 1: ~true == -2). */
static Value invert(AgVM *vm, Value a) {
  if (IS_INT(a) || IS_BOOL(a)) return INT_VAL(vm, ~(IS_BOOL(a) ? (int64_t)AS_BOOL(a) : AS_INT(a)));
  if (is_tensorish(a)) {
    if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
    return vm->plugins.tensor->unary(vm, OP_INVERT, a);
  }
  return vm_raise(vm, VM_ERR_TYPE, "bad operand type for unary ~: '%s'", vm_type_name(a));
}

Value vm_unary_op(AgVM *vm, int op, Value a) {
  if (IS_INSTANCE(a)) {
    VmMethod m = op == OP_POSITIVE ? VM_M_POS : op == OP_INVERT ? VM_M_INVERT : VM_M_NEG;
    Value r = vm_unary_method(vm, m, a);
    if (!IS_UNDEF(r)) return r;
  }
  if (op == OP_INVERT) return invert(vm, a);
  if (op == OP_POSITIVE) { /* +t is t itself, as PyTorch's positive() */
    if (IS_NUMBER(a) || IS_TENSOR(a)) return a;
    if (IS_BOOL(a)) return INT_VAL(vm, AS_BOOL(a));
    return vm_raise(vm, VM_ERR_TYPE, "bad operand type for unary +: '%s'", vm_type_name(a));
  }
  if (IS_NUMBER(a) || IS_BOOL(a)) return vm_negate_number(vm, a);
  if (is_tensorish(a)) {
    if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
    return vm->plugins.tensor->unary(vm, op, a);
  }
  return vm_raise(vm, VM_ERR_TYPE, "unsupported operand type for %s: '%s'", vm_op_symbol(op), vm_type_name(a));
}

/* ---- attributes ---- */

static Value bind(AgVM *vm, Value receiver, Value method) {
  return OBJ_VAL(obj_new_bound_method(vm, receiver, method));
}

static Value builtin_method(AgVM *vm, Table *methods, Value receiver, ObjString *name) {
  Value method;
  if (table_get(methods, OBJ_VAL(name), &method)) return bind(vm, receiver, method);
  char hint[128];
  return vm_raise(vm, VM_ERR_ATTRIBUTE, "%s has no method '%s'%s", vm_type_name(receiver), name->chars,
                  vm_attribute_hint(vm, receiver, name->chars, hint, sizeof hint));
}

bool vm_load_module(AgVM *vm, ObjModule *m) {
  if (m->state != MODULE_UNLOADED) return true;
  if (vm->plugins.module_loader == NULL) {
    vm_raise(vm, VM_ERR_IMPORT, "module %s cannot be loaded (no loader installed)", m->name->chars);
    return false;
  }
  m->state = MODULE_LOADING;
  bool ok = vm->plugins.module_loader(vm, m);
  m->state = ok ? MODULE_LOADED : MODULE_UNLOADED;
  return ok;
}

bool vm_module_member(AgVM *vm, ObjModule *m, ObjString *name, Value *out) {
  if (!vm_load_module(vm, m)) return false;
  Value slot;
  if (table_get(&m->names, OBJ_VAL(name), &slot)) {
    *out = vm->globals.values[(int)AS_NUMBER(slot)];
    if (!IS_UNDEF(*out)) return true;
  }
  return m->builtin_members && table_get(&vm->globals.builtins, OBJ_VAL(name), out);
}

static Value module_attr(AgVM *vm, ObjModule *m, ObjString *name) {
  Value v;
  if (vm_module_member(vm, m, name, &v)) return v;
  if (vm->exc.pending) return VM_EXCEPTION;
  char hint[128];
  return vm_raise(vm, VM_ERR_ATTRIBUTE, "module %s has no global '%s'%s", m->name->chars, name->chars,
                  vm_attribute_hint(vm, OBJ_VAL(m), name->chars, hint, sizeof hint));
}

Value vm_no_field(AgVM *vm, Value inst, ObjString *name) {
  char hint[128];
  return vm_raise(vm, VM_ERR_ATTRIBUTE, "%s instance has no field or method '%s'%s", AS_INSTANCE(inst)->klass->name->chars,
                  name->chars, vm_attribute_hint(vm, inst, name->chars, hint, sizeof hint));
}

/* Python's dunder attributes every value of a kind has: f.__name__ (functions,
 * natives, classes), obj.__class__; UNDEF_VAL for any other name. */
static Value special_attr(AgVM *vm, Value obj, ObjString *name) {
  if (name->length < 5 || name->chars[0] != '_' || name->chars[1] != '_') return UNDEF_VAL;
  if (strcmp(name->chars, "__class__") == 0) return vm_type_of(vm, obj);
  if (strcmp(name->chars, "__name__") != 0 || !IS_OBJ(obj)) return UNDEF_VAL;
  switch (OBJ_TYPE(obj)) {
  case OBJ_CLASS: return OBJ_VAL(AS_CLASS(obj)->name);
  case OBJ_NATIVE: return OBJ_VAL(AS_NATIVE(obj)->name);
  case OBJ_CLOSURE: {
    ObjString *s = AS_CLOSURE(obj)->function->name;
    return s != NULL ? OBJ_VAL(s) : UNDEF_VAL;
  }
  case OBJ_BOUND_METHOD: return special_attr(vm, AS_BOUND_METHOD(obj)->method, name);
  case OBJ_MODULE: return OBJ_VAL(AS_MODULE(obj)->name);
  case OBJ_DTYPE: { /* the types of Python's floats and bools are these dtypes */
    DType d = AS_DTYPE(obj)->dtype;
    return OBJ_VAL(obj_string(vm, d == DT_FLOAT32 ? "float" : d == DT_BOOL ? "bool" : dtype_name(d)));
  }
  default: return UNDEF_VAL;
  }
}

Value vm_get_attr(AgVM *vm, Value obj, ObjString *name) {
  Value v = special_attr(vm, obj, name);
  if (!IS_UNDEF(v)) return v;
  char hint[128];
  if (IS_INSTANCE(obj)) {
    ObjInstance *inst = AS_INSTANCE(obj);
    if (table_get(&inst->fields, OBJ_VAL(name), &v)) return v;
    if (table_get(&inst->klass->methods, OBJ_VAL(name), &v)) return vm_member_value(vm, obj, v);
    return vm_no_field(vm, obj, name);
  }
  if (!IS_OBJ(obj)) goto no_attr;
  switch (OBJ_TYPE(obj)) {
  case OBJ_CLASS:
    if (table_get(&AS_CLASS(obj)->methods, OBJ_VAL(name), &v)) return vm_member_value(vm, obj, v);
    return vm_raise(vm, VM_ERR_ATTRIBUTE, "class %s has no method '%s'%s", AS_CLASS(obj)->name->chars, name->chars,
                    vm_attribute_hint(vm, obj, name->chars, hint, sizeof hint));
  case OBJ_MODULE: return module_attr(vm, AS_MODULE(obj), name);
  case OBJ_LIST: return builtin_method(vm, &vm->core.list_methods, obj, name);
  case OBJ_TUPLE: return builtin_method(vm, &vm->core.tuple_methods, obj, name);
  case OBJ_MAP: return builtin_method(vm, &vm->core.map_methods, obj, name);
  case OBJ_SET: return builtin_method(vm, &vm->core.set_methods, obj, name);
  case OBJ_STRING: return builtin_method(vm, &vm->core.string_methods, obj, name);
  case OBJ_GENERATOR: return builtin_method(vm, &vm->core.generator_methods, obj, name);
  case OBJ_TENSOR:
  case OBJ_NODE:
    if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
    return vm->plugins.tensor->get_attr(vm, obj, name);
  default: break;
  }
no_attr:
  return vm_raise(vm, VM_ERR_ATTRIBUTE, "%s has no attribute '%s'", vm_type_name(obj), name->chars);
}

Value vm_set_attr(AgVM *vm, Value obj, ObjString *name, Value v) {
  if (IS_INSTANCE(obj)) return vm_set_instance_field(vm, obj, name, v);
  if (is_tensorish(obj)) {
    if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
    return vm->plugins.tensor->set_attr(vm, obj, name, v);
  }
  return vm_raise(vm, VM_ERR_ATTRIBUTE, "cannot set attribute '%s' on %s", name->chars, vm_type_name(obj));
}

/* ---- indexing ---- */

bool vm_normalize_index(int64_t index, int64_t length, int64_t *out) {
  if (index < 0) index += length;
  if (!(index >= 0 && index < length)) return false;
  *out = index;
  return true;
}

void vm_short_repr(AgVM *vm, Value v, char *buf, size_t size) {
  Value r = vm_to_repr(vm, v);
  if (IS_EXCEPTION(r)) {
    vm_take_exception(vm);
    snprintf(buf, size, "<%s>", vm_type_name(v));
    return;
  }
  ObjString *s = AS_STRING(r);
  if ((size_t)s->length < size) snprintf(buf, size, "%s", s->chars);
  else snprintf(buf, size, "%.*s...", (int)size - 4, s->chars);
}

/* The item of a tuple key (or the key itself) that cannot be a key, or
 * UNDEF_VAL when none. Instances are keys by identity (SPEC §3). */
static Value unhashable_part(Value key, int depth) {
  if (IS_NUMBER(key) || IS_BOOL(key) || IS_STRING(key) || IS_NIL(key) || IS_INSTANCE(key)) return UNDEF_VAL;
  if (!IS_TUPLE(key)) return key;
  ObjList *t = AS_TUPLE(key);
  for (int i = 0; i < t->count && depth < 200; i++) { /* deeper: the C stack, not the key, would fail */
    Value bad = unhashable_part(t->items[i], depth + 1);
    if (!IS_UNDEF(bad)) return bad;
  }
  return UNDEF_VAL;
}

bool vm_is_valid_map_key(Value key) {
  if (IS_STRING(key) || IS_SMALLINT(key)) return true; /* the common keys first */
  return IS_UNDEF(unhashable_part(key, 0));
}

Value vm_map_key_error(AgVM *vm, Value key) {
  Value bad = unhashable_part(key, 0);
  return vm_raise(vm, VM_ERR_TYPE, "map keys must be strings, numbers, booleans, nil, instances or tuples of them, not %s%s",
                        IS_TUPLE(key) ? "a tuple holding a " : "", vm_type_name(IS_UNDEF(bad) ? key : bad));
}

static Value sequence_index(AgVM *vm, const char *what, Value index, int64_t length, int64_t *out) {
  if (!IS_INT(index) && !IS_BOOL(index)) {
    return vm_raise(vm, VM_ERR_TYPE, "%s indices must be integers or slices, not %s", what, vm_type_name(index));
  }
  int64_t i = IS_BOOL(index) ? AS_BOOL(index) : AS_INT(index);
  if (!vm_normalize_index(i, length, out)) {
    return vm_raise(vm, VM_ERR_INDEX, "%s index %lld out of range for length %lld", what, (long long)i, (long long)length);
  }
  return NIL_VAL;
}

/* Python's slice.indices(): clamps start/stop for the given step. */
static bool slice_bounds(AgVM *vm, ObjSlice *s, int64_t length, int64_t *start, int64_t *stop, int64_t *step) {
  Value parts[3] = {s->start, s->stop, s->step};
  for (int i = 0; i < 3; i++) {
    if (!IS_NIL(parts[i]) && !IS_INT(parts[i])) {
      vm_raise(vm, VM_ERR_TYPE, "slice indices must be integers or nil, not %s", vm_type_name(parts[i]));
      return false;
    }
  }
  *step = IS_NIL(s->step) ? 1 : AS_INT(s->step);
  if (*step == 0) {
    vm_raise(vm, VM_ERR_VALUE, "slice step cannot be zero");
    return false;
  }
  int64_t lo = *step < 0 ? -1 : 0, hi = *step < 0 ? length - 1 : length;
  int64_t v[2];
  Value given[2] = {s->start, s->stop};
  int64_t defaults[2] = {*step < 0 ? hi : lo, *step < 0 ? lo : hi};
  for (int i = 0; i < 2; i++) {
    if (IS_NIL(given[i])) {
      v[i] = defaults[i];
      continue;
    }
    int64_t d = AS_INT(given[i]);
    if (d < 0) d = d < -length ? lo : d + length;
    if (d < lo) d = lo;
    if (d > hi) d = hi;
    v[i] = d;
  }
  *start = v[0];
  *stop = v[1];
  return true;
}

Value vm_slice_list(AgVM *vm, ObjList *list, ObjSlice *slice) {
  int64_t start, stop, step;
  if (!slice_bounds(vm, slice, list->count, &start, &stop, &step)) return VM_EXCEPTION;
  ObjList *out = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(out));
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) obj_list_append(vm, out, list->items[i]);
  vm_pop_root(vm);
  return OBJ_VAL(out);
}

Value vm_slice_string(AgVM *vm, ObjString *s, ObjSlice *slice) {
  int64_t start, stop, step;
  if (!slice_bounds(vm, slice, s->length, &start, &stop, &step)) return VM_EXCEPTION;
  if (step == 1) return OBJ_VAL(obj_copy_string(vm, s->chars + start, stop > start ? (int)(stop - start) : 0));
  VmBuf b;
  vm_buf_init(&b);
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) vm_buf_addc(&b, s->chars[i]);
  return OBJ_VAL(vm_buf_to_string(vm, &b));
}

static Value index_one(AgVM *vm, Value obj, Value index) {
  int64_t i;
  switch (OBJ_TYPE(obj)) {
  case OBJ_LIST:
    if (IS_SLICE(index)) return vm_slice_list(vm, AS_LIST(obj), AS_SLICE(index));
    if (IS_EXCEPTION(sequence_index(vm, "list", index, AS_LIST(obj)->count, &i))) return VM_EXCEPTION;
    return AS_LIST(obj)->items[i];
  case OBJ_TUPLE:
    if (IS_SLICE(index)) return vm_list_to_tuple(vm, vm_slice_list(vm, AS_TUPLE(obj), AS_SLICE(index)));
    if (IS_EXCEPTION(sequence_index(vm, "tuple", index, AS_TUPLE(obj)->count, &i))) return VM_EXCEPTION;
    return AS_TUPLE(obj)->items[i];
  case OBJ_STRING:
    if (IS_SLICE(index)) return vm_slice_string(vm, AS_STRING(obj), AS_SLICE(index));
    if (IS_EXCEPTION(sequence_index(vm, "string", index, AS_STRING(obj)->length, &i))) return VM_EXCEPTION;
    return OBJ_VAL(obj_copy_string(vm, AS_CSTRING(obj) + i, 1));
  case OBJ_MAP: {
    Value v;
    int found = vm_map_find(vm, AS_MAP(obj), index, &v);
    if (found != 0) return found < 0 ? VM_EXCEPTION : v;
    char key[128];
    vm_short_repr(vm, index, key, sizeof key);
    return vm_raise(vm, VM_ERR_KEY, "key %s not found in map", key);
  }
  case OBJ_RANGE: {
    ObjRange *r = AS_RANGE(obj);
    if (IS_EXCEPTION(sequence_index(vm, "range", index, obj_range_length(r), &i))) return VM_EXCEPTION;
    return INT_VAL(vm, obj_range_item(r, i));
  }
  default: return vm_raise(vm, VM_ERR_TYPE, "cannot index %s", vm_type_name(obj));
  }
}

Value vm_get_index(AgVM *vm, Value obj, Value index) { return vm_get_index_n(vm, obj, 1, &index); }

/* obj.getitem(k) / obj.setitem(k, v); several items come as one list. */
static Value instance_index(AgVM *vm, Value obj, int n, const Value *index, const Value *v) {
  VmMethod m = v ? VM_M_SETITEM : VM_M_GETITEM;
  if (!vm_has_method(vm, obj, m)) {
    return v ? vm_raise(vm, VM_ERR_TYPE, "%s instance does not support item assignment (no setitem method)",
                              vm_type_name(obj))
             : vm_raise(vm, VM_ERR_TYPE, "%s instance is not subscriptable (no getitem method)", vm_type_name(obj));
  }
  Value args[2] = {index[0], v ? *v : NIL_VAL};
  if (n != 1) {
    ObjList *l = obj_new_list(vm);
    args[0] = OBJ_VAL(l);
    vm_push_root(vm, args[0]);
    for (int i = 0; i < n; i++) obj_list_append(vm, l, index[i]);
    vm_pop_root(vm);
  }
  vm_push_root(vm, args[0]);
  Value r = vm_call_method_named(vm, obj, m, v ? 2 : 1, args);
  vm_pop_root(vm);
  return IS_EXCEPTION(r) || v == NULL ? r : *v;
}

/* t[(0, 1)] is t[0, 1], as in Python, where the comma makes the tuple. */
static void spread_tuple_index(int *n, const Value **index) {
  if (*n != 1 || !IS_TUPLE((*index)[0]) || AS_TUPLE((*index)[0])->count == 0) return;
  *n = AS_TUPLE((*index)[0])->count;
  *index = AS_TUPLE((*index)[0])->items;
}

/* t[i] with i batched (inside func.vmap): batched_dispatch("getitem", t, i),
 * several items as one list, as an instance's getitem gets them. */
static Value batched_get_index(AgVM *vm, Value obj, int n, const Value *index) {
  ObjList *items = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(items));
  for (int i = 0; i < n; i++) obj_list_append(vm, items, index[i]);
  Value args[3] = {OBJ_VAL(vm->core.method_names[VM_M_GETITEM]), obj, n == 1 ? index[0] : OBJ_VAL(items)};
  Value r = vm_call(vm, vm->vmap.dispatch, 3, args);
  vm_pop_root(vm);
  return r;
}

Value vm_get_index_n(AgVM *vm, Value obj, int n, const Value *index) {
  if (IS_INSTANCE(obj)) return instance_index(vm, obj, n, index, NULL);
  if (vm->vmap.depth > 0 && IS_TENSOR(obj)) {
    int items = n;
    const Value *spread = index;
    spread_tuple_index(&items, &spread);
    if (vm_has_batched_argument(vm, items, spread)) return batched_get_index(vm, obj, items, spread);
  }
  if (is_tensorish(obj)) {
    if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
    spread_tuple_index(&n, &index);
    return vm->plugins.tensor->get_index(vm, obj, n, index);
  }
  if (!IS_OBJ(obj)) return vm_raise(vm, VM_ERR_TYPE, "cannot index %s", vm_type_name(obj));
  if (n != 1) return vm_raise(vm, VM_ERR_TYPE, "%s takes one index, not %d", vm_type_name(obj), n);
  return index_one(vm, obj, index[0]);
}

Value vm_set_index_n(AgVM *vm, Value obj, int n, const Value *index, Value v) {
  if (IS_INSTANCE(obj)) return instance_index(vm, obj, n, index, &v);
  if (is_tensorish(obj)) {
    if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
    spread_tuple_index(&n, &index);
    return vm->plugins.tensor->set_index(vm, obj, n, index, v);
  }
  if (n != 1 && (IS_LIST(obj) || IS_MAP(obj))) {
    return vm_raise(vm, VM_ERR_TYPE, "%s takes one index, not %d", vm_type_name(obj), n);
  }
  if (IS_LIST(obj)) {
    int64_t i;
    if (IS_EXCEPTION(sequence_index(vm, "list", index[0], AS_LIST(obj)->count, &i))) return VM_EXCEPTION;
    AS_LIST(obj)->items[i] = v;
    return v;
  }
  if (IS_MAP(obj)) {
    return vm_map_put(vm, AS_MAP(obj), index[0], v) ? v : VM_EXCEPTION;
  }
  if (IS_STRING(obj)) return vm_raise(vm, VM_ERR_TYPE, "strings are immutable");
  if (IS_TUPLE(obj)) return vm_raise(vm, VM_ERR_TYPE, "'tuple' object does not support item assignment");
  return vm_raise(vm, VM_ERR_TYPE, "cannot assign to an index of %s", vm_type_name(obj));
}

/* ---- iteration ---- */

static int utf8_length(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xe) return 3;
  if ((c >> 3) == 0x1e) return 4;
  return 1;
}

int64_t vm_length(AgVM *vm, Value v) {
  if (IS_OBJ(v)) {
    switch (OBJ_TYPE(v)) {
    case OBJ_STRING: return AS_STRING(v)->length;
    case OBJ_LIST:
    case OBJ_TUPLE: return AS_LIST(v)->count;
    case OBJ_MAP:
    case OBJ_SET: return AS_MAP(v)->table.count;
    case OBJ_INSTANCE: return vm_instance_length(vm, v);
    case OBJ_RANGE: return obj_range_length(AS_RANGE(v));
    case OBJ_TENSOR:
      if (vm->plugins.tensor == NULL) {
        vm_tensors_unavailable(vm);
        return -1;
      }
      return vm->plugins.tensor->length(vm, v);
    default: break;
    }
  }
  vm_raise(vm, VM_ERR_TYPE, "object of type %s has no len()", vm_type_name(v));
  return -1;
}

static Value map_keys(AgVM *vm, ObjMap *m) {
  ObjList *keys = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(keys));
  for (int i = 0; i < m->table.used; i++) {
    if (!IS_UNDEF(m->table.entries[i].key)) obj_list_append(vm, keys, m->table.entries[i].key);
  }
  vm_pop_root(vm);
  return OBJ_VAL(keys);
}

static Value instance_iter(AgVM *vm, Value obj);

Value vm_iter_prepare(AgVM *vm, Value iterable) {
  if (IS_OBJ(iterable)) {
    switch (OBJ_TYPE(iterable)) {
    case OBJ_LIST:
    case OBJ_TUPLE:
    case OBJ_STRING:
    case OBJ_RANGE: return iterable;
    case OBJ_TENSOR:
      if (vm->plugins.tensor == NULL) return vm_tensors_unavailable(vm);
      return vm->plugins.tensor->iter ? vm->plugins.tensor->iter(vm, iterable) : iterable;
    case OBJ_MAP:
    case OBJ_SET: return map_keys(vm, AS_MAP(iterable));
    case OBJ_INSTANCE: return instance_iter(vm, iterable);
    case OBJ_GENERATOR: return iterable;
    default: break;
    }
  }
  return vm_raise(vm, VM_ERR_TYPE, "object of type %s is not iterable", vm_type_name(iterable));
}

/* The iteration protocol (SPEC §4): obj.iter() gives the iterator, whose
 * next() returns items until it throws StopIteration. */
static Value instance_iter(AgVM *vm, Value obj) {
  if (!vm_has_method(vm, obj, VM_M_ITER)) {
    return vm_raise(vm, VM_ERR_TYPE, "object of type %s is not iterable (no iter method)", vm_type_name(obj));
  }
  Value it = vm_call_method_named(vm, obj, VM_M_ITER, 0, NULL);
  if (IS_EXCEPTION(it) || !IS_INSTANCE(it)) return IS_EXCEPTION(it) ? it : vm_iter_prepare(vm, it);
  if (!vm_has_method(vm, it, VM_M_NEXT)) {
    return vm_raise(vm, VM_ERR_TYPE, "%s.iter() returned %s, which has no next method", vm_type_name(obj),
                          vm_type_name(it));
  }
  return it;
}

static bool is_subclass(const ObjClass *k, const ObjClass *parent) {
  for (; k != NULL; k = k->parent) {
    if (k == parent) return true;
  }
  return false;
}

static bool is_instance_of(Value v, const ObjClass *klass) {
  return IS_INSTANCE(v) && is_subclass(AS_INSTANCE(v)->klass, klass);
}

int vm_catches(AgVM *vm, Value thrown, Value classes) {
  if (IS_CLASS(classes)) return is_instance_of(thrown, AS_CLASS(classes));
  ObjList *l = IS_LIST(classes) ? AS_LIST(classes) : NULL;
  for (int i = 0; l && i < l->count; i++) {
    if (!IS_CLASS(l->items[i])) {
      classes = l->items[i];
      l = NULL;
    } else if (is_instance_of(thrown, AS_CLASS(l->items[i]))) {
      return 1;
    }
  }
  if (l) return 0;
  vm_raise(vm, VM_ERR_TYPE, "catch expects a class or a list of classes, not %s", vm_type_name(classes));
  return -1;
}

/* it.next(): 1 = item, 0 = it threw StopIteration (taken), -1 = another error. */
int vm_iterator_next(AgVM *vm, Value it, Value *item) {
  if (IS_GENERATOR(it)) return vm_generator_next(vm, AS_GENERATOR(it), item);
  *item = vm_call_method_named(vm, it, VM_M_NEXT, 0, NULL);
  if (!IS_EXCEPTION(*item)) return 1;
  Value exc = vm->exc.value;
  if (!IS_INSTANCE(exc) || !is_subclass(AS_INSTANCE(exc)->klass, vm->core.stop_iteration_class)) return -1;
  vm_take_exception(vm);
  return 0;
}

int vm_iter_next(AgVM *vm, Value seq, double *pos, Value *item) {
  int64_t i = (int64_t)*pos;
  switch (OBJ_TYPE(seq)) {
  case OBJ_LIST:
  case OBJ_TUPLE:
    if (i >= AS_LIST(seq)->count) return 0;
    *item = AS_LIST(seq)->items[i];
    break;
  case OBJ_STRING: {
    ObjString *s = AS_STRING(seq);
    if (i >= s->length) return 0;
    int n = utf8_length((unsigned char)s->chars[i]);
    if (i + n > s->length) n = (int)(s->length - i);
    *item = OBJ_VAL(obj_copy_string(vm, s->chars + i, n));
    *pos += n;
    return 1;
  }
  case OBJ_RANGE: {
    ObjRange *r = AS_RANGE(seq);
    if (i >= obj_range_length(r)) return 0;
    *item = INT_VAL(vm, obj_range_item(r, i));
    break;
  }
  case OBJ_INSTANCE: return vm_iterator_next(vm, seq, item);
  case OBJ_GENERATOR: return vm_generator_next(vm, AS_GENERATOR(seq), item);
  case OBJ_TENSOR: {
    int64_t n = vm->plugins.tensor->length(vm, seq);
    if (n < 0) return -1;
    if (i >= n) return 0;
    Value index = INT_VAL(vm, i);
    *item = vm->plugins.tensor->get_index(vm, seq, 1, &index);
    if (IS_EXCEPTION(*item)) return -1;
    break;
  }
  default: return 0;
  }
  *pos += 1;
  return 1;
}

int vm_iterate(AgVM *vm, Value iterable, VmVisit visit, void *ctx) {
  Value seq = vm_iter_prepare(vm, iterable);
  if (IS_EXCEPTION(seq)) return -1;
  vm_push_root(vm, seq);
  double pos = 0;
  Value item;
  int status, verdict = 0;
  while (verdict == 0 && (status = vm_iter_next(vm, seq, &pos, &item)) == 1) {
    vm_push_root(vm, item);
    verdict = visit(vm, item, ctx);
    vm_pop_root(vm);
  }
  vm_pop_root(vm);
  if (verdict != 0) return verdict;
  return status < 0 ? -1 : 0;
}

bool vm_extend_list(AgVM *vm, ObjList *list, Value iterable) {
  if (is_list_or_tuple(iterable)) {
    ObjList *src = AS_LIST(iterable);
    int n = src->count; /* xs.extend(xs) doubles xs once */
    for (int i = 0; i < n; i++) obj_list_append(vm, list, src->items[i]);
    return true;
  }
  Value seq = vm_iter_prepare(vm, iterable);
  if (IS_EXCEPTION(seq)) return false;
  vm_push_root(vm, seq);
  double pos = 0;
  Value item;
  int status;
  while ((status = vm_iter_next(vm, seq, &pos, &item)) == 1) {
    obj_list_append(vm, list, item);
    /* list(range(10 ** 9)) runs long before memory runs out: poll Ctrl-C */
    if ((list->count & 0xFFFF) == 0 && tensor_interrupt_requested) {
      vm_pop_root(vm);
      vm_throw_interrupted(vm);
      return false;
    }
  }
  vm_pop_root(vm);
  return status == 0;
}

Value vm_list_to_tuple(AgVM *vm, Value list) {
  if (IS_EXCEPTION(list)) return list;
  vm_push_root(vm, list);
  ObjList *t = obj_new_tuple(vm, AS_LIST(list)->items, AS_LIST(list)->count);
  vm_pop_root(vm);
  return OBJ_VAL(t);
}
