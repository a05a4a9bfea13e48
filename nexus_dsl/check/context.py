"""What a declaration may name beyond its own text: the words the declarations in view declare.

The words of a game are content: its states, the stats of its pieces grouped into types (the base
game's `trait` and `location`), its piles, its events and its timing windows are declarations like
its cards. `context_of` reads them from the declarations a pack can see (its own and those of the
packs it builds on), so the loader, `nexus check` of a lone file and the editor's item validation
build the checker's context the same way.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .. import vocabulary as V
from ..model.words import bound_names, stat_group
from ..syntax import ast_nodes as A
from .checker import CheckContext


def context_of(declarations: Iterable[A.Declaration], settings: Mapping[str, str] | None = None,
               object_types: Iterable[str] = ()) -> CheckContext:
    """The context of `declarations`, given in load order: a later declaration of a kind and id
    overrides an earlier one (as a house rule overrides by id) and keeps its place."""
    in_view: dict[tuple[str, str], A.Declaration] = {}
    for declaration in declarations:
        in_view[(declaration.kind, declaration.id)] = declaration
    members: dict[str, list[str]] = {"state": [], "pile": [], "stat": [], "zone": []}
    stats: list[str] = []
    events: dict[str, dict[str, str]] = {}
    windows: dict[str, dict[str, str]] = {}
    start_settings: dict[str, str] = {}
    for (kind, ident), declaration in in_view.items():
        if kind in ("state", "pile", "zone"):
            members[kind].append(ident)
        elif kind == "stat":
            stats.append(ident)
            group = stat_group(declaration)
            if group is not None:
                members.setdefault(group, []).append(ident)
            if group not in V.STAT_GROUPS:  # a stat the engine's groups do not hold: `add_stat` changes it
                members["stat"].append(ident)
            for name in ("start", "low", "high"):
                amount = declaration.property(name)
                if amount is not None and len(amount.values) == 1 and isinstance(amount.values[0], A.Name):
                    start_settings[amount.values[0].id] = "count"
        elif kind in ("event", "window"):
            (events if kind == "event" else windows)[ident] = bound_names(declaration)
    procedures = {ident: procedure_signature(declaration)
                  for (kind, ident), declaration in in_view.items() if kind == "procedure"}
    calls = {ident: tuple(action for action in A.actions_in(tuple(declaration.clauses_of(A.Effect))) if action.verb in procedures)
             for ident, declaration in ((i, in_view[("procedure", i)]) for i in procedures)}
    return CheckContext(
        object_types=frozenset(object_types),
        settings=dict(settings or {}),
        declaration_ids=frozenset(ident for _kind, ident in in_view),
        members={name: tuple(ids) for name, ids in members.items()},
        stats=tuple(stats),
        events=events,
        windows=windows,
        setting_kinds=start_settings,
        procedures=procedures,
        procedure_calls=calls,
    )


def procedure_signature(procedure: A.Declaration) -> V.Signature:
    """How a procedure is run: its args, in order, each a positional argument of its type."""
    types = tuple(arg.type.name if isinstance(arg.type, A.NamedType) else "any" for arg in procedure.clauses_of(A.Arg))
    return V.Signature(types, doc=_text(procedure))


def _text(declaration: A.Declaration) -> str:
    text = declaration.property("text")
    value = text.values[0] if text is not None and text.values else None
    return value.value if isinstance(value, A.Str) else ""


def setting_type(value: Any) -> str:
    """The checker's type word for a rule param's value, as the loader evaluated it."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "number"
    if isinstance(value, tuple):
        return "list"
    return "any"
