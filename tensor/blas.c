/* blas.c — the BLAS library found and bound at the first matrix product (see
 * blas.h), or the built-in kernel when there is none. */
#include "tensor/blas.h"
#include "tensor/parallel.h"
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

const BlasApi *tensor_blas(void) {
  pthread_once(&blas.once, blas_load);
  return blas.api;
}

/* ---- the threading rule (docs/performance.md, "Threads") ----
 *
 * One product runs on the library's own threads, under its own rule
 * (OpenBLAS splits a product of more than 2^18 multiply-adds over all of
 * them): PyTorch calls it that way, and OpenBLAS's float32 bits depend on
 * its thread count (each thread count partitions C differently over its
 * kernels' tiles; 1 and 2 threads differ in up to 90% of the entries of a
 * 16x256x144 product), so mm, matmul and Linear keep PyTorch's bits.
 *
 * A batch of independent products (bmm, a convolution's samples) is spread
 * over Ag's worker pool instead, one product per task, with the library
 * pinned to one thread meanwhile: the pool's idle workers sleep and the
 * caller takes tasks itself, so a worker the busy machine does not schedule
 * delays nothing, where OpenBLAS's caller waits, spinning, for each of its
 * threads on every product. Products worth less than a grain of 2^18
 * multiply-adds together (OpenBLAS's own threshold) stay on the caller. Only
 * one pool is ever at work: the library's threads are idle while the pool
 * runs, and the pool's while the library runs. */
#define BLAS_GRAIN 262144.0

/* The library's thread count (1 when it has none to set); products are made
 * from one thread at a time, so it is changed without a lock. */
static int blas_threads(const BlasApi *api) {
  static int threads = 0;
  if (threads == 0)
    threads = api->openblas_get_num_threads ? api->openblas_get_num_threads() : 1;
  return threads > 0 ? threads : 1;
}

/* Whether each product can be held to one thread: OpenBLAS's setter, or the
 * built-in kernel, which has no threads. */
static bool blas_pinnable(const BlasApi *api) {
  return api == &tensor_blas_builtin || api->openblas_set_num_threads;
}

void tensor_blas_batch(int64_t count, double multiply_adds, void (*product)(int64_t i, void *ctx),
                       void *ctx) {
  const BlasApi *api = tensor_blas();
  bool spread = count > 1 && multiply_adds * (double)count >= 2 * BLAS_GRAIN &&
                tensor_parallel_threads() > 1 && blas_pinnable(api);
  if (!spread) {
    for (int64_t i = 0; i < count; i++) product(i, ctx);
    return;
  }
  int threads = blas_threads(api);
  if (threads > 1) api->openblas_set_num_threads(1);
  tensor_parallel_for(count, product, ctx);
  if (threads > 1) api->openblas_set_num_threads(threads);
}

const char *tensor_blas_name(void) { return blas.api ? blas.name : NULL; }
