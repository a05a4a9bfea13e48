"""Every caller reports a bout stopped by a script fault, positioned, without a traceback.

`nexus play` prints the diagnostic with its script line and a caret and exits non-zero;
`nexus simulate` and `nexus balance` count script faults apart from engine errors and print the
first few; the editor's test run shows the fault on its last step and its batch lists it by seed;
an agent whose preview of an option faults judges that option as bad and plays on.
"""

from __future__ import annotations

import json
from pathlib import Path

from nexus_dsl import Bout, load_ruleset, make_agent
from nexus_dsl.cli import main
from nexus_dsl.engine.actions import COMMAND
from nexus_dsl.engine.bout import next_action
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.setup import BoutSetup, PieceSetup
from nexus_dsl.workbench.batch import run_batch
from nexus_dsl.workbench.testrun import Stepper, TestRunSettings

PACKS = Path(__file__).resolve().parents[1] / "fixtures" / "packs"
ZERO_DIE = PACKS / "adversarial_zero_die"
WHERE = "adversarial_zero_die/rules.nexus:7:22: error: in rule `broken_die`: a die's number of sides must be at least 2, not 0"


def test_play_prints_the_positioned_fault_and_exits_non_zero(capsys, tmp_path):
    log = tmp_path / "bout.jsonl"
    assert main(["play", "--seed", "1", "--packs", f"base,{ZERO_DIE}", "--log", str(log)]) == 1
    out, err = capsys.readouterr()
    assert WHERE in err
    assert "let rolled = die(d8, broken_sides + self.cred)" in err and "^^^" in err
    assert "Traceback" not in out + err
    assert "!! The bout stopped on a script fault" in out and "termination=script_fault" in out
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["type"] == "fault" and last["code"] == "runtime/bad_value" and last["line"] == 7


def test_simulate_counts_script_faults_apart_from_engine_errors(capsys):
    code = main(["simulate", "--bouts", "3", "--workers", "1", "--quiet", "--packs", f"base,{ZERO_DIE}"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "3 bouts: 0 engine errors, 3 script faults" in out
    assert out.count("script fault (seed") == 3 and WHERE.split(": error: ")[0] in out
    assert "Traceback" not in out + err


def test_balance_reports_script_faults_and_fails(capsys, tmp_path):
    page = tmp_path / "baseline.md"
    code = main(["balance", "--bouts", "2", "--seed", "1", "--workers", "1", "--quiet",
                 "--packs", f"base,{ZERO_DIE}", "--out", str(page)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "2 bout(s) stopped by a script fault" in err and err.count("script fault (seed") == 2
    assert "engine errors: 0, script faults: 2" in page.read_text()
    assert "Traceback" not in out + err


def test_the_test_run_shows_the_fault_on_its_last_step():
    ruleset = load_ruleset(["base", str(ZERO_DIE)])
    stepper = Stepper(TestRunSettings(packs=("base", str(ZERO_DIE)), seed=3), ruleset=ruleset)
    view = stepper.step()
    assert view.finished and view.fault is not None and view.fault.code == "runtime/bad_value"
    assert view.headline == "the bout stopped on a script fault"
    assert view.events[-1].type == "fault" and view.lines[-1].startswith("!! The bout stopped on a script fault")
    text = stepper.fault_text()
    assert text is not None and "rules.nexus:7:22" in text and "^^^" in text
    assert stepper.step().finished  # a step after the end changes nothing


def test_a_batch_lists_each_fault_by_seed_and_leaves_it_out_of_the_figures():
    ruleset = load_ruleset(["base", str(ZERO_DIE)])
    settings = TestRunSettings(packs=("base", str(ZERO_DIE)), seed=10)
    report = run_batch(settings, 2, workers=1, ruleset=ruleset)
    assert [seed for seed, _ in report.faults] == [10, 11]
    assert all(d.code == "runtime/bad_value" and d.line == 7 for _, d in report.faults)
    assert report.finished == [] and report.errors == []
    lines = report.lines()
    assert "2 script faults" in lines[0] and any("script fault (seed 10)" in line for line in lines)


def _faulty_moves_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "faulty_moves"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: faulty_moves\nname: Faulty moves\nversion: 1.0.0\nkind: house_rules\n"
                                    "builds_on: [base]\n")
    (pack / "moves.nexus").write_text(
        'command sinkhole_step "Sinkhole Step" {\n    group movement\n    text "A step into nowhere."\n'
        '    cost 1 MP\n    effect {\n        let depth = die(d8, self.cred - 99)\n    }\n}\n')
    return pack


def test_an_agent_judges_an_option_whose_preview_faults_as_bad(tmp_path):
    """The heuristic agent previews every movement command to weigh it: one that faults is not
    chosen, and the agent plays on."""
    ruleset = load_ruleset(["base", str(_faulty_moves_pack(tmp_path))])
    setup = BoutSetup(pieces=[PieceSetup("red", "south", Square(2, 7), Direction.N, mp=6),
                              PieceSetup("blue", "north", Square(7, 2), Direction.S)], phase="command", active="red")
    bout = Bout(ruleset, setup, seed=1, strict_ledger=True)
    agents = {"red": make_agent("heuristic"), "blue": make_agent("heuristic")}
    assert any(o.name == "sinkhole_step" for o in bout.legal_actions())
    chosen = []
    while bout.pending is not None and len(chosen) < 40:
        action = next_action(bout, agents)
        chosen.append(action)
        bout.apply(action)
    assert bout.fault is None
    assert not any(a.kind == COMMAND and a.name == "sinkhole_step" for a in chosen)
    assert any(a.kind == COMMAND and a.name == "move_forward" for a in chosen)
