"""Plain arithmetic and choice over values."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...errors import ScriptRuntimeError
from ..scope import Env, describe_value


class Host(Protocol):
    """What the words of numbers need of the bout."""

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


def count(host: Host, env: Env, items: Any) -> int:
    if not isinstance(items, (tuple, frozenset)):
        raise host.runtime_error("wrong_type", f"`count` counts a list or a set of squares, got {describe_value(items)}")
    return len(items)


def pick(host: Host, env: Env, condition: Any, if_true: Any, if_false: Any) -> Any:
    return if_true if condition else if_false


def smaller(host: Host, env: Env, a: int, b: int) -> int:
    return min(a, b)


def larger(host: Host, env: Env, a: int, b: int) -> int:
    return max(a, b)


def magnitude(host: Host, env: Env, a: int) -> int:
    return abs(a)


FUNCTIONS: dict[str, Callable[..., Any]] = {"min": smaller, "max": larger, "abs": magnitude, "count": count, "pick": pick}
EFFECTS: dict[str, Callable[..., Any]] = {}
