"""`nexus check` on a folder of packs finds the packs nested in it (content/expansions/*,
content/house-rules/*) and checks each one layered on the packs it builds on."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write_pack(folder: Path, pack_id: str, kind: str, files: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(f"id: {pack_id}\nname: {pack_id}\nversion: 1.0.0\nkind: {kind}\nbuilds_on: [base]\n")
    for name, text in files.items():
        (folder / name).write_text(text)


def test_check_content_checks_every_nested_pack(capsys):
    code, out, _ = run(capsys, "check", str(CONTENT))
    assert code == 0, out
    checked = out.split("(", 1)[1]
    nested = sorted(p.parent.relative_to(CONTENT).as_posix() for p in CONTENT.rglob("pack.yaml"))
    assert {"base", "expansions/poison_gallery", "house-rules/tpdm_plus_four", "house-rules/no_crowd_pleaser",
            "house-rules/steady_on_three"} <= set(nested)
    for folder in nested:
        assert folder in checked
    assert out.startswith(f"ok: {len(nested)} checked")


def test_nested_packs_are_found_at_any_depth_and_their_errors_reported(tmp_path, capsys):
    write_pack(tmp_path / "expansions" / "good", "nested_good", "expansion",
               {"rules.nexus": 'rule nested_rule "Nested Rule" {\n    text "Does nothing."\n}\n'})
    write_pack(tmp_path / "house-rules" / "bad", "nested_bad", "house_rules",
               {"rules.nexus": 'rule broken "Broken" {\n    when dice_rolled {\n        add_damge 1\n    }\n}\n'})
    code, out, err = run(capsys, "check", str(tmp_path))
    assert code == 1
    assert "bad/rules.nexus:3:9: error: unknown effect `add_damge`" in out
    assert "1 error" in err

    (tmp_path / "house-rules" / "bad" / "rules.nexus").unlink()
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 0
    assert out.startswith("ok: 2 checked")
    assert "expansions/good" in out and "house-rules/bad" in out
