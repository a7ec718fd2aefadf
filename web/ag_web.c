/* ag_web.c — Ag in a web page: the program that the page's Web Worker runs
 * (make web; web/src/worker.js). It runs one script from the in-memory file
 * system, as `ag FILE.ag [ARG...]` does, with the same exit statuses. What the
 * script prints reaches the page through emscripten's print hooks; what it
 * shows (display, show_graph, plot.show) reaches it as MIME bundles through
 * Module.agDisplay. The page draws pictures from their sources: a graph from
 * its DOT with Graphviz compiled for the browser, a plot from its data with a
 * plotting library, since no process can be started here. save_graph(t,
 * "g.svg") renders with the worker's own copy of that Graphviz
 * (Module.agRenderDot), synchronously, into the in-memory files.
 */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stdlib/builtins.h"
#include "stdlib/graph.h"
#include "stdlib/lib.h"
#include "tensor/tensor.h"
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

/* Renders DOT as SVG with the worker's Graphviz (Module.agRenderDot, loaded
 * when the worker started) and keeps the result for web_take_rendered: the
 * SVG, or the message saying why there is none (*failed set). Its length in
 * UTF-8 bytes. */
EM_JS(int, web_render_dot, (const char *dot, int *failed), {
  HEAP32[failed >> 2] = 0;
  try {
    if (!Module.agRenderDot) throw new Error("Graphviz is not loaded in this page");
    Module.agRendered = Module.agRenderDot(UTF8ToString(dot));
  } catch (e) {
    HEAP32[failed >> 2] = 1;
    Module.agRendered = String(e && e.message ? e.message : e).trim();
  }
  return lengthBytesUTF8(Module.agRendered);
});

/* Copies what web_render_dot kept into out (size bytes, the NUL included). */
EM_JS(void, web_take_rendered, (char *out, int size), {
  stringToUTF8(Module.agRendered, out, size);
  Module.agRendered = null;
});

/* save_graph's renderer here (graph_set_renderer): SVG only, as the
 * browser's Graphviz has no PNG writer and a worker cannot draw SVG into
 * pixels synchronously. */
static char *web_render(const char *dot, const char *format, size_t *length) {
  if (strcmp(format, "svg") != 0) {
    tensor_set_error("%s is not available in the browser (Graphviz there writes SVG only); "
                     "save the graph as .svg or .dot", strcmp(format, "png") == 0 ? "PNG" : format);
    return NULL;
  }
  int failed = 0;
  int n = web_render_dot(dot, &failed);
  char *text = malloc((size_t)n + 1);
  if (!text) {
    web_take_rendered(NULL, 0);
    tensor_set_error("out of memory");
    return NULL;
  }
  web_take_rendered(text, n + 1);
  if (failed) {
    tensor_set_error("%s", text);
    free(text);
    return NULL;
  }
  *length = (size_t)n;
  return text;
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
  graph_set_renderer(web_render);
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
