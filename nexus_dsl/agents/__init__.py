"""Agents choose among the legal actions the engine offers; they never decide legality."""

from .base import Agent, make_agent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "HeuristicAgent", "RandomAgent", "make_agent"]
