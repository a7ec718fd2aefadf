// build.mjs WASM_DIR OUT_DIR — assembles the static site of `make web`:
// the page's scripts bundled by esbuild (CodeMirror, and Chart.js split off
// and loaded when first used), Graphviz for the browser as one classic script
// (graphviz.js: the worker's save_graph, the page's show_graph), the worker
// and Ag's WebAssembly from WASM_DIR, index.html, tutorial.html
// generated from docs/tutorial.md, and examples.json from examples/.
// Everything is relative, so any static host (or a folder) serves it.
import { build } from "esbuild";
import { marked } from "marked";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(WEB, "..");
const [wasmDir, outDir] = process.argv.slice(2).map((p) => resolve(p));
if (!wasmDir || !outDir) {
  console.error("usage: node web/build.mjs WASM_DIR OUT_DIR");
  process.exit(2);
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

await build({
  entryPoints: [join(WEB, "src/playground.js"), join(WEB, "src/tutorial.js")],
  bundle: true,
  splitting: true,
  format: "esm",
  minify: true,
  target: "es2020",
  outdir: outDir,
  chunkNames: "chunks/[name]-[hash]",
  logLevel: "warning",
});

/* Graphviz for the worker (save_graph) and the page (show_graph): a classic
 * script, as the worker is one; one copy to download. */
await build({
  entryPoints: [join(WEB, "src/graphviz-worker.js")],
  bundle: true,
  format: "iife",
  minify: true,
  target: "es2020",
  outfile: join(outDir, "graphviz.js"),
  logLevel: "warning",
});

copyFileSync(join(WEB, "src/worker.js"), join(outDir, "worker.js"));
copyFileSync(join(wasmDir, "ag_web.js"), join(outDir, "ag_web.js"));
copyFileSync(join(wasmDir, "ag_web.wasm"), join(outDir, "ag_web.wasm"));
copyFileSync(join(WEB, "style.css"), join(outDir, "style.css"));
copyFileSync(join(WEB, "index.html"), join(outDir, "index.html"));

/* The examples menu: every examples/*.ag, and the data files they read. */
const examples = { scripts: {}, files: {} };
for (const name of readdirSync(join(ROOT, "examples")).sort()) {
  const text = readFileSync(join(ROOT, "examples", name), "utf8");
  if (name.endsWith(".ag")) examples.scripts[basename(name, ".ag")] = text;
  else if (name.endsWith(".txt")) examples.files[`examples/${name}`] = text;
}
writeFileSync(join(outDir, "examples.json"), JSON.stringify(examples));

writeFileSync(join(outDir, "tutorial.html"), tutorialPage(readFileSync(join(ROOT, "docs/tutorial.md"), "utf8")));

/* docs/tutorial.md as HTML, each ```ag block a snippet with its expected
 * output (the ```text block right after it), as tests/run_tutorial.sh reads them. */
function tutorialPage(markdown) {
  const tokens = marked.lexer(markdown);
  const parts = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== "code" || token.lang !== "ag") {
      parts.push(marked.parser([token]));
      continue;
    }
    let j = i + 1;
    while (j < tokens.length && tokens[j].type === "space") j++;
    const expected = j < tokens.length && tokens[j].type === "code" && tokens[j].lang === "text"
      ? tokens[j].text : null;
    if (expected !== null) i = j;
    parts.push(snippet(token.text, expected));
  }
  return page("Ag tutorial", `<p id="status">loading Ag…</p>\n${parts.join("\n")}`, "tutorial.js");
}

function snippet(code, expected) {
  const expect = expected === null ? ""
    : `<details><summary>expected output</summary><pre class="expected">${escape(expected)}</pre></details>`;
  return `<div class="snippet"><textarea class="code">${escape(code)}</textarea>` +
    `<button class="run" disabled>Run</button><pre class="output"></pre>${expect}</div>`;
}

function page(title, body, script) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="stylesheet" href="style.css"></head>
<body class="tutorial"><nav><a href="index.html">Playground</a> · <a href="tutorial.html">Tutorial</a></nav>
<main>${body}</main>
<script type="module" src="${script}"></script></body></html>
`;
}

function escape(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
