/* py_modules.h — the natives behind Ag's versions of Python's modules
 * (random, math, time, os, sys): each module's Ag file (stdlib/NAME.ag)
 * runs with these already defined in it. */
#ifndef AG_PY_MODULES_H
#define AG_PY_MODULES_H

#include "vm/vm.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

typedef struct {
  const char *name;
  AgNativeFn fn;
  int min_args, max_args;
} PyNative;

/* Defines each native (taking no keywords) as a global of the module. */
void py_define_natives(AgVM *vm, ObjModule *module, const PyNative *natives, size_t n);

/* Python's random and NumPy's legacy generator (py_random.c) */
void py_random_define(AgVM *vm, ObjModule *module);
void py_numpy_define(AgVM *vm, ObjModule *module);
/* unicodedata (py_unicodedata.c), on utf8proc where the build has it */
void py_unicodedata_define(AgVM *vm, ObjModule *module);
void py_math_define(AgVM *vm, ObjModule *module);
/* time, os and sys (py_modules.c) */
void py_system_define(AgVM *vm, ObjModule *module);

#endif
