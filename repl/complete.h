/* complete.h — completion of names in the REPL and the notebook (SPEC §10).
 *
 * Completes, at the start of a word: keywords, the session's globals and the
 * built-ins; after `NAME.` or `NAME.a.b.`: the fields and methods of that
 * value (instance fields, class methods, module members, the methods of
 * lists, maps and strings, tensor attributes and methods, graph node
 * members); `:` commands at the start of a line; help topics after `:help `
 * and file names after `:load `.
 *
 * The dotted prefix is resolved by looking names up in tables only: nothing
 * runs, so completing never has side effects. The REPL binds this to
 * Readline (repl.c), the kernel to complete_request (kernel/).
 */
#ifndef AG_REPL_COMPLETE_H
#define AG_REPL_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

#include "vm/vm.h"

/* Characters that end a word: `.` and `:` stay inside one, so `x.ba` and
 * `:he` complete as a whole. */
#define COMPLETE_WORD_BREAKS " \t\n\"'`@$><=;|&{([,+-*/%!~^"

/* The words offered for the word being completed, fields first, then in
 * alphabetical order; `prefix` ("x.") goes before each in a match. */
typedef struct {
  char **items; /* each word after one character of rank: complete_word reads it */
  size_t count, capacity;
  char prefix[256];
} Candidates;

typedef enum { COMPLETE_WORDS, COMPLETE_FILES } CompleteKind;

/* Fills `out` with the candidates for `text`, the word at offset `start` of
 * `line`; COMPLETE_FILES: the word is a file name (`:load `), nothing added.
 * commands: the `:` command names (NULL-terminated), NULL where there are
 * none. */
CompleteKind complete_collect(AgVM *vm, const char *line, size_t start, const char *text,
                              const char *const *commands, Candidates *out);
/* The word of candidate i. */
const char *complete_word(const Candidates *c, size_t i);
/* Candidate i as a match for `text` (prefix + word) into out; false if it
 * does not start with text, is private (`_name`) while text does not name
 * it so, or does not fit. */
bool complete_matches(const Candidates *c, size_t i, const char *text, char *out, size_t size);
/* The value of the dotted name `a.b.c` (path[0..len)) in the session,
 * looked up in tables only (nothing runs); false when it has none. */
bool complete_resolve(AgVM *vm, const char *path, size_t len, Value *out);
/* Where the word that ends at `cursor` starts. */
size_t complete_word_start(const char *line, size_t cursor);
bool complete_is_word_char(char ch);
void candidates_clear(Candidates *c);
void candidates_free(Candidates *c);

#endif
