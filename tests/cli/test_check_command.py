"""`nexus check`: positioned errors, every error in one run, exit codes, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nexus_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "fixtures" / "broken"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_base_pack_is_valid(capsys):
    code, out, _ = run(capsys, "check", str(ROOT / "content" / "base"))
    assert code == 0
    assert out.startswith("ok: 1 checked")


def test_syntax_error_is_positioned(capsys):
    code, out, _ = run(capsys, "check", str(BROKEN / "syntax_error.nexus"))
    assert code == 1
    assert "syntax_error.nexus:7:5: error: unexpected `}`" in out
    assert "    7 |     }" in out and "      |     ^" in out
    assert "hint: expected" in out


def test_unknown_names_suggest_the_closest_word(capsys):
    code, out, _ = run(capsys, "check", str(BROKEN / "unknown_name.nexus"))
    assert code == 1
    assert "unknown_name.nexus:3:12: error: unknown timing window `after_attack_succeds`" in out
    assert "did you mean `after_attack_succeeds`?" in out
    assert "unknown_name.nexus:5:9: error: unknown effect `add_damge`" in out


def test_type_error_names_both_types(capsys):
    code, out, _ = run(capsys, "check", str(BROKEN / "type_error.nexus"))
    assert code == 1
    assert "type_error.nexus:7:26: error: expected a number, got a location" in out


def test_schema_violation_in_a_script(capsys):
    code, out, _ = run(capsys, "check", "--format", "json", str(BROKEN / "schema_violation.nexus"))
    assert code == 1
    errors = json.loads(out)["errors"]
    assert [(e["code"], e["line"], e["column"]) for e in errors] == [("schema/out_of_range", 3, 10)]


def test_schema_violation_in_yaml_data(capsys):
    code, out, _ = run(capsys, "check", str(BROKEN / "barges" / "bad_barge.yaml"))
    assert code == 1
    assert "bad_barge.yaml:6:25: error: objects[1].at[0]: 9 is greater than the maximum of 8" in out


def test_a_barge_beyond_the_box_is_refused_with_positions(capsys):
    """pg.2-3: the box holds 4 pillars; pg.9: the starting squares stay empty; pg.3: 2-3 hazard types."""
    code, out, err = run(capsys, "check", str(BROKEN / "barges" / "overfilled_barge.yaml"))
    assert code == 1
    assert "overfilled_barge.yaml:11:20: error: barge `overfilled_barge` places 5 `pillar` but the box holds 4" in out
    assert "overfilled_barge.yaml:11:20: error: barge `overfilled_barge` places `pillar` on [1, 8], the south seat's starting square" in out
    assert "   11 |   - {type: pillar, at: [1, 8]}" in out
    assert "overfilled_barge.yaml:12:1: warning: barge `overfilled_barge` names 4 hazard types" in out
    assert "2 errors in 1 file(s)" in err


def test_barge_warnings_do_not_fail_a_check(capsys):
    code, out, _ = run(capsys, "check", str(ROOT / "tests" / "scenarios" / "packs" / "arena_test"))
    assert code == 0
    assert out.startswith("ok: 1 checked")
    assert "warning: barge `test_everything_barge` names 4 hazard types" in out


def test_every_semantic_error_in_one_run(capsys):
    code, out, err = run(capsys, "check", "--format", "json", str(BROKEN / "several_errors.nexus"))
    assert code == 1
    errors = json.loads(out)["errors"]
    assert [(e["line"], e["code"]) for e in errors] == [
        (3, "check/unknown_name"), (6, "check/unknown_name"), (9, "check/unknown_name"), (10, "check/unknown_name"),
    ]
    assert "did you mean `melee`?" in errors[0]["hint"]


def test_missing_path_is_an_error_not_a_traceback(capsys):
    code, out, _ = run(capsys, "check", "no/such/pack")
    assert code == 2  # a path that is not there is the command line's mistake
    assert "no such file or folder" in out


@pytest.mark.parametrize("name", ["syntax_error.nexus", "unknown_name.nexus", "type_error.nexus", "schema_violation.nexus",
                                  "barges/overfilled_barge.yaml"])
def test_broken_files_never_print_a_traceback(name):
    completed = subprocess.run([sys.executable, "-m", "nexus_dsl", "check", str(BROKEN / name)],
                               capture_output=True, text=True, cwd=ROOT)
    assert completed.returncode == 1
    assert "Traceback" not in completed.stdout + completed.stderr
    assert f"{name}:" in completed.stdout
