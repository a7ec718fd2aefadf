/* suggest.c — "did you mean `print`?": the known name closest to a
 * misspelt one, for NameError and AttributeError messages, and what Ag
 * writes for Python's words (None, True, False).
 *
 * Closeness is CPython's weighted edit distance (a letter inserted,
 * deleted or replaced costs 2, a change of case 1) plus swapping two
 * neighbours (2: `gard` is one swap from `grad`); a name is suggested when
 * the cost is at most (len(a) + len(b)) / 3, a little stricter than
 * CPython's (len(a) + len(b) + 3) / 3 so that short names are not guessed
 * from far (`later` is not `gather`). The closest name first seen wins. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "vm/internal.h"

#define SUGGEST_MAX_LEN 64 /* longer names are not compared */

static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

static int substitution_cost(char a, char b) {
  if (a == b) return 0;
  return tolower((unsigned char)a) == tolower((unsigned char)b) ? 1 : 2;
}

/* Weighted edit distance of a and b (insert, delete, substitute, swap). */
static int edit_distance(const char *a, const char *b) {
  int n = (int)strlen(a), m = (int)strlen(b);
  if (n > SUGGEST_MAX_LEN || m > SUGGEST_MAX_LEN) return 4 * SUGGEST_MAX_LEN;
  int d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
  for (int i = 0; i <= n; i++) d[i][0] = 2 * i;
  for (int j = 0; j <= m; j++) d[0][j] = 2 * j;
  for (int i = 1; i <= n; i++) {
    for (int j = 1; j <= m; j++) {
      d[i][j] = min3(d[i - 1][j] + 2, d[i][j - 1] + 2, d[i - 1][j - 1] + substitution_cost(a[i - 1], b[j - 1]));
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 2 < d[i][j])
        d[i][j] = d[i - 2][j - 2] + 2;
    }
  }
  return d[n][m];
}

void vm_suggest_begin(VmSuggest *s, const char *name) {
  s->name = name;
  s->best = NULL;
  s->best_distance = 4 * SUGGEST_MAX_LEN;
}

void vm_suggest_add(VmSuggest *s, const char *candidate) {
  if (candidate[0] == ' ' || strcmp(candidate, s->name) == 0) return; /* hidden names; the name itself */
  if (candidate[0] == '_' && s->name[0] != '_') return;               /* private ones */
  int d = edit_distance(s->name, candidate);
  if (3 * d > (int)(strlen(s->name) + strlen(candidate))) return; /* too far to be a slip */
  if (d < s->best_distance) {
    s->best = candidate;
    s->best_distance = d;
  }
}

void vm_suggest_add_table(VmSuggest *s, const Table *t) {
  for (int i = 0; i < t->used; i++) {
    Value key = t->entries[i].key;
    if (IS_STRING(key)) vm_suggest_add(s, AS_CSTRING(key));
  }
}

const char *vm_suggest_hint(const VmSuggest *s, char *buf, size_t size) {
  if (s->best == NULL) return "";
  snprintf(buf, size, "; did you mean `%s`?", s->best);
  return buf;
}

/* Python's spellings of Ag's words. */
static const char *python_word(const char *name) {
  static const char *const words[][2] = {
      {"None", "nil"}, {"True", "true"}, {"False", "false"}, {"null", "nil"}, {"this", "self"},
  };
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(name, words[i][0]) == 0) return words[i][1];
  return NULL;
}

const char *vm_name_hint(AgVM *vm, const char *name, bool assigning, char *buf, size_t size) {
  const char *word = python_word(name);
  if (word) {
    snprintf(buf, size, "; Ag writes `%s`", word);
    return buf;
  }
  if (assigning) { /* Python declares by assigning; Ag with let */
    snprintf(buf, size, " (declare it with `let %s = ...`)", name);
    return buf;
  }
  VmSuggest s;
  vm_suggest_begin(&s, name);
  vm_suggest_add_table(&s, &vm->globals.builtins);
  for (int i = 0; i < vm->globals.count; i++)
    if (!IS_UNDEF(vm->globals.values[i])) vm_suggest_add(&s, vm->globals.names[i]->chars);
  return vm_suggest_hint(&s, buf, size);
}

const char *vm_attribute_hint(AgVM *vm, Value obj, const char *name, char *buf, size_t size) {
  VmSuggest s;
  vm_suggest_begin(&s, name);
  if (IS_INSTANCE(obj)) {
    vm_suggest_add_table(&s, &AS_INSTANCE(obj)->fields);
    vm_suggest_add_table(&s, &AS_INSTANCE(obj)->klass->methods);
  } else if (IS_CLASS(obj)) {
    vm_suggest_add_table(&s, &AS_CLASS(obj)->methods);
  } else if (IS_MODULE(obj)) {
    Table *names = &AS_MODULE(obj)->names;
    for (int i = 0; i < names->used; i++) {
      TableEntry *e = &names->entries[i];
      if (IS_STRING(e->key) && !IS_UNDEF(vm->globals.values[(int)AS_NUMBER(e->value)])) vm_suggest_add(&s, AS_CSTRING(e->key));
    }
  } else {
    Table *methods = IS_LIST(obj) ? &vm->core.list_methods : IS_MAP(obj) ? &vm->core.map_methods
                     : IS_SET(obj) ? &vm->core.set_methods : IS_STRING(obj) ? &vm->core.string_methods : NULL;
    if (methods) vm_suggest_add_table(&s, methods);
  }
  return vm_suggest_hint(&s, buf, size);
}
