"""Hostile packs: files that lead outside, that are not UTF-8, empty, too many or too large, and
packs that build on each other in a cycle. Each is one positioned diagnostic; nothing outside a pack
is read or shown; one bad file or pack never stops the others from being checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nexus_dsl.cli import main
from nexus_dsl.content.loader import discover_packs, load_pack_folder, load_ruleset_collecting
from nexus_dsl.errors import Diagnostic, format_all
from nexus_dsl.limits import InputLimits
from nexus_dsl.validate_files import check_paths
from support import write_pack

MEASURE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile_yaml" / "measure.py"
SECRET = "the-secret-text-of-another-user"
RULE = 'rule {id} "A Rule" {{\n    text "Nothing happens."\n}}\n'
LANISTA = "- id: {id}\n  name: A Lanista\n  influence: 1\n  deception: 1\n  command: 1\n"


def secret_file(tmp_path: Path, name: str) -> Path:
    """A file outside every pack, whose text must never be read into a report."""
    outside = tmp_path / "elsewhere"
    outside.mkdir(exist_ok=True)
    path = outside / name
    path.write_text(f'rule stolen "{SECRET}" {{\n    text "{SECRET}"\n}}\n' if name.endswith(".nexus")
                    else f"- id: stolen\n  name: {SECRET}\n")
    return path


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def located(diagnostics: list[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, diagnostics
    return found[0]


# ---------------------------------------------------------------- reading confined to the pack
@pytest.mark.parametrize("name", ["stolen.nexus", "lanistas.yaml"])
def test_a_file_linked_outside_its_pack_is_refused_and_its_text_never_kept(tmp_path: Path, name: str) -> None:
    pack = write_pack(tmp_path / "packs" / "leaky", "leaky", {
        "rules.nexus": RULE.format(id="kept_rule"),
        "broken.nexus": 'rule broken "Broken" {\n    when dice_rolled {\n        add_damge 1\n    }\n}\n',
    })
    (pack / name).symlink_to(secret_file(tmp_path, name))
    report = check_paths([pack])
    outside = located(report.diagnostics, "content/outside_root")
    assert outside.file.endswith(f"leaky/{name}")
    # The other files were still checked: the typo in broken.nexus is reported at its place.
    assert any(d.file.endswith("broken.nexus") and (d.line, d.column) == (3, 9) for d in report.diagnostics)
    assert all(SECRET not in text for text in report.sources.values())
    assert SECRET not in format_all(report.diagnostics, report.sources)
    assert not any(key.endswith(name) for key in report.sources)


def test_a_manifest_linked_outside_is_refused_and_not_discovered(tmp_path: Path) -> None:
    stranger = tmp_path / "elsewhere" / "stranger"
    write_pack(stranger, "stranger")
    folder = tmp_path / "packs" / "linked"
    folder.mkdir(parents=True)
    (folder / "pack.yaml").symlink_to(stranger / "pack.yaml")
    assert "stranger" not in discover_packs(tmp_path / "packs")
    diagnostics: list[Diagnostic] = []
    assert load_pack_folder(folder, diagnostics) is None
    assert codes(diagnostics) == ["content/outside_root"]


def test_loose_files_are_confined_to_the_folder_given(tmp_path: Path) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "lanistas.yaml").write_text(LANISTA.format(id="fine_one"))
    (loose / "linked.yaml").symlink_to(secret_file(tmp_path, "lanistas.yaml"))
    report = check_paths([loose])
    assert codes(report.diagnostics) == ["content/outside_root"]
    assert report.diagnostics[0].file.endswith("linked.yaml")
    assert SECRET not in format_all(report.diagnostics, report.sources)
    # A link named on its own is read confined to its own folder, and refused the same way.
    alone = check_paths([loose / "linked.yaml"])
    assert codes(alone.diagnostics) == ["content/outside_root"] and not alone.sources


def test_a_symlinked_folder_inside_a_pack_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "lanistas.yaml").write_text(f"- id: stolen\n  name: {SECRET}\n")
    pack = write_pack(tmp_path / "packs" / "linking", "linking", {"rules.nexus": RULE.format(id="a_rule")})
    (pack / "lanistas").symlink_to(outside, target_is_directory=True)
    ruleset, diagnostics = load_ruleset_collecting([pack], tmp_path / "packs")
    assert diagnostics == [] and ruleset is not None
    assert "stolen" not in ruleset.data.get("lanistas", {})
    assert all(SECRET not in text for text in ruleset.sources.values())


def test_a_pack_folder_linked_from_outside_the_content_root_is_reported_not_read(tmp_path: Path) -> None:
    stranger = write_pack(tmp_path / "elsewhere" / "stranger", "stranger", {"rules.nexus": f"# {SECRET}\n"})
    root = tmp_path / "content"
    write_pack(root / "mine", "mine", {"rules.nexus": RULE.format(id="my_rule")})
    (root / "linked").symlink_to(stranger, target_is_directory=True)
    report = check_paths([root])
    assert codes(report.diagnostics) == ["content/outside_root"]
    assert report.diagnostics[0].file.endswith("content/linked/pack.yaml")
    assert [Path(folder).name for folder in report.checked] == ["mine"]
    assert SECRET not in format_all(report.diagnostics, report.sources)
    assert "stranger" not in discover_packs(root)


# ---------------------------------------------------------------- one bad file, the rest still checked
def test_a_file_that_is_not_utf8_is_positioned_and_every_other_pack_still_checked(tmp_path: Path) -> None:
    root = tmp_path / "content"
    write_pack(root / "bad", "bad_pack", {"lanistas.yaml": "- id: caf\xc3\n".encode("latin-1") + b"\xff\xfe\n"})
    write_pack(root / "good", "good_pack", {"rules.nexus": RULE.format(id="good_rule")})
    write_pack(root / "typo", "typo_pack", {"lanistas.yaml": LANISTA.format(id="x").replace("influence", "inflence")})
    report = check_paths([root])
    assert len(report.checked) == 3
    not_utf8 = located(report.diagnostics, "content/not_utf8")
    assert not_utf8.file.endswith("bad/lanistas.yaml") and (not_utf8.line, not_utf8.column) == (1, 10)
    assert any(d.file.endswith("typo/lanistas.yaml") and d.code == "schema/unknown_key" for d in report.diagnostics)
    assert not any("good" in d.file for d in report.diagnostics)


@pytest.mark.parametrize("name, text", [("lanistas.yaml", ""), ("barges/empty.yaml", "# nothing yet\n"),
                                        ("objects.yaml", "\n\n   \n")])
def test_an_empty_data_file_is_a_positioned_error(tmp_path: Path, name: str, text: str) -> None:
    pack = write_pack(tmp_path / "p", "empty_files", {name: text})
    _, diagnostics = load_ruleset_collecting([pack], tmp_path)
    empty = located(diagnostics, "yaml/empty")
    assert empty.file.endswith(name) and (empty.line, empty.column) == (1, 1)


def test_an_empty_manifest_is_a_positioned_error(tmp_path: Path) -> None:
    folder = tmp_path / "hollow"
    folder.mkdir()
    (folder / "pack.yaml").write_text("# to be written\n")
    report = check_paths([folder])
    empty = located(report.diagnostics, "yaml/empty")
    assert empty.file.endswith("hollow/pack.yaml") and (empty.line, empty.column) == (1, 1)


@pytest.mark.parametrize("text, code, line, column", [
    ("- id: !!bool maybe\n", "yaml/bad_value", 1, 7),
    ("- id: !!timestamp notadate\n", "yaml/syntax", 1, 7),
    ("- id: x\n  influence: " + "9" * 4301 + "\n", "yaml/number_too_large", 2, 14),
    ("- id: x\n  name: a\x01b\n", "yaml/bad_character", 2, 10),
    ("- id: x\n  name: " + "[" * 40 + "]" * 40 + "\n", "yaml/too_deep", 2, 39),  # the 31st `[` is the 33rd level
])
def test_malformed_yaml_in_a_pack_is_a_positioned_diagnostic_in_nexus_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, code: str, line: int, column: int) -> None:
    pack = write_pack(tmp_path / "p", "malformed", {"lanistas.yaml": text, "rules.nexus": RULE.format(id="a_rule")})
    assert main(["check", str(pack), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    (error,) = out["errors"]
    assert (error["code"], error["line"], error["column"]) == (code, line, column)
    assert error["file"].endswith("p/lanistas.yaml")
    assert main(["check", str(pack)]) == 1
    printed = capsys.readouterr()
    assert f"lanistas.yaml:{line}:{column}: error:" in printed.out and "Traceback" not in printed.out + printed.err


def test_the_first_item_beyond_the_limit_is_where_the_error_points(tmp_path: Path) -> None:
    items = "".join(LANISTA.format(id=f"lanista_{i}") for i in range(1001))
    pack = write_pack(tmp_path / "p", "crowded", {"lanistas.yaml": items})
    _, diagnostics = load_ruleset_collecting([pack], tmp_path)
    beyond = located(diagnostics, "yaml/too_many_items")
    assert (beyond.line, beyond.column) == (1 + 5 * 1000, 3)


# ---------------------------------------------------------------- pack limits
def test_a_pack_with_more_files_than_allowed_stops_at_the_first_beyond(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "p", "many", {f"r{i}.nexus": RULE.format(id=f"rule_{i}") for i in range(5)})
    diagnostics: list[Diagnostic] = []
    loaded = load_pack_folder(pack, diagnostics, InputLimits(max_pack_files=3))
    too_many = located(diagnostics, "content/too_many_files")
    assert too_many.file.endswith("r3.nexus")
    assert loaded is not None and [item.declaration.id for item in loaded.scripts] == ["rule_0", "rule_1", "rule_2"]


def test_a_pack_larger_than_allowed_stops_at_the_file_that_crosses(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "p", "heavy", {f"r{i}.nexus": RULE.format(id=f"rule_{i}") for i in range(4)})
    size = len(RULE.format(id="rule_0").encode())
    diagnostics: list[Diagnostic] = []
    loaded = load_pack_folder(pack, diagnostics, InputLimits(max_pack_bytes=2 * size + 1))
    assert located(diagnostics, "content/pack_too_large").file.endswith("r2.nexus")
    assert loaded is not None and len(loaded.scripts) == 2


def test_a_file_larger_than_allowed_is_refused_and_the_rest_loaded(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "p", "big_file", {"a.nexus": RULE.format(id="small_rule"),
                                                   "lanistas.yaml": LANISTA.format(id="x") * 3})
    diagnostics: list[Diagnostic] = []
    loaded = load_pack_folder(pack, diagnostics, InputLimits(max_file_bytes=100))
    too_large = located(diagnostics, "content/too_large")
    assert too_large.file.endswith("lanistas.yaml") and (too_large.line, too_large.column) == (8, 6)  # byte 100
    assert loaded is not None and [item.declaration.id for item in loaded.scripts] == ["small_rule"]


def measured_check(path: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(MEASURE), "check", str(path)], capture_output=True, text=True,
                          timeout=120, check=True)
    return json.loads(done.stdout)


def test_checking_a_pack_with_ten_megabytes_of_data_is_quick_and_small(tmp_path: Path) -> None:
    pack = write_pack(tmp_path / "p", "huge", {"lanistas.yaml": LANISTA.format(id="same") * 150_000})
    assert (pack / "lanistas.yaml").stat().st_size > 10_000_000
    cost = measured_check(pack)
    assert [d[0] for d in cost["diagnostics"]] == ["content/too_large"]
    assert cost["cpu"] < 1.0 and cost["grown_mb"] < 100


def test_checking_a_pack_with_an_alias_bomb_is_quick_and_small(tmp_path: Path) -> None:
    bomb = "".join(f"- &a{i} [{', '.join([f'*a{i - 1}'] * 9) if i else ', '.join(['x'] * 9)}]\n" for i in range(10))
    pack = write_pack(tmp_path / "p", "bomb", {"lanistas.yaml": bomb})
    cost = measured_check(pack)
    assert cost["diagnostics"] == [["yaml/too_many_nodes", 6, 8]]  # the first `*a4`
    assert cost["cpu"] < 1.0 and cost["grown_mb"] < 100


# ---------------------------------------------------------------- builds_on
def test_a_two_pack_cycle_is_named_and_points_at_the_entry_that_closes_it(tmp_path: Path) -> None:
    write_pack(tmp_path / "a", "loop_a", builds_on="[loop_b]")
    write_pack(tmp_path / "b", "loop_b", builds_on="\n  - base_stuff\n  - loop_a")
    write_pack(tmp_path / "base_stuff", "base_stuff")
    _, diagnostics = load_ruleset_collecting(["loop_a"], root=tmp_path)
    cycle = located(diagnostics, "content/cycle")
    assert cycle.message == "packs build on each other in a cycle: loop_a → loop_b → loop_a"
    assert cycle.file.endswith("b/pack.yaml") and (cycle.line, cycle.column, cycle.end_column) == (6, 5, 11)
    assert "loop_a" in (cycle.hint or "") and "loop_b" in (cycle.hint or "")


def test_a_three_pack_cycle_and_a_pack_built_on_itself(tmp_path: Path) -> None:
    write_pack(tmp_path / "one", "one", builds_on="[two]")
    write_pack(tmp_path / "two", "two", builds_on="[three]")
    write_pack(tmp_path / "three", "three", builds_on="[one]")
    write_pack(tmp_path / "self", "selfish", builds_on="[selfish]")
    _, diagnostics = load_ruleset_collecting(["two"], root=tmp_path)
    cycle = located(diagnostics, "content/cycle")
    assert cycle.message.endswith("two → three → one → two") and cycle.file.endswith("one/pack.yaml")
    assert (cycle.line, cycle.column) == (4, 13)
    _, diagnostics = load_ruleset_collecting(["selfish"], root=tmp_path)
    cycle = located(diagnostics, "content/cycle")
    assert cycle.message == "pack `selfish` builds on itself: selfish → selfish" and (cycle.line, cycle.column) == (4, 13)


def test_building_on_an_unknown_pack_points_at_the_entry(tmp_path: Path) -> None:
    write_pack(tmp_path / "lonely", "lonely", builds_on="[bsae]")
    write_pack(tmp_path / "base_like", "base")
    _, diagnostics = load_ruleset_collecting(["lonely"], root=tmp_path)
    unknown = located(diagnostics, "content/unknown_pack")
    assert unknown.file.endswith("lonely/pack.yaml") and (unknown.line, unknown.column) == (4, 13)
    assert unknown.hint == "did you mean `base`?"


def test_a_pack_is_built_on_by_id_never_by_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A folder named like the id, beside the working folder, is not what `builds_on` names.
    write_pack(tmp_path / "cwd" / "lookalike", "elsewhere_pack")
    write_pack(tmp_path / "root" / "mine", "mine", builds_on="[lookalike]")
    monkeypatch.chdir(tmp_path / "cwd")
    _, diagnostics = load_ruleset_collecting(["mine"], root=tmp_path / "root")
    assert codes(diagnostics) == ["content/unknown_pack"]
