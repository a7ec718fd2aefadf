/* builtins_string.c — methods of strings: split splitlines join strip
 * lstrip rstrip upper lower replace find count startswith endswith isdigit
 * isalpha isspace. Strings are byte strings;
 * case mapping is ASCII. */
#include <ctype.h>
#include <string.h>

#include "stdlib/builtins_internal.h"
#include "vm/buffer.h"
#include "vm/internal.h"

static Value split_whitespace(AgVM *vm, ObjString *s, ObjList *out) {
  int i = 0;
  while (i < s->length) {
    while (i < s->length && isspace((unsigned char)s->chars[i])) i++;
    int start = i;
    while (i < s->length && !isspace((unsigned char)s->chars[i])) i++;
    if (i > start) obj_list_append(vm, out, OBJ_VAL(obj_copy_string(vm, s->chars + start, i - start)));
  }
  return OBJ_VAL(out);
}

HELP("str.split", HELP_METHODS, 0,
     "s.split(sep=nil)",
     "A list of the parts between occurrences of sep; without sep, splits on runs of "
     "blanks.",
     "print(\"a,b,c\".split(\",\"), \" x  y \".split())")

LIB_NATIVE(string_split) {
  ObjString *s = AS_STRING(self);
  ObjList *out = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(out));
  Value result;
  if (argc == 0 || IS_NIL(args[0])) {
    result = split_whitespace(vm, s, out);
  } else {
    ObjString *sep;
    if (!lib_string_arg(vm, "split", args, 0, &sep)) {
      vm_pop_root(vm);
      return VM_EXCEPTION;
    }
    if (sep->length == 0) {
      vm_pop_root(vm);
      return vm_raise(vm, VM_ERR_VALUE, "split() separator is empty");
    }
    const char *at = s->chars, *end = s->chars + s->length;
    const char *hit;
    while ((hit = memmem(at, (size_t)(end - at), sep->chars, (size_t)sep->length)) != NULL) {
      obj_list_append(vm, out, OBJ_VAL(obj_copy_string(vm, at, (int)(hit - at))));
      at = hit + sep->length;
    }
    obj_list_append(vm, out, OBJ_VAL(obj_copy_string(vm, at, (int)(end - at))));
    result = OBJ_VAL(out);
  }
  vm_pop_root(vm);
  return result;
}

HELP("str.format", HELP_METHODS, 0,
     "s.format(...args, **kwargs)",
     "Python's str.format: each {} / {0} / {name} field is replaced by an argument, "
     "formatted with its spec after ':' (see format) and converted first with !r or !s; "
     "{0[1]} and {p.x} index and read fields, {{ and }} are braces, and a spec may hold "
     "fields of its own ({:{w}.2f}).",
     "print(\"{} items, {:.1%} done, {name:>6}|\".format(3, 0.5, name=\"ada\"))")

/* s.format(*args, **kwargs): Python's str.format (vm/format.c). */
LIB_NATIVE(string_format) { return vm_format_method(vm, AS_STRING(self), argc, args, kw); }

HELP("str.join", HELP_METHODS, 0,
     "sep.join(list)",
     "The strings of the list joined with sep between them.",
     "print(\", \".join([\"a\", \"b\"]))")

/* sep.join(xs) of any iterable of strings (a list, a generator ...). */
LIB_NATIVE(string_join) {
  Value list = IS_LIST(args[0]) ? args[0] : lib_to_list(vm, args[0]);
  if (IS_EXCEPTION(list)) return list;
  ObjList *items = AS_LIST(list);
  ObjString *sep = AS_STRING(self);
  VmBuf b;
  vm_buf_init(&b);
  for (int i = 0; i < items->count; i++) {
    if (!IS_STRING(items->items[i])) {
      vm_buf_free(&b);
      return vm_raise(vm, VM_ERR_TYPE, "join() expects a list of strings, but item %d is %s", i, vm_type_name(items->items[i]));
    }
    if (i > 0) vm_buf_add(&b, sep->chars, (size_t)sep->length);
    vm_buf_add(&b, AS_CSTRING(items->items[i]), (size_t)AS_STRING(items->items[i])->length);
  }
  return OBJ_VAL(vm_buf_to_string(vm, &b));
}

static bool strip_char(const ObjString *chars, char c) {
  if (chars == NULL) return isspace((unsigned char)c);
  return memchr(chars->chars, c, (size_t)chars->length) != NULL;
}

static Value strip(AgVM *vm, Value self, int argc, const Value *args, const char *fname, bool left, bool right) {
  ObjString *s = AS_STRING(self);
  ObjString *chars = NULL;
  if (argc > 0 && !IS_NIL(args[0]) && !lib_string_arg(vm, fname, args, 0, &chars)) return VM_EXCEPTION;
  int start = 0, end = s->length;
  while (left && start < end && strip_char(chars, s->chars[start])) start++;
  while (right && end > start && strip_char(chars, s->chars[end - 1])) end--;
  return OBJ_VAL(obj_copy_string(vm, s->chars + start, end - start));
}

HELP("str.strip", HELP_METHODS, 0,
     "s.strip()",
     "The string without leading and trailing blanks.",
     "print(\"[\" + \"  hi \".strip() + \"]\")")

LIB_NATIVE(string_strip) { return strip(vm, self, argc, args, "strip", true, true); }

HELP("str.lstrip", HELP_METHODS, 0,
     "s.lstrip()",
     "The string without leading blanks.",
     "print(\"  hi\".lstrip())")

LIB_NATIVE(string_lstrip) { return strip(vm, self, argc, args, "lstrip", true, false); }

HELP("str.rstrip", HELP_METHODS, 0,
     "s.rstrip()",
     "The string without trailing blanks.",
     "print(\"hi  \".rstrip() + \"!\")")

LIB_NATIVE(string_rstrip) { return strip(vm, self, argc, args, "rstrip", false, true); }

static Value map_case(AgVM *vm, Value self, int (*fn)(int)) {
  ObjString *s = AS_STRING(self);
  char *chars = AG_ALLOCATE(vm, char, s->length + 1);
  for (int i = 0; i < s->length; i++) chars[i] = (char)fn((unsigned char)s->chars[i]);
  chars[s->length] = '\0';
  return OBJ_VAL(obj_take_string(vm, chars, s->length));
}

HELP("str.upper", HELP_METHODS, 0,
     "s.upper()",
     "An upper-case copy (ASCII letters).",
     "print(\"relu\".upper())")

LIB_NATIVE(string_upper) { return map_case(vm, self, toupper); }

HELP("str.lower", HELP_METHODS, 0,
     "s.lower()",
     "A lower-case copy (ASCII letters).",
     "print(\"ReLU\".lower())")

LIB_NATIVE(string_lower) { return map_case(vm, self, tolower); }

HELP("str.replace", HELP_METHODS, 0,
     "s.replace(old, new)",
     "A copy with every occurrence of old replaced by new.",
     "print(\"a-b-c\".replace(\"-\", \"+\"))")

LIB_NATIVE(string_replace) {
  ObjString *s = AS_STRING(self), *old, *new_text;
  if (!lib_string_arg(vm, "replace", args, 0, &old) || !lib_string_arg(vm, "replace", args, 1, &new_text)) {
    return VM_EXCEPTION;
  }
  if (old->length == 0) return self;
  VmBuf b;
  vm_buf_init(&b);
  const char *at = s->chars, *end = s->chars + s->length, *hit;
  while ((hit = memmem(at, (size_t)(end - at), old->chars, (size_t)old->length)) != NULL) {
    vm_buf_add(&b, at, (size_t)(hit - at));
    vm_buf_add(&b, new_text->chars, (size_t)new_text->length);
    at = hit + old->length;
  }
  vm_buf_add(&b, at, (size_t)(end - at));
  return OBJ_VAL(vm_buf_to_string(vm, &b));
}

HELP("str.find", HELP_METHODS, 0,
     "s.find(sub)",
     "The byte index of the first occurrence of sub, or -1.0",
     "print(\"hello\".find(\"ll\"))")

LIB_NATIVE(string_find) {
  ObjString *s = AS_STRING(self), *sub;
  if (!lib_string_arg(vm, "find", args, 0, &sub)) return VM_EXCEPTION;
  const char *hit = memmem(s->chars, (size_t)s->length, sub->chars, (size_t)sub->length);
  return INT_VAL(vm, hit ? (double)(hit - s->chars) : -1);
}

HELP("str.startswith", HELP_METHODS, 0,
     "s.startswith(prefix)",
     "True when the string begins with prefix.",
     "print(\"model.pt\".startswith(\"model\"))")

LIB_NATIVE(string_startswith) {
  ObjString *s = AS_STRING(self), *p;
  if (!lib_string_arg(vm, "startswith", args, 0, &p)) return VM_EXCEPTION;
  return BOOL_VAL(p->length <= s->length && memcmp(s->chars, p->chars, (size_t)p->length) == 0);
}

HELP("str.endswith", HELP_METHODS, 0,
     "s.endswith(suffix)",
     "True when the string ends with suffix.",
     "print(\"w.npy\".endswith(\".npy\"))")

LIB_NATIVE(string_endswith) {
  ObjString *s = AS_STRING(self), *p;
  if (!lib_string_arg(vm, "endswith", args, 0, &p)) return VM_EXCEPTION;
  return BOOL_VAL(p->length <= s->length &&
                  memcmp(s->chars + s->length - p->length, p->chars, (size_t)p->length) == 0);
}

HELP("str.splitlines", HELP_METHODS, 0,
     "s.splitlines()",
     "The lines of s without their line ends (\\n, \\r\\n or \\r).",
     "print(\"a\\nb\\r\\nc\".splitlines())")

/* Lines without their ends: \n, \r\n or \r, as Python's splitlines(). */
LIB_NATIVE(string_splitlines) {
  ObjString *s = AS_STRING(self);
  ObjList *out = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(out));
  int i = 0, start = 0;
  while (i < s->length) {
    char c = s->chars[i];
    if (c != '\n' && c != '\r') {
      i++;
      continue;
    }
    obj_list_append(vm, out, OBJ_VAL(obj_copy_string(vm, s->chars + start, i - start)));
    i += c == '\r' && i + 1 < s->length && s->chars[i + 1] == '\n' ? 2 : 1;
    start = i;
  }
  if (start < s->length) obj_list_append(vm, out, OBJ_VAL(obj_copy_string(vm, s->chars + start, s->length - start)));
  vm_pop_root(vm);
  return OBJ_VAL(out);
}

HELP("str.count", HELP_METHODS, 0,
     "s.count(sub)",
     "How many non-overlapping times sub occurs in s.",
     "print(\"banana\".count(\"an\"))")

/* Non-overlapping occurrences of sub; "" occurs length + 1 times, as in Python. */
LIB_NATIVE(string_count) {
  ObjString *s = AS_STRING(self), *sub;
  if (!lib_string_arg(vm, "count", args, 0, &sub)) return VM_EXCEPTION;
  if (sub->length == 0) return INT_VAL(vm, s->length + 1);
  int n = 0;
  const char *at = s->chars, *end = s->chars + s->length, *hit;
  while ((hit = memmem(at, (size_t)(end - at), sub->chars, (size_t)sub->length)) != NULL) {
    n++;
    at = hit + sub->length;
  }
  return INT_VAL(vm, n);
}

/* Whether the string is non-empty and every byte passes the (ASCII) test. */
static Value all_bytes(ObjString *s, int (*test)(int)) {
  if (s->length == 0) return FALSE_VAL;
  for (int i = 0; i < s->length; i++) {
    if (!test((unsigned char)s->chars[i])) return FALSE_VAL;
  }
  return TRUE_VAL;
}

HELP("str.isdigit", HELP_METHODS, 0,
     "s.isdigit()",
     "True when s is not empty and all its characters are ASCII digits.",
     "print(\"42\".isdigit(), \"4a\".isdigit())")

LIB_NATIVE(string_isdigit) { return all_bytes(AS_STRING(self), isdigit); }

HELP("str.isalpha", HELP_METHODS, 0,
     "s.isalpha()",
     "True when s is not empty and all its characters are ASCII letters.",
     "print(\"abc\".isalpha(), \"a1\".isalpha())")

LIB_NATIVE(string_isalpha) { return all_bytes(AS_STRING(self), isalpha); }

HELP("str.isspace", HELP_METHODS, 0,
     "s.isspace()",
     "True when s is not empty and all its characters are blanks.",
     "print(\" \\t\".isspace(), \"\".isspace())")

LIB_NATIVE(string_isspace) { return all_bytes(AS_STRING(self), isspace); }

void lib_install_string_methods(AgVM *vm) {
  Table *t = &vm->core.string_methods;
  vm_add_method(vm, t, "split", string_split, 0, 1, false);
  vm_add_method(vm, t, "format", string_format, 0, -1, true);
  vm_add_method(vm, t, "join", string_join, 1, 1, false);
  vm_add_method(vm, t, "strip", string_strip, 0, 1, false);
  vm_add_method(vm, t, "lstrip", string_lstrip, 0, 1, false);
  vm_add_method(vm, t, "rstrip", string_rstrip, 0, 1, false);
  vm_add_method(vm, t, "upper", string_upper, 0, 0, false);
  vm_add_method(vm, t, "lower", string_lower, 0, 0, false);
  vm_add_method(vm, t, "replace", string_replace, 2, 2, false);
  vm_add_method(vm, t, "find", string_find, 1, 1, false);
  vm_add_method(vm, t, "startswith", string_startswith, 1, 1, false);
  vm_add_method(vm, t, "endswith", string_endswith, 1, 1, false);
  vm_add_method(vm, t, "splitlines", string_splitlines, 0, 0, false);
  vm_add_method(vm, t, "count", string_count, 1, 1, false);
  vm_add_method(vm, t, "isdigit", string_isdigit, 0, 0, false);
  vm_add_method(vm, t, "isalpha", string_isalpha, 0, 0, false);
  vm_add_method(vm, t, "isspace", string_isspace, 0, 0, false);
}
