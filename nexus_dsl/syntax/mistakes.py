"""Common mistakes recognised in a syntax error, each with a message of its own.

A parser error says what token it met and which it would have taken; for the mistakes people
bring from other languages (a Python `:` opening a block, `&&`, `else if`, `x = 2` without `set`)
that list is no help. `explain_token` and `explain_character` look at the offending token and
the text before it and, when they recognise the mistake, say what to write instead.
`unclosed_brace` finds the `{` a file left open, so a missing `}` is reported where the block
opens rather than where the file ends. docs/common-mistakes.md lists them, each held by a test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import source_lines
from ..vocabulary import FOREIGN_WORDS


@dataclass(frozen=True)
class Explanation:
    """What a recognised mistake is (the message) and how to write it instead (the hint)."""

    message: str
    hint: str
    column: int = 0  # where on the line the mistake is, when not at the token the parser stopped at
    width: int = 0


_BRACES = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[{}]')


@dataclass(frozen=True)
class _Site:
    """Where the parser stopped: the token it met, those it would have taken, and the text of the
    line before the token and from it on."""

    kind: str
    token: str
    expected: frozenset[str]
    before: str
    after: str

    @property
    def words(self) -> list[str]:
        return self.before.split()

    @property
    def first(self) -> str:
        return self.words[0] if self.words else ""

    @property
    def last(self) -> str:
        return self.words[-1] if self.words else ""


def explain_token(token_type: str, token: str, expected: set[str], before: str, after: str) -> Explanation | None:
    """A recognised mistake at an unexpected token, or None. `before` is the text of its line up to
    the token, `after` the rest of the line from it."""
    site = _Site(token_type, token, frozenset(expected), before, after)
    for recognise in _RECOGNISERS:
        explanation = recognise(site)
        if explanation is not None:
            return explanation
    return None


_NAME = re.compile(r"[A-Za-z_]\w*")
_TEXT_PROPERTIES = ("text", "flavor", "rulebook")


def _foreign_statement(site: _Site) -> Explanation | None:
    if site.first in FOREIGN_WORDS and site.kind != "$END":
        return Explanation(f"`{site.first}` is not a word of the language", FOREIGN_WORDS[site.first],
                           column=site.before.index(site.first) + 1, width=len(site.first))
    return None


def _colon(site: _Site) -> Explanation | None:
    if site.kind != "COLON":
        return None
    if "LBRACE" in site.expected:
        return Explanation("a block opens with `{`, not `:`",
                           f"write `{site.before.strip()} {{` and close the block with `}}`: indentation alone makes no block")
    if site.first in ("param", "let", "set") and len(site.words) == 2:
        return Explanation(f"a `{site.first}` gives its value after `=`, not `:`", f"write `{site.first} {site.last} = ...`")
    only = ("a `:` follows only the name of an `arg` (`arg location: location`) and the name of a keyword argument "
            "of a function")
    if not site.words:
        return Explanation("unexpected `:`", only)
    return Explanation(f"no `:` after `{site.last}`", f"write `{site.last} <value>`; {only}")


def _equals(site: _Site) -> Explanation | None:
    if site.kind != "EQUAL":
        return None
    if site.after.startswith("=>") or site.after.startswith("=<"):
        return Explanation(f"write `{site.after[1]}=`, not `={site.after[1]}`", "comparisons are `==`, `!=`, `<`, `<=`, `>` and `>=`")
    if "COMPARE" in site.expected:
        return Explanation("`=` gives a name its value; to compare, write `==`", "e.g. `if self.ap == 2 { ... }`")
    if len(site.words) == 1 and _NAME.fullmatch(site.first) and site.first not in ("let", "set"):
        return Explanation(f"to change what `{site.first}` holds, write `set {site.first} = ...`",
                           "`let name = value` binds a new name; `set name = value` changes one a `let` bound")
    return None


def _compound_assignment(site: _Site) -> Explanation | None:
    if site.kind in ("ADD_OP", "MUL_OP") and site.after[len(site.token):].startswith("="):
        name = site.last or "x"
        return Explanation(f"there is no `{site.token}=`", f"write `set {name} = {name} {site.token} ...`")
    return None


def _block_keywords(site: _Site) -> Explanation | None:
    if site.kind == "IF" and site.last == "else":
        return Explanation("write `elif`, not `else if`", "e.g. `} elif self.ap > 1 {`")
    if site.kind == "NAME" and site.expected == {"EACH"}:
        return Explanation("a loop reads `for each <name> in <list>`", f"write `for each {site.token} in ...`")
    if site.kind == "NAME" and site.expected == {"LBRACE"} and site.after[len(site.token):].strip().startswith("{"):
        return Explanation(f"`{site.token}` is not needed: the block opens with `{{` right here",
                           f"write `{site.before.strip()} {{`")
    if site.kind == "NAME" and site.expected == {"LBRACE"}:
        return Explanation(f"the statements of `{site.before.strip()}` go in a block, between `{{` and `}}`",
                           f"write `{site.before.strip()} {{`, the statements on the lines below it, then `}}`")
    if site.kind == "_NL" and site.expected == {"LBRACE"}:
        return Explanation("the `{` that opens a block goes on the same line", f"write `{site.before.strip()} {{`")
    return None


def _effect_written_as_call(site: _Site) -> Explanation | None:
    if site.kind == "LPAR" and len(site.words) == 1 and _NAME.fullmatch(site.first) and not site.before.endswith(" "):
        return Explanation(f"an effect is written without brackets: `{site.first} <value> <word> <value>`",
                           "e.g. `damage target by 2`; brackets call a function inside a value: `count(opponents(self))`")
    if site.kind == "COMMA" and "BY" in site.expected and "LBRACE" not in site.expected:
        return Explanation("an effect's values are not separated by `,`",
                           "give each value its place and its word, e.g. `damage target by 2`; one state a line: "
                           "`add_state target <state>`")
    return None


def _values(site: _Site) -> Explanation | None:
    if site.kind == "NUMBER" and re.search(r"\d\.$", site.before):
        return Explanation("numbers in scripts are whole numbers", "write a whole number, e.g. `2`")
    if site.kind == "COMPARE" and site.last in ("and", "or"):
        return Explanation(f"each comparison needs its own left side after `{site.last}`",
                           f"e.g. `self.ap >= 1 {site.last} self.ap <= 3`")
    if site.kind == "STRING" and "ELSE" in site.expected and site.first == "requires":
        return Explanation("the message of a requirement follows `else`", f"write `... else {site.token}`")
    if site.kind in ("NUMBER", "STRING") and site.last in ("is", "not") and "NAME" in site.expected:
        return Explanation("`is` asks whether a piece is in a state (`target is <state>`)",
                           f"to compare values, write `==`, e.g. `x == {site.token}`")
    if site.last == "else" and "STRING" in site.expected and site.kind not in ("$END", "_NL"):
        return Explanation("the message after `else` is written in double quotes",
                           f'write `else "{site.after.strip()}"`')
    if site.kind in ("NAME", "NUMBER") and site.first in _TEXT_PROPERTIES and "COMMA" in site.expected:
        return Explanation(f"`{site.first}` is written in double quotes",
                           f'write `{site.first} "{site.before[site.before.index(site.first) + len(site.first):].strip()} '
                           f'{site.after.strip()}"`')
    if site.kind == "NUMBER" and site.first == "cost" and "COMMA" in site.expected:
        return Explanation("costs are separated by `,`", "e.g. `cost 1 AP, 1 MP`")
    return None


def _stray_characters(site: _Site) -> Explanation | None:
    if site.kind == "MUL_OP" and site.token == "/" and site.after.startswith("//"):
        return Explanation("a comment starts with `#`, not `//`", "e.g. `# why this effect is here`")
    if site.kind == "ADD_OP" and site.token == "-" and len(site.words) == 2 and "STRING" in site.expected:
        rest = re.match(r"-[\w-]*", site.after)
        written = site.words[1] + (rest.group() if rest else "")
        return Explanation("an id is written in snake_case: letters, digits and `_`",
                           f"write `{written.replace('-', '_')}`")
    if site.kind == "RBRACE" and "$END" in site.expected:
        return Explanation("this `}` closes nothing: every `{` before it is closed already",
                           "remove it, or find the `{` it was meant to close")
    return None


_RECOGNISERS = (_foreign_statement, _colon, _equals, _compound_assignment, _block_keywords, _effect_written_as_call,
                _values, _stray_characters)


# Characters of other languages, and what this one writes instead.
_FOREIGN_CHARACTERS = {
    "&": ("`&&` is written `and`", "e.g. `if self.fighting and target.fighting { ... }`"),
    "|": ("`||` is written `or`", "e.g. `if self.ap > 1 or self.mp > 1 { ... }`"),
    "!": ("`!` is written `not` (and `!=` compares)", "e.g. `if not self.fighting { ... }`"),
    "'": ("text is written in double quotes", 'e.g. `log "a line of the log"`'),
    "%": ("there is no `%`", "arithmetic has `+`, `-`, `*` and `/`"),
    "\u201c": ("text is written in plain double quotes `\"`, not typographic ones", 'e.g. `text "Hit hard."`'),
    "\u201d": ("text is written in plain double quotes `\"`, not typographic ones", 'e.g. `text "Hit hard."`'),
    "\u2018": ("text is written in plain double quotes `\"`", 'e.g. `log "a line of the log"`'),
    "\u2019": ("text is written in plain double quotes `\"`", 'e.g. `log "a line of the log"`'),
}


def explain_character(character: str, after: str) -> Explanation | None:
    """A recognised mistake at a character no token starts with, or None."""
    if character == "!" and after.startswith("!="):
        return None
    return Explanation(*_FOREIGN_CHARACTERS[character]) if character in _FOREIGN_CHARACTERS else None


def unclosed_brace(source: str) -> tuple[int, int] | None:
    """The line and column of the `{` most likely left without its `}`, or None when every `{` is closed.

    Braces inside quoted text and comments do not count. A `}` closes the innermost open `{`, unless
    its line is indented less than that `{`'s line while an outer `{` opens a line indented no deeper
    than the `}`'s: then the inner block is the one left open (its `}` was forgotten) and the `}`
    closes the outer one. The first block so left open is the answer; else, at the end, the
    innermost `{` still open."""
    open_braces: list[tuple[int, int, int]] = []  # line, column, indentation of the line
    suspect: tuple[int, int] | None = None
    for number, line in enumerate(source_lines(source), start=1):
        indent = len(line) - len(line.lstrip(" \t"))
        for match in _BRACES.finditer(line):
            if match.group() == "{":
                open_braces.append((number, match.start() + 1, indent))
            elif match.group() == "}" and open_braces:
                while (len(open_braces) > 1 and open_braces[-1][2] > indent
                       and any(opened[2] <= indent for opened in open_braces[:-1])):
                    left_open = open_braces.pop()
                    suspect = suspect or left_open[:2]
                open_braces.pop()
    if suspect is not None:
        return suspect
    return open_braces[-1][:2] if open_braces else None


def early_closer(source: str, before_line: int) -> tuple[int, int] | None:
    """The line of the first `}` before `before_line` that stands on a line of its own indented
    deeper than the line of the `{` it closes, and that `{`'s line: the likeliest `}` too many
    (`damage x by 1` then `}` inside an effect closes the effect, and every `}` after it one block
    too early). None when every such `}` lines up with its `{`."""
    open_braces: list[tuple[int, int]] = []  # line, indentation of the line
    for number, line in enumerate(source_lines(source)[: max(0, before_line - 1)], start=1):
        indent = len(line) - len(line.lstrip(" \t"))
        for match in _BRACES.finditer(line):
            if match.group() == "{":
                open_braces.append((number, indent))
            elif match.group() == "}" and open_braces:
                opened_on, opened_indent = open_braces.pop()
                if match.start() == indent and indent > opened_indent:
                    return number, opened_on
    return None
