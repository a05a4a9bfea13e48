"""Helpers several test modules share: packs written into a temporary folder, and calls recorded.

Importable as `support` from every test module: pytest puts this folder on the import path for
`tests/conftest.py`, which has no package around it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest

from nexus_dsl.check.checker import CheckContext
from nexus_dsl.check.context import context_of
from nexus_dsl.model.words import GameWords, game_words
from nexus_dsl.syntax import ast_nodes as A
from nexus_dsl.syntax.parser import parse


def write_pack(folder: Path, pack_id: str, files: dict[str, str | bytes] | None = None, builds_on: str = "[]",
               manifest: str | None = None) -> Path:
    """A pack in `folder` holding `files` (text written as UTF-8, bytes as they are), with a
    manifest that builds on `builds_on` unless the whole manifest text is given."""
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(manifest or f"id: {pack_id}\nname: {pack_id}\nversion: 1.0.0\n"
                                                  f"builds_on: {builds_on}\n")
    for name, content in (files or {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def value_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside a JSON-like value (itself first), as jsonschema names them."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += value_paths(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += value_paths(child, path + (index,))
    return found


def record_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, key: Callable[..., Any],
                 calls: list[Any] | None = None) -> list[Any]:
    """Replace `module.name` by a wrapper that records `key(*args, **kwargs)` of every call in
    `calls` (a new list unless given), then makes the call."""
    calls = [] if calls is None else calls
    real = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(key(*args, **kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


# The base game's words as the contract names them (canonical ids): its states
# (content/base/states/), its traits in trait-die face order and its body locations (stats/).
BASE_STATES = ("prone", "grappled", "armed", "bleeding", "flaming", "incapacitated", "dead")
BASE_TRAITS = ("WILL", "INST", "PHYS", "DEFT", "SWAG", "CUNN")
BASE_LOCATIONS = ("head", "chest", "midsection", "left_upper", "right_upper", "left_lower", "right_lower")

# The folders of content/base that declare the game's words (not its cards or rules).
_BASE = Path(__file__).resolve().parents[1] / "content" / "base"
_WORD_FOLDERS = ("states", "stats", "piles", "events", "windows", "game", "kinds")


@lru_cache(maxsize=1)
def base_word_declarations() -> tuple[A.Declaration, ...]:
    """The base game's word declarations (states, stats, piles, events, windows, the game with its own names of a piece and a player, and its kinds of card), parsed only: for
    tests that check or draw script words without loading the whole pack."""
    return tuple(declaration for folder in _WORD_FOLDERS for path in sorted((_BASE / folder).glob("*.nexus"))
                 for declaration in parse(path.read_text(encoding="utf-8"), str(path)).declarations)


def base_words() -> GameWords:
    """The base game's words; every stat starts at 0 (the rule params are not read)."""
    by_kind: dict[str, list[A.Declaration]] = {}
    for declaration in base_word_declarations():
        by_kind.setdefault(declaration.kind, []).append(declaration)
    return game_words(by_kind, {})


def base_context(**fields: Any) -> CheckContext:
    """A checker's context knowing the base game's words, with `fields` (object types, settings...)."""
    return replace(context_of(base_word_declarations()), **fields)
