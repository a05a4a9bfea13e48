"""Moving, turning and placing helots, and holds one helot takes on another."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..holds import Holds
from ..interpreter import Env, Run
from ..movement import Movement
from ..state import Helot
from .values import Grounds, on_board


class Host(Grounds, Protocol):
    """What the words of movement need of the bout."""

    movement: Movement
    holds: Holds


def move(host: Host, env: Env, node: A.Action, helot: Helot, direction: str) -> Run:
    yield from host.movement.move_helot(helot, direction, mover=env.source)


def rotate(host: Host, env: Env, node: A.Action, helot: Helot, side: str) -> Run:
    yield from host.movement.rotate_helot(helot, side, mover=env.source)


def face(host: Host, env: Env, node: A.Action, helot: Helot, direction: str) -> Run:
    yield from host.movement.face_helot(helot, host.movement.absolute_direction(helot, direction))


def relocate(host: Host, env: Env, node: A.Action, helot: Helot, to: Any) -> Run:
    yield from host.movement.place_helot(helot, on_board(host, to), mover=env.source if env.source != helot else None)


def hold(host: Host, env: Env, node: A.Action, helot: Helot, by: Helot) -> Run:
    yield from host.holds.take_hold(by, helot)


def release(host: Host, env: Env, node: A.Action, helot: Helot) -> Run:
    yield from host.holds.release_hold(helot)


FUNCTIONS: dict[str, Callable[..., Any]] = {}
EFFECTS: dict[str, Callable[..., Any]] = {"move": move, "rotate": rotate, "face": face, "relocate": relocate, "hold": hold, "release": release}
