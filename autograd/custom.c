/* custom.c — nodes for Ag Function subclasses (custom forward/backward).
 *
 * The binding runs the script's forward() itself; here we only record the
 * node (edges to the tensor arguments) and, during backward, call back into
 * the script's backward() and check what it returned, with PyTorch's
 * messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/internal.h"

bool ag_custom_needs_input_grad(Tensor *const *args, int nargs, bool *flags) {
  bool any = false;
  for (int i = 0; i < nargs; i++) { /* as PyTorch: whatever the grad mode */
    flags[i] = args[i] && ag_requires_grad(args[i]);
    any = any || flags[i];
  }
  return any && ag_is_grad_enabled();
}

static bool is_argument(const Tensor *t, Tensor *const *args, int nargs) {
  for (int i = 0; i < nargs; i++)
    if (args[i] == t) return true;
  return false;
}

/* The node's name, edges (one per tensor argument) and callbacks. */
static GradNode *custom_node(const char *name, AgFunctionFns fns, void *ctx, Tensor *const *args,
                             int nargs, int noutputs) {
  int ntensors = 0;
  for (int i = 0; i < nargs; i++)
    ntensors += args[i] != NULL;
  GradNode *n = node_new(AG_NODE_CustomBackward, ntensors, 0, noutputs, false);
  AgNodeExtra *x = n ? node_extra(n) : NULL;
  if (!x) {
    if (fns.release) fns.release(ctx);
    if (n) node_finish(n);
    return NULL;
  }
  x->fns = fns;
  x->ctx = ctx;
  x->nargs = nargs;
  x->edge_arg = calloc((size_t)(ntensors ? ntensors : 1), sizeof *x->edge_arg);
  size_t len = strlen(name) + sizeof "Backward";
  x->custom_name = malloc(len);
  if (!x->edge_arg || !x->custom_name) {
    node_finish(n);
    tensor_set_error("out of memory");
    return NULL;
  }
  snprintf(x->custom_name, len, "%sBackward", name);
  for (int i = 0, e = 0; i < nargs; i++) {
    if (!args[i]) continue;
    x->edge_arg[e] = i;
    node_set_input(n, e++, args[i]);
  }
  return n;
}

bool ag_custom_record(const char *name, AgFunctionFns fns, void *ctx, Tensor *const *args,
                      int nargs, Tensor **outputs, int noutputs) {
  for (int i = 0; fw_active() && i < nargs; i++)
    if (args[i] && fw_tangent(args[i])) { /* an Ag Function has no jvp() */
      if (fns.release) fns.release(ctx);
      tensor_set_not_implemented_error("You must implement the jvp function for custom "
                                       "autograd.Function to use it with forward mode AD.");
      return false;
    }
  bool flags_inline[16];
  bool *flags = nargs <= 16 ? flags_inline : calloc((size_t)nargs, sizeof *flags);
  if (!flags) {
    if (fns.release) fns.release(ctx);
    tensor_set_error("out of memory");
    return false;
  }
  bool any = ag_custom_needs_input_grad(args, nargs, flags);
  if (flags != flags_inline) free(flags);
  if (!any) {
    if (fns.release) fns.release(ctx);
    return true;
  }
  GradNode *n = custom_node(name, fns, ctx, args, nargs, noutputs);
  if (!n) return false;
  bool ok = true;
  for (int i = 0; ok && i < noutputs; i++) {
    Tensor *out = outputs[i];
    node_info_set(n, &n->out_info[i], out);
    if (!dtype_is_float(out->dtype)) continue;        /* not differentiable */
    if (is_argument(out, args, nargs) || out->meta) { /* keep the argument's own history */
      Tensor *alias = tensor_alias(out);
      if (!alias) {
        ok = false;
        break;
      }
      tensor_release(out);
      outputs[i] = out = alias;
    }
    ok = node_set_output(n, i, out);
  }
  node_finish(n);
  return ok;
}

bool custom_apply(GradNode *n, Tensor *const *grads, Tensor **out, const bool *needs) {
  AgNodeExtra *x = n->extra;
  Tensor **res = calloc((size_t)(x->nargs ? x->nargs : 1), sizeof *res);
  if (!res) {
    tensor_set_error("out of memory");
    return false;
  }
  bool failed = false;
  int count = x->fns.backward(x->ctx, grads, n->noutputs, res, x->nargs, &failed);
  bool ok = !failed && count >= 0;
  if (ok && count != x->nargs) {
    tensor_set_error("function %s returned an incorrect number of gradients (expected %d, got %d)",
                     grad_node_name(n), x->nargs, count);
    ok = false;
  }
  for (int e = 0; ok && e < n->nnext; e++) {
    out[e] = res[x->edge_arg[e]];
    res[x->edge_arg[e]] = NULL;
  }
  for (int i = 0; i < x->nargs; i++)
    tensor_release(res[i]);
  free(res);
  return ok;
}
