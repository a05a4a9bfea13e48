"""Who is on which side and still in play, how the sides stand, how the game came to its end, and
ending and deciding it: the words a game's end and verdict are written in (its `game` declaration
names the verdict's procedure and the score)."""

from __future__ import annotations

import re
from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..cycle import Cycle
from ..interpreter import Run
from ..scope import Env, describe_value
from ..state import Actor, BoutState, Player, Status
from ..state import Piece as Piece
from .values import Faults


# How a game ended, as the log records it: a word.
_ENDING = re.compile(r"[a-z][a-z0-9_]{0,39}")


class Host(Faults, Protocol):
    """What the words of victory need of the bout."""

    state: BoutState
    cycle: Cycle


def sides(host: Host, env: Env) -> tuple[str, ...]:
    """Every side in the game, in the order of its first piece (or player, in a game without pieces)."""
    return tuple(dict.fromkeys(actor.side for actor in host.state.actors()))


def score_of(host: Host, env: Env, side: Any) -> int:
    name = _side(host, env, side)
    return sum(host.cycle.score(actor) for actor in host.state.actors() if actor.side == name)


def players_of(host: Host, env: Env, side: Any) -> tuple[Player, ...]:
    name = _side(host, env, side)
    return tuple(player for player in host.state.players.values() if player.side == name)


def leading_sides(host: Host, env: Env) -> tuple[str, ...]:
    totals = {side: score_of(host, env, side) for side in sides(host, env)}
    best = max(totals.values(), default=0)
    return tuple(side for side, total in totals.items() if total == best)


def ending(host: Host, env: Env) -> str | None:
    return host.state.ending


def in_play(host: Host, env: Env) -> tuple[Actor, ...]:
    """The pieces (or players, in a game without pieces) still in play, in the order they are listed."""
    return tuple(actor for actor in host.state.actors() if actor.status == Status.FIGHTING)


def sides_in_play(host: Host, env: Env) -> tuple[str, ...]:
    return tuple(dict.fromkeys(piece.side for piece in in_play(host, env)))


def _side(host: Host, env: Env, value: Any) -> str:
    """A side named by its name, or by a piece on it."""
    if isinstance(value, (Piece, Player)):
        return value.side
    if isinstance(value, str) and value in sides(host, env):
        return value
    raise host.runtime_error("wrong_type", f"a side is needed here (its name, or a piece on it), got {describe_value(value)}")


def win(host: Host, env: Env, node: A.Action, side: Any) -> None:
    host.cycle.decide(_side(host, env, side))


def declare_draw(host: Host, env: Env, node: A.Action) -> None:
    host.cycle.decide(None)


def end_game(host: Host, env: Env, node: A.Action, how: Any) -> Run:
    if not isinstance(how, str) or not _ENDING.fullmatch(how):
        raise host.runtime_error("bad_value", f"a game ends with the name of how it ended, a word such as "
                                              f"\"deck_exhausted\", not {describe_value(how)}")
    yield from host.cycle.end_game(how)


FUNCTIONS: dict[str, Callable[..., Any]] = {"sides": sides, "score_of": score_of, "players_of": players_of, "leading_sides": leading_sides,
                                            "ending": ending, "in_play": in_play, "sides_in_play": sides_in_play}
EFFECTS: dict[str, Callable[..., Any]] = {"win": win, "declare_draw": declare_draw, "end_game": end_game}
