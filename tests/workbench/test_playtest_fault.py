"""A playtest whose content faults at run time: the fault ends the play, whoever's turn it was in;
the session refuses every further action with a clear message, saves the fault and gets it back on
resume; a resume that no longer meets the saved fault (the content changed) is refused.

The fixture pack `fault_at_round_end` builds on base; its rule `dud_die` rolls a die of no sides
when the first Command Round ends (rules.nexus line 6, column 17)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from nexus_dsl import RulesError, load_ruleset
from nexus_dsl.engine.state import Termination
from nexus_dsl.errors import Diagnostic
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.playtest import PERSON, PlaySession, PlaySettings, SessionError, refusal_message
from nexus_dsl.workbench.testrun import fault_text, faulting_item

PACK = Path(__file__).resolve().parents[1] / "fixtures" / "packs" / "fault_at_round_end"
PACK_ID = "fault_at_round_end"
FAULT_LINE, FAULT_COLUMN = 6, 17
SCRIPT_LINE = "let x = die(d8, self.cred - self.cred)"
# Seeds whose fault comes at a known turn: with two people, seed 0 faults on the second action; with
# a person against the heuristic agent, seed 3 faults in the agents' turns before the person decides.
PEOPLE_SEED = 0
AGENTS_SEED = 3


@pytest.fixture(scope="module")
def faulty() -> Ruleset:
    return load_ruleset(["base", str(PACK)])


def session_of(ruleset: Ruleset, *seats: str, seed: int, **extra) -> PlaySession:
    return PlaySession(PlaySettings(seats=seats, packs=("base", str(PACK)), seed=seed, **extra), ruleset=ruleset)


def play_to_the_fault(session: PlaySession, limit: int = 50) -> dict:
    """People press the first button until the bout stops; the snapshot before the last action."""
    before = session.bout.snapshot()
    for _ in range(limit):
        session.advance_agents()
        pending = session.pending_decision()
        if pending is None:
            return before
        before = session.bout.snapshot()
        session.apply(session.buttons(pending.actor)[0])
    raise AssertionError(f"the bout did not stop within {limit} decisions")


def assert_the_dud_die(fault: Diagnostic | None) -> None:
    assert fault is not None
    assert fault.code == "runtime/bad_value"
    assert Path(fault.file).name == "rules.nexus" and (fault.line, fault.column) == (FAULT_LINE, FAULT_COLUMN)
    assert fault.message.startswith("in rule `dud_die`: ")


def test_a_fault_in_a_persons_action_ends_the_play_with_the_state_before_it(faulty):
    session = session_of(faulty, PERSON, PERSON, seed=PEOPLE_SEED)
    before = play_to_the_fault(session)
    assert_the_dud_die(session.fault)
    assert len(session.actions) == 2  # the faulting action is kept: replaying it faults again
    assert session.ended and session.pending_decision() is None
    assert all(session.options(label) == [] for label in session.labels)
    assert session.bout.outcome.termination == Termination.SCRIPT_FAULT and session.bout.outcome.winner is None
    after = session.bout.snapshot()
    ending = {"ended", "termination", "winner"}  # what the stop itself changes
    assert {k: v for k, v in after.items() if k not in ending} == {k: v for k, v in before.items() if k not in ending}
    assert (after["ended"], after["termination"]) == (True, "script_fault")
    assert session.bout.log[-1].type == "fault"
    text = session.fault_text()
    assert text is not None and f"rules.nexus:{FAULT_LINE}:{FAULT_COLUMN}" in text
    assert SCRIPT_LINE in text and "^^^" in text


def test_no_action_is_accepted_after_the_fault(faulty):
    session = session_of(faulty, PERSON, PERSON, seed=PEOPLE_SEED)
    play_to_the_fault(session)
    actions = list(session.actions)
    with pytest.raises(RulesError) as refused:
        session.apply(actions[-1])
    message = refusal_message(refused.value)
    assert "stopped on a script fault" in message and "no further action is accepted" in message
    assert f"rules.nexus:{FAULT_LINE}:{FAULT_COLUMN}" in message
    assert refused.value.diagnostics[0].hint
    assert session.actions == actions
    assert session.advance_agents() == 0


def test_a_fault_in_the_agents_turns_stops_them(faulty):
    """The agents play until a person must decide: a fault on the way stops them there."""
    session = session_of(faulty, PERSON, "heuristic", seed=AGENTS_SEED)
    taken = session.advance_agents()
    assert_the_dud_die(session.fault)
    assert taken == len(session.actions) > 0
    assert session.pending_decision() is None and session.buttons("red") == []
    assert session.advance_agents() == 0


def test_agents_alone_stop_at_the_fault_too(faulty):
    session = session_of(faulty, "heuristic", "random", seed=1)
    session.advance_agents()
    assert_the_dud_die(session.fault)
    assert session.ended


def test_the_saved_session_records_the_fault_and_a_resume_restores_it(faulty, tmp_path):
    session = session_of(faulty, PERSON, PERSON, seed=PEOPLE_SEED)
    play_to_the_fault(session)
    path = session.save(tmp_path / "stopped.playtest.json")
    saved = json.loads(path.read_text())
    assert saved["fault"]["code"] == "runtime/bad_value"
    assert (saved["fault"]["line"], saved["fault"]["column"]) == (FAULT_LINE, FAULT_COLUMN)
    assert len(saved["actions"]) == len(session.actions)

    resumed = PlaySession.load(path, faulty)
    assert resumed.fault == session.fault
    assert resumed.ended and resumed.fault_text() == session.fault_text()
    assert [a.to_json() for a in resumed.actions] == saved["actions"]
    with pytest.raises(RulesError):
        resumed.apply(resumed.actions[-1])
    resumed.save(path)  # saving again is allowed (nothing changed) and keeps the record
    assert json.loads(path.read_text())["fault"] == saved["fault"]


def test_a_session_that_plays_on_keeps_no_fault_in_its_file(faulty, tmp_path):
    session = session_of(faulty, PERSON, PERSON, seed=PEOPLE_SEED)
    session.apply(session.buttons(session.pending_decision().actor)[0])
    assert session.fault is None
    assert "fault" not in json.loads(session.save(tmp_path / "going.playtest.json").read_text())


@pytest.fixture
def faulty_root(content_root: Path) -> Path:
    """A content root of our own holding base and the faulting pack (free to change)."""
    shutil.copytree(PACK, content_root / PACK_ID)
    return content_root


def test_a_resume_that_no_longer_meets_the_saved_fault_is_refused(faulty_root, tmp_path):
    settings = PlaySettings(seats=(PERSON, PERSON), packs=("base", PACK_ID), seed=PEOPLE_SEED,
                            content_root=str(faulty_root))
    session = PlaySession(settings)
    play_to_the_fault(session)
    path = session.save(tmp_path / "stopped.playtest.json")
    script = faulty_root / PACK_ID / "rules.nexus"
    script.write_text(script.read_text().replace("self.cred - self.cred", "self.cred - self.cred + 6"))
    with pytest.raises(SessionError) as refused:
        PlaySession.load(path)
    problem = refused.value.diagnostics[0]
    assert "no longer stops there" in problem.message and f":{FAULT_LINE}:{FAULT_COLUMN}" in problem.message
    assert problem.hint and "content changed" in problem.hint


def test_a_fault_the_saved_file_does_not_record_stands_on_resume(faulty, tmp_path):
    """A session saved before the content faulted (or by an older version) replays into the fault:
    the replay is the truth, and the page shows it."""
    session = session_of(faulty, PERSON, PERSON, seed=PEOPLE_SEED)
    play_to_the_fault(session)
    data = session.to_json()
    del data["fault"]
    resumed = PlaySession.from_json(data, faulty)
    assert resumed.fault == session.fault


# ---------------------------------------------------------------- the helpers the pages share
def test_the_session_gives_the_faulting_declaration_and_its_item(faulty):
    session = session_of(faulty, PERSON, PERSON, seed=PEOPLE_SEED)
    play_to_the_fault(session)
    assert session.fault_declaration is faulty.declaration("rule", "dud_die")
    item = faulting_item(faulty, session.fault_declaration)
    assert item is not None and (item.declaration.kind, item.declaration.id) == ("rule", "dud_die")
    assert item.origin.file == session.fault.file and item.origin.line < FAULT_LINE
    assert fault_text(faulty, session.fault) == session.fault_text()
