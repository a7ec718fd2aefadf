/* lib_graph.c — print_graph, to_dot, save_graph, graph_diff (see lib_graph.h). */
#include "stdlib/lib_graph.h"

#include <stdio.h>
#include <stdlib.h>

#include "stdlib/graph.h"
#include "stdlib/lib_internal.h"

/* A tensor or a node as the root of a graph; false after throwing. */
static bool root_arg(AgVM *vm, const char *fname, const char *param, Value v, GraphRoot *out) {
  if (IS_TENSOR(v)) *out = graph_root_of_tensor(AS_TENSOR_OBJ(v)->tensor);
  else if (IS_NODE(v)) *out = graph_root_of_node(AS_NODE_OBJ(v)->node);
  else {
    vm_throw_error(vm, "%s(): argument '%s' must be a tensor or a graph node, not %s", fname,
                   param, vm_type_name(v));
    return false;
  }
  return true;
}

static Value throw_graph_error(AgVM *vm, const char *fname) {
  return vm_throw_error(vm, "%s: %s", fname, tensor_error());
}

static Value native_print_graph(AgVM *vm, Value self, int argc, const Value *args,
                                const AgKwargs *kw) {
  static const char *const names[] = {"t"};
  Value a[1];
  GraphRoot root;
  if (!lib_bind(vm, "print_graph", argc, args, kw, names, 1, a) ||
      !root_arg(vm, "print_graph", "t", a[0], &root))
    return VM_EXCEPTION;
  if (!graph_print_tree(stdout, root)) return throw_graph_error(vm, "print_graph");
  return NIL_VAL;
}

static Value native_to_dot(AgVM *vm, Value self, int argc, const Value *args,
                           const AgKwargs *kw) {
  static const char *const names[] = {"t", "show_saved"};
  Value a[2];
  GraphRoot root;
  bool show_saved;
  if (!lib_bind(vm, "to_dot", argc, args, kw, names, 2, a) ||
      !root_arg(vm, "to_dot", "t", a[0], &root) || !lib_flag(vm, a[1], false, &show_saved))
    return VM_EXCEPTION;
  char *text = graph_to_dot(root, show_saved);
  if (!text) return throw_graph_error(vm, "to_dot");
  ObjString *s = obj_string(vm, text);
  free(text);
  return OBJ_VAL(s);
}

static Value native_save_graph(AgVM *vm, Value self, int argc, const Value *args,
                               const AgKwargs *kw) {
  static const char *const names[] = {"t", "path", "show_saved"};
  Value a[3];
  GraphRoot root;
  bool show_saved;
  if (!lib_bind(vm, "save_graph", argc, args, kw, names, 3, a) ||
      !root_arg(vm, "save_graph", "t", a[0], &root) || !lib_flag(vm, a[2], false, &show_saved))
    return VM_EXCEPTION;
  if (!IS_STRING(a[1]))
    return vm_throw_error(vm, "save_graph(): argument 'path' must be a string, not %s",
                          vm_type_name(a[1]));
  if (!graph_save(root, AS_CSTRING(a[1]), show_saved)) return throw_graph_error(vm, "save_graph");
  return NIL_VAL;
}

static Value native_graph_diff(AgVM *vm, Value self, int argc, const Value *args,
                               const AgKwargs *kw) {
  static const char *const names[] = {"a", "b"};
  Value a[2];
  GraphRoot ra, rb;
  if (!lib_bind(vm, "graph_diff", argc, args, kw, names, 2, a) ||
      !root_arg(vm, "graph_diff", "a", a[0], &ra) || !root_arg(vm, "graph_diff", "b", a[1], &rb))
    return VM_EXCEPTION;
  if (!graph_print_diff(stdout, ra, rb)) return throw_graph_error(vm, "graph_diff");
  return NIL_VAL;
}

void lib_graph_install(AgVM *vm) {
  vm_define_native(vm, "print_graph", native_print_graph, 1, 1, true);
  vm_define_native(vm, "to_dot", native_to_dot, 1, 2, true);
  vm_define_native(vm, "save_graph", native_save_graph, 2, 3, true);
  vm_define_native(vm, "graph_diff", native_graph_diff, 2, 2, true);
}
