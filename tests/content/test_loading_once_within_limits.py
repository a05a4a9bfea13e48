"""Loading a pack reads each file once and no more than the pack limits allow, whether or not the
pack loads: the texts kept for excerpts are those the loader read; a pack's files are walked no
further than one beyond `max_pack_files`; each manifest is read and parsed once per load; the limits
a caller hands over reach every read, parse and YAML load of the pack; a pack folder linked from
outside the root is refused the same way by `nexus check` and by asking for the pack by name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nexus_dsl.content import loader
from nexus_dsl.content.loader import load_pack_folder, load_ruleset_collecting
from nexus_dsl.errors import Diagnostic, format_all
from nexus_dsl.limits import INPUT_LIMITS, InputLimits
from nexus_dsl.validate_files import check_paths
from support import record_calls, write_pack

RULE = 'rule {id} "A Rule" {{\n    text "Nothing happens."\n}}\n'


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


# ---------------------------------------------------------------- the sources of a pack that failed
def test_nexus_check_keeps_only_what_the_loader_read_of_a_pack_too_large(tmp_path: Path) -> None:
    """A pack of 30 files of 400 KB holds 12 MB; the loader stops at the file that crosses the 8 MB
    of a pack, and the report keeps the texts read before it, never the rest."""
    size = 400_000
    files = {f"part_{index:02}.nexus": "#" + "x" * (size - 2) + "\n" for index in range(30)}
    pack = write_pack(tmp_path / "big", "big", files)
    report = check_paths([pack])
    assert codes(report.errors) == ["content/pack_too_large"]
    crossing = report.errors[0].file
    assert crossing.endswith(f"part_{INPUT_LIMITS.max_pack_bytes // size:02}.nexus")
    kept = [name for name in report.sources if name.endswith(".nexus")]
    assert len(kept) == INPUT_LIMITS.max_pack_bytes // size
    assert crossing not in report.sources
    assert sum(len(text) for text in report.sources.values()) <= INPUT_LIMITS.max_pack_bytes + 200


def test_the_sources_of_a_failed_load_are_what_was_read_within_the_limits_handed_over(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "small", "small", {f"r{index}.nexus": RULE.format(id=f"rule_{index}")
                                                    for index in range(6)})
    outcome = loader.load_collecting_sources([pack], tmp_path, InputLimits(max_pack_files=2))
    assert outcome.ruleset is None and codes(outcome.diagnostics) == ["content/too_many_files"]
    assert sorted(Path(name).name for name in outcome.sources) == ["pack.yaml", "r0.nexus", "r1.nexus"]


def test_a_manifest_that_does_not_validate_is_shown_under_its_error(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "odd", "odd", manifest="id: odd\nname: Odd\nversion: 1.0.0\nbuilds_on: 7\n")
    report = check_paths([pack])
    assert report.errors and all(d.file.endswith("pack.yaml") for d in report.errors)
    assert "builds_on: 7" in format_all(report.diagnostics, report.sources)


# ---------------------------------------------------------------- a lazy walk
def test_a_pack_of_many_folders_is_walked_no_further_than_one_file_beyond_the_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = write_pack(tmp_path / "wide", "wide", {f"folder_{index:03}/rules.nexus": RULE.format(id=f"rule_{index}")
                                                  for index in range(200)})
    listed = record_calls(monkeypatch, os, "scandir", lambda path=".": Path(path))
    diagnostics: list[Diagnostic] = []
    load_pack_folder(pack, diagnostics, InputLimits(max_pack_files=3))
    assert codes(diagnostics) == ["content/too_many_files"]
    below_the_pack = [path for path in listed if path != pack and pack in path.parents]
    assert len(below_the_pack) <= 4  # three files loaded, the fourth refused: nothing after it listed


# ---------------------------------------------------------------- each manifest once
def test_each_manifest_is_read_and_parsed_once_per_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "content"
    write_pack(root / "lower", "lower", {"rules.nexus": RULE.format(id="lower_rule")})
    write_pack(root / "upper", "upper", {"rules.nexus": RULE.format(id="upper_rule")},
               manifest="id: upper\nname: Upper\nversion: 1.0.0\nbuilds_on: [lower]\n")
    parsed = record_calls(monkeypatch, loader, "load_yaml_with_positions", lambda text, file, **_: Path(file).parent.name)
    ruleset, diagnostics = load_ruleset_collecting(["upper"], root)
    assert diagnostics == [] and ruleset is not None
    assert sorted(parsed) == ["lower", "upper"]
    parsed.clear()
    ruleset, diagnostics = load_ruleset_collecting([root / "upper"], root)  # named by its folder
    assert diagnostics == [] and sorted(parsed) == ["lower", "upper"]


# ---------------------------------------------------------------- bytes as read
def test_a_pack_s_bytes_are_counted_as_they_are_on_disk(tmp_path: Path) -> None:
    """A byte-order mark is dropped from the text, but it was read: it counts."""
    first, second = (b"\xef\xbb\xbf" + RULE.format(id=f"marked_{which}").encode() for which in "ab")
    pack = write_pack(tmp_path / "marked", "marked", {"a.nexus": first, "b.nexus": second})
    diagnostics: list[Diagnostic] = []
    load_pack_folder(pack, diagnostics, InputLimits(max_pack_bytes=len(first) + len(second) - 1))
    assert codes(diagnostics) == ["content/pack_too_large"]
    assert diagnostics[0].file.endswith("b.nexus")


# ---------------------------------------------------------------- limits reach every layer
def test_the_limits_handed_over_reach_the_parse_of_every_script(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "named", "named", {"rules.nexus": RULE.format(id="a_rather_long_id")})
    diagnostics: list[Diagnostic] = []
    load_pack_folder(pack, diagnostics, InputLimits(max_identifier_length=8))
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("syntax/too_long", 1, 6)]


def test_the_limits_handed_over_reach_the_manifest(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "listed", "listed", {"rules.nexus": RULE.format(id="a_rule")})
    diagnostics: list[Diagnostic] = []
    assert load_pack_folder(pack, diagnostics, InputLimits(max_yaml_nodes=5)) is None
    assert codes(diagnostics) == ["yaml/too_many_nodes"] and diagnostics[0].file.endswith("pack.yaml")
    _, diagnostics = load_ruleset_collecting([pack], tmp_path, InputLimits(max_file_bytes=20))
    assert codes(diagnostics) == ["content/too_large"] and diagnostics[0].file.endswith("pack.yaml")


# ---------------------------------------------------------------- a pack folder linked from outside
def test_a_linked_pack_folder_is_refused_alike_by_check_and_by_name(tmp_path: Path) -> None:
    stranger = write_pack(tmp_path / "elsewhere" / "stranger", "stranger")
    root = tmp_path / "content"
    write_pack(root / "mine", "mine", {"rules.nexus": RULE.format(id="my_rule")})
    (root / "linked").symlink_to(stranger, target_is_directory=True)
    (root / "drafts").mkdir()
    (root / "drafts" / "linked").symlink_to(stranger, target_is_directory=True)  # set aside: never looked at
    checked = check_paths([root]).diagnostics
    _, by_name = load_ruleset_collecting(["linked"], root)
    assert codes(checked) == codes(by_name) == ["content/outside_root"]
    assert checked[0] == by_name[0]
    assert checked[0].file.endswith("content/linked/pack.yaml") and (checked[0].line, checked[0].column) == (1, 1)
    assert "symbolic link" in checked[0].message
