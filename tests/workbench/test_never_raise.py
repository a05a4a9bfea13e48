"""`load_packs` and `validate_item` are documented never to raise: whatever the text, the files or
the ids, every problem comes back as a diagnostic (and none of them is a fault of the tool)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nexus_dsl.errors import Diagnostic
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.authoring import DATA_KINDS, ITEM_FILE, KINDS, SCRIPT_KINDS, Validation, template, validate_item
from nexus_dsl.workbench.packs import LoadResult, clear_cache, load_packs

MEASURE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile_yaml" / "measure.py"
NEVER_RAISE = settings(max_examples=150, derandomize=True, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow])

YAML_PIECES = ["id", "name", "influence", ":", ": ", " ", "  ", "\n", "- ", "[", "]", "{", "}", ",", "&x ", "*x",
               "!!int ", "!!bool ", "!!timestamp ", "!x ", "<<: ", "'", '"', "\t", "# c", "1", "0b_", ".nan",
               "9" * 30, "\u2028", "\x85", "? ", "|", "---", "~", "\x00", "\x01", "é", "builds_on", "[base]",
               "version: 1.0.0\n", "abilities: [push]\n", "objects:\n  - {type: pillar, at: [3, 3]}\n"]
SCRIPT_PIECES = ["command", "rule", "influence", " x ", '"X"', "{", "}", "\n", "    ", "param a = 1", "cost 2 AP",
                 "window before_rolls by self", "effect", "when", "dice_rolled", "if", "not ", "(", ")", "1", "+",
                 "damage target by 2", "#", '"', "\t", "\u2028", "\x00", "é", "9" * 30, "for each h in pieces()"]
HOSTILE_YAML = [
    "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9) if i else ', '.join(['x'] * 9)}]\n" for i in range(10)),
    "id: x\nname: " + "[" * 100_000 + "]" * 100_000 + "\n",
    "id: !!bool maybe\n",
    "id: !!timestamp notadate\n",
    "id: x\ninfluence: !!float n\n",
    "id: x\ninfluence: " + "9" * 4301 + "\n",
    "id: x\nname: a\x01b\n",
    "id: x\nname: \ud800\n",
    "id: &a [*a]\n",
    "? [a]\n: 1\n",
    "id: x\n---\nid: y\n",
    "",
    "# nothing\n",
]


def assert_no_fault(diagnostics: list[Diagnostic]) -> None:
    """Every diagnostic names a problem of the input, none a failure of the tool."""
    assert all(not d.code.startswith("internal/") for d in diagnostics), [(d.code, d.message) for d in diagnostics]


def yaml_texts() -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=60), st.lists(st.sampled_from(YAML_PIECES), max_size=40).map("".join))


def script_texts() -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=60), st.lists(st.sampled_from(SCRIPT_PIECES), max_size=40).map("".join))


# ---------------------------------------------------------------- validate_item
@NEVER_RAISE
@given(kind=st.sampled_from(sorted(DATA_KINDS)), text=yaml_texts())
def test_validate_item_never_raises_on_any_yaml(base: Ruleset, kind: str, text: str) -> None:
    result = validate_item(kind, text, base)
    assert isinstance(result, Validation)
    assert_no_fault(result.diagnostics)
    assert all(d.file == ITEM_FILE and d.line >= 1 and d.column >= 1 for d in result.diagnostics), result.diagnostics


@NEVER_RAISE
@given(kind=st.sampled_from(SCRIPT_KINDS), text=script_texts())
def test_validate_item_never_raises_on_any_script(base: Ruleset, kind: str, text: str) -> None:
    result = validate_item(kind, text, base)
    assert isinstance(result, Validation)
    assert_no_fault(result.diagnostics)


@pytest.mark.parametrize("kind", sorted(DATA_KINDS))
@pytest.mark.parametrize("text", HOSTILE_YAML, ids=range(len(HOSTILE_YAML)))
def test_hostile_yaml_items_are_refused_with_positions(base: Ruleset, kind: str, text: str) -> None:
    result = validate_item(kind, text, base)
    assert not result.ok and result.face is None
    assert_no_fault(result.diagnostics)
    assert all(d.line >= 1 and d.column >= 1 for d in result.errors), result.errors


def test_an_unknown_kind_is_a_diagnostic_too(base: Ruleset) -> None:
    result = validate_item("spell", "anything", base)
    assert not result.ok and [d.code for d in result.errors] == ["authoring/unknown_kind"]
    assert "command" in (result.errors[0].hint or "")


def test_templates_still_validate_without_any_packs() -> None:
    for kind in KINDS:
        assert isinstance(validate_item(kind, template(kind, f"new_{kind}", "New"), None), Validation)


def test_validating_an_alias_bomb_item_is_quick_and_small(tmp_path: Path) -> None:
    source = tmp_path / "item.yaml"
    source.write_text(HOSTILE_YAML[0], encoding="utf-8")
    done = subprocess.run([sys.executable, str(MEASURE), "item", "lanista", str(source)], capture_output=True,
                          text=True, timeout=120, check=True)
    cost = json.loads(done.stdout)
    assert [d[0] for d in cost["diagnostics"]] == ["yaml/too_many_nodes"]
    assert cost["cpu"] < 1.0 and cost["grown_mb"] < 100


# ---------------------------------------------------------------- load_packs
MANIFESTS = st.one_of(
    yaml_texts(),
    st.sampled_from(["id: p\nname: P\nversion: 1.0.0\n", "id: p\nname: P\nversion: 1.0.0\nbuilds_on: [base]\n",
                     "id: p\nname: P\nversion: 1.0.0\nbuilds_on: [p]\n", "id: p\nname: P\nversion: 1.0.0\nbuilds_on: [q]\n",
                     "id: q\nname: Q\nversion: 1.0.0\nbuilds_on: [p]\n"]),
)
FILE_NAMES = ["lanistas.yaml", "barges/one.yaml", "objects.yaml", "rules.nexus", "odd.yaml", "drafts/x.yaml"]
IDS = st.lists(st.one_of(st.sampled_from(["p", "q", "base", "../p", "/etc", "", ".", "p/../p"]), st.text(max_size=8)),
               max_size=3)


@st.composite
def pack_trees(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "manifests": draw(st.lists(MANIFESTS, min_size=1, max_size=2)),
        "files": draw(st.dictionaries(st.sampled_from(FILE_NAMES), st.one_of(
            yaml_texts(), script_texts(), st.binary(max_size=30)), max_size=3)),
        "link_outside": draw(st.booleans()),
        "ids": draw(IDS),
    }


def build(root: Path, tree: dict[str, Any]) -> None:
    outside = root.parent / "outside.yaml"
    outside.write_text("- id: secret\n  name: Secret\n")
    for index, manifest in enumerate(tree["manifests"]):
        folder = root / f"pack{index}"
        folder.mkdir(parents=True)
        (folder / "pack.yaml").write_bytes(manifest.encode("utf-8", errors="surrogatepass"))
        for name, content in tree["files"].items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", errors="surrogatepass"))
        if tree["link_outside"]:
            (folder / "motivations.yaml").symlink_to(outside)


@NEVER_RAISE
@given(tree=pack_trees())
def test_load_packs_never_raises_whatever_the_files_and_ids(tree: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary) / "content"
        build(root, tree)
        clear_cache()
        result = load_packs(tree["ids"], root)
        assert isinstance(result, LoadResult)
        assert_no_fault(result.diagnostics)
        assert result.ok == (result.ruleset is not None)
        if result.ruleset is not None:
            assert "secret" not in result.ruleset.data.get("motivations", {})


def test_load_packs_takes_ids_never_paths(tmp_path: Path) -> None:
    outside = tmp_path / "outside_pack"
    outside.mkdir()
    (outside / "pack.yaml").write_text("id: stranger\nname: Stranger\nversion: 1.0.0\n")
    root = tmp_path / "content"
    root.mkdir()
    for ref in (str(outside), "../outside_pack", "stranger"):
        result = load_packs([ref], root)
        assert result.ruleset is None and [d.code for d in result.diagnostics] == ["content/unknown_pack"]


def test_load_packs_on_a_missing_root_or_odd_files_gives_diagnostics(tmp_path: Path) -> None:
    assert [d.code for d in load_packs(["base"], tmp_path / "missing").diagnostics] == ["content/unknown_pack"]
    root = tmp_path / "content"
    pack = root / "odd"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: odd\nname: Odd\nversion: 1.0.0\n")
    (pack / "loop.yaml").symlink_to(pack / "loop.yaml")  # a link to itself
    (pack / "lanistas.yaml").mkdir()  # a folder where a file is expected
    os.mkfifo(pack / "objects.yaml")  # opening a pipe would wait forever
    (root / "folder_manifest" / "pack.yaml").mkdir(parents=True)
    clear_cache()
    result = load_packs(["odd"], root)
    assert result.ok and result.diagnostics == []
    (pack / "barges.yaml").write_bytes(b"- id: \xff\n")
    result = load_packs(["odd"], root)
    assert not result.ok and [(d.code, d.line, d.column) for d in result.diagnostics] == [("content/not_utf8", 1, 7)]
