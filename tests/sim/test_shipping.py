"""The packs shipped with a job: bundled as the loader reads them, rebuilt from the bytes alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nexus_dsl.content.loader import load_ruleset
from nexus_dsl.errors import Diagnostic
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.sim.shipping import PackBundle, ShippedPack, bundle_of, rebuild
from nexus_dsl.syntax.canonical import to_canonical

ROOT = Path(__file__).resolve().parents[2]
ARENA_TEST = ROOT / "tests/scenarios/packs/arena_test"


def same_content(a: Ruleset, b: Ruleset) -> bool:
    """The same packs, declarations, data and settings (file names aside: a copy lives elsewhere)."""
    return ([p.id for p in a.packs] == [p.id for p in b.packs]
            and {kind: {i: to_canonical(item.declaration) for i, item in items.items()} for kind, items in a.scripts.items()}
            == {kind: {i: to_canonical(item.declaration) for i, item in items.items()} for kind, items in b.scripts.items()}
            and {t: {i: item.data for i, item in items.items()} for t, items in a.data.items()}
            == {t: {i: item.data for i, item in items.items()} for t, items in b.data.items()}
            and dict(a.settings) == dict(b.settings)
            and list(a.sources.values()) == list(b.sources.values()))


def test_a_bundle_holds_every_pack_built_on_and_only_what_the_loader_reads(tmp_path: Path) -> None:
    pack = tmp_path / "arena_test"
    shutil.copytree(ARENA_TEST, pack)
    (pack / "drafts").mkdir()
    (pack / "drafts" / "unfinished.nexus").write_text("not loaded", encoding="utf-8")
    (pack / ".hidden.yaml").write_text("not loaded", encoding="utf-8")
    (pack / "notes.txt").write_text("not content", encoding="utf-8")
    bundle = bundle_of(load_ruleset(["base", pack]))
    assert [p.ident for p in bundle.packs] == ["base", "arena_test"]
    shipped = dict(bundle.packs[1].files)
    assert sorted(shipped) == sorted(p.name for p in ARENA_TEST.iterdir())
    assert bundle.packs[1].files[0][0] == "pack.yaml"
    assert shipped["fixtures.nexus"] == (ARENA_TEST / "fixtures.nexus").read_bytes()
    assert any(path.startswith("commands/") for path, _ in bundle.packs[0].files)


def test_a_ruleset_rebuilt_from_the_bytes_alone_is_the_one_loaded(tmp_path: Path) -> None:
    pack = tmp_path / "arena_test"
    shutil.copytree(ARENA_TEST, pack)
    original = load_ruleset(["base", pack])
    bundle = bundle_of(original)
    shutil.rmtree(pack)  # the worker has no copy of the content: only the bundle
    rebuilt = rebuild(bundle)
    assert same_content(rebuilt.ruleset, original)
    assert rebuilt.ruleset.packs[-1].path != str(pack)
    assert not Path(rebuilt.ruleset.packs[-1].path).exists()  # the temporary copy is gone once loaded


def test_a_rebuilt_ruleset_names_a_fault_as_the_caller_does(tmp_path: Path) -> None:
    pack = tmp_path / "arena_test"
    shutil.copytree(ARENA_TEST, pack)
    original = load_ruleset(["base", pack])
    rebuilt = rebuild(bundle_of(original))
    caller_name = next(item.origin.file for item in original.scripts["rule"].values() if item.origin.pack == "arena_test")
    copy_name = next(item.origin.file for item in rebuilt.ruleset.scripts["rule"].values()
                     if item.origin.pack == "arena_test")
    fault = Diagnostic("runtime/fault", "in rule `x`: boom", copy_name, 3, 5)
    assert rebuilt.as_caller_names(fault) == Diagnostic("runtime/fault", "in rule `x`: boom", caller_name, 3, 5)
    elsewhere = Diagnostic("runtime/fault", "boom", "<input>")
    assert rebuilt.as_caller_names(elsewhere) is elsewhere


def test_the_digest_follows_every_byte() -> None:
    one = PackBundle((ShippedPack("p", "p", (("pack.yaml", b"id: p"), ("a.nexus", b"x"))),))
    other = PackBundle((ShippedPack("p", "p", (("pack.yaml", b"id: p"), ("a.nexus", b"y"))),))
    moved = PackBundle((ShippedPack("p", "p", (("pack.yaml", b"id: p"), ("b.nexus", b"x"))),))
    assert one.digest() == PackBundle(one.packs).digest()
    assert len({one.digest(), other.digest(), moved.digest()}) == 3


@pytest.mark.parametrize("path", ["../escape.nexus", "/etc/passwd", "a/../../b.nexus", ""])
def test_a_shipped_path_leading_outside_its_pack_is_refused(path: str) -> None:
    bundle = PackBundle((ShippedPack("p", "p", (("pack.yaml", b"id: p"), (path, b"x"))),))
    with pytest.raises(ValueError, match="leads outside its pack"):
        rebuild(bundle)
