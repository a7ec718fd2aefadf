/* mutate.c — makes fuzz inputs for tests/fuzz_smoke.sh.
 *
 * usage: mutate SEED COUNT OUTDIR CORPUS_FILE...
 * Writes OUTDIR/case_00000.ag ... OUTDIR/case_<COUNT-1>.ag. Each case is a
 * corpus file (golden or conformance script) with 1-4 mutations applied
 * (delete / duplicate / swap lines, delete / duplicate / overwrite byte ranges,
 * insert tokens, brackets, quotes, random bytes, a chunk of another file, or a
 * deep run of brackets), or, for a few cases, a string of random tokens or
 * random bytes. Case i depends only on SEED and i, so a failure is reproduced
 * by its seed and number alone (and the saved input).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *data;
  size_t len, cap;
} Buf;

static uint64_t rng_state;

static uint64_t rng(void) {
  /* xorshift64*: small, fast and the same everywhere */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static size_t below(size_t n) { return n ? (size_t)(rng() % n) : 0; }

static void reserve(Buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = realloc(b->data, cap);
  if (!b->data) { perror("mutate"); exit(1); }
  b->cap = cap;
}

static void insert(Buf *b, size_t at, const char *s, size_t n) {
  if (at > b->len) at = b->len;
  reserve(b, n);
  memmove(b->data + at + n, b->data + at, b->len - at);
  memcpy(b->data + at, s, n);
  b->len += n;
}

static void erase(Buf *b, size_t at, size_t n) {
  if (at >= b->len) return;
  if (n > b->len - at) n = b->len - at;
  memmove(b->data + at, b->data + at + n, b->len - at - n);
  b->len -= n;
}

/* start of the line holding offset at, and the offset just past its '\n' */
static size_t line_start(const Buf *b, size_t at) {
  while (at > 0 && b->data[at - 1] != '\n') at--;
  return at;
}
static size_t line_end(const Buf *b, size_t at) {
  while (at < b->len && b->data[at] != '\n') at++;
  return at < b->len ? at + 1 : at;
}

static const char *TOKENS[] = {
  "let ", "fn ", "return ", "if ", "elif ", "else ", "while ", "for ", " in ", "break",
  "continue", " and ", " or ", "not ", "true", "false", "nil", "class ", "self", "super",
  "try ", "catch ", "throw ", "with ", "import ", " as ", "(", ")", "[", "]", "{", "}",
  "\"", "'", "f\"", "f\"{", "{x:.3f}", "}\"", "\\", "\\u{", "\\x", "#", ";", "\n", ",",
  ".", "...", ":", "::", "=", "==", "+=", "@=", "**", "@", "-", "+", "*", "/", "%", "<",
  ">=", "!=", "1e999", "0x", "1_", ".5", "9007199254740993", "-0", "nan", "inf", "x",
  "print(", "error(\"e\")", "len(", "range(", "tensor([1.0, 2.0])", "x.grad", "[1, 2]",
  "{\"a\": 1}", "fn(a, b=1, ...r) { return a }", "class A : B { }", "super.init()",
  "throw nil", "exit(", "sorted(", "self.x", "=>", "$", "`", "?", "!", "&", "|", "^", "~",
  /* Python's surface (issue 11): conditional expressions, comprehensions,
   * sets, augmented assignment, operator methods and the iteration protocol */
  " if x else ", " if ", "[x for x in xs]", "[y for x in xs for y in x if y]", " for ", "{x for x in xs}",
  "{k: v for k, v in m.items()}", "{1, 2}", "set()", " not in ", "%=", "**=", "-=", "*=", "/=",
  "t[..., 0]", "[...]", "...,", "+x", "iter(", "next(", "StopIteration()", "NotImplemented",
  "fn add(o) { return NotImplemented }", "fn iter() { return self }", "fn next() { throw StopIteration() }",
  "fn hash() { return 1 }", "fn eq(o) { return self == o }", "fn len() { return -1 }",
  "fn bool() { return nil }", "fn getitem(i) { return self[i] }", "reversed(", "any(", "all(",
  "list(", "ord(", "chr(", "device=\"cpu\"", ".to(\"cuda\")", "range(1000000000000)",
  /* bitwise and set operators, floor division of tensors, their methods */
  "//=", "|=", "&=", "^=", " ^ ", "~x", "~", "{1, 2} ^ {2}", "t // 2", "7 // t", "fn or(o) { return self }",
  "fn xor(o) { return NotImplemented }", "fn invert() { return ~self }", "fn ior(o) { return 1 }",
  "true == 1", "{true: 1, 1: 2}",
  /* issue 27: decorators, *args/**kwargs, chained comparisons, types and attributes */
  "@", "@d\n", "@property\n", "@x.setter\n", "@staticmethod\n", "@classmethod\n", "@no_grad()\n",
  "fn f(a, *args, b=1, **kw) { return kw }", "fn g(*, k) { }", "*args", "**kw", "f(*xs, **m)",
  "(**{})", "(*[])", "0 <= x <= 1", " < x < ", " == x != ", "1 < 2 > 0 not in [] in [[]]",
  "type(x) == int", "type(", "isinstance(x, [str, dict])", "getattr(x, \"a\", 1)",
  "hasattr(", "setattr(x, \"a\", 1)", "delattr(x, \"a\")", ".__name__", ".__class__",
  "fn truediv(o) { return o }", "callable(",
  /* Python's error classes and formatting (issue 27) */
  "catch ValueError as e ", "catch (KeyError, IndexError) ", "catch Error ", "throw ValueError(\"v\")",
  "class E(ValueError) { }", "e.args", "assert ", "assert x, \"m\"", "assert(x, \"m\")", "assert = ", "\"%d %s\" % ", "\"%(k)5.2f\" % {\"k\": 1}", "\"%*d\" % ",
  "\"{}{:>5}\".format(", "\"{0[1]}{x.y}\".format(", "\"{:{w}}\".format(", "f\"{x=}\"", "{x!r}",
  "{x=:.2f}", "{n:#_b}", "{p:.1%}", "format(", "except ", "def ", "None", "elif x:", "else:",
  /* tuples and unpacking (issue 27) */
  "(1, 2)", "(x,)", "()", "a, b = b, a", "a, *b = ", "*a, b = ", "let a, b = ", "let (a, (b, c)) = ",
  "let [a, *b] = ", "x, (y, z) = ", "self.h, self.c = ", "xs[i], xs[j] = ", "for i, (x, y) in ",
  "for *a, b in ", "[n for n, _ in ps]", "return a, b", "tuple(", "divmod(", "m[(1, 2)] += 1",
  "a = b = 0", " *", "t[(0, 1)]", ".count(", ".index(",
  /* generators, lambda and the iterator built-ins (issue 27) */
  "yield ", "yield", "let v = yield x", "fn g() { yield 1 }", "(x for x in xs)", "sum(x for x in xs)",
  "(x for x in xs if x for y in x)", ".send(", "lambda x: ", "lambda: ", "lambda x, y=1: ", "lambda ...r: ",
  "map(", "filter(nil, ", "zip(", "dict(", "dict(a=1)", "next(g, 0)", "fn iter() { yield self }",
  /* identity and the formatting methods (issue 27) */
  " is ", " is not ", "x is nil", "a is not b is c", "t.grad is t.grad", "fn format(spec) { return spec }",
  "fn repr() { return \"r\" }", "fn str() { return 1 }", "f\"{self:>5}\"", "format(self, \"x\")",
};
#define NTOKENS (sizeof TOKENS / sizeof TOKENS[0])

static void insert_token(Buf *b) {
  const char *t = TOKENS[below(NTOKENS)];
  insert(b, below(b->len + 1), t, strlen(t));
}

static void mutate_once(Buf *b, Buf *corpus, int ncorpus) {
  size_t at = below(b->len + 1);
  switch (below(12)) {
  case 0: { /* delete a line */
    size_t s = line_start(b, at);
    erase(b, s, line_end(b, at) - s);
    break;
  }
  case 1: { /* duplicate a line */
    size_t s = line_start(b, at), e = line_end(b, at);
    char *copy = malloc(e - s + 1);
    memcpy(copy, b->data + s, e - s);
    insert(b, e, copy, e - s);
    free(copy);
    break;
  }
  case 2: { /* move a line elsewhere (a swap, approximately) */
    size_t s = line_start(b, at), e = line_end(b, at), n = e - s;
    char *copy = malloc(n + 1);
    memcpy(copy, b->data + s, n);
    erase(b, s, n);
    size_t to = line_start(b, below(b->len + 1));
    insert(b, to, copy, n);
    free(copy);
    break;
  }
  case 3: /* delete a byte range */
    erase(b, at, 1 + below(20));
    break;
  case 4: { /* duplicate a byte range */
    size_t n = 1 + below(30);
    if (at + n > b->len) n = b->len - at;
    char *copy = malloc(n + 1);
    memcpy(copy, b->data + at, n);
    insert(b, below(b->len + 1), copy, n);
    free(copy);
    break;
  }
  case 5:
  case 6:
    insert_token(b);
    break;
  case 7: { /* random bytes, NUL and high bytes included */
    char bytes[8];
    size_t n = 1 + below(8);
    for (size_t i = 0; i < n; i++) bytes[i] = (char)below(256);
    insert(b, at, bytes, n);
    break;
  }
  case 8: /* overwrite a byte */
    if (b->len) b->data[below(b->len)] = (char)below(256);
    break;
  case 9: { /* splice in a chunk of another corpus file */
    Buf *o = &corpus[below((size_t)ncorpus)];
    if (!o->len) break;
    size_t s = below(o->len), n = 1 + below(200);
    if (s + n > o->len) n = o->len - s;
    insert(b, at, o->data + s, n);
    break;
  }
  case 10: { /* a deep run of one opening bracket or unary operator */
    static const char *open[] = {"(", "[", "-", "not ", "f\"{", "{\"k\": "};
    const char *t = open[below(6)];
    size_t depth = 10 + below(3000), tl = strlen(t);
    char *run = malloc(depth * tl + 1);
    for (size_t i = 0; i < depth; i++) memcpy(run + i * tl, t, tl);
    insert(b, at, run, depth * tl);
    free(run);
    break;
  }
  default: /* swap two adjacent bytes */
    if (at + 1 < b->len) {
      char c = b->data[at];
      b->data[at] = b->data[at + 1];
      b->data[at + 1] = c;
    }
    break;
  }
}

static Buf read_file(const char *path) {
  Buf b = {0};
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) insert(&b, b.len, chunk, n);
  fclose(f);
  return b;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: mutate SEED COUNT OUTDIR CORPUS_FILE...\n");
    return 2;
  }
  uint64_t seed = strtoull(argv[1], NULL, 10);
  long count = strtol(argv[2], NULL, 10);
  const char *outdir = argv[3];
  int ncorpus = argc - 4;
  Buf *corpus = calloc((size_t)ncorpus, sizeof *corpus);
  for (int i = 0; i < ncorpus; i++) corpus[i] = read_file(argv[4 + i]);

  for (long c = 0; c < count; c++) {
    rng_state = (seed + 1) * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)c + 1) * 0xBF58476D1CE4E5B9ULL;
    if (!rng_state) rng_state = 1;
    for (int i = 0; i < 4; i++) rng(); /* mix */
    Buf b = {0};
    size_t kind = below(100);
    if (kind < 4) { /* random tokens */
      size_t n = 1 + below(60);
      for (size_t i = 0; i < n; i++) insert_token(&b);
    } else if (kind < 6) { /* random bytes */
      size_t n = below(300);
      for (size_t i = 0; i < n; i++) { char ch = (char)below(256); insert(&b, b.len, &ch, 1); }
    } else {
      Buf *src = &corpus[below((size_t)ncorpus)];
      insert(&b, 0, src->data ? src->data : "", src->len);
      size_t n = 1 + below(4);
      for (size_t i = 0; i < n; i++) mutate_once(&b, corpus, ncorpus);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/case_%05ld.ag", outdir, c);
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); return 1; }
    if (b.len) fwrite(b.data, 1, b.len, f);
    fclose(f);
    free(b.data);
  }
  for (int i = 0; i < ncorpus; i++) free(corpus[i].data);
  free(corpus);
  return 0;
}
