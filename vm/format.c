/* format.c — f-string format specs: a subset of Python's mini-language,
 * [[fill]align][sign][0][width][,][.precision][type] with types
 * d f e g % s (or none). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vm/buffer.h"
#include "vm/internal.h"

typedef struct {
  char fill;
  char align; /* '<' '>' '^' '=' or 0 for the type's default */
  char sign;  /* '+' '-' ' ' */
  int width;
  bool comma;
  int precision; /* -1: not given */
  char type;     /* 0 when none */
} FormatSpec;

static bool is_align(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

static int read_int(const char **p) {
  int n = 0;
  while (isdigit((unsigned char)**p) && n < 100000) n = n * 10 + (*(*p)++ - '0');
  return n;
}

static bool parse_spec(const char *s, FormatSpec *f) {
  *f = (FormatSpec){' ', 0, '-', 0, false, -1, 0};
  const char *p = s;
  if (p[0] && is_align(p[1])) {
    f->fill = p[0];
    f->align = p[1];
    p += 2;
  } else if (is_align(p[0])) {
    f->align = *p++;
  }
  if (*p == '+' || *p == '-' || *p == ' ') f->sign = *p++;
  if (*p == '0') {
    if (f->align == 0) {
      f->fill = '0';
      f->align = '=';
    }
    p++;
  }
  f->width = read_int(&p);
  if (*p == ',') {
    f->comma = true;
    p++;
  }
  if (*p == '.') {
    p++;
    if (!isdigit((unsigned char)*p)) return false;
    f->precision = read_int(&p);
  }
  if (*p && strchr("dfeg%s", *p)) f->type = *p++;
  return *p == '\0';
}

/* Inserts thousands separators into the integer digits of `num`. */
static void add_commas(VmBuf *out, const char *num) {
  const char *end = num;
  while (isdigit((unsigned char)*end)) end++;
  int digits = (int)(end - num);
  for (int i = 0; i < digits; i++) {
    if (i > 0 && (digits - i) % 3 == 0) vm_buf_addc(out, ',');
    vm_buf_addc(out, num[i]);
  }
  vm_buf_adds(out, end);
}

/* The digits of |v| (the sign is added by the caller). */
static void number_body(const FormatSpec *f, Value v, VmBuf *out) {
  char tmp[512];
  int prec = f->precision < 0 ? 6 : f->precision;
  if (prec > 100) prec = 100;
  bool is_int = IS_INT(v) || IS_BOOL(v);
  int64_t i = IS_BOOL(v) ? AS_BOOL(v) : is_int ? AS_INT(v) : 0;
  double d = IS_BOOL(v) ? (double)i : AS_NUMBER(v);
  double a = fabs(d);
  if (is_int && (f->type == 'd' || f->type == 0)) {
    snprintf(tmp, sizeof tmp, "%llu", i < 0 ? 0 - (unsigned long long)i : (unsigned long long)i);
  } else if (isnan(d)) snprintf(tmp, sizeof tmp, "nan");
  else if (isinf(d)) snprintf(tmp, sizeof tmp, "inf");
  else if (f->type == 'f') snprintf(tmp, sizeof tmp, "%.*f", prec, a);
  else if (f->type == 'e') snprintf(tmp, sizeof tmp, "%.*e", prec, a);
  else if (f->type == 'g') snprintf(tmp, sizeof tmp, "%.*g", prec == 0 ? 1 : prec, a);
  else if (f->type == '%') snprintf(tmp, sizeof tmp, "%.*f%%", prec, a * 100);
  else if (f->precision >= 0) snprintf(tmp, sizeof tmp, "%.*g", prec == 0 ? 1 : prec, a);
  else vm_format_float(a, tmp, sizeof tmp);
  if (f->comma) add_commas(out, tmp);
  else vm_buf_adds(out, tmp);
}

static void pad(VmBuf *out, char fill, int n) {
  for (int i = 0; i < n; i++) vm_buf_addc(out, fill);
}

/* Pads `sign` + `body` to the width with the alignment rules. */
static ObjString *aligned(AgVM *vm, const FormatSpec *f, const char *sign, const char *body, char default_align) {
  int len = (int)(strlen(sign) + strlen(body));
  int extra = f->width > len ? f->width - len : 0;
  char align = f->align ? f->align : default_align;
  VmBuf out;
  vm_buf_init(&out);
  if (align == '>') pad(&out, f->fill, extra);
  if (align == '^') pad(&out, f->fill, extra / 2);
  vm_buf_adds(&out, sign);
  if (align == '=') pad(&out, f->fill, extra);
  vm_buf_adds(&out, body);
  if (align == '<') pad(&out, f->fill, extra);
  if (align == '^') pad(&out, f->fill, extra - extra / 2);
  return vm_buf_to_string(vm, &out);
}

/* v: a number or a bool. */
static Value format_number(AgVM *vm, const FormatSpec *f, Value v) {
  if (f->type == 'd' && IS_FLOAT(v)) {
    return vm_raise(vm, VM_ERR_VALUE, "format code 'd' is for ints, not float (use int(x) or '.0f')");
  }
  bool negative = IS_FLOAT(v) ? signbit(AS_FLOAT(v)) && !isnan(AS_FLOAT(v)) : IS_INT(v) && AS_INT(v) < 0;
  const char *sign = "";
  if (negative) sign = "-";
  else if (f->sign == '+') sign = "+";
  else if (f->sign == ' ') sign = " ";
  VmBuf body;
  vm_buf_init(&body);
  number_body(f, v, &body);
  ObjString *s = aligned(vm, f, sign, body.data ? body.data : "", '>');
  vm_buf_free(&body);
  return OBJ_VAL(s);
}

static bool is_numeric_spec(const FormatSpec *f) {
  return (f->type && f->type != 's') || f->comma || f->precision >= 0 || f->sign != '-' || f->align == '=';
}

Value vm_format_value(AgVM *vm, Value v, const char *spec) {
  FormatSpec f;
  if (!parse_spec(spec, &f)) return vm_raise(vm, VM_ERR_VALUE, "invalid format spec '%s'", spec);
  if (IS_NUMBER(v) && f.type != 's') return format_number(vm, &f, v);
  if (IS_TENSOR(v) && is_numeric_spec(&f)) {
    if (vm->tensor_hooks == NULL) return vm_tensors_unavailable(vm);
    double d; /* throws the message for a tensor of several elements */
    if (!vm->tensor_hooks->to_number(vm, v, &d)) return VM_EXCEPTION;
    Value item = vm_invoke_cstr(vm, v, "item", 0, NULL); /* an int, a float or a bool */
    if (IS_EXCEPTION(item)) return item;
    return format_number(vm, &f, item);
  }
  if (f.type && f.type != 's') {
    return vm_raise(vm, VM_ERR_VALUE, "format code '%c' is not for a %s", f.type, vm_type_name(v));
  }
  Value s = vm_to_str(vm, v);
  if (IS_EXCEPTION(s)) return s;
  if (f.width == 0 && f.precision < 0) return s;
  vm_push_root(vm, s);
  char *text = AS_CSTRING(s);
  VmBuf cut;
  vm_buf_init(&cut);
  /* A precision truncates a string, as in Python. */
  size_t n = strlen(text);
  if (f.precision >= 0 && (size_t)f.precision < n) n = (size_t)f.precision;
  vm_buf_add(&cut, text, n);
  ObjString *out = aligned(vm, &f, "", cut.data ? cut.data : "", '<');
  vm_buf_free(&cut);
  vm_pop_root(vm);
  return OBJ_VAL(out);
}
