/* fuzz_load.h — the body of the loader harnesses (fuzz_npy.c, fuzz_npz.c,
 * fuzz_csv.c): the input is written to a file, loaded by the loader under
 * test, and each tensor loaded is printed (to nowhere) and released. The
 * tensor library's allocation limit is 256 MiB, the watchdog's Ctrl-C comes
 * after 500 ms. */
#ifndef AG_FUZZ_LOAD_H
#define AG_FUZZ_LOAD_H

#include "tests/fuzz/fuzz_common.h"

#include "tensor/io.h"
#include "tensor/print.h"

/* Prints t (small ones only: the printer's own cost is not the point) and releases it. */
static void fuzz_consume(Tensor *t) {
  if (t == NULL) return;
  if (t->numel <= 4096) free(tensor_repr(t, NULL, 0));
  tensor_release(t);
}

static void fuzz_load_begin(void) {
  fuzz_setup();
  tensor_set_allocation_limit((size_t)256 << 20);
  fuzz_arm(500);
}

static void fuzz_load_end(void) {
  fuzz_disarm();
  tensor_free_caches(); /* so LeakSanitizer sees only real leaks */
}

#endif
