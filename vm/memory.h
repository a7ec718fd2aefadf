/* memory.h — allocation and the garbage collector.
 *
 * Design. Every byte the VM owns goes through vm_reallocate(), which keeps
 * vm->gc.bytes_allocated and starts a collection when it passes vm->gc.next_gc
 * (after a collection next_gc = 2 * live bytes, at least 1 MB). Tensor
 * storage is malloc'd by tensor/, not here, but a tensor wrapper adds its
 * storage size as "external bytes" (vm_add_external_bytes) so that big
 * temporaries push the heap toward a collection and are released promptly;
 * tensor bytes alone also start one after VM_GC_EXTERNAL_STEP of them (or
 * 8 times the heap's own bytes, if more), so that freed big buffers are
 * reused before new ones must be faulted in.
 *
 * The collector is a precise, non-moving mark-sweep over the VM's list of
 * all objects (vm->gc.objects), with an explicit gray stack (no recursion on the
 * C stack, so long lists of lists cannot overflow it). Roots: the value stack,
 * the call frames' closures, open upvalues, the global slots and namespaces,
 * the built-in method tables, the pending exception, temporary roots and
 * pinned values. The string intern set is weak: unmarked strings are dropped
 * from it before the sweep.
 *
 * Protecting objects from C: a native's arguments are on the value stack and
 * so are safe. An object a native creates and still needs across a further
 * allocation must be protected: vm_push_root()/vm_pop_root() for short-lived
 * temporaries (strictly nested), or vm_pin()/vm_unpin() for values held by C
 * structures outside the heap (an autograd hook holding an Ag closure). A pin
 * is a slot in a VM-owned array; its handle stays valid until unpinned.
 *
 * Stress mode (env AG_GC_STRESS=1 at vm_new, or vm->gc.stress) collects at
 * every allocation, so a missing root shows up at once under the test suite.
 * vm->gc.paused > 0 suspends collection (used while compiling).
 */
#ifndef AG_MEMORY_H
#define AG_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "object.h"

/* The one allocation function: new_size 0 frees. Out of memory (malloc
 * fails, or the heap would pass vm->oom.limit after a collection) does not
 * return: see vm_out_of_memory. */
void *vm_reallocate(AgVM *vm, void *ptr, size_t old_size, size_t new_size);

/* Out of memory while allocating `bytes`, anywhere in the VM or in C code
 * that a native runs: jumps back to the dispatch loop that runs the current
 * code (vm->oom.guard, set by every entry into the loop), which throws a
 * MemoryError there as if the instruction had thrown it, so a script can
 * catch it and the REPL goes on. The C frames in between are abandoned: what
 * they malloc'd is lost (temporary buffers, at worst), while the VM's own
 * state (stack, frames, handlers, roots, GC pause) is put back. Outside any
 * loop (making the VM, compiling a top-level script) it prints a message
 * and exits with status 1. */
_Noreturn void vm_out_of_memory(AgVM *vm, size_t bytes);
/* The same for code that has no VM at hand (the byte buffer): the VM whose
 * loop runs on this thread. */
_Noreturn void vm_out_of_memory_here(size_t bytes);
/* While C code holds a malloc'd block and allocates (a string's bytes before
 * they are copied into the string object): the jump frees it, instead of
 * leaking it. `accounted`: its size if it came from vm_reallocate, else 0.
 * One block at a time; NULL releases the hold. */
void vm_hold_scratch(AgVM *vm, void *block, size_t accounted);
/* Frees the held block (after a jump). */
void vm_free_scratch(AgVM *vm);

#define AG_ALLOCATE(vm, type, n) ((type *)vm_reallocate((vm), NULL, 0, sizeof(type) * (size_t)(n)))
#define AG_FREE(vm, type, ptr) vm_reallocate((vm), (ptr), sizeof(type), 0)
#define AG_GROW_CAPACITY(c) ((c) < 8 ? 8 : (c) * 2)
#define AG_GROW_ARRAY(vm, type, ptr, old_n, new_n)                                  \
  ((type *)vm_reallocate((vm), (ptr), sizeof(type) * (size_t)(old_n),               \
                         sizeof(type) * (size_t)(new_n)))
#define AG_FREE_ARRAY(vm, type, ptr, n) vm_reallocate((vm), (ptr), sizeof(type) * (size_t)(n), 0)

/* Allocates an object of `size` bytes, links it into vm->gc.objects. */
Obj *vm_allocate_object(AgVM *vm, size_t size, ObjType type);
/* The same for an ObjTensor (from a cache of freed ones) whose tensor keeps
 * `external_bytes` alive (counted as vm_add_external_bytes would). */
Obj *vm_allocate_tensor_object(AgVM *vm, size_t external_bytes);
void vm_free_object(AgVM *vm, Obj *obj);
void vm_free_objects(AgVM *vm);

void vm_collect_garbage(AgVM *vm);
void vm_mark_value(AgVM *vm, Value v);
void vm_mark_object(AgVM *vm, Obj *obj);

/* Bytes held outside the heap (tensor storage); negative to release. */
void vm_add_external_bytes(AgVM *vm, ptrdiff_t delta);

/* The least tensor bytes wrapped between two collections (memory.c). */
#define VM_GC_EXTERNAL_STEP ((size_t)4 << 20)

/* Temporary roots, strictly nested. */
void vm_push_root(AgVM *vm, Value v);
void vm_pop_root(AgVM *vm);
void vm_pop_roots(AgVM *vm, int n);

/* Pins: values referenced from C structures outside the heap. */
uint32_t vm_pin(AgVM *vm, Value v);
Value vm_pinned(AgVM *vm, uint32_t handle);
void vm_unpin(AgVM *vm, uint32_t handle);

#endif
