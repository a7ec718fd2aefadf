/* help_doc.c — the help entries of the names the library defines in Ag,
 * read from the doc comments beside their code (stdlib/NAME.ag, embedded in
 * the binary), so that a layer written in Ag needs no C edit.
 *
 * A doc comment is a run of `##` lines above a `fn` or `class` (ordinary
 * `#` comments and decorators may stand between them and it). Its first
 * line is the signature, the next ones the text (joined with spaces), and
 * the lines after `## example:` the example, each indented by two spaces:
 *
 *   ## nn.Linear(in_features, out_features, bias=true)
 *   ## x @ weight.T + bias, with PyTorch's default initialisation.
 *   ## example:
 *   ##   print(nn.Linear(3, 2)(ones(4, 3)).shape)
 *   class Linear : Module { ... }
 *
 * The entry is named by the file's module and the defined name (nn.Linear;
 * a method: nn.Module.train) and goes in the file's section. A doc comment
 * followed by anything else is a problem `ag --help-missing` reports.
 */
#include <stdlib.h>
#include <string.h>

#include "repl/help.h"
#include "stdlib/embedded.h"
#include "vm/buffer.h"

/* The library files whose doc comments are read, and what they document. */
static const struct {
  const char *file;
  const char *module; /* the prefix of the names */
  HelpSection section;
} doc_files[] = {
    {"nn.ag", "nn.", HELP_NN},
    {"optim.ag", "optim.", HELP_OPTIM},
    {"data.ag", "utils.data.", HELP_DATA},
    {"autograd.ag", "autograd.", HELP_AUTOGRAD},
    {"forward_ad.ag", "autograd.forward_ad.", HELP_AUTOGRAD},
    {"func.ag", "func.", HELP_AUTOGRAD},
    {"autograd_functional.ag", "autograd.functional.", HELP_AUTOGRAD},
    {"autograd_graph.ag", "autograd.graph.", HELP_AUTOGRAD},
    {"checkpoint.ag", "utils.checkpoint.", HELP_AUTOGRAD},
    {"plot.ag", "plot.", HELP_GRAPH},
};

typedef struct {
  HelpEntry *entries;
  size_t count, capacity;
  VmBuf problems; /* one line each */
} DocTable;

/* One doc comment being read. */
typedef struct {
  bool open;
  int line;        /* of its first `##` line */
  VmBuf signature; /* each part NUL-terminated when the entry is made */
  VmBuf text;
  VmBuf example;
  bool in_example;
} DocComment;

static void doc_reset(DocComment *d) {
  vm_buf_free(&d->signature);
  vm_buf_free(&d->text);
  vm_buf_free(&d->example);
  memset(d, 0, sizeof *d);
}

/* Adds one `##` line's content (after "##"). */
static void doc_add_line(DocComment *d, const char *s, size_t n, int line) {
  if (n > 0 && s[0] == ' ') s++, n--;
  if (!d->open) {
    d->open = true;
    d->line = line;
    vm_buf_add(&d->signature, s, n);
  } else if (d->in_example) {
    size_t indent = n >= 2 && s[0] == ' ' && s[1] == ' ' ? 2 : 0;
    if (d->example.length > 0) vm_buf_addc(&d->example, '\n');
    vm_buf_add(&d->example, s + indent, n - indent);
  } else if (n == 8 && memcmp(s, "example:", 8) == 0) {
    d->in_example = true;
  } else {
    if (d->text.length > 0) vm_buf_addc(&d->text, ' ');
    vm_buf_add(&d->text, s, n);
  }
}

/* The buffer's text as a malloc'd string (the buffer is emptied). */
static char *take_text(VmBuf *b) {
  char *s = b->data != NULL ? b->data : strdup("");
  vm_buf_init(b);
  return s;
}

static void table_add(DocTable *t, const char *name, HelpSection section, DocComment *d) {
  if (t->count == t->capacity) {
    size_t grown = t->capacity ? 2 * t->capacity : 64;
    HelpEntry *e = realloc(t->entries, grown * sizeof *e);
    if (e == NULL) return; /* out of memory: the entry is left out */
    t->entries = e;
    t->capacity = grown;
  }
  HelpEntry *e = &t->entries[t->count++];
  e->name = strdup(name);
  e->section = section;
  e->flags = 0;
  e->signature = take_text(&d->signature);
  e->text = take_text(&d->text);
  e->example = take_text(&d->example);
}

/* The name a line (after its indentation) defines, `fn NAME` or `class
 * NAME`: its length, 0 for none. */
static size_t defined_name(const char *s, const char **name) {
  size_t kw = strncmp(s, "fn ", 3) == 0 ? 3 : strncmp(s, "class ", 6) == 0 ? 6 : 0;
  if (kw == 0) return 0;
  *name = s + kw + strspn(s + kw, " ");
  return strspn(*name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
}

static void misplaced(DocTable *t, const char *file, const DocComment *d) {
  vm_buf_printf(&t->problems, "stdlib/%s:%d: a doc comment (##) must stand above a fn or class\n", file, d->line);
}

/* Reads one file's doc comments into t. */
static void read_file(DocTable *t, const char *file, const char *text, const char *module, HelpSection section) {
  DocComment d = {0};
  char klass[128] = ""; /* "Module." inside class Module: its methods' names */
  int number = 0;
  for (const char *line = text, *next; *line; line = next) {
    size_t len = strcspn(line, "\n"), indent = strspn(line, " \t");
    next = line + len + (line[len] == '\n');
    number++;
    const char *s = line + indent, *name = NULL;
    size_t n = defined_name(s, &name);
    if (indent == 0 && n > 0 && strncmp(s, "class", 5) == 0) snprintf(klass, sizeof klass, "%.*s.", (int)n, name);
    else if (indent == 0 && len > 0 && *s != '}' && *s != '#') klass[0] = '\0';
    if (strncmp(s, "##", 2) == 0) {
      doc_add_line(&d, s + 2, len - indent - 2, number);
      continue;
    }
    if (!d.open || s[0] == '#' || s[0] == '@') continue;
    if (n > 0) {
      char full[256];
      snprintf(full, sizeof full, "%s%s%.*s", module, indent > 0 ? klass : "", (int)n, name);
      table_add(t, full, section, &d);
    } else {
      misplaced(t, file, &d);
    }
    doc_reset(&d);
  }
  if (d.open) misplaced(t, file, &d);
  doc_reset(&d);
}

/* Parsed at the first use, kept for the process (the text never changes). */
static DocTable *doc_table(void) {
  static DocTable table;
  static bool read;
  if (read) return &table;
  read = true;
  vm_buf_init(&table.problems);
  for (size_t i = 0; i < sizeof doc_files / sizeof doc_files[0]; i++) {
    for (const EmbeddedFile *f = ag_embedded_files; f->name != NULL; f++) {
      if (strcmp(f->name, doc_files[i].file) == 0)
        read_file(&table, f->name, f->text, doc_files[i].module, doc_files[i].section);
    }
  }
  return &table;
}

const HelpEntry *help_doc_entries(size_t *count) {
  DocTable *t = doc_table();
  *count = t->count;
  return t->entries;
}

int help_doc_problems(FILE *out) {
  DocTable *t = doc_table();
  if (t->problems.length == 0) return 0;
  fwrite(t->problems.data, 1, t->problems.length, out);
  int lines = 0;
  for (size_t i = 0; i < t->problems.length; i++) lines += t->problems.data[i] == '\n';
  return lines;
}
