"""A fault keeps the declaration whose script faulted (`Bout.fault_declaration`), wherever it
arose: a command's effect, a listener of another declaration, a preview, or the check of a
command's arguments before it is offered."""

from __future__ import annotations

from pathlib import Path

import pytest

from nexus_dsl import Action, Bout, ScriptRuntimeError, load_ruleset
from nexus_dsl.engine.scope import Env, fault, fault_at, faulting_declaration
from nexus_dsl.errors import Diagnostic
from nexus_dsl.syntax import ast_nodes as A
from test_runtime_faults import command, face_to_face, write_pack


def bout_of(tmp_path: Path, script: str) -> Bout:
    path, _ = write_pack(tmp_path, script)
    return Bout(load_ruleset(["base", str(path.parent)]), face_to_face(), seed=4)


def test_a_command_that_faults_is_the_faulting_declaration(tmp_path: Path) -> None:
    bout = bout_of(tmp_path, command("let rolled = <<die(d8, self.cred)"))
    assert bout.fault_declaration is None
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault_declaration is bout.ruleset.declaration("command", "probe")


def test_a_listener_that_faults_is_named_not_the_command_that_raised_its_event(tmp_path: Path) -> None:
    script = command("signal turning_point") + (
        'rule brittle "Brittle" {\n    text "x"\n    when turning_point {\n        let d = <<die(d8, self.cred - 1)\n    }\n}\n')
    bout = bout_of(tmp_path, script)
    bout.apply(Action.make("command", "red", "probe"))
    assert bout.fault_declaration is bout.ruleset.declaration("rule", "brittle")


def test_too_many_argument_combinations_name_their_command(tmp_path: Path) -> None:
    bout = bout_of(tmp_path, command("log \"x\"", extra="    <<arg far: number 1..999999999\n"))
    assert bout.fault is not None and bout.fault.message.startswith("in command `probe`: ")
    assert bout.fault_declaration is bout.ruleset.declaration("command", "probe")


def test_a_preview_that_faults_raises_the_located_fault_with_its_declaration(tmp_path: Path) -> None:
    bout = bout_of(tmp_path, command("let rolled = <<die(d8, self.cred)"))
    with pytest.raises(ScriptRuntimeError) as raised:
        bout.preview(Action.make("command", "red", "probe"))
    assert faulting_declaration(raised.value) is bout.ruleset.declaration("command", "probe")
    assert bout.fault is None and bout.fault_declaration is None


def test_a_new_fault_is_what_positioning_a_new_error_makes_of_it() -> None:
    """`fault` makes at once the positioned error `fault_at` makes of a new one: the same diagnostic,
    the same declaration kept, and an error no place can position is left for an enclosing one."""
    declaration = A.Declaration("command", "probe", "Probe")
    on_line = A.Name("x", pos=A.Pos(3, 5, 3, 9, "p.nexus"))
    over_lines = A.Name("x", pos=A.Pos(3, 5, 4, 2, "p.nexus"))
    for node in (on_line, over_lines, A.Name("x"), None):
        for env in (Env({}, declaration=declaration), Env({}), None):
            made = fault(node, env, "wrong_type", "no good", "a hint")
            expected = fault_at(ScriptRuntimeError(Diagnostic("runtime/wrong_type", "no good", "<engine>",
                                                              hint="a hint")), node, env)
            assert made.diagnostics == expected.diagnostics and str(made) == str(expected)
            assert getattr(made, "located", False) == getattr(expected, "located", False)
            assert faulting_declaration(made) is faulting_declaration(expected)
