/* object.h — heap objects of the Ag VM.
 *
 * Every heap value starts with an Obj header and is allocated through the
 * memory manager (memory.h), which links it into the VM's object list for the
 * collector. The kinds below are the complete set of value types of SPEC §3.
 */
#ifndef AG_OBJECT_H
#define AG_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chunk.h"
#include "value.h"

typedef enum {
  OBJ_STRING,
  OBJ_LIST,
  OBJ_MAP,
  OBJ_RANGE,
  OBJ_SLICE,
  OBJ_FUNCTION, /* a compiled function prototype (not a script value) */
  OBJ_CLOSURE,
  OBJ_UPVALUE,
  OBJ_NATIVE,
  OBJ_CLASS,
  OBJ_INSTANCE,
  OBJ_BOUND_METHOD,
  OBJ_MODULE,
  OBJ_TENSOR,
  OBJ_NODE,  /* an autograd graph node (grad_fn) */
  OBJ_DTYPE, /* float32 float64 int64 bool */
} ObjType;

struct Obj {
  ObjType type;
  bool marked;
  struct Obj *next;
};

typedef struct ObjString {
  Obj obj;
  int length;
  uint32_t hash;
  char chars[]; /* NUL-terminated; strings are immutable and interned */
} ObjString;

typedef struct ObjFunction {
  Obj obj;
  int arity;          /* named parameters, the rest parameter excluded */
  bool has_rest;      /* last parameter collects extra positionals in a list */
  int upvalue_count;
  int max_slots;      /* stack slots the frame may use (locals + temporaries) */
  ObjString **param_names; /* arity (+1 if has_rest) names, for keyword binding */
  Chunk chunk;
  ObjString *name;    /* NULL for a module's top level */
  ObjString *file;    /* source file, for errors and tracebacks */
  int line;           /* line of the definition */
} ObjFunction;

#endif
