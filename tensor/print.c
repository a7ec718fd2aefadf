/* print.c — PyTorch 1.13's tensor repr (torch/_tensor_str.py), in C.
 *
 * One formatter per tensor decides the mode (integer-valued floats as `2.`,
 * fixed `0.1000`, or scientific `1.0000e-05`) and a common column width from
 * the elements that will actually be shown; the layout pass then walks the
 * tensor dimension by dimension, wrapping rows at 80 columns and replacing
 * the middle of long dimensions by `...` when the tensor has more than 1000
 * elements. Elements are read straight from strided storage, so views print
 * without a copy and int64 values keep all their digits.
 */
#include "tensor/print.h"
#include "tensor/tensor_internal.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  ELEMENT_CAP = 400 /* longest formatted element: DBL_MAX in fixed notation, 30 decimals */
};

/* PyTorch's PRINT_OPTS: one setting for the process, as PyTorch's */
static TensorPrintOptions print_opts = TENSOR_PRINT_DEFAULTS;

TensorPrintOptions tensor_print_options(void) { return print_opts; }

void tensor_set_print_options(const TensorPrintOptions *o) { print_opts = *o; }

/* ---- a growable string ---- */

typedef struct {
  char *data;
  size_t len, cap;
  bool failed; /* an allocation failed: the result is discarded */
} StrBuf;

static void sb_reserve(StrBuf *sb, size_t extra) {
  if (sb->failed || sb->len + extra + 1 <= sb->cap) return;
  size_t cap = sb->cap ? sb->cap : 64;
  while (cap < sb->len + extra + 1) cap *= 2;
  char *grown = realloc(sb->data, cap);
  if (!grown) {
    sb->failed = true;
    return;
  }
  sb->data = grown;
  sb->cap = cap;
}

static void sb_append_n(StrBuf *sb, const char *s, size_t n) {
  sb_reserve(sb, n);
  if (sb->failed) return;
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

static void sb_append(StrBuf *sb, const char *s) { sb_append_n(sb, s, strlen(s)); }

static void sb_repeat(StrBuf *sb, char c, int n) {
  for (int i = 0; i < n; i++) sb_append_n(sb, &c, 1);
}

/* Hands the text to the caller, or NULL (error set) if memory ran out. */
static char *sb_finish(StrBuf *sb) {
  if (sb->failed || !sb->data) {
    free(sb->data);
    tensor_set_error("out of memory while printing a tensor");
    return NULL;
  }
  return sb->data;
}

/* ---- reading elements ---- */

static const char *storage_base(const Tensor *t) { return (const char *)t->storage->data; }

/* float16 and bfloat16 elements are read as floats: PyTorch formats them
 * converted to float32. */
static double element_double(const Tensor *t, int64_t off) {
  return tensor_load_double(t->dtype, storage_base(t) + (size_t)off * dtype_size(t->dtype));
}

static int64_t element_int(const Tensor *t, int64_t off) {
  const char *p = storage_base(t);
  if (t->dtype == DT_INT64) return ((const int64_t *)p)[off];
  return (int64_t)element_double(t, off); /* the narrower integers are exact as doubles */
}

/* Calls visit(ctx, offset) for every element the repr shows: all of them, or,
 * when summarising, only the first and last print_opts.edgeitems along each long
 * dimension (PyTorch's get_summarized_data). */
typedef void (*ElementVisitor)(void *ctx, const Tensor *t, int64_t offset);

static bool dim_is_cut(const Tensor *t, int dim, bool summarize) {
  return summarize && t->shape[dim] > 2 * print_opts.edgeitems;
}

static void visit_shown(const Tensor *t, int dim, int64_t off, bool summarize,
                        ElementVisitor visit, void *ctx) {
  if (dim == t->ndim) {
    visit(ctx, t, off);
    return;
  }
  int64_t n = t->shape[dim];
  for (int64_t i = 0; i < n; i++) {
    if (dim_is_cut(t, dim, summarize) && i == print_opts.edgeitems) i = n - print_opts.edgeitems;
    visit_shown(t, dim + 1, off + i * t->stride[dim], summarize, visit, ctx);
  }
}

/* ---- the formatter (PyTorch's _Formatter) ---- */

typedef struct {
  DType dtype;
  bool int_mode; /* floats: every finite value is integral */
  bool sci_mode;
  int width; /* column width: the longest formatted shown element */
} Formatter;

typedef struct {
  bool any;          /* saw a finite nonzero value */
  bool all_integral; /* ... and all of them are integers */
  double min_abs, max_abs;
} FloatStats;

static void collect_float_stats(void *ctx, const Tensor *t, int64_t off) {
  FloatStats *st = ctx;
  double v = element_double(t, off);
  if (!isfinite(v) || v == 0) return;
  double a = fabs(v);
  if (!st->any || a < st->min_abs) st->min_abs = a;
  if (!st->any || a > st->max_abs) st->max_abs = a;
  if (v != ceil(v)) st->all_integral = false;
  st->any = true;
}

/* Python's "{:.4f}" / "{:.4e}" / "{:.0f}" of one value, unpadded. */
static int format_float_raw(char *buf, const Formatter *f, double v) {
  if (isnan(v)) return snprintf(buf, ELEMENT_CAP, "nan"); /* never "-nan" */
  if (f->sci_mode) return snprintf(buf, ELEMENT_CAP, "%.*e", print_opts.precision, v);
  if (f->int_mode)
    return snprintf(buf, ELEMENT_CAP, isfinite(v) ? "%.0f." : "%.0f", v);
  return snprintf(buf, ELEMENT_CAP, "%.*f", print_opts.precision, v);
}

static int format_raw(char *buf, const Formatter *f, const Tensor *t, int64_t off) {
  switch (dtype_kind(t->dtype)) {
  case DK_BOOL: return snprintf(buf, ELEMENT_CAP, "%s", element_int(t, off) ? "true" : "false");
  case DK_INT: return snprintf(buf, ELEMENT_CAP, "%" PRId64, element_int(t, off));
  default: return format_float_raw(buf, f, element_double(t, off));
  }
}

/* Width of the finite nonzero values (floats) or of every value (others):
 * PyTorch ignores zeros and non-finite values when sizing float columns. */
static void widen_for_element(void *ctx, const Tensor *t, int64_t off) {
  Formatter *f = ctx;
  char buf[ELEMENT_CAP];
  if (dtype_is_float(t->dtype)) {
    double v = element_double(t, off);
    if (!isfinite(v) || v == 0) return;
  }
  int len = format_raw(buf, f, t, off);
  if (len > f->width) f->width = len;
}

static Formatter formatter_make(const Tensor *t, bool summarize) {
  Formatter f = {t->dtype, true, false, 1};
  if (dtype_is_float(t->dtype)) {
    FloatStats st = {false, true, 0, 0};
    visit_shown(t, 0, t->offset, summarize, collect_float_stats, &st);
    if (!st.any) return f;
    f.int_mode = st.all_integral;
    bool wide_range = st.max_abs / st.min_abs > 1000.0 || st.max_abs > 1.0e8;
    f.sci_mode = wide_range || (!f.int_mode && st.min_abs < 1.0e-4);
    visit_shown(t, 0, t->offset, summarize, widen_for_element, &f);
    /* set_printoptions(sci_mode=) applies after the widths, as in PyTorch */
    if (print_opts.sci_mode >= 0) f.sci_mode = print_opts.sci_mode == 1;
    return f;
  }
  visit_shown(t, 0, t->offset, summarize, widen_for_element, &f);
  return f;
}

static void append_element(StrBuf *sb, const Formatter *f, const Tensor *t, int64_t off) {
  char buf[ELEMENT_CAP];
  int len = format_raw(buf, f, t, off);
  sb_repeat(sb, ' ', f->width - len);
  sb_append(sb, buf);
}

/* ---- layout (PyTorch's _vector_str and _tensor_str_with_formatter) ---- */

static void append_vector(StrBuf *sb, const Formatter *f, const Tensor *t, int64_t off,
                          int indent, bool summarize) {
  int dim = t->ndim - 1;
  int64_t n = t->shape[dim];
  int element_length = f->width + 2; /* the element plus ", " */
  int per_line = (print_opts.linewidth - indent) / element_length;
  if (per_line < 1) per_line = 1;
  bool cut = dim_is_cut(t, dim, summarize);
  int64_t shown = cut ? 2 * print_opts.edgeitems + 1 : n; /* the `...` counts as one */
  sb_append(sb, "[");
  for (int64_t k = 0; k < shown; k++) {
    if (k > 0 && k % per_line == 0) {
      sb_append(sb, ",\n");
      sb_repeat(sb, ' ', indent + 1);
    } else if (k > 0) {
      sb_append(sb, ", ");
    }
    if (cut && k == print_opts.edgeitems) {
      sb_append(sb, " ...");
      continue;
    }
    int64_t i = cut && k > print_opts.edgeitems ? n - (shown - k) : k;
    append_element(sb, f, t, off + i * t->stride[dim]);
  }
  sb_append(sb, "]");
}

static void append_nested(StrBuf *sb, const Formatter *f, const Tensor *t, int dim,
                          int64_t off, int indent, bool summarize) {
  if (dim == t->ndim - 1) {
    append_vector(sb, f, t, off, indent, summarize);
    return;
  }
  int64_t n = t->shape[dim];
  bool cut = dim_is_cut(t, dim, summarize);
  int remaining_dims = t->ndim - dim;
  sb_append(sb, "[");
  for (int64_t i = 0; i < n; i++) {
    if (i > 0) {
      sb_append(sb, ",");
      sb_repeat(sb, '\n', remaining_dims - 1);
      sb_repeat(sb, ' ', indent + 1);
    }
    if (cut && i == print_opts.edgeitems) {
      sb_append(sb, "...,");
      sb_repeat(sb, '\n', remaining_dims - 1);
      sb_repeat(sb, ' ', indent + 1);
      i = n - print_opts.edgeitems;
    }
    append_nested(sb, f, t, dim + 1, off + i * t->stride[dim], indent + 1, summarize);
  }
  sb_append(sb, "]");
}

/* PyTorch's _tensor_str: the bracketed body for a tensor printed at `indent`. */
static void append_body(StrBuf *sb, const Tensor *t, int indent) {
  if (t->numel == 0) {
    sb_append(sb, "[]");
    return;
  }
  bool summarize = t->numel > print_opts.threshold;
  Formatter f = formatter_make(t, summarize);
  if (t->ndim == 0)
    append_element(sb, &f, t, t->offset);
  else
    append_nested(sb, &f, t, 0, t->offset, indent, summarize);
}

/* printf's %f follows LC_NUMERIC; PyTorch always writes a decimal point, so
 * the formatting runs under the C locale whatever the embedder set. */
typedef struct {
  locale_t c_locale, saved;
} NumericLocale;

static void numeric_locale_enter(NumericLocale *nl) {
  nl->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  nl->saved = nl->c_locale ? uselocale(nl->c_locale) : (locale_t)0;
}

static void numeric_locale_leave(NumericLocale *nl) {
  if (!nl->c_locale) return;
  uselocale(nl->saved);
  freelocale(nl->c_locale);
}

char *tensor_body_str(const Tensor *t) {
  StrBuf sb = {0};
  NumericLocale nl;
  numeric_locale_enter(&nl);
  append_body(&sb, t, 0);
  numeric_locale_leave(&nl);
  return sb_finish(&sb);
}

/* ---- suffixes (PyTorch's _add_suffixes) ---- */

/* Appends ", suffix", or ",\n<indent>suffix" when the line would pass 80
 * columns. The line-length bookkeeping copies PyTorch's, including its
 * off-by-two, since that decides where the wrap happens. */
static void append_suffixes(StrBuf *sb, const char *const *suffixes, int n, int indent) {
  if (sb->failed) return;
  const char *last_newline = strrchr(sb->data, '\n');
  size_t last_line_len =
      last_newline ? (size_t)(sb->data + sb->len - last_newline) + 1 : sb->len + 2;
  for (int i = 0; i < n; i++) {
    size_t len = strlen(suffixes[i]);
    /* PyTorch writes "dtype=torch.float64": its wrap counts the "torch." */
    size_t width = len + (strncmp(suffixes[i], "dtype=", 6) == 0 ? 6 : 0);
    if (last_line_len + width + 2 > (size_t)print_opts.linewidth) {
      sb_append(sb, ",\n");
      sb_repeat(sb, ' ', indent);
      last_line_len = (size_t)indent + width;
    } else {
      sb_append(sb, ", ");
      last_line_len += width + 2;
    }
    sb_append(sb, suffixes[i]);
  }
  sb_append(sb, ")");
}

/* "size=(0, 3)" as Python prints a tuple. */
static void format_size_suffix(char *buf, size_t cap, const Tensor *t) {
  size_t used = (size_t)snprintf(buf, cap, "size=(");
  for (int d = 0; d < t->ndim && used < cap; d++)
    used += (size_t)snprintf(buf + used, cap - used, "%s%" PRId64, d ? ", " : "", t->shape[d]);
  if (used < cap) snprintf(buf + used, cap - used, t->ndim == 1 ? ",)" : ")");
}

char *tensor_repr(const Tensor *t, const char *const *extras, int nextras) {
  static const char prefix[] = "tensor(";
  const int indent = (int)sizeof prefix - 1;
  char size_suffix[TENSOR_MAX_DIMS * 24 + 16];
  char dtype_suffix[32];
  const char *suffixes[2 + 64];
  int n = 0;
  if (nextras < 0 || nextras > 64) {
    tensor_set_error("tensor_repr: too many suffixes (%d)", nextras);
    return NULL;
  }
  /* float32, int64 and bool are PyTorch's "default" dtypes, never named,
   * except that an empty tensor names every dtype but float32. */
  bool default_dtype = t->dtype == DT_FLOAT32 || t->dtype == DT_INT64 || t->dtype == DT_BOOL;
  bool empty = t->numel == 0;
  if (empty && t->ndim != 1) {
    format_size_suffix(size_suffix, sizeof size_suffix, t);
    suffixes[n++] = size_suffix;
  }
  if (empty ? t->dtype != DT_FLOAT32 : !default_dtype) {
    snprintf(dtype_suffix, sizeof dtype_suffix, "dtype=%s", dtype_name(t->dtype));
    suffixes[n++] = dtype_suffix;
  }
  for (int i = 0; i < nextras; i++) suffixes[n++] = extras[i];
  StrBuf sb = {0};
  NumericLocale nl;
  numeric_locale_enter(&nl);
  sb_append(&sb, prefix);
  append_body(&sb, t, indent);
  append_suffixes(&sb, suffixes, n, indent);
  numeric_locale_leave(&nl);
  return sb_finish(&sb);
}
