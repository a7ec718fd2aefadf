// wasm-pre.js — prepended to the WebAssembly build's JavaScript (make wasm):
// the program sees node's environment (NO_COLOR, AG_BLAS, ...), which
// emscripten would otherwise replace by a fixed one of its own.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () { Object.assign(ENV, process.env); });
