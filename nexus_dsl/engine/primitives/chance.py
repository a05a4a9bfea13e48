"""The dice a script rolls itself: a die, a check, a compass face, a random square or location."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...model.ruleset import Ruleset
from ..board import Direction, Square
from ..interpreter import Env
from ..state import BoutState

# The random body location d6 (pg.26): 1 left_upper, 2 chest, 3 right_upper, 4 left_lower,
# 5 midsection, 6 right_lower. A rule param `random_location_table` may replace it.
DEFAULT_LOCATION_TABLE = ("left_upper", "chest", "right_upper", "left_lower", "midsection", "right_lower")


class Host(Protocol):
    """What the words of chance need of the bout."""

    state: BoutState
    ruleset: Ruleset

    def roll(self, purpose: str, sides: int = 6) -> int: ...


def die(host: Host, env: Env, purpose: str, sides: int = 6) -> int:
    return host.roll(purpose, sides)


def check(host: Host, env: Env, target: int) -> bool:
    return host.roll("check") >= target


def compass(host: Host, env: Env) -> str:
    return Direction.from_compass_face(host.roll("compass", 8)).name


def random_square(host: Host, env: Env) -> Square:
    col = host.roll("grid_col", host.state.grid.size)
    row = host.roll("grid_row", host.state.grid.size)
    return Square(col, row)


def random_location(host: Host, env: Env) -> str:
    table = host.ruleset.settings.get("random_location_table", DEFAULT_LOCATION_TABLE)
    return str(table[host.roll("location", len(table)) - 1])


FUNCTIONS: dict[str, Callable[..., Any]] = {"die": die, "check": check, "compass": compass, "random_square": random_square, "random_location": random_location}
EFFECTS: dict[str, Callable[..., Any]] = {}
