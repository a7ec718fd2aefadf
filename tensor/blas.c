/* blas.c — OpenBLAS found and bound at the first matrix product (see blas.h). */
#include "tensor/blas.h"
#include "tensor/tensor.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* Debian's SONAME first; the unversioned name is only the -dev package's link. */
static const char *const openblas_libraries[] = {"libopenblas.so.0", "libopenblas.so", NULL};

/* Loaded once per process; the library stays loaded until exit (its threads
 * serve every later product), so its handle is never closed. */
static struct {
  pthread_once_t once;
  bool loaded;
  BlasApi api;
  char error[512]; /* why it could not be loaded, for every later call */
} blas = {.once = PTHREAD_ONCE_INIT};

bool tensor_blas_open(const char *const *libraries, BlasApi *api) {
  char why[256] = "no library named";
  void *handle = NULL;
  const char *const *lib = libraries;
  /* RTLD_LAZY, as when it was linked: binding all of its calls up front costs
   * 2 M instructions that a script with a few products never uses. */
  for (; *lib && !handle; lib++) {
    handle = dlopen(*lib, RTLD_LAZY | RTLD_LOCAL);
    if (!handle && lib == libraries) snprintf(why, sizeof why, "%s", dlerror());
  }
  if (!handle) {
    tensor_set_error("matrix products need OpenBLAS, which could not be loaded (%s); "
                     "install the Debian package libopenblas0-pthread",
                     why);
    return false;
  }
  const char *missing = NULL;
#define TENSOR_BLAS_LOOKUP(name)                       \
  api->name = (__typeof__(name) *)dlsym(handle, #name); \
  if (!api->name && !missing) missing = #name;
  TENSOR_BLAS_FUNCTIONS(TENSOR_BLAS_LOOKUP)
#undef TENSOR_BLAS_LOOKUP
  if (missing) {
    tensor_set_error("matrix products need OpenBLAS, but %s has no %s; "
                     "install the Debian package libopenblas0-pthread",
                     lib[-1], missing);
    dlclose(handle);
    return false;
  }
  return true;
}

static void blas_load(void) {
  blas.loaded = tensor_blas_open(openblas_libraries, &blas.api);
  if (!blas.loaded) snprintf(blas.error, sizeof blas.error, "%s", tensor_error());
}

const BlasApi *tensor_blas(void) {
  pthread_once(&blas.once, blas_load);
  if (blas.loaded) return &blas.api;
  tensor_set_error("%s", blas.error);
  return NULL;
}
