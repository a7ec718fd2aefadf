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

/* The library keeps its own threading rules (OpenBLAS splits a product of
 * more than 2^18 multiply-adds over its threads): PyTorch calls it the same
 * way, so a float32 product has PyTorch's bits. Running small products on one
 * thread was tried for the LSTM benchmark and gave other bits (OpenBLAS's
 * split changes its kernel's edge blocks) for no gain on a quiet machine. */
const BlasApi *tensor_blas(void) {
  pthread_once(&blas.once, blas_load);
  return blas.api;
}

const char *tensor_blas_name(void) { return blas.api ? blas.name : NULL; }
