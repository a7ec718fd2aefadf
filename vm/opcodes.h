/* opcodes.h — the one table of Ag's bytecode.
 *
 * OPCODE(name, operand_bytes, stack_effect) expands into the OpCode enum
 * (OP_name), the disassembler's names and operand widths, and the compiler's
 * stack-depth bookkeeping. A stack effect of VAR means "depends on operands";
 * the compiler computes it itself for those.
 *
 * Notation: K[x] is constant x of the current function's chunk; S[-1] is the
 * top of the stack; u8/u16 are operands that follow the opcode (u16 is
 * little-endian, two bytes, read and written only by ag_read_u16 and
 * ag_write_u16 below); "->" shows the stack top before and after.
 * Jumps are relative to the byte after the operands. Every "name" operand is
 * a u16 index of a string constant.
 *
 * Globals live in one VM-wide array, indexed by a slot the compiler obtains
 * with vm_global_slot(vm, name) (creating an UNDEF slot on first use), so a
 * global access is an array load; reading a slot that is still UNDEF is the
 * error "undefined variable 'NAME'".
 *
 * Calls: the callee sits below its arguments. Functions know their parameter
 * names, so keyword arguments are bound by name in the VM. A parameter not
 * passed is UNDEF on entry; the callee's prologue runs OP_DEFAULT for each
 * parameter with a default (defaults are evaluated at call time, in the
 * callee's scope, so they may use earlier parameters). A missing parameter
 * without a default is an error naming the function.
 *
 * Exceptions: OP_TRY pushes a handler (catch address, stack height, frame) on
 * the VM's handler stack; OP_END_TRY pops it; returning from a frame drops
 * that frame's handlers. A throw unwinds to the innermost handler, truncates
 * the stack to the recorded height, pushes the thrown value and jumps to the
 * catch address. `break`/`continue` leaving a try or with block make the
 * compiler emit OP_END_TRY (and the with block's exit() call) first.
 */
#ifndef AG_OPCODES_H
#define AG_OPCODES_H

#define VAR 99

#include <stdint.h>
#include <string.h>

/* Little-endian, so that on the usual hosts reading an operand in the
 * dispatch loop is one 16-bit load (a memcpy there: compilers do not always
 * merge the two byte loads in the large dispatch function). */
static inline uint16_t ag_read_u16(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint16_t v;
  memcpy(&v, p, sizeof v);
  return v;
#else
  return (uint16_t)(p[0] | (p[1] << 8));
#endif
}
static inline void ag_write_u16(uint8_t *p, int v) {
  p[0] = (uint8_t)(v & 0xff);
  p[1] = (uint8_t)((v >> 8) & 0xff);
}

#define AG_OPCODES(OPCODE)                                                       \
  /* push K[u16] */                                                              \
  OPCODE(CONSTANT, 2, 1)                                                         \
  /* push nil / true / false */                                                  \
  OPCODE(NIL, 0, 1)                                                              \
  OPCODE(TRUE, 0, 1)                                                             \
  OPCODE(FALSE, 0, 1)                                                            \
  /* push the Ellipsis value: `...` as an index item (t[..., 0]) */              \
  OPCODE(ELLIPSIS, 0, 1)                                                         \
  /* pop and discard S[-1] */                                                    \
  OPCODE(POP, 0, -1)                                                             \
  /* push S[-1] again */                                                         \
  OPCODE(DUP, 0, 1)                                                              \
  /* a, b -> a, b, a, b  (compound assignment to obj[i]) */                      \
  OPCODE(DUP2, 0, 2)                                                             \
  /* a, b -> b, a, b  (a chained comparison keeps its middle operand) */         \
  OPCODE(DUP_UNDER, 0, 1)                                                        \
  /* a, b -> b */                                                                \
  OPCODE(NIP, 0, -1)                                                             \
  /* push local slot u8 of the current frame (slot 0 is the callee or self) */  \
  OPCODE(GET_LOCAL, 1, 1)                                                        \
  /* local slot u8 := S[-1] (value stays) */                                     \
  OPCODE(SET_LOCAL, 1, 0)                                                        \
  /* push / assign upvalue u8 of the running closure (value stays) */            \
  OPCODE(GET_UPVALUE, 1, 1)                                                      \
  OPCODE(SET_UPVALUE, 1, 0)                                                      \
  /* push global slot u16; UNDEF is "undefined variable 'NAME'" */               \
  OPCODE(GET_GLOBAL, 2, 1)                                                       \
  /* global slot u16 := pop() (let / fn / class at top level) */                 \
  OPCODE(DEFINE_GLOBAL, 2, -1)                                                   \
  /* global slot u16 := S[-1]; UNDEF slot is "undefined variable 'NAME'" */     \
  OPCODE(SET_GLOBAL, 2, 0)                                                       \
  /* obj -> obj.name (u16): field, method bound to obj, or a built-in attribute */\
  OPCODE(GET_FIELD, 2, 0)                                                        \
  /* obj, v -> v ; obj.name (u16) := v */                                        \
  OPCODE(SET_FIELD, 2, -1)                                                       \
  /* obj, i -> obj[i] */                                                         \
  OPCODE(GET_INDEX, 0, -1)                                                       \
  /* obj, i1..in -> obj[i1, ..., in]   (n = u8 >= 2) */                          \
  OPCODE(GET_INDEX_N, 1, VAR)                                                    \
  /* obj, i, v -> v ; obj[i] := v */                                             \
  OPCODE(SET_INDEX, 0, -2)                                                       \
  /* obj, i1..in, v -> v ; obj[i1, ..., in] := v   (n = u8 >= 2) */              \
  OPCODE(SET_INDEX_N, 1, VAR)                                                    \
  /* start, stop, step -> slice (each may be nil) */                             \
  OPCODE(SLICE, 0, -2)                                                           \
  /* self, superclass -> superclass's method name (u16) bound to self */         \
  OPCODE(GET_SUPER, 2, -1)                                                       \
  /* a, b -> a OP b  (numbers, strings, lists, tensors ...) */                   \
  OPCODE(EQUAL, 0, -1)                                                           \
  OPCODE(NOT_EQUAL, 0, -1)                                                       \
  OPCODE(LESS, 0, -1)                                                            \
  OPCODE(LESS_EQUAL, 0, -1)                                                      \
  OPCODE(GREATER, 0, -1)                                                         \
  OPCODE(GREATER_EQUAL, 0, -1)                                                   \
  /* a, b -> (a in b): list/string/map-key membership, tensor element */         \
  OPCODE(IN, 0, -1)                                                              \
  /* a, b -> (a is b): the same object; immutable scalars (numbers, strings,    \
     nil, bools, dtypes) by value (vm_values_identical) */                       \
  OPCODE(IS, 0, -1)                                                              \
  OPCODE(ADD, 0, -1)                                                             \
  OPCODE(SUBTRACT, 0, -1)                                                        \
  OPCODE(MULTIPLY, 0, -1)                                                        \
  OPCODE(DIVIDE, 0, -1)                                                          \
  /* a % b, sign of the divisor (Python) */                                      \
  OPCODE(MODULO, 0, -1)                                                          \
  OPCODE(POWER, 0, -1)                                                           \
  /* a // b, floor division (Python) */                                          \
  OPCODE(FLOOR_DIVIDE, 0, -1)                                                    \
  OPCODE(MATMUL, 0, -1)                                                          \
  /* a | b, a & b, a ^ b: set union / intersection / symmetric difference,     \
     bool or / and / xor (bool tensors too), bitwise on integers */              \
  OPCODE(BIT_OR, 0, -1)                                                          \
  OPCODE(BIT_AND, 0, -1)                                                         \
  OPCODE(BIT_XOR, 0, -1)                                                         \
  /* a, b -> a OP= b (augmented assignment, SPEC §4): in place when a has an     \
     in-place form (tensors: add_ ...; lists: += extends, *= repeats;           \
     instances: iadd ...), else a OP b, which the compiler stores back. The     \
     quickener fuses them as the plain ops (numbers rebind), in the same order */\
  OPCODE(INPLACE_ADD, 0, -1)                                                     \
  OPCODE(INPLACE_SUBTRACT, 0, -1)                                                \
  OPCODE(INPLACE_MULTIPLY, 0, -1)                                                \
  OPCODE(INPLACE_DIVIDE, 0, -1)                                                  \
  OPCODE(INPLACE_MODULO, 0, -1)                                                  \
  OPCODE(INPLACE_POWER, 0, -1)                                                   \
  OPCODE(INPLACE_FLOOR_DIVIDE, 0, -1)                                            \
  OPCODE(INPLACE_MATMUL, 0, -1)                                                  \
  OPCODE(INPLACE_BIT_OR, 0, -1)                                                  \
  OPCODE(INPLACE_BIT_AND, 0, -1)                                                 \
  OPCODE(INPLACE_BIT_XOR, 0, -1)                                                 \
  /* a -> -a */                                                                  \
  OPCODE(NEGATE, 0, 0)                                                           \
  /* a -> +a (a number or tensor itself; an instance's pos()) */                 \
  OPCODE(POSITIVE, 0, 0)                                                         \
  /* a -> ~a (bitwise not of an int, logical not of a bool tensor, invert()) */  \
  OPCODE(INVERT, 0, 0)                                                           \
  /* a -> not truthy(a) */                                                       \
  OPCODE(NOT, 0, 0)                                                              \
  /* ip += u16 */                                                                \
  OPCODE(JUMP, 2, 0)                                                             \
  /* c -> ; if not truthy(c): ip += u16 */                                       \
  OPCODE(JUMP_IF_FALSE, 2, -1)                                                   \
  /* for `and`: if not truthy(S[-1]) ip += u16 (keep it) else pop it */          \
  OPCODE(AND, 2, VAR)                                                            \
  /* for `or`: if truthy(S[-1]) ip += u16 (keep it) else pop it */               \
  OPCODE(OR, 2, VAR)                                                             \
  /* ip -= u16 (loops; also polls for Ctrl-C) */                                 \
  OPCODE(LOOP, 2, 0)                                                             \
  /* callee, a1..an -> result   (n = u8) */                                      \
  OPCODE(CALL, 1, VAR)                                                           \
  /* callee, a1..an, k1..km -> result ; n = u8, m = u8, K[u16] is a list of the  \
     m keyword names */                                                          \
  OPCODE(CALL_KW, 4, VAR)                                                        \
  /* callee, args_list, k1..km -> result ; m = u8, K[u16] keyword names (a list,  \
     possibly empty): a call whose positional arguments had a spread */          \
  OPCODE(CALL_SPREAD, 3, VAR)                                                    \
  /* callee, args_list, kw_map -> result: a call with `**m` (string keys) */    \
  OPCODE(CALL_EX, 0, -2)                                                         \
  /* map, m -> map ; adds m's entries (a call's keywords; a repeated name or a   \
     key that is not a string is an error) */                                    \
  OPCODE(KW_MERGE, 0, -1)                                                        \
  /* recv, a1..an -> recv.name(a1..an) ; name u16, n u8; no bound method is made  \
     when name is a method of recv's class */                                    \
  OPCODE(INVOKE, 3, VAR)                                                         \
  /* self, a1..an, superclass -> superclass.name(self-bound)(a1..an); u16, u8 */ \
  OPCODE(SUPER_INVOKE, 3, VAR)                                                   \
  /* push a closure of function K[u16]; then, per upvalue of that function, two  \
     bytes (is_local, index): capture local slot index of this frame, or this    \
     closure's upvalue index */                                                  \
  OPCODE(CLOSURE, 2, 1)                                                          \
  /* close the upvalue pointing at S[-1] and pop it */                           \
  OPCODE(CLOSE_UPVALUE, 0, -1)                                                   \
  /* v -> ; return v from the current frame (closing its upvalues, dropping its  \
     handlers); at the end of a module's top level, returns to the importer */  \
  OPCODE(RETURN, 0, -1)                                                          \
  /* starts a generator function's body: the frame's values move into a new   \
     generator, which the call returns (vm/generator.c) */                     \
  OPCODE(GENERATOR, 0, 0)                                                        \
  /* v -> sent: suspends the generator, giving v to its resumer; resumed, the   \
     value sent (nil for next()) is pushed */                                    \
  OPCODE(YIELD, 0, 0)                                                            \
  /* if local slot u8 is not UNDEF: ip += u16 (skip the default's code, which    \
     ends with SET_LOCAL slot; POP) */                                           \
  OPCODE(DEFAULT, 3, 0)                                                          \
  /* push a new class named K[u16] */                                            \
  OPCODE(CLASS, 2, 1)                                                            \
  /* superclass, class -> superclass, class ; copies the superclass's methods    \
     into class (so lookups are one hash probe) and records the parent; a       \
     superclass that is not a class is an error */                               \
  OPCODE(INHERIT, 0, 0)                                                          \
  /* class, closure -> class ; class.methods[K[u16]] := closure */               \
  OPCODE(METHOD, 2, -1)                                                          \
  /* v1..vn -> list   (n = u16) */                                               \
  OPCODE(LIST, 2, VAR)                                                           \
  /* v1..vn -> tuple   (n = u16) */                                             \
  OPCODE(TUPLE, 2, VAR)                                                          \
  /* list, v -> list ; list.append(v) */                                         \
  OPCODE(LIST_APPEND, 0, -1)                                                     \
  /* list, iterable -> list ; appends every item of iterable (spread) */         \
  OPCODE(LIST_EXTEND, 0, -1)                                                     \
  /* k1, v1, ..., kn, vn -> map   (n = u16 pairs) */                             \
  OPCODE(MAP, 2, VAR)                                                            \
  /* map, k, v -> map ; map[k] := v (map comprehensions) */                      \
  OPCODE(MAP_INSERT, 0, -2)                                                      \
  /* v1..vn -> set   (n = u16; set literals `{1, 2}`) */                         \
  OPCODE(NEW_SET, 2, VAR)                                                            \
  /* set, v -> set ; set.add(v) (set comprehensions) */                          \
  OPCODE(SET_ADD, 0, -1)                                                         \
  /* seq -> seq, n items of seq (n = u8), item 0 deepest; seq is any iterable    \
     with exactly n items, else Python's ValueError (`a, b = f()`) */           \
  OPCODE(UNPACK, 1, VAR)                                                         \
  /* seq -> seq, a items, a list of the rest, b items (a = u8, b = u8): a        \
     starred target (`first, *rest = xs`); seq needs at least a + b items */     \
  OPCODE(UNPACK_STAR, 2, VAR)                                                    \
  /* v1..vn -> string: concatenation of str(v) for an f-string (n = u8) */       \
  OPCODE(BUILD_STRING, 1, VAR)                                                   \
  /* v -> string: an f-string field's value formatted as K[u16] says, Python's \
     field tail `[!c]:spec` (`:.4f`, `!r:`, `!s:>10`) */                        \
  OPCODE(FORMAT, 2, 0)                                                           \
  /* v, spec -> string: as FORMAT with the spec made at run time (`{x:{w}.2f}`); \
     K[u16] is the field's `[!c]:` */                                          \
  OPCODE(FORMAT_SPEC, 2, -1)                                                     \
  /* iterable -> iterable, 0 : starts a for loop; the two slots become hidden    \
     locals (the sequence to walk and the position). Maps walk a snapshot of     \
     their keys; ranges, lists, strings and tensors (dim 0) are walked as is;    \
     anything else is "object of type T is not iterable" */                     \
  OPCODE(ITER_PREP, 0, 1)                                                        \
  /* seq at local slot u8, position at slot u8+1: if the walk is done ip += u16; \
     else push the next item and advance the position */                         \
  OPCODE(ITER_NEXT, 3, VAR)                                                      \
  /* seq at local slot u8, position at u8+1, then a local slot u8 and the jump  \
     u16: as ITER_NEXT, but the item goes into that local instead of onto the    \
     stack (a loop variable that is a local) */                                  \
  OPCODE(ITER_NEXT_LOCAL, 4, 0)                                                  \
  /* push handler (catch at ip + u16) */                                         \
  OPCODE(TRY, 2, 0)                                                              \
  /* pop the innermost handler */                                                \
  OPCODE(END_TRY, 0, 0)                                                          \
  /* v -> ; throw v (an Error instance keeps the traceback it already has) */    \
  OPCODE(THROW, 0, -1)                                                           \
  /* thrown, classes -> bool: thrown is an instance of the class (or of one of   \
     a list's classes) or of a subclass: `catch ValueError as e` */              \
  OPCODE(CATCHES, 0, -1)                                                         \
  /* push the module of file K[u16] (relative to this function's file), running  \
     it first if this is its first import; a cycle is an error */               \
  OPCODE(IMPORT, 2, 1)                                                           \
  /* push the built-in module named K[u16] (dotted: torch.nn.functional); with \
     u8 = 1 the last name may be any member (`from torch import nn, manual_seed`) */\
  OPCODE(IMPORT_NAME, 3, 1)                                                      \
  /* v -> ; REPL only: show repr(v) unless v is nil, and bind it to `_` */        \
  OPCODE(REPL_SHOW, 0, -1)

typedef enum {
#define AG_OPCODE_ENUM(name, operands, effect) OP_##name,
  AG_OPCODES(AG_OPCODE_ENUM)
#undef AG_OPCODE_ENUM
      OP_COUNT
} OpCode;

#endif
