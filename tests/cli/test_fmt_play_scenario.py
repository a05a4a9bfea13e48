"""`nexus fmt`, `nexus play` and `nexus scenario` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from nexus_dsl.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_fmt_check_reports_and_fmt_rewrites_keeping_comments(tmp_path, capsys):
    script = tmp_path / "messy.nexus"
    script.write_text('# my rule\nrule tidy "Tidy" { param x = 1  # one\n  when round_ends { log "a#b" } }\n')
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    assert "would reformat" in capsys.readouterr().out
    assert script.read_text().startswith("# my rule\nrule tidy")  # --check writes nothing
    assert main(["fmt", str(script)]) == 0
    assert script.read_text() == (
        '# my rule\nrule tidy "Tidy" {\n    param x = 1  # one\n    when round_ends {\n        log "a#b"\n    }\n}\n'
    )
    assert main(["fmt", "--check", str(script)]) == 0


def test_base_content_is_canonically_formatted(capsys):
    assert main(["fmt", "--check", str(ROOT / "content")]) == 0


def test_fmt_refuses_a_broken_file_and_leaves_it_alone(tmp_path, capsys):
    script = tmp_path / "broken.nexus"
    script.write_text('rule x "X" { param = 1 }\n')
    assert main(["fmt", str(script)]) == 1
    assert "broken.nexus:1:20" in capsys.readouterr().out
    assert script.read_text() == 'rule x "X" { param = 1 }\n'


def test_play_is_reproducible_and_ends(tmp_path, capsys):
    log = tmp_path / "bout.jsonl"
    assert main(["play", "--seed", "1", "--log", str(log)]) == 0
    first = capsys.readouterr().out
    assert main(["play", "--seed", "1"]) == 0
    assert capsys.readouterr().out == first
    summary = first.strip().splitlines()[-1]
    assert summary.startswith("seed=1 winner=") and "termination=" in summary
    assert "== Cycle 1 — initiative:" in first
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[-1]["type"] == "bout_end"
    assert {"seq", "cycle", "round", "type"} <= set(events[0])
    assert any(e["type"] == "roll" and e["dice"] for e in events)
    assert any(e["type"] == "coins" for e in events)


def test_play_with_an_unknown_agent_is_a_clear_error(capsys):
    assert main(["play", "--agents", "genius"]) == 2
    assert "unknown agent `genius`" in capsys.readouterr().err


def test_scenario_run_prints_pass_lines_and_a_count(capsys):
    code = main(["scenario", "run", str(ROOT / "tests" / "scenarios" / "combat" / "standard_attack_margin.yaml")])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0].startswith("PASS ")
    assert out.splitlines()[-1] == "1 passed, 0 failed"


def test_scenario_failures_are_reported_per_key(tmp_path, capsys):
    scenario = tmp_path / "wrong.yaml"
    scenario.write_text(
        "name: wrong expectation\nhelots:\n  red: {at: [4, 5], facing: N, ap: 2}\n  blue: {at: [4, 4], facing: S}\n"
        "dice: {attack: [6, 5], defense: [2, 1], location: [2]}\n"
        "steps:\n  - {helot: red, command: standard_attack}\nexpect:\n  blue.overall: 50\n"
    )
    assert main(["scenario", "run", str(scenario)]) == 1
    out = capsys.readouterr().out
    assert "FAIL wrong expectation" in out
    assert "blue.overall: expected 50, got 42" in out


def test_scenario_that_cannot_load_fails_cleanly(tmp_path, capsys):
    scenario = tmp_path / "bad.yaml"
    scenario.write_text("name: off the board\nhelots:\n  red: {at: [9, 5]}\n  blue: {at: [1, 1]}\nsteps: []\n")
    assert main(["scenario", "run", str(scenario)]) == 1
    out = capsys.readouterr().out
    assert "FAIL off the board" in out and "off the 8x8 board" in out


def test_scenario_dice_running_out_names_the_purpose(tmp_path, capsys):
    scenario = tmp_path / "short.yaml"
    scenario.write_text(
        "name: short dice\nhelots:\n  red: {at: [4, 5], facing: N, ap: 2}\n  blue: {at: [4, 4], facing: S}\n"
        "dice: {attack: [6]}\nsteps:\n  - {helot: red, command: standard_attack}\n"
    )
    assert main(["scenario", "run", str(scenario)]) == 1
    assert "the forced dice for `attack` ran out" in capsys.readouterr().out


def test_snapshot_prints_the_contract_keys(capsys):
    code = main(["scenario", "snapshot", str(ROOT / "tests" / "scenarios" / "combat" / "standard_attack_margin.yaml")])
    snapshot = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {"crowd", "ended", "winner", "cycle", "active", "board"} <= set(snapshot)
    assert {"overall", "locations", "states", "traits", "cred", "ap", "mp", "at", "facing", "weapon", "tpdm",
            "tp_counter", "command_tokens", "influence", "status"} <= set(snapshot["red"])
