/* lib_autograd.c — autograd in the language: .grad, graph nodes as values,
 * backward(), register_hook with Ag functions, autograd.grad, the grad-mode
 * and anomaly contexts for `with`, and custom Function subclasses.
 *
 * Script callbacks (hooks, Function.backward) reach the engine as AgHookFns /
 * AgFunctionFns whose ctx pins the Ag values they need (vm_pin), so the
 * collector keeps them while the graph lives. When a callback raises, its
 * exception stays pending on the VM and the engine's failure is turned back
 * into that exception rather than a new one.
 */
#include <stdlib.h>
#include <string.h>

#include "stdlib/lib_graph.h"
#include "stdlib/lib_internal.h"
#include "vm/opcodes.h"

#define NATIVE_ARGS AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw

/* After an engine call failed: the script's own exception, or tensor_error(). */
static Value engine_failure(AgVM *vm) {
  if (vm->exc.pending) return VM_EXCEPTION;
  return lib_throw_tensor_error(vm);
}

/* ---- .grad ---- */

/* PyTorch warns once that backward(create_graph=true) ties each leaf and its
 * .grad into a reference cycle (Ag frees such cycles at exit, but a loop that
 * keeps doing it grows, as in PyTorch). */
static void warn_create_graph_cycle(AgVM *vm) {
  LibState *st = lib_state(vm);
  if (st->warned_create_graph_cycle) return;
  st->warned_create_graph_cycle = true;
  fprintf(stderr,
          "%s:%d: UserWarning: Using backward() with create_graph=True will create a reference "
          "cycle between the parameter and its gradient which can cause a memory leak. We "
          "recommend using autograd.grad when creating the graph to avoid this. If you have to "
          "use this function, make sure to reset the .grad fields of your parameters to None "
          "after use to break the cycle and avoid the leak.\n",
          lib_current_file(vm), lib_current_line(vm));
}

static void warn_non_leaf_grad(AgVM *vm) {
  LibState *st = lib_state(vm);
  if (st->warned_nonleaf_grad) return;
  st->warned_nonleaf_grad = true;
  const char *file = lib_current_file(vm);
  fprintf(stderr,
          "%s:%d: UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being "
          "accessed. Its .grad attribute won't be populated during autograd.backward(). If you "
          "indeed want the .grad field to be populated for a non-leaf Tensor, use "
          ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, "
          "make sure you access the leaf Tensor instead. See "
          "github.com/pytorch/pytorch/pull/30531 for more informations.\n",
          file, lib_current_line(vm));
}

Value lib_get_grad(AgVM *vm, Value self) {
  Tensor *t = lib_t(self);
  Tensor *g = ag_get_grad(t);
  if (g == NULL && !ag_is_leaf(t) && !ag_retains_grad(t)) warn_non_leaf_grad(vm);
  if (g == NULL) return NIL_VAL;
  return OBJ_VAL(obj_new_tensor(vm, tensor_retain(g)));
}

Value lib_set_grad(AgVM *vm, Value self, Value v) {
  if (!IS_NIL(v) && !IS_TENSOR(v))
    return vm_raise(vm, VM_ERR_TYPE, "assigned grad expected to be a Tensor or nil but got grad of type %s",
                          vm_type_name(v));
  /* t.grad = t (or a longer chain back to t) would be a reference cycle that
   * is never freed; PyTorch refuses the direct case with these words. */
  for (Tensor *g = IS_NIL(v) ? NULL : lib_t(v); g; g = ag_get_grad(g))
    if (g == lib_t(self)) return vm_throw_error(vm, "can't assign Variable as its own grad");
  if (!ag_set_grad(lib_t(self), IS_NIL(v) ? NULL : lib_t(v))) return lib_throw_tensor_error(vm);
  return v;
}

/* ---- graph nodes ---- */

typedef enum { NODE_NAME, NODE_NEXT_FUNCTIONS, NODE_VARIABLE, NODE_LINE, NODE_ATTR_COUNT } NodeAttr;

HELP("Node.name", HELP_AUTOGRAD, 0,
     "node.name()",
     "The node's name, PyTorch's: \"MulBackward0\", \"AccumulateGrad\", ...",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 2).grad_fn.name())")
HELP("Node.next_functions", HELP_AUTOGRAD, 0,
     "node.next_functions",
     "The node's inputs: a list of [node or nil, index] pairs, in operand order.",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 3).grad_fn.next_functions)")
HELP("Node.variable", HELP_AUTOGRAD, 0,
     "node.variable",
     "On an AccumulateGrad node: the leaf tensor it accumulates into.",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 3).grad_fn.next_functions[0][0].variable)")
HELP("Node.line", HELP_AUTOGRAD, 0,
     "node.line",
     "The script line of the forward operation that created the node.",
     "let x = ones(2, requires_grad=true)\n"
     "print((x * 3).grad_fn.line)")

static const char *const node_attr_names[NODE_ATTR_COUNT] = {"name", "next_functions", "variable",
                                                             "line"};

Value lib_node_value(AgVM *vm, GradNode *node) {
  if (node == NULL) return NIL_VAL;
  return OBJ_VAL(obj_new_node(vm, grad_node_retain(node)));
}

static Value next_functions(AgVM *vm, GradNode *node) {
  ObjList *list = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(list));
  for (int i = 0; i < grad_node_num_next(node); i++) {
    int input_nr = 0;
    GradNode *next = grad_node_next(node, i, &input_nr);
    ObjList *pair = obj_new_list(vm); /* [node, input_nr] (the shared conformance cases print lists) */
    vm_push_root(vm, OBJ_VAL(pair));
    obj_list_append(vm, pair, lib_node_value(vm, next));
    obj_list_append(vm, pair, INT_VAL(vm, input_nr));
    obj_list_append(vm, list, OBJ_VAL(pair));
    vm_pop_root(vm);
  }
  vm_pop_root(vm);
  return OBJ_VAL(list);
}

static int node_attr_id(AgVM *vm, ObjString *name) {
  Value id;
  if (!table_get(&lib_state(vm)->node_names, OBJ_VAL(name), &id)) return -1;
  return (int)AS_NUMBER(id);
}

static Value native_node_name(NATIVE_ARGS) {
  if (!IS_NODE(self)) return vm_raise(vm, VM_ERR_TYPE, "name() must be called on a graph node");
  return OBJ_VAL(obj_string(vm, grad_node_name(AS_NODE_OBJ(self)->node)));
}

Value lib_node_get_attr(AgVM *vm, Value node, ObjString *name) {
  GradNode *n = AS_NODE_OBJ(node)->node;
  switch (node_attr_id(vm, name)) {
  case NODE_NAME: {
    ObjNative *m = obj_new_native(vm, "name", native_node_name, 0, 0, false);
    vm_push_root(vm, OBJ_VAL(m));
    Value bound = OBJ_VAL(obj_new_bound_method(vm, node, OBJ_VAL(m)));
    vm_pop_root(vm);
    return bound;
  }
  case NODE_NEXT_FUNCTIONS: return next_functions(vm, n);
  case NODE_VARIABLE: {
    Tensor *v = grad_node_variable(n);
    if (v == NULL) return vm_raise(vm, VM_ERR_ATTRIBUTE, "'%s' object has no attribute 'variable'", grad_node_name(n));
    return OBJ_VAL(obj_new_tensor(vm, tensor_retain(v)));
  }
  case NODE_LINE: return INT_VAL(vm, grad_node_line(n));
  default: return vm_raise(vm, VM_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'", grad_node_name(n), name->chars);
  }
}

Value lib_node_invoke(AgVM *vm, Value node, ObjString *name, int argc, const Value *args,
                      const AgKwargs *kw) {
  if (node_attr_id(vm, name) == NODE_NAME) return native_node_name(vm, node, argc, args, kw);
  Value callee = lib_node_get_attr(vm, node, name);
  if (IS_EXCEPTION(callee)) return callee;
  vm_push_root(vm, callee);
  Value r = vm_call_kw(vm, callee, argc, args, kw);
  vm_pop_root(vm);
  return r;
}

/* Nodes compare by identity: two wrappers of the same GradNode are equal. */
Value lib_node_binary(AgVM *vm, int op, Value a, Value b) {
  bool same = IS_NODE(a) && IS_NODE(b) && AS_NODE_OBJ(a)->node == AS_NODE_OBJ(b)->node;
  if (op == OP_EQUAL) return BOOL_VAL(same);
  if (op == OP_NOT_EQUAL) return BOOL_VAL(!same);
  return vm_raise(vm, VM_ERR_TYPE, "unsupported operand types for a graph node: '%s' and '%s'",
                        vm_type_name(a), vm_type_name(b));
}

/* ---- register_hook ---- */

typedef struct {
  AgVM *vm;
  uint32_t fn_pin;
} ScriptHook;

static Tensor *script_hook_call(void *ctx, Tensor *grad, bool *failed) {
  ScriptHook *h = ctx;
  AgVM *vm = h->vm;
  Value g = OBJ_VAL(obj_new_tensor(vm, tensor_retain(grad)));
  vm_push_root(vm, g);
  Value r = vm_call(vm, vm_pinned(vm, h->fn_pin), 1, &g);
  vm_pop_root(vm);
  if (IS_EXCEPTION(r)) {
    *failed = true;
    return NULL;
  }
  if (IS_NIL(r)) return NULL;
  if (!IS_TENSOR(r)) {
    vm_raise(vm, VM_ERR_TYPE, "a tensor hook must return a tensor or nil, not %s", vm_type_name(r));
    *failed = true;
    return NULL;
  }
  /* PyTorch's check_single_result: the engine writes the result where the
   * gradient would go (a wrong size overran CopySlices' buffer) */
  Tensor *t = lib_t(r);
  Value fv = vm_pinned(vm, h->fn_pin);
  const char *name = IS_CLOSURE(fv) && AS_CLOSURE(fv)->function->name
                         ? AS_CLOSURE(fv)->function->name->chars : "hook";
  bool same_size = t->ndim == grad->ndim;
  for (int d = 0; same_size && d < t->ndim; d++) same_size = t->shape[d] == grad->shape[d];
  if (t->dtype != grad->dtype) {
    vm_throw_error(vm, "hook '%s' has changed the type of value (was CPU%sType got CPU%sType)", name,
                   tensor_dtype_torch_name(grad->dtype), tensor_dtype_torch_name(t->dtype));
    *failed = true;
    return NULL;
  }
  if (!same_size) {
    vm_throw_error(vm, "hook '%s' has changed the size of value", name);
    *failed = true;
    return NULL;
  }
  return tensor_retain(t);
}

static void script_hook_release(void *ctx) {
  ScriptHook *h = ctx;
  vm_unpin(h->vm, h->fn_pin);
  free(h);
}

static Value native_handle_remove(NATIVE_ARGS) {
  LibState *st = lib_state(vm);
  ObjInstance *inst = AS_INSTANCE(self);
  Value t, id;
  if (!table_get(&inst->fields, OBJ_VAL(st->s_tensor), &t) || !IS_TENSOR(t) ||
      !table_get(&inst->fields, OBJ_VAL(st->s_id), &id) || !IS_NUMBER(id))
    return vm_raise(vm, VM_ERR_TYPE, "remove() needs a hook handle");
  ag_remove_hook(lib_t(t), (int)AS_NUMBER(id));
  return NIL_VAL;
}

HELP("Tensor.register_hook", HELP_TENSOR, 0,
     "t.register_hook(fn)",
     "fn(grad) runs when t's gradient is computed; a non-nil return replaces the "
     "gradient. On a leaf, hooks run before accumulation.",
     "let x = ones(2, requires_grad=true)\n"
     "x.register_hook(fn(g) { return g * 10 })\n"
     "x.sum().backward()\n"
     "print(x.grad)")
HELP("|", HELP_KEYWORDS, 0,
     "a | b   a |= b",
     "Set union, or of booleans and of bool tensors (masks), bitwise or of ints; an "
     "instance's or()/ror()/ior(). |= changes a set or a bool tensor in place.",
     "print({1, 2} | {3}, true | false, 6 | 1)")

Value lt_register_hook(NATIVE_ARGS) {
  LibState *st = lib_state(vm);
  Value fn = args[0];
  if (!IS_CLOSURE(fn) && !IS_NATIVE(fn) && !IS_BOUND_METHOD(fn))
    return vm_raise(vm, VM_ERR_TYPE, "register_hook expects a function, not %s", vm_type_name(fn));
  if (!ag_requires_grad(lib_t(self)))
    return vm_throw_error(vm, "cannot register a hook on a tensor that doesn't require gradient");
  ScriptHook *h = malloc(sizeof *h);
  if (h == NULL) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  h->vm = vm;
  h->fn_pin = vm_pin(vm, fn);
  AgHookFns fns = {script_hook_call, script_hook_release};
  int handle = ag_register_hook(lib_t(self), fns, h);
  if (handle < 0) {
    script_hook_release(h);
    return lib_throw_tensor_error(vm);
  }
  ObjInstance *inst = obj_new_instance(vm, st->handle_class);
  vm_push_root(vm, OBJ_VAL(inst));
  table_set(vm, &inst->fields, OBJ_VAL(st->s_tensor), self);
  table_set(vm, &inst->fields, OBJ_VAL(st->s_id), INT_VAL(vm, handle));
  vm_pop_root(vm);
  return OBJ_VAL(inst);
}

/* ---- backward and grad ---- */

/* A tensor or a list of tensors (entries may be nil when allow_nil) as a
 * malloc'd array of borrowed tensors; NULL after throwing. */
static Tensor **tensor_array(AgVM *vm, Value v, const char *what, bool allow_nil, int *n) {
  const Value *items = &v;
  int count = 1;
  if (is_list_or_tuple(v)) {
    items = AS_LIST(v)->items;
    count = AS_LIST(v)->count;
  }
  Tensor **ts = calloc((size_t)(count ? count : 1), sizeof *ts);
  if (ts == NULL) {
    vm_raise(vm, VM_ERR_MEMORY, "out of memory");
    return NULL;
  }
  for (int i = 0; i < count; i++) {
    if (IS_TENSOR(items[i])) {
      ts[i] = lib_t(items[i]);
    } else if (!(allow_nil && IS_NIL(items[i]))) {
      free(ts);
      vm_raise(vm, VM_ERR_TYPE, "%s must be a tensor or a list of tensors, not %s", what,
                     vm_type_name(items[i]));
      return NULL;
    }
  }
  *n = count;
  return ts;
}

/* PyTorch's checks before any work, with its messages. */
static bool check_roots(AgVM *vm, Tensor *const *roots, Tensor *const *grads, int n) {
  for (int i = 0; i < n; i++) {
    if (!ag_requires_grad(roots[i])) {
      vm_throw_error(vm, "element %d of tensors does not require grad and does not have a grad_fn", i);
      return false;
    }
    if ((grads == NULL || grads[i] == NULL) && roots[i]->numel != 1) {
      vm_throw_error(vm, "grad can be implicitly created only for scalar outputs");
      return false;
    }
  }
  return true;
}

/* --trace-graph: the graph about to be walked (leaves named), to stderr. */
static void trace_backward(AgVM *vm, Tensor *root) {
  if (!vm->host.trace_graph) return;
  lib_graph_trace(vm, root);
  fflush(stderr);
}

HELP("Tensor.backward", HELP_TENSOR, 0,
     "t.backward(gradient=nil, retain_graph=false, create_graph=false, inputs=nil)",
     "Computes the gradient of t with respect to the leaves of its graph and adds it to "
     "their .grad. A non-scalar t needs gradient. Without retain_graph the graph's saved "
     "tensors are freed; create_graph records the backward pass for higher derivatives.",
     "let x = tensor([1.0, 2.0], requires_grad=true)\n"
     "let y = (x ** 2).sum()\n"
     "y.backward()\n"
     "print(x.grad)")

Value lt_backward(NATIVE_ARGS) {
  static const char *const names[] = {"gradient", "retain_graph", "create_graph", "inputs"};
  Value v[4];
  bool retain, create;
  if (!lib_bind(vm, "backward", argc, args, kw, names, 4, v)) return VM_EXCEPTION;
  if (!lib_flag(vm, v[2], false, &create)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[1]) && IS_NIL(v[1])) v[1] = UNDEF_VAL;
  if (!lib_flag(vm, v[1], create, &retain)) return VM_EXCEPTION;
  Tensor *root = lib_t(self);
  Tensor *grad = NULL;
  if (!IS_UNDEF(v[0]) && !IS_NIL(v[0])) {
    if (!IS_TENSOR(v[0]) && !IS_NUMBER(v[0])) return lib_type_error(vm, "backward", "gradient", v[0]);
    grad = lib_as_tensor(vm, v[0], root->dtype, "backward");
    if (grad == NULL) return VM_EXCEPTION;
  }
  Tensor **inputs = NULL;
  int ninputs = 0;
  bool ok = check_roots(vm, &root, &grad, 1);
  if (ok && !IS_UNDEF(v[3]) && !IS_NIL(v[3])) {
    inputs = tensor_array(vm, v[3], "inputs", false, &ninputs);
    ok = inputs != NULL;
  }
  if (ok) {
    lib_sync_line(vm);
    trace_backward(vm, root);
    if (create && inputs == NULL) warn_create_graph_cycle(vm);
    ok = ag_backward(&root, &grad, 1, retain, create, inputs, ninputs);
    if (!ok) engine_failure(vm);
  }
  free(inputs);
  tensor_release(grad);
  return ok ? NIL_VAL : VM_EXCEPTION;
}

typedef struct {
  Tensor **outputs, **grad_outputs, **inputs;
  int noutputs, ninputs;
} GradCall;

static void grad_call_free(GradCall *g) {
  free(g->outputs);
  free(g->grad_outputs);
  free(g->inputs);
}

static bool grad_call_prepare(AgVM *vm, const Value *v, GradCall *g) {
  int ngrads = 0;
  memset(g, 0, sizeof *g);
  g->outputs = tensor_array(vm, v[0], "outputs", false, &g->noutputs);
  if (g->outputs == NULL) return false;
  g->inputs = tensor_array(vm, v[1], "inputs", false, &g->ninputs);
  if (g->inputs == NULL) return false;
  if (!IS_UNDEF(v[2]) && !IS_NIL(v[2])) {
    g->grad_outputs = tensor_array(vm, v[2], "grad_outputs", true, &ngrads);
    if (g->grad_outputs == NULL) return false;
    if (ngrads != g->noutputs) {
      vm_throw_error(vm, "grad requires one grad_output per output: got %d outputs and %d grad_outputs",
                     g->noutputs, ngrads);
      return false;
    }
  }
  return check_roots(vm, g->outputs, g->grad_outputs, g->noutputs);
}

/* The list autograd.grad returns: tensors (taking the references), nil for unused. */
static Value results_list(AgVM *vm, Tensor **results, int n) {
  ObjList *list = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(list));
  for (int i = 0; i < n; i++) {
    Value r = results[i] ? OBJ_VAL(obj_new_tensor(vm, results[i])) : NIL_VAL;
    results[i] = NULL;
    vm_push_root(vm, r);
    obj_list_append(vm, list, r);
    vm_pop_root(vm);
  }
  vm_pop_root(vm);
  free(results);
  return OBJ_VAL(list);
}

HELP("autograd.grad", HELP_AUTOGRAD, 0,
     "autograd.grad(outputs, inputs, grad_outputs=nil, retain_graph=nil, create_graph=false, allow_unused=false)",
     "The gradients of outputs with respect to inputs, as a list; .grad is left "
     "untouched. With create_graph=true the result can be differentiated again.",
     "let x = tensor(2.0, requires_grad=true)\n"
     "let [g] = autograd.grad(x ** 3, [x], create_graph=true)\n"
     "print(g, autograd.grad(g, [x])[0])")

/* autograd.grad(outputs, inputs, grad_outputs=nil, retain_graph=nil,
 * create_graph=false, allow_unused=false): a list, one entry per input. */
static Value native_grad(NATIVE_ARGS) {
  static const char *const names[] = {"outputs",      "inputs",       "grad_outputs",
                                      "retain_graph", "create_graph", "allow_unused"};
  Value v[6];
  bool retain, create, allow_unused;
  if (!lib_bind(vm, "grad", argc, args, kw, names, 6, v)) return VM_EXCEPTION;
  if (IS_UNDEF(v[1])) return vm_raise(vm, VM_ERR_TYPE, "grad() missing required argument 'inputs'");
  if (!IS_UNDEF(v[3]) && IS_NIL(v[3])) v[3] = UNDEF_VAL;
  if (!lib_flag(vm, v[4], false, &create) || !lib_flag(vm, v[3], create, &retain) ||
      !lib_flag(vm, v[5], false, &allow_unused))
    return VM_EXCEPTION;
  GradCall g;
  if (!grad_call_prepare(vm, v, &g)) {
    grad_call_free(&g);
    return VM_EXCEPTION;
  }
  Tensor **results = calloc((size_t)(g.ninputs ? g.ninputs : 1), sizeof *results);
  bool ok = results != NULL;
  if (ok) {
    lib_sync_line(vm);
    if (vm->host.trace_graph) trace_backward(vm, g.outputs[0]);
    ok = ag_grad(g.outputs, g.grad_outputs, g.noutputs, g.inputs, g.ninputs, retain, create,
                 allow_unused, results);
  }
  int n = g.ninputs;
  grad_call_free(&g);
  if (!ok) {
    free(results);
    return results == NULL ? vm_raise(vm, VM_ERR_MEMORY, "out of memory") : engine_failure(vm);
  }
  return results_list(vm, results, n);
}

HELP("autograd.backward", HELP_AUTOGRAD, 0,
     "autograd.backward(tensors, grad_tensors=nil, retain_graph=false, create_graph=false, inputs=nil)",
     "Runs backward from several tensors at once, accumulating into the leaves' .grad.",
     "let x = ones(2, requires_grad=true)\n"
     "autograd.backward([x.sum(), (x * 2).sum()])\n"
     "print(x.grad)")

/* autograd.backward(tensors, grad_tensors=nil, retain_graph=nil, create_graph=false, inputs=nil) */
static Value native_autograd_backward(NATIVE_ARGS) {
  static const char *const names[] = {"tensors", "grad_tensors", "retain_graph", "create_graph",
                                      "inputs"};
  Value v[5];
  bool retain, create;
  if (!lib_bind(vm, "backward", argc, args, kw, names, 5, v)) return VM_EXCEPTION;
  if (!IS_UNDEF(v[2]) && IS_NIL(v[2])) v[2] = UNDEF_VAL;
  if (!lib_flag(vm, v[3], false, &create) || !lib_flag(vm, v[2], create, &retain)) return VM_EXCEPTION;
  GradCall g;
  Value gv[3] = {v[0], IS_UNDEF(v[4]) || IS_NIL(v[4]) ? v[0] : v[4], v[1]};
  if (!grad_call_prepare(vm, gv, &g)) {
    grad_call_free(&g);
    return VM_EXCEPTION;
  }
  bool restrict_inputs = !(IS_UNDEF(v[4]) || IS_NIL(v[4]));
  lib_sync_line(vm);
  trace_backward(vm, g.outputs[0]);
  bool ok = ag_backward(g.outputs, g.grad_outputs, g.noutputs, retain, create,
                        restrict_inputs ? g.inputs : NULL, restrict_inputs ? g.ninputs : 0);
  grad_call_free(&g);
  return ok ? NIL_VAL : engine_failure(vm);
}

/* ---- grad mode and anomaly contexts ---- */

enum { CTX_NO_GRAD, CTX_ENABLE_GRAD, CTX_SET_GRAD, CTX_ANOMALY };

static Value new_context(AgVM *vm, int kind, Value mode, Value prev) {
  LibState *st = lib_state(vm);
  ObjInstance *inst = obj_new_instance(vm, st->context_classes[kind]);
  vm_push_root(vm, OBJ_VAL(inst));
  table_set(vm, &inst->fields, OBJ_VAL(st->s_mode), mode);
  table_set(vm, &inst->fields, OBJ_VAL(st->s_prev), prev);
  vm_pop_root(vm);
  return OBJ_VAL(inst);
}

static Value field(AgVM *vm, Value inst, ObjString *name) {
  Value v = NIL_VAL;
  if (IS_INSTANCE(inst)) table_get(&AS_INSTANCE(inst)->fields, OBJ_VAL(name), &v);
  return v;
}

static void set_field(AgVM *vm, Value inst, ObjString *name, Value v) {
  table_set(vm, &AS_INSTANCE(inst)->fields, OBJ_VAL(name), v);
}

/* enter(): switch the mode, remembering the one before. */
static Value native_grad_enter(NATIVE_ARGS) {
  LibState *st = lib_state(vm);
  bool mode = AS_BOOL(field(vm, self, st->s_mode));
  set_field(vm, self, st->s_prev, BOOL_VAL(ag_set_grad_enabled(mode)));
  return NIL_VAL;
}

/* exit(): restore it, however the block was left. */
static Value native_grad_exit(NATIVE_ARGS) {
  Value prev = field(vm, self, lib_state(vm)->s_prev);
  if (IS_BOOL(prev)) ag_set_grad_enabled(AS_BOOL(prev));
  return NIL_VAL;
}

/* no_grad()(f), enable_grad()(f): the decorator form (@no_grad()), f run
 * under that mode, the mode before restored after however f ends. */
static Value native_grad_decorate(NATIVE_ARGS) {
  LibState *st = lib_state(vm);
  ObjInstance *inst = obj_new_instance(vm, st->grad_mode_function_class);
  vm_push_root(vm, OBJ_VAL(inst));
  table_set(vm, &inst->fields, OBJ_VAL(st->s_mode), field(vm, self, st->s_mode));
  table_set(vm, &inst->fields, OBJ_VAL(st->s_forward), args[0]);
  vm_pop_root(vm);
  return OBJ_VAL(inst);
}

static Value native_grad_mode_call(NATIVE_ARGS) {
  LibState *st = lib_state(vm);
  bool prev = ag_set_grad_enabled(AS_BOOL(field(vm, self, st->s_mode)));
  Value r = vm_call_kw(vm, field(vm, self, st->s_forward), argc, args, kw);
  ag_set_grad_enabled(prev);
  return r;
}

HELP("no_grad", HELP_AUTOGRAD, 0,
     "no_grad()",
     "A context for `with`: no operation inside records a graph (for evaluation and "
     "parameter updates).",
     "let w = ones(2, requires_grad=true)\n"
     "with no_grad() { print((w * 2).requires_grad) }")
HELP("autograd.no_grad", HELP_AUTOGRAD, 0,
     "autograd.no_grad()",
     "The same as no_grad().",
     "with autograd.no_grad() { print(is_grad_enabled()) }")

static Value native_no_grad(NATIVE_ARGS) { return new_context(vm, CTX_NO_GRAD, FALSE_VAL, NIL_VAL); }

HELP("enable_grad", HELP_AUTOGRAD, 0,
     "enable_grad()",
     "A context that turns grad mode back on inside a no_grad block.",
     "with no_grad() { with enable_grad() { print(is_grad_enabled()) } }")
HELP("autograd.enable_grad", HELP_AUTOGRAD, 0,
     "autograd.enable_grad()",
     "The same as enable_grad().",
     "with autograd.enable_grad() { print(is_grad_enabled()) }")

static Value native_enable_grad(NATIVE_ARGS) {
  return new_context(vm, CTX_ENABLE_GRAD, TRUE_VAL, NIL_VAL);
}

HELP("set_grad_enabled", HELP_AUTOGRAD, 0,
     "set_grad_enabled(flag)",
     "A context that turns grad mode on or off, as flag says.",
     "with set_grad_enabled(false) { print(is_grad_enabled()) }")
HELP("autograd.set_grad_enabled", HELP_AUTOGRAD, 0,
     "autograd.set_grad_enabled(flag)",
     "The same as set_grad_enabled(flag).",
     "with autograd.set_grad_enabled(false) { print(is_grad_enabled()) }")

/* set_grad_enabled(flag) takes effect at once (as a plain call too); as a
 * context its exit() restores the mode from before the call. */
static Value native_set_grad_enabled(NATIVE_ARGS) {
  bool flag;
  if (!lib_flag(vm, args[0], true, &flag)) return VM_EXCEPTION;
  bool prev = ag_set_grad_enabled(flag);
  return new_context(vm, CTX_SET_GRAD, BOOL_VAL(flag), BOOL_VAL(prev));
}

static Value native_nothing(NATIVE_ARGS) { return NIL_VAL; }

HELP("is_grad_enabled", HELP_AUTOGRAD, 0,
     "is_grad_enabled()",
     "True when operations are being recorded.",
     "print(is_grad_enabled())")

static Value native_is_grad_enabled(NATIVE_ARGS) { return BOOL_VAL(ag_is_grad_enabled()); }

HELP("is_anomaly_enabled", HELP_AUTOGRAD, 0,
     "is_anomaly_enabled()",
     "True inside `with autograd.detect_anomaly() { }`, where a NaN made by a backward "
     "function is an error naming the forward operation and its line.",
     "print(is_anomaly_enabled())")
HELP("autograd.is_anomaly_enabled", HELP_AUTOGRAD, 0,
     "autograd.is_anomaly_enabled()",
     "The same as the global is_anomaly_enabled().",
     "with autograd.detect_anomaly() { print(autograd.is_anomaly_enabled()) }")

static Value native_is_anomaly_enabled(NATIVE_ARGS) { return BOOL_VAL(ag_anomaly_enabled()); }

HELP("autograd.detect_anomaly", HELP_AUTOGRAD, 0,
     "autograd.detect_anomaly()",
     "A context in which a NaN produced by backward is an error naming the forward "
     "operation and its script line.",
     "let x = tensor(-1.0, requires_grad=true)\n"
     "try { with autograd.detect_anomaly() { x.sqrt().backward() } } catch e { print(\"caught\") }")

static Value native_detect_anomaly(NATIVE_ARGS) {
  static const char *const names[] = {"check_forward"};
  Value v[1];
  bool check_forward;
  if (!lib_bind(vm, "detect_anomaly", argc, args, kw, names, 1, v)) return VM_EXCEPTION;
  if (!lib_flag(vm, v[0], false, &check_forward)) return VM_EXCEPTION;
  return new_context(vm, CTX_ANOMALY, BOOL_VAL(check_forward), NIL_VAL);
}

static Value native_anomaly_enter(NATIVE_ARGS) {
  LibState *st = lib_state(vm);
  set_field(vm, self, st->s_prev, BOOL_VAL(ag_anomaly_enabled()));
  ag_set_anomaly(true, AS_BOOL(field(vm, self, st->s_mode)));
  return NIL_VAL;
}

static Value native_anomaly_exit(NATIVE_ARGS) {
  Value prev = field(vm, self, lib_state(vm)->s_prev);
  ag_set_anomaly(IS_BOOL(prev) && AS_BOOL(prev), false);
  return NIL_VAL;
}

/* ---- saved-tensor hooks ----
 * autograd.graph.saved_tensors_hooks(pack, unpack) pushes a pair (enter)
 * and pops it (exit). A packed value pins what pack returned and the
 * unpack function it goes back through, so it outlives the `with` block. */

typedef struct {
  AgVM *vm;
  uint32_t pack_pin, unpack_pin;
} ScriptSavedHooks;

typedef struct {
  AgVM *vm;
  uint32_t value_pin, unpack_pin;
} ScriptPacked;

static void *script_pack(void *vctx, Tensor *t, bool *failed) {
  ScriptSavedHooks *h = vctx;
  AgVM *vm = h->vm;
  ScriptPacked *p = malloc(sizeof *p);
  if (p == NULL) {
    vm_raise(vm, VM_ERR_MEMORY, "out of memory");
    *failed = true;
    return NULL;
  }
  Value tv = OBJ_VAL(obj_new_tensor(vm, tensor_retain(t)));
  vm_push_root(vm, tv);
  Value r = vm_call(vm, vm_pinned(vm, h->pack_pin), 1, &tv);
  vm_pop_root(vm);
  if (IS_EXCEPTION(r)) {
    free(p);
    *failed = true;
    return NULL;
  }
  p->vm = vm;
  p->value_pin = vm_pin(vm, r);
  p->unpack_pin = vm_pin(vm, vm_pinned(vm, h->unpack_pin));
  return p;
}

static Tensor *script_unpack(void *packed, bool *failed) {
  ScriptPacked *p = packed;
  AgVM *vm = p->vm;
  Value v = vm_pinned(vm, p->value_pin);
  Value r = vm_call(vm, vm_pinned(vm, p->unpack_pin), 1, &v);
  if (IS_EXCEPTION(r)) {
    *failed = true;
    return NULL;
  }
  if (!IS_TENSOR(r)) {
    vm_raise(vm, VM_ERR_TYPE, "Output of saved tensor unpack_hook expected to be a Tensor but got result of type %s",
             vm_type_name(r));
    *failed = true;
    return NULL;
  }
  return tensor_retain(lib_t(r));
}

static void script_packed_release(void *packed) {
  ScriptPacked *p = packed;
  vm_unpin(p->vm, p->value_pin);
  vm_unpin(p->vm, p->unpack_pin);
  free(p);
}

static const AgSavedHookFns script_saved_hooks = {script_pack, script_unpack,
                                                  script_packed_release};

static bool is_callable(Value v) {
  return IS_CLOSURE(v) || IS_NATIVE(v) || IS_BOUND_METHOD(v) || IS_CLASS(v);
}

/* autograd._push_saved_tensors_hooks(pack, unpack) */
static Value native_push_saved_hooks(NATIVE_ARGS) {
  for (int i = 0; i < 2; i++) {
    if (!is_callable(args[i]))
      return vm_raise(vm, VM_ERR_TYPE, "saved_tensors_hooks(): %s must be a function, not %s",
                      i == 0 ? "pack_hook" : "unpack_hook", vm_type_name(args[i]));
  }
  ScriptSavedHooks *h = malloc(sizeof *h);
  if (h == NULL) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  h->vm = vm;
  h->pack_pin = vm_pin(vm, args[0]);
  h->unpack_pin = vm_pin(vm, args[1]);
  if (!ag_saved_hooks_push(&script_saved_hooks, h)) {
    vm_unpin(vm, h->pack_pin);
    vm_unpin(vm, h->unpack_pin);
    free(h);
    return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  }
  return NIL_VAL;
}

/* autograd._pop_saved_tensors_hooks() */
static Value native_pop_saved_hooks(NATIVE_ARGS) {
  ScriptSavedHooks *h = ag_saved_hooks_pop();
  if (h != NULL) {
    vm_unpin(vm, h->pack_pin);
    vm_unpin(vm, h->unpack_pin);
    free(h);
  }
  return NIL_VAL;
}

/* autograd.graph.saved_bytes(t): (bytes, count) of the tensors the graph
 * behind t (a tensor or a node) saves for backward, each storage once. */
static Value native_saved_bytes(NATIVE_ARGS) {
  GradNode *node = NULL;
  if (IS_TENSOR(args[0])) node = ag_grad_fn(lib_t(args[0]));
  else if (IS_NODE(args[0])) node = AS_NODE_OBJ(args[0])->node;
  else
    return vm_raise(vm, VM_ERR_TYPE, "saved_bytes(): expected a tensor or a graph node, not %s",
                    vm_type_name(args[0]));
  int count = 0;
  size_t bytes = node ? ag_graph_saved_bytes(node, &count) : 0;
  Value items[2] = {INT_VAL(vm, bytes), INT_VAL(vm, count)};
  return OBJ_VAL(obj_new_tuple(vm, items, 2));
}

/* autograd._memory_stats(): (bytes of live tensor storage, the most since
 * the last autograd._reset_peak_memory()). */
static Value native_memory_stats(NATIVE_ARGS) {
  size_t live, peak;
  tensor_memory_stats(&live, &peak);
  Value items[2] = {INT_VAL(vm, live), INT_VAL(vm, peak)};
  return OBJ_VAL(obj_new_tuple(vm, items, 2));
}

/* autograd._is_checkpoint_valid() */
static Value native_is_checkpoint_valid(NATIVE_ARGS) { return BOOL_VAL(ag_checkpoint_valid()); }

static Value native_reset_peak_memory(NATIVE_ARGS) {
  tensor_memory_reset_peak();
  return NIL_VAL;
}

/* ---- custom Functions ---- */

typedef struct {
  AgVM *vm;
  uint32_t class_pin, ctx_pin;
  bool saved_freed; /* backward without retain_graph dropped ctx.saved_tensors */
} CustomCtx;

static void custom_release_saved(void *vctx) {
  CustomCtx *c = vctx;
  Value ctx = vm_pinned(c->vm, c->ctx_pin);
  if (!IS_INSTANCE(ctx)) return;
  Table *fields = &AS_INSTANCE(ctx)->fields;
  LibState *st = lib_state(c->vm);
  bool had_saved = table_remove(fields, OBJ_VAL(st->s_saved_tensors));
  bool had_packed = table_remove(fields, OBJ_VAL(st->s_packed_saved));
  if (had_saved || had_packed) c->saved_freed = true;
}

static const Tensor *custom_saved_tensor(void *vctx, int i) {
  CustomCtx *c = vctx;
  Value ctx = vm_pinned(c->vm, c->ctx_pin), saved;
  if (!IS_INSTANCE(ctx) ||
      !table_get(&AS_INSTANCE(ctx)->fields, OBJ_VAL(lib_state(c->vm)->s_saved_tensors), &saved) ||
      !is_list_or_tuple(saved))
    return NULL;
  ObjList *list = AS_LIST(saved);
  for (int k = 0; k < list->count; k++) { /* the i-th tensor: nil entries are skipped */
    if (IS_TENSOR(list->items[k]) && i-- == 0) return lib_t(list->items[k]);
  }
  return NULL;
}

static void custom_release(void *vctx) {
  CustomCtx *c = vctx;
  vm_unpin(c->vm, c->class_pin);
  vm_unpin(c->vm, c->ctx_pin);
  free(c);
}

/* Stores one gradient the script's backward returned; false after throwing. */
static bool custom_gradient(AgVM *vm, Value g, Tensor **out) {
  if (IS_NIL(g)) {
    *out = NULL;
    return true;
  }
  if (!IS_TENSOR(g)) {
    vm_raise(vm, VM_ERR_TYPE, "backward() must return tensors or nil, not %s", vm_type_name(g));
    return false;
  }
  *out = tensor_retain(lib_t(g));
  return true;
}

static int custom_results(AgVM *vm, Value r, Tensor **out, int max_out, bool *failed) {
  const Value *items = &r;
  int n = 1;
  if (is_list_or_tuple(r)) {
    items = AS_LIST(r)->items;
    n = AS_LIST(r)->count;
  }
  for (int i = 0; i < n && i < max_out; i++) {
    if (!custom_gradient(vm, items[i], &out[i])) {
      *failed = true;
      return -1;
    }
  }
  return n;
}

/* Under saved_tensors_hooks, a recorded custom node's ctx.saved_tensors go
 * through the pack hook too, as PyTorch's: ctx keeps [unpack_hook,
 * packed...] in a field of its own instead of the tensors, and backward
 * gets saved_tensors back from the unpack hook. False after throwing. */
static bool custom_pack_saved(AgVM *vm, Value ctx) {
  LibState *st = lib_state(vm);
  Table *fields = &AS_INSTANCE(ctx)->fields;
  Value saved;
  if (!table_get(fields, OBJ_VAL(st->s_saved_tensors), &saved) || !is_list_or_tuple(saved))
    return true;
  ObjList *packed = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(packed));
  obj_list_append(vm, packed, NIL_VAL); /* the unpack hook, once one pack ran */
  for (int i = 0; i < AS_LIST(saved)->count; i++) {
    Value item = AS_LIST(saved)->items[i];
    const AgSavedHookFns *fns = NULL;
    bool failed = false;
    void *p = IS_TENSOR(item) ? ag_saved_hooks_pack(lib_t(item), &fns, &failed) : NULL;
    if (failed) {
      vm_pop_root(vm);
      return false;
    }
    if (IS_TENSOR(item) && fns != &script_saved_hooks) { /* no hooks (or not the script's) */
      vm_pop_root(vm);
      return true;
    }
    if (p == NULL) {
      obj_list_append(vm, packed, NIL_VAL);
      continue;
    }
    ScriptPacked *sp = p;
    obj_list_append(vm, packed, vm_pinned(vm, sp->value_pin));
    packed->items[0] = vm_pinned(vm, sp->unpack_pin);
    script_packed_release(sp);
  }
  set_field(vm, ctx, st->s_packed_saved, OBJ_VAL(packed));
  table_remove(fields, OBJ_VAL(st->s_saved_tensors));
  vm_pop_root(vm);
  return true;
}

/* Before a custom backward: ctx.saved_tensors from the unpack hook, when
 * they were packed. False after throwing. */
static bool custom_unpack_saved(AgVM *vm, Value ctx) {
  LibState *st = lib_state(vm);
  Value packed;
  if (!table_get(&AS_INSTANCE(ctx)->fields, OBJ_VAL(st->s_packed_saved), &packed)) return true;
  ObjList *saved = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(saved));
  for (int i = 1; i < AS_LIST(packed)->count; i++) {
    Value p = AS_LIST(packed)->items[i], r = NIL_VAL;
    if (!IS_NIL(p)) {
      r = vm_call(vm, AS_LIST(packed)->items[0], 1, &p);
      if (IS_EXCEPTION(r)) break;
      if (!IS_TENSOR(r)) {
        r = vm_raise(vm, VM_ERR_TYPE, "Output of saved tensor unpack_hook expected to be a Tensor but got result of type %s",
                     vm_type_name(r));
        break;
      }
    }
    vm_push_root(vm, r);
    obj_list_append(vm, saved, r);
    vm_pop_root(vm);
  }
  bool ok = !vm->exc.pending;
  if (ok) set_field(vm, ctx, st->s_saved_tensors, OBJ_VAL(saved));
  vm_pop_root(vm);
  return ok;
}

static int custom_backward(void *vctx, Tensor *const *grads, int ngrads, Tensor **out, int max_out,
                           bool *failed) {
  CustomCtx *c = vctx;
  AgVM *vm = c->vm;
  if (c->saved_freed) {
    vm_throw_error(vm, "Trying to backward through the graph a second time (or directly access saved "
                       "tensors after they have already been freed). Saved intermediate values of the "
                       "graph are freed when you call .backward() or autograd.grad(). Specify "
                       "retain_graph=true if you need to backward through the graph a second time or if "
                       "you need to access saved tensors after calling backward.");
    *failed = true;
    return -1;
  }
  if (!custom_unpack_saved(vm, vm_pinned(vm, c->ctx_pin))) {
    *failed = true;
    return -1;
  }
  Value *bargs = malloc(sizeof(Value) * (size_t)(ngrads + 1));
  if (bargs == NULL) {
    tensor_set_error("out of memory");
    *failed = true;
    return -1;
  }
  bargs[0] = vm_pinned(vm, c->ctx_pin);
  for (int i = 0; i < ngrads; i++) {
    bargs[i + 1] = OBJ_VAL(obj_new_tensor(vm, tensor_retain(grads[i])));
    vm_push_root(vm, bargs[i + 1]);
  }
  Value r = vm_invoke(vm, vm_pinned(vm, c->class_pin), lib_state(vm)->s_backward, ngrads + 1,
                      bargs, NULL);
  vm_pop_roots(vm, ngrads);
  free(bargs);
  if (IS_EXCEPTION(r)) {
    *failed = true;
    return -1;
  }
  vm_push_root(vm, r);
  int n = custom_results(vm, r, out, max_out, failed);
  vm_pop_root(vm);
  return n;
}

/* ctx.save_for_backward(...tensors) */
static Value native_save_for_backward(NATIVE_ARGS) {
  for (int i = 0; i < argc; i++) {
    if (!IS_TENSOR(args[i]) && !IS_NIL(args[i]))
      return vm_raise(vm, VM_ERR_TYPE, "save_for_backward can only save tensors, but argument %d is of type %s",
                            i, vm_type_name(args[i]));
  }
  ObjList *saved = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(saved));
  for (int i = 0; i < argc; i++) obj_list_append(vm, saved, args[i]);
  set_field(vm, self, lib_state(vm)->s_saved_tensors, OBJ_VAL(saved));
  vm_pop_root(vm);
  return NIL_VAL;
}

static Value new_function_ctx(AgVM *vm, const bool *needs, int n) {
  LibState *st = lib_state(vm);
  ObjInstance *ctx = obj_new_instance(vm, st->ctx_class);
  vm_push_root(vm, OBJ_VAL(ctx));
  ObjList *flags = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(flags));
  for (int i = 0; i < n; i++) obj_list_append(vm, flags, BOOL_VAL(needs[i]));
  table_set(vm, &ctx->fields, OBJ_VAL(st->s_needs_input_grad), OBJ_VAL(flags));
  vm_pop_roots(vm, 2);
  return OBJ_VAL(ctx);
}

/* Runs forward(ctx, ...args) with grad mode off. */
static Value run_forward(AgVM *vm, Value klass, Value ctx, int argc, const Value *args) {
  Value *fargs = malloc(sizeof(Value) * (size_t)(argc + 1));
  if (fargs == NULL) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  fargs[0] = ctx;
  memcpy(fargs + 1, args, sizeof(Value) * (size_t)argc);
  bool prev = ag_set_grad_enabled(false);
  Value out = vm_invoke(vm, klass, lib_state(vm)->s_forward, argc + 1, fargs, NULL);
  ag_set_grad_enabled(prev);
  free(fargs);
  return out;
}

/* The forward's outputs (a tensor or a list of tensors), retained. */
static Tensor **forward_outputs(AgVM *vm, Value out, int *n) {
  int count = 0;
  Tensor **ts = tensor_array(vm, out, "forward() result", false, &count);
  if (ts == NULL) return NULL;
  for (int i = 0; i < count; i++) tensor_retain(ts[i]);
  *n = count;
  return ts;
}

/* Wraps outputs the record replaced (aliases of arguments) anew. */
static Value wrap_outputs(AgVM *vm, Value out, Tensor **outs, int n) {
  if (!is_list_or_tuple(out)) {
    Value r = outs[0] == lib_t(out) ? out : OBJ_VAL(obj_new_tensor(vm, tensor_retain(outs[0])));
    return r;
  }
  ObjList *list = obj_new_list(vm);
  vm_push_root(vm, OBJ_VAL(list));
  for (int i = 0; i < n; i++) {
    Value orig = AS_LIST(out)->items[i];
    Value r = outs[i] == lib_t(orig) ? orig : OBJ_VAL(obj_new_tensor(vm, tensor_retain(outs[i])));
    vm_push_root(vm, r);
    obj_list_append(vm, list, r);
    vm_pop_root(vm);
  }
  vm_pop_root(vm);
  return IS_TUPLE(out) ? vm_list_to_tuple(vm, OBJ_VAL(list)) : OBJ_VAL(list);
}

static void release_all(Tensor **ts, int n) {
  for (int i = 0; i < n; i++) tensor_release(ts[i]);
  free(ts);
}

static Value record_custom(AgVM *vm, Value klass, Value ctx, Value out, Tensor **targs, int argc) {
  int nout = 0;
  Tensor **outs = forward_outputs(vm, out, &nout);
  if (outs == NULL) return VM_EXCEPTION;
  CustomCtx *c = malloc(sizeof *c);
  if (c == NULL) {
    release_all(outs, nout);
    return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  }
  c->vm = vm;
  c->saved_freed = false;
  c->class_pin = vm_pin(vm, klass);
  c->ctx_pin = vm_pin(vm, ctx);
  AgFunctionFns fns = {custom_backward, custom_release_saved, custom_release,
                       custom_saved_tensor};
  lib_sync_line(vm);
  if (!ag_custom_record(AS_CLASS(klass)->name->chars, fns, c, targs, argc, outs, nout)) {
    release_all(outs, nout);
    return lib_throw_tensor_error(vm);
  }
  Value r = wrap_outputs(vm, out, outs, nout);
  release_all(outs, nout);
  if (IS_EXCEPTION(r)) return r;
  vm_push_root(vm, r);
  bool packed = custom_pack_saved(vm, ctx);
  vm_pop_root(vm);
  return packed ? r : VM_EXCEPTION;
}

/* ---- forward AD through a Function ----
 * As PyTorch: forward() sees the primals (forward AD suspended), then the
 * class's jvp(ctx, ...tangents) gives the outputs' tangents (a tensor
 * argument without one passes zeros, another argument nil). */
static bool any_tangent(Tensor **targs, int argc) {
  for (int i = 0; i < argc; i++)
    if (targs[i] && ag_fw_tangent(targs[i])) return true;
  return false;
}

static Value jvp_argument(AgVM *vm, Tensor *arg) {
  if (arg == NULL) return NIL_VAL;
  Tensor *t = ag_fw_tangent(arg);
  t = t ? tensor_retain(t) : tensor_zeros(arg->dtype, arg->ndim, arg->shape);
  return t ? OBJ_VAL(obj_new_tensor(vm, t)) : lib_throw_tensor_error(vm);
}

/* Gives the outputs of `out` the tangents jvp() returned; false after throwing. */
static bool apply_jvp(AgVM *vm, Value klass, Value ctx, Value out, Tensor **targs, int argc) {
  Value *jargs = malloc(sizeof(Value) * (size_t)(argc + 1));
  if (jargs == NULL) return !IS_EXCEPTION(vm_raise(vm, VM_ERR_MEMORY, "out of memory"));
  jargs[0] = ctx;
  int rooted = 0;
  bool ok = true;
  for (int i = 0; ok && i < argc; i++) {
    jargs[i + 1] = jvp_argument(vm, targs[i]);
    ok = !IS_EXCEPTION(jargs[i + 1]);
    if (ok) vm_push_root(vm, jargs[i + 1]), rooted++;
  }
  ObjString *name = obj_string(vm, "jvp");
  vm_push_root(vm, OBJ_VAL(name));
  Value r = ok ? vm_invoke(vm, klass, name, argc + 1, jargs, NULL) : VM_EXCEPTION;
  vm_pop_roots(vm, rooted + 1);
  free(jargs);
  if (IS_EXCEPTION(r)) return false;
  vm_push_root(vm, r);
  int nout = 0, ntan = 0;
  Tensor **outs = tensor_array(vm, out, "forward() result", false, &nout);
  Tensor **tans = outs ? tensor_array(vm, r, "jvp() result", false, &ntan) : NULL;
  ok = tans != NULL;
  if (ok && ntan != nout) {
    vm_raise(vm, VM_ERR_RUNTIME, "jvp() returned %d tangents for %d outputs", ntan, nout);
    ok = false;
  }
  for (int i = 0; ok && i < nout; i++)
    if (!ag_fw_attach(outs[i], tans[i])) ok = !IS_EXCEPTION(lib_throw_tensor_error(vm));
  free(outs);
  free(tans);
  vm_pop_root(vm);
  return ok;
}

static Value native_function_no_jvp(NATIVE_ARGS) {
  return vm_raise(vm, VM_ERR_NOT_IMPLEMENTED, "You must implement the jvp function for custom "
                                              "autograd.Function to use it with forward mode AD.");
}

/* MyFn.apply(...args): self is the Function subclass. */
static Value native_apply(NATIVE_ARGS) {
  if (!IS_CLASS(self)) return vm_raise(vm, VM_ERR_TYPE, "apply() must be called on a Function subclass");
  Tensor **targs = calloc((size_t)(argc ? argc : 1), sizeof *targs);
  bool *needs = calloc((size_t)(argc ? argc : 1), sizeof *needs);
  if (targs == NULL || needs == NULL) {
    free(targs);
    free(needs);
    return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  }
  for (int i = 0; i < argc; i++) targs[i] = IS_TENSOR(args[i]) ? lib_t(args[i]) : NULL;
  bool any = ag_custom_needs_input_grad(targs, argc, needs);
  bool dual = any_tangent(targs, argc);
  Value ctx = new_function_ctx(vm, needs, argc);
  vm_push_root(vm, ctx);
  bool was_on = ag_fw_set_enabled(!dual); /* forward() and the record see primals */
  Value out = run_forward(vm, self, ctx, argc, args);
  Value r = out;
  if (!IS_EXCEPTION(out) && any) {
    vm_push_root(vm, out);
    r = record_custom(vm, self, ctx, out, targs, argc);
    vm_pop_root(vm);
  }
  if (!IS_EXCEPTION(r) && dual) {
    vm_push_root(vm, r);
    if (!apply_jvp(vm, self, ctx, r, targs, argc)) r = VM_EXCEPTION;
    vm_pop_root(vm);
  }
  ag_fw_set_enabled(was_on);
  vm_pop_root(vm);
  free(targs);
  free(needs);
  return r;
}

static Value native_function_default(NATIVE_ARGS) {
  return vm_throw_error(vm, "a Function subclass must define forward(ctx, ...) and backward(ctx, ...grads)");
}

/* ---- installation ---- */

static ObjClass *new_class(AgVM *vm, const char *name) {
  ObjString *s = obj_string(vm, name);
  vm_push_root(vm, OBJ_VAL(s));
  ObjClass *k = obj_new_class(vm, s);
  vm_pop_root(vm);
  return k;
}

static ObjClass *context_class(AgVM *vm, const char *name, AgNativeFn enter, AgNativeFn exit) {
  ObjClass *k = new_class(vm, name);
  vm_push_root(vm, OBJ_VAL(k));
  vm_add_method(vm, &k->methods, "enter", enter, 0, 0, false);
  vm_add_method(vm, &k->methods, "exit", exit, 0, -1, false);
  vm_pop_root(vm);
  return k;
}

static void install_classes(AgVM *vm) {
  LibState *st = lib_state(vm);
  st->context_classes[CTX_NO_GRAD] = context_class(vm, "no_grad", native_grad_enter, native_grad_exit);
  st->context_classes[CTX_ENABLE_GRAD] =
      context_class(vm, "enable_grad", native_grad_enter, native_grad_exit);
  st->context_classes[CTX_SET_GRAD] =
      context_class(vm, "set_grad_enabled", native_nothing, native_grad_exit);
  st->context_classes[CTX_ANOMALY] =
      context_class(vm, "detect_anomaly", native_anomaly_enter, native_anomaly_exit);
  for (int kind = CTX_NO_GRAD; kind <= CTX_ENABLE_GRAD; kind++)
    vm_add_method(vm, &st->context_classes[kind]->methods, "call", native_grad_decorate, 1, 1, false);
  st->grad_mode_function_class = new_class(vm, "grad_mode_function");
  vm_add_method(vm, &st->grad_mode_function_class->methods, "call", native_grad_mode_call, 0, -1, true);
  st->handle_class = new_class(vm, "RemovableHandle");
  vm_add_method(vm, &st->handle_class->methods, "remove", native_handle_remove, 0, 0, false);
  st->ctx_class = new_class(vm, "FunctionCtx");
  vm_add_method(vm, &st->ctx_class->methods, "save_for_backward", native_save_for_backward, 0, -1, false);
  st->function_class = new_class(vm, "Function");
  vm_add_method(vm, &st->function_class->methods, "apply", native_apply, 0, -1, false);
  vm_add_method(vm, &st->function_class->methods, "forward", native_function_default, 0, -1, false);
  vm_add_method(vm, &st->function_class->methods, "backward", native_function_default, 0, -1, false);
  vm_add_method(vm, &st->function_class->methods, "jvp", native_function_no_jvp, 0, -1, false);
}

static ObjString *intern(AgVM *vm, const char *s) { return obj_string(vm, s); }

void lib_install_autograd(AgVM *vm) {
  LibState *st = lib_state(vm);
  st->s_forward = intern(vm, "forward");
  st->s_backward = intern(vm, "backward");
  st->s_saved_tensors = intern(vm, "saved_tensors");
  st->s_packed_saved = intern(vm, "_packed_saved_tensors");
  st->s_needs_input_grad = intern(vm, "needs_input_grad");
  st->s_mode = intern(vm, "mode");
  st->s_prev = intern(vm, "prev");
  st->s_tensor = intern(vm, "tensor");
  st->s_id = intern(vm, "id");
  for (int i = 0; i < NODE_ATTR_COUNT; i++) {
    ObjString *s = intern(vm, node_attr_names[i]);
    vm_push_root(vm, OBJ_VAL(s));
    table_set(vm, &st->node_names, OBJ_VAL(s), INT_VAL(vm, i));
    vm_pop_root(vm);
  }
  install_classes(vm);
  HELP("Function", HELP_AUTOGRAD, 0,
       "class MyFn : Function { fn forward(ctx, ...) fn backward(ctx, ...grads) }",
       "The base class of custom autograd functions: forward computes the result, backward "
       "returns one gradient per input (or a list); ctx.save_for_backward(...), "
       "ctx.saved_tensors and ctx.needs_input_grad carry state. Call with MyFn.apply(...); "
       "its node prints as <MyFnBackward>. For forward_ad, fn jvp(ctx, ...tangents) returns "
       "the outputs' tangents (forward() then sees the primals).",
       "class Double : Function {\n"
       "  fn forward(ctx, x) { return x * 2 }\n"
       "  fn backward(ctx, g) { return g * 2 }\n"
       "}\n"
       "let x = ones(2, requires_grad=true)\n"
       "Double.apply(x).sum().backward()\n"
       "print(x.grad)")
  vm_define_builtin(vm, "Function", OBJ_VAL(st->function_class));
  vm_define_native(vm, "no_grad", native_no_grad, 0, 0, false);
  vm_define_native(vm, "enable_grad", native_enable_grad, 0, 0, false);
  vm_define_native(vm, "set_grad_enabled", native_set_grad_enabled, 1, 1, false);
  vm_define_native(vm, "is_grad_enabled", native_is_grad_enabled, 0, 0, false);
  vm_define_native(vm, "is_anomaly_enabled", native_is_anomaly_enabled, 0, 0, false);
}

void lib_install_autograd_module(AgVM *vm, ObjModule *module) {
  LibState *st = lib_state(vm);
  static const struct {
    const char *name;
    AgNativeFn fn;
    int min, max;
    bool kw;
  } natives[] = {
      {"grad", native_grad, 1, 6, true},
      {"backward", native_autograd_backward, 1, 5, true},
      {"detect_anomaly", native_detect_anomaly, 0, 1, true},
      {"is_anomaly_enabled", native_is_anomaly_enabled, 0, 0, false},
      {"no_grad", native_no_grad, 0, 0, false},
      {"enable_grad", native_enable_grad, 0, 0, false},
      {"set_grad_enabled", native_set_grad_enabled, 1, 1, false},
      {"_push_saved_tensors_hooks", native_push_saved_hooks, 2, 2, false},
      {"_pop_saved_tensors_hooks", native_pop_saved_hooks, 0, 0, false},
      {"_saved_bytes", native_saved_bytes, 1, 1, false},
      {"_memory_stats", native_memory_stats, 0, 0, false},
      {"_reset_peak_memory", native_reset_peak_memory, 0, 0, false},
      {"_is_checkpoint_valid", native_is_checkpoint_valid, 0, 0, false},
  };
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++) {
    ObjNative *n = obj_new_native(vm, natives[i].name, natives[i].fn, natives[i].min, natives[i].max,
                                  natives[i].kw);
    vm_push_root(vm, OBJ_VAL(n));
    lib_module_define(vm, module, natives[i].name, OBJ_VAL(n));
    vm_pop_root(vm);
  }
  lib_module_define(vm, module, "Function", OBJ_VAL(st->function_class));
}

/* ---- autograd.forward_ad: the natives under forward_ad.ag ---- */

static Value native_enter_dual_level(NATIVE_ARGS) {
  int level = ag_fw_enter_level();
  return level < 0 ? lib_throw_tensor_error(vm) : SMALLINT_VAL(level);
}

static Value native_exit_dual_level(NATIVE_ARGS) {
  return ag_fw_exit_level() ? NIL_VAL : lib_throw_tensor_error(vm);
}

static Value native_current_level(NATIVE_ARGS) { return SMALLINT_VAL(ag_fw_level()); }

static Value native_make_dual(NATIVE_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "make_dual", "tensor", args[0]);
  if (!IS_TENSOR(args[1])) return lib_type_error(vm, "make_dual", "tangent", args[1]);
  lib_sync_line(vm);
  return lib_wrap(vm, ag_make_dual(lib_t(args[0]), lib_t(args[1])));
}

/* [primal, tangent or nil] */
static Value native_unpack_dual(NATIVE_ARGS) {
  if (!IS_TENSOR(args[0])) return lib_type_error(vm, "unpack_dual", "tensor", args[0]);
  lib_sync_line(vm);
  Tensor *tangent = ag_fw_tangent(lib_t(args[0]));
  Tensor **pair = calloc(2, sizeof *pair);
  if (!pair) return vm_raise(vm, VM_ERR_MEMORY, "out of memory");
  pair[0] = ag_unpack_primal(lib_t(args[0]));
  if (!pair[0]) {
    free(pair);
    return lib_throw_tensor_error(vm);
  }
  pair[1] = tangent ? tensor_retain(tangent) : NULL;
  return results_list(vm, pair, 2);
}

void lib_forward_ad_define(AgVM *vm, ObjModule *module) {
  static const struct {
    const char *name;
    AgNativeFn fn;
    int min, max;
  } natives[] = {
      {"_enter_dual_level", native_enter_dual_level, 0, 0},
      {"_exit_dual_level", native_exit_dual_level, 0, 0},
      {"_current_level", native_current_level, 0, 0},
      {"_make_dual", native_make_dual, 2, 2},
      {"_unpack_dual", native_unpack_dual, 1, 1},
  };
  for (size_t i = 0; i < sizeof natives / sizeof natives[0]; i++) {
    ObjNative *n =
        obj_new_native(vm, natives[i].name, natives[i].fn, natives[i].min, natives[i].max, false);
    vm_push_root(vm, OBJ_VAL(n));
    lib_module_define(vm, module, natives[i].name, OBJ_VAL(n));
    vm_pop_root(vm);
  }
}
