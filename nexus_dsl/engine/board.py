"""Board geometry: squares, compass directions, facing-relative directions and lines.

This module is pure mechanism. It knows nothing about pieces, objects or commands; the rules
ask it geometric questions ("which squares are in front of this piece?", "what lies between
these two squares?") and decide for themselves what the answers mean.

Coordinates follow the canonical ids (IDS.md): a square is `[col, row]`, both 1-based.
`col` grows towards the east (col 1 is the west-most column) and `row` grows towards the south
(row 1 is the north-most row), so north is "up" and a step north is `drow = -1`.

The board size is a property of a `Grid` instance, never a global, so that an expansion can
play on a different board with the same code.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any, Final, cast

from ..model.seats import BOARD_SIZE

__all__ = [
    "DEFAULT_SIZE",
    "Direction",
    "Grid",
    "RelDir",
    "Rotation",
    "Square",
    "parse_direction",
    "parse_rel_dir",
    "parse_square",
    "relative_of",
    "rotate",
]

#: A board's size where its game declares none (`game { board_size ... }`): the base game's 8x8.
DEFAULT_SIZE = BOARD_SIZE


# --------------------------------------------------------------------------------------------
# Squares
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Square:
    """One square of the board, `col` west→east and `row` north→south, both 1-based.

    A `Square` may lie off the board (e.g. while computing "one step further"); whether it is on
    the board is a question for `Grid.contains`, because only the grid knows its size.

    Squares are made, hashed and compared thousands of times a bout. The methods a dataclass would
    generate are written out (the same answers: equal and ordered by `(col, row)` among squares,
    hashed as that pair; nothing derives from Square), so that the compiled engine runs them as compiled code rather than the
    interpreted methods the `dataclass` decorator makes; `__reduce__` rebuilds a square from its
    two numbers (a copy or a pickle cannot call a compiled `__init__` without them). A square's hash
    is kept once worked out (`_hash`, -1 until then: no tuple's hash is -1): the squares of a board
    are shared (`Grid.step`) and hashed again and again in areas and tables.
    """

    col: int
    row: int
    _hash: int = field(default=-1, repr=False, compare=False)

    def __init__(self, col: int, row: int) -> None:
        object.__setattr__(self, "col", col)  # frozen: set as the dataclass's own __init__ does
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "_hash", -1)

    def __hash__(self) -> int:
        found = self._hash
        if found == -1:
            found = hash((self.col, self.row))
            object.__setattr__(self, "_hash", found)
        return found

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Square):
            return NotImplemented
        return self.col == other.col and self.row == other.row

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Square):
            return NotImplemented
        return self.col != other.col or self.row != other.row

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Square):
            return NotImplemented
        return (self.col, self.row) < (other.col, other.row)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Square):
            return NotImplemented
        return (self.col, self.row) <= (other.col, other.row)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Square):
            return NotImplemented
        return (self.col, self.row) > (other.col, other.row)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Square):
            return NotImplemented
        return (self.col, self.row) >= (other.col, other.row)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Square, (self.col, self.row))

    def shifted(self, dcol: int, drow: int) -> Square:
        """The square `dcol` columns east and `drow` rows south of this one (may be off-board)."""
        return Square(self.col + dcol, self.row + drow)

    def as_list(self) -> list[int]:
        """The canonical `[col, row]` form used by content files and scenarios."""
        return [self.col, self.row]

    def key(self) -> str:
        """The `col,row` form used in snapshot keys such as `board.4,3`."""
        return f"{self.col},{self.row}"

    def __str__(self) -> str:
        return f"[{self.col}, {self.row}]"


# --------------------------------------------------------------------------------------------
# Absolute (compass) directions
# --------------------------------------------------------------------------------------------


class Direction(Enum):
    """The eight compass directions, clockwise from north.

    Member names are the canonical ids (`N NE E SE S SW W NW`); the value is the number of
    eighths of a turn clockwise from north, which makes rotation plain modular arithmetic and
    puts the compass die's faces 1..8 in the same order.
    """

    N = 0
    NE = 1
    E = 2
    SE = 3
    S = 4
    SW = 5
    W = 6
    NW = 7

    @property
    def delta(self) -> tuple[int, int]:
        """`(dcol, drow)` of one step this way: north is `(0, -1)` because rows grow southwards."""
        return _DELTA_OF[self._value_]

    @property
    def compass_face(self) -> int:
        """The compass-die face (1..8) that shows this direction."""
        value: int = self._value_  # the Enum's `value` is an interpreted property
        return value + 1

    @property
    def is_diagonal(self) -> bool:
        value: int = self._value_
        return value % 2 == 1

    @property
    def opposite(self) -> Direction:
        return self.rotated(4)

    def rotated(self, eighths: int) -> Direction:
        """This direction turned by `eighths` eighths of a turn, clockwise when positive.

        A 90-degree turn (the Rotate command) is 2 eighths; a 180-degree turn is 4.
        """
        return _CLOCKWISE[(self._value_ + eighths) % 8]  # `Direction(value)`, read from a table

    @classmethod
    def from_compass_face(cls, face: int) -> Direction:
        """The direction shown by a compass-die face 1..8 (`N NE E SE S SW W NW`)."""
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 8:
            raise ValueError(f"compass die face {face!r} is not 1..8")
        return cls(face - 1)

    @classmethod
    def from_delta(cls, dcol: int, drow: int) -> Direction:
        """The direction whose one-step delta is `(dcol, drow)`; each component is -1, 0 or 1."""
        try:
            return _BY_DELTA[(dcol, drow)]
        except KeyError:
            raise ValueError(f"({dcol}, {drow}) is not a one-step direction") from None

    def __str__(self) -> str:
        return self.name


_DELTAS: dict[Direction, tuple[int, int]] = {
    Direction.N: (0, -1),
    Direction.NE: (1, -1),
    Direction.E: (1, 0),
    Direction.SE: (1, 1),
    Direction.S: (0, 1),
    Direction.SW: (-1, 1),
    Direction.W: (-1, 0),
    Direction.NW: (-1, -1),
}
_BY_DELTA: dict[tuple[int, int], Direction] = {delta: d for d, delta in _DELTAS.items()}
# The directions and their deltas by value (eighths clockwise from north): steps and turns read
# these at every move, where an Enum's lookup by value and its hash would run as interpreted code
# (and, Final, the compiled engine reads them without a lookup in the module's namespace).
_CLOCKWISE: Final[tuple[Direction, ...]] = tuple(sorted(Direction, key=lambda d: d.value))
_DELTA_OF: Final[tuple[tuple[int, int], ...]] = tuple(_DELTAS[d] for d in _CLOCKWISE)
#: Each direction by its id (`"NE"`), as `Direction[name]` finds it.
DIRECTION_NAMED: Final[dict[str, Direction]] = {d.name: d for d in Direction}


# --------------------------------------------------------------------------------------------
# Facing-relative directions and rotation
# --------------------------------------------------------------------------------------------


class RelDir(Enum):
    """A direction relative to a facing (a piece's FFD), clockwise from straight ahead.

    Member names are the canonical argument ids (`forward_left` etc.); the value is the number
    of eighths clockwise from the facing, so `RelDir.right` is a quarter turn clockwise.
    """

    forward = 0
    forward_right = 1
    right = 2
    backward_right = 3
    backward = 4
    backward_left = 5
    left = 6
    forward_left = 7

    def absolute(self, facing: Direction) -> Direction:
        """The compass direction this relative direction points to for a piece facing `facing`."""
        return facing.rotated(self._value_)

    def __str__(self) -> str:
        return self.name


#: Each relative direction by its id (`"forward_left"`), as `RelDir[name]` finds it, and by value.
REL_DIR_NAMED: Final[dict[str, RelDir]] = {r.name: r for r in RelDir}
_REL_CLOCKWISE: Final[tuple[RelDir, ...]] = tuple(sorted(RelDir, key=lambda r: r.value))
#: Each relative direction's eighths clockwise from the facing, by its id: what `RelDir[name].value`
#: reads, without the Enum's interpreted `value`.
REL_EIGHTHS: Final[dict[str, int]] = {r.name: r.value for r in RelDir}


def turned(facing: Direction, eighths: int) -> Direction:
    """`facing.rotated(eighths)`, read from the table at once."""
    value: int = facing._value_
    return _CLOCKWISE[(value + eighths) % 8]


def relative_of(facing: Direction, absolute: Direction) -> RelDir:
    """The inverse of `RelDir.absolute`: where `absolute` lies as seen from `facing`."""
    return _REL_CLOCKWISE[(absolute._value_ - facing._value_) % 8]


class Rotation(Enum):
    """A 90-degree turn, as the Rotate command makes; the value is in eighths (clockwise +)."""

    left = -2
    right = 2

    def apply(self, facing: Direction) -> Direction:
        eighths: int = self._value_
        return facing.rotated(eighths)

    @staticmethod
    def rotate(facing: Direction, side: Rotation | str) -> Direction:
        """`facing` turned 90 degrees to `side` (`'left'` or `'right'`, or a `Rotation`)."""
        return _parse_rotation(side).apply(facing)


def rotate(facing: Direction, side: Rotation | str) -> Direction:
    """`facing` turned 90 degrees to `side` (`'left'` or `'right'`, or a `Rotation`)."""
    eighths = _SIDE_EIGHTHS.get(side) if isinstance(side, str) else None
    if eighths is not None:  # the plain words, as scripts give them: no Enum read on the way
        return turned(facing, eighths)
    return Rotation.rotate(facing, side)


# Each side's turn in eighths by its plain word, as `Rotation[side].value` reads it.
_SIDE_EIGHTHS: Final[dict[str, int]] = {r.name: r.value for r in Rotation}


def _parse_rotation(side: Rotation | str) -> Rotation:
    if isinstance(side, Rotation):
        return side
    if isinstance(side, str) and side.strip().lower() in Rotation.__members__:
        return Rotation[side.strip().lower()]
    raise ValueError(f"unknown rotation {side!r}: expected 'left' or 'right'")


# --------------------------------------------------------------------------------------------
# The grid
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _neighbours(size: int, sq: Square) -> tuple[Square, ...]:
    # Asked thousands of times a bout (movement, areas, the agents' path finding): answer once.
    found = []
    for direction in Direction:
        dcol, drow = direction.delta
        target = sq.shifted(dcol, drow)
        if 1 <= target.col <= size and 1 <= target.row <= size:
            found.append(target)
    return tuple(found)


# The boards most a step table is kept for (a game's board has at most 26 squares a side): beyond,
# a step is worked out each time.
_MOST_TABULATED: Final = 32
# Each board size's step table (`_step_table`), shared by every grid of that size.
_STEP_TABLES: Final[dict[int, list[Square | None]]] = {}
# The same tables by their size as a list's index (empty for a size not tabulated yet, or too big):
# read at every step, where the dict's lookup hashes the size each time.
_TABLE_OF_SIZE: Final[list[list[Square | None]]] = [[] for _ in range(_MOST_TABULATED + 1)]


def _step_table(size: int) -> list[Square | None]:
    """The square one step from each square of a `size` board towards each direction, None for the
    wall: at `((row - 1) * size + col - 1) * 8 + direction value`. Steps are asked at every move and
    every look round a piece; read from here they neither make a square nor read a delta."""
    table = _STEP_TABLES.get(size)
    if table is None:
        table = []
        if size <= _MOST_TABULATED:
            for row in range(1, size + 1):
                for col in range(1, size + 1):
                    for dcol, drow in _DELTA_OF:
                        c, r = col + dcol, row + drow
                        table.append(Square(c, r) if 1 <= c <= size and 1 <= r <= size else None)
            _TABLE_OF_SIZE[size] = table
        _STEP_TABLES[size] = table
    return table


# Each tabulated board size's areas (`Grid.area`), at `square index * (size + 1) + radius` (a radius
# of the size or more kept as the size): the squares in order and as a set, made when first asked.
_AREA_TABLES: Final[dict[int, list[tuple[tuple[Square, ...], frozenset[Square]] | None]]] = {}
# The squares a line of sight between two squares of a tabulated board crosses (`Grid.line_between`),
# by the pair of squares as one number.
_LINES: Final[dict[int, tuple[Square, ...]]] = {}


@dataclass(frozen=True)
class Grid:
    """A square board of `size` x `size` squares; everything beyond its edge is the wall.

    Methods that only compare two squares (distances, cones, lines) do not depend on the size and
    are static, so they can be used without a grid at hand.

    `__init__` is written out (the dataclass's own would be interpreted) and makes the board's step
    table (`_step_table`) ready; `__reduce__` rebuilds a grid from its size.
    """

    size: int = DEFAULT_SIZE

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"board size must be a positive integer, got {size!r}")
        object.__setattr__(self, "size", size)  # frozen: set as the dataclass's own __init__ does
        _step_table(size)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Grid, (self.size,))

    # -- membership and enumeration ----------------------------------------------------------

    def contains(self, sq: Square) -> bool:
        return 1 <= sq.col <= self.size and 1 <= sq.row <= self.size

    def squares(self) -> Iterator[Square]:
        """Every square, row by row from the north-west corner (a fixed order for determinism)."""
        for row in range(1, self.size + 1):
            for col in range(1, self.size + 1):
                yield Square(col, row)

    def parse_square(self, value: object) -> Square:
        """`parse_square` for this grid's size."""
        return parse_square(value, self.size)

    # -- stepping ----------------------------------------------------------------------------

    def step(self, sq: Square, direction: Direction, n: int = 1) -> Square | None:
        """The square `n` steps from `sq` towards `direction`, or None if that leaves the board.

        The board is convex, so if the end square is on the board every square passed on the way
        is too: checking the end square is enough.
        """
        value: int = direction._value_
        if n == 1:
            return self._step_by(sq, value)
        dcol, drow = _DELTA_OF[value]
        target = sq.shifted(dcol * n, drow * n)
        return target if self.contains(target) else None

    def _step_by(self, sq: Square, value: int) -> Square | None:
        """One step from `sq` towards the direction of `value` (eighths clockwise from north), read
        from the step table for a square on the board."""
        size, col, row = self.size, sq.col, sq.row
        if 1 <= col <= size and 1 <= row <= size and size <= _MOST_TABULATED:
            steps = _TABLE_OF_SIZE[size]  # made with the grid (`Grid.__init__`)
            if not steps:
                steps = _step_table(size)
            return steps[((row - 1) * size + col - 1) * 8 + value]
        dcol, drow = _DELTA_OF[value]
        target = Square(col + dcol, row + drow)
        return target if self.contains(target) else None

    def step_by_value(self, sq: Square, value: int) -> Square | None:
        """One step from `sq` towards the direction of `value` (`step(sq, direction)` by its value)."""
        return self._step_by(sq, value)

    def step_turned(self, sq: Square, facing: Direction, eighths: int) -> Square | None:
        """One step from `sq` towards `facing` turned by `eighths` (`step(sq, facing.rotated(eighths))`)."""
        value: int = facing._value_
        return self._step_by(sq, (value + eighths) % 8)

    def hits_wall(self, sq: Square, direction: Direction) -> bool:
        """True if one step from `sq` towards `direction` would leave the board (into the wall)."""
        return self.step(sq, direction) is None

    def neighbours(self, sq: Square) -> list[Square]:
        """The on-board squares adjoining `sq` (8-neighbourhood), in `Direction` order from N."""
        return list(_neighbours(self.size, sq))

    def area(self, center: Square, radius: int = 1) -> list[Square]:
        """On-board squares within Chebyshev `radius` of `center` (center included), in
        `squares()` order."""
        if radius < 0:
            raise ValueError(f"area radius must be >= 0, got {radius}")
        return list(self._area_table(center, radius)[0])

    def area_set(self, center: Square, radius: int) -> frozenset[Square]:
        """`frozenset(area(center, radius))`: on a tabulated board the same set, made once per
        board size, centre and radius (scripts ask for areas round pieces at every decision)."""
        if radius < 0:
            raise ValueError(f"area radius must be >= 0, got {radius}")
        return self._area_table(center, radius)[1]

    def _area_table(self, center: Square, radius: int) -> tuple[tuple[Square, ...], frozenset[Square]]:
        """The squares of `area` in order and as a set: read from the board size's table when the
        centre is on a tabulated board (a radius of the size or more reaches the whole board, so
        it is kept as the size), else worked out."""
        index = self._index(center)
        if index < 0:
            found = tuple([sq for sq in self.squares() if self.chebyshev(center, sq) <= radius])
            return found, frozenset(found)
        size = self.size
        reach = radius if radius < size else size
        areas = _AREA_TABLES.get(size)
        if areas is None:
            areas = _AREA_TABLES[size] = [None] * (size * size * (size + 1))
        at = index * (size + 1) + reach
        kept = areas[at]
        if kept is None:
            found = tuple([sq for sq in self.squares() if self.chebyshev(center, sq) <= reach])
            kept = areas[at] = (found, frozenset(found))
        return kept

    # -- facing-relative squares -------------------------------------------------------------

    def front_arc(self, sq: Square, facing: Direction) -> list[Square]:
        """The three adjoining forward squares (forward_left, forward, forward_right), those on
        the board only: where Move Forward may go and where melee can reach."""
        value: int = facing._value_
        found = []
        for eighths in _FRONT_ARC:  # forward_left, forward, forward_right
            target = self._step_by(sq, (value + eighths) % 8)
            if target is not None:
                found.append(target)
        return found

    def front_center(self, sq: Square, facing: Direction) -> Square | None:
        """The square straight ahead, or None if it is the wall."""
        value: int = facing._value_
        return self._step_by(sq, value)

    def behind(self, sq: Square, facing: Direction) -> Square | None:
        """The square directly behind (the rear-attack square), or None if it is the wall."""
        value: int = facing._value_
        return self._step_by(sq, (value + 4) % 8)

    # -- the same as areas (the words of geometry hand scripts sets of squares) ---------------

    def step_area(self, sq: Square, value: int) -> frozenset[Square]:
        """The square one step from `sq` towards the direction of `value` as an area (`frozenset`
        of it, empty for the wall): `front_center` and `behind` as scripts see them, asked at
        every look round a piece; on a tabulated board each set made once per board size, when first asked."""
        index = self._index(sq)
        if index >= 0:
            reached = _areas_of(self.size)[0]
            area = reached[index * 8 + value]
            if area is None:
                found = self._step_by(sq, value)
                area = reached[index * 8 + value] = frozenset() if found is None else frozenset((found,))
            return area
        found = self._step_by(sq, value)
        return frozenset() if found is None else frozenset((found,))

    def front_arc_area(self, sq: Square, facing: Direction) -> frozenset[Square]:
        """`frozenset(front_arc(sq, facing))`, the same set made once per board size on a tabulated
        board (a set of squares hashes each square as it is made)."""
        value: int = facing._value_
        index = self._index(sq)
        if index >= 0:
            arcs = _areas_of(self.size)[1]
            area = arcs[index * 8 + value]
            if area is None:
                area = arcs[index * 8 + value] = frozenset(self.front_arc(sq, facing))
            return area
        return frozenset(self.front_arc(sq, facing))

    def _index(self, sq: Square) -> int:
        """Where a square of the board stands in the tables of its size (row by row from the north-
        west corner), or -1 for a square off the board or a board beyond the tables."""
        size, col, row = self.size, sq.col, sq.row
        if 1 <= col <= size and 1 <= row <= size and size <= _MOST_TABULATED:
            return (row - 1) * size + col - 1
        return -1

    # -- distances, cones and lines ------------------------------------------------------------

    @staticmethod
    def chebyshev(a: Square, b: Square) -> int:
        """King-move distance: a diagonal step counts as one, as in movement."""
        return max(abs(b.col - a.col), abs(b.row - a.row))

    @staticmethod
    def forward_distance(a: Square, facing: Direction, b: Square) -> int:
        """Squares from `a` to `b` counted forward only, "with no regard for left and right"
        (Optimal Distance, pg.27).

        Orthogonal facing: the projection of `b - a` on the facing axis (sideways offset ignored).
        Diagonal facing: the larger of the projections on the facing's two component axes, e.g.
        facing NE the larger of "how far east" and "how far north". We chose this because a
        diagonal step forward counts as one forward move (pg.18), so a target straight down the
        diagonal three steps away is 3 squares away, not 6 (sum) or 4.24 (Euclid).
        Either way, for any square inside the line-of-sight cone the result equals the Chebyshev
        distance; squares behind give zero or a negative number.
        """
        dcol, drow = b.col - a.col, b.row - a.row
        fcol, frow = facing.delta
        if not facing.is_diagonal:
            return dcol * fcol + drow * frow
        return max(dcol * fcol, drow * frow)

    @staticmethod
    def in_line_of_sight_cone(a: Square, facing: Direction, b: Square) -> bool:
        """True if `b` lies from 45 degrees left to 45 degrees right of `facing` as seen from `a`
        (pg.27), boundaries included; `a` itself is not in its own cone.

        Exact integer test of "angle between facing and b-a is at most 45 degrees":
        dot >= 0 and dot^2 >= |f|^2 |d|^2 cos^2(45) = |f|^2 |d|^2 / 2. Cover is not considered
        here; use `line_squares` for that.
        """
        dcol, drow = b.col - a.col, b.row - a.row
        if dcol == 0 and drow == 0:
            return False
        fcol, frow = facing.delta
        dot = dcol * fcol + drow * frow
        return dot >= 0 and 2 * dot * dot >= (fcol * fcol + frow * frow) * (dcol * dcol + drow * drow)

    @staticmethod
    def line_squares(a: Square, b: Square) -> list[Square]:
        """The squares strictly between `a` and `b` that the straight line joining their centres
        passes through, ordered from `a` towards `b` (used to decide whether cover blocks a line
        of sight).

        This is a supercover line, with one deliberate exception: a square the line only touches
        at a corner is not crossed and is not listed. So a pure diagonal is blocked only by the
        squares on the diagonal, never by the two squares beside each corner it passes through.
        Exact rational arithmetic makes it deterministic, and it is symmetric:
        `line_squares(b, a) == list(reversed(line_squares(a, b)))`.
        """
        return list(Grid.line_between(a, b))

    @staticmethod
    def line_between(a: Square, b: Square) -> tuple[Square, ...]:
        """`line_squares(a, b)` as a tuple: between squares of a tabulated board (every line of
        sight asked is), worked out once per pair of squares, since it depends on them alone."""
        if 1 <= a.col <= _MOST_TABULATED and 1 <= a.row <= _MOST_TABULATED \
                and 1 <= b.col <= _MOST_TABULATED and 1 <= b.row <= _MOST_TABULATED:
            key = (((a.col * (_MOST_TABULATED + 1) + a.row) * (_MOST_TABULATED + 1) + b.col)
                   * (_MOST_TABULATED + 1) + b.row)
            line = _LINES.get(key)
            if line is None:
                line = _LINES[key] = _line_squares(a, b)
            return line
        return _line_squares(a, b)

    @staticmethod
    def direction_towards(a: Square, b: Square) -> Direction | None:
        """The direction of the ray from `a` that passes through `b`, if `b` lies on one of `a`'s
        eight rays (same column, same row or an exact diagonal); None otherwise or if a == b."""
        dcol, drow = b.col - a.col, b.row - a.row
        if (dcol, drow) == (0, 0):
            return None
        if dcol != 0 and drow != 0 and abs(dcol) != abs(drow):
            return None
        return Direction.from_delta(_sign(dcol), _sign(drow))

    def beyond(self, attacker: Square, defender: Square) -> Square | None:
        """The square directly behind `defender` as seen from `attacker`: one more step along the
        line from attacker through defender (defender + (defender - attacker) when they adjoin).

        None if the attacker is not on one of the defender's eight rays, or if that step is the
        wall; use `against_wall` to tell the wall apart.
        """
        direction = self.direction_towards(attacker, defender)
        return None if direction is None else self.step(defender, direction)

    def is_between(self, obj: Square, defender: Square, attacker: Square) -> bool:
        """True if `defender` is directly between `obj` and `attacker` ("Against the wall",
        pg.29): `obj` is the square right behind the defender on the attacker's line."""
        return self.beyond(attacker, defender) == obj

    def against_wall(self, defender: Square, attacker: Square) -> bool:
        """True if the square directly behind `defender` on the attacker's line is the wall."""
        direction = self.direction_towards(attacker, defender)
        return direction is not None and self.hits_wall(defender, direction)


# The front arc's relative directions in eighths from the facing: forward_left, forward, forward_right.
_FRONT_ARC: Final[tuple[int, int, int]] = (RelDir.forward_left.value, RelDir.forward.value, RelDir.forward_right.value)


# Each tabulated board size's areas (`_areas_of`), by the size as a list's index (None until asked).
_AREAS_OF_SIZE: Final[list[tuple[list[frozenset[Square] | None], list[frozenset[Square] | None]] | None]] = \
    [None] * (_MOST_TABULATED + 1)


def _areas_of(size: int) -> tuple[list[frozenset[Square] | None], list[frozenset[Square] | None]]:
    """The areas of a tabulated board, at `square index * 8 + direction value` as `_step_table`
    lays out its steps: the one square a step reaches (empty for the wall), and the front arc
    facing that way. Each is made when first asked (None until then), as the grid's own methods
    make it, so a set is the same whether it is made anew or read from here."""
    areas = _AREAS_OF_SIZE[size]
    if areas is None:
        cells = size * size * 8
        reached: list[frozenset[Square] | None] = [None] * cells
        arcs: list[frozenset[Square] | None] = [None] * cells
        areas = _AREAS_OF_SIZE[size] = (reached, arcs)
    return areas


def _line_squares(a: Square, b: Square) -> tuple[Square, ...]:
    """`Grid.line_squares`, worked out: every square of the box the two squares span whose inside
    the line between their centres crosses, ordered along the line."""
    crossings: list[tuple[Fraction, Square]] = []
    for col in range(min(a.col, b.col), max(a.col, b.col) + 1):
        for row in range(min(a.row, b.row), max(a.row, b.row) + 1):
            sq = Square(col, row)
            if sq == a or sq == b:
                continue
            span = _crossing_interval(a, b, sq)
            if span is not None:
                # The interval's midpoint orders squares along the line; intervals of crossed
                # squares never share a midpoint, and t -> 1 - t reverses the order exactly.
                crossings.append(((span[0] + span[1]) / 2, sq))
    crossings.sort()
    return tuple([sq for _, sq in crossings])


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _crossing_interval(a: Square, b: Square, sq: Square) -> tuple[Fraction, Fraction] | None:
    """The open interval of t in (0, 1) where the segment a + t (b - a) (between square centres)
    is strictly inside `sq`, or None if it never is (a touch at an edge or corner is not inside).
    """
    low, high = Fraction(0), Fraction(1)
    for start, end, centre in ((a.col, b.col, sq.col), (a.row, b.row, sq.row)):
        delta = end - start
        if delta == 0:
            # Moving parallel to this axis: inside for every t exactly when the centres line up.
            if start != centre:
                return None
            continue
        t1 = Fraction(2 * (centre - start) - 1, 2 * delta)
        t2 = Fraction(2 * (centre - start) + 1, 2 * delta)
        low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
    return (low, high) if low < high else None


# --------------------------------------------------------------------------------------------
# Parsing (friendly errors for content files, scenarios and the CLI)
# --------------------------------------------------------------------------------------------


def parse_square(value: object, size: int = DEFAULT_SIZE) -> Square:
    """A `Square` from `[col, row]` (list or tuple of two integers), a `Square`, or `"col,row"`.

    Raises `ValueError` with a message a content author can act on, e.g.
    "square [9, 2] is off the 8x8 board: col and row are 1..8".
    """
    pair = _square_pair(value)
    col, row = pair
    if not (1 <= col <= size and 1 <= row <= size):
        raise ValueError(
            f"square [{col}, {row}] is off the {size}x{size} board: col and row are 1..{size}"
        )
    return Square(col, row)


def _square_pair(value: object) -> tuple[int, int]:
    if isinstance(value, Square):
        return value.col, value.row
    items: Sequence[object] | None = None
    if isinstance(value, (list, tuple)):
        items = value
    elif isinstance(value, str):
        items = [_int_or_text(part.strip()) for part in value.strip().strip("[]").split(",")]
    if (
        items is None
        or len(items) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in items)
    ):
        raise ValueError(f"a square is written [col, row] with two whole numbers, got {value!r}")
    return cast(int, items[0]), cast(int, items[1])  # both checked to be int just above


def _int_or_text(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def parse_direction(value: object) -> Direction:
    """A compass `Direction` from its id (`"NE"`; case and surrounding spaces ignored)."""
    if isinstance(value, Direction):
        return value
    if isinstance(value, str) and value.strip().upper() in Direction.__members__:
        return Direction[value.strip().upper()]
    names = " ".join(d.name for d in Direction)
    raise ValueError(f"unknown direction {value!r}: expected one of {names}")


def parse_rel_dir(value: object) -> RelDir:
    """A `RelDir` from its id (`"forward_left"`; case and surrounding spaces ignored)."""
    if isinstance(value, RelDir):
        return value
    if isinstance(value, str) and value.strip().lower() in RelDir.__members__:
        return RelDir[value.strip().lower()]
    names = " ".join(r.name for r in RelDir)
    raise ValueError(f"unknown relative direction {value!r}: expected one of {names}")
