// runner.js — the page's side of the worker (worker.js): runs one script at a
// time, streams its output to callbacks, and stops it by ending the worker
// and starting a fresh one, so the page keeps working after any script.
// The files the scripts write live here, between runs and workers.
// Everything the worker needs is fetched once (Runner.load), so that a new
// worker needs no network: the page works offline once loaded.
import { fetchText } from "./assets.js";

export class Runner {
  /* Fetches and compiles Ag once; resolves to a Runner. */
  static async load() {
    const [glue, graphviz, worker, module] = await Promise.all([
      fetchText("ag_web.js"), fetchText("graphviz.js"), fetchText("worker.js"),
      WebAssembly.compileStreaming(fetch("ag_web.wasm")),
    ]);
    const parts = [glue, "\n", graphviz, "\n", worker];
    const url = URL.createObjectURL(new Blob(parts, { type: "text/javascript" }));
    return new Runner(url, module);
  }

  constructor(workerUrl, module) {
    this.workerUrl = workerUrl;
    this.module = module;
    this.files = {}; /* name -> Uint8Array: the in-memory folder of the scripts */
    this.current = null; /* the run in progress: {handlers, resolve} */
    this.onFilesChanged = () => {};
    this.startWorker();
  }

  startWorker() {
    this.worker = new Worker(this.workerUrl);
    /* only the first worker warms up: the optimized code stays with the module */
    this.worker.postMessage({ type: "init", module: this.module, warmUp: !this.warmedUp });
    this.warmedUp = true;
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.finish(1, null, `error: ${event.message || "the worker stopped"}\n`);
    };
  }

  get running() {
    return this.current !== null;
  }

  /* Runs code; handlers: stdout(text), stderr(text), display(bundle).
   * Resolves to the exit status (130 when stopped). */
  run(code, handlers) {
    if (this.current) this.stop();
    return new Promise((resolve) => {
      this.current = { handlers, resolve };
      this.worker.postMessage({ type: "run", code, files: this.files });
    });
  }

  stop() {
    if (!this.current) return;
    this.worker.terminate();
    this.startWorker();
    this.finish(130, null, "Interrupted (stopped)\n");
  }

  receive(msg) {
    const run = this.current;
    if (!run) return;
    if (msg.type === "stdout" || msg.type === "stderr") run.handlers[msg.type](msg.text);
    else if (msg.type === "display") run.handlers.display(msg.bundle);
    else if (msg.type === "exit") this.finish(msg.status, msg.files, "");
  }

  finish(status, files, note) {
    const run = this.current;
    this.current = null;
    if (files) {
      this.files = files;
      this.onFilesChanged(this.files);
    }
    if (!run) return;
    if (note) run.handlers.stderr(note);
    run.resolve(status);
  }

  addFile(name, data) {
    this.files[name] = data;
    this.onFilesChanged(this.files);
  }
}
