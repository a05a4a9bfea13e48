"""Costs nobody pays: a warning, since the card still plays, only never as its designer meant.

A card played at once when drawn (a kind `like drawn_card`) has no player choosing to play it, so
its `cost` is never paid as the price of a play: its trait reserves are paid only to escape the
card, when its effect offers that (`offer_negation`, directly or in a procedure it runs). A cost on
such a card whose effect makes no such offer is silently never paid.
"""

from __future__ import annotations

from typing import Iterable

from ..errors import Diagnostic
from ..syntax import ast_nodes as A
from .checker import CheckContext

PAYING_EFFECT = "offer_negation"


def unpaid_costs(declarations: Iterable[A.Declaration], context: CheckContext) -> list[Diagnostic]:
    """A warning for each card played when drawn whose cost its effect never offers to pay."""
    return [warning for declaration in declarations
            if context.base_kind(declaration.kind) == "drawn_card"
            and (warning := _unpaid_cost(declaration, context)) is not None]


def _unpaid_cost(card: A.Declaration, context: CheckContext) -> Diagnostic | None:
    costs = card.clauses_of(A.Cost)
    if not costs:
        return None
    run = {action.verb for action in A.actions_in(card)}
    if PAYING_EFFECT in run.union(*(context.procedure_effects.get(verb, ()) for verb in run)):
        return None
    cost = costs[0]
    return Diagnostic(
        "check/unpaid_cost",
        f"nobody pays the cost of this {card.kind}: it is played as soon as it is drawn, and its effect never "
        "offers to pay it",
        cost.pos.file, cost.pos.line, cost.pos.column, cost.pos.column + len("cost"),
        f"the cost of a card played when drawn is paid to escape it: give the effect `{PAYING_EFFECT} <piece>` "
        "(then test `has_mark(<piece>, \"negated\")`), or drop the cost",
        severity="warning")
