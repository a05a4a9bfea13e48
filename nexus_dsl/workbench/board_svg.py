"""Pictures of the 8x8 board as self-contained SVG text (no drawing library, no external files).

`barge_svg` draws a barge schematic: the grid with its column and row numbers (IDS.md: col 1..8
west to east, row 1..8 north to south), the north end marked, the four starting squares with their
seats, every object by its `symbol` (objects.yaml) in a colour per kind, and a legend.
`bout_svg` draws the same board from a bout's state plus the helots: a coloured token with the
helot's label, an arrow for its facing, a badge per state, and a fallen helot drawn faded and
crossed out.

The output is deterministic (same input, same text) and every element a test or a page may look
for carries a `class` and `data-*` attributes (`data-col`, `data-row`, `data-type`, ...), so callers
check structure with `xml.etree.ElementTree`, not pixels. Every text is escaped.

What a click may choose carries a `data-target` (the board view component reports it): each square
`sq:COL,ROW` (an object answers as its square), each helot `piece:LABEL`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..content.barge_checks import BOARD_SIZE, starting_squares
from ..model.ruleset import Ruleset
from ..syntax import ast_nodes as A
from .svg_tree import SVG_NS, svg_text
from .svg_tree import element as _element
from .svg_tree import group as _group

__all__ = ["CELL", "OBJECT_KINDS", "barge_element", "barge_svg", "bout_svg", "piece_target", "square_of_target", "square_origin",
           "square_target"]

CELL = 48  # one square, in SVG units
MARGIN_LEFT = 32  # room for the row numbers
MARGIN_TOP = 56  # room for the north marker and the column numbers
MARGIN_BOTTOM = 40  # room for the south label
LEGEND_WIDTH = 220
BOARD = CELL * BOARD_SIZE

# A colour per kind of object (fill, text); an object type not listed here is drawn generically.
OBJECT_KINDS: dict[str, str] = {
    "wall": "stone", "pillar": "stone",
    "crate": "wood",
    "brazier": "fire", "brazier_down": "fire", "fire": "fire",
    "blood": "blood",
    "guts": "guts",
    "floor_saw": "steel", "floor_spikes": "steel",
}
KIND_COLOURS: dict[str, tuple[str, str]] = {
    "stone": ("#8c8c8c", "#ffffff"),
    "wood": ("#8b5a2b", "#ffffff"),
    "fire": ("#f28c28", "#3b1d00"),
    "blood": ("#c62828", "#ffffff"),
    "guts": ("#6d1b1b", "#ffffff"),
    "steel": ("#7b8fa1", "#ffffff"),
    "other": ("#d9d2e9", "#2d2540"),
}
# Helot tokens: one colour per seat, in the order seats are taken (pg.9).
SEAT_COLOURS = {"south": "#d32f2f", "north": "#1976d2", "west": "#388e3c", "east": "#fbc02d"}
TOKEN_FALLBACK = "#6a1b9a"
# A state's badge where its declaration gives none: its first letter on grey.
BADGE_FALLBACK_COLOUR = "#424242"
# Arrow offsets (dx, dy) per facing, with north up: dy grows southwards.
FACING_VECTORS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
                  "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}


def square_origin(col: int, row: int) -> tuple[int, int]:
    """The top-left corner of square [col, row] in the picture (north at the top)."""
    return MARGIN_LEFT + (col - 1) * CELL, MARGIN_TOP + (row - 1) * CELL


# ---------------------------------------------------------------- the document
def _svg(width: int, height: int, title: str, parts: Iterable[ET.Element]) -> ET.Element:
    svg = _element("svg", xmlns=SVG_NS, width=width, height=height, viewBox=f"0 0 {width} {height}",
                   font_family="sans-serif", font_size=12)
    svg.append(_element("title", title))
    svg.extend(parts)
    return svg


def _document(width: int, height: int, title: str, parts: Iterable[ET.Element]) -> str:
    return svg_text(_svg(width, height, title, parts))


def square_target(col: int, row: int) -> str:
    """What a click on square [col, row] reports (`data-target`), in the board's own coordinates."""
    return f"sq:{col},{row}"


def square_of_target(target: str) -> tuple[int, int] | None:
    """The square `(col, row)` a `square_target` names; None for any other target or off the board."""
    prefix, _, rest = target.partition(":")
    col, comma, row = rest.partition(",")
    if prefix != "sq" or not comma or not (col.isdigit() and row.isdigit()):
        return None
    square = int(col), int(row)
    return square if 1 <= square[0] <= BOARD_SIZE and 1 <= square[1] <= BOARD_SIZE else None


def piece_target(label: str) -> str:
    """What a click on a helot's token reports (`data-target`)."""
    return f"piece:{label}"


# ---------------------------------------------------------------- the board

@dataclass(frozen=True)
class _Piece:
    object_type: str
    col: int
    row: int


def _board(title: str) -> list[ET.Element]:
    """The frame, the squares, the numbers, the north and south ends."""
    parts = [_element("rect", class_="board", x=MARGIN_LEFT, y=MARGIN_TOP, width=BOARD, height=BOARD,
                      fill="#f3ead7", stroke="#333333", stroke_width=2)]
    squares: list[ET.Element] = []
    for row in range(1, BOARD_SIZE + 1):
        for col in range(1, BOARD_SIZE + 1):
            x, y = square_origin(col, row)
            squares.append(_element("rect", class_="square", data_col=col, data_row=row,
                                    data_target=square_target(col, row), x=x, y=y,
                                    width=CELL, height=CELL, fill="none", stroke="#b8a988"))
    parts.append(_group(squares, class_="grid"))
    columns = [_element("text", str(col), class_="col-label", data_col=col, x=square_origin(col, 1)[0] + CELL // 2,
                        y=MARGIN_TOP - 6, text_anchor="middle") for col in range(1, BOARD_SIZE + 1)]
    rows = [_element("text", str(row), class_="row-label", data_row=row, x=MARGIN_LEFT - 8,
                     y=square_origin(1, row)[1] + CELL // 2 + 4, text_anchor="end") for row in range(1, BOARD_SIZE + 1)]
    parts.append(_group(columns, class_="col-labels"))
    parts.append(_group(rows, class_="row-labels"))
    middle = MARGIN_LEFT + BOARD // 2
    parts.append(_group([
        _element("polygon", points=f"{middle - 8},{24} {middle + 8},{24} {middle},{10}", fill="#333333"),
        _element("text", "NORTH", x=middle, y=38, text_anchor="middle", font_weight="bold"),
    ], class_="north", data_side="north"))
    parts.append(_element("text", "south", class_="south", x=middle, y=MARGIN_TOP + BOARD + 22,
                          text_anchor="middle", fill="#555555"))
    return parts


def _starting_squares() -> list[ET.Element]:
    marks: list[ET.Element] = []
    for (col, row), seat in starting_squares().items():
        x, y = square_origin(col, row)
        marks.append(_group([
            _element("rect", x=x + 2, y=y + 2, width=CELL - 4, height=CELL - 4, fill="none",
                     stroke=SEAT_COLOURS.get(seat, TOKEN_FALLBACK), stroke_width=2, stroke_dasharray="4 3"),
            _element("text", seat, x=x + CELL // 2, y=y + CELL - 5, text_anchor="middle", font_size=9,
                     fill="#444444"),
        ], class_="start", data_seat=seat, data_col=col, data_row=row))
    return marks


def _kind(object_type: str) -> str:
    return OBJECT_KINDS.get(object_type, "other")


def _symbol(object_type: str, ruleset: Ruleset) -> str:
    return str(ruleset.object_flags(object_type).get("symbol") or object_type[:2].upper())


def _object_name(object_type: str, ruleset: Ruleset) -> str:
    return str(ruleset.object_flags(object_type).get("name") or object_type)


def _pieces(pieces: list[_Piece], ruleset: Ruleset) -> list[ET.Element]:
    """Each piece on its square; a second object on the same square (fire on blood) drawn smaller."""
    drawn: list[ET.Element] = []
    stacked: dict[tuple[int, int], int] = {}
    for piece in pieces:
        depth = stacked.get((piece.col, piece.row), 0)
        stacked[(piece.col, piece.row)] = depth + 1
        kind = _kind(piece.object_type)
        fill, ink = KIND_COLOURS[kind]
        inset = 5 + 7 * depth
        x, y = square_origin(piece.col, piece.row)
        flags = ruleset.object_flags(piece.object_type)
        shape = _element("rect", x=x + inset, y=y + inset, width=CELL - 2 * inset, height=CELL - 2 * inset,
                         rx=CELL // 2 if kind == "stone" and piece.object_type != "wall" else (2 if flags.get("tile") else 4),
                         fill=fill, stroke="#222222" if kind != "other" else "#6b5b95",
                         stroke_dasharray="3 2" if kind == "other" else None, opacity=0.92)
        label = _element("text", _symbol(piece.object_type, ruleset), x=x + CELL // 2, y=y + CELL // 2 + 4,
                         text_anchor="middle", font_weight="bold", fill=ink)
        drawn.append(_group([_element("title", _object_name(piece.object_type, ruleset)), shape, label],
                            class_="object", data_type=piece.object_type, data_kind=kind,
                            data_col=piece.col, data_row=piece.row,
                            # an object answers a click as its square does
                            data_target=square_target(piece.col, piece.row)))
    return drawn


def _legend(object_types: list[str], ruleset: Ruleset, extra: list[tuple[str, str, str]]) -> list[ET.Element]:
    """Every object type drawn (symbol, colour, name), the starting squares, and `extra` rows
    (class, mark, words) for what the bout picture adds."""
    left = MARGIN_LEFT + BOARD + 24
    entries = [_element("text", "Key", x=left, y=MARGIN_TOP + 4, font_weight="bold")]
    y = MARGIN_TOP + 24
    for object_type in object_types:
        fill, ink = KIND_COLOURS[_kind(object_type)]
        entries.append(_group([
            _element("rect", x=left, y=y - 13, width=26, height=18, rx=3, fill=fill, stroke="#222222"),
            _element("text", _symbol(object_type, ruleset), x=left + 13, y=y, text_anchor="middle",
                     font_size=10, font_weight="bold", fill=ink),
            _element("text", _object_name(object_type, ruleset), x=left + 34, y=y),
        ], class_="legend-entry", data_type=object_type))
        y += 22
    entries.append(_group([
        _element("rect", x=left, y=y - 13, width=26, height=18, fill="none", stroke="#555555",
                 stroke_dasharray="4 3", stroke_width=2),
        _element("text", "starting square (seat)", x=left + 34, y=y),
    ], class_="legend-entry", data_type="start"))
    y += 22
    for css_class, mark, words in extra:
        entries.append(_group([
            _element("text", mark, x=left + 13, y=y, text_anchor="middle", font_weight="bold"),
            _element("text", words, x=left + 34, y=y),
        ], class_="legend-entry", data_type=css_class))
        y += 22
    return [_group(entries, class_="legend")]


def _height(legend_rows: int) -> int:
    return max(MARGIN_TOP + BOARD + MARGIN_BOTTOM, MARGIN_TOP + 40 + 22 * legend_rows)


def _ordered_types(pieces: list[_Piece], ruleset: Ruleset) -> list[str]:
    """The drawn types in the packs' order (objects.yaml), then any unknown type by name."""
    present = {p.object_type for p in pieces}
    known = [t for t in ruleset.data.get("objects", {}) if t in present]
    return known + sorted(present - set(known))


# ---------------------------------------------------------------- public pictures

def barge_svg(barge_data: Mapping[str, Any], ruleset: Ruleset) -> str:
    """A barge schematic (barges.yaml item data) as SVG text."""
    return ET.tostring(barge_element(barge_data, ruleset), encoding="unicode")


def barge_element(barge_data: Mapping[str, Any], ruleset: Ruleset) -> ET.Element:
    """A barge schematic as an SVG element, to be placed inside another picture (a printed page)."""
    pieces = [_Piece(str(o["type"]), int(o["at"][0]), int(o["at"][1])) for o in barge_data.get("objects", [])
              if _on_board(o.get("at"))]
    types = _ordered_types(pieces, ruleset)
    title = str(barge_data.get("name") or barge_data.get("id") or "barge")
    parts = _board(title) + _starting_squares() + [_group(_pieces(pieces, ruleset), class_="objects")]
    parts += _legend(types, ruleset, [])
    width = MARGIN_LEFT + BOARD + LEGEND_WIDTH
    return _svg(width, _height(len(types) + 2), title, parts)


def _on_board(at: Any) -> bool:
    try:
        col, row = int(at[0]), int(at[1])
    except (TypeError, ValueError, IndexError, KeyError):
        return False
    return 1 <= col <= BOARD_SIZE and 1 <= row <= BOARD_SIZE


def _snapshot_of(bout_state: Any) -> Mapping[str, Any]:
    """A scenario-style snapshot from a `Bout`, a `BoutState` or a snapshot dict."""
    if hasattr(bout_state, "snapshot"):
        return bout_state.snapshot()
    if isinstance(bout_state, Mapping):
        return bout_state
    snap: dict[str, Any] = {"cycle": bout_state.cycle,
                            "board": {sq.key(): list(objs) for sq, objs in sorted(bout_state.objects.items())}}
    for label, helot in bout_state.pieces.items():
        snap[label] = {"at": helot.square.as_list(), "facing": helot.facing.name, "states": sorted(helot.states),
                       "status": helot.status.value, "seat": helot.seat, "on_board": helot.on_board,
                       "weapon": helot.weapon}
    return snap


def _helots_of(snapshot: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    return [(label, value) for label, value in snapshot.items()
            if isinstance(value, Mapping) and "at" in value and "facing" in value]


def state_badges(ruleset: Ruleset) -> dict[str, tuple[str, str]]:
    """Each declared state with a `badge`: its letters and colour, in load order (content/base
    declares the base game's: `states/states.nexus`)."""
    badges: dict[str, tuple[str, str]] = {}
    for state in ruleset.declarations("state"):
        badge = state.property("badge")
        if badge is None or not badge.values or not isinstance(badge.values[0], A.Str):
            continue
        colour = state.property("colour")
        fill = colour.values[0].value if colour and colour.values and isinstance(colour.values[0], A.Str) else None
        badges[state.id] = (badge.values[0].value, fill or BADGE_FALLBACK_COLOUR)
    return badges


def _token(index: int, label: str, helot: Mapping[str, Any], badges: Mapping[str, tuple[str, str]]) -> ET.Element:
    col, row = int(helot["at"][0]), int(helot["at"][1])
    x, y = square_origin(col, row)
    cx, cy = x + CELL // 2, y + CELL // 2
    status = str(helot.get("status", "fighting"))
    fallen = status != "fighting"
    colour = SEAT_COLOURS.get(str(helot.get("seat")), TOKEN_FALLBACK)
    radius = CELL // 2 - 7
    parts = [_element("title", f"{label} ({status})")]
    dx, dy = FACING_VECTORS.get(str(helot.get("facing")), (0, 0))
    if not fallen and (dx or dy):
        length = CELL // 2 - 2
        norm = (dx * dx + dy * dy) ** 0.5
        tip_x, tip_y = cx + round(dx / norm * length), cy + round(dy / norm * length)
        parts.append(_element("line", class_="facing", data_facing=helot.get("facing"), x1=cx, y1=cy,
                              x2=tip_x, y2=tip_y, stroke="#111111", stroke_width=3, marker_end="url(#arrowhead)"))
    parts.append(_element("circle", class_="token", cx=cx, cy=cy, r=radius,
                          fill="#bdbdbd" if fallen else colour, stroke="#111111",
                          stroke_width=1 if fallen else 2, stroke_dasharray="3 2" if fallen else None,
                          opacity=0.55 if fallen else 1))
    parts.append(_element("text", label[:6], class_="helot-label", x=cx, y=cy + 4, text_anchor="middle",
                          font_size=10, font_weight="bold", fill="#111111" if fallen else "#ffffff"))
    if fallen:  # a cross over a helot out of the fight
        parts.append(_group([
            _element("line", x1=cx - radius, y1=cy - radius, x2=cx + radius, y2=cy + radius, stroke="#000000", stroke_width=2),
            _element("line", x1=cx - radius, y1=cy + radius, x2=cx + radius, y2=cy - radius, stroke="#000000", stroke_width=2),
        ], class_="fallen-mark", data_status=status))
    for slot, state in enumerate(helot.get("states", [])):
        letter, fill = badges.get(state, (state[:1].upper(), BADGE_FALLBACK_COLOUR))
        bx, by = x + 7 + 11 * (slot % 4), y + 7 + 11 * (slot // 4)
        parts.append(_group([
            _element("circle", cx=bx, cy=by, r=5, fill=fill, stroke="#ffffff"),
            _element("text", letter, x=bx, y=by + 3, text_anchor="middle", font_size=7, fill="#ffffff"),
        ], class_="badge", data_state=state))
    return _group(parts, class_="helot", data_label=label, data_target=piece_target(label), data_seat=helot.get("seat"), data_status=status,
                  data_col=col, data_row=row, data_facing=helot.get("facing"), data_index=index)


def _arrowhead() -> ET.Element:
    marker = _element("marker", id="arrowhead", markerWidth=6, markerHeight=6, refX=3, refY=3, orient="auto")
    marker.append(_element("path", d="M0,0 L6,3 L0,6 z", fill="#111111"))
    defs = _element("defs")
    defs.append(marker)
    return defs


def bout_svg(bout_state: Any, ruleset: Ruleset) -> str:
    """The board of a bout (a `Bout`, its `BoutState`, or a snapshot dict as `Bout.snapshot()` or
    `PlaySession.visible_state()` gives) with every helot on it, as SVG text."""
    snapshot = _snapshot_of(bout_state)
    pieces: list[_Piece] = []
    for key, objects in sorted(dict(snapshot.get("board", {})).items(),
                               key=lambda item: tuple(int(n) for n in item[0].split(","))):
        col, row = (int(n) for n in key.split(","))
        pieces.extend(_Piece(str(t), col, row) for t in objects)
    types = _ordered_types(pieces, ruleset)
    helots = _helots_of(snapshot)
    # A fallen helot whose figure gave way to guts is still drawn (faded, crossed) where it fell.
    badges = state_badges(ruleset)
    tokens = [_token(index, label, helot, badges) for index, (label, helot) in enumerate(helots)
              if _on_board(helot.get("at"))]
    extra = [(f"state-{state}", letter, state) for state, (letter, _fill) in badges.items()]
    extra.append(("fallen", "X", "incapacitated or dead"))
    title = f"Bout, cycle {snapshot.get('cycle', '?')}"
    parts = [_arrowhead()] + _board(title) + _starting_squares() + [_group(_pieces(pieces, ruleset), class_="objects")]
    parts.append(_group(tokens, class_="helots"))
    parts += _legend(types, ruleset, extra)
    width = MARGIN_LEFT + BOARD + LEGEND_WIDTH
    return _document(width, _height(len(types) + 2 + len(extra)), title, parts)
