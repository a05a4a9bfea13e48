"""What the editor's pages keep from one run to the next is kept by all it depends on: a face, a
ruleset, a manifest, a pack's files or an item's text that changed is never answered from what
was kept, and what is kept is what working it out anew gives."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from support import write_pack

from nexus_dsl.cards import all_faces, show
from nexus_dsl.workbench import authoring, card_svg
from nexus_dsl.workbench.card_svg import BOX_WIDTH, LARGEST_TYPE, SMALLEST_TYPE, face_elements, face_svgs
from nexus_dsl.workbench.highlight import highlight_html
from nexus_dsl.workbench.packs import available_packs, clear_cache, load_packs, packs_holding
from nexus_dsl.workbench.store import create_pack


# ---------------------------------------------------------------- measuring and wrapping, as before
def measured(text: str, size: float) -> float:
    """The width of `text` as the faces have always measured it: a character at a time."""
    narrow, wide = card_svg._NARROW, card_svg._WIDE
    return sum(narrow.get(ch, wide.get(ch, 0.72 if ch.isupper() or ch.isdigit() else 0.62)) for ch in text) * size


def wrapped(text: str, width: float, size: float) -> list[str]:
    """`text` broken into lines as the faces have always broken it: each candidate line measured whole."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if measured(candidate, size) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while measured(word, size) > width:
            cut = next((i for i in range(len(word), 0, -1) if measured(word[:i], size) <= width), 1)
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current or not lines:
        lines.append(current)
    return lines


def test_text_is_measured_and_wrapped_to_the_same_lines_as_before(base) -> None:
    texts = [line for face in all_faces(base) for line in (face.name, *face.lines, face.prose or "")]
    texts += ["Ünïcödé ünd ümläüts — “quoted” ‘words’ ıj", "x" * 200, "MW" * 30 + " il" * 40, "", "   "]
    sizes = [round(SMALLEST_TYPE + step / 10, 2) for step in range(int((LARGEST_TYPE - SMALLEST_TYPE) * 10) + 1)]
    for text in texts:
        for size in sizes:
            assert card_svg.text_width(text, size) == measured(text, size), (text, size)
            for width in (BOX_WIDTH - 2.4, BOX_WIDTH - 4.0, 20.0):
                assert card_svg.wrap(text, width, size) == wrapped(text, width, size), (text, size, width)


def fitted_by_trying_every_size(face):
    """The type size and lines of a face as they have always been found: laid out at each size from
    the largest down, the first that fits kept."""
    size = LARGEST_TYPE
    while size > SMALLEST_TYPE:
        lines = card_svg.lay_out(face, size)
        if card_svg._fits(lines, size):
            return size, [lines]
        size = round(size - 0.1, 2)
    lines = card_svg.lay_out(face, SMALLEST_TYPE)
    per_face = int((card_svg.BOX_HEIGHT - 2 * card_svg.PADDING) // (SMALLEST_TYPE * card_svg.LINE_SPACING)) - 1
    return SMALLEST_TYPE, [lines[start:start + per_face] for start in range(0, len(lines), per_face)]


def test_every_face_is_fitted_at_the_size_and_lines_it_always_was(base) -> None:
    faces = all_faces(base)
    haymaker = next(face for face in faces if face.id == "haymaker")
    words = "The attack does four more damage to the helot it hits, and the crowd roars."
    faces += [replace(haymaker, lines=[f"{'  ' * depth}- {words * repeat}" for depth in range(4)])
              for repeat in range(1, 9)]
    faces += [replace(haymaker, lines=["x" * length, words], prose=words * 3) for length in (10, 60, 300)]
    faces += [replace(haymaker, lines=[f"{'  ' * 30}{words}"], figure=["+--+--+", "|  |  |"])]
    for face in faces:
        assert card_svg.fitted(face) == fitted_by_trying_every_size(face), face.id


# ---------------------------------------------------------------- faces drawn
def test_a_kept_drawing_is_the_face_drawn_anew(base) -> None:
    for face in all_faces(base)[:60]:
        face_svgs(face, "Base", None)  # kept
        assert face_svgs(face, "Base", None) == [ET.tostring(element, encoding="unicode")
                                                 for element in face_elements(face, "Base", None)]


def test_a_face_is_drawn_anew_as_soon_as_a_word_of_it_changes(base) -> None:
    face = next(face for face in all_faces(base) if face.id == "haymaker")
    before = face_svgs(face)
    assert "Haymaker" in before[0]
    renamed = replace(face, name="Haymaker Deluxe", lines=list(face.lines))
    assert "Haymaker Deluxe" in face_svgs(renamed)[0]
    longer = replace(face, lines=[*face.lines, "Then the crowd cheers twice."])
    assert "Then the crowd cheers twice." in "".join(face_svgs(longer))
    assert face_svgs(face) == before  # the face itself is still drawn as it was
    assert "Pack Of Its Own" in face_svgs(face, "Pack Of Its Own")[0] and "Pack Of Its Own" not in before[0]
    # A face changed in place (its fields are lists) is drawn anew too: it says other words now.
    changed = replace(face, lines=list(face.lines))
    changed.lines.append("A line added in place.")
    assert "A line added in place." in "".join(face_svgs(changed))


def test_the_faces_of_a_ruleset_follow_its_files(content_root: Path) -> None:
    clear_cache()
    folder = create_pack(content_root, "kept_faces", "Kept Faces", "house_rules", ["base"])
    script = folder / "rules" / "kept_rule.nexus"
    script.parent.mkdir()
    script.write_text('rule kept_rule "Kept Rule" {\n    text "The first words."\n}\n')
    first = load_packs(["kept_faces"], content_root).ruleset
    assert first is not None
    [face] = [face for face in all_faces(first, "rule") if face.id == "kept_rule"]
    assert face.prose == "The first words." and show(first, "kept_rule")[0][0].prose == "The first words."
    script.write_text('rule kept_rule "Kept Rule" {\n    text "The second words, longer."\n}\n')
    second = load_packs(["kept_faces"], content_root).ruleset
    assert second is not None and second is not first
    [face] = [face for face in all_faces(second, "rule") if face.id == "kept_rule"]
    assert face.prose == "The second words, longer."
    [(shown, source)] = show(second, "kept_rule")
    assert shown.prose == "The second words, longer." and source is not None and "second words" in source
    assert "The second words, longer." in "".join(card_svg.faces_of(second, face))
    # The ruleset loaded before keeps its own faces.
    assert [f.prose for f in all_faces(first, "rule") if f.id == "kept_rule"] == ["The first words."]


def test_every_kind_asked_for_finds_the_faces_it_always_found(base) -> None:
    every = all_faces(base)
    for kind in {face.kind for face in every} | {"barge", "lanista", "motivation", "object", "no_such_kind"}:
        expected = [face for face in every if face.kind == kind or (face.kind in base.data and face.kind.rstrip("s") == kind)]
        assert all_faces(base, kind) == expected, kind


# ---------------------------------------------------------------- manifests and other packs' ids
def test_the_packs_listed_follow_their_manifests(content_root: Path) -> None:
    assert [p.id for p in available_packs(content_root)] == ["base"]
    folder = create_pack(content_root, "listed_late", "Listed Late", "house_rules", ["base"])
    assert [p.id for p in available_packs(content_root)] == ["base", "listed_late"]
    manifest = folder / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("Listed Late", "Listed Later"))
    assert {p.id: p.name for p in available_packs(content_root)}["listed_late"] == "Listed Later"
    # Written again at the very same size and time: replaced by a new file, as the editor saves.
    renamed = folder / "pack.yaml.new"
    renamed.write_text(manifest.read_text().replace("Listed Later", "Listed Lated"))
    stat = manifest.stat()
    os.utime(renamed, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.replace(renamed, manifest)
    assert {p.id: p.name for p in available_packs(content_root)}["listed_late"] == "Listed Lated"
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    assert [p.id for p in available_packs(content_root)] == ["base"]


def test_the_other_packs_searched_follow_their_files(tmp_path: Path) -> None:
    root = tmp_path / "content"
    other = write_pack(root / "other", "other", {"cards.nexus": 'rule sand_storm "Sand Storm" {\n    text "x"\n}\n'})
    assert packs_holding("sand", root, []) == {"other": ["sand_storm"]}
    (other / "more.nexus").write_text('rule sand_pit "Sand Pit" {\n    text "y"\n}\n')
    assert packs_holding("sand", root, []) == {"other": ["sand_storm", "sand_pit"]}
    (other / "cards.nexus").unlink()
    assert packs_holding("sand", root, []) == {"other": ["sand_pit"]}
    write_pack(root / "newer", "newer", {"a.nexus": 'rule sand_bag "Sand Bag" {\n    text "z"\n}\n'})
    assert packs_holding("sand", root, []) == {"newer": ["sand_bag"], "other": ["sand_pit"]}


# ---------------------------------------------------------------- scripts shown, items checked
def test_a_script_shown_is_highlighted_for_its_own_text_and_kinds() -> None:
    source = 'boon plus_two "Plus Two" {\n    text "Two more."\n}\n'
    plain = highlight_html(source)
    assert highlight_html(source) == plain
    declared = highlight_html(source, kinds={"boon"})
    assert declared != plain and 'class="nx-kw"' in declared.split("plus_two")[0]
    other = highlight_html(source.replace("Two more.", "Three more."))
    assert "Three more." in other and "Two more." not in other
    # With problems to show, each is under its line (never a kept plain rendering).
    problem = authoring.validate_item("rule", "rule broken {\n", None).diagnostics
    assert problem and problem[0].message in highlight_html("rule broken {\n", problem)


def test_an_items_verdict_follows_each_edit_and_the_ruleset(base) -> None:
    good = authoring.template("influence", "kept_verdict", "Kept Verdict", base)
    broken = good.replace("slide_roll attack", "slde_roll attack")
    assert broken != good
    for _ in range(2):  # broken, mended, broken again, mended again: each verdict the text's own
        assert not authoring.checked_item("influence", broken, base).ok
        verdict = authoring.checked_item("influence", good, base)
        assert verdict.ok and verdict.face is not None and verdict.face.name == "Kept Verdict"
    renamed = good.replace('"Kept Verdict"', '"Kept Verdict Renamed"')
    assert authoring.checked_item("influence", renamed, base).face.name == "Kept Verdict Renamed"
    # The same text is another kind's or another ruleset's verdict there: worked out for each.
    assert [d.code for d in authoring.checked_item("command", good, base).diagnostics] == ["authoring/wrong_kind"]
    assert not authoring.checked_item("influence", good, None).ok  # no packs: influence is no kind in view
    assert authoring.checked_item("influence", good, base) is authoring.checked_item("influence", good, base)
