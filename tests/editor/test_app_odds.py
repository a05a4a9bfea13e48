"""The odds page shows the exact chance of SD against SD, the margins and the full 7x7 table."""

from __future__ import annotations

from fractions import Fraction

from editor_app import open_page, texts
from nexus_dsl.workbench.odds import matchup_odds


def test_sd_against_sd(app_env) -> None:
    expected = matchup_odds(0, 0).success
    assert expected == Fraction(575, 1296)
    at = open_page("odds.py")
    assert not at.exception, at.exception
    shown = texts(at)
    assert "575/1296" in shown and "44.4%" in shown
    table = at.dataframe[-1].value
    assert table.shape == (7, 7)
    assert table.loc["SD", "SD"] == "44.4%"


def test_levels_change_the_odds(app_env) -> None:
    at = open_page("odds.py")
    at.selectbox(key="odds_attack").select(2).run()
    assert not at.exception, at.exception
    success = matchup_odds(2, 0).success
    assert f"{success.numerator}/{success.denominator}" in texts(at)
