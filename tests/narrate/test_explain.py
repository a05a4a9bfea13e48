"""Why a line happened, in a designer's words (`workbench/explain.py`), and `nexus play --explain`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nexus_dsl.agents import make_agent
from nexus_dsl.cli import main
from nexus_dsl.content.loader import load_ruleset
from nexus_dsl.engine.bout import Bout, next_action
from nexus_dsl.engine.setup import standard_setup
from nexus_dsl.model.ruleset import Ruleset
from nexus_dsl.workbench.explain import explain, explain_all


@pytest.fixture(scope="module")
def base() -> Ruleset:
    return load_ruleset(["base"])


def played(ruleset: Ruleset, seed: int, explain_it: bool = True) -> Bout:
    setup = standard_setup(players=2)
    agents = {piece.label: make_agent("heuristic", seed=seed * 31 + i) for i, piece in enumerate(setup.pieces)}
    bout = Bout(ruleset, setup, seed=seed, explain=explain_it)
    while bout.pending is not None:
        bout.apply(next_action(bout, agents))
    return bout


def test_a_card_s_effect_is_explained_by_the_card_and_its_script_line(base: Ruleset) -> None:
    bout = played(base, 1)
    draw = next(event for event in bout.log if event.type == "draw" and event.data.get("card"))
    card = base.declaration("turning_point", draw.data["card"])
    assert card is not None
    effect = next(event for event in bout.log[draw.seq + 1:]
                  if event.cause and event.cause[-1].declaration is card)
    why = explain(effect, base)
    assert why.main is not None and why.main.ident == card.id and why.main.name == card.name
    assert why.main.kind == "turning_point" and why.main.openable
    source = base.sources[why.main.file].splitlines()[why.main.line - 1]
    assert why.main.text and why.main.text in source and "#" not in why.main.text
    assert card.name in why.reason and why.main.where in why.reason
    # The rule that drew the card is named among the statements it ran within.
    drawer = explain(draw, base).main
    assert drawer is not None and drawer.kind == "rule" and drawer.effect == "draw"
    assert any(cause.ident == drawer.ident for cause in why.causes[:-1])


def test_a_choice_is_the_player_s_and_the_sequence_is_the_game_s(base: Ruleset) -> None:
    bout = played(base, 2)
    whys = explain_all(bout.log, base)
    command = next(why for why, event in zip(whys, bout.log) if event.type == "command")
    assert command.reason.startswith(f"{bout.log[command.seq].data['helot']}'s player chose it")
    start = next(why for why, event in zip(whys, bout.log) if event.type == "round_start")
    assert start.reason.startswith("the game's sequence")
    rolled = next(why for why, event in zip(whys, bout.log) if event.data.get("dice"))
    assert rolled.dice and all(" d" in die for die in rolled.dice)


def test_an_unexplained_bout_says_it_cannot_tell(base: Ruleset) -> None:
    bout = played(base, 2, explain_it=False)
    why = explain(bout.log[5], base)
    assert not why.explained and why.causes == () and "not played to be explained" in why.reason


def test_play_explain_prints_why_under_the_lines_and_logs_the_causes(tmp_path: Path, capsys) -> None:
    log = tmp_path / "bout.jsonl"
    assert main(["play", "--seed", "1", "--explain", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "why: turning point " in out and "content/base/rules/turning_points.nexus:" in out
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert all("cause" in line for line in lines)
    drawn = next(line for line in lines if line["type"] == "draw")
    assert drawn["cause"][-1]["kind"] == "rule" and drawn["cause"][-1]["effect"] == "draw"
    # Without --explain the log is the one it always was: no causes, the same lines otherwise.
    plain = tmp_path / "plain.jsonl"
    assert main(["play", "--seed", "1", "--log", str(plain)]) == 0
    for line in lines:
        del line["cause"]
    assert [json.loads(line) for line in plain.read_text().splitlines()] == lines
