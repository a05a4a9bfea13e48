"""A simple heuristic lanista: close the distance, turn to face, attack when in position.

It reads commands only through their content-declared shape (`group`, `tags`, cost) and weighs
movement by previewing where each legal move would leave its helot — it knows no command by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.actions import END_ROUND, PASS, Action, Decision
from ..engine.board import Grid
from ..engine.state import BoutState, Helot, Status
from ..syntax import ast_nodes as A

if TYPE_CHECKING:
    from ..engine.bout import Bout


def _group(bout: Bout, action: Action) -> str | None:
    declaration = bout.ruleset.declaration("command", action.name or "")
    prop = declaration.property("group") if declaration else None
    value = prop.values[0] if prop and prop.values else None
    return value.id if isinstance(value, A.Name) else None


def _tags(bout: Bout, action: Action) -> set[str]:
    declaration = bout.ruleset.declaration("command", action.name or "")
    prop = declaration.property("tags") if declaration else None
    return {v.id for v in prop.values if isinstance(v, A.Name)} if prop else set()


def _ap_cost(bout: Bout, action: Action) -> int:
    declaration = bout.ruleset.declaration("command", action.name or "")
    total = 0
    for cost in declaration.clauses_of(A.Cost) if declaration else []:
        for item in cost.items:
            if item.resource == "AP" and isinstance(item.amount, A.Num):
                total += item.amount.value
    return total


def position_score(state: BoutState, me: Helot) -> float:
    """Higher is better: near the closest opponent, facing it, ideally from behind."""
    grid: Grid = state.grid
    foes = [h for h in state.helots.values() if h.label != me.label and h.status != Status.DEAD]
    if not foes:
        return 0.0
    foe = min(foes, key=lambda h: grid.chebyshev(me.square, h.square))
    score = -10.0 * grid.chebyshev(me.square, foe.square)
    if grid.front_center(me.square, me.facing) == foe.square:
        score += 12
        if grid.behind(foe.square, foe.facing) == me.square:
            score += 4
    elif foe.square in grid.front_arc(me.square, me.facing):
        score += 6
    return score


class HeuristicAgent:
    name = "heuristic"

    def choose(self, bout: Bout, decision: Decision) -> Action:
        if decision.kind == "allocate":
            return self._allocate(bout, decision)
        if decision.kind == "command":
            return self._command(bout, decision)
        passing = [o for o in decision.options if o.kind == PASS]
        return passing[0] if passing else decision.options[0]

    def interject(self, bout: Bout, decision: Decision, options: list[Action]) -> Action | None:
        return None

    def _allocate(self, bout: Bout, decision: Decision) -> Action:
        me = bout.state.helots[decision.helot]
        before = position_score(bout.state, me)
        in_reach = before >= -10 + 12  # adjacent and facing the foe
        want = "ap" if me.ratio >= 3 else "mp"
        if not in_reach:
            want = "mp" if me.ratio >= 3 else "ap"
        return next(o for o in decision.options if o.name == "allocate" and o.arg("ratio_to") == want)

    def _command(self, bout: Bout, decision: Decision) -> Action:
        me = bout.state.helots[decision.helot]
        attacks = [o for o in decision.options if o.name and "attack" in _tags(bout, o)]
        if attacks:
            return self._best_attack(bout, me, attacks)
        moves = [o for o in decision.options if o.name and _group(bout, o) == "movement"]
        current = position_score(bout.state, me)
        best, best_score = None, current
        for option in moves:
            after = bout.preview(option)
            score = position_score(after, after.helots[me.label])
            if score > best_score:
                best, best_score = option, score
        if best is not None:
            return best
        return next(o for o in decision.options if o.kind == END_ROUND)

    def _best_attack(self, bout: Bout, me: Helot, attacks: list[Action]) -> Action:
        """Spend AP efficiently: a focused attack on the head when it can finish the job or when
        3 AP would otherwise be split badly, otherwise standard attacks, wild ones as a last resort."""
        target = bout.state.helots[attacks[0].arg("target")]
        focused = [a for a in attacks if a.arg("location") is not None]
        standard = [a for a in attacks if a.arg("location") is None and "wild" not in _tags(bout, a)]
        wild = [a for a in attacks if "wild" in _tags(bout, a)]
        if focused and (me.ap == 3 or target.locations.get("head", 0) <= 4 or target.status == Status.INCAPACITATED):
            head = [a for a in focused if a.arg("location") == "head"]
            if head:
                return head[0]
        if standard:
            return standard[0]
        if focused:
            return focused[0]
        if wild and me.overall > 5:
            return wild[0]
        return min(attacks, key=lambda a: _ap_cost(bout, a))
