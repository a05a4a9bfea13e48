"""Every script fault at run time is a positioned runtime diagnostic that stops the bout cleanly.

Each probe is a small pack on top of base whose command `probe` (or a rule) faults in one way: a
function or an effect given a value of the wrong kind or out of its range, arithmetic beyond the
number limit, a budget exceeded. The fault must name its declaration, point at the expression or
statement (file, line, column of the text marked `<<`), leave the state exactly as it was before
the action (dice and ledger included), be logged, and stop the bout.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from nexus_dsl import Action, Bout, ContentError, RulesError, load_ruleset
from nexus_dsl.engine.board import Direction, Square
from nexus_dsl.engine.fingerprint import whole_state
from nexus_dsl.engine.interpreter import Limits
from nexus_dsl.engine.setup import BoutSetup, PieceSetup
from nexus_dsl.engine.state import Termination

MANIFEST = "id: probe_pack\nname: Probe\nversion: 1.0.0\nkind: house_rules\nbuilds_on: [base]\n"


def write_pack(tmp_path: Path, script: str) -> tuple[Path, tuple[int, int]]:
    """A pack holding `script`; returns the script file and the (line, column) the text after the
    marker `<<` starts at (the marker is taken out)."""
    pack = tmp_path / "probe_pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(MANIFEST)
    lines = script.strip("\n").splitlines()
    where = next((number, line.index("<<") + 1) for number, line in enumerate(lines, 1) if "<<" in line)
    path = pack / "probe.nexus"
    path.write_text("\n".join(line.replace("<<", "") for line in lines) + "\n")
    return path, where


def command(body: str, cost: str = "cost 0 AP", extra: str = "") -> str:
    indented = "\n".join("        " + line for line in body.strip("\n").splitlines())
    return (f'command probe "Probe" {{\n    group fame\n    text "A probe."\n    {cost}\n{extra}'
            f'    effect {{\n{indented}\n    }}\n}}\n')


def face_to_face(**red: object) -> BoutSetup:
    """Red at [4,5] facing north, blue straight ahead at [4,4]: red's Command Round is under way."""
    return BoutSetup(pieces=[PieceSetup("red", "south", Square(4, 5), Direction.N, ap=6, mp=6, **red),  # type: ignore[arg-type]
                             PieceSetup("blue", "north", Square(4, 4), Direction.S)], phase="command", active="red")


def probe_bout(tmp_path: Path, script: str, limits: Limits | None = None, **red: object) -> tuple[Bout, Path, tuple[int, int]]:
    path, where = write_pack(tmp_path, script)
    ruleset = load_ruleset(["base", str(path.parent)])
    return Bout(ruleset, face_to_face(**red), seed=4, strict_ledger=True, limits=limits), path, where


def settled(bout: Bout) -> dict:
    """The whole state of the bout with its ending left out (a fault ends the bout)."""
    state = bout.state
    bout.state = replace(state, ended=False, outcome=None)
    try:
        return whole_state(bout)
    finally:
        bout.state = state


def assert_stopped_cleanly(bout: Bout, before: dict, log_length: int) -> None:
    """State, dice and ledger as they were before the action; the fault logged; the bout over."""
    after = settled(bout)
    assert after["state"] == before["state"]
    assert after["dice"] == before["dice"]
    assert bout.state.coins_in_play() == bout.state.drawn
    assert [e.type for e in bout.log[log_length:]] == ["fault"]
    assert bout.pending is None and bout.state.ended
    assert bout.outcome is not None and bout.outcome.termination == Termination.SCRIPT_FAULT
    assert bout.outcome.winner is None
    with pytest.raises(RulesError, match="stopped on a script fault"):
        bout.apply(Action.make("end_round", "red"))


PROBES = {
    # name: (script with `<<` before the faulting text, code, words the message must hold)
    "a die of no sides": (command("let rolled = <<die(d8, self.cred)"), "bad_value", "at least 2, not 0"),
    "an area of negative radius": (command("let ring = <<area(self, self.cred - 1)"), "bad_value", "radius"),
    "arithmetic beyond the limit": (command("let huge = <<self.overall * 999999999"), "number_too_large", "`*`"),
    "a sum beyond the limit": (command("let huge = <<999999999 + self.ap"), "number_too_large", "`+`"),
    "a transfer the crowd cannot hold": (command("<<transfer 999999999 from box to crowd"), "number_too_large",
                                         "crowd"),
    "no piece where one is needed": (command("damage <<piece_on(square_at(self, S)) by 1"), "wrong_type",
                                     "needs a piece"),
    "a relocation to nowhere": (command("relocate self to <<mark_value(self, \"nowhere\")"), "wrong_type",
                                "needs a square"),
    "a for each over nothing": (command("for each h in <<mark_value(self, \"nothing\") {\n    log \"x\"\n}"),
                                "wrong_type", "for each"),
    "an index beyond the list": (command("let picked = <<[1, 2][self.ap]"), "bad_index", "index"),
    "a division by zero": (command("let share = <<self.ap / self.cred"), "division_by_zero", "division"),
    "a count of a number": (command("let n = <<count(self.overall)"), "wrong_type", "count"),
    "a grant below 0": (command("let sap = self.cred - 3\n<<grant sap AP"), "bad_value",
                        "a number of points granted must be at least 0, not -3"),
    "an opposite of a relative direction": (command("let back = <<opposite(left)"), "wrong_type", "compass"),
    "a repeat beyond the limit": (command("<<repeat self.ap * 20 {\n    log \"x\"\n}"), "budget_exceeded", "repeat"),
    "a roll effect with no roll": (command("<<slide_roll attack by 1"), "no_roll", "roll"),
    "prevent outside a window": (command("<<prevent"), "no_window", "window"),
    "a cost worked out below 0": (command("log \"x\"", cost="cost <<self.cred - 1 AP"), "negative_amount", "AP cost"),
    "a mark too big to keep": (command("mark self \"a\" with [1, 2, 3, 4, 5, 6, 7, 8]\n"
                                       "repeat 6 {\n    <<mark self \"a\" with [mark_value(self, \"a\"), mark_value(self, \"a\")]\n}"),
                               "budget_exceeded", "mark holds at most"),
}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_a_command_that_faults_stops_the_bout_at_the_fault(tmp_path, name):
    script, code, words = PROBES[name]
    bout, path, (line, column) = probe_bout(tmp_path, script)
    assert bout.fault is None
    before, log_length = settled(bout), len(bout.log)
    events = bout.apply(Action.make("command", "red", "probe"))
    fault = bout.fault
    assert fault is not None, f"{name}: no fault"
    assert fault.code == f"runtime/{code}"
    assert (fault.file, fault.line, fault.column) == (str(path), line, column), fault.format()
    assert fault.message.startswith("in command `probe`: ") and words in fault.message
    assert [e.type for e in events] == ["fault"] and events[0].data["line"] == line
    assert events[0].data["action"] == {"kind": "command", "actor": "red", "name": "probe"}
    assert_stopped_cleanly(bout, before, log_length)


def test_a_fault_half_way_through_an_effect_leaves_nothing_of_it(tmp_path):
    """Coins moved, a state given and a mark set before the fault are all undone."""
    script = command("transfer 3 from crowd to self\nadd_state self prone\nmark self \"half\"\n"
                     "let broken = <<die(d8, self.cred - 3)")
    bout, _, _ = probe_bout(tmp_path, script)
    before, log_length = settled(bout), len(bout.log)
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault is not None and bout.fault.code == "runtime/bad_value"
    assert bout.state.players["red"].piles["cred"] == 0 and "half" not in bout.state.pieces["red"].marks
    assert "prone" not in bout.state.pieces["red"].states
    assert_stopped_cleanly(bout, before, log_length)


def test_a_fault_in_a_listener_names_the_listener_not_the_command(tmp_path):
    script = command("signal turning_point") + (
        'rule brittle "Brittle"\n{\n    text "x"\n    when turning_point {\n        let d = <<die(d8, self.cred - 1)\n    }\n}\n')
    bout, path, (line, column) = probe_bout(tmp_path, script)
    before, log_length = settled(bout), len(bout.log)
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault is not None
    assert (bout.fault.line, bout.fault.column) == (line, column)
    assert bout.fault.message.startswith("in rule `brittle`: ")
    assert_stopped_cleanly(bout, before, log_length)


def test_the_trigger_depth_error_names_the_statement_that_raised_the_event(tmp_path):
    script = command("add_state self bleeding") + (
        'rule flicker "Flicker" {\n    text "x"\n'
        '    when state_added if state == bleeding {\n        remove_state self bleeding\n    }\n'
        '    when state_removed if state == bleeding {\n        <<add_state self bleeding\n    }\n}\n')
    bout, path, (line, column) = probe_bout(tmp_path, script)
    before, log_length = settled(bout), len(bout.log)
    bout.apply(Action.make("command", "red", "probe"))
    fault = bout.fault
    assert fault is not None and fault.code == "runtime/budget_exceeded"
    assert (fault.file, fault.line, fault.column) == (str(path), line, column)
    assert fault.message.startswith("in rule `flicker`: events nested more than 8 deep")
    assert "`state_added` > `state_removed`" in fault.message  # the chain of events under way
    assert_stopped_cleanly(bout, before, log_length)


def test_a_command_performing_itself_stops_at_the_depth_limit(tmp_path):
    script = command("<<perform probe")
    bout, _, (line, _) = probe_bout(tmp_path, script)
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault is not None and bout.fault.code == "runtime/budget_exceeded"
    assert bout.fault.line == line and "perform probe" in bout.fault.message


def test_the_step_budget_counts_across_the_choices_of_one_command(tmp_path):
    """A `choose` asks for a decision mid-command; the budget goes on counting across it, so a
    command cannot ask for choices without end."""
    script = command("repeat 100 {\n    repeat 100 {\n        <<choose self from [1, 2] into picked\n    }\n}")
    bout, _, (line, _) = probe_bout(tmp_path, script, limits=Limits(max_steps=300))
    bout.apply(Action.make("command", "red", "probe"))
    choices = 0
    while bout.pending is not None and bout.pending.kind.startswith("choose:"):
        bout.apply(bout.pending.options[0])
        choices += 1
    assert bout.fault is not None and bout.fault.code == "runtime/budget_exceeded"
    assert bout.fault.line == line
    assert choices < 300


def test_a_requirement_that_faults_stops_the_bout_when_commands_are_listed(tmp_path):
    script = ('command probe "Probe" {\n    group fame\n    text "x"\n    cost 0 AP\n'
              '    requires count(<<area(self, self.cred - 1)) > 0\n    effect {\n        log "x"\n    }\n}\n')
    path, (line, column) = write_pack(tmp_path, script)
    bout = Bout(load_ruleset(["base", str(path.parent)]), face_to_face(), seed=1)
    assert bout.pending is None and bout.fault is not None
    assert (bout.fault.line, bout.fault.column) == (line, column)
    assert bout.fault.message.startswith("in command `probe`: ")
    assert bout.state.pieces["red"].ap == 6  # the state the bout was set up with


def test_a_cost_worked_out_from_arguments_is_checked_when_commands_are_listed(tmp_path):
    script = command("log \"x\"", cost="cost <<amount - 5 AP", extra="    arg amount: number 1..9\n")
    path, (line, column) = write_pack(tmp_path, script)
    bout = Bout(load_ruleset(["base", str(path.parent)]), face_to_face(), seed=1)
    assert bout.fault is not None and bout.fault.code == "runtime/negative_amount"
    assert (bout.fault.line, bout.fault.column) == (line, column)


def test_an_engine_param_of_the_wrong_kind_never_reaches_a_bout(tmp_path):
    """A fact about the Ruleset, refused once where the param is declared (tests/check/test_engine_settings.py)."""
    core = (Path(__file__).resolve().parents[2] / "content/base/rules/core.nexus").read_text()
    rule = core[core.index("rule command_cycle"):core.index("rule helot_condition")]
    broken = rule.replace("param scale_cap = 3", "param scale_cap = <<[head]")
    path, (line, column) = write_pack(tmp_path, broken)
    with pytest.raises(ContentError) as raised:
        load_ruleset(["base", str(path.parent)])
    (diagnostic,) = raised.value.diagnostics
    assert diagnostic.code == "check/wrong_type" and "`scale_cap`" in diagnostic.message
    assert (diagnostic.file, diagnostic.line, diagnostic.column) == (str(path), line, column)


def test_too_many_argument_combinations_are_refused_before_they_are_listed(tmp_path):
    script = command("log \"x\"", extra="    <<arg far: number 1..999999999\n")
    path, (line, column) = write_pack(tmp_path, script)
    bout = Bout(load_ruleset(["base", str(path.parent)]), face_to_face(), seed=1)
    assert bout.fault is not None and bout.fault.code == "runtime/too_many_options"
    assert bout.fault.line == line


def test_a_replay_of_the_same_actions_meets_the_same_fault(tmp_path):
    bout, _, _ = probe_bout(tmp_path, command("let rolled = <<die(d8, self.cred)"))
    bout.apply(Action.make("command", "red", "probe"))
    again = Bout(bout.ruleset, face_to_face(), seed=4, strict_ledger=True)
    for action in bout.history:
        again.apply(action)
    assert again.fault == bout.fault
    assert whole_state(again) == whole_state(bout)


def test_a_preview_that_faults_raises_and_changes_nothing(tmp_path):
    from nexus_dsl import ScriptRuntimeError

    bout, path, (line, _) = probe_bout(tmp_path, command("let rolled = <<die(d8, self.cred)"))
    before = whole_state(bout)
    with pytest.raises(ScriptRuntimeError) as raised:
        bout.preview(Action.make("command", "red", "probe"))
    diagnostic = raised.value.diagnostics[0]
    assert (diagnostic.file, diagnostic.line) == (str(path), line)
    assert diagnostic.message.startswith("in command `probe`: ")
    assert whole_state(bout) == before and bout.fault is None
