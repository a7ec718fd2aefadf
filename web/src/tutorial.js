// tutorial.js — the classroom tutorial (docs/tutorial.md) as a page of
// runnable, editable snippets: each ```ag block is an editor with a Run
// button and its own output, its ```text block the output to expect.
import { createEditor, editorText } from "./editor.js";
import { OutputPane } from "./render.js";
import { Runner } from "./runner.js";

const snippets = [];
let runner = null;

async function runSnippet(snippet) {
  if (!runner) return null;
  snippet.output.clear();
  snippet.element.dataset.state = "running";
  const status = await runner.run(editorText(snippet.editor), {
    stdout: (t) => snippet.output.write("stdout", t),
    stderr: (t) => snippet.output.write("stderr", t),
    display: (b) => snippet.output.display(b),
  });
  snippet.element.dataset.state = "done";
  snippet.element.dataset.status = String(status);
  return status;
}

function setUp(element) {
  const source = element.querySelector("textarea.code");
  const holder = document.createElement("div");
  holder.className = "editor";
  source.replaceWith(holder);
  const snippet = { element, output: new OutputPane(element.querySelector(".output")) };
  snippet.editor = createEditor(holder, source.value, () => runSnippet(snippet));
  element.querySelector("button.run").onclick = () => runSnippet(snippet);
  snippets.push(snippet);
}

async function main() {
  document.querySelectorAll(".snippet").forEach(setUp);
  try {
    runner = await Runner.load();
  } catch (e) {
    document.getElementById("status").textContent = `error: ${e.message}`;
    return;
  }
  document.querySelectorAll("button.run").forEach((b) => { b.disabled = false; });
  document.getElementById("status").textContent = "";
  document.body.dataset.ready = "true";
}

/* For the page's tests: runs snippet i, resolves to {status, output,
 * transcript} (transcript: what the terminal's stdout would hold). */
window.agRunSnippet = async (i) => {
  const status = await runSnippet(snippets[i]);
  return { status, output: snippets[i].output.text(), transcript: snippets[i].output.transcript };
};

main();
