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
#include "table.h"
#include "tensor/tensor.h"
#include "value.h"

/* An autograd graph node (autograd/autograd.h): the VM only holds
 * references, so a new node kind does not recompile the VM. */
typedef struct GradNode GradNode;

typedef enum {
  OBJ_STRING,
  OBJ_LIST,
  OBJ_TUPLE, /* an ObjList that never changes after it is made */
  OBJ_MAP,
  OBJ_SET, /* an ObjMap whose values are nil */
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
  OBJ_INT,   /* an int outside the small-int range (value.h) */
  OBJ_GENERATOR, /* the suspended frame of a function that yields */
  OBJ_TYPE_COUNT
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
  bool has_rest;      /* a parameter after them collects extra positionals in a list */
  bool has_kwargs;    /* and the last one (**kwargs) collects unknown keywords in a map */
  bool rest_is_tuple; /* *args (Python's, a tuple) rather than Ag's ...args (a list) */
  bool is_method;     /* compiled in a class body: self is slot 0; called without a
                         receiver, its first argument is self (Python's unbound call) */
  int kwonly;         /* the last named parameters are keyword-only (after *args or *) */
  bool binds_extra;   /* has_rest, has_kwargs or kwonly: arguments need bind_arguments */
  bool plain_call_slow; /* binds_extra or is_method: CALL's fast path does not apply */
  int upvalue_count;
  int max_slots;      /* stack slots the frame may use (locals + temporaries) */
  ObjString **param_names; /* obj_param_count(f) names, for keyword binding */
  Chunk chunk;
  ObjString *name;    /* NULL for a module's top level */
  ObjString *file;    /* source file, for errors and tracebacks */
  int line;           /* line of the definition */
  /* Filled by the VM on the first call from the prologue's OP_DEFAULT chain:
   * param_has_default[i] says parameter i (slot i+1) has a default. */
  bool *param_has_default;
  bool defaults_scanned;
  bool quickened; /* superinstructions written in (vm/quicken.c) */
} ObjFunction;

/* Named parameters, then the rest list and the keyword map when present. */
static inline int obj_param_count(const ObjFunction *f) {
  return f->arity + (f->has_rest ? 1 : 0) + (f->has_kwargs ? 1 : 0);
}

/* ---- the other object kinds (the VM's own; see SPEC §3) ---- */

typedef struct ObjList {
  Obj obj;
  int count;
  int capacity;
  Value *items;
} ObjList;

typedef struct ObjMap {
  Obj obj;
  Table table; /* insertion-ordered */
  /* Keys whose class defines hash (vm/keys.c): hash() -> list of those keys,
   * so an equal instance finds the stored one. NULL until there is one. */
  struct ObjMap *by_hash;
} ObjMap;

/* range(start, stop, step): lazy, never materialised. */
typedef struct ObjRange {
  Obj obj;
  int64_t start, stop, step; /* step != 0 */
} ObjRange;

/* a:b:c inside [ ]; each part may be nil. */
typedef struct ObjSlice {
  Obj obj;
  Value start, stop, step;
} ObjSlice;

/* A captured variable: open while `location` points into the value stack,
 * closed once the variable's frame returns (location = &closed). */
typedef struct ObjUpvalue {
  Obj obj;
  Value *location;
  Value closed;
  struct ObjUpvalue *next; /* the VM's list of open upvalues, by stack address */
} ObjUpvalue;

typedef struct ObjClosure {
  Obj obj;
  ObjFunction *function;
  ObjUpvalue **upvalues;
  int upvalue_count;
} ObjClosure;

/* Keyword arguments handed to a native: names[i] = values[i]. */
typedef struct AgKwargs {
  int count;
  ObjString *const *names;
  const Value *values;
} AgKwargs;

/* A native function. `self` is the receiver when called as a method (a list
 * for xs.append, the instance for a native class method), else nil. The args
 * are on the VM stack (GC-safe) and must not be kept. Returns the result, or
 * VM_EXCEPTION (vm.h) after vm_throw_error()/vm_throw(). */
typedef Value (*AgNativeFn)(AgVM *vm, Value self, int argc, const Value *args,
                            const AgKwargs *kw);

typedef struct ObjNative {
  Obj obj;
  AgNativeFn fn;
  ObjString *name;
  int min_args;
  int max_args;      /* -1: any number */
  bool takes_kwargs; /* else a keyword argument is an error naming it */
} ObjNative;

typedef struct ObjClass {
  Obj obj;
  ObjString *name;
  struct ObjClass *parent;
  Table methods; /* inherited ones copied in (OP_INHERIT) */
  Value init;    /* cached methods["init"], or NIL_VAL */
  bool has_properties; /* a method is a property: setting a field may run its setter */
  Value convert;       /* a built-in type's conversion (int(x) ...), or NIL_VAL */
  /* A built-in type (vm/types.c) prints as Ag's name of its values ("string",
   * "map", "nil"), which it equals, and float's and bool's equal those dtypes. */
  ObjString *shown_name; /* NULL: the class's name */
  int dtype_alias;       /* a DType, or -1 */
} ObjClass;

typedef struct ObjInstance {
  Obj obj;
  ObjClass *klass;
  Table fields; /* insertion-ordered */
} ObjInstance;

typedef struct ObjBoundMethod {
  Obj obj;
  Value receiver;
  Value method; /* a closure or a native */
} ObjBoundMethod;

/* MODULE_UNLOADED: a built-in module whose code runs at its first use
 * (vm_load_module), so that creating a VM does not compile nn and optim. */
typedef enum { MODULE_LOADING, MODULE_LOADED, MODULE_UNLOADED } ModuleState;

/* A namespace of globals: an imported file, the main script (or REPL
 * session), or a built-in module (nn, optim, autograd). `names` maps each
 * global's name to its slot in vm->globals.values, so `util.f` reads the live value. */
typedef struct ObjModule {
  Obj obj;
  ObjString *name;
  ObjString *path; /* absolute path of the file, or NULL */
  Table names;     /* name -> slot number */
  ModuleState state;
  /* A member it does not define is the built-in of that name (torch: torch.X
   * is every Ag built-in, torch.randn the global randn) */
  bool builtin_members;
} ObjModule;

/* Wraps one reference to a Tensor; the GC releases it. */
typedef struct ObjTensor {
  Obj obj;
  Tensor *tensor;
  size_t external_bytes; /* counted toward the GC trigger */
  /* nn.Parameter(t) marks its result: it prints as "Parameter containing:"
   * then the tensor, as PyTorch's Parameter subclass does. A mark of this
   * wrapper, not of the tensor: whatever the tensor's operations return
   * (a detach(), a view) is a plain tensor again, as in PyTorch, while
   * in-place methods return this same wrapper and keep it. */
  bool is_parameter;
} ObjTensor;

/* Wraps one reference to an autograd graph node. */
typedef struct ObjNode {
  Obj obj;
  GradNode *node;
} ObjNode;

typedef struct ObjDType {
  Obj obj;
  DType dtype;
} ObjDType;

/* A boxed int: only for values outside [AG_SMALLINT_MIN, AG_SMALLINT_MAX]. */
typedef struct ObjInt {
  Obj obj;
  int64_t value;
} ObjInt;

/* A handler of a `try` inside a suspended generator: the stack height
 * relative to the frame's slots, and where its catch begins. */
typedef struct {
  int stack_height;
  uint8_t *catch_ip;
} GenHandler;

typedef enum { GEN_CREATED, GEN_SUSPENDED, GEN_RUNNING, GEN_DONE } GenState;

/* A generator (vm/generator.c): calling a function that contains `yield`
 * runs its prologue (arguments, defaults) up to OP_GENERATOR, which moves
 * the frame here. Each resume copies the frame back onto the VM stack and
 * runs it to the next OP_YIELD, which moves it back. While suspended,
 * upvalues that closures took of the frame's locals are closed and listed
 * with their slots, to reopen on the stack at the next resume. */
typedef struct ObjGenerator {
  Obj obj;
  ObjClosure *closure;
  uint8_t *ip;
  Value *values; /* the frame's slots and temporaries */
  int value_count, value_capacity;
  GenHandler *handlers;
  int handler_count;
  ObjUpvalue **upvalues; /* closed while suspended */
  int *upvalue_slots;
  int upvalue_count;
  GenState state;
  struct ObjGenerator *resumer; /* the generator running when this one was resumed */
} ObjGenerator;

#define OBJ_TYPE(v) (AS_OBJ(v)->type)
static inline bool is_obj_type(Value v, ObjType t) { return IS_OBJ(v) && AS_OBJ(v)->type == t; }

/* ---- numbers: ints (small or boxed) and floats ---- */
#define IS_BIGINT(v) is_obj_type(v, OBJ_INT)
static inline bool value_is_int(Value v) { return IS_SMALLINT(v) || IS_BIGINT(v); }
static inline int64_t value_as_int(Value v) {
  return IS_SMALLINT(v) ? smallint_of(v) : ((ObjInt *)AS_OBJ(v))->value;
}
static inline bool value_is_number(Value v) { return IS_FLOAT(v) || value_is_int(v); }
/* Any number as a double (an int above 2^53 rounds). */
static inline double value_as_double(Value v) {
  return IS_FLOAT(v) ? value_to_num(v) : (double)value_as_int(v);
}
#define IS_INT(v) value_is_int(v)
#define AS_INT(v) value_as_int(v)
#define IS_NUMBER(v) value_is_number(v)
#define AS_NUMBER(v) value_as_double(v)
/* An int value: small when it fits, else boxed (allocates). */
Value obj_int_value(AgVM *vm, int64_t i);
static inline Value int_value(AgVM *vm, int64_t i) {
  return smallint_fits(i) ? smallint_value(i) : obj_int_value(vm, i);
}
#define INT_VAL(vm, i) int_value(vm, (int64_t)(i))
#define IS_STRING(v) is_obj_type(v, OBJ_STRING)
#define IS_LIST(v) is_obj_type(v, OBJ_LIST)
#define IS_TUPLE(v) is_obj_type(v, OBJ_TUPLE)
/* A list or a tuple: the reads they share (index, len, iteration ...). */
static inline bool is_list_or_tuple(Value v) {
  return IS_OBJ(v) && (AS_OBJ(v)->type == OBJ_LIST || AS_OBJ(v)->type == OBJ_TUPLE);
}
#define IS_MAP(v) is_obj_type(v, OBJ_MAP)
#define IS_SET(v) is_obj_type(v, OBJ_SET)
#define IS_RANGE(v) is_obj_type(v, OBJ_RANGE)
#define IS_SLICE(v) is_obj_type(v, OBJ_SLICE)
#define IS_FUNCTION(v) is_obj_type(v, OBJ_FUNCTION)
#define IS_CLOSURE(v) is_obj_type(v, OBJ_CLOSURE)
#define IS_NATIVE(v) is_obj_type(v, OBJ_NATIVE)
#define IS_CLASS(v) is_obj_type(v, OBJ_CLASS)
#define IS_INSTANCE(v) is_obj_type(v, OBJ_INSTANCE)
#define IS_BOUND_METHOD(v) is_obj_type(v, OBJ_BOUND_METHOD)
#define IS_MODULE(v) is_obj_type(v, OBJ_MODULE)
#define IS_TENSOR(v) is_obj_type(v, OBJ_TENSOR)
#define IS_NODE(v) is_obj_type(v, OBJ_NODE)
#define IS_DTYPE(v) is_obj_type(v, OBJ_DTYPE)
#define IS_GENERATOR(v) is_obj_type(v, OBJ_GENERATOR)

#define AS_STRING(v) ((ObjString *)AS_OBJ(v))
#define AS_CSTRING(v) (((ObjString *)AS_OBJ(v))->chars)
#define AS_LIST(v) ((ObjList *)AS_OBJ(v))
#define AS_TUPLE(v) ((ObjList *)AS_OBJ(v))
#define AS_MAP(v) ((ObjMap *)AS_OBJ(v))
#define AS_SET(v) ((ObjMap *)AS_OBJ(v))
#define AS_RANGE(v) ((ObjRange *)AS_OBJ(v))
#define AS_SLICE(v) ((ObjSlice *)AS_OBJ(v))
#define AS_FUNCTION(v) ((ObjFunction *)AS_OBJ(v))
#define AS_CLOSURE(v) ((ObjClosure *)AS_OBJ(v))
#define AS_NATIVE(v) ((ObjNative *)AS_OBJ(v))
#define AS_CLASS(v) ((ObjClass *)AS_OBJ(v))
#define AS_INSTANCE(v) ((ObjInstance *)AS_OBJ(v))
#define AS_BOUND_METHOD(v) ((ObjBoundMethod *)AS_OBJ(v))
#define AS_MODULE(v) ((ObjModule *)AS_OBJ(v))
#define AS_TENSOR_OBJ(v) ((ObjTensor *)AS_OBJ(v))
#define AS_NODE_OBJ(v) ((ObjNode *)AS_OBJ(v))
#define AS_DTYPE(v) ((ObjDType *)AS_OBJ(v))
#define AS_GENERATOR(v) ((ObjGenerator *)AS_OBJ(v))

/* ---- constructors (all may collect garbage: protect what you hold) ---- */
uint32_t obj_hash_bytes(const char *chars, int length);
ObjString *obj_copy_string(AgVM *vm, const char *chars, int length);
/* Takes ownership of `chars` (allocated with vm_reallocate, length + 1 bytes). */
ObjString *obj_take_string(AgVM *vm, char *chars, int length);
ObjString *obj_string(AgVM *vm, const char *cstr); /* copy of a C string */
ObjString *obj_printf_string(AgVM *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

ObjFunction *obj_new_function(AgVM *vm);
ObjClosure *obj_new_closure(AgVM *vm, ObjFunction *function);
ObjUpvalue *obj_new_upvalue(AgVM *vm, Value *slot);
ObjNative *obj_new_native(AgVM *vm, const char *name, AgNativeFn fn, int min_args, int max_args,
                          bool takes_kwargs);
ObjList *obj_new_list(AgVM *vm);
void obj_list_append(AgVM *vm, ObjList *list, Value v); /* list must be reachable */
/* A tuple of copies of items[0..count) (Python's tuple: immutable, hashable
 * when its items are). The items must stay rooted while it is made. */
ObjList *obj_new_tuple(AgVM *vm, const Value *items, int count);
Value obj_pair(AgVM *vm, Value a, Value b); /* the tuple (a, b) */
ObjMap *obj_new_map(AgVM *vm);
/* A set: an ObjMap of type OBJ_SET, its members the keys (values nil). */
ObjMap *obj_new_set(AgVM *vm);
ObjRange *obj_new_range(AgVM *vm, int64_t start, int64_t stop, int64_t step);
ObjSlice *obj_new_slice(AgVM *vm, Value start, Value stop, Value step);
ObjClass *obj_new_class(AgVM *vm, ObjString *name);
ObjInstance *obj_new_instance(AgVM *vm, ObjClass *klass);
ObjBoundMethod *obj_new_bound_method(AgVM *vm, Value receiver, Value method);
ObjModule *obj_new_module(AgVM *vm, ObjString *name, ObjString *path);
/* Takes over one reference of `tensor` (released when collected). */
ObjTensor *obj_new_tensor(AgVM *vm, Tensor *tensor);
/* Takes over one reference of `node`. */
ObjNode *obj_new_node(AgVM *vm, GradNode *node);
ObjDType *obj_new_dtype(AgVM *vm, DType dtype);
ObjGenerator *obj_new_generator(AgVM *vm, ObjClosure *closure);

/* Number of items in a range (0 when empty). */
int64_t obj_range_length(const ObjRange *r);
int64_t obj_range_item(const ObjRange *r, int64_t i);

#endif
