"""Movement: directions, blocking, stepping, placing, rotating and facing."""

from __future__ import annotations

from typing import Any, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from .board import Direction, RelDir, Square, rotate
from .events import Events
from .interpreter import Run
from .state import BoutState, Helot
from .timing import Timing


class CarriedHolds(Protocol):
    """The holds a figure carries round as it turns (`engine/holds.py`, which moves figures through
    this module itself)."""

    def held_in_front(self, grappler: Helot) -> Helot | None: ...

    def carry_round(self, grappler: Helot, held: Helot, eighths: int) -> Run: ...


class MovementHost(Protocol):
    """What movement needs of the bout: its state and rules (which objects block), the log, events
    to fire, the `before_move` window, and the holds a turn carries round."""

    state: BoutState
    ruleset: Ruleset
    events: Events
    timing: Timing

    @property
    def holds(self) -> CarriedHolds: ...

    def emit(self, event_type: str, /, **data: Any) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Movement:
    """Where a figure would step, whether it may, and its moves and turns."""

    def __init__(self, host: MovementHost):
        self.host = host

    def absolute_direction(self, helot: Helot, direction: str) -> Direction:
        if direction in Direction.__members__:
            return Direction[direction]
        return RelDir[direction].absolute(helot.facing)

    def square_towards(self, helot: Helot, direction: str) -> Square | None:
        return self.host.state.grid.step(helot.square, self.absolute_direction(helot, direction))

    def blocked(self, square: Square | None, ignore: Helot | None = None) -> bool:
        """Off the board (the wall), an object that blocks, or another helot."""
        state = self.host.state
        if square is None or not state.grid.contains(square):
            return True
        if any(self.host.ruleset.object_flags(obj).get("blocks", False) for obj in state.objects_at(square)):
            return True
        other = state.helot_at(square)
        return other is not None and other != ignore

    def move_helot(self, helot: Helot, direction: str, mover: Helot | None = None,
                   into_hazards: bool = False) -> Run:
        """Step one square. A helot stepping on its own (not pushed or dragged) opens the
        `before_move` window, where an effect may `prevent` the step (e.g. Tripping)."""
        target = self.square_towards(helot, direction)
        if self.blocked(target, ignore=helot):
            self.host.emit("blocked", helot=helot.label, direction=direction)
            return
        assert target is not None
        if mover is None or mover == helot:
            frame = yield from self.host.timing.open_window("before_move", helot, mover=helot)
            if frame.prevented:
                self.host.emit("move_prevented", helot=helot.label)
                return
        yield from self.place_helot(helot, target, direction=direction, mover=mover if mover != helot else None)

    def place_helot(self, helot: Helot, square: Square, direction: str | None = None,
                    mover: Helot | None = None) -> Run:
        origin = helot.square
        helot.square = square
        self.host.emit("move", helot=helot.label, source=origin.as_list(), dest=square.as_list(), facing=helot.facing.name)
        yield from self.host.events.fire("helot_moved", self=helot, origin=origin, direction=direction, mover=mover)

    def rotate_helot(self, helot: Helot, side: str, mover: Helot | None = None) -> Run:
        if side not in ("left", "right"):
            raise self.host.runtime_error("wrong_type", f"a helot rotates `left` or `right`, not `{side}`")
        held = self.host.holds.held_in_front(helot)
        helot.facing = rotate(helot.facing, side)
        self.host.emit("rotate", helot=helot.label, facing=helot.facing.name)
        if held is not None:
            yield from self.host.holds.carry_round(helot, held, 2 if side == "right" else -2)
        yield from self.host.events.fire("helot_rotated", self=helot, mover=mover if mover != helot else None)

    def face_helot(self, helot: Helot, facing: Direction) -> Run:
        """Turn a helot to face a compass direction (a card or ability turning it)."""
        held = self.host.holds.held_in_front(helot)
        turn = (facing.value - helot.facing.value) % 8
        helot.facing = facing
        self.host.emit("rotate", helot=helot.label, facing=helot.facing.name)
        if held is not None and turn:
            yield from self.host.holds.carry_round(helot, held, turn)
