"""Stepping through a test bout: steps end after a command, ability or card; the same settings replay
the same steps; stacked and dealt cards are where the settings put them; bad settings are diagnostics."""

from __future__ import annotations

import pytest

from nexus_dsl.sim.batch import play_one
from nexus_dsl.workbench.testrun import (BETWEEN_COMMANDS, STEP_EVENTS, SettingsError, Stepper, TestRunSettings,
                                         _item_problems, die_meaning, settings_problems)


def _settings(base, **changes) -> TestRunSettings:
    motivations = tuple(item["id"] for item in base.data_items("motivations"))[:2]
    lanistas = tuple(item["id"] for item in base.data_items("lanistas"))[:2]
    values = dict(motivations=motivations, lanistas=lanistas, barge="random", seed=11)
    values.update(changes)
    return TestRunSettings(**values)


def _fingerprint(view) -> tuple:
    return (view.index, view.headline, view.lines, view.dice, view.snapshot, view.actions,
            [event.to_json() for event in view.events])


def test_a_step_ends_after_one_command_ability_or_card(base):
    stepper = Stepper(_settings(base), base)
    for _ in range(8):
        view = stepper.step()
        if view.finished:
            break
        assert any(event.type in STEP_EVENTS for event in view.events)
        assert view.waiting_for is not None and view.waiting_for.kind in BETWEEN_COMMANDS
        assert view.lines and view.pieces.keys() == {"red", "blue"}
        assert view.cred == {**{label: h.cred for label, h in view.pieces.items()}, "crowd": view.crowd}
    first = Stepper(_settings(base), base).step()
    assert first.index == 1 and first.events[0].seq == 0  # the first step shows the setup's events too


def test_the_same_settings_replay_the_same_steps(base):
    one, two = Stepper(_settings(base), base), Stepper(_settings(base), base)
    for _ in range(12):
        assert _fingerprint(one.step()) == _fingerprint(two.step())
    end_one, end_two = one.run_to_end(), two.run_to_end()
    assert end_one.finished and end_two.finished and one.outcome == two.outcome == end_one.outcome == end_two.outcome
    assert one.actions == two.actions
    assert one.bout.events_json() == two.bout.events_json()


def test_saved_actions_replay_the_run(base):
    original = Stepper(_settings(base, agents=("random", "heuristic")), base)
    original.run_to_end()
    replayed = Stepper(_settings(base, agents=("random", "heuristic")), base, script=original.actions_json())
    replayed.run_to_end()
    assert replayed.actions == original.actions
    assert replayed.bout.events_json() == original.bout.events_json()


def test_a_stepped_bout_is_the_batch_bout_of_the_same_seed(base):
    settings = _settings(base, seed=4)
    stepper = Stepper(settings, base)
    stepper.run_to_end()
    result = play_one(settings.bout_spec())
    assert result.error is None
    assert (result.winner, result.totals, result.crowd, result.cycles) == (
        stepper.outcome.winner, stepper.outcome.totals, stepper.outcome.piles["crowd"], stepper.bout.state.cycle)


def test_dice_carry_purpose_sides_and_value(base):
    stepper = Stepper(_settings(base), base)
    dice = [die for _ in range(6) for die in stepper.step().dice]
    assert any(d.purpose == "trait_die" and d.sides == 6 for d in dice)
    assert all(1 <= d.value <= d.sides for d in dice)


def test_stacked_turning_points_are_on_top_of_their_deck(base):
    cards = [d.id for d in base.declarations("turning_point")][-2:]
    stepper = Stepper(_settings(base, stack_turning_points=tuple(reversed(cards))), base)
    assert stepper.bout.state.decks["turning_point"][:2] == list(reversed(cards))


def test_dealt_influence_joins_the_hand(base):
    card = [d.id for d in base.declarations("influence")][2]
    add = Stepper(_settings(base, deal_influence={"blue": (card,)}), base)
    while add.bout.pending is not None and add.bout.pending.kind == "keep_influence":
        add._apply_next()
    blue = add.bout.state.pieces["blue"]
    kept = base.data_item("lanistas", blue.profile)["influence"]
    assert card in blue.hand and len(blue.hand) == kept + 1
    assert card not in add.bout.state.pieces["red"].hand

    replaced = Stepper(_settings(base, deal_influence={"blue": (card,)}, deal_mode="replace"), base)
    while replaced.bout.pending is not None and replaced.bout.pending.kind == "keep_influence":
        replaced._apply_next()
    assert replaced.bout.state.pieces["blue"].hand == [card]


def test_bad_settings_are_diagnostics_naming_the_field(base):
    settings = TestRunSettings(motivations=("hoardr", None), barge="nowhere", agents=("clever",),
                               stack_turning_points=("no_card",), deal_influence={"purple": ()}, deal_mode="swap")
    problems = settings_problems(settings, base)
    messages = " | ".join(p.message for p in problems)
    for word in ("motivations", "barge", "agent", "stack_turning_points", "purple", "deal_mode"):
        assert word in messages
    assert all(p.code.startswith("testrun/") and p.file == "<test run settings>" for p in problems)
    assert any(p.hint and "hoarder" in p.hint for p in problems)
    with pytest.raises(SettingsError):
        Stepper(settings, base)
    assert settings_problems(TestRunSettings(motivations=("hoarder",)), base)  # one player is too few
    card = [d.id for d in base.declarations("influence")][0]
    repeated = TestRunSettings(deal_influence={"red": (card,), "blue": (card,)})
    assert [p.code for p in settings_problems(repeated, base)] == ["testrun/repeated_card"]


def test_a_step_after_the_end_changes_nothing(base):
    stepper = Stepper(_settings(base), base)
    stepper.run_to_end()
    view = stepper.step()
    assert view.finished and view.events == () and view.actions == ()


def test_motivations_and_lanistas_may_be_drawn_at_random_by_the_bout(base):
    """`random` is the real game: each player's motivation and lanista drawn with the bout's dice,
    from those no other player has; a stepped bout and the batch's bout of that seed draw alike."""
    settings = TestRunSettings(motivations=("random", "random"), lanistas=("random", "random"), barge="random", seed=4)
    assert settings_problems(settings, base) == []
    stepper = Stepper(settings, base)
    pieces = stepper.bout.state.pieces.values()
    assert all(piece.role in base.data["motivations"] and piece.profile in base.data["lanistas"] for piece in pieces)
    assert len({piece.role for piece in pieces}) == 2 and len({piece.profile for piece in pieces}) == 2
    result = play_one(settings.bout_spec())
    assert result.motivations == {piece.label: piece.role for piece in pieces}
    assert result.lanistas == {piece.label: piece.profile for piece in pieces}


def test_more_random_draws_than_items_left_is_a_settings_problem(base):
    motivations = list(base.data["motivations"])
    assert settings_problems(TestRunSettings(motivations=(motivations[0], "random", "random", "random")), base) == []
    # two named alike leave three for two draws
    assert settings_problems(TestRunSettings(motivations=(motivations[0], motivations[0], "random", "random")), base) == []
    wrong = TestRunSettings(motivations=("random",) * 2, lanistas=(motivations[0], "random"))
    assert [p.code for p in settings_problems(wrong, base)] == ["testrun/unknown_id"]  # a motivation is no lanista
    # A pack of two lanistas, one named outright: one left for two draws.
    problems = _item_problems("lanistas", ("vask", "random", "random"), ["vask", "oorl"])
    assert [p.code for p in problems] == ["testrun/too_few_to_draw"]
    assert problems[0].message == ("lanistas: 2 to draw at random, but the loaded packs hold 2, 1 of them chosen "
                                   "outright (players draw different ones)")
    assert _item_problems("lanistas", ("random", "random"), ["random"]) == []  # an item of that id is named


def test_steps_to_the_end_are_the_steps_one_press_at_a_time(base):
    pressed, at_once = Stepper(_settings(base, seed=6), base), Stepper(_settings(base, seed=6), base)
    first = at_once.step()
    assert _fingerprint(first) == _fingerprint(pressed.step())
    one_by_one = []
    while not pressed.finished:
        one_by_one.append(pressed.step())
    rest = at_once.steps_to_end()
    assert [_fingerprint(view) for view in rest] == [_fingerprint(view) for view in one_by_one]
    assert [view.index for view in rest] == list(range(2, 2 + len(rest))) and len(rest) > 10
    assert at_once.steps_to_end() == []  # nothing left


def test_each_die_says_whose_it_was_and_what_a_location_die_meant(base):
    stepper = Stepper(_settings(base, seed=2), base)
    dice = [die for view in stepper.steps_to_end() for die in view.dice]
    table = list(base.settings["random_location_table"])
    locations = [die for die in dice if die.purpose == "location"]
    assert locations and all(die.meaning == table[die.value - 1].replace("_", " ") for die in locations)
    assert all(die.meaning is None for die in dice if die.purpose != "location")
    attacks = [die for die in dice if die.purpose in ("attack", "defense")]
    assert attacks and all(die.whose in ("red", "blue") for die in attacks)
    assert die_meaning(base, "location", 7) is None and die_meaning(base, "attack", 1) is None
