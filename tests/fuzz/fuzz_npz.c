/* fuzz_npz.c — libFuzzer harness: the .npz (zip) loader on the input's bytes. */
#include "tests/fuzz/fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_load_begin();
  fuzz_write_file("input.npz", data, size);
  char **names = NULL;
  Tensor **ts = NULL;
  int n = tensor_load_npz("input.npz", &names, &ts);
  for (int i = 0; i < n; i++) {
    free(names[i]);
    fuzz_consume(ts[i]);
  }
  free(names);
  free(ts);
  fuzz_load_end();
  return 0;
}
