/* lexer.c — see lexer.h for the design. */
#include "lexer/lexer.h"

#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* ---- characters and positions ---- */

static bool at_end(const Lexer *lx) { return lx->current >= lx->end; }
static char peek(const Lexer *lx) { return at_end(lx) ? '\0' : *lx->current; }
static char peek_at(const Lexer *lx, int k) {
  return lx->current + k < lx->end ? lx->current[k] : '\0';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }
/* UTF-8 continuation bytes do not start a new column. */
static bool starts_column(char c) { return ((unsigned char)c & 0xC0) != 0x80; }
static int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  return (c | 0x20) - 'a' + 10;
}

static char advance(Lexer *lx) {
  char c = *lx->current++;
  if (c == '\n') {
    lx->line++;
    lx->col = 1;
  } else if (starts_column(c)) {
    lx->col++;
  }
  return c;
}

static bool match(Lexer *lx, char expected) {
  if (peek(lx) != expected) return false;
  advance(lx);
  return true;
}

void lex_init_at(Lexer *lx, const char *source, int length, int line, int col) {
  memset(lx, 0, sizeof *lx);
  lx->start = lx->current = source;
  lx->end = source + length;
  lx->line = line;
  lx->col = col;
  lx->last = TOK_NEWLINE; /* so leading blank lines make no token */
  lx->last_end_line = line;
  lx->last_end_col = col;
}

void lex_init(Lexer *lx, const char *source) {
  lex_init_at(lx, source, (int)strlen(source), 1, 1);
  if (strncmp(source, "\xEF\xBB\xBF", 3) == 0) lx->current += 3; /* a UTF-8 byte order mark */
}

/* ---- tokens ---- */

static Token make_token(Lexer *lx, TokenType type) {
  Token t = {type, lx->start, (int)(lx->current - lx->start), lx->start_line, lx->start_col, NULL, false};
  lx->last = type;
  lx->last_end_line = lx->line;
  lx->last_end_col = lx->col;
  return t;
}

static Token error_at(Lexer *lx, const char *message, const char *where, int line, int col, bool eof) {
  Token t = {TOK_ERROR, where, 1, line, col, message, eof};
  lx->last = TOK_ERROR;
  return t;
}

static Token error_token(Lexer *lx, const char *message) {
  return error_at(lx, message, lx->start, lx->start_line, lx->start_col, false);
}

/* ---- brackets ---- */

static void open_bracket(Lexer *lx, char c) {
  if (lx->depth < LEX_MAX_BRACKETS) lx->brackets[lx->depth++] = c;
  else lx->overflow++;
}

static void close_bracket(Lexer *lx, char open) {
  if (lx->overflow > 0) {
    lx->overflow--;
    return;
  }
  if (lx->depth > 0 && lx->brackets[lx->depth - 1] == open) {
    lx->depth--;
    return;
  }
  /* A mismatched '}' closes everything up to its '{' (the compiler reports
   * the mismatch); a mismatched ')' or ']' leaves the stack alone. */
  if (open == '{') {
    while (lx->depth > 0 && lx->brackets[--lx->depth] != '{') {
    }
  }
}

void lex_reset_to_block(Lexer *lx) {
  lx->overflow = 0;
  while (lx->depth > 0 && lx->brackets[lx->depth - 1] != '{') lx->depth--;
}

static bool inside_parens(const Lexer *lx) {
  return lx->overflow > 0 || (lx->depth > 0 && lx->brackets[lx->depth - 1] != '{');
}

/* ---- the newline rule ---- */

/* Tokens after which a line cannot end, so a newline continues the statement. */
static bool continues_line(TokenType t) {
  switch (t) {
  case TOK_NEWLINE: case TOK_COMMA: case TOK_DOT: case TOK_ELLIPSIS: case TOK_COLON:
  case TOK_PLUS: case TOK_MINUS: case TOK_STAR: case TOK_SLASH: case TOK_SLASH_SLASH: case TOK_PERCENT:
  case TOK_STAR_STAR: case TOK_AT: case TOK_PIPE: case TOK_AMP: case TOK_CARET: case TOK_TILDE:
  case TOK_PIPE_EQUAL: case TOK_AMP_EQUAL: case TOK_CARET_EQUAL: case TOK_EQUAL: case TOK_PLUS_EQUAL:
  case TOK_MINUS_EQUAL: case TOK_STAR_EQUAL: case TOK_SLASH_EQUAL: case TOK_AT_EQUAL:
  case TOK_PERCENT_EQUAL: case TOK_STAR_STAR_EQUAL: case TOK_SLASH_SLASH_EQUAL:
  case TOK_EQUAL_EQUAL: case TOK_BANG_EQUAL: case TOK_LESS: case TOK_LESS_EQUAL:
  case TOK_GREATER: case TOK_GREATER_EQUAL: case TOK_AND: case TOK_OR: case TOK_NOT:
  case TOK_IN: case TOK_IS:
    return true;
  default:
    return false;
  }
}

/* Skips spaces, tabs, carriage returns and comments, but not newlines. */
static void skip_blanks(Lexer *lx) {
  for (;;) {
    char c = peek(lx);
    if (c == ' ' || c == '\t' || c == '\r') {
      advance(lx);
    } else if (c == '#') {
      while (!at_end(lx) && peek(lx) != '\n') advance(lx);
    } else {
      return;
    }
  }
}

/* The first character of the next line that holds a token (without moving). */
static const char *next_significant(const Lexer *lx) {
  const char *p = lx->current;
  while (p < lx->end) {
    if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
      p++;
    } else if (*p == '#') {
      while (p < lx->end && *p != '\n') p++;
    } else {
      break;
    }
  }
  return p;
}

static bool word_at(const Lexer *lx, const char *p, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(lx->end - p) < n || memcmp(p, word, n) != 0) return false;
  return p + n == lx->end || !is_alnum(p[n]);
}

static bool newline_matters(const Lexer *lx) {
  if (inside_parens(lx) || continues_line(lx->last)) return false;
  const char *p = next_significant(lx);
  /* `.foo` on the next line continues a method chain; `.5` is a number. */
  if (p < lx->end && *p == '.' && !(p + 1 < lx->end && (is_digit(p[1]) || p[1] == '.')))
    return false;
  if (lx->last == TOK_RIGHT_BRACE &&
      (word_at(lx, p, "elif") || word_at(lx, p, "else") || word_at(lx, p, "catch")))
    return false;
  return true;
}

/* ---- numbers ---- */

/* Digits with single underscores between them; false if an underscore is misplaced. */
static bool scan_digits(Lexer *lx, bool (*digit)(char)) {
  while (digit(peek(lx)) || peek(lx) == '_') {
    if (peek(lx) == '_' && !digit(peek_at(lx, 1))) return false;
    advance(lx);
  }
  return true;
}

/* After digits, at a '.' not followed by a digit: whether the point ends a
 * float such as `2.` or `2.e5` (Python's), rather than starting `..`/`...`
 * or an attribute name. */
static bool point_ends_float(const Lexer *lx) {
  char next = peek_at(lx, 1);
  if (next == 'e' || next == 'E') {
    char after = peek_at(lx, 2);
    return is_digit(after) || ((after == '+' || after == '-') && is_digit(peek_at(lx, 3)));
  }
  return next != '.' && !is_alnum(next);
}

static Token scan_number(Lexer *lx) {
  bool ok = true;
  char first = lx->current[-1];
  if (first == '0' && (peek(lx) == 'x' || peek(lx) == 'X')) {
    advance(lx);
    ok = is_hex(peek(lx)) && scan_digits(lx, is_hex);
  } else {
    if (first != '.') ok = scan_digits(lx, is_digit);
    if (ok && first != '.' && peek(lx) == '.' && is_digit(peek_at(lx, 1))) {
      advance(lx);
      ok = scan_digits(lx, is_digit);
    } else if (ok && first != '.' && peek(lx) == '.' && point_ends_float(lx)) {
      advance(lx); /* Python's `2.` is 2.0 (`tensor([2., 3.])`) */
    } else if (first == '.') {
      ok = scan_digits(lx, is_digit);
    }
    if (ok && (peek(lx) == 'e' || peek(lx) == 'E')) {
      advance(lx);
      if (peek(lx) == '+' || peek(lx) == '-') advance(lx);
      ok = is_digit(peek(lx)) && scan_digits(lx, is_digit);
    }
  }
  if (!ok || is_alnum(peek(lx))) {
    while (is_alnum(peek(lx)) || peek(lx) == '.') advance(lx);
    return error_token(lx, "invalid number literal");
  }
  return make_token(lx, TOK_NUMBER);
}

LexNumber lex_number_value(const Token *tok) {
  LexNumber num = {true, false, 0, 0};
  const char *s = tok->start;
  int n = tok->length;
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    uint64_t v = 0;
    for (int i = 2; i < n; i++) {
      if (s[i] == '_') continue;
      if (v > (uint64_t)INT64_MAX >> 4) num.too_large = true;
      v = v * 16 + (uint64_t)hex_value(s[i]);
    }
    if (v > (uint64_t)INT64_MAX) num.too_large = true;
    num.i = (int64_t)v;
    return num;
  }
  char small[128];
  char *buf = n < (int)sizeof small ? small : malloc((size_t)n + 1);
  if (buf == NULL) return num;
  int len = 0;
  for (int i = 0; i < n; i++) {
    if (s[i] == '_') continue;
    if (s[i] == '.' || s[i] == 'e' || s[i] == 'E') num.is_int = false;
    buf[len++] = s[i];
  }
  buf[len] = '\0';
  if (num.is_int) {
    errno = 0;
    unsigned long long v = strtoull(buf, NULL, 10);
    if (errno == ERANGE || v > (unsigned long long)INT64_MAX) num.too_large = true;
    num.i = (int64_t)v;
  } else {
    num.d = strtod(buf, NULL);
  }
  if (buf != small) free(buf);
  return num;
}

/* ---- strings ---- */

/* Checks one escape (the backslash already consumed); NULL when it is valid. */
static const char *scan_escape(Lexer *lx) {
  if (at_end(lx)) return NULL; /* reported as unterminated */
  char c = advance(lx);
  switch (c) {
  case 'n': case 't': case 'r': case '\\': case '"': case '\'': case '0':
    return NULL;
  case 'x':
    if (!is_hex(peek(lx)) || !is_hex(peek_at(lx, 1))) return "\\x needs two hex digits";
    advance(lx);
    advance(lx);
    return NULL;
  case 'u': {
    if (!match(lx, '{')) return "\\u needs braces: \\u{263A}";
    uint32_t cp = 0;
    int digits = 0;
    while (is_hex(peek(lx)) && digits < 7) {
      cp = cp * 16 + (uint32_t)hex_value(advance(lx));
      digits++;
    }
    if (digits == 0 || digits > 6 || !match(lx, '}')) return "\\u{...} needs 1 to 6 hex digits";
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return "\\u{...} is not a valid code point";
    return NULL;
  }
  default:
    return "invalid escape sequence";
  }
}

/* Scans a quoted literal after its opening quote; an escape error is kept but
 * scanning goes on to the closing quote so the lexer stays in step. */
static Token scan_string(Lexer *lx, char quote) {
  const char *bad = NULL, *bad_where = NULL;
  int bad_line = 0, bad_col = 0;
  while (!at_end(lx) && peek(lx) != quote) {
    if (peek(lx) == '\\') {
      const char *where = lx->current;
      int line = lx->line, col = lx->col;
      advance(lx);
      const char *err = scan_escape(lx);
      if (err != NULL && bad == NULL) {
        bad = err, bad_where = where, bad_line = line, bad_col = col;
      }
    } else {
      advance(lx);
    }
  }
  if (at_end(lx)) return error_at(lx, "unterminated string", lx->start, lx->start_line, lx->start_col, true);
  advance(lx);
  if (bad != NULL) return error_at(lx, bad, bad_where, bad_line, bad_col, false);
  return make_token(lx, TOK_STRING);
}

/* Skips a string nested in an f-string field; false if it never ends. */
static bool skip_nested_string(Lexer *lx, char quote) {
  while (!at_end(lx) && peek(lx) != quote) {
    if (advance(lx) == '\\' && !at_end(lx)) advance(lx);
  }
  if (at_end(lx)) return false;
  advance(lx);
  return true;
}

/* Scans a {field} of an f-string after its '{'; NULL when fine. */
static const char *scan_fstring_field(Lexer *lx, bool *eof) {
  int depth = 0;
  bool empty = true;
  for (;;) {
    if (at_end(lx)) {
      *eof = true;
      return "unterminated string";
    }
    char c = advance(lx);
    if (c == '"' || c == '\'') {
      if (!skip_nested_string(lx, c)) {
        *eof = true;
        return "unterminated string";
      }
    } else if (c == '(' || c == '[' || c == '{') {
      depth++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0 && c == '}') return empty ? "empty expression in f-string" : NULL;
      if (depth > 0) depth--;
    } else if (c == ':' && depth == 0 && empty) {
      return "empty expression in f-string";
    }
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') empty = false;
  }
}

static Token scan_fstring(Lexer *lx, char quote) {
  const char *bad = NULL, *bad_where = NULL;
  int bad_line = 0, bad_col = 0;
  while (!at_end(lx) && peek(lx) != quote) {
    const char *where = lx->current;
    int line = lx->line, col = lx->col;
    char c = advance(lx);
    const char *err = NULL;
    bool eof = false;
    if (c == '\\') {
      err = scan_escape(lx);
    } else if (c == '{' && !match(lx, '{')) {
      err = scan_fstring_field(lx, &eof);
    } else if (c == '}' && !match(lx, '}')) {
      err = "single '}' in f-string (write '}}' for a brace)";
    }
    if (eof) return error_at(lx, "unterminated string", lx->start, lx->start_line, lx->start_col, true);
    if (err != NULL && bad == NULL) bad = err, bad_where = where, bad_line = line, bad_col = col;
  }
  if (at_end(lx)) return error_at(lx, "unterminated string", lx->start, lx->start_line, lx->start_col, true);
  advance(lx);
  if (bad != NULL) return error_at(lx, bad, bad_where, bad_line, bad_col, false);
  return make_token(lx, TOK_FSTRING);
}

/* ---- names ---- */

typedef struct {
  const char *word;
  TokenType type;
} Keyword;

static const Keyword keywords[] = {
    {"let", TOK_LET},     {"fn", TOK_FN},         {"return", TOK_RETURN},
    {"if", TOK_IF},       {"elif", TOK_ELIF},     {"else", TOK_ELSE},
    {"while", TOK_WHILE}, {"for", TOK_FOR},       {"in", TOK_IN},
    {"break", TOK_BREAK}, {"continue", TOK_CONTINUE}, {"and", TOK_AND},
    {"or", TOK_OR},       {"not", TOK_NOT},       {"true", TOK_TRUE},
    {"false", TOK_FALSE}, {"nil", TOK_NIL},       {"class", TOK_CLASS},
    {"self", TOK_SELF},   {"super", TOK_SUPER},   {"try", TOK_TRY},
    {"catch", TOK_CATCH}, {"throw", TOK_THROW},   {"with", TOK_WITH},
    {"import", TOK_IMPORT}, {"as", TOK_AS},       {"yield", TOK_YIELD},
    {"is", TOK_IS},
};

static TokenType identifier_type(const char *s, int n) {
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
    if ((int)strlen(keywords[i].word) == n && memcmp(keywords[i].word, s, (size_t)n) == 0)
      return keywords[i].type;
  }
  return TOK_IDENTIFIER;
}

static Token scan_identifier(Lexer *lx) {
  while (is_alnum(peek(lx))) advance(lx);
  return make_token(lx, identifier_type(lx->start, (int)(lx->current - lx->start)));
}

/* ---- operators ---- */

static Token two_char(Lexer *lx, char second, TokenType yes, TokenType no) {
  return make_token(lx, match(lx, second) ? yes : no);
}

static Token scan_star(Lexer *lx) {
  if (match(lx, '*')) return two_char(lx, '=', TOK_STAR_STAR_EQUAL, TOK_STAR_STAR);
  return two_char(lx, '=', TOK_STAR_EQUAL, TOK_STAR);
}

static Token scan_dot(Lexer *lx) {
  if (is_digit(peek(lx))) return scan_number(lx);
  if (peek(lx) == '.' && peek_at(lx, 1) == '.') {
    advance(lx);
    advance(lx);
    return make_token(lx, TOK_ELLIPSIS);
  }
  return make_token(lx, TOK_DOT);
}

static Token scan_bracket(Lexer *lx, char c) {
  switch (c) {
  case '(': open_bracket(lx, '('); return make_token(lx, TOK_LEFT_PAREN);
  case ')': close_bracket(lx, '('); return make_token(lx, TOK_RIGHT_PAREN);
  case '[': open_bracket(lx, '['); return make_token(lx, TOK_LEFT_BRACKET);
  case ']': close_bracket(lx, '['); return make_token(lx, TOK_RIGHT_BRACKET);
  case '{': open_bracket(lx, '{'); return make_token(lx, TOK_LEFT_BRACE);
  default: close_bracket(lx, '{'); return make_token(lx, TOK_RIGHT_BRACE);
  }
}

static Token scan_operator(Lexer *lx, char c) {
  switch (c) {
  case '(': case ')': case '[': case ']': case '{': case '}': return scan_bracket(lx, c);
  case ',': return make_token(lx, TOK_COMMA);
  case ':': return make_token(lx, TOK_COLON);
  case ';': return make_token(lx, TOK_SEMICOLON);
  case '.': return scan_dot(lx);
  case '+': return two_char(lx, '=', TOK_PLUS_EQUAL, TOK_PLUS);
  case '-': return two_char(lx, '=', TOK_MINUS_EQUAL, TOK_MINUS);
  case '*': return scan_star(lx);
  case '/':
    if (match(lx, '/')) return two_char(lx, '=', TOK_SLASH_SLASH_EQUAL, TOK_SLASH_SLASH);
    return two_char(lx, '=', TOK_SLASH_EQUAL, TOK_SLASH);
  case '%': return two_char(lx, '=', TOK_PERCENT_EQUAL, TOK_PERCENT);
  case '@': return two_char(lx, '=', TOK_AT_EQUAL, TOK_AT);
  case '=': return two_char(lx, '=', TOK_EQUAL_EQUAL, TOK_EQUAL);
  case '<': return two_char(lx, '=', TOK_LESS_EQUAL, TOK_LESS);
  case '>': return two_char(lx, '=', TOK_GREATER_EQUAL, TOK_GREATER);
  case '!':
    if (match(lx, '=')) return make_token(lx, TOK_BANG_EQUAL);
    return error_token(lx, "unexpected '!' (use 'not' for negation)");
  case '|': return two_char(lx, '=', TOK_PIPE_EQUAL, TOK_PIPE);
  case '&': return two_char(lx, '=', TOK_AMP_EQUAL, TOK_AMP);
  case '^': return two_char(lx, '=', TOK_CARET_EQUAL, TOK_CARET);
  case '~': return make_token(lx, TOK_TILDE);
  case '"': case '\'': return scan_string(lx, c);
  default: return error_token(lx, "unexpected character");
  }
}

/* ---- the driver ---- */

static Token newline_token(Lexer *lx) {
  lx->start = lx->current;
  lx->start_line = lx->line;
  lx->start_col = lx->col;
  advance(lx);
  Token t = {TOK_NEWLINE, lx->start, 1, lx->start_line, lx->start_col, NULL, false};
  lx->last = TOK_NEWLINE;
  return t;
}

static Token eof_token(Lexer *lx) {
  /* Placed just after the last token, so "expected '}'" points at the end of code. */
  Token t = {TOK_EOF, lx->end, 0, lx->last_end_line, lx->last_end_col, NULL, false};
  lx->last = TOK_EOF;
  return t;
}

Token lex_next(Lexer *lx) {
  for (;;) {
    skip_blanks(lx);
    if (peek(lx) != '\n' || at_end(lx)) break;
    if (newline_matters(lx)) return newline_token(lx);
    advance(lx);
  }
  if (at_end(lx)) return eof_token(lx);
  lx->start = lx->current;
  lx->start_line = lx->line;
  lx->start_col = lx->col;
  char c = advance(lx);
  if (c == 'f' && (peek(lx) == '"' || peek(lx) == '\'')) return scan_fstring(lx, advance(lx));
  if (is_alpha(c)) return scan_identifier(lx);
  if (is_digit(c)) return scan_number(lx);
  if (c == '\0') return error_token(lx, "unexpected NUL byte");
  return scan_operator(lx, c);
}

/* ---- names for messages ---- */

static const char *const token_names[TOK_COUNT] = {
    [TOK_LEFT_PAREN] = "'('", [TOK_RIGHT_PAREN] = "')'", [TOK_LEFT_BRACKET] = "'['",
    [TOK_RIGHT_BRACKET] = "']'", [TOK_LEFT_BRACE] = "'{'", [TOK_RIGHT_BRACE] = "'}'",
    [TOK_COMMA] = "','", [TOK_DOT] = "'.'", [TOK_ELLIPSIS] = "'...'", [TOK_COLON] = "':'",
    [TOK_SEMICOLON] = "';'", [TOK_NEWLINE] = "end of line", [TOK_PLUS] = "'+'",
    [TOK_MINUS] = "'-'", [TOK_STAR] = "'*'", [TOK_SLASH] = "'/'", [TOK_SLASH_SLASH] = "'//'", [TOK_PERCENT] = "'%'",
    [TOK_STAR_STAR] = "'**'", [TOK_AT] = "'@'", [TOK_PIPE] = "'|'", [TOK_AMP] = "'&'", [TOK_CARET] = "'^'", [TOK_TILDE] = "'~'",
    [TOK_PIPE_EQUAL] = "'|='", [TOK_AMP_EQUAL] = "'&='", [TOK_CARET_EQUAL] = "'^='", [TOK_EQUAL] = "'='", [TOK_PLUS_EQUAL] = "'+='",
    [TOK_MINUS_EQUAL] = "'-='", [TOK_STAR_EQUAL] = "'*='", [TOK_SLASH_EQUAL] = "'/='",
    [TOK_AT_EQUAL] = "'@='", [TOK_PERCENT_EQUAL] = "'%='", [TOK_STAR_STAR_EQUAL] = "'**='", [TOK_SLASH_SLASH_EQUAL] = "'//='",
    [TOK_EQUAL_EQUAL] = "'=='", [TOK_BANG_EQUAL] = "'!='",
    [TOK_LESS] = "'<'", [TOK_LESS_EQUAL] = "'<='", [TOK_GREATER] = "'>'",
    [TOK_GREATER_EQUAL] = "'>='", [TOK_IDENTIFIER] = "a name", [TOK_NUMBER] = "a number",
    [TOK_STRING] = "a string", [TOK_FSTRING] = "an f-string", [TOK_LET] = "'let'",
    [TOK_FN] = "'fn'", [TOK_RETURN] = "'return'", [TOK_IF] = "'if'", [TOK_ELIF] = "'elif'",
    [TOK_ELSE] = "'else'", [TOK_WHILE] = "'while'", [TOK_FOR] = "'for'", [TOK_IN] = "'in'",
    [TOK_BREAK] = "'break'", [TOK_CONTINUE] = "'continue'", [TOK_AND] = "'and'",
    [TOK_OR] = "'or'", [TOK_NOT] = "'not'", [TOK_TRUE] = "'true'", [TOK_FALSE] = "'false'",
    [TOK_NIL] = "'nil'", [TOK_CLASS] = "'class'", [TOK_SELF] = "'self'",
    [TOK_SUPER] = "'super'", [TOK_TRY] = "'try'", [TOK_CATCH] = "'catch'",
    [TOK_THROW] = "'throw'", [TOK_WITH] = "'with'", [TOK_IMPORT] = "'import'",
    [TOK_AS] = "'as'", [TOK_YIELD] = "'yield'", [TOK_IS] = "'is'",
    [TOK_ERROR] = "an invalid token", [TOK_EOF] = "end of input",
};

const char *lex_token_name(TokenType type) {
  if ((int)type < 0 || type >= TOK_COUNT || token_names[type] == NULL) return "a token";
  return token_names[type];
}

bool lex_is_keyword(TokenType type) { return type >= TOK_LET && type <= TOK_IS; }

/* ---- decoding string bodies ---- */

static int utf8_encode(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Decodes the escape at src[i] (after the backslash); returns chars consumed. */
static int decode_escape(const char *src, int i, int length, char *out, int *len) {
  char c = src[i];
  static const char plain_from[] = "ntr\\\"'0";
  static const char plain_to[] = "\n\t\r\\\"'\0";
  const char *p = memchr(plain_from, c, sizeof plain_from - 1);
  if (p != NULL) {
    out[(*len)++] = plain_to[p - plain_from];
    return 1;
  }
  uint32_t cp = 0;
  int used = 1;
  if (c == 'x') {
    cp = (uint32_t)(hex_value(src[i + 1]) * 16 + hex_value(src[i + 2]));
    used = 3;
  } else { /* u{...} */
    int j = i + 2;
    while (j < length && src[j] != '}') cp = cp * 16 + (uint32_t)hex_value(src[j++]);
    used = j + 1 - i;
  }
  /* \xHH is the code point U+00HH, as in Python, so "\xe9" is "é". */
  *len += utf8_encode(cp, out + *len);
  return used;
}

int lex_unescape(const char *src, int length, bool fstring_text, char *out) {
  int len = 0;
  for (int i = 0; i < length; i++) {
    char c = src[i];
    if (c == '\\' && i + 1 < length) {
      i += decode_escape(src, i + 1, length, out, &len);
    } else if (fstring_text && (c == '{' || c == '}') && i + 1 < length && src[i + 1] == c) {
      out[len++] = c;
      i++;
    } else {
      out[len++] = c;
    }
  }
  out[len] = '\0';
  return len;
}

/* ---- f-string parts ---- */

void lex_fstring_begin(LexFCursor *cur, const Token *tok) {
  cur->quote = tok->start[1];
  cur->pos = tok->start + 2;
  cur->end = tok->start + tok->length - 1;
  cur->line = tok->line;
  cur->col = tok->col + 2;
}

static char cursor_advance(LexFCursor *cur) {
  char c = *cur->pos++;
  if (c == '\n') {
    cur->line++;
    cur->col = 1;
  } else if (starts_column(c)) {
    cur->col++;
  }
  return c;
}

static void scan_text_part(LexFCursor *cur, LexFPart *part) {
  part->kind = LEX_FPART_TEXT;
  while (cur->pos < cur->end) {
    char c = *cur->pos;
    if (c == '{' && !(cur->pos + 1 < cur->end && cur->pos[1] == '{')) break;
    if (c == '\\' || c == '{' || c == '}') cursor_advance(cur); /* two-char unit */
    cursor_advance(cur);
  }
}

static void skip_cursor_string(LexFCursor *cur, char quote) {
  while (cur->pos < cur->end && *cur->pos != quote) {
    if (cursor_advance(cur) == '\\' && cur->pos < cur->end) cursor_advance(cur);
  }
  if (cur->pos < cur->end) cursor_advance(cur);
}

/* After the field's '{': finds its '}' and its last top-level ':'. */
/* `{x!r}`: a conversion ends the expression. */
static void field_conversion(LexFPart *part) {
  const char *e = part->start + part->length;
  if (part->length >= 2 && e[-2] == '!' && strchr("rsa", e[-1]) != NULL) {
    part->conversion = e[-1];
    part->length -= 2;
  }
}

/* `{x=}`, `{x = }`: the expression's text is shown before its value. */
static void field_debug(LexFPart *part) {
  int n = part->length;
  while (n > 0 && isspace((unsigned char)part->start[n - 1])) n--;
  if (n < 2 || part->start[n - 1] != '=' || strchr("=!<>", part->start[n - 2]) != NULL) return;
  part->debug_length = part->length;
  part->length = n - 1;
}

static void scan_field_part(LexFCursor *cur, LexFPart *part) {
  part->kind = LEX_FPART_FIELD;
  const char *colon = NULL;
  int depth = 0;
  while (cur->pos < cur->end) {
    char c = *cur->pos;
    if (depth == 0 && c == '}') break;
    cursor_advance(cur);
    if (c == '"' || c == '\'') skip_cursor_string(cur, c);
    else if (c == '(' || c == '[' || c == '{') depth++;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
    else if (c == ':' && depth == 0) {
      colon = cur->pos - 1;
      part->spec_line = cur->line;
      part->spec_col = cur->col;
    }
  }
  const char *close = cur->pos;
  if (cur->pos < cur->end) cursor_advance(cur); /* the '}' */
  part->length = (int)((colon ? colon : close) - part->start);
  part->spec = colon ? colon + 1 : NULL;
  part->spec_length = colon ? (int)(close - colon - 1) : 0;
  field_conversion(part);
  field_debug(part);
}

bool lex_fstring_next(LexFCursor *cur, LexFPart *part) {
  if (cur->pos >= cur->end) return false;
  memset(part, 0, sizeof *part);
  if (*cur->pos == '{' && !(cur->pos + 1 < cur->end && cur->pos[1] == '{')) {
    cursor_advance(cur);
    part->start = cur->pos;
    part->line = cur->line;
    part->col = cur->col;
    scan_field_part(cur, part);
  } else {
    part->start = cur->pos;
    part->line = cur->line;
    part->col = cur->col;
    scan_text_part(cur, part);
    part->length = (int)(cur->pos - part->start);
  }
  return true;
}
