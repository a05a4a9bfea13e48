"""A small clickable figure of a body, drawn from the locations the ruleset declares (the stats of
the group `location`, in the order declared, named as their declarations name them), as SVG text.

The layout is plain and knows no game's words: the locations that pair up as `left_X` and `right_X`
are limbs, the others the trunk, stacked in a column in the order declared. The first pair of limbs
flanks the trunk below its first location; each further pair stands side by side below it. Each
location is a `<g data-target="loc:ID">` (what the board component reports when it is clicked) when
it may be chosen now; the others are drawn faded, without a target. The picture is an element tree
(`svg_tree.py`), so a location's name is escaped as text, never read as markup.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..model.ruleset import Ruleset
from .svg_tree import SVG_NS, element, svg_text
from .svg_tree import group as svg_group

__all__ = ["FIGURE_GROUP", "FigurePart", "body_figure_svg", "figure_layout", "location_of_target", "location_target"]

FIGURE_GROUP = "location"  # the group of stats that are places on a body (the `location` type's words)
TARGET_PREFIX = "loc:"
ROW = 46  # one location's height, in SVG units
GAP = 6
TRUNK_WIDTH = 110
LIMB_WIDTH = 64
WIDTH = TRUNK_WIDTH + 2 * (LIMB_WIDTH + GAP)
FREE, CHOSEN, OUT = "#f5efe0", "#f2b134", "#e0e0e0"


def location_target(location: str) -> str:
    return f"{TARGET_PREFIX}{location}"


def location_of_target(target: str) -> str | None:
    """The location a clicked figure target names; None for any other target."""
    return target[len(TARGET_PREFIX):] if target.startswith(TARGET_PREFIX) else None


@dataclass(frozen=True)
class FigurePart:
    """One location's place in the figure: its box's corner and size, in SVG units."""

    location: str
    x: int
    y: int
    width: int
    height: int


def figure_layout(locations: Sequence[str]) -> list[FigurePart]:
    """Where each location stands (see the module's words); every location once."""
    pairs: list[tuple[str, str]] = []
    for location in locations:
        if location.startswith("left_") and f"right_{location[5:]}" in locations:
            pairs.append((location, f"right_{location[5:]}"))
    limbs = {side for pair in pairs for side in pair}
    trunk = [location for location in locations if location not in limbs]
    trunk_x = LIMB_WIDTH + GAP
    parts = [FigurePart(location, trunk_x, index * (ROW + GAP), TRUNK_WIDTH, ROW) for index, location in enumerate(trunk)]
    below = len(trunk) * (ROW + GAP)
    if pairs and len(trunk) > 1:  # the first pair flanks the trunk below its first location
        left, right = pairs.pop(0)
        span = (len(trunk) - 1) * (ROW + GAP) - GAP
        parts += [FigurePart(left, 0, ROW + GAP, LIMB_WIDTH, span),
                  FigurePart(right, trunk_x + TRUNK_WIDTH + GAP, ROW + GAP, LIMB_WIDTH, span)]
    half = (TRUNK_WIDTH - GAP) // 2
    for index, (left, right) in enumerate(pairs):
        y = below + index * (ROW + GAP)
        parts += [FigurePart(left, trunk_x, y, half, ROW), FigurePart(right, trunk_x + half + GAP, y, half, ROW)]
    # On a figure seen from the front its left side is the viewer's right: mirror the limbs.
    return [FigurePart(p.location, WIDTH - p.x - p.width, p.y, p.width, p.height) if p.location in limbs else p
            for p in parts]


def body_figure_svg(ruleset: Ruleset, offered: Iterable[str], chosen: str | None = None,
                    group: str = FIGURE_GROUP) -> str:
    """The figure of the ruleset's locations: those in `offered` clickable, `chosen` highlighted."""
    offered = set(offered)
    parts = figure_layout(ruleset.words.group(group))
    height = max((p.y + p.height for p in parts), default=0)
    svg = element("svg", xmlns=SVG_NS, class_="body-figure", viewBox=f"-2 -2 {WIDTH + 4} {height + 4}",
                  width=WIDTH + 4, height=height + 4, font_family="sans-serif")
    svg.extend(_part(p, _name(ruleset, p.location), p.location in offered, p.location == chosen) for p in parts)
    return svg_text(svg)


def _name(ruleset: Ruleset, location: str) -> str:
    declaration = ruleset.declaration("stat", location)
    return declaration.name if declaration is not None and declaration.name else location.replace("_", " ")


def _part(part: FigurePart, name: str, offered: bool, chosen: bool) -> ET.Element:
    fill = CHOSEN if chosen else FREE if offered else OUT
    words = name.split()
    per_line = 2 if part.width > 60 else 1  # the narrow boxes take a word a line
    lines = [" ".join(words[i:i + per_line]) for i in range(0, len(words), per_line)]
    middle = part.y + part.height / 2 - (len(lines) - 1) * 6
    texts = [element("text", line, x=f"{part.x + part.width / 2:g}", y=f"{middle + 12 * i + 4:g}",
                     text_anchor="middle", font_size=10, fill="#222" if offered else "#888")
             for i, line in enumerate(lines)]
    box = element("rect", x=part.x, y=part.y, width=part.width, height=part.height, rx=10, fill=fill,
                  stroke="#333" if offered else "#aaa", stroke_width=3 if chosen else 1)
    return svg_group([element("title", name), box, *texts], class_="location", data_location=part.location,
                 data_target=location_target(part.location) if offered else None,
                 style="cursor:pointer" if offered else None)
