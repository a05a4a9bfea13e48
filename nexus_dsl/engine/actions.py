"""Actions (what a player chooses) and decisions (the choices the engine offers).

The engine enumerates legal actions at every decision point; agents, the CLI and the editor only
pick one. An action is plain data, so a bout is replayed exactly from its seed and action list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Square

# Action kinds
COMMAND = "command"
ABILITY = "ability"
CARD = "card"
CHOICE = "choice"
CONTROL = "control"
END_ROUND = "end_round"
NEXT_ROUND = "next_round"
PASS = "pass"


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Action:
    kind: str
    actor: str
    name: str | None = None
    args: tuple[tuple[str, Any], ...] = ()

    @staticmethod
    def make(kind: str, piece: str, name: str | None = None, **args: Any) -> Action:
        return Action(kind, piece, name, tuple(sorted((k, _freeze(v)) for k, v in args.items())))

    def arg(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "actor": self.actor}
        if self.name:
            out["name"] = self.name
        for key, value in self.args:
            out[key] = value.as_list() if isinstance(value, Square) else (list(value) if isinstance(value, tuple) else value)
        return out

    def describe(self) -> str:
        if self.kind in (END_ROUND, NEXT_ROUND, PASS):
            return self.kind
        args = " ".join(f"{k}={_show(v)}" for k, v in self.args)
        return f"{self.name}{' ' + args if args else ''}"


def _show(value: Any) -> str:
    if isinstance(value, Square):
        return f"[{value.col},{value.row}]"
    return str(value)


@dataclass(frozen=True)
class Decision:
    """A point where `piece` must choose one of `options`.

    At a command decision the options may also hold other pieces' instant abilities and cards
    (usable "at any time during any player's command round"): those pieces may interject, and the
    same decision is offered again afterwards."""

    actor: str
    kind: str  # "allocate" | "command" | "window:<name>" | "between_rounds" | "choose:<name>" | an `ask`'s name ...
    options: tuple[Action, ...] = field(default_factory=tuple)
