/* vm.h — the Ag virtual machine: state, interpreter and the C API.
 *
 * One AgVM holds everything a running program owns (no globals except the
 * Ctrl-C flag): the value stack, call frames, handler stack, global slots,
 * the heap and the collector's state, and the context of the layers below
 * (tensor/'s and autograd's state, made current on the thread that runs the
 * VM: docs/internals.md). Every function takes the VM first, so tests make a
 * fresh VM each.
 *
 * The interpreter is a bytecode loop (vm.c) dispatched by computed goto under
 * GCC/Clang, a switch elsewhere. Ints and floats are NaN-boxed (value.h), so
 * their arithmetic and comparisons are inlined fast paths (arith.h) with
 * Python's rules, small ints on their own path as in Lua 5.4; globals are array slots;
 * OP_INVOKE calls a method without allocating a bound method; a call pushes a
 * frame on a preallocated stack and allocates nothing; common instruction
 * sequences are fused into superinstructions in place when a function's
 * first closure is made (quicken.c), and an arithmetic result that is stored
 * into a local goes there directly.
 *
 * Errors: a runtime error is an `Error` instance (fields `message` and
 * `traceback`) thrown through the handler stack, so `try`/`catch` catches it.
 * C code raises with vm_throw_error()/vm_throw() and returns VM_EXCEPTION to
 * the interpreter, which unwinds. Natives may re-enter the interpreter with
 * vm_call(); an exception not caught inside comes back as VM_EXCEPTION.
 *
 * Pieces written above the VM plug in through function pointers: the compiler
 * (compile hook, for `import` and vm_run_source) and tensors (AgTensorHooks,
 * installed by stdlib/lib_tensor.c). Without hooks, tensor operations fail
 * with a clear error.
 */
#ifndef AG_VM_H
#define AG_VM_H

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "autograd/state.h"
#include "memory.h"
#include "object.h"
#include "protocol.h"
#include "table.h"
#include "tensor/state.h"
#include "value.h"

/* Returned by natives and C API calls when an exception is pending. Never a
 * script value. */
#define VM_EXCEPTION ((Value)(AG_QNAN | 7))
#define IS_EXCEPTION(v) ((v) == VM_EXCEPTION)

#define VM_FRAMES_MAX 10000
#define VM_STACK_MAX (1 << 20)     /* values */
#define VM_NATIVE_DEPTH_MAX 200    /* nested vm_call()s from C */

/* Python's built-in error classes, each a subclass of its parent (the
 * first column of the parent's row): X(KIND, name, parent kind). Ag's
 * Interrupted (Ctrl-C) is also named KeyboardInterrupt. */
#define VM_ERROR_CLASSES(X)                              \
  X(ERROR, "Error", ERROR)                               \
  X(RUNTIME, "RuntimeError", ERROR)                      \
  X(NOT_IMPLEMENTED, "NotImplementedError", RUNTIME)     \
  X(RECURSION, "RecursionError", RUNTIME)                \
  X(TYPE, "TypeError", ERROR)                            \
  X(VALUE, "ValueError", ERROR)                          \
  X(LOOKUP, "LookupError", ERROR)                        \
  X(INDEX, "IndexError", LOOKUP)                         \
  X(KEY, "KeyError", LOOKUP)                             \
  X(NAME, "NameError", ERROR)                            \
  X(ATTRIBUTE, "AttributeError", ERROR)                  \
  X(ARITHMETIC, "ArithmeticError", ERROR)                \
  X(ZERO_DIVISION, "ZeroDivisionError", ARITHMETIC)      \
  X(OVERFLOW, "OverflowError", ARITHMETIC)               \
  X(STOP_ITERATION, "StopIteration", ERROR)              \
  X(ASSERTION, "AssertionError", ERROR)                  \
  X(OS, "OSError", ERROR)                                \
  X(IMPORT, "ImportError", ERROR)                        \
  X(MEMORY, "MemoryError", ERROR)                        \
  X(INTERRUPTED, "Interrupted", ERROR)

typedef enum {
#define VM_ERROR_ENUM(kind, name, parent) VM_ERR_##kind,
  VM_ERROR_CLASSES(VM_ERROR_ENUM)
#undef VM_ERROR_ENUM
      VM_ERROR_COUNT
} VmErrorKind;

typedef enum { VM_OK, VM_COMPILE_ERROR, VM_RUNTIME_ERROR, VM_EXIT } VmResult;

typedef struct {
  ObjClosure *closure;
  uint8_t *ip;
  Value *slots;
  ObjModule *module_init; /* non-NULL: this frame runs an imported module's top level */
  bool is_init;           /* a constructor call: returns slot 0 (the new instance) */
} CallFrame;

typedef struct {
  int frame_index;   /* the frame that executed OP_TRY */
  int stack_height;  /* values on the stack then */
  uint8_t *catch_ip;
} Handler;

/* Compiles `source` in the VM's current namespace (vm->globals.compiling_module);
 * prints syntax errors to stderr itself; NULL on error. Set by stdlib. */
typedef ObjFunction *(*VmCompileHook)(AgVM *vm, const char *source, const char *file);

/* Operations on tensor and node values (OBJ_TENSOR / OBJ_NODE), installed by
 * the tensor library. Each returns a Value or VM_EXCEPTION (after throwing). */
typedef struct AgTensorHooks {
  /* op is OP_ADD..OP_MATMUL, OP_EQUAL..OP_GREATER_EQUAL, OP_IN; one of a, b is
   * a tensor or node. */
  Value (*binary)(AgVM *vm, int op, Value a, Value b);
  Value (*unary)(AgVM *vm, int op, Value a); /* OP_NEGATE */
  int (*truthy)(AgVM *vm, Value v);          /* 0/1, -1 after throwing */
  Value (*get_index)(AgVM *vm, Value obj, int n, const Value *index);
  Value (*set_index)(AgVM *vm, Value obj, int n, const Value *index, Value v);
  /* obj.name: an attribute or a method bound to obj */
  Value (*get_attr)(AgVM *vm, Value obj, ObjString *name);
  Value (*set_attr)(AgVM *vm, Value obj, ObjString *name, Value v);
  /* obj.name(args) without making a bound method */
  Value (*invoke)(AgVM *vm, Value obj, ObjString *name, int argc, const Value *args,
                  const AgKwargs *kw);
  /* a OP= b for a tensor a (b no instance): its in-place method (a += b is
   * a.add_(b)), or UNDEF when op has none (a @= b is a = a @ b) */
  Value (*inplace)(AgVM *vm, int op, Value a, Value b);
  int64_t (*length)(AgVM *vm, Value obj); /* len() and iteration; -1 after throwing */
  /* What `for` iterates for a tensor: obj itself (items by get_index) or a list
   * (e.g. a tensor that requires grad is unbound once, as PyTorch does). May be NULL. */
  Value (*iter)(AgVM *vm, Value obj);
  Value (*repr)(AgVM *vm, Value v);       /* a string */
  bool (*to_number)(AgVM *vm, Value v, double *out); /* one-element tensor; throws */
} AgTensorHooks;

/* The built-in types of non-instance values (vm/types.c): Python's name
 * (__name__), Ag's name (printed, and what type() gave before), and whether
 * the Python name is a global (int(x) ...). */
#define VM_TYPE_NAMES(X)                                                                           \
  X(VM_TYPE_INT, "int", "int", true) X(VM_TYPE_FLOAT, "float", "float", false)                     \
  X(VM_TYPE_BOOL, "bool", "bool", false) X(VM_TYPE_STR, "str", "string", true)                     \
  X(VM_TYPE_LIST, "list", "list", true) X(VM_TYPE_TUPLE, "tuple", "tuple", true)                   \
  X(VM_TYPE_DICT, "dict", "map", true)                                                             \
  X(VM_TYPE_SET, "set", "set", true) X(VM_TYPE_RANGE, "range", "range", true)                      \
  X(VM_TYPE_SLICE, "slice", "slice", false) X(VM_TYPE_FUNCTION, "function", "function", false)     \
  X(VM_TYPE_NONE, "NoneType", "nil", false) X(VM_TYPE_TYPE, "type", "class", true)                 \
  X(VM_TYPE_MODULE, "module", "module", false) X(VM_TYPE_TENSOR, "Tensor", "tensor", true)         \
  X(VM_TYPE_NODE, "Node", "node", false) X(VM_TYPE_DTYPE, "dtype", "dtype", false)                \
  X(VM_TYPE_GENERATOR, "generator", "generator", false)
enum {
#define VM_TYPE_ENUM(e, name, shown, global) e,
  VM_TYPE_NAMES(VM_TYPE_ENUM)
#undef VM_TYPE_ENUM
  VM_TYPE_COUNT
};

/* The state of the layers below the VM, owned by it (as ggml's ctx, Lua's
 * L) and current on the thread that runs it (vm_make_current): tensor/'s
 * last error, caches and memory counters; autograd's modes (grad mode,
 * anomaly detection, forward AD's level, saved-tensor hooks), running
 * backward and caches. Two VMs on one thread keep apart. */
typedef struct {
  TensorState tensor;
  AutogradState autograd;
} VmContext;

/* AgVM's fields, in named groups (vm->exec.stack_top, vm->gc.paused ...):
 * each group is what one part of the VM owns. docs/internals.md lists them. */

/* Execution: the value stack, frames and handlers (hot: first). */
typedef struct {
  Value *stack;
  Value *stack_top;
  Value *stack_limit;
  CallFrame *frames;
  int frame_count;
  Handler *handlers;
  int handler_count;
  int handler_capacity;
  ObjUpvalue *open_upvalues;
  int native_depth;
  bool quicken; /* write superinstructions into functions (vm/quicken.c); off under AG_NO_QUICKEN=1 */
  ObjGenerator *running_generator; /* the innermost generator being resumed, or NULL */
} VmExec;

/* The pending exception and how the program ends. */
typedef struct {
  Value value;        /* the value being thrown, when one is pending */
  bool pending;
  ObjList *trace;     /* traceback of a thrown non-Error value */
  int exit_code;      /* exit(code) unwinds with VM_EXIT */
  bool exiting;
  bool uncaught_interrupt; /* the last uncaught error was Interrupted (exit 130) */
} VmExceptionState;

/* Out of memory and the memory limit (vm_out_of_memory). */
typedef struct {
  struct VmOomGuard *guard; /* the innermost dispatch loop's, or NULL */
  size_t bytes;             /* the allocation that failed */
  bool recovering;          /* making the MemoryError: no limit, and a second failure throws the spare */
  size_t limit;             /* AG_MEMORY_LIMIT, default the physical memory; 0: none */
  ObjInstance *spare_error; /* made in advance, for when not even an error can be made */
  void *scratch;            /* vm_hold_scratch's block, freed by the jump */
  size_t scratch_accounted;
} VmOom;

/* Globals: one array of slots, named per namespace; the modules. */
typedef struct {
  Value *values;
  ObjString **names;
  int count;
  int capacity;
  Table builtins;              /* name -> value: seeds new slots */
  ObjModule *main_module;      /* the script / REPL session namespace */
  ObjModule *compiling_module; /* namespace vm_global_slot() resolves in */
  Table modules;               /* absolute path -> ObjModule */
  /* Files of the library written in Ag (nn.ag, ...): an uncaught error is
   * reported at the innermost line outside them, the user's call. */
  ObjString *library_files[32]; /* the embedded .ag modules (about 20) */
  int library_file_count;
} VmGlobals;

/* Built-in classes, method tables and interned names. */
typedef struct {
  ObjClass *error_class;                   /* Error, the base of every error class */
  ObjClass *error_classes[VM_ERROR_COUNT]; /* TypeError ... (VM_ERROR_CLASSES) */
  ObjClass *interrupted_class;
  ObjClass *memory_error_class;
  ObjClass *zero_division_class; /* ZeroDivisionError */
  Table list_methods, tuple_methods, map_methods, string_methods, set_methods, generator_methods;
  ObjInstance *stdout_obj, *stderr_obj;
  ObjDType *dtypes[DT_COUNT];
  Value dtype_call[DT_COUNT]; /* what calling a dtype does (float(3)), or nil */
  ObjString *init_string, *call_string, *str_string, *message_string, *traceback_string;
  ObjString *enter_string, *exit_string, *repr_string;
  ObjString *method_names[VM_METHOD_COUNT]; /* "add" ... (vm/protocol.h) */
  Value not_implemented;                    /* the NotImplemented singleton */
  Value ellipsis;                           /* `...` in an index */
  ObjClass *stop_iteration_class;
  ObjClass *iterator_class; /* what iter() of a built-in sequence makes */
  ObjClass *map_class, *filter_class, *zip_class, *enumerate_class; /* the lazy iterators map() ... make */
  ObjClass *progress_class; /* what progress() makes on a terminal */
  ObjClass *file_class;     /* what open() makes (stdlib/builtins_file.c) */
  ObjList *open_files;      /* files open for writing, renamed into place when closed */
  ObjClass *property_class, *staticmethod_class, *classmethod_class; /* vm/descriptor.c */
  Value type_objects[VM_TYPE_COUNT]; /* vm/types.c: type(3) is int ... */
} VmCore;

/* Pieces written above the VM, plugged in. */
typedef struct {
  VmCompileHook compile;
  /* Runs the code of a MODULE_UNLOADED module: false after throwing. */
  bool (*module_loader)(AgVM *vm, ObjModule *module);
  const AgTensorHooks *tensor;
  /* State of the libraries bound above the VM (stdlib/lib.h: the RNG, the
   * pinned classes of the tensor bindings ...): created and freed by them. */
  void *lib_state;
  void (*lib_state_free)(AgVM *vm, void *state);
  void (*lib_state_mark)(AgVM *vm, void *state); /* marks its Values for the GC */
} VmPlugins;

/* func.vmap's batched values (stdlib/func.ag): a native called with an
 * instance of batched_class among its arguments (or inside a list or tuple
 * argument) is called through dispatch(native, ...args, **kwargs), which
 * applies the op's batching rule, unless the native is one of passthrough
 * (type, len, print ...: not tensor operations). The natives of random
 * (randn, rand ...) go there whatever their arguments while a vmap runs:
 * its randomness= decides what they draw. NULL / nil until func is loaded. */
typedef struct {
  ObjClass *batched_class;
  Value dispatch;
  ObjList *passthrough;
  ObjList *random;
  int depth; /* vmaps running: only then are arguments looked at */
} VmVmap;

/* What the program embedding the VM sets: output, display, arguments. */
typedef struct {
  bool trace_graph; /* ag --trace-graph (read by autograd bindings) */
  bool color;       /* colour error reports (main sets it: terminal, no NO_COLOR) */
  /* progress() has drawn its bar on stderr and not ended the line: the next
   * print or error report ends it first (vm_end_progress_line) */
  bool progress_line_open;
  /* The REPL's printer for OP_REPL_SHOW (repr is v's repr), to colour it;
   * NULL: plain text on stdout. */
  void (*repl_print)(AgVM *vm, Value v, ObjString *repr);
  /* Rich output (the notebook kernel): shows one MIME bundle of `count`
   * types ("image/svg+xml" ...) with their data. NULL on a terminal, where
   * display() and show_graph() print text instead. */
  void (*display)(AgVM *vm, int count, const char *const *types, const char *const *data,
                  const size_t *lengths);
  /* A bundle shown in place (progress() in a notebook): the first call with
   * an id shows it, the next ones replace it; final: the last one (the bar
   * is complete). NULL on a terminal. */
  void (*display_in_place)(AgVM *vm, const char *id, bool final, int count,
                           const char *const *types, const char *const *data,
                           const size_t *lengths);
  /* The display host draws pictures from their sources (the web page, which
   * has no Graphviz or gnuplot process): show_graph sends DOT
   * (text/vnd.graphviz) and plot.show() the figure's data
   * (application/vnd.ag.plot+json) instead of SVG. */
  bool draws_sources;
  void *data;    /* the program embedding the VM (the kernel), for its hooks */
  ObjList *args; /* the script's `args` */
  ObjList *argv; /* sys.argv: the script's path ("" without one), then args */
} VmHost;

/* The heap and the collector. */
typedef struct {
  Obj *objects;
  Table strings; /* intern set (weak) */
  size_t bytes_allocated;
  size_t next_gc;
  size_t external_live;     /* of bytes_allocated: the tensors' (vm_add_external_bytes) */
  size_t external_since_gc; /* tensor bytes wrapped since the last collection */
  size_t external_next_gc;  /* ... that start a collection before next_gc is reached */
  bool stress;
  int paused;
  Obj **gray_stack;
  int gray_count;
  int gray_capacity;
  Value *temp_roots;
  int temp_root_count;
  int temp_root_capacity;
  Value *pins;
  uint32_t *pin_free;
  uint32_t pin_count; /* slots in use or free-listed */
  uint32_t pin_free_count;
  uint32_t pin_capacity;
  /* Freed ObjTensors waiting for reuse (memory.c), linked through Obj.next. */
  Obj *tensor_obj_cache;
  int tensor_obj_cached;
} VmHeap;

struct AgVM {
  VmExec exec;
  VmExceptionState exc;
  VmOom oom;
  VmGlobals globals;
  VmCore core;
  VmPlugins plugins;
  VmVmap vmap;
  VmHost host;
  VmHeap gc;
  VmContext context; /* tensor/'s and autograd's state */
};

/* Where vm_out_of_memory jumps to: one per running dispatch loop (vm.c),
 * with the VM state to put back. */
typedef struct VmOomGuard {
  sigjmp_buf jump;
  struct VmOomGuard *outer;
  int temp_root_count, gc_paused, native_depth;
  ObjModule *compiling_module;
} VmOomGuard;

/* A new VM, made current on this thread; vm_free makes none current if it was. */
AgVM *vm_new(void);
void vm_free(AgVM *vm);
/* Makes vm's context current on this thread: tensor/ and autograd/ work in
 * its state from now on (NULL: their process-wide defaults). Entering the
 * dispatch loop does it, so a VM may move to another thread between runs.
 * Returns the VM current before (NULL: none). */
AgVM *vm_make_current(AgVM *vm);

/* Index of global `name` in the namespace being compiled, creating a slot
 * (UNDEF, or the built-in of that name) on first use. Called by the compiler. */
int vm_global_slot(AgVM *vm, ObjString *name);
/* Compiles source as the top level of `module` (its globals resolve in that
 * namespace), with the collector paused; NULL after a syntax error. Used by
 * `import` of a file and by the loader of the embedded modules. */
ObjFunction *vm_compile_module(AgVM *vm, ObjModule *module, const char *source, const char *display);
/* Defines a built-in global (visible in every namespace unless shadowed). */
void vm_define_builtin(AgVM *vm, const char *name, Value value);
/* vm/types.c: binds the type objects (after the natives they wrap), type(v),
 * isinstance(v, t) for one type (1, 0, or -1 when t is not a type). */
void vm_install_types(AgVM *vm);
Value vm_type_of(AgVM *vm, Value v);
int vm_is_instance(AgVM *vm, Value v, Value t);
bool vm_is_builtin_type(AgVM *vm, const ObjClass *k);
ObjNative *vm_define_native(AgVM *vm, const char *name, AgNativeFn fn, int min_args,
                            int max_args, bool takes_kwargs);
/* Sets a global of the main namespace. */
void vm_set_global(AgVM *vm, const char *name, Value value);
bool vm_get_global(AgVM *vm, const char *name, Value *out);

/* Runs source / a file / a compiled top-level function in the main namespace.
 * An uncaught error is reported to stderr (vm_report_exception). */
VmResult vm_run_source(AgVM *vm, const char *source, const char *file);
VmResult vm_run_file(AgVM *vm, const char *path);
/* The exit status of a program whose run ended with r: 0 success, 1 an
 * uncaught error, 2 a syntax error, 130 Ctrl-C, or the code given to exit(). */
int vm_exit_status(AgVM *vm, VmResult r);
VmResult vm_run_function(AgVM *vm, ObjFunction *function);
/* Source files (scripts, imports) are read up to this size. */
#define VM_SOURCE_MAX ((size_t)64 << 20)
/* Reads a whole file (malloc'd, caller frees), or NULL with errno set: EFBIG
 * past VM_SOURCE_MAX (so /dev/zero ends), EINTR when Ctrl-C stopped the read
 * (polled between blocks; the interrupt flag stays set for the caller). */
char *vm_read_file(const char *path, size_t *length);
/* What went wrong, for an errno left by vm_read_file. */
const char *vm_read_problem(int err);

/* Calls from C (natives, autograd hooks, nn code). Returns the result or
 * VM_EXCEPTION with the exception pending. */
Value vm_call(AgVM *vm, Value callee, int argc, const Value *args);
Value vm_call_kw(AgVM *vm, Value callee, int argc, const Value *args, const AgKwargs *kw);
/* receiver.name(args...) as the script would call it. */
Value vm_invoke(AgVM *vm, Value receiver, ObjString *name, int argc, const Value *args,
                const AgKwargs *kw);
Value vm_invoke_cstr(AgVM *vm, Value receiver, const char *name, int argc, const Value *args);
/* Makes a built-in module ready at its first use (module_loader): false
 * after throwing, the module then stays unloaded and the next use tries again. */
bool vm_load_module(AgVM *vm, ObjModule *module);
/* The member `name` of module m (loading it first) into *out; false if it has
 * none, or after throwing (vm->exc.pending) when loading failed. */
bool vm_module_member(AgVM *vm, ObjModule *m, ObjString *name, Value *out);
/* receiver.name (fields, methods bound, built-in attributes). */
Value vm_get_attr(AgVM *vm, Value receiver, ObjString *name);
/* receiver.name = v (a property's setter, tensors' attributes); v or VM_EXCEPTION. */
Value vm_set_attr(AgVM *vm, Value obj, ObjString *name, Value v);
Value vm_get_index(AgVM *vm, Value obj, Value index);

/* Raising: all return VM_EXCEPTION. While a Ctrl-C is pending
 * (tensor_interrupt_requested), vm_throw_error throws Interrupted instead:
 * a native or a kernel that stopped for the interrupt reports it as any
 * other failure, and the user still gets the interrupt, once. */
Value vm_raise(AgVM *vm, VmErrorKind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* vm_raise(vm, VM_ERR_RUNTIME, ...): Python's and PyTorch's error for a
 * failure no more specific class describes. */
Value vm_throw_error(AgVM *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
Value vm_throw(AgVM *vm, Value thrown);
/* Throws Interrupted (Ctrl-C) and clears the interrupt flag. */
Value vm_throw_interrupted(AgVM *vm);
/* Throws MemoryError for a failed allocation of `bytes` (a double: the size
 * asked for may be past what size_t holds). */
Value vm_throw_memory_error(AgVM *vm, double bytes);
/* An Error instance (class Error or a subclass) with message and traceback. */
ObjInstance *vm_new_error(AgVM *vm, ObjClass *klass, ObjString *message);
/* Takes the pending exception (clearing it). */
Value vm_take_exception(AgVM *vm);
/* Ends a progress bar's line on stderr, if one is open, so that what is
 * written next starts on a line of its own. */
void vm_end_progress_line(AgVM *vm);
/* Prints the pending exception as an uncaught error to `out`, clears it. */
void vm_report_exception(AgVM *vm, FILE *out, bool color);
/* The message of an exception value: Error.message or str(v). */
const char *vm_exception_message(AgVM *vm, Value exc);
/* The class name of a thrown value ("ValueError", a script's own class), or
 * its type name when it is not an instance (`throw "text"`: "string"): what
 * the Jupyter kernel reports as `ename`. */
const char *vm_exception_class_name(AgVM *vm, Value exc);

/* Generators (vm/generator.c). next: 1 = *item yielded, 0 = the generator
 * ended (no StopIteration is thrown), -1 = thrown. send: the next yielded
 * value, or VM_EXCEPTION (StopIteration, with field `value` the returned
 * value, when it ends). */
int vm_generator_next(AgVM *vm, ObjGenerator *g, Value *item);
Value vm_generator_send(AgVM *vm, ObjGenerator *g, Value sent);

/* Operator methods (vm/protocol.c). */
bool vm_has_method(AgVM *vm, Value v, VmMethod m);
/* receiver.m(args) */
Value vm_call_method_named(AgVM *vm, Value receiver, VmMethod m, int argc, const Value *args);
/* a == b as the script's `==` decides it (an instance's eq): 0/1, -1 after throwing. */
int vm_equal(AgVM *vm, Value a, Value b);
int vm_instance_truthy(AgVM *vm, Value v);

/* Map keys and set members that an instance's hash/eq decide (vm/keys.c).
 * find/delete: 1 found (the value in *value, which may be NULL), 0 not, -1
 * after throwing; put checks the key and returns false after throwing. */
int vm_map_find(AgVM *vm, ObjMap *m, Value key, Value *value);
bool vm_map_put(AgVM *vm, ObjMap *m, Value key, Value value);
int vm_map_delete(AgVM *vm, ObjMap *m, Value key, Value *value);
bool vm_map_put_all(AgVM *vm, ObjMap *dst, ObjMap *src);

/* Sets (vm/set.c): members follow the rules of map keys. */
bool vm_set_add(AgVM *vm, ObjMap *set, Value v);
bool vm_set_add_all(AgVM *vm, ObjMap *set, Value iterable);
Value vm_new_set_of(AgVM *vm, Value iterable);
/* Members of a that are (keep) or are not (!keep) in the iterable b. */
Value vm_set_filter(AgVM *vm, ObjMap *a, Value b, bool keep);
Value vm_set_union(AgVM *vm, ObjMap *a, Value b);

/* Value helpers. */
/* A tuple of the items of a list (VM_EXCEPTION passes through). */
Value vm_list_to_tuple(AgVM *vm, Value list);
const char *vm_type_name(Value v);     /* "int", "float", "list", the class name ... */
const char *vm_op_symbol(int op);      /* "+" for OP_ADD ...: for error messages */
bool vm_is_bitwise_op(int op);         /* OP_BIT_OR, OP_BIT_AND, OP_BIT_XOR */
/* Marks `file` as part of the library (see AgVM.library_files). */
void vm_add_library_file(AgVM *vm, const char *file);
int vm_truthy(AgVM *vm, Value v);      /* 0/1, or -1 after throwing */
/* a == b as the language defines it; -1 after throwing (tensor hooks). */
bool vm_values_equal(Value a, Value b);
/* a is b: the same object, or the same immutable scalar (never throws). */
bool vm_values_identical(Value a, Value b);
Value vm_to_str(AgVM *vm, Value v);    /* str(v): a string, or VM_EXCEPTION */
Value vm_to_repr(AgVM *vm, Value v);   /* repr(v) */
/* Python's repr of a number value (SPEC §11: 3, 3.0, 1e-05) into buf;
 * returns the length. vm_format_float / vm_format_int: of a double, an int. */
int vm_format_num(Value v, char *buf, size_t size);
int vm_format_float(double d, char *buf, size_t size);
int vm_format_int(int64_t i, char *buf, size_t size);
/* Numbers (ints, floats, and bools as 1/0) compared exactly across int and
 * float, as Python does; nan is unordered and equal to nothing. */
bool vm_numbers_equal(Value a, Value b);
bool vm_numbers_less(Value a, Value b);
bool vm_number_is_nan(Value v);
/* What a number key hashes: equal numbers (1, 1.0, true) give equal bits. */
uint64_t vm_number_key_bits(Value v);
/* Python's formatting (vm/format.c). format(v, spec) with the format spec
 * mini-language; an f-string field `{v!r:spec}` (conversion 'r', 's', 'a' or
 * 0); format % args (printf-style; a tuple gives several arguments, a map
 * the %(name)s ones); format.format(*args, **kw) (str.format). */
Value vm_format_value(AgVM *vm, Value v, const char *spec);
Value vm_format_field(AgVM *vm, Value v, char conversion, const char *spec);
Value vm_format_percent(AgVM *vm, ObjString *format, Value args);
Value vm_format_method(AgVM *vm, ObjString *format, int argc, const Value *args, const AgKwargs *kw);
/* Compares for sorting: a < b; -1 after throwing. */
int vm_less_than(AgVM *vm, Value a, Value b);

/* Built-in types' methods (natives called with self = receiver). */
void vm_add_method(AgVM *vm, Table *methods, const char *name, AgNativeFn fn, int min_args,
                   int max_args, bool takes_kwargs);
ObjDType *vm_dtype(AgVM *vm, DType dt);
/* Checks keyword arguments against `names` (NULL-terminated); out[i] gets
 * the value or UNDEF_VAL. Unknown names throw naming `fname`. */
bool vm_parse_kwargs(AgVM *vm, const char *fname, const AgKwargs *kw, const char *const *names,
                     Value *out);

#endif
