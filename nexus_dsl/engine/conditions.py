"""Conditions: damage and the status it leaves, and the states a fighter is in."""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from .attributes import END_STATES, piece_attributes
from .events import Events
from .interpreter import Run
from .ledger import Ledger, pile_name
from .state import BoutState, Piece, Status
from .timing import Timing


class DamageFrame:
    """A hit about to land, while `damage_incoming` listeners may reduce it."""

    __slots__ = ("amount",)

    def __init__(self, amount: int):
        self.amount = amount


class ConditionsHost(Protocol):
    """What damage and states need of the bout: its state and rules, the log, events to fire, the
    ledger the coins of a hit move through, and the `before_damage` window."""

    state: BoutState
    ruleset: Ruleset
    events: Events
    ledger: Ledger
    timing: Timing

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Conditions:
    """Damage, status and states, with the stack of hits about to land."""

    events: Events  # kept at hand by `wire`
    timing: Timing
    ledger: Ledger

    def __init__(self, host: ConditionsHost):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        self.damage_frames: list[DamageFrame] = []  # hits about to land (`reduce_damage`)
        # The game's words read by every hit, fixed for the bout: the pile each player holds that
        # damage pays (None: none), and the locations whose emptying kills.
        self._damage_pile: str | None = host.ruleset.words.owned_defaults.get("damage")
        self._fatal: Any = host.ruleset.settings.get("fatal_locations", ())

    def wire(self) -> None:
        """Keep events, timing and the ledger at hand (`Bout._wire`: built after conditions)."""
        self.events = self.host.events
        self.timing = self.host.timing
        self.ledger = self.host.ledger

    def reset(self) -> None:
        """No hit about to land any more (a script fault stopped the bout, a preview's copy starts over)."""
        self.damage_frames = []

    # ---------------------------------------------------------------- damage
    def deal_damage(self, victim: Piece, amount: int, *, location: str | None = None,
                    to: Any = None, source: Piece | None = None, reason: str = "damage") -> Run:
        """Damage a piece. A location hit also hits overall condition unless that location was
        already depleted (pg.26). The coins go to `to`; else to the source piece's player's pile
        the game names for damage (`default_for damage` on a pile each player holds); else, as
        when no piece deals it or a piece hurts itself, to the shared pile it names for damage;
        else back to the reserve."""
        amount = max(0, amount)
        if amount == 0 or victim.status == Status.DEAD:
            return
        # Rules may soften a hit before it lands (a shield on the struck location, armour...).
        incoming = DamageFrame(amount)
        self.damage_frames.append(incoming)
        events = self.events
        try:
            yield from events.fire("damage_incoming", victim=victim, attacker=source, amount=amount, location=location)
        finally:
            self.damage_frames.pop()
        amount = max(0, incoming.amount)
        if amount == 0:
            self.host.emit_line("damage", {"victim": victim.label, "amount": 0, "location": location,
                                           "location_taken": 0, "overall_taken": 0, "to": None})
            return
        frame = yield from self.timing.open_window("before_damage", victim, victim=victim, amount=amount, attacker=source)
        spare_overall = frame.prevented  # `ignore_overall` (e.g. Merely a Flesh Wound) spares overall
        ledger = self.ledger
        dealt = self._damage_pile
        if to is not None:
            credit = ledger.as_pile(to)
        elif source is not None and source != victim and dealt is not None:
            credit = ledger.owned_pile(source, dealt)
        else:
            credit = ledger.default_pile("damage")
        location_taken = 0
        hits_overall = True
        was_depleted = False
        if location is not None:
            before = victim.locations[location]
            was_depleted = before == 0
            hits_overall = not was_depleted
            location_taken = ledger.transfer_coins(amount, ("location", victim.label, location), credit, reason)
        overall_taken = 0
        if hits_overall and not spare_overall:
            overall_taken = ledger.transfer_coins(amount, ("overall", victim.label), credit, reason)
        gainer = self.state.pieces.get(credit[2]) if credit[0] == "owned" else None
        if gainer is not None:  # what the piece's player took from the damage (`gained`)
            gainer.gained += location_taken + overall_taken
        self.host.emit_line("damage", {"victim": victim.label, "amount": amount, "location": location,
                                       "location_taken": location_taken, "overall_taken": overall_taken,
                                       "to": pile_name(credit)})
        yield from events.fire("damage_dealt", victim=victim, attacker=source, amount=amount, location=location)
        if location is not None and not was_depleted and victim.locations[location] == 0:
            yield from events.fire("location_depleted", victim=victim, attacker=source, location=location)
        yield from self.update_status(victim, source)

    def update_status(self, victim: Piece, source: Piece | None) -> Run:
        """Killed when a fatal location is empty; incapacitated when overall condition is (pg.13)."""
        if victim.status == Status.DEAD:
            return
        if _fatal_emptied(victim, self._fatal):
            was_incapacitated = victim.status == Status.INCAPACITATED
            victim.status = Status.DEAD
            self.host.emit_line("status", {"actor": victim.label, "status": "dead",
                                           "attacker": source.label if source else None})
            yield from self.events.fire("piece_killed", victim=victim, attacker=source, was_incapacitated=was_incapacitated)
        elif victim.overall <= 0 and victim.status == Status.FIGHTING:
            victim.status = Status.INCAPACITATED
            self.host.emit_line("status", {"actor": victim.label, "status": "incapacitated",
                                           "attacker": source.label if source else None})
            yield from self.events.fire("piece_incapacitated", victim=victim, attacker=source)

    # ---------------------------------------------------------------- states
    def has_state(self, piece: Any, state: str) -> bool:
        return piece_attributes(self.host.ruleset).has_state(piece, state)

    def add_state(self, piece: Piece, state: str, by: Piece | None = None) -> Run:
        if state in END_STATES:
            raise self.host.runtime_error("wrong_type", f"`{state}` is an end state, set by damage, not by `add_state`")
        if state not in piece.states and piece.status != Status.DEAD:
            piece.states.add(state)
            self.host.emit_line("state", {"actor": piece.label, "added": state})
            yield from self.events.fire("state_added", self=piece, state=state, by=by, cause=by)

    def remove_state(self, piece: Piece, state: str) -> Run:
        if state in piece.states:
            piece.states.discard(state)
            self.host.emit_line("state", {"actor": piece.label, "removed": state})
            yield from self.events.fire("state_removed", self=piece, state=state)


def _fatal_emptied(victim: Piece, fatal: Any) -> bool:
    """Whether one of the game's fatal locations of `victim` is empty (one it lacks is not)."""
    locations = victim.locations
    for location in fatal:
        if locations.get(location, 1) <= 0:
            return True
    return False
