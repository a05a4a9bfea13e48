"""Board pictures: structure checked by parsing the SVG, never by pixels."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from nexus_dsl import Bout, BoutSetup, PieceSetup, cached_ruleset, standard_setup
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.workbench.board_svg import (CELL, KIND_COLOURS, barge_svg, bout_svg, square_of_target, square_origin,
                                          square_target, state_badges)

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, css_class: str) -> list[ET.Element]:
    return root.findall(f".//svg:g[@class='{css_class}']", NS)


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter("{http://www.w3.org/2000/svg}text")]


@pytest.fixture(scope="module")
def gutter_ring(base) -> dict:
    return dict(base.data_item("barges", "gutter_ring"))


def test_the_grid_numbers_columns_west_to_east_and_rows_north_to_south(base, gutter_ring):
    root = parse(barge_svg(gutter_ring, base))
    assert len(root.findall(".//svg:rect[@class='square']", NS)) == 64
    columns = root.findall(".//svg:text[@class='col-label']", NS)
    rows = root.findall(".//svg:text[@class='row-label']", NS)
    assert [c.text for c in columns] == [str(n) for n in range(1, 9)]
    assert [float(c.get("x")) for c in columns] == sorted(float(c.get("x")) for c in columns)
    assert [r.text for r in rows] == [str(n) for n in range(1, 9)]
    ys = [float(r.get("y")) for r in rows]
    assert ys == sorted(ys) and len(set(ys)) == 8  # row 1 (north) on top


def test_the_north_end_is_marked_above_the_board(base, gutter_ring):
    root = parse(barge_svg(gutter_ring, base))
    north = groups(root, "north")
    assert len(north) == 1 and "NORTH" in texts(north[0])
    board_top = float(root.find(".//svg:rect[@class='board']", NS).get("y"))
    assert all(float(t.get("y")) < board_top for t in north[0].iter("{http://www.w3.org/2000/svg}text"))


def test_the_four_starting_squares_show_their_seats(base, gutter_ring):
    root = parse(barge_svg(gutter_ring, base))
    starts = {g.get("data-seat"): (int(g.get("data-col")), int(g.get("data-row"))) for g in groups(root, "start")}
    assert starts == {"south": (1, 8), "north": (8, 1), "west": (1, 1), "east": (8, 8)}
    south = next(g for g in groups(root, "start") if g.get("data-seat") == "south")
    x, y = square_origin(1, 8)
    rect = south.find("svg:rect", NS)
    assert x <= float(rect.get("x")) < x + CELL and y <= float(rect.get("y")) < y + CELL
    assert "south" in texts(south)


def test_every_object_is_drawn_on_its_square_with_its_symbol_and_kind_colour(base, gutter_ring):
    root = parse(barge_svg(gutter_ring, base))
    drawn = groups(root, "object")
    assert len(drawn) == len(gutter_ring["objects"])
    expected_kind = {"pillar": "stone", "brazier": "fire", "blood": "blood"}
    for obj, group in zip(gutter_ring["objects"], drawn):
        assert group.get("data-type") == obj["type"]
        assert (int(group.get("data-col")), int(group.get("data-row"))) == tuple(obj["at"])
        assert group.get("data-kind") == expected_kind[obj["type"]]
        assert base.object_flags(obj["type"])["symbol"] in texts(group)
        assert group.find("svg:rect", NS).get("fill") == KIND_COLOURS[expected_kind[obj["type"]]][0]
        x, y = square_origin(*obj["at"])
        rect = group.find("svg:rect", NS)
        assert x < float(rect.get("x")) < x + CELL and y < float(rect.get("y")) < y + CELL


def test_the_legend_names_every_type_drawn(base, gutter_ring):
    root = parse(barge_svg(gutter_ring, base))
    legend = groups(root, "legend")[0]
    entries = [g.get("data-type") for g in legend.findall("svg:g[@class='legend-entry']", NS)]
    pack_order = [t for t in base.data["objects"] if t in ("pillar", "brazier", "blood")]
    assert entries[:3] == pack_order and "start" in entries
    assert {"Pillar", "Brazier", "Blood Tile"} <= set(texts(legend))


def test_colours_per_kind_for_crates_guts_and_floor_hazards(base):
    barge = {"id": "mixed", "name": "Mixed", "description": "x", "hazards": [], "objects": [
        {"type": "crate", "at": [3, 3]}, {"type": "guts", "at": [4, 4]}, {"type": "floor_saw", "at": [5, 5]},
        {"type": "floor_spikes", "at": [6, 6]}, {"type": "wall", "at": [2, 2]}, {"type": "fire", "at": [7, 7]}]}
    kinds = {g.get("data-type"): g.get("data-kind") for g in groups(parse(barge_svg(barge, base)), "object")}
    assert kinds == {"crate": "wood", "guts": "guts", "floor_saw": "steel", "floor_spikes": "steel",
                     "wall": "stone", "fire": "fire"}


def test_an_object_type_from_another_pack_is_drawn_generically_with_its_symbol():
    ruleset = cached_ruleset(("base", "poison_gallery"))
    barge = ruleset.data_item("barges", "apothecarys_gallery")
    columns = [g for g in groups(parse(barge_svg(barge, ruleset)), "object") if g.get("data-type") == "dart_column"]
    assert len(columns) == 4
    symbol = ruleset.object_flags("dart_column").get("symbol") or "DA"
    assert all(g.get("data-kind") == "other" and symbol in texts(g) for g in columns)


def test_an_unknown_type_gets_a_made_up_symbol_and_texts_are_escaped(base):
    barge = {"id": "odd", "name": "<Odd> & \"Sons\"", "description": "x", "hazards": [],
             "objects": [{"type": "mystery_box", "at": [4, 5]}]}
    svg = barge_svg(barge, base)
    root = parse(svg)  # would fail on unescaped text
    assert root.find("svg:title", NS).text == "<Odd> & \"Sons\""
    mystery = groups(root, "object")[0]
    assert mystery.get("data-kind") == "other" and "MY" in texts(mystery)


def test_pictures_are_deterministic(base, gutter_ring):
    assert barge_svg(gutter_ring, base) == barge_svg(dict(gutter_ring), base)
    bout = Bout(base, standard_setup(layout="gutter_ring"), seed=3)
    assert bout_svg(bout, base) == bout_svg(bout.snapshot(), base) == bout_svg(bout.state, base)


def test_helots_are_tokens_with_labels_facing_arrows_and_state_badges(base):
    setup = BoutSetup(pieces=[
        PieceSetup("red", "south", Square(3, 6), Direction.NE, states=["prone", "bleeding"]),
        PieceSetup("blue", "north", Square(6, 2), Direction.W, states=["flaming"]),
    ], layout="gutter_ring")
    root = parse(bout_svg(Bout(base, setup, seed=1), base))
    tokens = {g.get("data-label"): g for g in groups(root, "helot")}
    assert set(tokens) == {"red", "blue"}
    red = tokens["red"]
    assert (int(red.get("data-col")), int(red.get("data-row"))) == (3, 6)
    assert "red" in texts(red)
    assert sorted(b.get("data-state") for b in red.findall("svg:g[@class='badge']", NS)) == ["bleeding", "prone"]
    arrow = red.find("svg:line[@class='facing']", NS)
    assert arrow.get("data-facing") == "NE"
    assert float(arrow.get("x2")) > float(arrow.get("x1")) and float(arrow.get("y2")) < float(arrow.get("y1"))
    west = tokens["blue"].find("svg:line[@class='facing']", NS)
    assert float(west.get("x2")) < float(west.get("x1")) and west.get("y2") == west.get("y1")
    assert [b.get("data-state") for b in tokens["blue"].findall("svg:g[@class='badge']", NS)] == ["flaming"]
    # the barge's objects are on the bout's board too
    assert len(groups(root, "object")) == len(base.data_item("barges", "gutter_ring")["objects"])


def test_a_fallen_helot_is_drawn_differently(base):
    bout = Bout(base, standard_setup(layout="gutter_ring"), seed=1)
    snapshot = bout.snapshot()
    snapshot["blue"]["status"] = "dead"
    snapshot["red"]["status"] = "incapacitated"
    root = parse(bout_svg(snapshot, base))
    tokens = {g.get("data-label"): g for g in groups(root, "helot")}
    for label, status in (("blue", "dead"), ("red", "incapacitated")):
        token = tokens[label]
        assert token.get("data-status") == status
        assert token.find("svg:g[@class='fallen-mark']", NS) is not None
        assert token.find("svg:line[@class='facing']", NS) is None
    fighting = parse(bout_svg(bout, base))
    assert not fighting.findall(".//svg:g[@class='fallen-mark']", NS)


def test_a_state_s_badge_and_colour_come_from_its_declaration() -> None:
    """The Poison Gallery's `poisoned` shows its own badge and colour, in the legend too; base's
    states keep theirs, read from content/base/states/states.nexus."""
    ruleset = cached_ruleset(("base", "poison_gallery"))
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(3, 6), Direction.N, states=["poisoned", "prone"]),
                              PieceSetup("blue", "north", Square(6, 2), Direction.S)])
    root = parse(bout_svg(Bout(ruleset, setup, seed=1), ruleset))
    red = {g.get("data-label"): g for g in groups(root, "helot")}["red"]
    badges = {b.get("data-state"): b for b in red.findall("svg:g[@class='badge']", NS)}
    assert set(badges) == {"poisoned", "prone"}
    assert texts(badges["poisoned"]) == ["Po"] and badges["poisoned"].find("svg:circle", NS).get("fill") == "#558b2f"
    assert texts(badges["prone"]) == ["P"] and badges["prone"].find("svg:circle", NS).get("fill") == "#5d4037"
    assert state_badges(ruleset)["poisoned"] == ("Po", "#558b2f")
    assert "poisoned" not in state_badges(cached_ruleset(("base",)))


def test_squares_objects_and_helots_carry_the_targets_a_click_reports(base):
    bout = Bout(base, standard_setup(layout="gutter_ring"), seed=1)
    root = parse(bout_svg(bout, base))
    squares = root.findall(".//svg:rect[@class='square']", NS)
    assert {s.get("data-target") for s in squares} == {f"sq:{c},{r}" for c in range(1, 9) for r in range(1, 9)}
    for square in squares:
        x, y = square_origin(int(square.get("data-col")), int(square.get("data-row")))
        assert (float(square.get("x")), float(square.get("y"))) == (x, y)
    for obj in groups(root, "object"):  # an object answers as the square it stands on
        assert obj.get("data-target") == f"sq:{obj.get('data-col')},{obj.get('data-row')}"
    assert {g.get("data-target") for g in groups(root, "helot")} == {f"piece:{label}" for label in bout.state.pieces}


def test_a_hostile_name_or_label_cannot_add_markup(base):
    hostile = '"/><script>alert(1)</script><rect x="'
    barge = {"id": "x", "name": hostile, "description": "x", "hazards": [],
             "objects": [{"type": "</text><script>bad()</script>", "at": [2, 2]}]}
    svg = barge_svg(barge, base)
    assert "<script" not in svg
    root = parse(svg)
    assert root.find("svg:title", NS).text == hostile
    assert groups(root, "object")[0].get("data-type") == "</text><script>bad()</script>"
    setup = BoutSetup(pieces=[PieceSetup(hostile, "south", Square(3, 6), Direction.N),
                              PieceSetup("blue", "north", Square(6, 2), Direction.S)])
    bout_picture = bout_svg(Bout(base, setup, seed=1), base)
    assert "<script" not in bout_picture
    tokens = [g.get("data-target") for g in groups(parse(bout_picture), "helot")]
    assert f"piece:{hostile}" in tokens
    assert not parse(bout_picture).findall(".//svg:script", NS)


def test_a_character_xml_cannot_hold_leaves_the_picture_readable(base):
    barge = {"id": "x", "name": "Barge \x01 one", "description": "x", "hazards": [],
             "objects": [{"type": "odd\x02type", "at": [2, 2]}]}
    root = parse(barge_svg(barge, base))  # would not parse with the raw characters in it
    assert root.find("svg:title", NS).text == "Barge \ufffd one"
    assert groups(root, "object")[0].get("data-type") == "odd\ufffdtype"


def test_a_square_target_reads_back_and_anything_else_is_no_square():
    assert [square_of_target(square_target(c, r)) for c, r in [(1, 1), (8, 3)]] == [(1, 1), (8, 3)]
    for other in ("piece:red", "sq:9,1", "sq:0,4", "sq:1", "sq:a,b", "sq:-1,2", "", "square:1,1"):
        assert square_of_target(other) is None, other
