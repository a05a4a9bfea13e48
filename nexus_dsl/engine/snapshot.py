"""The scenario snapshot of a bout's state (SCENARIOS.md): what scenarios expect and tools show."""

from __future__ import annotations

from typing import Any

from ..model.ruleset import Ruleset
from ..model.words import Zone
from .setup import DRAWN_WEAPON_STATE, PROTECTED_LOCATION_MARK
from .state import BoutState


def snapshot_of(state: BoutState, ruleset: Ruleset) -> dict[str, Any]:
    """The scenario snapshot (SCENARIOS.md): every key the contract names, and a few more."""
    snap: dict[str, Any] = {
        "ended": state.ended,
        "winner": (state.outcome.winner or "draw") if state.outcome else None,
        "termination": state.outcome.termination if state.outcome else None,
        "cycle": state.cycle,
        "active": state.active,
        "drawn": state.drawn,
    }
    if state.piles:
        snap["piles"] = dict(state.piles)
    hold = ruleset.words.hold
    for label, piece in state.pieces.items():
        weapon = ruleset.declaration("weapon", piece.weapon) if piece.weapon else None
        drawn = DRAWN_WEAPON_STATE in piece.states if weapon is not None else None
        protects = piece.marks.get(PROTECTED_LOCATION_MARK) if drawn else None
        # Durability and ammo apply to a weapon whose card declares them; otherwise they are null.
        counted = {name for name in ("durability", "ammo")
                   if weapon is not None and weapon.property(name) is not None}
        entry: dict[str, Any] = {
            "overall": piece.overall,
            "locations": dict(piece.locations),
            "states": sorted(piece.states),
            "traits": dict(piece.traits),
            "ap": piece.ap,
            "mp": piece.mp,
            "at": piece.square.as_list(),
            "facing": piece.facing.name,
            "weapon": piece.weapon,
            "weapon_drawn": drawn,
            "durability": piece.durability if "durability" in counted else None,
            "ammo": piece.ammo if "ammo" in counted else None,
            "protects": protects if protects in piece.locations else None,
            # The piece's hand, by the name of the zone filling hands (the base game's deck of cards kept).
            **({ruleset.words.hand: list(piece.hand)} if ruleset.words.hand is not None else {}),
            "status": piece.status.value,
            "seat": piece.seat,
            "marks": sorted(piece.marks),
        }
        # Whom it holds and who holds it (labels, or null), under the game's names of a hold.
        for word, other in ((hold.holding, piece.holding), (hold.held_by, piece.held_by)):
            entry.setdefault(word, other)
        # Its player's piles beside its own keys, by the names the game gives them: the coins in each.
        entry.update(state.players[label].piles if label in state.players else {})
        # Its counters beside its own keys, by the names the game gives them: the numbers marked.
        entry.update((name, sorted(numbers)) for name, numbers in piece.counters.items())
        entry["on_board"] = piece.on_board
        snap[label] = entry
        if label in state.players:  # the stats its player holds, beside its own (one player, one label)
            snap[label].update(state.players[label].stats)
        if piece.stats:
            snap[label]["stats"] = dict(piece.stats)
        if piece.side != label:  # shown where sides group pieces (a piece alone is its own side)
            snap[label]["side"] = piece.side
    snap["board"] = {square.key(): list(objects) for square, objects in sorted(state.objects.items())}
    snap["zones"] = zones_of(state, ruleset)
    snap["players"] = {label: {"seat": player.seat, "side": player.side, "stats": dict(player.stats),
                               **({"piles": dict(player.piles)} if player.piles else {})}
                       for label, player in state.players.items()}
    if not state.pieces:  # a game of players alone: what each of them sees
        snap["views"] = {label: player_view(state, ruleset, label) for label in state.players}
    return snap


def player_view(state: BoutState, ruleset: Ruleset, viewer: str) -> dict[str, Any]:
    """What one player sees of the zones: the cards (ids, top first) of a zone it may see, only how
    many a zone holds where it may not (a deck face down, another player's hand)."""
    player = state.players[viewer]

    def seen(zone: Zone, owner: str | None, cards: list[str]) -> list[str] | int:
        return list(cards) if zone.seen_by(owner, player.label, player.side) else len(cards)

    zones: dict[str, Any] = {}
    for name, zone in ruleset.words.zones.items():
        if zone.owner is None:
            zones[name] = seen(zone, None, state.decks.get(name, []))
        else:
            zones[name] = {owner: seen(zone, owner, cards) for owner, cards in state.owned.get(name, {}).items()}
    return {"zones": zones}


def zones_of(state: BoutState, ruleset: Ruleset) -> dict[str, Any]:
    """Every zone's cards as ids, top first: a shared zone's list, a zone each player or side has
    one of as each owner's list. A scenario sees everything, hidden zones too."""
    zones: dict[str, Any] = {}
    for name, zone in ruleset.words.zones.items():
        if zone.owner is None:
            zones[name] = list(state.decks.get(name, ()))
        else:
            zones[name] = {owner: list(cards) for owner, cards in state.owned.get(name, {}).items()}
    return zones
