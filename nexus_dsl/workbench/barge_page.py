"""A barge schematic laid out as one printed page (A4 or Letter), for `nexus print --barges`.

The page holds the barge's name, its pack and id, its description, the very picture the barge
editor draws (`board_svg.barge_element`: the grid, north, the starting squares, every object by its
symbol and the key of those symbols), what it places and names as the content browser's face says
it (`cards.data_face`), and a legend of its hazards: each by name with the text its card prints.
The hazards are those the barge names, then those its pieces bring into play without being named
(as the barge editor finds them), so every rule the board can wake is on the page.

Text is measured and wrapped as on the card faces (`card_svg.wrap`), in the same type; a legend too
long for the page is set smaller, down to the faces' smallest type, and then cut at the page's foot
with a note, never drawn past it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..cards.faces import data_face, script_face
from ..model.ruleset import DataItem, Ruleset
from . import board_svg
from .barge_edit import BargeDraft
from .card_svg import FONT, SMALLEST_TYPE, PageSize, page_svg, wrap
from .xml_text import xml_text

__all__ = ["barge_page", "hazard_legend"]

MARGIN = 12.0  # mm on every side
TITLE_SIZE, SUBTITLE_SIZE = 7.0, 3.2
LARGEST_LEGEND_TYPE = 3.2
LINE_SPACING = 1.3
GAP = 3.0  # mm between the page's blocks
PICTURE_HEIGHT = 125.0  # mm at most: the board picture leaves the rest of the page to the legend
INK, QUIET = "#212121", "#616161"


@dataclass(frozen=True)
class _Text:
    """One line of the page below the title: its words, size (mm) and style."""

    text: str
    size: float
    bold: bool = False
    italic: bool = False
    space_above: float = 0.0  # mm, parting a heading from what comes before it


def hazard_legend(barge: DataItem, ruleset: Ruleset) -> list[tuple[str, str]]:
    """The hazards of the barge, each as (name, the text its card prints): those it names in its
    order, then those its pieces wake that it does not name. The card's text is the designer's
    prose where it has one, else its rules text in words."""
    draft = BargeDraft.from_data(barge.data)
    chosen = list(dict.fromkeys(draft.hazards + list(draft.woken_hazards(ruleset))))
    hazards = ruleset.scripts.get("hazard", {})
    legend = []
    for ident in chosen:
        item = hazards.get(ident)
        if item is None:  # a dangling name is reported by `nexus check`; the page still names it
            legend.append((ident, ""))
            continue
        face = script_face(item, dict(ruleset.settings), ruleset)
        legend.append((face.name, face.prose or " ".join(line.strip() for line in face.lines)))
    return legend


def _legend_lines(barge: DataItem, ruleset: Ruleset, size: float, width: float) -> list[_Text]:
    lines = [_Text(part, size) for line in data_face(barge, ruleset).lines for part in wrap(line, width, size)]
    legend = hazard_legend(barge, ruleset)
    if legend:
        lines.append(_Text("Hazards", size * 1.15, bold=True, space_above=size))
    for name, text in legend:
        lines.append(_Text(name, size, bold=True))
        lines += [_Text(part, size) for part in wrap(text, width, size)] if text else []
    return lines


def _height(lines: list[_Text]) -> float:
    return sum(line.space_above + line.size * LINE_SPACING for line in lines)


def _fitted_legend(barge: DataItem, ruleset: Ruleset, width: float, room: float) -> list[_Text]:
    """The legend at the largest type that fits `room` (mm); at the smallest, cut to fit with a note."""
    size = LARGEST_LEGEND_TYPE
    while True:
        lines = _legend_lines(barge, ruleset, size, width)
        if _height(lines) <= room:
            return lines
        if size <= SMALLEST_TYPE:
            break
        size = max(SMALLEST_TYPE, round(size - 0.2, 2))
    note = _Text("(the rest is on the hazards' cards: nexus print --kinds hazard)", size, italic=True)
    while lines and _height(lines) + note.size * LINE_SPACING > room:
        lines.pop()
    return lines + [note]


def _write(page: ET.Element, line: _Text, x: float, y: float, css_class: str) -> None:
    attributes = {"x": f"{x:.2f}", "y": f"{y:.2f}", "font-size": f"{line.size:.2f}", "font-family": FONT,
                  "fill": QUIET if line.italic else INK, "class": css_class}
    if line.bold:
        attributes["font-weight"] = "bold"
    if line.italic:
        attributes["font-style"] = "italic"
    ET.SubElement(page, "text", attributes).text = xml_text(line.text)


def barge_page(barge: DataItem, ruleset: Ruleset, size: PageSize) -> ET.Element:
    """The barge's page: an SVG of `size`, drawn in millimetres."""
    page = page_svg(size, "barge-page")
    page.set("data-barge", barge.id)
    width = size.width - 2 * MARGIN
    name = str(barge.data.get("name") or barge.id)
    pack_name = next((pack.name for pack in ruleset.packs if pack.id == barge.origin.pack), barge.origin.pack)
    y = MARGIN + TITLE_SIZE
    _write(page, _Text(wrap(name, width, TITLE_SIZE)[0], TITLE_SIZE, bold=True), MARGIN, y, "barge-name")
    heading = [_Text(part, SUBTITLE_SIZE, italic=True)
               for part in wrap(f"{ruleset.game.layout_word.capitalize()} schematic \u00b7 {pack_name} \u00b7 {barge.id}",
                                width, SUBTITLE_SIZE)]
    description = str(barge.data.get("description") or "")
    heading += [_Text(part, SUBTITLE_SIZE) for part in wrap(description, width, SUBTITLE_SIZE)] if description else []
    y += GAP
    for line in heading:
        y += line.size * LINE_SPACING
        _write(page, line, MARGIN, y, "barge-heading")
    y += GAP
    picture = board_svg.barge_element(barge.data, ruleset)
    aspect = float(picture.get("height", 1)) / float(picture.get("width", 1))
    picture_width = min(width, PICTURE_HEIGHT / aspect)
    picture.set("x", f"{MARGIN + (width - picture_width) / 2:.2f}")
    picture.set("y", f"{y:.2f}")
    picture.set("width", f"{picture_width:.2f}")
    picture.set("height", f"{picture_width * aspect:.2f}")
    picture.set("class", "barge-picture")
    page.append(picture)
    y += picture_width * aspect + GAP
    for line in _fitted_legend(barge, ruleset, width, size.height - MARGIN - y):
        y += line.space_above + line.size * LINE_SPACING
        _write(page, line, MARGIN, y - line.size * 0.25, "barge-legend")
    return page
