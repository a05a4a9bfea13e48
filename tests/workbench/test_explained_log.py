"""The test run and the playtest play their bouts to be explained: each line of their logs
(`explain.LogLine`) keeps its event with the script statements under way, so a line can say why it
happened — a Turning Point card stacked on top of its deck, once drawn, is the cause of its effect's
lines, at its own file and line. A player's view of a game without a board hides a card in the
explanation's values as it does in the line. Batches stay unexplained."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.sim import batch as sim_batch
from nexus_dsl.workbench import playtest, table, testrun
from nexus_dsl.workbench.explain import LogLine, explain

CARD, CARD_NAME = "fan_favourite", "Fan Favourite"
EFFECT = "add_trait self SWAG by fan_swag"
SEED = 37  # red draws its first Turning Point card at step 24


def line_of(ruleset: Ruleset, file_end: str, text: str) -> tuple[str, int]:
    """The file (as the ruleset names it) ending in `file_end`, and the number of its line holding `text`."""
    file = next(name for name in ruleset.sources if name.endswith(file_end))
    lines = ruleset.sources[file].splitlines()
    return file, next(number for number, line in enumerate(lines, 1) if text in line)


def stacked(base: Ruleset) -> testrun.Stepper:
    settings = testrun.TestRunSettings(motivations=("random", "random"), lanistas=("random", "random"),
                                       barge="random", seed=SEED, stack_turning_points=(CARD,))
    return testrun.Stepper(settings, base)


def test_a_stacked_turning_point_drawn_is_the_cause_of_its_effect_at_its_file_and_line(base: Ruleset) -> None:
    stepper = stacked(base)
    for view in stepper.steps_to_end():
        assert view.lines == tuple(line.text for line in view.log)
        assert [line.event for line in view.log] == list(view.events) and all(
            line.event is event for line, event in zip(view.log, view.events))  # narrated from these very events
        assert all(event.cause is not None for event in view.events)  # every line explained
        effects = [line for line in view.log if line.tag == f"turning point {CARD_NAME}"]
        if effects:
            break
    else:
        pytest.fail("the stacked card was never drawn")
    assert view.index == 24
    draw = next(line for line in view.log if "draws Fan Favourite" in line.text)
    assert draw.tag == "rule The Turning Point Counter"  # the rule drew the card; the card did the rest

    [effect] = effects
    assert effect.text.strip() == "red's Swagger is now 2"
    why = explain(effect.event, base)
    file, line = line_of(base, "turning_points/crowd.nexus", EFFECT)
    main = why.main
    assert main is not None and (main.kind, main.ident, main.name) == ("turning_point", CARD, CARD_NAME)
    assert (main.file, main.line, main.text) == (file, line, EFFECT) and main.openable
    assert main.effect == "add_trait" and main.values == ("piece red", "`SWAG`", "by 2")
    assert why.reason == f"turning point {CARD_NAME}, at {file}:{line}:9: `{EFFECT}`"
    rule_file, rule_line = line_of(base, "rules/turning_points.nexus", "draw turning_point")
    assert [(c.kind, c.ident) for c in why.causes] == [("procedure", "command_cycle"), ("rule", "turning_point_counter"),
                                                       ("turning_point", CARD)]
    assert (why.causes[1].file, why.causes[1].line, why.causes[1].text) == (rule_file, rule_line, "draw turning_point")
    root = Path(file).parents[2]  # the content root the base pack was loaded from
    shown = explain(effect.event, base, root=root)
    assert shown.main is not None and shown.main.file == "base/turning_points/crowd.nexus"
    assert shown.reason == f"turning point {CARD_NAME}, at base/turning_points/crowd.nexus:{line}:9: `{EFFECT}`"


def test_a_lines_tag_names_the_cause_its_explanation_gives(base: Ruleset) -> None:
    """The tag beside a line and the reason its explanation gives follow one rule: every tagged line
    of a whole explained bout is explained by the very declaration its tag names."""
    stepper = stacked(base)
    tagged = 0
    for view in stepper.steps_to_end():
        for line in view.log:
            if line.tag is None:
                continue
            main = explain(line.event, base).main
            assert main is not None and main.label == line.tag, (line.text, line.tag, main)
            tagged += 1
    assert tagged > 100  # a whole bout's worth: the base game's rules, cards and abilities


def test_a_player_decision_carries_no_tag_and_batches_stay_unexplained(base: Ruleset, monkeypatch) -> None:
    stepper = stacked(base)
    first = stepper.step()
    command = next(line for line in first.log if line.event.type == "command")
    assert command.tag is None and explain(command.event, base).reason.endswith("'s player chose it")

    explained: list[bool] = []
    plain = sim_batch.Bout

    def recording(*args, **kwargs):
        explained.append(kwargs.get("explain", False))
        return plain(*args, **kwargs)

    monkeypatch.setattr(sim_batch, "Bout", recording)
    result = sim_batch.play_one(stepper.settings.bout_spec())
    assert result.error is None and explained == [False]  # a batch's bout is played for its figures alone


def test_a_playtest_keeps_the_causes_of_its_log_when_resumed(tmp_path: Path) -> None:
    settings = playtest.PlaySettings(seats=("heuristic", "heuristic"), barge="gutter_ring", seed=3,
                                     motivations=("famished", "zealot"), lanistas=("madame_oorl", "tibbet_kreen"))
    session = playtest.PlaySession(settings)
    session.advance_agents(max_steps=60)
    log = session.log()
    assert [line.text for line in log] == session.log_lines() and all(line.event.cause is not None for line in log)
    counter = next(line for line in log if line.tag == "rule The Turning Point Counter")
    why = explain(counter.event, session.ruleset)
    file, line = line_of(session.ruleset, "rules/turning_points.nexus", "mark_counter self tp_counter self.ratio")
    assert why.main is not None and (why.main.file, why.main.line) == (file, line)

    path = session.save(tmp_path / "why.playtest.json")
    resumed = playtest.PlaySession.load(path)
    again = resumed.log()
    assert [(line.text, line.tag) for line in again] == [(line.text, line.tag) for line in log]
    assert explain(again[counter.seq].event, resumed.ruleset).lines() == why.lines()
    assert "cause" not in json.dumps(json.loads(path.read_text())["actions"])  # the file keeps actions alone


def test_a_player_reads_no_hidden_card_in_a_lines_explanation() -> None:
    pirates = cached_ruleset(("nexus_pirates",))
    stepper = testrun.Stepper(testrun.TestRunSettings(packs=("nexus_pirates",), motivations=(None, None), seed=1),
                              pirates)
    first = stepper.step()
    designer: list[LogLine] = [line for line in first.log if "to hand of blue" in line.text]
    red: list[LogLine] = [line for line in stepper.seen_log(first, "red") if "to hand of blue" in line.text]
    assert designer and len(red) == len(designer)
    for seen, whole in zip(red, designer):
        card = whole.event.data["card"]
        told = explain(whole.event, pirates).causes[-1]  # the setup's procedure dealing the card
        assert told.effect == "move_card" and f"`{card}`" in told.values  # the designer sees which card
        hidden = explain(seen.event, pirates).causes[-1]
        assert seen.text.strip().startswith(f"{table.HIDDEN_CARD} moves")
        assert (hidden.file, hidden.line, hidden.text) == (told.file, told.line, told.text)
        assert table.HIDDEN_CARD in hidden.values and not any(card in value for value in hidden.values)
    # blue sees its own hand: its lines and their explanations name the cards
    blue = [line for line in stepper.seen_log(first, "blue") if "to hand of blue" in line.text]
    assert [explain(line.event, pirates).causes[-1].values for line in blue] == [
        explain(line.event, pirates).causes[-1].values for line in designer]
