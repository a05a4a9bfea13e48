"""What the words of every concern share: a value read as a square, a compass direction or the
piece an effect is for, a choice as plain data, the reason a coin moves, what a mark may hold."""

from __future__ import annotations

from typing import Any, Protocol

from ...errors import ScriptRuntimeError
from ..board import DIRECTION_NAMED, Direction, Square
from ..interpreter import Limits
from ..scope import Env, describe_value
from ..state import BoutState, Piece, Player


class Faults(Protocol):
    """What reading a value needs of the bout: a positioned fault when the value will not do."""

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Grounds(Faults, Protocol):
    """What finding a square on the board needs of the bout: the grid too."""

    state: BoutState


def squares(*found: Square | None) -> frozenset[Square]:
    return frozenset(s for s in found if s is not None)


def one_square(found: Square | None) -> frozenset[Square]:
    """`squares(found)` for one square or none, without walking the arguments."""
    return frozenset() if found is None else frozenset((found,))


def square_value(value: Any) -> Square | None:
    """The one square a value stands for: a square, a piece's square, or a one-square area such as
    `square_at(...)` or `front_center(...)`; None for anything else (an empty or larger area...)."""
    if isinstance(value, Square):
        return value
    if isinstance(value, Piece):
        return value.square
    if isinstance(value, frozenset) and len(value) == 1:
        return next(iter(value))
    return None


def acting(env: Env) -> Piece | None:
    """The piece acting where a script runs (`self`), if any."""
    return env.lookup("self")[1]


def as_square(host: Faults, value: Any) -> Square:
    square = square_value(value)
    if square is None:
        raise host.runtime_error("wrong_type", f"one square is needed here, got {describe_value(value)}")
    return square


def on_board(host: Grounds, value: Any) -> Square:
    square = as_square(host, value)
    if not host.state.grid.contains(square):
        raise host.runtime_error("bad_value", f"square [{square.col}, {square.row}] is beyond the arena wall")
    return square


def compass_direction(host: Faults, direction: str) -> Direction:
    found = DIRECTION_NAMED.get(direction)  # `Direction[direction]`, without the Enum's interpreted lookup
    if found is None:
        raise host.runtime_error("wrong_type", f"a compass direction (N, NE, ... NW) is needed, got `{direction}`")
    return found


def actor(host: Faults, env: Env, piece: Any, effect: str) -> Piece:
    """The piece an effect is for: the one named, else the acting one (`self`)."""
    chosen = piece if piece is not None else acting(env)
    if not isinstance(chosen, Piece):
        raise host.runtime_error("wrong_type", f"`{effect}` needs a piece: there is no acting piece here, "
                                               f"name one")
    return chosen


def opposed_side(host: Faults, side: str, effect: str) -> str:
    if side not in ("attack", "defense"):
        raise host.runtime_error("bad_value", f"`{effect}` acts on the attack or the defense, not `{side}`")
    return side


def mark_value_problem(value: Any, limits: Limits) -> tuple[str, str] | None:
    """Why a value cannot be held by a mark, or None: marks outlive the script that sets them, so
    what they hold stays small — a number within the limit, text, a piece, a square, or a list of
    at most `max_collection` such values in all, nested at most `max_mark_depth` deep."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, Piece, Square)):
        return None  # what most marks hold, answered before the walk below is set up
    if isinstance(value, int):  # a number, the other value marks hold most: no walk either
        return _number_problem(value, limits)
    budget = [limits.max_collection]

    def problem(item: Any, depth: int) -> tuple[str, str] | None:
        if isinstance(item, bool) or item is None or isinstance(item, (str, Piece, Square)):
            return None
        if isinstance(item, int):
            return _number_problem(item, limits)
        if isinstance(item, (tuple, frozenset)):
            budget[0] -= len(item)
            if budget[0] < 0 or depth > limits.max_mark_depth:
                return ("budget_exceeded", f"a mark holds at most {limits.max_collection} values, "
                                           f"nested at most {limits.max_mark_depth} deep")
            for member in item:
                found = problem(member, depth + 1)
                if found is not None:
                    return found
            return None
        return ("wrong_type", f"a mark cannot hold {describe_value(item)}")

    return problem(value, 0)


def _number_problem(number: int, limits: Limits) -> tuple[str, str] | None:
    """Why a mark cannot hold a number (beyond the number limit), or None."""
    if abs(number) > limits.max_number:
        return ("number_too_large", f"a mark cannot hold {number}: beyond the limit of ±{limits.max_number}")
    return None


def plain(value: Any) -> Any:
    """A choice as plain data for an Action (pieces and players by label, squares as lists)."""
    if isinstance(value, (Piece, Player)):
        return value.label
    if isinstance(value, Square):
        return (value.col, value.row)
    return value


def reason(env: Env) -> str:
    declaration = env.declaration
    return declaration.id if declaration is not None else "script"
