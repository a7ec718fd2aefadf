/* help.h — the help of a built-in written in C stands beside its code:
 *
 *   HELP("len", HELP_BUILTINS, 0,
 *        "len(x)",
 *        "The number of items of a list, map, string ... .",
 *        "print(len([1, 2, 3]))")
 *   LIB_NATIVE(lib_len) { ... }
 *
 * The arguments are the entry's name (what `:help NAME` matches: "print",
 * "Tensor.backward", "list.append"), its section and flags (HelpSection and
 * HELP_TENSOR_METHOD in repl/help.h), its signature, one paragraph and an
 * example (may be ""). An entry stands above the function that implements
 * the name, or, for a value with no function of its own (a constant, a
 * dtype, a tensor attribute), beside the line that registers it; the macro
 * starts its line (indented or not) and ends at the first line ending in `)`.
 *
 * Here it expands to nothing: tools/help-natives.sh collects the entries of
 * the C files of stdlib for the REPL (repl/help_natives.c), which is above stdlib and
 * the only reader, so stdlib never depends on repl.
 */
#ifndef AG_STDLIB_HELP_H
#define AG_STDLIB_HELP_H

#define HELP(...)

#endif
