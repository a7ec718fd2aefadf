/* fuzz_pt.c — libFuzzer harness: the PyTorch .pt loader (zip archive and
 * restricted unpickler) on the input's bytes. */
#include "tests/fuzz/fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_load_begin();
  fuzz_write_file("input.pt", data, size);
  PtDoc doc;
  if (tensor_load_pt("input.pt", &doc)) {
    for (int i = 0; i < doc.count; i++) /* every tensor read, printed */
      if (doc.nodes[i]->kind == PT_TENSOR) fuzz_consume(tensor_retain(doc.nodes[i]->t));
    pt_doc_free(&doc);
  }
  fuzz_load_end();
  return 0;
}
