"""Holds: one piece holding another. Taking and releasing a hold, carrying the one held round with
its holder, and breaking the holds of those separated.

Each piece holds at most one other and is held by at most one. The one held stands in its holder's
front-centre square: it is carried round when its holder turns, and the hold breaks when the holder
turns it into a square that is not free, or when, an action resolved, the two stand apart. The
game names the state a piece held is in and what scripts read of a hold (`model/words.py: Hold`);
the log's line of a broken hold names the holder by the game's `held_by` name.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from .conditions import Conditions
from .events import Events
from .interpreter import Run
from .movement import Movement
from .state import BoutState, Piece


class HoldsHost(Protocol):
    """What holds need of the bout: its state, its rules (the game's names of a hold), the log,
    events (the triggering player's order), conditions (the state of the one held) and movement
    (the one held carried round)."""

    state: BoutState
    ruleset: Ruleset
    events: Events
    conditions: Conditions
    movement: Movement

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Holds:
    """Who holds whom: each holds at most one other and is held by at most one."""

    events: Events  # kept at hand by `wire`
    conditions: Conditions
    movement: Movement

    def __init__(self, host: HoldsHost):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state
        # The game's names of a hold, fixed for the bout: the state a piece held is in (None:
        # none), and the name of its holder in the log.
        hold = host.ruleset.words.hold
        self._hold_state: str | None = hold.state
        self._held_by: str = hold.held_by

    def wire(self) -> None:
        """Keep events, conditions and movement at hand (`Bout._wire`: built before or after holds)."""
        self.events = self.host.events
        self.conditions = self.host.conditions
        self.movement = self.host.movement

    def take_hold(self, holder: Piece, held: Piece) -> Run:
        """`holder` seizes `held`: one hold each; any other hold either was in is released first.
        The one held enters the hold's state, with its holder as the cause."""
        if holder == held:
            raise self.host.runtime_error("bad_value", f"{holder.label} cannot hold itself")
        if holder.holding not in (None, held.label):
            yield from self.release_hold(self.state.pieces[holder.holding])
        if held.held_by not in (None, holder.label):
            yield from self.release_hold(held)
        held.held_by = holder.label
        holder.holding = held.label
        state = self._hold_state
        if state is not None:
            yield from self.conditions.add_state(held, state, by=holder)

    def release_hold(self, held: Piece) -> Run:
        """`held` is no longer held (nor in the hold's state), and its holder holds no one."""
        holder = self.state.pieces.get(held.held_by) if held.held_by is not None else None
        if holder is not None and holder.holding == held.label:
            holder.holding = None
        held.held_by = None
        state = self._hold_state
        if state is not None:
            yield from self.conditions.remove_state(held, state)

    def held_in_front(self, holder: Piece) -> Piece | None:
        """The piece `holder` holds, if it stands where the hold keeps it: the holder's
        front-centre square (where the hold was taken, and where a move that keeps it leaves it)."""
        if holder.holding is None:
            return None
        held = self.state.pieces[holder.holding]
        front = self.state.grid.front_center(holder.square, holder.facing)
        return held if held.on_board and holder.on_board and held.square == front else None

    def carry_round(self, holder: Piece, held: Piece, eighths: int) -> Run:
        """A holder that turns carries the one it holds round into its new front-centre square,
        turning it with it: the squares passed over do nothing, the one it is carried into is
        entered. With that square not free, the hold breaks."""
        target = self.state.grid.front_center(holder.square, holder.facing)
        if self.movement.blocked(target, ignore=held):
            self._broken(holder, held, "turned away")
            yield from self.release_hold(held)
            return
        assert target is not None
        held.facing = held.facing.rotated(eighths)
        yield from self.movement.place_piece(held, target, mover=holder)

    def settle_holds(self) -> Run:
        """Once a command, ability, card or event has resolved, every hold whose piece held no
        longer stands in its holder's front-centre square breaks — pushed, knocked back, thrown,
        relocated, or either piece moved away by anything but a move that keeps the hold or a turn
        that carries it. A move of several steps is judged once, after all of them."""
        events = self.events
        if not _any_hold(events.pieces_in_turn()):
            return  # no piece holds or is held: nothing to break (most actions)
        for holder in events.pieces_in_turn():
            if holder.holding is not None and self.held_in_front(holder) is None:
                held = self.state.pieces[holder.holding]
                self._broken(holder, held, "separated")
                yield from self.release_hold(held)
        for held in events.pieces_in_turn():
            keeper = self.state.pieces.get(held.held_by) if held.held_by is not None else None
            if held.held_by is not None and (keeper is None or keeper.holding != held.label):
                yield from self.release_hold(held)  # a hold its holder no longer keeps

    def _broken(self, holder: Piece, held: Piece, reason: str) -> None:
        """Log a broken hold: the piece held, its holder under the game's `held_by` name, and why."""
        self.host.emit_line("hold_broken", {"actor": held.label, self._held_by: holder.label,
                                            "reason": reason})


def _any_hold(pieces: list[Piece]) -> bool:
    """Whether one of the pieces holds another or is held."""
    for piece in pieces:
        if piece.holding is not None or piece.held_by is not None:
            return True
    return False
