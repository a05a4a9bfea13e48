"""The game's setup and its round: the players, the deal, the order of play, and the pieces (or, in
a game without pieces, the players) taking their turns in it (the words the procedures a `game`
declaration names as its `setup` and `round` are written in)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..cycle import Cycle
from ..interpreter import Env, Run, describe_value
from ..state import Actor, BoutState, Player
from ..state import Piece as Piece
from .values import Faults


class Host(Faults, Protocol):
    """What the words of turns need of the bout."""

    state: BoutState
    cycle: Cycle


def order_of_play(host: Host, env: Env) -> tuple[Actor, ...]:
    return tuple(host.state.actor(label) for label in host.state.order)


def players(host: Host, env: Env) -> tuple[Player, ...]:
    return tuple(host.state.players.values())


def clockwise_from(host: Host, env: Env, start: Any) -> tuple[Actor, ...]:
    """Who acts round the table clockwise (north, east, south, west), starting with `start`: the
    pieces, or in a game without pieces, the players."""
    if not isinstance(start, (Piece, Player)) or start not in host.state.actors():
        raise host.runtime_error("wrong_type", f"`clockwise_from` starts from one who acts here, not {describe_value(start)}")
    return tuple(host.state.actors_clockwise_from(start.label))


def _actors(host: Host, listed: Any, effect: str) -> list[Actor]:
    """A list of pieces (or players, in a game without pieces), each once."""
    members = tuple(listed)
    for member in members:
        if not isinstance(member, Piece if host.state.pieces else Player):
            what = "pieces" if host.state.pieces else "players"
            raise host.runtime_error("wrong_type", f"`{effect}` takes a list of {what}, which holds {describe_value(member)}")
    if len(set(members)) != len(members):
        raise host.runtime_error("bad_value", f"`{effect}` names each one once: {describe_value(members)} repeats one")
    return list(members)


def set_order(host: Host, env: Env, node: A.Action, listed: Any) -> None:
    host.state.order = [actor.label for actor in _actors(host, listed, "set_order")]


def deal_and_keep(host: Host, env: Env, node: A.Action, zone: str) -> Run:
    yield from host.cycle.deal_and_keep(zone)


def roll_initiative(host: Host, env: Env, node: A.Action) -> None:
    host.cycle.roll_initiative()


def take_turns(host: Host, env: Env, node: A.Action, pieces: Any) -> Run:
    members = tuple(pieces)
    for member in members:
        if not isinstance(member, (Piece, Player)):
            raise host.runtime_error("wrong_type", f"`take_turns` takes a list of pieces, which holds {describe_value(member)}")
    yield from host.cycle.take_turns(list(members))


def alternate_turns(host: Host, env: Env, node: A.Action, listed: Any) -> Run:
    yield from host.cycle.take_turns(_actors(host, listed, "alternate_turns"), alternating=True)


FUNCTIONS: dict[str, Callable[..., Any]] = {"order_of_play": order_of_play, "players": players,
                                            "clockwise_from": clockwise_from}
EFFECTS: dict[str, Callable[..., Any]] = {"deal_and_keep": deal_and_keep, "roll_initiative": roll_initiative, "set_order": set_order,
                                          "take_turns": take_turns, "alternate_turns": alternate_turns}
