"""The roll, the window or the hit in progress: sliding, fixing and re-rolling dice, adding or reducing damage, preventing."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..conditions import Conditions
from ..interpreter import Interpreter, Run
from ..scope import Env
from ..rolls import Rolls
from ..state import Piece
from ..timing import Timing
from .values import Faults, opposed_side, reason


class Host(Faults, Protocol):
    """What the words of rolls need of the bout."""

    interpreter: Interpreter
    conditions: Conditions
    rolling: Rolls
    timing: Timing


def slide_roll(host: Host, env: Env, node: A.Action, side: str, by: int) -> None:
    # A side's level is a plain sum here; the dice scale's cap applies when the side is rolled.
    roll = host.rolling.current_roll(node)
    side = opposed_side(host, side, "slide_roll")
    roll.levels[side] = host.interpreter.bounded(roll.levels[side] + by, None, None, f"the {side} level")


def fix_roll(host: Host, env: Env, node: A.Action, side: str, to: int) -> None:
    host.rolling.current_roll(node).fixed[opposed_side(host, side, "fix_roll")] = to


def add_damage(host: Host, env: Env, node: A.Action, amount: int) -> None:
    roll = host.rolling.current_roll(node)
    roll.damage_bonus = host.interpreter.bounded(roll.damage_bonus + amount, None, None, "the damage bonus")


def reroll(host: Host, env: Env, node: A.Action, side: str) -> None:
    host.rolling.current_roll(node).rerolls.add(side)


def roll_check(host: Host, env: Env, node: A.Action, piece: Piece, by: int, into: A.Name) -> Run:
    passed = yield from host.rolling.check_roll(piece, by, reason(env))
    env.assign(into.id, passed)


def reduce_damage(host: Host, env: Env, node: A.Action, by: int) -> None:
    frames = host.conditions.damage_frames
    if not frames:
        raise host.runtime_error("no_damage", "`reduce_damage` is for `when damage_incoming` listeners")
    frames[-1].amount -= by


def prevent(host: Host, env: Env, node: A.Action) -> None:
    host.timing.current_window(node).prevented = True


def ignore_overall(host: Host, env: Env, node: A.Action) -> None:
    host.timing.current_window(node).prevented = True


FUNCTIONS: dict[str, Callable[..., Any]] = {}
EFFECTS: dict[str, Callable[..., Any]] = {"slide_roll": slide_roll, "fix_roll": fix_roll, "add_damage": add_damage, "reroll": reroll, "roll_check": roll_check, "reduce_damage": reduce_damage, "prevent": prevent, "ignore_overall": ignore_overall}
