/* ag_web.c — Ag in a web page: the program that the page's Web Worker runs
 * (make web; web/src/worker.js). It runs one script from the in-memory file
 * system, as `ag FILE.ag [ARG...]` does, with the same exit statuses. What the
 * script prints reaches the page through emscripten's print hooks; what it
 * shows (display, show_graph, plot.show) reaches it as MIME bundles through
 * Module.agDisplay. The page draws pictures from their sources: a graph from
 * its DOT with Graphviz compiled for the browser, a plot from its data with a
 * plotting library, since no process can be started here.
 */
#include <emscripten.h>
#include <stdio.h>
#include <sys/stat.h>

#include "stdlib/builtins.h"
#include "stdlib/lib.h"
#include "vm/vm.h"

/* Hands one bundle to the worker as {type: text}. size_t and pointers are
 * 32 bits in wasm32, hence HEAPU32. */
EM_JS(void, web_post_bundle,
      (int count, const char *const *types, const char *const *data, const size_t *lengths), {
        const bundle = {};
        for (let i = 0; i < count; i++) {
          const type = UTF8ToString(HEAPU32[(types >> 2) + i]);
          const text = UTF8ToString(HEAPU32[(data >> 2) + i], HEAPU32[(lengths >> 2) + i]);
          bundle[type] = text;
        }
        if (Module.agDisplay) Module.agDisplay(bundle);
      });

static void web_display(AgVM *vm, int count, const char *const *types, const char *const *data,
                        const size_t *lengths) {
  fflush(stdout);
  fflush(stderr);
  web_post_bundle(count, types, data, lengths);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: ag_web FILE.ag [ARG...]\n");
    return 2;
  }
  umask(022); /* emscripten starts with 0777, which leaves the files Ag writes unreadable */
  AgVM *vm = vm_new();
  vm->host.color = false;
  vm->host.display = web_display;
  vm->host.draws_sources = true;
  lib_install_builtins(vm);
  lib_install(vm);
  lib_set_args(vm, argv[1], argc - 2, argv + 2);
  int status = vm_exit_status(vm, vm_run_file(vm, argv[1]));
  lib_finish_files(vm, status != 1 && status != 130);
  fflush(stdout);
  fflush(stderr);
  vm_free(vm);
  return status;
}
