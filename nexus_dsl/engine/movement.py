"""Movement: directions, blocking, stepping, placing, rotating and facing."""

from __future__ import annotations

from typing import Any, Final, Protocol

from ..errors import ScriptRuntimeError
from ..model.ruleset import Ruleset
from .board import DIRECTION_NAMED, REL_EIGHTHS, Direction, Square, rotate, turned
from .events import Events
from .interpreter import Run
from .state import BoutState, Piece
from .timing import Timing


# Each direction's word, read in one lookup: a compass direction by its value (0..7), a direction
# relative to the facing by `_TURNED` plus its eighths clockwise.
_TURNED: Final = 8
_HEADINGS: Final[dict[str, int]] = {**{name: direction._value_ for name, direction in DIRECTION_NAMED.items()},
                                    **{name: _TURNED + eighths for name, eighths in REL_EIGHTHS.items()}}


class CarriedHolds(Protocol):
    """The holds a figure carries round as it turns (`engine/holds.py`, which moves figures through
    this module itself)."""

    def held_in_front(self, holder: Piece) -> Piece | None: ...

    def carry_round(self, holder: Piece, held: Piece, eighths: int) -> Run: ...


class MovementHost(Protocol):
    """What movement needs of the bout: its state and rules (which objects block), the log, events
    to fire, the `before_move` window, and the holds a turn carries round."""

    state: BoutState
    ruleset: Ruleset
    events: Events
    timing: Timing

    @property
    def holds(self) -> CarriedHolds: ...

    def emit_line(self, event_type: str, data: dict[str, Any], /) -> None: ...

    def runtime_error(self, code: str, message: str) -> ScriptRuntimeError: ...


class Movement:
    """Where a figure would step, whether it may, and its moves and turns."""

    # Kept at hand (`wire`), read natively rather than through the host Protocol on every step.
    events: Events
    timing: Timing

    def __init__(self, host: MovementHost):
        self.host = host
        self.state: BoutState = host.state  # handed anew by the bout whenever it replaces its state

    def wire(self) -> None:
        """Keep events and timing at hand (`Bout._wire`: both are built before movement, but wired alike)."""
        self.events = self.host.events
        self.timing = self.host.timing

    def absolute_direction(self, piece: Piece, direction: str) -> Direction:
        found = DIRECTION_NAMED.get(direction)  # `Direction[direction]`, without the Enum's lookup
        if found is not None:
            return found
        # `RelDir[direction].absolute(piece.facing)`, read from the tables (a KeyError as it raises)
        return turned(piece.facing, REL_EIGHTHS[direction])

    def square_towards(self, piece: Piece, direction: str) -> Square | None:
        grid = self.state.grid
        heading = _HEADINGS[direction]  # a KeyError for a word of neither kind, as `absolute_direction` raises
        if heading < _TURNED:
            return grid.step_by_value(piece.square, heading)
        return grid.step_turned(piece.square, piece.facing, heading - _TURNED)

    def blocked(self, square: Square | None, ignore: Piece | None = None) -> bool:
        """Off the board (the wall), an object that blocks, or another piece."""
        state = self.state
        if square is None or not state.grid.contains(square):
            return True
        objects = state.objects_at(square)
        if objects and any(self.host.ruleset.object_flags(obj).get("blocks", False) for obj in objects):
            return True
        other = state.piece_at(square)
        return other is not None and other != ignore

    def move_piece(self, piece: Piece, direction: str, mover: Piece | None = None,
                   into_hazards: bool = False) -> Run:
        """Step one square. A piece stepping on its own (not pushed or dragged) opens the
        `before_move` window, where an effect may `prevent` the step (e.g. Tripping)."""
        target = self.square_towards(piece, direction)
        if self.blocked(target, ignore=piece):
            self.host.emit_line("blocked", {"actor": piece.label, "direction": direction})
            return
        assert target is not None
        if mover is None or mover == piece:
            frame = yield from self.timing.open_window("before_move", piece, mover=piece)
            if frame.prevented:
                self.host.emit_line("move_prevented", {"actor": piece.label})
                return
        yield from self.place_piece(piece, target, direction=direction, mover=mover if mover != piece else None)

    def place_piece(self, piece: Piece, square: Square, direction: str | None = None,
                    mover: Piece | None = None) -> Run:
        origin = piece.square
        piece.square = square
        # A direction's id read as `_name_`: the Enum's `name` is an interpreted property.
        self.host.emit_line("move", {"actor": piece.label, "source": origin.as_list(), "dest": square.as_list(),
                                     "facing": piece.facing._name_})
        yield from self.events.fire("piece_moved", self=piece, origin=origin, direction=direction, mover=mover)

    def rotate_piece(self, piece: Piece, side: str, mover: Piece | None = None) -> Run:
        if side not in ("left", "right"):
            raise self.host.runtime_error("wrong_type", f"a piece rotates `left` or `right`, not `{side}`")
        held = self.host.holds.held_in_front(piece)
        piece.facing = rotate(piece.facing, side)
        self.host.emit_line("rotate", {"actor": piece.label, "facing": piece.facing._name_})
        if held is not None:
            yield from self.host.holds.carry_round(piece, held, 2 if side == "right" else -2)
        yield from self.events.fire("piece_rotated", self=piece, mover=mover if mover != piece else None)

    def face_piece(self, piece: Piece, facing: Direction) -> Run:
        """Turn a piece to face a compass direction (a card or ability turning it)."""
        held = self.host.holds.held_in_front(piece)
        turn = (facing.value - piece.facing.value) % 8
        piece.facing = facing
        self.host.emit_line("rotate", {"actor": piece.label, "facing": piece.facing._name_})
        if held is not None and turn:
            yield from self.host.holds.carry_round(piece, held, turn)
