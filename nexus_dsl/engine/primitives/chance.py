"""The dice a script rolls itself: a die, a check, a compass face, a random square or location."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...errors import Diagnostic, ScriptRuntimeError
from ...model.ruleset import Ruleset
from ..board import Direction, Square
from ..scope import Env
from ..state import BoutState


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


# The purpose the die of `random_location` is rolled for (the log writes it beside the face).
LOCATION_DIE = "location"


def location_table(ruleset: Ruleset) -> tuple[str, ...]:
    """The game's table of body locations, face 1 first: the rule param `random_location_table` (the
    base game declares its d6), else a face per location in the order they are declared."""
    table = ruleset.settings.get("random_location_table") or ruleset.words.group("location")
    return tuple(str(location) for location in table) if isinstance(table, (list, tuple)) else ()


def random_location(host: Host, env: Env) -> str:
    """A body location rolled on the game's table (`location_table`)."""
    table = location_table(host.ruleset)
    if not table:
        raise ScriptRuntimeError(Diagnostic("runtime/unknown_name", "`random_location` rolls over the game's body "
                                            "locations, and it declares none (`stat <id> { group location }`)", "<engine>"))
    return table[host.roll(LOCATION_DIE, len(table)) - 1]


FUNCTIONS: dict[str, Callable[..., Any]] = {"die": die, "check": check, "compass": compass, "random_square": random_square, "random_location": random_location}
EFFECTS: dict[str, Callable[..., Any]] = {}
