// graphviz-worker.js — Graphviz for the worker (worker.js): the same
// @viz-js/viz build the page draws graphs with, bundled by build.mjs as a
// classic script (graphviz.js) that the page puts in front of the worker's
// code. It defines agGraphviz(), which resolves to a Graphviz instance whose
// renderString runs synchronously, as save_graph's C code needs.
import { instance } from "@viz-js/viz";

self.agGraphviz = instance;
