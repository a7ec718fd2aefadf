/* lexer.h — source text to tokens (the `lexer/` component).
 *
 * The lexer is pulled one token at a time by the compiler (lex_next). Tokens
 * point into the source (no copies); each carries its 1-based line and column
 * (columns count code points, so carets line up under UTF-8 text).
 *
 * Newlines end statements, so the lexer decides which newlines matter (SPEC §2)
 * and emits one TOK_NEWLINE for a run of blank lines and comments. A newline is
 * dropped when the innermost open bracket is ( or [ (a { } block inside them
 * makes newlines count again), after a binary operator, `,`, `.` or `:`, when
 * the next line starts with `.` (method chains), and when the next line starts
 * with `elif`, `else` or `catch` right after a `}`.
 *
 * Strings and f-strings are checked completely while scanning (escapes,
 * nesting, braces), so the helpers that later decode them (lex_unescape,
 * lex_fstring_next) cannot fail. An f-string is one TOK_FSTRING token; the
 * compiler walks its parts with lex_fstring_next and compiles each field's
 * source with a second lexer started at the field's position (lex_init_at).
 *
 * Strings may span lines (so an open string at the end of a REPL line reads
 * on). `\xHH` is the code point U+00HH, UTF-8 encoded, as in Python.
 *
 * Errors are TOK_ERROR tokens whose `message` says what is wrong; `at_eof` is
 * set when the error is that input ended too early (an unterminated string),
 * which the REPL treats as "read another line".
 */
#ifndef AG_LEXER_H
#define AG_LEXER_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  /* brackets and punctuation */
  TOK_LEFT_PAREN, TOK_RIGHT_PAREN, TOK_LEFT_BRACKET, TOK_RIGHT_BRACKET,
  TOK_LEFT_BRACE, TOK_RIGHT_BRACE, TOK_COMMA, TOK_DOT, TOK_ELLIPSIS,
  TOK_COLON, TOK_SEMICOLON, TOK_NEWLINE,
  /* operators */
  TOK_PLUS, TOK_MINUS, TOK_STAR, TOK_SLASH, TOK_SLASH_SLASH, TOK_PERCENT, TOK_STAR_STAR, TOK_AT,
  TOK_PIPE, TOK_AMP, TOK_CARET, TOK_TILDE,
  TOK_EQUAL, TOK_PLUS_EQUAL, TOK_MINUS_EQUAL, TOK_STAR_EQUAL, TOK_SLASH_EQUAL,
  TOK_AT_EQUAL, TOK_PERCENT_EQUAL, TOK_STAR_STAR_EQUAL, TOK_SLASH_SLASH_EQUAL, TOK_EQUAL_EQUAL, TOK_BANG_EQUAL, TOK_LESS, TOK_LESS_EQUAL,
  TOK_GREATER, TOK_GREATER_EQUAL,
  TOK_PIPE_EQUAL, TOK_AMP_EQUAL, TOK_CARET_EQUAL,
  /* literals */
  TOK_IDENTIFIER, TOK_NUMBER, TOK_STRING, TOK_FSTRING,
  /* keywords */
  TOK_LET, TOK_FN, TOK_RETURN, TOK_IF, TOK_ELIF, TOK_ELSE, TOK_WHILE, TOK_FOR,
  TOK_IN, TOK_BREAK, TOK_CONTINUE, TOK_AND, TOK_OR, TOK_NOT, TOK_TRUE,
  TOK_FALSE, TOK_NIL, TOK_CLASS, TOK_SELF, TOK_SUPER, TOK_TRY, TOK_CATCH,
  TOK_THROW, TOK_WITH, TOK_IMPORT, TOK_AS, TOK_YIELD, TOK_IS,
  /* end and errors */
  TOK_ERROR, TOK_EOF,
  TOK_COUNT
} TokenType;

typedef struct {
  TokenType type;
  const char *start; /* the token's text in the source (a string keeps its quotes) */
  int length;
  int line, col;       /* 1-based position of the first character */
  const char *message; /* TOK_ERROR only: what is wrong */
  bool at_eof;         /* TOK_ERROR only: the input ended inside the token */
} Token;

#define LEX_MAX_BRACKETS 256

typedef struct {
  const char *start;   /* start of the token being scanned */
  const char *current; /* next character to read */
  const char *end;     /* one past the last character */
  int line, col;       /* position of `current` */
  int start_line, start_col;
  TokenType last;      /* previous token emitted (drives the newline rule) */
  int last_end_line, last_end_col; /* position just after the previous token */
  /* Open brackets, innermost last: '(' '[' '{'. Deeper nesting is counted
   * in `overflow` and behaves like '('. */
  char brackets[LEX_MAX_BRACKETS];
  int depth;
  int overflow;
} Lexer;

void lex_init(Lexer *lx, const char *source);
/* Lexes source[0..length) as if it started at line, col (an f-string field). */
void lex_init_at(Lexer *lx, const char *source, int length, int line, int col);
Token lex_next(Lexer *lx);

/* After a syntax error: forget ( and [ opened since the innermost { so that
 * newlines end statements again while the compiler resynchronises. */
void lex_reset_to_block(Lexer *lx);

/* The keyword or operator spelling of a token type ("'while'", "')'") or a
 * description ("a name", "end of input") for messages. */
const char *lex_token_name(TokenType type);
bool lex_is_keyword(TokenType type);

/* Value of a TOK_NUMBER token (underscores ignored, 0x hexadecimal): an int
 * unless it has a `.` or an exponent, as in Python. too_large: an int literal
 * beyond int64. */
typedef struct {
  bool is_int;
  bool too_large;
  int64_t i;
  double d;
} LexNumber;
LexNumber lex_number_value(const Token *tok);

/* Decodes the escapes of a string body src[0..length) (quotes excluded) into
 * out, which needs length + 1 bytes; returns the decoded length. In an
 * f-string's text, `{{` and `}}` stand for single braces. The body must have
 * been accepted by the lexer. */
int lex_unescape(const char *src, int length, bool fstring_text, char *out);

/* Walking the parts of a TOK_FSTRING token. */
typedef enum { LEX_FPART_TEXT, LEX_FPART_FIELD } LexFPartKind;

typedef struct {
  LexFPartKind kind;
  const char *start; /* TEXT: raw text (decode with lex_unescape); FIELD: expression source */
  int length;
  int line, col;     /* position of start */
  const char *spec;  /* FIELD: format spec after the last top-level ':', or NULL */
  int spec_length;
  int spec_line, spec_col; /* position of spec */
  char conversion;   /* FIELD: 'r' 's' 'a' after a '!' (`{x!r}`), or 0 */
  int debug_length;  /* FIELD `{x=}`, `{x = :.2f}`: length of the text shown before the value
                        (from start, through the '=' and the spaces after it), else 0 */
} LexFPart;

typedef struct {
  const char *pos, *end;
  int line, col;
  char quote;
} LexFCursor;

void lex_fstring_begin(LexFCursor *cur, const Token *tok);
/* Fills *part with the next part; false when there are no more. */
bool lex_fstring_next(LexFCursor *cur, LexFPart *part);

#endif
