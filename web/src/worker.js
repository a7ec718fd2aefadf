// worker.js — runs Ag scripts off the page's thread, so the page never
// freezes. Each run gets a fresh instance of the WebAssembly module (a new VM
// and a new memory: a script that exhausted memory leaves nothing behind),
// compiled once per worker. Files persist between runs: the page sends them
// in with each run and gets the working folder back when the run ends.
// The page stops a running script by ending this worker and starting another.
// The page builds this worker from ag_web.js (emcc -sMODULARIZE: createAg)
// and this file, and sends it the compiled WebAssembly module, so that a new
// worker needs no network: the page works offline once loaded.
//
// save_graph(t, "g.svg") renders with Graphviz compiled to WebAssembly
// (graphviz.js, put in front of this file by the page: agGraphviz), loaded
// once when the worker starts; the C code calls it synchronously, so runs
// wait until it is loaded.
//
// Messages in:  {type: "init", module: WebAssembly.Module},
//               {type: "run", code, files: {name: Uint8Array}}
// Messages out: {type: "stdout" | "stderr", text},
//               {type: "display", bundle: {mimeType: text}},
//               {type: "exit", status, files}
const WORK = "/work";
/* Ag's memory limit inside the page: scripts that allocate without bound
 * get Ag's MemoryError well before the browser's own limit kills the tab. */
const MEMORY_LIMIT = "1G";

let compiled = null; /* the WebAssembly.Module, from the page */

/* Graphviz, or why it could not be loaded (save_graph then says so). */
let graphviz = null;
let graphvizFailure = "Graphviz is not part of this page";
const graphvizReady = typeof agGraphviz === "function"
  ? agGraphviz().then((viz) => { graphviz = viz; },
    (e) => { graphvizFailure = `Graphviz did not load: ${e && e.message ? e.message : e}`; })
  : Promise.resolve();

/* DOT to SVG text, for ag_web.c's save_graph renderer; throws the message
 * of its error on failure. */
function renderDot(dot) {
  if (!graphviz) throw new Error(graphvizFailure);
  try {
    return graphviz.renderString(dot, { format: "svg" });
  } catch (e) {
    throw new Error(`Graphviz failed: ${e && e.message ? e.message : e}`);
  }
}

/* Output goes out in pieces: when a few thousand characters have gathered
 * or 50 ms have passed, so an endless print loop cannot flood the page. No
 * timer: the script runs without yielding, so none would fire. */
const pending = { stdout: "", stderr: "" };
let lastFlush = 0;
function emit(stream, text) {
  pending[stream] += text;
  if (pending[stream].length > 8192 || performance.now() - lastFlush > 50) flush();
}
function flush() {
  lastFlush = performance.now();
  for (const stream of ["stdout", "stderr"]) {
    if (pending[stream]) postMessage({ type: stream, text: pending[stream] });
    pending[stream] = "";
  }
}

/* Every file under the working folder but the script, by relative path. */
function readFiles(FS, dir = WORK, prefix = "", files = {}) {
  for (const name of FS.readdir(dir)) {
    if (name === "." || name === ".." || (prefix === "" && name === "main.ag")) continue;
    const path = `${dir}/${name}`, mode = FS.stat(path).mode;
    if (FS.isDir(mode)) readFiles(FS, path, `${prefix}${name}/`, files);
    else if (FS.isFile(mode)) files[prefix + name] = FS.readFile(path);
  }
  return files;
}

function writeFile(FS, name, data) {
  const path = `${WORK}/${name}`;
  const dir = path.slice(0, path.lastIndexOf("/"));
  if (dir !== WORK) FS.mkdirTree(dir);
  FS.writeFile(path, data);
}

/* A short script run once, unseen, when the worker starts: the browser
 * first compiles WebAssembly with a quick baseline compiler and optimizes
 * a function only on a later call, and Ag's interpreter loop is one call
 * per run; after this, every run gets the optimized loop (fib: 4.7 s on
 * the first run without it, 1.4 s after, 1.3 s natively). */
const WARM_UP = `fn f(n) { if n < 2 { return n }; return f(n - 1) + f(n - 2) }
let s = 0
for i in range(200000) { s += i % 7 }
f(20)
`;

async function run(code, files, quiet = false) {
  const module = compiled;
  let status = null;
  const ag = await createAg({
    noInitialRun: true,
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((instance) => done(instance));
      return {};
    },
    print: (line) => { if (!quiet) emit("stdout", line + "\n"); },
    printErr: (line) => { if (!quiet) emit("stderr", line + "\n"); },
    agDisplay: (bundle) => {
      flush();
      postMessage({ type: "display", bundle });
    },
    agRenderDot: renderDot,
    onExit: (code) => { status = code; },
    preRun: [(m) => { m.ENV.AG_MEMORY_LIMIT = MEMORY_LIMIT; m.ENV.NO_COLOR = "1"; }],
  });
  const FS = ag.FS;
  FS.mkdir(WORK);
  FS.chdir(WORK);
  for (const [name, data] of Object.entries(files || {})) writeFile(FS, name, data);
  FS.writeFile(`${WORK}/main.ag`, code);
  try {
    const returned = ag.callMain(["main.ag"]);
    if (status === null) status = returned;
  } catch (e) {
    /* the runtime itself failed (out of memory outside Ag's own checks) */
    emit("stderr", `error: the WebAssembly runtime stopped: ${e && e.message ? e.message : e}\n`);
    status = 1;
  }
  if (quiet) return;
  flush();
  postMessage({ type: "exit", status, files: readFiles(FS) });
}

/* Messages are handled one after another: a run waits for the warm-up. */
let queue = Promise.resolve();
onmessage = (event) => {
  const msg = event.data;
  if (msg.type === "init") {
    compiled = msg.module;
    if (msg.warmUp) queue = queue.then(() => run(WARM_UP, {}, true)).catch(() => {});
  } else if (msg.type === "run") {
    queue = queue.then(() => graphvizReady).then(() => run(msg.code, msg.files)).catch((e) => {
      flush();
      postMessage({ type: "stderr", text: `error: ${e && e.message ? e.message : e}\n` });
      postMessage({ type: "exit", status: 1, files: msg.files || {} });
    });
  }
};
