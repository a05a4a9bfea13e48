"""Batches of test bouts, watched cards, and A/B comparisons with their statistics."""

from __future__ import annotations

import math

import pytest

from nexus_dsl.engine.bout import Event
from nexus_dsl.sim.rates import Rate
from nexus_dsl.sim.batch import watched_uses
from nexus_dsl.workbench.batch import compare, mean_difference, proportion_difference, run_batch
from nexus_dsl.workbench.testrun import SettingsError, TestRunSettings

RIOT = "crowd_riot"  # a base Turning Point card: 3 damage to the crowd and Prone for every fighting helot


def _settings(**changes) -> TestRunSettings:
    values = dict(motivations=("hoarder", "famished"), lanistas=("vask_the_unbought", "madame_oorl"),
                  barge="random", seed=0)
    values.update(changes)
    return TestRunSettings(**values)


def test_a_batch_reports_rates_cred_lengths_and_progress(base):
    ticks: list[tuple[int, int]] = []
    report = run_batch(_settings(), 4, progress=lambda done, total: ticks.append((done, total)), workers=1, ruleset=base)
    assert ticks == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [r.seed for r in report.results] == [0, 1, 2, 3]
    assert report.errors == []
    wins = report.wins
    assert set(wins) == {"red", "blue"} and all(rate.bouts == 4 for rate in wins.values())
    assert sum(rate.wins for rate in wins.values()) + report.draws.wins == 4
    cred = report.cred
    assert set(cred) == {"red", "blue", "crowd"} and all(len(values) == 4 for values in cred.values())
    assert cred["red"] == [r.totals["red"] for r in report.results]
    assert len(report.cycles) == 4 and all(c > 0 for c in report.cycles)
    assert report.lines()[0].startswith("4 bouts (seeds 0..3)")


def test_worker_processes_play_the_same_bouts(base):
    alone = run_batch(_settings(seed=20), 4, workers=1, ruleset=base)
    shared = run_batch(_settings(seed=20), 4, workers=2, ruleset=base)
    assert [(r.seed, r.winner, r.totals, r.crowd, r.cycles) for r in alone.results] == [
        (r.seed, r.winner, r.totals, r.crowd, r.cycles) for r in shared.results]


def test_a_watched_card_is_counted_with_what_followed_it(base):
    report = run_batch(_settings(stack_turning_points=(RIOT,)), 4, workers=1, watched=(RIOT,), ruleset=base)
    riot = report.watched[RIOT]
    per_bout = [r.watched[RIOT] for r in report.results if RIOT in r.watched]
    assert riot.bouts == len(per_bout) >= 1 and riot.drawn == sum(u.drawn for u in per_bout)
    assert riot.played == 0  # a Turning Point card is drawn, never played from a hand
    # Every fighting helot takes 3 to the crowd and falls prone, unless it paid to negate.
    assert riot.damage == 3 * riot.hits and riot.states_added.get("prone", 0) == riot.hits
    assert riot.crowd_change >= riot.damage


def test_watched_uses_stop_at_the_next_command():
    def event(seq: int, kind: str, **data) -> Event:
        return Event(seq, 1, "red", kind, data)

    log = [
        event(0, "command", helot="red", command="standard_attack", args={}),
        event(1, "card", helot="red", name="loaded_dice", args={}),
        event(2, "coins", amount=4, source="overall:blue", dest="cred:red", reason="attack"),
        event(3, "damage", victim="blue", amount=4, location="head", location_taken=1, overall_taken=4, to="cred:red"),
        event(4, "state", helot="blue", added="bleeding"),
        event(5, "coins", amount=1, source="crowd", dest="cred:red", reason="crowd pleaser"),
        event(6, "command", helot="red", command="standard_attack", args={}),
        event(7, "damage", victim="blue", amount=2, location=None, location_taken=0, overall_taken=2, to="cred:red"),
    ]
    uses = watched_uses(log, frozenset({"loaded_dice", "unused"}))
    assert set(uses) == {"loaded_dice"}
    use = uses["loaded_dice"]
    assert (use.played, use.drawn, use.users) == (1, 0, ["red"])
    assert (use.damage, use.hits, use.cred_gained, use.cred_lost, use.crowd_change) == (5, 1, 5, 0, -1)
    assert use.states_added == {"bleeding": 1}


def test_two_proportion_z_test_by_hand():
    diff = proportion_difference("red win rate", Rate(50, 100), Rate(65, 100))
    pooled_se = math.sqrt(0.575 * 0.425 * 2 / 100)
    z = 0.15 / pooled_se
    assert diff.difference == pytest.approx(0.15)
    assert diff.p_value == pytest.approx(math.erfc(z / math.sqrt(2)))  # two-sided: about 0.032
    assert diff.p_value == pytest.approx(0.0319, abs=5e-4)
    spread = 1.959964 * math.sqrt(0.25 / 100 + 0.65 * 0.35 / 100)
    assert diff.interval == pytest.approx((0.15 - spread, 0.15 + spread), abs=1e-6)
    assert diff.verdict == "significant at 5%" and "significant at 5%" in diff.sentence()
    same = proportion_difference("draws", Rate(0, 10), Rate(0, 10))
    assert same.p_value == 1.0 and same.verdict == "not significant"


def test_welch_t_test_by_hand():
    a, b = [1, 2, 3, 4, 5], [2, 4, 6, 8, 10]
    diff = mean_difference("red mean final cred", a, b)
    se = math.sqrt(2.5 / 5 + 10 / 5)
    df = (0.5 + 2) ** 2 / (0.5 ** 2 / 4 + 2 ** 2 / 4)
    assert diff.difference == 3
    assert df == pytest.approx(5.882, abs=1e-3)
    # t = 3 / se = 1.8974 on 5.88 degrees of freedom: two-sided p = 0.1075, t(0.975) = 2.4588.
    assert diff.p_value == pytest.approx(0.1075, abs=2e-4)
    assert diff.verdict == "not significant"
    low, high = diff.interval
    assert (low + high) / 2 == pytest.approx(3)
    assert (high - low) / 2 == pytest.approx(2.4588 * se, abs=1e-3)
    # Spread on one side only still tests; no spread at all gives no test.
    assert mean_difference("x", [3, 3, 3], [1, 2, 3]).p_value < 1
    flat = mean_difference("x", [2, 2], [2, 2])
    assert flat.p_value == 1.0 and flat.interval == (0, 0)


def test_compare_plays_the_same_seeds_under_both_settings(base):
    ticks: list[int] = []
    comparison = compare(_settings(seed=7), _settings(seed=99), 4, progress=lambda done, total: ticks.append(done),
                         workers=1, ruleset_a=base, ruleset_b=base)
    assert ticks == list(range(1, 9))
    assert [r.seed for r in comparison.b.results] == [7, 8, 9, 10]  # A's seeds, whatever B's own seed
    # The same settings on the same seeds: nothing differs, and nothing is called significant.
    assert all(d.difference == 0 and not d.significant for d in comparison.differences)
    assert set(comparison.wins) == {"red", "blue"} and set(comparison.cred) == {"red", "blue", "crowd"}
    assert len(comparison.lines()) == len(comparison.differences)


def test_bad_settings_stop_a_batch_before_it_starts(base):
    with pytest.raises(SettingsError):
        run_batch(_settings(barge="nowhere"), 2, ruleset=base)


def test_a_comparison_plays_both_halves_in_one_run_and_reports_each_as_its_own_batch(base, monkeypatch):
    from nexus_dsl.workbench import batch as workbench_batch

    runs: list[list[tuple[tuple[str, ...], int]]] = []
    run_specs = workbench_batch.run_specs

    def counted(specs, **options):
        runs.append([(spec.packs, spec.seed) for spec in specs])
        return run_specs(specs, **options)

    monkeypatch.setattr(workbench_batch, "run_specs", counted)
    a, b = _settings(seed=3), _settings(seed=3, packs=("base", "steady_on_three"))
    ticks: list[tuple[int, int]] = []
    comparison = compare(a, b, 4, progress=lambda done, total: ticks.append((done, total)), workers=2, ruleset_a=base)
    # One run of the backend (workers started once), A's bouts first, then B's on the same seeds.
    assert runs == [[(("base",), seed) for seed in range(3, 7)] + [(("base", "steady_on_three"), seed)
                                                                    for seed in range(3, 7)]]
    assert ticks == [(done, 8) for done in range(1, 9)]
    # Each half is the batch its settings play alone.
    assert comparison.a.results == run_batch(a, 4, workers=1, ruleset=base).results
    assert comparison.b.results == run_batch(b, 4, workers=1).results
    assert comparison.b.settings.packs == ("base", "steady_on_three") and comparison.a.settings.packs == ("base",)


def test_the_same_packs_loaded_twice_are_compared_in_two_runs_each_with_its_own_load(base, monkeypatch):
    from nexus_dsl import load_ruleset
    from nexus_dsl.workbench import batch as workbench_batch

    runs: list[int] = []
    run_specs = workbench_batch.run_specs

    def counted(specs, **options):
        runs.append(len(specs))
        assert list(options["rulesets"].values()) in ([base], [other])
        return run_specs(specs, **options)

    monkeypatch.setattr(workbench_batch, "run_specs", counted)
    other = load_ruleset(("base",))
    assert other is not base
    ticks: list[int] = []
    comparison = compare(_settings(seed=7), _settings(seed=7), 4, progress=lambda done, total: ticks.append(done),
                         workers=1, ruleset_a=base, ruleset_b=other)
    assert runs == [4, 4] and ticks == list(range(1, 9))
    assert comparison.a.results == comparison.b.results
