/* test_lexer.c — tokens, positions, numbers, strings, the newline rule and
 * f-string parts. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lexer/lexer.h"

/* Lexes `src` into at most `max` tokens (EOF included); returns the count. */
static int lex_all(const char *src, Token *out, int max) {
  Lexer lx;
  lex_init(&lx, src);
  int n = 0;
  while (n < max) {
    out[n] = lex_next(&lx);
    if (out[n++].type == TOK_EOF) break;
  }
  return n;
}

/* The token types of `src`, EOF excluded, as a string of type numbers so a
 * failure prints something comparable. */
static void expect_types(const char *src, const TokenType *types, int count) {
  Token toks[64];
  int n = lex_all(src, toks, 64);
  ck_assert_int_eq(n - 1, count);
  for (int i = 0; i < count; i++) {
    ck_assert_msg(toks[i].type == types[i], "%s: token %d is %s, expected %s", src, i,
                  lex_token_name(toks[i].type), lex_token_name(types[i]));
  }
}

static Token first_token(const char *src) {
  Lexer lx;
  lex_init(&lx, src);
  return lex_next(&lx);
}

START_TEST(positions_are_one_based_lines_and_columns) {
  Token t[8];
  lex_all("let x = 12\n  y", t, 8);
  ck_assert_int_eq(t[0].type, TOK_LET);
  ck_assert_int_eq(t[0].line, 1);
  ck_assert_int_eq(t[0].col, 1);
  ck_assert_int_eq(t[1].col, 5);
  ck_assert_int_eq(t[3].type, TOK_NUMBER);
  ck_assert_int_eq(t[3].col, 9);
  ck_assert_int_eq(t[3].length, 2);
  ck_assert_int_eq(t[4].type, TOK_NEWLINE);
  ck_assert_int_eq(t[4].col, 11);
  ck_assert_int_eq(t[5].type, TOK_IDENTIFIER);
  ck_assert_int_eq(t[5].line, 2);
  ck_assert_int_eq(t[5].col, 3);
}
END_TEST

START_TEST(columns_count_code_points) {
  Token t[8];
  lex_all("\"é☺\" x", t, 8);
  ck_assert_int_eq(t[1].type, TOK_IDENTIFIER);
  ck_assert_int_eq(t[1].col, 6);
}
END_TEST

START_TEST(number_forms) {
  static const char *srcs[] = {"12", "2.5", ".5", "1e-3", "0x1F", "1_000_000", "3.0", "1E+2", "0xff_ff"};
  static const double values[] = {12, 2.5, .5, 1e-3, 31, 1000000, 3, 100, 65535};
  static const bool ints[] = {true, false, false, false, true, true, false, false, true};
  for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
    Token t = first_token(srcs[i]);
    ck_assert_msg(t.type == TOK_NUMBER, "%s is not a number", srcs[i]);
    ck_assert_int_eq(t.length, (int)strlen(srcs[i]));
    LexNumber n = lex_number_value(&t);
    ck_assert_msg(n.is_int == ints[i], "%s: int or float", srcs[i]);
    ck_assert_double_eq(n.is_int ? (double)n.i : n.d, values[i]);
    ck_assert(!n.too_large);
  }
  Token big = first_token("9223372036854775808");
  ck_assert(lex_number_value(&big).too_large);
  Token max = first_token("0x7fffffffffffffff");
  ck_assert(!lex_number_value(&max).too_large && lex_number_value(&max).i == INT64_MAX);
}
END_TEST

START_TEST(bad_numbers_are_errors) {
  static const char *srcs[] = {"1__0", "1_", "1e", "0x", "12abc", "1e+"};
  for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
    Token t = first_token(srcs[i]);
    ck_assert_msg(t.type == TOK_ERROR, "%s should be an error", srcs[i]);
    ck_assert_str_eq(t.message, "invalid number literal");
  }
}
END_TEST

START_TEST(number_followed_by_method_dot) {
  static const TokenType types[] = {TOK_NUMBER, TOK_DOT, TOK_IDENTIFIER};
  expect_types("1.foo", types, 3);
}
END_TEST

static void expect_decoded(const char *src, const char *expected, int expected_len) {
  Token t = first_token(src);
  ck_assert_msg(t.type == TOK_STRING, "%s: not a string (%s)", src, t.message ? t.message : "");
  char buf[64];
  int n = lex_unescape(t.start + 1, t.length - 2, false, buf);
  ck_assert_int_eq(n, expected_len);
  ck_assert_mem_eq(buf, expected, (size_t)n);
}

START_TEST(string_escapes) {
  expect_decoded("\"a\\nb\\tc\\rd\"", "a\nb\tc\rd", 7);
  expect_decoded("'q\\'s\\\"\\\\'", "q's\"\\", 5);
  expect_decoded("\"x\\0y\"", "x\0y", 3);
  expect_decoded("\"\\x41\\x42\"", "AB", 2);
  expect_decoded("\"\\xe9\"", "\xc3\xa9", 2);
  expect_decoded("\"\\u{263A}\"", "\xe2\x98\xba", 3);
  expect_decoded("\"\\u{1F600}\"", "\xf0\x9f\x98\x80", 4);
  expect_decoded("\"two\nlines\"", "two\nlines", 9);
}
END_TEST

START_TEST(bad_escapes_point_at_the_backslash) {
  Token t = first_token("\"ab\\qc\"");
  ck_assert_int_eq(t.type, TOK_ERROR);
  ck_assert_str_eq(t.message, "invalid escape sequence");
  ck_assert_int_eq(t.col, 4);
  ck_assert(!t.at_eof);
  ck_assert_int_eq(first_token("\"\\x4\"").type, TOK_ERROR);
  ck_assert_int_eq(first_token("\"\\u263A\"").type, TOK_ERROR);
  ck_assert_int_eq(first_token("\"\\u{D800}\"").type, TOK_ERROR);
  ck_assert_int_eq(first_token("\"\\u{110000}\"").type, TOK_ERROR);
}
END_TEST

START_TEST(bad_escape_keeps_the_lexer_in_step) {
  static const TokenType types[] = {TOK_ERROR, TOK_PLUS, TOK_NUMBER};
  expect_types("\"\\q\" + 1", types, 3);
}
END_TEST

START_TEST(unterminated_string_is_at_eof) {
  Token t = first_token("  \"abc");
  ck_assert_int_eq(t.type, TOK_ERROR);
  ck_assert_str_eq(t.message, "unterminated string");
  ck_assert(t.at_eof);
  ck_assert_int_eq(t.col, 3);
  ck_assert(first_token("f\"{x").at_eof);
}
END_TEST

START_TEST(operators) {
  static const TokenType types[] = {
      TOK_STAR_STAR, TOK_STAR,  TOK_AT,         TOK_AT_EQUAL,   TOK_PLUS_EQUAL, TOK_MINUS_EQUAL,
      TOK_STAR_EQUAL, TOK_SLASH_EQUAL, TOK_ELLIPSIS, TOK_COLON, TOK_EQUAL_EQUAL, TOK_BANG_EQUAL,
      TOK_LESS_EQUAL, TOK_GREATER_EQUAL, TOK_LESS, TOK_GREATER, TOK_PERCENT, TOK_SEMICOLON,
      TOK_EQUAL, TOK_DOT};
  expect_types("** * @ @= += -= *= /= ... : == != <= >= < > % ; = .", types, 20);
  static const TokenType bitwise[] = {TOK_PIPE, TOK_PIPE_EQUAL, TOK_AMP,   TOK_AMP_EQUAL, TOK_CARET,
                                      TOK_CARET_EQUAL, TOK_TILDE, TOK_SLASH_SLASH, TOK_SLASH_SLASH_EQUAL};
  expect_types("| |= & &= ^ ^= ~ // //=", bitwise, 9);
}
END_TEST

START_TEST(keywords_and_names) {
  static const TokenType types[] = {TOK_LET, TOK_FN, TOK_RETURN, TOK_IF, TOK_ELIF, TOK_ELSE, TOK_WHILE,
                                    TOK_FOR, TOK_IN, TOK_BREAK, TOK_CONTINUE, TOK_AND, TOK_OR, TOK_NOT,
                                    TOK_TRUE, TOK_FALSE, TOK_NIL, TOK_CLASS, TOK_SELF, TOK_SUPER, TOK_TRY,
                                    TOK_CATCH, TOK_THROW, TOK_WITH, TOK_IMPORT, TOK_AS, TOK_IDENTIFIER,
                                    TOK_IDENTIFIER, TOK_IDENTIFIER};
  expect_types("let fn return if elif else while for in break continue and or not true false nil "
               "class self super try catch throw with import as lets _x9 f",
               types, 29);
}
END_TEST

START_TEST(byte_order_mark_is_skipped) {
  Token t = first_token("\xEF\xBB\xBFlet");
  ck_assert_int_eq(t.type, TOK_LET);
  ck_assert_int_eq(t.col, 1);
}
END_TEST

START_TEST(bad_characters) {
  Token t = first_token("$");
  ck_assert_int_eq(t.type, TOK_ERROR);
  ck_assert_str_eq(t.message, "unexpected character");
  t = first_token("!x");
  ck_assert_int_eq(t.type, TOK_ERROR);
}
END_TEST

START_TEST(comments_and_blank_lines_make_one_newline) {
  static const TokenType types[] = {TOK_IDENTIFIER, TOK_NEWLINE, TOK_IDENTIFIER};
  expect_types("\n\n# lead\na  # tail\n\n  # only a comment\n\nb", types, 3);
}
END_TEST

START_TEST(newline_ignored_inside_parens_and_brackets) {
  static const TokenType types[] = {TOK_IDENTIFIER, TOK_LEFT_PAREN, TOK_NUMBER, TOK_COMMA,
                                    TOK_LEFT_BRACKET, TOK_NUMBER, TOK_RIGHT_BRACKET, TOK_RIGHT_PAREN};
  expect_types("f(\n1\n,\n[\n2\n]\n)", types, 8);
}
END_TEST

START_TEST(newline_counts_in_a_block_inside_parens) {
  static const TokenType types[] = {TOK_IDENTIFIER, TOK_LEFT_PAREN, TOK_FN, TOK_LEFT_PAREN,
                                    TOK_RIGHT_PAREN, TOK_LEFT_BRACE, TOK_NEWLINE, TOK_IDENTIFIER,
                                    TOK_NEWLINE, TOK_IDENTIFIER, TOK_NEWLINE, TOK_RIGHT_BRACE,
                                    TOK_RIGHT_PAREN};
  expect_types("g(fn() {\na\nb\n})", types, 13);
}
END_TEST

START_TEST(newline_ignored_after_binary_operator_comma_and_dot) {
  static const TokenType types[] = {TOK_IDENTIFIER, TOK_EQUAL, TOK_NUMBER, TOK_PLUS,
                                    TOK_NUMBER,     TOK_STAR,  TOK_IDENTIFIER, TOK_DOT,
                                    TOK_IDENTIFIER, TOK_AND,   TOK_TRUE};
  expect_types("x =\n1 +\n2 *\ny.\nz and\ntrue", types, 11);
}
END_TEST

START_TEST(line_starting_with_dot_continues) {
  static const TokenType types[] = {TOK_IDENTIFIER, TOK_DOT, TOK_IDENTIFIER, TOK_DOT, TOK_IDENTIFIER,
                                    TOK_NEWLINE,    TOK_NUMBER};
  expect_types("a\n  .b\n  # note\n  .c\n.5", types, 7);
}
END_TEST

START_TEST(else_elif_catch_after_brace_continue) {
  static const TokenType types[] = {TOK_RIGHT_BRACE, TOK_ELSE, TOK_RIGHT_BRACE, TOK_ELIF,
                                    TOK_RIGHT_BRACE, TOK_CATCH, TOK_RIGHT_BRACE, TOK_NEWLINE,
                                    TOK_IDENTIFIER, TOK_NEWLINE, TOK_ELSE};
  expect_types("}\nelse }\n\n elif }\ncatch }\nelsewhere\nelse", types, 11);
}
END_TEST

START_TEST(reset_to_block_forgets_open_parens) {
  Lexer lx;
  lex_init(&lx, "{ f(\nx\ny");
  for (int i = 0; i < 3; i++) lex_next(&lx); /* { f ( */
  lex_reset_to_block(&lx);
  ck_assert_int_eq(lex_next(&lx).type, TOK_NEWLINE);
  ck_assert_int_eq(lex_next(&lx).type, TOK_IDENTIFIER);
  ck_assert_int_eq(lex_next(&lx).type, TOK_NEWLINE);
}
END_TEST

START_TEST(eof_sits_after_the_last_token) {
  Token t[8];
  int n = lex_all("ab  \n\n  # c\n", t, 8);
  ck_assert_int_eq(t[n - 1].type, TOK_EOF);
  ck_assert_int_eq(t[n - 1].line, 1);
  ck_assert_int_eq(t[n - 1].col, 3);
}
END_TEST

/* ---- f-strings ---- */

typedef struct {
  LexFPart parts[8];
  int count;
} Parts;

static Parts fparts(const char *src) {
  Token t = first_token(src);
  ck_assert_msg(t.type == TOK_FSTRING, "%s: %s", src, t.message ? t.message : "not an f-string");
  ck_assert_int_eq(t.length, (int)strlen(src));
  Parts ps;
  ps.count = 0;
  LexFCursor cur;
  lex_fstring_begin(&cur, &t);
  while (ps.count < 8 && lex_fstring_next(&cur, &ps.parts[ps.count])) ps.count++;
  return ps;
}

static void expect_part(const LexFPart *p, LexFPartKind kind, const char *text, const char *spec) {
  ck_assert_int_eq(p->kind, kind);
  ck_assert_int_eq(p->length, (int)strlen(text));
  ck_assert_mem_eq(p->start, text, strlen(text));
  if (spec == NULL) {
    ck_assert_ptr_null(p->spec);
  } else {
    ck_assert_ptr_nonnull(p->spec);
    ck_assert_int_eq(p->spec_length, (int)strlen(spec));
    ck_assert_mem_eq(p->spec, spec, strlen(spec));
  }
}

START_TEST(fstring_text_and_fields) {
  Parts ps = fparts("f\"x = {x}, n = {n + 1}!\"");
  ck_assert_int_eq(ps.count, 5);
  expect_part(&ps.parts[0], LEX_FPART_TEXT, "x = ", NULL);
  expect_part(&ps.parts[1], LEX_FPART_FIELD, "x", NULL);
  ck_assert_int_eq(ps.parts[1].col, 8);
  expect_part(&ps.parts[2], LEX_FPART_TEXT, ", n = ", NULL);
  expect_part(&ps.parts[3], LEX_FPART_FIELD, "n + 1", NULL);
  expect_part(&ps.parts[4], LEX_FPART_TEXT, "!", NULL);
}
END_TEST

START_TEST(fstring_format_specs) {
  Parts ps = fparts("f'{loss:.4f}{n:5d}{v:.3e}'");
  ck_assert_int_eq(ps.count, 3);
  expect_part(&ps.parts[0], LEX_FPART_FIELD, "loss", ".4f");
  expect_part(&ps.parts[1], LEX_FPART_FIELD, "n", "5d");
  expect_part(&ps.parts[2], LEX_FPART_FIELD, "v", ".3e");
}
END_TEST

START_TEST(fstring_nested_brackets_and_strings) {
  Parts ps = fparts("f\"{xs[1:2]} {m[\"a:b\"]:>8} {f(fn(x) { return {1: x} })}\"");
  ck_assert_int_eq(ps.count, 5);
  expect_part(&ps.parts[0], LEX_FPART_FIELD, "xs[1:2]", NULL);
  expect_part(&ps.parts[2], LEX_FPART_FIELD, "m[\"a:b\"]", ">8");
  expect_part(&ps.parts[4], LEX_FPART_FIELD, "f(fn(x) { return {1: x} })", NULL);
}
END_TEST

START_TEST(fstring_doubled_braces_are_text) {
  Parts ps = fparts("f\"{{a}} {b}\"");
  ck_assert_int_eq(ps.count, 2);
  ck_assert_int_eq(ps.parts[0].kind, LEX_FPART_TEXT);
  char buf[32];
  int n = lex_unescape(ps.parts[0].start, ps.parts[0].length, true, buf);
  ck_assert_int_eq(n, 4);
  ck_assert_mem_eq(buf, "{a} ", 4);
}
END_TEST

START_TEST(fstring_errors) {
  Token t = first_token("f\"a{}b\"");
  ck_assert_int_eq(t.type, TOK_ERROR);
  ck_assert_str_eq(t.message, "empty expression in f-string");
  ck_assert_int_eq(t.col, 4);
  t = first_token("f\"a}b\"");
  ck_assert_int_eq(t.type, TOK_ERROR);
  t = first_token("f\"{x:.2f\"");
  ck_assert_int_eq(t.type, TOK_ERROR);
  ck_assert(t.at_eof);
  t = first_token("f\"\\q{x}\"");
  ck_assert_int_eq(t.type, TOK_ERROR);
  ck_assert_str_eq(t.message, "invalid escape sequence");
}
END_TEST

START_TEST(fstring_is_only_f_before_a_quote) {
  static const TokenType types[] = {TOK_IDENTIFIER, TOK_STRING, TOK_FSTRING};
  expect_types("fx \"s\" f\"t\"", types, 3);
}
END_TEST

static Suite *lexer_suite(void) {
  Suite *s = suite_create("lexer");
  TCase *tc = tcase_create("tokens");
  tcase_add_test(tc, positions_are_one_based_lines_and_columns);
  tcase_add_test(tc, columns_count_code_points);
  tcase_add_test(tc, number_forms);
  tcase_add_test(tc, bad_numbers_are_errors);
  tcase_add_test(tc, number_followed_by_method_dot);
  tcase_add_test(tc, string_escapes);
  tcase_add_test(tc, bad_escapes_point_at_the_backslash);
  tcase_add_test(tc, bad_escape_keeps_the_lexer_in_step);
  tcase_add_test(tc, unterminated_string_is_at_eof);
  tcase_add_test(tc, operators);
  tcase_add_test(tc, keywords_and_names);
  tcase_add_test(tc, bad_characters);
  tcase_add_test(tc, byte_order_mark_is_skipped);
  suite_add_tcase(s, tc);
  TCase *nl = tcase_create("newlines");
  tcase_add_test(nl, comments_and_blank_lines_make_one_newline);
  tcase_add_test(nl, newline_ignored_inside_parens_and_brackets);
  tcase_add_test(nl, newline_counts_in_a_block_inside_parens);
  tcase_add_test(nl, newline_ignored_after_binary_operator_comma_and_dot);
  tcase_add_test(nl, line_starting_with_dot_continues);
  tcase_add_test(nl, else_elif_catch_after_brace_continue);
  tcase_add_test(nl, reset_to_block_forgets_open_parens);
  tcase_add_test(nl, eof_sits_after_the_last_token);
  suite_add_tcase(s, nl);
  TCase *fs = tcase_create("fstrings");
  tcase_add_test(fs, fstring_text_and_fields);
  tcase_add_test(fs, fstring_format_specs);
  tcase_add_test(fs, fstring_nested_brackets_and_strings);
  tcase_add_test(fs, fstring_doubled_braces_are_text);
  tcase_add_test(fs, fstring_errors);
  tcase_add_test(fs, fstring_is_only_f_before_a_quote);
  suite_add_tcase(s, fs);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(lexer_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
