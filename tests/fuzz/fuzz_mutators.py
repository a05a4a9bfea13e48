"""Seeded mutators: small, hostile edits of real content files.

A mutator takes a random generator, the text of a file and the corpus it came from, and returns the
edited text and one line saying what it did (so a failure can be replayed by eye as well as by seed).
Text is handled as `str` decoded with `surrogateescape`, so byte-level edits (invalid UTF-8, a byte
flipped in the middle of a multi-byte character) survive the round trip: `to_bytes` gives back the
exact bytes the pipeline will read.

Randomness is a `random.Random` handed in by the caller and seeded from the input's kind and number;
the engine's own randomness is untouched (it goes through its seeded Dice).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from nexus_dsl import vocabulary as V
from support import base_words

ENCODING_ERRORS = "surrogateescape"


def to_bytes(text: str) -> bytes:
    """The bytes of a mutated text (lone surrogates from `surrogateescape` become the raw bytes)."""
    return text.encode("utf-8", ENCODING_ERRORS)


def from_bytes(data: bytes) -> str:
    return data.decode("utf-8", ENCODING_ERRORS)


@dataclass(frozen=True)
class Corpus:
    """The texts mutators may draw on: every file of the same kind (for splicing)."""

    texts: tuple[str, ...]


Mutator = Callable[[random.Random, str, Corpus], tuple[str, str]]

# ---------------------------------------------------------------- interesting pieces of text
LONG_DIGITS = "9" * 4301  # one digit more than Python's default int-to-str limit of 4,300 digits
LINE_BREAKS_AND_SPACES = {
    "U+2028": "\u2028", "U+2029": "\u2029", "NEL": "\x85", "VT": "\x0b", "FF": "\x0c", "NUL": "\x00",
    "TAB": "\t", "CR": "\r", "BOM": "\ufeff", "ESC": "\x1b", "DEL": "\x7f", "ZWSP": "\u200b",
}
INVALID_UTF8 = {
    "0xff": "\udcff", "0xc3 alone": "\udcc3", "0xe2 0x80 truncated": "\udce2\udc80", "0xed 0xa0 0x80 surrogate":
    "\udced\udca0\udc80", "overlong 0xc0 0xaf": "\udcc0\udcaf",
}


def _deep(opening: str, closing: str, depth: int, core: str = "1") -> str:
    return opening * depth + core + closing * depth


def _nested_ifs(depth: int) -> str:
    return "{ if x " * depth + "{ }" + " }" * depth


SCRIPT_TOKENS: tuple[str, ...] = (
    "((((", "))))", _deep("(", ")", 40), _deep("(", ")", 400), "not not not ", "not " * 60, _nested_ifs(5),
    _nested_ifs(40), "{", "}", "[", "]", '"', "\\", "#", ";", ",", ".", ":", "..", "=", "==", "+", "-", "*", "/",
    "1+" * 200 + "1", "SD", "+SDS", "-3SDS", "+4SDS", "4+", "0+", "999999999", "1000000000", "-999999999",
    "99999999999999999999999", LONG_DIGITS, "a" * 65, "x" * 5000, '"' + "s" * 5000 + '"', "_", "__", "SDx",
    "else", "elif", "if", "for each", "repeat 100", "repeat 999999999", "let", "in", "is not", "by", "true", "none",
    "command", "rule", 'rule r "R" {', "}\n}\n}", "\n", "\n\n\n", "é", "λ", "🜁", "1.5", "0x10", "1e9",
)
YAML_TOKENS: tuple[str, ...] = (
    ": ", "- ", "-", "{", "}", "[", "]", "&a ", "*a", "*missing", "!!bool maybe", "!!timestamp x", "!!float n:",
    "!!python/object:os.system", "!!python/name:os.system", "!!int 0x", "!!binary @@", "!!set {a}", "!!omap [a]",
    "!!null x", "!local x", "<<: *a", "<<: 5", "? ", "|", ">", "'", '"', "#", "%YAML 1.1\n", "---\n", "...\n",
    _deep("[", "]", 40), _deep("[", "]", 2000), _deep("{a: ", "}", 300), LONG_DIGITS, "1e400", ".inf", ".nan", "-0",
    "0o17", "0b101", "~", "null", "yes", "no", "on", "1_000", "2001-12-14t21:59:43.10-05:00", "x" * 5000, "\n",
    "é", "🜁",
)


# ---------------------------------------------------------------- small tools
def _position(rng: random.Random, text: str) -> int:
    return rng.randint(0, len(text))


def _lines(text: str) -> list[str]:
    """Lines with their endings, split by `\\n` only (as the parser and the YAML loader count them)."""
    return text.split("\n")


def _join(lines: Sequence[str]) -> str:
    return "\n".join(lines)


def _line_range(rng: random.Random, lines: Sequence[str], longest: int) -> tuple[int, int]:
    start = rng.randrange(len(lines))
    return start, min(len(lines), start + rng.randint(1, longest))


def _describe(piece: str) -> str:
    """A piece of text short enough for a one-line description."""
    shown = piece if len(piece) <= 40 else f"{piece[:20]}…({len(piece)} chars)…{piece[-10:]}"
    return repr(shown)


def _insert(text: str, at: int, piece: str) -> str:
    return text[:at] + piece + text[at:]


def _line_col(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"{line}:{column}"


# ---------------------------------------------------------------- generic mutators
def flip_byte(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    data = bytearray(text.encode("utf-8", ENCODING_ERRORS))
    if not data:
        return "\udcff", "empty file: wrote byte 0xff"
    at = rng.randrange(len(data))
    bit = 1 << rng.randrange(8)
    data[at] ^= bit
    return from_bytes(bytes(data)), f"flipped bit {bit:#04x} of byte {at}"


def replace_char(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    if not text:
        return "#", "empty file: wrote '#'"
    at = rng.randrange(len(text))
    new = rng.choice("{}[]()\"'#;:,.-+*/=<>!&*|\\ \t\n_0aZ")
    return text[:at] + new + text[at + 1:], f"replaced {text[at]!r} at {_line_col(text, at)} by {new!r}"


def insert_token(tokens: Sequence[str]) -> Mutator:
    def mutate(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
        piece = rng.choice(tokens)
        at = _position(rng, text)
        return _insert(text, at, piece), f"inserted {_describe(piece)} at {_line_col(text, at)}"

    mutate.__name__ = "insert_token"
    return mutate


def insert_odd_character(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    name, piece = rng.choice(sorted(LINE_BREAKS_AND_SPACES.items()))
    at = _position(rng, text)
    return _insert(text, at, piece), f"inserted {name} at {_line_col(text, at)}"


def insert_invalid_utf8(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    name, piece = rng.choice(sorted(INVALID_UTF8.items()))
    at = _position(rng, text)
    return _insert(text, at, piece), f"inserted invalid UTF-8 ({name}) at {_line_col(text, at)}"


def add_bom(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    if rng.random() < 0.5:
        return "\ufeff" + text, "added a byte-order mark at the start"
    at = _position(rng, text)
    return _insert(text, at, "\ufeff"), f"inserted a byte-order mark at {_line_col(text, at)}"


def delete_lines(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    lines = _lines(text)
    start, end = _line_range(rng, lines, 8)
    return _join(lines[:start] + lines[end:]), f"deleted lines {start + 1}-{end}"


def duplicate_lines(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    lines = _lines(text)
    start, end = _line_range(rng, lines, 20)
    times = rng.choice((1, 2, 5))
    return _join(lines[:end] + lines[start:end] * times + lines[end:]), f"duplicated lines {start + 1}-{end} x{times}"


def swap_lines(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    lines = _lines(text)
    first, second = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[first], lines[second] = lines[second], lines[first]
    return _join(lines), f"swapped lines {first + 1} and {second + 1}"


def truncate(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    at = _position(rng, text)
    return text[:at], f"cut the file at {_line_col(text, at)}"


def splice(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """Lines of another file of the same kind, in place of some of this one's."""
    other = _lines(rng.choice(corpus.texts))
    start, end = _line_range(rng, other, 15)
    lines = _lines(text)
    at = rng.randrange(len(lines) + 1)
    replaced = rng.randint(0, 3)
    merged = lines[:at] + other[start:end] + lines[at + replaced:]
    return _join(merged), f"spliced lines {start + 1}-{end} of another file over lines {at + 1}-{at + replaced}"


def change_line_endings(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    ending = rng.choice(("\r\n", "\r", "\u2028", "\x85"))
    return text.replace("\n", ending), f"line endings changed to {ending!r}"


def delete_block(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """A bracketed block (`{...}` or `[...]`), or failing that a run of more-indented lines."""
    openings = [i for i, c in enumerate(text) if c in "{["]
    if openings:
        start = rng.choice(openings)
        end = _matching(text, start)
        if end is not None:
            return text[:start] + text[end + 1:], f"deleted the block at {_line_col(text, start)}"
    return delete_lines(rng, text, corpus)


def _matching(text: str, start: int) -> int | None:
    pairs = {"{": "}", "[": "]"}
    opening, closing, depth = text[start], pairs[text[start]], 0
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return index
    return None


ITEM_START = re.compile(r'^(?:- |[a-z_]+ [A-Za-z_][A-Za-z0-9_]* ")', re.M)  # a YAML list item, a declaration


def duplicate_block(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """A whole top-level item (a declaration, a YAML list item) written again, once or many times."""
    starts = [m.start() for m in ITEM_START.finditer(text)]
    if not starts:
        return duplicate_lines(rng, text, corpus)
    index = rng.randrange(len(starts))
    start = starts[index]
    end = starts[index + 1] if index + 1 < len(starts) else len(text)
    block = text[start:end] if text[start:end].endswith("\n") else text[start:end] + "\n"
    times = rng.choice((1, 1, 3, 50))
    return text[:end] + ("" if text[:end].endswith("\n") else "\n") + block * times + text[end:], \
        f"item at line {_line_col(text, start).split(':')[0]} written again x{times}"


def whole_file(replacements: Sequence[str]) -> Mutator:
    def mutate(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
        new = rng.choice(replacements)
        return new, f"replaced the whole file by {_describe(new)}"

    mutate.__name__ = "whole_file"
    return mutate


# ---------------------------------------------------------------- rule-script mutators
NAME = re.compile(r"(?<![A-Za-z0-9_\"])[A-Za-z_][A-Za-z0-9_]*")
NUMBER = re.compile(r"(?<![A-Za-z0-9_])[0-9]+(?![A-Za-z0-9_])")
_BASE_WORDS = base_words()
VOCABULARY_WORDS: tuple[str, ...] = tuple(sorted({
    *V.PRIMITIVES, *V.FUNCTIONS, *_BASE_WORDS.events, *_BASE_WORDS.windows, *V.PIECE_ATTRIBUTES, *V.ROLL_NAMES,
    *V.PROPERTIES, *V.CLAUSES, *_BASE_WORDS.states, *_BASE_WORDS.stats, *V.RESOURCES, *V.COMPASS, *V.RELATIVE,
    *_BASE_WORDS.piles, *V.PURPOSES,
    *V.COST_RESOURCES, *V.ARG_TYPES, "self", "target", "opponent", "attacker", "defender", "margin", "success",
    "failure", "command", "rule", "hazard", "weapon", "influence", "turning_point", "trait_ability", "state", "cost",
    "requires", "roll", "on", "when", "window", "param", "arg", "effect", "let", "if", "elif", "else", "for",
    "each", "repeat", "not", "and", "or", "in", "is", "vs", "true", "false", "none", "automatic",
}))
NUMBER_REPLACEMENTS = ("0", "-1", "999999999", "1000000000", "-999999999", LONG_DIGITS, "00", "1" * 30)


def _near_miss(rng: random.Random, word: str) -> str:
    at = rng.randrange(len(word))
    letter = rng.choice("abcdefghijklmnopqrstuvwxyz_")
    edits = (
        word[:at] + word[at + 1:],  # a letter dropped
        word[:at] + letter + word[at:],  # a letter added
        word[:at] + letter + word[at + 1:],  # a letter changed
        word[:at] + word[at + 1:at + 2] + word[at:at + 1] + word[at + 2:],  # two letters swapped
    )
    return rng.choice(edits) or "_"


def _pick_match(rng: random.Random, pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    matches = list(pattern.finditer(text))
    return rng.choice(matches) if matches else None


def near_miss_identifier(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    match = _pick_match(rng, NAME, text)
    if match is None:
        return insert_token(SCRIPT_TOKENS)(rng, text, corpus)
    new = _near_miss(rng, match.group())
    return text[:match.start()] + new + text[match.end():], \
        f"identifier {match.group()!r} at {_line_col(text, match.start())} -> {new!r}"


def vocabulary_identifier(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    match = _pick_match(rng, NAME, text)
    if match is None:
        return insert_token(SCRIPT_TOKENS)(rng, text, corpus)
    new = rng.choice(VOCABULARY_WORDS)
    return text[:match.start()] + new + text[match.end():], \
        f"identifier {match.group()!r} at {_line_col(text, match.start())} -> word {new!r}"


def negate_number(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    match = _pick_match(rng, NUMBER, text)
    if match is None:
        return insert_token(SCRIPT_TOKENS)(rng, text, corpus)
    return _insert(text, match.start(), "-"), f"negated {match.group()} at {_line_col(text, match.start())}"


def replace_number(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    match = _pick_match(rng, NUMBER, text)
    if match is None:
        return insert_token(SCRIPT_TOKENS)(rng, text, corpus)
    new = rng.choice(NUMBER_REPLACEMENTS)
    return text[:match.start()] + new + text[match.end():], \
        f"number {match.group()} at {_line_col(text, match.start())} -> {_describe(new)}"


STATEMENT = re.compile(r"^([ \t]+)(?!#)([A-Za-z_][^\n{}]*)$", re.M)


def repeat_statement(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """An indented one-line statement repeated many times: budgets (steps, size) must hold."""
    match = _pick_match(rng, STATEMENT, text)
    if match is None:
        return duplicate_lines(rng, text, corpus)
    times = rng.choice((10, 100, 600))
    copies = "\n".join([match.group()] * times)
    return text[:match.start()] + copies + text[match.end():], \
        f"statement on line {_line_col(text, match.start()).split(':')[0]} repeated x{times}"


def wrap_in_repeat(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """A statement wrapped in nested `repeat` loops: the step budget must stop it."""
    match = _pick_match(rng, STATEMENT, text)
    if match is None:
        return duplicate_lines(rng, text, corpus)
    depth = rng.choice((1, 3, 6))
    count = rng.choice(("100", "99", "1000", "-1", "0"))
    indent, body = match.group(1), match.group(2)
    wrapped = f"{indent}{f'repeat {count} {{ ' * depth}{body}{' }' * depth}"
    return text[:match.start()] + wrapped + text[match.end():], \
        f"statement on line {_line_col(text, match.start()).split(':')[0]} wrapped in {depth} x repeat {count}"


def nest_deeply(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """An expression or block wrapped in many levels: parentheses, `not`s or `if`s."""
    match = _pick_match(rng, NUMBER, text) or _pick_match(rng, NAME, text)
    if match is None:
        return insert_token(SCRIPT_TOKENS)(rng, text, corpus)
    depth = rng.choice((20, 33, 100, 1000))
    shape = rng.choice(("parentheses", "not", "list"))
    core = match.group()
    wrapped = {"parentheses": _deep("(", ")", depth, core), "not": "not " * depth + core,
               "list": _deep("[", "]", depth, core)}[shape]
    return text[:match.start()] + wrapped + text[match.end():], \
        f"{core!r} at {_line_col(text, match.start())} nested in {depth} x {shape}"


# ---------------------------------------------------------------- YAML mutators
SCALAR_VALUE = re.compile(r"(?<=: )[^\s\[\]{},#&*!|>'\"][^\n#,\]}]*|(?<=- )[^\s\[\]{},#&*!|>:'\"-][^\n#,\]}]*")
KEY_LINE = re.compile(r"^([ \t]*(?:- )?)([A-Za-z_][A-Za-z0-9_]*):(.*)$", re.M)
TAGGED_VALUES = ("!!bool maybe", "!!timestamp notadate", "!!float n:", "!!int 0x", "!!int ''", "!!binary ===",
                 "!!python/object:os.system", "!!python/object/apply:os.system [ls]", "!!python/name:os.system",
                 "!!set {a}", "!!omap [a]", "!!null x", "!!str", "!!map []", "!!seq {}", "!custom x", "!<tag:x> y",
                 "!!timestamp 2001-13-45", "!!float .nan", "!!int " + LONG_DIGITS)
ODD_VALUES = ("", "~", "null", "[]", "{}", "yes", "no", "on", "-1", "0", "-0", "999999999", "1000000000", LONG_DIGITS,
              "1e400", ".inf", "-.inf", ".nan", "0o17", "0x1f", "0b101", "1_000", "12:30:00", "2001-12-14",
              "x" * 5000, '"' + "\\u2028" * 3 + '"', "'it''s'", "|\n  block", "&anchor x", "*undefined",
              "[[[[[[[[]]]]]]]]", "{a: {b: {c: {}}}}", "- - - x")


def _pick_scalar(rng: random.Random, text: str) -> re.Match[str] | None:
    return _pick_match(rng, SCALAR_VALUE, text)


def _replace_scalar(rng: random.Random, text: str, choices: Sequence[str], what: str) -> tuple[str, str]:
    match = _pick_scalar(rng, text)
    new = rng.choice(choices)
    if match is None:
        return text + f"\nx: {new}\n", f"appended `x: {_describe(new)}`"
    return text[:match.start()] + new + text[match.end():], \
        f"{what}: value {_describe(match.group())} at {_line_col(text, match.start())} -> {_describe(new)}"


def explicit_tag(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    return _replace_scalar(rng, text, TAGGED_VALUES, "explicit tag")


def odd_scalar(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    return _replace_scalar(rng, text, ODD_VALUES, "odd value")


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A flow list whose every level repeats the one below `width` times: `width**levels` leaves in
    a few hundred bytes."""
    parts = [f"&l0 [{', '.join(['x'] * width)}]"]
    for level in range(1, levels):
        parts.append(f"&l{level} [{', '.join([f'*l{level - 1}'] * width)}]")
    return "[" + ", ".join(parts) + "]"


ALIAS_SHAPES = {
    "alias bomb 9 levels": alias_bomb(9, 9),
    "alias bomb 4 levels": alias_bomb(4, 4),
    "recursive list": "&r [*r]",
    "recursive mapping": "&m {a: *m}",
    "undefined alias": "*nowhere",
    "anchor and alias": "[&v 1, *v, *v]",
}


def alias_value(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    name, shape = rng.choice(sorted(ALIAS_SHAPES.items()))
    new, description = _replace_scalar(rng, text, (shape,), "alias")
    return new, f"{name}: {description}"


def alias_existing_node(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """An anchor on one key's value and aliases to it elsewhere (the file's own structure reused)."""
    keys = list(KEY_LINE.finditer(text))
    if len(keys) < 2:
        return alias_value(rng, text, corpus)
    anchored, aliased = rng.sample(keys, 2)
    first, second = sorted((anchored, aliased), key=lambda m: m.start())
    anchor_line = f"{first.group(1)}{first.group(2)}: &z{first.group(3)}" if first.group(3).strip() else \
        f"{first.group(1)}{first.group(2)}: &z"
    alias_line = f"{second.group(1)}{second.group(2)}: *z"
    new = text[:first.start()] + anchor_line + text[first.end():second.start()] + alias_line + text[second.end():]
    return new, f"anchored key `{first.group(2)}` and aliased it at key `{second.group(2)}`"


def merge_key(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    keys = list(KEY_LINE.finditer(text))
    if not keys:
        return text + "\n<<: {a: 1}\n", "appended a merge key"
    match = rng.choice(keys)
    indent = " " * len(match.group(1))
    merge = rng.choice(("<<: {id: merged, name: Merged}", "<<: [1, 2]", "<<: 5", "<<: *nowhere",
                        "<<: &mm {a: 1}", "<<: [{a: 1}, {b: 2}]"))
    return text[:match.end()] + f"\n{indent}{merge}" + text[match.end():], \
        f"merge key {merge!r} after line {_line_col(text, match.start()).split(':')[0]}"


def duplicate_key(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    keys = list(KEY_LINE.finditer(text))
    if not keys:
        return text + "\na: 1\na: 2\n", "appended a duplicated key"
    match = rng.choice(keys)
    indent = " " * len(match.group(1))
    copy = f"\n{indent}{match.group(2)}:{match.group(3)}"
    return text[:match.end()] + copy + text[match.end():], \
        f"key `{match.group(2)}` on line {_line_col(text, match.start()).split(':')[0]} written twice"


def deep_flow(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    depth = rng.choice((20, 33, 100, 3000))
    shape = rng.choice(("[", "{"))
    nested = _deep("[", "]", depth, "1") if shape == "[" else "{a: " * depth + "1" + "}" * depth
    return _replace_scalar(rng, text, (nested,), f"flow nesting {depth}")


def deep_block(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    """A value replaced by a block list nested `depth` levels deep (each level a list of one mapping)."""
    depth = rng.choice((20, 40, 200))
    keys = list(KEY_LINE.finditer(text))
    if not keys:
        return text + "\nx:" + _block_list(2, depth) + "\n", f"appended a block list nested {depth} deep"
    match = rng.choice(keys)
    nested = _block_list(len(match.group(1)) + 2, depth)
    return text[:match.start()] + f"{match.group(1)}{match.group(2)}:{nested}" + text[match.end():], \
        f"value of `{match.group(2)}` on line {_line_col(text, match.start()).split(':')[0]} -> block list nested {depth} deep"


def _block_list(indent: int, depth: int) -> str:
    return "".join(f"\n{' ' * (indent + 2 * level)}- x{level}:" for level in range(depth)) + " end"


def reindent_line(rng: random.Random, text: str, corpus: Corpus) -> tuple[str, str]:
    lines = _lines(text)
    index = rng.randrange(len(lines))
    change = rng.choice(("+1", "-1", "+2", "tab"))
    line = lines[index]
    if change == "tab":
        lines[index] = "\t" + line.lstrip(" ")
    elif change.startswith("+"):
        lines[index] = " " * int(change[1:]) + line
    else:
        lines[index] = line[1:] if line.startswith(" ") else line
    return _join(lines), f"indentation of line {index + 1} changed ({change})"


EMPTY_YAML_FILES = ("", "\n", "# only a comment\n", "---\n", "...\n", "--- ~\n", "[]\n", "{}\n", "- \n", "null\n",
                    "\ufeff", "\ufeff# comment\n", "--- |\n  text\n", "%YAML 1.2\n---\n", "---\n---\n", "- a\n---\n- b\n")
EMPTY_SCRIPT_FILES = ("", "\n", "# only a comment\n", "\ufeff", ";;;\n", "}\n", "{\n", 'rule r "R" {}\n',
                      'rule r "R" { }\nrule r "R" { }\n', "command\n")


# ---------------------------------------------------------------- the mutator sets
GENERIC: tuple[Mutator, ...] = (
    flip_byte, replace_char, insert_odd_character, insert_invalid_utf8, add_bom, delete_lines, duplicate_lines,
    swap_lines, truncate, splice, change_line_endings, delete_block, duplicate_block,
)
SCRIPT_MUTATORS: tuple[Mutator, ...] = GENERIC + (
    insert_token(SCRIPT_TOKENS), insert_token(SCRIPT_TOKENS), near_miss_identifier, near_miss_identifier,
    vocabulary_identifier, vocabulary_identifier, negate_number, replace_number, replace_number, repeat_statement,
    wrap_in_repeat, nest_deeply, whole_file(EMPTY_SCRIPT_FILES),
)
YAML_MUTATORS: tuple[Mutator, ...] = GENERIC + (
    insert_token(YAML_TOKENS), insert_token(YAML_TOKENS), explicit_tag, explicit_tag, odd_scalar, odd_scalar,
    odd_scalar, alias_value, alias_existing_node, merge_key, duplicate_key, deep_flow, deep_block, reindent_line,
    whole_file(EMPTY_YAML_FILES),
)


@dataclass(frozen=True)
class Mutated:
    """A mutated file: its text (surrogate-escaped) and what was done to it, in order."""

    text: str
    steps: tuple[str, ...]

    @property
    def data(self) -> bytes:
        return to_bytes(self.text)


def mutate(rng: random.Random, text: str, corpus: Corpus, mutators: Sequence[Mutator], most: int = 3) -> Mutated:
    """One to `most` mutations chosen and applied in order."""
    steps: list[str] = []
    for _ in range(rng.randint(1, most)):
        mutator = rng.choice(mutators)
        text, detail = mutator(rng, text, corpus)
        steps.append(f"{mutator.__name__}: {detail}")
    return Mutated(text, tuple(steps))
