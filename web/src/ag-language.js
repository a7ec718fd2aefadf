// ag-language.js — Ag's syntax for CodeMirror 6, as a stream tokenizer:
// the keywords, built-in constants, numbers, strings (f-strings too),
// comments and operators that lexer/lexer.c knows.
import { StreamLanguage } from "@codemirror/language";

const KEYWORDS = new Set(("let fn return if elif else while for in break continue and or not " +
  "class self super try catch throw with import as from yield lambda is").split(" "));
const CONSTANTS = new Set(["true", "false", "nil"]);

function tokenString(quote) {
  return (stream, state) => {
    let escaped = false, ch;
    while ((ch = stream.next()) != null) {
      if (ch === quote && !escaped) { state.tokenize = null; break; }
      escaped = !escaped && ch === "\\";
    }
    return "string";
  };
}

export const agLanguage = StreamLanguage.define({
  name: "ag",
  startState: () => ({ tokenize: null }),
  token(stream, state) {
    if (state.tokenize) return state.tokenize(stream, state);
    if (stream.eatSpace()) return null;
    if (stream.match("#")) { stream.skipToEnd(); return "comment"; }
    if (stream.match(/^f?["']/)) {
      const quote = stream.current().slice(-1);
      state.tokenize = tokenString(quote);
      return state.tokenize(stream, state);
    }
    if (stream.match(/^(0x[0-9a-fA-F_]+|(\d[\d_]*)?\.?\d[\d_]*([eE][+-]?\d+)?\.?)/)) return "number";
    if (stream.match(/^@[A-Za-z_][\w.]*/)) return "meta";
    if (stream.match(/^[A-Za-z_]\w*/)) {
      const word = stream.current();
      if (KEYWORDS.has(word)) return "keyword";
      if (CONSTANTS.has(word)) return "atom";
      if (stream.peek() === "(") return "variableName.function";
      return "variableName";
    }
    if (stream.match(/^[-+*\/%=<>!&|^~@]+/)) return "operator";
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: "#" } },
});
