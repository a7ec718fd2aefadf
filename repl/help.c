/* help.c — showing the help (the C natives' entries, help_natives.c; the
 * topics, help_table.c; the library's doc comments, help_doc.c): `:help`, the reference Markdown, the member lists
 * for completion, and the coverage check. */
#include "repl/help.h"

#include <stdlib.h>
#include <string.h>

#include "lexer/lexer.h"
#include "vm/memory.h"

#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RESET "\033[0m"
#define WRAP_COLUMNS 78

/* help_natives.c, help_table.c */
extern const HelpEntry help_natives[], help_table[];
extern const size_t help_natives_count, help_table_count;

static const char *const section_titles[HELP_SECTION_COUNT] = {
    [HELP_BUILTINS] = "Built-in functions and constants",
    [HELP_METHODS] = "Methods of lists, maps and strings",
    [HELP_TENSORS] = "Tensors: creation and functions",
    [HELP_TENSOR] = "Tensor attributes and methods",
    [HELP_AUTOGRAD] = "Autograd",
    [HELP_NN] = "nn: layers and losses",
    [HELP_OPTIM] = "optim: optimizers",
    [HELP_DATA] = "utils.data: datasets and batches",
    [HELP_GRAPH] = "Seeing the graph, reflection",
    [HELP_KEYWORDS] = "Keywords",
    [HELP_REPL] = "REPL commands",
};

/* The natives' entries, the topics' and then the doc comments', made at the
 * first use. */
const HelpEntry *help_entries(size_t *count) {
  static HelpEntry *all;
  static size_t all_count;
  if (all == NULL) {
    size_t docs;
    const HelpEntry *doc = help_doc_entries(&docs);
    size_t total = help_natives_count + help_table_count + docs;
    all = malloc(total * sizeof *all);
    if (all == NULL) {
      *count = help_natives_count;
      return help_natives;
    }
    memcpy(all, help_natives, help_natives_count * sizeof *all);
    memcpy(all + help_natives_count, help_table, help_table_count * sizeof *all);
    if (docs > 0) memcpy(all + help_natives_count + help_table_count, doc, docs * sizeof *all);
    all_count = total;
  }
  *count = all_count;
  return all;
}

static const char *after_last_dot(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot && dot[1] ? dot + 1 : name;
}

/* `:help quit` finds :quit too. */
static bool entry_matches(const HelpEntry *e, const char *topic) {
  const char *command = e->name[0] == ':' ? e->name + 1 : e->name;
  return strcmp(e->name, topic) == 0 || strcmp(after_last_dot(e->name), topic) == 0 ||
         strcmp(command, topic) == 0;
}

/* Prints `text` wrapped at word boundaries, each line indented. */
static void print_wrapped(FILE *out, const char *text, const char *indent) {
  size_t column = 0;
  while (*text) {
    size_t word = strcspn(text, " ");
    if (column > 0 && column + 1 + word > WRAP_COLUMNS) {
      fputc('\n', out);
      column = 0;
    }
    if (column == 0) column = (size_t)fprintf(out, "%s", indent);
    else column += (size_t)fprintf(out, " ");
    column += fwrite(text, 1, word, out);
    text += word;
    text += strspn(text, " ");
  }
  fputc('\n', out);
}

static void print_indented(FILE *out, const char *text, const char *indent) {
  while (*text) {
    size_t n = strcspn(text, "\n");
    fprintf(out, "%s%.*s\n", indent, (int)n, text);
    text += n;
    if (*text == '\n') text++;
  }
}

static void print_entry(FILE *out, const HelpEntry *e, bool color) {
  fprintf(out, "%s%s%s  %s(%s)%s\n", color ? BOLD : "", e->signature, color ? RESET : "",
          color ? DIM : "", section_titles[e->section], color ? RESET : "");
  print_wrapped(out, e->text, "  ");
  if (e->example[0] != '\0') {
    fputs("  example:\n", out);
    print_indented(out, e->example, "    ");
  }
}

/* The names of one section, wrapped. */
static void print_section_names(FILE *out, HelpSection s) {
  size_t column = 0, count;
  const HelpEntry *table = help_entries(&count);
  for (size_t i = 0; i < count; i++) {
    const char *name = table[i].name;
    if (table[i].section != s) continue;
    if (column > 0 && column + 1 + strlen(name) > WRAP_COLUMNS) {
      fputc('\n', out);
      column = 0;
    }
    column += (size_t)fprintf(out, column == 0 ? "  %s" : " %s", name);
  }
  fputc('\n', out);
}

/* The keys of the REPL, shown by `:help` and in the reference. */
static const char keys_text[] =
    "Tab completes names, and after `x.` the fields and methods of x (fields first; names "
    "starting with _ once _ is typed). Ctrl-C clears the line, or stops a running program "
    "with an Interrupted error. Ctrl-D leaves. History is kept in ~/.ag_history "
    "($AG_HISTORY overrides); Ctrl-P brings a multi-line block back whole.";

static void print_topics(FILE *out, bool color) {
  fputs("Ag help. `:help NAME` explains one of these names:\n", out);
  for (int s = 0; s < HELP_SECTION_COUNT; s++) {
    fprintf(out, "\n%s%s%s\n", color ? BOLD : "", section_titles[s], color ? RESET : "");
    print_section_names(out, (HelpSection)s);
  }
  fputc('\n', out);
  print_wrapped(out, keys_text, "");
}

int help_show(FILE *out, const char *topic, bool color) {
  size_t count;
  const HelpEntry *table = help_entries(&count);
  if (topic == NULL || topic[0] == '\0') {
    print_topics(out, color);
    return (int)count;
  }
  int found = 0;
  for (size_t i = 0; i < count; i++) {
    if (!entry_matches(&table[i], topic)) continue;
    if (found++ > 0) fputc('\n', out);
    print_entry(out, &table[i], color);
  }
  if (found == 0) fprintf(out, "no help for '%s' (`:help` lists the topics)\n", topic);
  fflush(out);
  return found;
}

void help_for_each_member(const char *type, void (*fn)(void *ctx, const char *name, bool field),
                          void *ctx) {
  size_t tlen = strlen(type);
  bool tensor = strcmp(type, "Tensor") == 0;
  size_t count;
  const HelpEntry *table = help_entries(&count);
  for (size_t i = 0; i < count; i++) {
    const HelpEntry *e = &table[i];
    bool field = strchr(e->signature, '(') == NULL;
    if (strncmp(e->name, type, tlen) == 0 && e->name[tlen] == '.') fn(ctx, e->name + tlen + 1, field);
    else if (tensor && (e->flags & HELP_TENSOR_METHOD)) fn(ctx, after_last_dot(e->name), field);
  }
}

/* ---- docs/reference.md ---- */

static void write_reference_entry(FILE *out, const HelpEntry *e) {
  fprintf(out, "### `%s`\n\n```\n%s\n```\n\n%s\n\n", e->name, e->signature, e->text);
  if (e->example[0] != '\0') fprintf(out, "```ag\n%s\n```\n\n", e->example);
}

void help_write_reference(FILE *out) {
  fputs("# Ag reference\n\n"
        "Every built-in of Ag, generated by `ag --help-reference` from the help entries\n"
        "beside the C natives (stdlib/*.c, `HELP(...)`), the doc comments of the\n"
        "library's Ag code (stdlib/*.ag, `##` lines) and the table of keywords and\n"
        "topics (repl/help_table.c); do not edit by hand. In the REPL, `:help NAME`\n"
        "shows the same text, and `:help` lists the names.\n\n",
        out);
  fprintf(out, "In the REPL: %s\n\n", keys_text);
  size_t count;
  const HelpEntry *table = help_entries(&count);
  for (int s = 0; s < HELP_SECTION_COUNT; s++) fprintf(out, "- [%s](#s%d)\n", section_titles[s], s);
  fputc('\n', out);
  for (int s = 0; s < HELP_SECTION_COUNT; s++) {
    fprintf(out, "<a id=\"s%d\"></a>\n\n## %s\n\n", s, section_titles[s]);
    for (size_t i = 0; i < count; i++) {
      if (table[i].section == (HelpSection)s) write_reference_entry(out, &table[i]);
    }
  }
}

/* ---- coverage ---- */

static bool has_entry(const char *prefix, const char *name) {
  char full[128];
  snprintf(full, sizeof full, "%s%s", prefix, name);
  size_t count;
  const HelpEntry *table = help_entries(&count);
  for (size_t i = 0; i < count; i++) {
    if (strcmp(table[i].name, full) == 0) return true;
  }
  return false;
}

/* A module's global that is only a built-in it uses (nn's `len`). */
static bool borrowed_builtin(AgVM *vm, const Table *module_names, int i) {
  if (module_names == NULL) return false;
  Value mine = vm->globals.values[(int)AS_NUMBER(module_names->entries[i].value)];
  Value builtin;
  return IS_UNDEF(mine) || (table_get(&vm->globals.builtins, module_names->entries[i].key, &builtin) &&
                            builtin == mine);
}

/* For a module, t is its names and `module` true. */
static int check_table(AgVM *vm, FILE *out, const Table *t, bool module, const char *prefix) {
  int missing = 0;
  for (int i = 0; i < t->used; i++) {
    Value key = t->entries[i].key;
    if (!IS_STRING(key) || AS_CSTRING(key)[0] == '_' || has_entry(prefix, AS_CSTRING(key))) continue;
    if (borrowed_builtin(vm, module ? t : NULL, i)) continue;
    fprintf(out, "undocumented: %s%s\n", prefix, AS_CSTRING(key));
    missing++;
  }
  return missing;
}

/* The module a dotted name such as "utils.data" names, loaded; false when
 * there is none. */
static bool find_module(AgVM *vm, const char *name, Value *out) {
  char head[32];
  size_t n = strcspn(name, ".");
  snprintf(head, sizeof head, "%.*s", (int)n, name);
  if (!vm_get_global(vm, head, out) || !IS_MODULE(*out)) return false;
  if (name[n] == '\0') return true;
  ObjString *rest = obj_string(vm, name + n + 1);
  vm_push_root(vm, OBJ_VAL(rest));
  *out = vm_get_attr(vm, *out, rest);
  vm_pop_root(vm);
  if (IS_EXCEPTION(*out)) vm_take_exception(vm);
  return IS_MODULE(*out);
}

static int check_module(AgVM *vm, FILE *out, const char *name) {
  Value v;
  if (!find_module(vm, name, &v)) {
    fprintf(out, "missing module: %s\n", name);
    return 1;
  }
  if (!vm_load_module(vm, AS_MODULE(v))) {
    vm_report_exception(vm, out, false);
    return 1;
  }
  char prefix[32];
  snprintf(prefix, sizeof prefix, "%s.", name);
  return check_table(vm, out, &AS_MODULE(v)->names, true, prefix);
}

static int check_keywords(FILE *out) {
  int missing = 0;
  for (int t = TOK_LET; lex_is_keyword((TokenType)t); t++) {
    char word[32];
    const char *quoted = lex_token_name((TokenType)t);
    snprintf(word, sizeof word, "%.*s", (int)strlen(quoted) - 2, quoted + 1);
    if (has_entry("", word)) continue;
    fprintf(out, "undocumented: keyword %s\n", word);
    missing++;
  }
  return missing;
}

typedef struct {
  AgVM *vm;
  FILE *out;
  Value sample;
  int missing;
} MemberCheck;

static void check_member(void *ctx, const char *name, bool field) {
  MemberCheck *c = ctx;
  ObjString *key = obj_string(c->vm, name);
  vm_push_root(c->vm, OBJ_VAL(key));
  Value v = vm_get_attr(c->vm, c->sample, key);
  vm_pop_root(c->vm);
  if (!IS_EXCEPTION(v)) return;
  vm_take_exception(c->vm);
  fprintf(c->out, "documented but not a tensor member: %s\n", name);
  c->missing++;
}

/* The other direction for tensors (whose members the bindings keep to
 * themselves): every documented member must exist on a sample tensor. */
static int check_tensor_members(AgVM *vm, FILE *out) {
  Value ones_fn, size = INT_VAL(vm, 2);
  if (!vm_get_global(vm, "ones", &ones_fn)) return 0; /* reported as undocumented */
  MemberCheck c = {vm, out, vm_call(vm, ones_fn, 1, &size), 0};
  if (IS_EXCEPTION(c.sample)) {
    vm_take_exception(vm);
    fputs("ones(2) failed\n", out);
    return 1;
  }
  vm_push_root(vm, c.sample);
  help_for_each_member("Tensor", check_member, &c);
  vm_pop_root(vm);
  return c.missing;
}

/* Two entries of one name: one of them belongs beside the other (folded). */
static int check_duplicates(FILE *out) {
  size_t count;
  const HelpEntry *table = help_entries(&count);
  int found = 0;
  for (size_t i = 0; i < count; i++) {
    for (size_t j = 0; j < i; j++) {
      if (strcmp(table[i].name, table[j].name) != 0) continue;
      fprintf(out, "two help entries: %s\n", table[i].name);
      found++;
      break;
    }
  }
  return found;
}

int help_print_missing(AgVM *vm, FILE *out) {
  int missing = check_table(vm, out, &vm->globals.builtins, false, "");
  missing += check_table(vm, out, &vm->core.list_methods, false, "list.");
  missing += check_table(vm, out, &vm->core.map_methods, false, "map.");
  missing += check_table(vm, out, &vm->core.string_methods, false, "str.");
  missing += check_table(vm, out, &vm->core.set_methods, false, "set.");
  missing += check_module(vm, out, "nn");
  missing += check_module(vm, out, "optim");
  missing += check_module(vm, out, "autograd");
  missing += check_module(vm, out, "plot");
  missing += check_module(vm, out, "utils");
  missing += check_module(vm, out, "utils.data");
  missing += check_keywords(out);
  missing += check_tensor_members(vm, out);
  missing += help_doc_problems(out);
  missing += check_duplicates(out);
  return missing;
}

int help_main(AgVM *vm, const char *option) {
  if (strcmp(option, "--help-reference") == 0) {
    help_write_reference(stdout);
    return 0;
  }
  return help_print_missing(vm, stdout) > 0 ? 1 : 0;
}
