"""The agent interface and a factory by name (`nexus play --agents heuristic,random`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..engine.actions import Action, Decision
    from ..engine.bout import Bout


class Agent(Protocol):
    name: str
    # Whether it asks for a command decision's options one by one (`engine/on_demand.py`) rather than
    # reading the whole list: loops that play agents work such decisions out on demand
    # (`engine.bout.on_demand_actors`); an agent without it is served whole lists.
    asks_on_demand: bool

    def choose(self, bout: Bout, decision: Decision) -> Action:
        """Pick one of `decision.options` (all of them this agent's)."""

    def interject(self, bout: Bout, decision: Decision, options: list[Action]) -> Action | None:
        """During another helot's decision: use one of these instant abilities or cards, or None."""


AGENT_NAMES = ("heuristic", "random")


def make_agent(name: str, seed: int = 0) -> Agent:
    from .heuristic import HeuristicAgent
    from .random_agent import RandomAgent

    if name == "heuristic":
        return HeuristicAgent()
    if name == "random":
        return RandomAgent(seed)
    from ..errors import did_you_mean

    hint = did_you_mean(name, AGENT_NAMES)
    raise ValueError(f"unknown agent `{name}`" + (f" ({hint})" if hint else "") + f": choose from {', '.join(AGENT_NAMES)}")
