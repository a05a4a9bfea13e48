"""Named marks scripts set on a piece, with a value kept small."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...errors import ScriptRuntimeError
from ...syntax import ast_nodes as A
from ..interpreter import Limits
from ..scope import Env
from ..state import Piece
from .values import mark_value_problem


class Host(Protocol):
    """What the words of marks need of the bout."""

    limits: Limits

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


def has_mark(host: Host, env: Env, piece: Piece, name: str) -> bool:
    return name in piece.marks


def mark_value(host: Host, env: Env, piece: Piece, name: str) -> Any:
    return piece.marks.get(name)


def mark(host: Host, env: Env, node: A.Action, piece: Piece, name: str, **preps: Any) -> None:
    value = preps.get("with", True)
    problem = mark_value_problem(value, host.limits)
    if problem is not None:
        raise host.runtime_error(*problem)
    piece.marks[name] = value


def unmark(host: Host, env: Env, node: A.Action, piece: Piece, name: str) -> None:
    marks = piece.marks
    if name in marks:  # `marks.pop(name, None)`, without a call of the method
        del marks[name]


FUNCTIONS: dict[str, Callable[..., Any]] = {"has_mark": has_mark, "mark_value": mark_value}
EFFECTS: dict[str, Callable[..., Any]] = {"mark": mark, "unmark": unmark}
