// Starts 'rulesplay lsp' (the command in the setting rulesplay.command) for .rules files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulesplay").get("command");
  client = new LanguageClient(
    "rulesplay",
    "rulesplay",
    { command, args },
    { documentSelector: [{ language: "rules" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
