"""An A/B comparison read in plain words: the uptake of the new content, what moved and how sure we
are, and the bouts needed to detect the smallest change that matters."""

from __future__ import annotations

import pytest

from nexus_dsl.content.loader import cached_ruleset
from nexus_dsl.sim.batch import BoutResult, WatchedUse
from nexus_dsl.workbench.ab_verdict import bouts_needed, how_sure, new_content, uptake, verdict
from nexus_dsl.workbench.batch import compare_reports, summarise
from nexus_dsl.workbench.testrun import TestRunSettings

SETTINGS = TestRunSettings(motivations=("hoarder", "famished"))


def _results(winners: list[str | None], card_in: int = 0, card: str = "poisoned_blade") -> list[BoutResult]:
    """Finished bouts won as `winners` says, red's cred 10 when it won; the first `card_in` of them
    with `card` played once."""
    results = []
    for seed, winner in enumerate(winners):
        result = BoutResult(seed, winner=winner, totals={"red": 10 if winner == "red" else 5, "blue": 6}, crowd=4)
        if seed < card_in:
            result.watched = {card: WatchedUse(played=1)}
        results.append(result)
    return results


def _comparison(winners_a: list[str | None], winners_b: list[str | None], card_in: int = 0):
    report_a = summarise(SETTINGS, _results(winners_a), ("poisoned_blade",))
    report_b = summarise(SETTINGS, _results(winners_b, card_in), ("poisoned_blade",))
    return compare_reports(report_a, report_b)


def test_bouts_needed_is_the_two_proportion_power_calculation() -> None:
    # The textbook figure: 50% against 55% at the 5% level with 80% power takes 1,565 per group
    # (Cohen's h = 0.1002).
    assert bouts_needed(0.5, 0.05) == 1565
    assert bouts_needed(0.5, -0.05) == 1565
    assert bouts_needed(0.5, 0.10) < bouts_needed(0.5, 0.05) < bouts_needed(0.5, 0.02)
    assert bouts_needed(0.9, 0.05) < bouts_needed(0.5, 0.05)  # rates near the edge vary less
    assert bouts_needed(0.5, 0.0) is None and bouts_needed(0.97, 0.05) is None


def test_how_sure_says_the_odds_of_chance() -> None:
    assert how_sure(0.01) == "chance alone would give it about once in 100 comparisons (p = 0.01)"
    assert how_sure(0.032) == "chance alone would give it about once in 31 comparisons (p = 0.032)"
    assert how_sure(0.0004) == "chance alone would give it less than once in a thousand comparisons"
    assert how_sure(0.0).startswith("chance alone would practically never")


def test_uptake_counts_the_bouts_in_which_the_new_content_came_into_play() -> None:
    report = summarise(SETTINGS, _results(["red", "blue"] * 50, card_in=37), ("poisoned_blade",))
    seen = uptake(report, ["poisoned_blade"])
    assert (seen.bouts_with, seen.bouts, seen.played, seen.drawn) == (37, 100, 37, 0)
    assert seen.sentence() == ("The new content (`poisoned_blade`) came into play in 37 of the 100 bouts with it "
                               "(37%; played 37 times).")
    never = uptake(report, ["crowd_riot"])
    assert never.sentence().endswith("never came into play in the 100 bouts with it, so whatever differs below is "
                                     "chance alone.")


def test_a_clear_change_is_named_with_its_size_and_odds() -> None:
    comparison = _comparison(["red"] * 40 + ["blue"] * 60, ["red"] * 70 + ["blue"] * 30, card_in=90)
    text = verdict(comparison, ["poisoned_blade"])
    assert text.startswith("The new content (`poisoned_blade`) came into play in 90 of the 100 bouts with it")
    assert "What moved: " in text and "red win rate rose from 40.0% to 70.0% (+30.0 points" in text
    assert "less than once in a thousand comparisons" in text
    assert "Nothing moved clearly" not in text


def test_no_clear_change_says_so_and_how_many_bouts_it_would_take() -> None:
    comparison = _comparison(["red", "blue"] * 50, ["red", "blue", "blue", "red"] * 25, card_in=10)
    text = verdict(comparison, ["poisoned_blade"])
    assert "Nothing moved clearly" in text and "What moved" not in text
    assert "To detect a change of 5 points in red win rate (now 50.0%) 80% of the time takes about 1,565 bouts " \
           "per side; this comparison played 100." in text
    wider = verdict(comparison, ["poisoned_blade"], smallest=0.10)
    assert "To detect a change of 10 points" in wider and f"{bouts_needed(0.5, 0.10):,} bouts" in wider


def test_a_comparison_with_nothing_finished_says_there_is_nothing_to_compare() -> None:
    broken = [BoutResult(0, error="boom")]
    comparison = compare_reports(summarise(SETTINGS, broken), summarise(SETTINGS, broken))
    assert verdict(comparison) == "A or B has no bout played to its end, so there is nothing to compare."


@pytest.mark.parametrize("forced", [(), ("crowd_riot",)])
def test_new_content_is_the_forced_cards_and_what_the_added_pack_declares(forced: tuple[str, ...]) -> None:
    base = cached_ruleset(("base",))
    with_pack = cached_ruleset(("base", "poison_gallery"))
    added = new_content(base, with_pack, forced)
    assert added[: len(forced)] == list(forced)
    declared = {d.id for kind in ("influence", "turning_point", "trait_ability") for d in with_pack.declarations(kind)}
    in_base = {d.id for kind in ("influence", "turning_point", "trait_ability") for d in base.declarations(kind)}
    assert set(added) - set(forced) == declared - in_base and declared - in_base
    assert new_content(base, base) == []
