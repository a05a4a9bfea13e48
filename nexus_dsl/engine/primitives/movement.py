"""Moving, turning and placing pieces, and holds one piece takes on another."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..holds import Holds
from ..interpreter import Run
from ..scope import Env
from ..movement import Movement
from ..state import Piece
from .values import Grounds, on_board


class Host(Grounds, Protocol):
    """What the words of movement need of the bout."""

    movement: Movement
    holds: Holds


# An effect that only hands on to a mechanism returns the mechanism's generator as it is, with no
# generator of its own around it (the interpreter runs either alike: `Interpreter._effect_rest`).
def move(host: Host, env: Env, node: A.Action, piece: Piece, direction: str) -> Run:
    return host.movement.move_piece(piece, direction, mover=env.source)


def rotate(host: Host, env: Env, node: A.Action, piece: Piece, side: str) -> Run:
    return host.movement.rotate_piece(piece, side, mover=env.source)


def face(host: Host, env: Env, node: A.Action, piece: Piece, direction: str) -> Run:
    yield from host.movement.face_piece(piece, host.movement.absolute_direction(piece, direction))


def relocate(host: Host, env: Env, node: A.Action, piece: Piece, to: Any) -> Run:
    yield from host.movement.place_piece(piece, on_board(host, to), mover=env.source if env.source != piece else None)


def hold(host: Host, env: Env, node: A.Action, piece: Piece, by: Piece) -> Run:
    return host.holds.take_hold(by, piece)


def release(host: Host, env: Env, node: A.Action, piece: Piece) -> Run:
    return host.holds.release_hold(piece)


FUNCTIONS: dict[str, Callable[..., Any]] = {}
EFFECTS: dict[str, Callable[..., Any]] = {"move": move, "rotate": rotate, "face": face, "relocate": relocate, "hold": hold, "release": release}
