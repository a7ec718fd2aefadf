/* program.h — finding and talking to the helper programs Ag runs (Graphviz's
 * `dot` for graphs, gnuplot for plots): one lookup on PATH and one way of
 * reading back what they wrote. */
#ifndef AG_STDLIB_PROGRAM_H
#define AG_STDLIB_PROGRAM_H

#include <stddef.h>
#include <stdio.h>

/* The full path of the executable `name` on PATH (malloc'd), or NULL. */
char *program_find(const char *name);

/* The whole of a file opened for reading and writing, from its start
 * (malloc'd, NUL-terminated; *length without the NUL), or NULL. */
char *program_read_back(FILE *f, size_t *length);

#endif
