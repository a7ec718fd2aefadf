/* expr.c — expressions: a Pratt parser driven by one rules table (as clox).
 *
 * Precedence, loosest first (SPEC §4): assignment; or; and; not; comparisons
 * and `in`; + -; * / % @; unary -; ** (right-associative, and its right
 * operand may start with a unary minus: 2 ** -1); calls, indexing and
 * attributes. Assignment is compiled by the target's own parse function when
 * it sees `=` or `op=` after itself, so `a.b += 1` needs no lookahead.
 */
#include <stdlib.h>
#include <string.h>

#include "parser/internal.h"

typedef enum {
  PREC_NONE,
  PREC_ASSIGNMENT,
  PREC_CONDITIONAL, /* a if c else b */
  PREC_OR,
  PREC_AND,
  PREC_NOT,
  PREC_COMPARISON,
  PREC_BIT_OR,  /* | */
  PREC_BIT_XOR, /* ^ */
  PREC_BIT_AND, /* & */
  PREC_TERM,
  PREC_FACTOR,
  PREC_UNARY,
  PREC_POWER,
  PREC_CALL,
  PREC_PRIMARY
} Precedence;

typedef void (*ParseFn)(Parser *p, bool can_assign);

typedef struct {
  ParseFn prefix;
  ParseFn infix;
  Precedence precedence;
} ParseRule;

static const ParseRule *get_rule(TokenType type);

/* ---- helpers ---- */

bool parse_is_compound_op(TokenType t) {
  return t == TOK_PLUS_EQUAL || t == TOK_MINUS_EQUAL || t == TOK_STAR_EQUAL ||
         t == TOK_SLASH_EQUAL || t == TOK_AT_EQUAL || t == TOK_PERCENT_EQUAL || t == TOK_STAR_STAR_EQUAL ||
         t == TOK_SLASH_SLASH_EQUAL || t == TOK_PIPE_EQUAL || t == TOK_AMP_EQUAL || t == TOK_CARET_EQUAL;
}

/* `a op= b` is INPLACE_op: in place where a's value allows (SPEC §4). */
OpCode parse_compound_opcode(TokenType t) {
  switch (t) {
  case TOK_PLUS_EQUAL: return OP_INPLACE_ADD;
  case TOK_MINUS_EQUAL: return OP_INPLACE_SUBTRACT;
  case TOK_STAR_EQUAL: return OP_INPLACE_MULTIPLY;
  case TOK_SLASH_EQUAL: return OP_INPLACE_DIVIDE;
  case TOK_PERCENT_EQUAL: return OP_INPLACE_MODULO;
  case TOK_STAR_STAR_EQUAL: return OP_INPLACE_POWER;
  case TOK_SLASH_SLASH_EQUAL: return OP_INPLACE_FLOOR_DIVIDE;
  case TOK_PIPE_EQUAL: return OP_INPLACE_BIT_OR;
  case TOK_AMP_EQUAL: return OP_INPLACE_BIT_AND;
  case TOK_CARET_EQUAL: return OP_INPLACE_BIT_XOR;
  default: return OP_INPLACE_MATMUL;
  }
}

/* Emits op with the position of `tok`, so a runtime error names its line. */
static void emit_op_at(Parser *p, const Token *tok, OpCode op, int effect, bool var) {
  p->at_line = tok->line;
  p->at_col = tok->col;
  if (var) emit_op_var(p, op, effect);
  else emit_op(p, op);
  p->at_line = p->at_col = 0;
}

/* Names after '.' may be keywords too (`x.in` is odd but harmless). */
static bool consume_member_name(Parser *p, const char *message) {
  if (parse_check(p, TOK_IDENTIFIER) || lex_is_keyword(p->current.type)) {
    parse_advance(p);
    return true;
  }
  parse_error_at(p, &p->current, "%s", message);
  return false;
}

/* ---- the core loop ---- */

void parse_precedence_expression(Parser *p, int precedence) {
  if (!parse_enter(p)) return;
  ParseFn prefix = get_rule(p->current.type)->prefix;
  if (prefix == NULL) { /* not consumed: a '}' here still closes its block */
    parse_error_at(p, &p->current, "expected expression");
    parse_leave(p);
    return;
  }
  parse_advance(p);
  bool can_assign = precedence <= PREC_ASSIGNMENT;
  int start = emit_offset(p);
  prefix(p, can_assign);
  while (precedence <= (int)get_rule(p->current.type)->precedence) {
    parse_advance(p);
    p->operand_start = start;
    get_rule(p->previous.type)->infix(p, can_assign);
  }
  if (can_assign && (parse_check(p, TOK_EQUAL) || parse_is_compound_op(p->current.type)))
    parse_error_at(p, &p->current, "invalid assignment target");
  parse_leave(p);
}

void parse_expression(Parser *p) { parse_precedence_expression(p, PREC_ASSIGNMENT); }

bool parse_assignment_begins(Parser *p) {
  if (p->store_lexer != NULL && p->store_lexer == p->lexer && parse_check(p, TOK_EOF)) return true;
  return parse_match(p, TOK_EQUAL);
}

/* The value of `target = value`: an expression list (`x = 1, 2` is a tuple)
 * when the assignment is the statement itself, else one expression (inside
 * brackets a comma separates items). */
void parse_assigned_value(Parser *p) {
  if (p->store_lexer != NULL && p->store_lexer == p->lexer) { /* unpack.c's target: the item */
    emit_op_u8(p, OP_GET_LOCAL, p->store_slot);
    p->store_lexer = NULL; /* stored: the target is done */
    return;
  }
  if (p->nesting == p->statement_nesting + 1) parse_expression_list(p);
  else parse_expression(p);
}
void parse_or_expression(Parser *p) { parse_precedence_expression(p, PREC_OR); }

/* Whether `want` comes, at the depth of the bracket just opened, before
 * `stop` or the bracket's end; with item_start, only where an item begins
 * (first, or after a comma: `**m` in a call). Scans ahead on a copy of the
 * lexer. */
static bool scan_bracket(Parser *p, TokenType want, TokenType stop, bool item_start) {
  Lexer copy = *p->lexer;
  Token window[2] = {p->current, p->next};
  int depth = 0;
  TokenType before = TOK_COMMA;
  for (;;) {
    TokenType t = window[0].type;
    if (t == TOK_EOF || t == TOK_ERROR) return false;
    if (t == TOK_LEFT_PAREN || t == TOK_LEFT_BRACKET || t == TOK_LEFT_BRACE) depth++;
    else if (t == TOK_RIGHT_PAREN || t == TOK_RIGHT_BRACKET || t == TOK_RIGHT_BRACE) {
      if (depth == 0) return false;
      depth--;
    } else if (depth == 0 && (t == want || t == stop) && (!item_start || before == TOK_COMMA)) {
      return t == want;
    }
    before = t;
    window[0] = window[1];
    window[1] = window[0].type == TOK_EOF ? window[0] : lex_next(&copy);
  }
}

static bool ahead_in_bracket(Parser *p, TokenType want, TokenType stop) { return scan_bracket(p, want, stop, false); }

/* ---- literals ---- */

/* The value of the number token just read, negated for `-3`. */
static Value number_literal(Parser *p, bool negate) {
  LexNumber n = lex_number_value(&p->previous);
  if (!n.is_int) return FLOAT_VAL(negate ? -n.d : n.d);
  if (n.too_large) {
    parse_error(p, "integer literal too large (ints are 64-bit)");
    return INT_VAL(p->vm, 0);
  }
  return INT_VAL(p->vm, negate ? -n.i : n.i);
}

static void number(Parser *p, bool can_assign) {
  (void)can_assign;
  emit_constant(p, number_literal(p, false));
}

static ObjString *decode_string(Parser *p, const char *body, int length, bool fstring_text) {
  char *buf = malloc((size_t)length + 1);
  if (buf == NULL) {
    parse_error(p, "out of memory");
    return parse_intern(p, "", 0);
  }
  int n = lex_unescape(body, length, fstring_text, buf);
  ObjString *s = parse_intern(p, buf, n);
  free(buf);
  return s;
}

static void string(Parser *p, bool can_assign) {
  (void)can_assign;
  const Token *t = &p->previous;
  emit_constant(p, OBJ_VAL(decode_string(p, t->start + 1, t->length - 2, false)));
}

static void literal(Parser *p, bool can_assign) {
  (void)can_assign;
  switch (p->previous.type) {
  case TOK_TRUE: emit_op(p, OP_TRUE); break;
  case TOK_FALSE: emit_op(p, OP_FALSE); break;
  default: emit_op(p, OP_NIL); break;
  }
}

/* ---- f-strings ---- */

/* Compiles a field's source with a lexer of its own, then returns to the
 * string's lexer; positions stay those of the whole file. */
static void fstring_field(Parser *p, const LexFPart *part) {
  Lexer sub;
  lex_init_at(&sub, part->start, part->length, part->line, part->col);
  Lexer *outer = p->lexer;
  Token previous = p->previous, current = p->current, next = p->next;
  bool was_in_field = p->in_field;
  p->lexer = &sub;
  p->in_field = true;
  parse_start_tokens(p);
  parse_expression(p);
  parse_skip_newlines(p);
  if (!parse_check(p, TOK_EOF)) parse_error_at(p, &p->current, "expected '}' after the f-string expression");
  p->lexer = outer;
  p->in_field = was_in_field;
  p->previous = previous, p->current = current, p->next = next;
  if (p->halted) p->current.type = p->next.type = TOK_EOF; /* stopped inside the field: stop outside too */
}

/* An f-string field's OP_FORMAT operand: Python's field tail `[!c]:spec`
 * (with no spec when the spec comes from the stack, for OP_FORMAT_SPEC). */
static void emit_format_tail(Parser *p, OpCode op, char conversion, const char *spec, int spec_length) {
  char *tail = malloc((size_t)spec_length + 4);
  if (tail == NULL) {
    parse_error(p, "out of memory");
    return;
  }
  int n = conversion ? snprintf(tail, 4, "!%c:", conversion) : snprintf(tail, 4, ":");
  if (spec_length > 0) memcpy(tail + n, spec, (size_t)spec_length);
  emit_op_u16(p, op, emit_name_constant(p, tail, n + spec_length));
  free(tail);
}

static void fstring_parts(Parser *p, LexFCursor *cur);

/* The field's value (on the stack) formatted: a constant spec, or one with
 * fields of its own (`{x:{width}.{digits}f}`), compiled as an f-string. */
static void emit_format(Parser *p, const LexFPart *part) {
  char conversion = part->conversion;
  if (part->debug_length > 0 && conversion == 0 && part->spec == NULL) conversion = 'r'; /* `{x=}` shows repr */
  if (part->spec != NULL && memchr(part->spec, '{', (size_t)part->spec_length) != NULL) {
    LexFCursor spec = {part->spec, part->spec + part->spec_length, part->spec_line, part->spec_col, '"'};
    if (!parse_enter(p)) return;
    fstring_parts(p, &spec);
    parse_leave(p);
    emit_format_tail(p, OP_FORMAT_SPEC, conversion, NULL, 0);
  } else if (conversion != 0 || part->spec != NULL) {
    emit_format_tail(p, OP_FORMAT, conversion, part->spec, part->spec ? part->spec_length : 0);
  }
}

/* BUILD_STRING takes a u8 count: at 255 parts, fold them into one and go on. */
static void fold_parts(Parser *p, int *count, bool *single_is_string) {
  if (++*count < 255) return;
  emit_op_var(p, OP_BUILD_STRING, 1 - *count);
  emit_u8(p, *count);
  *count = 1;
  *single_is_string = true;
}

/* The parts of an f-string (or of a spec with fields) from cur: one string
 * on the stack. */
static void fstring_parts(Parser *p, LexFCursor *cur) {
  LexFPart part;
  int count = 0;
  bool single_is_string = false; /* one part that is already a string */
  while (lex_fstring_next(cur, &part)) {
    if (part.kind == LEX_FPART_TEXT) {
      emit_constant(p, OBJ_VAL(decode_string(p, part.start, part.length, true)));
      single_is_string = true;
    } else {
      if (part.debug_length > 0) { /* `{x=}`: the text "x=" first */
        emit_constant(p, OBJ_VAL(parse_intern(p, part.start, part.debug_length)));
        fold_parts(p, &count, &single_is_string);
      }
      fstring_field(p, &part);
      emit_format(p, &part);
      single_is_string = part.spec != NULL || part.conversion || part.debug_length > 0;
    }
    fold_parts(p, &count, &single_is_string);
  }
  if (count == 0) {
    emit_constant(p, OBJ_VAL(parse_intern(p, "", 0)));
  } else if (count > 1 || !single_is_string) {
    emit_op_var(p, OP_BUILD_STRING, 1 - count);
    emit_u8(p, count);
  }
}

static void fstring(Parser *p, bool can_assign) {
  (void)can_assign;
  Token tok = p->previous;
  LexFCursor cur;
  lex_fstring_begin(&cur, &tok);
  fstring_parts(p, &cur);
}

/* ---- names ---- */

/* `lambda` is a keyword only where a lambda's parameters follow it
 * (`lambda:`, `lambda x:`, `lambda x, y`, `lambda x=1`, `lambda ...xs`), so a
 * variable of that name keeps working. */
static bool lambda_ahead(const Parser *p) {
  const Token *t = &p->previous;
  if (t->length != 6 || memcmp(t->start, "lambda", 6) != 0) return false;
  TokenType c = p->current.type, n = p->next.type;
  return c == TOK_COLON || c == TOK_ELLIPSIS ||
         (c == TOK_IDENTIFIER && (n == TOK_COLON || n == TOK_COMMA || n == TOK_EQUAL));
}

static void variable(Parser *p, bool can_assign) {
  if (lambda_ahead(p)) {
    Token keyword = p->previous;
    parse_lambda(p, &keyword);
    return;
  }
  parse_named_variable(p, p->previous, can_assign);
}

/* Whether the token after `yield` begins its operand. */
static bool yield_operand_ahead(const Parser *p) {
  switch (p->current.type) {
  case TOK_NEWLINE: case TOK_SEMICOLON: case TOK_RIGHT_PAREN: case TOK_RIGHT_BRACKET:
  case TOK_RIGHT_BRACE: case TOK_COMMA: case TOK_COLON: case TOK_EOF: return false;
  default: return true;
  }
}

void parse_yield(Parser *p) {
  Token keyword = p->previous;
  FnCompiler *fc = p->fc;
  if (fc->kind == FN_SCRIPT) parse_error_at(p, &keyword, "'yield' outside a function (it makes a fn a generator)");
  else if (fc->kind == FN_INIT) parse_error_at(p, &keyword, "'init' cannot be a generator: it contains 'yield'");
  else if (fc->no_yield) parse_error_at(p, &keyword, "'yield' inside a comprehension or generator expression");
  else fc->is_generator = true;
  if (yield_operand_ahead(p)) parse_expression(p);
  else emit_op(p, OP_NIL);
  emit_op_at(p, &keyword, OP_YIELD, 0, false);
}

static void yield(Parser *p, bool can_assign) {
  (void)can_assign;
  parse_yield(p);
}

static Token synthetic_token(const char *text) {
  Token t = {TOK_IDENTIFIER, text, (int)strlen(text), 0, 0, NULL, false};
  return t;
}

static void self_(Parser *p, bool can_assign) {
  (void)can_assign;
  if (p->cls == NULL) {
    parse_error_at(p, &p->previous, "'self' used outside a class method");
    return;
  }
  parse_named_variable(p, synthetic_token("self"), false);
}

/* ---- calls ---- */

/* Whether the call arguments starting at p->current are positional only (no
 * keyword argument, no spread), so that a method call can use OP_INVOKE.
 * Scans ahead on a copy of the lexer; the real one reports any errors. */
static bool plain_arguments_ahead(Parser *p) {
  Lexer copy = *p->lexer;
  Token window[2] = {p->current, p->next};
  int depth = 0;
  TokenType before = TOK_COMMA;
  for (;;) {
    Token t = window[0];
    if (t.type == TOK_EOF || t.type == TOK_ERROR) return true;
    if (depth == 0 && before == TOK_COMMA && (t.type == TOK_STAR || t.type == TOK_STAR_STAR)) return false;
    before = t.type;
    if (t.type == TOK_LEFT_PAREN || t.type == TOK_LEFT_BRACKET || t.type == TOK_LEFT_BRACE) {
      depth++;
    } else if (t.type == TOK_RIGHT_PAREN || t.type == TOK_RIGHT_BRACKET || t.type == TOK_RIGHT_BRACE) {
      if (depth == 0) return true;
      depth--;
    } else if (depth == 0 && (t.type == TOK_ELLIPSIS || (t.type == TOK_IDENTIFIER && window[1].type == TOK_EQUAL))) {
      return false;
    }
    window[0] = window[1];
    window[1] = window[0].type == TOK_EOF ? window[0] : lex_next(&copy);
  }
}

typedef struct {
  int positional;      /* pushed one by one (before any spread) */
  bool spread;         /* positional arguments were gathered into a list */
  bool kwmap;          /* a `**m`: keywords are gathered into a map (CALL_EX) */
  bool map_open;       /* that map is on the stack */
  int kw_count;
  ObjString *kw_names[256];
} ArgList;

/* With a `**m` in the call: `k=v` and `**m` are merged into one map. */
static void mapped_keyword(Parser *p, ArgList *args) {
  if (!args->map_open) {
    emit_op_var(p, OP_MAP, 1);
    emit_u16(p, 0);
    args->map_open = true;
  }
  if (parse_match(p, TOK_STAR_STAR)) {
    Token at = p->previous;
    parse_expression(p);
    emit_op_at(p, &at, OP_KW_MERGE, 0, false);
    return;
  }
  Token name = p->current;
  parse_advance(p); /* name */
  parse_advance(p); /* = */
  emit_constant(p, OBJ_VAL(parse_intern(p, name.start, name.length)));
  parse_expression(p);
  emit_op_var(p, OP_MAP, -1);
  emit_u16(p, 1);
  emit_op_at(p, &name, OP_KW_MERGE, 0, false);
}

static void keyword_argument(Parser *p, ArgList *args) {
  if (args->kwmap) {
    mapped_keyword(p, args);
    return;
  }
  Token name = p->current;
  parse_advance(p); /* name */
  parse_advance(p); /* = */
  ObjString *s = parse_intern(p, name.start, name.length);
  for (int i = 0; i < args->kw_count; i++)
    if (args->kw_names[i] == s) parse_error_at(p, &name, "keyword argument '%s' given twice", s->chars);
  if (args->kw_count == 255) {
    parse_error_at(p, &name, "too many keyword arguments (the limit is 255)");
    return;
  }
  args->kw_names[args->kw_count++] = s;
  parse_expression(p);
}

static void positional_argument(Parser *p, ArgList *args) {
  if (args->kw_count > 0 || args->map_open)
    parse_error_at(p, &p->current, "positional argument after keyword arguments");
  bool spread = parse_match(p, TOK_ELLIPSIS) || parse_match(p, TOK_STAR);
  if (spread && !args->spread) {
    emit_op_var(p, OP_LIST, 1 - args->positional);
    emit_u16(p, args->positional);
    args->spread = true;
  }
  parse_expression(p);
  if (spread) emit_op(p, OP_LIST_EXTEND);
  else if (args->spread) emit_op(p, OP_LIST_APPEND);
  else if (++args->positional > 255) parse_error(p, "too many arguments (the limit is 255)");
}

/* Parses `a, k=v, ...xs, *xs, **m)` after '('; `f(x for x in xs)` passes a generator. */
static void argument_list(Parser *p, ArgList *args) {
  memset(args, 0, offsetof(ArgList, kw_names));
  if (!parse_check(p, TOK_RIGHT_PAREN) && ahead_in_bracket(p, TOK_FOR, TOK_COMMA)) {
    parse_comprehension(p, COMP_GENERATOR, TOK_RIGHT_PAREN);
    args->positional = 1;
    return;
  }
  if (scan_bracket(p, TOK_STAR_STAR, TOK_STAR_STAR, true)) { /* every argument goes into a list and a map */
    args->kwmap = args->spread = true;
    emit_op_var(p, OP_LIST, 1);
    emit_u16(p, 0);
  }
  while (!parse_check(p, TOK_RIGHT_PAREN) && !parse_check(p, TOK_EOF)) {
    if ((parse_check(p, TOK_IDENTIFIER) && p->next.type == TOK_EQUAL) || parse_check(p, TOK_STAR_STAR))
      keyword_argument(p, args);
    else positional_argument(p, args);
    if (!parse_match(p, TOK_COMMA)) break;
  }
  parse_consume(p, TOK_RIGHT_PAREN, "expected ')' after arguments");
}

static int keyword_names_constant(Parser *p, const ArgList *args) {
  ObjList *names = obj_new_list(p->vm);
  for (int i = 0; i < args->kw_count; i++) obj_list_append(p->vm, names, OBJ_VAL(args->kw_names[i]));
  return emit_constant_index(p, OBJ_VAL(names));
}

/* With the callee below the arguments. */
static void emit_call(Parser *p, const Token *paren, const ArgList *args) {
  if (args->kwmap) {
    emit_op_at(p, paren, OP_CALL_EX, 0, false);
  } else if (args->spread) {
    int names = keyword_names_constant(p, args);
    emit_op_at(p, paren, OP_CALL_SPREAD, -1 - args->kw_count, true);
    emit_u8(p, args->kw_count);
    emit_u16(p, names);
  } else if (args->kw_count > 0) {
    int names = keyword_names_constant(p, args);
    emit_op_at(p, paren, OP_CALL_KW, -args->positional - args->kw_count, true);
    emit_u8(p, args->positional);
    emit_u8(p, args->kw_count);
    emit_u16(p, names);
  } else {
    emit_op_at(p, paren, OP_CALL, -args->positional, true);
    emit_u8(p, args->positional);
  }
}

static void call(Parser *p, bool can_assign) {
  (void)can_assign;
  Token paren = p->previous;
  ArgList args;
  argument_list(p, &args);
  emit_call(p, &paren, &args);
}

/* ---- attributes and methods ---- */

static void method_call(Parser *p, int name) {
  Token paren = p->previous;
  if (!plain_arguments_ahead(p)) {
    emit_op_u16(p, OP_GET_FIELD, name);
    call(p, false);
    return;
  }
  ArgList args;
  argument_list(p, &args);
  emit_op_at(p, &paren, OP_INVOKE, -args.positional, true);
  emit_u16(p, name);
  emit_u8(p, args.positional);
}

static void dot(Parser *p, bool can_assign) {
  if (!consume_member_name(p, "expected an attribute name after '.'")) return;
  Token member = p->previous;
  int name = emit_name_constant(p, member.start, member.length);
  if (can_assign && parse_assignment_begins(p)) {
    parse_assigned_value(p);
    emit_op_at(p, &member, OP_SET_FIELD, 0, false);
    emit_u16(p, name);
    parse_mark_assignment(p);
  } else if (can_assign && parse_is_compound_op(p->current.type)) {
    Token op = p->current;
    parse_advance(p);
    emit_op(p, OP_DUP);
    emit_op_u16(p, OP_GET_FIELD, name);
    parse_expression(p);
    emit_op_at(p, &op, parse_compound_opcode(op.type), 0, false);
    emit_op_u16(p, OP_SET_FIELD, name);
    parse_mark_assignment(p);
  } else if (parse_match(p, TOK_LEFT_PAREN)) {
    method_call(p, name);
  } else {
    emit_op_at(p, &member, OP_GET_FIELD, 0, false);
    emit_u16(p, name);
  }
}

static void super_(Parser *p, bool can_assign) {
  (void)can_assign;
  Token keyword = p->previous;
  if (p->cls == NULL) parse_error_at(p, &keyword, "'super' used outside a class method");
  else if (!p->cls->has_parent) parse_error_at(p, &keyword, "'super' used in a class without a parent class");
  parse_consume(p, TOK_DOT, "expected '.' after 'super'");
  if (!consume_member_name(p, "expected a method name after 'super.'")) return;
  int name = emit_name_constant(p, p->previous.start, p->previous.length);
  parse_named_variable(p, synthetic_token("self"), false);
  if (parse_match(p, TOK_LEFT_PAREN) && plain_arguments_ahead(p)) {
    Token paren = p->previous;
    ArgList args;
    argument_list(p, &args);
    parse_named_variable(p, synthetic_token("super"), false);
    emit_op_at(p, &paren, OP_SUPER_INVOKE, -args.positional - 1, true);
    emit_u16(p, name);
    emit_u8(p, args.positional);
    return;
  }
  bool is_call = p->previous.type == TOK_LEFT_PAREN;
  parse_named_variable(p, synthetic_token("super"), false);
  emit_op_u16(p, OP_GET_SUPER, name);
  if (is_call) call(p, false);
}

/* ---- indexing ---- */

static bool slice_part_ends(const Parser *p) {
  return parse_check(p, TOK_COLON) || parse_check(p, TOK_COMMA) || parse_check(p, TOK_RIGHT_BRACKET);
}

/* Compiles one index item; a slice pushes start, stop, step and OP_SLICE. */
static void index_or_slice(Parser *p) {
  if (parse_check(p, TOK_ELLIPSIS) && (p->next.type == TOK_COMMA || p->next.type == TOK_RIGHT_BRACKET)) {
    parse_advance(p);
    emit_op(p, OP_ELLIPSIS);
    return;
  }
  bool has_start = !parse_check(p, TOK_COLON);
  if (has_start) parse_expression(p);
  if (!parse_check(p, TOK_COLON)) return;
  if (!has_start) emit_op(p, OP_NIL);
  parse_advance(p); /* ':' */
  if (slice_part_ends(p)) emit_op(p, OP_NIL);
  else parse_expression(p);
  if (parse_match(p, TOK_COLON) && !slice_part_ends(p)) parse_expression(p);
  else emit_op(p, OP_NIL);
  emit_op(p, OP_SLICE);
}

/* Pushes copies of the n values below the top-of-stack region starting at
 * stack depth `base` (multi-index compound assignment). */
static void duplicate_from(Parser *p, int base, int n) {
  if (base + n > 256) {
    parse_error(p, "expression too complex for a compound index assignment");
    return;
  }
  for (int i = 0; i < n; i++) emit_op_u8(p, OP_GET_LOCAL, base + i);
}

/* GET_INDEX or GET_INDEX_N (likewise SET): one item or several. */
static void emit_index_op(Parser *p, const Token *bracket, bool set, int count) {
  if (count == 1) {
    emit_op_at(p, bracket, set ? OP_SET_INDEX : OP_GET_INDEX, 0, false);
    return;
  }
  emit_op_at(p, bracket, set ? OP_SET_INDEX_N : OP_GET_INDEX_N, set ? -count - 1 : -count, true);
  emit_u8(p, count);
}

/* obj[items] op= v: the object and items are re-read from their stack slots
 * (DUP2 for one item), then obj[items] = obj[items] op v. */
static void index_compound(Parser *p, int count, const Token *bracket) {
  Token op = p->current;
  parse_advance(p);
  if (count == 1) emit_op(p, OP_DUP2);
  else duplicate_from(p, p->fc->depth - count - 1, count + 1);
  emit_index_op(p, bracket, false, count);
  parse_expression(p);
  emit_op_at(p, &op, parse_compound_opcode(op.type), 0, false);
  emit_index_op(p, bracket, true, count);
}

/* The comma-separated items inside [ ]; returns how many. */
static int index_items(Parser *p) {
  int count = 0;
  do {
    if (parse_check(p, TOK_RIGHT_BRACKET)) break;
    index_or_slice(p);
    count++;
  } while (parse_match(p, TOK_COMMA));
  parse_consume(p, TOK_RIGHT_BRACKET, "expected ']' after the index");
  return count;
}

static void index_(Parser *p, bool can_assign) {
  Token bracket = p->previous;
  int count = index_items(p);
  if (count == 0) {
    parse_error_at(p, &p->previous, "expected an index inside '[ ]'");
    return;
  }
  if (count > 255) {
    parse_error_at(p, &bracket, "too many index items (the limit is 255)");
    return;
  }
  if (can_assign && parse_assignment_begins(p)) {
    parse_assigned_value(p);
    emit_index_op(p, &bracket, true, count);
    parse_mark_assignment(p);
  } else if (can_assign && parse_is_compound_op(p->current.type)) {
    index_compound(p, count, &bracket);
    parse_mark_assignment(p);
  } else {
    emit_index_op(p, &bracket, false, count);
  }
}

/* ---- collections ---- */

/* A comprehension: a `for` at the bracket's own depth. */
static bool comprehension_ahead(Parser *p) { return ahead_in_bracket(p, TOK_FOR, TOK_FOR); }
static bool map_comprehension_ahead(Parser *p) { return ahead_in_bracket(p, TOK_COLON, TOK_FOR); }

static void list(Parser *p, bool can_assign) {
  (void)can_assign;
  if (!parse_check(p, TOK_RIGHT_BRACKET) && comprehension_ahead(p)) {
    parse_comprehension(p, COMP_LIST, TOK_RIGHT_BRACKET);
    return;
  }
  int count = 0;
  bool appending = false; /* after a spread (or 65535 items) items are appended */
  while (!parse_check(p, TOK_RIGHT_BRACKET) && !parse_check(p, TOK_EOF)) {
    bool spread = parse_match(p, TOK_ELLIPSIS);
    if ((spread || count == UINT16_MAX) && !appending) {
      emit_op_var(p, OP_LIST, 1 - count);
      emit_u16(p, count);
      appending = true;
    }
    parse_expression(p);
    if (spread) emit_op(p, OP_LIST_EXTEND);
    else if (appending) emit_op(p, OP_LIST_APPEND);
    else count++;
    if (!parse_match(p, TOK_COMMA)) break;
  }
  parse_consume(p, TOK_RIGHT_BRACKET, "expected ']' after the list items");
  if (!appending) {
    emit_op_var(p, OP_LIST, 1 - count);
    emit_u16(p, count);
  }
}

/* {a, b}: after the first item, with count items pushed so far. */
static void set_literal(Parser *p, int count) {
  while (parse_match(p, TOK_COMMA)) {
    parse_skip_newlines(p);
    if (parse_check(p, TOK_RIGHT_BRACE)) break;
    parse_expression(p);
    if (++count > UINT16_MAX) parse_error(p, "too many items in a set literal");
    parse_skip_newlines(p);
  }
  parse_skip_newlines(p);
  parse_consume(p, TOK_RIGHT_BRACE, "expected '}' after the set items");
  emit_op_var(p, OP_NEW_SET, 1 - count);
  emit_u16(p, count);
}

/* {k: v, ...} is a map, {a, b} a set, {} the empty map; either may be a
 * comprehension. */
static void map(Parser *p, bool can_assign) {
  (void)can_assign;
  int count = 0;
  parse_skip_newlines(p);
  if (!parse_check(p, TOK_RIGHT_BRACE) && comprehension_ahead(p)) {
    parse_comprehension(p, map_comprehension_ahead(p) ? COMP_MAP : COMP_SET, TOK_RIGHT_BRACE);
    return;
  }
  while (!parse_check(p, TOK_RIGHT_BRACE) && !parse_check(p, TOK_EOF)) {
    parse_expression(p);
    if (count == 0 && !parse_check(p, TOK_COLON)) {
      parse_skip_newlines(p);
      set_literal(p, 1);
      return;
    }
    parse_consume(p, TOK_COLON, "expected ':' after the map key");
    parse_expression(p);
    if (++count > UINT16_MAX) parse_error(p, "too many entries in a map literal");
    parse_skip_newlines(p);
    if (!parse_match(p, TOK_COMMA)) break;
    parse_skip_newlines(p);
  }
  parse_skip_newlines(p);
  parse_consume(p, TOK_RIGHT_BRACE, "expected '}' after the map entries");
  emit_op_var(p, OP_MAP, 1 - 2 * count);
  emit_u16(p, count);
}

static bool starts_expression(TokenType t) { return get_rule(t)->prefix != NULL; }

/* After the first item and with p->current at a ',': the other items of a
 * tuple display (a trailing comma is allowed); emits OP_TUPLE. */
static void tuple_items(Parser *p) {
  int count = 1;
  while (parse_match(p, TOK_COMMA)) {
    if (!starts_expression(p->current.type)) break;
    parse_expression(p);
    if (++count > UINT16_MAX) parse_error(p, "too many items in a tuple");
  }
  emit_op_var(p, OP_TUPLE, 1 - count);
  emit_u16(p, count);
}

/* (e) is e; (a, b), (a,) and () are tuples; (e for x in xs) is a
 * generator expression (a `for` before any comma). */
static void grouping(Parser *p, bool can_assign) {
  (void)can_assign;
  if (parse_match(p, TOK_RIGHT_PAREN)) {
    emit_op_var(p, OP_TUPLE, 1);
    emit_u16(p, 0);
    return;
  }
  if (ahead_in_bracket(p, TOK_FOR, TOK_COMMA)) {
    parse_comprehension(p, COMP_GENERATOR, TOK_RIGHT_PAREN);
    return;
  }
  parse_expression(p);
  if (parse_check(p, TOK_COMMA)) tuple_items(p);
  parse_consume(p, TOK_RIGHT_PAREN, "expected ')' after the expression");
}

void parse_expression_list(Parser *p) {
  parse_expression(p);
  if (parse_check(p, TOK_COMMA)) tuple_items(p);
}

static void lambda(Parser *p, bool can_assign) {
  (void)can_assign;
  Token name = p->lambda_name;
  p->lambda_name.start = NULL;
  if (name.start == NULL) name = synthetic_token("anonymous");
  name.line = p->previous.line; /* the `fn` keyword */
  name.col = p->previous.col;
  parse_function(p, FN_FUNCTION, name);
}

/* ---- operators ---- */

/* `-3` is one constant unless a tighter operator follows (-2 ** 2, -1.f()). */
static bool negative_literal(Parser *p) {
  TokenType after = p->next.type;
  if (!parse_check(p, TOK_NUMBER) || after == TOK_STAR_STAR || after == TOK_LEFT_PAREN ||
      after == TOK_LEFT_BRACKET || after == TOK_DOT)
    return false;
  parse_advance(p);
  emit_constant(p, number_literal(p, true));
  return true;
}

static void unary(Parser *p, bool can_assign) {
  (void)can_assign;
  Token op = p->previous;
  if (op.type == TOK_MINUS && negative_literal(p)) return;
  if (op.type == TOK_NOT) {
    parse_precedence_expression(p, PREC_NOT);
    emit_op_at(p, &op, OP_NOT, 0, false);
  } else if (op.type == TOK_PLUS) {
    parse_precedence_expression(p, PREC_UNARY);
    emit_op_at(p, &op, OP_POSITIVE, 0, false);
  } else if (op.type == TOK_TILDE) {
    parse_precedence_expression(p, PREC_UNARY);
    emit_op_at(p, &op, OP_INVERT, 0, false);
  } else {
    parse_precedence_expression(p, PREC_UNARY);
    emit_op_at(p, &op, OP_NEGATE, 0, false);
  }
}

static OpCode binary_opcode(TokenType t) {
  switch (t) {
  case TOK_PLUS: return OP_ADD;
  case TOK_MINUS: return OP_SUBTRACT;
  case TOK_STAR: return OP_MULTIPLY;
  case TOK_SLASH: return OP_DIVIDE;
  case TOK_SLASH_SLASH: return OP_FLOOR_DIVIDE;
  case TOK_PERCENT: return OP_MODULO;
  case TOK_AT: return OP_MATMUL;
  case TOK_STAR_STAR: return OP_POWER;
  case TOK_PIPE: return OP_BIT_OR;
  case TOK_AMP: return OP_BIT_AND;
  case TOK_CARET: return OP_BIT_XOR;
  case TOK_EQUAL_EQUAL: return OP_EQUAL;
  case TOK_BANG_EQUAL: return OP_NOT_EQUAL;
  case TOK_LESS: return OP_LESS;
  case TOK_LESS_EQUAL: return OP_LESS_EQUAL;
  case TOK_GREATER: return OP_GREATER;
  case TOK_GREATER_EQUAL: return OP_GREATER_EQUAL;
  case TOK_IS: return OP_IS;
  default: return OP_IN; /* `in`, and `not` of `not in` */
  }
}

static void binary(Parser *p, bool can_assign) {
  (void)can_assign;
  Token op = p->previous;
  if (op.type == TOK_STAR_STAR) parse_precedence_expression(p, PREC_UNARY); /* right-assoc */
  else parse_precedence_expression(p, (int)get_rule(op.type)->precedence + 1);
  emit_op_at(p, &op, binary_opcode(op.type), 0, false);
}

/* ---- comparisons ---- */

static bool comparison_ahead(const Parser *p) {
  switch (p->current.type) {
  case TOK_EQUAL_EQUAL: case TOK_BANG_EQUAL: case TOK_LESS: case TOK_LESS_EQUAL:
  case TOK_GREATER: case TOK_GREATER_EQUAL: case TOK_IN: case TOK_IS: return true;
  case TOK_NOT: return p->next.type == TOK_IN;
  default: return false;
  }
}

/* A comparison operator: its opcode, negated for `not in` and `is not`. */
typedef struct {
  Token at;
  OpCode code;
  bool negated;
} Comparison;

/* The comparison operator just read (p->previous), with the second word of
 * `not in` and `is not`. */
static Comparison comparison_operator(Parser *p) {
  Comparison c = {p->previous, binary_opcode(p->previous.type), false};
  if (c.at.type == TOK_NOT) {
    parse_consume(p, TOK_IN, "expected 'in' after 'not' (or 'not' before an expression)");
    c.negated = true;
  } else if (c.at.type == TOK_IS) {
    c.negated = parse_match(p, TOK_NOT);
  }
  return c;
}

static void comparison_operand(Parser *p) { parse_precedence_expression(p, PREC_COMPARISON + 1); }

static void emit_comparison(Parser *p, const Comparison *c) {
  emit_op_at(p, &c->at, c->code, 0, false);
  if (c->negated) emit_op(p, OP_NOT);
}

/* a < b < c ... is Python's `a < b and b < c ...` with b evaluated once: b is
 * kept under each link's result (DUP_UNDER); a false link jumps, keeping its
 * result, to one exit that drops the kept operand (NIP). */
static void comparison_chain(Parser *p, Comparison c) {
  int *exits = NULL, count = 0;
  do {
    emit_op(p, OP_DUP_UNDER);
    emit_comparison(p, &c);
    int *grown = realloc(exits, sizeof(int) * ((size_t)count + 1));
    if (grown == NULL) {
      parse_error(p, "out of memory");
      break;
    }
    exits = grown;
    exits[count++] = emit_jump(p, OP_AND);
    parse_advance(p);
    c = comparison_operator(p);
    comparison_operand(p);
  } while (comparison_ahead(p) && !p->halted);
  emit_comparison(p, &c);
  int end = emit_jump(p, OP_JUMP);
  for (int i = 0; i < count; i++) emit_patch_jump(p, exits[i]);
  free(exits);
  emit_adjust_depth(p, 1); /* a false link's exit: the kept operand and its result */
  emit_op(p, OP_NIP);
  emit_patch_jump(p, end);
}

static void comparison(Parser *p, bool can_assign) {
  (void)can_assign;
  Comparison c = comparison_operator(p);
  comparison_operand(p);
  if (comparison_ahead(p)) comparison_chain(p, c);
  else emit_comparison(p, &c);
}

/* `a if c else b`: c is evaluated first and only one of a and b, as in
 * Python, so a's code (already emitted, from p->operand_start) is moved
 * after c's. A block of code moves as a whole: its relative jumps and the
 * positions of its bytes stay right. */
static void conditional(Parser *p, bool can_assign) {
  (void)can_assign;
  Chunk *c = emit_chunk(p);
  int start = p->operand_start, n = c->count - start;
  uint8_t *code = malloc((size_t)n + 1);
  int *pos = malloc(sizeof(int) * 2 * ((size_t)n + 1));
  if (code == NULL || pos == NULL) {
    free(code);
    free(pos);
    parse_error(p, "out of memory");
    return;
  }
  if (n > 0) { /* an operand that failed to compile may have emitted nothing, into a chunk with no code yet */
    memcpy(code, c->code + start, (size_t)n);
    memcpy(pos, c->lines + start, sizeof(int) * (size_t)n);
    memcpy(pos + n, c->cols + start, sizeof(int) * (size_t)n);
  }
  c->count = start;
  emit_adjust_depth(p, -1); /* a is not on the stack yet */
  parse_precedence_expression(p, PREC_OR);
  int else_jump = emit_jump(p, OP_JUMP_IF_FALSE);
  for (int i = 0; i < n; i++) chunk_write(p->vm, emit_chunk(p), code[i], pos[i], pos[n + i]);
  free(code);
  free(pos);
  emit_adjust_depth(p, 1);
  int end_jump = emit_jump(p, OP_JUMP);
  emit_patch_jump(p, else_jump);
  emit_adjust_depth(p, -1); /* the else branch starts without a */
  parse_consume(p, TOK_ELSE, "expected 'else' in the conditional expression 'a if c else b'");
  parse_precedence_expression(p, PREC_CONDITIONAL);
  emit_patch_jump(p, end_jump);
}

/* and/or keep the deciding operand, as Python's do. */
static void and_(Parser *p, bool can_assign) {
  (void)can_assign;
  int end = emit_jump(p, OP_AND);
  parse_precedence_expression(p, PREC_AND + 1);
  emit_patch_jump(p, end);
}

static void or_(Parser *p, bool can_assign) {
  (void)can_assign;
  int end = emit_jump(p, OP_OR);
  parse_precedence_expression(p, PREC_OR + 1);
  emit_patch_jump(p, end);
}

static const ParseRule rules[TOK_COUNT] = {
    [TOK_LEFT_PAREN] = {grouping, call, PREC_CALL},
    [TOK_LEFT_BRACKET] = {list, index_, PREC_CALL},
    [TOK_LEFT_BRACE] = {map, NULL, PREC_NONE},
    [TOK_DOT] = {NULL, dot, PREC_CALL},
    [TOK_MINUS] = {unary, binary, PREC_TERM},
    [TOK_PLUS] = {unary, binary, PREC_TERM},
    [TOK_STAR] = {NULL, binary, PREC_FACTOR},
    [TOK_SLASH] = {NULL, binary, PREC_FACTOR},
    [TOK_SLASH_SLASH] = {NULL, binary, PREC_FACTOR},
    [TOK_PERCENT] = {NULL, binary, PREC_FACTOR},
    [TOK_AT] = {NULL, binary, PREC_FACTOR},
    [TOK_PIPE] = {NULL, binary, PREC_BIT_OR},
    [TOK_AMP] = {NULL, binary, PREC_BIT_AND},
    [TOK_CARET] = {NULL, binary, PREC_BIT_XOR},
    [TOK_TILDE] = {unary, NULL, PREC_NONE},
    [TOK_STAR_STAR] = {NULL, binary, PREC_POWER},
    [TOK_EQUAL_EQUAL] = {NULL, comparison, PREC_COMPARISON},
    [TOK_BANG_EQUAL] = {NULL, comparison, PREC_COMPARISON},
    [TOK_LESS] = {NULL, comparison, PREC_COMPARISON},
    [TOK_LESS_EQUAL] = {NULL, comparison, PREC_COMPARISON},
    [TOK_GREATER] = {NULL, comparison, PREC_COMPARISON},
    [TOK_GREATER_EQUAL] = {NULL, comparison, PREC_COMPARISON},
    [TOK_IN] = {NULL, comparison, PREC_COMPARISON},
    [TOK_NOT] = {unary, comparison, PREC_COMPARISON},
    [TOK_IS] = {NULL, comparison, PREC_COMPARISON},
    [TOK_AND] = {NULL, and_, PREC_AND},
    [TOK_IF] = {NULL, conditional, PREC_CONDITIONAL},
    [TOK_OR] = {NULL, or_, PREC_OR},
    [TOK_IDENTIFIER] = {variable, NULL, PREC_NONE},
    [TOK_NUMBER] = {number, NULL, PREC_NONE},
    [TOK_STRING] = {string, NULL, PREC_NONE},
    [TOK_FSTRING] = {fstring, NULL, PREC_NONE},
    [TOK_TRUE] = {literal, NULL, PREC_NONE},
    [TOK_FALSE] = {literal, NULL, PREC_NONE},
    [TOK_NIL] = {literal, NULL, PREC_NONE},
    [TOK_SELF] = {self_, NULL, PREC_NONE},
    [TOK_SUPER] = {super_, NULL, PREC_NONE},
    [TOK_FN] = {lambda, NULL, PREC_NONE},
    [TOK_YIELD] = {yield, NULL, PREC_NONE},
};

static const ParseRule *get_rule(TokenType type) { return &rules[type]; }
