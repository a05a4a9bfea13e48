"""Agents choose among the legal actions the engine offers; they never decide legality. Compiled
with mypyc when a build of these sources exists (`nexus_dsl.native`)."""

from ..native import use_native_build

use_native_build()

# The build is chosen before the agents' modules are imported, so their compiled forms load.
from .base import Agent, make_agent  # noqa: E402
from .heuristic import HeuristicAgent  # noqa: E402
from .random_agent import RandomAgent  # noqa: E402

__all__ = ["Agent", "HeuristicAgent", "RandomAgent", "make_agent"]
