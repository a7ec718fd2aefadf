/* fuzz_csv.c — libFuzzer harness: the CSV loader on the input's bytes, with
 * and without a header line. */
#include "tests/fuzz/fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_load_begin();
  fuzz_write_file("input.csv", data, size);
  fuzz_consume(tensor_load_csv("input.csv", false));
  fuzz_consume(tensor_load_csv("input.csv", true));
  fuzz_load_end();
  return 0;
}
