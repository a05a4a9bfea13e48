"""The Ruleset: loaded, validated, layered content — immutable and shareable across bouts."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping, TypeVar

from ..syntax import ast_nodes as A
from .game import Game, Turn, game_of, turn_of
from .words import GameWords, game_words

# YAML data types a pack may hold, with the JSON Schema each item is validated against.
DATA_TYPES = {
    "barges": "barge",
    "lanistas": "lanista",
    "motivations": "motivation",
    "objects": "object_type",
}

_Derived = TypeVar("_Derived")


@dataclass(frozen=True)
class PackInfo:
    id: str
    name: str
    version: str
    builds_on: tuple[str, ...]
    path: str
    kind: str = "base"
    description: str = ""
    # Where each `builds_on` entry sits in pack.yaml (1-based line, column): for errors about it.
    builds_on_positions: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)

    @property
    def folder(self) -> Path:
        return Path(self.path)


@dataclass(frozen=True)
class Origin:
    """Where an item was defined: for `nexus show` and for error messages."""

    pack: str
    file: str
    line: int = 0


@dataclass(frozen=True)
class ScriptItem:
    declaration: A.Declaration
    origin: Origin


@dataclass(frozen=True)
class DataItem:
    type: str
    id: str
    data: Mapping[str, Any]
    origin: Origin
    # Where each value of the item sits in its YAML file: a path inside the item (as jsonschema
    # reports it) -> 1-based (line, column). Lets checks beyond the schema point at the value.
    positions: Mapping[tuple, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Ruleset:
    packs: tuple[PackInfo, ...]
    scripts: Mapping[str, Mapping[str, ScriptItem]]  # kind -> id -> item (layered: last pack wins)
    data: Mapping[str, Mapping[str, DataItem]]  # data type -> id -> item
    settings: Mapping[str, Any]  # every rule param, by name
    triggers: Mapping[str, tuple[tuple[A.Declaration, A.When], ...]]  # event -> listeners in load order
    sources: Mapping[str, str] = field(default_factory=dict)  # file -> text, for error excerpts

    def __getstate__(self) -> dict[str, Any]:
        # The engine keeps its plans beside the fields, keyed by the ids of this process's
        # declarations: a copy elsewhere works them out again.
        return {name: value for name, value in self.__dict__.items() if not name.startswith("_")}

    def derived(self, name: str, work_out: Callable[[], _Derived] = dict) -> _Derived:  # type: ignore[assignment]
        """What the engine works out from this ruleset alone (legality's plans, each event's
        listeners, the uses offered at each window, who owns what by role, the values of unbound
        names): `work_out()` the first time, kept beside the fields under `_<name>` and shared by
        every bout played with it (a ruleset never changes once loaded). Never pickled (see
        `__getstate__`): a copy in another process works it out again."""
        found = self.__dict__.get("_" + name)
        if found is None:
            found = work_out()
            object.__setattr__(self, "_" + name, found)
        return found  # type: ignore[no-any-return]

    # ---- lookups
    def profile_of(self, name: str | None) -> Mapping[str, Any] | None:
        """The profile a setup names for a player: an item of the game's `profiles` data kind."""
        kind = self.game.profiles
        return self.data_item(kind, name) if name and kind else None

    def role_of(self, name: str | None) -> Mapping[str, Any] | None:
        """The role a setup names for a piece: an item of the game's `roles` data kind."""
        kind = self.game.roles
        return self.data_item(kind, name) if name and kind else None

    def declarations(self, kind: str) -> list[A.Declaration]:
        return [item.declaration for item in self.scripts.get(kind, {}).values()]

    def declaration(self, kind: str, ident: str) -> A.Declaration | None:
        item = self.scripts.get(kind, {}).get(ident)
        return item.declaration if item else None

    def find(self, ident: str) -> list[ScriptItem | DataItem]:
        """Every item with this id, whatever its kind (an id may name e.g. an object and a hazard)."""
        found: list[ScriptItem | DataItem] = []
        for scripts_of_kind in self.scripts.values():
            if ident in scripts_of_kind:
                found.append(scripts_of_kind[ident])
        for data_of_type in self.data.values():
            if ident in data_of_type:
                found.append(data_of_type[ident])
        return found

    def data_items(self, data_type: str) -> list[Mapping[str, Any]]:
        return [item.data for item in self.data.get(data_type, {}).values()]

    def data_item(self, data_type: str, ident: str) -> Mapping[str, Any] | None:
        item = self.data.get(data_type, {}).get(ident)
        return item.data if item else None

    def setting(self, name: str) -> Any:
        if name not in self.settings:
            raise KeyError(f"the loaded packs define no rule param `{name}`")
        return self.settings[name]

    def object_flags(self, object_type: str) -> Mapping[str, Any]:
        return self.data_item("objects", object_type) or {}

    @cached_property
    def declaration_ids(self) -> frozenset[str]:
        """Every declaration's id, whatever its kind: the names a script's bare word may stand for."""
        return frozenset(ident for items in self.scripts.values() for ident in items)

    @cached_property
    def words(self) -> GameWords:
        """The game's declared words (states, stats, piles, events, windows), gathered once."""
        return game_words({kind: self.declarations(kind) for kind in ("state", "stat", "pile", "zone", "event", "window", "game", "kind")},
                          self.settings)

    @cached_property
    def game(self) -> Game:
        """How the game is played as a whole: its `game` declaration (a draw-only game without one)."""
        return game_of(self.declarations("game"))

    @cached_property
    def turn(self) -> Turn:
        """The turn the game's pieces take (its `turn`): a plain turn without one."""
        name = self.game.turn
        return turn_of(self.declaration("turn", name) if name is not None else None)

    @property
    def pack_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.packs)


def freeze_mapping(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(mapping)


def thaw(value: Any) -> Any:
    """Frozen mappings and tuples as plain dicts and lists (for YAML, JSON and comparisons)."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(item) for item in value]
    return value
