/* internal.h — state shared by the compiler's files (not a public API).
 *
 * compiler.c  the driver, error reporting, scopes and variables, statements
 * expr.c      expressions: the Pratt rules table and its parse functions
 * emit.c      bytecode emission: operands, constants, jumps and the stack-depth
 *             bookkeeping that yields ObjFunction.max_slots
 *
 * Stack depth: `depth` counts every value the current frame has on the stack
 * (slot 0, locals and temporaries) after the code emitted so far, using the
 * effects of vm/opcodes.h. Locals live in the stack slots that their
 * initialisers pushed, so a local's slot is always depth - 1 when it is
 * declared, and a temporary at a known depth can be re-read with GET_LOCAL.
 */
#ifndef AG_PARSER_INTERNAL_H
#define AG_PARSER_INTERNAL_H

#include "lexer/lexer.h"
#include "parser/compiler.h"
#include "vm/opcodes.h"
#include "vm/vm.h"

#define PARSE_MAX_LOCALS 256
#define PARSE_MAX_UPVALUES 256
#define PARSE_MAX_HANDLERS 64
#define PARSE_MAX_CATCH 32 /* catch clauses of one try */
#define PARSE_MAX_NESTING 200 /* expressions and blocks, guards the C stack */
#define PARSE_MAX_ERRORS 50   /* then compilation stops, as clang's -ferror-limit */

typedef struct {
  const char *name; /* hidden locals start with a space, so no script name matches */
  int length;
  int depth; /* scope depth, or -1 while its initialiser runs */
  bool captured;
} Local;

typedef struct {
  uint8_t index;
  bool is_local;
} UpvalueRef;

typedef enum { FN_SCRIPT, FN_FUNCTION, FN_METHOD, FN_INIT } FnKind;

/* A try or with block whose handler is live: leaving it early (break,
 * continue, return) pops the handler, and for `with` calls exit() first. */
typedef struct {
  bool is_with;
  int ctx_slot; /* with: the local holding the context object */
} HandlerBlock;

typedef struct Loop {
  struct Loop *enclosing;
  int start;         /* offset `continue` loops back to */
  int scope_depth;   /* locals deeper than this are dropped by break/continue */
  int handler_count; /* handler blocks already open when the loop began */
  int *breaks;       /* offsets of break jumps to patch (malloc'd) */
  int break_count, break_capacity;
} Loop;

typedef struct FnCompiler {
  struct FnCompiler *enclosing;
  ObjFunction *function;
  FnKind kind;
  Local locals[PARSE_MAX_LOCALS];
  int local_count;
  UpvalueRef upvalues[PARSE_MAX_UPVALUES];
  int scope_depth;
  int depth; /* values on the stack now */
  Loop *loop;
  HandlerBlock handlers[PARSE_MAX_HANDLERS];
  int handler_count;
  bool too_many_locals; /* reported once */
  bool too_many_constants;
  /* `yield` makes a generator: OP_GENERATOR goes in at body_start, the
   * offset after the parameters' prologue (emit_insert_op). */
  bool is_generator;
  bool no_yield; /* a list, set or map comprehension's hidden function */
  int body_start;
} FnCompiler;

typedef struct ClassInfo {
  struct ClassInfo *enclosing;
  bool has_parent;
  int slot;           /* stack slot of the class while its body compiles */
  bool in_decorator;  /* compiling a method's decorators */
} ClassInfo;

typedef struct {
  AgVM *vm;
  const CompileOptions *opts;
  const char *file;
  const char *source; /* the whole text, for quoting lines in messages */
  /* The start of line `quoted_line` of source, where the last message's line
   * was found: messages come in source order, so each search goes on from the
   * last one and reporting every error costs one pass over the text. */
  const char *quoted_start;
  int quoted_line;
  Lexer *lexer;
  Token previous, current, next;
  bool panic;
  bool halted;      /* too many errors, nesting too deep, or Ctrl-C: the rest is not read */
  bool interrupted; /* halted by Ctrl-C */
  bool incomplete;
  int error_count;
  int nesting;
  bool assigned;         /* the expression statement is an assignment (no REPL echo) */
  int statement_nesting; /* `nesting` where that statement began */
  int last_show;         /* offset of the last top-level OP_REPL_SHOW, -1 if none (show_last) */
  bool reported_end; /* an error at the end of input was reported */
  bool in_field; /* compiling an f-string field: its end is not the input's end */
  int at_line, at_col; /* position for emitted bytes when non-zero (an operator) */
  Token lambda_name;   /* `let f = fn(...)`: names the function expression */
  int operand_start;   /* code offset where an infix operator's left operand began */
  /* unpack.c: while an expression target compiles from its text (lexer
   * store_lexer), its last access stores the value in stack slot store_slot */
  Lexer *store_lexer;
  int store_slot;
  ObjString *file_string;
  FnCompiler *fc;
  ClassInfo *cls;
} Parser;

/* compiler.c */
void parse_error_at(Parser *p, const Token *tok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void parse_error(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void parse_advance(Parser *p);
bool parse_check(const Parser *p, TokenType type);
bool parse_match(Parser *p, TokenType type);
void parse_consume(Parser *p, TokenType type, const char *message);
void parse_skip_newlines(Parser *p);
bool parse_enter(Parser *p); /* nesting guard: false (after an error) when too deep */
void parse_leave(Parser *p);
void parse_named_variable(Parser *p, Token name, bool can_assign);
void parse_mark_assignment(Parser *p); /* an assignment was compiled */
void parse_function(Parser *p, FnKind kind, Token name);
void parse_block(Parser *p);
ObjString *parse_intern(Parser *p, const char *chars, int length);

typedef enum { COMP_LIST, COMP_SET, COMP_MAP, COMP_GENERATOR } CompKind;
void parse_comprehension(Parser *p, CompKind kind, TokenType close);
/* `lambda x, y=1: expr`, after `lambda`. */
void parse_lambda(Parser *p, const Token *keyword);
/* `yield` / `yield expr` (the keyword read): marks the function a generator. */
void parse_yield(Parser *p);

void parse_add_local(Parser *p, const char *name, int length); /* its value is on the top */
void parse_store_variable(Parser *p, const Token *name);        /* the value stays */
void parse_define_global(Parser *p, const Token *name);         /* the value is taken off */
bool parse_resolves_locally(Parser *p, const Token *name);      /* a local or a captured one */
/* At the end of an assignment target: '=' follows (consumed), or the
 * expression target that unpack.c compiles ends here. */
bool parse_assignment_begins(Parser *p);

/* Scanning ahead on a copy of the lexer: window[0] is the token looked at. */
typedef struct {
  Lexer lexer;
  Token window[2];
} Lookahead;
void parse_lookahead_begin(const Parser *p, Lookahead *la); /* at p->current */
void parse_lookahead_advance(Lookahead *la);

/* unpack.c: assignment targets (see there) */
typedef enum { TARGET_NAME, TARGET_EXPR, TARGET_SEQ } TargetKind;
typedef struct {
  TargetKind kind;
  bool starred;
  bool has_star;   /* TARGET_SEQ: one of its items is starred */
  Token at;        /* the name, or the first token of the expression or bracket */
  int length;      /* TARGET_EXPR: the length of its source text */
  int count;       /* TARGET_SEQ: its items */
  int first, next; /* TARGET_SEQ: the first item; any: the next one (-1: none) */
} Target;
#define TARGETS_MAX 256
typedef struct {
  Target t[TARGETS_MAX];
  int count;
  bool names_only; /* let, for: names, not fields or items */
} Targets;
typedef enum {
  BIND_STORE,  /* assignment to existing variables, fields and items */
  BIND_DEFINE, /* `let` at top level: globals */
  BIND_LOOP    /* a for loop's variables: existing ones, else new globals */
} BindMode;
Targets *parse_new_targets(Parser *p); /* malloc'd: parse_free_targets */
void parse_free_targets(Parser *p, Targets *ts);
/* Reads `a, (b, c), *d` up to '=' or 'in'; returns the root target, -1 after an error. */
int parse_targets(Parser *p, Targets *ts, bool names_only);
void parse_bind_targets(Parser *p, const Targets *ts, int root, BindMode mode);
void parse_declare_targets(Parser *p, const Targets *ts, int root);
bool parse_unpacking_ahead(Parser *p);
void parse_unpacking_statement(Parser *p);

/* expr.c */
void parse_or_expression(Parser *p); /* no conditional expression: a comprehension's `in` and `if` */
void parse_expression(Parser *p);
/* `a, b` where Python takes an expression list (return, let, the value of an
 * assignment statement): two or more items, or one and a comma, are a tuple. */
void parse_expression_list(Parser *p);
/* The value after a target's '=': an expression list at statement level. */
void parse_assigned_value(Parser *p);
void parse_precedence_expression(Parser *p, int precedence);
bool parse_is_compound_op(TokenType t);
/* The binary opcode of a compound assignment token (`+=` is OP_ADD). */
OpCode parse_compound_opcode(TokenType t);
void parse_start_tokens(Parser *p); /* primes current/next from p->lexer */

/* emit.c */
void emit_byte(Parser *p, uint8_t byte);
void emit_op(Parser *p, OpCode op);            /* fixed stack effect from the table */
void emit_op_var(Parser *p, OpCode op, int effect); /* VAR ops: effect given */
void emit_u8(Parser *p, int v);
void emit_u16(Parser *p, int v);
void emit_op_u8(Parser *p, OpCode op, int operand);
void emit_op_u16(Parser *p, OpCode op, int operand);
int emit_constant_index(Parser *p, Value v);   /* checked K index */
void emit_constant(Parser *p, Value v);        /* OP_CONSTANT */
int emit_name_constant(Parser *p, const char *chars, int length);
int emit_jump(Parser *p, OpCode op);           /* returns the operand's offset */
void emit_patch_jump(Parser *p, int offset);
void emit_loop(Parser *p, int start);
void emit_adjust_depth(Parser *p, int delta);
Chunk *emit_chunk(Parser *p);
int emit_offset(Parser *p); /* bytes emitted so far in the current function */
/* Inserts an operand-less op at `offset` (no jump may cross it). */
void emit_insert_op(Parser *p, int offset, OpCode op);

#endif
