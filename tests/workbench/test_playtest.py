"""Hot-seat sessions: buttons from the engine's options, hidden hands, agents, saving and resuming."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nexus_dsl import Action, Bout, RulesError
from nexus_dsl.workbench.playtest import (PERSON, PlaySession, PlaySettings, SessionError, list_sessions,
                                          refusal_message, session_file)

LANISTAS = ("madame_oorl", "tibbet_kreen", "madame_oorl", "tibbet_kreen")
MOTIVATIONS = ("famished", "supremacist", "zealot", "hoarder")


def settings(*seats: str, seed: int = 1, **extra) -> PlaySettings:
    count = len(seats)
    return PlaySettings(seats=seats, motivations=MOTIVATIONS[:count], lanistas=LANISTAS[:count],
                        barge="gutter_ring", seed=seed, **extra)


def first_option(session: PlaySession) -> None:
    """A person who always presses the first button."""
    pending = session.pending_decision()
    session.apply(session.buttons(pending.actor)[0])


def play_first_options(session: PlaySession, decisions: int) -> None:
    """Agents decide, the person presses the first button, for at most `decisions` turns or to the end."""
    for _ in range(decisions):
        session.advance_agents()
        if session.pending_decision() is None:
            return
        first_option(session)


def play_to(session: PlaySession, kind: str, limit: int = 500) -> None:
    for _ in range(limit):
        session.advance_agents()
        pending = session.pending_decision()
        if pending is None or pending.kind == kind:
            return
        first_option(session)
    raise AssertionError(f"no `{kind}` decision within {limit} steps")


def test_the_pending_decision_names_the_helot_and_whether_a_person_decides():
    session = PlaySession(settings(PERSON, "heuristic"))
    pending = session.pending_decision()
    assert pending.actor in session.labels and pending.person == (session.seat_of(pending.actor) == PERSON)
    assert session.people() == ["red"]


def test_options_are_the_engines_legal_actions_as_worded_buttons():
    session = PlaySession(settings(PERSON, PERSON))
    play_to(session, "command")
    viewer = session.pending_decision().actor
    buttons = session.buttons(viewer)
    assert {b.action for b in buttons} == {o for o in session.bout.pending.options if o.actor == viewer}
    assert all(b.label and b.kind in ("command", "ability", "card", "control") for b in buttons)
    by_name = {b.action.name: b for b in buttons if b.kind == "command"}
    assert by_name["rotate"].cost == ((1, "MP"),) and by_name["rotate"].cost_text == "1 MP"
    assert by_name["rotate"].group == "Movement"
    assert "Rotate" in by_name["rotate"].label
    end = [b for b in buttons if b.action.kind == "end_round"]
    assert end and end[0].kind == "control" and end[0].label == "End the command round"
    titles = [g.title for g in session.options(viewer)]
    assert len(titles) == len(set(titles))  # each group once
    other = next(label for label in session.labels if label != viewer)
    assert all(b.kind in ("ability", "card") for b in session.buttons(other))  # only interjections


def test_costs_are_evaluated_from_the_declarations_cost_clauses():
    session = PlaySession(settings(PERSON, PERSON, seed=2))
    bout = session.bout
    play_to(session, "allocate")
    allocate = session.buttons(session.pending_decision().actor)
    button = next(b for b in allocate if b.action.name == "motivation_button")
    assert button.cost == ((session.ruleset.setting("motivation_button_cost"), "overall"),)
    assert "condition" in button.cost_text
    session.apply(next(b for b in allocate if b.action.name == "allocate"))
    play_to(session, "command")
    viewer = session.pending_decision().actor
    for b in session.buttons(viewer):
        if b.kind == "command":
            declaration = session.ruleset.declaration("command", b.action.name)
            helot = bout.state.pieces[viewer]
            env = bout.legality.action_env(helot, declaration, b.action)
            assert list(b.cost) == bout.legality.cost_items(helot, declaration, env)


def test_a_refused_action_raises_the_rules_message_and_changes_nothing():
    session = PlaySession(settings(PERSON, PERSON))
    before = session.bout.snapshot()
    with pytest.raises(RulesError) as refusal:
        session.apply(Action.make("command", "red", "standard_attack", target="blue"))
    assert refusal.value.code.startswith("rules/") and refusal_message(refusal.value)
    assert session.actions == [] and session.bout.snapshot() == before


def test_a_viewer_never_sees_another_players_cards():
    session = PlaySession(settings(PERSON, PERSON, PERSON, seed=3))
    play_to(session, "allocate")
    snapshot = session.bout.snapshot()
    hands = {label: snapshot[label]["influence"] for label in session.labels}
    assert all(hands.values())
    for viewer in [*session.labels, None]:
        visible = session.visible_state(viewer)
        shown = json.dumps(visible)
        for label, hand in hands.items():
            assert visible[label]["influence_count"] == len(hand)
            if label == viewer:
                assert visible[label]["influence"] == hand
                continue
            assert visible[label]["influence"] is None
            for card in set(hand) - set(hands.get(viewer, []) if viewer else []):
                assert card not in shown
        if viewer is not None:  # the buttons offered are the viewer's own
            assert all(b.action.actor == viewer for b in session.buttons(viewer))


def test_dice_since_shows_only_the_new_dice_in_order():
    session = PlaySession(settings(PERSON, "heuristic"))
    session.advance_agents()
    while session.pending_decision() and not session.dice_since(0):
        first_option(session)
        session.advance_agents()
    mark = session.log_length
    all_dice = session.dice_since(0)
    assert all_dice and [d.seq for d in all_dice] == sorted(d.seq for d in all_dice)
    first_option(session)
    session.advance_agents()
    new = session.dice_since(mark)
    assert all(d.seq >= mark for d in new)
    assert session.dice_since(0)[:len(all_dice)] == all_dice
    expected = [(r["purpose"], r["value"]) for e in session.bout.log[mark:] for r in e.data.get("dice", [])]
    assert [(d.purpose, d.value) for d in new] == expected


def test_each_die_says_whose_roll_it_was_and_what_it_came_to():
    session = PlaySession(settings("heuristic", "heuristic"))
    session.advance_agents()
    attacks = [d for d in session.dice_since(0) if d.purpose == "attack"]
    assert attacks, "two agents played a bout without an attack"
    for die in attacks:
        event = session.bout.log[die.seq]
        assert die.actor == event.data["helot"]
        assert die.summary.startswith("attack") and "kept" in die.summary and str(die.value) in die.summary
    initiative = next(d for d in session.dice_since(0) if d.purpose == "trait_die")
    assert initiative.actor is None and "initiative" in initiative.summary


def test_log_lines_narrate_the_bout():
    session = PlaySession(settings("heuristic", "heuristic", seed=4))
    session.advance_agents()
    lines = session.log_lines()
    assert any(line.startswith("== Cycle 1") for line in lines)
    assert lines[-1].startswith("== Bout over")


def test_save_and_load_resume_exactly(tmp_path: Path):
    session = PlaySession(settings(PERSON, "heuristic", seed=5))
    play_first_options(session, 25)
    path = session.save(session_file(tmp_path, "evening bout"))
    assert list_sessions(tmp_path) == ["evening bout"]
    resumed = PlaySession.load(path)
    assert resumed.settings == session.settings
    assert resumed.actions == session.actions
    assert resumed.bout.snapshot() == session.bout.snapshot()
    assert resumed.bout.events_json() == session.bout.events_json()
    assert resumed.replay().snapshot() == session.bout.snapshot()
    # and both go on the same way
    for s in (session, resumed):
        if s.pending_decision() and s.pending_decision().person:
            first_option(s)
    assert resumed.bout.snapshot() == session.bout.snapshot()


def test_a_session_replays_as_a_plain_bout_from_seed_and_actions():
    session = PlaySession(settings(PERSON, "random", seed=6))
    play_first_options(session, 40)
    fresh = Bout(session.ruleset, session.bout.setup, seed=session.settings.seed)
    for action in session.actions:
        fresh.apply(action)
    assert fresh.snapshot() == session.bout.snapshot()


def test_agents_on_every_seat_play_to_the_end():
    session = PlaySession(settings("heuristic", "heuristic", "random", seed=7))
    taken = session.advance_agents()
    assert session.ended and session.pending_decision() is None
    assert session.bout.outcome is not None and taken == len(session.actions)


@pytest.mark.parametrize("seats", [(PERSON, PERSON), (PERSON, "heuristic", PERSON)])
def test_people_who_always_press_the_first_button_also_finish(seats):
    session = PlaySession(settings(*seats, seed=2))
    play_first_options(session, 5000)
    assert session.ended and session.bout.outcome is not None


def test_four_seats_one_person():
    session = PlaySession(settings(PERSON, "heuristic", "heuristic", "heuristic", seed=8))
    session.advance_agents()
    pending = session.pending_decision()
    assert pending is None or pending.actor == "red"
    assert sorted(session.bout.state.pieces[label].seat for label in session.labels) == \
        ["east", "north", "south", "west"]


def test_interjections_can_stop_for_people_when_asked():
    quiet = PlaySession(settings("heuristic", PERSON, seed=9))
    stopping = PlaySession(settings("heuristic", PERSON, seed=9, stop_for_interjections=True))
    quiet.advance_agents()
    assert quiet.pending_decision() is None or quiet.pending_decision().person
    for _ in range(300):
        stopping.advance_agents()
        pending = stopping.pending_decision()
        if pending is None or not pending.person:
            break
        first_option(stopping)
    assert pending is not None and pending.actor == "red" and not pending.person
    assert "blue" in pending.interjecting
    assert stopping.buttons("blue") and all(b.kind in ("ability", "card") for b in stopping.buttons("blue"))
    before = len(stopping.actions)
    assert stopping.advance_agents(people_pass=True) >= 1  # blue lets the moment go by
    assert stopping.actions[before].actor == "red"


def test_bad_session_files_are_refused_with_a_message(tmp_path: Path):
    not_json = tmp_path / "broken.playtest.json"
    not_json.write_text("{nope", encoding="utf-8")
    with pytest.raises(SessionError, match="not valid JSON"):
        PlaySession.load(not_json)
    session = PlaySession(settings(PERSON, PERSON))
    first_option(session)
    data = session.to_json()
    data["actions"][0]["actor"] = "green"
    tampered = tmp_path / "tampered.playtest.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SessionError, match="action 1"):
        PlaySession.load(tampered)
    with pytest.raises(SessionError, match="not a saved playtest"):
        PlaySession.from_json({"settings": {}})


def test_session_names_stay_inside_the_folder(tmp_path: Path):
    for name in ("../escape", "a/b", "", ".hidden", "x" * 100):
        with pytest.raises(ValueError):
            session_file(tmp_path, name)
    assert session_file(tmp_path, "Tuesday-2").parent == tmp_path
    assert list_sessions(tmp_path / "missing") == []


def test_settings_are_checked():
    with pytest.raises(ValueError):
        PlaySettings(seats=(PERSON,))
    with pytest.raises(ValueError):
        PlaySettings(seats=(PERSON, PERSON), motivations=("famished", "zealot", "hoarder"))
    with pytest.raises(ValueError, match="agent"):
        PlaySettings(seats=(PERSON, "genius"))
    with pytest.raises(ValueError, match="label"):
        PlaySettings(seats=(PERSON, PERSON), labels=("ann", "ann"))
    assert PlaySettings.from_json(settings(PERSON, "heuristic").to_json()) == settings(PERSON, "heuristic")


def test_the_packs_come_from_the_content_root_given(content_root: Path):
    session = PlaySession(PlaySettings(seats=("heuristic", "heuristic"), content_root=str(content_root), seed=1,
                                       labels=("ann", "bob")))
    assert session.ruleset.packs[0].path.startswith(str(content_root))
    assert session.labels == ["ann", "bob"]
    with pytest.raises(SessionError):
        PlaySession(PlaySettings(seats=(PERSON, PERSON), packs=("no_such_pack",), content_root=str(content_root)))
