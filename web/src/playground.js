// playground.js — the main page: an editor, Run / Stop / Share, the examples,
// the output pane and the in-memory files (upload and download).
import { createEditor, editorText, setEditorText } from "./editor.js";
import { OutputPane } from "./render.js";
import { Runner } from "./runner.js";
import { decodeHash, encodeCode } from "./link.js";

const WELCOME = `# Ag in your browser. Ctrl-Enter runs.
let x = tensor(2.0, requires_grad=true)
let y = x * x + 3 * x
y.backward()
print(y, x.grad)
`;

const $ = (id) => document.getElementById(id);
const output = new OutputPane($("output"));
const editor = createEditor($("editor"), WELCOME, () => run());
let runner = null;

function setStatus(text) {
  $("status").textContent = text;
}

async function run() {
  if (!runner) return;
  output.clear();
  $("run").disabled = true;
  $("stop").disabled = false;
  setStatus("running…");
  const started = performance.now();
  const status = await runner.run(editorText(editor), {
    stdout: (t) => output.write("stdout", t),
    stderr: (t) => output.write("stderr", t),
    display: (b) => output.display(b),
  });
  $("run").disabled = false;
  $("stop").disabled = true;
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  setStatus(status === 0 ? `done in ${seconds} s` : `exit status ${status} after ${seconds} s`);
  document.body.dataset.lastStatus = String(status);
  document.body.dataset.runs = String(Number(document.body.dataset.runs || 0) + 1);
}

function share() {
  const link = `${location.origin}${location.pathname}#code=${encodeCode(editorText(editor))}`;
  history.replaceState(null, "", link);
  $("share-link").value = link;
  $("share-link").hidden = false;
  $("share-link").select();
  if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
}

function showFiles(files) {
  const list = $("files");
  list.replaceChildren();
  for (const [name, data] of Object.entries(files)) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([data]));
    a.download = name;
    a.textContent = `${name} (${data.length} bytes)`;
    const li = document.createElement("li");
    li.append(a);
    list.append(li);
  }
}

async function upload(event) {
  for (const file of event.target.files) {
    runner.addFile(file.name, new Uint8Array(await file.arrayBuffer()));
  }
  event.target.value = "";
}

/* The examples menu; their data files (examples/names.txt) go into the
 * scripts' folder once Ag is loaded. */
async function loadExamples() {
  const examples = await (await fetch("examples.json")).json();
  const select = $("examples");
  for (const [name, code] of Object.entries(examples.scripts)) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    select.append(option);
  }
  select.onchange = () => {
    if (select.value) setEditorText(editor, examples.scripts[select.value]);
  };
  return examples.files;
}

/* A #code= link replaces the editor's text and runs it. */
function codeFromLink() {
  const linked = decodeHash(location.hash);
  if (!linked) return false;
  if (linked.error) {
    output.write("stderr", `error: cannot open this link: ${linked.error}\n`);
    return false;
  }
  setEditorText(editor, linked.code);
  return true;
}

async function main() {
  $("run").onclick = () => run();
  $("stop").onclick = () => runner && runner.stop();
  $("share").onclick = share;
  $("upload").onchange = upload;
  const dataFiles = loadExamples().catch((e) => {
    output.write("stderr", `error: cannot load the examples: ${e.message}\n`);
    return {};
  });
  const linked = codeFromLink();
  setStatus("loading Ag…");
  try {
    runner = await Runner.load();
  } catch (e) {
    setStatus("");
    output.write("stderr", `error: ${e.message}\n`);
    return;
  }
  runner.onFilesChanged = showFiles;
  for (const [name, text] of Object.entries(await dataFiles)) {
    runner.addFile(name, new TextEncoder().encode(text));
  }
  $("run").disabled = false;
  setStatus("ready");
  document.body.dataset.ready = "true";
  if (linked) run();
}

window.addEventListener("hashchange", () => { if (codeFromLink()) run(); });
main();
