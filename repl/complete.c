/* complete.c — Tab completion in the REPL (see complete.h). */
#include "repl/complete.h"

#include <stdlib.h>
#include <string.h>

#include "repl/line_editor.h"

#include "lexer/lexer.h"
#include "repl/help.h"
#include "vm/memory.h"

void candidates_clear(Candidates *c) {
  for (size_t i = 0; i < c->count; i++) free(c->items[i]);
  c->count = 0;
  c->prefix[0] = '\0';
}

void candidates_free(Candidates *c) {
  candidates_clear(c);
  free(c->items);
  c->items = NULL;
  c->capacity = 0;
}

/* Adds word, of rank 0 (a field) or 1 (anything else); fields are offered first. */
static void candidate_add_ranked(Candidates *c, const char *word, int rank) {
  for (size_t i = 0; i < c->count; i++) {
    if (strcmp(c->items[i] + 1, word) == 0) return;
  }
  if (c->count == c->capacity) {
    size_t cap = c->capacity ? c->capacity * 2 : 64;
    char **grown = realloc(c->items, cap * sizeof *grown);
    if (grown == NULL) return;
    c->items = grown;
    c->capacity = cap;
  }
  char *copy = malloc(strlen(word) + 2); /* the rank, then the word: sorting keeps them together */
  if (copy == NULL) return;
  copy[0] = (char)('0' + rank);
  strcpy(copy + 1, word);
  c->items[c->count++] = copy;
}

static void candidate_add(Candidates *c, const char *word) { candidate_add_ranked(c, word, 1); }

static void candidate_add_member(void *ctx, const char *word, bool field) {
  candidate_add_ranked(ctx, word, field ? 0 : 1);
}

static int by_rank_then_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *complete_word(const Candidates *c, size_t i) { return c->items[i] + 1; }

/* Entry i of a namespace is defined there, not just a built-in it uses. */
static bool own_global(AgVM *vm, const Table *names, int i) {
  Value v = vm->globals.values[(int)AS_NUMBER(names->entries[i].value)];
  Value builtin;
  if (IS_UNDEF(v)) return false;
  return names == &vm->globals.main_module->names ||
         !table_get(&vm->globals.builtins, names->entries[i].key, &builtin) || builtin != v;
}

/* Adds the string keys of a table; for a namespace (slots), only the names
 * it defines. */
static void add_table_keys(Candidates *c, AgVM *vm, const Table *t, bool slots, int rank) {
  for (int i = 0; i < t->used; i++) {
    Value key = t->entries[i].key;
    if (!IS_STRING(key)) continue;
    if (slots && !own_global(vm, t, i)) continue;
    candidate_add_ranked(c, AS_CSTRING(key), rank);
  }
}

/* ---- resolving a dotted prefix without running anything ---- */

static ObjString *find_name(AgVM *vm, const char *name, size_t len) {
  return table_find_string(&vm->gc.strings, name, (int)len, obj_hash_bytes(name, (int)len));
}

static bool slot_value(AgVM *vm, const Table *names, ObjString *name, Value *out) {
  Value slot;
  if (!table_get(names, OBJ_VAL(name), &slot)) return false;
  *out = vm->globals.values[(int)AS_NUMBER(slot)];
  return !IS_UNDEF(*out);
}

static bool global_value(AgVM *vm, ObjString *name, Value *out) {
  return slot_value(vm, &vm->globals.main_module->names, name, out) ||
         table_get(&vm->globals.builtins, OBJ_VAL(name), out);
}

/* Tensor attributes that are plain reads (no warning, no copy). */
static bool pure_tensor_attribute(const char *name) {
  return strcmp(name, "T") == 0 || strcmp(name, "data") == 0 || strcmp(name, "grad_fn") == 0;
}

static bool attribute_value(AgVM *vm, Value obj, ObjString *name, Value *out) {
  if (IS_INSTANCE(obj)) {
    ObjInstance *in = AS_INSTANCE(obj);
    return table_get(&in->fields, OBJ_VAL(name), out) ||
           table_get(&in->klass->methods, OBJ_VAL(name), out);
  }
  if (IS_CLASS(obj)) return table_get(&AS_CLASS(obj)->methods, OBJ_VAL(name), out);
  if (IS_MODULE(obj)) { /* torch.X: a built-in too */
    if (vm_module_member(vm, AS_MODULE(obj), name, out)) return true;
    if (vm->exc.pending) vm_take_exception(vm);
    return false;
  }
  if (IS_TENSOR(obj) && pure_tensor_attribute(name->chars)) {
    vm_push_root(vm, obj); /* x.T.data: the view x.T is held by nothing else */
    vm_push_root(vm, OBJ_VAL(name));
    *out = vm_get_attr(vm, obj, name);
    vm_pop_roots(vm, 2);
    if (!IS_EXCEPTION(*out)) return true;
    vm_take_exception(vm);
  }
  return false;
}

static bool is_identifier(const char *s, size_t len) {
  if (len == 0 || (s[0] >= '0' && s[0] <= '9')) return false;
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    bool ok = ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9');
    if (!ok) return false;
  }
  return true;
}

bool complete_resolve(AgVM *vm, const char *path, size_t len, Value *out) {
  size_t start = 0;
  for (bool first = true; start <= len; first = false) {
    const char *dot = memchr(path + start, '.', len - start);
    size_t end = dot ? (size_t)(dot - path) : len;
    if (!is_identifier(path + start, end - start)) return false;
    ObjString *name = find_name(vm, path + start, end - start);
    if (name == NULL) return false;
    if (first ? !global_value(vm, name, out) : !attribute_value(vm, *out, name, out)) return false;
    start = end + 1;
  }
  return true;
}

/* ---- the words ---- */

static void add_member_names(Candidates *c, AgVM *vm, Value v) {
  if (IS_INSTANCE(v)) {
    add_table_keys(c, vm, &AS_INSTANCE(v)->fields, false, 0);
    add_table_keys(c, vm, &AS_INSTANCE(v)->klass->methods, false, 1);
  } else if (IS_CLASS(v)) {
    add_table_keys(c, vm, &AS_CLASS(v)->methods, false, 1);
  } else if (IS_MODULE(v)) {
    if (!vm_load_module(vm, AS_MODULE(v))) vm_take_exception(vm);
    add_table_keys(c, vm, &AS_MODULE(v)->names, true, 1);
    if (AS_MODULE(v)->builtin_members) add_table_keys(c, vm, &vm->globals.builtins, false, 1);
  } else if (IS_LIST(v)) {
    add_table_keys(c, vm, &vm->core.list_methods, false, 1);
  } else if (IS_MAP(v)) {
    add_table_keys(c, vm, &vm->core.map_methods, false, 1);
  } else if (IS_SET(v)) {
    add_table_keys(c, vm, &vm->core.set_methods, false, 1);
  } else if (IS_STRING(v)) {
    add_table_keys(c, vm, &vm->core.string_methods, false, 1);
  } else if (IS_TENSOR(v)) {
    help_for_each_member("Tensor", candidate_add_member, c);
  } else if (IS_NODE(v)) {
    help_for_each_member("Node", candidate_add_member, c);
  }
}

static void add_keywords(Candidates *c) {
  for (int t = TOK_LET; lex_is_keyword((TokenType)t); t++) {
    const char *quoted = lex_token_name((TokenType)t);
    char word[32];
    snprintf(word, sizeof word, "%.*s", (int)strlen(quoted) - 2, quoted + 1);
    candidate_add(c, word);
  }
}

static void collect_words(Candidates *c, AgVM *vm, const char *text) {
  const char *dot = strrchr(text, '.');
  if (dot == NULL) {
    add_keywords(c);
    add_table_keys(c, vm, &vm->globals.main_module->names, true, 1);
    add_table_keys(c, vm, &vm->globals.builtins, false, 1);
    return;
  }
  size_t len = (size_t)(dot - text);
  Value v;
  if (len + 2 > sizeof c->prefix || !complete_resolve(vm, text, len, &v)) return;
  snprintf(c->prefix, sizeof c->prefix, "%.*s", (int)len + 1, text);
  add_member_names(c, vm, v);
}

static void collect_commands(Candidates *c, const char *const *commands) {
  for (size_t i = 0; commands[i] != NULL; i++) {
    char word[32];
    snprintf(word, sizeof word, ":%s", commands[i]);
    candidate_add(c, word);
  }
}

static void collect_help_topics(Candidates *c) {
  size_t n;
  const HelpEntry *entries = help_entries(&n);
  for (size_t i = 0; i < n; i++) candidate_add(c, entries[i].name);
}

/* ---- the entry points ---- */

bool complete_is_word_char(char ch) { return ch != '\0' && strchr(COMPLETE_WORD_BREAKS, ch) == NULL; }

size_t complete_word_start(const char *line, size_t cursor) {
  while (cursor > 0 && complete_is_word_char(line[cursor - 1])) cursor--;
  return cursor;
}

/* The command word of a `:` line, or NULL. */
static const char *command_of_line(const char *line) {
  line += strspn(line, " \t");
  return line[0] == ':' ? line : NULL;
}

CompleteKind complete_collect(AgVM *vm, const char *line, size_t start, const char *text,
                              const char *const *commands, Candidates *out) {
  candidates_clear(out);
  const char *command = commands != NULL ? command_of_line(line) : NULL;
  if (command != NULL && line + start <= command) {
    collect_commands(out, commands);
  } else if (command != NULL && strncmp(command, ":load ", 6) == 0) {
    return COMPLETE_FILES;
  } else if (command != NULL && strncmp(command, ":help ", 6) == 0) {
    collect_help_topics(out);
  } else {
    collect_words(out, vm, text);
  }
  if (out->count > 1) qsort(out->items, out->count, sizeof *out->items, by_rank_then_name);
  return COMPLETE_WORDS;
}

bool complete_matches(const Candidates *c, size_t i, const char *text, char *out, size_t size) {
  size_t plen = strlen(c->prefix);
  const char *want = text + plen, *word = complete_word(c, i);
  if (strncmp(word, want, strlen(want)) != 0) return false;
  if (word[0] == '_' && want[0] != '_') return false; /* private, unless typed */
  return (size_t)snprintf(out, size, "%s%s", c->prefix, word) < size;
}
