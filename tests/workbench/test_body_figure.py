"""The body figure: every location the ruleset declares, by its declared name, clickable when offered."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.body_figure import (body_figure_svg, figure_layout, location_of_target,
                                             location_target)

SVG = "{http://www.w3.org/2000/svg}"


def overlap(a, b) -> bool:
    return a.x < b.x + b.width and b.x < a.x + a.width and a.y < b.y + b.height and b.y < a.y + a.height


def test_the_figure_draws_each_declared_location_once_offered_ones_clickable(base: Ruleset) -> None:
    locations = base.words.group("location")
    offered = locations[:2]
    root = ET.fromstring(body_figure_svg(base, offered, chosen=offered[0]))
    parts = root.findall(f"{SVG}g")
    assert [p.get("data-location") for p in parts] and sorted(p.get("data-location") for p in parts) == sorted(locations)
    clickable = [p.get("data-target") for p in parts if p.get("data-target")]
    assert clickable == [location_target(loc) for loc in locations if loc in offered]
    titles = {p.get("data-location"): p.find(f"{SVG}title").text for p in parts}
    assert all(titles[loc] == base.declaration("stat", loc).name for loc in locations)
    chosen = next(p for p in parts if p.get("data-location") == offered[0])
    assert chosen.find(f"{SVG}rect").get("stroke-width") == "3"


def test_the_layout_pairs_left_and_right_limbs_and_never_overlaps() -> None:
    parts = figure_layout(["top", "left_arm", "right_arm", "middle", "bottom", "left_leg", "right_leg", "left_only"])
    where = {part.location: part for part in parts}
    assert sorted(where) == sorted(["top", "left_arm", "right_arm", "middle", "bottom", "left_leg", "right_leg",
                                    "left_only"])
    assert all(not overlap(a, b) for a in parts for b in parts if a is not b)
    # The trunk (an unpaired `left_only` too) is a column in the order declared; a pair stands level.
    assert where["top"].y < where["middle"].y < where["bottom"].y < where["left_only"].y
    assert where["left_arm"].y == where["right_arm"].y and where["left_leg"].y == where["right_leg"].y
    assert where["left_leg"].y > where["left_only"].y  # further pairs come below the trunk
    assert where["left_arm"].x > where["right_arm"].x  # seen from the front: its left on the viewer's right


def test_a_target_names_its_location_back() -> None:
    assert location_of_target(location_target("x_y")) == "x_y"
    assert location_of_target("sq:1,2") is None


class _Words:
    def __init__(self, locations: list[str]) -> None:
        self.locations = locations

    def group(self, name: str) -> list[str]:
        return self.locations


class _NamedLocations:
    """Just what the figure reads of a ruleset: the locations and their declared names."""

    def __init__(self, names: dict[str, str]) -> None:
        self.words = _Words(list(names))
        self.names = names

    def declaration(self, kind: str, ident: str):
        class Declared:
            name = self.names[ident]
        return Declared()


def test_a_location_s_name_is_text_in_the_figure_never_markup() -> None:
    hostile = '<script>alert("x")</script> & <b>'
    figure = body_figure_svg(_NamedLocations({"head": hostile, "left_arm": "Left", "right_arm": "Right"}),
                             ["head"], chosen="head")
    assert "<script" not in figure and "<b>" not in figure
    root = ET.fromstring(figure)
    assert root.get("viewBox") == "-2 -2 254 102" and root.get("class") == "body-figure"
    head = next(p for p in root.findall(f"{SVG}g") if p.get("data-location") == "head")
    assert head.find(f"{SVG}title").text == hostile
    assert " ".join(t.text for t in head.findall(f"{SVG}text")) == hostile
    assert (head.get("data-target"), head.get("style")) == ("loc:head", "cursor:pointer")
    arm = next(p for p in root.findall(f"{SVG}g") if p.get("data-location") == "left_arm")
    assert arm.get("data-target") is None and arm.find(f"{SVG}rect").get("stroke") == "#aaa"
