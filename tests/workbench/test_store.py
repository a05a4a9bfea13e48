"""Saving never loses work: atomic writes, kept history, conflicts, drafts, confined paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nexus_dsl.content.loader import load_ruleset, load_ruleset_collecting
from nexus_dsl.engine.bout import Bout
from nexus_dsl.engine.setup import standard_setup
from nexus_dsl.schema import validate
from nexus_dsl.workbench import store
from nexus_dsl.workbench.authoring import template
from nexus_dsl.workbench.packs import load_packs
from nexus_dsl.workbench.store import (ConflictError, InvalidContentError, StoreError, create_pack, open_for_edit,
                                       safe_path, save, save_data_item, save_declaration, save_draft)
from nexus_dsl.content.loader import cached_ruleset as _cached_ruleset

# The base game, whose packs declare the kinds of card its templates are asked for (`influence`).
BASE_RULES = _cached_ruleset(("base",))

GOOD_INFLUENCE = template("influence", "tipped_scales", "Tipped Scales", BASE_RULES)
BROKEN_INFLUENCE = 'influence tipped_scales "Tipped Scales" {\n    cost 1 cred\n    effect {\n        slide_roll attack by\n    }\n}\n'


@pytest.fixture
def house(content_root: Path) -> Path:
    return create_pack(content_root, "my_house", "House Rule: Mine", "house_rules", ["base"])


# ---------------------------------------------------------------- safe paths
@pytest.mark.parametrize("name", [
    "../../etc/passwd", "/tmp/x.nexus", "a/../../b.nexus", "..", "../x.nexus", "./x.nexus", "a//b.nexus",
    "x.py", "x.nexus.sh", ".hidden.nexus", "x\\..\\y.nexus", "C:/x.nexus", "x\x00.nexus", "caf\u00e9.nexus",
    "", "   ", "a b.nexus", "x.nexus/", "drafts/x.nexus", ".history/x.nexus", "-x.nexus", "x.draft",
])
def test_safe_path_refuses_hostile_names(content_root: Path, name: str) -> None:
    with pytest.raises(StoreError) as refused:
        safe_path(content_root, "base", name)
    assert str(refused.value)  # a message a designer can read


def test_safe_path_accepts_plain_names_inside_the_pack(content_root: Path) -> None:
    path = safe_path(content_root, "base", "cards/new_cards.nexus")
    assert path == content_root / "base" / "cards" / "new_cards.nexus"
    assert safe_path(content_root, "base", "lanistas.yaml") == content_root / "base" / "lanistas.yaml"


def test_safe_path_refuses_unknown_or_malformed_packs(content_root: Path) -> None:
    with pytest.raises(StoreError, match="no pack"):
        safe_path(content_root, "nowhere", "x.nexus")
    with pytest.raises(StoreError, match="pack id"):
        safe_path(content_root, "../base", "x.nexus")


def test_safe_path_refuses_a_symlink_leading_out(content_root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.nexus").write_text("")
    (content_root / "base" / "escape").symlink_to(outside, target_is_directory=True)
    (content_root / "base" / "link.nexus").symlink_to(outside / "x.nexus")
    with pytest.raises(StoreError, match="symbolic link"):
        safe_path(content_root, "base", "escape/x.nexus")
    with pytest.raises(StoreError, match="symbolic link"):
        safe_path(content_root, "base", "link.nexus")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(["..", ".", "", "/", "a", "b.nexus", "x.yaml", "\\", "~", "%2e%2e", "\x00", "C:"]),
             max_size=8).map("/".join),
))
def test_safe_path_never_leaves_the_pack(content_root: Path, name: str) -> None:
    pack = (content_root / "base").resolve()
    try:
        path = safe_path(content_root, "base", name)
    except StoreError:
        return
    resolved = path.resolve()
    assert resolved.is_relative_to(pack)
    assert path.name.endswith((".nexus", ".yaml"))
    assert ".." not in Path(name).parts


# ---------------------------------------------------------------- atomic saves, history, conflicts
def test_save_is_atomic_and_keeps_the_previous_version(house: Path, base) -> None:
    path = house / "cards.nexus"
    opened = open_for_edit(path)
    assert opened.text == "" and opened.fingerprint == store.ABSENT
    first = save(path, GOOD_INFLUENCE, opened.fingerprint, context=base)
    assert path.read_text() == GOOD_INFLUENCE and first.backup is None
    changed = GOOD_INFLUENCE.replace("param bribe_bonus = +SDS", "param bribe_bonus = +2SDS").replace(
        "is +SDS to attack", "is +2SDS to attack")
    second = save(path, changed, first.fingerprint, context=base)
    assert path.read_text() == changed
    assert second.backup is not None and second.backup.read_text() == GOOD_INFLUENCE
    assert second.backup.parent.name == ".history"
    assert store.history_of(path) == [second.backup]
    assert not [p for p in house.iterdir() if p.name.endswith(".tmp")]  # no temporary file left behind


def test_a_file_changed_on_disk_is_never_silently_overwritten(house: Path, base) -> None:
    path = house / "cards.nexus"
    opened = open_for_edit(path)
    save(path, GOOD_INFLUENCE, opened.fingerprint, context=base)
    mine = open_for_edit(path)
    theirs = GOOD_INFLUENCE.replace("One line of colour", "Another line of colour")
    path.write_text(theirs)  # someone else saved meanwhile
    with pytest.raises(ConflictError) as conflict:
        save(path, GOOD_INFLUENCE + "\n", mine.fingerprint, context=base)
    assert conflict.value.disk_text == theirs
    assert conflict.value.your_text == GOOD_INFLUENCE + "\n"
    assert path.read_text() == theirs
    save(path, GOOD_INFLUENCE + "\n", mine.fingerprint, overwrite=True, context=base)  # "keep mine"
    assert path.read_text() == GOOD_INFLUENCE + "\n"
    assert any(p.read_text() == theirs for p in store.history_of(path))


def test_a_file_deleted_since_it_was_opened_is_a_conflict(house: Path, base) -> None:
    path = house / "cards.nexus"
    saved = save(path, GOOD_INFLUENCE, store.ABSENT, context=base)
    path.unlink()
    with pytest.raises(ConflictError) as conflict:
        save(path, GOOD_INFLUENCE, saved.fingerprint, context=base)
    assert conflict.value.disk_text is None


def test_content_that_does_not_validate_is_refused_but_can_be_drafted(house: Path, base) -> None:
    path = house / "cards.nexus"
    with pytest.raises(InvalidContentError) as refused:
        save(path, BROKEN_INFLUENCE, store.ABSENT, context=base)
    assert refused.value.diagnostics and refused.value.diagnostics[0].line == 5
    assert "draft" in str(refused.value)
    assert not path.exists()
    draft = save_draft(path, BROKEN_INFLUENCE)
    assert draft.name == "cards.nexus.draft" and draft.read_text() == BROKEN_INFLUENCE
    assert store.load_draft(path) == BROKEN_INFLUENCE


def test_a_pack_with_drafts_and_history_loads_without_them(house: Path, content_root: Path, base) -> None:
    path = house / "cards.nexus"
    save(path, GOOD_INFLUENCE, store.ABSENT, context=base)
    save(path, GOOD_INFLUENCE + "\n", open_for_edit(path).fingerprint, context=base)  # makes a .history copy
    save_draft(path, template("influence", "drafted_card", "Drafted Card", BASE_RULES))  # valid, yet only a draft
    (house / "drafts").mkdir()
    (house / "drafts" / "more.nexus").write_text(BROKEN_INFLUENCE)
    ruleset, diagnostics = load_ruleset_collecting(["my_house"], content_root)
    assert diagnostics == []
    assert "tipped_scales" in ruleset.scripts["influence"]
    assert "drafted_card" not in ruleset.scripts["influence"]
    assert not any(Path(f).parent.name in (".history", "drafts") or f.endswith(".draft") for f in ruleset.sources)
    assert not ruleset.find("drafted_card")
    bout = Bout(ruleset, standard_setup(2), seed=1)
    assert "drafted_card" not in bout.ruleset.scripts["influence"]
    assert "tipped_scales" in bout.ruleset.scripts["influence"]


def test_create_pack_writes_a_valid_manifest(content_root: Path) -> None:
    folder = create_pack(content_root, "poison_plus", "Poison Plus", "expansion", ["base"], description="More venom.")
    manifest = yaml.safe_load((folder / "pack.yaml").read_text())
    assert folder == content_root / "expansions" / "poison_plus"
    assert validate(manifest, "pack", file="pack.yaml") == []
    assert manifest["kind"] == "expansion" and manifest["builds_on"] == ["base"]
    assert load_ruleset(["poison_plus"], content_root).pack_ids == ("base", "poison_plus")


@pytest.mark.parametrize("pack_id, kind, builds_on, message", [
    ("Bad-Id", "house_rules", ["base"], "snake_case"),
    ("base", "house_rules", ["base"], "already exists"),
    ("fresh", "base", ["base"], "house_rules"),
    ("fresh", "expansion", ["nowhere"], "no pack"),
])
def test_create_pack_refuses(content_root: Path, pack_id: str, kind: str, builds_on: list[str], message: str) -> None:
    with pytest.raises(StoreError, match=message):
        create_pack(content_root, pack_id, "A Pack", kind, builds_on)


def test_create_pack_refuses_an_existing_folder(content_root: Path) -> None:
    (content_root / "house-rules" / "taken").mkdir(parents=True)
    with pytest.raises(StoreError, match="already exists"):
        create_pack(content_root, "taken", "Taken", "house_rules", ["base"])


# ---------------------------------------------------------------- one item inside a file
LANISTAS = """# Our lanistas. Keep this comment.
- id: first_one
  name: First One
  influence: 1  # a trailing comment
  deception: 1
  command: 1
# The second one is the one we edit.
- id: second_one
  name: Second One
  influence: 2
  deception: 2
  command: 2
# And a closing comment.
"""


def test_save_data_item_replaces_by_id_and_keeps_comments(house: Path, base) -> None:
    path = house / "lanistas.yaml"
    path.write_text(LANISTAS)
    item = "id: second_one\nname: Second One, Revised\ninfluence: 3\ndeception: 0\ncommand: 3\n"
    save_data_item(path, item, open_for_edit(path).fingerprint, context=base)
    text = path.read_text()
    assert "# Our lanistas. Keep this comment." in text and "# a trailing comment" in text
    assert "# The second one is the one we edit." in text and "# And a closing comment." in text
    data = yaml.safe_load(text)
    assert [d["id"] for d in data] == ["first_one", "second_one"]
    assert data[1] == {"id": "second_one", "name": "Second One, Revised", "influence": 3, "deception": 0, "command": 3}
    assert data[0]["influence"] == 1


def test_save_data_item_appends_a_new_id(house: Path, base) -> None:
    path = house / "lanistas.yaml"
    path.write_text(LANISTAS)
    save_data_item(path, template("lanista", "third_one", "Third One"), open_for_edit(path).fingerprint, context=base)
    assert [d["id"] for d in yaml.safe_load(path.read_text())] == ["first_one", "second_one", "third_one"]
    assert path.read_text().startswith(LANISTAS.rstrip("\n"))


def test_save_data_item_refuses_invalid_items_and_conflicts(house: Path, base) -> None:
    path = house / "lanistas.yaml"
    path.write_text(LANISTAS)
    opened = open_for_edit(path)
    with pytest.raises(InvalidContentError):
        save_data_item(path, "id: second_one\nname: Nobody\ninfluence: lots\n", opened.fingerprint, context=base)
    path.write_text(LANISTAS + "\n")
    with pytest.raises(ConflictError):
        save_data_item(path, template("lanista", "x_y", "X Y"), opened.fingerprint, context=base)
    assert path.read_text() == LANISTAS + "\n"


def test_save_declaration_replaces_by_id_or_appends(house: Path, base) -> None:
    path = house / "cards.nexus"
    header = "# Our cards.\n\n"
    other = template("influence", "other_card", "Other Card", BASE_RULES)
    save(path, header + GOOD_INFLUENCE + "\n# Between the cards.\n" + other, store.ABSENT, context=base)
    revised = GOOD_INFLUENCE.replace('"Tipped Scales"', '"Scales, Tipped Further"')
    save_declaration(path, revised, open_for_edit(path).fingerprint, context=base)
    text = path.read_text()
    assert text.startswith(header) and "# Between the cards." in text
    assert '"Scales, Tipped Further"' in text and text.count("influence tipped_scales") == 1
    assert "influence other_card" in text
    save_declaration(path, template("influence", "third_card", "Third Card", BASE_RULES), open_for_edit(path).fingerprint,
                     context=base)
    ruleset = load_ruleset(["my_house"], house.parents[1])
    assert {"tipped_scales", "other_card", "third_card"} <= set(ruleset.scripts["influence"])


def test_save_finds_its_own_context_and_refuses_ids_defined_elsewhere_in_the_pack(house: Path, content_root: Path) -> None:
    save(house / "a.nexus", GOOD_INFLUENCE, store.ABSENT, content_root=content_root)
    with pytest.raises(InvalidContentError, match="already defined"):
        save(house / "b.nexus", GOOD_INFLUENCE, store.ABSENT, content_root=content_root)
    assert load_packs(["my_house"], content_root).ok


def test_a_save_that_fails_midway_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "x.nexus"
    path.write_text("old")
    opened = open_for_edit(path)

    def broken_replace(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(StoreError, match="was not saved"):
        save(path, "new", opened.fingerprint, check=False)
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".history", "x.nexus"]
    assert [p.name for p in (tmp_path / ".history").iterdir()] == [".x.nexus.lock"]  # no copy, no temporary


def test_saving_unchanged_text_writes_nothing_and_history_is_per_file(house: Path, base) -> None:
    path = house / "cards.nexus"
    first = save(path, GOOD_INFLUENCE, store.ABSENT, context=base)
    again = save(path, GOOD_INFLUENCE, first.fingerprint, context=base)
    assert again.backup is None and store.history_of(path) == []
    save_draft(path, "draft one")
    save_draft(path, "draft two")
    assert store.history_of(path) == []
    assert [p.read_text() for p in store.history_of(store.draft_path(path))] == ["draft one"]
    assert store.discard_draft(path) and store.load_draft(path) is None


def test_validation_problems_do_not_depend_on_the_draft(house: Path, base) -> None:
    path = house / "cards.nexus"
    save_draft(path, BROKEN_INFLUENCE)
    saved = save(path, GOOD_INFLUENCE, store.ABSENT, context=base)
    assert saved.path.read_text() == GOOD_INFLUENCE and store.load_draft(path) == BROKEN_INFLUENCE
