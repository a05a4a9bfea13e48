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


def test_what_one_more_sds_is_worth(app_env) -> None:
    at = open_page("odds.py")
    at.selectbox(key="odds_attack").select(1).run()
    at.selectbox(key="odds_defense").select(-1).run()
    assert not at.exception, at.exception
    here, better = matchup_odds(1, -1), matchup_odds(2, -1)
    gain = float(better.success - here.success) * 100
    shown = texts(at)
    assert "against a -SDS defense" in shown
    assert "+SDS → +2SDS" in shown and f"**{gain:+.1f} points**" in shown
    worth = next(d.value for d in at.dataframe if "gain over the level below" in d.value.columns)
    assert list(worth["attack"]) == ["-3SDS", "-2SDS", "-SDS", "SD", "+SDS", "+2SDS", "+3SDS"]
    assert worth.set_index("attack").loc["+2SDS", "gain over the level below"] == f"{gain:+.1f} points"
    at.selectbox(key="odds_attack").select(3).run()
    assert "top of the scale" in texts(at)
