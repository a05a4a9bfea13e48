"""A command decision's options as the heuristic agent reads them: by the commands it looks for.

The agent looks at its abilities and cards first, then, as the moment asks, the commands tagged for
a prone or grappled helot, defence, fame, attacks, crates and moves, and stops at the first that
answers: most decisions never read the moves, or read only the abilities. So it asks for the
commands of each kind by their names (`CommandNames`, read once from the ruleset's declarations):
in a decision offered on demand (`engine/on_demand.py`) only those are worked out; in one worked out
whole they are picked out of the list. Either way each list holds the same options in the same
order as picking them out of the whole list would give.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import COMMAND, END_ROUND, Action, Decision
from ..engine.on_demand import CommandOptions


@dataclass(frozen=True)
class CommandNames:
    """The names of the commands the agent looks for, by what it looks for them."""

    groups: dict[str | None, frozenset[str]]  # by the command's group
    attacks: frozenset[str]  # the attacks (`attacking`), a grapple aside
    while_prone: frozenset[str]  # tagged for a prone helot
    escapes: frozenset[str]  # tagged for a grappled helot, of the advanced movement group
    crates: frozenset[str]  # of the objects group, about a crate


class CommandChoices:
    """The options of one command decision: the commands asked for by name (`named`), and the
    options that are no command (`others`: controls, abilities and cards, ending the round)."""

    __slots__ = ("on_demand", "whole", "others")

    def __init__(self, decision: Decision) -> None:
        on_demand = decision.on_demand
        self.on_demand: CommandOptions | None = on_demand if isinstance(on_demand, CommandOptions) else None
        self.whole: tuple[Action, ...] = () if self.on_demand is not None else decision.options
        self.others: tuple[Action, ...] = (self.on_demand.rest if self.on_demand is not None else
                                           tuple([o for o in self.whole if o.kind != COMMAND]))

    def named(self, names: frozenset[str]) -> list[Action]:
        """The legal actions of the commands named, in the decision's order."""
        if not names:
            return []
        if self.on_demand is not None:
            return self.on_demand.commands(names)
        return [o for o in self.whole if o.kind == COMMAND and o.name in names]

    def ending(self) -> Action:
        """Ending the round, or, in a turn the player may not end, the decision's first option."""
        for option in self.others:
            if option.kind == END_ROUND:
                return option
        if self.on_demand is not None:
            first = self.on_demand.first()
            assert first is not None
            return first
        return self.whole[0]
