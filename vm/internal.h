/* internal.h — what the VM's own files share and nothing else uses: the slow
 * paths of operators, attribute and index access (ops.c), import
 * (import.c) and string formatting (format.c) that the dispatch loop (vm.c)
 * calls when its inline fast paths do not apply. Each returns the result or
 * VM_EXCEPTION after throwing. */
#ifndef AG_VM_INTERNAL_H
#define AG_VM_INTERNAL_H

#include "vm/opcodes.h"
#include "vm/vm.h"

Value vm_binary_op(AgVM *vm, int op, Value a, Value b);
/* a % b with the sign of the divisor, as Python's. */
double vm_python_mod(double a, double b);
Value vm_unary_op(AgVM *vm, int op, Value a);
Value vm_set_attr(AgVM *vm, Value obj, ObjString *name, Value v);
Value vm_get_index_n(AgVM *vm, Value obj, int n, const Value *index);
Value vm_set_index_n(AgVM *vm, Value obj, int n, const Value *index, Value v);
/* Adds every item of an iterable to list (spread, list.extend). */
bool vm_extend_list(AgVM *vm, ObjList *list, Value iterable);
/* The sequence a for loop walks (maps become a snapshot of their keys). */
Value vm_iter_prepare(AgVM *vm, Value iterable);
/* Next item of seq at *pos: 1 = item stored, 0 = done, -1 = thrown. */
int vm_iter_next(AgVM *vm, Value seq, double *pos, Value *item);
/* Number of items (len()); -1 after throwing. */
int64_t vm_length(AgVM *vm, Value v);
/* Index resolution shared by lists and strings: false if out of range. */
bool vm_normalize_index(double index, int64_t length, int64_t *out);
Value vm_slice_list(AgVM *vm, ObjList *list, ObjSlice *slice);
Value vm_slice_string(AgVM *vm, ObjString *s, ObjSlice *slice);
Value vm_tensors_unavailable(AgVM *vm);
bool vm_is_valid_map_key(Value key);
Value vm_map_key_error(AgVM *vm, Value key);
/* repr() of a value for messages, truncated; written to buf. */
void vm_short_repr(AgVM *vm, Value v, char *buf, size_t size);

/* quicken.c: superinstructions. The first opcode byte of a common pair of
 * instructions is overwritten with a fused opcode numbered after OP_COUNT;
 * the second instruction's bytes stay as they were, so a jump into it, or a
 * fused opcode falling back to the plain first instruction, still runs the
 * original code. */
#define VM_QUICK_OPCODES(Q)                                                                        \
  Q(SET_LOCAL_POP)     /* SET_LOCAL x; POP */                                                      \
  Q(GET_LOCAL2)        /* GET_LOCAL a; GET_LOCAL b */                                              \
  Q(LOCAL_FIELD)       /* GET_LOCAL a; GET_FIELD name */                                           \
  Q(CONST_ADD)         /* CONSTANT number; ADD (and the other arithmetic / comparisons) */         \
  Q(CONST_SUBTRACT)                                                                                \
  Q(CONST_MULTIPLY)                                                                                \
  Q(CONST_DIVIDE)                                                                                  \
  Q(CONST_MODULO)      /* only with an integer divisor in [1, 9e15], as LOCAL_CONST_MODULO */      \
  Q(CONST_LESS)                                                                                    \
  Q(CONST_LESS_EQUAL)                                                                              \
  Q(CONST_GREATER)                                                                                 \
  Q(CONST_GREATER_EQUAL)                                                                           \
  Q(CONST_EQUAL)                                                                                   \
  Q(CONST_NOT_EQUAL)                                                                               \
  Q(LESS_JUMP)         /* LESS; JUMP_IF_FALSE (and the other comparisons) */                       \
  Q(LESS_EQUAL_JUMP)                                                                               \
  Q(GREATER_JUMP)                                                                                  \
  Q(GREATER_EQUAL_JUMP)                                                                            \
  Q(EQUAL_JUMP)                                                                                    \
  Q(NOT_EQUAL_JUMP)                                                                                \
  Q(LOCAL_CONST_ADD)   /* GET_LOCAL a; CONSTANT number; ADD (and the rest as CONST_) */             \
  Q(LOCAL_CONST_SUBTRACT)                                                                          \
  Q(LOCAL_CONST_MULTIPLY)                                                                          \
  Q(LOCAL_CONST_DIVIDE)                                                                            \
  Q(LOCAL_CONST_MODULO)                                                                            \
  Q(LOCAL_CONST_LESS)                                                                              \
  Q(LOCAL_CONST_LESS_EQUAL)                                                                        \
  Q(LOCAL_CONST_GREATER)                                                                           \
  Q(LOCAL_CONST_GREATER_EQUAL)                                                                     \
  Q(LOCAL_CONST_EQUAL)                                                                             \
  Q(LOCAL_CONST_NOT_EQUAL)                                                                         \
  Q(CONST_LESS_JUMP)   /* CONSTANT number; LESS; JUMP_IF_FALSE (and the other comparisons) */      \
  Q(CONST_LESS_EQUAL_JUMP)                                                                         \
  Q(CONST_GREATER_JUMP)                                                                            \
  Q(CONST_GREATER_EQUAL_JUMP)                                                                      \
  Q(CONST_EQUAL_JUMP)                                                                              \
  Q(CONST_NOT_EQUAL_JUMP)                                                                          \
  Q(LOCALS_LESS_JUMP)  /* GET_LOCAL a; GET_LOCAL b; LESS; JUMP_IF_FALSE (and the other comparisons) */ \
  Q(LOCALS_LESS_EQUAL_JUMP)                                                                        \
  Q(LOCALS_GREATER_JUMP)                                                                           \
  Q(LOCALS_GREATER_EQUAL_JUMP)                                                                     \
  Q(LOCALS_EQUAL_JUMP)                                                                             \
  Q(LOCALS_NOT_EQUAL_JUMP)                                                                         \
  Q(LOCAL_CONST_LESS_JUMP) /* GET_LOCAL a; CONSTANT number; LESS; JUMP_IF_FALSE (and the others) */ \
  Q(LOCAL_CONST_LESS_EQUAL_JUMP)                                                                   \
  Q(LOCAL_CONST_GREATER_JUMP)                                                                      \
  Q(LOCAL_CONST_GREATER_EQUAL_JUMP)                                                                \
  Q(LOCAL_CONST_EQUAL_JUMP)                                                                        \
  Q(LOCAL_CONST_NOT_EQUAL_JUMP)

typedef enum {
  QOP_BEFORE_FIRST = OP_COUNT - 1,
#define VM_QUICK_ENUM(name) QOP_##name,
  VM_QUICK_OPCODES(VM_QUICK_ENUM)
#undef VM_QUICK_ENUM
      QOP_END
} QuickOpCode;

/* Rewrites f's code once (idempotent); called when its first closure is made. */
void vm_quicken(ObjFunction *f);

/* import.c: pushes the module (loaded) or a frame running it (first import). */
typedef enum { CALL_ERROR, CALL_FRAME, CALL_DONE } CallStatus;
CallStatus vm_import(AgVM *vm, ObjString *path);

/* call.c. The callee (or receiver) sits below argc arguments and nkw keyword
 * values on the stack; kwnames names the keyword values. CALL_FRAME: a frame
 * was pushed for the loop to run; CALL_DONE: the result replaced the callee
 * slot; CALL_ERROR: an exception is pending. */
#define VM_KW_MAX 256
CallStatus vm_call_closure(AgVM *vm, ObjClosure *closure, int argc, int nkw,
                           ObjString *const *kwnames, bool is_init);
CallStatus vm_call_value(AgVM *vm, Value callee, int argc, int nkw, ObjString *const *kwnames);
/* A method with the receiver already in the callee slot (is_init: return it). */
CallStatus vm_call_method(AgVM *vm, Value method, Value receiver, int argc, int nkw,
                          ObjString *const *kwnames, bool is_init);
/* receiver.name(args) with the receiver in the callee slot. */
CallStatus vm_invoke_slot(AgVM *vm, ObjString *name, int argc, int nkw, ObjString *const *kwnames);
/* Throws Interrupted (Ctrl-C) and clears the flags; returns CALL_ERROR. */
CallStatus vm_raise_interrupted(AgVM *vm);

#endif
