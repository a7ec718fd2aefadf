/* py_modules.c — natives of Python's time, os and sys modules (their Ag
 * files, stdlib/time.ag, os.ag and sys.ag, build the rest), and the helper
 * that defines natives in a module. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stdlib/builtins.h"
#include "stdlib/lib_internal.h"
#include "stdlib/py_modules.h"

void py_define_natives(AgVM *vm, ObjModule *module, const PyNative *natives, size_t n) {
  for (size_t i = 0; i < n; i++) {
    ObjNative *f = obj_new_native(vm, natives[i].name, natives[i].fn, natives[i].min_args,
                                  natives[i].max_args, false);
    vm_push_root(vm, OBJ_VAL(f));
    lib_module_define(vm, module, natives[i].name, OBJ_VAL(f));
    vm_pop_root(vm);
  }
}

/* ---- time ---- */

static double seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

HELP("time", HELP_BUILTINS, 0,
     "time",
     "Python's time module: time() (seconds since the epoch, a float), time_ns(), "
     "perf_counter() and monotonic() (a monotonic clock, as clock()), process_time(), "
     "sleep(secs) (Ctrl-C interrupts it).",
     "let t0 = time.perf_counter()\n"
     "time.sleep(0.01)\n"
     "print(time.perf_counter() - t0 >= 0.01)")

static Value native_time(NATIVE_ARGS) { return FLOAT_VAL(seconds(CLOCK_REALTIME)); }
static Value native_perf_counter(NATIVE_ARGS) { return FLOAT_VAL(seconds(CLOCK_MONOTONIC)); }
static Value native_process_time(NATIVE_ARGS) { return FLOAT_VAL(seconds(CLOCK_PROCESS_CPUTIME_ID)); }

static Value native_time_ns(NATIVE_ARGS) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return INT_VAL(vm, (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

/* sleep(secs): in slices of at most 50 ms, so that Ctrl-C stops it soon. */
static Value native_sleep(NATIVE_ARGS) {
  double secs;
  if (!lib_number(vm, args[0], "time.sleep() argument", &secs)) return VM_EXCEPTION;
  if (isnan(secs)) return vm_throw_error(vm, "Invalid value NaN (not a number)");
  if (secs < 0) return vm_throw_error(vm, "sleep length must be non-negative");
  double end = seconds(CLOCK_MONOTONIC) + secs;
  for (;;) {
    if (tensor_interrupt_requested) return vm_throw_interrupted(vm);
    double left = end - seconds(CLOCK_MONOTONIC);
    if (left <= 0) return NIL_VAL;
    if (left > 0.05) left = 0.05;
    struct timespec ts = {0, (long)(left * 1e9)};
    nanosleep(&ts, NULL); /* EINTR on Ctrl-C: the loop sees the flag */
  }
}

/* ---- os ---- */

static Value native_getcwd(NATIVE_ARGS) {
  char buf[PATH_MAX];
  if (getcwd(buf, sizeof buf) == NULL) return vm_throw_error(vm, "getcwd: %s", strerror(errno));
  return OBJ_VAL(obj_string(vm, buf));
}

/* 0: absent, 1: a regular file, 2: a directory, 3: something else */
static int path_kind(AgVM *vm, Value v, const char *fname, bool *ok) {
  *ok = IS_STRING(v);
  if (!*ok) {
    vm_raise(vm, VM_ERR_TYPE, "os.path.%s(): the path must be a string, not %s", fname, vm_type_name(v));
    return 0;
  }
  struct stat st;
  if (stat(AS_CSTRING(v), &st) != 0) return 0;
  return S_ISREG(st.st_mode) ? 1 : S_ISDIR(st.st_mode) ? 2 : 3;
}

static Value native_exists(NATIVE_ARGS) {
  bool ok;
  int k = path_kind(vm, args[0], "exists", &ok);
  return ok ? BOOL_VAL(k != 0) : VM_EXCEPTION;
}

static Value native_isfile(NATIVE_ARGS) {
  bool ok;
  int k = path_kind(vm, args[0], "isfile", &ok);
  return ok ? BOOL_VAL(k == 1) : VM_EXCEPTION;
}

static Value native_isdir(NATIVE_ARGS) {
  bool ok;
  int k = path_kind(vm, args[0], "isdir", &ok);
  return ok ? BOOL_VAL(k == 2) : VM_EXCEPTION;
}

static Value native_getenv(NATIVE_ARGS) {
  if (!IS_STRING(args[0])) return vm_raise(vm, VM_ERR_TYPE, "os.getenv(): the name must be a string");
  const char *v = getenv(AS_CSTRING(args[0]));
  if (v == NULL) return argc > 1 ? args[1] : NIL_VAL;
  return OBJ_VAL(obj_string(vm, v));
}

/* ---- sys ---- */

/* sys.exit(code): an int is the exit status, nil 0, anything else is printed
 * to stderr and the status is 1 (Python's SystemExit). */
static Value native_sys_exit(NATIVE_ARGS) {
  Value code = argc > 0 ? args[0] : NIL_VAL;
  int status = 0;
  if (IS_INT(code) || IS_BOOL(code)) {
    status = IS_BOOL(code) ? code == TRUE_VAL : (int)AS_INT(code);
  } else if (!IS_NIL(code)) {
    Value s = vm_to_str(vm, code);
    if (IS_EXCEPTION(s)) return s;
    fflush(stdout);
    fprintf(stderr, "%s\n", AS_CSTRING(s));
    status = 1;
  }
  vm->exc.exit_code = status;
  vm->exc.exiting = true;
  vm->exc.pending = true;
  vm->exc.value = NIL_VAL;
  return VM_EXCEPTION;
}

/* sys.argv, read when sys.ag runs (at its first use, after main set the args) */
static Value native_argv(NATIVE_ARGS) {
  if (vm->host.argv == NULL) lib_set_args(vm, NULL, 0, NULL);
  return OBJ_VAL(vm->host.argv);
}

static const PyNative time_natives[] = {
    {"time", native_time, 0, 0},       {"perf_counter", native_perf_counter, 0, 0},
    {"monotonic", native_perf_counter, 0, 0}, {"process_time", native_process_time, 0, 0},
    {"time_ns", native_time_ns, 0, 0}, {"sleep", native_sleep, 1, 1},
};

static const PyNative os_natives[] = {
    {"getcwd", native_getcwd, 0, 0}, {"_exists", native_exists, 1, 1},
    {"_isfile", native_isfile, 1, 1}, {"_isdir", native_isdir, 1, 1},
    {"getenv", native_getenv, 1, 2},
};

static long count_objects(const AgVM *vm) {
  long n = 0;
  for (const Obj *o = vm->gc.objects; o != NULL; o = o->next) n++;
  return n;
}

/* gc.collect(): a full collection now; the number of objects it freed. */
static Value native_gc_collect(AgVM *vm, Value self, int argc, const Value *args, const AgKwargs *kw) {
  long before = count_objects(vm);
  vm_collect_garbage(vm);
  return INT_VAL(vm, before - count_objects(vm));
}

void py_system_define(AgVM *vm, ObjModule *module) {
  const char *name = module->name->chars;
  if (strcmp(name, "time") == 0) py_define_natives(vm, module, time_natives, sizeof time_natives / sizeof time_natives[0]);
  if (strcmp(name, "os") == 0) py_define_natives(vm, module, os_natives, sizeof os_natives / sizeof os_natives[0]);
  if (strcmp(name, "gc") == 0) {
    static const PyNative gc_natives[] = {{"collect", native_gc_collect, 0, 1}};
    py_define_natives(vm, module, gc_natives, 1);
  }
  if (strcmp(name, "sys") == 0) {
    static const PyNative sys_natives[] = {{"exit", native_sys_exit, 0, 1}, {"_argv", native_argv, 0, 0}};
    py_define_natives(vm, module, sys_natives, 2);
  }
}
