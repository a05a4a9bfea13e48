// Tokenizes files with a TextMate grammar as VS Code does: vscode-textmate over vscode-oniguruma's
// WASM build of Oniguruma, one line at a time (the text split at \r\n, \r and \n as VS Code's text
// model splits it), each line started with the rule stack the line before left.
//
//   node tokenize.mjs INSTALL_DIR GRAMMAR.json FILE...
//
// INSTALL_DIR holds the node_modules that `npm ci` installed from this folder's package-lock.json.
// Prints one JSON document on stdout: for each file in the order given, {"file", "tokens"}, each
// token {"start", "end", "scopes"} with start and end counted in code points from the start of the
// file (as Python indexes a str) and the scopes from the grammar's own outward in.
// Used by tests/syntax/test_textmate.py.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const [installDir, grammarPath, ...files] = process.argv.slice(2);
if (!installDir || !grammarPath) {
  process.stderr.write("usage: node tokenize.mjs INSTALL_DIR GRAMMAR.json FILE...\n");
  process.exit(2);
}
const require = createRequire(resolve(installDir, "package.json"));
const oniguruma = require("vscode-oniguruma");
const textmate = require("vscode-textmate");

const wasm = readFileSync(join(installDir, "node_modules", "vscode-oniguruma", "release", "onig.wasm"));
await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));

const registry = new textmate.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }),
  loadGrammar: async () => textmate.parseRawGrammar(readFileSync(grammarPath, "utf8"), grammarPath),
});
const raw = JSON.parse(readFileSync(grammarPath, "utf8"));
const grammar = await registry.loadGrammar(raw.scopeName);
if (!grammar) throw new Error(`no grammar for ${raw.scopeName} in ${grammarPath}`);

// Code point offsets of a line's UTF-16 offsets (the same numbers unless it holds astral characters).
function codePoints(line) {
  if (!/[\uD800-\uDFFF]/.test(line)) return null;
  const at = new Array(line.length + 1);
  let points = 0;
  for (let unit = 0; unit < line.length; unit++) {
    at[unit] = points;
    const code = line.charCodeAt(unit);
    if (!(code >= 0xd800 && code <= 0xdbff && unit + 1 < line.length)) points++;
  }
  at[line.length] = points;
  return at;
}

// One file's tokens, each line tokenized with the rule stack the line before left.
function tokenizeFile(file) {
  const text = readFileSync(file, "utf8");
  const tokens = [];
  const breaks = /\r\n|\r|\n/g;
  let ruleStack = textmate.INITIAL;
  let lineStart = 0; // in UTF-16 units
  let offset = 0; // the same place in code points
  for (;;) {
    const found = breaks.exec(text);
    const lineEnd = found ? found.index : text.length;
    const line = text.slice(lineStart, lineEnd);
    const result = grammar.tokenizeLine(line, ruleStack);
    ruleStack = result.ruleStack;
    const points = codePoints(line);
    const point = (unit) => (points ? points[unit] : unit);
    for (const token of result.tokens) {
      // vscode-textmate scans the line with a "\n" appended; VS Code draws only the line itself.
      const end = Math.min(token.endIndex, line.length);
      if (token.startIndex < end) {
        tokens.push({ start: offset + point(token.startIndex), end: offset + point(end), scopes: token.scopes });
      }
    }
    if (!found) return tokens;
    offset += point(line.length) + found[0].length;
    lineStart = lineEnd + found[0].length;
  }
}

const results = [];
for (const file of files) {
  try {
    results.push({ file, tokens: tokenizeFile(file) });
  } catch (error) {
    // Oniguruma compiles a grammar's patterns on the first line it scans: a pattern it cannot read
    // fails here. One line naming the file and Oniguruma's message, not the minified stack.
    process.stderr.write(`tokenize.mjs: ${file}: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
process.stdout.write(JSON.stringify(results));
