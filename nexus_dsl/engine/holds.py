"""Holds (pg.21-23, ruling 85): taking and releasing a hold, carrying the one held round, and
breaking the holds of those separated."""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from .conditions import Conditions
from .events import Events
from .interpreter import Run
from .movement import Movement
from .state import BoutState, Piece


class HoldsHost(Protocol):
    """What holds need of the bout: its state, the log, events (the triggering player's order),
    conditions (the state of the one held) and movement (the one held carried round)."""

    state: BoutState
    events: Events
    conditions: Conditions
    movement: Movement

    def emit(self, event_type: str, /, **data: Any) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Holds:
    """Who holds whom: each holds at most one other and is held by at most one."""

    def __init__(self, host: HoldsHost):
        self.host = host

    def take_hold(self, holder: Piece, held: Piece) -> Run:
        """`holder` seizes `held`: one hold each; any other hold either was in is released first."""
        if holder == held:
            raise self.host.runtime_error("bad_value", f"{holder.label} cannot hold itself")
        if holder.grappling not in (None, held.label):
            yield from self.release_hold(self.host.state.pieces[holder.grappling])
        if held.grappler not in (None, holder.label):
            yield from self.release_hold(held)
        held.grappler = holder.label
        holder.grappling = held.label
        yield from self.host.conditions.add_state(held, "grappled", by=holder)

    def release_hold(self, held: Piece) -> Run:
        """`held` is no longer Grappled, and its grappler holds no one."""
        holder = self.host.state.pieces.get(held.grappler) if held.grappler is not None else None
        if holder is not None and holder.grappling == held.label:
            holder.grappling = None
        held.grappler = None
        yield from self.host.conditions.remove_state(held, "grappled")

    def held_in_front(self, grappler: Piece) -> Piece | None:
        """The piece `grappler` holds, if it stands where the hold keeps it: the grappler's
        front-centre square (where Grapple seized it and Drag keeps it, pg.21-22)."""
        if grappler.grappling is None:
            return None
        held = self.host.state.pieces[grappler.grappling]
        front = self.host.state.grid.front_center(grappler.square, grappler.facing)
        return held if held.on_board and grappler.on_board and held.square == front else None

    def carry_round(self, grappler: Piece, held: Piece, eighths: int) -> Run:
        """A grappler that turns carries its opponent round into its new front-centre square, the
        opponent turning with it (pg.22: "if rotation carries an opponent through a hazard, the
        opponent was carried over it"): the squares passed over do nothing, the one it is carried
        into is entered. With that square not free, the hold breaks."""
        target = self.host.state.grid.front_center(grappler.square, grappler.facing)
        if self.host.movement.blocked(target, ignore=held):
            self.host.emit("hold_broken", actor=held.label, grappler=grappler.label, reason="turned away")
            yield from self.release_hold(held)
            return
        assert target is not None
        held.facing = held.facing.rotated(eighths)
        yield from self.host.movement.place_piece(held, target, mover=grappler)

    def settle_grapples(self) -> Run:
        """Once a command, ability, card or event has resolved, every hold whose opponent no longer
        stands in its grappler's front-centre square breaks — pushed, knocked back, thrown,
        relocated, or either piece moved away by anything but a Drag or a turn that carries it
        (ruling 85). A Drag's two steps are one move: it is judged after both."""
        for grappler in self.host.events.pieces_in_turn():
            if grappler.grappling is not None and self.held_in_front(grappler) is None:
                held = self.host.state.pieces[grappler.grappling]
                self.host.emit("hold_broken", actor=held.label, grappler=grappler.label, reason="separated")
                yield from self.release_hold(held)
        for held in self.host.events.pieces_in_turn():
            holder = self.host.state.pieces.get(held.grappler) if held.grappler is not None else None
            if held.grappler is not None and (holder is None or holder.grappling != held.label):
                yield from self.release_hold(held)  # a hold its grappler no longer keeps
