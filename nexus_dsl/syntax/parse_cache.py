"""Parse a rule-script file once: the loader's way to parse, remembering each file's outcome.

The outcome of parsing (the syntax tree, or the syntax diagnostics) depends only on the text, the
name the file is given in positions, the input limits, and the code of the parser. Keyed by all of
them, an outcome is kept in this process (so a second load of a pack parses nothing) and in the
load cache on disk (`nexus_dsl/cache.py`, so a new process parses only the files that changed).
Syntax trees are immutable, so one tree may be shared by every load that reads the same file.

Nothing of Lark is imported until a file has to be parsed: a load whose files are all cached never
imports or compiles the grammar.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

from .. import cache, errors, files, limits as limits_module
from ..errors import Diagnostic, SyntaxLayerError
from ..limits import INPUT_LIMITS, InputLimits
from . import ast_nodes as A

#: Outcomes kept in this process, the most recently used last: at most this many, of files of at
#: most this many characters together (a tree takes some tens of times its text's size).
MEMO_SIZE = 2048
MEMO_CHARACTERS = 8 * 1024 * 1024
_NAMESPACE = "parsed"
_PARSER_SOURCE = Path(__file__).with_name("parser.py")
_GRAMMAR_FILE = Path(__file__).resolve().parents[1] / "grammar" / "nexus.lark"

Outcome = A.Module | tuple[Diagnostic, ...]

_memo: OrderedDict[str, tuple[Outcome, int]] = OrderedDict()  # each with its text's length
_memo_characters = 0
_memo_lock = threading.Lock()  # the editor loads packs from several threads


@lru_cache(maxsize=1)
def _fingerprint() -> str:
    """The code whose work is cached: the parser and grammar, the syntax tree's classes (they are
    pickled), the diagnostics', and what the parser holds text to (sizes, limits), plus Lark."""
    modules = [A, errors, files, limits_module, sys.modules["nexus_dsl"]]
    return cache.code_fingerprint(modules, [_PARSER_SOURCE, _GRAMMAR_FILE], ["lark"])


def parse_file(source: str, file: str = "<input>", limits: InputLimits = INPUT_LIMITS) -> A.Module:
    """What `parser.parse(source, file, limits)` gives (a Module, or SyntaxLayerError with the same
    diagnostics), parsed only when this text under this name and these limits was never parsed
    before, in this process or, through the load cache, in an earlier one."""
    key = cache.digest(_fingerprint(), file, repr(limits), source)
    outcome = _recalled(key)
    if outcome is None:
        outcome = _from_disk(key)
        if outcome is None:
            outcome = _parse(source, file, limits)
            cache.write(_NAMESPACE, key, outcome)
        _remember(key, outcome, len(source))
    if isinstance(outcome, A.Module):
        return outcome
    raise SyntaxLayerError(outcome)


def _parse(source: str, file: str, limits: InputLimits) -> Outcome:
    from .parser import parse

    try:
        return parse(source, file, limits)
    except SyntaxLayerError as error:
        return tuple(error.diagnostics)


def _from_disk(key: str) -> Outcome | None:
    """The outcome stored on disk, when it is one (anything else in its place is a miss)."""
    stored = cache.read(_NAMESPACE, key)
    if isinstance(stored, A.Module):
        return stored
    if isinstance(stored, tuple) and stored and all(isinstance(item, Diagnostic) for item in stored):
        return stored
    return None


def _recalled(key: str) -> Outcome | None:
    with _memo_lock:
        found = _memo.get(key)
        if found is None:
            return None
        _memo.move_to_end(key)
        return found[0]


def _remember(key: str, outcome: Outcome, characters: int) -> None:
    global _memo_characters
    with _memo_lock:
        if key in _memo:
            return
        _memo[key] = (outcome, characters)
        _memo_characters += characters
        while len(_memo) > MEMO_SIZE or (_memo_characters > MEMO_CHARACTERS and len(_memo) > 1):
            _, (_, dropped) = _memo.popitem(last=False)
            _memo_characters -= dropped


def forget() -> None:
    """Drop the outcomes kept in this process (the cache on disk is left as it is)."""
    global _memo_characters
    with _memo_lock:
        _memo.clear()
        _memo_characters = 0
