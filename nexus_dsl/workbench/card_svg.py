"""A card face drawn to print: an SVG of poker size (63 x 88 mm) in units of millimetres.

`face_svgs(face)` draws a face — a frame coloured by its kind, the name, the type line (its kind and
tags), its costs as badges, the generated rules text wrapped to fit the text box, the designer's
`text` and `flavor` in italics, the pack's name small at the foot — as one SVG, or more where the text is too
long for one card even at the smallest type: the text then continues on the next face, never cut.
`sheet_pages(faces, size)` lays faces out nine to an A4 or Letter page with crop marks, one SVG a page;
`print_sheets(faces)` makes those pages an XHTML document a browser prints page by page, and
`nexus print` a PDF (`workbench/print_pdf.py`): the same pages either way.

The document is built with `xml.etree.ElementTree`, which escapes every text and attribute: a card's
name is the card's words, never markup. Text is measured with a fixed table of character widths (a
little wider than common sans-serif faces draw them), so what is laid out fits where it is printed.
A face's SVG documents are kept by everything the face says (`CardFace.fingerprint`), with its pack's
name and the kind it is drawn as, so the editor's pages draw each face once however often they run.
"""

from __future__ import annotations

import math
import threading
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from typing import Iterable

from cachetools import LRUCache

from ..cards import CardFace
from ..model.ruleset import Ruleset
from .xml_text import xml_text

SVG_NS = "http://www.w3.org/2000/svg"
XHTML_NS = "http://www.w3.org/1999/xhtml"

CARD_WIDTH, CARD_HEIGHT = 63.0, 88.0  # mm, poker size
PER_ROW, PER_COLUMN = 3, 3
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Courier New, monospace"

# The text box, inside the frame: its left, top, width and height (mm).
BOX_X, BOX_Y, BOX_WIDTH, BOX_HEIGHT = 5.0, 19.0, 53.0, 59.0
PADDING = 1.2
LARGEST_TYPE, SMALLEST_TYPE = 2.8, 1.7  # mm, the rules text's font size
LINE_SPACING = 1.22
INDENT = 1.6  # mm for each level of a nested rule

# The colour of a face's frame by the language's kind (a kind a pack declares is drawn as the kind it
# is like); any other kind (a game's data) takes one of OTHER_COLOURS by its name, the same each time.
KIND_COLOURS = {
    "command": "#6d4c41", "trait_ability": "#5e35b1", "hazard": "#c62828", "drawn_card": "#ef6c00",
    "hand_card": "#2e7d32", "weapon": "#455a64", "card": "#1565c0", "rule": "#37474f", "state": "#6a1b9a",
}
OTHER_COLOURS = ("#ad1457", "#00838f", "#795548", "#616161", "#827717", "#4e342e")

# How wide each character is drawn, as a share of the font size (an em); wider than most faces
# draw them, so measured text never runs past its box.
_NARROW = dict.fromkeys("il.,:;'|!ıj ", 0.34) | dict.fromkeys("frt()[]-\u201c\u201d\u2019\"", 0.42)
_WIDE = dict.fromkeys("mwMW@", 0.95) | dict.fromkeys("ABCDEFGHKNOQRUVXYZ&%", 0.78)
_MONO_WIDTH = 0.62
_KEPT_WIDTHS = 4096  # characters whose width is kept once looked up (any text may bring any character)


class _Widths(dict[str, float]):
    """Each character's width (a share of an em), kept once looked up: `text_width` sums them in C."""

    def __missing__(self, ch: str) -> float:
        width = _NARROW.get(ch, _WIDE.get(ch, 0.72 if ch.isupper() or ch.isdigit() else 0.62))
        if len(self) < _KEPT_WIDTHS:
            self[ch] = width
        return width


_WIDTHS = _Widths()


def _ems(text: str) -> float:
    """How wide `text` is drawn, in ems."""
    return sum(map(_WIDTHS.__getitem__, text))


def text_width(text: str, size: float, mono: bool = False) -> float:
    """How wide `text` is drawn at `size` (mm)."""
    if mono:
        return len(text) * _MONO_WIDTH * size
    return _ems(text) * size


def wrap(text: str, width: float, size: float) -> list[str]:
    """`text` broken into lines no wider than `width` at `size`; a word wider than a line is split."""
    lines: list[str] = []
    current = ""
    current_ems = 0.0  # the current line's width in ems: its characters' widths added in order, as `text_width` adds them
    space = _WIDTHS[" "]
    for word in text.split():
        if current:
            # The line with the word, its width added on from the line's: the same sum `text_width` makes.
            candidate_ems = sum(map(_WIDTHS.__getitem__, word), current_ems + space)
            if candidate_ems * size <= width:
                current, current_ems = f"{current} {word}", candidate_ems
                continue
            lines.append(current)
        ems = _ems(word)
        while ems * size > width:
            cut = next((i for i in range(len(word), 0, -1) if text_width(word[:i], size) <= width), 1)
            lines.append(word[:cut])
            word = word[cut:]
            ems = _ems(word)
        current, current_ems = word, ems
    if current or not lines:
        lines.append(current)
    return lines


@dataclass(frozen=True)
class Line:
    """One printed line of the text box: its words, how far it is indented (mm), its style."""

    text: str
    indent: float = 0.0
    italic: bool = False
    mono: bool = False
    rule_above: bool = False  # a thin rule parts the rules text from the flavour text


def badges_of(face: CardFace) -> list[str]:
    """The costs drawn as badges (`2 AP`, `5 PHYS`): where every amount is a number; a cost that is
    worked out in play stays a line of the rules text, in words."""
    if not all(amount.isdigit() for amount, _ in face.costs):
        return []
    return [f"{amount} {resource}" for amount, resource in face.costs]


def _paragraphs(face: CardFace) -> list[tuple[str, int, str]]:
    """The face's text as (words, depth, style), style `rule`, `flavour` or `figure`; the cost line
    is left out, shown as badges."""
    found: list[tuple[str, int, str]] = []
    for line in face.lines:
        if line.startswith("Cost: ") and badges_of(face):
            continue
        stripped = line.lstrip(" ")
        depth = (len(line) - len(stripped)) // 2
        found.append((stripped, depth, "rule"))
    found += [(line, 0, "figure") for line in face.figure]
    if face.assumed:
        found.append((f"Assumed value: {face.assumed}", 0, "rule"))
    if face.prose:
        found.append((face.prose, 0, "flavour"))
    if face.flavor and face.flavor != face.prose:
        found.append((face.flavor, 0, "flavour"))
    return found


def lay_out(face: CardFace, size: float) -> list[Line]:
    """The face's text broken into lines at `size`."""
    inner = BOX_WIDTH - 2 * PADDING
    lines: list[Line] = []
    for text, depth, style in _paragraphs(face):
        if style == "figure":
            lines.append(Line(text, mono=True))
            continue
        indent = depth * INDENT
        for index, part in enumerate(wrap(text, inner - indent - (INDENT if text.startswith("- ") else 0), size)):
            hanging = INDENT if index and text.startswith("- ") else 0.0
            lines.append(Line(part, indent + hanging, italic=style == "flavour",
                              rule_above=style == "flavour" and index == 0 and bool(lines) and not lines[-1].italic))
    return lines


def _fewest_lines(face: CardFace, size: float) -> int:
    """As few lines as `lay_out` can break the face's text into at `size`, without breaking it: a
    line is never wider than its width, and only the spaces where a paragraph breaks go unprinted,
    so a paragraph as wide as W (its words a space apart) takes (W + space) / (width + space) lines
    at least. (Where a line is too narrow for a character, a paragraph counts one line.)"""
    inner = BOX_WIDTH - 2 * PADDING
    space = _WIDTHS[" "] * size
    count = 0
    for text, depth, style in _paragraphs(face):
        width = inner - depth * INDENT - (INDENT if text.startswith("- ") else 0)
        if style == "figure" or width < 3 * size:
            count += 1
            continue
        whole = _ems(" ".join(text.split())) * size
        count += max(1, math.ceil((whole + space) / (width + space) - 1e-6))
    return count


def _fits(lines: list[Line], size: float) -> bool:
    mono_size = _mono_size(lines)
    return (len(lines) * size * LINE_SPACING <= BOX_HEIGHT - 2 * PADDING
            and all(text_width(line.text, mono_size if line.mono else size, line.mono) + line.indent
                    <= BOX_WIDTH - 2 * PADDING for line in lines))


def _mono_size(lines: list[Line]) -> float:
    """The size of a figure's lines: as large as fits the box's width, at most the smallest type."""
    longest = max((len(line.text) for line in lines if line.mono), default=0)
    return min(SMALLEST_TYPE, (BOX_WIDTH - 2 * PADDING) / (longest * _MONO_WIDTH)) if longest else SMALLEST_TYPE


def fitted(face: CardFace) -> tuple[float, list[list[Line]]]:
    """The largest type the text fits the box at, and its lines on each face: one face where it
    fits at the smallest type or larger, else the lines continued over as many as it takes."""
    size = LARGEST_TYPE
    while size > SMALLEST_TYPE:
        # Laid out only at a size its text may fit at: one its fewest lines overflow is passed over.
        if _fewest_lines(face, size) * size * LINE_SPACING <= BOX_HEIGHT - 2 * PADDING + 1e-6:
            lines = lay_out(face, size)
            if _fits(lines, size):
                return size, [lines]
        size = round(size - 0.1, 2)
    lines = lay_out(face, SMALLEST_TYPE)
    per_face = int((BOX_HEIGHT - 2 * PADDING) // (SMALLEST_TYPE * LINE_SPACING)) - 1  # a line for "continued"
    return SMALLEST_TYPE, [lines[start:start + per_face] for start in range(0, len(lines), per_face)]


def _el(parent: ET.Element, tag: str, text: str | None = None, **attributes: str | float) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): xml_text(_number(v))
                                          for k, v in attributes.items()})
    if text is not None:
        element.text = xml_text(text)
    return element


def _number(value: str | float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def colour_of(face: CardFace, base_kind: str | None = None) -> str:
    kind = base_kind or face.kind
    return KIND_COLOURS.get(kind) or OTHER_COLOURS[zlib.crc32(kind.encode()) % len(OTHER_COLOURS)]


def _fitting_size(text: str, width: float, largest: float, smallest: float) -> float:
    size = largest
    while size > smallest and text_width(text, size) > width:
        size = round(size - 0.1, 2)
    return size


def _face_element(face: CardFace, lines: list[Line], size: float, page: tuple[int, int], colour: str,
                  pack_name: str) -> ET.Element:
    svg = ET.Element("svg", {"xmlns": SVG_NS, "width": f"{_number(CARD_WIDTH)}mm", "height": f"{_number(CARD_HEIGHT)}mm",
                                         "viewBox": f"0 0 {_number(CARD_WIDTH)} {_number(CARD_HEIGHT)}",
                                         "class": "card-face" + (" continued" if page[0] > 1 else ""),
                                         "data-card": face.id})
    _el(svg, "title", face.name)
    _el(svg, "rect", x=0.0, y=0.0, width=CARD_WIDTH, height=CARD_HEIGHT, rx=3.0, fill=colour)
    _el(svg, "rect", x=2.5, y=2.5, width=CARD_WIDTH - 5, height=CARD_HEIGHT - 5, rx=2.0, fill="#fbf8f1")
    badges = badges_of(face)
    badge_width = sum(text_width(b, 2.2) + 2.4 for b in badges)
    name_width = CARD_WIDTH - 10 - (badge_width if len(badges) == 1 else 0)
    name_size = _fitting_size(face.name, name_width, 4.2, 2.2)
    name = wrap(face.name, name_width, name_size)[0] if text_width(face.name, name_size) > name_width else face.name
    _el(svg, "text", name, x=5.0, y=9.0, font_size=name_size, font_weight="bold", font_family=FONT, fill="#212121",
        class_="card-name")
    type_line = face.kind_title + (" \u2014 " + ", ".join(face.tags) if face.tags else "")
    if page[1] > 1:
        type_line += f" ({page[0]} of {page[1]})"
    type_size = _fitting_size(type_line, CARD_WIDTH - 10, 2.4, 1.4)
    _el(svg, "text", wrap(type_line, CARD_WIDTH - 10, type_size)[0], x=5.0, y=15.2, font_size=type_size,
        font_family=FONT, font_style="italic", fill="#424242", class_="card-type")
    _draw_badges(svg, badges, colour, y=4.2 if len(badges) == 1 else 10.6)
    _el(svg, "rect", x=BOX_X, y=BOX_Y, width=BOX_WIDTH, height=BOX_HEIGHT, rx=1.0, fill="#ffffff", stroke=colour,
        stroke_width=0.3, class_="card-text-box")
    _draw_text(svg, lines, size, continued=page[0] < page[1])
    foot = " \u00b7 ".join(part for part in (pack_name, face.id) if part)
    _el(svg, "text", foot, x=CARD_WIDTH / 2, y=CARD_HEIGHT - 5.6, font_size=_fitting_size(foot, CARD_WIDTH - 10, 1.6, 1.0),
        font_family=FONT, text_anchor="middle", fill="#616161", class_="card-foot")
    return svg


def _draw_badges(svg: ET.Element, badges: list[str], colour: str, y: float) -> None:
    """The costs, right-aligned: each a rounded badge of the kind's colour."""
    x = CARD_WIDTH - 5.0
    for badge in reversed(badges):
        width = text_width(badge, 2.2) + 2.4
        x -= width
        _el(svg, "rect", x=x, y=y, width=width, height=3.6, rx=1.8, fill=colour, class_="card-cost")
        _el(svg, "text", badge, x=x + width / 2, y=y + 2.7, font_size=2.2, font_weight="bold", font_family=FONT,
            text_anchor="middle", fill="#ffffff")
        x -= 0.8


def _draw_text(svg: ET.Element, lines: list[Line], size: float, continued: bool) -> None:
    group = _el(svg, "g", class_="card-rules")
    mono_size = _mono_size(lines)
    y = BOX_Y + PADDING
    for line in lines:
        line_size = mono_size if line.mono else size
        if line.rule_above:
            _el(group, "line", x1=BOX_X + PADDING, y1=y + 0.2, x2=BOX_X + BOX_WIDTH - PADDING, y2=y + 0.2,
                stroke="#bdbdbd", stroke_width=0.15)
        y += line_size * LINE_SPACING
        attributes: dict[str, str | float] = {"x": BOX_X + PADDING + line.indent, "y": y - line_size * 0.25,
                                              "font_size": line_size, "font_family": MONO if line.mono else FONT,
                                              "fill": "#212121"}
        if line.italic:
            attributes["font_style"] = "italic"
        _el(group, "text", line.text, **attributes)
    if continued:
        _el(group, "text", "continued on the next face \u2192", x=BOX_X + BOX_WIDTH - PADDING,
            y=BOX_Y + BOX_HEIGHT - PADDING, font_size=SMALLEST_TYPE, font_family=FONT, font_style="italic",
            text_anchor="end", fill="#616161")


def face_elements(face: CardFace, pack_name: str = "", base_kind: str | None = None) -> list[ET.Element]:
    """`face` drawn: one SVG element, or more where its text continues (see `fitted`)."""
    size, pages = fitted(face)
    colour = colour_of(face, base_kind)
    return [_face_element(face, lines, size, (index, len(pages)), colour, pack_name)
            for index, lines in enumerate(pages, start=1)]


#: Faces kept drawn, the most recently used: a page of the content browser shows 40, a pack a few hundred.
KEPT_FACES = 1024
_DRAWN: LRUCache[tuple, tuple[str, ...]] = LRUCache(maxsize=KEPT_FACES)
_DRAWN_LOCK = threading.Lock()  # the editor serves several sessions from threads; the cache is not thread-safe


def face_svgs(face: CardFace, pack_name: str = "", base_kind: str | None = None) -> list[str]:
    """`face` as SVG documents, one for each face its text takes (see `fitted`); drawn once for what
    the face says (`CardFace.fingerprint`), its pack's name and the kind it is drawn as."""
    key = (face.fingerprint(), pack_name, base_kind)
    with _DRAWN_LOCK:
        drawn = _DRAWN.get(key)
    if drawn is None:
        drawn = tuple(ET.tostring(element, encoding="unicode") for element in face_elements(face, pack_name, base_kind))
        with _DRAWN_LOCK:
            _DRAWN[key] = drawn
    return list(drawn)


def face_svg(face: CardFace, pack_name: str = "", base_kind: str | None = None) -> str:
    """`face`'s first (usually only) face as an SVG document."""
    return face_svgs(face, pack_name, base_kind)[0]


# ---------------------------------------------------------------- print-and-play sheets
@dataclass(frozen=True)
class PageSize:
    """A sheet of paper, in millimetres; `name` is its CSS `@page` size."""

    name: str
    width: float
    height: float

    @property
    def margin_x(self) -> float:
        """The margin left and right of the three columns of faces (mm)."""
        return (self.width - PER_ROW * CARD_WIDTH) / 2

    @property
    def margin_y(self) -> float:
        """The margin above and below the three rows of faces (mm)."""
        return (self.height - PER_COLUMN * CARD_HEIGHT) / 2


A4 = PageSize("A4", 210.0, 297.0)
LETTER = PageSize("letter", 215.9, 279.4)  # 8.5 x 11 in
PAGE_SIZES = {"a4": A4, "letter": LETTER}
PER_PAGE = PER_ROW * PER_COLUMN
CROP_MARK = 4.0  # mm, how far a crop mark reaches into the margin


def page_svg(size: PageSize, css_class: str) -> ET.Element:
    """An empty page of `size`, drawn in millimetres."""
    return ET.Element("svg", {"xmlns": SVG_NS, "width": f"{_number(size.width)}mm", "height": f"{_number(size.height)}mm",
                              "viewBox": f"0 0 {_number(size.width)} {_number(size.height)}", "class": css_class})


def _page(faces: list[ET.Element], size: PageSize = A4) -> ET.Element:
    page = page_svg(size, "print-page")
    margin_x, margin_y = size.margin_x, size.margin_y
    marks = _el(page, "g", class_="crop-marks", stroke="#000000", stroke_width=0.2)
    for column in range(PER_ROW + 1):
        x = margin_x + column * CARD_WIDTH
        _el(marks, "line", x1=x, y1=margin_y - CROP_MARK - 1, x2=x, y2=margin_y - 1)
        _el(marks, "line", x1=x, y1=size.height - margin_y + 1, x2=x, y2=size.height - margin_y + CROP_MARK + 1)
    for row in range(PER_COLUMN + 1):
        y = margin_y + row * CARD_HEIGHT
        _el(marks, "line", x1=margin_x - CROP_MARK - 1, y1=y, x2=margin_x - 1, y2=y)
        _el(marks, "line", x1=size.width - margin_x + 1, y1=y, x2=size.width - margin_x + CROP_MARK + 1, y2=y)
    for index, face in enumerate(faces):
        face.set("x", _number(margin_x + (index % PER_ROW) * CARD_WIDTH))
        face.set("y", _number(margin_y + (index // PER_ROW) * CARD_HEIGHT))
        face.set("width", _number(CARD_WIDTH))
        face.set("height", _number(CARD_HEIGHT))
        page.append(face)
    return page


def sheet_pages(faces: Iterable[tuple[CardFace, str, str | None]], size: PageSize = A4) -> list[ET.Element]:
    """The faces, each with its pack's name and the kind it is drawn as, nine to a page of `size`
    with crop marks: one SVG element a page (a face whose text continues takes its next places)."""
    drawn = [element for face, pack_name, base_kind in faces for element in face_elements(face, pack_name, base_kind)]
    return [_page(drawn[start:start + PER_PAGE], size) for start in range(0, len(drawn), PER_PAGE)]


def print_sheets(faces: Iterable[tuple[CardFace, str, str | None]], title: str = "Card faces", size: PageSize = A4) -> str:
    """The faces on sheets (`sheet_pages`) as an XHTML document of one SVG a page, printed a page a
    sheet at 100%."""
    html = ET.Element("html", {"xmlns": XHTML_NS})
    head = ET.SubElement(html, "head")
    ET.SubElement(head, "title").text = title
    ET.SubElement(head, "style").text = (
        f"@page {{ size: {size.name}; margin: 0 }} body {{ margin: 0 }} "
        "svg.print-page { display: block; page-break-after: always; break-after: page }")
    body = ET.SubElement(html, "body")
    body.extend(sheet_pages(faces, size))
    return "<?xml version='1.0' encoding='utf-8'?>\n" + ET.tostring(html, encoding="unicode")


# ---------------------------------------------------------------- faces of a loaded Ruleset
def drawn_as(ruleset: Ruleset, face: CardFace) -> tuple[CardFace, str, str | None]:
    """`face` with what its drawing needs from the packs: its pack's name and the built-in kind it
    is drawn as (a declared kind is drawn as the kind it is like)."""
    pack_name = next((pack.name for pack in ruleset.packs if pack.id == face.pack), face.pack)
    return face, pack_name, ruleset.words.base_kind(face.kind)


def faces_of(ruleset: Ruleset, face: CardFace) -> list[str]:
    """`face`'s SVG documents, drawn as its packs say (`drawn_as`)."""
    return face_svgs(*drawn_as(ruleset, face))


def sheets_of(ruleset: Ruleset, faces: Iterable[CardFace]) -> str:
    """The faces on A4 sheets (`print_sheets`), drawn as their packs say (`drawn_as`)."""
    return print_sheets((drawn_as(ruleset, face) for face in faces), title=f"Card faces: {', '.join(ruleset.pack_ids)}")
