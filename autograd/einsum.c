/* einsum.c — torch.einsum as PyTorch 1.13 computes it, from the
 * differentiable ops, so that its gradient (and its graph's node names:
 * PermuteBackward0, DiagonalBackward0, SumBackward1, BmmBackward0,
 * ViewBackward0, ...) comes from the parts.
 *
 * 1. Parse: each operand's subscripts (A-Z then a-z, 52 labels, and at
 *    most one "..."), and the output's: explicit after "->", or implicit
 *    (the ellipsis dims, then the labels used once, in label order).
 * 2. Align: every operand is permuted to one layout, the output's dims
 *    first and the summed ones after; a repeated label takes a diagonal,
 *    a missing one is unsqueezed as a dim of size 1.
 * 3. Contract left to right, pair by pair (sumproduct): a dim no later
 *    operand uses is summed as soon as possible, the others multiplied by
 *    permuting both operands into batched matrices for one bmm.
 * 4. The summed dims (size 1 after contraction) are viewed away, or
 *    summed for a single operand.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

enum { LETTERS = 26, LABELS = 2 * LETTERS, ELLIPSIS = LABELS };

static int label_of(unsigned char c) { return c <= 'Z' ? c - 'A' : c - 'a' + LETTERS; }
static char letter_of(int label) {
  return (char)(label < LETTERS ? 'A' + label : 'a' + label - LETTERS);
}
static bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* The parsed equation: each operand's labels (ELLIPSIS for "..."), one
 * array with operand i's at labels[start[i] .. start[i + 1]). */
typedef struct {
  int *labels;
  int *start;
  const char *arrow; /* "->" in the equation, or NULL */
} Subscripts;

static bool parse_operands(const char *eq, int nops, Subscripts *sub) {
  size_t lhs_len = sub->arrow ? (size_t)(sub->arrow - eq) : strlen(eq);
  int op = 0, count = 0;
  bool ellipsis = false;
  sub->start[0] = 0;
  for (size_t i = 0; i < lhs_len; i++) {
    unsigned char c = (unsigned char)eq[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (ellipsis) {
        tensor_set_error("einsum(): found '.' for operand %d for which an ellipsis was already "
                         "found", op);
        return false;
      }
      if (!(i + 2 < lhs_len && eq[i + 1] == '.' && eq[i + 2] == '.')) {
        tensor_set_error("einsum(): found '.' for operand %d that is not part of any ellipsis", op);
        return false;
      }
      i += 2;
      sub->labels[count++] = ELLIPSIS;
      ellipsis = true;
    } else if (c == ',') {
      if (++op >= nops) {
        tensor_set_error("einsum(): fewer operands were provided than specified in the equation");
        return false;
      }
      sub->start[op] = count;
      ellipsis = false;
    } else if (is_letter(c)) {
      sub->labels[count++] = label_of(c);
    } else {
      tensor_set_error("einsum(): invalid subscript given at index %zu in the equation string, "
                       "subscripts must be in [a-zA-Z]", i);
      return false;
    }
  }
  if (op != nops - 1) {
    tensor_set_error("einsum(): more operands were provided than specified in the equation");
    return false;
  }
  sub->start[nops] = count;
  return true;
}

/* Where each label (and the ellipsis dims) goes in the aligned layout. */
typedef struct {
  int perm_index[LABELS]; /* -1: unused */
  int64_t count[LABELS];  /* operands' uses of each label */
  int ell_dims;           /* the most dims any ellipsis covers */
  int ell_index;          /* where the ellipsis dims start */
  int out_dims, total;    /* output dims, then all dims (summed ones after) */
} Layout;

static bool count_labels(Tensor *const *ops, int nops, const Subscripts *sub, Layout *L) {
  for (int i = 0; i < nops; i++) {
    int nlabels = sub->start[i + 1] - sub->start[i];
    bool ellipsis = false;
    for (int j = sub->start[i]; j < sub->start[i + 1]; j++) {
      if (sub->labels[j] == ELLIPSIS) {
        ellipsis = true;
        nlabels--;
      } else {
        L->count[sub->labels[j]]++;
      }
    }
    int ndim = ops[i]->ndim;
    if (ellipsis ? nlabels > ndim : nlabels != ndim) {
      tensor_set_error("einsum(): the number of subscripts in the equation (%d) %s the number of "
                       "dimensions (%d) for operand %d%s", nlabels,
                       ellipsis ? "is more than" : "does not match", ndim, i,
                       ellipsis ? "" : " and no ellipsis was given");
      return false;
    }
    if (ellipsis && ndim - nlabels > L->ell_dims) L->ell_dims = ndim - nlabels;
  }
  return true;
}

static bool place_output(const char *eq, const char *rhs, Layout *L) {
  int at = 0;
  bool ellipsis_out = false;
  if (rhs == NULL) { /* implicit: the ellipsis, then the labels used once */
    at = L->ell_dims;
    ellipsis_out = true;
    for (int l = 0; l < LABELS; l++)
      if (L->count[l] == 1) L->perm_index[l] = at++;
  } else {
    size_t lhs_len = (size_t)(rhs - 2 - eq);
    for (size_t i = 0; rhs[i]; i++) {
      unsigned char c = (unsigned char)rhs[i];
      if (c == ' ') continue;
      if (c == '.') {
        if (ellipsis_out) {
          tensor_set_error("einsum(): found '.' for output but an ellipsis (...) was already "
                           "found");
          return false;
        }
        if (!(rhs[i + 1] == '.' && rhs[i + 2] == '.')) {
          tensor_set_error("einsum(): found '.' for output that is not part of any ellipsis (...)");
          return false;
        }
        i += 2;
        L->ell_index = at;
        at += L->ell_dims;
        ellipsis_out = true;
      } else if (!is_letter(c)) {
        tensor_set_error("einsum(): invalid subscript given at index %zu in the equation string, "
                         "subscripts must be in [a-zA-Z]", lhs_len + 2 + i);
        return false;
      } else {
        int l = label_of(c);
        if (L->count[l] == 0 || L->perm_index[l] != -1) {
          tensor_set_error("einsum(): output subscript %c %s", c,
                           L->perm_index[l] != -1
                               ? "appears more than once in the output"
                               : "does not appear in the equation for any input operand");
          return false;
        }
        L->perm_index[l] = at++;
      }
    }
  }
  L->out_dims = at;
  if (!ellipsis_out) { /* the ellipsis dims are summed */
    L->ell_index = at;
    at += L->ell_dims;
  }
  for (int l = 0; l < LABELS; l++)
    if (L->count[l] > 0 && L->perm_index[l] == -1) L->perm_index[l] = at++;
  L->total = at;
  return true;
}

/* Sizes seen so far for each label and ellipsis dim (1: none or
 * broadcast), and how many operands have each aligned dim of size != 1. */
typedef struct {
  int64_t label_size[LABELS];
  int64_t ell_size[TENSOR_MAX_DIMS];
  int64_t dim_count[TENSOR_MAX_DIMS];
} Sizes;

/* Records a size for a label or ellipsis dim: a size of 1 broadcasts, any
 * other must equal the one seen before; counts the operand at aligned dim at. */
static bool note_size(int64_t *seen, int64_t size, Sizes *S, int at) {
  if (size == 1) return true;
  if (*seen != 1 && *seen != size) return false;
  *seen = size;
  S->dim_count[at]++;
  return true;
}

/* t's diagonal of dims prev and dim, moved to prev (movedim(-1, prev), a
 * permute as in ATen); t is released. */
static Tensor *take_diagonal(Tensor *t, int prev, int dim) {
  Tensor *diag = ag_diagonal(t, 0, prev, dim);
  tensor_release(t);
  if (diag == NULL) return NULL;
  int move[TENSOR_MAX_DIMS];
  for (int d = 0, src = 0; d < diag->ndim; d++)
    move[d] = d == prev ? diag->ndim - 1 : src++;
  Tensor *out = ag_permute(diag, move, diag->ndim);
  tensor_release(diag);
  return out;
}

/* Operand i permuted into the layout: a new reference, or NULL + error.
 * perm[d] is the operand's dim that goes to aligned dim d. */
static Tensor *align_operand(Tensor *op, int i, const Subscripts *sub, const Layout *L, Sizes *S) {
  int perm[TENSOR_MAX_DIMS];
  for (int d = 0; d < L->total; d++) perm[d] = -1;
  Tensor *t = tensor_retain(op);
  int dim = 0; /* the dim of t the next subscript names */
  for (int j = sub->start[i]; t && j < sub->start[i + 1]; j++) {
    int l = sub->labels[j];
    if (l == ELLIPSIS) {
      int covered = op->ndim - (sub->start[i + 1] - sub->start[i] - 1);
      for (int e = L->ell_dims - covered; e < L->ell_dims; e++, dim++) {
        if (!note_size(&S->ell_size[e], t->shape[dim], S, L->ell_index + e)) {
          tensor_set_error("einsum(): dimension %d covered by ellipsis in operand %dhas size %lld "
                           "which does not broadcast with previously seen ellipsis with size "
                           "%lld for the respective dimension", dim, i, (long long)t->shape[dim],
                           (long long)S->ell_size[e]);
          goto fail;
        }
        perm[L->ell_index + e] = dim;
      }
    } else if (perm[L->perm_index[l]] == -1) {
      if (!note_size(&S->label_size[l], t->shape[dim], S, L->perm_index[l])) {
        tensor_set_error("einsum(): subscript %c has size %lld for operand %d which does not "
                         "broadcast with previously seen size %lld", letter_of(l),
                         (long long)t->shape[dim], i, (long long)S->label_size[l]);
        goto fail;
      }
      perm[L->perm_index[l]] = dim++;
    } else { /* a repeated label: its diagonal, in the first one's place */
      int prev = perm[L->perm_index[l]];
      if (t->shape[dim] != t->shape[prev]) {
        tensor_set_error("einsum(): subscript %c is repeated for operand %d but the sizes don't "
                         "match, %lld != %lld", letter_of(l), i, (long long)t->shape[dim],
                         (long long)t->shape[prev]);
        goto fail;
      }
      t = take_diagonal(t, prev, dim);
    }
  }
  for (int d = 0; t && d < L->total; d++) { /* missing labels: dims of size 1 */
    if (perm[d] != -1) continue;
    Tensor *u = ag_unsqueeze(t, dim);
    tensor_release(t);
    t = u;
    perm[d] = dim++;
  }
  Tensor *out = t ? ag_permute(t, perm, L->total) : NULL;
  tensor_release(t);
  return out;
fail:
  tensor_release(t);
  return NULL;
}

/* The dims of a pair of operands by where they end up: in the output from
 * both (lro), from the left or the right one only (lo, ro; a dim of size 1
 * in both counts as ro), or summed; with the product of each group's sizes. */
typedef struct {
  int lro[TENSOR_MAX_DIMS], lo[TENSOR_MAX_DIMS], ro[TENSOR_MAX_DIMS], sums[TENSOR_MAX_DIMS];
  int nlro, nlo, nro, nsum;
  int64_t lro_size, lo_size, ro_size, sum_size;
} DimGroups;

/* Sorts the dims of *l and *r into G; a summed dim only one of them has is
 * summed right away (keepdim), replacing that operand. */
static bool group_dims(Tensor **l, Tensor **r, const bool *summed, DimGroups *G) {
  *G = (DimGroups){.lro_size = 1, .lo_size = 1, .ro_size = 1, .sum_size = 1};
  for (int d = 0; d < (*l)->ndim; d++) {
    int64_t ls = (*l)->shape[d], rs = (*r)->shape[d];
    bool sl = ls != 1, sr = rs != 1;
    if (sl && sr && ls != rs) {
      tensor_set_error("non-broadcast dimensions must match");
      return false;
    }
    if (summed[d]) {
      G->sums[G->nsum++] = d;
      if (sl && sr) G->sum_size *= ls;
      Tensor **one = sl && !sr ? l : sr && !sl ? r : NULL;
      if (one) {
        Tensor *s = ag_sum(*one, &d, 1, true);
        tensor_release(*one);
        if ((*one = s) == NULL) return false;
      }
    } else if (sl && sr) {
      G->lro[G->nlro++] = d;
      G->lro_size *= ls;
    } else if (sl) {
      G->lo[G->nlo++] = d;
      G->lo_size *= ls;
    } else {
      G->ro[G->nro++] = d;
      G->ro_size *= rs;
    }
  }
  return true;
}

/* The grouped pair as one bmm: left permuted to [lro, lo, sums, ro] and
 * viewed [lro, lo, sum], right to [lro, sums, ro, lo] and [lro, sum, ro];
 * the product viewed back with the summed dims of size 1 and permuted to
 * the operands' order. */
static Tensor *bmm_pair(Tensor *l, Tensor *r, const bool *summed, const DimGroups *G) {
  int ndim = l->ndim, lperm[TENSOR_MAX_DIMS], rperm[TENSOR_MAX_DIMS], operm[TENSOR_MAX_DIMS];
  int64_t out_size[TENSOR_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < G->nlro; i++, k++) lperm[k] = rperm[k] = G->lro[i];
  for (int i = 0; i < G->nlo; i++) lperm[k + i] = G->lo[i];
  for (int i = 0; i < G->nsum; i++) lperm[k + G->nlo + i] = rperm[k + i] = G->sums[i];
  for (int i = 0; i < G->nro; i++)
    lperm[k + G->nlo + G->nsum + i] = rperm[k + G->nsum + i] = G->ro[i];
  for (int i = 0; i < G->nlo; i++) rperm[k + G->nsum + G->nro + i] = G->lo[i];
  for (int i = 0; i < ndim; i++) {
    int d = lperm[i];
    operm[d] = i;
    out_size[i] = summed[d] ? 1 : i < G->nlro + G->nlo ? l->shape[d] : r->shape[d];
  }
  Tensor *lp = ag_permute(l, lperm, ndim), *rp = ag_permute(r, rperm, ndim);
  Tensor *lm = lp ? ag_reshape(lp, 3, (int64_t[3]){G->lro_size, G->lo_size, G->sum_size}) : NULL;
  Tensor *rm = rp ? ag_reshape(rp, 3, (int64_t[3]){G->lro_size, G->sum_size, G->ro_size}) : NULL;
  tensor_release(lp);
  tensor_release(rp);
  Tensor *prod = lm && rm ? ag_bmm(lm, rm) : NULL;
  tensor_release(lm);
  tensor_release(rm);
  Tensor *viewed = prod ? ag_view(prod, ndim, out_size) : NULL;
  tensor_release(prod);
  Tensor *out = viewed ? ag_permute(viewed, operm, ndim) : NULL;
  tensor_release(viewed);
  return out;
}

/* (left * right).sum(summed dims, keepdim=true) for operands of one rank
 * (sizes 1 broadcast), ATen's sumproduct_pair. */
static Tensor *sumproduct(Tensor *left, Tensor *right, const bool *summed, int nsummed) {
  if (nsummed == 0) return ag_binary(BIN_MUL, left, right);
  Tensor *l = tensor_retain(left), *r = tensor_retain(right);
  DimGroups G;
  Tensor *out = group_dims(&l, &r, summed, &G) ? bmm_pair(l, r, summed, &G) : NULL;
  tensor_release(l);
  tensor_release(r);
  return out;
}

/* Sums dims (keepdim) of *t in place of it; nothing when none. */
static bool sum_now(Tensor **t, const int *dims, int ndims) {
  if (ndims == 0) return true;
  Tensor *s = ag_sum(*t, dims, ndims, true);
  tensor_release(*t);
  *t = s;
  return s != NULL;
}

/* Contracts a with b (both released): the dims that no other operand
 * still needs are summed first in one of them or in their product. */
static Tensor *contract(Tensor *a, Tensor *b, const Layout *L, Sizes *S) {
  bool summed[TENSOR_MAX_DIMS] = {false};
  int nsummed = 0, a_dims[TENSOR_MAX_DIMS], b_dims[TENSOR_MAX_DIMS], na = 0, nb = 0;
  for (int d = L->out_dims; d < L->total; d++) {
    bool in_a = a->shape[d] != 1, in_b = b->shape[d] != 1;
    if (in_a && in_b) {
      if (--S->dim_count[d] == 1) {
        summed[d] = true;
        nsummed++;
        S->dim_count[d] = 0;
      }
    } else if (S->dim_count[d] == 1) {
      if (in_a) a_dims[na++] = d;
      else if (in_b) b_dims[nb++] = d;
      if (in_a || in_b) S->dim_count[d] = 0;
    }
  }
  Tensor *out = NULL;
  if (sum_now(&a, a_dims, na) && sum_now(&b, b_dims, nb)) out = sumproduct(a, b, summed, nsummed);
  tensor_release(a);
  tensor_release(b);
  return out;
}

static Tensor *einsum_aligned(Tensor *const *operands, int nops, const Subscripts *sub,
                              const Layout *L) {
  Sizes S;
  for (int l = 0; l < LABELS; l++) S.label_size[l] = 1;
  for (int e = 0; e < TENSOR_MAX_DIMS; e++) S.ell_size[e] = 1, S.dim_count[e] = 0;
  /* all aligned first: the counts of S must cover every operand */
  Tensor **aligned = calloc((size_t)nops, sizeof *aligned);
  if (aligned == NULL) {
    tensor_set_error("out of memory");
    return NULL;
  }
  bool ok = true;
  for (int i = 0; ok && i < nops; i++)
    ok = (aligned[i] = align_operand(operands[i], i, sub, L, &S)) != NULL;
  Tensor *acc = ok ? aligned[0] : NULL;
  for (int i = 1; acc && i < nops; i++) {
    acc = contract(acc, aligned[i], L, &S);
    aligned[i] = NULL;
  }
  for (int i = ok ? 1 : 0; i < nops; i++) tensor_release(aligned[i]);
  free(aligned);
  if (!acc || L->total == L->out_dims) return acc;
  Tensor *out;
  if (nops > 1) { /* the summed dims are all 1 now */
    out = ag_view(acc, L->out_dims, acc->shape);
  } else {
    int dims[TENSOR_MAX_DIMS];
    for (int d = L->out_dims; d < L->total; d++) dims[d - L->out_dims] = d;
    out = ag_sum(acc, dims, L->total - L->out_dims, false);
  }
  tensor_release(acc);
  return out;
}

Tensor *ag_einsum(const char *equation, Tensor *const *operands, int nops) {
  if (nops == 0) {
    tensor_set_error("einsum(): must provide at least one operand");
    return NULL;
  }
  size_t len = strlen(equation);
  Subscripts sub = {malloc((len + 1) * sizeof(int)), malloc((size_t)(nops + 1) * sizeof(int)),
                    strstr(equation, "->")};
  Layout L = {.ell_dims = 0};
  for (int l = 0; l < LABELS; l++) L.perm_index[l] = -1, L.count[l] = 0;
  Tensor *out = NULL;
  if (!sub.labels || !sub.start) {
    tensor_set_error("out of memory");
  } else if (parse_operands(equation, nops, &sub) && count_labels(operands, nops, &sub, &L) &&
             place_output(equation, sub.arrow ? sub.arrow + 2 : NULL, &L)) {
    if (L.total > TENSOR_MAX_DIMS)
      tensor_set_error("einsum(): the equation uses %d dimensions, more than the %d a tensor may "
                       "have", L.total, TENSOR_MAX_DIMS);
    else
      out = einsum_aligned(operands, nops, &sub, &L);
  }
  free(sub.labels);
  free(sub.start);
  return out;
}
