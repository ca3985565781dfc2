// Tokenises .rules files with the VS Code extension's TextMate grammar (editors/vscode), through
// vscode-textmate and vscode-oniguruma as VS Code itself does, and prints each token that has a
// scope of its own: `LINE:START-END SCOPE TEXT`, one per line (LINE and columns from 1; the
// innermost scope). Usage: node tokenize.mjs GRAMMAR FILE...; each file's tokens after `== FILE`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import vsctm from "vscode-textmate";
import oniguruma from "vscode-oniguruma";

const require = createRequire(import.meta.url);
const [grammarPath, ...files] = process.argv.slice(2);
const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);
const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async (scope) =>
    scope === "source.arbiter" ? vsctm.parseRawGrammar(readFileSync(grammarPath, "utf8"), grammarPath) : null,
});
const grammar = await registry.loadGrammar("source.arbiter");
for (const file of files) {
  console.log(`== ${file}`);
  let state = vsctm.INITIAL;
  readFileSync(file, "utf8").split("\n").forEach((line, i) => {
    const result = grammar.tokenizeLine(line, state);
    for (const t of result.tokens) {
      const scope = t.scopes[t.scopes.length - 1];
      const text = line.slice(t.startIndex, t.endIndex);
      if (scope !== "source.arbiter" && text.trim() !== "") {
        console.log(`${i + 1}:${t.startIndex + 1}-${t.endIndex} ${scope} ${text}`);
      }
    }
    state = result.ruleStack;
  });
}
