"""What a barge schematic must respect beyond its schema (rulebook pg.2-3, pg.9, pg.38).

The schema checks the shape of a barge; this module checks it against the box and the setup:

* no object type is placed more often than the box holds (the `limit` of its type in objects.yaml:
  4 pillars, 4 of each hazard miniature, 10 blood and 10 guts tiles);
* a square holds at most one object;
* every starting square (pg.9: each player's closest leftmost square) is empty, has at least one
  open square next to it, and is not cut off from the other starting squares by indestructible
  objects;
* a barge names 2 to 3 hazard types ("Generally, players will encounter 2-3 different types of
  hazards", pg.3): outside that range is a warning, not an error, since custom barges may differ.

`barge_problems(barge, ruleset)` checks one barge and returns positioned diagnostics: the loader
runs it on every barge of the loaded packs and `nexus check` on a lone barge file.
`located_barge_problems` returns the same diagnostics, each with the squares it concerns as data
(`SquareProblem`): the editor marks them on the barge being drawn.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ..errors import Diagnostic
from ..model.ruleset import Ruleset
from ..model.seats import BOARD_SIZE, SEAT_ENTRY_CELLS, SEAT_ORDER

__all__ = ["HAZARD_TYPES_USUAL", "SquareProblem", "barge_problems", "located_barge_problems", "starting_squares"]

# "Generally, players will encounter 2-3 different types of hazards, depending on the barge" (pg.3).
HAZARD_TYPES_USUAL = (2, 3)

Locate = Callable[[tuple], "tuple[int, int] | None"]
Cell = tuple[int, int]  # (col, row)


@dataclass(frozen=True)
class SquareProblem:
    """One problem of a barge and the squares it concerns, `(col, row)` (none: the barge as a whole)."""

    diagnostic: Diagnostic
    squares: tuple[Cell, ...]

    @property
    def is_error(self) -> bool:
        return self.diagnostic.severity == "error"

    def where(self) -> str:
        """`[3, 3]`, `[1, 8] and [2, 7]`, or `the barge` when it concerns no square."""
        named = [f"[{col}, {row}]" for col, row in self.squares]
        if not named:
            return "the barge"
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]

    def text(self) -> str:
        """As `nexus check` prints it (severity, message, hint), with the code, after its squares."""
        hint = f" (hint: {self.diagnostic.hint})" if self.diagnostic.hint else ""
        return (f"{self.where()}: {self.diagnostic.severity}: {self.diagnostic.message}{hint} "
                f"[{self.diagnostic.code}]")


def starting_squares() -> dict[Cell, str]:
    """Each seat's entry square (pg.9), as `(col, row)` -> seat, in the order seats are taken."""
    return {SEAT_ENTRY_CELLS[seat][0]: seat for seat in SEAT_ORDER}


class _Reporter:
    """Builds diagnostics positioned at a path inside the barge's YAML (falling back to its line)."""

    def __init__(self, barge_id: str, file: str, line: int, locate: Locate | None):
        self.barge_id = barge_id
        self.file = file
        self.line = line
        self.locate = locate

    def at(self, paths: Iterable[tuple], squares: tuple[Cell, ...], code: str, message: str,
           hint: str | None = None, severity: str = "error") -> SquareProblem:
        position = None
        if self.locate is not None:
            for path in paths:
                position = self.locate(path)
                if position:
                    break
        line, column = position or (self.line, 1 if self.line else 0)
        return SquareProblem(Diagnostic(code, f"barge `{self.barge_id}` {message}", self.file, line, column,
                                        hint=hint, severity=severity), squares)


def barge_problems(barge: Mapping[str, Any], ruleset: Ruleset, *, file: str = "<barge>", line: int = 0,
                   locate: Locate | None = None) -> list[Diagnostic]:
    """Every problem of one barge that its schema cannot see (see the module docstring).

    `barge` is the barge's data (already valid against barge.schema.json); `locate` maps a path
    inside it (e.g. `("objects", 3, "at")`) to a 1-based (line, column), as
    `load_yaml_with_positions` gives; without it, diagnostics point at `line`.
    """
    return [problem.diagnostic for problem in located_barge_problems(barge, ruleset, file=file, line=line,
                                                                     locate=locate)]


def located_barge_problems(barge: Mapping[str, Any], ruleset: Ruleset, *, file: str = "<barge>", line: int = 0,
                           locate: Locate | None = None) -> list[SquareProblem]:
    """`barge_problems`, each diagnostic with the squares it concerns: the square of the object it
    is about (the first beyond the box, the second on a square, one on a starting square), a
    starting square boxed in, a starting square cut off and the one it is cut off from; none for
    the barge as a whole (its hazard types)."""
    report = _Reporter(str(barge.get("id", "?")), file, line, locate)
    objects = [(str(o["type"]), (int(o["at"][0]), int(o["at"][1]))) for o in barge.get("objects", [])]
    return [
        *_over_supply(objects, ruleset, report),
        *_shared_squares(objects, report),
        *_starting_square_problems(objects, ruleset, report),
        *_hazard_type_count(list(barge.get("hazards", [])), report),
    ]


def _object_path(index: int) -> list[tuple]:
    return [("objects", index, "at"), ("objects", index), ("objects",), ()]


def _over_supply(objects: list[tuple[str, Cell]], ruleset: Ruleset, report: _Reporter) -> list[SquareProblem]:
    """The first object of a type beyond what the box holds (limit 0 or none: no limit)."""
    problems: list[SquareProblem] = []
    placed: dict[str, int] = {}
    for index, (object_type, square) in enumerate(objects):
        placed[object_type] = placed.get(object_type, 0) + 1
        flags = ruleset.object_flags(object_type)
        limit = int(flags.get("limit") or 0)
        if limit and placed[object_type] == limit + 1:
            total = sum(1 for t, _ in objects if t == object_type)
            name = str(flags.get("name", object_type))
            problems.append(report.at(
                _object_path(index), (square,), "content/barge_over_supply",
                f"places {total} `{object_type}` but the box holds {limit}",
                hint=f"remove {total - limit}: the box has {limit} {name} pieces (`limit` in objects.yaml)",
            ))
    return problems


def _shared_squares(objects: list[tuple[str, Cell]], report: _Reporter) -> list[SquareProblem]:
    problems: list[SquareProblem] = []
    first_on: dict[Cell, tuple[int, str]] = {}
    for index, (object_type, square) in enumerate(objects):
        if square in first_on:
            other_index, other_type = first_on[square]
            problems.append(report.at(
                _object_path(index), (square,), "content/barge_square_taken",
                f"places `{object_type}` on [{square[0]}, {square[1]}], which already holds `{other_type}` (objects[{other_index}])",
                hint="a schematic puts one object on a square",
            ))
        else:
            first_on[square] = (index, object_type)
    return problems


def _neighbours(square: Cell) -> Iterable[Cell]:
    col, row = square
    for dcol in (-1, 0, 1):
        for drow in (-1, 0, 1):
            if (dcol or drow) and 1 <= col + dcol <= BOARD_SIZE and 1 <= row + drow <= BOARD_SIZE:
                yield col + dcol, row + drow


def _reachable(start: Cell, walls: set[Cell]) -> set[Cell]:
    """Squares a helot could walk to from `start` (king moves) without crossing `walls`."""
    seen = {start}
    queue = deque([start])
    while queue:
        for step in _neighbours(queue.popleft()):
            if step not in seen and step not in walls:
                seen.add(step)
                queue.append(step)
    return seen


def _starting_square_problems(objects: list[tuple[str, Cell]], ruleset: Ruleset,
                              report: _Reporter) -> list[SquareProblem]:
    problems: list[SquareProblem] = []
    starts = starting_squares()
    blocking = {square for t, square in objects if ruleset.object_flags(t).get("blocks")}
    # Crates can be broken open; only what no helot can remove cuts a seat off for good.
    indestructible = {square for t, square in objects
                      if ruleset.object_flags(t).get("blocks") and not ruleset.object_flags(t).get("destructible")}
    for index, (object_type, square) in enumerate(objects):
        if square in starts:
            problems.append(report.at(
                _object_path(index), (square,), "content/barge_start_occupied",
                f"places `{object_type}` on [{square[0]}, {square[1]}], the {starts[square]} seat's starting square",
                hint="every starting square must be empty (pg.9: each helot enters at its player's closest leftmost square)",
            ))
    for square, seat in starts.items():
        if all(step in blocking for step in _neighbours(square)):
            problems.append(report.at(
                [("objects",), ()], (square,), "content/barge_start_boxed_in",
                f"boxes in the {seat} seat's starting square [{square[0]}, {square[1]}]: every square next to it is blocked",
                hint="leave at least one square next to each starting square open",
            ))
    first_square, first_seat = next(iter(starts.items()))
    reachable = _reachable(first_square, indestructible)
    for square, seat in starts.items():
        if square not in reachable and square not in indestructible:
            problems.append(report.at(
                [("objects",), ()], (square, first_square), "content/barge_start_cut_off",
                f"cuts the {seat} seat's starting square [{square[0]}, {square[1]}] off from the {first_seat} seat's "
                f"[{first_square[0]}, {first_square[1]}] with indestructible objects",
                hint="every helot must be able to reach every other one",
            ))
    return problems


def _hazard_type_count(hazards: list[str], report: _Reporter) -> list[SquareProblem]:
    fewest, most = HAZARD_TYPES_USUAL
    kinds = len(set(hazards))
    if fewest <= kinds <= most:
        return []
    return [report.at(
        [("hazards",), ()], (), "content/barge_hazard_types",
        f"names {kinds} hazard type{'s' if kinds != 1 else ''}; a barge usually has {fewest} to {most}",
        hint="\"Generally, players will encounter 2-3 different types of hazards, depending on the barge\" (pg.3)",
        severity="warning",
    )]

