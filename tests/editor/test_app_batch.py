"""Batch mode: a small batch shows win rates, distributions and the followed card; an A/B
comparison with and without a stacked Turning Point card shows its verdicts."""

from __future__ import annotations

from editor_app import open_page, texts


def test_small_batch_and_ab(app_env) -> None:
    at = open_page("test_run.py")
    at.multiselect(key="tr_stack").select("crowd_riot").run()
    assert not at.exception, at.exception
    at.number_input(key="tr_bouts").set_value(6)
    at.button(key="tr_run_batch").click().run()
    assert not at.exception, at.exception
    shown = texts(at)
    assert "**6 bouts**" in shown, shown
    wins = next(d.value for d in at.dataframe if "win rate" in d.value.columns)
    assert list(wins["player"]) == ["red", "blue"]
    assert all(0 <= low <= high <= 1 for low, high in zip(wins["95% low"], wins["95% high"]))
    assert "crowd_riot: played" in shown  # the stacked card is followed through the batch
    # The crowd's cred in a chart of its own, so its tall bars do not squash the players'.
    assert "**The crowd's final cred (bouts per 10-cred bin)**" in shown
    followed = next(d.value for d in at.dataframe if "drawn" in d.value.columns).set_index("id")
    assert "crowd_riot" in followed.index

    at.button(key="tr_run_ab").click().run()
    assert not at.exception, at.exception
    differences = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    assert "red win rate" in set(differences["figure"])
    assert set(differences["verdict"]) <= {"significant at 5%", "not significant"}
    rates = differences.set_index("figure")
    assert rates.loc["red win rate", "A"].endswith("%") and rates.loc["red win rate", "B − A"].endswith("points")
    assert not rates.loc["red mean final cred", "A"].endswith("%")
    # The verdict in words above the figures: how often the stacked card came into play, and the bouts
    # a clear answer on the smallest change that matters would take.
    verdict = next(i.value for i in at.info if "came into play" in i.value)
    assert verdict.startswith("The new content (`crowd_riot`) came into play in ")
    assert "To detect a change of 5 points" in verdict or "moved by less than 5 points" in verdict


def test_an_ab_comparison_keeps_playing_until_its_answer_is_clear(app_env) -> None:
    at = open_page("test_run.py")
    at.multiselect(key="tr_stack").select("crowd_riot").run()
    at.number_input(key="tr_bouts").set_value(15)
    at.checkbox(key="tr_ab_until_clear").check().run()
    at.number_input(key="tr_ab_limit").set_value(30).run()
    at.button(key="tr_run_ab").click().run()
    assert not at.exception, at.exception
    shown = at.session_state["tr_comparison"]
    assert [look.bouts for look in shown.run.looks] == [15, 30]  # fewer than 30 pairs never stop the test
    assert "Stopped at the limit of 30 bouts per side" in texts(at)
    assert shown.comparison.b.bouts == 30
