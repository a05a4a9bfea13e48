"""`nexus lsp` driven over JSON-RPC as a subprocess, as an editor drives it: initialize, open a
broken file and receive its positioned diagnostics, hover a word, complete a prefix, go to a
definition, find references, format a document, shut down and exit.

The documents are files of the Poison Gallery expansion, opened with texts of the test's own: the
server checks the text it is sent, on top of the packs the file belongs to (the expansion and the
base game it builds on), and never writes a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from lsp_client import TIMEOUT, LspClient

from nexus_dsl.syntax.printer import format_source

REPO = Path(__file__).resolve().parents[2]
ADDICT = REPO / "content/expansions/poison_gallery/abilities/addict.nexus"
URI = ADDICT.as_uri()
BROKEN = (REPO / "tests/fixtures/broken/unknown_name.nexus").read_text(encoding="utf-8")


def _position(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


def _at(uri: str, line: int, character: int) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": _position(line, character)}


def _initialize(client: LspClient) -> dict[str, Any]:
    result = client.request("initialize", {"processId": None, "rootUri": REPO.as_uri(), "capabilities": {},
                                           "workspaceFolders": [{"uri": REPO.as_uri(), "name": "nexus"}]})
    client.notify("initialized", {})
    return result


@pytest.fixture(scope="module")
def server() -> Iterator[LspClient]:
    client = LspClient(REPO)
    try:
        capabilities = _initialize(client)["capabilities"]
        for provider in ("hoverProvider", "completionProvider", "definitionProvider", "referencesProvider",
                         "documentFormattingProvider"):
            assert capabilities.get(provider), provider
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": URI, "languageId": "nexus", "version": 1, "text": BROKEN}})
        yield client
    finally:
        client.close()


def _change(client: LspClient, version: int, text: str) -> list[dict[str, Any]]:
    client.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                             "contentChanges": [{"text": text}]})
    return client.diagnostics(URI, version)


def test_a_broken_file_gets_positioned_diagnostics(server: LspClient):
    found = server.diagnostics(URI, 1)
    by_code = {d["code"]: d for d in found}
    assert set(by_code) == {"check/unknown_window", "check/unknown_name"}
    window = by_code["check/unknown_window"]
    # `nexus check` says 3:12 (1-based); the protocol counts from 0, and the range covers the word.
    assert window["range"] == {"start": _position(2, 11), "end": _position(2, 31)}
    assert window["severity"] == 1 and window["source"] == "nexus"
    assert window["message"] == "unknown timing window `after_attack_succeds`\nhint: did you mean `after_attack_succeeds`?"
    assert by_code["check/unknown_name"]["range"] == {"start": _position(4, 8), "end": _position(4, 17)}


def test_columns_are_counted_in_utf16_units(server: LspClient):
    # The emoji is one character to the parser and two UTF-16 units to the client.
    text = 'state mood "Mood" {\n    badge "M"; colour "#ffffff"; text "x"; flavor "\U0001F600"; when round_endz { }\n}\n'
    found = _change(server, 2, text)
    assert [d["code"] for d in found] == ["check/unknown_event"]
    start = text.split("\n")[1].index("round_endz") + 1  # one more unit for the emoji's second half
    assert found[0]["range"] == {"start": _position(1, start), "end": _position(1, start + len("round_endz"))}


def test_text_that_is_no_script_at_all_gets_diagnostics_and_the_server_goes_on(server: LspClient):
    found = _change(server, 3, '\x00}{ "unterminated\n\u202e command command {{{\n')
    assert found and all(d["severity"] == 1 and d["range"]["start"]["line"] >= 0 for d in found)
    assert any(d["code"].startswith("syntax/") for d in found)
    assert _change(server, 4, BROKEN)  # still answering, the first problems back


def test_hover_a_word(server: LspClient):
    answer = server.request("textDocument/hover", _at(URI, 1, 5))  # `cost`
    assert answer["contents"]["kind"] == "markdown"
    assert "cost <amount> <resource>" in answer["contents"]["value"]
    assert answer["range"] == {"start": _position(1, 4), "end": _position(1, 8)}
    declared = server.request("textDocument/hover", _at(URI, 2, 14))  # the misspelt window: not a word of the packs
    assert declared is None


def test_complete_a_prefix(server: LspClient):
    _change(server, 5, BROKEN.replace("add_damge 4", "dam"))
    answer = server.request("textDocument/completion", _at(URI, 4, 11))
    items = answer["items"]
    labels = [item["label"] for item in items]
    assert "damage" in labels and all(label.startswith("dam") for label in labels)
    damage = items[labels.index("damage")]
    assert damage["textEdit"] == {"range": {"start": _position(4, 8), "end": _position(4, 11)}, "newText": "damage"}
    assert damage["kind"] == 2  # Method: an effect


def test_go_to_a_definition_in_the_packs_built_on(server: LspClient):
    _change(server, 6, ADDICT.read_text(encoding="utf-8"))
    lines = ADDICT.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines) if "window own_round" in text)
    answer = server.request("textDocument/definition", _at(URI, line, lines[line].index("own_round") + 2))
    assert len(answer) == 1
    target = Path(answer[0]["uri"].removeprefix("file://"))
    assert target.parent == REPO / "content/base/windows"
    target_lines = target.read_text(encoding="utf-8").split("\n")
    start, end = answer[0]["range"]["start"], answer[0]["range"]["end"]
    assert target_lines[start["line"]][start["character"]:end["character"]] == "own_round"
    assert target_lines[start["line"]].startswith("window own_round")


def test_find_references_across_the_pack(server: LspClient):
    lines = ADDICT.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines) if "add_state self poisoned" in text)
    answer = server.request("textDocument/references", {**_at(URI, line, lines[line].index("poisoned")),
                                                        "context": {"includeDeclaration": True}})
    by_file: dict[str, list[int]] = {}
    for location in answer:
        by_file.setdefault(Path(location["uri"].removeprefix("file://")).name, []).append(location["range"]["start"]["line"])
    assert sorted(by_file) == ["addict.nexus", "poisoned.nexus"]
    assert len(by_file["addict.nexus"]) == 2  # `is not poisoned` and `add_state self poisoned`, not the string
    without = server.request("textDocument/references", {**_at(URI, line, lines[line].index("poisoned")),
                                                         "context": {"includeDeclaration": False}})
    assert len(without) == len(answer) - 1


def test_format_a_document(server: LspClient):
    messy = 'state   calm "Calm"{\n  badge "C"\n        colour "#fff"   # kept\n}'
    _change(server, 7, messy)
    edits = server.request("textDocument/formatting", {"textDocument": {"uri": URI},
                                                       "options": {"tabSize": 4, "insertSpaces": True}})
    assert len(edits) == 1
    assert edits[0]["range"] == {"start": _position(0, 0), "end": _position(3, 1)}
    assert edits[0]["newText"] == format_source(messy)
    assert "# kept" in edits[0]["newText"]
    _change(server, 8, BROKEN.replace("{\n    cost", "{{\n    cost"))
    assert server.request("textDocument/formatting", {"textDocument": {"uri": URI},
                                                      "options": {"tabSize": 4, "insertSpaces": True}}) is None


def test_a_fixed_file_has_no_diagnostics(server: LspClient):
    assert _change(server, 9, ADDICT.read_text(encoding="utf-8")) == []


def test_shutdown_and_exit():
    client = LspClient(REPO)
    try:
        _initialize(client)
        assert client.request("shutdown", None) is None
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT) == 0
    finally:
        client.close()
