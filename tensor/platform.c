/* platform.c — the architecture and the CPU's vector instructions (platform.h). */
#include "tensor/platform.h"
#include "tensor/blas.h"

const char *tensor_platform_arch(void) {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__i386__)
  return "i386";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__arm__)
  return "arm";
#elif defined(__wasm32__)
  return "wasm32";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#elif defined(__powerpc64__)
  return "ppc64";
#else
  return "unknown";
#endif
}

bool tensor_platform_avx2(void) {
#if defined(__x86_64__)
  static int has = -1; /* a benign race: every thread computes the same */
  if (has < 0) has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

const char *tensor_platform_blas(void) {
  tensor_blas();
  return tensor_blas_name();
}
