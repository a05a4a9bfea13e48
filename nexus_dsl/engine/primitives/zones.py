"""Cards in zones: what a zone holds (top card first) and what it has discarded, and a card moved
from one zone to another, to a place counted from the top."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..interpreter import Env, describe_value
from ..state import BoutState
from .values import Faults


class Host(Faults, Protocol):
    """What the words of zones need of the bout."""

    state: BoutState

    def emit(self, event_type: str, /, **data: Any) -> None: ...


def cards(host: Host, env: Env, zone: str) -> tuple[str, ...]:
    return tuple(host.state.decks.get(zone, ()))


def discards(host: Host, env: Env, zone: str) -> tuple[str, ...]:
    return tuple(host.state.discards.get(zone, ()))


def move_card(host: Host, env: Env, node: A.Action, card: Any, **preps: Any) -> None:
    origin, destination = preps["from"], preps["to"]
    held = host.state.decks.get(origin, [])
    if not isinstance(card, str) or card not in held:
        raise host.runtime_error("bad_value", f"{describe_value(card)} is not a card of the zone `{origin}`")
    # The place is counted from the top of the zone the card goes to, once it has left its own.
    size = len(host.state.decks.get(destination, ())) - (1 if destination == origin else 0)
    place = preps.get("at", 1)
    if place > size + 1:
        raise host.runtime_error("bad_value", f"the zone `{destination}` holds {size} card(s) besides it: a card goes "
                                              f"to a place from 1 (the top) to {size + 1} (the bottom), not {place}")
    held.remove(card)
    host.state.decks.setdefault(destination, []).insert(place - 1, card)
    host.emit("card_moved", card=card, origin=origin, destination=destination, at=place)


FUNCTIONS: dict[str, Callable[..., Any]] = {"cards": cards, "discards": discards}
EFFECTS: dict[str, Callable[..., Any]] = {"move_card": move_card}
