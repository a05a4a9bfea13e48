"""The functions a script reads lists with, and the dice pool: what ordered zones of cards and
games that count successes need, named for no game.

A list is a tuple (in its order) or a set of squares (west column first, north to south in each
column, so every reading of it is the same in every bout). The list functions need only the
limits, so they are made once per `Limits` and shared by every bout and preview; the dice pool
rolls the bout's own dice (`dice_pool`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from ..errors import Diagnostic, ScriptRuntimeError
from .board import Square
from .interpreter import Limits
from .scope import Env, describe_value
from .state import Piece, Player

Roll = Callable[[str, int], int]


def runtime_error(code: str, message: str) -> ScriptRuntimeError:
    """A fault of a value in play; the interpreter positions it at the call."""
    return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, "<engine>"))


def ordered(items: Any) -> tuple[Any, ...]:
    """A list as a tuple in its order; a set of squares in board order."""
    if isinstance(items, frozenset):
        return tuple(sorted(items, key=lambda square: (square.col, square.row) if isinstance(square, Square) else (0, 0)))
    return tuple(items)


@lru_cache(maxsize=8)
def list_functions(limits: Limits) -> dict[str, Callable[..., Any]]:
    """The list functions, by their vocabulary names."""

    def numbers(name: str, items: Any) -> tuple[int, ...]:
        values = ordered(items)
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int):
                raise runtime_error("wrong_type", f"`{name}` reads a list of numbers, which holds {describe_value(value)}")
        return values

    def first(env: Env, items: Any) -> Any:
        values = ordered(items)
        return values[0] if values else None

    def last(env: Env, items: Any) -> Any:
        values = ordered(items)
        return values[-1] if values else None

    def take(env: Env, items: Any, count: int) -> tuple[Any, ...]:
        return ordered(items)[:count]

    def drop(env: Env, items: Any, count: int) -> tuple[Any, ...]:
        return ordered(items)[count:]

    def reverse(env: Env, items: Any) -> tuple[Any, ...]:
        return ordered(items)[::-1]

    def total(env: Env, items: Any) -> int:
        result = sum(numbers("sum", items))
        if abs(result) > limits.max_number:
            raise runtime_error("number_too_large", f"the sum is beyond the limit of ±{limits.max_number}")
        return result

    def product(env: Env, items: Any) -> int:
        result = 1
        for value in numbers("product", items):
            result *= value
            if abs(result) > limits.max_number:  # checked at each step: a long list stays a number
                raise runtime_error("number_too_large", f"the product is beyond the limit of ±{limits.max_number}")
        return result

    def highest(env: Env, items: Any) -> int | None:
        values = numbers("highest", items)
        return max(values) if values else None

    def lowest(env: Env, items: Any) -> int | None:
        values = numbers("lowest", items)
        return min(values) if values else None

    def append(env: Env, items: Any, value: Any) -> tuple[Any, ...]:
        values = ordered(items)
        if len(values) >= limits.max_collection:
            raise runtime_error("budget_exceeded", f"`append` would make a list of more than {limits.max_collection}")
        return values + (value,)

    def position(env: Env, items: Any, value: Any) -> int:
        values = ordered(items)
        return values.index(value) + 1 if value in values else 0

    def join(env: Env, items: Any, separator: str) -> str:
        words = []
        for value in ordered(items):
            if isinstance(value, (Piece, Player)):
                words.append(value.label)
            elif isinstance(value, bool) or not isinstance(value, (str, int)):
                raise runtime_error("wrong_type", f"`join` joins text and numbers, not {describe_value(value)}")
            else:
                words.append(str(value))
        text = separator.join(words)
        if len(text) > limits.max_collection * 64:  # as long as a list's largest worth of names
            raise runtime_error("budget_exceeded", f"`join` would make text of {len(text):,} characters")
        return text

    return {"first": first, "last": last, "take": take, "drop": drop, "reverse": reverse, "sum": total, "product": product,
            "highest": highest, "lowest": lowest, "position": position, "join": join, "append": append}


def dice_pool(limits: Limits, roll: Roll, purpose: str, count: int, target: int) -> int:
    """N d6 rolled for a purpose with the bout's dice, the successes (target or more) counted."""
    if count > limits.max_collection:
        raise runtime_error("budget_exceeded", f"a pool of {count:,} dice is more than {limits.max_collection}")
    return sum(1 for _ in range(count) if roll(purpose, 6) >= target)
