/* compiler.c — the driver, error reporting, scopes and variables, functions,
 * classes and statements. See compiler.h for the design and internal.h for
 * how the files share the work.
 *
 * Decisions where SPEC §2/§4 is silent:
 *   - `return` at top level ends the script (or imported module).
 *   - `with e as x` binds what enter() returned, as Python's `with` does.
 *   - `let` may redeclare a name in the same scope (a new variable shadows it).
 *   - Assignment is an expression (`a = b = 0`); only a statement's outermost
 *     expression may be a REPL echo.
 *   - Extras that PyTorch users write: `x not in xs`, `else if`, spread in
 *     list literals `[...a, 1]`.
 *   - `fn(...)` bound by `let f = fn(...)` is named `f` (tracebacks); other
 *     function expressions are named `anonymous`.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "parser/internal.h"
#include "tensor/ag_assert.h"
#include "tensor/tensor.h"

static void statement(Parser *p);

/* ---- errors ---- */

static bool is_end_of_input(const Parser *p, const Token *tok) {
  if (p->in_field) return false; /* the end of an f-string field is not the end of input */
  return tok->type == TOK_EOF || (tok->type == TOK_ERROR && tok->at_eof);
}

static bool is_continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* Byte offset of 1-based column `col` (columns count code points). */
static int column_offset(const char *s, int len, int col) {
  int i = 0;
  for (int c = 1; i < len && c < col; c++) {
    i++;
    while (i < len && is_continuation(s[i])) i++;
  }
  return i;
}

/* The start of line `line` of the source, searched from the last one found. */
static const char *find_line(Parser *p, int line) {
  if (p->quoted_start == NULL || line < p->quoted_line) {
    p->quoted_start = p->source;
    if (strncmp(p->quoted_start, "\xEF\xBB\xBF", 3) == 0) p->quoted_start += 3; /* the lexer skips a BOM */
    p->quoted_line = 1;
  }
  const char *s = p->quoted_start;
  int l = p->quoted_line;
  for (; l < line && *s; s++)
    if (*s == '\n') l++;
  p->quoted_start = s;
  p->quoted_line = l;
  return s;
}

/* Prints the source line of `tok` and a caret under its column; a very long
 * line is cut to a window around the column. Tabs are kept so the caret
 * lines up. */
static void print_source_line(Parser *p, FILE *out, const Token *tok) {
  const char *s = find_line(p, tok->line);
  const char *end = strchr(s, '\n');
  int len = end ? (int)(end - s) : (int)strlen(s);
  if (len > 0 && s[len - 1] == '\r') len--;
  /* the token's own offset when it lies in this line (not in an f-string's
   * field, lexed from a copy): counting columns would rescan a long line */
  int at = tok->start >= s && tok->start <= s + len ? (int)(tok->start - s) : column_offset(s, len, tok->col);
  int from = len > 160 && at > 80 ? at - 60 : 0;
  while (from > 0 && is_continuation(s[from])) from--;
  int to = from + 160 < len ? from + 160 : len;
  while (to < len && to > from && is_continuation(s[to])) to--;
  fprintf(out, "%s%.*s%s\n", from ? "... " : "", to - from, s + from, to < len ? " ..." : "");
  if (from) fputs("    ", out);
  for (int i = from; i < at; i++)
    if (!is_continuation(s[i])) fputc(s[i] == '\t' ? '\t' : ' ', out);
  fprintf(out, "%s^%s\n", p->opts->color ? "\033[1;32m" : "", p->opts->color ? "\033[0m" : "");
}

/* Stops reading the input: from now on the current token is the end of input. */
static void halt(Parser *p) {
  p->halted = true;
  p->current.type = p->next.type = TOK_EOF;
}

static void verror_at(Parser *p, const Token *tok, const char *fmt, va_list ap) {
  if (p->panic || p->halted) return;
  p->panic = true;
  bool at_end = is_end_of_input(p, tok);
  if (at_end && p->reported_end) return; /* one "input ended early" message is enough */
  p->reported_end = p->reported_end || at_end;
  if (p->error_count == 0 && at_end) p->incomplete = true;
  p->error_count++;
  FILE *out = p->opts->errors ? p->opts->errors : stderr;
  bool color = p->opts->color;
  /* clang's colours: bold position, red "error:", bold message */
  fprintf(out, "%s%s:%d:%d: %serror:%s ", color ? "\033[1m" : "", p->file, tok->line, tok->col,
          color ? "\033[31m" : "", color ? "\033[39m" : "");
  vfprintf(out, fmt, ap);
  fprintf(out, "%s\n", color ? "\033[0m" : "");
  print_source_line(p, out, tok);
  if (p->error_count >= PARSE_MAX_ERRORS) {
    fprintf(out, "%s: too many errors (%d), stopping\n", p->file, p->error_count);
    halt(p);
  }
}

void parse_error_at(Parser *p, const Token *tok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(p, tok, fmt, ap);
  va_end(ap);
}

void parse_error(Parser *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(p, &p->previous, fmt, ap);
  va_end(ap);
}

/* ---- tokens ---- */

/* Lexical errors are reported when their token would become current. */
static void skip_error_tokens(Parser *p) {
  while (p->current.type == TOK_ERROR) {
    parse_error_at(p, &p->current, "%s", p->current.message);
    p->current = p->next;
    p->next = lex_next(p->lexer);
  }
}

void parse_advance(Parser *p) {
  if (p->halted) {
    p->current.type = p->next.type = TOK_EOF;
    return;
  }
  p->previous = p->current; /* even when it halts: callers read the token they consumed */
  if (tensor_interrupt_requested) { /* polled per token: a long input, or many errors */
    FILE *out = p->opts->errors ? p->opts->errors : stderr;
    fprintf(out, "%s:%d:%d: error: interrupted while compiling\n", p->file, p->current.line, p->current.col);
    p->error_count++;
    p->interrupted = true;
    p->incomplete = false;
    halt(p);
    return;
  }
  p->current = p->next;
  p->next = lex_next(p->lexer);
  skip_error_tokens(p);
}

void parse_start_tokens(Parser *p) {
  p->current = lex_next(p->lexer);
  p->next = lex_next(p->lexer);
  skip_error_tokens(p);
  p->previous = p->current;
}

bool parse_check(const Parser *p, TokenType type) { return p->current.type == type; }

void parse_lookahead_begin(const Parser *p, Lookahead *la) {
  la->lexer = *p->lexer;
  la->window[0] = p->current;
  la->window[1] = p->next;
}

void parse_lookahead_advance(Lookahead *la) {
  la->window[0] = la->window[1];
  if (la->window[0].type != TOK_EOF) la->window[1] = lex_next(&la->lexer);
}

bool parse_match(Parser *p, TokenType type) {
  if (!parse_check(p, type)) return false;
  parse_advance(p);
  return true;
}

void parse_consume(Parser *p, TokenType type, const char *message) {
  if (parse_check(p, type)) {
    parse_advance(p);
    return;
  }
  parse_error_at(p, &p->current, "%s", message);
}

void parse_skip_newlines(Parser *p) {
  while (parse_check(p, TOK_NEWLINE)) parse_advance(p);
}

static void skip_separators(Parser *p) {
  while (parse_check(p, TOK_NEWLINE) || parse_check(p, TOK_SEMICOLON)) parse_advance(p);
}

bool parse_enter(Parser *p) {
  if (++p->nesting > PARSE_MAX_NESTING) {
    parse_error_at(p, &p->current, "expression or block nested too deeply");
    halt(p); /* fatal, as in clang: the closing brackets that follow would each be an error */
    p->nesting--;
    return false;
  }
  return true;
}

void parse_leave(Parser *p) { p->nesting--; }

ObjString *parse_intern(Parser *p, const char *chars, int length) {
  return obj_copy_string(p->vm, chars, length);
}

/* Skips to the start of the next statement in the block being compiled: past
 * the end of the line (a block opened on it is skipped whole), or to the '}'
 * that closes the block. Keywords are not trusted as statement starts: after
 * a mistake they are more often in the middle of the broken line. */
static void synchronize(Parser *p) {
  p->panic = false;
  lex_reset_to_block(p->lexer);
  int braces = 0;
  while (!parse_check(p, TOK_EOF)) {
    switch (p->current.type) {
    case TOK_NEWLINE: case TOK_SEMICOLON:
      if (braces == 0) {
        parse_advance(p);
        return;
      }
      break;
    case TOK_LEFT_BRACE: braces++; break;
    case TOK_RIGHT_BRACE:
      if (braces == 0) return;
      braces--;
      break;
    default: break;
    }
    parse_advance(p);
  }
}

/* ---- scopes and variables ---- */

static bool names_equal(const char *a, int alen, const char *b, int blen) {
  return alen == blen && memcmp(a, b, (size_t)alen) == 0;
}

static void add_local(Parser *p, const char *name, int length) {
  FnCompiler *fc = p->fc;
  if (fc->local_count == PARSE_MAX_LOCALS) {
    if (!fc->too_many_locals) parse_error(p, "too many local variables in one function (the limit is 256)");
    fc->too_many_locals = true; /* one message per function */
    return;
  }
  Local *l = &fc->locals[fc->local_count++];
  l->name = name;
  l->length = length;
  l->depth = -1;
  l->captured = false;
}

static void mark_initialized(Parser *p) {
  FnCompiler *fc = p->fc;
  if (fc->local_count == 0) return;
  fc->locals[fc->local_count - 1].depth = fc->scope_depth;
  /* a local lives in the stack slot its initialiser pushed */
  AG_ASSERT(p->error_count > 0 || fc->depth == fc->local_count);
}

/* A local whose value is already on the top of the stack. */
static void add_initialized_local(Parser *p, const char *name, int length) {
  add_local(p, name, length);
  mark_initialized(p);
}

static void begin_scope(Parser *p) { p->fc->scope_depth++; }

static void pop_local(Parser *p, const Local *l) {
  emit_op(p, l->captured ? OP_CLOSE_UPVALUE : OP_POP);
}

static void end_scope(Parser *p) {
  FnCompiler *fc = p->fc;
  fc->scope_depth--;
  while (fc->local_count > 0 && fc->locals[fc->local_count - 1].depth > fc->scope_depth) {
    pop_local(p, &fc->locals[fc->local_count - 1]);
    fc->local_count--;
  }
}

/* Pops (without forgetting) the locals deeper than `depth`: break/continue. */
static void emit_pops_above(Parser *p, int depth) {
  FnCompiler *fc = p->fc;
  for (int i = fc->local_count - 1; i >= 0 && fc->locals[i].depth > depth; i--)
    pop_local(p, &fc->locals[i]);
}

static int resolve_local(Parser *p, FnCompiler *fc, const Token *name) {
  for (int i = fc->local_count - 1; i >= 0; i--) {
    const Local *l = &fc->locals[i];
    if (!names_equal(l->name, l->length, name->start, name->length)) continue;
    if (l->depth == -1)
      parse_error_at(p, name, "can't use local variable '%.*s' in its own initializer", name->length, name->start);
    return i;
  }
  return -1;
}

static int add_upvalue(Parser *p, FnCompiler *fc, int index, bool is_local) {
  int count = fc->function->upvalue_count;
  for (int i = 0; i < count; i++)
    if (fc->upvalues[i].index == index && fc->upvalues[i].is_local == is_local) return i;
  if (count == PARSE_MAX_UPVALUES) {
    parse_error(p, "too many captured variables in one function (the limit is 256)");
    return 0;
  }
  fc->upvalues[count].is_local = is_local;
  fc->upvalues[count].index = (uint8_t)index;
  return fc->function->upvalue_count++;
}

static int resolve_upvalue(Parser *p, FnCompiler *fc, const Token *name) {
  if (fc->enclosing == NULL) return -1;
  int local = resolve_local(p, fc->enclosing, name);
  if (local >= 0) {
    fc->enclosing->locals[local].captured = true;
    return add_upvalue(p, fc, local, true);
  }
  int up = resolve_upvalue(p, fc->enclosing, name);
  return up >= 0 ? add_upvalue(p, fc, up, false) : -1;
}

static int global_slot(Parser *p, const Token *name) {
  int slot = vm_global_slot(p->vm, parse_intern(p, name->start, name->length));
  if (slot > UINT16_MAX) {
    parse_error_at(p, name, "too many global variables (the limit is 65536)");
    return 0;
  }
  return slot;
}

typedef struct {
  OpCode get, set;
  int arg;
  bool wide; /* u16 operand (globals) */
} VarAccess;

static VarAccess resolve_variable(Parser *p, const Token *name) {
  int arg = resolve_local(p, p->fc, name);
  if (arg >= 0) return (VarAccess){OP_GET_LOCAL, OP_SET_LOCAL, arg, false};
  arg = resolve_upvalue(p, p->fc, name);
  if (arg >= 0) return (VarAccess){OP_GET_UPVALUE, OP_SET_UPVALUE, arg, false};
  return (VarAccess){OP_GET_GLOBAL, OP_SET_GLOBAL, global_slot(p, name), true};
}

static void emit_access(Parser *p, OpCode op, const VarAccess *v, const Token *name) {
  p->at_line = name->line;
  p->at_col = name->col;
  if (v->wide) emit_op_u16(p, op, v->arg);
  else emit_op_u8(p, op, v->arg);
  p->at_line = p->at_col = 0;
}

void parse_named_variable(Parser *p, Token name, bool can_assign) {
  if (name.line == 0) name.line = p->previous.line, name.col = p->previous.col;
  VarAccess v = resolve_variable(p, &name);
  if (can_assign && parse_assignment_begins(p)) {
    parse_assigned_value(p);
    emit_access(p, v.set, &v, &name);
    parse_mark_assignment(p);
  } else if (can_assign && parse_is_compound_op(p->current.type)) {
    Token op = p->current;
    parse_advance(p);
    emit_access(p, v.get, &v, &name);
    parse_expression(p);
    p->at_line = op.line, p->at_col = op.col;
    emit_op(p, parse_compound_opcode(op.type));
    p->at_line = p->at_col = 0;
    emit_access(p, v.set, &v, &name);
    parse_mark_assignment(p);
  } else {
    emit_access(p, v.get, &v, &name);
  }
}

static bool at_top_level(const Parser *p) { return p->fc->scope_depth == 0 && p->fc->kind == FN_SCRIPT; }

void parse_add_local(Parser *p, const char *name, int length) { add_initialized_local(p, name, length); }

void parse_store_variable(Parser *p, const Token *name) {
  VarAccess v = resolve_variable(p, name);
  emit_access(p, v.set, &v, name);
}

void parse_define_global(Parser *p, const Token *name) {
  p->at_line = name->line, p->at_col = name->col;
  emit_op_u16(p, OP_DEFINE_GLOBAL, global_slot(p, name));
  p->at_line = p->at_col = 0;
}

bool parse_resolves_locally(Parser *p, const Token *name) {
  return resolve_local(p, p->fc, name) >= 0 || resolve_upvalue(p, p->fc, name) >= 0;
}

/* `let`, fn, class, import: a local is declared now (its slot is the value the
 * initialiser will push); a global is defined after, by define_variable. */
static void declare_variable(Parser *p, const Token *name) {
  if (!at_top_level(p)) add_local(p, name->start, name->length);
}

static void define_variable(Parser *p, const Token *name) {
  if (at_top_level(p)) {
    parse_define_global(p, name);
  } else {
    mark_initialized(p);
  }
}

/* A keyword where a name belongs is skipped after the error, so that
 * resynchronising does not start a statement at it (`let if = 3`). */
static Token consume_name(Parser *p, const char *message) {
  if (parse_match(p, TOK_IDENTIFIER)) return p->previous;
  parse_error_at(p, &p->current, "%s", message);
  Token bad = p->current;
  if (lex_is_keyword(bad.type)) parse_advance(p);
  bad.type = TOK_ERROR;
  return bad;
}

/* ---- blocks ---- */

/* Statements up to the closing '}' (the '{' is consumed by the caller). */
static void block_body(Parser *p) {
  if (!parse_enter(p)) return;
  for (;;) {
    skip_separators(p);
    if (parse_check(p, TOK_RIGHT_BRACE) || parse_check(p, TOK_EOF)) break;
    const char *before = p->current.start;
    statement(p);
    /* guarantee progress after an error that consumed nothing */
    if (p->current.start == before && !parse_check(p, TOK_RIGHT_BRACE) && !parse_check(p, TOK_EOF))
      parse_advance(p);
  }
  parse_consume(p, TOK_RIGHT_BRACE, "expected '}' to close the block");
  parse_leave(p);
}

/* Is t the identifier `word`? (Python's keywords that Ag spells otherwise) */
static bool is_word(const Token *t, const char *word) {
  return t->type == TOK_IDENTIFIER && t->length == (int)strlen(word) && memcmp(t->start, word, (size_t)t->length) == 0;
}

void parse_block(Parser *p) {
  if (parse_check(p, TOK_COLON)) { /* `if x:`, `else:` */
    parse_error_at(p, &p->current, "expected '{' to start a block: Ag's blocks are in braces, not after a ':'");
    return;
  }
  parse_consume(p, TOK_LEFT_BRACE, "expected '{' to start a block");
  if (p->previous.type == TOK_LEFT_BRACE) block_body(p);
}

static void scoped_block(Parser *p) {
  begin_scope(p);
  parse_block(p);
  end_scope(p);
}

/* ---- functions ---- */

static void init_fn_compiler(Parser *p, FnCompiler *fc, FnKind kind, const Token *name) {
  fc->enclosing = p->fc;
  fc->too_many_locals = false;
  fc->too_many_constants = false;
  fc->scope_depth = 0;
  fc->loop = NULL;
  fc->handler_count = 0;
  fc->is_generator = false;
  fc->no_yield = false;
  fc->body_start = 0;
  fc->kind = kind;
  fc->function = obj_new_function(p->vm);
  fc->function->file = p->file_string;
  fc->function->line = name ? name->line : 1;
  fc->function->max_slots = 1;
  if (name != NULL) fc->function->name = parse_intern(p, name->start, name->length);
  fc->function->is_method = kind == FN_METHOD || kind == FN_INIT;
  p->fc = fc;
  fc->depth = 1; /* slot 0: the callee, or self in a method */
  bool method = kind == FN_METHOD || kind == FN_INIT;
  fc->locals[0] = (Local){method ? "self" : "", method ? 4 : 0, 0, false};
  fc->local_count = 1;
}

static ObjFunction *end_fn_compiler(Parser *p) {
  FnCompiler *fc = p->fc;
  if (fc->is_generator) emit_insert_op(p, fc->body_start, OP_GENERATOR);
  if (fc->kind == FN_INIT) emit_op_u8(p, OP_GET_LOCAL, 0);
  else emit_op(p, OP_NIL);
  emit_op(p, OP_RETURN);
  ObjFunction *fn = fc->function;
  p->fc = fc->enclosing;
  return fn;
}

typedef struct {
  const char *names[256];
  int lengths[256];
  int count;
} ParamList;

static void add_parameter(Parser *p, ParamList *params, const Token *name) {
  for (int i = 0; i < params->count; i++)
    if (names_equal(params->names[i], params->lengths[i], name->start, name->length))
      parse_error_at(p, name, "duplicate parameter '%.*s'", name->length, name->start);
  if (params->count == 255) {
    parse_error_at(p, name, "too many parameters (the limit is 255)");
    return;
  }
  params->names[params->count] = name->start;
  params->lengths[params->count++] = name->length;
  emit_adjust_depth(p, 1); /* the caller pushed it */
  add_initialized_local(p, name->start, name->length);
}

/* `= expr` after a parameter: code in the prologue that runs when the caller
 * did not pass it (OP_DEFAULT skips it otherwise). The parameter's own name
 * means the enclosing variable there, so Python's `lambda x, k=k: x + k`
 * takes the k around it (earlier parameters stay visible). */
static void default_value(Parser *p, int slot) {
  emit_op_u8(p, OP_DEFAULT, slot);
  emit_u16(p, 0xffff);
  int jump = emit_offset(p) - 2;
  Local *param = &p->fc->locals[slot];
  const char *name = param->name;
  int length = param->length;
  param->name = " default", param->length = 8;
  parse_expression(p);
  param->name = name, param->length = length;
  emit_op_u8(p, OP_SET_LOCAL, slot);
  emit_op(p, OP_POP);
  emit_patch_jump(p, jump);
}

/* `*args`, `...args` or `**kwargs` in a parameter list. */
typedef struct {
  Token rest, kwargs; /* TOK_ERROR when absent */
  bool rest_is_tuple; /* spelled *args (a tuple), not ...args (a list) */
  bool star;          /* `*` or `*args` seen: later parameters are keyword-only */
  Token bare;         /* a bare `*` (TOK_ERROR when none) */
} StarParams;

/* Reads `*name`, `...name`, a bare `*` or `**name`; false if the parameter is
 * a plain one. The names are added after the named parameters (their slots
 * follow them), by add_star_params. */
static bool star_parameter(Parser *p, StarParams *star) {
  Token mark = p->current;
  bool kwargs = parse_match(p, TOK_STAR_STAR);
  if (!kwargs && !parse_match(p, TOK_STAR) && !parse_match(p, TOK_ELLIPSIS)) return false;
  if (star->kwargs.type != TOK_ERROR) parse_error_at(p, &mark, "no parameter may follow '**%.*s'", star->kwargs.length, star->kwargs.start);
  if (!kwargs && star->star) parse_error_at(p, &mark, "only one '*' parameter is allowed");
  if (mark.type == TOK_STAR && (parse_check(p, TOK_COMMA) || parse_check(p, TOK_RIGHT_PAREN))) {
    star->star = true; /* `*,`: keyword-only parameters follow */
    star->bare = mark;
    return true;
  }
  Token name = consume_name(p, "expected a parameter name");
  if (kwargs) star->kwargs = name;
  else star->rest = name, star->star = true, star->rest_is_tuple = mark.type == TOK_STAR;
  if (parse_check(p, TOK_EQUAL)) parse_error_at(p, &p->current, "a '%s' parameter cannot have a default", kwargs ? "**" : "*");
  return true;
}

static void add_star_params(Parser *p, ParamList *params, const StarParams *star) {
  ObjFunction *fn = p->fc->function;
  if (star->bare.type == TOK_STAR && fn->kwonly == 0)
    parse_error_at(p, &star->bare, "named parameters must follow a bare '*'");
  if (star->rest.type == TOK_IDENTIFIER) add_parameter(p, params, &star->rest);
  if (star->kwargs.type == TOK_IDENTIFIER) add_parameter(p, params, &star->kwargs);
  fn->has_rest = star->rest.type == TOK_IDENTIFIER;
  fn->has_kwargs = star->kwargs.type == TOK_IDENTIFIER;
  fn->rest_is_tuple = star->rest_is_tuple;
  fn->binds_extra = fn->has_rest || fn->has_kwargs || fn->kwonly > 0;
  fn->plain_call_slow = fn->binds_extra || fn->is_method;
}

/* The parameters up to `close` (not consumed): names with defaults,
 * `*args` or `...args`, a bare `*`, `**kwargs` (a fn's and a lambda's). */
static void parameters(Parser *p, ParamList *params, TokenType close) {
  ObjFunction *fn = p->fc->function;
  StarParams star = {.rest = {.type = TOK_ERROR}, .kwargs = {.type = TOK_ERROR}, .star = false, .bare = {.type = TOK_ERROR}};
  while (!parse_check(p, close) && !parse_check(p, TOK_EOF)) {
    if (!star_parameter(p, &star)) {
      if (star.kwargs.type != TOK_ERROR) parse_error_at(p, &p->current, "no parameter may follow '**%.*s'", star.kwargs.length, star.kwargs.start);
      Token name = consume_name(p, "expected a parameter name");
      if (name.type != TOK_IDENTIFIER) return;
      add_parameter(p, params, &name);
      fn->arity++;
      if (star.star) fn->kwonly++;
      if (parse_match(p, TOK_EQUAL)) default_value(p, p->fc->local_count - 1);
    }
    if (!parse_match(p, TOK_COMMA)) break;
  }
  add_star_params(p, params, &star);
}

static void parameter_list(Parser *p, ParamList *params) {
  parse_consume(p, TOK_LEFT_PAREN, "expected '(' after the function name");
  parameters(p, params, TOK_RIGHT_PAREN);
  parse_consume(p, TOK_RIGHT_PAREN, "expected ')' after the parameters");
}

static void store_param_names(Parser *p, ObjFunction *fn, const ParamList *params) {
  if (params->count == 0) return;
  fn->param_names = AG_ALLOCATE(p->vm, ObjString *, params->count);
  for (int i = 0; i < params->count; i++) fn->param_names[i] = NULL;
  for (int i = 0; i < params->count; i++)
    fn->param_names[i] = parse_intern(p, params->names[i], params->lengths[i]);
}

/* Ends the function of fc and emits OP_CLOSURE of it (at `name` when given). */
static void emit_closure(Parser *p, const FnCompiler *fc, const Token *name) {
  ObjFunction *fn = end_fn_compiler(p);
  if (name != NULL) p->at_line = name->line, p->at_col = name->col > 0 ? name->col : 1;
  emit_op_u16(p, OP_CLOSURE, emit_constant_index(p, OBJ_VAL(fn)));
  p->at_line = p->at_col = 0;
  for (int i = 0; i < fn->upvalue_count; i++) {
    emit_u8(p, fc->upvalues[i].is_local ? 1 : 0);
    emit_u8(p, fc->upvalues[i].index);
  }
}

/* Skips a nested function or class ahead (from its keyword) to its body's '}'. */
static void skip_nested_definition(Lookahead *la) {
  int parens = 0, braces = 0;
  for (parse_lookahead_advance(la);; parse_lookahead_advance(la)) {
    TokenType t = la->window[0].type;
    if (t == TOK_EOF || t == TOK_ERROR) return;
    if (t == TOK_LEFT_PAREN || t == TOK_LEFT_BRACKET) parens++;
    if (t == TOK_RIGHT_PAREN || t == TOK_RIGHT_BRACKET) parens--;
    if (t == TOK_LEFT_BRACE && (parens == 0 || braces > 0)) braces++;
    if (t == TOK_RIGHT_BRACE && braces > 0 && --braces == 0) return;
  }
}

/* The names of a `for` header ahead (after the keyword), up to `in`. */
static void declare_for_header_names(Parser *p, Lookahead *la) {
  for (parse_lookahead_advance(la);; parse_lookahead_advance(la)) {
    Token t = la->window[0];
    if (t.type == TOK_IDENTIFIER) {
      if (resolve_local(p, p->fc, &t) < 0) {
        emit_op(p, OP_NIL);
        add_initialized_local(p, t.start, t.length);
      }
    } else if (t.type != TOK_COMMA && t.type != TOK_STAR && t.type != TOK_LEFT_PAREN &&
               t.type != TOK_RIGHT_PAREN && t.type != TOK_LEFT_BRACKET && t.type != TOK_RIGHT_BRACKET) {
      return;
    }
  }
}

/* Python's scope for loop variables: every name that a `for` statement of
 * the body binds (not one of a nested function's, nor of a comprehension)
 * is a local of the whole function, nil until a loop binds it, so it
 * outlives the block its loop is in. With p->current just after the '{'. */
static void declare_function_loop_variables(Parser *p) {
  Lookahead la;
  parse_lookahead_begin(p, &la);
  TokenType before = TOK_LEFT_BRACE;
  int depth = 0;
  for (;; parse_lookahead_advance(&la)) {
    TokenType t = la.window[0].type;
    if (t == TOK_EOF || t == TOK_ERROR || (t == TOK_RIGHT_BRACE && depth == 0)) return;
    if (t == TOK_LEFT_PAREN || t == TOK_LEFT_BRACKET || t == TOK_LEFT_BRACE) depth++;
    if (t == TOK_RIGHT_PAREN || t == TOK_RIGHT_BRACKET || t == TOK_RIGHT_BRACE) depth--;
    bool statement_start = before == TOK_NEWLINE || before == TOK_SEMICOLON || before == TOK_LEFT_BRACE ||
                           before == TOK_RIGHT_BRACE;
    if (t == TOK_FN || t == TOK_CLASS) skip_nested_definition(&la);
    else if (t == TOK_FOR && statement_start) declare_for_header_names(p, &la);
    before = la.window[0].type;
  }
}

/* Compiles `(params) { body }` into a new function and emits OP_CLOSURE. */
void parse_function(Parser *p, FnKind kind, Token name) {
  FnCompiler fc;
  init_fn_compiler(p, &fc, kind, &name);
  begin_scope(p);
  ParamList params;
  params.count = 0;
  parameter_list(p, &params);
  store_param_names(p, fc.function, &params);
  fc.body_start = emit_offset(p);
  parse_consume(p, TOK_LEFT_BRACE, "expected '{' before the function body");
  if (p->previous.type == TOK_LEFT_BRACE) {
    declare_function_loop_variables(p);
    block_body(p);
  }
  emit_closure(p, &fc, &name);
}

void parse_lambda(Parser *p, const Token *keyword) {
  Token name = *keyword;
  name.start = "<lambda>";
  name.length = 8;
  FnCompiler fc;
  init_fn_compiler(p, &fc, FN_FUNCTION, &name);
  begin_scope(p);
  ParamList params;
  params.count = 0;
  parameters(p, &params, TOK_COLON);
  store_param_names(p, fc.function, &params);
  fc.body_start = emit_offset(p);
  parse_consume(p, TOK_COLON, "expected ':' after the lambda's parameters");
  parse_expression(p);
  emit_op(p, OP_RETURN);
  emit_closure(p, &fc, &name);
}

static void fn_declaration(Parser *p) {
  Token name = consume_name(p, "expected a function name after 'fn'");
  if (name.type != TOK_IDENTIFIER) return;
  declare_variable(p, &name);
  /* a local function may call itself: it is initialised before its body */
  if (!at_top_level(p)) p->fc->locals[p->fc->local_count - 1].depth = p->fc->scope_depth;
  parse_function(p, FN_FUNCTION, name);
  define_variable(p, &name);
}

/* ---- decorators ---- */

/* `@name.setter` on a method: name is the class's member defined above (a
 * property), as Python's class body has its own namespace. */
static bool class_member_decorator(Parser *p) {
  if (p->cls == NULL || !p->cls->in_decorator || !parse_check(p, TOK_IDENTIFIER) || p->next.type != TOK_DOT)
    return false;
  Token member = p->current;
  parse_advance(p);
  emit_op_u8(p, OP_GET_LOCAL, p->cls->slot);
  p->at_line = member.line, p->at_col = member.col;
  emit_op_u16(p, OP_GET_FIELD, emit_name_constant(p, member.start, member.length));
  p->at_line = p->at_col = 0;
  parse_advance(p); /* . */
  if (!parse_match(p, TOK_IDENTIFIER)) {
    parse_error_at(p, &p->current, "expected an attribute name after '.'");
    return true;
  }
  emit_op_u16(p, OP_GET_FIELD, emit_name_constant(p, p->previous.start, p->previous.length));
  return true;
}

/* `@expr` lines (Python's decorators) before a `fn`: each expression is
 * evaluated now, top to bottom, and stays on the stack; once the function is
 * made they are applied bottom-up (apply_decorators), each call leaving its
 * result in place of its decorator. Returns how many there were.
 * @staticmethod and @classmethod (so spelled) make a method's function a
 * plain one, without self: its parameters are Python's (cls first). */
static int decorator_lines(Parser *p, bool *not_method) {
  int count = 0;
  while (parse_match(p, TOK_AT)) {
    if (parse_check(p, TOK_IDENTIFIER) && (p->next.type == TOK_NEWLINE || p->next.type == TOK_SEMICOLON) &&
        (names_equal(p->current.start, p->current.length, "staticmethod", 12) ||
         names_equal(p->current.start, p->current.length, "classmethod", 11)))
      *not_method = true;
    if (!class_member_decorator(p)) parse_expression(p);
    count++;
    if (!parse_match(p, TOK_NEWLINE) && !parse_match(p, TOK_SEMICOLON)) {
      parse_error_at(p, &p->current, "expected a new line after the decorator");
      return count;
    }
    skip_separators(p);
  }
  if (!(parse_check(p, TOK_FN) && p->next.type == TOK_IDENTIFIER) && !p->panic)
    parse_error_at(p, &p->current, "a decorator must be followed by a function definition ('fn name(...) { ... }')");
  return count;
}

/* Calls the decorators below the new function, innermost first. */
static void apply_decorators(Parser *p, int count, const Token *name) {
  p->at_line = name->line, p->at_col = name->col;
  for (int i = 0; i < count; i++) {
    emit_op_var(p, OP_CALL, -1);
    emit_u8(p, 1);
  }
  p->at_line = p->at_col = 0;
}

/* @d1 @d2 fn name(...) { } binds name to d1(d2(the function)). A local name
 * is declared (nil) before the decorators run, so that the body may call
 * the decorated function by its name, as in Python. */
static void decorated_fn(Parser *p) {
  bool local = !at_top_level(p);
  if (local) {
    emit_op(p, OP_NIL);
    add_initialized_local(p, " decorated", 10);
  }
  int slot = p->fc->local_count - 1;
  bool not_method = false;
  int count = decorator_lines(p, &not_method);
  if (p->panic) return;
  parse_advance(p); /* fn */
  Token name = consume_name(p, "expected a function name after 'fn'");
  if (local) p->fc->locals[slot].name = name.start, p->fc->locals[slot].length = name.length;
  parse_function(p, FN_FUNCTION, name);
  apply_decorators(p, count, &name);
  if (local) {
    emit_op_u8(p, OP_SET_LOCAL, slot);
    emit_op(p, OP_POP);
  } else {
    define_variable(p, &name);
  }
}

/* ---- classes ---- */

static void apply_decorators(Parser *p, int count, const Token *name);

static void method(Parser *p, int decorators, bool not_method) {
  if (!parse_match(p, TOK_FN)) {
    parse_error_at(p, &p->current, "expected a method ('fn name(...) { ... }') in the class body");
    return;
  }
  /* `or` and `and` are operator methods (SPEC §4: `a | b` calls a.or(b)),
   * so these two keywords may name a method, as any keyword may follow '.' */
  Token name;
  if (parse_match(p, TOK_OR) || parse_match(p, TOK_AND)) {
    name = p->previous;
    name.type = TOK_IDENTIFIER;
  } else {
    name = consume_name(p, "expected a method name after 'fn'");
  }
  if (name.type != TOK_IDENTIFIER) return;
  FnKind kind = not_method ? FN_FUNCTION : names_equal(name.start, name.length, "init", 4) ? FN_INIT : FN_METHOD;
  parse_function(p, kind, name);
  apply_decorators(p, decorators, &name);
  emit_op_u16(p, OP_METHOD, emit_name_constant(p, name.start, name.length));
}

static void class_body(Parser *p) {
  parse_consume(p, TOK_LEFT_BRACE, "expected '{' before the class body");
  if (p->previous.type != TOK_LEFT_BRACE) return;
  for (;;) {
    skip_separators(p);
    if (parse_check(p, TOK_RIGHT_BRACE) || parse_check(p, TOK_EOF)) break;
    const char *before = p->current.start;
    bool not_method = false;
    p->cls->in_decorator = true;
    int decorators = parse_check(p, TOK_AT) ? decorator_lines(p, &not_method) : 0;
    p->cls->in_decorator = false;
    if (!p->panic) method(p, decorators, not_method);
    if (p->panic) synchronize(p);
    if (p->current.start == before && !parse_check(p, TOK_RIGHT_BRACE) && !parse_check(p, TOK_EOF))
      parse_advance(p); /* always make progress */
  }
  parse_consume(p, TOK_RIGHT_BRACE, "expected '}' after the class body");
}

static void class_declaration(Parser *p) {
  Token name = consume_name(p, "expected a class name after 'class'");
  if (name.type != TOK_IDENTIFIER) return;
  declare_variable(p, &name);
  emit_op_u16(p, OP_CLASS, emit_name_constant(p, name.start, name.length));
  define_variable(p, &name);
  ClassInfo info = {p->cls, false, 0, false};
  p->cls = &info;
  bool python_form = parse_match(p, TOK_LEFT_PAREN) && !parse_match(p, TOK_RIGHT_PAREN);
  if (python_form || parse_match(p, TOK_COLON)) { /* `class A : B` or Python's `class A(B)` */
    begin_scope(p);
    parse_expression(p);
    if (python_form) parse_consume(p, TOK_RIGHT_PAREN, "expected ')' after the parent class");
    add_initialized_local(p, "super", 5); /* the hidden binding `super.m()` uses */
    parse_named_variable(p, name, false);
    emit_op(p, OP_INHERIT);
    info.has_parent = true;
  } else {
    parse_named_variable(p, name, false);
  }
  info.slot = p->fc->depth - 1;
  class_body(p);
  emit_op(p, OP_POP); /* the class */
  if (info.has_parent) end_scope(p);
  p->cls = info.enclosing;
}

/* ---- simple statements ---- */

static void end_statement(Parser *p) {
  if (p->panic) return;
  if (parse_match(p, TOK_NEWLINE) || parse_match(p, TOK_SEMICOLON)) return;
  if (parse_check(p, TOK_RIGHT_BRACE) || parse_check(p, TOK_EOF)) return;
  parse_error_at(p, &p->current, "expected a newline or ';' after the statement, not %s",
                 lex_token_name(p->current.type));
}

/* Only an assignment that is the statement's whole expression counts, not
 * one inside a function expression or an argument. */
void parse_mark_assignment(Parser *p) {
  if (p->nesting == p->statement_nesting + 1) p->assigned = true;
}

static void expression_statement(Parser *p) {
  int outer_nesting = p->statement_nesting; /* statements nest in function expressions */
  bool outer_assigned = p->assigned;
  p->statement_nesting = p->nesting;
  p->assigned = false;
  parse_expression(p);
  bool echo = p->opts->repl && at_top_level(p) && !p->assigned;
  if (echo) p->last_show = emit_offset(p);
  emit_op(p, echo ? OP_REPL_SHOW : OP_POP);
  p->statement_nesting = outer_nesting;
  p->assigned = outer_assigned;
}

/* let a, b = v / let (a, b) = v / let [a, b] = v / let first, *rest = v:
 * every name is declared (a name given twice keeps its last value). */
static bool let_unpacks(const Parser *p) {
  TokenType t = p->current.type;
  return t == TOK_LEFT_BRACKET || t == TOK_LEFT_PAREN || t == TOK_STAR ||
         (t == TOK_IDENTIFIER && p->next.type == TOK_COMMA);
}

static void unpacking_let(Parser *p) {
  Targets *ts = parse_new_targets(p);
  int root = parse_targets(p, ts, true);
  parse_consume(p, TOK_EQUAL, "expected '=' after the names");
  parse_expression_list(p);
  if (at_top_level(p)) parse_bind_targets(p, ts, root, BIND_DEFINE);
  else parse_declare_targets(p, ts, root);
  parse_free_targets(p, ts);
}

static void let_statement(Parser *p) {
  if (let_unpacks(p)) {
    unpacking_let(p);
    return;
  }
  Token name = consume_name(p, "expected a variable name after 'let'");
  if (name.type != TOK_IDENTIFIER) return;
  declare_variable(p, &name);
  if (parse_match(p, TOK_EQUAL)) {
    if (parse_check(p, TOK_FN) && p->next.type == TOK_LEFT_PAREN) p->lambda_name = name;
    parse_expression_list(p);
    p->lambda_name.start = NULL;
  } else {
    emit_op(p, OP_NIL);
  }
  define_variable(p, &name);
}

/* ctx.name() on the context object of a `with` block; `at` (the `with`
 * keyword, or NULL for the current token) is the line errors will name. */
static void call_context_method(Parser *p, int ctx_slot, const char *name, const Token *at) {
  if (at != NULL) p->at_line = at->line, p->at_col = at->col;
  emit_op_u8(p, OP_GET_LOCAL, ctx_slot);
  emit_op_var(p, OP_INVOKE, 0);
  emit_u16(p, emit_name_constant(p, name, (int)strlen(name)));
  emit_u8(p, 0);
  p->at_line = p->at_col = 0;
}

static void call_exit(Parser *p, int ctx_slot, const Token *at) {
  call_context_method(p, ctx_slot, "exit", at);
  emit_op(p, OP_POP);
}

/* Leaves the handler blocks above `keep` (innermost first): pops each
 * handler and calls exit() of each `with`. */
static void unwind_handlers(Parser *p, int keep) {
  FnCompiler *fc = p->fc;
  for (int i = fc->handler_count - 1; i >= keep; i--) {
    emit_op(p, OP_END_TRY);
    if (fc->handlers[i].is_with) call_exit(p, fc->handlers[i].ctx_slot, NULL);
  }
}

/* The outermost open `with` block, or -1. */
static int outermost_with(const FnCompiler *fc) {
  for (int i = 0; i < fc->handler_count; i++)
    if (fc->handlers[i].is_with) return i;
  return -1;
}

/* A top-level `return` ends the script (or the imported module); its value is
 * ignored there. */
static void return_statement(Parser *p) {
  FnCompiler *fc = p->fc;
  Token keyword = p->previous;
  bool bare = parse_check(p, TOK_NEWLINE) || parse_check(p, TOK_SEMICOLON) ||
              parse_check(p, TOK_RIGHT_BRACE) || parse_check(p, TOK_EOF);
  if (bare && fc->kind == FN_INIT) emit_op_u8(p, OP_GET_LOCAL, 0);
  else if (bare) emit_op(p, OP_NIL);
  else if (fc->kind == FN_INIT) parse_error_at(p, &keyword, "'init' cannot return a value");
  else parse_expression_list(p);
  int depth = fc->depth;
  /* handlers outside every `with` stay: RETURN drops them, and an error in
   * an exit() is still caught by a try around the with */
  int with = outermost_with(fc);
  if (with >= 0) unwind_handlers(p, with);
  emit_op(p, OP_RETURN);
  fc->depth = depth - 1;
}

static void loop_jump(Parser *p, bool is_break) {
  FnCompiler *fc = p->fc;
  Loop *loop = fc->loop;
  if (loop == NULL) {
    parse_error(p, is_break ? "'break' outside a loop" : "'continue' outside a loop");
    return;
  }
  int depth = fc->depth;
  unwind_handlers(p, loop->handler_count);
  emit_pops_above(p, loop->scope_depth);
  if (!is_break) {
    emit_loop(p, loop->start);
  } else {
    if (loop->break_count == loop->break_capacity) {
      loop->break_capacity = loop->break_capacity ? loop->break_capacity * 2 : 4;
      int *grown = realloc(loop->breaks, sizeof(int) * (size_t)loop->break_capacity);
      if (grown == NULL) vm_out_of_memory(p->vm, sizeof(int) * (size_t)loop->break_capacity);
      loop->breaks = grown;
    }
    loop->breaks[loop->break_count++] = emit_jump(p, OP_JUMP);
  }
  fc->depth = depth; /* code after a jump is reached from elsewhere, at this depth */
}

static void throw_statement(Parser *p) {
  Token keyword = p->previous;
  parse_expression(p);
  p->at_line = keyword.line, p->at_col = keyword.col;
  emit_op(p, OP_THROW);
  p->at_line = p->at_col = 0;
}

/* Whether the token after `assert` begins its condition: then `assert` is
 * Python's statement. `assert(...)` stays a call of the built-in function
 * assert(cond, message), which means the same; `assert = ...`, `assert.x`
 * and a lone `assert` use the name. */
static bool assert_statement_ahead(const Parser *p) {
  if (!is_word(&p->current, "assert")) return false;
  switch (p->next.type) {
  case TOK_IDENTIFIER: case TOK_NUMBER: case TOK_STRING: case TOK_FSTRING: case TOK_TRUE:
  case TOK_FALSE: case TOK_NIL: case TOK_NOT: case TOK_MINUS: case TOK_TILDE:
  case TOK_LEFT_BRACKET: case TOK_LEFT_BRACE: case TOK_SELF: case TOK_SUPER: case TOK_FN:
    return p->next.line == p->current.line;
  default: return false;
  }
}

/* assert COND [, MESSAGE]: when COND is false, throws AssertionError(MESSAGE)
 * (AssertionError() without one), evaluating MESSAGE only then, as Python. */
static void assert_statement(Parser *p) {
  Token keyword = p->previous;
  parse_expression(p);
  int fail_jump = emit_jump(p, OP_JUMP_IF_FALSE);
  int end_jump = emit_jump(p, OP_JUMP);
  emit_patch_jump(p, fail_jump);
  emit_constant(p, OBJ_VAL(p->vm->core.error_classes[VM_ERR_ASSERTION]));
  bool has_message = parse_match(p, TOK_COMMA);
  if (has_message) parse_expression(p);
  p->at_line = keyword.line, p->at_col = keyword.col;
  emit_op_var(p, OP_CALL, has_message ? -1 : 0);
  emit_u8(p, has_message ? 1 : 0);
  emit_op(p, OP_THROW);
  p->at_line = p->at_col = 0;
  emit_patch_jump(p, end_jump);
}

static void import_statement(Parser *p) {
  parse_consume(p, TOK_STRING, "expected a module name or a file path (a string) after 'import'");
  if (p->previous.type != TOK_STRING) return;
  Token path = p->previous;
  char *buf = malloc((size_t)path.length);
  if (buf == NULL) vm_out_of_memory(p->vm, (size_t)path.length);
  int n = lex_unescape(path.start + 1, path.length - 2, false, buf);
  int k = emit_constant_index(p, OBJ_VAL(parse_intern(p, buf, n)));
  free(buf);
  parse_consume(p, TOK_AS, "expected 'as NAME' after the import path");
  Token name = consume_name(p, "expected a module name after 'as'");
  if (name.type != TOK_IDENTIFIER) return;
  declare_variable(p, &name);
  p->at_line = path.line, p->at_col = path.col;
  emit_op_u16(p, OP_IMPORT, k);
  p->at_line = p->at_col = 0;
  define_variable(p, &name);
}

/* A dotted module name, `torch.nn.functional`, read into `out` (NUL-ended);
 * false after an error. `first` is the token of its first name. */
static bool module_path(Parser *p, char *out, size_t size, Token *first) {
  size_t n = 0;
  do {
    Token part = consume_name(p, "expected a module name");
    if (part.type != TOK_IDENTIFIER) return false;
    if (n == 0) *first = part;
    if (n + (size_t)part.length + 2 > size) {
      parse_error_at(p, &part, "module name too long");
      return false;
    }
    if (n > 0) out[n++] = '.';
    memcpy(out + n, part.start, (size_t)part.length);
    n += (size_t)part.length;
  } while (parse_match(p, TOK_DOT));
  out[n] = '\0';
  return true;
}

/* Pushes what the dotted `path` names: a built-in module (`from_import`
 * false) or any member of one (`from torch import nn`: true). */
static void emit_import_name(Parser *p, const char *path, const Token *at, bool from_import) {
  int k = emit_name_constant(p, path, (int)strlen(path));
  p->at_line = at->line, p->at_col = at->col;
  emit_op_u16(p, OP_IMPORT_NAME, k);
  emit_byte(p, from_import ? 1 : 0);
  p->at_line = p->at_col = 0;
}

/* Python's `import torch.nn as nn`, `import math, random`: binds Ag's
 * built-in modules (`import torch.nn` binds `torch`, as Python does). */
static void import_modules(Parser *p) {
  do {
    char path[256];
    Token first;
    if (!module_path(p, path, sizeof path, &first)) return;
    Token name = first;
    if (parse_match(p, TOK_AS)) {
      name = consume_name(p, "expected a name after 'as'");
      if (name.type != TOK_IDENTIFIER) return;
    } else if (strchr(path, '.') != NULL) {
      emit_import_name(p, path, &first, false); /* checks the whole path */
      emit_op(p, OP_POP);
      path[first.length] = '\0';
    }
    declare_variable(p, &name);
    emit_import_name(p, path, &first, false);
    define_variable(p, &name);
  } while (parse_match(p, TOK_COMMA));
}

/* Python's `from torch.utils.data import DataLoader, TensorDataset as TD`
 * (the names may be in parentheses). */
static void from_import(Parser *p) {
  char path[256];
  Token first;
  if (!module_path(p, path, sizeof path, &first)) return;
  parse_consume(p, TOK_IMPORT, "expected 'import' after the module name");
  bool parenthesized = parse_match(p, TOK_LEFT_PAREN);
  if (parse_check(p, TOK_STAR)) {
    parse_error_at(p, &p->current, "'from %s import *' is not supported: name what you use", path);
    return;
  }
  do {
    if (parenthesized && parse_check(p, TOK_RIGHT_PAREN)) break; /* a trailing comma */
    Token member = consume_name(p, "expected a name to import");
    if (member.type != TOK_IDENTIFIER) return;
    Token name = member;
    if (parse_match(p, TOK_AS)) {
      name = consume_name(p, "expected a name after 'as'");
      if (name.type != TOK_IDENTIFIER) return;
    }
    char full[512];
    snprintf(full, sizeof full, "%s.%.*s", path, member.length, member.start);
    declare_variable(p, &name);
    emit_import_name(p, full, &member, true);
    define_variable(p, &name);
  } while (parse_match(p, TOK_COMMA));
  if (parenthesized) parse_consume(p, TOK_RIGHT_PAREN, "expected ')' after the imported names");
}

/* `import "file.ag" as name` (an Ag file) or `import torch.nn as nn` (a
 * built-in module, Python's spelling). */
static void import_dispatch(Parser *p) {
  if (parse_check(p, TOK_IDENTIFIER)) import_modules(p);
  else import_statement(p);
}

/* ---- control flow ---- */

static void if_statement(Parser *p) {
  parse_expression(p);
  int then_jump = emit_jump(p, OP_JUMP_IF_FALSE);
  scoped_block(p);
  if (!parse_check(p, TOK_ELIF) && !parse_check(p, TOK_ELSE)) {
    emit_patch_jump(p, then_jump);
    return;
  }
  int else_jump = emit_jump(p, OP_JUMP);
  emit_patch_jump(p, then_jump);
  if (parse_match(p, TOK_ELIF) || (parse_match(p, TOK_ELSE) && parse_match(p, TOK_IF))) {
    if (parse_enter(p)) {
      if_statement(p);
      parse_leave(p);
    }
  } else {
    scoped_block(p);
  }
  emit_patch_jump(p, else_jump);
}

static void begin_loop(Parser *p, Loop *loop, int start) {
  FnCompiler *fc = p->fc;
  memset(loop, 0, sizeof *loop);
  loop->enclosing = fc->loop;
  loop->start = start;
  loop->scope_depth = fc->scope_depth;
  loop->handler_count = fc->handler_count;
  fc->loop = loop;
}

static void end_loop(Parser *p, Loop *loop) {
  for (int i = 0; i < loop->break_count; i++) emit_patch_jump(p, loop->breaks[i]);
  free(loop->breaks);
  p->fc->loop = loop->enclosing;
}

static void while_statement(Parser *p) {
  int start = emit_offset(p);
  parse_expression(p);
  int exit_jump = emit_jump(p, OP_JUMP_IF_FALSE);
  Loop loop;
  begin_loop(p, &loop, start);
  scoped_block(p);
  emit_loop(p, start);
  emit_patch_jump(p, exit_jump);
  end_loop(p, &loop);
}

/* for x in xs { } / for i, (a, b) in pairs { }: the sequence and the
 * position are hidden locals. As in Python, the loop's variables belong to
 * the enclosing scope and keep their last values after the loop: names that
 * exist are updated, the others are declared before the loop (globals at a
 * script's top level). Ag's own rule on top: when the body makes functions,
 * each iteration also binds fresh locals, so that closures capture that
 * iteration's values. */

/* Declares the loop variables that do not exist yet (in a function: locals
 * of the enclosing block, nil until the loop binds them). */
static void declare_loop_variables(Parser *p, const Targets *ts) {
  for (int i = 0; i < ts->count; i++) {
    const Token *name = &ts->t[i].at;
    if (ts->t[i].kind != TARGET_NAME || p->fc->kind == FN_SCRIPT || parse_resolves_locally(p, name)) continue;
    emit_op(p, OP_NIL);
    add_initialized_local(p, name->start, name->length);
  }
}

/* Whether the loop body ahead (from its '{') makes functions. */
static bool body_makes_functions(Parser *p) {
  Lookahead la;
  parse_lookahead_begin(p, &la);
  int depth = 0;
  for (;; parse_lookahead_advance(&la)) {
    TokenType t = la.window[0].type;
    if (t == TOK_EOF || t == TOK_ERROR) return false;
    if (t == TOK_FN || t == TOK_CLASS) return true;
    if (t == TOK_LEFT_BRACE) depth++;
    else if (t == TOK_RIGHT_BRACE && --depth <= 0) return false;
  }
}

/* Binds this iteration's item (on the stack) to the loop's variables;
 * `fresh`: the body makes functions. */
static void bind_loop_variables(Parser *p, const Targets *ts, int root, bool fresh) {
  if (!fresh) {
    parse_bind_targets(p, ts, root, BIND_LOOP);
    return;
  }
  emit_op(p, OP_DUP);
  parse_bind_targets(p, ts, root, BIND_LOOP);
  parse_declare_targets(p, ts, root);
}

static void for_statement(Parser *p) {
  Targets *ts = parse_new_targets(p);
  int root = parse_targets(p, ts, true);
  parse_consume(p, TOK_IN, "expected 'in' after the loop variable");
  declare_loop_variables(p, ts);
  begin_scope(p);
  parse_expression(p);
  int seq_slot = p->fc->local_count;
  add_initialized_local(p, " seq", 4);
  emit_op(p, OP_ITER_PREP);
  add_initialized_local(p, " pos", 4);
  int start = emit_offset(p);
  bool fresh = body_makes_functions(p);
  /* one local variable: ITER_NEXT_LOCAL stores the item in it directly */
  int var = !fresh && root >= 0 && ts->t[root].kind == TARGET_NAME ? resolve_local(p, p->fc, &ts->t[root].at) : -1;
  if (var >= 0) {
    emit_op(p, OP_ITER_NEXT_LOCAL);
    emit_u8(p, seq_slot);
    emit_u8(p, var);
  } else {
    emit_op_var(p, OP_ITER_NEXT, 1);
    emit_u8(p, seq_slot);
  }
  emit_u16(p, 0xffff);
  int exit_jump = emit_offset(p) - 2;
  Loop loop;
  begin_loop(p, &loop, start);
  begin_scope(p);
  if (var < 0) bind_loop_variables(p, ts, root, fresh);
  parse_free_targets(p, ts);
  parse_block(p);
  end_scope(p);
  emit_loop(p, start);
  emit_patch_jump(p, exit_jump);
  end_loop(p, &loop);
  end_scope(p);
}

/* ---- comprehensions ---- */

#define COMPREHENSION_MAX_FORS 16

/* One `for` clause of a comprehension: its loop's start and exit jump, and
 * the jumps of its `if` clauses to the next iteration. */
typedef struct {
  int start, exit_jump;
  int skips[COMPREHENSION_MAX_FORS];
  int skip_count;
} CompLoop;

/* A piece of the source compiled out of order (a comprehension's element
 * and first iterable), with a lexer of its own, as an f-string field is. */
typedef struct {
  Lexer sub;
  Lexer *outer;
  Token previous, current, next;
  bool was_in_field;
} SourceSpan;

static void begin_span(Parser *p, SourceSpan *s, const Token *start, int length) {
  lex_init_at(&s->sub, start->start, length, start->line, start->col);
  s->sub.brackets[0] = '('; /* newlines inside the brackets do not end it */
  s->sub.depth = 1;
  s->outer = p->lexer;
  s->previous = p->previous, s->current = p->current, s->next = p->next;
  s->was_in_field = p->in_field;
  p->lexer = &s->sub;
  p->in_field = true;
  parse_start_tokens(p);
}

static void end_span(Parser *p, const SourceSpan *s) {
  p->lexer = s->outer;
  p->in_field = s->was_in_field;
  p->previous = s->previous, p->current = s->current, p->next = s->next;
}

/* Skips tokens up to the first of `a`, `b` or `close` at bracket depth 0;
 * returns the length in the source of what was skipped. */
static int skip_until(Parser *p, const Token *from, TokenType a, TokenType b, TokenType close) {
  int depth = 0;
  while (!parse_check(p, TOK_EOF)) {
    TokenType t = p->current.type;
    if (depth == 0 && (t == a || t == b || t == close)) break;
    if (t == TOK_LEFT_PAREN || t == TOK_LEFT_BRACKET || t == TOK_LEFT_BRACE) depth++;
    if (t == TOK_RIGHT_PAREN || t == TOK_RIGHT_BRACKET || t == TOK_RIGHT_BRACE) depth--;
    parse_advance(p);
  }
  return (int)(p->current.start - from->start);
}

/* `for names in iterable` and its `if` clauses. The first clause's iterable
 * was walked into slots 1 and 2 by the caller (its tokens are skipped and
 * returned in *first_iterable); the others are compiled here. */
static void comprehension_for(Parser *p, CompLoop *loop, TokenType close, Token *first_iterable, int *first_length) {
  parse_advance(p); /* for */
  begin_scope(p);
  Targets *ts = parse_new_targets(p);
  int root = parse_targets(p, ts, true);
  parse_consume(p, TOK_IN, "expected 'in' after the loop variable");
  int seq_slot = 1;
  if (first_iterable != NULL) {
    *first_iterable = p->current;
    *first_length = skip_until(p, first_iterable, TOK_FOR, TOK_IF, close);
  } else {
    parse_or_expression(p);
    seq_slot = p->fc->local_count;
    add_initialized_local(p, " seq", 4);
    emit_op(p, OP_ITER_PREP);
    add_initialized_local(p, " pos", 4);
  }
  loop->start = emit_offset(p);
  emit_op_var(p, OP_ITER_NEXT, 1);
  emit_u8(p, seq_slot);
  emit_u16(p, 0xffff);
  loop->exit_jump = emit_offset(p) - 2;
  loop->skip_count = 0;
  begin_scope(p);
  parse_declare_targets(p, ts, root); /* each iteration's own locals: they do not leak */
  parse_free_targets(p, ts);
  while (parse_match(p, TOK_IF)) {
    parse_or_expression(p);
    int skip = emit_jump(p, OP_JUMP_IF_FALSE);
    if (loop->skip_count < COMPREHENSION_MAX_FORS) loop->skips[loop->skip_count++] = skip;
    else parse_error(p, "too many 'if' clauses in one comprehension loop");
  }
}

static void comprehension_end_for(Parser *p, CompLoop *loop) {
  for (int i = 0; i < loop->skip_count; i++) emit_patch_jump(p, loop->skips[i]);
  end_scope(p);
  emit_loop(p, loop->start);
  emit_patch_jump(p, loop->exit_jump);
  end_scope(p);
}

/* The element (`x * 2`, or `k: v` for a map), written before the loops that
 * bind its names, is compiled inside the innermost loop from its source
 * text; result_slot holds the list, set or map being built. */
static void comprehension_element(Parser *p, CompKind kind, const Token *elem, int length, int result_slot) {
  SourceSpan span;
  begin_span(p, &span, elem, length);
  if (kind != COMP_GENERATOR) emit_op_u8(p, OP_GET_LOCAL, result_slot);
  parse_expression(p);
  if (kind == COMP_MAP) {
    parse_consume(p, TOK_COLON, "expected ':' after the key of the map comprehension");
    parse_expression(p);
  }
  if (!parse_check(p, TOK_EOF)) parse_error_at(p, &p->current, "expected 'for' after the comprehension's element");
  static const OpCode adds[] = {OP_LIST_APPEND, OP_SET_ADD, OP_MAP_INSERT, OP_YIELD};
  emit_op(p, adds[kind]);
  emit_op(p, OP_POP);
  end_span(p, &span);
}

/* The first `for`'s iterable, in the enclosing function, prepared for the
 * walk (ITER_PREP): the two arguments of the comprehension's function. */
static void first_iterable(Parser *p, const Token *start, int length) {
  SourceSpan span;
  begin_span(p, &span, start, length);
  parse_or_expression(p);
  if (!parse_check(p, TOK_EOF)) parse_error_at(p, &p->current, "expected 'for', 'if' or the closing bracket in the comprehension");
  emit_op(p, OP_ITER_PREP);
  end_span(p, &span);
}

/* [elem for x in xs if c ...], {elem for ...}, {k: v for ...} and the
 * generator expression (elem for ...), with p->current at the element and
 * `close` the bracket that ends it. Compiled as a hidden function called at
 * once, as Python 3 does: the loop variables are its locals (each iteration
 * a fresh one, so closures capture its value), and a LOOP back polls
 * Ctrl-C. As in Python, the first iterable is evaluated (and found
 * iterable) where the comprehension is, even for a generator, whose loops
 * run only as items are drawn; the function takes it as its arguments. */
void parse_comprehension(Parser *p, CompKind kind, TokenType close) {
  Token elem = p->current;
  int length = skip_until(p, &elem, TOK_FOR, TOK_FOR, TOK_EOF);
  static const char *const names[] = {"<listcomp>", "<setcomp>", "<mapcomp>", "<genexpr>"};
  Token name = elem;
  name.start = names[kind];
  name.length = (int)strlen(names[kind]);
  FnCompiler fc;
  init_fn_compiler(p, &fc, FN_FUNCTION, &name);
  begin_scope(p);
  fc.no_yield = true;
  fc.is_generator = kind == COMP_GENERATOR;
  fc.function->arity = 2; /* the first loop's sequence and position, pushed by the caller */
  emit_adjust_depth(p, 1);
  add_initialized_local(p, " seq", 4);
  emit_adjust_depth(p, 1);
  add_initialized_local(p, " pos", 4);
  int result_slot = fc.local_count;
  if (kind != COMP_GENERATOR) {
    static const OpCode makes[] = {OP_LIST, OP_NEW_SET, OP_MAP};
    emit_op_var(p, makes[kind], 1);
    emit_u16(p, 0);
    add_initialized_local(p, " result", 7);
  }
  CompLoop loops[COMPREHENSION_MAX_FORS];
  int count = 0;
  Token iterable = p->current;
  int iterable_length = 0;
  while (parse_check(p, TOK_FOR)) {
    if (count == COMPREHENSION_MAX_FORS) {
      parse_error(p, "too many 'for' clauses in one comprehension (the limit is %d)", COMPREHENSION_MAX_FORS);
      break;
    }
    bool first = count == 0;
    comprehension_for(p, &loops[count++], close, first ? &iterable : NULL, first ? &iterable_length : NULL);
  }
  if (!parse_check(p, close)) parse_error_at(p, &p->current, "expected 'for', 'if' or the closing bracket in the comprehension");
  comprehension_element(p, kind, &elem, length, result_slot);
  while (count > 0) comprehension_end_for(p, &loops[--count]);
  if (kind == COMP_GENERATOR) emit_op(p, OP_NIL);
  else emit_op_u8(p, OP_GET_LOCAL, result_slot);
  emit_op(p, OP_RETURN);
  emit_closure(p, &fc, NULL);
  if (iterable_length > 0) {
    first_iterable(p, &iterable, iterable_length);
  } else { /* after an error: no first loop */
    emit_op(p, OP_NIL);
    emit_op(p, OP_NIL);
  }
  emit_op_var(p, OP_CALL, -2);
  emit_u8(p, 2);
  parse_consume(p, close, close == TOK_RIGHT_BRACKET ? "expected ']' after the comprehension"
                          : close == TOK_RIGHT_PAREN ? "expected ')' after the generator expression"
                                                     : "expected '}' after the comprehension");
}

static void push_handler(Parser *p, bool is_with, int ctx_slot) {
  FnCompiler *fc = p->fc;
  if (fc->handler_count == PARSE_MAX_HANDLERS) {
    parse_error(p, "too many nested 'try'/'with' blocks");
    return;
  }
  fc->handlers[fc->handler_count++] = (HandlerBlock){is_with, ctx_slot};
}

/* The body of try or with: a protected block. Returns the TRY jump to patch
 * at the handler's code. */
static int protected_block(Parser *p, bool is_with, int ctx_slot) {
  int try_jump = emit_jump(p, OP_TRY);
  int handlers = p->fc->handler_count;
  push_handler(p, is_with, ctx_slot);
  scoped_block(p);
  p->fc->handler_count = handlers;
  emit_op(p, OP_END_TRY);
  return try_jump;
}

/* A class in a catch clause: NAME or NAME.NAME... */
static void catch_class(Parser *p) {
  Token name = consume_name(p, "expected an error class after 'catch'");
  if (name.type == TOK_ERROR) return;
  parse_named_variable(p, name, false);
  while (parse_match(p, TOK_DOT)) {
    Token field = consume_name(p, "expected a name after '.'");
    if (field.type != TOK_ERROR) emit_op_u16(p, OP_GET_FIELD, emit_name_constant(p, field.start, field.length));
  }
}

/* `catch (A, B)`: a list of classes, as Python's `except (A, B)`. */
static void catch_class_list(Parser *p) {
  int count = 0;
  do {
    parse_skip_newlines(p);
    if (parse_check(p, TOK_RIGHT_PAREN)) break;
    catch_class(p);
    count++;
  } while (parse_match(p, TOK_COMMA));
  parse_skip_newlines(p);
  parse_consume(p, TOK_RIGHT_PAREN, "expected ')' after the error classes");
  emit_op_var(p, OP_LIST, 1 - count);
  emit_u16(p, count);
}

/* Does the clause name classes? `catch ValueError {`, `catch nn.E as e`,
 * `catch (A, B)`; a lone lower-case name (`catch e {`) binds the error. */
static bool catch_names_class(const Parser *p) {
  if (parse_check(p, TOK_LEFT_PAREN)) return true;
  if (!parse_check(p, TOK_IDENTIFIER)) return false;
  TokenType after = p->next.type;
  return after == TOK_AS || after == TOK_DOT || isupper((unsigned char)p->current.start[0]);
}

/* One `catch [CLASSES [as NAME] | NAME] { ... }` clause; `thrown` is the
 * local slot of the thrown value. A clause with classes jumps to the next
 * one unless the value is an instance of them; it returns that jump (or -1
 * for a clause that catches everything). */
static int catch_clause(Parser *p, int thrown, int *end_jump) {
  int next_jump = -1;
  Token name = {0};
  if (catch_names_class(p)) {
    emit_op_u8(p, OP_GET_LOCAL, thrown);
    if (parse_match(p, TOK_LEFT_PAREN)) catch_class_list(p);
    else catch_class(p);
    emit_op(p, OP_CATCHES);
    next_jump = emit_jump(p, OP_JUMP_IF_FALSE);
    if (parse_match(p, TOK_AS)) name = consume_name(p, "expected a name after 'as'");
  } else if (parse_match(p, TOK_IDENTIFIER)) {
    name = p->previous;
  }
  begin_scope(p);
  if (name.start != NULL && name.type != TOK_ERROR) {
    emit_op_u8(p, OP_GET_LOCAL, thrown);
    add_initialized_local(p, name.start, name.length);
  }
  parse_block(p);
  end_scope(p);
  *end_jump = emit_jump(p, OP_JUMP);
  return next_jump;
}

/* try { } catch ... { } [catch ... { }]...: the first clause that matches
 * the thrown value runs; when none does, the value is thrown on (keeping
 * its traceback). */
static void try_statement(Parser *p) {
  int try_jump = protected_block(p, false, 0);
  int end_jump = emit_jump(p, OP_JUMP);
  emit_patch_jump(p, try_jump);
  if (is_word(&p->current, "except") || (parse_check(p, TOK_NEWLINE) && is_word(&p->next, "except"))) {
    if (parse_check(p, TOK_NEWLINE)) parse_advance(p);
    parse_error_at(p, &p->current, "Ag catches errors with `catch`, not `except`: try { ... } catch ValueError as e { ... }");
    parse_advance(p); /* and reads on as if it were `catch` */
  } else {
    parse_consume(p, TOK_CATCH, "expected 'catch' after the try block");
  }
  begin_scope(p);
  emit_adjust_depth(p, 1); /* the handler starts with the thrown value pushed */
  int thrown = p->fc->local_count;
  add_initialized_local(p, " error", 6);
  int clause_ends[PARSE_MAX_CATCH];
  int clauses = 0, next_jump = 0;
  do {
    if (next_jump < 0) parse_error(p, "this catch is never reached: the clause before it catches everything");
    if (clauses == PARSE_MAX_CATCH) parse_error(p, "too many catch clauses (at most %d)", PARSE_MAX_CATCH);
    int end = 0;
    next_jump = catch_clause(p, thrown, &end);
    if (clauses < PARSE_MAX_CATCH) clause_ends[clauses++] = end;
    if (next_jump >= 0) emit_patch_jump(p, next_jump);
  } while (!p->panic && parse_match(p, TOK_CATCH));
  if (next_jump >= 0) { /* no clause matched */
    emit_op_u8(p, OP_GET_LOCAL, thrown);
    emit_op(p, OP_THROW);
  }
  for (int i = 0; i < clauses; i++) emit_patch_jump(p, clause_ends[i]);
  end_scope(p);
  emit_patch_jump(p, end_jump);
}

/* with ctx [as name] { body }: enter() first; exit() on every way out. An
 * error in the body runs exit() and is thrown again. `as name` binds what
 * enter() returned, as Python's `with` does. */
static void with_statement(Parser *p) {
  FnCompiler *fc = p->fc;
  Token keyword = p->previous;
  begin_scope(p);
  parse_expression(p);
  int ctx_slot = fc->local_count;
  add_initialized_local(p, " ctx", 4);
  call_context_method(p, ctx_slot, "enter", &keyword);
  if (parse_match(p, TOK_AS)) {
    Token name = consume_name(p, "expected a name after 'as'");
    add_initialized_local(p, name.start, name.length);
  } else {
    emit_op(p, OP_POP);
  }
  int try_jump = protected_block(p, true, ctx_slot);
  call_exit(p, ctx_slot, &keyword);
  int end_jump = emit_jump(p, OP_JUMP);
  emit_patch_jump(p, try_jump);
  emit_adjust_depth(p, 1); /* the thrown value */
  call_exit(p, ctx_slot, &keyword);
  emit_op(p, OP_THROW);
  emit_patch_jump(p, end_jump);
  end_scope(p);
}

/* ---- statements ---- */

static bool simple_keyword_statement(Parser *p) {
  switch (p->current.type) {
  case TOK_LET: parse_advance(p); let_statement(p); return true;
  case TOK_RETURN: parse_advance(p); return_statement(p); return true;
  case TOK_BREAK: parse_advance(p); loop_jump(p, true); return true;
  case TOK_CONTINUE: parse_advance(p); loop_jump(p, false); return true;
  case TOK_THROW: parse_advance(p); throw_statement(p); return true;
  case TOK_IMPORT: parse_advance(p); import_dispatch(p); return true;
  case TOK_IDENTIFIER: /* `from` is a name elsewhere (a parameter of random_) */
    if (assert_statement_ahead(p)) {
      parse_advance(p);
      assert_statement(p);
      return true;
    }
    if (p->current.length != 4 || memcmp(p->current.start, "from", 4) != 0 ||
        p->next.type != TOK_IDENTIFIER)
      return false;
    parse_advance(p);
    from_import(p);
    return true;
  default: return false;
  }
}

static bool block_statement(Parser *p) {
  switch (p->current.type) {
  case TOK_IF: parse_advance(p); if_statement(p); return true;
  case TOK_WHILE: parse_advance(p); while_statement(p); return true;
  case TOK_FOR: parse_advance(p); for_statement(p); return true;
  case TOK_TRY: parse_advance(p); try_statement(p); return true;
  case TOK_WITH: parse_advance(p); with_statement(p); return true;
  case TOK_CLASS: parse_advance(p); class_declaration(p); return true;
  case TOK_AT: decorated_fn(p); return true;
  case TOK_FN:
    if (p->next.type != TOK_IDENTIFIER) return false;
    parse_advance(p);
    fn_declaration(p);
    return true;
  default: return false;
  }
}

static void statement(Parser *p) {
  TokenType t = p->current.type;
  if (t == TOK_ELIF || t == TOK_ELSE || t == TOK_CATCH) {
    parse_error_at(p, &p->current, "%s without a matching %s", lex_token_name(t),
                   t == TOK_CATCH ? "'try'" : "'if'");
  } else if (is_word(&p->current, "def") && p->next.type == TOK_IDENTIFIER) {
    parse_error_at(p, &p->current, "Ag defines functions with `fn`, not `def`: fn NAME(PARAMS) { ... }");
  } else if (!simple_keyword_statement(p) && !block_statement(p)) {
    if (parse_unpacking_ahead(p)) parse_unpacking_statement(p);
    else expression_statement(p);
  }
  end_statement(p);
  if (p->panic) synchronize(p);
}

/* ---- the entry point ---- */

/* show_last: a statement after an expression statement takes its echo
 * away (both opcodes pop one value and have no operand). */
static void forget_earlier_show(Parser *p) {
  if (!p->opts->show_last || p->last_show < 0) return;
  emit_chunk(p)->code[p->last_show] = OP_POP;
  p->last_show = -1;
}

/* The statements of the whole input, at top level. */
static void module_body(Parser *p) {
  for (;;) {
    skip_separators(p);
    if (parse_check(p, TOK_EOF)) break;
    const char *before = p->current.start;
    if (parse_check(p, TOK_RIGHT_BRACE)) {
      parse_error_at(p, &p->current, "unexpected '}' (no block is open)");
      p->panic = false;
      parse_advance(p);
      continue;
    }
    forget_earlier_show(p);
    statement(p);
    if (p->current.start == before && !parse_check(p, TOK_EOF)) parse_advance(p);
  }
}

CompileResult compile_source(AgVM *vm, const char *source, const CompileOptions *opts) {
  CompileOptions defaults = {"<input>", false, NULL, false, false};
  if (opts == NULL) opts = &defaults;
  Lexer lexer;
  lex_init(&lexer, source);
  Parser p;
  memset(&p, 0, sizeof p);
  p.vm = vm;
  p.opts = opts;
  p.file = opts->file ? opts->file : "<input>";
  p.source = source;
  p.lexer = &lexer;
  p.last_show = -1;
  vm->gc.paused++; /* nothing made here is reachable from the VM's roots yet */
  p.file_string = parse_intern(&p, p.file, (int)strlen(p.file));
  FnCompiler top;
  init_fn_compiler(&p, &top, FN_SCRIPT, NULL);
  parse_start_tokens(&p);
  module_body(&p);
  ObjFunction *fn = end_fn_compiler(&p);
  vm->gc.paused--;
  CompileResult result = {p.error_count ? NULL : fn, p.error_count, p.error_count > 0 && p.incomplete,
                          p.interrupted};
  return result;
}
