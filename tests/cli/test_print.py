"""`nexus print`: the PDF read back. Nine faces a page, each card's name on its own page, pages of
A4 or Letter, crop marks that cut 63 x 88 mm cards, the editor's own faces as searchable text, a barge
a page; a name the packs do not hold is exit 2 with a suggestion and writes nothing; a failed write
leaves the file that was there."""

from __future__ import annotations

import errno
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pdf_reading import MM, crop_marks, pages_of, size_of, text_of

from nexus_dsl.cards import all_faces
from nexus_dsl.cli import main
from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.workbench.card_svg import CARD_HEIGHT, CARD_WIDTH, drawn_as, face_svg, fitted

A4_POINTS = (595.28, 841.89)
LETTER_POINTS = (612.0, 792.0)
SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def single_faced(kind: str, count: int) -> list[tuple[str, str]]:
    """`count` items of `kind` from the base pack, (id, name), each drawn on one face with a name
    of its own, so each face takes one place on a sheet and its name tells its page."""
    faces = [face for face in all_faces(cached_ruleset(("base",)), kind) if len(fitted(face)[1]) == 1]
    chosen = [(face.id, face.name) for face in faces][:count]
    assert len(chosen) == count and len({name for _, name in chosen}) == count
    return chosen


def print_pdf(capsys: pytest.CaptureFixture[str], *options: str) -> tuple[int, str, str]:
    code = main(["print", *options])
    out, err = capsys.readouterr()
    return code, out, err


def close(actual: tuple[float, float], expected: tuple[float, float]) -> bool:
    return all(abs(a - e) < 0.01 for a, e in zip(actual, expected))


def test_ten_cards_are_two_a4_pages_of_nine_each_name_on_its_page(tmp_path: Path, capsys) -> None:
    cards = single_faced("influence", 10)
    out = tmp_path / "sheet.pdf"
    code, printed, _ = print_pdf(capsys, "--cards", ",".join(ident for ident, _ in cards), "--out", str(out))
    assert code == 0 and printed.startswith(f"wrote {out}: 2 page(s), 10 card(s)")
    pages = pages_of(out)
    assert len(pages) == 2
    assert all(close(size_of(page), A4_POINTS) for page in pages)
    first, second = text_of(pages[0]), text_of(pages[1])
    for _, name in cards[:9]:
        assert name in first and name not in second
    assert cards[9][1] in second and cards[9][1] not in first


@pytest.mark.parametrize("page, points", [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_crop_marks_cut_cards_of_63_by_88_mm_centred_on_the_page(tmp_path: Path, capsys, page: str,
                                                                  points: tuple[float, float]) -> None:
    out = tmp_path / f"{page}.pdf"
    cards = single_faced("turning_point", 4)
    assert print_pdf(capsys, "--cards", ",".join(ident for ident, _ in cards), "--page", page, "--out", str(out))[0] == 0
    [sheet] = pages_of(out)
    assert close(size_of(sheet), points)
    xs, ys = crop_marks(sheet)
    assert len(xs) == 4 and len(ys) == 4  # the edges of three columns and of three rows
    assert all(abs((b - a) - CARD_WIDTH * MM) < 0.05 for a, b in zip(xs, xs[1:]))  # 178.58 pt
    assert all(abs((b - a) - CARD_HEIGHT * MM) < 0.05 for a, b in zip(ys, ys[1:]))  # 249.45 pt
    width, height = points
    assert abs(xs[0] - (width - xs[-1])) < 0.05 and abs(ys[0] - (height - ys[-1])) < 0.05


def test_a_printed_face_is_the_editor_s_face_as_searchable_text(tmp_path: Path, capsys) -> None:
    ruleset = cached_ruleset(("base",))
    out = tmp_path / "one.pdf"
    [(ident, _)] = single_faced("turning_point", 1)
    assert print_pdf(capsys, "--cards", ident, "--out", str(out))[0] == 0
    [face] = [face for face in all_faces(ruleset) if face.id == ident]
    lines = [element.text or "" for element in ET.fromstring(face_svg(*drawn_as(ruleset, face))).iter(SVG_TEXT)]
    page_text = text_of(pages_of(out)[0])
    assert len(lines) > 5
    for line in lines:  # name, type line, badges, every line of the rules and flavour, the foot
        assert " ".join(line.split()) in page_text


def test_barges_are_printed_one_a_page_with_their_names_and_hazards(tmp_path: Path, capsys) -> None:
    ruleset = cached_ruleset(("base",))
    barges = ruleset.data["barges"]
    out = tmp_path / "barges.pdf"
    code, printed, _ = print_pdf(capsys, "--barges", "--out", str(out))
    assert code == 0 and f"{len(barges)} barge(s)" in printed and "0 card(s)" in printed
    pages = pages_of(out)
    assert len(pages) == len(barges) == 8
    hazard_names = {ident: item.declaration.name for ident, item in ruleset.scripts["hazard"].items()}
    for page, barge in zip(pages, barges.values()):
        assert close(size_of(page), A4_POINTS)
        text = text_of(page)
        assert str(barge.data["name"]) in text and "NORTH" in text
        others = [str(other.data["name"]) for other in barges.values() if other is not barge]
        assert not any(name in text for name in others)
        for hazard in barge.data["hazards"]:
            assert hazard_names[hazard] in text


def test_named_barges_follow_the_cards_on_letter_pages(tmp_path: Path, capsys) -> None:
    out = tmp_path / "mixed.pdf"
    [(ident, name)] = single_faced("weapon", 1)
    code, _, _ = print_pdf(capsys, "--cards", ident, "--barges", "pincushion,riot_deck", "--page", "letter",
                           "--out", str(out))
    assert code == 0
    pages = pages_of(out)
    assert len(pages) == 3 and all(close(size_of(page), LETTER_POINTS) for page in pages)
    assert name in text_of(pages[0])
    assert "The Pincushion" in text_of(pages[1]) and "The Riot Deck" in text_of(pages[2])


@pytest.mark.parametrize("options, message", [
    (["--cards", "assasins_dart"], "unknown card `assasins_dart` (did you mean `assassins_dart`"),
    (["--kinds", "turning_pont"], "unknown kind `turning_pont` (did you mean `turning_point`?)"),
    (["--packs", "bse"], "unknown pack `bse` (did you mean `base`?)"),
    (["--barges", "pincushon"], "unknown barge `pincushon` (did you mean `pincushion`?)"),
    (["--packs", "nexus_pirates", "--barges"], "has no board layouts to print"),
])
def test_a_name_the_packs_do_not_hold_is_exit_2_with_a_suggestion_and_no_file(tmp_path: Path, capsys,
                                                                             options: list[str], message: str) -> None:
    out = tmp_path / "never.pdf"
    code, printed, err = print_pdf(capsys, *options, "--out", str(out))
    assert code == 2 and printed == ""
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where, message", [("folder", "is a folder"), ("missing", "no folder")])
def test_an_output_that_cannot_be_a_file_is_exit_2(tmp_path: Path, capsys, where: str, message: str) -> None:
    out = tmp_path if where == "folder" else tmp_path / "absent" / "sheet.pdf"
    code, _, err = print_pdf(capsys, "--cards", "assassins_dart", "--out", str(out))
    assert code == 2 and message in err
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_file_that_was_there_and_no_partial_one(tmp_path: Path, capsys,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "sheet.pdf"
    out.write_bytes(b"the sheet printed yesterday")

    def disk_full(_descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("nexus_dsl.files.os.fsync", disk_full)
    code, _, err = print_pdf(capsys, "--cards", "assassins_dart", "--out", str(out))
    assert code == 1 and f"{out} was not written: No space left on device" in err
    assert out.read_bytes() == b"the sheet printed yesterday"
    assert [path.name for path in tmp_path.iterdir()] == ["sheet.pdf"]  # the temporary is gone


def test_a_second_print_replaces_the_file_whole(tmp_path: Path, capsys) -> None:
    out = tmp_path / "sheet.pdf"
    out.write_bytes(b"x" * 1_000_000)  # longer than the new PDF: nothing of it may remain
    assert print_pdf(capsys, "--cards", "assassins_dart", "--out", str(out))[0] == 0
    assert len(pages_of(out)) == 1 and out.read_bytes().rstrip().endswith(b"%%EOF")


def test_markup_and_control_characters_in_a_pack_are_printed_as_text(tmp_path: Path, capsys,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pack = tmp_path / "content" / "evil"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text('id: evil\nname: "Evil <b>&amp;</b> \\x01 pack"\nversion: 1.0.0\n')
    (pack / "blade.nexus").write_text('weapon evil_blade "Evil \x01 <i>Blade</i> &amp;" {\n    text "cuts \x02 deep"\n}\n')
    monkeypatch.setenv("NEXUS_CONTENT_ROOT", str(tmp_path / "content"))
    out = tmp_path / "evil.pdf"
    code, _, err = print_pdf(capsys, "--packs", "evil", "--out", str(out))
    assert code == 0, err
    text = text_of(pages_of(out)[0])
    # A character XML cannot hold is drawn as U+FFFD; markup is words on the card
    assert "Evil \ufffd <i>Blade</i> &amp;" in text and "cuts \ufffd deep" in text
    assert "Evil <b>&amp;</b> \ufffd pack" in text


def test_without_the_cairo_library_the_message_names_the_package_to_install(tmp_path: Path, capsys,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairocffi", None)  # its import fails, as where libcairo is missing
    out = tmp_path / "sheet.pdf"
    code, _, err = print_pdf(capsys, "--cards", "assassins_dart", "--out", str(out))
    assert code == 1 and "needs the cairo library" in err and "apt-get install libcairo2" in err
    assert "Traceback" not in err and not out.exists()
