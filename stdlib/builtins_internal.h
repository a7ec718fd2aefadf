/* builtins_internal.h — helpers shared by the core library's files. */
#ifndef AG_BUILTINS_INTERNAL_H
#define AG_BUILTINS_INTERNAL_H

#include "stdlib/help.h"
#include "vm/vm.h"

#define LIB_NATIVE(name) \
  static Value name(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw)

/* Argument checks: on a wrong type they throw "FN() expects a number for
 * argument N, not T" and return false. */
bool lib_number_arg(AgVM *vm, const char *fname, const Value *args, int i, double *out);
bool lib_int_arg(AgVM *vm, const char *fname, const Value *args, int i, int64_t *out);
bool lib_string_arg(AgVM *vm, const char *fname, const Value *args, int i, ObjString **out);
bool lib_list_arg(AgVM *vm, const char *fname, const Value *args, int i, ObjList **out);
/* Items of any iterable as a new list (rooted by the caller after return). */
Value lib_to_list(AgVM *vm, Value iterable);
/* The fields of the built-in classes' instances (files, iterators, progress
 * bars), by name: nil when unset. */
Value lib_field(AgVM *vm, Value inst, const char *name);
void lib_set_field(AgVM *vm, Value inst, const char *name, Value v);
/* iter(iterable): the instance's iter() or an iterator over a built-in
 * sequence; VM_EXCEPTION after throwing. */
Value lib_make_iterator(AgVM *vm, Value iterable);
/* Stable sort of list items in place; keys parallel to items (or NULL). */
bool lib_sort_values(AgVM *vm, Value *items, Value *keys, int n, bool reverse);

void lib_install_list_methods(AgVM *vm);
void lib_install_map_methods(AgVM *vm);
void lib_install_string_methods(AgVM *vm);
void lib_install_set_methods(AgVM *vm);
void lib_install_seq_builtins(AgVM *vm);
void lib_install_progress(AgVM *vm);
void lib_install_files(AgVM *vm);
bool lib_is_file(AgVM *vm, Value v);
/* f.write(s) on a file that open() made. */
Value lib_file_write(AgVM *vm, Value f, Value s);

#endif
