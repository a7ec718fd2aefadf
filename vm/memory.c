/* memory.c — allocation, the mark-sweep collector, temporary roots and pins
 * (design in memory.h). */
#include "tensor/ag_assert.h"
#include "vm/memory.h"

#include <stdio.h>
#include <stdlib.h>

#include "vm/internal.h"
#include "vm/vm.h"

/* The least the heap may grow between collections. Each collection marks
 * everything live (a script's 20,000-number list included), so a floor
 * too low re-marks it for every few hundred dropped tensors; 2 MB of
 * garbage is still cheap to sweep while it is warm. */
#define GC_MIN_HEAP (2 * 1024 * 1024)

/* Tensors' memory is collected sooner than the heap's own objects: a
 * collection costs about the heap's objects, not the bytes a dropped tensor
 * frees, and each freed big buffer goes back to the tensor allocator's cache
 * where the next result of its size reuses pages already faulted in. With
 * only the heap's threshold (twice the live bytes, tensors included), a loop
 * of `c = a @ b` on 4 MB matrices ran with six result buffers instead of
 * three, and faulting the others in cost 40 ms of system time over 20
 * products (docs/performance.md). So a collection also starts once the
 * tensors wrapped since the last one reach VM_GC_EXTERNAL_STEP or, on a big
 * heap, GC_EXTERNAL_PER_HEAP times the heap's own bytes, which keeps its
 * marking cheap next to making those tensors. */
#define GC_EXTERNAL_PER_HEAP 8

/* After growing: collect if the heap or the tensors passed their threshold. */
static inline void collect_if_due(AgVM *vm) {
  if (vm->gc.paused == 0 && (vm->gc.stress || vm->gc.bytes_allocated > vm->gc.next_gc ||
                             vm->gc.external_since_gc >= vm->gc.external_next_gc)) {
    vm_collect_garbage(vm);
  }
}

/* Counts a size change and collects when the heap grew past its limit. */
static void account(AgVM *vm, size_t old_size, size_t new_size) {
  vm->gc.bytes_allocated += new_size;
  vm->gc.bytes_allocated -= old_size;
  if (new_size > old_size) collect_if_due(vm);
}

/* The VM current on this thread (vm_make_current): the one whose context
 * tensor/ and autograd/ use, and the one vm_out_of_memory_here means. The
 * VM layer's one thread-local. */
static _Thread_local AgVM *current_vm;

AgVM *vm_make_current(AgVM *vm) {
  AgVM *previous = current_vm;
  if (vm == previous) return previous;
  current_vm = vm;
  tensor_state_make_current(vm != NULL ? &vm->context.tensor : NULL);
  ag_state_make_current(vm != NULL ? &vm->context.autograd : NULL);
  return previous;
}

_Noreturn void vm_out_of_memory(AgVM *vm, size_t bytes) {
  if (vm != NULL && vm->oom.guard != NULL) {
    vm->oom.bytes = bytes;
    siglongjmp(vm->oom.guard->jump, 1);
  }
  fflush(stdout);
  fprintf(stderr, "ag: out of memory (allocating %zu bytes)\n", bytes);
  exit(1);
}

/* Outside a dispatch loop the current VM has no oom_guard: the message and exit. */
_Noreturn void vm_out_of_memory_here(size_t bytes) { vm_out_of_memory(current_vm, bytes); }

void vm_hold_scratch(AgVM *vm, void *block, size_t accounted) {
  vm->oom.scratch = block;
  vm->oom.scratch_accounted = block ? accounted : 0;
}

void vm_free_scratch(AgVM *vm) {
  if (vm->oom.scratch == NULL) return;
  free(vm->oom.scratch);
  vm->gc.bytes_allocated -= vm->oom.scratch_accounted;
  vm_hold_scratch(vm, NULL, 0);
}

/* After growing by `grow` bytes: is the heap past its limit, even after a
 * collection? */
static bool over_limit(AgVM *vm, size_t grow) {
  if (vm->oom.limit == 0 || vm->oom.recovering || vm->gc.bytes_allocated <= vm->oom.limit) return false;
  if (vm->gc.paused == 0) {
    vm->gc.bytes_allocated -= grow; /* the block is not there yet */
    vm_collect_garbage(vm);
    vm->gc.bytes_allocated += grow;
  }
  return vm->gc.bytes_allocated > vm->oom.limit;
}

void *vm_reallocate(AgVM *vm, void *ptr, size_t old_size, size_t new_size) {
  account(vm, old_size, new_size);
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  void *result = new_size > old_size && over_limit(vm, new_size - old_size) ? NULL : realloc(ptr, new_size);
  if (result == NULL) {
    vm->gc.bytes_allocated = vm->gc.bytes_allocated - new_size + old_size; /* ptr is as it was */
    vm_out_of_memory(vm, new_size);
  }
  return result;
}

void vm_add_external_bytes(AgVM *vm, ptrdiff_t delta) {
  if (delta >= 0) {
    vm->gc.external_live += (size_t)delta;
    vm->gc.external_since_gc += (size_t)delta;
  } else {
    size_t drop = (size_t)(-delta);
    vm->gc.external_live = drop > vm->gc.external_live ? 0 : vm->gc.external_live - drop;
  }
  if (delta < 0 && (size_t)(-delta) > vm->gc.bytes_allocated) {
    vm->gc.bytes_allocated = 0;
    return;
  }
  vm->gc.bytes_allocated += (size_t)delta;
}

/* Freed ObjTensors wait for reuse in vm->gc.tensor_obj_cache: a script on small
 * tensors makes and drops one per operation, millions in all, and malloc +
 * free of each cost more than the rest of the wrapper. Per VM, bounded,
 * emptied with a VM's objects, and off under AddressSanitizer so that it
 * still sees every use after free. */
#if defined(__SANITIZE_ADDRESS__)
#define TENSOR_OBJ_CACHE_MAX 0
#else
#define TENSOR_OBJ_CACHE_MAX 65536
#endif

/* Links a new object into the list of all objects. */
static Obj *link_object(AgVM *vm, Obj *obj, ObjType type) {
  obj->type = type;
  obj->marked = false;
  obj->next = vm->gc.objects;
  vm->gc.objects = obj;
  return obj;
}

Obj *vm_allocate_tensor_object(AgVM *vm, size_t external_bytes) {
  /* the wrapper and what it keeps alive, counted in one go before the
   * allocation: this very allocation may start the collection that frees
   * earlier big temporaries (and fills the cache) */
  vm->gc.external_live += external_bytes;
  vm->gc.external_since_gc += external_bytes;
  vm->gc.bytes_allocated += external_bytes + sizeof(ObjTensor);
  collect_if_due(vm);
  Obj *obj = vm->gc.tensor_obj_cache;
  if (obj == NULL) {
    obj = malloc(sizeof(ObjTensor));
    if (obj == NULL) {
      vm_add_external_bytes(vm, -(ptrdiff_t)external_bytes);
      account(vm, sizeof(ObjTensor), 0);
      vm_out_of_memory(vm, sizeof(ObjTensor));
    }
  } else {
    vm->gc.tensor_obj_cache = obj->next;
    vm->gc.tensor_obj_cached--;
  }
  return link_object(vm, obj, OBJ_TENSOR);
}

/* A swept tensor wrapper: its bytes uncounted (those vm_allocate_tensor_object
 * counted, so nothing can go below zero), the block kept for reuse. */
static void tensor_obj_put(AgVM *vm, ObjTensor *t) {
  AG_ASSERT(vm->gc.external_live >= t->external_bytes &&
            vm->gc.bytes_allocated >= t->external_bytes + sizeof(ObjTensor));
  vm->gc.external_live -= t->external_bytes;
  vm->gc.bytes_allocated -= t->external_bytes + sizeof(ObjTensor);
  Obj *obj = (Obj *)t;
  if (vm->gc.tensor_obj_cached >= TENSOR_OBJ_CACHE_MAX) {
    free(obj);
    return;
  }
  obj->next = vm->gc.tensor_obj_cache;
  vm->gc.tensor_obj_cache = obj;
  vm->gc.tensor_obj_cached++;
}

/* Inline: nearly every object a collection frees on small tensors is one. */
static inline void free_tensor_object(AgVM *vm, ObjTensor *t) {
  tensor_release(t->tensor);
  tensor_obj_put(vm, t);
}

Obj *vm_allocate_object(AgVM *vm, size_t size, ObjType type) {
  return link_object(vm, vm_reallocate(vm, NULL, 0, size), type);
}

/* ---- freeing ---- */

static void free_function(AgVM *vm, ObjFunction *f) {
  chunk_free(vm, &f->chunk);
  int names = obj_param_count(f);
  if (f->param_names) AG_FREE_ARRAY(vm, ObjString *, f->param_names, names);
  if (f->param_has_default) AG_FREE_ARRAY(vm, bool, f->param_has_default, f->arity);
  AG_FREE(vm, ObjFunction, f);
}

void vm_free_object(AgVM *vm, Obj *obj) {
  switch (obj->type) {
  case OBJ_STRING: {
    ObjString *s = (ObjString *)obj;
    vm_reallocate(vm, s, sizeof(ObjString) + (size_t)s->length + 1, 0);
    break;
  }
  case OBJ_LIST:
  case OBJ_TUPLE: {
    ObjList *l = (ObjList *)obj;
    AG_FREE_ARRAY(vm, Value, l->items, l->capacity);
    AG_FREE(vm, ObjList, l);
    break;
  }
  case OBJ_MAP:
  case OBJ_SET:
    table_free(vm, &((ObjMap *)obj)->table);
    AG_FREE(vm, ObjMap, obj);
    break;
  case OBJ_RANGE: AG_FREE(vm, ObjRange, obj); break;
  case OBJ_SLICE: AG_FREE(vm, ObjSlice, obj); break;
  case OBJ_FUNCTION: free_function(vm, (ObjFunction *)obj); break;
  case OBJ_CLOSURE: {
    ObjClosure *c = (ObjClosure *)obj;
    if (c->upvalues) AG_FREE_ARRAY(vm, ObjUpvalue *, c->upvalues, c->upvalue_count);
    AG_FREE(vm, ObjClosure, c);
    break;
  }
  case OBJ_UPVALUE: AG_FREE(vm, ObjUpvalue, obj); break;
  case OBJ_NATIVE: AG_FREE(vm, ObjNative, obj); break;
  case OBJ_CLASS:
    table_free(vm, &((ObjClass *)obj)->methods);
    AG_FREE(vm, ObjClass, obj);
    break;
  case OBJ_INSTANCE:
    table_free(vm, &((ObjInstance *)obj)->fields);
    AG_FREE(vm, ObjInstance, obj);
    break;
  case OBJ_BOUND_METHOD: AG_FREE(vm, ObjBoundMethod, obj); break;
  case OBJ_MODULE:
    table_free(vm, &((ObjModule *)obj)->names);
    AG_FREE(vm, ObjModule, obj);
    break;
  case OBJ_TENSOR: free_tensor_object(vm, (ObjTensor *)obj); break;
  case OBJ_NODE:
    grad_node_release(((ObjNode *)obj)->node);
    AG_FREE(vm, ObjNode, obj);
    break;
  case OBJ_DTYPE: AG_FREE(vm, ObjDType, obj); break;
  case OBJ_INT: AG_FREE(vm, ObjInt, obj); break;
  case OBJ_GENERATOR: vm_free_generator(vm, (ObjGenerator *)obj); break;
  case OBJ_TYPE_COUNT: break;
  }
}

void vm_free_objects(AgVM *vm) {
  Obj *obj = vm->gc.objects;
  while (obj != NULL) {
    Obj *next = obj->next;
    vm_free_object(vm, obj);
    obj = next;
  }
  vm->gc.objects = NULL;
  while (vm->gc.tensor_obj_cache != NULL) {
    Obj *next = vm->gc.tensor_obj_cache->next;
    free(vm->gc.tensor_obj_cache);
    vm->gc.tensor_obj_cache = next;
  }
  vm->gc.tensor_obj_cached = 0;
  free(vm->gc.gray_stack);
  vm->gc.gray_stack = NULL;
  vm->gc.gray_capacity = 0;
}

/* ---- marking ---- */

void vm_mark_object(AgVM *vm, Obj *obj) {
  if (obj == NULL || obj->marked) return;
  obj->marked = true;
  if (vm->gc.gray_count == vm->gc.gray_capacity) {
    vm->gc.gray_capacity = AG_GROW_CAPACITY(vm->gc.gray_capacity);
    /* The gray stack is the collector's own: plain realloc, not counted. */
    Obj **grown = realloc(vm->gc.gray_stack, sizeof(Obj *) * (size_t)vm->gc.gray_capacity);
    if (grown == NULL) { /* no jump out of a collection: its marks would stay half set */
      fprintf(stderr, "ag: out of memory in the garbage collector\n");
      exit(1);
    }
    vm->gc.gray_stack = grown;
  }
  vm->gc.gray_stack[vm->gc.gray_count++] = obj;
}

void vm_mark_value(AgVM *vm, Value v) {
  if (IS_OBJ(v)) vm_mark_object(vm, AS_OBJ(v));
}

static inline Value larger(Value a, Value b) { return a > b ? a : b; }

/* A big list is mostly numbers, and every collection walks it again. An
 * object's value has all of its top 14 bits set (IS_OBJ), so it is larger
 * than any other value: four values whose largest is no object are passed
 * over with conditional moves and one branch, not one branch each. */
static void mark_values(AgVM *vm, const Value *values, int n) {
  const Value first_obj = AG_SIGN_BIT | AG_QNAN;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const Value *v = values + i;
    if (larger(larger(v[0], v[1]), larger(v[2], v[3])) < first_obj) continue;
    for (int j = 0; j < 4; j++) vm_mark_value(vm, v[j]);
  }
  for (; i < n; i++) vm_mark_value(vm, values[i]);
}

static void mark_table(AgVM *vm, const Table *t) {
  for (int i = 0; i < t->used; i++) {
    vm_mark_value(vm, t->entries[i].key);
    vm_mark_value(vm, t->entries[i].value);
  }
}

static void blacken_function(AgVM *vm, ObjFunction *f) {
  vm_mark_object(vm, (Obj *)f->name);
  vm_mark_object(vm, (Obj *)f->file);
  mark_values(vm, f->chunk.constants, f->chunk.const_count);
  int names = obj_param_count(f);
  if (f->param_names) {
    for (int i = 0; i < names; i++) vm_mark_object(vm, (Obj *)f->param_names[i]);
  }
}

static void blacken(AgVM *vm, Obj *obj) {
  switch (obj->type) {
  case OBJ_LIST:
  case OBJ_TUPLE: mark_values(vm, ((ObjList *)obj)->items, ((ObjList *)obj)->count); break;
  case OBJ_MAP:
  case OBJ_SET:
    mark_table(vm, &((ObjMap *)obj)->table);
    vm_mark_object(vm, (Obj *)((ObjMap *)obj)->by_hash);
    break;
  case OBJ_SLICE: {
    ObjSlice *s = (ObjSlice *)obj;
    vm_mark_value(vm, s->start);
    vm_mark_value(vm, s->stop);
    vm_mark_value(vm, s->step);
    break;
  }
  case OBJ_FUNCTION: blacken_function(vm, (ObjFunction *)obj); break;
  case OBJ_CLOSURE: {
    ObjClosure *c = (ObjClosure *)obj;
    vm_mark_object(vm, (Obj *)c->function);
    for (int i = 0; i < c->upvalue_count; i++) vm_mark_object(vm, (Obj *)c->upvalues[i]);
    break;
  }
  case OBJ_UPVALUE: vm_mark_value(vm, ((ObjUpvalue *)obj)->closed); break;
  case OBJ_NATIVE: vm_mark_object(vm, (Obj *)((ObjNative *)obj)->name); break;
  case OBJ_CLASS: {
    ObjClass *k = (ObjClass *)obj;
    vm_mark_object(vm, (Obj *)k->name);
    vm_mark_object(vm, (Obj *)k->parent);
    mark_table(vm, &k->methods);
    vm_mark_value(vm, k->init);
    vm_mark_value(vm, k->convert);
    vm_mark_object(vm, (Obj *)k->shown_name);
    break;
  }
  case OBJ_INSTANCE:
    vm_mark_object(vm, (Obj *)((ObjInstance *)obj)->klass);
    mark_table(vm, &((ObjInstance *)obj)->fields);
    break;
  case OBJ_BOUND_METHOD:
    vm_mark_value(vm, ((ObjBoundMethod *)obj)->receiver);
    vm_mark_value(vm, ((ObjBoundMethod *)obj)->method);
    break;
  case OBJ_MODULE: {
    ObjModule *m = (ObjModule *)obj;
    vm_mark_object(vm, (Obj *)m->name);
    vm_mark_object(vm, (Obj *)m->path);
    mark_table(vm, &m->names);
    break;
  }
  case OBJ_GENERATOR: {
    ObjGenerator *g = (ObjGenerator *)obj;
    vm_mark_object(vm, (Obj *)g->closure);
    mark_values(vm, g->values, g->value_count);
    for (int i = 0; i < g->upvalue_count; i++) vm_mark_object(vm, (Obj *)g->upvalues[i]);
    vm_mark_object(vm, (Obj *)g->resumer);
    break;
  }
  case OBJ_STRING:
  case OBJ_RANGE:
  case OBJ_TENSOR:
  case OBJ_NODE:
  case OBJ_DTYPE:
  case OBJ_INT:
  case OBJ_TYPE_COUNT: break;
  }
}

static void mark_roots(AgVM *vm) {
  for (Value *v = vm->exec.stack; v < vm->exec.stack_top; v++) vm_mark_value(vm, *v);
  for (int i = 0; i < vm->exec.frame_count; i++) {
    vm_mark_object(vm, (Obj *)vm->exec.frames[i].closure);
    vm_mark_object(vm, (Obj *)vm->exec.frames[i].module_init);
  }
  for (ObjUpvalue *u = vm->exec.open_upvalues; u != NULL; u = u->next) vm_mark_object(vm, (Obj *)u);
  mark_values(vm, vm->globals.values, vm->globals.count);
  for (int i = 0; i < vm->globals.count; i++) vm_mark_object(vm, (Obj *)vm->globals.names[i]);
  mark_table(vm, &vm->globals.builtins);
  mark_table(vm, &vm->globals.modules);
  mark_table(vm, &vm->core.list_methods);
  mark_table(vm, &vm->core.tuple_methods);
  mark_table(vm, &vm->core.map_methods);
  mark_table(vm, &vm->core.set_methods);
  mark_table(vm, &vm->core.string_methods);
  mark_table(vm, &vm->core.generator_methods);
  vm_mark_object(vm, (Obj *)vm->exec.running_generator);
  vm_mark_object(vm, (Obj *)vm->globals.main_module);
  vm_mark_object(vm, (Obj *)vm->globals.compiling_module);
  vm_mark_object(vm, (Obj *)vm->core.error_class);
  for (int i = 0; i < VM_ERROR_COUNT; i++) vm_mark_object(vm, (Obj *)vm->core.error_classes[i]);
  for (int i = 0; i < vm->globals.library_file_count; i++) vm_mark_object(vm, (Obj *)vm->globals.library_files[i]);
  vm_mark_object(vm, (Obj *)vm->core.interrupted_class);
  vm_mark_object(vm, (Obj *)vm->core.memory_error_class);
  vm_mark_object(vm, (Obj *)vm->oom.spare_error);
  vm_mark_object(vm, (Obj *)vm->core.zero_division_class);
  vm_mark_object(vm, (Obj *)vm->core.stdout_obj);
  vm_mark_object(vm, (Obj *)vm->core.stderr_obj);
  for (int i = 0; i < DT_COUNT; i++) vm_mark_object(vm, (Obj *)vm->core.dtypes[i]);
  for (int i = 0; i < DT_COUNT; i++) vm_mark_value(vm, vm->core.dtype_call[i]);
  ObjString *names[] = {vm->core.init_string,    vm->core.call_string,      vm->core.str_string,
                        vm->core.message_string, vm->core.traceback_string, vm->core.enter_string,
                        vm->core.exit_string, vm->core.repr_string};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) vm_mark_object(vm, (Obj *)names[i]);
  for (int i = 0; i < VM_METHOD_COUNT; i++) vm_mark_object(vm, (Obj *)vm->core.method_names[i]);
  vm_mark_value(vm, vm->core.not_implemented);
  vm_mark_value(vm, vm->core.ellipsis);
  vm_mark_object(vm, (Obj *)vm->core.stop_iteration_class);
  vm_mark_object(vm, (Obj *)vm->core.iterator_class);
  vm_mark_object(vm, (Obj *)vm->core.map_class);
  vm_mark_object(vm, (Obj *)vm->core.filter_class);
  vm_mark_object(vm, (Obj *)vm->core.zip_class);
  vm_mark_object(vm, (Obj *)vm->core.enumerate_class);
  vm_mark_object(vm, (Obj *)vm->core.progress_class);
  vm_mark_object(vm, (Obj *)vm->core.file_class);
  vm_mark_object(vm, (Obj *)vm->core.open_files);
  vm_mark_object(vm, (Obj *)vm->core.property_class);
  vm_mark_object(vm, (Obj *)vm->core.staticmethod_class);
  vm_mark_object(vm, (Obj *)vm->core.classmethod_class);
  vm_mark_object(vm, (Obj *)vm->vmap.batched_class);
  vm_mark_value(vm, vm->vmap.dispatch);
  vm_mark_object(vm, (Obj *)vm->vmap.passthrough);
  vm_mark_object(vm, (Obj *)vm->vmap.random);
  for (int i = 0; i < VM_TYPE_COUNT; i++) vm_mark_value(vm, vm->core.type_objects[i]);
  if (vm->exc.pending) vm_mark_value(vm, vm->exc.value);
  vm_mark_object(vm, (Obj *)vm->exc.trace);
  vm_mark_object(vm, (Obj *)vm->host.args);
  vm_mark_object(vm, (Obj *)vm->host.argv);
  mark_values(vm, vm->gc.temp_roots, vm->gc.temp_root_count);
  mark_values(vm, vm->gc.pins, (int)vm->gc.pin_count);
  if (vm->plugins.lib_state_mark != NULL) vm->plugins.lib_state_mark(vm, vm->plugins.lib_state);
}

static void trace_references(AgVM *vm) {
  while (vm->gc.gray_count > 0) blacken(vm, vm->gc.gray_stack[--vm->gc.gray_count]);
}

/* The intern set holds strings weakly. Its size then follows the live
 * strings: it counts towards the heap that sets the next collection's
 * threshold, so left at the size a burst of short-lived strings gave it
 * (`for i in range(n) { let s = str(i) }`), it would raise that threshold,
 * which lets the next burst grow it further, without bound. */
static void remove_white_strings(AgVM *vm) {
  Table *t = &vm->gc.strings;
  for (int i = 0; i < t->used; i++) {
    Value key = t->entries[i].key;
    if (IS_OBJ(key) && !AS_OBJ(key)->marked) table_remove(t, key);
  }
  table_shrink(vm, t);
}

static void sweep(AgVM *vm) {
  Obj **link = &vm->gc.objects;
  while (*link != NULL) {
    Obj *obj = *link;
    if (obj->marked) {
      obj->marked = false;
      link = &obj->next;
    } else {
      *link = obj->next;
      if (obj->type == OBJ_TENSOR) /* most garbage: without the switch's call */
        free_tensor_object(vm, (ObjTensor *)obj);
      else
        vm_free_object(vm, obj);
    }
  }
}

void vm_collect_garbage(AgVM *vm) {
  vm->gc.paused++; /* freeing must not start a nested collection */
  mark_roots(vm);
  trace_references(vm);
  remove_white_strings(vm);
  sweep(vm);
  vm->gc.paused--;
  vm->gc.next_gc = vm->gc.bytes_allocated * 2;
  if (vm->gc.next_gc < GC_MIN_HEAP) vm->gc.next_gc = GC_MIN_HEAP;
  size_t heap = vm->gc.bytes_allocated > vm->gc.external_live
                    ? vm->gc.bytes_allocated - vm->gc.external_live
                    : 0;
  vm->gc.external_since_gc = 0;
  vm->gc.external_next_gc = heap * GC_EXTERNAL_PER_HEAP;
  if (vm->gc.external_next_gc < VM_GC_EXTERNAL_STEP) vm->gc.external_next_gc = VM_GC_EXTERNAL_STEP;
}

/* ---- temporary roots ---- */

void vm_push_root(AgVM *vm, Value v) {
  if (vm->gc.temp_root_count == vm->gc.temp_root_capacity) {
    int cap = AG_GROW_CAPACITY(vm->gc.temp_root_capacity);
    Value *grown = realloc(vm->gc.temp_roots, sizeof(Value) * (size_t)cap);
    if (grown == NULL) vm_out_of_memory(vm, sizeof(Value) * (size_t)cap);
    vm->gc.temp_roots = grown;
    vm->gc.temp_root_capacity = cap;
  }
  vm->gc.temp_roots[vm->gc.temp_root_count++] = v;
}

void vm_pop_root(AgVM *vm) {
  AG_ASSERT(vm->gc.temp_root_count > 0); /* each pop has its push */
  vm->gc.temp_root_count--;
}

void vm_pop_roots(AgVM *vm, int n) {
  AG_ASSERT(n >= 0 && vm->gc.temp_root_count >= n);
  vm->gc.temp_root_count -= n;
}

/* ---- pins ---- */

uint32_t vm_pin(AgVM *vm, Value v) {
  if (vm->gc.pin_free_count > 0) {
    uint32_t h = vm->gc.pin_free[--vm->gc.pin_free_count];
    vm->gc.pins[h] = v;
    return h;
  }
  if (vm->gc.pin_count == vm->gc.pin_capacity) {
    uint32_t cap = vm->gc.pin_capacity < 8 ? 8 : vm->gc.pin_capacity * 2;
    Value *pins = realloc(vm->gc.pins, sizeof(Value) * cap);
    uint32_t *free_list = realloc(vm->gc.pin_free, sizeof(uint32_t) * cap);
    if (pins != NULL) vm->gc.pins = pins; /* each may have moved, even if the other failed */
    if (free_list != NULL) vm->gc.pin_free = free_list;
    if (pins == NULL || free_list == NULL) vm_out_of_memory(vm, (sizeof(Value) + sizeof(uint32_t)) * cap);
    vm->gc.pin_capacity = cap;
  }
  vm->gc.pins[vm->gc.pin_count] = v;
  return vm->gc.pin_count++;
}

Value vm_pinned(AgVM *vm, uint32_t handle) {
  return handle < vm->gc.pin_count ? vm->gc.pins[handle] : NIL_VAL;
}

void vm_unpin(AgVM *vm, uint32_t handle) {
  if (handle >= vm->gc.pin_count) return;
  vm->gc.pins[handle] = NIL_VAL;
  vm->gc.pin_free[vm->gc.pin_free_count++] = handle;
}
