/* io_csv.c — CSV files: numbers separated by commas, one row per line,
 * blank lines skipped, parsed in the C locale, into a float32 2-D tensor. */
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor/io_internal.h"

typedef struct {
  float *values;
  size_t count, cap;
  int64_t rows, cols; /* cols < 0 until the first row fixes it */
} CsvTable;

static bool csv_push(CsvTable *tab, float v) {
  if (tab->count == tab->cap) {
    size_t cap = tab->cap ? tab->cap * 2 : 256;
    float *grown = realloc(tab->values, cap * sizeof *grown);
    if (!grown) return false;
    tab->values = grown;
    tab->cap = cap;
  }
  tab->values[tab->count++] = v;
  return true;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Trims blanks and one pair of double quotes around a cell. */
static void trim_cell(const char **start, const char **end) {
  while (*start < *end && is_blank(**start)) (*start)++;
  while (*end > *start && is_blank((*end)[-1])) (*end)--;
  if (*end - *start >= 2 && **start == '"' && (*end)[-1] == '"') {
    (*start)++;
    (*end)--;
  }
}

static int64_t count_cells(const char *line, const char *end) {
  int64_t n = 1;
  for (const char *p = line; p < end; p++) n += *p == ',';
  return n;
}

static bool line_is_blank(const char *line, const char *end) {
  while (line < end && is_blank(*line)) line++;
  return line == end;
}

/* The number in [s, e) (already trimmed), parsed in the C locale so that a
 * locale with a decimal comma cannot change the result. */
static bool csv_number(const char *s, const char *e, locale_t c_locale, double *out) {
  char text[128];
  size_t n = (size_t)(e - s);
  if (n == 0 || n >= sizeof text) return false;
  memcpy(text, s, n);
  text[n] = '\0';
  char *stop;
  *out = strtod_l(text, &stop, c_locale);
  return *stop == '\0';
}

/* Parses one data line into the table; false with an error naming the cell. */
static bool csv_parse_line(CsvTable *tab, const char *line, const char *end, const char *path,
                           int64_t lineno, locale_t c_locale) {
  int64_t cells = count_cells(line, end);
  if (tab->cols >= 0 && cells != tab->cols) {
    tensor_set_error("cannot read %s: line %" PRId64 ": expected %" PRId64 " values, found %" PRId64,
                     path, lineno, tab->cols, cells);
    return false;
  }
  const char *cell = line;
  for (int64_t c = 0; c < cells; c++) {
    const char *cell_end = memchr(cell, ',', (size_t)(end - cell));
    if (!cell_end) cell_end = end;
    const char *s = cell, *e = cell_end;
    trim_cell(&s, &e);
    double v;
    if (!csv_number(s, e, c_locale, &v)) {
      int shown = e - s > 40 ? 40 : (int)(e - s);
      tensor_set_error("cannot read %s: line %" PRId64 ", column %" PRId64
                       ": cannot parse '%.*s' as a number",
                       path, lineno, c + 1, shown, s);
      return false;
    }
    if (!csv_push(tab, (float)v)) {
      tensor_set_error("cannot read %s: out of memory", path);
      return false;
    }
    cell = cell_end + 1;
  }
  tab->cols = cells;
  tab->rows++;
  return true;
}

static bool csv_parse(CsvTable *tab, const char *text, size_t len, const char *path, bool header) {
  locale_t c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (!c_locale) {
    tensor_set_error("cannot read %s: cannot create the C locale", path);
    return false;
  }
  const char *p = text, *end = text + len;
  if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3; /* a UTF-8 byte-order mark */
  bool ok = true;
  for (int64_t lineno = 1; ok && p < end; lineno++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    if (header && lineno == 1) {
      if (!line_is_blank(p, line_end)) tab->cols = count_cells(p, line_end);
    } else if (!line_is_blank(p, line_end)) {
      ok = csv_parse_line(tab, p, line_end, path, lineno, c_locale);
    }
    p = nl ? nl + 1 : end;
  }
  freelocale(c_locale);
  return ok;
}

Tensor *tensor_load_csv(const char *path, bool header) {
  uint8_t *buf;
  size_t len;
  if (!read_whole_file(path, &buf, &len)) return NULL;
  if (memchr(buf, '\0', len)) {
    tensor_set_error("cannot read %s: not a text file (it contains NUL bytes)", path);
    free(buf);
    return NULL;
  }
  CsvTable tab = {NULL, 0, 0, 0, -1};
  Tensor *t = NULL;
  if (csv_parse(&tab, (const char *)buf, len, path, header)) {
    int64_t shape[2] = {tab.rows, tab.cols < 0 ? 0 : tab.cols};
    t = tensor_empty(DT_FLOAT32, 2, shape);
    if (t && tab.count) memcpy(tensor_data(t), tab.values, tab.count * sizeof(float));
  }
  free(tab.values);
  free(buf);
  return t;
}
