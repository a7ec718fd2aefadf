/* platform.h — what this build runs on: the CPU architecture and the vector
 * instructions the kernels may use on this very CPU (chosen at run time, so
 * one x86-64 binary serves CPUs with and without AVX2). `ag --platform`
 * prints it; the differential cases' runner picks its bit-exact tier by it
 * (tests/torch/README.md). */
#ifndef AG_TENSOR_PLATFORM_H
#define AG_TENSOR_PLATFORM_H

#include <stdbool.h>

/* "x86_64", "aarch64", "wasm32", ...: the architecture compiled for. */
const char *tensor_platform_arch(void);

/* Whether this CPU runs AVX2 and FMA (x86-64 only): where PyTorch 1.13's
 * kernels use SLEEF's AVX2 functions, and so where Ag's agree to the bit. */
bool tensor_platform_avx2(void);

/* The BLAS library matrix products use ("builtin" for Ag's own kernel),
 * loading it now if no product has yet. */
const char *tensor_platform_blas(void);

#endif
