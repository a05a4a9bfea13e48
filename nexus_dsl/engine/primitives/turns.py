"""The game's setup and its round: the deal, the order of play, and the pieces taking their turns in
it (the words the procedures a `game` declaration names as its `setup` and `round` are written in)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..cycle import Cycle
from ..interpreter import Env, Run, describe_value
from ..state import BoutState
from ..state import Helot as Piece
from .values import Faults


class Host(Faults, Protocol):
    """What the words of turns need of the bout."""

    state: BoutState
    cycle: Cycle


def order_of_play(host: Host, env: Env) -> tuple[Piece, ...]:
    return tuple(host.state.helots[label] for label in host.state.order)


def deal_and_keep(host: Host, env: Env, node: A.Action, zone: str) -> Run:
    yield from host.cycle.deal_and_keep(zone)


def allocate_points(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    yield from host.cycle.allocate(piece)


def roll_initiative(host: Host, env: Env, node: A.Action) -> None:
    host.cycle.roll_initiative()


def take_turns(host: Host, env: Env, node: A.Action, pieces: Any) -> Run:
    members = tuple(pieces)
    for member in members:
        if not isinstance(member, Piece):
            raise host.runtime_error("wrong_type", f"`take_turns` takes a list of pieces, which holds {describe_value(member)}")
    yield from host.cycle.take_turns(list(members))


FUNCTIONS: dict[str, Callable[..., Any]] = {"order_of_play": order_of_play}
EFFECTS: dict[str, Callable[..., Any]] = {"deal_and_keep": deal_and_keep, "allocate_points": allocate_points,
                                          "roll_initiative": roll_initiative,
                                          "take_turns": take_turns}
