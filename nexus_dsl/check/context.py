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
from ..model.words import game_words, stat_amount
from ..model.game import game_of
from ..syntax import ast_nodes as A
from .checker import CheckContext


def context_of(declarations: Iterable[A.Declaration], settings: Mapping[str, str] | None = None,
               object_types: Iterable[str] = ()) -> CheckContext:
    """The context of `declarations`, given in load order: a later declaration of a kind and id
    overrides an earlier one (as a house rule overrides by id) and keeps its place."""
    in_view: dict[tuple[str, str], A.Declaration] = {}
    for declaration in declarations:
        in_view[(declaration.kind, declaration.id)] = declaration
    by_kind: dict[str, list[A.Declaration]] = {}
    for (kind, _ident), declaration in in_view.items():
        by_kind.setdefault(kind, []).append(declaration)
    words = game_words(by_kind, {})  # the same reading of the declarations as the engine's
    game = game_of(by_kind.get("game", []))
    members = {"state": words.states, "pile": words.piles, "counter": tuple(words.counters), "stat": words.plain,
               "zone": tuple(words.zones), **words.groups}
    # The rule params a stat's `start`, `low` or `high` names are read by the engine as counts.
    start_settings = {amount: "count" for stat in by_kind.get("stat", ()) for name in ("start", "low", "high")
                      if isinstance(amount := stat_amount(stat, name, 0), str)}
    start_settings.update((amount, "count") for pile in by_kind.get("pile", ())
                          if isinstance(amount := stat_amount(pile, "start", 0), str))
    procedures = {ident: procedure_signature(declaration, words.type_names)
                  for (kind, ident), declaration in in_view.items() if kind == "procedure"}
    calls = {ident: tuple(action for action in A.actions_in(tuple(declaration.clauses_of(A.Effect))) if action.verb in procedures)
             for ident, declaration in ((i, in_view[("procedure", i)]) for i in procedures)}
    return CheckContext(
        object_types=frozenset(object_types),
        settings=dict(settings or {}),
        declaration_ids=frozenset(ident for _kind, ident in in_view),
        commands=frozenset(ident for kind, ident in in_view if kind == "command"),
        members=members,
        stats=words.stats,
        events=words.events,
        windows=words.windows,
        setting_kinds=start_settings,
        procedures=procedures,
        procedure_calls=calls,
        procedure_effects=_effects_run(
            {ident: frozenset(action.verb for action in A.actions_in(tuple(in_view[("procedure", ident)].clauses_of(A.Effect))))
             for ident in procedures}),
        turns=tuple(ident for kind, ident in in_view if kind == "turn"),
        activations=game.activations,
        player_stats=words.player_stats,
        actor_type="player" if game.pieces == 0 else "piece",
        type_names=words.type_names,
        hold=words.hold,
        hold_states=words.hold_states,
        groups=game.groups,
        role_word=game.role_word,
        owned_piles=words.owned_piles,
        reserve=words.reserve,
        shared_defaults=words.shared_defaults,
        owned_defaults=words.owned_defaults,
        kinds=words.kinds,
    )


def _effects_run(direct: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """Every effect each procedure runs: its own and, through each procedure it runs, theirs."""
    closed: dict[str, frozenset[str]] = {}
    for procedure in direct:
        seen: set[str] = set()
        waiting = [procedure]
        while waiting:
            current = waiting.pop()
            if current not in seen:
                seen.add(current)
                waiting.extend(verb for verb in direct[current] if verb in direct)
        closed[procedure] = frozenset().union(*(direct[p] for p in seen))
    return closed


def procedure_signature(procedure: A.Declaration, type_names: Mapping[str, str]) -> V.Signature:
    """How a procedure is run: its args, in order, each a positional argument of its type (one
    written by the game's own name of it, `type_names`, as the type it names)."""
    types = tuple(type_names.get(arg.type.name, arg.type.name) if isinstance(arg.type, A.NamedType) else "any"
                  for arg in procedure.clauses_of(A.Arg))
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
