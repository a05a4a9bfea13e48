"""Squares, arcs, lines and directions round a piece: what the grid answers."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...model.ruleset import Ruleset
from ..board import Square, turned
from ..scope import Env
from ..movement import Movement
from ..state import BoutState, Piece
from .values import Faults, as_square, compass_direction, one_square


class Host(Faults, Protocol):
    """What the words of geometry need of the bout."""

    state: BoutState
    ruleset: Ruleset
    movement: Movement


# The areas round a piece, read from the board's tables (`Grid.step_area`, `Grid.front_arc_area`):
# asked of every piece at every look round it, each set is made once per board size.
def front_center(host: Host, env: Env, piece: Piece) -> frozenset[Square]:
    facing: int = piece.facing._value_
    return host.state.grid.step_area(piece.square, facing)


def front_arc(host: Host, env: Env, piece: Piece) -> frozenset[Square]:
    return host.state.grid.front_arc_area(piece.square, piece.facing)


def behind(host: Host, env: Env, piece: Piece) -> frozenset[Square]:
    facing: int = piece.facing._value_
    return host.state.grid.step_area(piece.square, (facing + 4) % 8)


def adjacent(host: Host, env: Env, piece: Piece) -> frozenset[Square]:
    return frozenset(host.state.grid.neighbours(piece.square))


def step(host: Host, env: Env, piece: Piece, direction: str) -> frozenset[Square]:
    return one_square(host.movement.square_towards(piece, direction))


def can_enter(host: Host, env: Env, piece: Piece, direction: str) -> bool:
    movement = host.movement
    return not movement.blocked(movement.square_towards(piece, direction), ignore=piece)


def square_at(host: Host, env: Env, where: Any, direction: str) -> frozenset[Square]:
    if isinstance(where, frozenset) and not where:
        return frozenset()  # one step from nowhere (e.g. from beyond the wall) is nowhere
    return one_square(host.state.grid.step(as_square(host, where), compass_direction(host, direction)))


def area(host: Host, env: Env, where: Any, radius: int) -> frozenset[Square]:
    return host.state.grid.area_set(as_square(host, where), radius)


def in_sight(host: Host, env: Env, piece: Piece, other: Piece) -> bool:
    if not host.state.grid.in_line_of_sight_cone(piece.square, piece.facing, other.square):
        return False
    return not any(host.ruleset.object_flags(obj).get("cover", False)
                   for sq in host.state.grid.line_between(piece.square, other.square) for obj in host.state.objects_at(sq))


def forward_distance(host: Host, env: Env, piece: Piece, other: Piece) -> int:
    return host.state.grid.forward_distance(piece.square, piece.facing, other.square)


def opposite(host: Host, env: Env, direction: str) -> str:
    return turned(compass_direction(host, direction), 4)._name_  # `.opposite.name`, without the Enum's properties


def free(host: Host, env: Env, where: Any) -> bool:
    if isinstance(where, frozenset) and len(where) != 1:
        return False  # no single square to stand on
    return not host.movement.blocked(as_square(host, where))


def square_of(host: Host, env: Env, piece: Piece) -> Square:
    return piece.square


def beyond(host: Host, env: Env, piece: Piece, other: Piece) -> frozenset[Square]:
    return one_square(host.state.grid.beyond(piece.square, other.square))


def squares_toward(host: Host, env: Env, where: Any, direction: str, count: int) -> tuple[Square, ...]:
    line: list[Square] = []
    if isinstance(where, frozenset) and len(where) != 1:
        return ()
    current: Square | None = as_square(host, where)
    way = compass_direction(host, direction)
    for _ in range(min(count, host.state.grid.size)):
        current = host.state.grid.step(current, way) if current is not None else None
        if current is None or not host.state.grid.contains(current):
            break
        line.append(current)
    return tuple(line)


def heading(host: Host, env: Env, piece: Piece, direction: str) -> str:
    return host.movement.absolute_direction(piece, direction)._name_


def distance(host: Host, env: Env, a: Piece, b: Piece) -> int:
    return host.state.grid.chebyshev(a.square, b.square)


FUNCTIONS: dict[str, Callable[..., Any]] = {"front_center": front_center, "front_arc": front_arc, "behind": behind, "adjacent": adjacent, "step": step, "can_enter": can_enter, "square_at": square_at, "area": area, "in_sight": in_sight, "forward_distance": forward_distance, "opposite": opposite, "free": free, "square_of": square_of, "beyond": beyond, "squares_toward": squares_toward, "heading": heading, "distance": distance}
EFFECTS: dict[str, Callable[..., Any]] = {}
