"""Packs: discovery, layering by id, and the errors a pack can have."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import ContentError, load_ruleset, load_ruleset_collecting
from nexus_dsl.content.loader import discover_packs

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "tests" / "fixtures" / "packs" / "house_tpdm"


def write_pack(folder: Path, pack_id: str, files: dict[str, str], builds_on: str = "[base]") -> Path:
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(f"id: {pack_id}\nname: {pack_id}\nversion: 1.0.0\nbuilds_on: {builds_on}\n")
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_base_is_discovered_by_id():
    assert "base" in discover_packs()


def test_a_later_pack_replaces_a_rule_by_id_and_keeps_the_rest():
    base = load_ruleset(["base"])
    layered = load_ruleset([str(HOUSE)])  # builds_on pulls base in first
    assert layered.pack_ids == ("base", "test_house")
    assert base.setting("crowd_pleaser_bonus") == 1
    assert layered.setting("crowd_pleaser_bonus") == 3
    assert layered.scripts["rule"]["crowd_pleaser"].origin.pack == "test_house"
    assert set(layered.scripts["command"]) == set(base.scripts["command"])


def test_duplicate_ids_within_a_pack_are_errors(tmp_path):
    pack = write_pack(tmp_path / "dup", "dup", {
        "a.nexus": 'rule twice "Twice" {\n    param twice_a = 1\n}\n',
        "b.nexus": 'rule twice "Twice again" {\n    param twice_b = 2\n}\n',
    })
    _, diagnostics = load_ruleset_collecting([pack])
    assert [d.code for d in diagnostics] == ["content/duplicate_id"]
    assert "defined twice" in diagnostics[0].message and diagnostics[0].hint.startswith("first defined at")


def test_dangling_references_are_errors(tmp_path):
    pack = write_pack(tmp_path / "dangle", "dangle", {
        "barges/broken.yaml": "id: broken\nname: Broken\ndescription: Names things that do not exist.\n"
                              "objects:\n  - {type: pilar, at: [2, 2]}\nhazards: [floor_sow]\n",
    })
    _, diagnostics = load_ruleset_collecting([pack])
    messages = sorted(d.message for d in diagnostics)
    assert messages == ["barge `broken` names unknown hazard `floor_sow`", "barge `broken` places unknown object type `pilar`"]
    assert any(d.hint == "did you mean `pillar`?" for d in diagnostics)


def test_unknown_pack_suggests_a_known_one():
    with pytest.raises(ContentError) as error:
        load_ruleset(["bsae"])
    assert error.value.diagnostics[0].hint == "did you mean `base`?"


def test_rule_params_are_global_and_unique(tmp_path):
    pack = write_pack(tmp_path / "clash", "clash", {
        "rules.nexus": 'rule other "Other" {\n    param scale_cap = 4\n}\n',
    })
    _, diagnostics = load_ruleset_collecting([pack])
    assert [d.code for d in diagnostics] == ["check/duplicate_name"]
    assert "also defined by rule `command_cycle`" in diagnostics[0].message


def test_a_pack_cannot_build_on_itself(tmp_path):
    write_pack(tmp_path / "a", "loop_a", {}, builds_on="[loop_b]")
    write_pack(tmp_path / "b", "loop_b", {}, builds_on="[loop_a]")
    _, diagnostics = load_ruleset_collecting(["loop_a"], root=tmp_path)
    assert any(d.code == "content/cycle" for d in diagnostics)
