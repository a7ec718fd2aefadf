/* ag_assert.h — AG_ASSERT(cond): an invariant of Ag's own code, never a
 * check of a user's input (that is an error naming the user's line).
 *
 * In the debug, sanitize and fuzz builds (AG_DEBUG: `make debug`,
 * `make sanitize`, `make fuzz`) a false invariant prints its file:line,
 * function and condition and aborts, so the bug stops where it happens. In
 * release it is compiled out: the condition is not evaluated (only
 * type-checked). Code that can go on after a broken invariant (an internal
 * error reported as an error) asserts first and recovers after, so that a
 * release build fails gracefully:
 *
 *   AG_ASSERT(s->data != NULL);
 *   if (!s->data) { tensor_set_error("internal error: ..."); return NULL; }
 *
 * Usable from every layer (tensor/ is the lowest). */
#ifndef AG_TENSOR_AG_ASSERT_H
#define AG_TENSOR_AG_ASSERT_H

#ifdef AG_DEBUG
#include <stdio.h>
#include <stdlib.h>

static inline void ag_assert_failed(const char *cond, const char *file, int line, const char *func) {
  fflush(stdout);
  fprintf(stderr, "%s:%d: %s: internal invariant broken: %s\n", file, line, func, cond);
  abort();
}

#define AG_ASSERT(cond) ((cond) ? (void)0 : ag_assert_failed(#cond, __FILE__, __LINE__, __func__))
#else
#define AG_ASSERT(cond) ((void)sizeof((cond) ? 1 : 0))
#endif

#endif
