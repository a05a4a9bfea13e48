"""Who is in play and whose side they are on, in the order they are met; taking a figure off the board."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..events import Events
from ..scope import Env
from ..state import BoutState, Piece, Status
from .values import Faults, as_square


class Host(Faults, Protocol):
    """What the words of pieces need of the bout."""

    state: BoutState
    events: Events

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...


# Pieces affected together are met from the triggering player clockwise (pg.15).
def opponents(host: Host, env: Env, piece: Piece) -> tuple[Piece, ...]:
    return tuple(h for h in host.events.pieces_in_turn() if piece.foe_of(h) and h.on_board and h.status != Status.DEAD)


def friends(host: Host, env: Env, piece: Piece) -> tuple[Piece, ...]:
    return tuple(h for h in host.events.pieces_in_turn()
                 if h != piece and not piece.foe_of(h) and h.on_board and h.status != Status.DEAD)


def pieces(host: Host, env: Env) -> tuple[Piece, ...]:
    return tuple(host.events.pieces_in_turn())


def piece_on(host: Host, env: Env, where: Any) -> Piece | None:
    if isinstance(where, frozenset) and not where:
        return None
    return host.state.piece_at(as_square(host, where))


def pieces_clockwise(host: Host, env: Env, piece: Piece) -> tuple[Piece, ...]:
    return tuple(h for h in host.state.clockwise_from(piece.label) if h.on_board)


def active(host: Host, env: Env) -> Piece | None:
    return host.state.active_piece


def next_in_initiative(host: Host, env: Env, piece: Piece) -> Piece | None:
    order = list(host.state.order) or list(host.state.pieces)
    if piece.label not in order:
        return None
    start = order.index(piece.label)
    for label in order[start + 1:] + order[:start]:
        other = host.state.pieces[label]
        if other.status == Status.FIGHTING and other.on_board:
            return other
    return None


def take_off_board(host: Host, env: Env, node: A.Action, piece: Piece) -> None:
    if piece.on_board:
        piece.on_board = False
        host.emit_line("off_board", {"actor": piece.label, "at": piece.square.as_list()})


FUNCTIONS: dict[str, Callable[..., Any]] = {"opponents": opponents, "friends": friends, "pieces": pieces, "piece_on": piece_on, "pieces_clockwise": pieces_clockwise, "active": active, "next_in_initiative": next_in_initiative}
EFFECTS: dict[str, Callable[..., Any]] = {"take_off_board": take_off_board}
