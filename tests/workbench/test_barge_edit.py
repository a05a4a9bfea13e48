"""Editing a barge: one object a square, what the box allows, the pack's own checks, saving."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from nexus_dsl import cached_ruleset, load_ruleset
from nexus_dsl.workbench import store
from nexus_dsl.workbench.barge_edit import BargeDraft, barges_file, load_barge, placeable_types, save_barge


def draft() -> BargeDraft:
    return BargeDraft("test_deck", "The Test Deck", "A deck for trying things.",
                      [("pillar", (3, 3)), ("brazier", (6, 6))], ["brazier", "crate"])


def test_a_square_holds_one_object_and_toggling_takes_it_away():
    barge = draft()
    edit = barge.place("crate", (3, 3))
    assert edit.replaced == "pillar" and edit.now == "crate" and edit.changed
    assert barge.object_at((3, 3)) == "crate" and len(barge.objects) == 2
    assert barge.toggle("crate", [3, 3]).now is None
    assert barge.object_at((3, 3)) is None
    assert barge.toggle("blood", (3, 3)).now == "blood"
    assert barge.toggle("guts", (3, 3)).replaced == "blood"
    assert barge.remove((5, 5)).changed is False
    assert barge.remove((6, 6)).replaced == "brazier"


def test_placing_on_a_starting_square_is_allowed_but_reported(base):
    barge = draft()
    edit = barge.place("pillar", (1, 8))
    assert barge.object_at((1, 8)) == "pillar"
    assert "south seat's starting square" in edit.note
    assert barge.place("pillar", (4, 4)).note is None
    codes = [d.code for d in barge.problems(base)]
    assert "content/barge_start_occupied" in codes


def test_squares_off_the_board_are_refused_with_words():
    with pytest.raises(ValueError, match="off the board"):
        draft().place("pillar", (9, 1))
    with pytest.raises(ValueError, match=r"\[col, row\]"):
        draft().place("pillar", "a1")


def test_a_sound_barge_has_no_problems_and_every_base_barge_loads_clean(base):
    assert draft().problems(base) == []
    for barge_id in base.data["barges"]:
        assert [d for d in load_barge(base, barge_id).problems(base) if d.severity == "error"] == []


def test_box_counts_are_errors_positioned_in_the_drafts_yaml(base):
    barge = draft()
    for square in [(2, 2), (4, 2), (5, 2), (7, 2)]:
        barge.place("pillar", square)
    problems = barge.problems(base)
    over = [d for d in problems if d.code == "content/barge_over_supply"]
    assert len(over) == 1 and "5 `pillar`" in over[0].message and "holds 4" in over[0].message
    line = barge.to_yaml().splitlines()[over[0].line - 1]
    assert "pillar" in line and "[7, 2]" in line  # the fifth pillar


def test_unknown_hazards_and_object_types_are_named(base):
    barge = draft()
    barge.hazards.append("brazeir")
    barge.place("spike_pit", (5, 5))
    problems = barge.problems(base)
    messages = [d.message for d in problems if d.code == "content/dangling_reference"]
    assert any("unknown hazard `brazeir`" in m for m in messages)
    assert any("unknown object type `spike_pit`" in m for m in messages)
    hazard = next(d for d in problems if "brazeir" in d.message)
    assert "brazier" in (hazard.hint or "")


def test_the_schema_speaks_first(base):
    barge = draft()
    barge.id = "Not An Id"
    problems = barge.problems(base)
    assert problems and all(d.code.startswith("schema/") for d in problems)
    assert problems[0].line == 1


def test_hazard_type_count_is_a_warning(base):
    barge = draft()
    barge.hazards = ["brazier"]
    problems = barge.problems(base)
    assert [(d.code, d.severity) for d in problems] == [("content/barge_hazard_types", "warning")]


def test_counts_show_placed_against_the_box(base):
    barge = draft()
    barge.place("blood", (2, 5))
    barge.place("mystery", (2, 6))
    counts = {c.type: c for c in barge.counts(base)}
    assert counts["pillar"].placed == 1 and counts["pillar"].limit == 4 and counts["pillar"].left == 3
    assert counts["blood"].limit == 10 and not counts["blood"].over
    assert counts["wall"].limit is None and counts["wall"].left is None
    assert counts["mystery"].placed == 1  # an unknown type is still counted, for the page to flag
    for square in [(1, 2), (1, 3), (1, 4), (1, 5)]:
        barge.place("pillar", square)
    assert {c.type: c for c in barge.counts(base)}["pillar"].over


def test_placeable_types_are_every_defined_type_in_a_sensible_order():
    base = cached_ruleset(("base",))
    types = placeable_types(base)
    assert sorted(types) == sorted(base.data["objects"])
    assert types.index("pillar") < types.index("crate") < types.index("floor_saw") < types.index("blood")
    expansion = placeable_types(cached_ruleset(("base", "poison_gallery")))
    assert "dart_column" in expansion and expansion.index("dart_column") < expansion.index("crate")


def test_data_and_yaml_round_trip(base):
    barge = load_barge(base, "gutter_ring")
    assert barge.to_data() == dict(base.data_item("barges", "gutter_ring"))
    assert BargeDraft.from_data(barge.to_data()) == barge
    assert yaml.safe_load(barge.to_yaml()) == barge.to_data()
    odd = draft()
    odd.name = "Yes: no # maybe"
    odd.description = 'Quotes " and \\ backslashes'
    odd.notes = "true"
    assert yaml.safe_load(odd.to_yaml()) == odd.to_data()
    assert "notes" not in draft().to_data()


def test_loading_an_unknown_barge_says_so(base):
    with pytest.raises(KeyError, match="gutter_rinng"):
        load_barge(base, "gutter_rinng")


def test_saving_replaces_the_entry_and_keeps_the_rest(tmp_path: Path, base):
    path = barges_file(tmp_path)
    original = (Path(__file__).resolve().parents[2] / "content/base/barges.yaml").read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    barge = load_barge(base, "quiet_cloister")
    barge.name = "The Quieter Cloister"
    barge.remove((1, 3))
    saved = save_barge(barge, path, store.open_for_edit(path).fingerprint, context=base)
    text = path.read_text(encoding="utf-8")
    assert "name: The Quieter Cloister" in text and "{type: guts, at: [1, 3]}" not in text
    assert text.splitlines()[:10] == original.splitlines()[:10]  # the header comments are kept
    entries = yaml.safe_load(text)
    assert [e["id"] for e in entries] == [e["id"] for e in yaml.safe_load(original)]
    assert next(e for e in entries if e["id"] == "quiet_cloister") == barge.to_data()
    assert saved.backup is not None and saved.backup.is_file()

    fresh = draft()
    save_barge(fresh, path, saved.fingerprint, context=base)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))[-1] == fresh.to_data()


def test_saving_refuses_a_broken_barge_and_a_file_changed_meanwhile(tmp_path: Path, base):
    path = barges_file(tmp_path)
    opened = store.open_for_edit(path)
    broken = draft()
    broken.place("pillar", (8, 1))
    with pytest.raises(store.InvalidContentError):
        save_barge(broken, path, opened.fingerprint, context=base)
    assert not path.exists()
    save_barge(draft(), path, opened.fingerprint, context=base)
    with pytest.raises(store.ConflictError):
        save_barge(draft(), path, opened.fingerprint, context=base)


def test_a_saved_barge_loads_with_its_pack(content_root: Path):
    barge = draft()
    path = barges_file(content_root / "base")
    save_barge(barge, path, store.open_for_edit(path).fingerprint, content_root=content_root)
    assert load_ruleset(["base"], content_root).data_item("barges", "test_deck") == barge.to_data()


def test_each_problem_names_the_squares_it_concerns(base):
    barge = BargeDraft("marked", "Marked", "x", [("pillar", (1, 8)), ("pillar", (3, 3))], ["brazier", "crate"])
    for square in [(4, 4), (5, 5), (6, 6)]:
        barge.place("pillar", square)
    located = {p.diagnostic.code: p for p in barge.square_problems(base)}
    assert set(located) == {"content/barge_start_occupied", "content/barge_over_supply"}
    assert located["content/barge_start_occupied"].squares == ((1, 8),)
    assert located["content/barge_over_supply"].squares == ((6, 6),)  # the first piece beyond the box
    text = located["content/barge_start_occupied"].text()
    assert text.startswith("[1, 8]: error: barge `marked` places `pillar` on [1, 8], the south seat's starting square")
    assert text.endswith("[content/barge_start_occupied]") and "hint: every starting square must be empty" in text


def test_a_seat_boxed_in_is_marked_on_its_starting_square_and_a_barge_wide_warning_on_none(base):
    barge = BargeDraft("boxed", "Boxed", "x", [("wall", (1, 2)), ("wall", (2, 1)), ("wall", (2, 2))], [])
    located = {p.diagnostic.code: p for p in barge.square_problems(base)}
    assert located["content/barge_start_boxed_in"].squares == ((1, 1),)
    assert located["content/barge_hazard_types"].squares == ()
    assert located["content/barge_hazard_types"].where() == "the barge"
    assert not located["content/barge_hazard_types"].is_error
    assert [p.diagnostic for p in barge.square_problems(base)] == barge.problems(base)


def test_the_hazards_the_pieces_wake_come_from_the_hazards_own_objects(base):
    barge = BargeDraft("woken", "Woken", "x", [("pillar", (3, 3)), ("crate", (4, 4)), ("fire", (5, 5))], [])
    assert barge.woken_hazards(base) == {"brazier": ["fire"], "crate": ["crate"], "pulled_into_hazard": ["fire"]}
    assert BargeDraft("none", objects=[("pillar", (3, 3))]).woken_hazards(base) == {}
    gallery = cached_ruleset(("base", "poison_gallery"))
    assert BargeDraft("darts", objects=[("dart_column", (3, 3))]).woken_hazards(gallery) == {"dart_column": ["dart_column"]}
