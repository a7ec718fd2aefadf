/* py_unicodedata.c — Python's unicodedata module on utf8proc (Debian's
 * libutf8proc): normalize(form, s) and is_normalized(form, s) for NFC, NFD,
 * NFKC, NFKD; category(c), combining(c), mirrored(c) of one character;
 * unidata_version. Lessons strip accents with it (NFD, then drop the "Mn"
 * characters). utf8proc is optional at build time, as zlib is: a build
 * without it (the AArch64 and WebAssembly cross builds) has the module, and
 * each function says that it needs utf8proc. */
#include <stdlib.h>
#include <string.h>

#ifdef AG_HAVE_UTF8PROC
#include <utf8proc.h>
#endif

#include "stdlib/lib_internal.h"
#include "stdlib/py_modules.h"

#ifdef AG_HAVE_UTF8PROC

/* utf8proc's options for Python's form name; false after throwing. */
static bool form_options(AgVM *vm, Value form, const char *fname, utf8proc_option_t *out) {
  static const struct { const char *name; utf8proc_option_t options; } forms[] = {
      {"NFC", UTF8PROC_STABLE | UTF8PROC_COMPOSE},
      {"NFD", UTF8PROC_STABLE | UTF8PROC_DECOMPOSE},
      {"NFKC", UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT},
      {"NFKD", UTF8PROC_STABLE | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT},
  };
  if (!IS_STRING(form)) {
    vm_raise(vm, VM_ERR_TYPE, "%s() argument 1 must be str, not %s", fname, vm_type_name(form));
    return false;
  }
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    if (strcmp(AS_CSTRING(form), forms[i].name) == 0) {
      *out = forms[i].options;
      return true;
    }
  }
  vm_raise(vm, VM_ERR_VALUE, "invalid normalization form");
  return false;
}

/* s in normalization form `form`: a new string, NULL after throwing. */
static ObjString *normalized(AgVM *vm, Value form, Value s, const char *fname) {
  utf8proc_option_t options;
  if (!form_options(vm, form, fname, &options)) return NULL;
  if (!IS_STRING(s)) {
    vm_raise(vm, VM_ERR_TYPE, "%s() argument 2 must be str, not %s", fname, vm_type_name(s));
    return NULL;
  }
  utf8proc_uint8_t *out = NULL;
  utf8proc_ssize_t n = utf8proc_map((const utf8proc_uint8_t *)AS_CSTRING(s), AS_STRING(s)->length, &out, options);
  if (n < 0) {
    vm_throw_error(vm, "%s(): %s", fname, utf8proc_errmsg(n));
    return NULL;
  }
  if (n > INT32_MAX) {
    free(out);
    vm_throw_error(vm, "%s(): the result is too long", fname);
    return NULL;
  }
  ObjString *r = obj_copy_string(vm, (const char *)out, (int)n);
  free(out);
  return r;
}

static Value native_normalize(NATIVE_ARGS) {
  ObjString *r = normalized(vm, args[0], args[1], "normalize");
  return r == NULL ? VM_EXCEPTION : OBJ_VAL(r);
}

static Value native_is_normalized(NATIVE_ARGS) {
  ObjString *r = normalized(vm, args[0], args[1], "is_normalized");
  if (r == NULL) return VM_EXCEPTION;
  return BOOL_VAL(r->length == AS_STRING(args[1])->length &&
                  memcmp(r->chars, AS_CSTRING(args[1]), (size_t)r->length) == 0);
}

/* The code point of a one-character string; false after throwing. */
static bool one_char(AgVM *vm, Value c, const char *fname, utf8proc_int32_t *out) {
  if (IS_STRING(c)) {
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)AS_CSTRING(c);
    utf8proc_ssize_t len = AS_STRING(c)->length;
    utf8proc_ssize_t used = len > 0 ? utf8proc_iterate(p, len, out) : 0;
    if (used > 0 && used == len) return true;
  }
  vm_raise(vm, VM_ERR_TYPE, "%s() argument must be a unicode character, not %s", fname,
           IS_STRING(c) ? "str" : vm_type_name(c));
  return false;
}

static Value native_category(NATIVE_ARGS) {
  utf8proc_int32_t cp;
  if (!one_char(vm, args[0], "category", &cp)) return VM_EXCEPTION;
  return OBJ_VAL(obj_string(vm, utf8proc_category_string(cp)));
}

static Value native_combining(NATIVE_ARGS) {
  utf8proc_int32_t cp;
  if (!one_char(vm, args[0], "combining", &cp)) return VM_EXCEPTION;
  return INT_VAL(vm, utf8proc_get_property(cp)->combining_class);
}

static Value native_mirrored(NATIVE_ARGS) {
  utf8proc_int32_t cp;
  if (!one_char(vm, args[0], "mirrored", &cp)) return VM_EXCEPTION;
  return INT_VAL(vm, utf8proc_get_property(cp)->bidi_mirrored);
}

static Value native_unidata_version(NATIVE_ARGS) { return OBJ_VAL(obj_string(vm, utf8proc_unicode_version())); }

#else

static Value no_utf8proc(AgVM *vm) {
  return vm_throw_error(vm, "unicodedata needs utf8proc, which this build of Ag was made without "
                            "(install libutf8proc-dev and rebuild)");
}
static Value native_normalize(NATIVE_ARGS) { return no_utf8proc(vm); }
static Value native_is_normalized(NATIVE_ARGS) { return no_utf8proc(vm); }
static Value native_category(NATIVE_ARGS) { return no_utf8proc(vm); }
static Value native_combining(NATIVE_ARGS) { return no_utf8proc(vm); }
static Value native_mirrored(NATIVE_ARGS) { return no_utf8proc(vm); }
static Value native_unidata_version(NATIVE_ARGS) { return NIL_VAL; }

#endif

void py_unicodedata_define(AgVM *vm, ObjModule *module) {
  static const PyNative natives[] = {
      {"normalize", native_normalize, 2, 2},   {"is_normalized", native_is_normalized, 2, 2},
      {"category", native_category, 1, 1},     {"combining", native_combining, 1, 1},
      {"mirrored", native_mirrored, 1, 1},     {"_unidata_version", native_unidata_version, 0, 0},
  };
  py_define_natives(vm, module, natives, sizeof natives / sizeof natives[0]);
}
