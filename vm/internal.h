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
/* number.c: + - * / // % ** and comparisons of two numbers or bools, with
 * Python's rules (integer overflow and ZeroDivisionError are thrown). */
Value vm_number_op(AgVM *vm, int op, Value a, Value b);
Value vm_negate_number(AgVM *vm, Value a); /* a: a number or a bool */
Value vm_unary_op(AgVM *vm, int op, Value a);
Value vm_get_index_n(AgVM *vm, Value obj, int n, const Value *index);
Value vm_set_index_n(AgVM *vm, Value obj, int n, const Value *index, Value v);
/* Adds every item of an iterable to list (spread, list.extend). */
bool vm_extend_list(AgVM *vm, ObjList *list, Value iterable);
/* The sequence a for loop walks (maps become a snapshot of their keys). */
Value vm_iter_prepare(AgVM *vm, Value iterable);
/* Next item of seq at *pos: 1 = item stored, 0 = done, -1 = thrown. */
int vm_iter_next(AgVM *vm, Value seq, double *pos, Value *item);
/* Calls visit(item) for each item of an iterable until it returns non-zero:
 * that value (1 = stopped early, -1 = thrown), or 0 when every item was
 * visited, -1 when the walk itself threw. */
typedef int (*VmVisit)(AgVM *vm, Value item, void *ctx);
int vm_iterate(AgVM *vm, Value iterable, VmVisit visit, void *ctx);
/* An iterator instance's next(): 1 = item, 0 = StopIteration, -1 = thrown. */
int vm_iterator_next(AgVM *vm, Value it, Value *item);
/* Hints for misspelt names (vm/suggest.c): the closest known name. */
typedef struct {
  const char *name;
  const char *best;
  int best_distance;
} VmSuggest;
void vm_suggest_begin(VmSuggest *s, const char *name);
void vm_suggest_add(VmSuggest *s, const char *candidate);
void vm_suggest_add_table(VmSuggest *s, const Table *t); /* its string keys */
/* "; did you mean `best`?" in buf, or "" when no name is close enough. */
const char *vm_suggest_hint(const VmSuggest *s, char *buf, size_t size);
/* For an undefined variable: what Ag writes for Python's None/True/False,
 * "declare it with `let x = ...`" (assigning), or the closest defined name. */
const char *vm_name_hint(AgVM *vm, const char *name, bool assigning, char *buf, size_t size);
/* AttributeError: instance `inst` has no field or method `name` (with a hint). */
Value vm_no_field(AgVM *vm, Value inst, ObjString *name);
/* For a missing attribute of obj: the closest field, method or global. */
const char *vm_attribute_hint(AgVM *vm, Value obj, const char *name, char *buf, size_t size);

/* `catch CLASSES`: 1 when thrown is an instance of the class (or of one of a
 * list's classes) or of a subclass, 0 when not, -1 after
 * throwing (CLASSES is not a class). */
int vm_catches(AgVM *vm, Value thrown, Value classes);
/* Number of items (len()); -1 after throwing. */
int64_t vm_length(AgVM *vm, Value v);
/* Index resolution shared by lists and strings: false if out of range. */
bool vm_normalize_index(int64_t index, int64_t length, int64_t *out);
Value vm_slice_list(AgVM *vm, ObjList *list, ObjSlice *slice);
Value vm_slice_string(AgVM *vm, ObjString *s, ObjSlice *slice);
Value vm_tensors_unavailable(AgVM *vm);
bool vm_is_valid_map_key(Value key);
Value vm_map_key_error(AgVM *vm, Value key);
/* protocol.c: operator methods of instances (SPEC §4). Each returns the
 * result, VM_EXCEPTION, or UNDEF_VAL when no method of the operands applies. */
Value vm_binary_method(AgVM *vm, int op, Value a, Value b);
Value vm_unary_method(AgVM *vm, VmMethod m, Value a);
/* a OP= b (OP_INPLACE_*): in place where a's value allows, else a OP b. */
Value vm_inplace_op(AgVM *vm, int op, Value a, Value b);
int64_t vm_instance_length(AgVM *vm, Value v);
/* vm_truthy of a value nothing else roots (a method's result). */
int vm_truthy_rooted(AgVM *vm, Value v);

/* generator.c (OP_GENERATOR, OP_YIELD) */
/* A generator holding the top frame's values; the frame then returns it. */
Value vm_generator_start(AgVM *vm);
/* Saves the running generator's frame (the frame at base, on top) into it,
 * all but the yielded value on top of its stack, and takes its handlers and
 * upvalues, so that RETURN then only pops it; false after throwing. */
bool vm_generator_suspend(AgVM *vm, int base);
void vm_free_generator(AgVM *vm, ObjGenerator *g);
/* vm.c: a handler whose catch is at catch_ip, for the top frame at the current height. */
void vm_push_handler(AgVM *vm, uint8_t *catch_ip);
/* Runs the frame just pushed (a call from C, a generator resumed) to its
 * return: the result, or VM_EXCEPTION. */
Value vm_run_pushed_frame(AgVM *vm);

/* set.c */
/* A set of the n values at items (OP_NEW_SET; they stay rooted by the caller). */
Value vm_make_set(AgVM *vm, const Value *items, int n);
Value vm_set_binary(AgVM *vm, int op, Value a, Value b); /* UNDEF_VAL: not a set op */
Value vm_set_inplace(AgVM *vm, int op, Value a, Value b);

/* repr() of a value for messages, truncated; written to buf. */
void vm_short_repr(AgVM *vm, Value v, char *buf, size_t size);

/* quicken.c: superinstructions. The first opcode byte of a common sequence
 * of instructions is overwritten with a fused opcode numbered after OP_COUNT;
 * the other instructions' bytes stay as they were, so a jump into them, or a
 * fused opcode falling back to the plain first instruction, still runs the
 * original code. Not done under AG_NO_QUICKEN=1 (vm->exec.quicken).
 *
 * The one table of them: each row is Q(NAME, FORM, ARGS...), giving the
 * opcode QOP_NAME, its dispatch label Q_NAME (vm.c) and its case, FORM(NAME,
 * ARGS...), one of the case forms of quick_cases.h (WRITTEN_OUT: a case
 * written there by hand). quicken.c computes some opcodes from others, so
 * the order within each group is the order of the base opcodes ADD ..
 * MODULO and LESS .. NOT_EQUAL (checked there). */
#define VM_QUICK_OPCODES(Q)                                                                        \
  /* SET_LOCAL x; POP */                                                                           \
  Q(SET_LOCAL_POP, WRITTEN_OUT, _)                                                                 \
  /* CONSTANT number; op */                                                                        \
  Q(CONST_ADD, CONST_ARITH, ADD)                                                                   \
  Q(CONST_SUBTRACT, CONST_ARITH, SUBTRACT)                                                         \
  Q(CONST_MULTIPLY, CONST_ARITH, MULTIPLY)                                                         \
  Q(CONST_DIVIDE, CONST_ARITH, DIVIDE)                                                             \
  Q(CONST_MODULO, CONST_ARITH, MODULO)                                                             \
  Q(CONST_LESS, CONST_COMPARE, LESS)                                                               \
  Q(CONST_LESS_EQUAL, CONST_COMPARE, LESS_EQUAL)                                                   \
  Q(CONST_GREATER, CONST_COMPARE, GREATER)                                                         \
  Q(CONST_GREATER_EQUAL, CONST_COMPARE, GREATER_EQUAL)                                             \
  Q(CONST_EQUAL, CONST_COMPARE, EQUAL)                                                             \
  Q(CONST_NOT_EQUAL, CONST_COMPARE, NOT_EQUAL)                                                     \
  /* compare; JUMP_IF_FALSE */                                                                     \
  Q(LESS_JUMP, COMPARE_JUMP, LESS)                                                                 \
  Q(LESS_EQUAL_JUMP, COMPARE_JUMP, LESS_EQUAL)                                                     \
  Q(GREATER_JUMP, COMPARE_JUMP, GREATER)                                                           \
  Q(GREATER_EQUAL_JUMP, COMPARE_JUMP, GREATER_EQUAL)                                               \
  Q(EQUAL_JUMP, COMPARE_JUMP, EQUAL)                                                               \
  Q(NOT_EQUAL_JUMP, COMPARE_JUMP, NOT_EQUAL)                                                       \
  /* CONSTANT number; compare; JUMP_IF_FALSE */                                                    \
  Q(CONST_LESS_JUMP, CONST_COMPARE_JUMP, LESS)                                                     \
  Q(CONST_LESS_EQUAL_JUMP, CONST_COMPARE_JUMP, LESS_EQUAL)                                         \
  Q(CONST_GREATER_JUMP, CONST_COMPARE_JUMP, GREATER)                                               \
  Q(CONST_GREATER_EQUAL_JUMP, CONST_COMPARE_JUMP, GREATER_EQUAL)                                   \
  Q(CONST_EQUAL_JUMP, CONST_COMPARE_JUMP, EQUAL)                                                   \
  Q(CONST_NOT_EQUAL_JUMP, CONST_COMPARE_JUMP, NOT_EQUAL)                                           \
  /* GET_LOCAL a; GET_LOCAL b | GET_FIELD name */                                                  \
  Q(GET_LOCAL2, WRITTEN_OUT, _)                                                                    \
  Q(LOCAL_FIELD, WRITTEN_OUT, _)                                                                   \
  /* GET_LOCAL a; CONSTANT number; op */                                                           \
  Q(LOCAL_CONST_ADD, LOCAL_CONST_ARITH, ADD)                                                       \
  Q(LOCAL_CONST_SUBTRACT, LOCAL_CONST_ARITH, SUBTRACT)                                             \
  Q(LOCAL_CONST_MULTIPLY, LOCAL_CONST_ARITH, MULTIPLY)                                             \
  Q(LOCAL_CONST_DIVIDE, LOCAL_CONST_ARITH, DIVIDE)                                                 \
  Q(LOCAL_CONST_MODULO, LOCAL_CONST_ARITH, MODULO)                                                 \
  Q(LOCAL_CONST_LESS, LOCAL_CONST_COMPARE, LESS)                                                   \
  Q(LOCAL_CONST_LESS_EQUAL, LOCAL_CONST_COMPARE, LESS_EQUAL)                                       \
  Q(LOCAL_CONST_GREATER, LOCAL_CONST_COMPARE, GREATER)                                             \
  Q(LOCAL_CONST_GREATER_EQUAL, LOCAL_CONST_COMPARE, GREATER_EQUAL)                                 \
  Q(LOCAL_CONST_EQUAL, LOCAL_CONST_COMPARE, EQUAL)                                                 \
  Q(LOCAL_CONST_NOT_EQUAL, LOCAL_CONST_COMPARE, NOT_EQUAL)                                         \
  /* GET_LOCAL a; GET_LOCAL b; compare; JUMP_IF_FALSE */                                           \
  Q(LOCALS_LESS_JUMP, LOCALS_COMPARE_JUMP, LESS)                                                   \
  Q(LOCALS_LESS_EQUAL_JUMP, LOCALS_COMPARE_JUMP, LESS_EQUAL)                                       \
  Q(LOCALS_GREATER_JUMP, LOCALS_COMPARE_JUMP, GREATER)                                             \
  Q(LOCALS_GREATER_EQUAL_JUMP, LOCALS_COMPARE_JUMP, GREATER_EQUAL)                                 \
  Q(LOCALS_EQUAL_JUMP, LOCALS_COMPARE_JUMP, EQUAL)                                                 \
  Q(LOCALS_NOT_EQUAL_JUMP, LOCALS_COMPARE_JUMP, NOT_EQUAL)                                         \
  /* GET_LOCAL a; CONSTANT number; compare; JUMP_IF_FALSE */                                       \
  Q(LOCAL_CONST_LESS_JUMP, LOCAL_CONST_COMPARE_JUMP, LESS)                                         \
  Q(LOCAL_CONST_LESS_EQUAL_JUMP, LOCAL_CONST_COMPARE_JUMP, LESS_EQUAL)                             \
  Q(LOCAL_CONST_GREATER_JUMP, LOCAL_CONST_COMPARE_JUMP, GREATER)                                   \
  Q(LOCAL_CONST_GREATER_EQUAL_JUMP, LOCAL_CONST_COMPARE_JUMP, GREATER_EQUAL)                       \
  Q(LOCAL_CONST_EQUAL_JUMP, LOCAL_CONST_COMPARE_JUMP, EQUAL)                                       \
  Q(LOCAL_CONST_NOT_EQUAL_JUMP, LOCAL_CONST_COMPARE_JUMP, NOT_EQUAL)                               \
  /* GET_LOCAL a; GET_LOCAL b; op */                                                               \
  Q(LOCALS_ADD, LOCALS_ARITH, ADD)                                                                 \
  Q(LOCALS_SUBTRACT, LOCALS_ARITH, SUBTRACT)                                                       \
  Q(LOCALS_MULTIPLY, LOCALS_ARITH, MULTIPLY)                                                       \
  Q(LOCALS_DIVIDE, LOCALS_ARITH, DIVIDE)                                                           \
  Q(LOCALS_MODULO, LOCALS_ARITH, MODULO)                                                           \
  VM_LOCAL_LOCAL_CONST_FORMS(VM_LOCAL_LOCAL_CONST_ROW, Q)                                          \
  /* GET_LOCAL a; CONSTANT k; MODULO; CONSTANT c; compare; JUMP_IF_FALSE (`if n % 2 == 0`) */      \
  Q(LOCAL_CONST_MODULO_CONST_EQUAL_JUMP, LOCAL_MODULO_COMPARE_JUMP, EQUAL)                         \
  Q(LOCAL_CONST_MODULO_CONST_NOT_EQUAL_JUMP, LOCAL_MODULO_COMPARE_JUMP, NOT_EQUAL)                 \
  VM_LOOP_HEADS(VM_LOOP_ROW, Q)                                                                    \
  /* LOOP back to an ITER_NEXT or ITER_NEXT_LOCAL */                                               \
  Q(LOOP_ITER_NEXT, LOOP_TO, L_ITER_NEXT)                                                          \
  Q(LOOP_ITER_NEXT_LOCAL, LOOP_TO, L_ITER_NEXT_LOCAL)

/* GET_LOCAL a; GET_LOCAL b; CONSTANT number; OP1; OP2, that is
 * `a OP2 (b OP1 k)` (`i + j * 3`), for every two arithmetic ops: the quick
 * opcode LOCAL_<OP2>_LOCAL_CONST_<OP1>. Listed by OP2, then OP1, in the
 * order of the opcodes ADD .. MODULO (quicken.c computes the opcode). */
#define VM_LOCAL_LOCAL_CONST_FORMS(X, Q)                                                           \
  X(Q, ADD, ADD) X(Q, ADD, SUBTRACT) X(Q, ADD, MULTIPLY) X(Q, ADD, DIVIDE) X(Q, ADD, MODULO)       \
  X(Q, SUBTRACT, ADD) X(Q, SUBTRACT, SUBTRACT) X(Q, SUBTRACT, MULTIPLY) X(Q, SUBTRACT, DIVIDE)     \
  X(Q, SUBTRACT, MODULO)                                                                           \
  X(Q, MULTIPLY, ADD) X(Q, MULTIPLY, SUBTRACT) X(Q, MULTIPLY, MULTIPLY) X(Q, MULTIPLY, DIVIDE)     \
  X(Q, MULTIPLY, MODULO)                                                                           \
  X(Q, DIVIDE, ADD) X(Q, DIVIDE, SUBTRACT) X(Q, DIVIDE, MULTIPLY) X(Q, DIVIDE, DIVIDE)             \
  X(Q, DIVIDE, MODULO)                                                                             \
  X(Q, MODULO, ADD) X(Q, MODULO, SUBTRACT) X(Q, MODULO, MULTIPLY) X(Q, MODULO, DIVIDE)             \
  X(Q, MODULO, MODULO)
#define VM_LOCAL_LOCAL_CONST_ROW(Q, op2, op1)                                                      \
  Q(LOCAL_##op2##_LOCAL_CONST_##op1, LOCAL_LOCAL_CONST, op2, op1)

/* The compare-and-jump superinstructions that a loop's condition becomes:
 * a LOOP back to one of them is the quick opcode LOOP_<head>, which tests
 * the condition itself instead of dispatching to it (same order as above,
 * quicken.c computes the opcode). */
#define VM_LOOP_HEADS(X, Q)                                                                        \
  X(Q, LOCALS_LESS_JUMP) X(Q, LOCALS_LESS_EQUAL_JUMP) X(Q, LOCALS_GREATER_JUMP)                    \
  X(Q, LOCALS_GREATER_EQUAL_JUMP) X(Q, LOCALS_EQUAL_JUMP) X(Q, LOCALS_NOT_EQUAL_JUMP)              \
  X(Q, LOCAL_CONST_LESS_JUMP) X(Q, LOCAL_CONST_LESS_EQUAL_JUMP) X(Q, LOCAL_CONST_GREATER_JUMP)     \
  X(Q, LOCAL_CONST_GREATER_EQUAL_JUMP) X(Q, LOCAL_CONST_EQUAL_JUMP)                                \
  X(Q, LOCAL_CONST_NOT_EQUAL_JUMP)
#define VM_LOOP_ROW(Q, head) Q(LOOP_##head, LOOP_TO, Q_##head)

typedef enum {
  QOP_BEFORE_FIRST = OP_COUNT - 1,
#define VM_QUICK_ENUM(name, ...) QOP_##name,
  VM_QUICK_OPCODES(VM_QUICK_ENUM)
#undef VM_QUICK_ENUM
      QOP_END
} QuickOpCode;
_Static_assert(QOP_END <= 256, "every opcode, quick ones included, must fit in a byte");

/* Rewrites f's code once (idempotent); called when its first closure is made. */
void vm_quicken(ObjFunction *f);

/* import.c: pushes the module (loaded) or a frame running it (first import). */
typedef enum { CALL_ERROR, CALL_FRAME, CALL_DONE } CallStatus;
CallStatus vm_import(AgVM *vm, ObjString *path);
/* `import torch.nn` / `from torch import nn`: what the dotted path names
 * among the built-in modules (any member as the last name when `member`). */
Value vm_import_name(AgVM *vm, ObjString *path, bool member);

/* call.c. The callee (or receiver) sits below argc arguments and nkw keyword
 * values on the stack; kwnames names the keyword values. CALL_FRAME: a frame
 * was pushed for the loop to run; CALL_DONE: the result replaced the callee
 * slot; CALL_ERROR: an exception is pending. */
#define VM_KW_MAX 256
CallStatus vm_call_closure(AgVM *vm, ObjClosure *closure, int argc, int nkw,
                           ObjString *const *kwnames, bool is_init);
CallStatus vm_call_value(AgVM *vm, Value callee, int argc, int nkw, ObjString *const *kwnames);
/* A method with the receiver already in the callee slot (is_init: return it). */
/* func.vmap: whether a batched value is among (or one level inside) the n
 * values (vm->vmap.batched_class). */
bool vm_has_batched_argument(const AgVM *vm, int n, const Value *args);
CallStatus vm_call_method(AgVM *vm, Value method, Value receiver, int argc, int nkw,
                          ObjString *const *kwnames, bool is_init);
/* receiver.name(args) with the receiver in the callee slot. */
CallStatus vm_invoke_slot(AgVM *vm, ObjString *name, int argc, int nkw, ObjString *const *kwnames);
/* vm_throw_interrupted as a call's status: returns CALL_ERROR. */
CallStatus vm_raise_interrupted(AgVM *vm);
/* descriptor.c: property, staticmethod, classmethod */
void vm_install_descriptors(AgVM *vm);
bool vm_is_property(AgVM *vm, Value member);
Value vm_member_value(AgVM *vm, Value receiver, Value member);
CallStatus vm_call_descriptor(AgVM *vm, Value member, Value receiver, int argc, int nkw,
                              ObjString *const *kwnames);
Value vm_set_instance_field(AgVM *vm, Value obj, ObjString *name, Value v);

#endif
