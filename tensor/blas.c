/* blas.c — the BLAS library found and bound at the first matrix product (see
 * blas.h), or the built-in kernel when there is none. */
#include "tensor/blas.h"
#include "tensor/tensor.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef __EMSCRIPTEN__
#include <dlfcn.h>
#endif

/* Where each platform keeps a CBLAS, the likeliest first. On Linux the
 * SONAMEs (the unversioned names are only the -dev packages' links);
 * libblas.so.3 is whatever BLAS Debian's alternatives chose, CBLAS included.
 * On macOS Homebrew's OpenBLAS (Apple Silicon's prefix, then Intel's), then
 * Accelerate, which every Mac has. */
static const char *const platform_libraries[] = {
#if defined(__APPLE__)
    "/opt/homebrew/opt/openblas/lib/libopenblas.dylib",
    "/usr/local/opt/openblas/lib/libopenblas.dylib",
    "libopenblas.dylib",
    "/System/Library/Frameworks/Accelerate.framework/Accelerate",
#elif !defined(__EMSCRIPTEN__)
    "libopenblas.so.0", "libopenblas.so", "libblas.so.3",
#endif
    NULL};

#ifdef __EMSCRIPTEN__
#define BLAS_ADVICE ""
#else
#define BLAS_ADVICE " (install OpenBLAS for speed)"
#endif

/* Loaded once per process; the library stays loaded until exit (its threads
 * serve every later product), so its handle is never closed. */
static struct {
  pthread_once_t once;
  const BlasApi *api; /* &loaded or &tensor_blas_builtin, once chosen */
  BlasApi loaded;
  char name[256];
} blas = {.once = PTHREAD_ONCE_INIT};

#ifdef __EMSCRIPTEN__
const char *tensor_blas_open(const char *const *libraries, BlasApi *api) {
  (void)api;
  tensor_set_error("cannot load %s: no shared libraries in WebAssembly",
                   libraries[0] ? libraries[0] : "a BLAS library");
  return NULL;
}
#else
const char *tensor_blas_open(const char *const *libraries, BlasApi *api) {
  char why[300] = "no library to try";
  void *handle = NULL;
  const char *const *lib = libraries;
  /* RTLD_LAZY, as when it was linked: binding all of its calls up front costs
   * 2 M instructions that a script with a few products never uses. */
  for (; *lib && !handle; lib++) {
    handle = dlopen(*lib, RTLD_LAZY | RTLD_LOCAL);
    if (!handle && lib == libraries) snprintf(why, sizeof why, "%s", dlerror());
  }
  if (!handle) {
    tensor_set_error("cannot load %s", why);
    return NULL;
  }
  const char *missing = NULL;
#define TENSOR_BLAS_LOOKUP(name, type)                 \
  api->name = (type *)dlsym(handle, #name);             \
  if (!api->name && !missing) missing = #name;
  TENSOR_BLAS_FUNCTIONS(TENSOR_BLAS_LOOKUP)
#undef TENSOR_BLAS_LOOKUP
#define TENSOR_OPTIONAL_LOOKUP(name, type) api->name = (type *)dlsym(handle, #name);
  TENSOR_LAPACK_FUNCTIONS(TENSOR_OPTIONAL_LOOKUP)
  TENSOR_BLAS_THREAD_FUNCTIONS(TENSOR_OPTIONAL_LOOKUP)
#undef TENSOR_OPTIONAL_LOOKUP
  if (missing) {
    tensor_set_error("%s is not a CBLAS (it has no %s)", lib[-1], missing);
    dlclose(handle);
    return NULL;
  }
  return lib[-1];
}
#endif

static void blas_load(void) {
  const char *chosen = getenv("AG_BLAS");
  if (chosen && strcmp(chosen, "builtin") == 0) {
    blas.api = &tensor_blas_builtin;
  } else {
    const char *const only[] = {chosen, NULL};
    bool named = chosen && chosen[0];
    const char *found = tensor_blas_open(named ? only : platform_libraries, &blas.loaded);
    if (found) {
      blas.api = &blas.loaded;
      snprintf(blas.name, sizeof blas.name, "%s", found);
      return;
    }
    blas.api = &tensor_blas_builtin;
    fprintf(stderr,
            "ag: note: no BLAS library loaded (%s); matrix products use Ag's built-in kernel, "
            "which is slower%s\n",
            tensor_error(), BLAS_ADVICE);
  }
  snprintf(blas.name, sizeof blas.name, "builtin");
}

/* OpenBLAS hands every product of more than 2^18 multiply-adds to its
 * threads, which wait for work spinning on sched_yield. For a product of a
 * few million (an RNN's per-step h @ W_hh^T: 32 x 128 x 512) the hand-off
 * costs about what the second core gives back, and on a loaded machine a
 * worker that is not scheduled stalls the product for milliseconds (a
 * 2-layer LSTM's training ran 3 s on one thread and 6 to 13 s on two). So
 * products below this many multiply-adds run on the calling thread alone. */
#define BLAS_THREADED_MIN 8388608.0

/* The library's own thread count (0: it has none to set), and whether it is
 * now set to one. Products are made from the main thread only. */
static int blas_threads_default = -1;
static bool blas_single = false;

void tensor_blas_threads_for(const BlasApi *api, double multiply_adds) {
  if (!api->openblas_set_num_threads || !api->openblas_get_num_threads) return;
  if (blas_threads_default < 0) blas_threads_default = api->openblas_get_num_threads();
  bool single = multiply_adds < BLAS_THREADED_MIN;
  if (single == blas_single || blas_threads_default <= 1) return;
  api->openblas_set_num_threads(single ? 1 : blas_threads_default);
  blas_single = single;
}

const BlasApi *tensor_blas(void) {
  pthread_once(&blas.once, blas_load);
  return blas.api;
}

const char *tensor_blas_name(void) { return blas.api ? blas.name : NULL; }
