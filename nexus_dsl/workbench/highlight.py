"""Rule scripts as highlighted HTML, with their diagnostics shown under the lines they concern, and
the token rules the browser's code editor colours with.

The colouring is driven by the language's own Lark grammar: the text is split by the same terminals
the parser uses (keywords are the grammar's string terminals, names, numbers, strings, SDS levels,
thresholds, comments and operators its pattern terminals), so the highlighting always matches the
language. Text the lexer cannot read is marked and skipped, so any text at all can be shown.

The code editor tokenises in the browser as the designer types, so it cannot call Lark: it gets the
grammar's terminals as data (`editor_lexer`), in the order Lark's basic lexer tries them, and runs
the same first-match loop that `lex_with` runs here — the tests hold `lex_with` to `token_spans`.
"""

from __future__ import annotations

import html
import re
from copy import copy
from functools import lru_cache
from typing import Any, Iterable, Iterator, Literal, TypedDict

from lark import Lark, Token
from lark.exceptions import LarkError, UnexpectedCharacters
from lark.lexer import BasicLexer, LexerThread

from .. import shipped
from ..syntax import ast_nodes as A

# Declaration kinds are plain names to the grammar (so they stay free for attributes); they are
# shown as keywords all the same: the built-in ones, and those the loaded packs declare (`kinds`).
DECLARATION_KINDS = frozenset(A.DECLARATION_KINDS)
_PATTERN_CLASSES = {
    "NAME": "name", "NUMBER": "num", "THRESHOLD": "num", "STRING": "str", "SDS_LEVEL": "sds",
    "COMMENT": "com", "COMPARE": "op", "ADD_OP": "op", "MUL_OP": "op",
}
_COLOURS = {
    "kw": "color:#8a2c8a;font-weight:bold", "name": "color:#1f3a5f", "num": "color:#a05a00", "str": "color:#1d7a3a",
    "sds": "color:#b0123f;font-weight:bold", "com": "color:#7a7a7a;font-style:italic", "op": "color:#555",
    "punct": "color:#555", "err": "background:#ffd6d6;color:#a00000;text-decoration:underline wavy #c00",
    "key": "color:#1f3a5f;font-weight:bold", "plain": "",
}
_MAX_RELEX = 500  # unreadable characters to step over before showing the rest as plain text
_BOX_STYLE = ("font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;line-height:1.45;"
              "background:#fbfaf7;border:1px solid #ddd6c8;border-radius:6px;padding:6px 0;overflow-x:auto;margin:0")
_LINE_STYLE = "white-space:pre;padding:0 10px 0 0"
_BAD_LINE_STYLE = "white-space:pre;padding:0 10px 0 0;background:#fff0f0"
_NUMBER_STYLE = "display:inline-block;min-width:3.5em;padding-right:1em;text-align:right;color:#aaa;user-select:none"
_NOTE_STYLE = "white-space:pre;color:#b00020;padding:0 10px 0 0;background:#fff0f0"


@lru_cache(maxsize=1)
def _lexer() -> Lark:
    """The language's grammar with a plain lexer (no newline post-processing): every character of
    the source comes back as a token, ignored ones (spaces, comments) included."""
    return Lark.open(str(shipped.grammar_file()), parser="lalr", lexer="basic", cache=False)


@lru_cache(maxsize=1)
def _every_token_lexer() -> BasicLexer:
    """The grammar's lexer ignoring nothing, built once: what `Lark.lex(text, dont_ignore=True)`
    would build (and compile its patterns for) anew at each call."""
    conf = copy(_lexer().lexer_conf)
    conf.ignore = ()
    return BasicLexer(conf)


def _every_token(source: str) -> Iterator[Token]:
    """Every token of `source`, ignored ones included (`Lark.lex(source, dont_ignore=True)`)."""
    return LexerThread.from_text(_every_token_lexer(), source).lex(None)


@lru_cache(maxsize=1)
def _classes() -> dict[str, str]:
    """Token type -> class: string terminals made of letters are keywords, other strings punctuation."""
    classes: dict[str, str] = {}
    for terminal in _lexer().terminals:
        if terminal.name in _PATTERN_CLASSES:
            classes[terminal.name] = _PATTERN_CLASSES[terminal.name]
        elif terminal.pattern.type == "str":
            classes[terminal.name] = "kw" if terminal.pattern.value.isalpha() else "punct"
        else:
            classes[terminal.name] = "plain"
    return classes


Span = tuple[int, int, str]  # start offset, end offset, class


def token_spans(source: str, kinds: Iterable[str] = ()) -> list[Span]:
    """The source cut into classed spans covering every character, in order; `kinds`, the kinds
    the loaded packs declare, are keywords beside the built-in ones."""
    keywords = DECLARATION_KINDS.union(kinds)
    spans: list[Span] = []
    classes = _classes()
    offset = 0
    skipped = 0
    while offset < len(source):
        if skipped >= _MAX_RELEX:
            spans.append((offset, len(source), "plain"))
            break
        try:
            for token in _every_token(source[offset:]):
                start = offset + (token.start_pos or 0)
                end = start + len(token.value)
                kind = classes.get(token.type, "plain")
                if token.type == "NAME" and token.value in keywords:
                    kind = "kw"
                spans.append((start, end, kind))
            break
        except UnexpectedCharacters as error:
            # lark types the position as optional on every error; the lexer always sets it on this one.
            bad = offset + (error.pos_in_stream or 0)
            spans.append((bad, bad + 1, "err"))
            offset = bad + 1
            skipped += 1
        except (LarkError, ValueError, IndexError):
            spans.append((offset, len(source), "plain"))
            break
    return _fill_gaps(spans, len(source))


def _fill_gaps(spans: list[Span], length: int) -> list[Span]:
    filled: list[Span] = []
    at = 0
    for start, end, kind in sorted(spans):
        start = max(start, at)
        if start >= end:
            continue
        if start > at:
            filled.append((at, start, "plain"))
        filled.append((start, end, kind))
        at = end
    if at < length:
        filled.append((at, length, "plain"))
    return filled


def _lines_of(source: str, spans: list[Span]) -> list[list[tuple[str, str]]]:
    """Per source line, its (text, class) pieces; newlines split pieces."""
    lines: list[list[tuple[str, str]]] = [[]]
    for start, end, kind in spans:
        pieces = source[start:end].split("\n")
        for index, piece in enumerate(pieces):
            if index:
                lines.append([])
            piece = piece.rstrip("\r") if index < len(pieces) - 1 else piece
            if piece:
                lines[-1].append((piece, kind))
    return lines


def _piece_html(text: str, kind: str) -> str:
    escaped = html.escape(text)
    style = _COLOURS.get(kind, "")
    if not style:
        return escaped
    return f'<span class="nx-{kind}" style="{style}">{escaped}</span>'


def _attr(diagnostic: Any, name: str, default: Any) -> Any:
    value = getattr(diagnostic, name, default)
    return value if value is not None else default


def _note_html(diagnostic: Any, line_text: str) -> str:
    column = _attr(diagnostic, "column", 0)
    column = column if isinstance(column, int) else 0
    end_column = _attr(diagnostic, "end_column", 0)
    end_column = end_column if isinstance(end_column, int) else 0
    # Columns count characters; the line is shown with its tabs, so the caret pads with the same.
    prefix = "".join(c if c == "\t" else " " for c in line_text[: max(0, column - 1)])
    width = max(1, end_column - column) if column and end_column > column else 1
    caret = prefix + "^" * width if column > 0 else ""
    severity = str(_attr(diagnostic, "severity", "error"))
    message = f"{severity}: {_attr(diagnostic, 'message', '')}"
    hint = _attr(diagnostic, "hint", "")
    rows = []
    if caret:
        rows.append(caret)
    rows.append(message)
    if hint:
        rows.append(f"hint: {hint}")
    pad = f'<span style="{_NUMBER_STYLE}"></span>'
    return "".join(f'<div class="nx-note" style="{_NOTE_STYLE}">{pad}{html.escape(row)}</div>' for row in rows)


def highlight_html(source: str, diagnostics: Iterable[Any] = (), kinds: Iterable[str] = ()) -> str:
    """The script as a block of HTML: coloured tokens, numbered lines, and each diagnostic shown
    beneath its line with a caret at its column (diagnostics without a line come first); `kinds`
    (those the loaded packs declare) coloured as keywords. Every piece of text is escaped; any
    input at all gives HTML, never an exception."""
    source = source if isinstance(source, str) else str(source)
    diagnostics = tuple(diagnostics or ())
    if not diagnostics:  # a script as the content browser shows it, at every run of its page
        return _plain_html(source, frozenset(kinds))
    return _html(source, diagnostics, kinds)


@lru_cache(maxsize=256)
def _plain_html(source: str, kinds: frozenset[str]) -> str:
    """`highlight_html` of a script without diagnostics, kept for the scripts shown last."""
    return _html(source, (), kinds)


def _html(source: str, diagnostics: tuple[Any, ...], kinds: Iterable[str]) -> str:
    lines = _lines_of(source, token_spans(source, kinds))
    raw_lines = source.split("\n")
    by_line: dict[int, list[Any]] = {}
    loose: list[Any] = []
    for diagnostic in diagnostics:
        line = _attr(diagnostic, "line", 0)
        if isinstance(line, int) and 1 <= line <= len(lines):
            by_line.setdefault(line, []).append(diagnostic)
        else:
            loose.append(diagnostic)
    out = [f'<div class="nexus-source" style="{_BOX_STYLE}">']
    for diagnostic in loose:
        out.append(_note_html(diagnostic, ""))
    for number, pieces in enumerate(lines, start=1):
        notes = by_line.get(number, [])
        style = _BAD_LINE_STYLE if notes else _LINE_STYLE
        body = "".join(_piece_html(text, kind) for text, kind in pieces)
        marker = ' data-error="1"' if notes else ""
        out.append(f'<div class="nx-line" style="{style}"{marker}><span class="nx-ln" style="{_NUMBER_STYLE}">'
                   f'{number}</span>{body}</div>')
        line_text = raw_lines[number - 1] if number - 1 < len(raw_lines) else ""
        for diagnostic in notes:
            out.append(_note_html(diagnostic, line_text))
    out.append("</div>")
    return "\n".join(out)


# ---------------------------------------------------------------- rules for the browser's editor
class TokenRule(TypedDict):
    """One terminal for the browser's tokeniser: its class, its regular expression (a pattern both
    Python's `re` and JavaScript's `RegExp` read alike), and the words that, matched whole, take
    another class (Lark re-types a NAME that spells a keyword)."""

    cls: str
    pattern: str
    words: dict[str, str]


class EditorLexer(TypedDict):
    language: str
    rules: list[TokenRule]
    unreadable: str  # the class of a character no rule matches


Language = Literal["nexus", "yaml"]

# Data items are YAML: keys, strings, numbers, the words YAML reads as booleans or null, SDS levels
# (the game's own values), comments. An approximation for colour only: the loader reads YAML itself.
_YAML_RULES: list[TokenRule] = [
    {"cls": "com", "pattern": r"#[^\n]*", "words": {}},
    {"cls": "str", "pattern": r'"(?:[^"\\\n]|\\.)*"', "words": {}},
    {"cls": "str", "pattern": r"'(?:[^'\n]|'')*'", "words": {}},
    {"cls": "key", "pattern": r"[A-Za-z_][A-Za-z0-9_-]*(?=[ \t]*:(?:[ \t\r\n]|$))", "words": {}},
    {"cls": "sds", "pattern": r"(?:[+-][1-3]?SDS|SD)(?![A-Za-z0-9_])", "words": {}},
    {"cls": "num", "pattern": r"-?[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9_])", "words": {}},
    {"cls": "plain", "pattern": r"[A-Za-z_][A-Za-z0-9_]*",
     "words": {w: "kw" for w in ("true", "false", "null", "yes", "no", "True", "False")}},
    {"cls": "punct", "pattern": r"[-:\[\]{},|>]", "words": {}},
    {"cls": "plain", "pattern": r"[ \t\r\n]+", "words": {}},
]


def editor_lexer(language: Language = "nexus", kinds: Iterable[str] = ()) -> EditorLexer:
    """`_editor_lexer`, with `kinds` (those the loaded packs declare) among its keywords."""
    return _editor_lexer(language, tuple(sorted(set(kinds) - DECLARATION_KINDS)))


@lru_cache(maxsize=8)
def _editor_lexer(language: Language, kinds: tuple[str, ...]) -> EditorLexer:
    """The token rules the browser's editor colours a script (or a YAML data item) with.

    For scripts these are the grammar's terminals in the order Lark's basic lexer tries them (it
    sorts them itself: priority, width, length, name); a string terminal that a pattern terminal
    matches whole (the keyword `cost` is also a NAME) is not tried on its own but re-types that
    pattern's token, as Lark's lexer does."""
    if language == "yaml":
        return {"language": "yaml", "rules": list(_YAML_RULES), "unreadable": "plain"}
    lexer = _lexer().parser.lexer
    classes = _classes()
    ordered = list(lexer.terminals)  # Lark's own trying order
    strings = [t for t in ordered if t.pattern.type == "str"]
    words_of: dict[str, dict[str, str]] = {}
    embedded: set[str] = set()
    for terminal in (t for t in ordered if t.pattern.type == "re"):
        words: dict[str, str] = {}
        for word in strings:
            if word.priority == terminal.priority and re.fullmatch(terminal.pattern.to_regexp(), word.pattern.value):
                words[word.pattern.value] = classes[word.name]
                embedded.add(word.name)
        if terminal.name == "NAME":
            words.update({kind: "kw" for kind in (*DECLARATION_KINDS, *kinds)})
        words_of[terminal.name] = words
    rules: list[TokenRule] = [
        {"cls": classes.get(t.name, "plain"), "pattern": t.pattern.to_regexp(), "words": words_of.get(t.name, {})}
        for t in ordered if t.name not in embedded]
    return {"language": "nexus", "rules": rules, "unreadable": "err"}


def lex_with(lexer: EditorLexer, source: str) -> list[Span]:
    """The browser editor's tokeniser, step for step: at each position the first rule that matches
    a non-empty text wins (re-typed when the text is one of its words); a character no rule
    matches is one span of the `unreadable` class. Every character is covered once, in order."""
    compiled = [(re.compile(rule["pattern"]), rule) for rule in lexer["rules"]]
    spans: list[Span] = []
    at = 0
    while at < len(source):
        for pattern, rule in compiled:
            found = pattern.match(source, at)
            if found and found.end() > at:
                text = found.group(0)
                spans.append((at, found.end(), rule["words"].get(text, rule["cls"])))
                at = found.end()
                break
        else:
            spans.append((at, at + 1, lexer["unreadable"]))
            at += 1
    return spans
