/* values.c — what values look like and how they compare: type names,
 * truthiness, equality, ordering, str()/repr() and number formatting
 * (SPEC §3, §11). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/buffer.h"
#include "vm/internal.h"
#include "vm/opcodes.h"
#include "vm/vm.h"

/* Containers nested deeper than this print as "[...]" / "{...}" (cycles). */
#define PRINT_DEPTH_MAX 64
#define EQUAL_DEPTH_MAX 200

const char *vm_type_name(Value v) {
  if (IS_FLOAT(v)) return "float";
  if (IS_INT(v)) return "int";
  if (IS_NIL(v)) return "nil";
  if (IS_BOOL(v)) return "bool";
  if (!IS_OBJ(v)) return "undefined";
  switch (OBJ_TYPE(v)) {
  case OBJ_STRING: return "string";
  case OBJ_LIST: return "list";
  case OBJ_TUPLE: return "tuple";
  case OBJ_MAP: return "map";
  case OBJ_SET: return "set";
  case OBJ_RANGE: return "range";
  case OBJ_SLICE: return "slice";
  case OBJ_FUNCTION:
  case OBJ_CLOSURE:
  case OBJ_NATIVE:
  case OBJ_BOUND_METHOD: return "function";
  case OBJ_UPVALUE: return "upvalue";
  case OBJ_CLASS: return "class";
  case OBJ_INSTANCE: return AS_INSTANCE(v)->klass->name->chars;
  case OBJ_MODULE: return "module";
  case OBJ_TENSOR: return "tensor";
  case OBJ_NODE: return "node";
  case OBJ_DTYPE: return "dtype";
  case OBJ_INT: return "int";
  case OBJ_GENERATOR: return "generator";
  case OBJ_TYPE_COUNT: break;
  }
  return "object";
}

int vm_truthy(AgVM *vm, Value v) {
  if (IS_BOOL(v)) return AS_BOOL(v);
  if (IS_SMALLINT(v)) return AS_SMALLINT(v) != 0;
  if (IS_FLOAT(v)) return AS_FLOAT(v) != 0;
  if (IS_NIL(v)) return 0;
  if (!IS_OBJ(v)) return 0;
  switch (OBJ_TYPE(v)) {
  case OBJ_STRING: return AS_STRING(v)->length != 0;
  case OBJ_LIST:
  case OBJ_TUPLE: return AS_LIST(v)->count != 0;
  case OBJ_MAP:
  case OBJ_SET: return AS_MAP(v)->table.count != 0;
  case OBJ_INSTANCE: return vm_instance_truthy(vm, v);
  case OBJ_RANGE: return obj_range_length(AS_RANGE(v)) != 0;
  case OBJ_TENSOR:
    if (vm->plugins.tensor == NULL) {
      vm_throw_error(vm, "tensor operations are not available");
      return -1;
    }
    return vm->plugins.tensor->truthy(vm, v);
  default: return 1;
  }
}

static bool equal_depth(Value a, Value b, int depth);

static bool lists_equal(ObjList *a, ObjList *b, int depth) {
  if (a->count != b->count) return false;
  for (int i = 0; i < a->count; i++) {
    if (!equal_depth(a->items[i], b->items[i], depth + 1)) return false;
  }
  return true;
}

/* Map equality ignores insertion order. */
static bool maps_equal(ObjMap *a, ObjMap *b, int depth) {
  if (a->table.count != b->table.count) return false;
  for (int i = 0; i < a->table.used; i++) {
    TableEntry *e = &a->table.entries[i];
    if (IS_UNDEF(e->key)) continue;
    TableEntry *other = table_find(&b->table, e->key);
    if (other == NULL || !equal_depth(e->value, other->value, depth + 1)) return false;
  }
  return true;
}

/* Booleans are the numbers 1 and 0 to ==, as Python's (true == 1, 1.0 == true). */
static bool is_numeric(Value v) { return IS_NUMBER(v) || IS_BOOL(v); }

/* A class equals the string of the name it prints as (type(x) == "string",
 * type(a) == "Animal", as Ag's type() gave names); float's and bool's types
 * equal those dtypes (type(1.5) == float). */
static bool class_equals(const ObjClass *k, Value other) {
  const ObjString *shown = k->shown_name != NULL ? k->shown_name : k->name;
  if (IS_STRING(other))
    return AS_STRING(other)->length == shown->length && memcmp(AS_CSTRING(other), shown->chars, (size_t)shown->length) == 0;
  return IS_DTYPE(other) && (int)AS_DTYPE(other)->dtype == k->dtype_alias;
}

static bool equal_depth(Value a, Value b, int depth) {
  if (is_numeric(a) && is_numeric(b)) return vm_numbers_equal(a, b);
  if (a == b) return true;
  if (IS_CLASS(a) || IS_CLASS(b)) return IS_CLASS(a) ? class_equals(AS_CLASS(a), b) : class_equals(AS_CLASS(b), a);
  if (!IS_OBJ(a) || !IS_OBJ(b) || OBJ_TYPE(a) != OBJ_TYPE(b)) return false;
  if (depth > EQUAL_DEPTH_MAX) return false;
  switch (OBJ_TYPE(a)) {
  case OBJ_LIST:
  case OBJ_TUPLE: return lists_equal(AS_LIST(a), AS_LIST(b), depth);
  case OBJ_MAP:
  case OBJ_SET: return maps_equal(AS_MAP(a), AS_MAP(b), depth);
  case OBJ_RANGE: {
    ObjRange *x = AS_RANGE(a), *y = AS_RANGE(b);
    return x->start == y->start && x->stop == y->stop && x->step == y->step;
  }
  case OBJ_DTYPE: return AS_DTYPE(a)->dtype == AS_DTYPE(b)->dtype;
  case OBJ_NODE: return AS_NODE_OBJ(a)->node == AS_NODE_OBJ(b)->node; /* identity of the graph node */
  default: return false;
  }
}

bool vm_values_equal(Value a, Value b) { return equal_depth(a, b, 0); }

/* `a is b`. Objects are compared by identity; an immutable scalar has no
 * identity to observe, so it is its value, predictably (CPython's answer
 * for numbers and strings depends on caching and interning): ints and
 * floats of the same type and bits (1 is 1, 1 is not 1.0, 0.0 is not -0.0,
 * nan is nan), strings of the same text, a dtype (x.dtype is float32). A
 * tensor is the tensor its wrapper holds (t.grad is t.grad), a grad_fn its
 * graph node; float and bool name both a dtype and the type of a value, so
 * type(1.5) is float, as ==. Never calls a method, never throws. */
bool vm_values_identical(Value a, Value b) {
  if (a == b) return true;
  if (!IS_OBJ(a) || !IS_OBJ(b)) return false;
  if (IS_CLASS(a) || IS_CLASS(b)) return (IS_DTYPE(a) || IS_DTYPE(b)) && equal_depth(a, b, 0);
  if (OBJ_TYPE(a) != OBJ_TYPE(b)) return false;
  switch (OBJ_TYPE(a)) {
  case OBJ_INT: return AS_INT(a) == AS_INT(b);
  case OBJ_DTYPE: return AS_DTYPE(a)->dtype == AS_DTYPE(b)->dtype;
  case OBJ_TENSOR: return AS_TENSOR_OBJ(a)->tensor == AS_TENSOR_OBJ(b)->tensor;
  case OBJ_NODE: return AS_NODE_OBJ(a)->node == AS_NODE_OBJ(b)->node;
  default: return false; /* strings are interned: the same text is the same object */
  }
}

static int less_depth(AgVM *vm, Value a, Value b, int depth);

/* Lexicographic: the first pair that differs decides. */
static int compare_lists(AgVM *vm, ObjList *a, ObjList *b, int depth) {
  if (depth > EQUAL_DEPTH_MAX) {
    vm_raise(vm, VM_ERR_RECURSION, "lists nested too deeply to compare");
    return -1;
  }
  for (int i = 0; i < a->count && i < b->count; i++) {
    int lt = less_depth(vm, a->items[i], b->items[i], depth + 1);
    if (lt != 0) return lt;
    lt = less_depth(vm, b->items[i], a->items[i], depth + 1);
    if (lt != 0) return lt < 0 ? -1 : 0;
  }
  return a->count < b->count;
}

int vm_less_than(AgVM *vm, Value a, Value b) { return less_depth(vm, a, b, 0); }

static int less_depth(AgVM *vm, Value a, Value b, int depth) {
  if ((IS_NUMBER(a) || IS_BOOL(a)) && (IS_NUMBER(b) || IS_BOOL(b))) return vm_numbers_less(a, b);
  if (IS_STRING(a) && IS_STRING(b)) {
    ObjString *x = AS_STRING(a), *y = AS_STRING(b);
    int n = x->length < y->length ? x->length : y->length;
    int c = memcmp(x->chars, y->chars, (size_t)n);
    return c < 0 || (c == 0 && x->length < y->length);
  }
  if ((IS_LIST(a) && IS_LIST(b)) || (IS_TUPLE(a) && IS_TUPLE(b)))
    return compare_lists(vm, AS_LIST(a), AS_LIST(b), depth);
  if (IS_INSTANCE(a) || IS_INSTANCE(b)) { /* sorted(), min() ... of instances: their lt */
    Value r = vm_binary_method(vm, OP_LESS, a, b);
    if (IS_EXCEPTION(r)) return -1;
    if (!IS_UNDEF(r)) return vm_truthy_rooted(vm, r);
  }
  vm_raise(vm, VM_ERR_TYPE, "'<' is not supported between %s and %s", vm_type_name(a), vm_type_name(b));
  return -1;
}

/* ---- str / repr ---- */

/* The containers being printed, outermost first: one that contains itself
 * prints as [...] / {...}, as in Python. */
typedef struct {
  Obj *open[PRINT_DEPTH_MAX];
  int depth;
} PrintPath;

static bool append_value(AgVM *vm, VmBuf *b, Value v, bool quote, PrintPath *path);

/* Enters container o; false when it is already open (a cycle) or too deep. */
static bool path_enter(PrintPath *path, Obj *o) {
  if (path->depth >= PRINT_DEPTH_MAX) return false;
  for (int i = 0; i < path->depth; i++) {
    if (path->open[i] == o) return false;
  }
  path->open[path->depth++] = o;
  return true;
}

static void append_quoted(VmBuf *b, const ObjString *s) {
  vm_buf_addc(b, '"');
  for (int i = 0; i < s->length; i++) {
    unsigned char c = (unsigned char)s->chars[i];
    switch (c) {
    case '"': vm_buf_adds(b, "\\\""); break;
    case '\\': vm_buf_adds(b, "\\\\"); break;
    case '\n': vm_buf_adds(b, "\\n"); break;
    case '\t': vm_buf_adds(b, "\\t"); break;
    case '\r': vm_buf_adds(b, "\\r"); break;
    case '\0': vm_buf_adds(b, "\\0"); break;
    default:
      if (c < 0x20 || c == 0x7f) vm_buf_printf(b, "\\x%02x", c);
      else vm_buf_addc(b, (char)c);
    }
  }
  vm_buf_addc(b, '"');
}

/* [1, 2] for a list; (1, 2), (1,) and () for a tuple, as Python's. */
static bool append_list(AgVM *vm, VmBuf *b, ObjList *l, PrintPath *path) {
  bool tuple = l->obj.type == OBJ_TUPLE;
  if (!path_enter(path, &l->obj)) {
    vm_buf_adds(b, tuple ? "(...)" : "[...]");
    return true;
  }
  vm_buf_addc(b, tuple ? '(' : '[');
  for (int i = 0; i < l->count; i++) {
    if (i > 0) vm_buf_adds(b, ", ");
    if (!append_value(vm, b, l->items[i], true, path)) return false;
  }
  if (tuple && l->count == 1) vm_buf_addc(b, ',');
  vm_buf_addc(b, tuple ? ')' : ']');
  path->depth--;
  return true;
}

static bool append_map(AgVM *vm, VmBuf *b, ObjMap *m, PrintPath *path) {
  if (!path_enter(path, &m->obj)) {
    vm_buf_adds(b, "{...}");
    return true;
  }
  vm_buf_addc(b, '{');
  bool first = true;
  for (int i = 0; i < m->table.used; i++) {
    TableEntry *e = &m->table.entries[i];
    if (IS_UNDEF(e->key)) continue;
    if (!first) vm_buf_adds(b, ", ");
    first = false;
    if (!append_value(vm, b, e->key, true, path)) return false;
    vm_buf_adds(b, ": ");
    if (!append_value(vm, b, e->value, true, path)) return false;
  }
  vm_buf_addc(b, '}');
  path->depth--;
  return true;
}

/* {1, 2} in insertion order; the empty set is set(), as Python's. */
static bool append_set(AgVM *vm, VmBuf *b, ObjMap *s, PrintPath *path) {
  if (s->table.count == 0) {
    vm_buf_adds(b, "set()");
    return true;
  }
  if (!path_enter(path, &s->obj)) {
    vm_buf_adds(b, "{...}");
    return true;
  }
  vm_buf_addc(b, '{');
  bool first = true;
  for (int i = 0; i < s->table.used; i++) {
    Value k = s->table.entries[i].key;
    if (IS_UNDEF(k)) continue;
    if (!first) vm_buf_adds(b, ", ");
    first = false;
    if (!append_value(vm, b, k, true, path)) return false;
  }
  vm_buf_addc(b, '}');
  path->depth--;
  return true;
}

static void append_number(VmBuf *b, Value v) {
  char tmp[64];
  int n = vm_format_num(v, tmp, sizeof tmp);
  vm_buf_add(b, tmp, (size_t)n);
}

/* An instance prints as Python's: str() through its class's `str` method,
 * else `repr`; repr() and a container's items through `repr` only; else
 * `<Point instance>`. */
static bool append_instance(AgVM *vm, VmBuf *b, Value v, bool quote) {
  ObjInstance *inst = AS_INSTANCE(v);
  Value method;
  ObjString *name = !quote && table_get(&inst->klass->methods, OBJ_VAL(vm->core.str_string), &method) ? vm->core.str_string
                    : table_get(&inst->klass->methods, OBJ_VAL(vm->core.repr_string), &method)    ? vm->core.repr_string
                                                                                              : NULL;
  if (name == NULL) {
    vm_buf_printf(b, "<%s instance>", inst->klass->name->chars);
    return true;
  }
  Value s = vm_invoke(vm, v, name, 0, NULL, NULL);
  if (IS_EXCEPTION(s)) return false;
  if (!IS_STRING(s)) {
    vm_raise(vm, VM_ERR_TYPE, "%s.%s() must return a string, not %s", inst->klass->name->chars, name->chars,
                   vm_type_name(s));
    return false;
  }
  vm_buf_add(b, AS_CSTRING(s), (size_t)AS_STRING(s)->length);
  return true;
}

static bool append_tensor(AgVM *vm, VmBuf *b, Value v) {
  if (vm->plugins.tensor == NULL) {
    vm_buf_adds(b, IS_TENSOR(v) ? "<tensor>" : "<node>");
    return true;
  }
  Value s = vm->plugins.tensor->repr(vm, v);
  if (IS_EXCEPTION(s)) return false;
  if (IS_STRING(s)) vm_buf_add(b, AS_CSTRING(s), (size_t)AS_STRING(s)->length);
  return true;
}

static const char *function_name(ObjFunction *f) { return f->name ? f->name->chars : "<script>"; }

static void append_range(VmBuf *b, ObjRange *r) {
  vm_buf_printf(b, "range(%lld, %lld", (long long)r->start, (long long)r->stop);
  if (r->step != 1) vm_buf_printf(b, ", %lld", (long long)r->step);
  vm_buf_addc(b, ')');
}

static bool append_object(AgVM *vm, VmBuf *b, Value v, bool quote, PrintPath *path) {
  switch (OBJ_TYPE(v)) {
  case OBJ_STRING:
    if (quote) append_quoted(b, AS_STRING(v));
    else vm_buf_add(b, AS_CSTRING(v), (size_t)AS_STRING(v)->length);
    return true;
  case OBJ_LIST:
  case OBJ_TUPLE: return append_list(vm, b, AS_LIST(v), path);
  case OBJ_MAP: return append_map(vm, b, AS_MAP(v), path);
  case OBJ_SET: return append_set(vm, b, AS_SET(v), path);
  case OBJ_RANGE: append_range(b, AS_RANGE(v)); return true;
  case OBJ_SLICE: {
    ObjSlice *s = AS_SLICE(v);
    vm_buf_adds(b, "slice(");
    if (!append_value(vm, b, s->start, true, path)) return false;
    vm_buf_adds(b, ", ");
    if (!append_value(vm, b, s->stop, true, path)) return false;
    vm_buf_adds(b, ", ");
    if (!append_value(vm, b, s->step, true, path)) return false;
    vm_buf_addc(b, ')');
    return true;
  }
  case OBJ_FUNCTION: vm_buf_printf(b, "<fn %s>", function_name(AS_FUNCTION(v))); return true;
  case OBJ_CLOSURE: vm_buf_printf(b, "<fn %s>", function_name(AS_CLOSURE(v)->function)); return true;
  case OBJ_NATIVE: vm_buf_printf(b, "<fn %s>", AS_NATIVE(v)->name->chars); return true;
  case OBJ_BOUND_METHOD: {
    Value m = AS_BOUND_METHOD(v)->method;
    const char *name = IS_CLOSURE(m) ? function_name(AS_CLOSURE(m)->function) : AS_NATIVE(m)->name->chars;
    vm_buf_printf(b, "<fn %s>", name);
    return true;
  }
  case OBJ_UPVALUE: vm_buf_adds(b, "<upvalue>"); return true;
  case OBJ_CLASS: {
    const ObjClass *k = AS_CLASS(v);
    vm_buf_printf(b, "%s", (k->shown_name != NULL ? k->shown_name : k->name)->chars);
    return true;
  }
  case OBJ_INSTANCE: return append_instance(vm, b, v, quote);
  case OBJ_MODULE: vm_buf_printf(b, "<module %s>", AS_MODULE(v)->name->chars); return true;
  case OBJ_TENSOR:
  case OBJ_NODE: return append_tensor(vm, b, v);
  case OBJ_DTYPE: vm_buf_adds(b, dtype_name(AS_DTYPE(v)->dtype)); return true;
  case OBJ_INT: append_number(b, v); return true;
  case OBJ_GENERATOR:
    vm_buf_printf(b, "<generator %s>", function_name(AS_GENERATOR(v)->closure->function));
    return true;
  case OBJ_TYPE_COUNT: break;
  }
  return true;
}

static bool append_value(AgVM *vm, VmBuf *b, Value v, bool quote, PrintPath *path) {
  if (IS_NUMBER(v)) append_number(b, v);
  else if (IS_NIL(v)) vm_buf_adds(b, "nil");
  else if (IS_BOOL(v)) vm_buf_adds(b, AS_BOOL(v) ? "true" : "false");
  else if (IS_OBJ(v)) return append_object(vm, b, v, quote, path);
  else vm_buf_adds(b, "<undefined>");
  return true;
}

static Value stringify(AgVM *vm, Value v, bool quote) {
  if (IS_STRING(v) && !quote) return v;
  VmBuf b;
  vm_buf_init(&b);
  PrintPath path;
  path.depth = 0;
  if (!append_value(vm, &b, v, quote, &path)) {
    vm_buf_free(&b);
    return VM_EXCEPTION;
  }
  return OBJ_VAL(vm_buf_to_string(vm, &b));
}

Value vm_to_str(AgVM *vm, Value v) {
  if (IS_NUMBER(v)) {
    char tmp[64];
    int n = vm_format_num(v, tmp, sizeof tmp);
    return OBJ_VAL(obj_copy_string(vm, tmp, n));
  }
  return stringify(vm, v, false);
}

Value vm_to_repr(AgVM *vm, Value v) { return stringify(vm, v, true); }
