"""Options that name content must name something that exists: otherwise an error with a suggestion."""

from __future__ import annotations

import pytest

from nexus_dsl.cli import main


def test_an_unknown_card_type_is_an_error_with_a_suggestion(capsys):
    assert main(["cards", "--type", "comand"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "unknown content type `comand`" in err and "did you mean `command`" in err
    assert "trait_ability" in err  # the types there are


def test_a_type_nothing_is_close_to_lists_the_types(capsys):
    assert main(["cards", "--type", "foo"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "unknown content type `foo`" in err and "did you mean" not in err
    assert "choose from" in err and "barges" in err


@pytest.mark.parametrize("kind", ["command", "trait_ability", "hazard", "turning_point", "influence", "weapon", "rule",
                                  "barges", "barge", "lanistas", "lanista", "motivations", "objects", "object"])
def test_every_known_type_lists_its_cards(capsys, kind):
    assert main(["cards", "--type", kind, "--format", "json"]) == 0
    assert capsys.readouterr().out.startswith("[\n")


def test_an_unknown_barge_is_refused_before_a_bout_is_played(capsys):
    assert main(["play", "--barge", "pincushon", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "unknown barge `pincushon`" in err and "did you mean `pincushion`?" in err


def test_layout_is_the_option_barge_is_the_base_game_s_name_for(capsys):
    assert main(["play", "--layout", "pincushon", "--quiet"]) == 2
    assert "unknown barge `pincushon`" in capsys.readouterr().err  # in the game's own word
    assert main(["play", "--layout", "pincushion", "--quiet"]) == 0


def test_simulate_refuses_an_unknown_barge_before_playing(capsys):
    assert main(["simulate", "--bouts", "2", "--workers", "1", "--barge", "gutter", "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert "unknown barge `gutter`" in err and "gutter_ring" in err and out == ""


def test_an_unknown_agent_is_an_error_with_a_suggestion(capsys):
    assert main(["play", "--agents", "heuristc", "--quiet"]) == 2
    assert "unknown agent `heuristc` (did you mean `heuristic`?)" in capsys.readouterr().err
    assert main(["simulate", "--bouts", "1", "--agents", "randm", "--quiet"]) == 2
    assert "did you mean `random`?" in capsys.readouterr().err


def test_an_unknown_id_to_show_suggests_one(capsys):
    assert main(["show", "hay_maker"]) == 2
    assert "did you mean `haymaker`?" in capsys.readouterr().err
