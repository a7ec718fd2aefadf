/* builtins.h — the core library of SPEC §5 (no tensors): global functions
 * (print, len, range, sorted, str, ...), constants, and the methods of
 * lists, maps and strings; plus the compile hook that lets the VM compile
 * imported files and vm_run_source text.
 *
 * main() calls lib_install_builtins() right after vm_new() and before
 * lib_install() (stdlib/lib.h), so the tensor library may override names
 * such as abs or sqrt with versions that also take tensors.
 *
 * Natives here follow one shape: check argument types with the helpers of
 * builtins_internal.h (each throws a message naming the function), compute,
 * return the value or VM_EXCEPTION.
 */
#ifndef AG_BUILTINS_H
#define AG_BUILTINS_H

#include "vm/vm.h"

void lib_install_builtins(AgVM *vm);
/* Sets vm->host.args to the list of the script's arguments. */
void lib_set_args(AgVM *vm, const char *script, int argc, char **argv);
/* At the end of a run: files still open for writing are renamed into place
 * (commit) or their temporary files removed. */
void lib_finish_files(AgVM *vm, bool commit);

#endif
