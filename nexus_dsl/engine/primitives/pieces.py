"""Who is in play and whose side they are on, in the order they are met; taking a figure off the board."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ...syntax import ast_nodes as A
from ..events import Events
from ..interpreter import Env
from ..state import BoutState, Helot, Status
from .values import Faults, as_square


class Host(Faults, Protocol):
    """What the words of pieces need of the bout."""

    state: BoutState
    events: Events

    def emit(self, event_type: str, /, **data: Any) -> None: ...


# Helots affected together are met from the triggering player clockwise (pg.15).
def opponents(host: Host, env: Env, helot: Helot) -> tuple[Helot, ...]:
    return tuple(h for h in host.events.helots_in_turn() if helot.foe_of(h) and h.on_board and h.status != Status.DEAD)


def friends(host: Host, env: Env, helot: Helot) -> tuple[Helot, ...]:
    return tuple(h for h in host.events.helots_in_turn()
                 if h != helot and not helot.foe_of(h) and h.on_board and h.status != Status.DEAD)


def helots(host: Host, env: Env) -> tuple[Helot, ...]:
    return tuple(host.events.helots_in_turn())


def helot_on(host: Host, env: Env, where: Any) -> Helot | None:
    if isinstance(where, frozenset) and not where:
        return None
    return host.state.helot_at(as_square(host, where))


def helots_clockwise(host: Host, env: Env, helot: Helot) -> tuple[Helot, ...]:
    return tuple(h for h in host.state.clockwise_from(helot.label) if h.on_board)


def active(host: Host, env: Env) -> Helot | None:
    return host.state.active_helot


def next_in_initiative(host: Host, env: Env, helot: Helot) -> Helot | None:
    order = list(host.state.order) or list(host.state.helots)
    if helot.label not in order:
        return None
    start = order.index(helot.label)
    for label in order[start + 1:] + order[:start]:
        other = host.state.helots[label]
        if other.status == Status.FIGHTING and other.on_board:
            return other
    return None


def take_off_board(host: Host, env: Env, node: A.Action, helot: Helot) -> None:
    if helot.on_board:
        helot.on_board = False
        host.emit("off_board", helot=helot.label, at=helot.square.as_list())


FUNCTIONS: dict[str, Callable[..., Any]] = {"opponents": opponents, "friends": friends, "helots": helots, "helot_on": helot_on, "helots_clockwise": helots_clockwise, "active": active, "next_in_initiative": next_in_initiative}
EFFECTS: dict[str, Callable[..., Any]] = {"take_off_board": take_off_board}
