/* format.c — Python's formatting, one implementation for f-strings,
 * format(), str.format and the % operator.
 *
 * The format spec mini-language: [[fill]align][sign][z][#][0][width]
 * [grouping][.precision][type], types b c d e E f F g G n o s x X % (or
 * none), as CPython's int.__format__, float.__format__ and str.__format__.
 * Float digits come from the C library's correctly rounded printf (glibc),
 * which gives CPython's digits; a float with no type and no precision is its
 * repr (vm_format_float). Widths count characters (UTF-8 code points).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/buffer.h"
#include "vm/internal.h"

#define FORMAT_MAX_WIDTH 100000   /* widths: CPython allows more; memory stays bounded */
#define FORMAT_MAX_PRECISION 1000 /* of a float */

typedef struct {
  char fill[5];  /* one character, UTF-8; "" when not given */
  char align;    /* '<' '>' '^' '=' or 0 for the type's default */
  char sign;     /* '+' '-' ' ', or 0 when not given */
  bool no_neg_zero; /* 'z': -0.0 shown as 0.0 after rounding */
  bool alternate;   /* '#' */
  bool zero_pad;    /* '0' before the width */
  int width;
  char grouping; /* ',' '_' or 0 */
  int precision; /* -1: not given */
  char type;     /* 0 when none */
  int min_digits; /* printf-style %.3d: at least this many digits (0: none) */
} FormatSpec;

/* ---- UTF-8 ---- */

static int utf8_char_len(const char *s) {
  unsigned char c = (unsigned char)*s;
  int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xC0) != 0x80) return 1;
  return n;
}

static int utf8_length(const char *s, size_t bytes) {
  int n = 0;
  for (size_t i = 0; i < bytes; i += (size_t)utf8_char_len(s + i)) n++;
  return n;
}

/* Bytes of the first `chars` characters of s. */
static size_t utf8_prefix(const char *s, size_t bytes, int chars) {
  size_t i = 0;
  for (int k = 0; k < chars && i < bytes; k++) i += (size_t)utf8_char_len(s + i);
  return i < bytes ? i : bytes;
}

static void utf8_encode(VmBuf *out, uint32_t c) {
  if (c < 0x80) {
    vm_buf_addc(out, (char)c);
  } else if (c < 0x800) {
    vm_buf_addc(out, (char)(0xC0 | (c >> 6)));
    vm_buf_addc(out, (char)(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    vm_buf_addc(out, (char)(0xE0 | (c >> 12)));
    vm_buf_addc(out, (char)(0x80 | ((c >> 6) & 0x3F)));
    vm_buf_addc(out, (char)(0x80 | (c & 0x3F)));
  } else {
    vm_buf_addc(out, (char)(0xF0 | (c >> 18)));
    vm_buf_addc(out, (char)(0x80 | ((c >> 12) & 0x3F)));
    vm_buf_addc(out, (char)(0x80 | ((c >> 6) & 0x3F)));
    vm_buf_addc(out, (char)(0x80 | (c & 0x3F)));
  }
}

/* ---- parsing the spec ---- */

static bool is_align(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

/* Digits into *n; false when the number is too large. */
static bool read_int(const char **p, int *n) {
  *n = 0;
  while (isdigit((unsigned char)**p)) {
    *n = *n * 10 + (*(*p)++ - '0');
    if (*n > FORMAT_MAX_WIDTH) return false;
  }
  return true;
}

static Value spec_error(AgVM *vm, const char *spec, Value v) {
  return vm_raise(vm, VM_ERR_VALUE, "Invalid format specifier '%s' for object of type '%s'", spec,
                  vm_type_name(v));
}

/* Parses spec into *f; false after throwing (v: the value, for messages). */
static bool parse_spec(AgVM *vm, const char *spec, Value v, FormatSpec *f) {
  *f = (FormatSpec){"", 0, 0, false, false, false, 0, 0, -1, 0, 0};
  const char *p = spec;
  int fill_len = *p ? utf8_char_len(p) : 0;
  if (*p && is_align(p[fill_len])) {
    memcpy(f->fill, p, (size_t)fill_len);
    f->fill[fill_len] = '\0';
    f->align = p[fill_len];
    p += fill_len + 1;
  } else if (is_align(*p)) {
    f->align = *p++;
  }
  if (*p == '+' || *p == '-' || *p == ' ') f->sign = *p++;
  if (*p == 'z') f->no_neg_zero = *p++ == 'z';
  if (*p == '#') f->alternate = *p++ == '#';
  if (*p == '0') f->zero_pad = *p++ == '0';
  bool ok = read_int(&p, &f->width);
  if (*p == ',' || *p == '_') f->grouping = *p++;
  if (ok && *p == '.') {
    p++;
    if (!isdigit((unsigned char)*p)) {
      vm_raise(vm, VM_ERR_VALUE, "Format specifier missing precision");
      return false;
    }
    ok = read_int(&p, &f->precision);
  }
  if (!ok) {
    vm_raise(vm, VM_ERR_VALUE, "Too many decimal digits in format string");
    return false;
  }
  if (*p) f->type = *p++;
  if (*p) {
    spec_error(vm, spec, v);
    return false;
  }
  return true;
}

/* '0' before the width: fill with zeros (unless a fill is given) and, for
 * numbers (default '>'), pad after the sign. */
static void resolve_zero_pad(FormatSpec *f, char default_align) {
  if (f->zero_pad && f->fill[0] == '\0') {
    strcpy(f->fill, "0");
    if (f->align == 0 && default_align == '>') f->align = '=';
  }
  if (f->fill[0] == '\0') strcpy(f->fill, " ");
  if (f->align == 0) f->align = default_align;
}

/* ---- assembling ---- */

static void pad(VmBuf *out, const char *fill, int n) {
  for (int i = 0; i < n; i++) vm_buf_adds(out, fill);
}

/* `lead` (sign and prefix) + `body` padded to the width: '=' pads between them. */
static void aligned(VmBuf *out, const FormatSpec *f, const char *lead, const char *body, size_t body_len) {
  int len = utf8_length(lead, strlen(lead)) + utf8_length(body, body_len);
  int extra = f->width > len ? f->width - len : 0;
  int before = f->align == '>' ? extra : f->align == '^' ? extra / 2 : 0;
  int after = f->align == '<' ? extra : f->align == '^' ? extra - extra / 2 : 0;
  pad(out, f->fill, before);
  vm_buf_adds(out, lead);
  if (f->align == '=') pad(out, f->fill, extra);
  vm_buf_add(out, body, body_len);
  pad(out, f->fill, after);
}

/* digits with a separator every `every` digits from the right. */
static void grouped(VmBuf *out, const char *digits, int n, char sep, int every) {
  for (int i = 0; i < n; i++) {
    if (i > 0 && (n - i) % every == 0) vm_buf_addc(out, sep);
    vm_buf_addc(out, digits[i]);
  }
}

static int grouped_len(int n, int every) { return n + (n > 0 ? (n - 1) / every : 0); }

/* A number: lead = sign and prefix, int_digits = the digits before the
 * point (grouped), rest = the point, fraction, exponent or '%'. Zero padding
 * with grouping pads with grouped zeros, as CPython does. */
static void number_out(VmBuf *out, const FormatSpec *f, const char *lead, const char *int_digits,
                       const char *rest, int every) {
  VmBuf digits, body;
  vm_buf_init(&digits);
  vm_buf_init(&body);
  int n = (int)strlen(int_digits);
  if (f->grouping && f->align == '=' && strcmp(f->fill, "0") == 0) {
    int room = f->width - (int)strlen(lead) - (int)strlen(rest);
    for (int z = n; grouped_len(z, every) < room; z++) vm_buf_addc(&digits, '0');
  }
  vm_buf_adds(&digits, int_digits);
  const char *all = digits.data ? digits.data : "";
  if (f->grouping) grouped(&body, all, (int)strlen(all), f->grouping, every);
  else vm_buf_adds(&body, all);
  vm_buf_adds(&body, rest);
  aligned(out, f, lead, body.data ? body.data : "", body.length);
  vm_buf_free(&digits);
  vm_buf_free(&body);
}

static const char *sign_of(const FormatSpec *f, bool negative) {
  return negative ? "-" : f->sign == '+' ? "+" : f->sign == ' ' ? " " : "";
}

/* ---- ints ---- */

static bool grouping_allowed(AgVM *vm, const FormatSpec *f) {
  if (!f->grouping) return true;
  char t = f->type;
  bool bad = f->grouping == ',' ? (t && strchr("bcnoxX", t)) : (t == 'n' || t == 'c');
  if (bad) vm_raise(vm, VM_ERR_VALUE, "Cannot specify '%c' with '%c'.", f->grouping, t);
  return !bad;
}

static void unsigned_digits(char *buf, uint64_t u, int base, bool upper) {
  const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char tmp[72];
  int n = 0;
  do {
    tmp[n++] = set[u % (uint64_t)base];
    u /= (uint64_t)base;
  } while (u > 0);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = '\0';
}

static bool int_char(AgVM *vm, VmBuf *out, const FormatSpec *f, int64_t i) {
  if (f->sign || f->alternate) {
    vm_raise(vm, VM_ERR_VALUE, f->sign ? "Sign not allowed with integer format specifier 'c'"
                                       : "Alternate form (#) not allowed with integer format specifier 'c'");
    return false;
  }
  if (i < 0 || i > 0x10FFFF) {
    vm_raise(vm, VM_ERR_OVERFLOW, "%%c arg not in range(0x110000)");
    return false;
  }
  VmBuf ch;
  vm_buf_init(&ch);
  utf8_encode(&ch, (uint32_t)i);
  aligned(out, f, "", ch.data, ch.length);
  vm_buf_free(&ch);
  return true;
}

static bool format_int(AgVM *vm, VmBuf *out, FormatSpec *f, int64_t i) {
  resolve_zero_pad(f, '>');
  if (f->precision >= 0 || f->no_neg_zero) {
    vm_raise(vm, VM_ERR_VALUE, f->no_neg_zero ? "Negative zero coercion (z) not allowed in integer format specifier"
                                              : "Precision not allowed in integer format specifier");
    return false;
  }
  if (!grouping_allowed(vm, f)) return false;
  if (f->type == 'c') return int_char(vm, out, f, i);
  int base = 10;
  const char *prefix = "";
  switch (f->type) {
  case 'b': base = 2, prefix = "0b"; break;
  case 'o': base = 8, prefix = "0o"; break;
  case 'x': base = 16, prefix = "0x"; break;
  case 'X': base = 16, prefix = "0X"; break;
  default: break;
  }
  char digits[80], lead[8];
  uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
  unsigned_digits(digits, u, base, f->type == 'X');
  int len = (int)strlen(digits);
  if (f->min_digits > len && f->min_digits < 70) { /* printf-style precision */
    memmove(digits + f->min_digits - len, digits, (size_t)len + 1);
    memset(digits, '0', (size_t)(f->min_digits - len));
  }
  snprintf(lead, sizeof lead, "%s%s", sign_of(f, i < 0), f->alternate ? prefix : "");
  number_out(out, f, lead, digits, "", base == 10 ? 3 : 4);
  return true;
}

/* ---- floats ---- */

/* Drops the zeros that end the fraction in s[0..end) (and a bare point),
 * keeping at least `keep` digits after the point. Returns the new end. */
static size_t strip_zeros(char *s, size_t end, int keep) {
  char *point = memchr(s, '.', end);
  if (point == NULL) return end;
  size_t min_end = (size_t)(point - s) + 1 + (size_t)keep;
  while (end > min_end && s[end - 1] == '0') end--;
  if (end == (size_t)(point - s) + 1) end--; /* "1." */
  return end;
}

/* '#': the mantissa keeps its point (repr 1e+16 becomes 1.e+16). */
static void alternate_point(char *buf, size_t size) {
  size_t mantissa = strcspn(buf, "eE");
  if (memchr(buf, '.', mantissa) || strlen(buf) + 2 > size || !isdigit((unsigned char)buf[0])) return;
  memmove(buf + mantissa + 1, buf + mantissa, strlen(buf + mantissa) + 1);
  buf[mantissa] = '.';
}

/* Python's float format with a precision and no type: 'g', but a fixed
 * notation keeps a digit after the point and so switches to an exponent
 * one digit earlier (format(100.0, '.3') is '1e+02', 10.0 is '10.0'). */
static void general_dot0(char *buf, size_t size, double a, int prec, bool alternate) {
  snprintf(buf, size, alternate ? "%#.*e" : "%.*e", prec - 1, a);
  char *e = strchr(buf, 'e');
  int exp10 = atoi(e + 1);
  if (exp10 < -4 || exp10 >= prec - 1) {
    if (alternate) return;
    char exponent[16];
    snprintf(exponent, sizeof exponent, "%s", e);
    size_t end = strip_zeros(buf, (size_t)(e - buf), 0);
    snprintf(buf + end, size - end, "%s", exponent);
    return;
  }
  snprintf(buf, size, alternate ? "%#.*f" : "%.*f", prec - 1 - exp10, a);
  size_t len = strlen(buf);
  if (!memchr(buf, '.', len)) snprintf(buf + len, size - len, ".0");
  else if (!alternate) buf[strip_zeros(buf, len, 1)] = '\0';
}

/* "nan"/"inf" or digits into buf for d >= 0 (its sign is shown apart). */
static void float_digits(const FormatSpec *f, double a, char *buf, size_t size) {
  char t = f->type;
  int prec = f->precision < 0 ? 6 : f->precision;
  bool upper = t == 'E' || t == 'F' || t == 'G';
  if (isnan(a) || isinf(a)) {
    snprintf(buf, size, "%s%s", isnan(a) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"),
             t == '%' ? "%" : "");
    return;
  }
  const char *alt = f->alternate ? "#" : "";
  char fmt[16];
  switch (t) {
  case 'f': case 'F': snprintf(fmt, sizeof fmt, "%%%s.*f", alt); snprintf(buf, size, fmt, prec, a); break;
  case 'e': case 'E': snprintf(fmt, sizeof fmt, "%%%s.*%c", alt, t); snprintf(buf, size, fmt, prec, a); break;
  case '%': snprintf(fmt, sizeof fmt, "%%%s.*f%%%%", alt); snprintf(buf, size, fmt, prec, a * 100); break;
  case 'g': case 'G': case 'n':
    snprintf(fmt, sizeof fmt, "%%%s.*%c", alt, t == 'G' ? 'G' : 'g');
    snprintf(buf, size, fmt, prec == 0 ? 1 : prec, a);
    break;
  default: /* none: repr, or 'g' with at least one digit after the point */
    if (f->precision < 0) {
      vm_format_float(a, buf, size);
      if (f->alternate) alternate_point(buf, size);
    } else {
      general_dot0(buf, size, a, prec == 0 ? 1 : prec, f->alternate);
    }
  }
}

/* The digits show a zero (for 'z'): no digit 1-9 before an exponent. */
static bool shows_zero(const char *s) {
  if (!isdigit((unsigned char)*s)) return false; /* nan, inf */
  for (; *s && *s != 'e' && *s != 'E'; s++)
    if (*s >= '1' && *s <= '9') return false;
  return true;
}

static bool format_float(AgVM *vm, VmBuf *out, FormatSpec *f, double d) {
  resolve_zero_pad(f, '>');
  if (!grouping_allowed(vm, f)) return false;
  if (f->precision > FORMAT_MAX_PRECISION) {
    vm_raise(vm, VM_ERR_VALUE, "precision too large (at most %d)", FORMAT_MAX_PRECISION);
    return false;
  }
  char buf[FORMAT_MAX_PRECISION + 400]; /* 309 integer digits, the point, the digits, '%' */
  float_digits(f, fabs(d), buf, sizeof buf);
  bool negative = signbit(d) && !(f->no_neg_zero && shows_zero(buf));
  size_t int_len = strspn(buf, "0123456789");
  char int_digits[sizeof buf];
  memcpy(int_digits, buf, int_len);
  int_digits[int_len] = '\0';
  if (int_len == 0) { /* nan, inf: no grouping, no zero padding from grouping */
    FormatSpec plain = *f;
    plain.grouping = 0;
    number_out(out, &plain, sign_of(f, negative), "", buf, 3);
  } else {
    number_out(out, f, sign_of(f, negative), int_digits, buf + int_len, 3);
  }
  return true;
}

/* ---- strings ---- */

/* What a string's spec may not hold, as CPython words it; NULL when fine. */
static const char *text_spec_problem(const FormatSpec *f) {
  if (f->sign) return "Sign not allowed in string format specifier";
  if (f->no_neg_zero) return "Negative zero coercion (z) not allowed in string format specifier";
  if (f->alternate) return "Alternate form (#) not allowed in string format specifier";
  if (f->align == '=') return "'=' alignment not allowed in string format specifier";
  return NULL;
}

static bool format_text(AgVM *vm, VmBuf *out, FormatSpec *f, const char *text, size_t len) {
  const char *problem = text_spec_problem(f);
  if (f->type && f->type != 's') vm_raise(vm, VM_ERR_VALUE, "Unknown format code '%c' for object of type 'str'", f->type);
  else if (problem) vm_raise(vm, VM_ERR_VALUE, "%s", problem);
  else if (f->grouping) vm_raise(vm, VM_ERR_VALUE, "Cannot specify '%c' with 's'.", f->grouping);
  if ((f->type && f->type != 's') || problem || f->grouping) return false;
  resolve_zero_pad(f, '<');
  if (f->precision >= 0) len = utf8_prefix(text, len, f->precision);
  aligned(out, f, "", text, len);
  return true;
}

/* ---- values ---- */

static bool unknown_code(AgVM *vm, const FormatSpec *f, Value v) {
  vm_raise(vm, VM_ERR_VALUE, "Unknown format code '%c' for object of type '%s'", f->type, vm_type_name(v));
  return false;
}

/* v: an int, a float or a bool. */
static bool format_number(AgVM *vm, VmBuf *out, FormatSpec *f, Value v) {
  bool int_type = f->type == 0 || strchr("bcdoxXn", f->type);
  bool float_type = f->type == 0 || strchr("eEfFgGn%", f->type);
  if (!IS_FLOAT(v)) {
    int64_t i = IS_BOOL(v) ? AS_BOOL(v) : AS_INT(v);
    if (int_type) return format_int(vm, out, f, i);
    if (float_type) return format_float(vm, out, f, (double)i);
    return unknown_code(vm, f, v);
  }
  if (!float_type) return unknown_code(vm, f, v);
  return format_float(vm, out, f, AS_FLOAT(v));
}

static bool is_numeric_spec(const FormatSpec *f) {
  return (f->type && f->type != 's') || f->grouping || f->precision >= 0 || f->sign || f->no_neg_zero ||
         f->align == '=' || f->alternate;
}

/* A tensor with a numeric spec formats its one element (PyTorch's
 * Tensor.__format__ uses item()); 0 when the spec is not numeric. */
static int format_tensor_item(AgVM *vm, Value v, const FormatSpec *f, Value *item) {
  if (!is_numeric_spec(f)) return 0;
  if (vm->plugins.tensor == NULL) {
    vm_tensors_unavailable(vm);
    return -1;
  }
  double d; /* throws the message for a tensor of several elements */
  if (!vm->plugins.tensor->to_number(vm, v, &d)) return -1;
  *item = vm_invoke_cstr(vm, v, "item", 0, NULL); /* an int, a float or a bool */
  return IS_EXCEPTION(*item) ? -1 : 1;
}

/* format(v, spec) of an instance, as Python's type(v).__format__: its
 * class's `format(spec)` method; without one, object.__format__, which is
 * str(v) for an empty spec (1: done, 0: format v as any value, -1: thrown). */
static int format_instance(AgVM *vm, VmBuf *out, Value v, const char *spec) {
  ObjClass *klass = AS_INSTANCE(v)->klass;
  ObjString *name = obj_string(vm, "format"); /* v is rooted by the caller */
  Value method;
  if (!table_get(&klass->methods, OBJ_VAL(name), &method)) {
    if (spec[0] == '\0') return 0;
    vm_raise(vm, VM_ERR_TYPE, "unsupported format string passed to %s.format", klass->name->chars);
    return -1;
  }
  vm_push_root(vm, OBJ_VAL(name));
  Value arg = OBJ_VAL(obj_string(vm, spec));
  vm_push_root(vm, arg);
  Value text = vm_invoke(vm, v, name, 1, &arg, NULL);
  vm_pop_roots(vm, 2);
  if (IS_EXCEPTION(text)) return -1;
  if (!IS_STRING(text)) {
    vm_raise(vm, VM_ERR_TYPE, "%s.format() must return a string, not %s", klass->name->chars, vm_type_name(text));
    return -1;
  }
  vm_buf_add(out, AS_CSTRING(text), (size_t)AS_STRING(text)->length);
  return 1;
}

/* Appends format(v, spec) to out; false after throwing. */
static bool format_into(AgVM *vm, VmBuf *out, Value v, const char *spec) {
  if (IS_INSTANCE(v)) {
    int done = format_instance(vm, out, v, spec);
    if (done != 0) return done > 0;
  }
  if (spec[0] == '\0') {
    Value s = vm_to_str(vm, v);
    if (IS_EXCEPTION(s)) return false;
    vm_buf_add(out, AS_CSTRING(s), (size_t)AS_STRING(s)->length);
    return true;
  }
  FormatSpec f;
  if (!parse_spec(vm, spec, v, &f)) return false;
  if (IS_NUMBER(v) || IS_BOOL(v)) return format_number(vm, out, &f, v);
  if (IS_TENSOR(v)) {
    Value item;
    int t = format_tensor_item(vm, v, &f, &item);
    if (t < 0) return false;
    if (t > 0) return format_number(vm, out, &f, item);
  }
  if (!IS_STRING(v) && f.type && f.type != 's') return unknown_code(vm, &f, v);
  Value s = vm_to_str(vm, v);
  if (IS_EXCEPTION(s)) return false;
  vm_push_root(vm, s);
  bool ok = format_text(vm, out, &f, AS_CSTRING(s), (size_t)AS_STRING(s)->length);
  vm_pop_root(vm);
  return ok;
}

static Value buf_result(AgVM *vm, VmBuf *out, bool ok) {
  if (!ok) {
    vm_buf_free(out);
    return VM_EXCEPTION;
  }
  return OBJ_VAL(vm_buf_to_string(vm, out));
}

Value vm_format_value(AgVM *vm, Value v, const char *spec) {
  VmBuf out;
  vm_buf_init(&out);
  bool ok = format_into(vm, &out, v, spec);
  return buf_result(vm, &out, ok);
}

/* v after a conversion: 'r' and 'a' repr, 's' str, 0 none. */
static Value converted(AgVM *vm, Value v, char conversion) {
  if (conversion == 'r' || conversion == 'a') return vm_to_repr(vm, v);
  if (conversion == 's') return vm_to_str(vm, v);
  return v;
}

Value vm_format_field(AgVM *vm, Value v, char conversion, const char *spec) {
  v = converted(vm, v, conversion);
  if (IS_EXCEPTION(v)) return v;
  vm_push_root(vm, v);
  Value s = vm_format_value(vm, v, spec);
  vm_pop_root(vm);
  return s;
}

/* ---- the % operator (printf-style) ---- */

typedef struct {
  const Value *items; /* the positional arguments */
  int count, next;
  Value mapping; /* a map, for %(name)s; nil otherwise */
} PercentArgs;

/* One %-conversion's flags, width and precision. */
typedef struct {
  bool left, zero, plus, space, alternate;
  int width, precision; /* precision -1: not given */
  char type;
} Conversion;

static bool next_arg(AgVM *vm, PercentArgs *a, Value *v) {
  if (a->next >= a->count) {
    vm_raise(vm, VM_ERR_TYPE, "not enough arguments for format string");
    return false;
  }
  *v = a->items[a->next++];
  return true;
}

/* `*` in a width or precision: the next argument, an int. */
static bool star_arg(AgVM *vm, PercentArgs *a, int *n) {
  Value v;
  if (!next_arg(vm, a, &v)) return false;
  if (!IS_INT(v)) {
    vm_raise(vm, VM_ERR_TYPE, "* wants int");
    return false;
  }
  int64_t i = AS_INT(v);
  *n = (int)(i > FORMAT_MAX_WIDTH ? FORMAT_MAX_WIDTH : i < -FORMAT_MAX_WIDTH ? -FORMAT_MAX_WIDTH : i);
  return true;
}

/* The value of %(name)s: mapping[name]. */
static bool mapped_arg(AgVM *vm, PercentArgs *a, const char **p, Value *v) {
  const char *start = *p;
  int depth = 1;
  while (**p && depth > 0) {
    depth += **p == '(' ? 1 : **p == ')' ? -1 : 0;
    (*p)++;
  }
  if (depth > 0) {
    vm_raise(vm, VM_ERR_VALUE, "incomplete format key");
    return false;
  }
  if (!IS_MAP(a->mapping)) {
    vm_raise(vm, VM_ERR_TYPE, "format requires a mapping");
    return false;
  }
  Value key = OBJ_VAL(obj_copy_string(vm, start, (int)(*p - start - 1)));
  vm_push_root(vm, key);
  *v = vm_get_index(vm, a->mapping, key);
  vm_pop_root(vm);
  return !IS_EXCEPTION(*v);
}

static bool conversion_spec(AgVM *vm, PercentArgs *a, const char **p, Conversion *c) {
  *c = (Conversion){false, false, false, false, false, 0, -1, 0};
  for (;; (*p)++) {
    char ch = **p;
    if (ch == '-') c->left = true;
    else if (ch == '0') c->zero = true;
    else if (ch == '+') c->plus = true;
    else if (ch == ' ') c->space = true;
    else if (ch == '#') c->alternate = true;
    else break;
  }
  if (**p == '*') {
    (*p)++;
    if (!star_arg(vm, a, &c->width)) return false;
    if (c->width < 0) c->left = true, c->width = -c->width;
  } else if (!read_int(p, &c->width)) {
    vm_raise(vm, VM_ERR_VALUE, "width too big");
    return false;
  }
  if (**p == '.') {
    (*p)++;
    if (**p == '*') {
      (*p)++;
      if (!star_arg(vm, a, &c->precision)) return false;
      if (c->precision < 0) c->precision = 0;
    } else if (!read_int(p, &c->precision)) {
      vm_raise(vm, VM_ERR_VALUE, "precision too big");
      return false;
    }
  }
  while (**p == 'h' || **p == 'l' || **p == 'L') (*p)++; /* C's length modifiers: ignored, as Python does */
  c->type = **p;
  return true;
}

static FormatSpec spec_of(const Conversion *c, bool numeric) {
  FormatSpec f = {" ", c->left ? '<' : '>', 0, false, c->alternate, false, c->width, 0, c->precision, 0, 0};
  if (numeric && c->zero && !c->left) strcpy(f.fill, "0"), f.align = '=';
  if (numeric) f.sign = c->plus ? '+' : c->space ? ' ' : 0;
  return f;
}

/* A number for %d %x %f ...: ints and bools as they are, a one-element
 * tensor as its item; 0 when v is not a number (nothing thrown). */
static int number_arg(AgVM *vm, Value v, Value *out) {
  if (IS_NUMBER(v) || IS_BOOL(v)) {
    *out = v;
    return 1;
  }
  if (!IS_TENSOR(v)) return 0;
  FormatSpec numeric = {"", 0, 0, false, false, false, 0, 0, -1, 'g', 0};
  return format_tensor_item(vm, v, &numeric, out);
}

static bool percent_int(AgVM *vm, VmBuf *out, const Conversion *c, Value v) {
  Value n;
  int got = number_arg(vm, v, &n);
  if (got < 0) return false;
  bool decimal = strchr("diu", c->type) != NULL;
  if (got == 0 || (IS_FLOAT(n) && !decimal)) {
    vm_raise(vm, VM_ERR_TYPE, "%%%c format: %s is required, not %s", c->type,
             decimal ? "a real number" : "an integer", vm_type_name(got ? n : v));
    return false;
  }
  if (IS_FLOAT(n)) {
    double d = trunc(AS_FLOAT(n));
    if (isnan(d)) return vm_raise(vm, VM_ERR_VALUE, "cannot convert float NaN to integer"), false;
    if (isinf(d)) return vm_raise(vm, VM_ERR_OVERFLOW, "cannot convert float infinity to integer"), false;
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) /* Ag's ints are 64-bit */
      return vm_raise(vm, VM_ERR_OVERFLOW, "%%%c format: %g does not fit in an int", c->type, d), false;
    n = INT_VAL(vm, (int64_t)d);
  }
  FormatSpec f = spec_of(c, true);
  f.type = decimal ? 'd' : c->type;
  f.precision = -1;
  f.min_digits = c->precision;
  return format_int(vm, out, &f, IS_BOOL(n) ? AS_BOOL(n) : AS_INT(n));
}

static bool percent_float(AgVM *vm, VmBuf *out, const Conversion *c, Value v) {
  Value n;
  int got = number_arg(vm, v, &n);
  if (got < 0) return false;
  if (got == 0) {
    vm_raise(vm, VM_ERR_TYPE, "must be real number, not %s", vm_type_name(v));
    return false;
  }
  FormatSpec f = spec_of(c, true);
  f.type = c->type;
  double d = IS_FLOAT(n) ? AS_FLOAT(n) : (double)(IS_BOOL(n) ? AS_BOOL(n) : AS_INT(n));
  return format_float(vm, out, &f, d);
}

static bool percent_char(AgVM *vm, VmBuf *out, const Conversion *c, Value v) {
  FormatSpec f = spec_of(c, false);
  f.alternate = false; /* '#' means nothing to %c */
  if (IS_STRING(v) && utf8_length(AS_CSTRING(v), (size_t)AS_STRING(v)->length) == 1) {
    aligned(out, &f, "", AS_CSTRING(v), (size_t)AS_STRING(v)->length);
    return true;
  }
  if (!IS_INT(v)) {
    vm_raise(vm, VM_ERR_TYPE, "%%c requires int or char, not %s", vm_type_name(v));
    return false;
  }
  return int_char(vm, out, &f, AS_INT(v));
}

static bool percent_text(AgVM *vm, VmBuf *out, const Conversion *c, Value v) {
  Value s = c->type == 's' ? vm_to_str(vm, v) : vm_to_repr(vm, v);
  if (IS_EXCEPTION(s)) return false;
  FormatSpec f = spec_of(c, false);
  size_t len = (size_t)AS_STRING(s)->length;
  if (f.precision >= 0) len = utf8_prefix(AS_CSTRING(s), len, f.precision);
  aligned(out, &f, "", AS_CSTRING(s), len);
  return true;
}

/* One conversion after its '%' (*p at the character after it). */
static bool percent_one(AgVM *vm, VmBuf *out, PercentArgs *a, const char *fmt, const char **p) {
  const char *start = *p;
  Value v = NIL_VAL;
  bool mapped = **p == '(';
  if (mapped) {
    (*p)++;
    if (!mapped_arg(vm, a, p, &v)) return false;
  }
  Conversion c;
  if (!conversion_spec(vm, a, p, &c)) return false;
  if (c.type == '\0') return vm_raise(vm, VM_ERR_VALUE, "incomplete format"), false;
  (*p)++;
  if (c.type == '%' && *p - start == 1) { /* "%%"; with flags or a width it is an error, as in CPython */
    vm_buf_addc(out, '%');
    return true;
  }
  if (!strchr("sradiuoxXeEfFgGc", c.type)) {
    vm_raise(vm, VM_ERR_VALUE, "unsupported format character '%c' (0x%x) at index %d", c.type,
             (unsigned char)c.type, (int)(*p - fmt - 1));
    return false;
  }
  if (!mapped && !next_arg(vm, a, &v)) return false;
  vm_push_root(vm, v);
  bool ok = strchr("sra", c.type)    ? percent_text(vm, out, &c, v)
            : strchr("diuoxX", c.type) ? percent_int(vm, out, &c, v)
            : c.type == 'c'            ? percent_char(vm, out, &c, v)
                                       : percent_float(vm, out, &c, v);
  vm_pop_root(vm);
  return ok;
}

Value vm_format_percent(AgVM *vm, ObjString *format, Value args) {
  PercentArgs a = {&args, 1, 0, IS_MAP(args) ? args : NIL_VAL};
  if (IS_TUPLE(args)) { /* several values: "%d %s" % (n, s) */
    a.items = AS_TUPLE(args)->items;
    a.count = AS_TUPLE(args)->count;
  }
  VmBuf out;
  vm_buf_init(&out);
  const char *fmt = format->chars, *p = fmt, *end = fmt + format->length;
  bool ok = true;
  while (ok && p < end) {
    const char *pct = memchr(p, '%', (size_t)(end - p));
    if (pct == NULL) pct = end;
    vm_buf_add(&out, p, (size_t)(pct - p));
    p = pct;
    if (p < end) {
      p++;
      ok = percent_one(vm, &out, &a, fmt, &p);
    }
  }
  /* as CPython, which skips this check when args can be indexed by key (a dict, a list) */
  if (ok && a.next < a.count && !IS_MAP(args) && !IS_LIST(args)) {
    vm_raise(vm, VM_ERR_TYPE, "not all arguments converted during string formatting");
    ok = false;
  }
  return buf_result(vm, &out, ok);
}

/* ---- str.format ---- */

typedef struct {
  int argc;
  const Value *args;
  const AgKwargs *kw;
  int auto_index; /* the next `{}`; -1 once a field was numbered by hand */
  bool numbered;  /* a field was numbered by hand: `{0}` */
  int depth;      /* nested fields in a spec: `{x:{width}}` */
} FormatArgs;

static bool format_string_into(AgVM *vm, VmBuf *out, const char *s, size_t n, FormatArgs *fa);

/* The argument a field names: "" (the next), digits (by position) or a name. */
static bool field_argument(AgVM *vm, FormatArgs *fa, const char *name, size_t n, Value *v) {
  if (n == 0 || isdigit((unsigned char)name[0])) {
    bool automatic = n == 0;
    if (automatic ? fa->numbered : fa->auto_index > 0) {
      vm_raise(vm, VM_ERR_VALUE, automatic ? "cannot switch from manual field specification to automatic field numbering"
                                           : "cannot switch from automatic field numbering to manual field specification");
      return false;
    }
    long index = automatic ? fa->auto_index++ : strtol(name, NULL, 10);
    if (!automatic) fa->numbered = true;
    if (index >= fa->argc) {
      vm_raise(vm, VM_ERR_INDEX, "Replacement index %ld out of range for positional args tuple", index);
      return false;
    }
    *v = fa->args[index];
    return true;
  }
  for (int k = 0; fa->kw && k < fa->kw->count; k++) {
    ObjString *key = fa->kw->names[k];
    if ((size_t)key->length == n && memcmp(key->chars, name, n) == 0) {
      *v = fa->kw->values[k];
      return true;
    }
  }
  vm_raise(vm, VM_ERR_KEY, "'%.*s'", (int)n, name);
  return false;
}

/* `.attr` and `[key]` after the argument's name: *v is replaced by each. */
static bool field_accessors(AgVM *vm, const char *p, const char *end, Value *v) {
  while (p < end) {
    bool attr = *p == '.';
    const char *start = ++p;
    while (p < end && (attr ? (*p != '.' && *p != '[') : *p != ']')) p++;
    if ((!attr && p >= end) || p == start) {
      vm_raise(vm, VM_ERR_VALUE, attr ? "Empty attribute in format string" : "Missing ']' in format string");
      return false;
    }
    size_t n = (size_t)(p - start);
    bool number = !attr && strspn(start, "0123456789") >= n;
    vm_push_root(vm, *v); /* the object, while its key is made */
    Value key = number ? INT_VAL(vm, strtoll(start, NULL, 10)) : OBJ_VAL(obj_copy_string(vm, start, (int)n));
    vm_push_root(vm, key);
    *v = attr ? vm_get_attr(vm, *v, AS_STRING(key)) : vm_get_index(vm, *v, key);
    vm_pop_roots(vm, 2);
    if (IS_EXCEPTION(*v)) return false;
    if (!attr) p++; /* the ']' */
    if (p < end && *p != '.' && *p != '[') {
      vm_raise(vm, VM_ERR_VALUE, "Only '.' or '[' may follow ']' in format field specifier");
      return false;
    }
  }
  return true;
}

static bool field_with_spec(AgVM *vm, VmBuf *out, Value v, const char *p, const char *end, FormatArgs *fa);

/* One replacement field's inside: name[!conversion][:spec]. */
static bool format_field(AgVM *vm, VmBuf *out, const char *s, size_t n, FormatArgs *fa) {
  const char *end = s + n, *p = s;
  while (p < end && *p != '!' && *p != ':' && *p != '.' && *p != '[') p++;
  const char *accessors = p;
  for (int bracket = 0; p < end && (bracket || (*p != '!' && *p != ':')); p++) bracket = *p == '[' ? 1 : *p == ']' ? 0 : bracket;
  Value v;
  if (!field_argument(vm, fa, s, (size_t)(accessors - s), &v)) return false;
  if (!field_accessors(vm, accessors, p, &v)) return false;
  vm_push_root(vm, v); /* while the spec's nested fields are formatted */
  bool ok = field_with_spec(vm, out, v, p, end, fa);
  vm_pop_root(vm);
  return ok;
}

/* The rest of a field after its value v: [!conversion][:spec]. */
static bool field_with_spec(AgVM *vm, VmBuf *out, Value v, const char *p, const char *end, FormatArgs *fa) {
  char conversion = 0;
  if (p < end && *p == '!') {
    conversion = p + 1 < end ? p[1] : 0;
    if (conversion != 'r' && conversion != 's' && conversion != 'a') {
      vm_raise(vm, VM_ERR_VALUE, "Unknown conversion specifier %c", conversion ? conversion : '!');
      return false;
    }
    p += 2;
    if (p < end && *p != ':') {
      vm_raise(vm, VM_ERR_VALUE, "expected ':' after conversion specifier");
      return false;
    }
  }
  VmBuf spec; /* with its nested fields replaced */
  vm_buf_init(&spec);
  bool ok = true;
  if (p < end) {
    fa->depth++;
    ok = fa->depth <= 2 ? format_string_into(vm, &spec, p + 1, (size_t)(end - p - 1), fa)
                        : (vm_raise(vm, VM_ERR_VALUE, "Max string recursion exceeded"), false);
    fa->depth--;
  }
  if (ok) {
    v = converted(vm, v, conversion);
    ok = !IS_EXCEPTION(v);
  }
  if (ok) {
    vm_push_root(vm, v);
    ok = format_into(vm, out, v, spec.data ? spec.data : "");
    vm_pop_root(vm);
  }
  vm_buf_free(&spec);
  return ok;
}

/* The end of the field opened at s[0] == '{' (its matching '}'), or NULL. */
static const char *field_end(const char *s, const char *end) {
  int depth = 0;
  for (const char *p = s; p < end; p++) {
    if (*p == '{') depth++;
    else if (*p == '}' && --depth == 0) return p;
  }
  return NULL;
}

static bool format_string_into(AgVM *vm, VmBuf *out, const char *s, size_t n, FormatArgs *fa) {
  const char *p = s, *end = s + n;
  while (p < end) {
    char c = *p;
    if ((c == '{' || c == '}') && p + 1 < end && p[1] == c) {
      vm_buf_addc(out, c);
      p += 2;
    } else if (c == '}') {
      vm_raise(vm, VM_ERR_VALUE, "Single '}' encountered in format string");
      return false;
    } else if (c == '{') {
      const char *close = field_end(p, end);
      if (close == NULL) {
        vm_raise(vm, VM_ERR_VALUE, p + 1 < end ? "expected '}' before end of string" : "Single '{' encountered in format string");
        return false;
      }
      if (!format_field(vm, out, p + 1, (size_t)(close - p - 1), fa)) return false;
      p = close + 1;
    } else {
      vm_buf_addc(out, c);
      p++;
    }
  }
  return true;
}

Value vm_format_method(AgVM *vm, ObjString *format, int argc, const Value *args, const AgKwargs *kw) {
  FormatArgs fa = {argc, args, kw, 0, false, 0};
  VmBuf out;
  vm_buf_init(&out);
  bool ok = format_string_into(vm, &out, format->chars, (size_t)format->length, &fa);
  return buf_result(vm, &out, ok);
}
