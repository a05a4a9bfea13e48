"""Cards in zones: what a zone holds (top card first) and what it has discarded, a card moved from
one zone to another to a place counted from the top, and the zones each player or side has one of
(`zone <id> { owner player }`), named by their owner (`zone_of(hand, p)`) or, bare, for the player
whose script it is."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...model.ruleset import Ruleset
from ...syntax import ast_nodes as A
from ..interpreter import Interpreter
from ..scope import Env, describe_value
from ..list_functions import ordered
from ..state import BoutState, OwnedZone, Player
from ..state import Piece as Piece
from .values import Faults


class Host(Faults, Protocol):
    """What the words of zones need of the bout."""

    state: BoutState
    ruleset: Ruleset
    interpreter: Interpreter

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...


def owner_key(host: Host, zone: str, owner: Any) -> str | None:
    """Whose zone of its kind `owner` names: a player's label (`owner player`) or a side's name
    (`owner side`), from a player, a piece (its player), or a label or side written out."""
    declared = host.ruleset.words.zones[zone]
    state = host.state
    if isinstance(owner, Piece) and owner.label in state.players or isinstance(owner, str) and owner in state.players:
        owner = state.players[owner if isinstance(owner, str) else owner.label]
    if isinstance(owner, Player):
        return declared.owner_of(owner.label, owner.side)
    if isinstance(owner, str) and declared.owner == "side" and owner in state.owned.get(zone, {}):
        return owner  # a side by its name
    return None


def zone_of(host: Host, env: Env, zone: str, owner: Any) -> OwnedZone:
    if host.ruleset.words.zones[zone].owner is None:
        raise host.runtime_error("bad_value", f"the zone `{zone}` is the table's, shared by every player: name it alone")
    key = owner_key(host, zone, owner)
    if key is None or key not in host.state.owned.get(zone, {}):
        whose = "player" if host.ruleset.words.zones[zone].owner == "player" else "side"
        raise host.runtime_error("bad_value", f"{describe_value(owner)} has no `{zone}`: each {whose} has one")
    return OwnedZone(zone, key)


def held(host: Host, env: Env, where: Any) -> tuple[str, list[str]]:
    """The cards of a zone (the very list, top first) and how the log names it. A bare zone that
    each player has one of is the acting player's (`self`)."""
    if isinstance(where, OwnedZone):
        return str(where), host.state.owned[where.zone][where.owner]
    if host.ruleset.words.zones[where].owner is not None:
        acting = env.lookup("self")[1]
        if not isinstance(acting, (Player, Piece)):
            raise host.runtime_error("bad_value", f"each player has a zone `{where}`: name whose, "
                                                  f"`zone_of({where}, <player>)`")
        return held(host, env, zone_of(host, env, where, acting))
    return where, host.state.decks.setdefault(where, [])


def card_value(host: Host, env: Env, card: str, field: str) -> Any:
    """A card's field as its `card` declaration writes it (a number, a word, text, true or false),
    or none for a card without it (or an id that names no card)."""
    declaration = host.ruleset.declaration("card", card)
    prop = declaration.property(field) if declaration is not None else None
    if prop is None or len(prop.values) != 1:
        return None
    value = prop.values[0]
    if isinstance(value, A.Name):
        return value.id
    if isinstance(value, (A.Num, A.Str, A.Bool)):
        return value.value
    return host.interpreter.evaluate(value, env)  # a signed number: `-1`


def card_values(host: Host, env: Env, listed: Any, field: str) -> tuple[Any, ...]:
    values = (card_value(host, env, card, field) if isinstance(card, str) else None for card in ordered(listed))
    return tuple(value for value in values if value is not None)


def cards(host: Host, env: Env, zone: Any) -> tuple[str, ...]:
    return tuple(held(host, env, zone)[1])


def discards(host: Host, env: Env, zone: str) -> tuple[str, ...]:
    return tuple(host.state.discards.get(zone, ()))


def move_card(host: Host, env: Env, node: A.Action, card: Any, **preps: Any) -> None:
    origin, cards_held = held(host, env, preps["from"])
    destination, cards_there = held(host, env, preps["to"])
    if not isinstance(card, str) or card not in cards_held:
        raise host.runtime_error("bad_value", f"{describe_value(card)} is not a card of the zone `{origin}`")
    # The place is counted from the top of the zone the card goes to, once it has left its own.
    size = len(cards_there) - (1 if cards_there is cards_held else 0)
    place = preps.get("at", 1)
    if place > size + 1:
        raise host.runtime_error("bad_value", f"the zone `{destination}` holds {size} card(s) besides it: a card goes "
                                              f"to a place from 1 (the top) to {size + 1} (the bottom), not {place}")
    cards_held.remove(card)
    cards_there.insert(place - 1, card)
    host.emit_line("card_moved", {"card": card, "origin": origin, "destination": destination, "at": place})


FUNCTIONS: dict[str, Callable[..., Any]] = {"cards": cards, "discards": discards, "zone_of": zone_of,
                                            "card_value": card_value, "card_values": card_values}
EFFECTS: dict[str, Callable[..., Any]] = {"move_card": move_card}
