"""Mechanisms the rule scripts build on: movement, grapples."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Diagnostic, ScriptRuntimeError
from .board import Direction, RelDir, Square, rotate
from .interpreter import Run
from .state import Helot

if TYPE_CHECKING:
    from .bout import Bout


class Mechanics:
    """Mixin of `Bout`: the physical operations of the game."""

    # ---------------------------------------------------------------- movement
    def absolute_direction(self: Bout, helot: Helot, direction: str) -> Direction:
        if direction in Direction.__members__:
            return Direction[direction]
        return RelDir[direction].absolute(helot.facing)

    def square_towards(self: Bout, helot: Helot, direction: str) -> Square | None:
        return self.state.grid.step(helot.square, self.absolute_direction(helot, direction))

    def blocked(self: Bout, square: Square | None, ignore: Helot | None = None) -> bool:
        """Off the board (the wall), an object that blocks, or another helot."""
        if square is None or not self.state.grid.contains(square):
            return True
        if any(self.ruleset.object_flags(obj).get("blocks", False) for obj in self.state.objects_at(square)):
            return True
        other = self.state.helot_at(square)
        return other is not None and other != ignore

    def move_helot(self: Bout, helot: Helot, direction: str, mover: Helot | None = None,
                   into_hazards: bool = False) -> Run:
        """Step one square. A helot stepping on its own (not pushed or dragged) opens the
        `before_move` window, where an effect may `prevent` the step (e.g. Tripping)."""
        target = self.square_towards(helot, direction)
        if self.blocked(target, ignore=helot):
            self.emit("blocked", helot=helot.label, direction=direction)
            return
        assert target is not None
        if mover is None or mover == helot:
            frame = yield from self.timing.open_window("before_move", helot, mover=helot)
            if frame.prevented:
                self.emit("move_prevented", helot=helot.label)
                return
        yield from self.place_helot(helot, target, direction=direction, mover=mover if mover != helot else None)

    def place_helot(self: Bout, helot: Helot, square: Square, direction: str | None = None,
                    mover: Helot | None = None) -> Run:
        origin = helot.square
        helot.square = square
        self.emit("move", helot=helot.label, source=origin.as_list(), dest=square.as_list(), facing=helot.facing.name)
        yield from self.events.fire("helot_moved", self=helot, origin=origin, direction=direction, mover=mover)

    def rotate_helot(self: Bout, helot: Helot, side: str, mover: Helot | None = None) -> Run:
        if side not in ("left", "right"):
            raise self.runtime_error("wrong_type", f"a helot rotates `left` or `right`, not `{side}`")
        held = self.held_in_front(helot)
        helot.facing = rotate(helot.facing, side)
        self.emit("rotate", helot=helot.label, facing=helot.facing.name)
        if held is not None:
            yield from self._carry_round(helot, held, 2 if side == "right" else -2)
        yield from self.events.fire("helot_rotated", self=helot, mover=mover if mover != helot else None)

    def face_helot(self: Bout, helot: Helot, facing: Direction) -> Run:
        """Turn a helot to face a compass direction (a card or ability turning it)."""
        held = self.held_in_front(helot)
        turn = (facing.value - helot.facing.value) % 8
        helot.facing = facing
        self.emit("rotate", helot=helot.label, facing=helot.facing.name)
        if held is not None and turn:
            yield from self._carry_round(helot, held, turn)

    # ---------------------------------------------------------------- grapples (pg.21-23, ruling 85)
    def take_hold(self: Bout, holder: Helot, held: Helot) -> Run:
        """`holder` seizes `held`: one hold each; any other hold either was in is released first."""
        if holder == held:
            raise self.runtime_error("bad_value", f"{holder.label} cannot hold itself")
        if holder.grappling not in (None, held.label):
            yield from self.release_hold(self.state.helots[holder.grappling])
        if held.grappler not in (None, holder.label):
            yield from self.release_hold(held)
        held.grappler = holder.label
        holder.grappling = held.label
        yield from self.conditions.add_state(held, "grappled", by=holder)

    def release_hold(self: Bout, held: Helot) -> Run:
        """`held` is no longer Grappled, and its grappler holds no one."""
        holder = self.state.helots.get(held.grappler) if held.grappler is not None else None
        if holder is not None and holder.grappling == held.label:
            holder.grappling = None
        held.grappler = None
        yield from self.conditions.remove_state(held, "grappled")

    def held_in_front(self: Bout, grappler: Helot) -> Helot | None:
        """The helot `grappler` holds, if it stands where the hold keeps it: the grappler's
        front-centre square (where Grapple seized it and Drag keeps it, pg.21-22)."""
        if grappler.grappling is None:
            return None
        held = self.state.helots[grappler.grappling]
        front = self.state.grid.front_center(grappler.square, grappler.facing)
        return held if held.on_board and grappler.on_board and held.square == front else None

    def _carry_round(self: Bout, grappler: Helot, held: Helot, eighths: int) -> Run:
        """A grappler that turns carries its opponent round into its new front-centre square, the
        opponent turning with it (pg.22: "if rotation carries an opponent through a hazard, the
        opponent was carried over it"): the squares passed over do nothing, the one it is carried
        into is entered. With that square not free, the hold breaks."""
        target = self.state.grid.front_center(grappler.square, grappler.facing)
        if self.blocked(target, ignore=held):
            self.emit("hold_broken", helot=held.label, grappler=grappler.label, reason="turned away")
            yield from self.release_hold(held)
            return
        assert target is not None
        held.facing = held.facing.rotated(eighths)
        yield from self.place_helot(held, target, mover=grappler)

    def settle_grapples(self: Bout) -> Run:
        """Once a command, ability, card or event has resolved, every hold whose opponent no longer
        stands in its grappler's front-centre square breaks — pushed, knocked back, thrown,
        relocated, or either helot moved away by anything but a Drag or a turn that carries it
        (ruling 85). A Drag's two steps are one move: it is judged after both."""
        for grappler in self.events.helots_in_turn():
            if grappler.grappling is not None and self.held_in_front(grappler) is None:
                held = self.state.helots[grappler.grappling]
                self.emit("hold_broken", helot=held.label, grappler=grappler.label, reason="separated")
                yield from self.release_hold(held)
        for held in self.events.helots_in_turn():
            holder = self.state.helots.get(held.grappler) if held.grappler is not None else None
            if held.grappler is not None and (holder is None or holder.grappling != held.label):
                yield from self.release_hold(held)  # a hold its grappler no longer keeps

    # ---------------------------------------------------------------- events

    def runtime_error(self: Bout, code: str, message: str) -> ScriptRuntimeError:
        """A fault found by a mechanism; the interpreter positions it at the statement or call
        that set the mechanism off and names its declaration (`interpreter.fault_at`)."""
        return ScriptRuntimeError(Diagnostic(f"runtime/{code}", message, "<engine>"))

