"""A barge schematic being edited: place and remove objects, see what the box allows, check, save.

`BargeDraft` is plain data (id, name, description, objects as (type, (col, row)), hazards, notes).
Editing never refuses a square on the board: a designer may put a piece on a starting square while
trying things out, and the edit reports it (`Edit.note`), the way `problems()` will until it is
cleared. `problems(ruleset)` runs the same checks a pack gets when it loads — the barge schema, the
object types and hazards the loaded packs define, and `content/barge_checks.py` (box counts, shared
squares, starting squares, hazard type count) — positioned in the draft's own YAML (`to_yaml()`).
`square_problems(ruleset)` gives the same problems with the squares they concern, so a picture can
mark them where they are; `woken_hazards(ruleset)` names the hazards the pieces placed bring into
play (a hazard's `object`s, as the engine wakes it).

Squares are `(col, row)`, col 1 = west, row 1 = north (IDS.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..content.barge_checks import BOARD_SIZE, SquareProblem, located_barge_problems, starting_squares
from ..errors import Diagnostic, did_you_mean
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from ..schema.validate import validate
from ..schema.yaml_positions import load_yaml_with_positions
from .store import Saved, safe_path, save_data_item

__all__ = ["BargeDraft", "BoxCount", "Edit", "SquareProblem", "barges_file", "barges_path", "load_barge", "placeable_types",
           "save_barge"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Edit:
    """What one edit did: the type now on the square (None: emptied), what it displaced, and a
    note for the designer (e.g. the square is a seat's starting square)."""

    square: Cell
    now: str | None
    replaced: str | None = None
    note: str | None = None

    @property
    def changed(self) -> bool:
        return self.now != self.replaced


@dataclass(frozen=True)
class BoxCount:
    """How many pieces of one type the draft places against how many the box holds."""

    type: str
    name: str
    symbol: str
    placed: int
    limit: int | None  # None: the box sets no limit (walls, fire)

    @property
    def left(self) -> int | None:
        return None if self.limit is None else self.limit - self.placed

    @property
    def over(self) -> bool:
        return self.limit is not None and self.placed > self.limit


def _cell(square: Any) -> Cell:
    """A square as `(col, row)`, refusing anything off the 8x8 board with a readable message."""
    try:
        col, row = int(square[0]), int(square[1])
    except (TypeError, ValueError, IndexError, KeyError):
        raise ValueError(f"a square is [col, row], not {square!r}") from None
    if not (1 <= col <= BOARD_SIZE and 1 <= row <= BOARD_SIZE):
        raise ValueError(f"[{col}, {row}] is off the board: col and row run 1..{BOARD_SIZE}")
    return col, row


@dataclass
class BargeDraft:
    id: str
    name: str = ""
    description: str = ""
    objects: list[tuple[str, Cell]] = field(default_factory=list)
    hazards: list[str] = field(default_factory=list)
    notes: str | None = None

    # ---------------------------------------------------------------- reading
    def object_at(self, square: Any) -> str | None:
        cell = _cell(square)
        for object_type, at in self.objects:
            if at == cell:
                return object_type
        return None

    # ---------------------------------------------------------------- editing
    def place(self, object_type: str, square: Any) -> Edit:
        """Put `object_type` on the square, replacing whatever stood there (one object a square)."""
        cell = _cell(square)
        replaced = self._take(cell)
        self.objects.append((object_type, cell))
        return Edit(cell, object_type, replaced, _start_note(cell, object_type))

    def remove(self, square: Any) -> Edit:
        """Clear the square; removing from an empty square changes nothing."""
        cell = _cell(square)
        return Edit(cell, None, self._take(cell))

    def toggle(self, object_type: str, square: Any) -> Edit:
        """A click on the board: the same type there is taken away, anything else is replaced."""
        cell = _cell(square)
        if self.object_at(cell) == object_type:
            return self.remove(cell)
        return self.place(object_type, cell)

    def _take(self, cell: Cell) -> str | None:
        for index, (object_type, at) in enumerate(self.objects):
            if at == cell:
                del self.objects[index]
                return object_type
        return None

    # ---------------------------------------------------------------- checking
    def counts(self, ruleset: Ruleset) -> list[BoxCount]:
        """Placed against the box's `limit`, for every placeable type, then any unknown type placed."""
        placed: dict[str, int] = {}
        for object_type, _ in self.objects:
            placed[object_type] = placed.get(object_type, 0) + 1
        types = placeable_types(ruleset)
        types += sorted(t for t in placed if t not in types)
        counts = []
        for object_type in types:
            flags = ruleset.object_flags(object_type)
            limit = int(flags.get("limit") or 0) or None
            counts.append(BoxCount(object_type, str(flags.get("name") or object_type),
                                   str(flags.get("symbol") or object_type[:2].upper()),
                                   placed.get(object_type, 0), limit))
        return counts

    def problems(self, ruleset: Ruleset, file: str | None = None) -> list[Diagnostic]:
        """Every problem the loaded packs would find in this barge, positioned in `to_yaml()`'s text."""
        return [problem.diagnostic for problem in self.square_problems(ruleset, file)]

    def square_problems(self, ruleset: Ruleset, file: str | None = None) -> list[SquareProblem]:
        """`problems(ruleset)`, each with the squares it concerns, so a picture can mark them: as the
        checks give them (`located_barge_problems`), the square of an object of an unknown type, and
        for a problem of the schema the square of the object it is positioned at."""
        file = file or f"<barge {self.id or '?'}>"
        item, positions = load_yaml_with_positions(self.to_yaml(), file)

        def locate(path: tuple) -> tuple[int, int] | None:
            return positions.get(tuple(path))

        invalid = validate(item, "barge", file=file, locate=locate)
        if invalid:  # the checks beyond the schema assume its shape
            object_on_line = {positions[("objects", index)][0]: cell
                              for index, (_, cell) in enumerate(self.objects) if ("objects", index) in positions}
            return [SquareProblem(d, (object_on_line[d.line],) if d.line in object_on_line else ()) for d in invalid]
        located = self._unknown_names(ruleset, file, locate)
        line = (locate(()) or (0, 0))[0]
        located.extend(located_barge_problems(item, ruleset, file=file, line=line, locate=locate))
        return located

    def woken_hazards(self, ruleset: Ruleset) -> dict[str, list[str]]:
        """The hazards the pieces placed bring into play, each with the placed types that wake it,
        in the packs' order: a hazard plays once one of its `object`s stands on the board, named
        by the barge or not (the barge's list adds hazards with no piece yet and sets the order)."""
        placed = {object_type for object_type, _ in self.objects}
        woken: dict[str, list[str]] = {}
        for hazard in ruleset.declarations("hazard"):
            prop = hazard.property("object")
            wakers = [v.id for v in prop.values if isinstance(v, A.Name)] if prop else []
            by = [t for t in dict.fromkeys([hazard.id, *wakers]) if t in placed]
            if by:
                woken[hazard.id] = by
        return woken

    def _unknown_names(self, ruleset: Ruleset, file: str, locate: Any) -> list[SquareProblem]:
        known_objects = set(ruleset.data.get("objects", {}))
        known_hazards = set(ruleset.scripts.get("hazard", {}))
        problems = []
        for index, (object_type, cell) in enumerate(self.objects):
            if object_type not in known_objects:
                line, column = locate(("objects", index, "type")) or locate(("objects", index)) or (0, 0)
                problems.append(SquareProblem(Diagnostic(
                    "content/dangling_reference", f"barge `{self.id}` places unknown object type `{object_type}`",
                    file, line, column, hint=did_you_mean(object_type, known_objects)), (cell,)))
        for index, hazard in enumerate(self.hazards):
            if hazard not in known_hazards:
                line, column = locate(("hazards", index)) or locate(("hazards",)) or (0, 0)
                problems.append(SquareProblem(Diagnostic(
                    "content/dangling_reference", f"barge `{self.id}` names unknown hazard `{hazard}`",
                    file, line, column, hint=did_you_mean(hazard, known_hazards)), ()))
        return problems

    # ---------------------------------------------------------------- data and text
    def to_data(self) -> dict[str, Any]:
        """The barges.yaml item (barge.schema.json)."""
        data: dict[str, Any] = {
            "id": self.id, "name": self.name, "description": self.description,
            "objects": [{"type": t, "at": [c, r]} for t, (c, r) in self.objects],
            "hazards": list(self.hazards),
        }
        if self.notes:
            data["notes"] = self.notes
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BargeDraft:
        objects = [(str(o["type"]), (int(o["at"][0]), int(o["at"][1]))) for o in data.get("objects", [])]
        return cls(id=str(data.get("id", "")), name=str(data.get("name", "")),
                   description=str(data.get("description", "")), objects=objects,
                   hazards=[str(h) for h in data.get("hazards", [])],
                   notes=str(data["notes"]) if data.get("notes") else None)

    def to_yaml(self) -> str:
        """The barge as one YAML mapping in the base box's style (one object a line); saved into a
        barges.yaml list, it becomes an entry like the others."""
        lines = [f"id: {_scalar(self.id)}", f"name: {_scalar(self.name)}",
                 f"description: {_quoted(self.description)}"]
        if self.objects:
            lines.append("objects:")
            lines += [f"  - {{type: {_scalar(t)}, at: [{c}, {r}]}}" for t, (c, r) in self.objects]
        else:
            lines.append("objects: []")
        lines.append("hazards: [" + ", ".join(_scalar(h) for h in self.hazards) + "]")
        if self.notes:
            lines.append(f"notes: {_quoted(self.notes)}")
        return "\n".join(lines) + "\n"


_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_ '.,!?()-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "~"}


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text, ensure_ascii=False)


def _scalar(text: str) -> str:
    """Plain when YAML reads it back as the same string, quoted otherwise."""
    plain = (_PLAIN.fullmatch(text) is not None and text == text.strip() and text.lower() not in _YAML_WORDS
             and not re.fullmatch(r"[-+]?[0-9._eE]+", text))
    return text if plain else _quoted(text)


def _start_note(cell: Cell, object_type: str) -> str | None:
    seat = starting_squares().get(cell)
    if seat is None:
        return None
    return (f"[{cell[0]}, {cell[1]}] is the {seat} seat's starting square: the barge is refused until "
            f"the {object_type} is moved (pg.9)")


# ---------------------------------------------------------------- type order and loading

def _type_group(flags: Mapping[str, Any]) -> int:
    """Fixed obstacles first, then what can be broken, then hazard pieces, then floor tiles."""
    if flags.get("tile"):
        return 3
    if flags.get("blocks"):
        return 1 if flags.get("destructible") else 0
    return 2


def placeable_types(ruleset: Ruleset) -> list[str]:
    """Every object type the loaded packs define: walls and columns, breakables, hazard pieces,
    tiles; the packs' own order within each group."""
    types = list(ruleset.data.get("objects", {}))
    return sorted(types, key=lambda t: _type_group(ruleset.object_flags(t)))  # sorted() is stable


def load_barge(ruleset: Ruleset, barge_id: str) -> BargeDraft:
    """A draft of a barge the loaded packs hold (the last pack defining the id wins)."""
    data = ruleset.data_item("barges", barge_id)
    if data is None:
        known = set(ruleset.data.get("barges", {}))
        hint = did_you_mean(barge_id, known)
        raise KeyError(f"no barge `{barge_id}` in the loaded packs" + (f" ({hint})" if hint else ""))
    return BargeDraft.from_data(data)


# ---------------------------------------------------------------- saving

BARGES_FILE = "barges.yaml"


def barges_file(pack_folder: str | Path) -> Path:
    """Where a pack keeps its barges: `barges.yaml` at the top of its folder (not yet confined: save
    through `barges_path`)."""
    return Path(pack_folder) / BARGES_FILE


def barges_path(content_root: str | Path, pack_id: str) -> Path:
    """The barges file of a pack under the content root, confined (`store.safe_path`): a pack that
    is not a plain folder inside the root, or a `barges.yaml` that is a symbolic link, is a
    `StoreError`, never written through."""
    return safe_path(Path(content_root), pack_id, BARGES_FILE)


def save_barge(draft: BargeDraft, path: str | Path, expected_fingerprint: str, *, overwrite: bool = False,
               context: Ruleset | None = None, content_root: Path | None = None) -> Saved:
    """Replace the entry with the draft's id in a barges file, or append it, through the safe store:
    confined to the content root (or the file's pack) with no symbolic link on the way, atomic, under
    the file's lock, the previous version kept, a file changed on disk since it was opened refused
    (`ConflictError`), a barge that does not validate refused (`InvalidContentError`). Find the file
    with `barges_path` and open it with `store.open_for_edit` to get `expected_fingerprint`."""
    return save_data_item(Path(path), draft.to_yaml(), expected_fingerprint, overwrite=overwrite,
                          context=context, content_root=content_root)
