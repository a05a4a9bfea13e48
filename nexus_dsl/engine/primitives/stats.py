"""A piece's numbers and states: stat groups, plain stats with their bounds and levels (a player's
too, for the stats each player holds), points granted and forfeited, states added and removed."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..conditions import Conditions
from ..interpreter import Interpreter, Run
from ..scope import Env
from ..state import Actor, BoutState, Piece, Player
from .values import Faults, actor


class Host(Faults, Protocol):
    """What the words of stats need of the bout."""

    ruleset: Ruleset
    interpreter: Interpreter
    conditions: Conditions
    state: BoutState

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...


def trait_reserve(host: Host, env: Env, piece: Piece, trait: str) -> int:
    return piece.traits.get(trait, 0)


def location_condition(host: Host, env: Env, piece: Piece, location: str) -> int:
    return piece.locations[location]


def wounded_locations(host: Host, env: Env, piece: Piece) -> tuple[str, ...]:
    starts = host.ruleset.words.starts
    return tuple(loc for loc in piece.locations if piece.locations[loc] < starts[loc])


def holder(host: Host, who: Actor, stat: str) -> Actor:
    """Who holds `who`'s `stat`: its player for a stat each player holds (a piece stands for its
    player), else the piece itself; a player holds no stat of its pieces."""
    if stat in host.ruleset.words.player_stats:
        return host.state.player_of(who)
    if isinstance(who, Player):
        raise host.runtime_error("wrong_type", f"`{stat}` is a stat of each piece, and {who.label} is a player")
    return who


def stat_value(host: Host, env: Env, who: Actor, stat: str) -> int:
    return holder(host, who, stat).stats[stat]


def stat_level(host: Host, env: Env, who: Actor, stat: str) -> str | None:
    levels = host.ruleset.words.levels.get(stat, ())
    index = stat_value(host, env, who, stat) - host.ruleset.words.bounds[stat][0]
    return levels[index] if 0 <= index < len(levels) else None


def add_trait(host: Host, env: Env, node: A.Action, piece: Piece, trait: str, by: int) -> None:
    cap = host.ruleset.settings.get("trait_cap", 5)
    piece.traits[trait] = max(0, min(cap, piece.traits.get(trait, 0) + by))
    host.emit_line("trait", {"actor": piece.label, "trait": trait, "value": piece.traits[trait]})


def set_trait(host: Host, env: Env, node: A.Action, piece: Piece, trait: str, to: int) -> None:
    # A reserve set outright, as a roll sets it (0..cap): the line of what set it says so.
    cap = host.ruleset.settings.get("trait_cap", 5)
    piece.traits[trait] = max(0, min(cap, to))


def set_ratio(host: Host, env: Env, node: A.Action, piece: Piece, to: int) -> None:
    # The ratio a piece's points are split by (`self.ratio`), as a roll sets it: the line of what
    # rolled it says so.
    piece.ratio = to


def group_stats(host: Host, env: Env, group: str) -> tuple[str, ...]:
    return host.ruleset.words.group(group)


def set_stat(host: Host, env: Env, node: A.Action, who: Actor, stat: str, to: int) -> None:
    low, high = host.ruleset.words.bounds[stat]
    held = holder(host, who, stat)
    held.stats[stat] = min(max(to, low), high)
    if stat not in host.ruleset.words.unlogged:  # else the line of what changed it says so
        host.emit_line("stat", {"actor": held.label, "stat": stat, "value": held.stats[stat]})


def add_stat(host: Host, env: Env, node: A.Action, who: Actor, stat: str, by: int) -> None:
    set_stat(host, env, node, who, stat, stat_value(host, env, who, stat) + by)


def grant(host: Host, env: Env, node: A.Action, amount: int, resource: str, to: Piece | None = None,
          against: Piece | None = None) -> None:
    points = amount  # 0 or more (its range): `forfeit` takes points away
    piece = actor(host, env, to, "grant")
    if against is not None and resource == "AP":
        total = host.interpreter.bounded(piece.bonus_ap.get(against.label, 0) + points, None, None,
                                         f"{piece.label}'s AP against {against.label}")
        piece.bonus_ap[against.label] = total
    else:
        total = host.interpreter.bounded(getattr(piece, resource.lower()) + points, None, None,
                                         f"{piece.label}'s {resource}")
        setattr(piece, resource.lower(), total)
    host.emit_line("points", {"actor": piece.label, "resource": resource, "change": points,
                              "against": against.label if against is not None else None})


def set_points(host: Host, env: Env, node: A.Action, piece: Piece, amount: int, resource: str) -> None:
    # A turn's points set outright, as a split sets them: the line of what split them says so.
    # The two kinds set natively (every turn's split and closing sets both), any other by its name.
    if resource == "AP":
        piece.ap = amount
    elif resource == "MP":
        piece.mp = amount
    else:
        setattr(piece, resource.lower(), amount)


def forfeit(host: Host, env: Env, node: A.Action, resource: str, **preps: Any) -> None:
    piece = actor(host, env, preps.get("from"), "forfeit")
    lost = getattr(piece, resource.lower())
    setattr(piece, resource.lower(), 0)
    host.emit_line("points", {"actor": piece.label, "resource": resource, "change": -lost})


# Handed back as they are (`primitives/movement.py` says why).
def add_state(host: Host, env: Env, node: A.Action, piece: Piece, state: str) -> Run:
    return host.conditions.add_state(piece, state, by=env.source)


def remove_state(host: Host, env: Env, node: A.Action, piece: Piece, state: str) -> Run:
    return host.conditions.remove_state(piece, state)


FUNCTIONS: dict[str, Callable[..., Any]] = {"trait_reserve": trait_reserve, "location_condition": location_condition, "wounded_locations": wounded_locations, "stat_value": stat_value, "stat_level": stat_level, "group_stats": group_stats}
EFFECTS: dict[str, Callable[..., Any]] = {"add_trait": add_trait, "set_trait": set_trait, "set_ratio": set_ratio, "set_stat": set_stat, "add_stat": add_stat, "grant": grant, "set_points": set_points, "forfeit": forfeit, "add_state": add_state, "remove_state": remove_state}
