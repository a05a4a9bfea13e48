"""Printed card faces: every face is well-formed SVG holding its name and rules text inside its text
box; text is escaped; long text continues on the next face; sheets hold nine faces an A4 page."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from nexus_dsl.cards import CardFace, all_faces, show
from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.card_svg import (BOX_HEIGHT, BOX_WIDTH, BOX_X, BOX_Y, CARD_HEIGHT, CARD_WIDTH, KIND_COLOURS,
                                          face_svg, face_svgs, print_sheets, text_width)

SVG = "{http://www.w3.org/2000/svg}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [element for element in root.iter() if name in (element.get("class") or "").split()]


def assert_text_inside_box(root: ET.Element) -> None:
    rules = of_class(root, "card-rules")[0]
    for text in rules.iter(f"{SVG}text"):
        size, x, y = float(text.get("font-size", 0)), float(text.get("x", 0)), float(text.get("y", 0))
        mono = "Mono" in (text.get("font-family") or "")
        right = x if text.get("text-anchor") == "end" else x + text_width(text.text or "", size, mono)
        assert BOX_X <= x and right <= BOX_X + BOX_WIDTH, (text.text, x, right)
        assert BOX_Y + size * 0.5 <= y <= BOX_Y + BOX_HEIGHT, (text.text, y)


def words(text: str) -> list[str]:
    """The words of a text, a rule's bullet left out."""
    return [word for word in text.split() if word != "-"]


def printed_words(drawn: list[ET.Element]) -> list[str]:
    """Every word of the text boxes of a face's drawings, in order, the "continued" notes left out."""
    return words(" ".join(t for root in drawn for t in texts(of_class(root, "card-rules")[0]) if "continued" not in t))


@pytest.mark.parametrize("pack", ["base", "nexus_pirates"])
def test_every_face_parses_holds_its_name_and_first_rule_and_keeps_its_text_in_the_box(pack: str) -> None:
    ruleset = cached_ruleset((pack,))
    faces = all_faces(ruleset)
    assert len(faces) > 40
    for face in faces:
        drawn = [ET.fromstring(svg) for svg in face_svgs(face, pack, ruleset.words.base_kind(face.kind))]
        first = drawn[0]
        assert first.get("viewBox") == f"0 0 {CARD_WIDTH:g} {CARD_HEIGHT:g}" and first.get("width") == "63mm"
        name = of_class(first, "card-name")[0].text or ""
        assert name and face.name.startswith(name) and first.find(f"{SVG}title").text == face.name
        badged = bool(of_class(first, "card-cost"))
        rules = [line for line in face.lines if not (badged and line.startswith("Cost: "))]
        # every word of the rules, the figure, the assumption and the prose is printed, in order,
        # on this face or the ones continuing it: the first line of the rules text first
        expected = (rules + face.figure + ([f"Assumed value: {face.assumed}"] if face.assumed else []) + [face.prose or ""]
                    + ([face.flavor] if face.flavor and face.flavor != face.prose else []))
        assert printed_words(drawn) == words(" ".join(expected)), face.id
        if rules:
            assert " ".join(printed_words(drawn)).startswith(" ".join(words(rules[0]))), face.id
        for root in drawn:
            assert_text_inside_box(root)


def test_costs_are_badges_and_the_type_line_names_kind_and_tags() -> None:
    base = cached_ruleset(("base",))
    face = show(base, "grapple")[0][0]
    root = ET.fromstring(face_svg(face, "The base box", "command"))
    assert [t.text for t in root.iter(f"{SVG}text") if t.text == "2 AP"] == ["2 AP"]
    assert of_class(root, "card-cost")
    assert of_class(root, "card-type")[0].text == "Command \u2014 attack, rear bonus, gloat after"
    assert "The base box \u00b7 grapple" in texts(root)
    # the frame's colour is the kind's: a declared kind's that of the kind it is like
    faces = [face, show(base, "loaded_dice")[0][0], show(base, "fan_favourite")[0][0]]
    frames = {f.kind: ET.fromstring(face_svg(f, "", base.words.base_kind(f.kind))).find(f"{SVG}rect").get("fill")
              for f in faces}
    assert frames == {"command": KIND_COLOURS["command"], "influence": KIND_COLOURS["hand_card"],
                      "turning_point": KIND_COLOURS["drawn_card"]}
    assert "Seize the helot" in " ".join(texts(root))  # the designer's text, in italics
    assert any(t.get("font-style") == "italic" and (t.text or "").startswith("Seize") for t in root.iter(f"{SVG}text"))


def test_a_hostile_name_and_text_are_words_never_markup() -> None:
    hostile = '</text><script>alert("x")</script><text a="&amp;'
    face = CardFace("evil", "command", hostile, prose="Tom & Jerry <b>bold</b>", lines=["Effect:", "- <i>x</i> & y"])
    for svg in (face_svg(face), print_sheets([(face, "<pack>", None)])):
        root = ET.fromstring(svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg)
        assert not [e for e in root.iter() if e.tag.endswith(("script", "b", "i")) and e.tag != f"{XHTML}body"]
        assert hostile in [t.text for t in root.iter(f"{SVG}text")] + [t.text for t in root.iter(f"{SVG}title")]


def test_a_character_xml_cannot_hold_is_drawn_as_a_replacement_and_the_face_stays_readable() -> None:
    face = CardFace("evil", "command", "Evil \x01 Blade", prose="cuts \x01 deep", lines=["Effect:", "- a \ufffe b"])
    for svg in (face_svg(face, "pack \x02"), print_sheets([(face, "pack \x02", None)])):
        root = ET.fromstring(svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg)
        texts = [t.text for t in root.iter(f"{SVG}text")]
        assert "Evil \ufffd Blade" in texts and "- a \ufffd b" in texts and "cuts \ufffd deep" in texts
        assert "pack \ufffd \u00b7 evil" in texts


def test_text_too_long_for_one_face_continues_on_the_next_and_none_is_lost() -> None:
    lines = ["Effect:"] + [f"- Rule number {n} moves {n} coins from the crowd to your pile." for n in range(80)]
    face = CardFace("long", "hazard", "Long Hazard", prose=None, lines=lines)
    drawn = [ET.fromstring(svg) for svg in face_svgs(face)]
    assert len(drawn) >= 3
    assert [of_class(root, "card-type")[0].text for root in drawn][-1] == f"Hazard ({len(drawn)} of {len(drawn)})"
    assert printed_words(drawn) == words(" ".join(lines))
    for root in drawn:
        assert_text_inside_box(root)
    assert "continued on the next face \u2192" in texts(drawn[0]) and "continued on the next face \u2192" not in texts(drawn[-1])


def test_sheets_hold_nine_faces_an_a4_page_with_crop_marks() -> None:
    base: Ruleset = cached_ruleset(("base",))
    faces = [face for face in all_faces(base, "command") if len(face_svgs(face)) == 1][:11]
    document = print_sheets([(face, "base", "command") for face in faces])
    root = ET.fromstring(document.split("\n", 1)[1])
    assert root.tag == f"{XHTML}html"
    pages = of_class(root, "print-page")
    assert [page.get("width") for page in pages] == ["210mm", "210mm"]
    assert [len(of_class(page, "card-face")) for page in pages] == [9, 2]
    assert all(len(list(of_class(page, "crop-marks")[0])) == 16 for page in pages)
    placed = of_class(pages[0], "card-face")
    assert {(float(f.get("x", 0)), float(f.get("y", 0))) for f in placed} == {
        (10.5 + 63 * column, 16.5 + 88 * row) for column in range(3) for row in range(3)}
    assert [f.get("data-card") for page in pages for f in of_class(page, "card-face")] == [f.id for f in faces]
