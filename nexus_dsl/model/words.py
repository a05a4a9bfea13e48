"""The words of a game, as its content declares them: states, stats and their groups, piles, events
and timing windows.

Both the checker (which names a script may use) and the engine (which values a bout holds) read
them from the declarations, in load order, through the helpers here; `GameWords` gathers them once
per Ruleset (`Ruleset.words`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..syntax import ast_nodes as A


def stat_group(declaration: A.Declaration) -> str | None:
    """The group a stat declares itself in (`group trait`): the type its id is a word of."""
    group = declaration.property("group")
    if group is None or len(group.values) != 1 or not isinstance(group.values[0], A.Name):
        return None
    return group.values[0].id


def stat_start(declaration: A.Declaration) -> int | str:
    """What a stat starts at: a number written out, or the name of the rule param holding it (0 by
    default). The checker holds `start` to these two forms."""
    start = declaration.property("start")
    if start is None or len(start.values) != 1:
        return 0
    value = start.values[0]
    if isinstance(value, A.Name):
        return value.id
    return value.value if isinstance(value, A.Num) else 0


def bound_names(declaration: A.Declaration) -> dict[str, str]:
    """The names an event or a window binds (its `arg` clauses), with their types."""
    return {arg.name: arg.type.name for arg in declaration.clauses_of(A.Arg) if isinstance(arg.type, A.NamedType)}


@dataclass(frozen=True, eq=False)  # compared by identity: the engine keys what it compiles per Ruleset on it
class GameWords:
    """The declared words of a loaded Ruleset, each kind in load order."""

    states: tuple[str, ...]
    stats: tuple[str, ...]
    groups: Mapping[str, tuple[str, ...]]  # stat group -> its stats
    starts: Mapping[str, int]  # stat -> the value it starts at (a rule param's, resolved)
    piles: tuple[str, ...]
    events: Mapping[str, Mapping[str, str]]  # event -> the names it binds
    windows: Mapping[str, Mapping[str, str]]  # window -> the names it binds

    def group(self, name: str) -> tuple[str, ...]:
        return self.groups.get(name, ())


def game_words(declarations: Mapping[str, Iterable[A.Declaration]], settings: Mapping[str, Any]) -> GameWords:
    """The words `declarations` (kind -> declarations in load order) declare; a `start` that names
    a rule param takes its value from `settings` (0 when it holds no whole number)."""
    stats = list(declarations.get("stat", ()))
    groups: dict[str, list[str]] = {}
    starts: dict[str, int] = {}
    for stat in stats:
        group = stat_group(stat)
        if group is not None:
            groups.setdefault(group, []).append(stat.id)
        start = stat_start(stat)
        value = settings.get(start, 0) if isinstance(start, str) else start
        starts[stat.id] = value if isinstance(value, int) and not isinstance(value, bool) else 0
    return GameWords(
        states=tuple(d.id for d in declarations.get("state", ())),
        stats=tuple(s.id for s in stats),
        groups={name: tuple(ids) for name, ids in groups.items()},
        starts=starts,
        piles=tuple(d.id for d in declarations.get("pile", ())),
        events={d.id: bound_names(d) for d in declarations.get("event", ())},
        windows={d.id: bound_names(d) for d in declarations.get("window", ())},
    )
