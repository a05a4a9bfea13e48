"""Helpers several test modules share: packs written into a temporary folder, and calls recorded.

Importable as `support` from every test module: pytest puts this folder on the import path for
`tests/conftest.py`, which has no package around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest


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


# The base game's states (content/base/states/states.nexus; canonical ids of the contract), for
# tests that draw script words without loading the content.
BASE_STATES = ("prone", "grappled", "armed", "bleeding", "flaming", "incapacitated", "dead")
