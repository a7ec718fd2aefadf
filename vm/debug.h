/* debug.h — the bytecode disassembler (`ag --dis`).
 *
 * Prints a function's code one instruction a line: offset, source line:col
 * (`|` when it repeats the previous instruction's line), the opcode name from
 * the OPCODE table (opcodes.h) and its operands decoded: constants shown by
 * value, jumps with their target offset, CLOSURE with its captured variables.
 * Then, recursively, every function among the constants, so one call shows a
 * whole module.
 */
#ifndef AG_DEBUG_H
#define AG_DEBUG_H

#include <stdio.h>

#include "vm/object.h"

typedef struct AgVM AgVM;

void dis_function(FILE *out, ObjFunction *fn);
/* As dis_function; with a VM, global slots are shown with their names. */
void dis_function_vm(FILE *out, AgVM *vm, ObjFunction *fn);
/* Prints the instruction at `offset`; returns the offset of the next one. */
int dis_instruction(FILE *out, AgVM *vm, const Chunk *chunk, int offset);

#endif
