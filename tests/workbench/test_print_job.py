"""What `nexus print` chooses (workbench/print_job.py) and how a barge's page is laid out
(workbench/barge_page.py): the cards players handle by default, ids then kinds each printed once,
names checked with suggestions; a barge page with its name, picture and hazards inside the page."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest

from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.workbench.barge_page import MARGIN, barge_page, hazard_legend
from nexus_dsl.workbench.card_svg import A4, LETTER, PER_PAGE, sheet_pages
from nexus_dsl.workbench.print_job import ALL_BARGES, PrintChoiceError, choose

SVG = "{http://www.w3.org/2000/svg}"


def test_by_default_the_cards_players_handle_and_not_the_game_s_structure() -> None:
    ruleset = cached_ruleset(("base",))
    kinds = {face.kind for face in choose(ruleset).faces}
    assert {"turning_point", "influence", "command", "trait_ability", "hazard", "weapon", "lanistas",
            "motivations"} == kinds
    assert choose(ruleset).barges == ()
    pirates = cached_ruleset(("nexus_pirates",))
    assert sum(face.kind == "card" for face in choose(pirates).faces) == 54


def test_ids_come_first_in_their_order_then_each_kind_and_no_face_twice() -> None:
    ruleset = cached_ruleset(("base",))
    printout = choose(ruleset, cards=["crowd_riot", "assassins_dart"], kinds=["turning_point"])
    ids = [face.id for face in printout.faces]
    assert ids[:2] == ["crowd_riot", "assassins_dart"]
    assert len(ids) == len(set(ids)) == len(ruleset.scripts["turning_point"])


def test_a_kind_is_named_as_nexus_cards_names_it_or_by_the_kind_it_is_drawn_as() -> None:
    ruleset = cached_ruleset(("base",))
    assert {face.id for face in choose(ruleset, kinds=["drawn_card"]).faces} == set(ruleset.scripts["turning_point"])
    assert {face.id for face in choose(ruleset, kinds=["lanista"]).faces} == set(ruleset.data["lanistas"])


def test_an_id_held_by_two_kinds_prints_both() -> None:
    ruleset = cached_ruleset(("base",))  # `brazier` is an object and the hazard it brings
    assert sorted(face.kind for face in choose(ruleset, cards=["brazier"]).faces) == ["hazard", "objects"]


def test_barges_alone_print_no_cards_and_all_means_every_barge() -> None:
    ruleset = cached_ruleset(("base",))
    printout = choose(ruleset, barges=[ALL_BARGES])
    assert printout.faces == () and [b.id for b in printout.barges] == list(ruleset.data["barges"])
    assert [b.id for b in choose(ruleset, barges=["riot_deck", "pincushion"]).barges] == ["riot_deck", "pincushion"]


@pytest.mark.parametrize("options, message", [
    ({"cards": ["comand_roll"]}, "unknown card `comand_roll`"),
    ({"kinds": ["turning_pont"]}, "unknown kind `turning_pont` (did you mean `turning_point`?)"),
    ({"barges": ["riot_dek"]}, "unknown barge `riot_dek` (did you mean `riot_deck`?)"),
])
def test_unknown_names_are_refused_with_a_suggestion(options: dict, message: str) -> None:
    with pytest.raises(PrintChoiceError, match=message.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
        choose(cached_ruleset(("base",)), **options)


def test_a_kind_the_packs_hold_none_of_is_nothing_to_print() -> None:
    with pytest.raises(PrintChoiceError, match="nothing to print"):
        choose(cached_ruleset(("nexus_pirates",)), kinds=["hazard"])


def test_a_continued_face_takes_its_next_place_on_the_sheet() -> None:
    ruleset = cached_ruleset(("base",))
    printout = choose(ruleset, kinds=["turning_point"])
    pages = [parsed(page) for page in printout.pages(ruleset, LETTER)]
    placed = sum(len(page.findall(f"{SVG}svg")) for page in pages)
    assert placed > len(printout.faces)  # some faces continue (Burning Tar, The Crowd Takes Pity)
    assert len(pages) == -(-placed // PER_PAGE)
    assert all(page.get("width") == "215.9mm" and page.get("height") == "279.4mm" for page in pages)
    assert sheet_pages([], A4) == []


def parsed(page: ET.Element) -> ET.Element:
    """The page as a reader of its SVG finds it (every element in the SVG namespace)."""
    return ET.fromstring(ET.tostring(page))


def legend_texts(page: ET.Element) -> list[ET.Element]:
    return [t for t in page.iter(f"{SVG}text") if t.get("class") in ("barge-name", "barge-heading", "barge-legend")]


@pytest.mark.parametrize("size", [A4, LETTER])
def test_every_barge_page_keeps_its_name_picture_and_legend_inside_the_page(size) -> None:
    ruleset = cached_ruleset(("base", "poison_gallery"))
    for barge in ruleset.data["barges"].values():
        page = parsed(barge_page(barge, ruleset, size))
        texts = legend_texts(page)
        assert texts[0].text == barge.data["name"]
        words = " ".join(t.text or "" for t in texts)
        for name, _ in hazard_legend(barge, ruleset):
            assert name in words
        picture = next(child for child in page if child.get("class") == "barge-picture")
        assert float(picture.get("x", 0)) >= MARGIN - 0.01
        assert float(picture.get("x", 0)) + float(picture.get("width", 0)) <= size.width - MARGIN + 0.01
        assert all(float(t.get("y", 0)) <= size.height - MARGIN for t in texts)
        assert picture.findall(f".//{SVG}rect[@class='square']")  # the barge editor's own picture


def test_the_legend_names_the_barge_s_hazards_then_those_its_pieces_wake() -> None:
    ruleset = cached_ruleset(("base",))
    barge = ruleset.data["barges"]["gutter_ring"]  # names brazier and floor_spikes; places braziers
    assert [name for name, _ in hazard_legend(barge, ruleset)] == ["Brazier", "Floor Spikes"]
    crated = dataclasses.replace(barge, data={**barge.data, "hazards": ["floor_spikes"],
                                              "objects": [*barge.data["objects"], {"type": "crate", "at": [4, 4]}]})
    legend = hazard_legend(crated, ruleset)
    assert [name for name, _ in legend] == ["Floor Spikes", "Brazier", "Crates"]
    assert all(text for _, text in legend)  # each with its card's text


def test_a_legend_too_long_for_the_page_is_cut_at_its_foot_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = cached_ruleset(("base",))
    barge = ruleset.data["barges"]["brimstone_pit"]
    legend = hazard_legend(barge, ruleset)
    monkeypatch.setattr("nexus_dsl.workbench.barge_page.hazard_legend", lambda *_: legend * 8)  # 24 hazards
    page = parsed(barge_page(barge, ruleset, LETTER))
    texts = legend_texts(page)
    assert "the rest is on the hazards' cards" in (texts[-1].text or "")
    assert all(float(t.get("y", 0)) <= LETTER.height - MARGIN for t in texts)
