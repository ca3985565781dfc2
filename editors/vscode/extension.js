// Starts `arbiter lsp` for `.rules` files; everything else (diagnostics, hover, completion,
// rename, formatting...) is the server's.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("arbiter").get("path") || "arbiter";
  client = new LanguageClient(
    "arbiter",
    "Arbiter rules",
    { command, args: ["lsp"] },
    { documentSelector: [{ language: "arbiter" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
