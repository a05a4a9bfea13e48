"""The TextMate grammar of rule scripts (`.nexus`), generated from the Lark grammar's terminals.

Editors that colour with TextMate grammars (VS Code, Sublime Text, and through them many more)
get the same colours as the browser editor, from the same source: the token rules of
`workbench.highlight.editor_lexer`, which are the grammar's terminals in the order Lark's lexer
tries them. Nothing here is written by hand but the scope each class of token is given.

A TextMate grammar of plain `match` rules is scanned one line at a time: at each position the rule
whose match starts first wins, and of those starting at the same place the one listed first. With
the terminals listed in Lark's order, every token that starts where Lark's lexer starts one is
therefore matched as Lark matches it. A keyword is a NAME that spells it (Lark re-types the token),
so the keywords are listed just before NAME, matched only as whole words. Spaces and newlines carry
no scope and need no rule; a character no terminal reads is `invalid.illegal`, as the browser
editor marks it. `tests/syntax/test_textmate.py` holds the grammar, run on VS Code's own engine
(vscode-textmate over Oniguruma), to the lexer on every content script, and the checked-in file
(`editors/vscode/syntaxes/nexus.tmLanguage.json`, written by `nexus grammar --textmate --out ...`,
`make grammar`) to what this module generates.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .syntax import ast_nodes as A
from .workbench.highlight import _lexer, editor_lexer

SCOPE_NAME = "source.nexus"
# The checked-in grammar, relative to the repository's root.
GRAMMAR_PATH = "editors/vscode/syntaxes/nexus.tmLanguage.json"

# The scope of each class of token the browser editor colours (`highlight._classes`).
CLASS_SCOPES: dict[str, str] = {
    "name": "variable.other.nexus",
    "num": "constant.numeric.nexus",
    "str": "string.quoted.double.nexus",
    "sds": "constant.other.sds-level.nexus",
    "com": "comment.line.number-sign.nexus",
    "op": "keyword.operator.nexus",
    "punct": "punctuation.nexus",
    "err": "invalid.illegal.nexus",
}
# Keywords split by what they say: a declaration's kind, a constant, or the rest of the grammar's words.
KIND_SCOPE = "storage.type.nexus"
CONSTANT_SCOPE = "constant.language.nexus"
KEYWORD_SCOPE = "keyword.control.nexus"
CONSTANTS = ("true", "false", "none")
# `;` ends a statement as a newline does (the grammar's `_NL` terminal); it alone of that terminal is seen.
TERMINATOR = ";"
TERMINATOR_SCOPE = "punctuation.terminator.statement.nexus"
_WORD_CHAR = "A-Za-z0-9_"


def keyword_scope(word: str) -> str:
    """The scope of a word the browser editor colours as a keyword: a declaration's kind, unless the
    grammar spells it as a keyword of its own (`window` opens a clause too)."""
    if word in CONSTANTS:
        return CONSTANT_SCOPE
    return KIND_SCOPE if word in A.DECLARATION_KINDS and word not in grammar_words() else KEYWORD_SCOPE


@lru_cache(maxsize=1)
def grammar_words() -> frozenset[str]:
    """The words the grammar spells as string terminals (`cost`, `window`, `true`...)."""
    return frozenset(t.pattern.value for t in _lexer().terminals if t.pattern.type == "str" and t.pattern.value.isalpha())


def scope_of(cls: str, text: str) -> str | None:
    """The scope the grammar gives a token of the browser editor's class `cls` (None: no scope).
    A `plain` token is spaces or newlines, or a run of `;`."""
    if cls == "kw":
        return keyword_scope(text)
    if cls == "plain":
        return TERMINATOR_SCOPE if text and set(text) == {TERMINATOR} else None
    return CLASS_SCOPES.get(cls)


def _whole_words(words: list[str], scope: str) -> dict[str, str]:
    # Longest first, so that no word stops at a shorter one it starts with. No look-behind: a match
    # wins only where a token starts (after `3` in `3cost` as well, where Lark starts a NAME), since
    # a name starting earlier is matched earlier by the NAME rule that follows.
    alternatives = "|".join(sorted(words, key=lambda w: (-len(w), w)))
    return {"match": f"(?:{alternatives})(?![{_WORD_CHAR}])", "name": scope}


def textmate_grammar() -> dict[str, Any]:
    """The grammar as the JSON object a `.tmLanguage.json` file holds."""
    lexer = editor_lexer("nexus")
    patterns: list[dict[str, str]] = []
    for rule in lexer["rules"]:
        words = rule["words"]
        by_scope: dict[str, list[str]] = {}
        for word, cls in words.items():
            scope = keyword_scope(word) if cls == "kw" else CLASS_SCOPES.get(cls)
            if scope is not None:
                by_scope.setdefault(scope, []).append(word)
        patterns.extend(_whole_words(found, scope) for scope, found in sorted(by_scope.items()))
        if rule["cls"] == "plain":
            if TERMINATOR in rule["pattern"]:  # the statement separator, without the newlines around it
                patterns.append({"match": TERMINATOR, "name": TERMINATOR_SCOPE})
            continue
        patterns.append({"match": rule["pattern"], "name": CLASS_SCOPES[rule["cls"]]})
    patterns.append({"match": r"[^ \t\f\r\n]", "name": CLASS_SCOPES[lexer["unreadable"]]})
    return {
        "$comment": "Generated from nexus_dsl/grammar/nexus.lark by `nexus grammar --textmate`; do not edit.",
        "name": "NEXUS rule script",
        "scopeName": SCOPE_NAME,
        "fileTypes": ["nexus"],
        "patterns": patterns,
    }


def textmate_json() -> str:
    """The grammar's file text: stable key order, two-space indents, a final newline."""
    return json.dumps(textmate_grammar(), indent=2, ensure_ascii=False) + "\n"
