// editor.js — a CodeMirror 6 editor for Ag code; Ctrl-Enter (Cmd-Enter) runs.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { agLanguage } from "./ag-language.js";

export function createEditor(parent, doc, onRun) {
  return new EditorView({
    doc,
    parent,
    extensions: [
      basicSetup,
      agLanguage,
      Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } }])),
    ],
  });
}

export function editorText(view) {
  return view.state.doc.toString();
}

export function setEditorText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
