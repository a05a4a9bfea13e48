"""Runtime values of scripts and the few conversions between them.

Scripts compute with: int, bool, str (enumeration symbols such as `head`, `prone`, `N`, and quoted
text), None, `Piece`, `Player`, `Square`, frozenset[Square] (areas such as `front_arc(self)`), and tuples
(lists). Nothing else can be produced by an expression, so no user text ever reaches Python
evaluation.
"""

from __future__ import annotations

from typing import Any

from ..syntax import ast_nodes as A
from ..vocabulary import ENUM_TYPES

_SYMBOLS = {member for members in ENUM_TYPES.values() for member in members}


def constant_value(expr: A.Expr) -> Any:
    """The value of a param: a literal, a negative literal, an SDS level, a symbol or a list of them."""
    if isinstance(expr, (A.Num, A.Bool)):
        return expr.value
    if isinstance(expr, A.ScaleLevel):
        return expr.level
    if isinstance(expr, A.Str):
        return expr.value
    if isinstance(expr, A.NoneLit):
        return None
    if isinstance(expr, A.Neg) and isinstance(expr.operand, (A.Num, A.ScaleLevel)):
        return -constant_value(expr.operand)
    if isinstance(expr, A.Name):
        return expr.id
    if isinstance(expr, A.ListLit):
        return tuple(constant_value(item) for item in expr.items)
    raise ValueError("a param must be a constant: a number, true/false, text, a name or a list of them")


def is_symbol(value: Any) -> bool:
    return isinstance(value, str) and value in _SYMBOLS
