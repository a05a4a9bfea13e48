"""Picks uniformly among the legal actions, with its own seeded dice (never Python's `random`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.dice import Dice

if TYPE_CHECKING:
    from ..engine.actions import Action, Decision
    from ..engine.bout import Bout


class RandomAgent:
    name = "random"
    # It reads a decision's whole list, which is cheaper worked out whole than asked for one by one.
    asks_on_demand = False

    def __init__(self, seed: int = 0):
        self.dice = Dice(seed)

    def choose(self, bout: Bout, decision: Decision) -> Action:
        options = decision.options
        return options[self.dice.roll("agent", len(options)) - 1]

    def interject(self, bout: Bout, decision: Decision, options: list[Action]) -> Action | None:
        """Now and then (one time in ten) use something at random."""
        if self.dice.roll("agent", 10) > 1:
            return None
        return options[self.dice.roll("agent", len(options)) - 1]
