"""The TextMate grammar colours every token as the parser's lexer reads it, on every content script.

The grammar is scanned here as a TextMate engine scans a grammar of plain `match` rules: one line
at a time (with its newline), at each position the rule whose match starts first, the rule listed
first among those starting at the same place. Each character then has the scope the grammar gives
it, compared with the scope `textmate.scope_of` agrees for the token Lark's lexer puts it in.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nexus_dsl.cli import main
from nexus_dsl.errors import source_lines
from nexus_dsl.textmate import GRAMMAR_PATH, KIND_SCOPE, KEYWORD_SCOPE, scope_of, textmate_grammar, textmate_json
from nexus_dsl.workbench.highlight import token_spans

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((REPO / "content").rglob("*.nexus"))


def textmate_scopes(source: str) -> list[str | None]:
    """The scope of each character of `source` under the generated grammar."""
    rules = [(re.compile(rule["match"]), rule["name"]) for rule in textmate_grammar()["patterns"]]
    scopes: list[str | None] = [None] * len(source)
    offset = 0
    for line in source_lines(source, keepends=True):
        at = 0
        while at < len(line):
            best: tuple[re.Match[str], str] | None = None
            for pattern, name in rules:
                found = pattern.search(line, at)
                if found and found.end() > found.start() and (best is None or found.start() < best[0].start()):
                    best = (found, name)
            if best is None:
                break
            found, name = best
            scopes[offset + found.start():offset + found.end()] = [name] * (found.end() - found.start())
            at = found.end()
        offset += len(line)
    return scopes


def lexer_scopes(source: str) -> list[str | None]:
    """The scope of each character of `source` as agreed for the token the parser's lexer reads it in."""
    scopes: list[str | None] = []
    for start, end, cls in token_spans(source):
        text = source[start:end]
        if cls == "plain":  # spaces, newlines and `;` runs: each character on its own
            scopes.extend(scope_of(cls, char) for char in text)
        else:
            scopes.extend([scope_of(cls, text)] * (end - start))
    return scopes


def differences(source: str) -> list[str]:
    found = textmate_scopes(source)
    expected = lexer_scopes(source)
    assert len(found) == len(expected) == len(source)
    return [f"offset {i} ({source[i]!r}, line {source.count(chr(10), 0, i) + 1}): {found[i]} != {expected[i]}"
            for i in range(len(source)) if found[i] != expected[i]][:5]


def test_there_are_content_scripts():
    assert len(SCRIPTS) > 20


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(REPO / "content")))
def test_grammar_agrees_with_the_lexer_on_every_content_script(path: Path):
    assert differences(path.read_text(encoding="utf-8")) == []


TRICKY = [
    'roll check 4+  # a threshold before a comment\n',
    'roll check 4+;\n',
    'x = 3cost + costly - cost_of; y = "cost # not a comment"\n',
    'slide_roll by +2SDS; slide_roll by -SDS; SD SDX\n',
    'let a = 1 .. 5 ~ § \x01 more\n',
    'window after_attack_succeeds by self\nwindow w "W" {}\n',
    'if true and not false { log none } elif x >= 2 { }\r\n',
    '"unterminated string\n',
]


@pytest.mark.parametrize("source", TRICKY)
def test_grammar_agrees_with_the_lexer_on_tricky_text(source: str):
    assert differences(source) == []


def test_keywords_kinds_and_names_get_their_scopes():
    scopes = textmate_scopes('command hit "Hit" {\n    cost 2 AP\n}\n')
    assert scopes[0] == KIND_SCOPE and scopes[8] == "variable.other.nexus"
    assert scopes[20 + 4] == KEYWORD_SCOPE  # `cost`
    assert scopes[14] == "string.quoted.double.nexus"


def test_the_checked_in_grammar_is_the_generated_one():
    checked_in = (REPO / GRAMMAR_PATH).read_text(encoding="utf-8")
    assert checked_in == textmate_json(), "run `make grammar` to write it anew"
    assert json.loads(checked_in)["scopeName"] == "source.nexus"


def test_nexus_grammar_prints_and_writes_it(tmp_path, capsys):
    assert main(["grammar", "--textmate"]) == 0
    assert capsys.readouterr().out == textmate_json()
    out = tmp_path / "nexus.tmLanguage.json"
    assert main(["grammar", "--textmate", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == textmate_json()
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # written all at once: no temporary left
