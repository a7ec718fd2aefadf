/* builtins_seq.c — the iteration built-ins of SPEC §5: list set reversed any
 * all iter next, and ord chr (progress, which wraps an iterator, lives in
 * builtins_progress.c). */
#include <string.h>

#include "stdlib/builtins_internal.h"
#include "vm/buffer.h"
#include "vm/internal.h"

HELP("list", HELP_BUILTINS, 0,
     "list(iterable=[])",
     "A new list of the items of any iterable: a list (copied), string (characters), map "
     "(keys), set, range, tensor (along dim 0) or an instance with iter().",
     "print(list(\"ab\"), list(range(3)), list({1, 2}))")

LIB_NATIVE(lib_list) {
  if (argc == 0) return OBJ_VAL(obj_new_list(vm));
  return lib_to_list(vm, args[0]);
}

HELP("tuple", HELP_BUILTINS, 0,
     "tuple(iterable=[])",
     "A tuple of the items of any iterable. Tuples are Python's: (1, 2), (x,) and (); "
     "immutable, hashable (map keys, set members), indexed, sliced and compared as lists; "
     "`a, b = t` unpacks one.",
     "print(tuple([1, 2]), (1,), ())\n"
     "let counts = {}\ncounts[(1, 2)] = 3\nprint(counts[(1, 2)])")

/* tuple(xs): the items of any iterable, as a tuple. */
LIB_NATIVE(lib_tuple) {
  if (argc == 0) return OBJ_VAL(obj_new_tuple(vm, NULL, 0));
  if (IS_TUPLE(args[0])) return args[0];
  return vm_list_to_tuple(vm, lib_to_list(vm, args[0]));
}

HELP("set", HELP_BUILTINS, 0,
     "set(iterable=[])",
     "A new set of the items of an iterable (duplicates dropped, first occurrence's order "
     "kept). Literals: {1, 2}; the empty set is set(), since {} is an empty map. Members "
     "are strings, numbers, booleans, nil or instances (by identity).",
     "let s = set([3, 1, 3])\n"
     "print(s, len(s), 1 in s, {1, 2} - {2})")

LIB_NATIVE(lib_set) {
  if (argc == 0) return OBJ_VAL(obj_new_set(vm));
  return vm_new_set_of(vm, args[0]);
}

HELP("reversed", HELP_BUILTINS, 0,
     "reversed(xs)",
     "A new list of the items of xs in reverse order.",
     "print(reversed([1, 2, 3]), reversed(\"ab\"))")

/* A new list of the items in reverse order (Python gives an iterator; a
 * list iterates the same and prints more usefully). */
LIB_NATIVE(lib_reversed) {
  if (IS_SET(args[0])) return vm_raise(vm, VM_ERR_TYPE, "'set' object is not reversible");
  Value items = lib_to_list(vm, args[0]);
  if (IS_EXCEPTION(items)) return items;
  ObjList *l = AS_LIST(items);
  for (int i = 0, j = l->count - 1; i < j; i++, j--) {
    Value t = l->items[i];
    l->items[i] = l->items[j];
    l->items[j] = t;
  }
  return items;
}

/* any(xs) / all(xs): stops at the first item that decides, as Python's. */
static int is_truthy(AgVM *vm, Value item, void *ctx) { return vm_truthy(vm, item); }
static int is_falsy(AgVM *vm, Value item, void *ctx) {
  int t = vm_truthy(vm, item);
  return t < 0 ? -1 : !t;
}

static Value any_all(AgVM *vm, int argc, const Value *args, const AgKwargs *kw, bool want) {
  Value iterable = args[0];
  if (IS_TENSOR(iterable)) { /* torch.any(t, dim=...) */
    ObjString *name = obj_string(vm, want ? "any" : "all");
    return vm_invoke(vm, iterable, name, argc - 1, args + 1, kw);
  }
  if (argc > 1 || (kw != NULL && kw->count > 0)) {
    return vm_raise(vm, VM_ERR_TYPE, "%s() of a %s takes no other arguments", want ? "any" : "all", vm_type_name(iterable));
  }
  int decided = vm_iterate(vm, iterable, want ? is_truthy : is_falsy, NULL);
  if (decided < 0) return VM_EXCEPTION;
  return BOOL_VAL(decided ? want : !want);
}

HELP("any", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "any(xs) / any(t, dim=nil)",
     "True when some item of xs is truthy (false for an empty xs); it stops at the first "
     "one. On a tensor: PyTorch's any, a bool tensor (t.any() too).",
     "print(any([0, \"\", 3]), any([]), any(tensor([0, 1])))")

LIB_NATIVE(lib_any) { return any_all(vm, argc, args, kw, true); }

HELP("all", HELP_BUILTINS, HELP_TENSOR_METHOD,
     "all(xs) / all(t, dim=nil)",
     "True when every item of xs is truthy (true for an empty xs); it stops at the first "
     "falsy one. On a tensor: PyTorch's all, a bool tensor (t.all() too).",
     "print(all([1, \"a\"]), all([]), all(tensor([0, 1])))")

LIB_NATIVE(lib_all) { return any_all(vm, argc, args, kw, false); }

/* ---- iter() and next() ---- */

/* iter(xs) of a built-in sequence: an instance of the hidden class
 * `iterator` holding the sequence and the position, whose next() throws
 * StopIteration at the end. */
Value lib_field(AgVM *vm, Value inst, const char *name) {
  Value v = NIL_VAL;
  table_get(&AS_INSTANCE(inst)->fields, OBJ_VAL(obj_string(vm, name)), &v);
  return v;
}

void lib_set_field(AgVM *vm, Value inst, const char *name, Value v) {
  vm_push_root(vm, v);
  ObjString *key = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(key));
  table_set(vm, &AS_INSTANCE(inst)->fields, OBJ_VAL(key), v);
  vm_pop_roots(vm, 2);
}

LIB_NATIVE(iterator_next) {
  Value seq = lib_field(vm, self, " seq"), pos = lib_field(vm, self, " pos");
  if (!IS_NUMBER(pos)) return vm_throw_error(vm, "iterator is broken");
  double p = AS_NUMBER(pos);
  Value item;
  int status = vm_iter_next(vm, seq, &p, &item);
  if (status < 0) return VM_EXCEPTION;
  if (status == 0) {
    return vm_throw(vm, OBJ_VAL(vm_new_error(vm, vm->core.stop_iteration_class,
                                             obj_string(vm, "the iterator is exhausted"))));
  }
  vm_push_root(vm, item);
  table_set(vm, &AS_INSTANCE(self)->fields, OBJ_VAL(obj_string(vm, " pos")), FLOAT_VAL(p));
  vm_pop_root(vm);
  return item;
}

LIB_NATIVE(iterator_iter) { return self; }

static void install_iterator_class(AgVM *vm) {
  ObjClass *klass = obj_new_class(vm, obj_string(vm, "iterator"));
  vm->core.iterator_class = klass;
  vm_add_method(vm, &klass->methods, "next", iterator_next, 0, 0, false);
  vm_add_method(vm, &klass->methods, "iter", iterator_iter, 0, 0, false);
}

Value lib_make_iterator(AgVM *vm, Value iterable) {
  if (IS_GENERATOR(iterable)) return iterable;
  if (IS_INSTANCE(iterable)) {
    if (!vm_has_method(vm, iterable, VM_M_ITER)) {
      return vm_raise(vm, VM_ERR_TYPE, "object of type %s is not iterable (no iter method)", vm_type_name(iterable));
    }
    return vm_call_method_named(vm, iterable, VM_M_ITER, 0, NULL);
  }
  Value seq = vm_iter_prepare(vm, iterable);
  if (IS_EXCEPTION(seq)) return seq;
  vm_push_root(vm, seq);
  ObjInstance *it = obj_new_instance(vm, vm->core.iterator_class);
  vm_push_root(vm, OBJ_VAL(it));
  table_set(vm, &it->fields, OBJ_VAL(obj_string(vm, " seq")), seq);
  table_set(vm, &it->fields, OBJ_VAL(obj_string(vm, " pos")), FLOAT_VAL(0));
  vm_pop_roots(vm, 2);
  return OBJ_VAL(it);
}

HELP("iter", HELP_BUILTINS, 0,
     "iter(xs)",
     "An iterator over xs: its next() gives the items one by one, then throws "
     "StopIteration. An instance's iter() method is called.",
     "let it = iter([1, 2])\n"
     "print(next(it), next(it), next(it, \"done\"))")

LIB_NATIVE(lib_iter) { return lib_make_iterator(vm, args[0]); }

HELP("next", HELP_BUILTINS, 0,
     "next(it, default)",
     "The next item of an iterator (it.next()); past the end, default when given, else "
     "StopIteration is thrown.",
     "let it = iter(\"ab\")\n"
     "print(next(it), next(it), next(it, nil))")

/* next(it) calls it.next(); next(it, default) gives default at the end. */
LIB_NATIVE(lib_next) {
  if (IS_GENERATOR(args[0])) {
    if (argc < 2) return vm_generator_send(vm, AS_GENERATOR(args[0]), NIL_VAL);
  } else if (!vm_has_method(vm, args[0], VM_M_NEXT)) {
    return vm_raise(vm, VM_ERR_TYPE, "'%s' object is not an iterator",
                          vm_type_name(args[0]));
  } else if (argc < 2) {
    return vm_call_method_named(vm, args[0], VM_M_NEXT, 0, NULL);
  }
  Value item;
  int status = vm_iterator_next(vm, args[0], &item);
  if (status < 0) return VM_EXCEPTION;
  return status == 0 ? args[1] : item;
}

/* ---- generator methods: g.next(), g.send(v), g.iter() ---- */

LIB_NATIVE(generator_next) { return vm_generator_send(vm, AS_GENERATOR(self), NIL_VAL); }
LIB_NATIVE(generator_send) { return vm_generator_send(vm, AS_GENERATOR(self), args[0]); }

static void install_generator_methods(AgVM *vm) {
  vm_add_method(vm, &vm->core.generator_methods, "next", generator_next, 0, 0, false);
  vm_add_method(vm, &vm->core.generator_methods, "send", generator_send, 1, 1, false);
  vm_add_method(vm, &vm->core.generator_methods, "iter", iterator_iter, 0, 0, false);
}

/* ---- map, filter, zip: lazy iterators ----
 * Instances of hidden classes holding iterators of their arguments: each
 * next() draws one item from each, so nothing is computed before it is
 * asked for. */

static ObjClass *lazy_class(AgVM *vm, const char *name, AgNativeFn next) {
  ObjClass *klass = obj_new_class(vm, obj_string(vm, name));
  vm_push_root(vm, OBJ_VAL(klass));
  vm_add_method(vm, &klass->methods, "next", next, 0, 0, false);
  vm_add_method(vm, &klass->methods, "iter", iterator_iter, 0, 0, false);
  vm_pop_root(vm);
  return klass;
}

/* An instance of klass with the function f and a list of iterators over
 * args[0..n). */
static Value make_lazy(AgVM *vm, ObjClass *klass, Value f, int n, const Value *args) {
  ObjList *its = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(its));
  for (int i = 0; i < n; i++) {
    Value it = lib_make_iterator(vm, args[i]);
    if (IS_EXCEPTION(it)) {
      vm_pop_root(vm);
      return it;
    }
    obj_list_append(vm, its, it);
  }
  ObjInstance *inst = obj_new_instance(vm, klass);
  vm_push_root(vm, OBJ_VAL(inst));
  lib_set_field(vm, OBJ_VAL(inst), " f", f);
  lib_set_field(vm, OBJ_VAL(inst), " its", OBJ_VAL(its));
  vm_pop_roots(vm, 2);
  return OBJ_VAL(inst);
}

static Value exhausted(AgVM *vm) {
  return vm_throw(vm, OBJ_VAL(vm_new_error(vm, vm->core.stop_iteration_class, obj_string(vm, "the iterator is exhausted"))));
}

/* One item of each iterator into a new list: the list, or VM_EXCEPTION
 * (StopIteration when one of them ended). */
static Value draw_row(AgVM *vm, Value self) {
  ObjList *its = AS_LIST(lib_field(vm, self, " its"));
  ObjList *row = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(row));
  for (int i = 0; i < its->count; i++) {
    Value item;
    int status = vm_iterator_next(vm, its->items[i], &item);
    if (status <= 0) {
      vm_pop_root(vm);
      return status < 0 ? VM_EXCEPTION : exhausted(vm);
    }
    obj_list_append(vm, row, item);
  }
  vm_pop_root(vm);
  return OBJ_VAL(row);
}

/* zip's items are tuples, as Python's. */
LIB_NATIVE(zip_next) {
  if (AS_LIST(lib_field(vm, self, " its"))->count == 0) return exhausted(vm);
  Value row = draw_row(vm, self);
  return IS_EXCEPTION(row) ? row : vm_list_to_tuple(vm, row);
}

LIB_NATIVE(map_next) {
  Value row = draw_row(vm, self);
  if (IS_EXCEPTION(row)) return row;
  vm_push_root(vm, row);
  Value r = vm_call(vm, lib_field(vm, self, " f"), AS_LIST(row)->count, AS_LIST(row)->items);
  vm_pop_root(vm);
  return r;
}

LIB_NATIVE(filter_next) {
  Value f = lib_field(vm, self, " f");
  for (;;) {
    Value row = draw_row(vm, self);
    if (IS_EXCEPTION(row)) return row;
    vm_push_root(vm, row);
    Value item = AS_LIST(row)->items[0];
    Value verdict = IS_NIL(f) ? item : vm_call(vm, f, 1, &item);
    int keep = IS_EXCEPTION(verdict) ? -1 : vm_truthy_rooted(vm, verdict);
    vm_pop_root(vm);
    if (keep < 0) return VM_EXCEPTION;
    if (keep) return item;
  }
}

/* enumerate's items are tuples (n, item); its " f" is the next n. */
LIB_NATIVE(enumerate_next) {
  Value row = draw_row(vm, self);
  if (IS_EXCEPTION(row)) return row;
  vm_push_root(vm, row);
  Value n = lib_field(vm, self, " f");
  Value next = vm_binary_op(vm, OP_ADD, n, INT_VAL(vm, 1));
  if (IS_EXCEPTION(next)) {
    vm_pop_root(vm);
    return next;
  }
  vm_push_root(vm, next);
  Value pair = obj_pair(vm, n, AS_LIST(row)->items[0]);
  vm_push_root(vm, pair);
  lib_set_field(vm, self, " f", next);
  vm_pop_roots(vm, 3);
  return pair;
}

HELP("enumerate", HELP_BUILTINS, 0,
     "enumerate(xs, start=0)",
     "A lazy iterator of tuples (index, item) for each item of any iterable (a list, string, "
     "map's keys, tensor along dim 0, generator ...), counting from start.",
     "for i, x in enumerate([\"a\", \"b\"]) { print(i, x) }")

LIB_NATIVE(lib_enumerate) {
  int64_t start = 0;
  if (argc > 1 && !lib_int_arg(vm, "enumerate", args, 1, &start)) return VM_EXCEPTION;
  return make_lazy(vm, vm->core.enumerate_class, INT_VAL(vm, start), 1, args);
}

HELP("map", HELP_BUILTINS, 0,
     "map(f, ...iterables)",
     "A lazy iterator of f(x) for each item x (of f(x, y, ...) for several iterables, up "
     "to the shortest).",
     "print(list(map(lambda x: x * 2, [1, 2])), list(map(max, [1, 5], [4, 2])))")

LIB_NATIVE(lib_map) { return make_lazy(vm, vm->core.map_class, args[0], argc - 1, args + 1); }

HELP("filter", HELP_BUILTINS, 0,
     "filter(f, iterable)",
     "A lazy iterator of the items for which f(item) is truthy; with f nil, of the truthy "
     "items.",
     "print(list(filter(lambda x: x > 1, [1, 2, 3])), list(filter(nil, [0, 1, \"\"])))")

LIB_NATIVE(lib_filter) { return make_lazy(vm, vm->core.filter_class, args[0], 1, args + 1); }

HELP("zip", HELP_BUILTINS, 0,
     "zip(...iterables)",
     "A lazy iterator of tuples holding the i-th items of each argument; it stops at the "
     "shortest.",
     "print(list(zip([1, 2], [\"a\", \"b\"])))")

LIB_NATIVE(lib_zip) { return make_lazy(vm, vm->core.zip_class, NIL_VAL, argc, args); }

/* ---- dict(): a map from a map, from [key, value] pairs, and/or from
 * keyword arguments ---- */

static bool put_pair(AgVM *vm, ObjMap *m, Value pair, int index) {
  Value items = is_list_or_tuple(pair) ? pair : lib_to_list(vm, pair);
  if (IS_EXCEPTION(items)) return false;
  if (AS_LIST(items)->count != 2) {
    vm_throw_error(vm, "dictionary update sequence element #%d has length %d; 2 is required", index,
                   AS_LIST(items)->count);
    return false;
  }
  vm_push_root(vm, items);
  bool ok = vm_map_put(vm, m, AS_LIST(items)->items[0], AS_LIST(items)->items[1]);
  vm_pop_root(vm);
  return ok;
}

typedef struct {
  ObjMap *map;
  int index;
} PairSink;

static int put_next_pair(AgVM *vm, Value pair, void *ctx) {
  PairSink *sink = ctx;
  return put_pair(vm, sink->map, pair, sink->index++) ? 0 : -1;
}

static bool put_all(AgVM *vm, ObjMap *m, Value source) {
  if (IS_MAP(source)) return vm_map_put_all(vm, m, AS_MAP(source));
  PairSink sink = {m, 0};
  return vm_iterate(vm, source, put_next_pair, &sink) == 0;
}

HELP("dict", HELP_BUILTINS, 0,
     "dict(map_or_pairs, k=v, ...) / dict",
     "A new map: a copy of a map, the (key, value) pairs of an iterable, and/or the "
     "keyword arguments. dict is also the type of maps (Python's dict): type({}) == dict, "
     "isinstance(m, dict).",
     "print(dict(zip([\"a\", \"b\"], [1, 2])), dict(x=1))\n"
     "print(type({\"a\": 1}) == dict, isinstance({}, dict))")

LIB_NATIVE(lib_dict) {
  ObjMap *m = obj_new_map(vm);
  vm_push_root(vm, OBJ_VAL(m));
  bool ok = argc == 0 || put_all(vm, m, args[0]);
  for (int i = 0; ok && kw != NULL && i < kw->count; i++) ok = vm_map_put(vm, m, OBJ_VAL(kw->names[i]), kw->values[i]);
  vm_pop_root(vm);
  return ok ? OBJ_VAL(m) : VM_EXCEPTION;
}

/* ---- characters ---- */

static int utf8_decode(const unsigned char *s, int n, int *code) {
  if (n >= 1 && s[0] < 0x80) return *code = s[0], 1;
  if (n >= 2 && (s[0] >> 5) == 0x6) return *code = (s[0] & 0x1f) << 6 | (s[1] & 0x3f), 2;
  if (n >= 3 && (s[0] >> 4) == 0xe) return *code = (s[0] & 0x0f) << 12 | (s[1] & 0x3f) << 6 | (s[2] & 0x3f), 3;
  if (n >= 4 && (s[0] >> 3) == 0x1e)
    return *code = (s[0] & 0x07) << 18 | (s[1] & 0x3f) << 12 | (s[2] & 0x3f) << 6 | (s[3] & 0x3f), 4;
  return 0;
}

HELP("ord", HELP_BUILTINS, 0,
     "ord(c)",
     "The Unicode code point of a one-character string.",
     "print(ord(\"a\"), ord(\"é\"))")

LIB_NATIVE(lib_ord) {
  ObjString *s;
  if (!lib_string_arg(vm, "ord", args, 0, &s)) return VM_EXCEPTION;
  int code = 0;
  int used = utf8_decode((const unsigned char *)s->chars, s->length, &code);
  if (used == 0 || used != s->length) {
    return vm_raise(vm, VM_ERR_TYPE, "ord() expected a character, but string of length %d found", s->length);
  }
  return INT_VAL(vm, code);
}

HELP("chr", HELP_BUILTINS, 0,
     "chr(code)",
     "The one-character string of a Unicode code point (0 to 0x10FFFF).",
     "print(chr(97), chr(8364))")

LIB_NATIVE(lib_chr) {
  int64_t code;
  if (!lib_int_arg(vm, "chr", args, 0, &code)) return VM_EXCEPTION;
  if (code < 0 || code > 0x10ffff) return vm_raise(vm, VM_ERR_VALUE, "chr() arg not in range(0x110000)");
  char buf[4];
  int n;
  if (code < 0x80) {
    buf[0] = (char)code, n = 1;
  } else if (code < 0x800) {
    buf[0] = (char)(0xc0 | code >> 6), buf[1] = (char)(0x80 | (code & 0x3f)), n = 2;
  } else if (code < 0x10000) {
    buf[0] = (char)(0xe0 | code >> 12), buf[1] = (char)(0x80 | ((code >> 6) & 0x3f));
    buf[2] = (char)(0x80 | (code & 0x3f)), n = 3;
  } else {
    buf[0] = (char)(0xf0 | code >> 18), buf[1] = (char)(0x80 | ((code >> 12) & 0x3f));
    buf[2] = (char)(0x80 | ((code >> 6) & 0x3f)), buf[3] = (char)(0x80 | (code & 0x3f)), n = 4;
  }
  return OBJ_VAL(obj_copy_string(vm, buf, n));
}

void lib_install_seq_builtins(AgVM *vm) {
  install_iterator_class(vm);
  install_generator_methods(vm);
  vm_define_native(vm, "list", lib_list, 0, 1, false);
  vm_define_native(vm, "tuple", lib_tuple, 0, 1, false);
  vm_define_native(vm, "set", lib_set, 0, 1, false);
  vm_define_native(vm, "reversed", lib_reversed, 1, 1, false);
  vm_define_native(vm, "any", lib_any, 1, 2, true);
  vm_define_native(vm, "all", lib_all, 1, 2, true);
  vm_define_native(vm, "iter", lib_iter, 1, 1, false);
  vm_define_native(vm, "next", lib_next, 1, 2, false);
  vm->core.map_class = lazy_class(vm, "map", map_next);
  vm->core.filter_class = lazy_class(vm, "filter", filter_next);
  vm->core.zip_class = lazy_class(vm, "zip", zip_next);
  vm->core.enumerate_class = lazy_class(vm, "enumerate", enumerate_next);
  vm_define_native(vm, "enumerate", lib_enumerate, 1, 2, false);
  vm_define_native(vm, "map", lib_map, 2, -1, false);
  vm_define_native(vm, "filter", lib_filter, 2, 2, false);
  vm_define_native(vm, "zip", lib_zip, 0, -1, false);
  vm_define_native(vm, "dict", lib_dict, 0, 1, true);
  vm_define_native(vm, "ord", lib_ord, 1, 1, false);
  vm_define_native(vm, "chr", lib_chr, 1, 1, false);
  lib_install_progress(vm);
}
