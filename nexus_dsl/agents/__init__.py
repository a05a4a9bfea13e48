"""Agents choose among the legal actions the engine offers; they never decide legality. Compiled
with mypyc when a build of these sources exists (`nexus_dsl.native`)."""

from ..native import use_native_build

use_native_build()

from .base import Agent, make_agent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "HeuristicAgent", "RandomAgent", "make_agent"]
