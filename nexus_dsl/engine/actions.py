"""Actions (what a player chooses) and decisions (the choices the engine offers).

The engine enumerates legal actions at every decision point; agents, the CLI and the editor only
pick one. An action is plain data, so a bout is replayed exactly from its seed and action list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Protocol

from .board import Square

# Action kinds. Final: compiled code (`nexus_dsl.native`) takes each as the word itself, where a
# plain module name is looked up in the module's table at every read.
COMMAND: Final = "command"
ABILITY: Final = "ability"
CARD: Final = "card"
CHOICE: Final = "choice"
CONTROL: Final = "control"
END_ROUND: Final = "end_round"
NEXT_ROUND: Final = "next_round"
PASS: Final = "pass"


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True, eq=False)
class Action:
    """One thing an actor may do. Actions are made, compared and hashed thousands of times a bout:
    the methods a dataclass would generate are written out (the same answers: equal among actions
    when the four fields are, hashed as their tuple), so that the compiled engine runs them as
    compiled code (`board.Square` says more); `__reduce__` rebuilds an action from its fields."""

    kind: str
    actor: str
    name: str | None = None
    args: tuple[tuple[str, Any], ...] = ()

    def __init__(self, kind: str, actor: str, name: str | None = None, args: tuple[tuple[str, Any], ...] = ()) -> None:
        object.__setattr__(self, "kind", kind)  # frozen: set as the dataclass's own __init__ does
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", args)

    def __hash__(self) -> int:
        return hash((self.kind, self.actor, self.name, self.args))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind == other.kind and self.actor == other.actor and self.name == other.name and self.args == other.args

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.kind, self.actor, self.name, self.args))

    @staticmethod
    def make(kind: str, piece: str, name: str | None = None, **args: Any) -> Action:
        if not args:  # a pass, the end of a round...: nothing to sort
            return Action(kind, piece, name, ())
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


class OnDemand(Protocol):
    """Options of a decision worked out as they are asked for (`on_demand.CommandOptions`)."""

    def whole(self) -> tuple[Action, ...]: ...

    def offers(self, action: Action) -> bool: ...


class Decision:
    """A point where `piece` must choose one of `options`.

    At a command decision the options may also hold other pieces' instant abilities and cards
    (usable "at any time during any player's command round"): those pieces may interject, and the
    same decision is offered again afterwards.

    A decision may come with its options worked out on demand (`on_demand`, in a bout that offers
    them so: `on_demand.py`): `options` is then the whole list, the same and in the same order,
    worked out the first time it is read; an agent that looks at only some of them asks for those."""

    __slots__ = ("actor", "kind", "_options", "on_demand")

    # Written out, as a dataclass's own `__init__` would be: the compiled engine then makes a
    # decision with compiled code (`Action` says why).
    def __init__(self, actor: str, kind: str, options: tuple[Action, ...] | None = (),
                 on_demand: OnDemand | None = None) -> None:
        self.actor = actor
        self.kind = kind  # "allocate" | "command" | "window:<name>" | "between_rounds" | "choose:<name>" | an `ask`'s name ...
        self._options = options
        self.on_demand = on_demand

    @property
    def options(self) -> tuple[Action, ...]:
        """Every option, in order (worked out whole the first time it is read, when on demand)."""
        options = self._options
        if options is None:
            assert self.on_demand is not None
            options = self._options = self.on_demand.whole()
        return options

    def offers(self, action: Action) -> bool:
        """Whether `action` is one of the options (asking only what it needs, when on demand)."""
        options = self._options
        if options is None:
            assert self.on_demand is not None
            return self.on_demand.offers(action)
        return action in options

    def __repr__(self) -> str:
        return f"Decision(actor={self.actor!r}, kind={self.kind!r}, options={self.options!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Decision, (self.actor, self.kind, self.options))
