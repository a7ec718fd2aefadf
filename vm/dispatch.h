/* dispatch.h — the vocabulary of the dispatch loop (run() in vm.c and the
 * superinstructions in quick_cases.h, which run() includes). Included only
 * inside run(), whose locals these macros name:
 *
 *   frame, ip, slots, constants  the running frame (LOAD_FRAME)
 *   sp                           the stack top, kept in a register: vm->exec.stack_top
 *                                is only current after SYNC(), which every path
 *                                that may allocate, call or throw runs first;
 *                                LOAD_SP() takes it back after such a call.
 *
 * Dispatch is a computed goto under GCC/Clang (one indirect jump per opcode,
 * at the end of each case), a switch elsewhere.
 */

#define LOAD_FRAME()                                                                               \
  do {                                                                                             \
    frame = &vm->exec.frames[vm->exec.frame_count - 1];                                                      \
    ip = frame->ip;                                                                                \
    slots = frame->slots;                                                                          \
    constants = frame->closure->function->chunk.constants;                                         \
    sp = vm->exec.stack_top;                                                                            \
  } while (0)
#define SYNC() (frame->ip = ip, vm->exec.stack_top = sp)
#define LOAD_SP() (sp = vm->exec.stack_top)
#define PUSH(v) (*sp++ = (v))
#define POP() (*--sp)
#define PEEK(n) (sp[-1 - (n)])
#define READ_BYTE() (*ip++)
#define READ_SHORT() (ip += 2, ag_read_u16(ip - 2))
#define READ_CONSTANT() (constants[READ_SHORT()])
#define READ_STRING() AS_STRING(READ_CONSTANT())
/* Constant u16 at ip + offset, without moving ip (superinstructions). */
#define CONSTANT_AT(offset) (constants[ag_read_u16(ip + (offset))])
#define THROW() goto exception
#define CHECK(v)                                                                                   \
  do {                                                                                             \
    if (IS_EXCEPTION(v)) THROW();                                                                  \
  } while (0)
#define AFTER_CALL(status)                                                                         \
  do {                                                                                             \
    CallStatus s_ = (status);                                                                      \
    if (s_ == CALL_ERROR) THROW();                                                                 \
    if (s_ == CALL_FRAME) LOAD_FRAME();                                                            \
    else LOAD_SP();                                                                                \
  } while (0)

#ifdef VM_COMPUTED_GOTO
#define VM_CASE(name) L_##name:
#define VM_QUICK_CASE(name) Q_##name:
#define VM_DISPATCH() goto *dispatch_table[*ip++]
#else
#define VM_CASE(name)                                                                              \
  case OP_##name:                                                                                  \
  L_##name : __attribute__((unused));
#define VM_QUICK_CASE(name)                                                                        \
  case QOP_##name:                                                                                 \
  Q_##name : __attribute__((unused));
#define VM_DISPATCH() goto dispatch
#endif

/* Pushes a result, with ip at the next instruction. When that is a store
 * into a local that pops the value (SET_LOCAL x; POP, quickened), as in
 * `x = x + 1`, it stores into the local directly: one push, pop and dispatch
 * fewer. */
#define PUSH_OR_STORE(v)                                                                           \
  do {                                                                                             \
    if (*ip == QOP_SET_LOCAL_POP) {                                                                \
      slots[ip[1]] = (v);                                                                          \
      ip += 3;                                                                                     \
    } else {                                                                                       \
      PUSH(v);                                                                                     \
    }                                                                                              \
  } while (0)

/* a, b -> a OP b by the slow path (vm_binary_op: every type, every error). */
#define SLOW_BINARY(opcode)                                                                        \
  do {                                                                                             \
    SYNC();                                                                                        \
    Value slow_ = vm_binary_op(vm, opcode, sp[-2], sp[-1]);        \
    CHECK(slow_);                                                                                     \
    sp--;                                                                                          \
    sp[-1] = slow_;                                                                                   \
  } while (0)
/* a -> OP a by the slow path (vm_unary_op). */
#define SLOW_UNARY(opcode)                                                                         \
  do {                                                                                             \
    SYNC();                                                                                        \
    Value r_ = vm_unary_op(vm, opcode, sp[-1]);                                                    \
    CHECK(r_);                                                                                     \
    sp[-1] = r_;                                                                                   \
  } while (0)
/* a OP= b off the number path: in place where a's value allows (protocol.c). */
#define SLOW_INPLACE(opcode)                                                                       \
  do {                                                                                             \
    SYNC();                                                                                        \
    Value r_ = vm_inplace_op(vm, opcode, sp[-2], sp[-1]);                                          \
    CHECK(r_);                                                                                     \
    sp--;                                                                                          \
    sp[-1] = r_;                                                                                   \
  } while (0)
/* a, b -> a OP b: inline on fast numbers (arith.h), else the slow path. */
#define BINARY(name)                                                                               \
  do {                                                                                             \
    Value r_;                                                                                      \
    if (arith_##name(sp[-2], sp[-1], &r_)) {                                                       \
      sp -= 2;                                                                                     \
      PUSH_OR_STORE(r_);                                                                           \
    } else {                                                                                       \
      SLOW_BINARY(OP_##name);                                                                      \
    }                                                                                              \
  } while (0)
#define COMPARISON(name)                                                                           \
  do {                                                                                             \
    int c_ = compare_##name(sp[-2], sp[-1]);                                                       \
    if (c_ >= 0) {                                                                                 \
      sp -= 2;                                                                                     \
      PUSH_OR_STORE(BOOL_VAL(c_));                                                                 \
    } else {                                                                                       \
      SLOW_BINARY(OP_##name);                                                                      \
    }                                                                                              \
  } while (0)

/* The jump of LOOP (ip past its opcode byte) and the poll for Ctrl-C, with
 * ip at the loop's start, so that an interrupt's traceback shows it. */
#define LOOP_BACK()                                                                                \
  do {                                                                                             \
    uint16_t offset_ = ag_read_u16(ip);                                                            \
    ip = ip + 2 - offset_;                                                                         \
    if (tensor_interrupt_requested) {                                                              \
      SYNC();                                                                                      \
      vm_raise_interrupted(vm);                                                                    \
      THROW();                                                                                     \
    }                                                                                              \
  } while (0)
