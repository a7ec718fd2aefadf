/* fuzz_npy.c — libFuzzer harness: the .npy loader on the input's bytes. */
#include "tests/fuzz/fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_load_begin();
  fuzz_write_file("input.npy", data, size);
  fuzz_consume(tensor_load_npy("input.npy"));
  fuzz_load_end();
  return 0;
}
