// wasm-pre.js — prepended to the WebAssembly build's JavaScript (make wasm):
// the program sees node's environment (NO_COLOR, AG_BLAS, ...), which
// emscripten would otherwise replace by a fixed one of its own.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () { Object.assign(ENV, process.env); });

// V8 runs a WebAssembly function first through its baseline compiler (Liftoff)
// and swaps in optimised code only at the function's next call. Ag spends a
// whole script inside one call of its interpreter loop, so under the default
// tiering that loop never leaves baseline code: fib runs 2.3x slower than with
// optimised code from the start. The flag is set before the module is
// compiled (this build compiles synchronously, after this file runs).
require('v8').setFlagsFromString('--no-liftoff');
