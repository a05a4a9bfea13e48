"""Who is on which side, how the sides stand, how the game came to its end, and deciding it: the
words a game's verdict is written in (its `game` declaration names the procedure and the score)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..cycle import Cycle
from ..interpreter import Env, describe_value
from ..state import BoutState
from ..state import Helot as Piece
from .values import Faults


class Host(Faults, Protocol):
    """What the words of victory need of the bout."""

    state: BoutState
    ruleset: Ruleset
    cycle: Cycle

    def helot_attribute(self, piece: Piece, name: str) -> Any: ...


def sides(host: Host, env: Env) -> tuple[str, ...]:
    """Every side in the game, in the order of its first piece."""
    return tuple(dict.fromkeys(piece.side for piece in host.state.helots.values()))


def score_of(host: Host, env: Env, side: Any) -> int:
    name = _side(host, side)
    return sum(_score(host, piece) for piece in host.state.helots.values() if piece.side == name)


def leading_sides(host: Host, env: Env) -> tuple[str, ...]:
    totals = {side: score_of(host, env, side) for side in sides(host, env)}
    best = max(totals.values(), default=0)
    return tuple(side for side, total in totals.items() if total == best)


def ending(host: Host, env: Env) -> str | None:
    return host.state.ending.value if host.state.ending is not None else None


def _score(host: Host, piece: Piece) -> int:
    """A piece's part of its side's score: the number the game counts standing in (none: 0)."""
    name = host.ruleset.game.score
    value = host.helot_attribute(piece, name) if name is not None else 0
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _side(host: Host, value: Any) -> str:
    """A side named by its name, or by a piece on it."""
    if isinstance(value, Piece):
        return value.side
    if isinstance(value, str) and value in sides(host, Env({})):
        return value
    raise host.runtime_error("wrong_type", f"a side is needed here (its name, or a piece on it), got {describe_value(value)}")


def win(host: Host, env: Env, node: A.Action, side: Any) -> None:
    host.cycle.decide(_side(host, side))


def declare_draw(host: Host, env: Env, node: A.Action) -> None:
    host.cycle.decide(None)


FUNCTIONS: dict[str, Callable[..., Any]] = {"sides": sides, "score_of": score_of, "leading_sides": leading_sides,
                                            "ending": ending}
EFFECTS: dict[str, Callable[..., Any]] = {"win": win, "declare_draw": declare_draw}
