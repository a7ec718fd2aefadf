/* generator.c — generators: functions that contain `yield` (SPEC §4).
 *
 * The compiler puts OP_GENERATOR at the start of such a function's body,
 * after its prologue: a call binds the arguments and runs the defaults as
 * any call does, then OP_GENERATOR moves the frame (its slots, nothing more
 * yet) into a new generator object and returns that object to the caller.
 *
 * Resuming copies the saved values back onto the VM stack, pushes a frame
 * and runs it in a nested dispatch loop, as a call from C does, until
 * OP_YIELD saves the frame again (with the handlers of its `try` blocks and
 * the upvalues closures took of its locals) or the body returns or throws,
 * which ends the generator. A generator is never on the stack twice: it is
 * running, suspended, or done. */
#include <string.h>

#include "vm/internal.h"

void vm_free_generator(AgVM *vm, ObjGenerator *g) {
  AG_FREE_ARRAY(vm, Value, g->values, g->value_capacity);
  AG_FREE_ARRAY(vm, GenHandler, g->handlers, g->handler_count);
  AG_FREE_ARRAY(vm, ObjUpvalue *, g->upvalues, g->upvalue_count);
  AG_FREE_ARRAY(vm, int, g->upvalue_slots, g->upvalue_count);
  AG_FREE(vm, ObjGenerator, g);
}

/* Saves the n values from `from` (the generator stays reachable: the
 * caller roots it). */
static void save_values(AgVM *vm, ObjGenerator *g, const Value *from, int n) {
  if (n > g->value_capacity) {
    int cap = n < 8 ? 8 : n;
    g->values = AG_GROW_ARRAY(vm, Value, g->values, g->value_capacity, cap);
    g->value_capacity = cap;
  }
  memcpy(g->values, from, sizeof(Value) * (size_t)n);
  g->value_count = n;
}

Value vm_generator_start(AgVM *vm) {
  CallFrame *frame = &vm->exec.frames[vm->exec.frame_count - 1];
  ObjGenerator *g = obj_new_generator(vm, frame->closure);
  vm_push_root(vm, OBJ_VAL(g));
  save_values(vm, g, frame->slots, (int)(vm->exec.stack_top - frame->slots));
  vm_pop_root(vm);
  g->ip = frame->ip;
  return OBJ_VAL(g);
}

/* The handlers of the frame at `index` move into g (heights relative to
 * the frame's slots); they are the innermost ones. */
static void save_handlers(AgVM *vm, ObjGenerator *g, int index, const Value *slots) {
  int n = 0;
  while (n < vm->exec.handler_count && vm->exec.handlers[vm->exec.handler_count - 1 - n].frame_index == index) n++;
  g->handlers = AG_GROW_ARRAY(vm, GenHandler, g->handlers, g->handler_count, n);
  g->handler_count = n;
  int base_height = (int)(slots - vm->exec.stack);
  for (int i = 0; i < n; i++) {
    const Handler *h = &vm->exec.handlers[vm->exec.handler_count - n + i];
    g->handlers[i] = (GenHandler){h->stack_height - base_height, h->catch_ip};
  }
  vm->exec.handler_count -= n;
}

/* The open upvalues of the frame's slots close (closures read and write
 * their own copy while the generator is suspended) and are listed with
 * their slots, highest first, as the VM's list holds them. */
static void park_upvalues(AgVM *vm, ObjGenerator *g, Value *slots) {
  int n = 0;
  for (ObjUpvalue *u = vm->exec.open_upvalues; u != NULL && u->location >= slots; u = u->next) n++;
  g->upvalues = AG_GROW_ARRAY(vm, ObjUpvalue *, g->upvalues, g->upvalue_count, n);
  g->upvalue_slots = AG_GROW_ARRAY(vm, int, g->upvalue_slots, g->upvalue_count, n);
  g->upvalue_count = n;
  for (int i = 0; i < n; i++) {
    ObjUpvalue *u = vm->exec.open_upvalues;
    g->upvalues[i] = u;
    g->upvalue_slots[i] = (int)(u->location - slots);
    u->closed = *u->location;
    u->location = &u->closed;
    vm->exec.open_upvalues = u->next;
  }
}

bool vm_generator_suspend(AgVM *vm, int base) {
  ObjGenerator *g = vm->exec.running_generator;
  if (g == NULL || g->state != GEN_RUNNING || vm->exec.frame_count - 1 != base) {
    vm_throw_error(vm, "'yield' outside a generator");
    return false;
  }
  CallFrame *frame = &vm->exec.frames[base];
  /* the yielded value stays on the stack, rooted, while the saving allocates */
  save_values(vm, g, frame->slots, (int)(vm->exec.stack_top - 1 - frame->slots));
  g->ip = frame->ip;
  save_handlers(vm, g, base, frame->slots);
  park_upvalues(vm, g, frame->slots);
  g->state = GEN_SUSPENDED;
  return true;
}

/* The saved handlers and upvalues back in the VM for the frame at `index`
 * whose slots start at `slots`. */
static void restore_frame_state(AgVM *vm, ObjGenerator *g, int index, Value *slots) {
  for (int i = 0; i < g->handler_count; i++) {
    vm_push_handler(vm, g->handlers[i].catch_ip);
    Handler *h = &vm->exec.handlers[vm->exec.handler_count - 1];
    h->frame_index = index;
    h->stack_height = (int)(slots - vm->exec.stack) + g->handlers[i].stack_height;
  }
  /* lowest slot first, each in front: the list stays highest first */
  for (int i = g->upvalue_count - 1; i >= 0; i--) {
    ObjUpvalue *u = g->upvalues[i];
    Value *slot = slots + g->upvalue_slots[i];
    *slot = u->closed;
    u->location = slot;
    u->next = vm->exec.open_upvalues;
    vm->exec.open_upvalues = u;
  }
  AG_FREE_ARRAY(vm, GenHandler, g->handlers, g->handler_count);
  AG_FREE_ARRAY(vm, ObjUpvalue *, g->upvalues, g->upvalue_count);
  AG_FREE_ARRAY(vm, int, g->upvalue_slots, g->upvalue_count);
  g->handlers = NULL, g->upvalues = NULL, g->upvalue_slots = NULL;
  g->handler_count = g->upvalue_count = 0;
}

static void finish(AgVM *vm, ObjGenerator *g) {
  g->state = GEN_DONE;
  AG_FREE_ARRAY(vm, Value, g->values, g->value_capacity);
  g->values = NULL;
  g->value_count = g->value_capacity = 0;
}

static bool is_stop_iteration(AgVM *vm, Value exc) {
  for (ObjClass *k = IS_INSTANCE(exc) ? AS_INSTANCE(exc)->klass : NULL; k != NULL; k = k->parent) {
    if (k == vm->core.stop_iteration_class) return true;
  }
  return false;
}

/* PEP 479: a StopIteration leaking out of the body would end the caller's
 * loop silently; it becomes an error with the StopIteration's traceback,
 * which names the body's line. */
static Value stop_iteration_leaked(AgVM *vm) {
  Value leaked = vm_take_exception(vm);
  vm_push_root(vm, leaked);
  ObjInstance *err = vm_new_error(vm, vm->core.error_class, obj_string(vm, "generator raised StopIteration"));
  vm_push_root(vm, OBJ_VAL(err));
  Value trace;
  if (table_get(&AS_INSTANCE(leaked)->fields, OBJ_VAL(vm->core.traceback_string), &trace)) {
    table_set(vm, &err->fields, OBJ_VAL(vm->core.traceback_string), trace);
  }
  vm_pop_roots(vm, 2);
  return vm_throw(vm, OBJ_VAL(err));
}

/* Pushes g's frame and runs it to its next yield (the yielded value), its
 * end (*finished, the returned value) or an error (VM_EXCEPTION). */
static Value resume(AgVM *vm, ObjGenerator *g, Value sent, bool *finished) {
  *finished = false;
  if (g->state == GEN_RUNNING) return vm_throw_error(vm, "generator already executing");
  if (g->state == GEN_DONE) {
    *finished = true;
    return NIL_VAL;
  }
  if (g->state == GEN_CREATED && !IS_NIL(sent)) {
    return vm_throw_error(vm, "can't send a non-nil value to a just-started generator");
  }
  ObjFunction *f = g->closure->function;
  if (vm->exec.native_depth >= VM_NATIVE_DEPTH_MAX || vm->exec.frame_count == VM_FRAMES_MAX ||
      vm->exec.stack_top + g->value_count + f->max_slots + 16 > vm->exec.stack_limit) {
    return vm_throw_error(vm, "stack overflow");
  }
  if (tensor_interrupt_requested) return vm_throw_interrupted(vm);
  Value *slots = vm->exec.stack_top;
  memcpy(slots, g->values, sizeof(Value) * (size_t)g->value_count);
  vm->exec.stack_top += g->value_count;
  if (g->state == GEN_SUSPENDED) *vm->exec.stack_top++ = sent; /* the value of the `yield` */
  int index = vm->exec.frame_count++;
  vm->exec.frames[index] = (CallFrame){g->closure, g->ip, slots, NULL, false};
  restore_frame_state(vm, g, index, slots);
  g->state = GEN_RUNNING;
  g->resumer = vm->exec.running_generator;
  vm->exec.running_generator = g;
  Value r = vm_run_pushed_frame(vm);
  vm->exec.running_generator = g->resumer;
  g->resumer = NULL;
  vm->exec.stack_top = slots;
  if (g->state == GEN_SUSPENDED) return r;
  finish(vm, g);
  if (IS_EXCEPTION(r)) {
    if (is_stop_iteration(vm, vm->exc.value)) return stop_iteration_leaked(vm);
    return r;
  }
  *finished = true;
  return r;
}

int vm_generator_next(AgVM *vm, ObjGenerator *g, Value *item) {
  bool finished;
  *item = resume(vm, g, NIL_VAL, &finished);
  if (IS_EXCEPTION(*item)) return -1;
  return finished ? 0 : 1;
}

/* StopIteration for a generator that ended; `value` is what it returned. */
static Value stop_iteration(AgVM *vm, Value value) {
  vm_push_root(vm, value);
  ObjInstance *e = vm_new_error(vm, vm->core.stop_iteration_class, obj_string(vm, "the generator is exhausted"));
  vm_push_root(vm, OBJ_VAL(e));
  table_set(vm, &e->fields, OBJ_VAL(obj_string(vm, "value")), value);
  vm_pop_roots(vm, 2);
  return vm_throw(vm, OBJ_VAL(e));
}

Value vm_generator_send(AgVM *vm, ObjGenerator *g, Value sent) {
  bool finished;
  Value r = resume(vm, g, sent, &finished);
  if (IS_EXCEPTION(r) || !finished) return r;
  return stop_iteration(vm, r);
}
