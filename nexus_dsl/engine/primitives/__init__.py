"""The engine side of the vocabulary: every script function and effect, registered by its
vocabulary name in the table of the module of its concern (geometry, chance, board objects, pieces,
marks, coins, stats, rolls, movement, weapons, flow, numbers, turns, victory, zones; the list functions of
`engine/list_functions.py`).

Every registered function takes the bout first, as the host its module's `Host` protocol describes
(`f(host, env, *args)`; an effect also takes its node: `f(host, env, node, *args, **preps)`), so the
tables are built once per `Limits` and shared by every bout and preview: nothing is bound per bout.
A test checks that they match `nexus_dsl.vocabulary` exactly, so the checker never accepts a word
the engine cannot run.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Any, Callable, Mapping

from ..causes import traced_effects
from ..interpreter import Limits

from ..scope import Env
from ..list_functions import dice_pool, list_functions
from . import (board_objects, chance, coins, flow, geometry, marks, movement, numbers, pieces, rolls, stats, turns,
               victory, weapons, zones)

CONCERNS = (geometry, chance, board_objects, pieces, marks, coins, stats, rolls, movement, weapons, flow, numbers,
            turns, victory, zones)

Table = dict[str, Callable[..., Any]]


def _gathered(tables: list[Mapping[str, Callable[..., Any]]], what: str) -> Table:
    gathered: Table = {}
    for table in tables:
        twice = gathered.keys() & table.keys()
        if twice:  # one word, one implementation: a clash is a mistake in the tables, caught at import
            raise RuntimeError(f"{what} registered twice: {', '.join(sorted(twice))}")
        gathered.update(table)
    return gathered


def _host_first(function: Callable[..., Any]) -> Callable[..., Any]:
    """A list function (which needs no bout) called like every other: host first."""

    def called(host: Any, env: Env, *args: Any) -> Any:
        return function(env, *args)

    return called


def _dice_pool(limits: Limits) -> Callable[..., int]:
    """The dice pool, rolling the dice of the bout it is called for."""

    def pool(host: Any, env: Env, purpose: str, count: int, target: int) -> int:
        return dice_pool(limits, host.roll, purpose, count, target)

    return pool


@lru_cache(maxsize=8)
def script_tables(limits: Limits) -> tuple[Mapping[str, Callable[..., Any]], Mapping[str, Callable[..., Any]]]:
    """The functions and the effects, by vocabulary name, for bouts played within `limits`: built
    once per limits and shared, read-only, by every bout and preview (they close over the limits
    alone)."""
    listed = {name: _host_first(function) for name, function in list_functions(limits).items()}
    functions = _gathered([*(concern.FUNCTIONS for concern in CONCERNS), listed, {"dice_pool": _dice_pool(limits)}],
                          "function")
    effects = _gathered([concern.EFFECTS for concern in CONCERNS], "effect")
    return MappingProxyType(functions), MappingProxyType(effects)


@lru_cache(maxsize=8)  # as many as `script_tables` keeps
def traced_tables(limits: Limits) -> Mapping[str, Callable[..., Any]]:
    """The effects of `script_tables(limits)`, each standing on its bout's tracer while it runs
    (`causes.traced_effects`): for explained bouts, built once per limits like the plain ones."""
    return traced_effects(script_tables(limits)[1])
