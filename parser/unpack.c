/* unpack.c — targets that take a value apart, with Python's semantics:
 *
 *   a, b = f()        [a, b] = f()       x, (y, z) = v      first, *rest = xs
 *   self.h, self.c = h, c                 xs[i], xs[j] = xs[j], xs[i]
 *   let a, b = f()    let (a, b) = v     let [a, b] = v
 *   for i, (x, y) in enumerate(xs) { }   [n for n, _ in pairs]
 *
 * A target list is read first into a small tree (Targets), its code emitted
 * once the value is on the stack: OP_UNPACK (or OP_UNPACK_STAR) pushes the
 * items above the value, item 0 deepest, so each item has a known stack slot.
 *
 * Three ways to bind:
 *   - store: assignment. Names must exist (an undeclared one is the usual
 *     "undefined variable" error); fields and items are compiled from their
 *     source text by a second lexer, with the item's slot as the value
 *     (parse_store_target_begins / parse_assigned_value). Left to right, as
 *     Python: `a, a = 1, 2` leaves 2.
 *   - define: `let` at top level: each name becomes a global.
 *   - declare: `let` in a block, for and comprehension variables: the items
 *     stay where OP_UNPACK put them, as locals (hidden ones for the values
 *     taken apart).
 */
#include <stdlib.h>
#include <string.h>

#include "parser/internal.h"

/* ---- reading a target list ---- */

Targets *parse_new_targets(Parser *p) {
  Targets *ts = malloc(sizeof *ts);
  if (ts == NULL) vm_out_of_memory(p->vm, sizeof *ts);
  ts->count = 0;
  return ts;
}

void parse_free_targets(Parser *p, Targets *ts) {
  (void)p;
  free(ts);
}

static bool ends_target(TokenType t) {
  return t == TOK_COMMA || t == TOK_RIGHT_PAREN || t == TOK_RIGHT_BRACKET || t == TOK_EQUAL || t == TOK_IN;
}

static int new_target(Parser *p, Targets *ts, TargetKind kind, const Token *at) {
  if (ts->count == TARGETS_MAX) {
    parse_error_at(p, at, "too many assignment targets (the limit is %d)", TARGETS_MAX);
    return -1;
  }
  Target *t = &ts->t[ts->count];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->at = *at;
  t->first = t->next = -1;
  return ts->count++;
}

/* An expression target (`self.h`, `xs[i]`): its tokens are skipped here and
 * compiled from their text when the value is there. */
static int expression_target(Parser *p, Targets *ts) {
  Token start = p->current;
  int depth = 0;
  while (!parse_check(p, TOK_EOF) && !parse_check(p, TOK_NEWLINE) && !parse_check(p, TOK_SEMICOLON)) {
    TokenType t = p->current.type;
    if (depth == 0 && ends_target(t)) break;
    if (t == TOK_LEFT_PAREN || t == TOK_LEFT_BRACKET || t == TOK_LEFT_BRACE) depth++;
    if (t == TOK_RIGHT_PAREN || t == TOK_RIGHT_BRACKET || t == TOK_RIGHT_BRACE) depth--;
    parse_advance(p);
  }
  int i = new_target(p, ts, TARGET_EXPR, &start);
  if (i >= 0) ts->t[i].length = (int)(p->previous.start + p->previous.length - start.start);
  return i;
}

static int target_items(Parser *p, Targets *ts, int seq, TokenType close);

static int one_target(Parser *p, Targets *ts) {
  if (!parse_enter(p)) return -1;
  Token at = p->current;
  bool starred = parse_match(p, TOK_STAR);
  int i;
  if (parse_match(p, TOK_LEFT_BRACKET) || parse_match(p, TOK_LEFT_PAREN)) {
    TokenType close = p->previous.type == TOK_LEFT_BRACKET ? TOK_RIGHT_BRACKET : TOK_RIGHT_PAREN;
    i = new_target(p, ts, TARGET_SEQ, &at);
    if (i >= 0) i = target_items(p, ts, i, close);
  } else if (parse_check(p, TOK_IDENTIFIER) && ends_target(p->next.type)) {
    parse_advance(p);
    i = new_target(p, ts, TARGET_NAME, &p->previous);
  } else if (ts->names_only) {
    parse_error_at(p, &p->current, "expected a variable name to assign");
    i = -1;
  } else {
    i = expression_target(p, ts);
  }
  if (i >= 0) ts->t[i].starred = starred;
  parse_leave(p);
  return i;
}

/* Adds child to seq; counts stars (one per list, as Python). */
static void add_child(Parser *p, Targets *ts, int seq, int child, int *last) {
  Target *s = &ts->t[seq];
  if (*last < 0) s->first = child;
  else ts->t[*last].next = child;
  *last = child;
  if (++s->count > 255) parse_error_at(p, &s->at, "too many names to unpack (the limit is 255)");
  if (ts->t[child].starred && s->has_star) parse_error_at(p, &ts->t[child].at, "multiple starred expressions in assignment");
  if (ts->t[child].starred) s->has_star = true;
}

/* Items up to `close` (TOK_EOF: up to '=' or 'in', unbracketed). A `( x )`
 * without a comma is x itself. */
static int target_items(Parser *p, Targets *ts, int seq, TokenType close) {
  int last = -1;
  bool comma = false;
  while (!parse_check(p, close) && !parse_check(p, TOK_EOF)) {
    int child = one_target(p, ts);
    if (child < 0) return -1;
    add_child(p, ts, seq, child, &last);
    if (!parse_match(p, TOK_COMMA)) break;
    comma = true;
    if (close == TOK_EOF && (parse_check(p, TOK_EQUAL) || parse_check(p, TOK_IN))) break;
  }
  if (close != TOK_EOF) parse_consume(p, close, close == TOK_RIGHT_PAREN ? "expected ')' after the names" : "expected ']' after the names");
  bool parenthesised_one = close != TOK_RIGHT_BRACKET && !comma && ts->t[seq].count == 1;
  if (parenthesised_one && !ts->t[ts->t[seq].first].starred) return ts->t[seq].first;
  return seq;
}

int parse_targets(Parser *p, Targets *ts, bool names_only) {
  ts->count = 0;
  ts->names_only = names_only;
  Token at = p->current;
  int root = new_target(p, ts, TARGET_SEQ, &at);
  root = target_items(p, ts, root, TOK_EOF);
  if (root >= 0 && ts->t[root].starred)
    parse_error_at(p, &ts->t[root].at, "starred assignment target must be in a list or tuple");
  return root;
}

/* ---- taking the value apart ---- */

/* value -> value, items (item 0 deepest); returns the stack depth of item 0. */
static int emit_unpack(Parser *p, const Targets *ts, int seq) {
  const Target *s = &ts->t[seq];
  int base = p->fc->depth;
  if (!s->has_star) {
    emit_op_var(p, OP_UNPACK, s->count);
    emit_u8(p, s->count);
    return base;
  }
  int before = 0;
  for (int c = s->first; !ts->t[c].starred; c = ts->t[c].next) before++;
  emit_op_var(p, OP_UNPACK_STAR, s->count);
  emit_u8(p, before);
  emit_u8(p, s->count - before - 1);
  return base;
}

static void emit_at(Parser *p, const Token *at) { p->at_line = at->line, p->at_col = at->col; }

/* Compiles the expression target's text so that its last access stores the
 * value in stack slot `slot` (a field, an item, or a name). */
static void store_expression(Parser *p, const Target *t, int slot) {
  Lexer sub;
  lex_init_at(&sub, t->at.start, t->length, t->at.line, t->at.col);
  Lexer *outer = p->lexer;
  Token previous = p->previous, current = p->current, next = p->next;
  int outer_slot = p->store_slot;
  Lexer *outer_store = p->store_lexer;
  p->lexer = &sub;
  p->store_slot = slot;
  p->store_lexer = &sub;
  parse_start_tokens(p);
  parse_expression(p);
  if (p->store_lexer == &sub) parse_error_at(p, &t->at, "cannot assign to this expression (a name, a field or an item is needed)");
  else if (!parse_check(p, TOK_EOF)) parse_error_at(p, &p->current, "unexpected %s in the assignment target", lex_token_name(p->current.type));
  emit_op(p, OP_POP);
  p->lexer = outer;
  p->store_slot = outer_slot;
  p->store_lexer = outer_store;
  p->previous = previous, p->current = current, p->next = next;
}

static bool same_name(const Token *a, const Token *b) {
  return a->length == b->length && memcmp(a->start, b->start, (size_t)a->length) == 0;
}

/* Whether the items of seq are names, none twice: then which is assigned
 * first cannot be seen, and each is stored from the top of the stack. */
static bool distinct_names(const Targets *ts, const Target *seq) {
  for (int c = seq->first; c >= 0; c = ts->t[c].next) {
    if (ts->t[c].kind != TARGET_NAME) return false;
    for (int d = ts->t[c].next; d >= 0; d = ts->t[d].next)
      if (same_name(&ts->t[c].at, &ts->t[d].at)) return false;
  }
  return true;
}

static void bind_target(Parser *p, const Targets *ts, int i, BindMode mode);

/* The items of seq, pushed item 0 deepest (base: its slot), into its targets. */
static void bind_items(Parser *p, const Targets *ts, const Target *seq, int base, BindMode mode) {
  if (distinct_names(ts, seq)) {
    int items[256], n = 0;
    for (int c = seq->first; c >= 0 && n < 256; c = ts->t[c].next) items[n++] = c;
    while (n > 0) bind_target(p, ts, items[--n], mode);
    return;
  }
  if (base + seq->count > 256) {
    parse_error_at(p, &seq->at, "expression too complex to unpack here");
    return;
  }
  int k = 0;
  for (int c = seq->first; c >= 0; c = ts->t[c].next, k++) { /* left to right, as Python */
    emit_op_u8(p, OP_GET_LOCAL, base + k);
    bind_target(p, ts, c, mode);
  }
  for (k = 0; k < seq->count; k++) emit_op(p, OP_POP);
}

/* The value on the top of the stack goes into target i, and off the stack. */
static void bind_target(Parser *p, const Targets *ts, int i, BindMode mode) {
  const Target *t = &ts->t[i];
  int slot = p->fc->depth - 1;
  switch (t->kind) {
  case TARGET_NAME:
    if (mode == BIND_DEFINE || (mode == BIND_LOOP && !parse_resolves_locally(p, &t->at))) {
      parse_define_global(p, &t->at); /* takes the value off */
      return;
    }
    parse_store_variable(p, &t->at);
    break;
  case TARGET_EXPR: store_expression(p, t, slot); break;
  case TARGET_SEQ: {
    emit_at(p, &t->at);
    int base = emit_unpack(p, ts, i);
    p->at_line = p->at_col = 0;
    bind_items(p, ts, t, base, mode);
    break;
  }
  }
  emit_op(p, OP_POP);
}

void parse_bind_targets(Parser *p, const Targets *ts, int root, BindMode mode) {
  if (root >= 0) bind_target(p, ts, root, mode);
}

/* The value on the top of the stack becomes the locals of target i. */
static void declare_target(Parser *p, const Targets *ts, int i) {
  const Target *t = &ts->t[i];
  if (t->kind == TARGET_NAME) {
    parse_add_local(p, t->at.start, t->at.length);
    return;
  }
  parse_add_local(p, " unpacked", 9);
  emit_at(p, &t->at);
  int base = emit_unpack(p, ts, i);
  p->at_line = p->at_col = 0;
  p->fc->depth = base; /* each item becomes a local as it is counted in */
  for (int c = t->first; c >= 0; c = ts->t[c].next) {
    emit_adjust_depth(p, 1);
    if (ts->t[c].kind == TARGET_NAME) parse_add_local(p, ts->t[c].at.start, ts->t[c].at.length);
    else parse_add_local(p, " item", 5);
  }
  int k = 0;
  for (int c = t->first; c >= 0; c = ts->t[c].next, k++) {
    if (ts->t[c].kind != TARGET_SEQ) continue;
    emit_op_u8(p, OP_GET_LOCAL, base + k);
    declare_target(p, ts, c);
  }
}

void parse_declare_targets(Parser *p, const Targets *ts, int root) {
  if (root >= 0) declare_target(p, ts, root);
}

/* ---- the assignment statement ---- */

/* Whether the statement at p->current is `targets = value` with several
 * targets: a ',' before the first '=' (outside brackets), or a bracketed
 * target list right before it (`[a, b] = ...`). Scans a copy of the lexer. */
bool parse_unpacking_ahead(Parser *p) {
  Lookahead la;
  parse_lookahead_begin(p, &la);
  bool opens = p->current.type == TOK_LEFT_PAREN || p->current.type == TOK_LEFT_BRACKET;
  bool comma = false, group_closed = false;
  int depth = 0;
  for (;; parse_lookahead_advance(&la)) {
    TokenType t = la.window[0].type;
    if (t == TOK_EOF || t == TOK_ERROR) return false;
    if (t == TOK_LEFT_PAREN || t == TOK_LEFT_BRACKET || t == TOK_LEFT_BRACE) {
      depth++;
    } else if (t == TOK_RIGHT_PAREN || t == TOK_RIGHT_BRACKET || t == TOK_RIGHT_BRACE) {
      if (depth == 0) return false;
      if (--depth == 0 && opens && !group_closed) {
        group_closed = true;
        if (la.window[1].type == TOK_EQUAL) return true;
      }
    } else if (depth == 0) {
      if (t == TOK_COMMA) comma = true;
      if (t == TOK_EQUAL) return comma;
      if (t == TOK_NEWLINE || t == TOK_SEMICOLON) return false;
    }
  }
}

void parse_unpacking_statement(Parser *p) {
  Targets *ts = parse_new_targets(p);
  int root = parse_targets(p, ts, false);
  Token equal = p->current;
  parse_consume(p, TOK_EQUAL, "expected '=' after the assignment targets");
  (void)equal;
  parse_expression_list(p);
  parse_bind_targets(p, ts, root, BIND_STORE);
  parse_free_targets(p, ts);
}
