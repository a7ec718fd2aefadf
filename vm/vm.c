/* vm.c — the dispatch loop and the entry points that run code (calls
 * themselves are in call.c).
 *
 * The loop keeps the current frame's ip and slots in locals and writes the
 * ip back (SYNC) before anything that may throw or call, so tracebacks see
 * where each frame is. Arithmetic and comparisons of ints and floats are
 * inline (arith.h); other operand types, boxed ints and every error take the
 * slow paths in ops.c and number.c. Natives may call back into
 * Ag (vm_call), which runs a nested loop down to the frame it pushed; an
 * exception that no handler of those frames catches travels back up as
 * VM_EXCEPTION.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vm/arith.h"
#include "vm/buffer.h"
#include "vm/internal.h"
#include "vm/opcodes.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(AG_NO_COMPUTED_GOTO)
#define VM_COMPUTED_GOTO 1
#endif
#if defined(__GNUC__) || defined(__clang__)
#define VM_UNREACHABLE() __builtin_unreachable()
#else
#define VM_UNREACHABLE() ((void)0)
#endif

static inline void push(AgVM *vm, Value v) { *vm->exec.stack_top++ = v; }
static inline Value pop(AgVM *vm) { return *--vm->exec.stack_top; }
static inline Value peek(AgVM *vm, int distance) { return vm->exec.stack_top[-1 - distance]; }

/* ---- upvalues ---- */

static ObjUpvalue *capture_upvalue(AgVM *vm, Value *local) {
  ObjUpvalue *prev = NULL;
  ObjUpvalue *u = vm->exec.open_upvalues;
  while (u != NULL && u->location > local) {
    prev = u;
    u = u->next;
  }
  if (u != NULL && u->location == local) return u;
  ObjUpvalue *created = obj_new_upvalue(vm, local);
  created->next = u;
  if (prev == NULL) vm->exec.open_upvalues = created;
  else prev->next = created;
  return created;
}

static void close_upvalues(AgVM *vm, Value *last) {
  while (vm->exec.open_upvalues != NULL && vm->exec.open_upvalues->location >= last) {
    ObjUpvalue *u = vm->exec.open_upvalues;
    u->closed = *u->location;
    u->location = &u->closed;
    vm->exec.open_upvalues = u->next;
  }
}

/* ---- exceptions ---- */

static void forget_unfinished_modules(AgVM *vm, int from_frame) {
  for (int i = from_frame; i < vm->exec.frame_count; i++) {
    ObjModule *m = vm->exec.frames[i].module_init;
    if (m != NULL && m->path != NULL) table_remove(&vm->globals.modules, OBJ_VAL(m->path));
  }
}

/* Unwinds to the innermost handler at or above frame `base`; false when
 * there is none (the frames down to base are popped). */
static bool unwind(AgVM *vm, int base) {
  if (!vm->exc.exiting && vm->exec.handler_count > 0) {
    Handler *h = &vm->exec.handlers[vm->exec.handler_count - 1];
    if (h->frame_index >= base) {
      vm->exec.handler_count--;
      forget_unfinished_modules(vm, h->frame_index + 1);
      vm->exec.frame_count = h->frame_index + 1;
      close_upvalues(vm, vm->exec.stack + h->stack_height);
      vm->exec.stack_top = vm->exec.stack + h->stack_height;
      push(vm, vm_take_exception(vm));
      vm->exc.trace = NULL;
      vm->exec.frames[vm->exec.frame_count - 1].ip = h->catch_ip;
      return true;
    }
  }
  forget_unfinished_modules(vm, base);
  close_upvalues(vm, vm->exec.frames[base].slots);
  vm->exec.stack_top = vm->exec.frames[base].slots;
  vm->exec.frame_count = base;
  while (vm->exec.handler_count > 0 && vm->exec.handlers[vm->exec.handler_count - 1].frame_index >= base) vm->exec.handler_count--;
  return false;
}

void vm_push_handler(AgVM *vm, uint8_t *catch_ip) {
  if (vm->exec.handler_count == vm->exec.handler_capacity) {
    int cap = AG_GROW_CAPACITY(vm->exec.handler_capacity);
    Handler *grown = realloc(vm->exec.handlers, sizeof(Handler) * (size_t)cap);
    if (grown == NULL) vm_out_of_memory(vm, sizeof(Handler) * (size_t)cap);
    vm->exec.handlers = grown;
    vm->exec.handler_capacity = cap;
  }
  Handler *h = &vm->exec.handlers[vm->exec.handler_count++];
  h->frame_index = vm->exec.frame_count - 1;
  h->stack_height = (int)(vm->exec.stack_top - vm->exec.stack);
  h->catch_ip = catch_ip;
}

/* ---- helpers of single opcodes ---- */

static Value make_tuple(AgVM *vm, int n) { return OBJ_VAL(obj_new_tuple(vm, vm->exec.stack_top - n, n)); }

static Value make_list(AgVM *vm, int n) {
  ObjList *list = obj_new_list(vm);
  if (n > 0) {
    vm_push_root(vm, OBJ_VAL(list));
    list->items = AG_ALLOCATE(vm, Value, n);
    vm_pop_root(vm);
    list->capacity = n;
    memcpy(list->items, vm->exec.stack_top - n, sizeof(Value) * (size_t)n);
    list->count = n;
  }
  return OBJ_VAL(list);
}

static Value make_map(AgVM *vm, int pairs) {
  ObjMap *map = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(map));
  Value *kv = vm->exec.stack_top - 2 * pairs;
  for (int i = 0; i < pairs; i++) {
    if (!vm_map_put(vm, map, kv[2 * i], kv[2 * i + 1])) {
      vm_pop_root(vm);
      return VM_EXCEPTION;
    }
  }
  vm_pop_root(vm);
  return OBJ_VAL(map);
}

/* Python's messages for a count that does not fit the targets. */
static bool unpack_count_error(AgVM *vm, int expected, int64_t got, bool at_least) {
  if (got > expected && !at_least) vm_raise(vm, VM_ERR_VALUE, "too many values to unpack (expected %d)", expected);
  else vm_raise(vm, VM_ERR_VALUE, "not enough values to unpack (expected %s%d, got %lld)", at_least ? "at least " : "",
                      expected, (long long)got);
  return false;
}

/* Python's message for a value no for loop could walk (a number, nil, a
 * function ...); an instance's own iter() decides for itself. */
static bool check_unpackable(AgVM *vm, Value seq) {
  if (IS_OBJ(seq)) {
    switch (OBJ_TYPE(seq)) {
    case OBJ_LIST: case OBJ_TUPLE: case OBJ_STRING: case OBJ_RANGE: case OBJ_MAP: case OBJ_SET:
    case OBJ_TENSOR: case OBJ_INSTANCE: return true;
    default: break;
    }
  }
  vm_raise(vm, VM_ERR_TYPE, "cannot unpack non-iterable %s object", vm_type_name(seq));
  return false;
}

/* Pushes the n items of seq; stops at item n + 1, as Python does (an endless
 * iterator is "too many values", not a hang). */
static bool unpack(AgVM *vm, Value seq, int n) {
  if (is_list_or_tuple(seq)) {
    ObjList *l = AS_LIST(seq);
    if (l->count != n) return unpack_count_error(vm, n, l->count, false);
    for (int i = 0; i < n; i++) push(vm, l->items[i]);
    return true;
  }
  Value walk = check_unpackable(vm, seq) ? vm_iter_prepare(vm, seq) : VM_EXCEPTION;
  if (IS_EXCEPTION(walk)) return false;
  vm_push_root(vm, walk);
  double pos = 0;
  Value item;
  int got = 0, status = 0; /* n may be 0: the loop may not run */
  while (got <= n && (status = vm_iter_next(vm, walk, &pos, &item)) == 1) {
    if (got++ < n) push(vm, item);
  }
  vm_pop_root(vm);
  if (status < 0) return false;
  return got == n || unpack_count_error(vm, n, got, false);
}

/* before items, a list of the middle ones, after items (`a, *rest, z = xs`). */
static bool unpack_star(AgVM *vm, Value seq, int before, int after) {
  ObjList *all = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(all));
  bool ok = check_unpackable(vm, seq) && vm_extend_list(vm, all, seq);
  if (ok && all->count < before + after) ok = unpack_count_error(vm, before + after, all->count, true);
  if (!ok) {
    vm_pop_root(vm);
    return false;
  }
  for (int i = 0; i < before; i++) push(vm, all->items[i]);
  ObjList *rest = obj_new_list(vm);
  push(vm, OBJ_VAL(rest));
  for (int i = before; i < all->count - after; i++) obj_list_append(vm, rest, all->items[i]);
  for (int i = all->count - after; i < all->count; i++) push(vm, all->items[i]);
  vm_pop_root(vm);
  return true;
}

/* f-string pieces: strings and numbers are appended directly, so no
 * intermediate strings are made (or interned). */
static Value build_string(AgVM *vm, int n) {
  VmBuf b;
  vm_buf_init(&b);
  for (int i = n; i > 0; i--) {
    Value v = peek(vm, i - 1);
    if (IS_NUMBER(v)) {
      char num[64];
      int len = vm_format_num(v, num, sizeof num);
      vm_buf_add(&b, num, (size_t)len);
      continue;
    }
    if (!IS_STRING(v)) { /* an instance through its format method (Python's format(v, "")) */
      v = IS_INSTANCE(v) ? vm_format_value(vm, v, "") : vm_to_str(vm, v);
      if (IS_EXCEPTION(v)) {
        vm_buf_free(&b);
        return v;
      }
    }
    vm_buf_add(&b, AS_CSTRING(v), (size_t)AS_STRING(v)->length);
  }
  return OBJ_VAL(vm_buf_to_string(vm, &b));
}

/* NameError for global `slot`, with a hint: "did you mean `print`?". */
static void undefined_variable(AgVM *vm, int slot, bool assigning) {
  const char *name = vm->globals.names[slot]->chars;
  char hint[128];
  vm_raise(vm, VM_ERR_NAME, "undefined variable '%s'%s", name, vm_name_hint(vm, name, assigning, hint, sizeof hint));
}

static bool inherit(AgVM *vm, Value parent, ObjClass *klass) {
  if (!IS_CLASS(parent)) {
    vm_raise(vm, VM_ERR_TYPE, "class %s: the parent must be a class, not %s", klass->name->chars, vm_type_name(parent));
    return false;
  }
  ObjClass *p = AS_CLASS(parent);
  table_add_all(vm, &p->methods, &klass->methods);
  klass->parent = p;
  klass->init = p->init;
  klass->has_properties = p->has_properties;
  return true;
}

/* `/`'s operator methods have two names, Ag's div and Python's truediv:
 * defining either defines both. */
static void define_operator_alias(AgVM *vm, ObjClass *klass, ObjString *name, Value method) {
  static const char *const pairs[][2] = {{"div", "truediv"}, {"rdiv", "rtruediv"}, {"idiv", "itruediv"}};
  if (name->length < 3 || name->length > 8) return;
  for (int i = 0; i < 3; i++) {
    for (int side = 0; side < 2; side++) {
      if (strcmp(name->chars, pairs[i][side]) != 0) continue;
      ObjString *other = obj_string(vm, pairs[i][1 - side]);
      vm_push_root(vm, OBJ_VAL(other));
      table_set(vm, &klass->methods, OBJ_VAL(other), method);
      vm_pop_root(vm);
      return;
    }
  }
}

static void define_method(AgVM *vm, ObjString *name) {
  Value method = peek(vm, 0);
  ObjClass *klass = AS_CLASS(peek(vm, 1));
  table_set(vm, &klass->methods, OBJ_VAL(name), method);
  define_operator_alias(vm, klass, name, method);
  if (name == vm->core.init_string) klass->init = method;
  if (vm_is_property(vm, method)) klass->has_properties = true;
  pop(vm);
}

static void repl_show(AgVM *vm, Value v) {
  if (IS_NIL(v)) return;
  Value r = vm_to_repr(vm, v);
  if (IS_EXCEPTION(r)) return;
  if (vm->host.repl_print != NULL) {
    vm->host.repl_print(vm, v, AS_STRING(r));
  } else {
    fwrite(AS_CSTRING(r), 1, (size_t)AS_STRING(r)->length, stdout);
    fputc('\n', stdout);
  }
  vm_set_global(vm, "_", v);
}

static void kw_names_of(Value list, ObjString **out) {
  ObjList *l = AS_LIST(list);
  for (int i = 0; i < l->count && i < VM_KW_MAX; i++) out[i] = AS_STRING(l->items[i]);
}

/* Pushes the list's items as positional arguments (CALL_SPREAD). */
static bool spread_arguments(AgVM *vm, int nkw, int *argc) {
  Value kwvals[VM_KW_MAX];
  for (int i = 0; i < nkw; i++) kwvals[i] = vm->exec.stack_top[-nkw + i];
  Value list = vm->exec.stack_top[-nkw - 1];
  if (!IS_LIST(list)) {
    vm_raise(vm, VM_ERR_TYPE, "spread arguments must be a list, not %s", vm_type_name(list));
    return false;
  }
  ObjList *l = AS_LIST(list);
  if (vm->exec.stack_top + l->count + nkw + 16 > vm->exec.stack_limit - VM_STACK_MAX / 2) {
    vm_throw_error(vm, "too many arguments in a spread call (%d)", l->count);
    return false;
  }
  vm->exec.stack_top -= nkw + 1;
  /* The list stays alive through its items being on the stack; the list
   * object itself is not needed after copying. */
  for (int i = 0; i < l->count; i++) push(vm, l->items[i]);
  for (int i = 0; i < nkw; i++) push(vm, kwvals[i]);
  *argc = l->count;
  return true;
}

/* KW_MERGE: map, m -> map, the keywords of a call with `**m`. */
static bool merge_keywords(AgVM *vm, ObjMap *into, Value m) {
  if (!IS_MAP(m)) {
    vm_throw_error(vm, "argument after ** must be a map, not %s", vm_type_name(m));
    return false;
  }
  Table *t = &AS_MAP(m)->table;
  for (int i = 0; i < t->used; i++) {
    TableEntry *e = &t->entries[i];
    if (IS_UNDEF(e->key)) continue;
    if (!IS_STRING(e->key)) {
      vm_throw_error(vm, "keywords must be strings, not %s", vm_type_name(e->key));
      return false;
    }
    if (table_find(&into->table, e->key) != NULL) {
      vm_throw_error(vm, "got multiple values for keyword argument '%s'", AS_CSTRING(e->key));
      return false;
    }
    table_set(vm, &into->table, e->key, e->value);
  }
  return true;
}

/* CALL_EX: callee, list, map -> callee, items..., values... with the keys'
 * names in kwnames; false after throwing. */
static bool expand_call(AgVM *vm, ObjString **kwnames, int *argc, int *nkw) {
  ObjMap *map = AS_MAP(vm->exec.stack_top[-1]);
  if (map->table.count > VM_KW_MAX) {
    vm_throw_error(vm, "too many keyword arguments (%d; the limit is %d)", map->table.count, VM_KW_MAX);
    return false;
  }
  vm->exec.stack_top--; /* the map stays rooted by the caller: its keys are the names */
  if (!spread_arguments(vm, 0, argc)) return false;
  if (vm->exec.stack_top + map->table.count + 16 > vm->exec.stack_limit - VM_STACK_MAX / 2) {
    vm_throw_error(vm, "too many arguments in a call");
    return false;
  }
  *nkw = 0;
  for (int i = 0; i < map->table.used; i++) {
    TableEntry *e = &map->table.entries[i];
    if (IS_UNDEF(e->key)) continue;
    kwnames[(*nkw)++] = AS_STRING(e->key);
    push(vm, e->value);
  }
  return true;
}

/* ---- helpers of the dispatch loop's cases ---- */

/* The slot of list item `index` when obj is a list and index a small int in
 * range, else NULL (the slow path raises the errors). */
static inline Value *list_item(Value obj, Value index) {
  if (!IS_LIST(obj) || !IS_SMALLINT(index)) return NULL;
  ObjList *l = AS_LIST(obj);
  int64_t i = AS_SMALLINT(index);
  return i >= 0 && i < l->count ? &l->items[i] : NULL;
}

/* -a for a float or a small int whose negation is one. */
static inline bool negate_fast(Value a, Value *out) {
  if (IS_FLOAT(a)) {
    *out = FLOAT_VAL(-AS_FLOAT(a));
    return true;
  }
  if (!IS_SMALLINT(a) || AS_SMALLINT(a) == AG_SMALLINT_MIN) return false;
  *out = SMALLINT_VAL(-AS_SMALLINT(a));
  return true;
}

/* Truthiness, booleans inline; -1 after throwing. */
static inline int truth(AgVM *vm, Value v) { return IS_BOOL(v) ? AS_BOOL(v) : vm_truthy(vm, v); }

/* Item pos of a range into *v; true when the walk is done. */
static inline bool range_next(const ObjRange *r, int64_t pos, int64_t *v) {
  if (__builtin_mul_overflow(pos, r->step, v) || __builtin_add_overflow(*v, r->start, v)) return true;
  return r->step > 0 ? *v >= r->stop : *v <= r->stop;
}

/* One step of a for loop: state[0] is the sequence, state[1] the position
 * (a small int), both hidden locals. 1: *item is the next item; 0: done;
 * -1: thrown. Lists and ranges inline; the rest in ops.c. */
static inline int iter_step(AgVM *vm, Value *state, Value *item) {
  Value seq = state[0];
  int64_t pos = AS_SMALLINT(state[1]);
  if (IS_LIST(seq)) {
    if (pos >= AS_LIST(seq)->count) return 0;
    *item = AS_LIST(seq)->items[pos];
  } else if (IS_RANGE(seq)) {
    int64_t v;
    if (range_next(AS_RANGE(seq), pos, &v)) return 0;
    *item = INT_VAL(vm, v);
  } else {
    double next = (double)pos;
    int status = vm_iter_next(vm, seq, &next, item);
    if (status <= 0) return status;
    state[1] = SMALLINT_VAL((int64_t)next);
    return 1;
  }
  state[1] = SMALLINT_VAL(pos + 1);
  return 1;
}

/* CALL of a closure with exactly its parameters and room on the stacks:
 * pushes its frame (vm->exec.stack_top current) and returns true; else false,
 * for vm_call_value (rest parameters, keyword binding, errors ...). */
static inline bool enter_closure(AgVM *vm, Value callee, int argc) {
  if (!IS_CLOSURE(callee)) return false;
  ObjClosure *closure = AS_CLOSURE(callee);
  ObjFunction *f = closure->function;
  if (argc != f->arity || f->plain_call_slow || vm->exec.frame_count >= VM_FRAMES_MAX ||
      vm->exec.stack_top + f->max_slots + 16 > vm->exec.stack_limit || tensor_interrupt_requested) {
    return false;
  }
  CallFrame *frame = &vm->exec.frames[vm->exec.frame_count++];
  frame->closure = closure;
  frame->ip = f->chunk.code;
  frame->slots = vm->exec.stack_top - argc - 1;
  frame->module_init = NULL;
  frame->is_init = false;
  return true;
}

/* RETURN's bookkeeping: closes the frame's upvalues, drops its handlers and
 * pops it; returns what the call gives (the instance for a constructor,
 * the module for a module's top level). */
static inline Value leave_frame(AgVM *vm, Value result) {
  CallFrame *frame = &vm->exec.frames[vm->exec.frame_count - 1];
  close_upvalues(vm, frame->slots);
  int index = vm->exec.frame_count - 1;
  while (vm->exec.handler_count > 0 && vm->exec.handlers[vm->exec.handler_count - 1].frame_index >= index) vm->exec.handler_count--;
  if (frame->is_init) result = frame->slots[0];
  if (frame->module_init != NULL) {
    frame->module_init->state = MODULE_LOADED;
    result = OBJ_VAL(frame->module_init);
  }
  vm->exec.frame_count--;
  return result;
}

/* ---- the loop ---- */

/* Runs frames from the top one down to frame `base` (exclusive): returns the
 * value the frame at base + 1 returned, or VM_EXCEPTION when an exception
 * leaves it. Each case is one base opcode (opcodes.h says what it does);
 * the helper macros are in dispatch.h, the superinstructions' cases in
 * quick_cases.h. Never inlined into run_guarded: a function that calls
 * sigsetjmp keeps its locals in memory, which would slow every instruction. */
__attribute__((noinline)) static Value run(AgVM *vm, int base) {
  CallFrame *frame;
  uint8_t *ip;
  Value *slots;
  Value *constants;
  Value *sp;

#include "vm/dispatch.h"

#ifdef VM_COMPUTED_GOTO
  static void *dispatch_table[] = {
#define AG_OPCODE_LABEL(name, operands, effect) &&L_##name,
#define VM_QUICK_LABEL(name, ...) &&Q_##name,
      AG_OPCODES(AG_OPCODE_LABEL) VM_QUICK_OPCODES(VM_QUICK_LABEL)
#undef AG_OPCODE_LABEL
#undef VM_QUICK_LABEL
  };
#endif

  LOAD_FRAME();
#ifdef VM_COMPUTED_GOTO
  VM_DISPATCH();
#else
dispatch:
  switch (*ip++) {
#endif

  VM_CASE(CONSTANT) {
    PUSH(READ_CONSTANT());
    VM_DISPATCH();
  }
  VM_CASE(NIL) {
    PUSH(NIL_VAL);
    VM_DISPATCH();
  }
  VM_CASE(TRUE) {
    PUSH(TRUE_VAL);
    VM_DISPATCH();
  }
  VM_CASE(FALSE) {
    PUSH(FALSE_VAL);
    VM_DISPATCH();
  }
  VM_CASE(ELLIPSIS) {
    PUSH(vm->core.ellipsis);
    VM_DISPATCH();
  }
  VM_CASE(POP) {
    sp--;
    VM_DISPATCH();
  }
  VM_CASE(DUP) {
    Value v = PEEK(0);
    PUSH(v);
    VM_DISPATCH();
  }
  VM_CASE(DUP2) {
    Value a = PEEK(1), b = PEEK(0);
    PUSH(a);
    PUSH(b);
    VM_DISPATCH();
  }
  VM_CASE(DUP_UNDER) {
    Value a = PEEK(1), b = PEEK(0);
    sp[-2] = b;
    sp[-1] = a;
    PUSH(b);
    VM_DISPATCH();
  }
  VM_CASE(NIP) {
    sp[-2] = sp[-1];
    sp--;
    VM_DISPATCH();
  }
  VM_CASE(GET_LOCAL) {
    PUSH(slots[READ_BYTE()]);
    VM_DISPATCH();
  }
  VM_CASE(SET_LOCAL) {
    slots[READ_BYTE()] = PEEK(0);
    VM_DISPATCH();
  }
  VM_CASE(GET_UPVALUE) {
    PUSH(*frame->closure->upvalues[READ_BYTE()]->location);
    VM_DISPATCH();
  }
  VM_CASE(SET_UPVALUE) {
    *frame->closure->upvalues[READ_BYTE()]->location = PEEK(0);
    VM_DISPATCH();
  }
  VM_CASE(GET_GLOBAL) {
    uint16_t slot = READ_SHORT();
    Value v = vm->globals.values[slot];
    if (IS_UNDEF(v)) {
      SYNC();
      undefined_variable(vm, slot, false);
      THROW();
    }
    PUSH(v);
    VM_DISPATCH();
  }
  VM_CASE(DEFINE_GLOBAL) {
    vm->globals.values[READ_SHORT()] = POP();
    VM_DISPATCH();
  }
  VM_CASE(SET_GLOBAL) {
    uint16_t slot = READ_SHORT();
    if (IS_UNDEF(vm->globals.values[slot])) {
      SYNC();
      undefined_variable(vm, slot, true);
      THROW();
    }
    vm->globals.values[slot] = PEEK(0);
    VM_DISPATCH();
  }
  VM_CASE(GET_FIELD) {
    ObjString *name = READ_STRING();
    Value obj = PEEK(0);
    Value v;
    if (IS_INSTANCE(obj) && table_get(&AS_INSTANCE(obj)->fields, OBJ_VAL(name), &v)) {
      sp[-1] = v;
      VM_DISPATCH();
    }
    SYNC();
    v = vm_get_attr(vm, obj, name);
    CHECK(v);
    sp[-1] = v;
    VM_DISPATCH();
  }
  VM_CASE(SET_FIELD) {
    ObjString *name = READ_STRING();
    Value obj = PEEK(1), v = PEEK(0);
    SYNC();
    if (IS_INSTANCE(obj) && !AS_INSTANCE(obj)->klass->has_properties) {
      table_set(vm, &AS_INSTANCE(obj)->fields, OBJ_VAL(name), v);
    } else {
      CHECK(vm_set_attr(vm, obj, name, v));
    }
    sp -= 2;
    PUSH(v);
    VM_DISPATCH();
  }
  VM_CASE(GET_INDEX) {
    Value *item = list_item(PEEK(1), PEEK(0));
    if (item != NULL) {
      sp--;
      sp[-1] = *item;
      VM_DISPATCH();
    }
    SYNC();
    Value v = vm_get_index_n(vm, PEEK(1), 1, &sp[-1]);
    CHECK(v);
    sp--;
    sp[-1] = v;
    VM_DISPATCH();
  }
  VM_CASE(GET_INDEX_N) {
    int n = READ_BYTE();
    SYNC();
    Value v = vm_get_index_n(vm, PEEK(n), n, sp - n);
    CHECK(v);
    sp -= n;
    sp[-1] = v;
    VM_DISPATCH();
  }
  VM_CASE(SET_INDEX) {
    Value v = PEEK(0);
    Value *item = list_item(PEEK(2), PEEK(1));
    if (item != NULL) {
      *item = v;
    } else {
      SYNC();
      CHECK(vm_set_index_n(vm, PEEK(2), 1, &sp[-2], v));
    }
    sp -= 2;
    sp[-1] = v;
    VM_DISPATCH();
  }
  VM_CASE(SET_INDEX_N) {
    int n = READ_BYTE();
    Value v = PEEK(0);
    SYNC();
    CHECK(vm_set_index_n(vm, PEEK(n + 1), n, sp - n - 1, v));
    sp -= n + 1;
    sp[-1] = v;
    VM_DISPATCH();
  }
  VM_CASE(SLICE) {
    SYNC();
    ObjSlice *s = obj_new_slice(vm, PEEK(2), PEEK(1), PEEK(0));
    sp -= 2;
    sp[-1] = OBJ_VAL(s);
    VM_DISPATCH();
  }
  VM_CASE(GET_SUPER) {
    ObjString *name = READ_STRING();
    ObjClass *parent = AS_CLASS(PEEK(0));
    SYNC();
    Value method;
    if (!table_get(&parent->methods, OBJ_VAL(name), &method)) {
      vm_raise(vm, VM_ERR_ATTRIBUTE, "class %s has no method '%s'", parent->name->chars, name->chars);
      THROW();
    }
    ObjBoundMethod *b = obj_new_bound_method(vm, PEEK(1), method);
    sp--;
    sp[-1] = OBJ_VAL(b);
    VM_DISPATCH();
  }
  VM_CASE(EQUAL) {
    COMPARISON(EQUAL);
    VM_DISPATCH();
  }
  VM_CASE(NOT_EQUAL) {
    COMPARISON(NOT_EQUAL);
    VM_DISPATCH();
  }
  VM_CASE(LESS) {
    COMPARISON(LESS);
    VM_DISPATCH();
  }
  VM_CASE(LESS_EQUAL) {
    COMPARISON(LESS_EQUAL);
    VM_DISPATCH();
  }
  VM_CASE(GREATER) {
    COMPARISON(GREATER);
    VM_DISPATCH();
  }
  VM_CASE(GREATER_EQUAL) {
    COMPARISON(GREATER_EQUAL);
    VM_DISPATCH();
  }
  VM_CASE(IN) {
    SLOW_BINARY(OP_IN);
    VM_DISPATCH();
  }
  VM_CASE(IS) {
    Value b = POP();
    sp[-1] = BOOL_VAL(vm_values_identical(sp[-1], b));
    VM_DISPATCH();
  }
  VM_CASE(ADD) {
    BINARY(ADD);
    VM_DISPATCH();
  }
  VM_CASE(SUBTRACT) {
    BINARY(SUBTRACT);
    VM_DISPATCH();
  }
  VM_CASE(MULTIPLY) {
    BINARY(MULTIPLY);
    VM_DISPATCH();
  }
  VM_CASE(DIVIDE) {
    BINARY(DIVIDE);
    VM_DISPATCH();
  }
  VM_CASE(MODULO) {
    BINARY(MODULO);
    VM_DISPATCH();
  }
  VM_CASE(POWER) {
    SLOW_BINARY(OP_POWER);
    VM_DISPATCH();
  }
  VM_CASE(FLOOR_DIVIDE) {
    BINARY(FLOOR_DIVIDE);
    VM_DISPATCH();
  }
  VM_CASE(MATMUL) {
    SLOW_BINARY(OP_MATMUL);
    VM_DISPATCH();
  }
  VM_CASE(BIT_OR) {
    SLOW_BINARY(OP_BIT_OR);
    VM_DISPATCH();
  }
  VM_CASE(BIT_AND) {
    SLOW_BINARY(OP_BIT_AND);
    VM_DISPATCH();
  }
  VM_CASE(BIT_XOR) {
    SLOW_BINARY(OP_BIT_XOR);
    VM_DISPATCH();
  }
  /* Augmented assignment: a number on the left rebinds, as the plain op. */
  VM_CASE(INPLACE_ADD) {
    if (IS_NUMBER(PEEK(1))) goto L_ADD;
    SLOW_INPLACE(OP_ADD);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_SUBTRACT) {
    if (IS_NUMBER(PEEK(1))) goto L_SUBTRACT;
    SLOW_INPLACE(OP_SUBTRACT);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_MULTIPLY) {
    if (IS_NUMBER(PEEK(1))) goto L_MULTIPLY;
    SLOW_INPLACE(OP_MULTIPLY);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_DIVIDE) {
    if (IS_NUMBER(PEEK(1))) goto L_DIVIDE;
    SLOW_INPLACE(OP_DIVIDE);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_MODULO) {
    if (IS_NUMBER(PEEK(1))) goto L_MODULO;
    SLOW_INPLACE(OP_MODULO);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_POWER) {
    SLOW_INPLACE(OP_POWER);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_FLOOR_DIVIDE) {
    if (IS_NUMBER(PEEK(1))) goto L_FLOOR_DIVIDE;
    SLOW_INPLACE(OP_FLOOR_DIVIDE);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_MATMUL) {
    SLOW_INPLACE(OP_MATMUL);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_BIT_OR) {
    SLOW_INPLACE(OP_BIT_OR);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_BIT_AND) {
    SLOW_INPLACE(OP_BIT_AND);
    VM_DISPATCH();
  }
  VM_CASE(INPLACE_BIT_XOR) {
    SLOW_INPLACE(OP_BIT_XOR);
    VM_DISPATCH();
  }
  VM_CASE(NEGATE) {
    Value r;
    if (negate_fast(PEEK(0), &r)) sp[-1] = r;
    else SLOW_UNARY(OP_NEGATE);
    VM_DISPATCH();
  }
  VM_CASE(POSITIVE) {
    SLOW_UNARY(OP_POSITIVE);
    VM_DISPATCH();
  }
  VM_CASE(INVERT) {
    SLOW_UNARY(OP_INVERT);
    VM_DISPATCH();
  }
  VM_CASE(NOT) {
    SYNC();
    int t = truth(vm, PEEK(0));
    if (t < 0) THROW();
    sp[-1] = BOOL_VAL(!t);
    VM_DISPATCH();
  }
  VM_CASE(JUMP) {
    uint16_t offset = READ_SHORT();
    ip += offset;
    VM_DISPATCH();
  }
  VM_CASE(JUMP_IF_FALSE) {
    uint16_t offset = READ_SHORT();
    SYNC(); /* the condition stays on the stack (rooted) while it is tested */
    int t = truth(vm, PEEK(0));
    if (t < 0) THROW();
    sp--;
    if (!t) { /* a branch, not a conditional move (see JUMP_UNLESS in quick_cases.h) */
      ip += offset;
      VM_DISPATCH();
    }
    VM_DISPATCH();
  }
  VM_CASE(AND) {
    uint16_t offset = READ_SHORT();
    SYNC();
    int t = vm_truthy(vm, PEEK(0));
    if (t < 0) THROW();
    if (!t) ip += offset;
    else sp--;
    VM_DISPATCH();
  }
  VM_CASE(OR) {
    uint16_t offset = READ_SHORT();
    SYNC();
    int t = vm_truthy(vm, PEEK(0));
    if (t < 0) THROW();
    if (t) ip += offset;
    else sp--;
    VM_DISPATCH();
  }
  VM_CASE(LOOP) {
    LOOP_BACK();
    VM_DISPATCH();
  }
  VM_CASE(CALL) {
    int argc = READ_BYTE();
    SYNC();
    if (enter_closure(vm, PEEK(argc), argc)) {
      LOAD_FRAME();
      VM_DISPATCH();
    }
    AFTER_CALL(vm_call_value(vm, PEEK(argc), argc, 0, NULL));
    VM_DISPATCH();
  }
  VM_CASE(CALL_KW) {
    int argc = READ_BYTE();
    int nkw = READ_BYTE();
    Value names = READ_CONSTANT();
    SYNC();
    ObjString *kwnames[VM_KW_MAX];
    kw_names_of(names, kwnames);
    AFTER_CALL(vm_call_value(vm, PEEK(argc + nkw), argc, nkw, kwnames));
    VM_DISPATCH();
  }
  VM_CASE(CALL_SPREAD) {
    int nkw = READ_BYTE();
    Value names = READ_CONSTANT();
    SYNC();
    ObjString *kwnames[VM_KW_MAX];
    kw_names_of(names, kwnames);
    int argc;
    if (!spread_arguments(vm, nkw, &argc)) THROW();
    LOAD_SP();
    AFTER_CALL(vm_call_value(vm, PEEK(argc + nkw), argc, nkw, kwnames));
    VM_DISPATCH();
  }
  VM_CASE(KW_MERGE) {
    SYNC();
    if (!merge_keywords(vm, AS_MAP(PEEK(1)), PEEK(0))) THROW();
    sp--;
    VM_DISPATCH();
  }
  VM_CASE(CALL_EX) {
    SYNC();
    ObjString *kwnames[VM_KW_MAX];
    int argc, nkw;
    vm_push_root(vm, PEEK(0));
    if (!expand_call(vm, kwnames, &argc, &nkw)) {
      vm_pop_root(vm);
      THROW();
    }
    LOAD_SP();
    CallStatus status = vm_call_value(vm, PEEK(argc + nkw), argc, nkw, kwnames);
    vm_pop_root(vm);
    AFTER_CALL(status);
    VM_DISPATCH();
  }
  VM_CASE(INVOKE) {
    ObjString *name = READ_STRING();
    int argc = READ_BYTE();
    SYNC();
    AFTER_CALL(vm_invoke_slot(vm, name, argc, 0, NULL));
    VM_DISPATCH();
  }
  VM_CASE(SUPER_INVOKE) {
    ObjString *name = READ_STRING();
    int argc = READ_BYTE();
    ObjClass *parent = AS_CLASS(POP());
    SYNC();
    Value method;
    if (!table_get(&parent->methods, OBJ_VAL(name), &method)) {
      vm_raise(vm, VM_ERR_ATTRIBUTE, "class %s has no method '%s'", parent->name->chars, name->chars);
      THROW();
    }
    AFTER_CALL(vm_call_method(vm, method, PEEK(argc), argc, 0, NULL, false));
    VM_DISPATCH();
  }
  VM_CASE(CLOSURE) {
    ObjFunction *f = AS_FUNCTION(READ_CONSTANT());
    SYNC();
    ObjClosure *closure = obj_new_closure(vm, f);
    PUSH(OBJ_VAL(closure));
    SYNC(); /* capturing allocates upvalues: the closure must be on the stack */
    for (int i = 0; i < closure->upvalue_count; i++) {
      uint8_t is_local = READ_BYTE();
      uint8_t index = READ_BYTE();
      closure->upvalues[i] = is_local ? capture_upvalue(vm, slots + index) : frame->closure->upvalues[index];
    }
    VM_DISPATCH();
  }
  VM_CASE(CLOSE_UPVALUE) {
    close_upvalues(vm, sp - 1);
    sp--;
    VM_DISPATCH();
  }
  /* GENERATOR and YIELD leave the frame as RETURN does, each on its own
   * path: a jump into RETURN's code would slow every return (it costs fib
   * 7% more instructions) */
  VM_CASE(GENERATOR) {
    SYNC();
    Value generator = leave_frame(vm, vm_generator_start(vm));
    vm->exec.stack_top = slots;
    if (vm->exec.frame_count == base) return generator;
    *vm->exec.stack_top++ = generator;
    LOAD_FRAME();
    VM_DISPATCH();
  }
  VM_CASE(YIELD) {
    SYNC();
    if (!vm_generator_suspend(vm, base)) THROW();
    Value yielded = leave_frame(vm, POP());
    vm->exec.stack_top = slots;
    return yielded;
  }
  VM_CASE(RETURN) {
    Value result = leave_frame(vm, POP());
    if (vm->exec.frame_count == base) {
      vm->exec.stack_top = slots;
      return result;
    }
    /* The caller's frame is the one below; vm->exec.stack_top need not be
     * current inside the loop (see SYNC). */
    sp = slots;
    PUSH(result);
    frame--;
    ip = frame->ip;
    slots = frame->slots;
    constants = frame->closure->function->chunk.constants;
    VM_DISPATCH();
  }
  VM_CASE(DEFAULT) {
    uint8_t slot = READ_BYTE();
    uint16_t offset = READ_SHORT();
    if (!IS_UNDEF(slots[slot])) ip += offset;
    VM_DISPATCH();
  }
  VM_CASE(CLASS) {
    ObjString *name = READ_STRING();
    SYNC();
    ObjClass *klass = obj_new_class(vm, name);
    PUSH(OBJ_VAL(klass));
    VM_DISPATCH();
  }
  VM_CASE(INHERIT) {
    SYNC();
    if (!inherit(vm, PEEK(1), AS_CLASS(PEEK(0)))) THROW();
    VM_DISPATCH();
  }
  VM_CASE(METHOD) {
    ObjString *name = READ_STRING();
    SYNC();
    define_method(vm, name);
    LOAD_SP();
    VM_DISPATCH();
  }
  VM_CASE(LIST) {
    int n = READ_SHORT();
    SYNC();
    Value list = make_list(vm, n);
    sp -= n;
    PUSH(list);
    VM_DISPATCH();
  }
  VM_CASE(TUPLE) {
    int n = READ_SHORT();
    SYNC();
    Value tuple = make_tuple(vm, n);
    sp -= n;
    PUSH(tuple);
    VM_DISPATCH();
  }
  VM_CASE(LIST_APPEND) {
    SYNC();
    obj_list_append(vm, AS_LIST(PEEK(1)), PEEK(0));
    sp--;
    VM_DISPATCH();
  }
  VM_CASE(LIST_EXTEND) {
    SYNC();
    if (!vm_extend_list(vm, AS_LIST(PEEK(1)), PEEK(0))) THROW();
    sp--;
    VM_DISPATCH();
  }
  VM_CASE(MAP) {
    int pairs = READ_SHORT();
    SYNC();
    Value map = make_map(vm, pairs);
    CHECK(map);
    sp -= 2 * pairs;
    PUSH(map);
    VM_DISPATCH();
  }
  VM_CASE(MAP_INSERT) {
    SYNC();
    CHECK(vm_set_index_n(vm, PEEK(2), 1, &PEEK(1), PEEK(0)));
    sp -= 2;
    VM_DISPATCH();
  }
  VM_CASE(NEW_SET) {
    int n = READ_SHORT();
    SYNC();
    Value set = vm_make_set(vm, sp - n, n);
    CHECK(set);
    sp -= n;
    PUSH(set);
    VM_DISPATCH();
  }
  VM_CASE(SET_ADD) {
    SYNC();
    if (!vm_set_add(vm, AS_SET(PEEK(1)), PEEK(0))) THROW();
    sp--;
    VM_DISPATCH();
  }
  VM_CASE(UNPACK) {
    int n = READ_BYTE();
    SYNC();
    if (!unpack(vm, PEEK(0), n)) THROW();
    LOAD_SP();
    VM_DISPATCH();
  }
  VM_CASE(UNPACK_STAR) {
    int before = READ_BYTE();
    int after = READ_BYTE();
    SYNC();
    if (!unpack_star(vm, PEEK(0), before, after)) THROW();
    LOAD_SP();
    VM_DISPATCH();
  }
  VM_CASE(BUILD_STRING) {
    int n = READ_BYTE();
    SYNC();
    Value s = build_string(vm, n);
    CHECK(s);
    sp -= n;
    PUSH(s);
    VM_DISPATCH();
  }
  VM_CASE(FORMAT) {
    const char *field = READ_STRING()->chars; /* [!c]:spec */
    char conversion = field[0] == '!' ? field[1] : 0;
    SYNC();
    Value s = vm_format_field(vm, PEEK(0), conversion, field + (conversion ? 3 : 1));
    CHECK(s);
    sp[-1] = s;
    VM_DISPATCH();
  }
  VM_CASE(FORMAT_SPEC) {
    const char *field = READ_STRING()->chars; /* [!c]: */
    char conversion = field[0] == '!' ? field[1] : 0;
    SYNC();
    Value s = vm_format_field(vm, PEEK(1), conversion, AS_CSTRING(PEEK(0)));
    CHECK(s);
    sp--;
    sp[-1] = s;
    VM_DISPATCH();
  }
  VM_CASE(ITER_PREP) {
    SYNC();
    Value seq = vm_iter_prepare(vm, PEEK(0));
    CHECK(seq);
    sp[-1] = seq;
    PUSH(SMALLINT_VAL(0));
    VM_DISPATCH();
  }
  VM_CASE(ITER_NEXT) {
    uint8_t slot = READ_BYTE();
    uint16_t offset = READ_SHORT();
    SYNC(); /* the next item may be made (a string, a tensor row, a large int) */
    Value item;
    int status = iter_step(vm, &slots[slot], &item);
    if (status < 0) THROW();
    if (status == 0) {
      ip += offset;
      VM_DISPATCH();
    }
    PUSH(item);
    VM_DISPATCH();
  }
  VM_CASE(ITER_NEXT_LOCAL) {
    uint8_t slot = READ_BYTE();
    uint8_t var = READ_BYTE();
    uint16_t offset = READ_SHORT();
    SYNC();
    Value item;
    int status = iter_step(vm, &slots[slot], &item);
    if (status < 0) THROW();
    if (status == 0) ip += offset;
    else slots[var] = item;
    VM_DISPATCH();
  }
  VM_CASE(TRY) {
    uint16_t offset = READ_SHORT();
    SYNC();
    vm_push_handler(vm, ip + offset);
    VM_DISPATCH();
  }
  VM_CASE(END_TRY) {
    vm->exec.handler_count--;
    VM_DISPATCH();
  }
  VM_CASE(THROW) {
    SYNC();
    vm_throw(vm, PEEK(0));
    THROW();
  }
  VM_CASE(CATCHES) {
    SYNC();
    int caught = vm_catches(vm, PEEK(1), PEEK(0));
    if (caught < 0) THROW();
    sp--;
    sp[-1] = BOOL_VAL(caught);
    VM_DISPATCH();
  }
  VM_CASE(IMPORT) {
    ObjString *path = READ_STRING();
    SYNC();
    AFTER_CALL(vm_import(vm, path));
    VM_DISPATCH();
  }
  VM_CASE(IMPORT_NAME) {
    ObjString *path = READ_STRING();
    bool member = *ip++ != 0;
    SYNC();
    Value v = vm_import_name(vm, path, member);
    if (IS_EXCEPTION(v)) THROW();
    PUSH(v);
    VM_DISPATCH();
  }
  VM_CASE(REPL_SHOW) {
    SYNC();
    repl_show(vm, PEEK(0));
    if (vm->exc.pending) THROW();
    sp--;
    VM_DISPATCH();
  }

#include "vm/quick_cases.h"

#ifndef VM_COMPUTED_GOTO
  default:
    SYNC();
    vm_throw_error(vm, "bad opcode %d", ip[-1]);
    THROW();
  }
#endif

exception:
  if (!unwind(vm, base)) return VM_EXCEPTION;
  LOAD_FRAME();
  VM_DISPATCH();

#include "vm/dispatch_end.h"
}

/* ---- entry points ---- */

/* Pushes `first` (the callee or receiver), the arguments and the keyword
 * values of a call made from C. Returns the stack slot to restore afterwards,
 * or NULL after throwing when the stack or the C call depth would overflow. */
static Value *push_c_call(AgVM *vm, Value first, int argc, const Value *args, const AgKwargs *kw) {
  int nkw = kw ? kw->count : 0;
  if (vm->exec.native_depth >= VM_NATIVE_DEPTH_MAX || vm->exec.stack_top + argc + nkw + 16 > vm->exec.stack_limit ||
      nkw > VM_KW_MAX) {
    vm_raise(vm, VM_ERR_RECURSION, "stack overflow");
    return NULL;
  }
  Value *base_slot = vm->exec.stack_top;
  push(vm, first);
  for (int i = 0; i < argc; i++) push(vm, args[i]);
  for (int i = 0; i < nkw; i++) push(vm, kw->values[i]);
  return base_slot;
}

/* Throws MemoryError for vm->oom.bytes. Making it allocates (a message, the
 * instance, its traceback), which the limit does not refuse; if even that
 * fails, the jump comes back here and the spare made with the VM is thrown. */
static void throw_out_of_memory(AgVM *vm) {
  if (vm->oom.recovering) {
    vm->oom.recovering = false;
    vm->exc.value = OBJ_VAL(vm->oom.spare_error);
    vm->exc.pending = true;
    vm->exc.trace = NULL;
    return;
  }
  vm->oom.recovering = true;
  vm_throw_memory_error(vm, (double)vm->oom.bytes);
  vm->oom.recovering = false;
}

/* run() with a landing place for vm_out_of_memory: the state the loop began
 * with is put back, MemoryError is thrown where the code was, and the loop
 * goes on at its handler (or returns VM_EXCEPTION when none is within). */
static Value run_guarded(AgVM *vm, int base) {
  VmOomGuard guard = {.outer = vm->oom.guard,
                      .temp_root_count = vm->gc.temp_root_count,
                      .gc_paused = vm->gc.paused,
                      .native_depth = vm->exec.native_depth,
                      .compiling_module = vm->globals.compiling_module};
  vm->oom.guard = &guard;
  vm_make_current(vm);
  Value result;
  for (;;) {
    if (sigsetjmp(guard.jump, 0) == 0) {
      result = run(vm, base);
      break;
    }
    vm->gc.temp_root_count = guard.temp_root_count;
    vm->gc.paused = guard.gc_paused;
    vm->exec.native_depth = guard.native_depth;
    vm->globals.compiling_module = guard.compiling_module;
    vm_free_scratch(vm);
    throw_out_of_memory(vm);
    if (!unwind(vm, base)) {
      result = VM_EXCEPTION;
      break;
    }
  }
  vm->oom.guard = guard.outer;
  return result;
}

/* Runs the frame a call from C pushed, if any, takes its result and restores
 * the stack: the result, or VM_EXCEPTION with the exception pending. */
static Value finish_c_call(AgVM *vm, CallStatus status, Value *base_slot) {
  Value result = VM_EXCEPTION;
  if (status == CALL_DONE) {
    result = vm->exec.stack_top[-1];
  } else if (status == CALL_FRAME) {
    result = vm_run_pushed_frame(vm);
  }
  vm->exec.stack_top = base_slot;
  return result;
}

Value vm_run_pushed_frame(AgVM *vm) {
  vm->exec.native_depth++;
  Value result = run_guarded(vm, vm->exec.frame_count - 1);
  vm->exec.native_depth--;
  return result;
}

Value vm_call_kw(AgVM *vm, Value callee, int argc, const Value *args, const AgKwargs *kw) {
  Value *base_slot = push_c_call(vm, callee, argc, args, kw);
  if (base_slot == NULL) return VM_EXCEPTION;
  CallStatus status = vm_call_value(vm, callee, argc, kw ? kw->count : 0, kw ? kw->names : NULL);
  return finish_c_call(vm, status, base_slot);
}

Value vm_call(AgVM *vm, Value callee, int argc, const Value *args) {
  return vm_call_kw(vm, callee, argc, args, NULL);
}

Value vm_invoke(AgVM *vm, Value receiver, ObjString *name, int argc, const Value *args, const AgKwargs *kw) {
  Value *base_slot = push_c_call(vm, receiver, argc, args, kw);
  if (base_slot == NULL) return VM_EXCEPTION;
  CallStatus status = vm_invoke_slot(vm, name, argc, kw ? kw->count : 0, kw ? kw->names : NULL);
  return finish_c_call(vm, status, base_slot);
}

Value vm_invoke_cstr(AgVM *vm, Value receiver, const char *name, int argc, const Value *args) {
  vm_push_root(vm, receiver);
  ObjString *s = obj_string(vm, name);
  vm_pop_root(vm);
  return vm_invoke(vm, receiver, s, argc, args, NULL);
}

static VmResult finish(AgVM *vm, Value result) {
  if (!IS_EXCEPTION(result)) return VM_OK;
  if (vm->exc.exiting) {
    vm_take_exception(vm);
    return VM_EXIT;
  }
  Value exc = vm->exc.value;
  vm->exc.uncaught_interrupt = IS_INSTANCE(exc) && AS_INSTANCE(exc)->klass == vm->core.interrupted_class;
  vm_report_exception(vm, stderr, vm->host.color);
  return VM_RUNTIME_ERROR;
}

VmResult vm_run_function(AgVM *vm, ObjFunction *function) {
  vm_push_root(vm, OBJ_VAL(function));
  ObjClosure *closure = obj_new_closure(vm, function);
  vm_pop_root(vm);
  return finish(vm, vm_call(vm, OBJ_VAL(closure), 0, NULL));
}

VmResult vm_run_source(AgVM *vm, const char *source, const char *file) {
  if (vm->plugins.compile == NULL) {
    fprintf(stderr, "ag: no compiler installed\n");
    return VM_COMPILE_ERROR;
  }
  vm->globals.compiling_module = vm->globals.main_module;
  vm->gc.paused++;
  ObjFunction *f = vm->plugins.compile(vm, source, file);
  vm->gc.paused--;
  if (f == NULL && tensor_interrupt_requested) { /* Ctrl-C stopped the compiler, which said so */
    tensor_interrupt_requested = 0;
    vm->exc.uncaught_interrupt = true;
    return VM_RUNTIME_ERROR;
  }
  if (f == NULL) return VM_COMPILE_ERROR;
  return vm_run_function(vm, f);
}

/* Reads the rest of f into a malloc'd, NUL-terminated buffer in blocks of at
 * most 1 MiB, polling Ctrl-C between them; 0 or an errno. */
static int read_all(FILE *f, char **out, size_t *length) {
  size_t cap = 4096, n = 0;
  char *data = malloc(cap);
  if (data == NULL) return ENOMEM;
  for (;;) {
    if (tensor_interrupt_requested || n > VM_SOURCE_MAX) break;
    if (n + 1 == cap) {
      char *grown = realloc(data, cap * 2);
      if (grown == NULL) break;
      data = grown;
      cap *= 2;
    }
    size_t want = cap - n - 1 < ((size_t)1 << 20) ? cap - n - 1 : (size_t)1 << 20;
    size_t got = fread(data + n, 1, want, f);
    n += got;
    if (got < want && (feof(f) || ferror(f))) break;
  }
  int err = tensor_interrupt_requested ? EINTR
            : n > VM_SOURCE_MAX        ? EFBIG
            : ferror(f)                ? (errno ? errno : EIO)
            : !feof(f)                 ? ENOMEM
                                       : 0;
  if (err) {
    free(data);
    return err;
  }
  data[n] = '\0';
  *out = data;
  *length = n;
  return 0;
}

char *vm_read_file(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  char *data = NULL;
  size_t n = 0;
  int err = read_all(f, &data, &n);
  fclose(f);
  if (err) {
    errno = err;
    return NULL;
  }
  if (length) *length = n;
  return data;
}

const char *vm_read_problem(int err) {
  if (err == EFBIG) return "larger than the 64 MiB limit of source files";
  if (err == EINTR) return "Interrupted";
  return strerror(err);
}

VmResult vm_run_file(AgVM *vm, const char *path) {
  char *source = vm_read_file(path, NULL);
  if (source == NULL && errno == EINTR) {
    tensor_interrupt_requested = 0;
    vm->exc.uncaught_interrupt = true;
    fprintf(stderr, "ag: reading %s: Interrupted\n", path);
    return VM_RUNTIME_ERROR;
  }
  if (source == NULL) {
    fprintf(stderr, "ag: cannot open %s: %s\n", path, vm_read_problem(errno));
    return VM_COMPILE_ERROR;
  }
  VmResult r = vm_run_source(vm, source, path);
  free(source);
  return r;
}

int vm_exit_status(AgVM *vm, VmResult r) {
  switch (r) {
  case VM_OK: return 0;
  case VM_COMPILE_ERROR: return 2;
  case VM_EXIT: return vm->exc.exit_code;
  case VM_RUNTIME_ERROR: return vm->exc.uncaught_interrupt ? 130 : 1;
  }
  return 1;
}
