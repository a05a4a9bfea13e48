"""The objects on the board: where they are, what their flags say, placing, removing and destroying them."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..board import Square
from ..events import Events
from ..interpreter import Limits, Run
from ..scope import Env
from .values import Grounds, as_square, on_board


class Host(Grounds, Protocol):
    """What the words of board objects need of the bout."""

    ruleset: Ruleset
    limits: Limits
    events: Events

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...


def objects_at(host: Host, env: Env, where: Any) -> tuple[str, ...]:
    if isinstance(where, frozenset):  # an area: the objects on any of its squares (none off the board)
        objects = host.state.objects
        if not objects:  # an empty board: none, without ordering the area
            return ()
        # In the squares' order (west to east, north to south within a column), of which only the
        # squares holding objects are put in order: mostly none or one of an area's.
        holding = [square for square in where if square in objects]
        if len(holding) > 1:
            holding.sort()
        return tuple(obj for square in holding for obj in objects[square])
    return tuple(host.state.objects_at(as_square(host, where)))


def squares_of(host: Host, env: Env, object_type: str) -> tuple[Square, ...]:
    found = [sq for sq, objects in host.state.objects.items() if object_type in objects]
    # West column first, south to north within a column (the fire movement order, pg.41).
    return tuple(sorted(found, key=lambda sq: (sq.col, -sq.row)))


def area_of(host: Host, env: Env, object_type: str, radius: int) -> frozenset[Square]:
    around: set[Square] = set()
    for sq in squares_of(host, env, object_type):
        around.update(host.state.grid.area(sq, radius))
    return frozenset(around)


def blocks(host: Host, env: Env, object_type: str) -> bool:
    return bool(host.ruleset.object_flags(object_type).get("blocks", False))


def destructible(host: Host, env: Env, object_type: str) -> bool:
    return bool(host.ruleset.object_flags(object_type).get("destructible", False))


def has_flag(host: Host, env: Env, object_type: str, flag: str) -> bool:
    return bool(host.ruleset.object_flags(object_type).get(str(flag), False))


def objects_with(host: Host, env: Env, where: Any, flag: str) -> tuple[str, ...]:
    return tuple(obj for obj in objects_at(host, env, where) if host.ruleset.object_flags(obj).get(str(flag), False))


def indestructible_at(host: Host, env: Env, where: Any) -> bool:
    if isinstance(where, frozenset) and len(where) != 1:
        return True  # an empty area: beyond the wall
    square = as_square(host, where)
    if not host.state.grid.contains(square):
        return True
    return any(not host.ruleset.object_flags(obj).get("destructible", False) for obj in host.state.objects_at(square))


def place(host: Host, env: Env, node: A.Action, object_type: str, at: Any) -> None:
    square = on_board(host, at)
    if sum(len(objects) for objects in host.state.objects.values()) >= host.limits.max_board_objects:
        raise host.runtime_error("budget_exceeded", f"the board already holds {host.limits.max_board_objects} objects, "
                                                    "the most a bout allows")
    host.state.place(object_type, square)
    host.emit_line("object", {"placed": object_type, "at": square.as_list()})


def remove(host: Host, env: Env, node: A.Action, object_type: str, at: Any) -> None:
    square = as_square(host, at)
    if host.state.remove(object_type, square):
        host.emit_line("object", {"removed": object_type, "at": square.as_list()})


def destroy(host: Host, env: Env, node: A.Action, object_type: str, at: Any) -> Run:
    square = as_square(host, at)
    if host.state.remove(object_type, square):
        host.emit_line("object", {"destroyed": object_type, "at": square.as_list()})
        yield from host.events.fire("object_destroyed", self=env.source, object=object_type, at=square, square=square)


FUNCTIONS: dict[str, Callable[..., Any]] = {"objects_at": objects_at, "squares_of": squares_of, "area_of": area_of, "blocks": blocks, "destructible": destructible, "has_flag": has_flag, "objects_with": objects_with, "indestructible_at": indestructible_at}
EFFECTS: dict[str, Callable[..., Any]] = {"place": place, "remove": remove, "destroy": destroy}
