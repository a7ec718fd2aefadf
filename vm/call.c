/* call.c — calling values: binding positional and keyword arguments to a
 * function's parameters (defaults, rest lists, the errors that name the
 * function), natives, bound methods, constructors, callable instances and
 * method invocation without a bound method. The dispatch loop (vm.c) calls
 * these on its slow paths; a plain call of a closure with exactly its
 * arity is inlined there. */
#include <string.h>

#include "vm/internal.h"

static inline void push(AgVM *vm, Value v) { *vm->exec.stack_top++ = v; }

static const char *function_name(const ObjFunction *f) { return f->name ? f->name->chars : "<script>"; }

/* ---- argument binding ---- */

/* Which parameters have defaults, read once from the prologue's chain of
 * OP_DEFAULT instructions (each skips its default's code). */
static void scan_defaults(AgVM *vm, ObjFunction *f) {
  f->defaults_scanned = true;
  if (f->arity == 0) return;
  f->param_has_default = AG_ALLOCATE(vm, bool, f->arity);
  memset(f->param_has_default, 0, sizeof(bool) * (size_t)f->arity);
  const uint8_t *code = f->chunk.code;
  int pos = 0;
  while (pos + 3 < f->chunk.count && code[pos] == OP_DEFAULT) {
    int slot = code[pos + 1];
    int jump = ag_read_u16(code + pos + 2);
    if (slot >= 1 && slot <= f->arity) f->param_has_default[slot - 1] = true;
    pos += 4 + jump;
  }
}

static int count_required(AgVM *vm, ObjFunction *f) {
  if (!f->defaults_scanned) scan_defaults(vm, f);
  int n = 0;
  for (int i = 0; i < f->arity; i++) n += f->param_has_default[i] ? 0 : 1;
  return n;
}

static CallStatus arity_error(AgVM *vm, const char *name, int min, int max, int given) {
  const char *were = given == 1 ? "was" : "were";
  if (min == max) {
    vm_raise(vm, VM_ERR_TYPE, "%s() takes %d argument%s but %d %s given", name, min, min == 1 ? "" : "s", given, were);
  } else if (max < 0) {
    vm_raise(vm, VM_ERR_TYPE, "%s() takes at least %d argument%s but %d %s given", name, min, min == 1 ? "" : "s", given,
                   were);
  } else {
    vm_raise(vm, VM_ERR_TYPE, "%s() takes %d to %d arguments but %d %s given", name, min, max, given, were);
  }
  return CALL_ERROR;
}

static int param_index(const ObjFunction *f, ObjString *name) {
  for (int i = 0; i < f->arity; i++) {
    if (f->param_names && f->param_names[i] == name) return i;
  }
  return -1;
}

/* Collects positionals beyond the named parameters: a tuple for *args (as
 * Python's), a list for Ag's ...args. */
static ObjList *make_rest(AgVM *vm, const ObjFunction *f, int positional, Value *args, int argc) {
  int n = argc > positional ? argc - positional : 0;
  if (f->rest_is_tuple) return obj_new_tuple(vm, args + positional, n);
  ObjList *rest = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(rest));
  for (int i = 0; i < n; i++) obj_list_append(vm, rest, args[positional + i]);
  vm_pop_root(vm);
  return rest;
}

/* Python's "f() missing 2 required positional arguments: 'a' and 'b'" (or
 * keyword-only arguments, when no positional one is missing). */
static void missing_error(AgVM *vm, ObjFunction *f, const Value *args) {
  int positional = f->arity - f->kwonly;
  bool kwonly = true;
  for (int i = 0; i < positional; i++) kwonly = kwonly && !(IS_UNDEF(args[i]) && !f->param_has_default[i]);
  int from = kwonly ? positional : 0, to = kwonly ? f->arity : positional, n = 0;
  char list[512] = "";
  size_t len = 0;
  for (int i = from; i < to; i++) {
    if (!IS_UNDEF(args[i]) || f->param_has_default[i]) continue;
    n++;
    int more = 0; /* missing ones after this: "'a', 'b' and 'c'" */
    for (int j = i + 1; j < to; j++) more += IS_UNDEF(args[j]) && !f->param_has_default[j];
    const char *sep = n == 1 ? "" : more == 0 ? " and " : ", ";
    int w = snprintf(list + len, sizeof list - len, "%s'%s'", sep, f->param_names[i]->chars);
    if (w > 0 && (size_t)w < sizeof list - len) len += (size_t)w;
  }
  vm_raise(vm, VM_ERR_TYPE, "%s() missing %d required %s argument%s: %s", function_name(f), n,
                 kwonly ? "keyword-only" : "positional", n == 1 ? "" : "s", list);
}

/* Keywords that name no parameter go into the **kwargs map (while their
 * values are still on the stack, rooted), or are Python's TypeError. */
static bool collect_unknown_keywords(AgVM *vm, ObjFunction *f, ObjMap *kwargs, int nkw,
                                     ObjString *const *kwnames, const Value *kwvals) {
  for (int k = 0; k < nkw; k++) {
    if (param_index(f, kwnames[k]) >= 0) continue;
    if (kwargs == NULL) {
      vm_raise(vm, VM_ERR_TYPE, "%s() got an unexpected keyword argument '%s'", function_name(f), kwnames[k]->chars);
      return false;
    }
    table_set(vm, &kwargs->table, OBJ_VAL(kwnames[k]), kwvals[k]);
  }
  return true;
}

/* Rearranges [args][kw values] on the stack into the frame's parameter
 * slots: positionals, keywords by name, UNDEF for the rest (their defaults
 * run in the callee), then the rest list and the keyword map. */
static bool bind_arguments(AgVM *vm, ObjFunction *f, int argc, int nkw, ObjString *const *kwnames) {
  Value *args = vm->exec.stack_top - nkw - argc;
  const char *name = function_name(f);
  int positional = f->arity - f->kwonly;
  if (argc > positional && !f->has_rest) {
    int required = count_required(vm, f) - f->kwonly;
    if (required < 0) required = 0;
    arity_error(vm, name, required < positional ? required : positional, positional, argc);
    return false;
  }
  ObjList *rest = f->has_rest ? make_rest(vm, f, positional, args, argc) : NULL;
  vm_push_root(vm, OBJ_VAL(rest == NULL ? obj_new_list(vm) : rest));
  ObjMap *kwargs = f->has_kwargs ? obj_new_map(vm) : NULL;
  vm_push_root(vm, kwargs == NULL ? NIL_VAL : OBJ_VAL(kwargs));
  bool known = collect_unknown_keywords(vm, f, kwargs, nkw, kwnames, args + argc);
  vm_pop_root(vm);
  vm_pop_root(vm);
  if (!known) return false;
  Value kwvals[VM_KW_MAX];
  for (int i = 0; i < nkw; i++) kwvals[i] = args[argc + i];
  int given = argc < positional ? argc : positional;
  vm->exec.stack_top = args + given;
  for (int i = given; i < f->arity; i++) push(vm, UNDEF_VAL);
  if (rest) push(vm, OBJ_VAL(rest));
  if (kwargs) push(vm, OBJ_VAL(kwargs));
  int matched = 0;
  for (int k = 0; k < nkw; k++) {
    int p = param_index(f, kwnames[k]);
    if (p < 0) continue;
    matched++;
    if (!IS_UNDEF(args[p])) {
      vm_raise(vm, VM_ERR_TYPE, "%s() got multiple values for argument '%s'", name, kwnames[k]->chars);
      return false;
    }
    args[p] = kwvals[k];
  }
  if (given + matched < f->arity) {
    if (!f->defaults_scanned) scan_defaults(vm, f);
    for (int i = 0; i < f->arity; i++) {
      if (IS_UNDEF(args[i]) && !f->param_has_default[i]) {
        missing_error(vm, f, args);
        return false;
      }
    }
  }
  return true;
}

static CallStatus stack_overflow(AgVM *vm) {
  vm_raise(vm, VM_ERR_RECURSION, "stack overflow");
  return CALL_ERROR;
}

CallStatus vm_raise_interrupted(AgVM *vm) {
  vm_throw_interrupted(vm);
  return CALL_ERROR;
}

CallStatus vm_call_closure(AgVM *vm, ObjClosure *closure, int argc, int nkw, ObjString *const *kwnames,
                           bool is_init) {
  ObjFunction *f = closure->function;
  if (nkw != 0 || argc != f->arity || f->binds_extra) {
    if (!bind_arguments(vm, f, argc, nkw, kwnames)) return CALL_ERROR;
  }
  if (vm->exec.frame_count == VM_FRAMES_MAX || vm->exec.stack_top + f->max_slots + 16 > vm->exec.stack_limit) {
    return stack_overflow(vm);
  }
  if (tensor_interrupt_requested) return vm_raise_interrupted(vm);
  CallFrame *frame = &vm->exec.frames[vm->exec.frame_count++];
  frame->closure = closure;
  frame->ip = f->chunk.code;
  frame->slots = vm->exec.stack_top - obj_param_count(f) - 1;
  frame->module_init = NULL;
  frame->is_init = is_init;
  return CALL_FRAME;
}

/* Puts v before the n arguments (positionals and keyword values) on the stack. */
static bool insert_argument(AgVM *vm, int n, Value v) {
  if (vm->exec.stack_top + 1 >= vm->exec.stack_limit) return false;
  Value *first = vm->exec.stack_top - n;
  memmove(first + 1, first, sizeof(Value) * (size_t)n);
  *first = v;
  vm->exec.stack_top++;
  return true;
}

static bool is_batched(const AgVM *vm, Value v) {
  return IS_INSTANCE(v) && AS_INSTANCE(v)->klass == vm->vmap.batched_class;
}

/* A batched value among the arguments, or one level inside a list or tuple
 * argument (stack([a, b]), cat(xs)). */
bool vm_has_batched_argument(const AgVM *vm, int n, const Value *args) {
  for (int i = 0; i < n; i++) {
    if (is_batched(vm, args[i])) return true;
    if (IS_LIST(args[i]) || IS_TUPLE(args[i])) {
      ObjList *l = AS_LIST(args[i]);
      for (int j = 0; j < l->count; j++) {
        if (is_batched(vm, l->items[j])) return true;
      }
    }
  }
  return false;
}

/* Whether native is in the list (a class stands for its conversion: type,
 * list, str ...). */
static bool native_in(const ObjList *l, const ObjNative *native) {
  for (int i = 0; l != NULL && i < l->count; i++) {
    Value v = l->items[i];
    if (IS_CLASS(v)) v = AS_CLASS(v)->convert;
    if (IS_OBJ(v) && AS_OBJ(v) == (const Obj *)native) return true;
  }
  return false;
}

/* Inside func.vmap: whether this call of a native goes to batched_dispatch. */
static bool goes_batched(AgVM *vm, ObjNative *native, int n, const Value *args) {
  if (native_in(vm->vmap.random, native)) return true;
  return vm_has_batched_argument(vm, n, args) && !native_in(vm->vmap.passthrough, native);
}

static CallStatus call_native_batched(AgVM *vm, ObjNative *native, int argc, int nkw, ObjString *const *kwnames) {
  if (!insert_argument(vm, argc + nkw, OBJ_VAL(native))) return stack_overflow(vm);
  vm->exec.stack_top[-argc - nkw - 2] = vm->vmap.dispatch;
  return vm_call_closure(vm, AS_CLOSURE(vm->vmap.dispatch), argc + 1, nkw, kwnames, false);
}

static CallStatus call_native(AgVM *vm, ObjNative *native, Value self, int argc, int nkw,
                              ObjString *const *kwnames) {
  if (vm->vmap.depth > 0 && IS_NIL(self) && goes_batched(vm, native, argc + nkw, vm->exec.stack_top - nkw - argc)) {
    return call_native_batched(vm, native, argc, nkw, kwnames);
  }
  if (argc < native->min_args || (native->max_args >= 0 && argc > native->max_args)) {
    return arity_error(vm, native->name->chars, native->min_args, native->max_args, argc);
  }
  if (nkw > 0 && !native->takes_kwargs) {
    vm_raise(vm, VM_ERR_TYPE, "unexpected keyword argument '%s' in call to %s()", kwnames[0]->chars, native->name->chars);
    return CALL_ERROR;
  }
  Value *args = vm->exec.stack_top - nkw - argc;
  AgKwargs kw = {nkw, kwnames, args + argc};
  Value result = native->fn(vm, self, argc, args, &kw);
  if (IS_EXCEPTION(result)) return CALL_ERROR;
  vm->exec.stack_top = args - 1;
  push(vm, result);
  return CALL_DONE;
}

/* A function that is not a method (a decorator's wrapper) stored in a class:
 * the receiver is its first argument, as Python binds functions. */
static __attribute__((noinline)) CallStatus call_function_as_method(AgVM *vm, ObjClosure *fn, Value receiver, int argc, int nkw,
                                          ObjString *const *kwnames) {
  if (!insert_argument(vm, argc + nkw, receiver)) return stack_overflow(vm);
  vm->exec.stack_top[-argc - nkw - 2] = OBJ_VAL(fn);
  return vm_call_closure(vm, fn, argc + 1, nkw, kwnames, false);
}

/* A method called without a receiver (C.m(obj, x), or by a decorator's
 * wrapper): its first argument is self, as Python's unbound call. */
static CallStatus call_unbound_method(AgVM *vm, ObjClosure *m, int argc, int nkw, ObjString *const *kwnames) {
  if (argc == 0) {
    vm_raise(vm, VM_ERR_TYPE, "%s() missing 1 required positional argument: 'self'", function_name(m->function));
    return CALL_ERROR;
  }
  Value *first = vm->exec.stack_top - nkw - argc;
  first[-1] = first[0];
  memmove(first, first + 1, sizeof(Value) * (size_t)(argc - 1 + nkw));
  vm->exec.stack_top--;
  return vm_call_closure(vm, m, argc - 1, nkw, kwnames, false);
}

/* Calls a method with the receiver already in the callee slot: a method
 * closure or a native (the common cases, first), else a plain function, a
 * property or any other member (out of the way). */
CallStatus vm_call_method(AgVM *vm, Value method, Value receiver, int argc, int nkw,
                              ObjString *const *kwnames, bool is_init) {
  if (IS_CLOSURE(method)) {
    if (AS_CLOSURE(method)->function->is_method)
      return vm_call_closure(vm, AS_CLOSURE(method), argc, nkw, kwnames, is_init);
    return call_function_as_method(vm, AS_CLOSURE(method), receiver, argc, nkw, kwnames);
  }
  if (IS_NATIVE(method)) {
    CallStatus s = call_native(vm, AS_NATIVE(method), receiver, argc, nkw, kwnames);
    if (s == CALL_DONE && is_init) vm->exec.stack_top[-1] = receiver;
    return s;
  }
  return vm_call_descriptor(vm, method, receiver, argc, nkw, kwnames);
}

static CallStatus construct(AgVM *vm, ObjClass *klass, int argc, int nkw, ObjString *const *kwnames) {
  Value *slot = vm->exec.stack_top - nkw - argc - 1;
  if (!IS_NIL(klass->convert)) return call_native(vm, AS_NATIVE(klass->convert), NIL_VAL, argc, nkw, kwnames);
  if (klass->parent == NULL && vm_is_builtin_type(vm, klass)) {
    vm_raise(vm, VM_ERR_TYPE, "cannot create '%s' instances", klass->name->chars);
    return CALL_ERROR;
  }
  ObjInstance *inst = obj_new_instance(vm, klass);
  *slot = OBJ_VAL(inst);
  if (IS_NIL(klass->init)) {
    if (argc + nkw > 0) {
      vm_raise(vm, VM_ERR_TYPE, "%s() takes no arguments (the class has no init) but %d were given", klass->name->chars,
                     argc + nkw);
      return CALL_ERROR;
    }
    vm->exec.stack_top = slot + 1;
    return CALL_DONE;
  }
  return vm_call_method(vm, klass->init, *slot, argc, nkw, kwnames, true);
}

CallStatus vm_call_value(AgVM *vm, Value callee, int argc, int nkw, ObjString *const *kwnames) {
  if (IS_OBJ(callee)) {
    switch (OBJ_TYPE(callee)) {
    case OBJ_CLOSURE:
      if (AS_CLOSURE(callee)->function->is_method) return call_unbound_method(vm, AS_CLOSURE(callee), argc, nkw, kwnames);
      return vm_call_closure(vm, AS_CLOSURE(callee), argc, nkw, kwnames, false);
    case OBJ_NATIVE: return call_native(vm, AS_NATIVE(callee), NIL_VAL, argc, nkw, kwnames);
    case OBJ_BOUND_METHOD: {
      ObjBoundMethod *b = AS_BOUND_METHOD(callee);
      vm->exec.stack_top[-argc - nkw - 1] = b->receiver;
      return vm_call_method(vm, b->method, b->receiver, argc, nkw, kwnames, false);
    }
    case OBJ_CLASS: return construct(vm, AS_CLASS(callee), argc, nkw, kwnames);
    case OBJ_DTYPE: { /* float(x), bool(x): a dtype is also its conversion */
      Value convert = vm->core.dtype_call[AS_DTYPE(callee)->dtype];
      if (IS_NATIVE(convert)) return call_native(vm, AS_NATIVE(convert), NIL_VAL, argc, nkw, kwnames);
      break;
    }
    case OBJ_INSTANCE: {
      Value method;
      if (table_get(&AS_INSTANCE(callee)->klass->methods, OBJ_VAL(vm->core.call_string), &method)) {
        return vm_call_method(vm, method, callee, argc, nkw, kwnames, false);
      }
      vm_raise(vm, VM_ERR_TYPE, "%s instance is not callable (its class has no call method)", vm_type_name(callee));
      return CALL_ERROR;
    }
    default: break;
    }
  }
  vm_raise(vm, VM_ERR_TYPE, "cannot call %s", vm_type_name(callee));
  return CALL_ERROR;
}

/* recv.name(args) with recv in the callee slot; no bound method is made. */
CallStatus vm_invoke_slot(AgVM *vm, ObjString *name, int argc, int nkw, ObjString *const *kwnames) {
  Value *slot = vm->exec.stack_top - nkw - argc - 1;
  Value receiver = *slot;
  Value method;
  if (IS_INSTANCE(receiver)) {
    ObjInstance *inst = AS_INSTANCE(receiver);
    if (inst->fields.count > 0 && table_get(&inst->fields, OBJ_VAL(name), &method)) {
      *slot = method;
      return vm_call_value(vm, method, argc, nkw, kwnames);
    }
    if (table_get(&inst->klass->methods, OBJ_VAL(name), &method)) {
      return vm_call_method(vm, method, receiver, argc, nkw, kwnames, false);
    }
    vm_no_field(vm, receiver, name);
    return CALL_ERROR;
  }
  Table *methods = NULL;
  if (IS_LIST(receiver)) methods = &vm->core.list_methods;
  else if (IS_TUPLE(receiver)) methods = &vm->core.tuple_methods;
  else if (IS_STRING(receiver)) methods = &vm->core.string_methods;
  else if (IS_MAP(receiver)) methods = &vm->core.map_methods;
  else if (IS_SET(receiver)) methods = &vm->core.set_methods;
  else if (IS_GENERATOR(receiver)) methods = &vm->core.generator_methods;
  else if (IS_CLASS(receiver)) methods = &AS_CLASS(receiver)->methods;
  if (methods != NULL && table_get(methods, OBJ_VAL(name), &method)) {
    if (IS_CLASS(receiver) && IS_CLOSURE(method) && !AS_CLOSURE(method)->function->is_method) {
      *slot = method; /* C.f(x) with f a plain function (a decorator's wrapper): unbound */
      return vm_call_value(vm, method, argc, nkw, kwnames);
    }
    return vm_call_method(vm, method, receiver, argc, nkw, kwnames, false);
  }
  if (IS_TENSOR(receiver) && vm->vmap.depth > 0 && vm_has_batched_argument(vm, argc + nkw, slot + 1)) {
    /* t.mul(batched): batched_dispatch("mul", t, ...args) */
    if (!insert_argument(vm, argc + nkw + 1, OBJ_VAL(name)) ||
        !insert_argument(vm, argc + nkw + 2, vm->vmap.dispatch))
      return stack_overflow(vm);
    return vm_call_closure(vm, AS_CLOSURE(vm->vmap.dispatch), argc + 2, nkw, kwnames, false);
  }
  if ((IS_TENSOR(receiver) || IS_NODE(receiver)) && vm->plugins.tensor != NULL) {
    Value *args = slot + 1;
    AgKwargs kw = {nkw, kwnames, args + argc};
    Value result = vm->plugins.tensor->invoke(vm, receiver, name, argc, args, &kw);
    if (IS_EXCEPTION(result)) return CALL_ERROR;
    vm->exec.stack_top = slot;
    push(vm, result);
    return CALL_DONE;
  }
  /* modules, and everything else: attribute lookup, then a call */
  Value callee = vm_get_attr(vm, receiver, name);
  if (IS_EXCEPTION(callee)) return CALL_ERROR;
  *slot = callee;
  return vm_call_value(vm, callee, argc, nkw, kwnames);
}

