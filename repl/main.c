/* main.c — the `ag` program: argument handling, then a script, `-e` code,
 * stdin, or the REPL (SPEC §1).
 *
 * Exit status: 0 success, 1 uncaught runtime error, 2 usage or syntax error,
 * 130 interrupted by Ctrl-C, or the code given to exit().
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parser/compiler.h"
#include "repl/help.h"
#include "repl/repl.h"
#include "repl/session.h"
#include "stdlib/builtins.h"
#include "stdlib/lib.h"
#include "tensor/platform.h"
#include "tensor/tensor.h"
#include "vm/buffer.h"
#include "vm/debug.h"
#include "vm/vm.h"

/* Whether the program frees its VM before leaving. Freeing every object,
 * graph and cache one by one costs a tenth of a short script that recorded a
 * big graph, and the system takes the whole heap back at once; files are
 * finished and stdout flushed before, so nothing observable is skipped.
 * Under AddressSanitizer the VM is freed to the last byte, so that
 * LeakSanitizer still checks every lifetime. */
#if defined(__SANITIZE_ADDRESS__)
#define FREE_VM_AT_EXIT 1
#else
#define FREE_VM_AT_EXIT 0
#endif

typedef enum { MODE_RUN, MODE_EVAL, MODE_CHECK, MODE_DIS } RunMode;

typedef struct {
  RunMode mode;
  const char *file; /* script, or NULL for stdin / REPL */
  const char *code; /* -e CODE */
  bool trace_graph;
  const char *help_option; /* --help-reference, --help-missing (repl/help.h) */
  int script_argc;
  char **script_argv;
} Options;

static void usage(FILE *out) {
  fprintf(out,
          "usage: ag [options] [FILE.ag [ARG...]]\n"
          "\n"
          "  ag                    REPL on a terminal; otherwise runs stdin as one script\n"
          "  ag FILE.ag [ARG...]   runs the script; `args` holds the ARGs\n"
          "  -e CODE               runs CODE\n"
          "  --check FILE.ag       compiles only and reports every syntax error\n"
          "  --dis FILE.ag         prints the bytecode of every function\n"
          "  --trace-graph         prints the graph walked by each backward() to stderr\n"
          "  --version             prints the version\n"
          "  --platform            prints the CPU, the vector instructions the kernels\n"
          "                        use on it, the compiler and the BLAS library\n"
          "  --help                prints this help\n"
          "\n"
          "Exit status: 0 success, 1 runtime error, 2 usage or syntax error, 130 interrupted.\n");
}

/* What `--platform` prints: one "key: value" line each. */
static void print_platform(void) {
  printf("arch: %s\n", tensor_platform_arch());
  printf("vector: %s\n", tensor_platform_avx2() ? "avx2 fma" : "baseline");
#if defined(__clang__)
  printf("compiler: clang %d.%d.%d\n", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  printf("compiler: gcc %d.%d.%d\n", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#endif
#if defined(AG_NO_READLINE)
  puts("line editor: none");
#elif defined(AG_LIBEDIT)
  puts("line editor: libedit");
#else
  puts("line editor: readline");
#endif
#ifdef AG_HAVE_ZLIB
  puts("npz: zlib");
#else
  puts("npz: no zlib");
#endif
#ifdef AG_HAVE_UTF8PROC
  puts("unicodedata: utf8proc");
#else
  puts("unicodedata: none");
#endif
  printf("blas: %s\n", tensor_platform_blas());
}

static bool wants_color(void) {
  const char *no_color = getenv("NO_COLOR");
  return isatty(2) && (no_color == NULL || no_color[0] == '\0');
}

/* Parses options; returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, Options *o) {
  memset(o, 0, sizeof *o);
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("ag %s\n", AG_VERSION);
      return 0;
    } else if (strcmp(a, "--platform") == 0) {
      print_platform();
      return 0;
    } else if (strcmp(a, "--help-reference") == 0 || strcmp(a, "--help-missing") == 0) {
      o->help_option = a;
    } else if (strcmp(a, "--trace-graph") == 0) {
      o->trace_graph = true;
    } else if ((strcmp(a, "--check") == 0 || strcmp(a, "--dis") == 0) && i + 1 < argc) {
      o->mode = a[2] == 'c' ? MODE_CHECK : MODE_DIS;
      o->file = argv[++i];
    } else if (strcmp(a, "-e") == 0 && i + 1 < argc) {
      o->mode = MODE_EVAL;
      o->code = argv[++i];
    } else if (strcmp(a, "--") == 0) {
      i++;
      break;
    } else {
      fprintf(stderr, "ag: unknown or incomplete option '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (o->mode == MODE_RUN && i < argc) o->file = argv[i++];
  o->script_argc = argc - i;
  o->script_argv = argv + i;
  return -1;
}

static void on_sigint(int sig) {
  (void)sig;
  if (tensor_interrupt_requested) _exit(130); /* a second Ctrl-C while stuck: leave */
  tensor_interrupt_requested = 1;
}

static void install_sigint(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
}

/* --check and --dis: compile without running. */
static int compile_only(AgVM *vm, const Options *o) {
  char *source = vm_read_file(o->file, NULL);
  if (source == NULL) {
    int err = errno;
    fprintf(stderr, "ag: cannot open %s: %s\n", o->file, vm_read_problem(err));
    if (err == EINTR) tensor_interrupt_requested = 0;
    return err == EINTR ? 130 : 2;
  }
  CompileOptions opts = {o->file, false, stderr, vm->host.color, false};
  vm->gc.paused++;
  CompileResult r = compile_source(vm, source, &opts);
  vm->gc.paused--;
  free(source);
  if (r.interrupted) {
    tensor_interrupt_requested = 0;
    return 130;
  }
  if (r.error_count > 0 || r.function == NULL) return 2;
  if (o->mode == MODE_DIS) dis_function_vm(stdout, vm, r.function);
  return 0;
}

static int run_stdin(AgVM *vm) {
  VmBuf b;
  vm_buf_init(&b);
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) vm_buf_add(&b, chunk, n);
  VmResult r = vm_run_source(vm, b.data ? b.data : "", "<stdin>");
  vm_buf_free(&b);
  return vm_exit_status(vm, r);
}

static int run(AgVM *vm, const Options *o) {
  if (o->help_option != NULL) return help_main(vm, o->help_option);
  switch (o->mode) {
  case MODE_CHECK:
  case MODE_DIS: return compile_only(vm, o);
  case MODE_EVAL: return vm_exit_status(vm, vm_run_source(vm, o->code, "<string>"));
  case MODE_RUN: break;
  }
  if (o->file != NULL) return vm_exit_status(vm, vm_run_file(vm, o->file));
  if (isatty(0)) return repl_run(vm);
  return run_stdin(vm);
}

int main(int argc, char **argv) {
  Options o;
  int early = parse_options(argc, argv, &o);
  if (early >= 0) return early;
#ifdef __EMSCRIPTEN__
  umask(022); /* emscripten starts with 0777, which leaves the files Ag writes unreadable */
#endif
  AgVM *vm = vm_new();
  vm->host.color = wants_color();
  vm->host.trace_graph = o.trace_graph;
  lib_install_builtins(vm);
  lib_install(vm);
  lib_set_args(vm, o.file, o.script_argc, o.script_argv);
  install_sigint();
  int status = run(vm, &o);
  /* files still open for writing are put in place unless the run failed */
  lib_finish_files(vm, status != 1 && status != 130);
  fflush(stdout);
  if (FREE_VM_AT_EXIT) vm_free(vm);
  return status;
}
