"""`Bout.roll_levels`: the levels on the dice scale an action's opposed roll is about to be rolled
at, worked out on a copy that stops before the dice, checked against the levels the bout then really
rolls at (the `roll` lines of its log), and never changing the bout it is asked of."""

from __future__ import annotations

from typing import Any

import pytest

from nexus_dsl import Bout, cached_ruleset
from nexus_dsl.engine.actions import COMMAND, PASS, Action
from nexus_dsl.engine.bout import next_action
from nexus_dsl.engine.fingerprint import differences, whole_state
from nexus_dsl.engine.rolls import RollLevels
from nexus_dsl.sim.balance import schedule, specs_for
from nexus_dsl.sim.batch import BoutSpec, spec_agents, spec_setup
from nexus_dsl.syntax import ast_nodes as A


def balance_specs(count: int) -> list[BoutSpec]:
    return specs_for(schedule(cached_ruleset(("base",)), count, 1), ("base",), 1)


def bout_and_agents(spec: BoutSpec) -> tuple[Bout, dict[str, Any]]:
    setup = spec_setup(spec)
    return Bout(cached_ruleset(spec.packs), setup, seed=spec.seed), spec_agents(spec, [h.label for h in setup.pieces])


def rolled_levels(bout: Bout, action: Action) -> dict[str, Any]:
    """Apply `action`, pass in the windows before the rolls (as `roll_levels` does), and read the
    level (or the fixed total) each side of the first opposed roll is rolled at."""
    events = bout.apply(action)
    while not any(e.type == "roll" for e in events) and bout.pending is not None \
            and bout.pending.kind.startswith("window:before_rolls"):
        events += bout.apply(next(o for o in bout.pending.options if o.kind == PASS))
    sides: dict[str, Any] = {}
    for event in events:
        if event.type == "roll" and event.data["side"] not in sides:
            sides[event.data["side"]] = ("fixed", event.data["fixed"]) if "fixed" in event.data else event.data["level"]
    return sides


def predicted(levels: RollLevels) -> dict[str, Any]:
    fixed = dict(levels.fixed)
    return {side: ("fixed", fixed[side]) if side in fixed else level
            for side, level in (("attack", levels.attack), ("defense", levels.defense))}


@pytest.mark.parametrize("spec", balance_specs(6), ids=lambda spec: f"seed{spec.seed}-{spec.barge}")
def test_the_levels_worked_out_are_those_the_bout_then_rolls_at(spec: BoutSpec) -> None:
    bout, agents = bout_and_agents(spec)
    memo: dict = {}
    compared: list[tuple[int, int]] = []
    while bout.pending is not None:
        action = next_action(bout, agents)
        if action.kind != COMMAND:
            bout.apply(action)
            continue
        before = whole_state(bout, memo)
        levels = bout.roll_levels(action)
        assert differences(before, whole_state(bout, memo)) == []  # no die rolled, nothing changed
        sides = rolled_levels(bout, action)
        if levels is None:  # no opposed roll
            assert "attack" not in sides, f"seed {spec.seed}: {action}"
            continue
        assert sides == predicted(levels), f"seed {spec.seed}: {action}"
        assert (levels.attacker, levels.defender) == (action.actor, action.arg("target"))
        compared.append((levels.attack, levels.defense))
    # Many rolls, at more than one pair of levels (the rules slide them: -SDS commands, a rear attack...).
    assert len(compared) >= 10 and len(set(compared)) >= 2, compared


def test_a_command_without_an_opposed_roll_has_no_levels() -> None:
    bout, agents = bout_and_agents(balance_specs(1)[0])
    asked = 0
    while bout.pending is not None and asked < 20:
        for option in bout.pending.options:
            declaration = bout.ruleset.declaration("command", option.name or "") if option.kind == COMMAND else None
            if declaration is not None and not declaration.clauses_of(A.Roll):
                assert bout.roll_levels(option) is None, option
                asked += 1
        bout.apply(next_action(bout, agents))
    assert asked >= 20
