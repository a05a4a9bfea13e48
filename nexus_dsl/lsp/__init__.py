"""`nexus lsp`: the Language Server Protocol for rule scripts, so any editor checks, explains,
completes, navigates and formats them as the browser editor does (docs/editors.md).

Built on pygls (the server and JSON-RPC over standard input and output) and lsprotocol (the
protocol's types), the `lsp` extra. Each concern is a module of its own, all of them thin over the
package's own answers:

- `positions`: the parser's 1-based lines and columns in characters, and the protocol's 0-based
  lines and columns in the units the client counts (UTF-16 unless it asks for another);
- `diagnostics`: the checker's `Diagnostic`s of a document, as protocol diagnostics;
- `packs`: the pack a file belongs to and the ruleset of that pack and the packs it builds on;
- `answers`: hover and completion (`assist.py`) and formatting (`nexus fmt`'s `format_source`);
- `navigation`: go to definition and find references of ids across the loaded packs;
- `server`: the pygls server wiring them to the protocol's requests and notifications.

Nothing a user types can stop the server: a file that does not parse gives diagnostics, and a
fault of the tool in one request is logged and answered with nothing.
"""
