/* help.h — the help texts of every built-in (SPEC §5-§10), in ONE table,
 * each entry written beside what it documents: a C native's in a HELP(...)
 * entry above its function in stdlib/ (stdlib/help.h; collected by
 * help_natives.c, with the elementwise ops' from their registry rows), a
 * name the library defines in Ag in a doc comment (`##` lines, read by
 * help_doc.c), the keywords, the REPL's commands and the topics that are
 * no single native in help_table.c.
 *
 * Each entry has a name (what `:help NAME` matches: `print`, `Tensor.backward`,
 * `nn.Linear`, `list.append`, `while`), a section, a signature, a paragraph
 * and a short example. The same table prints `:help`, `:help NAME`, lists the
 * tensor and node members for Tab completion, and generates
 * docs/reference.md (`ag --help-reference`; a test diffs the two), so the
 * help, the completion and the reference never disagree.
 *
 * `ag --help-missing` lists every built-in global, module member, keyword,
 * and list/map/string method that has no entry, every documented tensor
 * member that a tensor does not have, and every name with two entries (a
 * test requires none of these).
 */
#ifndef AG_REPL_HELP_H
#define AG_REPL_HELP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "vm/vm.h"

typedef enum {
  HELP_BUILTINS,  /* global functions and constants (§5) */
  HELP_METHODS,   /* methods of lists, maps and strings (§5) */
  HELP_TENSORS,   /* creating tensors, tensor functions (§6) */
  HELP_TENSOR,    /* attributes and methods of a tensor (§6) */
  HELP_AUTOGRAD,  /* grad mode, autograd module, graph nodes (§7) */
  HELP_NN,        /* the nn module (§8) */
  HELP_OPTIM,     /* the optim module (§8) */
  HELP_DATA,      /* utils.data: datasets and batches (§8) */
  HELP_GRAPH,     /* seeing the graph, reflection (§9) */
  HELP_KEYWORDS,  /* the language's keywords (§2, §4) */
  HELP_REPL,      /* the REPL's commands (§10) */
  HELP_SECTION_COUNT
} HelpSection;

/* flags */
#define HELP_TENSOR_METHOD 1 /* a global function that is also a tensor method */

typedef struct {
  const char *name;
  HelpSection section;
  int flags;
  const char *signature;
  const char *text;
  const char *example;
} HelpEntry;

/* The table, in the order the reference prints it: the natives' entries
 * (help_natives.c), help_table.c's, then those of the doc comments. */
const HelpEntry *help_entries(size_t *count);

/* The entries read from the doc comments of the library's Ag code, and the
 * misplaced doc comments written to out (their number) (help_doc.c). */
const HelpEntry *help_doc_entries(size_t *count);
int help_doc_problems(FILE *out);

/* `:help` (topic empty) or `:help NAME`: NAME matches an entry's name or the
 * part after its last `.` (`:help backward` finds Tensor.backward). */
int help_show(FILE *out, const char *topic, bool color); /* the number of entries shown */

/* Calls fn with each member name of `type` ("Tensor" or "Node"); field:
 * an attribute (t.shape), not a method (t.sum()). */
void help_for_each_member(const char *type, void (*fn)(void *ctx, const char *name, bool field),
                          void *ctx);

/* The whole table as Markdown (docs/reference.md). */
void help_write_reference(FILE *out);

/* Prints the built-ins of `vm` that have no entry; returns their number. */
int help_print_missing(AgVM *vm, FILE *out);

/* `ag --help-reference` (the Markdown on stdout) and `ag --help-missing`
 * (exit 1 when something is undocumented). */
int help_main(AgVM *vm, const char *option);

#endif
