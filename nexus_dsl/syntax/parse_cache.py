"""Parse a rule-script file once: the loader's way to parse, remembering each file's outcome.

The outcome of parsing (the syntax tree, or the syntax diagnostics) depends only on the text, the
name the file is given in positions, the input limits, and the code of the parser. The name is only
copied into the positions, so an outcome is kept without it: the text is parsed under a stand-in
name, which is pickled as a reference and read back as the file's real name. Keyed by the rest, an
outcome is kept in this process (so a second load of a pack parses nothing) and in the load cache
on disk (`nexus_dsl/cache.py`, so a new process parses only the files that changed), and the same
text under another name (a pack copied or moved, a content root elsewhere) is not parsed again.
Both keep it pickled, and each load gets a tree of its own, as a parse would give it: another
load of the same text is another declaration (the editor holds a bout's faulting declaration to
the very one of its ruleset, by identity).

Nothing of Lark is imported until a file has to be parsed: a load whose files are all cached never
imports or compiles the grammar.
"""

from __future__ import annotations

import io
import pickle
import sys
import threading
from functools import lru_cache
from pathlib import Path

from cachetools import LRUCache

from .. import cache, errors, files, limits as limits_module, shipped
from ..errors import Diagnostic, SyntaxLayerError
from ..limits import INPUT_LIMITS, InputLimits
from . import ast_nodes as A

#: Outcomes kept in this process, pickled, the least recently used dropped first: at most this
#: many, of at most this many bytes together.
MEMO_SIZE = 2048
MEMO_BYTES = 64 * 1024 * 1024
_NAMESPACE = "parsed"
_PARSER_SOURCE = Path(__file__).with_name("parser.py")
_GRAMMAR_FILE = shipped.grammar_file()

Outcome = A.Module | tuple[Diagnostic, ...]



def _weight(kept: bytes) -> int:
    """An outcome's share of the memo's budget of MEMO_BYTES: its size, and never less than a
    MEMO_SIZE-th of the budget, so the budget bounds both the bytes and the number kept."""
    return max(len(kept), MEMO_BYTES // MEMO_SIZE)


def _new_memo() -> LRUCache[str, bytes]:
    return LRUCache(maxsize=MEMO_BYTES, getsizeof=_weight)


_memo = _new_memo()
_memo_lock = threading.Lock()  # the editor loads packs from several threads; the memo is not thread-safe


@lru_cache(maxsize=1)
def _fingerprint() -> str:
    """The code whose work is cached: the parser and grammar, the syntax tree's classes (they are
    pickled), the diagnostics', and what the parser holds text to (sizes, limits), plus Lark."""
    modules = [A, errors, files, limits_module, sys.modules["nexus_dsl"]]
    return cache.code_fingerprint(modules, [_PARSER_SOURCE, _GRAMMAR_FILE], ["lark"])


#: The name a text is parsed under when its outcome is kept: no file is named so, and a text holding
#: it is parsed under its own name and not kept, so every string equal to it is the file's name.
STAND_IN_NAME = "\0file\0"
_NAME_REFERENCE = "file"


class _NamesByReference(pickle.Pickler):
    """Pickles the stand-in name as a reference, to be read back as whatever the file is called."""

    def persistent_id(self, obj: object) -> str | None:
        return _NAME_REFERENCE if obj.__class__ is str and obj == STAND_IN_NAME else None


class _NamedReading(pickle.Unpickler):
    """Reads an outcome back with the file's own name where the stand-in was."""

    def __init__(self, kept: bytes, file: str) -> None:
        super().__init__(io.BytesIO(kept))
        self.file = file

    def persistent_load(self, pid: object) -> str:
        if pid != _NAME_REFERENCE:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self.file


def parse_file(source: str, file: str = "<input>", limits: InputLimits = INPUT_LIMITS) -> A.Module:
    """What `parser.parse(source, file, limits)` gives (a Module, or SyntaxLayerError with the same
    diagnostics), parsed only when this text under these limits was never parsed before, under
    whatever name, in this process or, through the load cache, in an earlier one."""
    if STAND_IN_NAME in source:  # its strings could be the stand-in: parsed as if there were no cache
        return _module_of(_parse(source, file, limits))
    key = cache.digest(_fingerprint(), "named by reference", repr(limits), source)
    kept = _recalled(key)
    outcome = _outcome_of(kept, file)
    if outcome is not None:
        return _module_of(outcome)
    kept = cache.read_pickled(_NAMESPACE, key)
    outcome = _outcome_of(kept, file)
    if outcome is None:
        kept = _kept(_parse(source, STAND_IN_NAME, limits))
        outcome = _outcome_of(kept, file)
        if kept is None or outcome is None:  # not to be kept (`_kept`): parsed under its own name, as with no cache
            return _module_of(_parse(source, file, limits))
        cache.write_pickled(_NAMESPACE, key, kept)
    if kept is not None:
        _remember(key, kept)
    return _module_of(outcome)


def _module_of(outcome: Outcome) -> A.Module:
    if isinstance(outcome, A.Module):
        return outcome
    raise SyntaxLayerError(outcome)


def _parse(source: str, file: str, limits: InputLimits) -> Outcome:
    from .parser import parse

    try:
        return parse(source, file, limits)
    except SyntaxLayerError as error:
        return tuple(error.diagnostics)


def _kept(outcome: Outcome) -> bytes | None:
    """The outcome pickled with its name as a reference; None when it cannot be pickled, or when a
    string holds the stand-in name inside a longer text (it could not be put back)."""
    buffer = io.BytesIO()
    try:
        _NamesByReference(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(outcome)
    except Exception:  # noqa: BLE001 - a value that cannot be pickled (or is too deep) is simply not kept
        return None
    kept = buffer.getvalue()
    return None if STAND_IN_NAME.encode("utf-8") in kept else kept


def _outcome_of(kept: bytes | None, file: str) -> Outcome | None:
    """A new copy of the outcome kept pickled, named `file`, when it is one (anything else is a miss)."""
    if kept is None:
        return None
    try:
        stored = _NamedReading(kept, file).load()
    except Exception:  # noqa: BLE001 - an entry that does not unpickle (a class since renamed) is a miss
        return None
    if isinstance(stored, A.Module):
        return stored
    if isinstance(stored, tuple) and stored and all(isinstance(item, Diagnostic) for item in stored):
        return stored
    return None


def _recalled(key: str) -> bytes | None:
    with _memo_lock:
        return _memo.get(key)  # a hit is the most recently used from now on


def _remember(key: str, kept: bytes) -> None:
    with _memo_lock:
        if key in _memo:
            return
        try:
            _memo[key] = kept  # the least recently used outcomes go to make room
        except ValueError:  # larger than the whole budget: kept on disk only
            pass


def forget() -> None:
    """Drop the outcomes kept in this process (the cache on disk is left as it is), and take the
    bounds as MEMO_SIZE and MEMO_BYTES now say."""
    global _memo
    with _memo_lock:
        _memo = _new_memo()
