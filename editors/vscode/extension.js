// Starts `nexus lsp` (or the command in the setting `nexus.server.command`) for rule scripts and
// talks to it over standard input and output. Everything the server answers comes from the
// nexus_dsl package itself: this file only connects the two.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("nexus").get("server.command", ["nexus", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "nexus",
    "NEXUS rule scripts",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "nexus" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
