/* test_lib.c — the tensor/autograd bindings as a C library: per-VM state,
 * the collector's view of it, script callbacks inside the engine, teardown. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#elif defined(__APPLE__)
#include <malloc/malloc.h>
#endif

#include "stdlib/builtins.h"
#include "stdlib/lib.h"
#include "tensor/tensor.h"
#include "vm/memory.h"
#include "vm/vm.h"

static AgVM *new_vm(void) {
  AgVM *vm = vm_new();
  lib_install_builtins(vm);
  lib_install(vm);
  return vm;
}

/* Runs src and returns the number in global `name` (NAN when missing). */
static double run_number(AgVM *vm, const char *src, const char *name) {
  ck_assert_int_eq(vm_run_source(vm, src, "<test>"), VM_OK);
  Value v;
  if (!vm_get_global(vm, name, &v) || !IS_NUMBER(v)) return NAN;
  return AS_NUMBER(v);
}

/* Python's random: CPython 3.11's draws (mt19937ar seeded by init_by_array
 * over the words of |seed|), one generator per VM, apart from manual_seed's. */
START_TEST(python_random_is_cpythons_and_per_vm) {
  AgVM *a = new_vm(), *b = new_vm();
  ck_assert(run_number(a, "random.seed(0)\nlet r = random.random()", "r") == 0.8444218515250481);
  ck_assert(run_number(b, "random.seed(2**40 + 3)\nlet r = random.getrandbits(32)", "r") ==
            run_number(b, "random.seed(2**40 + 3)\nlet r2 = random.getrandbits(32)", "r2"));
  ck_assert(run_number(a, "manual_seed(9)\nlet r3 = random.random()", "r3") == 0.7579544029403025);
  ck_assert(run_number(a, "random.seed(-1)\nlet r4 = random.random()", "r4") ==
            run_number(b, "random.seed(1)\nlet r4 = random.random()", "r4"));
  vm_free(a);
  vm_free(b);
}
END_TEST

/* torch.X is the built-in X without a second list; a module without the
 * flag keeps its own members only. */
START_TEST(torch_members_are_the_builtins) {
  AgVM *vm = new_vm();
  Value torch, randn, member;
  ck_assert(vm_get_global(vm, "torch", &torch) && IS_MODULE(torch));
  ck_assert(vm_get_global(vm, "randn", &randn));
  ck_assert(vm_module_member(vm, AS_MODULE(torch), obj_string(vm, "randn"), &member));
  ck_assert(member == randn);
  Value optim;
  ck_assert(vm_get_global(vm, "optim", &optim) && IS_MODULE(optim));
  ck_assert(!vm_module_member(vm, AS_MODULE(optim), obj_string(vm, "randn"), &member));
  ck_assert(!vm->exc.pending);
  vm_free(vm);
}
END_TEST

START_TEST(random_state_is_per_vm) {
  AgVM *a = new_vm(), *b = new_vm(), *c = new_vm();
  run_number(a, "manual_seed(5)\nlet r = randn(3).sum().item()", "r");
  run_number(b, "manual_seed(6)\nlet r = randn(3).sum().item()", "r");
  double a2 = run_number(a, "let r2 = randn(3).sum().item()", "r2");
  double c2 = run_number(c, "manual_seed(5)\nrandn(3)\nlet r2 = randn(3).sum().item()", "r2");
  ck_assert(a2 == c2);
  vm_free(a);
  vm_free(b);
  vm_free(c);
}
END_TEST

START_TEST(methods_survive_collections) {
  AgVM *vm = new_vm();
  vm->gc.stress = true;
  double s = run_number(vm,
                        "let x = tensor([1.0, 2.0], requires_grad=true)\n"
                        "let f = x.sum\n"
                        "let y = (x * x).sum(dim=0)\n"
                        "y.backward()\n"
                        "let s = f().item() + x.grad.sum().item()",
                        "s");
  ck_assert(s == 9.0);
  vm_free(vm);
}
END_TEST

START_TEST(hook_error_unwinds_to_the_script) {
  AgVM *vm = new_vm();
  ck_assert_int_eq(vm_run_source(vm,
                                 "let x = tensor(1.0, requires_grad=true)\n"
                                 "x.register_hook(fn(g) { error(\"from the hook\") })\n"
                                 "(x * 2).backward()",
                                 "<test>"),
                   VM_RUNTIME_ERROR);
  double n = run_number(vm,
                        "let n = 0\n"
                        "try { (x * 3).backward() } catch e {\n"
                        "  if e.message == \"from the hook\" and is_grad_enabled() { n = 1 }\n"
                        "}",
                        "n");
  ck_assert(n == 1.0);
  vm_free(vm);
}
END_TEST

START_TEST(graphs_with_callbacks_are_freed_with_the_vm) {
  /* ASan's leak check fails this test if a pinned closure, a custom ctx or
   * a node outlives the VM. */
  AgVM *vm = new_vm();
  double v = run_number(vm,
                        "class Twice : Function {\n"
                        "  fn forward(ctx, t) { ctx.save_for_backward(t); return t * 2 }\n"
                        "  fn backward(ctx, g) { return g * 2 }\n"
                        "}\n"
                        "let x = tensor([1.0, 2.0], requires_grad=true)\n"
                        "x.register_hook(fn(g) { return g + 1 })\n"
                        "let kept = Twice.apply(x)\n"
                        "let y = Twice.apply(x).sum()\n"
                        "y.backward()\n"
                        "let v = x.grad.sum().item()",
                        "v");
  ck_assert(v == 6.0);
  vm_free(vm);
}
END_TEST

START_TEST(library_modules_are_globals) {
  AgVM *vm = new_vm();
  double n = run_number(vm,
                        "let n = 0\n"
                        "for m in [nn, optim, autograd] { if type(m) == \"module\" { n += 1 } }",
                        "n");
  ck_assert(n == 3.0);
  vm_free(vm);
}
END_TEST

/* func.vmap: a native given a BatchedTensor goes through func's dispatch
 * (exp of a batch is one batched call), the natives that take any value
 * (type) see the BatchedTensor itself, the VM looks at arguments only while
 * a vmap runs, and functorch is the same module as func. */
START_TEST(batched_arguments_reach_func_dispatch) {
  AgVM *vm = new_vm();
  ck_assert(run_number(vm,
                       "let seen = 0\n"
                       "let r = func.vmap(fn(v) { if type(v) == func.BatchedTensor { seen = 1 }\n"
                       "  return exp(v).sum() })(zeros(3, 2))\n"
                       "let total = r.sum().item() + seen * 100",
                       "total") == 106.0);
  ck_assert(vm->vmap.batched_class != NULL);
  ck_assert_int_eq(vm->vmap.depth, 0);
  ck_assert(run_number(vm, "let same = 1 if functorch == func and torch.func == func else 0", "same") == 1.0);
  /* an error inside the mapped function leaves no vmap running */
  ck_assert_int_eq(vm_run_source(vm, "func.vmap(fn(v) { return v.item() })(ones(2))", "<test>"), VM_RUNTIME_ERROR);
  vm_take_exception(vm);
  ck_assert_int_eq(vm->vmap.depth, 0);
  vm_free(vm);
}
END_TEST

/* nn's code runs at its first use, not when the VM is made; a Ctrl-C while
 * it runs leaves it unloaded, and the next use loads it. */
START_TEST(library_modules_load_at_first_use) {
  AgVM *vm = new_vm();
  Value nn;
  ck_assert(vm_get_global(vm, "nn", &nn) && IS_MODULE(nn));
  ck_assert_int_eq(AS_MODULE(nn)->state, MODULE_UNLOADED);
  tensor_interrupt_requested = 1;
  ck_assert(!vm_load_module(vm, AS_MODULE(nn)));
  Value exc = vm_take_exception(vm);
  ck_assert(IS_INSTANCE(exc) && AS_INSTANCE(exc)->klass == vm->core.interrupted_class);
  ck_assert_int_eq(AS_MODULE(nn)->state, MODULE_UNLOADED);
  double n = run_number(vm, "let n = nn.Linear(2, 3).weight.shape[0]", "n");
  ck_assert(n == 3.0);
  ck_assert_int_eq(AS_MODULE(nn)->state, MODULE_LOADED);
  vm_free(vm);
}
END_TEST

/* nn.init is a module of its own inside nn: defined before nn's code runs
 * (which uses it), loaded at its own first use. */
START_TEST(nn_init_loads_at_first_use) {
  AgVM *vm = new_vm();
  double n = run_number(vm, "let ini = nn.init\nlet n = 1", "n");
  ck_assert(n == 1.0);
  Value ini;
  ck_assert(vm_get_global(vm, "ini", &ini) && IS_MODULE(ini));
  ck_assert_int_eq(AS_MODULE(ini)->state, MODULE_UNLOADED);
  n = run_number(vm, "let n = nn.init.ones_(zeros(3)).sum().item()", "n");
  ck_assert(n == 3.0);
  ck_assert_int_eq(AS_MODULE(ini)->state, MODULE_LOADED);
  vm_free(vm);
}
END_TEST

/* A loop of scalar autograd ops drops a tensor, a node and a wrapper per op.
 * The collector must count all of that memory, not just the 4-byte
 * elements, or tens of MB of garbage pile up between collections. */
/* Bytes the C library's malloc has handed out and not taken back. */
static size_t heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  return mallinfo2().uordblks;
#elif defined(__GLIBC__)
  return (size_t)(unsigned)mallinfo().uordblks; /* before 2.33: an int, enough here */
#elif defined(__APPLE__)
  return mstats().bytes_used;
#else
#define NO_HEAP_STATISTICS
  return 0;
#endif
}

START_TEST(scalar_loop_memory_stays_small) {
#ifdef NO_HEAP_STATISTICS
  puts("SKIP scalar_loop_memory_stays_small: no heap statistics in this C library");
  return;
#endif
  AgVM *vm = new_vm();
  size_t before = heap_in_use();
  run_number(vm,
             "let x = tensor(0.5, requires_grad=true)\n"
             "let y = x\n"
             "for i in range(100000) { y = tanh(x * 2 + 1) }\n"
             "let done = 1",
             "done");
  size_t grown = heap_in_use() - before;
  ck_assert_msg(grown < (12u << 20), "the loop left %zu bytes in use", grown);
  vm_free(vm);
}
END_TEST

int main(void) {
  Suite *s = suite_create("lib");
  TCase *tc = tcase_create("lib");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, random_state_is_per_vm);
  tcase_add_test(tc, methods_survive_collections);
  tcase_add_test(tc, hook_error_unwinds_to_the_script);
  tcase_add_test(tc, graphs_with_callbacks_are_freed_with_the_vm);
  tcase_add_test(tc, library_modules_are_globals);
  tcase_add_test(tc, library_modules_load_at_first_use);
  tcase_add_test(tc, batched_arguments_reach_func_dispatch);
  tcase_add_test(tc, nn_init_loads_at_first_use);
  tcase_add_test(tc, scalar_loop_memory_stays_small);
  tcase_add_test(tc, python_random_is_cpythons_and_per_vm);
  tcase_add_test(tc, torch_members_are_the_builtins);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
