/* object.c — constructors of heap objects (see object.h). */
#include "vm/object.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vm/internal.h"
#include "vm/memory.h"
#include "vm/vm.h"

#define ALLOCATE_OBJ(vm, type, kind) ((type *)vm_allocate_object((vm), sizeof(type), (kind)))

uint32_t obj_hash_bytes(const char *chars, int length) {
  uint32_t hash = 2166136261u; /* FNV-1a */
  for (int i = 0; i < length; i++) {
    hash ^= (uint8_t)chars[i];
    hash *= 16777619u;
  }
  return hash;
}

/* A new string object with room for length bytes, registered in the intern
 * set. The caller has checked that no equal string exists. */
static ObjString *allocate_string(AgVM *vm, const char *chars, int length, uint32_t hash) {
  ObjString *s = (ObjString *)vm_allocate_object(vm, sizeof(ObjString) + (size_t)length + 1, OBJ_STRING);
  s->length = length;
  s->hash = hash;
  memcpy(s->chars, chars, (size_t)length);
  s->chars[length] = '\0';
  vm_push_root(vm, OBJ_VAL(s));
  table_set(vm, &vm->gc.strings, OBJ_VAL(s), NIL_VAL);
  vm_pop_root(vm);
  return s;
}

ObjString *obj_copy_string(AgVM *vm, const char *chars, int length) {
  uint32_t hash = obj_hash_bytes(chars, length);
  ObjString *interned = table_find_string(&vm->gc.strings, chars, length, hash);
  if (interned != NULL) return interned;
  return allocate_string(vm, chars, length, hash);
}

ObjString *obj_take_string(AgVM *vm, char *chars, int length) {
  vm_hold_scratch(vm, chars, (size_t)length + 1);
  ObjString *s = obj_copy_string(vm, chars, length);
  vm_hold_scratch(vm, NULL, 0);
  AG_FREE_ARRAY(vm, char, chars, length + 1);
  return s;
}

ObjString *obj_string(AgVM *vm, const char *cstr) {
  return obj_copy_string(vm, cstr, (int)strlen(cstr));
}

ObjString *obj_printf_string(AgVM *vm, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return obj_copy_string(vm, "", 0);
  if ((size_t)n < sizeof small) return obj_copy_string(vm, small, n);
  char *big = AG_ALLOCATE(vm, char, n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return obj_take_string(vm, big, n);
}

ObjFunction *obj_new_function(AgVM *vm) {
  ObjFunction *f = ALLOCATE_OBJ(vm, ObjFunction, OBJ_FUNCTION);
  f->arity = 0;
  f->has_rest = false;
  f->has_kwargs = false;
  f->rest_is_tuple = false;
  f->is_method = false;
  f->kwonly = 0;
  f->binds_extra = false;
  f->plain_call_slow = false;
  f->upvalue_count = 0;
  f->max_slots = 0;
  f->param_names = NULL;
  chunk_init(&f->chunk);
  f->name = NULL;
  f->file = NULL;
  f->line = 0;
  f->param_has_default = NULL;
  f->defaults_scanned = false;
  f->quickened = false;
  return f;
}

ObjClosure *obj_new_closure(AgVM *vm, ObjFunction *function) {
  ObjUpvalue **upvalues = NULL;
  if (function->upvalue_count > 0) {
    upvalues = AG_ALLOCATE(vm, ObjUpvalue *, function->upvalue_count);
    for (int i = 0; i < function->upvalue_count; i++) upvalues[i] = NULL;
  }
  /* The upvalue array is not yet reachable: allocate the closure with GC
   * paused so a collection cannot run in between and leak or free it. */
  vm->gc.paused++;
  ObjClosure *c = ALLOCATE_OBJ(vm, ObjClosure, OBJ_CLOSURE);
  vm->gc.paused--;
  c->function = function;
  c->upvalues = upvalues;
  c->upvalue_count = function->upvalue_count;
  if (!function->quickened && vm->exec.quicken) vm_quicken(function);
  return c;
}

ObjUpvalue *obj_new_upvalue(AgVM *vm, Value *slot) {
  ObjUpvalue *u = ALLOCATE_OBJ(vm, ObjUpvalue, OBJ_UPVALUE);
  u->location = slot;
  u->closed = NIL_VAL;
  u->next = NULL;
  return u;
}

ObjNative *obj_new_native(AgVM *vm, const char *name, AgNativeFn fn, int min_args, int max_args,
                          bool takes_kwargs) {
  ObjString *s = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(s));
  ObjNative *n = ALLOCATE_OBJ(vm, ObjNative, OBJ_NATIVE);
  vm_pop_root(vm);
  n->fn = fn;
  n->name = s;
  n->min_args = min_args;
  n->max_args = max_args;
  n->takes_kwargs = takes_kwargs;
  return n;
}

ObjList *obj_new_list(AgVM *vm) {
  ObjList *l = ALLOCATE_OBJ(vm, ObjList, OBJ_LIST);
  l->count = 0;
  l->capacity = 0;
  l->items = NULL;
  return l;
}

ObjList *obj_new_tuple(AgVM *vm, const Value *items, int count) {
  ObjList *t = ALLOCATE_OBJ(vm, ObjList, OBJ_TUPLE);
  t->count = 0; /* nothing to trace until the items are in */
  t->capacity = 0;
  t->items = NULL;
  if (count == 0) return t;
  vm_push_root(vm, OBJ_VAL(t));
  t->items = AG_ALLOCATE(vm, Value, count);
  vm_pop_root(vm);
  t->capacity = count;
  memcpy(t->items, items, sizeof(Value) * (size_t)count);
  t->count = count;
  return t;
}

Value obj_pair(AgVM *vm, Value a, Value b) {
  Value items[2] = {a, b};
  vm_push_root(vm, a);
  vm_push_root(vm, b);
  ObjList *t = obj_new_tuple(vm, items, 2);
  vm_pop_roots(vm, 2);
  return OBJ_VAL(t);
}

void obj_list_append(AgVM *vm, ObjList *list, Value v) {
  if (list->count == list->capacity) {
    int cap = AG_GROW_CAPACITY(list->capacity);
    vm_push_root(vm, v);
    list->items = AG_GROW_ARRAY(vm, Value, list->items, list->capacity, cap);
    vm_pop_root(vm);
    list->capacity = cap;
  }
  list->items[list->count++] = v;
}

ObjMap *obj_new_map(AgVM *vm) {
  ObjMap *m = ALLOCATE_OBJ(vm, ObjMap, OBJ_MAP);
  table_init(&m->table);
  m->by_hash = NULL;
  return m;
}

ObjMap *obj_new_set(AgVM *vm) {
  ObjMap *s = ALLOCATE_OBJ(vm, ObjMap, OBJ_SET);
  table_init(&s->table);
  s->by_hash = NULL;
  return s;
}

ObjRange *obj_new_range(AgVM *vm, int64_t start, int64_t stop, int64_t step) {
  ObjRange *r = ALLOCATE_OBJ(vm, ObjRange, OBJ_RANGE);
  r->start = start;
  r->stop = stop;
  r->step = step;
  return r;
}

/* Differences are taken in uint64_t, where they cannot overflow. */
int64_t obj_range_length(const ObjRange *r) {
  uint64_t span, step;
  if (r->step > 0) {
    if (r->start >= r->stop) return 0;
    span = (uint64_t)r->stop - (uint64_t)r->start;
    step = (uint64_t)r->step;
  } else {
    if (r->start <= r->stop) return 0;
    span = (uint64_t)r->start - (uint64_t)r->stop;
    step = 0 - (uint64_t)r->step;
  }
  uint64_t n = (span - 1) / step + 1;
  return n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n;
}

/* Item i of r (0 <= i < length: in the int64 range). */
int64_t obj_range_item(const ObjRange *r, int64_t i) {
  return (int64_t)((uint64_t)r->start + (uint64_t)i * (uint64_t)r->step);
}

ObjSlice *obj_new_slice(AgVM *vm, Value start, Value stop, Value step) {
  ObjSlice *s = ALLOCATE_OBJ(vm, ObjSlice, OBJ_SLICE);
  s->start = start;
  s->stop = stop;
  s->step = step;
  return s;
}

ObjClass *obj_new_class(AgVM *vm, ObjString *name) {
  ObjClass *k = ALLOCATE_OBJ(vm, ObjClass, OBJ_CLASS);
  k->name = name;
  k->parent = NULL;
  table_init(&k->methods);
  k->init = NIL_VAL;
  k->has_properties = false;
  k->convert = NIL_VAL;
  k->shown_name = NULL;
  k->dtype_alias = -1;
  return k;
}

ObjInstance *obj_new_instance(AgVM *vm, ObjClass *klass) {
  ObjInstance *i = ALLOCATE_OBJ(vm, ObjInstance, OBJ_INSTANCE);
  i->klass = klass;
  table_init(&i->fields);
  return i;
}

ObjBoundMethod *obj_new_bound_method(AgVM *vm, Value receiver, Value method) {
  ObjBoundMethod *b = ALLOCATE_OBJ(vm, ObjBoundMethod, OBJ_BOUND_METHOD);
  b->receiver = receiver;
  b->method = method;
  return b;
}

ObjModule *obj_new_module(AgVM *vm, ObjString *name, ObjString *path) {
  ObjModule *m = ALLOCATE_OBJ(vm, ObjModule, OBJ_MODULE);
  m->name = name;
  m->path = path;
  table_init(&m->names);
  m->state = MODULE_LOADING;
  m->builtin_members = false;
  return m;
}

ObjTensor *obj_new_tensor(AgVM *vm, Tensor *tensor) {
  /* Count all the memory the wrapper keeps alive, structs and graph node
   * included, not just the elements: a loop on scalars drops a 1 KB tensor
   * and node per operation, and counting 4 bytes for each let tens of MB of
   * garbage pile up (cold in cache) between collections. A view counts its
   * own elements, not its base's whole storage: iterating a big tensor
   * (for v in x) would otherwise collect every few items. Counted before
   * the allocation, so that this very allocation may trigger the collection
   * that frees earlier big temporaries. */
  size_t bytes = ag_tensor_footprint(tensor);
  ObjTensor *t = (ObjTensor *)vm_allocate_tensor_object(vm, bytes);
  t->tensor = tensor;
  t->external_bytes = bytes;
  t->is_parameter = false;
  return t;
}

ObjNode *obj_new_node(AgVM *vm, GradNode *node) {
  ObjNode *n = ALLOCATE_OBJ(vm, ObjNode, OBJ_NODE);
  n->node = node;
  return n;
}

ObjDType *obj_new_dtype(AgVM *vm, DType dtype) {
  ObjDType *d = ALLOCATE_OBJ(vm, ObjDType, OBJ_DTYPE);
  d->dtype = dtype;
  return d;
}

ObjGenerator *obj_new_generator(AgVM *vm, ObjClosure *closure) {
  ObjGenerator *g = ALLOCATE_OBJ(vm, ObjGenerator, OBJ_GENERATOR);
  g->closure = closure;
  g->ip = NULL;
  g->values = NULL;
  g->value_count = g->value_capacity = 0;
  g->handlers = NULL;
  g->handler_count = 0;
  g->upvalues = NULL;
  g->upvalue_slots = NULL;
  g->upvalue_count = 0;
  g->state = GEN_CREATED;
  g->resumer = NULL;
  return g;
}

Value obj_int_value(AgVM *vm, int64_t i) {
  ObjInt *o = ALLOCATE_OBJ(vm, ObjInt, OBJ_INT);
  o->value = i;
  return OBJ_VAL(o);
}
